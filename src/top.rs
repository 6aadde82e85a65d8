//! `odp_mmu`: the top level integrators instantiate.
//!
//! The port list is the contract of SPEC section 2, flat and named
//! `<group>_<field>` so that Vivado IP integrator and cocotbext-axi recognise
//! the buses. Blocks are composed behind it as they land. The translation
//! path is its own block ([`crate::translate::Translator`]); MRs reach it
//! through the driver command path, which does not exist yet, so until then
//! the core behaves as a core whose MR table is empty (every MR INVALID,
//! which is exactly the state after reset):
//!
//! - every translation request is answered with one ACCESS_ERR beat
//!   (`last` = 1, `pa` = 0, `seg_len` = 0), in order, with full valid/ready
//!   handshakes and backpressure;
//! - the AXI4 master issues nothing (`arvalid`/`awvalid`/`wvalid` low,
//!   `rready`/`bready` high so a stray response can never hang the bus);
//! - the AXI4-Lite slave answers every read with 0 and every write with OKAY
//!   (SPEC 5.7: undefined CSRs read zero);
//! - `m_nak`, `m_wake` and `irq` stay idle.
//!
//! `rst` is synchronous and active high; `s_xreq_ready` is low while it is
//! asserted and for the clock after.

use rust_hdl::prelude::*;

use crate::params::Params;

/// Response status codes (SPEC section 2).
pub mod status {
    /// Translation succeeded.
    pub const OK: u64 = 0;
    /// Remote op, page not present or MR suspended: an RNR NAK was emitted.
    pub const RNR: u64 = 1;
    /// Local op, same causes as RNR: wait for `m_wake`.
    pub const STALL: u64 = 2;
    /// Remote op on a QP awaiting the retransmission of a NAK'd PSN.
    pub const DROP: u64 = 3;
    /// Bad key, PD, bounds, rights, MR invalid or bad request fields.
    pub const ACCESS_ERR: u64 = 4;
    /// Host memory error during a walk, or a fault resolved with an error.
    pub const FATAL: u64 = 5;
}

/// The `odp_mmu` core. See the module documentation and `docs/`.
#[derive(LogicBlock)]
pub struct OdpMmu {
    /// Core clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous active-high reset.
    pub rst: Signal<In, Bit>,

    /// Translation request valid.
    pub s_xreq_valid: Signal<In, Bit>,
    /// Translation request ready.
    pub s_xreq_ready: Signal<Out, Bit>,
    /// Requester's tag, echoed in every response beat.
    pub s_xreq_tag: Signal<In, Bits<8>>,
    /// 0 REMOTE_WRITE, 1 REMOTE_READ, 2 LOCAL_READ, 3 LOCAL_WRITE.
    pub s_xreq_op: Signal<In, Bits<2>>,
    /// Local QP number.
    pub s_xreq_qpn: Signal<In, Bits<24>>,
    /// Remote QP number (the NAK's DestQP).
    pub s_xreq_rqpn: Signal<In, Bits<24>>,
    /// Packet sequence number of the request.
    pub s_xreq_psn: Signal<In, Bits<24>>,
    /// Message sequence number (the NAK's MSN).
    pub s_xreq_msn: Signal<In, Bits<24>>,
    /// Protection domain of the QP.
    pub s_xreq_pd: Signal<In, Bits<16>>,
    /// lkey / rkey: MR index in bits 31:8, tag in bits 7:0.
    pub s_xreq_key: Signal<In, Bits<32>>,
    /// Virtual address of the access.
    pub s_xreq_va: Signal<In, Bits<64>>,
    /// Access length in bytes, 1..4096.
    pub s_xreq_len: Signal<In, Bits<13>>,
    /// Bytes from `va` to the end of the message (prefetch hint).
    pub s_xreq_msg_len: Signal<In, Bits<32>>,

    /// Response beat valid.
    pub m_xrsp_valid: Signal<Out, Bit>,
    /// Response beat ready.
    pub m_xrsp_ready: Signal<In, Bit>,
    /// Tag of the request this beat answers.
    pub m_xrsp_tag: Signal<Out, Bits<8>>,
    /// Status (see [`status`]).
    pub m_xrsp_status: Signal<Out, Bits<3>>,
    /// Physical address of this beat's segment (OK only).
    pub m_xrsp_pa: Signal<Out, Bits<64>>,
    /// Bytes in this beat's segment (OK only).
    pub m_xrsp_seg_len: Signal<Out, Bits<13>>,
    /// Last beat of the request.
    pub m_xrsp_last: Signal<Out, Bit>,
    /// Invalidation epoch of an OK response, returned on `s_done_epoch`.
    pub m_xrsp_epoch: Signal<Out, Bits<8>>,

