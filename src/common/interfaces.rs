//! The core's interfaces, each defined once as a rust-hdl interface bundle.
//!
//! A block declares a port as one bundle (`pub s_xreq: XReqIn`) and a parent
//! connects it with one call in its update: `link` passes a bundle through
//! the hierarchy to a child's port of the same type
//! (`XReqIn::link(&mut self.s_xreq, &mut self.xl.s_xreq)`), `join` connects
//! the two ends of an interface between siblings
//! (`MrWriteOut::join(&mut self.cmd.mr_wr, &mut self.xl.mr_wr)`).
//!
//! In the generated Verilog each member is a flat port named
//! `<bundle>_<member>` (`s_xreq_valid`, `m_axi_arvalid`): the SPEC's port
//! names. [`crate::verilog`] writes them so (rust-hdl itself would join the
//! two with `$`); a bundle nested in another ([`AxiMaster`]) adds no name.
//!
//! Directions are those of the block that owns the port: `...In` bundles
//! are received (the block is the stream's sink or the bus's slave), `...Out`
//! and `...Master` bundles are driven.

use rust_hdl::prelude::*;

/// Translation requests (SPEC section 2), as the core receives them:
/// a valid / ready stream, one request per handshake.
#[derive(LogicInterface, Default)]
pub struct XReqIn {
    pub valid: Signal<In, Bit>,
    pub ready: Signal<Out, Bit>,
    /// Requester's tag, echoed in every response beat.
    pub tag: Signal<In, Bits<8>>,
    /// 0 REMOTE_WRITE, 1 REMOTE_READ, 2 LOCAL_READ, 3 LOCAL_WRITE
    /// ([`crate::spec::op`]).
    pub op: Signal<In, Bits<2>>,
    /// Local QP number.
    pub qpn: Signal<In, Bits<24>>,
    /// Remote QP number (the NAK's DestQP).
    pub rqpn: Signal<In, Bits<24>>,
    /// Packet sequence number of the request.
    pub psn: Signal<In, Bits<24>>,
    /// Message sequence number (the NAK's MSN).
    pub msn: Signal<In, Bits<24>>,
    /// Protection domain of the QP.
    pub pd: Signal<In, Bits<16>>,
    /// lkey / rkey: MR index in bits 31:8, tag in bits 7:0.
    pub key: Signal<In, Bits<32>>,
    /// Virtual address of the access.
    pub va: Signal<In, Bits<64>>,
    /// Access length in bytes, 1..4096.
    pub len: Signal<In, Bits<13>>,
    /// Bytes from `va` to the end of the message (prefetch hint).
    pub msg_len: Signal<In, Bits<32>>,
}

/// Translation responses (SPEC section 2), as the core sends them: one
/// beat per physically contiguous segment, `last` on the request's last.
#[derive(LogicInterface, Default)]
pub struct XRspOut {
    pub valid: Signal<Out, Bit>,
    pub ready: Signal<In, Bit>,
    /// Tag of the request this beat answers.
    pub tag: Signal<Out, Bits<8>>,
    /// Status ([`crate::spec::status`]).
    pub status: Signal<Out, Bits<3>>,
    /// Physical address of this beat's segment (OK only).
    pub pa: Signal<Out, Bits<64>>,
    /// Bytes in this beat's segment (OK only).
    pub seg_len: Signal<Out, Bits<13>>,
    /// Last beat of the request.
    pub last: Signal<Out, Bit>,
    /// Invalidation epoch of an OK response, returned on `s_done_epoch`.
    pub epoch: Signal<Out, Bits<8>>,
}

/// RNR / error NAKs to the transport (SPEC section 2): a valid / ready
/// stream of 16-byte BTH + AETH headers.
#[derive(LogicInterface, Default)]
pub struct NakOut {
    pub valid: Signal<Out, Bit>,
    pub ready: Signal<In, Bit>,
    /// Local QP the NAK is sent for.
    pub qpn: Signal<Out, Bits<24>>,
    /// BTH + AETH, network byte order, byte 0 in bits 127:120.
    pub hdr: Signal<Out, Bits<128>>,
}

