#![doc = include_str!("../docs/top.md")]

use rust_hdl::prelude::*;

use crate::common::interfaces::{
    AxiLiteSlave, AxiMaster, AxiReadMaster, AxiWriteMaster, DoneIn, MrStateOut, MrWriteOut, NakOut,
    WakeOut, XReqIn, XRspOut,
};
use crate::common::reset::ResetCopy;
use crate::control::command::CommandUnit;
use crate::control::inval::InvalUnit;
use crate::control::mr_waiters::MrWaiters;
use crate::control::prefetch::Prefetcher;
use crate::control::{CsrCaps, CsrRegs};
use crate::fault::events::EventRing;
use crate::fault::fault_queue::FaultQueue;
use crate::fault::responder::QpResponder;
use crate::fault::rnr_timer::RnrTimer;
use crate::params::{ParamError, Params, Preset};
use crate::translate::Translator;

/// The `odp_mmu` core for the translation-path parameters of
/// [`Translator`]: 2^`MR_BITS` MRs, 2^`SET_BITS` TLB sets of 4 ways, `HUGE`
/// huge-page entries, `SLOTS` = 2^`SLOT_BITS` outstanding requests
/// (`CNT_BITS` = `SLOT_BITS` + 1), `WALKS` concurrent walks; and the fault
/// queue's: `PF` = 2^`PF_BITS` pending faults, wait lists for 2^`QP_BITS`
/// QPs (`QW_BITS` = `QP_BITS` - 5, `QA_BITS` = `PF_BITS` + `QW_BITS`). The
/// presets are
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
    const PF: usize,
    const PF_BITS: usize,
    const QP_BITS: usize,
    const QW_BITS: usize,
    const QA_BITS: usize,
> {
    /// Core clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous active-high reset. Registered: the core acts on it one
    /// clock later, every block in the same clock, as if it had come then
    /// (the translator through its own registered copies).
    pub rst: Signal<In, Bit>,

    /// Translation requests (`s_xreq_*`, SPEC section 2).
    pub s_xreq: XReqIn,

    /// Translation responses (`m_xrsp_*`, SPEC section 2).
    pub m_xrsp: XRspOut,

    /// RNR / error NAKs (`m_nak_*`, SPEC section 2).
    pub m_nak: NakOut,

    /// Wake-ups of stalled QPs (`m_wake_*`, SPEC section 2).
    pub m_wake: WakeOut,

    /// DMA completions by epoch (`s_done_*`, SPEC section 2).
    pub s_done: DoneIn,

    /// AXI4 master to host memory (`m_axi_*`): page-table reads, event
    /// records.
    pub m_axi: AxiMaster,

    /// AXI4-Lite slave: the registers (`s_axil_*`, `docs/registers.md`).
    pub s_axil: AxiLiteSlave,

    /// Level interrupt: unconsumed events and interrupts enabled.
    pub irq: Signal<Out, Bit>,

    // `rst`, registered: one copy per block (`ResetCopy`) and one for the
    // top's own registers; the translator registers its `rst` itself.
    rs_csr: ResetCopy,
    rs_cmd: ResetCopy,
    rs_iv: ResetCopy,
    rs_mw: ResetCopy,
    rs_fq: ResetCopy,
    rs_eq: ResetCopy,
    rs_qr: ResetCopy,
    rs_rt: ResetCopy,
    rs_pf: ResetCopy,
    rs_top: ResetCopy,
    csr: CsrRegs,
    cmd: CommandUnit<MR_BITS>,
    iv: InvalUnit<MR_BITS>,
    mw: MrWaiters<QP_BITS>,
    xl: Translator<MR_BITS, SET_BITS, HUGE, SLOTS, SLOT_BITS, CNT_BITS, WALKS>,
    fq: FaultQueue<PF, PF_BITS, QP_BITS, QW_BITS, QA_BITS>,
    eq: EventRing,
    qr: QpResponder<QP_BITS>,
    rt: RnrTimer,
    pf: Prefetcher,
    /// The prefetch unit has the translator's request port this clock if
    /// it offers a page: `s_xreq` was idle the clock before, or the page
    /// has waited `PF_WAIT_MAX` clocks (docs/prefetch.md).
    pf_turn: DFF<Bit>,
    /// Clocks the prefetch unit's offer has waited, saturating.
    pf_wait: DFF<Bits<3>>,
    pf_take: Signal<Local, Bit>,
    /// The error note at the head of the fault queue's notes has been
    /// applied (SET_ERROR taken); its wake may go out.
    note_err_done: DFF<Bit>,
    /// QPS_STALLED_NOW: local QPs on a wait list, not yet woken.
    stalled_now: DFF<Bits<32>>,
    /// Responses pushed into the translator's output queue (`m_cm_valid`)
    /// and taken from it (last beat on `m_xrsp`), mod 2^16.
    rsp_pushed: DFF<Bits<16>>,
    rsp_popped: DFF<Bits<16>>,
    /// The wake fence of the note at the head: `rsp_pushed` when it came
    /// up; its wake waits until `rsp_popped` has passed it, so a QP's STALL
    /// answer always leaves on `m_xrsp` before its wake on `m_wake`.
    fence: DFF<Bits<16>>,
    fence_set: DFF<Bit>,
    fence_ok: Signal<Local, Bit>,
    fence_l: Signal<Local, Bits<16>>,
    /// The event ring's source served first: 0 the fault queue, 1 the
    /// invalidation unit, 2 the prefetch unit; under load they take turns.
    ev_sel: DFF<Bits<2>>,
    /// The source whose record is offered this clock: 0 the fault queue,
    /// 1 the invalidation unit, 2 the prefetch unit.
    ev_pick: Signal<Local, Bits<2>>,
    ev_valid: Signal<Local, Bit>,
    /// The event ring is off (`EQ_LOG2_SIZE` = 0): its reset.
    eq_off: Signal<Local, Bit>,
    /// The note's SET_ERROR is offered to the responder this clock.
    note_cmd: Signal<Local, Bit>,
    /// The note's wake is offered on `m_wake` this clock.
    note_wake: Signal<Local, Bit>,
    /// The MR waiters' wake was offered and not taken: it keeps `m_wake`.
    wk_mw: DFF<Bit>,
    /// `m_wake` carries the note's wake / the MR waiters' this clock.
    fq_wake_go: Signal<Local, Bit>,
    mw_wake_go: Signal<Local, Bit>,
    wake_fire: Signal<Local, Bit>,
    /// The response beat leaving this clock is the last of its request.
    rsp_last_beat: Signal<Local, Bit>,
}