    /// NAK valid.
    pub m_nak_valid: Signal<Out, Bit>,
    /// NAK ready.
    pub m_nak_ready: Signal<In, Bit>,
    /// Local QP the NAK is sent for.
    pub m_nak_qpn: Signal<Out, Bits<24>>,
    /// BTH + AETH, network byte order, byte 0 in bits 127:120.
    pub m_nak_hdr: Signal<Out, Bits<128>>,

    /// Wake valid.
    pub m_wake_valid: Signal<Out, Bit>,
    /// Wake ready.
    pub m_wake_ready: Signal<In, Bit>,
    /// QP that may retry after a STALL.
    pub m_wake_qpn: Signal<Out, Bits<24>>,

    /// One pulse per completed OK request's DMA.
    pub s_done_valid: Signal<In, Bit>,
    /// Epoch of the completed request.
    pub s_done_epoch: Signal<In, Bits<8>>,

    /// AXI4 master write address channel.
    pub m_axi_awid: Signal<Out, Bits<4>>,
    pub m_axi_awaddr: Signal<Out, Bits<64>>,
    pub m_axi_awlen: Signal<Out, Bits<8>>,
    pub m_axi_awsize: Signal<Out, Bits<3>>,
    pub m_axi_awburst: Signal<Out, Bits<2>>,
    pub m_axi_awlock: Signal<Out, Bit>,
    pub m_axi_awcache: Signal<Out, Bits<4>>,
    pub m_axi_awprot: Signal<Out, Bits<3>>,
    pub m_axi_awvalid: Signal<Out, Bit>,
    pub m_axi_awready: Signal<In, Bit>,
    /// AXI4 master write data channel.
    pub m_axi_wdata: Signal<Out, Bits<64>>,
    pub m_axi_wstrb: Signal<Out, Bits<8>>,
    pub m_axi_wlast: Signal<Out, Bit>,
    pub m_axi_wvalid: Signal<Out, Bit>,
    pub m_axi_wready: Signal<In, Bit>,
    /// AXI4 master write response channel.
    pub m_axi_bid: Signal<In, Bits<4>>,
    pub m_axi_bresp: Signal<In, Bits<2>>,
    pub m_axi_bvalid: Signal<In, Bit>,
    pub m_axi_bready: Signal<Out, Bit>,
    /// AXI4 master read address channel.
    pub m_axi_arid: Signal<Out, Bits<4>>,
    pub m_axi_araddr: Signal<Out, Bits<64>>,
    pub m_axi_arlen: Signal<Out, Bits<8>>,
    pub m_axi_arsize: Signal<Out, Bits<3>>,
    pub m_axi_arburst: Signal<Out, Bits<2>>,
    pub m_axi_arlock: Signal<Out, Bit>,
    pub m_axi_arcache: Signal<Out, Bits<4>>,
    pub m_axi_arprot: Signal<Out, Bits<3>>,
    pub m_axi_arvalid: Signal<Out, Bit>,
    pub m_axi_arready: Signal<In, Bit>,
    /// AXI4 master read data channel.
    pub m_axi_rid: Signal<In, Bits<4>>,
    pub m_axi_rdata: Signal<In, Bits<64>>,
    pub m_axi_rresp: Signal<In, Bits<2>>,
    pub m_axi_rlast: Signal<In, Bit>,
    pub m_axi_rvalid: Signal<In, Bit>,
    pub m_axi_rready: Signal<Out, Bit>,

    /// AXI4-Lite slave write address channel.
    pub s_axil_awaddr: Signal<In, Bits<16>>,
    pub s_axil_awprot: Signal<In, Bits<3>>,
    pub s_axil_awvalid: Signal<In, Bit>,
    pub s_axil_awready: Signal<Out, Bit>,
    /// AXI4-Lite slave write data channel.
    pub s_axil_wdata: Signal<In, Bits<32>>,
    pub s_axil_wstrb: Signal<In, Bits<4>>,
    pub s_axil_wvalid: Signal<In, Bit>,
    pub s_axil_wready: Signal<Out, Bit>,
    /// AXI4-Lite slave write response channel.
    pub s_axil_bresp: Signal<Out, Bits<2>>,
    pub s_axil_bvalid: Signal<Out, Bit>,
    pub s_axil_bready: Signal<In, Bit>,
    /// AXI4-Lite slave read address channel.
    pub s_axil_araddr: Signal<In, Bits<16>>,
    pub s_axil_arprot: Signal<In, Bits<3>>,
    pub s_axil_arvalid: Signal<In, Bit>,
    pub s_axil_arready: Signal<Out, Bit>,
    /// AXI4-Lite slave read data channel.
    pub s_axil_rdata: Signal<Out, Bits<32>>,
    pub s_axil_rresp: Signal<Out, Bits<2>>,
    pub s_axil_rvalid: Signal<Out, Bit>,
    pub s_axil_rready: Signal<In, Bit>,

