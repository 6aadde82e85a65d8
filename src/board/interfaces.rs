//! The other ends of the core's interface bundles, for the board blocks
//! that sit around `odp_mmu`, and the board memory's host port.
//!
//! Each bundle here mirrors one of [`crate::common::interfaces`] with every
//! direction reversed and joins it by name (`#[join]`): the board's bridge
//! is the AXI4-Lite master of the core's register slave, its memory the
//! AXI4 slave of the core's master, and so on. A parent connects two
//! siblings with one call:
//! `AxiLiteMaster::join(&mut self.bridge.m_axil, &mut self.mmu.s_axil)`.
//! The Verilog names are the usual flat `<bundle>_<member>`
//! ([`crate::verilog`]).

use rust_hdl::prelude::*;

use crate::common::interfaces::{
    AxiLiteSlave, AxiMaster, AxiReadMaster, AxiWriteMaster, NakOut, WakeOut, XReqIn, XRspOut,
};

/// AXI4-Lite master (16-bit addresses, 32-bit data): drives an
/// [`AxiLiteSlave`].
#[derive(LogicInterface, Default)]
#[join = "AxiLiteSlave"]
pub struct AxiLiteMaster {
    pub awaddr: Signal<Out, Bits<16>>,
    pub awprot: Signal<Out, Bits<3>>,
    pub awvalid: Signal<Out, Bit>,
    pub awready: Signal<In, Bit>,
    pub wdata: Signal<Out, Bits<32>>,
    pub wstrb: Signal<Out, Bits<4>>,
    pub wvalid: Signal<Out, Bit>,
    pub wready: Signal<In, Bit>,
    pub bresp: Signal<In, Bits<2>>,
    pub bvalid: Signal<In, Bit>,
    pub bready: Signal<Out, Bit>,
    pub araddr: Signal<Out, Bits<16>>,
    pub arprot: Signal<Out, Bits<3>>,
    pub arvalid: Signal<Out, Bit>,
    pub arready: Signal<In, Bit>,
    pub rdata: Signal<In, Bits<32>>,
    pub rresp: Signal<In, Bits<2>>,
    pub rvalid: Signal<In, Bit>,
    pub rready: Signal<Out, Bit>,
}

/// AXI4 read slave, address and data channels (64-bit data, 4-bit IDs):
/// serves an [`AxiReadMaster`].
#[derive(LogicInterface, Default)]
#[join = "AxiReadMaster"]
pub struct AxiReadSlave {
    pub arid: Signal<In, Bits<4>>,
    pub araddr: Signal<In, Bits<64>>,
    pub arlen: Signal<In, Bits<8>>,
    pub arsize: Signal<In, Bits<3>>,
    pub arburst: Signal<In, Bits<2>>,
    pub arlock: Signal<In, Bit>,
    pub arcache: Signal<In, Bits<4>>,
    pub arprot: Signal<In, Bits<3>>,
    pub arvalid: Signal<In, Bit>,
    pub arready: Signal<Out, Bit>,
    pub rid: Signal<Out, Bits<4>>,
    pub rdata: Signal<Out, Bits<64>>,
    pub rresp: Signal<Out, Bits<2>>,
    pub rlast: Signal<Out, Bit>,
    pub rvalid: Signal<Out, Bit>,
    pub rready: Signal<In, Bit>,
}

/// AXI4 write slave, address, data and response channels (64-bit data,
/// 4-bit IDs): serves an [`AxiWriteMaster`].
#[derive(LogicInterface, Default)]
#[join = "AxiWriteMaster"]
pub struct AxiWriteSlave {
    pub awid: Signal<In, Bits<4>>,
    pub awaddr: Signal<In, Bits<64>>,
    pub awlen: Signal<In, Bits<8>>,
    pub awsize: Signal<In, Bits<3>>,
    pub awburst: Signal<In, Bits<2>>,
    pub awlock: Signal<In, Bit>,
    pub awcache: Signal<In, Bits<4>>,
    pub awprot: Signal<In, Bits<3>>,
    pub awvalid: Signal<In, Bit>,
    pub awready: Signal<Out, Bit>,
    pub wdata: Signal<In, Bits<64>>,
    pub wstrb: Signal<In, Bits<8>>,
    pub wlast: Signal<In, Bit>,
    pub wvalid: Signal<In, Bit>,
    pub wready: Signal<Out, Bit>,
    pub bid: Signal<Out, Bits<4>>,
    pub bresp: Signal<Out, Bits<2>>,
    pub bvalid: Signal<Out, Bit>,
    pub bready: Signal<In, Bit>,
}