/// Wake-ups of stalled local QPs (SPEC section 2).
#[derive(LogicInterface, Default)]
pub struct WakeOut {
    pub valid: Signal<Out, Bit>,
    pub ready: Signal<In, Bit>,
    /// QP that may retry after a STALL.
    pub qpn: Signal<Out, Bits<24>>,
}

/// DMA completions returned by the DMA engine (SPEC section 2): one pulse
/// per OK response whose DMA is over.
#[derive(LogicInterface, Default)]
pub struct DoneIn {
    pub valid: Signal<In, Bit>,
    /// Epoch of the completed response.
    pub epoch: Signal<In, Bits<8>>,
}

/// AXI4 read master, address and data channels (64-bit data, 4-bit IDs).
#[derive(LogicInterface, Default)]
pub struct AxiReadMaster {
    pub arid: Signal<Out, Bits<4>>,
    pub araddr: Signal<Out, Bits<64>>,
    pub arlen: Signal<Out, Bits<8>>,
    pub arsize: Signal<Out, Bits<3>>,
    pub arburst: Signal<Out, Bits<2>>,
    pub arlock: Signal<Out, Bit>,
    pub arcache: Signal<Out, Bits<4>>,
    pub arprot: Signal<Out, Bits<3>>,
    pub arvalid: Signal<Out, Bit>,
    pub arready: Signal<In, Bit>,
    pub rid: Signal<In, Bits<4>>,
    pub rdata: Signal<In, Bits<64>>,
    pub rresp: Signal<In, Bits<2>>,
    pub rlast: Signal<In, Bit>,
    pub rvalid: Signal<In, Bit>,
    pub rready: Signal<Out, Bit>,
}

/// AXI4 write master, address, data and response channels (64-bit data,
/// 4-bit IDs).
#[derive(LogicInterface, Default)]
pub struct AxiWriteMaster {
    pub awid: Signal<Out, Bits<4>>,
    pub awaddr: Signal<Out, Bits<64>>,
    pub awlen: Signal<Out, Bits<8>>,
    pub awsize: Signal<Out, Bits<3>>,
    pub awburst: Signal<Out, Bits<2>>,
    pub awlock: Signal<Out, Bit>,
    pub awcache: Signal<Out, Bits<4>>,
    pub awprot: Signal<Out, Bits<3>>,
    pub awvalid: Signal<Out, Bit>,
    pub awready: Signal<In, Bit>,
    pub wdata: Signal<Out, Bits<64>>,
    pub wstrb: Signal<Out, Bits<8>>,
    pub wlast: Signal<Out, Bit>,
    pub wvalid: Signal<Out, Bit>,
    pub wready: Signal<In, Bit>,
    pub bid: Signal<In, Bits<4>>,
    pub bresp: Signal<In, Bits<2>>,
    pub bvalid: Signal<In, Bit>,
    pub bready: Signal<Out, Bit>,
}

/// The core's AXI4 master to host memory: the read channels (page-table
/// reads) and the write channels (event records) under one prefix. A bundle
/// nested in a bundle adds no name of its own: `m_axi.rd.arvalid` is the
/// port `m_axi_arvalid`, `m_axi.wr.awvalid` is `m_axi_awvalid`.
#[derive(LogicInterface, Default)]
pub struct AxiMaster {
    pub rd: AxiReadMaster,
    pub wr: AxiWriteMaster,
}

/// AXI4-Lite slave (16-bit byte addresses, 32-bit data): the register file.
#[derive(LogicInterface, Default)]
pub struct AxiLiteSlave {
    pub awaddr: Signal<In, Bits<16>>,
    pub awprot: Signal<In, Bits<3>>,
    pub awvalid: Signal<In, Bit>,
    pub awready: Signal<Out, Bit>,
    pub wdata: Signal<In, Bits<32>>,
    pub wstrb: Signal<In, Bits<4>>,
    pub wvalid: Signal<In, Bit>,
    pub wready: Signal<Out, Bit>,
    pub bresp: Signal<Out, Bits<2>>,
    pub bvalid: Signal<Out, Bit>,
    pub bready: Signal<In, Bit>,
    pub araddr: Signal<In, Bits<16>>,
    pub arprot: Signal<In, Bits<3>>,
    pub arvalid: Signal<In, Bit>,
    pub arready: Signal<Out, Bit>,
    pub rdata: Signal<Out, Bits<32>>,
    pub rresp: Signal<Out, Bits<2>>,
    pub rvalid: Signal<Out, Bit>,
    pub rready: Signal<In, Bit>,
}