    /// Level interrupt: unconsumed events and interrupts enabled.
    pub irq: Signal<Out, Bit>,

    // Response register (one beat) and reset state.
    rsp_valid: DFF<Bit>,
    rsp_tag: DFF<Bits<8>>,
    in_reset: DFF<Bit>,
    // AXI4-Lite response registers.
    axil_b_valid: DFF<Bit>,
    axil_r_valid: DFF<Bit>,
}

impl OdpMmu {
    /// Builds the core for `params`; panics with the parameter's name and
    /// legal range when `params` is invalid.
    pub fn new(params: &Params) -> Self {
        if let Err(e) = params.validate() {
            panic!("OdpMmu: {e}");
        }
        Self {
            clk: Default::default(),
            rst: Default::default(),
            s_xreq_valid: Default::default(),
            s_xreq_ready: Default::default(),
            s_xreq_tag: Default::default(),
            s_xreq_op: Default::default(),
            s_xreq_qpn: Default::default(),
            s_xreq_rqpn: Default::default(),
            s_xreq_psn: Default::default(),
            s_xreq_msn: Default::default(),
            s_xreq_pd: Default::default(),
            s_xreq_key: Default::default(),
            s_xreq_va: Default::default(),
            s_xreq_len: Default::default(),
            s_xreq_msg_len: Default::default(),
            m_xrsp_valid: Default::default(),
            m_xrsp_ready: Default::default(),
            m_xrsp_tag: Default::default(),
            m_xrsp_status: Default::default(),
            m_xrsp_pa: Default::default(),
            m_xrsp_seg_len: Default::default(),
            m_xrsp_last: Default::default(),
            m_xrsp_epoch: Default::default(),
            m_nak_valid: Default::default(),
            m_nak_ready: Default::default(),
            m_nak_qpn: Default::default(),
            m_nak_hdr: Default::default(),
            m_wake_valid: Default::default(),
            m_wake_ready: Default::default(),
            m_wake_qpn: Default::default(),
            s_done_valid: Default::default(),
            s_done_epoch: Default::default(),
            m_axi_awid: Default::default(),
            m_axi_awaddr: Default::default(),
            m_axi_awlen: Default::default(),
            m_axi_awsize: Default::default(),
            m_axi_awburst: Default::default(),
            m_axi_awlock: Default::default(),
            m_axi_awcache: Default::default(),
            m_axi_awprot: Default::default(),
            m_axi_awvalid: Default::default(),
            m_axi_awready: Default::default(),
            m_axi_wdata: Default::default(),
            m_axi_wstrb: Default::default(),
            m_axi_wlast: Default::default(),
            m_axi_wvalid: Default::default(),
            m_axi_wready: Default::default(),
            m_axi_bid: Default::default(),
            m_axi_bresp: Default::default(),
            m_axi_bvalid: Default::default(),
            m_axi_bready: Default::default(),
            m_axi_arid: Default::default(),
            m_axi_araddr: Default::default(),
            m_axi_arlen: Default::default(),
            m_axi_arsize: Default::default(),
            m_axi_arburst: Default::default(),
            m_axi_arlock: Default::default(),
            m_axi_arcache: Default::default(),
            m_axi_arprot: Default::default(),
            m_axi_arvalid: Default::default(),
            m_axi_arready: Default::default(),
            m_axi_rid: Default::default(),
            m_axi_rdata: Default::default(),
            m_axi_rresp: Default::default(),
            m_axi_rlast: Default::default(),
            m_axi_rvalid: Default::default(),
            m_axi_rready: Default::default(),
            s_axil_awaddr: Default::default(),
            s_axil_awprot: Default::default(),
            s_axil_awvalid: Default::default(),
            s_axil_awready: Default::default(),
            s_axil_wdata: Default::default(),
            s_axil_wstrb: Default::default(),
            s_axil_wvalid: Default::default(),
            s_axil_wready: Default::default(),
            s_axil_bresp: Default::default(),
            s_axil_bvalid: Default::default(),
            s_axil_bready: Default::default(),
            s_axil_araddr: Default::default(),
            s_axil_arprot: Default::default(),
            s_axil_arvalid: Default::default(),
            s_axil_arready: Default::default(),
            s_axil_rdata: Default::default(),
            s_axil_rresp: Default::default(),
            s_axil_rvalid: Default::default(),
            s_axil_rready: Default::default(),
            irq: Default::default(),
            rsp_valid: Default::default(),
            rsp_tag: Default::default(),
            in_reset: Default::default(),
            axil_b_valid: Default::default(),
            axil_r_valid: Default::default(),
        }
    }
}