/// The AXI4 slave that serves the core's [`AxiMaster`]: read and write
/// channels under one prefix (`s_axi_arvalid`, `s_axi_awvalid`).
#[derive(LogicInterface, Default)]
#[join = "AxiMaster"]
pub struct AxiSlave {
    pub rd: AxiReadSlave,
    pub wr: AxiWriteSlave,
}

/// Translation requests as their source drives them: feeds an [`XReqIn`].
#[derive(LogicInterface, Default)]
#[join = "XReqIn"]
pub struct XReqOut {
    pub valid: Signal<Out, Bit>,
    pub ready: Signal<In, Bit>,
    pub tag: Signal<Out, Bits<8>>,
    pub op: Signal<Out, Bits<2>>,
    pub qpn: Signal<Out, Bits<24>>,
    pub rqpn: Signal<Out, Bits<24>>,
    pub psn: Signal<Out, Bits<24>>,
    pub msn: Signal<Out, Bits<24>>,
    pub pd: Signal<Out, Bits<16>>,
    pub key: Signal<Out, Bits<32>>,
    pub va: Signal<Out, Bits<64>>,
    pub len: Signal<Out, Bits<13>>,
    pub msg_len: Signal<Out, Bits<32>>,
}

/// Translation responses as their sink takes them: drains an [`XRspOut`].
#[derive(LogicInterface, Default)]
#[join = "XRspOut"]
pub struct XRspIn {
    pub valid: Signal<In, Bit>,
    pub ready: Signal<Out, Bit>,
    pub tag: Signal<In, Bits<8>>,
    pub status: Signal<In, Bits<3>>,
    pub pa: Signal<In, Bits<64>>,
    pub seg_len: Signal<In, Bits<13>>,
    pub last: Signal<In, Bit>,
    pub epoch: Signal<In, Bits<8>>,
}

/// NAKs as their sink takes them: drains a [`NakOut`].
#[derive(LogicInterface, Default)]
#[join = "NakOut"]
pub struct NakIn {
    pub valid: Signal<In, Bit>,
    pub ready: Signal<Out, Bit>,
    pub qpn: Signal<In, Bits<24>>,
    pub hdr: Signal<In, Bits<128>>,
}

/// Wake-ups as their sink takes them: drains a [`WakeOut`].
#[derive(LogicInterface, Default)]
#[join = "WakeOut"]
pub struct WakeIn {
    pub valid: Signal<In, Bit>,
    pub ready: Signal<Out, Bit>,
    pub qpn: Signal<In, Bits<24>>,
}

/// A word port into the board memory, as its user (the bridge) drives it:
/// one 64-bit word per request, a valid / ready request and, for a read,
/// a one-clock `rvalid` with the word some clocks after the request was
/// taken. One request at a time: the user waits for `rvalid` before its
/// next read.
#[derive(LogicInterface, Default)]
#[join = "MemPortIn"]
pub struct MemPortOut {
    pub valid: Signal<Out, Bit>,
    pub ready: Signal<In, Bit>,
    /// Write (else read).
    pub write: Signal<Out, Bit>,
    /// Byte address, 8-byte aligned (bits 2:0 are ignored).
    pub addr: Signal<Out, Bits<32>>,
    /// The word a write stores (all eight bytes).
    pub wdata: Signal<Out, Bits<64>>,
    /// A read's word is on `rdata` this clock.
    pub rvalid: Signal<In, Bit>,
    pub rdata: Signal<In, Bits<64>>,
}

/// The board memory's side of [`MemPortOut`].
#[derive(LogicInterface, Default)]
#[join = "MemPortOut"]
pub struct MemPortIn {
    pub valid: Signal<In, Bit>,
    pub ready: Signal<Out, Bit>,
    pub write: Signal<In, Bit>,
    pub addr: Signal<In, Bits<32>>,
    pub wdata: Signal<In, Bits<64>>,
    pub rvalid: Signal<Out, Bit>,
    pub rdata: Signal<Out, Bits<64>>,
}