/// An MR table entry write (the MR_WRITE command), as its sender drives it:
/// one clock of `valid` writes entry `index` whole.
#[derive(LogicInterface, Default)]
#[join = "MrWriteIn"]
pub struct MrWriteOut<const MR_BITS: usize> {
    pub valid: Signal<Out, Bit>,
    /// Entry index.
    pub index: Signal<Out, Bits<MR_BITS>>,
    /// Key tag (`key[7:0]` of the MR's lkey / rkey).
    pub tag: Signal<Out, Bits<8>>,
    /// Protection domain.
    pub pd: Signal<Out, Bits<16>>,
    /// First byte of the MR.
    pub base_va: Signal<Out, Bits<64>>,
    /// MR length in bytes.
    pub length: Signal<Out, Bits<64>>,
    /// Access rights ([`crate::spec::access`]: bit 0 LOCAL_WRITE, 1
    /// REMOTE_WRITE, 2 REMOTE_READ).
    pub access: Signal<Out, Bits<3>>,
    /// Root table physical address bits 63:12.
    pub root: Signal<Out, Bits<52>>,
    /// Page-table levels minus one (0..3 for 1..4 levels).
    pub levels_m1: Signal<Out, Bits<2>>,
    /// State ([`crate::spec::mr_state`]: 0 INVALID, 1 VALID, 2 SUSPENDED).
    pub state: Signal<Out, Bits<2>>,
}

/// An MR table entry write, as the MR table receives it.
#[derive(LogicInterface, Default)]
#[join = "MrWriteOut"]
pub struct MrWriteIn<const MR_BITS: usize> {
    pub valid: Signal<In, Bit>,
    pub index: Signal<In, Bits<MR_BITS>>,
    pub tag: Signal<In, Bits<8>>,
    pub pd: Signal<In, Bits<16>>,
    pub base_va: Signal<In, Bits<64>>,
    pub length: Signal<In, Bits<64>>,
    pub access: Signal<In, Bits<3>>,
    pub root: Signal<In, Bits<52>>,
    pub levels_m1: Signal<In, Bits<2>>,
    pub state: Signal<In, Bits<2>>,
}

/// An MR state change (the MR_SET_STATE command), as its sender drives it.
#[derive(LogicInterface, Default)]
#[join = "MrStateIn"]
pub struct MrStateOut<const MR_BITS: usize> {
    pub valid: Signal<Out, Bit>,
    pub index: Signal<Out, Bits<MR_BITS>>,
    /// [`crate::spec::mr_state`].
    pub state: Signal<Out, Bits<2>>,
}

/// An MR state change, as the MR table receives it.
#[derive(LogicInterface, Default)]
#[join = "MrStateOut"]
pub struct MrStateIn<const MR_BITS: usize> {
    pub valid: Signal<In, Bit>,
    pub index: Signal<In, Bits<MR_BITS>>,
    pub state: Signal<In, Bits<2>>,
}

/// A TLB invalidation request, as the translation path receives it: a
/// valid / ready request and a one-clock `done` pulse (see `docs/tlb.md`).
#[derive(LogicInterface, Default)]
pub struct InvalidateIn<const MR_BITS: usize> {
    pub valid: Signal<In, Bit>,
    pub ready: Signal<Out, Bit>,
    /// 0 ALL, 1 BY_MR, 2 BY_MR_RANGE.
    pub kind: Signal<In, Bits<2>>,
    pub mr: Signal<In, Bits<MR_BITS>>,
    /// `[lo, hi)` in VA space (4 KiB entries).
    pub va_lo: Signal<In, Bits<64>>,
    pub va_hi: Signal<In, Bits<64>>,
    /// The same range in off space (huge entries).
    pub off_lo: Signal<In, Bits<64>>,
    pub off_hi: Signal<In, Bits<64>>,
    /// Lookups issued from this clock on cannot hit a covered entry.
    pub done: Signal<Out, Bit>,
}