impl Default for OdpMmu {
    fn default() -> Self {
        Self::new(&Params::default())
    }
}

impl Logic for OdpMmu {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clk,
            rsp_valid,
            rsp_tag,
            in_reset,
            axil_b_valid,
            axil_r_valid
        );

        // Translation: one response register; a new request is taken when it
        // is empty or being emptied in the same clock.
        self.s_xreq_ready.next = (!self.in_reset.q.val())
            & (!self.rst.val())
            & ((!self.rsp_valid.q.val()) | self.m_xrsp_ready.val());
        if self.m_xrsp_ready.val() {
            self.rsp_valid.d.next = false;
        }
        if self.s_xreq_valid.val() & self.s_xreq_ready.val() {
            self.rsp_valid.d.next = true;
            self.rsp_tag.d.next = self.s_xreq_tag.val();
        }
        self.in_reset.d.next = self.rst.val();
        self.m_xrsp_valid.next = self.rsp_valid.q.val();
        self.m_xrsp_tag.next = self.rsp_tag.q.val();
        self.m_xrsp_status.next = 4.into();
        self.m_xrsp_pa.next = 0.into();
        self.m_xrsp_seg_len.next = 0.into();
        self.m_xrsp_last.next = true;
        self.m_xrsp_epoch.next = 0.into();

        self.m_nak_valid.next = false;
        self.m_nak_qpn.next = 0.into();
        self.m_nak_hdr.next = 0.into();
        self.m_wake_valid.next = false;
        self.m_wake_qpn.next = 0.into();
        self.irq.next = false;

        // AXI4 master: idle, but never refuses a response.
        self.m_axi_awid.next = 0.into();
        self.m_axi_awaddr.next = 0.into();
        self.m_axi_awlen.next = 0.into();
        self.m_axi_awsize.next = 3.into();
        self.m_axi_awburst.next = 1.into();
        self.m_axi_awlock.next = false;
        self.m_axi_awcache.next = 3.into();
        self.m_axi_awprot.next = 0.into();
        self.m_axi_awvalid.next = false;
        self.m_axi_wdata.next = 0.into();
        self.m_axi_wstrb.next = 0.into();
        self.m_axi_wlast.next = false;
        self.m_axi_wvalid.next = false;
        self.m_axi_bready.next = true;
        self.m_axi_arid.next = 0.into();
        self.m_axi_araddr.next = 0.into();
        self.m_axi_arlen.next = 0.into();
        self.m_axi_arsize.next = 3.into();
        self.m_axi_arburst.next = 1.into();
        self.m_axi_arlock.next = false;
        self.m_axi_arcache.next = 3.into();
        self.m_axi_arprot.next = 0.into();
        self.m_axi_arvalid.next = false;
        self.m_axi_rready.next = true;

        // AXI4-Lite: a write is taken when address and data are both valid
        // and no response is pending; a read when no read data is pending.
        self.s_axil_awready.next =
            self.s_axil_awvalid.val() & self.s_axil_wvalid.val() & (!self.axil_b_valid.q.val());
        self.s_axil_wready.next = self.s_axil_awready.val();
        if self.s_axil_bready.val() {
            self.axil_b_valid.d.next = false;
        }
        if self.s_axil_awready.val() {
            self.axil_b_valid.d.next = true;
        }
        self.s_axil_bvalid.next = self.axil_b_valid.q.val();
        self.s_axil_bresp.next = 0.into();
        self.s_axil_arready.next = !self.axil_r_valid.q.val();
        if self.s_axil_rready.val() {
            self.axil_r_valid.d.next = false;
        }
        if self.s_axil_arvalid.val() & self.s_axil_arready.val() {
            self.axil_r_valid.d.next = true;
        }
        self.s_axil_rvalid.next = self.axil_r_valid.q.val();
        self.s_axil_rdata.next = 0.into();
        self.s_axil_rresp.next = 0.into();

        if self.rst.val() {
            self.rsp_valid.d.next = false;
            self.axil_b_valid.d.next = false;
            self.axil_r_valid.d.next = false;
        }
    }
}

/// Generates the Verilog of `odp_mmu` for `params`, top module `odp_mmu`.
pub fn generate_verilog(params: &Params) -> String {
    let mut uut = OdpMmu::new(params);
    uut.connect_all();
    crate::verilog::generate(&uut, "odp_mmu")
}
