#![doc = include_str!("../docs/top.md")]

use rust_hdl::prelude::*;

use crate::control::command::CommandUnit;
use crate::control::{CsrCaps, CsrRegs};
use crate::params::{ParamError, Params, Preset};
use crate::translate::Translator;

/// The `odp_mmu` core for the translation-path parameters of
/// [`Translator`]: 2^`MR_BITS` MRs, 2^`SET_BITS` TLB sets of 4 ways, `HUGE`
/// huge-page entries, `SLOTS` = 2^`SLOT_BITS` outstanding requests
/// (`CNT_BITS` = `SLOT_BITS` + 1), `WALKS` concurrent walks. The presets are
/// [`DefaultOdpMmu`] (SPEC section 6) and [`SmallOdpMmu`]. See the module
/// documentation and `docs/top.md`.
#[derive(LogicBlock)]
pub struct OdpMmu<
    const MR_BITS: usize,
    const SET_BITS: usize,
    const HUGE: usize,
    const SLOTS: usize,
    const SLOT_BITS: usize,
    const CNT_BITS: usize,
    const WALKS: usize,
> {
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
    /// Status ([`crate::spec::status`]).
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

    csr: CsrRegs,
    cmd: CommandUnit<MR_BITS>,
    xl: Translator<MR_BITS, SET_BITS, HUGE, SLOTS, SLOT_BITS, CNT_BITS, WALKS>,
    /// The response beat leaving this clock is the last of its request.
    rsp_last_beat: Signal<Local, Bit>,
}

/// The SPEC section 6 configuration.
pub type DefaultOdpMmu = OdpMmu<8, 8, 32, 64, 6, 7, 8>;
/// The small preset: 8 MRs, 4 TLB sets, 4 huge entries, 8 outstanding
/// requests, 2 walks (16 QPs); quick to simulate.
pub type SmallOdpMmu = OdpMmu<3, 2, 4, 8, 3, 4, 2>;

impl<
        const MR_BITS: usize,
        const SET_BITS: usize,
        const HUGE: usize,
        const SLOTS: usize,
        const SLOT_BITS: usize,
        const CNT_BITS: usize,
        const WALKS: usize,
    > OdpMmu<MR_BITS, SET_BITS, HUGE, SLOTS, SLOT_BITS, CNT_BITS, WALKS>
{
    /// The core for `params`, which must be valid and name the sizes of
    /// this type (see [`generate_verilog`] for the presets); `params.qps`
    /// sets the QP range.
    pub fn new(params: &Params) -> Self {
        if let Err(e) = params.validate() {
            panic!("OdpMmu: {e}");
        }
        let sizes = (1usize << MR_BITS, 1usize << SET_BITS, HUGE, SLOTS, WALKS);
        assert_eq!(
            (
                params.mr_entries,
                params.tlb_sets,
                params.huge_entries,
                params.outstanding,
                params.walks
            ),
            sizes,
            "OdpMmu: params (mr_entries, tlb_sets, huge_entries, outstanding, walks) differ from this type's"
        );
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
            csr: CsrRegs::new(&CsrCaps::from_params(params)),
            cmd: CommandUnit::new(),
            xl: Translator::new(params.qps),
            rsp_last_beat: Default::default(),
        }
    }
}

impl Default for DefaultOdpMmu {
    fn default() -> Self {
        Self::new(&Params::default())
    }
}