/// The SPEC section 6 configuration.
pub type DefaultOdpMmu = OdpMmu<8, 8, 32, 64, 6, 7, 8, 32, 5, 10, 5, 10>;
/// The small preset: 8 MRs, 4 TLB sets, 4 huge entries, 8 outstanding
/// requests, 2 walks, 4 pending faults (16 QPs, wait lists for up to 64);
/// quick to simulate.
pub type SmallOdpMmu = OdpMmu<3, 2, 4, 8, 3, 4, 2, 4, 2, 6, 1, 3>;

impl<
        const MR_BITS: usize,
        const SET_BITS: usize,
        const HUGE: usize,
        const SLOTS: usize,
        const SLOT_BITS: usize,
        const CNT_BITS: usize,
        const WALKS: usize,
        const PF: usize,
        const PF_BITS: usize,
        const QP_BITS: usize,
        const QW_BITS: usize,
        const QA_BITS: usize,
    >
    OdpMmu<
        MR_BITS,
        SET_BITS,
        HUGE,
        SLOTS,
        SLOT_BITS,
        CNT_BITS,
        WALKS,
        PF,
        PF_BITS,
        QP_BITS,
        QW_BITS,
        QA_BITS,
    >
{
    /// The core for `params`, which must be valid and name the sizes of
    /// this type (see [`generate_verilog`] for the presets); `params.qps`
    /// sets the QP range.
    pub fn new(params: &Params) -> Self {
        if let Err(e) = params.validate() {
            panic!("OdpMmu: {e}");
        }
        let sizes = (
            1usize << MR_BITS,
            1usize << SET_BITS,
            HUGE,
            SLOTS,
            WALKS,
            PF,
        );
        assert_eq!(
            (
                params.mr_entries,
                params.tlb_sets,
                params.huge_entries,
                params.outstanding,
                params.walks,
                params.pending_faults
            ),
            sizes,
            "OdpMmu: params (mr_entries, tlb_sets, huge_entries, outstanding, walks, pending_faults) differ from this type's"
        );
        assert!(
            params.qps <= 1 << QP_BITS,
            "OdpMmu: qps {} is beyond the fault queue's wait lists (2^{QP_BITS} QPs)",
            params.qps
        );
        Self {
            clk: Default::default(),
            rst: Default::default(),
            s_xreq: Default::default(),
            m_xrsp: Default::default(),
            m_nak: Default::default(),
            m_wake: Default::default(),
            s_done: Default::default(),
            m_axi: Default::default(),
            s_axil: Default::default(),
            irq: Default::default(),
            rs_csr: Default::default(),
            rs_cmd: Default::default(),
            rs_iv: Default::default(),
            rs_mw: Default::default(),
            rs_fq: Default::default(),
            rs_eq: Default::default(),
            rs_qr: Default::default(),
            rs_rt: Default::default(),
            rs_pf: Default::default(),
            rs_top: Default::default(),
            csr: CsrRegs::new(&CsrCaps::from_params(params)),
            cmd: CommandUnit::new(),
            iv: InvalUnit::new(),
            mw: MrWaiters::new(),
            xl: Translator::new(params.qps),
            fq: FaultQueue::new(),
            eq: EventRing::new(),
            qr: QpResponder::new(),
            rt: RnrTimer::new(),
            pf: Prefetcher::new((WALKS / 2).max(1)),
            pf_turn: Default::default(),
            pf_wait: Default::default(),
            pf_take: Default::default(),
            note_err_done: Default::default(),
            stalled_now: Default::default(),
            rsp_pushed: Default::default(),
            rsp_popped: Default::default(),
            fence: Default::default(),
            fence_set: Default::default(),
            fence_ok: Default::default(),
            fence_l: Default::default(),
            ev_sel: Default::default(),
            ev_pick: Default::default(),
            ev_valid: Default::default(),
            eq_off: Default::default(),
            note_cmd: Default::default(),
            note_wake: Default::default(),
            wk_mw: Default::default(),
            fq_wake_go: Default::default(),
            mw_wake_go: Default::default(),
            wake_fire: Default::default(),
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
        const PF: usize,
        const PF_BITS: usize,
        const QP_BITS: usize,
        const QW_BITS: usize,
        const QA_BITS: usize,
    > Logic
    for OdpMmu<
        MR_BITS,
        SET_BITS,
        HUGE,
        SLOTS,
        SLOT_BITS,
        CNT_BITS,
        WALKS,
        PF,
        PF_BITS,
        QP_BITS,
        QW_BITS,
        QA_BITS,
    >
{
    #[hdl_gen]
    fn update(&mut self) {
        self.csr.clk.next = self.clk.val();
        self.cmd.clock.next = self.clk.val();
        self.iv.clock.next = self.clk.val();
        self.mw.clock.next = self.clk.val();
        self.wk_mw.clock.next = self.clk.val();
        self.wk_mw.d.next = false;
        self.ev_sel.clock.next = self.clk.val();
        self.ev_sel.d.next = self.ev_sel.q.val();
        self.xl.clock.next = self.clk.val();
        self.fq.clock.next = self.clk.val();
        self.eq.clock.next = self.clk.val();
        self.qr.clock.next = self.clk.val();
        self.rt.clock.next = self.clk.val();
        self.pf.clock.next = self.clk.val();
        self.pf_turn.clock.next = self.clk.val();
        self.pf_wait.clock.next = self.clk.val();
        self.note_err_done.clock.next = self.clk.val();
        self.note_err_done.d.next = self.note_err_done.q.val();
        self.stalled_now.clock.next = self.clk.val();
        self.stalled_now.d.next = self.stalled_now.q.val();
        self.rsp_pushed.clock.next = self.clk.val();
        self.rsp_pushed.d.next = self.rsp_pushed.q.val();
        self.rsp_popped.clock.next = self.clk.val();
        self.rsp_popped.d.next = self.rsp_popped.q.val();
        self.fence.clock.next = self.clk.val();
        self.fence.d.next = self.fence.q.val();
        self.fence_set.clock.next = self.clk.val();
        self.fence_set.d.next = self.fence_set.q.val();
        clock!(self, clk, rs_csr, rs_cmd, rs_iv, rs_mw, rs_fq, rs_eq, rs_qr, rs_rt, rs_pf, rs_top);
        self.rs_csr.rst.next = self.rst.val();
        self.rs_cmd.rst.next = self.rst.val();
        self.rs_iv.rst.next = self.rst.val();
        self.rs_mw.rst.next = self.rst.val();
        self.rs_fq.rst.next = self.rst.val();
        self.rs_eq.rst.next = self.rst.val();
        self.rs_qr.rst.next = self.rst.val();
        self.rs_rt.rst.next = self.rst.val();
        self.rs_pf.rst.next = self.rst.val();
        self.rs_top.rst.next = self.rst.val();
        self.csr.rst.next = self.rs_csr.q.val();
        self.cmd.rst.next = self.rs_cmd.q.val();
        self.iv.rst.next = self.rs_iv.q.val();
        self.mw.rst.next = self.rs_mw.q.val();
        self.xl.rst.next = self.rst.val();
        self.fq.rst.next = self.rs_fq.q.val();
        self.eq.rst.next = self.rs_eq.q.val();
        self.qr.rst.next = self.rs_qr.q.val();
        self.rt.rst.next = self.rs_rt.q.val();
        self.pf.rst.next = self.rs_pf.q.val();

        // ---- AXI4-Lite: the CSR block. No address or data is taken in
        // the CSR block's reset clock (the clock after `rst`), where the
        // reset would drop it: a driver that starts right after `rst` is
        // held a clock instead of losing its first access.
        self.csr.s_axil.awaddr.next = self.s_axil.awaddr.val();
        self.csr.s_axil.awprot.next = self.s_axil.awprot.val();
        self.csr.s_axil.wdata.next = self.s_axil.wdata.val();
        self.csr.s_axil.wstrb.next = self.s_axil.wstrb.val();
        self.csr.s_axil.bready.next = self.s_axil.bready.val();
        self.csr.s_axil.araddr.next = self.s_axil.araddr.val();
        self.csr.s_axil.arprot.next = self.s_axil.arprot.val();
        self.csr.s_axil.rready.next = self.s_axil.rready.val();
        self.s_axil.bresp.next = self.csr.s_axil.bresp.val();
        self.s_axil.bvalid.next = self.csr.s_axil.bvalid.val();
        self.s_axil.rdata.next = self.csr.s_axil.rdata.val();
        self.s_axil.rresp.next = self.csr.s_axil.rresp.val();
        self.s_axil.rvalid.next = self.csr.s_axil.rvalid.val();
        self.csr.s_axil.awvalid.next = self.s_axil.awvalid.val() & (!self.rs_csr.q.val());
        self.csr.s_axil.wvalid.next = self.s_axil.wvalid.val() & (!self.rs_csr.q.val());
        self.csr.s_axil.arvalid.next = self.s_axil.arvalid.val() & (!self.rs_csr.q.val());
        self.s_axil.awready.next = self.csr.s_axil.awready.val() & (!self.rs_csr.q.val());
        self.s_axil.wready.next = self.csr.s_axil.wready.val() & (!self.rs_csr.q.val());
        self.s_axil.arready.next = self.csr.s_axil.arready.val() & (!self.rs_csr.q.val());

        // ---- Commands: CSR doorbell -> command unit -> MR table.
        self.cmd.ready.next = self.xl.ready.val() & self.fq.ready.val() & self.mw.ready.val();
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
        MrWriteOut::<MR_BITS>::join(&mut self.cmd.mr_wr, &mut self.xl.mr_wr);
        MrStateOut::<MR_BITS>::join(&mut self.cmd.mr_st, &mut self.xl.mr_st);
        // ---- Invalidation (docs/invalidation.md): INVALIDATE and
        // MR_SUSPEND -> invalidation unit -> the translator's TLB port; the
        // epoch stamped on every lookup; OK answers counted per epoch until
        // the DMA engine returns them on s_done.
        self.iv.s_iv_valid.next = self.cmd.iv_valid.val();
        self.cmd.iv_ready.next = self.iv.s_iv_ready.val();
        self.cmd.iv_full.next = self.iv.full.val();
        self.iv.s_iv_kind.next = self.cmd.iv_kind.val();
        self.iv.s_iv_mr.next = self.cmd.iv_mr.val();
        self.iv.s_iv_tag.next = self.cmd.res_tag.val();
        self.iv.s_iv_va_lo.next = self.cmd.iv_va_lo.val();
        self.iv.s_iv_va_hi.next = self.cmd.iv_va_hi.val();
        self.iv.s_iv_off_lo.next = self.cmd.iv_off_lo.val();
        self.iv.s_iv_off_hi.next = self.cmd.iv_off_hi.val();
        self.xl.inv.valid.next = self.iv.m_inv_valid.val();
        self.iv.m_inv_ready.next = self.xl.inv.ready.val();
        self.xl.inv.kind.next = self.iv.m_inv_kind.val();
        self.xl.inv.mr.next = self.iv.m_inv_mr.val();
        self.xl.inv.va_lo.next = self.iv.m_inv_va_lo.val();
        self.xl.inv.va_hi.next = self.iv.m_inv_va_hi.val();
        self.xl.inv.off_lo.next = self.iv.m_inv_off_lo.val();
        self.xl.inv.off_hi.next = self.iv.m_inv_off_hi.val();
        self.iv.m_inv_done.next = self.xl.inv.done.val();
        // ---- MR waiters (docs/mr_waiters.md): a STALL of a suspended MR
        // records its QP; MR_RESUME wakes them.
        self.mw.j_valid.next =
            self.xl.m_cm_valid.val() & self.xl.m_cm_susp.val() & (self.xl.m_cm_status.val() == 2); // = status::STALL
        self.mw.j_qpn.next = self.xl.m_cm_qpn.val();
        self.mw.j_mr.next = self.xl.m_cm_mr.val();
        self.mw.r_valid.next = self.cmd.mw_valid.val();
        self.cmd.mw_ready.next = self.mw.r_ready.val();
        self.mw.r_mr.next = self.cmd.mw_mr.val();
        self.cmd.mw_done.next = self.mw.r_done.val();
        self.mw.rsp_pushed.next = self.rsp_pushed.q.val();
        self.mw.rsp_popped.next = self.rsp_popped.q.val();
        self.xl.epoch.next = self.iv.epoch.val();
        self.iv.ok_valid.next = self.xl.m_cm_valid.val() & (self.xl.m_cm_status.val() == 0); // = status::OK
        self.iv.ok_epoch.next = self.xl.m_cm_epoch.val();
        self.iv.s_done_valid.next = self.s_done.valid.val();
        self.iv.s_done_epoch.next = self.s_done.epoch.val();
        // A refused command posts an error event; the CSR block still
        // holds its words in the result clock.
        self.iv.bad_valid.next = self.cmd.res_valid.val() & self.cmd.res_code.val().any();
        self.iv.bad_op.next = self.cmd.res_op.val();
        self.iv.bad_tag.next = self.cmd.res_tag.val();
        self.iv.bad_code.next = self.cmd.res_code.val();
        self.iv.bad_arg0.next = self.csr.cmd_arg0.val().get_bits::<16>(0);
        self.csr.inv_issued.next = self.iv.issued.val();
        self.csr.inv_done.next = self.iv.completed.val();
        self.csr.err_done_bad.next = self.iv.err_done.val() | self.iv.err_overflow.val();

        // ---- PREFETCH (docs/prefetch.md): command unit -> prefetch unit,
        // whose page lookups share the translator's request port.
        self.pf.s_valid.next = self.cmd.pf_valid.val();
        self.cmd.pf_ready.next = self.pf.s_ready.val();
        self.cmd.pf_busy.next = self.pf.busy.val();
        self.pf.s_mr.next = self.cmd.iv_mr.val();
        self.pf.s_lo.next = self.cmd.iv_va_lo.val();
        self.pf.s_hi.next = self.cmd.iv_va_hi.val();
        self.pf.s_write.next = self.cmd.pf_write.val();
        self.pf.s_nofault.next = self.cmd.pf_nofault.val();
        self.pf.s_tag.next = self.cmd.res_tag.val();
        self.pf.a_valid.next = self.xl.m_pf_valid.val();
        self.pf.a_status.next = self.xl.m_pf_status.val();

        // ---- Translation requests and responses. The request port is
        // `s_xreq`'s unless the prefetch unit has its turn.
        self.pf_take.next = self.pf.m_rq_valid.val() & self.pf_turn.q.val();
        self.xl.s_xreq.valid.next = self.s_xreq.valid.val();
        self.xl.s_xreq.tag.next = self.s_xreq.tag.val();
        self.xl.s_xreq.op.next = self.s_xreq.op.val();
        self.xl.s_xreq.qpn.next = self.s_xreq.qpn.val();
        self.xl.s_xreq.rqpn.next = self.s_xreq.rqpn.val();
        self.xl.s_xreq.psn.next = self.s_xreq.psn.val();
        self.xl.s_xreq.msn.next = self.s_xreq.msn.val();
        self.xl.s_xreq.pd.next = self.s_xreq.pd.val();
        self.xl.s_xreq.key.next = self.s_xreq.key.val();
        self.xl.s_xreq.va.next = self.s_xreq.va.val();
        self.xl.s_xreq.len.next = self.s_xreq.len.val();
        self.xl.s_xreq.msg_len.next = self.s_xreq.msg_len.val();
        self.xl.xreq_pf.next = false;
        self.xl.xreq_nofault.next = false;
        self.s_xreq.ready.next = self.xl.s_xreq.ready.val();
        self.pf.m_rq_ready.next = false;
        if self.pf_take.val() {
            // A PREFETCH page: a local read (write) of no QP, one byte at
            // the page's first address in the range.
            self.xl.s_xreq.valid.next = true;
            self.xl.s_xreq.tag.next = 0.into();
            self.xl.s_xreq.op.next = 2.into(); // = op::LOCAL_READ
            if self.pf.m_rq_write.val() {
                self.xl.s_xreq.op.next = 3.into(); // = op::LOCAL_WRITE
            }
            // QPN 0xFFFFF8 + page mod 8: consecutive pages are no QP's
            // order, so their walks run side by side.
            self.xl.s_xreq.qpn.next =
                bit_cast::<24, 3>(self.pf.m_rq_va.val().get_bits::<3>(12)) | 0xFF_FFF8_u64;
            self.xl.s_xreq.rqpn.next = 0.into();
            self.xl.s_xreq.psn.next = 0.into();
            self.xl.s_xreq.msn.next = 0.into();
            self.xl.s_xreq.pd.next = 0.into();
            self.xl.s_xreq.key.next = bit_cast::<32, 8>(self.pf.m_rq_mr.val()) << 8;
            self.xl.s_xreq.va.next = self.pf.m_rq_va.val();
            self.xl.s_xreq.len.next = 1.into();
            self.xl.s_xreq.msg_len.next = self.pf.m_rq_msg_len.val();
            self.xl.xreq_pf.next = true;
            self.xl.xreq_nofault.next = self.pf.m_rq_nofault.val();
            self.s_xreq.ready.next = false;
            self.pf.m_rq_ready.next = self.xl.s_xreq.ready.val();
        }
        self.pf_turn.d.next = (!self.s_xreq.valid.val()) | (self.pf_wait.q.val() == 7); // = prefetch::PF_WAIT_MAX
                                                                                        // Clocks a page waits, counted up to PF_WAIT_MAX and held there.
        self.pf_wait.d.next = 0.into();
        if self.pf.m_rq_valid.val() & (!self.pf.m_rq_ready.val()) {
            self.pf_wait.d.next = self.pf_wait.q.val() + 1;
            if self.pf_wait.q.val() == 7 {
                // = prefetch::PF_WAIT_MAX
                self.pf_wait.d.next = self.pf_wait.q.val();
            }
        }
        XRspOut::link(&mut self.m_xrsp, &mut self.xl.m_xrsp);

        // ---- AXI4 read channels: the walker's page-table reads.
        AxiReadMaster::link(&mut self.m_axi.rd, &mut self.xl.m_axi);

        // ---- Fault path: the translator's pending lookups and fault
        // reports -> fault queue -> event records -> ring writer -> AXI4
        // write channels; RESUME_FAULT from the command unit; notes ->
        // m_wake.
        self.fq.hint_cap.next = self.csr.prefetch_cap.val();
        self.fq.lk_valid.next = self.xl.m_plk_valid.val();
        self.fq.lk_mr.next = self.xl.m_plk_mr.val();
        self.fq.lk_vpn.next = self.xl.m_plk_vpn.val();
        self.xl.plk_pending.next = self.fq.lk_pending.val();
        self.fq.s_flt_valid.next = self.xl.m_flt_valid.val();
        self.xl.m_flt_ready.next = self.fq.s_flt_ready.val();
        self.fq.s_flt_mr.next = self.xl.m_flt_mr.val();
        self.fq.s_flt_vpn.next = self.xl.m_flt_vpn.val();
        self.fq.s_flt_qpn.next = self.xl.m_flt_qpn.val();
        self.fq.s_flt_op.next = self.xl.m_flt_op.val();
        self.fq.s_flt_va.next = self.xl.m_flt_va.val();
        self.fq.s_flt_msg_len.next = self.xl.m_flt_msg_len.val();
        // The request passed the MR check, so its `va` is at or above the
        // MR's base: clamping the hint's start at `va` is clamping it at
        // the base (docs/top.md).
        self.fq.s_flt_mr_lo.next = self.xl.m_flt_va.val();
        self.fq.s_flt_mr_hi.next = self.xl.m_flt_mr_hi.val();
        // Event records: the fault queue's (0), the invalidation unit's (1)
        // and the prefetch unit's (2). `ev_sel` names the source served
        // first; one with nothing to offer yields to the next in turn
        // order in the same clock, and a record taken hands the next turn
        // to the source after it.
        self.ev_pick.next = self.ev_sel.q.val();
        if self.ev_sel.q.val() == 0 {
            if !self.fq.m_ev_valid.val() {
                self.ev_pick.next = 1.into();
                if !self.iv.m_ev_valid.val() {
                    self.ev_pick.next = 2.into();
                }
            }
        } else if self.ev_sel.q.val() == 1 {
            if !self.iv.m_ev_valid.val() {
                self.ev_pick.next = 2.into();
                if !self.pf.m_ev_valid.val() {
                    self.ev_pick.next = 0.into();
                }
            }
        } else if !self.pf.m_ev_valid.val() {
            self.ev_pick.next = 0.into();
            if !self.fq.m_ev_valid.val() {
                self.ev_pick.next = 1.into();
            }
        }
        self.ev_valid.next = self.fq.m_ev_valid.val();
        self.eq.s_ev_w0.next = self.fq.m_ev_w0.val();
        self.eq.s_ev_w1.next = self.fq.m_ev_w1.val();
        self.eq.s_ev_w2.next = self.fq.m_ev_w2.val();
        self.eq.s_ev_w3.next = self.fq.m_ev_w3.val();
        if self.ev_pick.val() == 1 {
            self.ev_valid.next = self.iv.m_ev_valid.val();
            self.eq.s_ev_w0.next = self.iv.m_ev_w0.val();
            self.eq.s_ev_w1.next = self.iv.m_ev_w1.val();
            self.eq.s_ev_w2.next = self.iv.m_ev_w2.val();
            self.eq.s_ev_w3.next = 0.into();
        }
        if self.ev_pick.val() == 2 {
            self.ev_valid.next = self.pf.m_ev_valid.val();
            self.eq.s_ev_w0.next = self.pf.m_ev_w0.val();
            self.eq.s_ev_w1.next = self.pf.m_ev_w1.val();
            self.eq.s_ev_w2.next = self.pf.m_ev_w2.val();
            self.eq.s_ev_w3.next = 0.into();
        }
        self.eq.s_ev_valid.next = self.ev_valid.val();
        self.fq.m_ev_ready.next = self.eq.s_ev_ready.val() & (self.ev_pick.val() == 0);
        self.iv.m_ev_ready.next = self.eq.s_ev_ready.val() & (self.ev_pick.val() == 1);
        self.pf.m_ev_ready.next = self.eq.s_ev_ready.val() & (self.ev_pick.val() == 2);
        // A record offered and not taken keeps its source (its payload must
        // hold); one taken passes the turn.
        if self.ev_valid.val() {
            self.ev_sel.d.next = self.ev_pick.val();
            if self.eq.s_ev_ready.val() {
                self.ev_sel.d.next = self.ev_pick.val() + 1;
                if self.ev_pick.val() == 2 {
                    self.ev_sel.d.next = 0.into();
                }
            }
        }
        if self.rs_top.q.val() {
            self.ev_sel.d.next = 0.into();
        }
        self.eq.eq_base.next = (bit_cast::<64, 32>(self.csr.eq_base_hi.val()) << 32)
            | bit_cast::<64, 32>(self.csr.eq_base_lo.val());
        self.eq.eq_log2_size.next = self.csr.eq_log2_size.val();
        self.eq.eq_cons.next = self.csr.eq_cons.val();
        self.eq.irq_en.next = self.csr.ctrl_irq_en.val();
        // EQ_LOG2_SIZE = 0 is the ring reset (docs/events.md): held while
        // the size is 0, the writer zeroes its indices once its bursts are
        // done, irq is low, and the fault queue turns every posted fault
        // back into a new one, so the next ring announces it again.
        self.eq_off.next = self.csr.eq_log2_size.val() == 0;
        self.eq.ring_reset.next = self.eq_off.val();
        self.fq.repost.next = self.eq_off.val();
        self.csr.eq_prod.next = self.eq.eq_prod.val();
        self.irq.next = self.eq.irq.val() & (!self.eq_off.val());
        self.csr.err_eq_cons_bad.next = self.eq.err_cons.val();
        self.csr.err_eq_size_bad.next = self.eq.err_size.val();
        AxiWriteMaster::link(&mut self.m_axi.wr, &mut self.eq.m_axi);
        // RESUME_FAULT.
        self.fq.s_res_valid.next = self.cmd.fq_res_valid.val();
        self.cmd.fq_res_ready.next = self.fq.s_res_ready.val();
        self.fq.s_res_token.next = self.cmd.fq_res_token.val();
        self.fq.s_res_err.next = self.cmd.fq_res_err.val();
        self.cmd.fq_res_done.next = self.fq.res_done.val();
        self.cmd.fq_res_stale.next = self.fq.res_stale.val();
        // ---- Responder (docs/responder.md): beside the translator's c2 to
        // c6; its overrides enter the decision, its NAKs leave on m_nak.
        self.qr.pkey.next = self.csr.pkey.val();
        self.rt.svc_valid.next = self.fq.svc_valid.val();
        self.rt.svc_clocks.next = self.fq.svc_clocks.val();
        self.rt.clocks_per_us.next = self.csr.clocks_per_us.val();
        self.rt.global_code.next = self.csr.rnr_timer.val();
        self.rt.adaptive.next = self.csr.ctrl_adaptive_rnr.val();
        self.qr.rnr_timer.next = self.rt.code.val();
        self.qr.lk_valid.next = self.xl.m_qlk_valid.val();
        self.qr.lk_qpn.next = self.xl.m_qlk_qpn.val();
        self.qr.lk_psn.next = self.xl.m_qlk_psn.val();
        self.qr.lk_remote.next = self.xl.m_qlk_remote.val();
        self.xl.ov_fatal.next = self.qr.ov_fatal.val();
        self.xl.ov_drop.next = self.qr.ov_drop.val();
        self.qr.cm_valid.next = self.xl.m_cm_valid.val();
        self.qr.cm_status.next = self.xl.m_cm_status.val();
        self.qr.cm_rqpn.next = self.xl.m_cm_rqpn.val();
        self.qr.cm_msn.next = self.xl.m_cm_msn.val();
        self.qr.cm_susp.next = self.xl.m_cm_susp.val();
        self.qr.cm_nak_sent.next = self.xl.m_cm_nak_sent.val();
        self.xl.ov_tmr_valid.next = self.qr.ov_tmr_valid.val();
        self.xl.ov_tmr_code.next = self.qr.ov_tmr_code.val();
        self.xl.qp_cmd_busy.next = self.qr.cmd_busy.val();
        // Early RNR NAKs: from the walk's completion straight to m_nak.
        self.qr.en_valid.next = self.xl.m_en_valid.val();
        self.qr.en_qpn.next = self.xl.m_en_qpn.val();
        self.qr.en_rqpn.next = self.xl.m_en_rqpn.val();
        self.qr.en_psn.next = self.xl.m_en_psn.val();
        self.qr.en_msn.next = self.xl.m_en_msn.val();
        self.qr.en_tmr_valid.next = self.xl.m_en_tmr_valid.val();
        self.qr.en_tmr_code.next = self.xl.m_en_tmr_code.val();
        self.xl.m_en_ready.next = self.qr.en_ready.val();
        self.xl.hold.next = self.qr.hold.val();
        NakOut::link(&mut self.m_nak, &mut self.qr.m_nak);
        // Notes: an `err` note first puts its QP in error (SET_ERROR to the
        // responder), then its wake goes out on m_wake, so that the woken
        // QP's retry sees the error state; a wake-only note goes out at
        // once. The note is taken when its last part is.
        self.note_cmd.next =
            self.fq.m_note_valid.val() & self.fq.m_note_err.val() & (!self.note_err_done.q.val());
        // The wake fence: a note's wake waits until every response the
        // translator had queued when the note came up has left on m_xrsp
        // (the STALL answer it wakes is among them), so a requester never
        // sees a wake before the STALL it answers. The note came up at
        // least a RESUME after its STALL was decided, so the fence is
        // passed as soon as the output queue has drained that far.
        if self.fq.m_note_valid.val() & (!self.fence_set.q.val()) {
            self.fence.d.next = self.rsp_pushed.q.val();
            self.fence_set.d.next = true;
        }
        self.fence_l.next = self.rsp_popped.q.val() - self.rsp_pushed.q.val();
        if self.fence_set.q.val() {
            self.fence_l.next = self.rsp_popped.q.val() - self.fence.q.val();
        }
        self.fence_ok.next = !self.fence_l.val().get_bit(15);
        self.note_wake.next = self.fq.m_note_valid.val()
            & self.fq.m_note_wake.val()
            & self.fence_ok.val()
            & ((!self.fq.m_note_err.val()) | self.note_err_done.q.val());
        // The responder's command port: a note's SET_ERROR first, else the
        // command unit's QP_RESET / QP_RNR_TIMER. Only the command unit's
        // can be refused (a note names a QP below `qps`), so the refusal
        // pulse, the clock after the take, is the command unit's.
        self.qr.s_qpcmd_valid.next = self.note_cmd.val() | self.cmd.qp_valid.val();
        self.qr.s_qpcmd_kind.next = self.cmd.qp_kind.val();
        self.qr.s_qpcmd_qpn.next = self.cmd.qp_qpn.val();
        self.qr.s_qpcmd_timer.next = self.cmd.qp_timer.val();
        if self.note_cmd.val() {
            self.qr.s_qpcmd_kind.next = 1.into(); // = qp_cmd::SET_ERROR
            self.qr.s_qpcmd_qpn.next = self.fq.m_note_qpn.val();
            self.qr.s_qpcmd_timer.next = 0.into();
        }
        self.cmd.qp_ready.next = self.qr.s_qpcmd_ready.val() & (!self.note_cmd.val());
        self.cmd.qp_refused.next = self.qr.qpcmd_refused.val();
        // m_wake: the note's wake first, unless the MR waiters' is on
        // offer from the clock before (a stream keeps what it offers).
        self.fq_wake_go.next =
            self.note_wake.val() & (!(self.wk_mw.q.val() & self.mw.m_wake_valid.val()));
        self.mw_wake_go.next = self.mw.m_wake_valid.val() & (!self.fq_wake_go.val());
        self.m_wake.valid.next = self.fq_wake_go.val() | self.mw_wake_go.val();
        self.m_wake.qpn.next = self.fq.m_note_qpn.val();
        if self.mw_wake_go.val() {
            self.m_wake.qpn.next = self.mw.m_wake_qpn.val();
        }
        self.mw.m_wake_ready.next = self.mw_wake_go.val() & self.m_wake.ready.val();
        self.wk_mw.d.next =
            self.mw_wake_go.val() & (!self.m_wake.ready.val()) & (!self.rs_top.q.val());
        self.fq.m_note_ready.next = (self.fq_wake_go.val() & self.m_wake.ready.val())
            | (self.note_cmd.val() & self.qr.s_qpcmd_ready.val() & (!self.fq.m_note_wake.val()));
        if self.note_cmd.val() & self.qr.s_qpcmd_ready.val() & self.fq.m_note_wake.val() {
            self.note_err_done.d.next = true;
        }
        if (self.fq_wake_go.val() & self.m_wake.ready.val()) | self.rs_top.q.val() {
            self.note_err_done.d.next = false;
        }
        if self.fq.m_note_ready.val() | self.rs_top.q.val() {
            self.fence_set.d.next = false;
        }

        // ---- Status and counters.
        self.csr.st_ready.next = self.xl.ready.val() & self.qr.ready.val() & self.mw.ready.val();
        self.csr.err_event_write_err.next = self.eq.err_write.val();
        self.csr.err_resume_stale.next = self.cmd.err_resume_stale.val();
        self.rsp_last_beat.next =
            self.m_xrsp.valid.val() & self.m_xrsp.ready.val() & self.m_xrsp.last.val();
        if self.xl.m_cm_valid.val() {
            self.rsp_pushed.d.next = self.rsp_pushed.q.val() + 1;
        }
        if self.rsp_last_beat.val() {
            self.rsp_popped.d.next = self.rsp_popped.q.val() + 1;
        }
        if self.rs_top.q.val() {
            self.rsp_pushed.d.next = 0.into();
            self.rsp_popped.d.next = 0.into();
        }
        self.csr.ctr_lookups_inc.next = self.s_xreq.valid.val() & self.s_xreq.ready.val();
        self.csr.ctr_tlb_hits_inc.next = self.xl.mon_tlb_hit.val();
        self.csr.ctr_tlb_misses_inc.next = self.xl.mon_tlb_miss.val();
        self.csr.ctr_walks_inc.next = self.xl.mon_walk.val();
        self.csr.ctr_walk_reads_inc.next =
            self.m_axi.rd.arvalid.val() & self.m_axi.rd.arready.val();
        self.csr.ctr_stalls_inc.next = self.rsp_last_beat.val() & (self.m_xrsp.status.val() == 2); // = status::STALL
        self.csr.ctr_access_errors_inc.next =
            self.rsp_last_beat.val() & (self.m_xrsp.status.val() == 4); // = status::ACCESS_ERR
        self.csr.ctr_fatals_inc.next = self.rsp_last_beat.val() & (self.m_xrsp.status.val() == 5); // = status::FATAL
                                                                                                   // A FATAL decided by the walk's result, not by a QP in error.
        self.csr.err_walk_fatal.next = self.xl.m_cm_valid.val()
            & (self.xl.m_cm_status.val() == 5) // = status::FATAL
            & (!self.qr.ov_fatal.val());
        self.csr.ctr_faults_inc.next = self.fq.cnt_new.val();
        self.csr.ctr_faults_coalesced_inc.next = self.fq.cnt_coalesced.val();
        self.csr.ctr_rnr_naks_fault_inc.next = self.qr.nak_rnr.val();
        self.csr.ctr_rnr_naks_suspended_inc.next = self.qr.nak_rnr_susp.val();
        self.csr.ctr_drops_inc.next = self.qr.drop.val();
        self.csr.ctr_wakes_inc.next = self.m_wake.valid.val() & self.m_wake.ready.val();
        self.csr.ctr_invalidations_inc.next = self.iv.cnt_inv.val();
        self.csr.ctr_prefetches_inc.next = self.pf.cnt_done.val();
        self.csr.ctr_max_pending_faults_value.next = bit_cast::<32, 8>(self.fq.pending.val());
        self.csr.ctr_max_event_ring_value.next = self.eq.occupancy.val();
        self.csr.ctr_fault_service_sum_value.next = self.fq.svc_clocks.val();
        self.csr.ctr_fault_service_sum_valid.next = self.fq.svc_valid.val();
        self.csr.ctr_fault_service_max_value.next = 0.into();
        if self.fq.svc_valid.val() {
            self.csr.ctr_fault_service_max_value.next = self.fq.svc_clocks.val();
        }
        // QPS_STALLED_NOW: + a local QP joining a wait list (the fault
        // queue's or the MR waiters'), - a wake.
        self.wake_fire.next = self.m_wake.valid.val() & self.m_wake.ready.val();
        if (self.fq.cnt_waiting.val() ^ self.mw.cnt_join.val()) & (!self.wake_fire.val()) {
            self.stalled_now.d.next = self.stalled_now.q.val() + 1;
        }
        if self.fq.cnt_waiting.val() & self.mw.cnt_join.val() & (!self.wake_fire.val()) {
            self.stalled_now.d.next = self.stalled_now.q.val() + 2;
        }
        if self.fq.cnt_waiting.val() & self.mw.cnt_join.val() & self.wake_fire.val() {
            self.stalled_now.d.next = self.stalled_now.q.val() + 1;
        }
        if (!self.fq.cnt_waiting.val()) & (!self.mw.cnt_join.val()) & self.wake_fire.val() {
            self.stalled_now.d.next = self.stalled_now.q.val() - 1;
        }
        if self.rs_top.q.val() {
            self.stalled_now.d.next = 0.into();
        }
        self.csr.ctr_qps_stalled_now_value.next = self.stalled_now.q.val();
    }
}

/// Generates the Verilog of `odp_mmu` for `params`, top module `odp_mmu`.
///
/// The sizes must be those of a [`Preset`] (`qps` is free): each preset is
/// a type, and a size no type has is refused with an error naming the
/// presets rather than ignored.
pub fn generate_verilog(params: &Params) -> Result<String, ParamError> {
    params.validate()?;
    // The fault queue's wait lists bound the QPs: 2^10 and 2^6.
    let qp_cap = match Preset::of(params) {
        Some(Preset::Small) => 64,
        _ => 1024,
    };
    if params.qps > qp_cap {
        return Err(ParamError(format!(
            "qps {} is beyond the {qp_cap} QPs this preset's fault queue can wake",
            params.qps
        )));
    }
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