impl<
        const MR_BITS: usize,
        const SET_BITS: usize,
        const HUGE: usize,
        const SLOTS: usize,
        const SLOT_BITS: usize,
        const CNT_BITS: usize,
        const WALKS: usize,
    > Logic for OdpMmu<MR_BITS, SET_BITS, HUGE, SLOTS, SLOT_BITS, CNT_BITS, WALKS>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.csr.clk.next = self.clk.val();
        self.cmd.clock.next = self.clk.val();
        self.xl.clock.next = self.clk.val();
        self.csr.rst.next = self.rst.val();
        self.cmd.rst.next = self.rst.val();
        self.xl.rst.next = self.rst.val();

        // ---- AXI4-Lite: the CSR block.
        self.csr.s_axil_awaddr.next = self.s_axil_awaddr.val();
        self.csr.s_axil_awprot.next = self.s_axil_awprot.val();
        self.csr.s_axil_awvalid.next = self.s_axil_awvalid.val();
        self.s_axil_awready.next = self.csr.s_axil_awready.val();
        self.csr.s_axil_wdata.next = self.s_axil_wdata.val();
        self.csr.s_axil_wstrb.next = self.s_axil_wstrb.val();
        self.csr.s_axil_wvalid.next = self.s_axil_wvalid.val();
        self.s_axil_wready.next = self.csr.s_axil_wready.val();
        self.s_axil_bresp.next = self.csr.s_axil_bresp.val();
        self.s_axil_bvalid.next = self.csr.s_axil_bvalid.val();
        self.csr.s_axil_bready.next = self.s_axil_bready.val();
        self.csr.s_axil_araddr.next = self.s_axil_araddr.val();
        self.csr.s_axil_arprot.next = self.s_axil_arprot.val();
        self.csr.s_axil_arvalid.next = self.s_axil_arvalid.val();
        self.s_axil_arready.next = self.csr.s_axil_arready.val();
        self.s_axil_rdata.next = self.csr.s_axil_rdata.val();
        self.s_axil_rresp.next = self.csr.s_axil_rresp.val();
        self.s_axil_rvalid.next = self.csr.s_axil_rvalid.val();
        self.csr.s_axil_rready.next = self.s_axil_rready.val();

        // ---- Commands: CSR doorbell -> command unit -> MR table.
        self.cmd.ready.next = self.xl.ready.val();
        self.cmd.cmd_valid.next = self.csr.cmd_valid.val();
        self.csr.cmd_ready.next = self.cmd.cmd_ready.val();
        self.cmd.cmd_op.next = self.csr.cmd_op.val();
        self.cmd.cmd_tag.next = self.csr.cmd_tag.val();
        self.cmd.cmd_arg0.next = self.csr.cmd_arg0.val();
        self.cmd.cmd_arg1.next = self.csr.cmd_arg1.val();
        self.cmd.cmd_arg2.next = self.csr.cmd_arg2.val();
        self.cmd.cmd_arg3.next = self.csr.cmd_arg3.val();
        self.cmd.cmd_arg4.next = self.csr.cmd_arg4.val();
        self.cmd.cmd_arg5.next = self.csr.cmd_arg5.val();
        self.cmd.cmd_arg6.next = self.csr.cmd_arg6.val();
        self.cmd.cmd_arg7.next = self.csr.cmd_arg7.val();
        self.cmd.cmd_arg8.next = self.csr.cmd_arg8.val();
        self.csr.cmd_result_valid.next = self.cmd.res_valid.val();
        self.csr.cmd_result_code.next = self.cmd.res_code.val();
        self.csr.err_bad_cmd.next = self.cmd.res_valid.val() & self.cmd.res_code.val().any();
        self.csr.err_bad_cmd_op.next = self.cmd.res_op.val();
        self.csr.err_bad_cmd_code.next = self.cmd.res_code.val();
        self.xl.mr_wr_valid.next = self.cmd.mr_wr_valid.val();
        self.xl.mr_wr_index.next = self.cmd.mr_wr_index.val();
        self.xl.mr_wr_tag.next = self.cmd.mr_wr_tag.val();
        self.xl.mr_wr_pd.next = self.cmd.mr_wr_pd.val();
        self.xl.mr_wr_base_va.next = self.cmd.mr_wr_base_va.val();
        self.xl.mr_wr_length.next = self.cmd.mr_wr_length.val();
        self.xl.mr_wr_access.next = self.cmd.mr_wr_access.val();
        self.xl.mr_wr_root.next = self.cmd.mr_wr_root.val();
        self.xl.mr_wr_levels_m1.next = self.cmd.mr_wr_levels_m1.val();
        self.xl.mr_wr_state.next = self.cmd.mr_wr_state.val();
        self.xl.mr_st_valid.next = self.cmd.mr_st_valid.val();
        self.xl.mr_st_index.next = self.cmd.mr_st_index.val();
        self.xl.mr_st_state.next = self.cmd.mr_st_state.val();
        // No invalidation source yet (the command unit's INVALIDATE is to come).
        self.xl.inv_valid.next = false;
        self.xl.inv_kind.next = 0.into();
        self.xl.inv_mr.next = 0.into();
        self.xl.inv_va_lo.next = 0.into();
        self.xl.inv_va_hi.next = 0.into();
        self.xl.inv_off_lo.next = 0.into();
        self.xl.inv_off_hi.next = 0.into();

        // ---- Translation requests and responses.
        self.xl.s_xreq_valid.next = self.s_xreq_valid.val();
        self.s_xreq_ready.next = self.xl.s_xreq_ready.val();
        self.xl.s_xreq_tag.next = self.s_xreq_tag.val();
        self.xl.s_xreq_op.next = self.s_xreq_op.val();
        self.xl.s_xreq_qpn.next = self.s_xreq_qpn.val();
        self.xl.s_xreq_rqpn.next = self.s_xreq_rqpn.val();
        self.xl.s_xreq_psn.next = self.s_xreq_psn.val();
        self.xl.s_xreq_msn.next = self.s_xreq_msn.val();
        self.xl.s_xreq_pd.next = self.s_xreq_pd.val();
        self.xl.s_xreq_key.next = self.s_xreq_key.val();
        self.xl.s_xreq_va.next = self.s_xreq_va.val();
        self.xl.s_xreq_len.next = self.s_xreq_len.val();
        self.xl.s_xreq_msg_len.next = self.s_xreq_msg_len.val();
        self.m_xrsp_valid.next = self.xl.m_xrsp_valid.val();
        self.xl.m_xrsp_ready.next = self.m_xrsp_ready.val();
        self.m_xrsp_tag.next = self.xl.m_xrsp_tag.val();
        self.m_xrsp_status.next = self.xl.m_xrsp_status.val();
        self.m_xrsp_pa.next = self.xl.m_xrsp_pa.val();
        self.m_xrsp_seg_len.next = self.xl.m_xrsp_seg_len.val();
        self.m_xrsp_last.next = self.xl.m_xrsp_last.val();
        self.m_xrsp_epoch.next = 0.into();

        // ---- AXI4 read channels: the walker's page-table reads.
        self.m_axi_arid.next = self.xl.m_axi_arid.val();
        self.m_axi_araddr.next = self.xl.m_axi_araddr.val();
        self.m_axi_arlen.next = self.xl.m_axi_arlen.val();
        self.m_axi_arsize.next = self.xl.m_axi_arsize.val();
        self.m_axi_arburst.next = self.xl.m_axi_arburst.val();
        self.m_axi_arlock.next = false;
        self.m_axi_arcache.next = 3.into();
        self.m_axi_arprot.next = 0.into();
        self.m_axi_arvalid.next = self.xl.m_axi_arvalid.val();
        self.xl.m_axi_arready.next = self.m_axi_arready.val();
        self.xl.m_axi_rid.next = self.m_axi_rid.val();
        self.xl.m_axi_rdata.next = self.m_axi_rdata.val();
        self.xl.m_axi_rresp.next = self.m_axi_rresp.val();
        self.xl.m_axi_rlast.next = self.m_axi_rlast.val();
        self.xl.m_axi_rvalid.next = self.m_axi_rvalid.val();
        self.m_axi_rready.next = self.xl.m_axi_rready.val();

        // ---- AXI4 write channels: the event-ring writer is to come; idle,
        // never refusing a response.
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

        // ---- Fault path (to come): idle.
        self.m_nak_valid.next = false;
        self.m_nak_qpn.next = 0.into();
        self.m_nak_hdr.next = 0.into();
        self.m_wake_valid.next = false;
        self.m_wake_qpn.next = 0.into();
        self.irq.next = false;

        // ---- Status and counters.
        self.csr.st_ready.next = self.xl.ready.val();
        self.csr.err_event_write_err.next = false;
        self.csr.err_resume_stale.next = false;
        self.csr.eq_prod.next = 0.into();
        self.rsp_last_beat.next =
            self.xl.m_xrsp_valid.val() & self.m_xrsp_ready.val() & self.xl.m_xrsp_last.val();
        self.csr.ctr_lookups_inc.next = self.s_xreq_valid.val() & self.xl.s_xreq_ready.val();
        self.csr.ctr_tlb_hits_inc.next = self.xl.mon_tlb_hit.val();
        self.csr.ctr_tlb_misses_inc.next = self.xl.mon_tlb_miss.val();
        self.csr.ctr_walks_inc.next = self.xl.mon_walk.val();
        self.csr.ctr_walk_reads_inc.next = self.xl.m_axi_arvalid.val() & self.m_axi_arready.val();
        self.csr.ctr_stalls_inc.next =
            self.rsp_last_beat.val() & (self.xl.m_xrsp_status.val() == 2); // = status::STALL
        self.csr.ctr_access_errors_inc.next =
            self.rsp_last_beat.val() & (self.xl.m_xrsp_status.val() == 4); // = status::ACCESS_ERR
        self.csr.ctr_fatals_inc.next =
            self.rsp_last_beat.val() & (self.xl.m_xrsp_status.val() == 5); // = status::FATAL
        self.csr.err_walk_fatal.next =
            self.rsp_last_beat.val() & (self.xl.m_xrsp_status.val() == 5); // = status::FATAL
        self.csr.ctr_faults_inc.next = false;
        self.csr.ctr_faults_coalesced_inc.next = false;
        self.csr.ctr_rnr_naks_fault_inc.next = false;
        self.csr.ctr_rnr_naks_suspended_inc.next = false;
        self.csr.ctr_drops_inc.next = false;
        self.csr.ctr_wakes_inc.next = false;
        self.csr.ctr_invalidations_inc.next = false;
        self.csr.ctr_prefetches_inc.next = false;
        self.csr.ctr_max_pending_faults_value.next = 0.into();
        self.csr.ctr_max_event_ring_value.next = 0.into();
        self.csr.ctr_fault_service_sum_value.next = 0.into();
        self.csr.ctr_fault_service_sum_valid.next = false;
        self.csr.ctr_fault_service_max_value.next = 0.into();
        self.csr.ctr_qps_stalled_now_value.next = 0.into();
    }
}

/// Generates the Verilog of `odp_mmu` for `params`, top module `odp_mmu`.
///
/// The sizes must be those of a [`Preset`] (`qps` is free): each preset is
/// a type, and a size no type has is refused with an error naming the
/// presets rather than ignored.
pub fn generate_verilog(params: &Params) -> Result<String, ParamError> {
    params.validate()?;
    match Preset::of(params) {
        Some(Preset::Default) => Ok(generate(DefaultOdpMmu::new(params))),
        Some(Preset::Small) => Ok(generate(SmallOdpMmu::new(params))),
        None => Err(ParamError(format!(
            "odp_mmu is built in the presets {} (only --qps is free); got {}",
            Preset::ALL
                .iter()
                .map(|p| format!("{} ({})", p.name(), p.params().sizes()))
                .collect::<Vec<_>>()
                .join(" and "),
            params.sizes()
        ))),
    }
}

fn generate<B: Block>(mut uut: B) -> String {
    uut.connect_all();
    crate::verilog::generate(&uut, "odp_mmu")
}
