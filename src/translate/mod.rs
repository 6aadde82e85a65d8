#![doc = include_str!("../../docs/translate.md")]

pub mod mr_table;
pub mod tlb;
pub mod walker;

use rust_hdl::prelude::*;

use crate::common::fifo::SmallFifo;
use crate::common::interfaces::{
    AxiReadMaster, InvalidateIn, MrStateIn, MrWriteIn, XReqIn, XRspOut,
};
use crate::common::lowest::LowestSet;
use crate::common::lut_ram::LutRam;
use crate::common::reset::ResetCopy;
use crate::translate::mr_table::MrTable;
use crate::translate::tlb::Tlb;
use crate::translate::walker::Walker;

/// State of a parked request's slot in the outstanding table (`sl_state`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum ParkState {
    /// Parked, its page still to be walked.
    NeedWalk,
    /// Its walk is in flight (`sl_walk` names it).
    Walking,
    /// Its walk filled the TLB; replays when it heads its QP.
    Ready,
    /// Answered without a lookup when it replays, with the status in
    /// `sl_forced` (RNR / STALL for a missing page or a W-clear leaf, FATAL
    /// for a failed walk).
    Forced,
}

/// A translation request, as carried through the pipeline and parked.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct XReq {
    pub tag: Bits<8>,
    pub op: Bits<2>,
    pub qpn: Bits<24>,
    pub rqpn: Bits<24>,
    pub psn: Bits<24>,
    pub msn: Bits<24>,
    pub pd: Bits<16>,
    pub key: Bits<32>,
    pub va: Bits<64>,
    pub len: Bits<13>,
    pub msg_len: Bits<32>,
    /// A PREFETCH page (`xreq_pf`): no key tag or PD check, no QP, its
    /// answer on `m_pf_*`.
    pub pf: Bit,
    /// With `pf`: a missing page is answered without a fault report.
    pub nofault: Bit,
}

/// A lookup's payload as it moves down the pipeline, c1 to c5 (`s1` ..
/// `s5`; each stage's valid bit is a register of its own, cleared by reset).
/// `slot` is 8 bits whatever `SLOT_BITS` (at most 8): a `LogicStruct`
/// cannot be generic.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Stage {
    /// A replay of a parked request (its slot is `slot`).
    pub replay: Bit,
    pub slot: Bits<8>,
    /// The second page (B half) of a request that crosses a page boundary.
    pub half: Bit,
    /// The request crosses a 4 KiB boundary.
    pub cross: Bit,
    pub req: XReq,
    /// The address looked up: the request's `va`, or its second page.
    pub va: Bits<64>,
    /// The invalidation epoch the lookup was issued in (`epoch` at c0; a B
    /// half carries its A half's, the older of the two).
    pub epoch: Bits<4>,
}

/// The MR table's answer for a lookup, carried beside it from c3 to c5
/// (`m3` .. `m5`). `mr` is 8 bits whatever `MR_BITS`.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct MrCheck {
    /// The MR check's status ([`crate::spec::status`]).
    pub status: Bits<3>,
    pub mr: Bits<8>,
    /// `va - (base_va & !0xFFF)`: the offset in the MR's page tables.
    pub off: Bits<64>,
    /// The MR's page-table root frame and `levels - 1`.
    pub root: Bits<52>,
    pub lvl: Bits<2>,
    /// The MR's end, `min(base_va + length, 2^64 - 1)`: the fault report's
    /// bound for the prefetch hint.
    pub end: Bits<64>,
}

/// A fault report, as queued for the fault queue (`m_flt_*`): the page that
/// is missing or pending, and what the fault queue needs for its wait lists
/// and its prefetch hint.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct FltRec {
    pub mr: Bits<8>,
    pub vpn: Bits<52>,
    pub qpn: Bits<24>,
    pub op: Bits<2>,
    pub va: Bits<64>,
    pub msg_len: Bits<32>,
    pub end: Bits<64>,
}

/// A whole response (one or two beats), as queued for the output.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct XRsp {
    pub tag: Bits<8>,
    pub status: Bits<3>,
    pub pa0: Bits<64>,
    pub len0: Bits<13>,
    pub pa1: Bits<64>,
    pub len1: Bits<13>,
    pub two: Bit,
    /// The invalidation epoch of the lookup (`Stage::epoch`).
    pub epoch: Bits<4>,
}

// Slot states of the outstanding table, written as literals in the HDL
// (rust-hdl would emit a Rust constant's name): 0 NEED_WALK, 1 WALKING,
// 2 READY, 3 FAULTED. Bit 1 set: ready to replay.

/// Output FIFO: 8 responses, the registered c6 response (`rsp6`) counted
/// with them; a lookup issues only while 6 are free, which covers every
/// lookup in flight (c1 to c5 and the one issuing).
type OutFifo = SmallFifo<XRsp, 8, 3, 4>;
/// Bits of a parked request's early-NAK fields: local QPN, DestQP, PSN,
/// MSN (24 each), the QP's timer override valid and code.
const NF_BITS: usize = 102;

/// Fault-report FIFO: 4 reports. A decision answers RNR / STALL for a
/// missing or pending page only while the FIFO has room for its report
/// (counting the one in c6); otherwise the request parks and replays.
type FltFifo = SmallFifo<FltRec, 4, 2, 3>;

/// The translation path. Parameters:
///
/// - `MR_BITS`: log2 of MR table entries, 2..=8 (the walker tags walks
///   with an 8-bit MR index);
/// - `SET_BITS`, `HUGE`: TLB sets (log2) and huge-page entries;
/// - `SLOTS` = 2^`SLOT_BITS` outstanding (parked) requests, `CNT_BITS` =
///   `SLOT_BITS` + 1;
/// - `WALKS`: concurrent walks, 1..=8.
#[derive(LogicBlock)]
pub struct Translator<
    const MR_BITS: usize,
    const SET_BITS: usize,
    const HUGE: usize,
    const SLOTS: usize,
    const SLOT_BITS: usize,
    const CNT_BITS: usize,
    const WALKS: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: drops every parked request and clears the tables.
    /// Registered: the translator acts on it one clock later, as if it had
    /// come then (the clock after a `rst` clock is the translator's reset
    /// clock, and `ready` rises one clock later than its blocks' sweeps
    /// alone would raise it).
    pub rst: Signal<In, Bit>,
    /// High once the reset sweeps of the MR table and the TLB are done.
    pub ready: Signal<Out, Bit>,

    /// Translation requests (`s_xreq_*`, SPEC section 2).
    pub s_xreq: XReqIn,

    /// Translation responses (`m_xrsp_*`, SPEC section 2); `epoch` is the
    /// invalidation epoch the response's lookup was issued in (bits 3:0,
    /// `docs/invalidation.md`), 7:4 zero.
    pub m_xrsp: XRspOut,

    /// MR table writes (MR_WRITE), passed to the MR table.
    pub mr_wr: MrWriteIn<MR_BITS>,
    /// MR state changes (MR_SET_STATE), passed to the MR table.
    pub mr_st: MrStateIn<MR_BITS>,

    /// TLB invalidation (`inv_*`); an accepted one also makes the walks in
    /// flight that it covers stale (`docs/walker.md`, "flush").
    pub inv: InvalidateIn<MR_BITS>,

    /// AXI4 read master for the walker's page-table reads (`m_axi_*`).
    pub m_axi: AxiReadMaster,

    /// Invariant monitor: more than one TLB entry matched a lookup.
    pub mon_multi_hit: Signal<Out, Bit>,
    /// Invariant monitor: the output FIFO refused a response.
    pub mon_overflow: Signal<Out, Bit>,
    /// Invariant monitor: the TLB was not ready for a lookup it was given.
    pub mon_tlb_refused: Signal<Out, Bit>,
    /// Number of parked requests (for the bench and the monitors).
    pub mon_parked: Signal<Out, Bits<CNT_BITS>>,
    /// Counter pulse: a TLB lookup result hit.
    pub mon_tlb_hit: Signal<Out, Bit>,
    /// Counter pulse: a TLB lookup result missed.
    pub mon_tlb_miss: Signal<Out, Bit>,
    /// Counter pulse: the walker took a walk request (a new walk or one
    /// coalesced onto a walk of the same page).
    pub mon_walk: Signal<Out, Bit>,

    /// Pending-fault lookup, to the fault queue's `lk_*`: the MR index and
    /// the 4 KiB page number (`va >> 12`) of the lookup at c2, every lookup.
    pub m_plk_valid: Signal<Out, Bit>,
    /// Pending-fault lookup: MR index (8 bits whatever `MR_BITS`).
    pub m_plk_mr: Signal<Out, Bits<8>>,
    /// Pending-fault lookup: 4 KiB page number.
    pub m_plk_vpn: Signal<Out, Bits<52>>,
    /// The fault queue's answer to the lookup of three clocks before (it
    /// reaches the decision at c5): the page is pending. Tie low without a
    /// fault queue.
    pub plk_pending: Signal<In, Bit>,

    /// Fault reports (stream), to the fault queue's `s_flt_*`: one for every
    /// RNR / STALL answer of a missing or pending page, pushed the clock
    /// after the decision.
    pub m_flt_valid: Signal<Out, Bit>,
    /// Fault reports: ready.
    pub m_flt_ready: Signal<In, Bit>,
    /// Fault report: MR index.
    pub m_flt_mr: Signal<Out, Bits<8>>,
    /// Fault report: the faulting 4 KiB page (`va >> 12`).
    pub m_flt_vpn: Signal<Out, Bits<52>>,
    /// Fault report: the request's QPN.
    pub m_flt_qpn: Signal<Out, Bits<24>>,
    /// Fault report: the request's op.
    pub m_flt_op: Signal<Out, Bits<2>>,
    /// Fault report: the request's `va`.
    pub m_flt_va: Signal<Out, Bits<64>>,
    /// Fault report: the request's `msg_len`.
    pub m_flt_msg_len: Signal<Out, Bits<32>>,
    /// Fault report: the MR's end, `min(base_va + length, 2^64 - 1)`.
    pub m_flt_mr_hi: Signal<Out, Bits<64>>,

    /// Responder lookup (`docs/responder.md`), from c2's registers: a
    /// lookup is at c2 (it decides three clocks later).
    pub m_qlk_valid: Signal<Out, Bit>,
    /// Responder lookup: the request's QPN.
    pub m_qlk_qpn: Signal<Out, Bits<24>>,
    /// Responder lookup: the request's PSN.
    pub m_qlk_psn: Signal<Out, Bits<24>>,
    /// Responder lookup: the request is a remote op.
    pub m_qlk_remote: Signal<Out, Bit>,
    /// The responder's override for the lookup deciding at c5: its QP is in
    /// error, answer FATAL. Tie low without a responder.
    pub ov_fatal: Signal<In, Bit>,
    /// The responder's override for the lookup deciding at c5: a remote op
    /// of a QP waiting for another PSN, answer DROP. Tie low without a
    /// responder.
    pub ov_drop: Signal<In, Bit>,
    /// The decision at c5 answers its lookup (to the responder's `cm_*`).
    pub m_cm_valid: Signal<Out, Bit>,
    /// The answer's status.
    pub m_cm_status: Signal<Out, Bits<3>>,
    /// The request's remote QPN.
    pub m_cm_rqpn: Signal<Out, Bits<24>>,
    /// The request's MSN.
    pub m_cm_msn: Signal<Out, Bits<24>>,
    /// The answer is RNR / STALL for a suspended MR.
    pub m_cm_susp: Signal<Out, Bit>,
    /// Issue no lookup (the responder's `hold`). Tie low without one.
    pub hold: Signal<In, Bit>,
    /// The current invalidation epoch (`InvalUnit::epoch`), stamped on
    /// every lookup at c0 and carried to its response. Tie to 0 without an
    /// invalidation unit.
    pub epoch: Signal<In, Bits<4>>,
    /// With `m_cm_valid`: the epoch of the answer (its response's
    /// `m_xrsp_epoch`), for the invalidation unit's drain counts.
    pub m_cm_epoch: Signal<Out, Bits<4>>,
    /// With `m_cm_valid`: the request's QPN and MR index (the key's index
    /// bits), for the MR waiters' joins (`m_cm_susp` with STALL).
    pub m_cm_qpn: Signal<Out, Bits<24>>,
    pub m_cm_mr: Signal<Out, Bits<8>>,
    /// With `m_cm_valid`: the answer is the RNR of a request whose NAK has
    /// already left on `m_en_*` (the responder updates the QP's state but
    /// queues no second NAK).
    pub m_cm_nak_sent: Signal<Out, Bit>,
    /// The responder's timer override of the QP deciding at c5 (its
    /// `ov_tmr_*`), kept with a request that parks for a walk. Tie low
    /// without a responder.
    pub ov_tmr_valid: Signal<In, Bit>,
    /// The responder's timer override code at c5.
    pub ov_tmr_code: Signal<In, Bits<5>>,
    /// The responder's `cmd_busy`: a QP command is on its way, so no
    /// parked request keeps its right to an early NAK. Tie low without a
    /// responder.
    pub qp_cmd_busy: Signal<In, Bit>,
    /// Early RNR NAK (to the responder's `en_*`): the walk of a parked
    /// remote request, head of its QP, has found its page missing. Offered
    /// for one clock, two clocks after the walker's completion; a request
    /// whose early NAK is taken is answered RNR when it replays, whatever
    /// it would meet then.
    pub m_en_valid: Signal<Out, Bit>,
    /// Early NAK: the request's local QPN.
    pub m_en_qpn: Signal<Out, Bits<24>>,
    /// Early NAK: the request's remote QPN.
    pub m_en_rqpn: Signal<Out, Bits<24>>,
    /// Early NAK: the request's PSN.
    pub m_en_psn: Signal<Out, Bits<24>>,
    /// Early NAK: the request's MSN.
    pub m_en_msn: Signal<Out, Bits<24>>,
    /// Early NAK: the QP's timer override was valid when the request parked.
    pub m_en_tmr_valid: Signal<Out, Bit>,
    /// Early NAK: that override's code.
    pub m_en_tmr_code: Signal<Out, Bits<5>>,
    /// The responder takes the early NAK (its `en_ready`). Tie low without
    /// a responder: every NAK then comes with the answer.
    pub m_en_ready: Signal<In, Bit>,
    /// With `s_xreq`: the request is a PREFETCH page of the prefetch unit
    /// (`docs/prefetch.md`). Its key's index names the MR and its tag and
    /// PD are not checked; its QPN is not range-checked and the responder's
    /// overrides do not apply; its answer leaves on `m_pf_*`, never on
    /// `m_xrsp` or `m_cm_*`.
    pub xreq_pf: Signal<In, Bit>,
    /// With `xreq_pf`: a missing page is answered STALL without a fault
    /// report (PREFETCH's NO_FAULT).
    pub xreq_nofault: Signal<In, Bit>,
    /// A PREFETCH page's answer, one clock, in decision order: its status
    /// ([`crate::spec::status`]: OK, STALL, ACCESS_ERR).
    pub m_pf_valid: Signal<Out, Bit>,
    pub m_pf_status: Signal<Out, Bits<3>>,

    // `rst`, registered: one copy per group of loads (`ResetCopy`), so no
    // net runs from one register to every reset in the translator. The
    // MR table, the TLB, the walker, the two output FIFOs, the replay
    // queue and its head flags, the issue decision, and the state the
    // `reset` section clears.
    rs_mr: ResetCopy,
    rs_tlb: ResetCopy,
    rs_wk: ResetCopy,
    rs_of: ResetCopy,
    rs_ff: ResetCopy,
    rs_rp: ResetCopy,
    rs_is: ResetCopy,
    rs_st: ResetCopy,
    mr: MrTable<MR_BITS>,
    tlb: Tlb<SET_BITS, MR_BITS, HUGE>,
    walker: Walker<WALKS>,
    out_fifo: OutFifo,
    flt_fifo: FltFifo,
    qps: Constant<Bits<25>>,
    slots_total: Constant<Bits<CNT_BITS>>,

    // Parked request payloads and the walk each needs.
    payload: RAM<XReq, SLOT_BITS>,
    // Each parked request's early-NAK fields (NF_BITS), written when it
    // parks for a walk.
    nf: LutRam<Bits<NF_BITS>, SLOT_BITS>,
    // Two flags of each parked request, computed from c6's request as it
    // parks and read beside the payload at rp1 (with `rp1_slot`), so no
    // add or wide compare follows the payload RAM's output: bit 0, it
    // crosses a 4 KiB page; bit 1, its key has bits set above the MR index
    // (out of the MR table's range).
    pay_x: LutRam<Bits<2>, SLOT_BITS>,
    // Each parked request's MR index (its key's bits `[8 + MR_BITS - 1:8]`),
    // likewise beside the payload: the replay head's index registers
    // (`rp_hk`, `rp_hkx`, `rp_ki`) load from a LUT RAM read, not from the
    // payload block RAM's clock-to-output.
    pay_k: LutRam<Bits<MR_BITS>, SLOT_BITS>,
    wi_va: RAM<Bits<64>, SLOT_BITS>,
    wi_off: RAM<Bits<64>, SLOT_BITS>,
    wi_root: RAM<Bits<52>, SLOT_BITS>,
    wi_lvl: RAM<Bits<2>, SLOT_BITS>,
    wi_mr: RAM<Bits<8>, SLOT_BITS>,

    // Outstanding table, one entry per slot.
    sl_valid: [DFF<Bit>; SLOTS],
    sl_qpn: [DFF<Bits<24>>; SLOTS],
    sl_state: [DFF<ParkState>; SLOTS],
    sl_walk: [DFF<Bits<3>>; SLOTS],
    sl_forced: [DFF<Bits<3>>; SLOTS],
    // Early RNR NAK, per slot: the request may get one (it parked for a
    // walk as a remote op heading its QP, and no QP command has come
    // since); it started the walk it waits on (rather than joining
    // another's); its NAK has gone out.
    sl_early: [DFF<Bit>; SLOTS],
    sl_org: [DFF<Bit>; SLOTS],
    sl_nak: [DFF<Bit>; SLOTS],
    sl_write: [DFF<Bit>; SLOTS],
    sl_remote: [DFF<Bit>; SLOTS],
    // The slot's walk is for the request's second page (B): a Forced
    // answer reports that page.
    sl_wb: [DFF<Bit>; SLOTS],
    sl_pred_valid: [DFF<Bit>; SLOTS],
    sl_pred: [DFF<Bits<SLOT_BITS>>; SLOTS],
    sl_has_succ: [DFF<Bit>; SLOTS],
    sl_in_flight: [DFF<Bit>; SLOTS],
    used_cnt: DFF<Bits<CNT_BITS>>,
    // VA page of each walk slot, for the TLB fill.
    walk_va: [DFF<Bits<64>>; 8],
    // The slot that started each walk (the one not coalesced onto it): the
    // only slot an early NAK can be for when that walk completes.
    walk_slot: [DFF<Bits<SLOT_BITS>>; 8],

    // Pipeline registers c1 .. c5: valid bit and payload of each stage.
    s1_valid: DFF<Bit>,
    s1: DFF<Stage>,
    s2_valid: DFF<Bit>,
    s2: DFF<Stage>,
    s3_valid: DFF<Bit>,
    s3: DFF<Stage>,
    s4_valid: DFF<Bit>,
    s4: DFF<Stage>,
    s5_valid: DFF<Bit>,
    s5: DFF<Stage>,
    // The MR check of the lookup in c3, c4 and c5 (the MR table answers
    // at c2; the TLB at c5).
    m3: DFF<MrCheck>,
    m4: DFF<MrCheck>,
    m5: DFF<MrCheck>,
    b_pend: DFF<Bit>,
    // A copy of `b_pend` for the MR key's select alone: `b_pend` selects
    // some three hundred bits of c0, and the MR table's LUT RAMs are
    // addressed behind this one select. It loads only in clocks that may
    // issue (`issue_ok`, which every c0_valid implies), so it holds the
    // same value and stays a separate flip-flop.
    b_pend_k: DFF<Bit>,
    // Five more copies of `b_pend` and of `rp_hv_k` (below), one pair per
    // copy of the MR index (`c0_ix`, one per LUT RAM of the MR table, see
    // `MrTable::lk_ix_b0`). Copy `j` loads in the clocks its original
    // loads in and also while stage `s(j+1)` is valid (`rp_hv_kx[j]` also
    // whenever it is high): clocks in which its value cannot change, so
    // every copy holds the original's value and synthesis keeps each as a
    // flip-flop of its own. Each computes its next value from its own
    // pair (equal to the originals), with the issue as the last term.
    b_pend_kx: [DFF<Bit>; 5],
    rp_hv_kx: [DFF<Bit>; 5],
    c0_ix: [Signal<Local, Bits<MR_BITS>>; 5],
    // The A half's MR index for copy `j` of `c0_ix` (what `s1_key` holds
    // while a B half is pending), loaded with c1's payload; the enable is
    // the copy's own `b_pend_kx`, so each stays a register of its own,
    // beside its LUT RAM.
    s1_ix: [DFF<Bits<MR_BITS>>; 5],
    ix_en: [Signal<Local, Bit>; 5],
    // First page (A) of a crossing request, held until its B result.
    ha_status: DFF<Bits<3>>,
    ha_off: DFF<Bits<64>>,
    ha_ppn: DFF<Bits<52>>,
    ha_size: DFF<Bits<2>>,
    // A's page allows the access (hit, and writable if a write), taken
    // with the terms above: the decision at B picks it or B's own.
    ha_ok: DFF<Bit>,
    // A's page is pending in the fault queue.
    ha_pend: DFF<Bit>,
    // The A half's beat lengths, for the decision at B: covered by A's
    // page (one beat), else A's and B's lengths.
    ha_cov: DFF<Bit>,
    ha_len0: DFF<Bits<13>>,
    ha_len1: DFF<Bits<13>>,
    // The decision's terms that need no TLB result, computed at c4 for
    // the request that decides at c5: its QP's parked requests and chain
    // tail, with the commit held in c6_* folded in (`c5_bex`: other than
    // the slot of the request at c5; `c5_bs5`: that slot, dropped at c5 if
    // that request's decision frees it; `c5_fz`: the commit's park of the
    // same QP), corrected at c5 for the park of the decision of this clock
    // (c5_fwd_*); its slot's forced answer (a replay's slot does not change
    // while it is in flight), the QPN range check, and per page size
    // (4 KiB, 2 MiB, 1 GiB) whether the first page covers the access and
    // the first beat's length.
    // c3's QPN match against every slot, for the request now at c4.
    c4_mq: DFF<Bits<SLOTS>>,
    c5_bex: DFF<Bit>,
    c5_bs5: DFF<Bit>,
    c5_fz: DFF<Bit>,
    c5_fz_slot: DFF<Bits<SLOT_BITS>>,
    // The QPN compares of `c3_fz` and `c5_fz`, made a clock ahead from the
    // stage registers (the pipeline advances every clock, so the request
    // at c5 now is the commit's next clock, the one at c2 is then at c3,
    // the one at c3 then at c4): the commit's QPN never reaches the 64
    // match bits of c3 through a 24-bit compare.
    fz_eq3: DFF<Bit>,
    fz_eq4: DFF<Bit>,
    // Likewise for `c5_fwd_alloc`: the QPN of the request at c5 against the
    // one at c4, compared when they were at c4 and c3.
    fwd_eq: DFF<Bit>,
    c5_tail: DFF<Bits<SLOT_BITS>>,
    c5_fwd_alloc: DFF<Bit>,
    c5_fwd_slot: DFF<Bits<SLOT_BITS>>,
    c5_fv: DFF<Bit>,
    c5_forced: DFF<Bits<3>>,
    // The slot of the replay at c5 has sent its NAK early.
    c5_nak: DFF<Bit>,
    // Early NAK: the slots whose walk the walker completed in the clock
    // before, missing page (one-hot: the slot that started the walk);
    // then the NAK offered on m_en_* (e_*: its slot and fields).
    ec_vec: DFF<Bits<SLOTS>>,
    // The completion ec_vec was matched against was offered, not stale,
    // with no QP command (`ec_ok`), and taken into dr_* (`ec_acc`): the
    // gates end at one flip-flop each, not at the 64 of ec_vec.
    ec_ok: DFF<Bit>,
    ec_acc: DFF<Bit>,
    // The slot that started the completed walk (`walk_slot` at its id):
    // ec_vec's one bit, if it has one, so the fields are read at a
    // registered address.
    ec_sl: DFF<Bits<SLOT_BITS>>,
    e_valid: DFF<Bit>,
    e_slot: DFF<Bits<SLOT_BITS>>,
    e_f: DFF<Bits<NF_BITS>>,
    ec_next: Signal<Local, Bits<SLOTS>>,
    d_nsent: Signal<Local, Bit>,
    c6_nf: Signal<Local, Bits<NF_BITS>>,
    c6_va: Signal<Local, Bits<64>>,
    c6_len: Signal<Local, Bits<13>>,
    c6_xend: Signal<Local, Bits<14>>,
    c5_fb: DFF<Bit>,
    c5_qbad: DFF<Bit>,
    c5_cov: DFF<Bits<3>>,
    // The request at c5 is a write (from its op at c4).
    c5_wr: DFF<Bit>,
    c5_l0_4k: DFF<Bits<13>>,
    c5_l0_2m: DFF<Bits<13>>,
    c5_l0_1g: DFF<Bits<13>>,
    // c6: the decision of c5, registered; the slot table, the payload and
    // walk-information RAMs and the parked count are written from these
    // registers, so the decision's depth ends at a register and not at the
    // enables of 2^SLOT_BITS slot entries.
    c6_park: DFF<Bit>,
    c6_alloc: DFF<Bit>,
    c6_free: DFF<Bit>,
    // Copies of c6_free for the QPN match folds of c3 (`_a`) and c4 (`_b`),
    // 64 bits each: each loads under an enable of its own (equivalent: the
    // decision frees nothing without a valid request at c5), so synthesis
    // keeps three flip-flops and no one of them fans out to every slot
    // twice over.
    c6_free_a: DFF<Bit>,
    c6_free_b: DFF<Bit>,
    c6_need_walk: DFF<Bit>,
    c6_walk_b: DFF<Bit>,
    c6_slot: DFF<Bits<SLOT_BITS>>,
    // c6_slot decoded, registered beside it (`d_oh` at c5), so that the
    // commit's per-slot enables (and the c3 / c4 / c5 terms that fold the
    // commit in) start at one flip-flop a slot, not at a decode of the
    // 6-bit register that also addresses every slot RAM.
    c6_oh: DFF<Bits<SLOTS>>,
    d_oh: Signal<Local, Bits<SLOTS>>,
    // c6_oh again for the free-slot search (`pe_vc`), which reads it only
    // when c6 parks (`c6_alloc`): it loads only while c5 holds a lookup
    // (`s5_valid`, which every park implies), so it is equal to c6_oh
    // whenever it is read and stays a register of its own, placed at the
    // search instead of across the slot table; its enable is a register,
    // not the decision.
    c6_ohp: DFF<Bits<SLOTS>>,
    c6_qpn: DFF<Bits<24>>,
    c6_write: DFF<Bit>,
    c6_remote: DFF<Bit>,
    c6_blocked: DFF<Bit>,
    c6_tail: DFF<Bits<SLOT_BITS>>,
    c6_req: DFF<XReq>,
    c6_wva: DFF<Bits<64>>,
    c6_woff: DFF<Bits<64>>,
    c6_root: DFF<Bits<52>>,
    c6_lvl: DFF<Bits<2>>,
    c6_mr: DFF<Bits<8>>,
    // The decision's fault report: pushed into `flt_fifo` at c6 (`c6_fb`:
    // the page is the request's second one), and a Forced replay that
    // could not report and keeps its slot Forced (`c6_keep`).
    c6_report: DFF<Bit>,
    c6_fb: DFF<Bit>,
    c6_end: DFF<Bits<64>>,
    c6_keep: DFF<Bit>,
    // The responder's timer override at the decision (for `nf`).
    c6_tv: DFF<Bit>,
    c6_tc: DFF<Bits<5>>,
    // Slots taken, for the free-slot search: set and cleared by the commit
    // (c6) of a park or a free; the search also runs with the commit's
    // slot taken (`pe_lo_c`, `pe_hi_c`), so it sees every park from the
    // clock after its decision.
    alloc_vec: DFF<Bits<SLOTS>>,
    // Replay candidates of the previous clock (less the slot it took).
    rp_vec: DFF<Bits<SLOTS>>,
    // Replay read: the slot selected (`rp0`, the payload RAM's read address
    // comes from this register, not from the select tree), then the slot
    // whose payload is on the RAM output (`rp1`).
    rp0_valid: DFF<Bit>,
    rp0_slot: DFF<Bits<SLOT_BITS>>,
    rp1_valid: DFF<Bit>,
    rp1_slot: DFF<Bits<SLOT_BITS>>,
    // Replay payloads queued off the RAM output (`rp_q`, with their slots
    // in `rp_qs`): every word on the RAM output is pushed, and a read is
    // started only when the queue has room for it, counted on registers.
    // So the RAM's read address waits for no issue decision, and c0
    // chooses among the queue's head and the request port, not behind the
    // RAM's clock-to-output.
    rp_q: SmallFifo<XReq, 4, 2, 3>,
    rp_qs: SmallFifo<Bits<SLOT_BITS>, 4, 2, 3>,
    // `rp_q` is not empty, kept as registers so c0's choice starts at
    // flip-flops, in three copies that fan out to separate parts of c0's
    // multiplexers: `rp_hv` for the issue and the request's fields,
    // `rp_hv_k` for the MR key, `rp_hv_v` for the address. The copies load
    // under different enables (every clock; on a push, pop or reset; on a
    // push, lookup or reset), all of which include every clock the queue's
    // emptiness can change, so they hold the same value and stay separate
    // flip-flops.
    rp_hv: DFF<Bit>,
    rp_hv_k: DFF<Bit>,
    rp_hv_v: DFF<Bit>,
    rp_hv_nx: Signal<Local, Bit>,
    // `rp_q` holds two words or more, kept for the next clock as "not
    // empty" is: `rp_hv_nx` then reads the issue and four of the
    // translator's flip-flops, not the queue's count (which sits with the
    // queue's LUT RAM, away from the copies it feeds).
    rp_ge2: DFF<Bit>,
    // The MR table's index bits of every key in `rp_q` (`rp_ki`, written
    // at the same pointer as the queue) and of its head (`rp_hk`, computed
    // for the next clock from the push and the pop): the MR table's LUT
    // RAM is addressed from a flip-flop, not behind the queue's own LUT
    // RAM read. They are indexed by the queue's own pointers
    // (`rp_q.wr_ptr`, `rp_q.rd_ptr`).
    rp_ki: [DFF<Bits<MR_BITS>>; 4],
    rp_hk: DFF<Bits<MR_BITS>>,
    // The head's MR index again for each copy of `c0_ix` (loaded as
    // `rp_hk` is, but under that copy's own issue, `c0_rpx[j]`, which also
    // keeps the copies apart in synthesis), so that each sits by its own
    // LUT RAM of the MR table instead of one register reaching all five.
    rp_hkx: [DFF<Bits<MR_BITS>>; 5],
    rp_hk_n: Signal<Local, Bits<MR_BITS>>,
    // Likewise the two flags of `pay_x` for each queued request (`rp_kc`)
    // and the head (`rp_hc`), so that c0's crossing test, the B half it
    // schedules and the MR table's key-range check do not wait for the
    // queue's LUT-RAM read either: a replay's key reaches the MR table
    // with its bits above the index taken from the flag (all set or all
    // clear), which is all the range check reads of them.
    rp_kc: [DFF<Bits<2>>; 4],
    rp_hc: Signal<Local, Bits<2>>,
    // Likewise each queued request's address and length (`rp_vl`, `va` in
    // `[63:0]`, `len` in `[76:64]`) and the head's (`rp_hvl`): the MR
    // table's sums (`va + len`, `va[11:0] + len`) start at flip-flops.
    rp_vl: [DFF<Bits<77>>; 4],
    rp_hvl: Signal<Local, Bits<77>>,
    // The head (`rp_hvl`, `rp_hc`) is one of two registers, chosen by
    // whether the last clock popped (`rp_hp`): `rp_hva` / `rp_hca` hold
    // the head if it did not, `rp_hvb` / `rp_hcb` if it did. Both load in
    // every clock from registers and the RAM output alone, so the issue
    // decision (`c0_rp`) reaches the one flip-flop `rp_hp` instead of the
    // head's 78 enables and selects; the select moves to the head's
    // readers, which start from it with slack to spare.
    rp_hva: DFF<Bits<77>>,
    rp_hvb: DFF<Bits<77>>,
    rp_hca: DFF<Bits<2>>,
    rp_hcb: DFF<Bits<2>>,
    rp_hp: DFF<Bit>,
    rp_din_vl: Signal<Local, Bits<77>>,
    rp_vl1: Signal<Local, Bits<77>>,
    rp_din_c: Signal<Local, Bits<2>>,
    rp_c1: Signal<Local, Bits<2>>,
    rp_din_k: Signal<Local, Bits<MR_BITS>>,
    rp_k1: Signal<Local, Bits<MR_BITS>>,
    rp_kr1: Signal<Local, Bits<2>>,
    // The key bits above the MR index, and a replay's (all set or all clear,
    // from its flag).
    key_hi: Constant<Bits<32>>,
    rp_khi: Signal<Local, Bits<32>>,
    // Free slots for a park, from the previous clock's valid bits: the
    // lowest and the highest free slot (the admission rule keeps two free
    // whenever two parks can follow each other), and whether the previous
    // clock allocated one (its slot is c5_fwd_slot).
    fl_lo: DFF<Bits<SLOT_BITS>>,
    fl_hi: DFF<Bits<SLOT_BITS>>,
    prev_alloc: DFF<Bit>,
    // Walk issue: slot whose walk info is being read / offered. The RAM
    // words are registered (`wq_*`) before they reach the walker, and the
    // walker's answer (`wf_*`) before it reaches the slot table: neither
    // the RAM's clock-to-output nor the walker's coalescing compare sits in
    // front of the 2^SLOT_BITS slot registers.
    wi_busy: DFF<Bit>,
    wi_have: DFF<Bit>,
    wi_have2: DFF<Bit>,
    wi_slot: DFF<Bits<SLOT_BITS>>,
    wq_va: DFF<Bits<64>>,
    wq_off: DFF<Bits<64>>,
    wq_root: DFF<Bits<52>>,
    wq_lvl: DFF<Bits<2>>,
    wq_mr: DFF<Bits<8>>,
    wf_fire: DFF<Bit>,
    wf_id: DFF<Bits<3>>,
    wf_coal: DFF<Bit>,
    // Walk completion, registered as the walker hands it over (`dr_*`): the
    // TLB fill and the slot table's update start from these registers. A
    // completion held here when an invalidation is accepted is judged
    // against it with the walker's probe in the next clock (`flush_busy`),
    // and becomes stale if the invalidation covers it (its requests walk
    // again), as the walks still in the walker do.
    dr_valid: DFF<Bit>,
    dr_id: DFF<Bits<3>>,
    dr_status: DFF<Bits<2>>,
    dr_mr: DFF<Bits<8>>,
    dr_off: DFF<Bits<64>>,
    dr_ppn: DFF<Bits<52>>,
    dr_size: DFF<Bits<2>>,
    dr_w: DFF<Bit>,
    // The walker's probe reads copies of dr_mr, dr_off and dr_size
    // (`dp_*`), which load whenever a completion could be taken
    // (`done_ready`), offered or not: while dr_* holds a completion they
    // hold the same value, and the different enable keeps them apart in
    // synthesis, placed at the walker's compare instead of at the TLB's
    // fill.
    dp_mr: DFF<Bits<8>>,
    // The TLB took a huge fill (2 MiB or 1 GiB) in the clock before: it
    // issues that fill now and refuses the next clock's lookup, the one an
    // issue now would give it.
    hf_acc: DFF<Bit>,
    // The walker's `flush_busy` again (`fb_is`, the flush handed to it a
    // clock ago) and the fill it holds back (`fill_is`), for the issue
    // decision alone, so that the walker's register and the TLB's
    // `fill_valid` stay where they are read and the decision starts at a
    // flip-flop beside it. `fb_is` loads only when it changes, which keeps
    // it apart from the walker's own in synthesis.
    fb_is: DFF<Bit>,
    fb_is_n: Signal<Local, Bit>,
    fill_is: Signal<Local, Bit>,
    dp_off: DFF<Bits<64>>,
    dp_size: DFF<Bits<2>>,
    dr_stale: DFF<Bit>,
    // The completion is neither stale nor failed: `dr_status == OK` and
    // `!dr_stale`, kept as a register so the take decision starts at
    // flip-flops.
    dr_ok: DFF<Bit>,
    // Release (`rl_*`): the clock after a completion is taken, the slots
    // waiting on its walk move on, decided from these registers (its walk
    // id and its outcome decoded) and not from the take handshake.
    rl_valid: DFF<Bit>,
    rl_id: DFF<Bits<3>>,
    rl_stale: DFF<Bit>,
    rl_ok: DFF<Bit>,
    rl_absent: DFF<Bit>,
    rl_w: DFF<Bit>,
    // Output serializer: second beat of a two-page response.
    beat2: DFF<Bit>,
    // The decision's response, registered (c6): the head of the output
    // while the FIFO is empty, else pushed behind the FIFO's words. The
    // decision ends at these registers, not at the FIFO's write port.
    rsp6_valid: DFF<Bit>,
    rsp6: DFF<XRsp>,
    // Room in the output for every lookup that could issue, a register
    // computed a clock ahead (`o_room`), so that the issue decision does
    // not start at the output FIFO's count and `rsp6_valid`. It bounds the
    // next clock's words (FIFO and `rsp6`) from above by this clock's, plus
    // c5's lookup (at most one response each), less the one leaving whole:
    // a lookup at c5 that answers nothing (a park, an A half, a prefetch)
    // makes it one word too cautious for a clock, never too eager.
    o_room: DFF<Bit>,
    o_occ: Signal<Local, Bits<4>>,
    o_leave: Signal<Local, Bit>,
    // The output's head: the FIFO's oldest word, or `rsp6` when it is empty.
    o_head: Signal<Local, XRsp>,

    // Combinational helpers.
    xreq: Signal<Local, XReq>,
    issue_ok: Signal<Local, Bit>,
    new_inflight: Signal<Local, Bits<CNT_BITS>>,
    c0_valid: Signal<Local, Bit>,
    c0_rp: Signal<Local, Bit>,
    // `c0_rp` again for each copy of the head's MR index (`rp_hkx[j]`),
    // from that copy's own registers (`b_pend_kx[j]`, `rp_hv_kx[j]`): the
    // issue reaches five small loads, not one net to all 48 bits.
    c0_rpx: [Signal<Local, Bit>; 5],
    // A new request's A half that would cross, were it issued now: the
    // port's valid, the slot room and the port's crossing test, without
    // the issue (`b_pend_kx[j]` combines it with `issue_ok` last).
    x_room: Signal<Local, Bit>,
    x_cross: Signal<Local, Bit>,
    c0_replay: Signal<Local, Bit>,
    c0_slot: Signal<Local, Bits<SLOT_BITS>>,
    c0_half: Signal<Local, Bit>,
    c0_req: Signal<Local, XReq>,
    c0_va: Signal<Local, Bits<64>>,
    // c0's payload as it enters c1; the requests of c1 and c4 (a struct
    // member of a register is read one level deep at a time).
    c0_st: Signal<Local, Stage>,
    s1_rq: Signal<Local, XReq>,
    s4_rq: Signal<Local, XReq>,
    c0_key: Signal<Local, Bits<32>>,
    c0_rva: Signal<Local, Bits<64>>,
    s1_key: Signal<Local, Bits<32>>,
    s2_rq: Signal<Local, XReq>,
    s2_key: Signal<Local, Bits<32>>,
    c6_rq: Signal<Local, XReq>,
    f_rec: Signal<Local, FltRec>,
    c0_ca: Signal<Local, Bits<16>>,
    c0_cb: Signal<Local, Bits<16>>,
    c0_end: Signal<Local, Bits<16>>,
    c0_cross: Signal<Local, Bit>,
    // The B half's page (the A half's `va` rounded down to its 4 KiB page,
    // plus 4 KiB), a register loaded with c1's payload from c0's address,
    // so that a B half's c0 starts the MR table's `va + len` at a
    // flip-flop and not behind a 52-bit increment of `s1.va`.
    s1_page: DFF<Bits<64>>,
    rp_found: Signal<Local, Bit>,
    rp_sel: Signal<Local, Bits<SLOT_BITS>>,
    rp_take: Signal<Local, Bit>,
    rp_fill: Signal<Local, Bits<3>>,
    rp_have: Signal<Local, Bit>,
    wi_found: Signal<Local, Bit>,
    wi_sel: Signal<Local, Bits<SLOT_BITS>>,
    free_sel: Signal<Local, Bits<SLOT_BITS>>,
    // Lowest set bit of a slot vector: `v & (!v + 1)` (a carry chain), then
    // the OR of the indices of its one bit; not a chain through the slots.
    pe_vec: Signal<Local, Bits<SLOTS>>,
    // Lowest set bit (`LowestSet`, a balanced tree) of the replay, free
    // and walk-issue vectors, and the highest of the free vector.
    pe_rp: LowestSet<SLOTS, SLOT_BITS>,
    pe_lo: LowestSet<SLOTS, SLOT_BITS>,
    pe_hi: LowestSet<SLOTS, SLOT_BITS>,
    // The same searches with the commit's slot taken (`pe_vc`): the commit's
    // park selects between the two results, after the trees.
    pe_lo_c: LowestSet<SLOTS, SLOT_BITS>,
    pe_hi_c: LowestSet<SLOTS, SLOT_BITS>,
    pe_vc: Signal<Local, Bits<SLOTS>>,
    pe_wi: LowestSet<SLOTS, SLOT_BITS>,
    dr_take: Signal<Local, Bit>,
    // c2 decision.
    d_last: Signal<Local, Bit>,
    d_req: Signal<Local, XReq>,
    d_write: Signal<Local, Bit>,
    d_remote: Signal<Local, Bit>,
    d_qpn_bad: Signal<Local, Bit>,
    d_a_status: Signal<Local, Bits<3>>,
    d_a_off: Signal<Local, Bits<64>>,
    d_a_ppn: Signal<Local, Bits<52>>,
    d_a_size: Signal<Local, Bits<2>>,
    d_a_ok: Signal<Local, Bit>,
    d_b_ok: Signal<Local, Bit>,
    d_mask_a: Signal<Local, Bits<64>>,
    d_mask_b: Signal<Local, Bits<64>>,
    d_in_a: Signal<Local, Bits<64>>,
    d_covered: Signal<Local, Bit>,
    d_pa_a: Signal<Local, Bits<64>>,
    d_pa_b: Signal<Local, Bits<64>>,
    d_len0: Signal<Local, Bits<13>>,
    d_len1: Signal<Local, Bits<13>>,
    d_blocked: Signal<Local, Bit>,
    c4_mv: Signal<Local, Bits<SLOTS>>,
    c4_tv: Signal<Local, Bits<SLOTS>>,
    s3_rq: Signal<Local, XReq>,
    s5_rq: Signal<Local, XReq>,
    c3_fz: Signal<Local, Bit>,
    c3_mq: Signal<Local, Bits<SLOTS>>,
    rv_next: Signal<Local, Bits<SLOTS>>,
    // The replay candidate taken, one-hot beside `pe_rp`'s index: the
    // candidates below each bit ORed by a prefix tree (`rp_pre`), so the
    // candidate cleared and the in-flight bit set do not wait for the
    // index tree and its decode.
    rp_pre: Signal<Local, Bits<SLOTS>>,
    rp_oh: Signal<Local, Bits<SLOTS>>,
    s5_oh: Signal<Local, Bits<SLOTS>>,
    s5_slot: Signal<Local, Bits<SLOT_BITS>>,
    av_next: Signal<Local, Bits<SLOTS>>,
    // Index bit b of every slot: the OR of a one-hot vector's indices is,
    // bit by bit, a reduction OR of the vector under these masks (a
    // balanced tree, not a chain through the slots).
    idx_mask: [Constant<Bits<SLOTS>>; 8],
    k4k: Constant<Bits<13>>,
    k2m: Constant<Bits<22>>,
    k1g: Constant<Bits<31>>,
    c4_i4: Signal<Local, Bits<13>>,
    c4_r4: Signal<Local, Bits<13>>,
    c4_i2: Signal<Local, Bits<22>>,
    c4_r2: Signal<Local, Bits<22>>,
    c4_i1: Signal<Local, Bits<31>>,
    c4_r1: Signal<Local, Bits<31>>,
    c4_tail: Signal<Local, Bits<SLOT_BITS>>,
    c4_match: Signal<Local, Bit>,
    c4_cov: Signal<Local, Bits<3>>,
    a_cov: Signal<Local, Bit>,
    a_len0: Signal<Local, Bits<13>>,
    d_tail: Signal<Local, Bits<SLOT_BITS>>,
    d_forced_valid: Signal<Local, Bit>,
    d_forced: Signal<Local, Bits<3>>,
    d_fault: Signal<Local, Bits<3>>,
    d_a_pend: Signal<Local, Bit>,
    d_room: Signal<Local, Bit>,
    d_report: Signal<Local, Bit>,
    d_fb: Signal<Local, Bit>,
    d_keep: Signal<Local, Bit>,
    d_respond: Signal<Local, Bit>,
    d_susp: Signal<Local, Bit>,
    d_park: Signal<Local, Bit>,
    d_need_walk: Signal<Local, Bit>,
    d_walk_b: Signal<Local, Bit>,
    d_rsp: Signal<Local, XRsp>,
    d_slot: Signal<Local, Bits<SLOT_BITS>>,
    d_free: Signal<Local, Bit>,
    d_alloc: Signal<Local, Bit>,
    // Walker completion.
    w_fill: Signal<Local, Bit>,
}

impl<
        const MR_BITS: usize,
        const SET_BITS: usize,
        const HUGE: usize,
        const SLOTS: usize,
        const SLOT_BITS: usize,
        const CNT_BITS: usize,
        const WALKS: usize,
    > Translator<MR_BITS, SET_BITS, HUGE, SLOTS, SLOT_BITS, CNT_BITS, WALKS>
{
    /// Builds the translator; `qps` is the number of queue pairs (requests
    /// with `qpn >= qps` answer ACCESS_ERR).
    pub fn new(qps: usize) -> Self {
        assert!(
            (2..=8).contains(&MR_BITS),
            "Translator: MR_BITS must be in 2..=8, got {MR_BITS}"
        );
        assert!(
            SLOTS.is_power_of_two() && (2..=256).contains(&SLOTS) && (1 << SLOT_BITS) == SLOTS,
            "Translator: SLOTS must be 2^SLOT_BITS in 2..=256, got {SLOTS} / {SLOT_BITS}"
        );
        assert_eq!(
            CNT_BITS,
            SLOT_BITS + 1,
            "Translator: CNT_BITS must be SLOT_BITS + 1"
        );
        assert!(
            (1..=8).contains(&WALKS),
            "Translator: WALKS must be in 1..=8, got {WALKS}"
        );
        assert!(
            (1..=1 << 24).contains(&qps),
            "Translator: qps must be in 1..=2^24, got {qps}"
        );
        Self {
            clock: Default::default(),
            rst: Default::default(),
            ready: Default::default(),
            s_xreq: Default::default(),
            m_xrsp: Default::default(),
            mr_wr: Default::default(),
            mr_st: Default::default(),
            inv: Default::default(),
            m_axi: Default::default(),
            mon_multi_hit: Default::default(),
            mon_overflow: Default::default(),
            mon_tlb_refused: Default::default(),
            mon_parked: Default::default(),
            mon_tlb_hit: Default::default(),
            mon_tlb_miss: Default::default(),
            mon_walk: Default::default(),
            m_plk_valid: Default::default(),
            m_plk_mr: Default::default(),
            m_plk_vpn: Default::default(),
            plk_pending: Default::default(),
            m_flt_valid: Default::default(),
            m_flt_ready: Default::default(),
            m_flt_mr: Default::default(),
            m_flt_vpn: Default::default(),
            m_flt_qpn: Default::default(),
            m_flt_op: Default::default(),
            m_flt_va: Default::default(),
            m_flt_msg_len: Default::default(),
            m_flt_mr_hi: Default::default(),
            m_qlk_valid: Default::default(),
            m_qlk_qpn: Default::default(),
            m_qlk_psn: Default::default(),
            m_qlk_remote: Default::default(),
            ov_fatal: Default::default(),
            ov_drop: Default::default(),
            m_cm_valid: Default::default(),
            m_cm_status: Default::default(),
            m_cm_rqpn: Default::default(),
            m_cm_msn: Default::default(),
            m_cm_susp: Default::default(),
            hold: Default::default(),
            epoch: Default::default(),
            m_cm_epoch: Default::default(),
            m_cm_qpn: Default::default(),
            m_cm_mr: Default::default(),
            m_cm_nak_sent: Default::default(),
            ov_tmr_valid: Default::default(),
            ov_tmr_code: Default::default(),
            qp_cmd_busy: Default::default(),
            m_en_valid: Default::default(),
            m_en_qpn: Default::default(),
            m_en_rqpn: Default::default(),
            m_en_psn: Default::default(),
            m_en_msn: Default::default(),
            m_en_tmr_valid: Default::default(),
            m_en_tmr_code: Default::default(),
            m_en_ready: Default::default(),
            nf: Default::default(),
            pay_x: Default::default(),
            pay_k: Default::default(),
            sl_early: std::array::from_fn(|_| Default::default()),
            sl_org: std::array::from_fn(|_| Default::default()),
            sl_nak: std::array::from_fn(|_| Default::default()),
            c5_nak: Default::default(),
            c6_tv: Default::default(),
            c6_tc: Default::default(),
            ec_vec: Default::default(),
            ec_ok: Default::default(),
            ec_sl: Default::default(),
            ec_acc: Default::default(),
            e_valid: Default::default(),
            e_slot: Default::default(),
            e_f: Default::default(),
            ec_next: Default::default(),
            d_nsent: Default::default(),
            c6_nf: Default::default(),
            c6_va: Default::default(),
            c6_len: Default::default(),
            c6_xend: Default::default(),
            xreq_pf: Default::default(),
            xreq_nofault: Default::default(),
            m_pf_valid: Default::default(),
            m_pf_status: Default::default(),
            rs_mr: Default::default(),
            rs_tlb: Default::default(),
            rs_wk: Default::default(),
            rs_of: Default::default(),
            rs_ff: Default::default(),
            rs_rp: Default::default(),
            rs_is: Default::default(),
            rs_st: Default::default(),
            mr: Default::default(),
            tlb: Default::default(),
            walker: Default::default(),
            out_fifo: Default::default(),
            flt_fifo: Default::default(),
            qps: Constant::new((qps as u64).into()),
            slots_total: Constant::new((SLOTS as u64).into()),
            payload: Default::default(),
            wi_va: Default::default(),
            wi_off: Default::default(),
            wi_root: Default::default(),
            wi_lvl: Default::default(),
            wi_mr: Default::default(),
            sl_valid: std::array::from_fn(|_| Default::default()),
            sl_qpn: std::array::from_fn(|_| Default::default()),
            sl_state: std::array::from_fn(|_| Default::default()),
            sl_walk: std::array::from_fn(|_| Default::default()),
            sl_forced: std::array::from_fn(|_| Default::default()),
            sl_write: std::array::from_fn(|_| Default::default()),
            sl_remote: std::array::from_fn(|_| Default::default()),
            sl_wb: std::array::from_fn(|_| Default::default()),
            sl_pred_valid: std::array::from_fn(|_| Default::default()),
            sl_pred: std::array::from_fn(|_| Default::default()),
            sl_has_succ: std::array::from_fn(|_| Default::default()),
            sl_in_flight: std::array::from_fn(|_| Default::default()),
            used_cnt: Default::default(),
            walk_va: std::array::from_fn(|_| Default::default()),
            walk_slot: std::array::from_fn(|_| Default::default()),
            s1_valid: Default::default(),
            s1: Default::default(),
            s2_valid: Default::default(),
            s2: Default::default(),
            s3_valid: Default::default(),
            s3: Default::default(),
            m3: Default::default(),
            s4_valid: Default::default(),
            s4: Default::default(),
            s5_valid: Default::default(),
            s5: Default::default(),
            m4: Default::default(),
            m5: Default::default(),
            b_pend: Default::default(),
            b_pend_k: Default::default(),
            b_pend_kx: std::array::from_fn(|_| Default::default()),
            rp_hv_kx: std::array::from_fn(|_| Default::default()),
            c0_ix: std::array::from_fn(|_| Default::default()),
            s1_ix: std::array::from_fn(|_| Default::default()),
            ix_en: std::array::from_fn(|_| Default::default()),
            ha_status: Default::default(),
            ha_off: Default::default(),
            ha_ppn: Default::default(),
            ha_size: Default::default(),
            ha_pend: Default::default(),
            ha_ok: Default::default(),
            ha_cov: Default::default(),
            ha_len0: Default::default(),
            ha_len1: Default::default(),
            c4_mq: Default::default(),
            c5_bex: Default::default(),
            c5_bs5: Default::default(),
            c5_fz: Default::default(),
            c5_fz_slot: Default::default(),
            fz_eq3: Default::default(),
            fz_eq4: Default::default(),
            fwd_eq: Default::default(),
            c5_tail: Default::default(),
            c5_fwd_alloc: Default::default(),
            c5_fwd_slot: Default::default(),
            c5_fv: Default::default(),
            c5_forced: Default::default(),
            c5_fb: Default::default(),
            c5_qbad: Default::default(),
            c5_cov: Default::default(),
            c5_wr: Default::default(),
            c5_l0_4k: Default::default(),
            c5_l0_2m: Default::default(),
            c5_l0_1g: Default::default(),
            c6_park: Default::default(),
            c6_alloc: Default::default(),
            c6_free: Default::default(),
            c6_free_a: Default::default(),
            c6_free_b: Default::default(),
            c6_need_walk: Default::default(),
            c6_walk_b: Default::default(),
            c6_slot: Default::default(),
            c6_oh: Default::default(),
            c6_ohp: Default::default(),
            d_oh: Default::default(),
            c6_qpn: Default::default(),
            c6_write: Default::default(),
            c6_remote: Default::default(),
            c6_blocked: Default::default(),
            c6_tail: Default::default(),
            c6_req: Default::default(),
            c6_wva: Default::default(),
            c6_woff: Default::default(),
            c6_root: Default::default(),
            c6_lvl: Default::default(),
            c6_mr: Default::default(),
            c6_report: Default::default(),
            c6_fb: Default::default(),
            c6_end: Default::default(),
            c6_keep: Default::default(),
            alloc_vec: Default::default(),
            rp_vec: Default::default(),
            rp1_valid: Default::default(),
            rp0_valid: Default::default(),
            rp0_slot: Default::default(),
            rp_fill: Default::default(),
            rp_hv: Default::default(),
            rp_hv_k: Default::default(),
            rp_hv_nx: Default::default(),
            rp_ge2: Default::default(),
            rp_hv_v: Default::default(),
            rp_ki: std::array::from_fn(|_| Default::default()),
            rp_hk: Default::default(),
            rp_hkx: std::array::from_fn(|_| Default::default()),
            rp_hk_n: Default::default(),
            rp_kc: std::array::from_fn(|_| Default::default()),
            rp_hc: Default::default(),
            rp_hva: Default::default(),
            rp_hvb: Default::default(),
            rp_hca: Default::default(),
            rp_hcb: Default::default(),
            rp_hp: Default::default(),
            rp_vl: std::array::from_fn(|_| Default::default()),
            rp_hvl: Default::default(),
            rp_din_vl: Default::default(),
            rp_vl1: Default::default(),
            rp_din_c: Default::default(),
            rp_c1: Default::default(),
            rp_din_k: Default::default(),
            rp_k1: Default::default(),
            rp_kr1: Default::default(),
            rp_khi: Default::default(),
            key_hi: Constant::new(((u32::MAX as u64) & !((1u64 << (8 + MR_BITS)) - 1)).into()),
            rp1_slot: Default::default(),
            rp_q: Default::default(),
            rp_qs: Default::default(),
            fl_lo: Default::default(),
            fl_hi: Default::default(),
            prev_alloc: Default::default(),
            wi_busy: Default::default(),
            wi_have: Default::default(),
            wi_have2: Default::default(),
            wi_slot: Default::default(),
            wq_va: Default::default(),
            wq_off: Default::default(),
            wq_root: Default::default(),
            wq_lvl: Default::default(),
            wq_mr: Default::default(),
            wf_fire: Default::default(),
            wf_id: Default::default(),
            wf_coal: Default::default(),
            dr_valid: Default::default(),
            dr_id: Default::default(),
            dr_status: Default::default(),
            dr_mr: Default::default(),
            dr_off: Default::default(),
            dr_ppn: Default::default(),
            dr_size: Default::default(),
            dp_mr: Default::default(),
            hf_acc: Default::default(),
            fb_is: Default::default(),
            fb_is_n: Default::default(),
            fill_is: Default::default(),
            dp_off: Default::default(),
            dp_size: Default::default(),
            dr_w: Default::default(),
            dr_stale: Default::default(),
            dr_ok: Default::default(),
            rl_valid: Default::default(),
            rl_id: Default::default(),
            rl_stale: Default::default(),
            rl_ok: Default::default(),
            rl_absent: Default::default(),
            rl_w: Default::default(),
            beat2: Default::default(),
            rsp6_valid: Default::default(),
            o_room: Default::default(),
            o_occ: Default::default(),
            o_leave: Default::default(),
            rsp6: Default::default(),
            o_head: Default::default(),
            xreq: Default::default(),
            issue_ok: Default::default(),
            new_inflight: Default::default(),
            c0_valid: Default::default(),
            c0_rp: Default::default(),
            c0_rpx: std::array::from_fn(|_| Default::default()),
            x_room: Default::default(),
            x_cross: Default::default(),
            c0_replay: Default::default(),
            c0_slot: Default::default(),
            c0_half: Default::default(),
            c0_req: Default::default(),
            c0_va: Default::default(),
            c0_st: Default::default(),
            s1_rq: Default::default(),
            s4_rq: Default::default(),
            c0_key: Default::default(),
            c0_rva: Default::default(),
            s1_key: Default::default(),
            s2_rq: Default::default(),
            s2_key: Default::default(),
            c6_rq: Default::default(),
            f_rec: Default::default(),
            c0_ca: Default::default(),
            c0_cb: Default::default(),
            c0_end: Default::default(),
            c0_cross: Default::default(),
            s1_page: Default::default(),
            rp_found: Default::default(),
            rp_sel: Default::default(),
            rp_take: Default::default(),
            rp_have: Default::default(),
            wi_found: Default::default(),
            wi_sel: Default::default(),
            free_sel: Default::default(),
            pe_vec: Default::default(),
            pe_rp: Default::default(),
            pe_lo: Default::default(),
            pe_hi: Default::default(),
            pe_lo_c: Default::default(),
            pe_hi_c: Default::default(),
            pe_vc: Default::default(),
            pe_wi: Default::default(),
            dr_take: Default::default(),
            d_last: Default::default(),
            d_req: Default::default(),
            d_write: Default::default(),
            d_remote: Default::default(),
            d_qpn_bad: Default::default(),
            d_a_status: Default::default(),
            d_a_off: Default::default(),
            d_a_ppn: Default::default(),
            d_a_size: Default::default(),
            d_a_ok: Default::default(),
            d_b_ok: Default::default(),
            d_mask_a: Default::default(),
            d_mask_b: Default::default(),
            d_in_a: Default::default(),
            d_covered: Default::default(),
            d_pa_a: Default::default(),
            d_pa_b: Default::default(),
            d_len0: Default::default(),
            d_len1: Default::default(),
            d_blocked: Default::default(),
            c4_mv: Default::default(),
            c4_tv: Default::default(),
            s3_rq: Default::default(),
            s5_rq: Default::default(),
            c3_fz: Default::default(),
            c3_mq: Default::default(),
            rv_next: Default::default(),
            rp_pre: Default::default(),
            rp_oh: Default::default(),
            s5_oh: Default::default(),
            s5_slot: Default::default(),
            av_next: Default::default(),
            idx_mask: std::array::from_fn(|b| {
                let mut m = Bits::<SLOTS>::default();
                for i in (0..SLOTS).filter(|i| (i >> b) & 1 == 1) {
                    m = m.replace_bit(i, true);
                }
                Constant::new(m)
            }),
            k4k: Constant::new(0x1000_u64.into()),
            k2m: Constant::new(0x20_0000_u64.into()),
            k1g: Constant::new(0x4000_0000_u64.into()),
            c4_i4: Default::default(),
            c4_r4: Default::default(),
            c4_i2: Default::default(),
            c4_r2: Default::default(),
            c4_i1: Default::default(),
            c4_r1: Default::default(),
            c4_tail: Default::default(),
            c4_match: Default::default(),
            c4_cov: Default::default(),
            a_cov: Default::default(),
            a_len0: Default::default(),
            d_tail: Default::default(),
            d_forced_valid: Default::default(),
            d_forced: Default::default(),
            d_fault: Default::default(),
            d_a_pend: Default::default(),
            d_room: Default::default(),
            d_report: Default::default(),
            d_fb: Default::default(),
            d_keep: Default::default(),
            d_respond: Default::default(),
            d_susp: Default::default(),
            d_park: Default::default(),
            d_need_walk: Default::default(),
            d_walk_b: Default::default(),
            d_rsp: Default::default(),
            d_slot: Default::default(),
            d_free: Default::default(),
            d_alloc: Default::default(),
            w_fill: Default::default(),
        }
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
    > Logic for Translator<MR_BITS, SET_BITS, HUGE, SLOTS, SLOT_BITS, CNT_BITS, WALKS>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            used_cnt,
            s1_valid,
            s1,
            s2_valid,
            s2,
            s3_valid,
            s3,
            s4_valid,
            s4,
            s5_valid,
            s5,
            m3,
            m4,
            m5,
            b_pend,
            b_pend_k,
            ha_status,
            ha_off,
            ha_ppn,
            ha_size,
            ha_pend,
            ha_ok,
            ha_cov,
            ha_len0,
            ha_len1,
            c4_mq,
            c5_bex,
            c5_bs5,
            c5_fz,
            c5_fz_slot,
            fz_eq3,
            fz_eq4,
            fwd_eq,
            c5_tail,
            c5_fwd_alloc,
            c5_fwd_slot,
            c5_fv,
            c5_forced,
            c5_nak,
            ec_vec,
            ec_ok,
            ec_sl,
            ec_acc,
            e_valid,
            e_slot,
            e_f,
            c5_fb,
            c5_qbad,
            c5_cov,
            c5_wr,
            c5_l0_4k,
            c5_l0_2m,
            c5_l0_1g,
            c6_park,
            c6_alloc,
            c6_free,
            c6_free_a,
            c6_free_b,
            c6_need_walk,
            c6_walk_b,
            c6_slot,
            c6_oh,
            c6_ohp,
            c6_qpn,
            c6_write,
            c6_remote,
            c6_blocked,
            c6_tail,
            c6_req,
            c6_wva,
            c6_woff,
            c6_root,
            c6_lvl,
            c6_mr,
            c6_report,
            c6_fb,
            c6_end,
            c6_keep,
            c6_tv,
            c6_tc,
            alloc_vec,
            rp_vec,
            rp0_valid,
            rp0_slot,
            rp1_valid,
            rp1_slot,
            rp_hv,
            rp_hv_k,
            rp_hv_v,
            rp_ge2,
            rp_hk,
            rp_hva,
            rp_hvb,
            rp_hca,
            rp_hcb,
            rp_hp,
            fl_lo,
            fl_hi,
            prev_alloc,
            wi_busy,
            wi_have,
            wi_have2,
            wi_slot,
            wq_va,
            wq_off,
            wq_root,
            wq_lvl,
            wq_mr,
            wf_fire,
            wf_id,
            wf_coal,
            dr_valid,
            dr_id,
            dr_status,
            dr_mr,
            dr_off,
            dr_ppn,
            dr_size,
            dr_w,
            dp_mr,
            hf_acc,
            fb_is,
            dp_off,
            dp_size,
            dr_stale,
            dr_ok,
            rl_valid,
            rl_id,
            rl_stale,
            rl_ok,
            rl_absent,
            rl_w,
            beat2,
            rsp6_valid,
            rsp6,
            o_room,
            s1_page
        );
        for i in 0..SLOTS {
            self.sl_valid[i].clock.next = self.clock.val();
            self.sl_qpn[i].clock.next = self.clock.val();
            self.sl_state[i].clock.next = self.clock.val();
            self.sl_walk[i].clock.next = self.clock.val();
            self.sl_forced[i].clock.next = self.clock.val();
            self.sl_early[i].clock.next = self.clock.val();
            self.sl_org[i].clock.next = self.clock.val();
            self.sl_nak[i].clock.next = self.clock.val();
            self.sl_early[i].d.next = self.sl_early[i].q.val();
            self.sl_org[i].d.next = self.sl_org[i].q.val();
            self.sl_nak[i].d.next = self.sl_nak[i].q.val();
            self.sl_write[i].clock.next = self.clock.val();
            self.sl_remote[i].clock.next = self.clock.val();
            self.sl_wb[i].clock.next = self.clock.val();
            self.sl_pred_valid[i].clock.next = self.clock.val();
            self.sl_pred[i].clock.next = self.clock.val();
            self.sl_has_succ[i].clock.next = self.clock.val();
            self.sl_in_flight[i].clock.next = self.clock.val();
            self.sl_valid[i].d.next = self.sl_valid[i].q.val();
            self.sl_qpn[i].d.next = self.sl_qpn[i].q.val();
            self.sl_state[i].d.next = self.sl_state[i].q.val();
            self.sl_walk[i].d.next = self.sl_walk[i].q.val();
            self.sl_forced[i].d.next = self.sl_forced[i].q.val();
            self.sl_write[i].d.next = self.sl_write[i].q.val();
            self.sl_remote[i].d.next = self.sl_remote[i].q.val();
            self.sl_wb[i].d.next = self.sl_wb[i].q.val();
            self.sl_pred_valid[i].d.next = self.sl_pred_valid[i].q.val();
            self.sl_pred[i].d.next = self.sl_pred[i].q.val();
            self.sl_has_succ[i].d.next = self.sl_has_succ[i].q.val();
            self.sl_in_flight[i].d.next = self.sl_in_flight[i].q.val();
        }
        for i in 0..8 {
            self.walk_va[i].clock.next = self.clock.val();
            self.walk_va[i].d.next = self.walk_va[i].q.val();
            self.walk_slot[i].clock.next = self.clock.val();
            self.walk_slot[i].d.next = self.walk_slot[i].q.val();
        }
        for j in 0..5 {
            self.b_pend_kx[j].clock.next = self.clock.val();
            self.b_pend_kx[j].d.next = self.b_pend_kx[j].q.val();
            self.rp_hv_kx[j].clock.next = self.clock.val();
            self.rp_hv_kx[j].d.next = self.rp_hv_kx[j].q.val();
            self.s1_ix[j].clock.next = self.clock.val();
            self.s1_ix[j].d.next = self.s1_ix[j].q.val();
            self.rp_hkx[j].clock.next = self.clock.val();
            self.rp_hkx[j].d.next = self.rp_hkx[j].q.val();
        }
        for i in 0..4 {
            self.rp_ki[i].clock.next = self.clock.val();
            self.rp_ki[i].d.next = self.rp_ki[i].q.val();
            self.rp_kc[i].clock.next = self.clock.val();
            self.rp_kc[i].d.next = self.rp_kc[i].q.val();
            self.rp_vl[i].clock.next = self.clock.val();
            self.rp_vl[i].d.next = self.rp_vl[i].q.val();
        }
        clock!(
            self, clock, rs_mr, rs_tlb, rs_wk, rs_of, rs_ff, rs_rp, rs_is, rs_st, mr, tlb, walker,
            out_fifo, flt_fifo, rp_q, rp_qs
        );
        self.payload.read_clock.next = self.clock.val();
        self.nf.clock.next = self.clock.val();
        self.pay_x.clock.next = self.clock.val();
        self.pay_k.clock.next = self.clock.val();
        self.payload.write_clock.next = self.clock.val();
        self.wi_va.read_clock.next = self.clock.val();
        self.wi_va.write_clock.next = self.clock.val();
        self.wi_off.read_clock.next = self.clock.val();
        self.wi_off.write_clock.next = self.clock.val();
        self.wi_root.read_clock.next = self.clock.val();
        self.wi_root.write_clock.next = self.clock.val();
        self.wi_lvl.read_clock.next = self.clock.val();
        self.wi_lvl.write_clock.next = self.clock.val();
        self.wi_mr.read_clock.next = self.clock.val();
        self.wi_mr.write_clock.next = self.clock.val();
        // The translator acts on `rst` one clock later, every part of it
        // in the same clock.
        self.rs_mr.rst.next = self.rst.val();
        self.rs_tlb.rst.next = self.rst.val();
        self.rs_wk.rst.next = self.rst.val();
        self.rs_of.rst.next = self.rst.val();
        self.rs_ff.rst.next = self.rst.val();
        self.rs_rp.rst.next = self.rst.val();
        self.rs_is.rst.next = self.rst.val();
        self.rs_st.rst.next = self.rst.val();
        self.mr.rst.next = self.rs_mr.q.val();
        self.tlb.rst.next = self.rs_tlb.q.val();
        self.walker.rst.next = self.rs_wk.q.val();
        self.out_fifo.rst.next = self.rs_of.q.val();
        self.flt_fifo.rst.next = self.rs_ff.q.val();
        self.ready.next = self.mr.ready.val() & self.tlb.ready.val();

        // ---- MR writes and TLB invalidation pass through ----
        MrWriteIn::<MR_BITS>::link(&mut self.mr_wr, &mut self.mr.wr);
        MrStateIn::<MR_BITS>::link(&mut self.mr_st, &mut self.mr.st);
        InvalidateIn::<MR_BITS>::link(&mut self.inv, &mut self.tlb.inv);
        self.walker.flush.next = self.inv.valid.val() & self.inv.ready.val();
        self.fb_is_n.next = self.inv.valid.val() & self.inv.ready.val() & (!self.rs_wk.q.val());
        if self.fb_is_n.val() ^ self.fb_is.q.val() {
            self.fb_is.d.next = self.fb_is_n.val();
        }
        // = the TLB's fill_valid (w_fill below), from fb_is.
        self.fill_is.next = self.dr_valid.q.val() & self.dr_ok.q.val() & (!self.fb_is.q.val());
        self.walker.flush_kind.next = self.inv.kind.val();
        self.walker.flush_mr.next = bit_cast::<8, MR_BITS>(self.inv.mr.val());
        self.walker.flush_off_lo.next = self.inv.off_lo.val();
        self.walker.flush_off_hi.next = self.inv.off_hi.val();
        self.walker.probe_mr.next = self.dp_mr.q.val();
        self.walker.probe_off.next = self.dp_off.q.val();
        self.walker.probe_size.next = self.dp_size.q.val();

        // ---- AXI read master is the walker's ----
        AxiReadMaster::link(&mut self.m_axi, &mut self.walker.m_axi);

        // ---- c0: choose the lookup of this clock ----
        self.xreq.next.tag = self.s_xreq.tag.val();
        self.xreq.next.op = self.s_xreq.op.val();
        self.xreq.next.qpn = self.s_xreq.qpn.val();
        self.xreq.next.rqpn = self.s_xreq.rqpn.val();
        self.xreq.next.psn = self.s_xreq.psn.val();
        self.xreq.next.msn = self.s_xreq.msn.val();
        self.xreq.next.pd = self.s_xreq.pd.val();
        self.xreq.next.key = self.s_xreq.key.val();
        self.xreq.next.va = self.s_xreq.va.val();
        self.xreq.next.len = self.s_xreq.len.val();
        self.xreq.next.msg_len = self.s_xreq.msg_len.val();
        self.xreq.next.pf = self.xreq_pf.val();
        self.xreq.next.nofault = self.xreq_nofault.val();
        // Room for every lookup in flight in the output FIFO, tables ready.
        // The TLB sees this lookup one clock later, and a fill or an
        // invalidation it takes now lowers its `ready` then: no issue in
        // the clock of either.
        self.issue_ok.next = self.mr.ready.val()
            & self.tlb.ready.val()
            & (!self.rs_is.q.val())
            & (!self.hold.val())
            & self.o_room.q.val()
            // A fill offered (`fill_is`) blocks the issue whether or not
            // the TLB takes it (it refuses one only in an invalidation's
            // last step), so the issue does not wait for the TLB's
            // `fill_ready`; a huge fill taken blocks the next clock's too
            // (`hf_acc`).
            & (!self.fill_is.val())
            & (!self.hf_acc.q.val())
            // An invalidation offered now is taken now: the TLB's
            // `inv_ready` is high whenever its `ready` is, so this term
            // need not wait for `inv_ready` (the TLB's state, far away).
            & (!self.inv.valid.val());
        // Lookups of new requests in flight, each of which may still take a
        // slot (a crossing request counts twice: conservative).
        self.new_inflight.next =
            bit_cast::<CNT_BITS, 1>((self.s1_valid.q.val() & (!self.s1.q.val().replay)).into())
                + bit_cast::<CNT_BITS, 1>(
                    (self.s2_valid.q.val() & (!self.s2.q.val().replay)).into(),
                )
                + bit_cast::<CNT_BITS, 1>(
                    (self.s3_valid.q.val() & (!self.s3.q.val().replay)).into(),
                )
                + bit_cast::<CNT_BITS, 1>(
                    (self.s4_valid.q.val() & (!self.s4.q.val().replay)).into(),
                )
                + bit_cast::<CNT_BITS, 1>(
                    (self.s5_valid.q.val() & (!self.s5.q.val().replay)).into(),
                )
                + bit_cast::<CNT_BITS, 1>(self.c6_alloc.q.val().into());
        self.rp_have.next = self.rp_hv.q.val();
        self.x_room.next =
            (self.used_cnt.q.val() + self.new_inflight.val()) < self.slots_total.val();
        self.s_xreq.ready.next = self.issue_ok.val()
            & (!self.b_pend.q.val())
            & (!self.rp_have.val())
            & self.x_room.val();
        self.c0_rp.next = self.issue_ok.val() & (!self.b_pend.q.val()) & self.rp_have.val();
        for j in 0..5 {
            self.c0_rpx[j].next =
                self.issue_ok.val() & (!self.b_pend_kx[j].q.val()) & self.rp_hv_kx[j].q.val();
        }
        self.c0_valid.next = self.s_xreq.valid.val() & self.s_xreq.ready.val();
        self.c0_replay.next = false;
        self.c0_slot.next = 0.into();
        self.c0_half.next = false;
        self.c0_req.next = self.xreq.val();
        self.c0_va.next = self.s_xreq.va.val();
        // The lookup's fields are chosen by registers alone (a replay's
        // payload waits at the head of rp_q; a new request is not taken
        // then):
        // issue_ok gates only the valid bit, so the MR table's address does
        // not wait for it.
        if self.c0_rp.val() {
            self.c0_valid.next = true;
        }
        self.rp_hvl.next = self.rp_hva.q.val();
        self.rp_hc.next = self.rp_hca.q.val();
        if self.rp_hp.q.val() {
            self.rp_hvl.next = self.rp_hvb.q.val();
            self.rp_hc.next = self.rp_hcb.q.val();
        }
        if self.rp_have.val() {
            self.c0_replay.next = true;
            self.c0_slot.next = self.rp_qs.data_out.val();
            self.c0_req.next = self.rp_q.data_out.val();
            self.c0_req.next.len = self.rp_hvl.val().get_bits::<13>(64);
        }
        if self.rp_hv_v.q.val() {
            self.c0_va.next = self.rp_hvl.val().get_bits::<64>(0);
        }
        if self.b_pend.q.val() {
            self.c0_valid.next = self.issue_ok.val();
            self.c0_replay.next = self.s1.q.val().replay;
            self.c0_slot.next = bit_cast::<SLOT_BITS, 8>(self.s1.q.val().slot);
            self.c0_half.next = true;
            self.c0_req.next = self.s1.q.val().req;
            self.c0_va.next = self.s1_page.q.val();
        }
        self.s1_rq.next = self.s1.q.val().req;
        self.s1_key.next = self.s1_rq.val().key;
        self.c0_key.next = self.s_xreq.key.val();
        self.rp_khi.next = 0.into();
        if self.rp_hc.val().get_bit(1) {
            self.rp_khi.next = self.key_hi.val();
        }
        if self.rp_hv_k.q.val() {
            self.c0_key.next = bit_cast::<32, 8>(self.rp_q.data_out.val().key.get_bits::<8>(0))
                | (bit_cast::<32, MR_BITS>(self.rp_hk.q.val()) << 8)
                | self.rp_khi.val();
        }
        if self.b_pend_k.q.val() {
            self.c0_key.next = self.s1_key.val();
        }
        // The MR index again, once per LUT RAM of the MR table, each behind
        // selects of its own.
        self.ix_en[0].next = self.s1_valid.q.val();
        self.ix_en[1].next = self.s2_valid.q.val();
        self.ix_en[2].next = self.s3_valid.q.val();
        self.ix_en[3].next = self.s4_valid.q.val();
        self.ix_en[4].next = self.s5_valid.q.val();
        for j in 0..5 {
            self.c0_ix[j].next = self.s_xreq.key.val().get_bits::<MR_BITS>(8);
            if self.rp_hv_kx[j].q.val() {
                self.c0_ix[j].next = self.rp_hkx[j].q.val();
            }
            if self.b_pend_kx[j].q.val() {
                self.c0_ix[j].next = self.s1_ix[j].q.val();
            }
            if !self.b_pend_kx[j].q.val() {
                self.s1_ix[j].d.next = self.c0_ix[j].val();
            }
        }
        // Whether the lookup crosses a 4 KiB page: a new request's from the
        // port, a replay's kept beside the queue (`rp_hc`), and a B half's
        // is its A half's, which crossed. The port's test,
        // `va[11:0] + len > 4096`, is bit 15 of `va[11:0] + len + (2^15 -
        // 4097)`: the three terms in carry-save form (one gate per bit),
        // then one carry chain whose last sum bit is the answer, with no
        // 12-bit OR behind the adder.
        self.c0_rva.next = self.s_xreq.va.val();
        self.c0_ca.next = bit_cast::<16, 12>(self.c0_rva.val().get_bits::<12>(0));
        self.c0_cb.next = bit_cast::<16, 13>(self.s_xreq.len.val());
        self.c0_end.next = (self.c0_ca.val() ^ self.c0_cb.val() ^ 0x6FFF_u64)
            + (((self.c0_ca.val() & self.c0_cb.val())
                | ((self.c0_ca.val() | self.c0_cb.val()) & 0x6FFF_u64))
                << 1);
        self.c0_cross.next = self.c0_end.val().get_bit(15);
        if self.rp_have.val() {
            self.c0_cross.next = self.rp_hc.val().get_bit(0);
        }
        if self.b_pend.q.val() {
            self.c0_cross.next = true;
        }
        self.b_pend.d.next = self.b_pend.q.val() & (!self.c0_valid.val());
        if self.c0_valid.val() & (!self.c0_half.val()) & self.c0_cross.val() {
            self.b_pend.d.next = true;
        }
        if self.issue_ok.val() {
            self.b_pend_k.d.next = self.b_pend_k.q.val() & (!self.c0_valid.val());
            if self.c0_valid.val() & (!self.c0_half.val()) & self.c0_cross.val() {
                self.b_pend_k.d.next = true;
            }
        }
        // The copies compute the same next value from their own registers
        // (each equal to b_pend and rp_have), with the issue as the last
        // term: pending stays pending unless issued; otherwise an issued A
        // half that crosses (a replay's from rp_hc, a new request's from
        // the port) leaves its B half pending. Written on c0_valid, the
        // issue would reach every copy through the select of c0 (shared
        // gates placed with c0's three hundred bits).
        self.x_cross.next =
            self.s_xreq.valid.val() & self.x_room.val() & self.c0_end.val().get_bit(15);
        for j in 0..5 {
            if self.issue_ok.val() | self.ix_en[j].val() {
                self.b_pend_kx[j].d.next = self.b_pend_kx[j].q.val();
                if self.issue_ok.val() {
                    self.b_pend_kx[j].d.next = false;
                    if !self.b_pend_kx[j].q.val() {
                        self.b_pend_kx[j].d.next = self.x_cross.val();
                        if self.rp_hv_kx[j].q.val() {
                            self.b_pend_kx[j].d.next = self.rp_hc.val().get_bit(0);
                        }
                    }
                }
            }
        }

        self.mr.lk_valid.next = self.c0_valid.val();
        self.mr.lk_key.next = self.c0_key.val();
        self.mr.lk_ix_b0.next = self.c0_ix[0].val();
        self.mr.lk_ix_b1.next = self.c0_ix[1].val();
        self.mr.lk_ix_c.next = self.c0_ix[2].val();
        self.mr.lk_ix_e0.next = self.c0_ix[3].val();
        self.mr.lk_ix_e1.next = self.c0_ix[4].val();
        self.mr.lk_pd.next = self.c0_req.val().pd;
        self.mr.lk_va.next = self.c0_va.val();
        self.mr.lk_len.next = self.c0_req.val().len;
        if self.c0_half.val() {
            self.mr.lk_len.next = 1.into();
        }
        self.mr.lk_op.next = self.c0_req.val().op;
        self.mr.lk_any.next = self.c0_req.val().pf;
        // The TLB looks up one clock after the MR table, so that the MR
        // table's offset (at c2) meets the TLB's huge-page compare.
        self.s4_rq.next = self.s4.q.val().req;
        self.tlb.lk_valid.next = self.s1_valid.q.val();
        self.tlb.lk_mr.next = self.s1_key.val().get_bits::<MR_BITS>(8);
        self.tlb.lk_va.next = self.s1.q.val().va;
        // The TLB's copies of the offset, apart from the one the pipeline
        // carries on (m3), so that no bit fans out across both.
        self.tlb.lk_off.next = self.mr.res_off_q0.val();
        self.tlb.lk_off_q1.next = self.mr.res_off_q1.val();
        self.tlb.lk_off_q2.next = self.mr.res_off_q2.val();
        self.tlb.lk_off_q3.next = self.mr.res_off_q3.val();
        // The fault queue's pending lookup, from c2's registers: its answer
        // (three clocks later) meets the decision at c5.
        self.s2_rq.next = self.s2.q.val().req;
        self.s2_key.next = self.s2_rq.val().key;
        self.m_plk_valid.next = self.s2_valid.q.val();
        self.m_plk_mr.next = bit_cast::<8, MR_BITS>(self.s2_key.val().get_bits::<MR_BITS>(8));
        self.m_plk_vpn.next = self.s2.q.val().va.get_bits::<52>(12);
        // The responder reads the QP's state for the lookup at c2, from
        // c2's registers: its block RAM's word is registered at c3 before
        // anything uses it, and its overrides meet the decision at c5.
        self.m_qlk_valid.next = self.s2_valid.q.val();
        self.m_qlk_qpn.next = self.s2_rq.val().qpn;
        self.m_qlk_psn.next = self.s2_rq.val().psn;
        self.m_qlk_remote.next = !self.s2_rq.val().op.get_bit(1);

        self.c0_st.next.replay = self.c0_replay.val();
        self.c0_st.next.slot = bit_cast::<8, SLOT_BITS>(self.c0_slot.val());
        self.c0_st.next.half = self.c0_half.val();
        self.c0_st.next.cross = self.c0_cross.val();
        self.c0_st.next.req = self.c0_req.val();
        self.c0_st.next.va = self.c0_va.val();
        self.c0_st.next.epoch = self.epoch.val();
        if self.b_pend.q.val() {
            self.c0_st.next.epoch = self.s1.q.val().epoch;
        }
        // c1's payload loads every clock (its valid bit says whether it
        // holds a lookup), except while a B half is pending: then it keeps
        // the A half, which B's c0 reads, and takes only B's page and half
        // bit when B issues (its other fields are A's). So the enable of its
        // few hundred bits is a register, not the issue decision.
        self.s1_valid.d.next = self.c0_valid.val();
        if !self.b_pend.q.val() {
            self.s1.d.next = self.c0_st.val();
            self.s1_page.d.next = (self.c0_va.val() & 0xFFFF_FFFF_FFFF_F000_u64) + 0x1000_u64;
        }
        if self.b_pend.q.val() & self.c0_valid.val() {
            self.s1.d.next.half = true;
            self.s1.d.next.va = self.c0_va.val();
        }
        self.s2_valid.d.next = self.s1_valid.q.val();
        self.s2.d.next = self.s1.q.val();
        self.s3_valid.d.next = self.s2_valid.q.val();
        self.s3.d.next = self.s2.q.val();
        self.s4_valid.d.next = self.s3_valid.q.val();
        self.s4.d.next = self.s3.q.val();
        self.s5_valid.d.next = self.s4_valid.q.val();
        self.s5.d.next = self.s4.q.val();
        self.m3.d.next.status = self.mr.res_status.val();
        self.m3.d.next.mr = bit_cast::<8, MR_BITS>(self.mr.res_mr.val());
        self.m3.d.next.off = self.mr.res_off.val();
        self.m3.d.next.root = self.mr.res_root.val();
        self.m3.d.next.lvl = self.mr.res_levels_m1.val();
        self.m3.d.next.end = self.mr.res_end.val();
        self.m4.d.next = self.m3.q.val();
        self.m5.d.next = self.m4.q.val();

        // ---- replay selection: a ready head of its QP, not in flight ----
        self.pe_vec.next = 0.into();
        for i in 0..SLOTS {
            self.pe_vec.next = self.pe_vec.val().replace_bit(
                i,
                self.sl_valid[i].q.val()
                    & (!self.sl_pred_valid[i].q.val())
                    & (!self.sl_in_flight[i].q.val())
                    & ((self.sl_state[i].q.val() == ParkState::Ready)
                        | (self.sl_state[i].q.val() == ParkState::Forced)),
            );
        }
        // The select works on last clock's candidates (`rp_vec`), so the
        // tree does not sit behind the slot-table decode; the slot taken
        // this clock is dropped from the next clock's candidates, where its
        // in-flight bit is not visible yet. A slot leaves the candidates
        // only by being taken, so no other candidate is stale.
        self.pe_rp.vec.next = self.rp_vec.q.val();
        self.rp_found.next = self.pe_rp.found.val();
        self.rp_sel.next = self.pe_rp.idx.val();
        self.rp_pre.next = self.rp_vec.q.val();
        for k in 0..SLOT_BITS {
            self.rp_pre.next = self.rp_pre.val() | (self.rp_pre.val() << (1 << k));
        }
        self.rp_oh.next = self.rp_vec.q.val() & !(self.rp_pre.val() << 1);
        // rp0: the selected slot, registered; it addresses the payload RAM
        // (the word is on the RAM output the clock after, rp1). The word on
        // the RAM output is pushed into rp_q, always: a read starts only
        // while rp0, rp1 and rp_q together hold at most 3 of rp_q's 4
        // places (registers only), so the push finds room whatever c0 pops
        // in the same clock, and a replay per clock still flows (one each
        // in rp0 and rp1, one at rp_q's head).
        self.rp_q.rst.next = self.rs_rp.q.val();
        self.rp_qs.rst.next = self.rs_rp.q.val();
        self.rp_q.push.next = self.rp1_valid.q.val();
        self.rp_qs.push.next = self.rp1_valid.q.val();
        self.rp_q.data_in.next = self.payload.read_data.val();
        self.rp_qs.data_in.next = self.rp1_slot.q.val();
        self.rp_q.pop.next = self.c0_rp.val();
        self.rp_qs.pop.next = self.c0_rp.val();
        // Not empty after this clock: a push (never refused: a read starts
        // only with room for it), or a word left after the pop (two or
        // more now, or one not popped).
        self.rp_hv_nx.next = (!self.rs_rp.q.val())
            & (self.rp1_valid.q.val()
                | self.rp_ge2.q.val()
                | (self.rp_hv.q.val() & (!self.c0_rp.val())));
        // Two or more after this clock: three now, or two not popped
        // without a push, or one pushed to without a pop.
        self.rp_ge2.d.next = (!self.rs_rp.q.val())
            & ((self.rp_q.count.val() > 2)
                | ((self.rp_q.count.val() == 2) & (self.rp1_valid.q.val() | (!self.c0_rp.val())))
                | ((self.rp_q.count.val() == 1) & self.rp1_valid.q.val() & (!self.c0_rp.val())));
        self.rp_hv.d.next = self.rp_hv_nx.val();
        if self.rp1_valid.q.val() | self.c0_rp.val() | self.rs_rp.q.val() {
            self.rp_hv_k.d.next = self.rp_hv_nx.val();
        }
        // The copies: the same next value from each copy's own pop
        // (`c0_rpx[j]`). A copy that is low can only rise by a push, so
        // it loads in the clocks of a push, of a reset, of its stage and
        // whenever it is high; the enable does not wait for the issue and
        // differs per copy (its own value), which keeps the five apart.
        for j in 0..5 {
            if self.rp1_valid.q.val()
                | self.rs_rp.q.val()
                | self.ix_en[j].val()
                | self.rp_hv_kx[j].q.val()
            {
                self.rp_hv_kx[j].d.next = (!self.rs_rp.q.val())
                    & (self.rp1_valid.q.val()
                        | self.rp_ge2.q.val()
                        | (self.rp_hv_kx[j].q.val() & (!self.c0_rpx[j].val())));
            }
        }
        if self.rp1_valid.q.val() | self.c0_valid.val() | self.rs_rp.q.val() {
            self.rp_hv_v.d.next = self.rp_hv_nx.val();
        }
        // The head's MR index for the next clock: after a pop, the second
        // entry (or the word pushed now, if there is none); otherwise the
        // head kept (or the word pushed now into an empty queue).
        self.pay_k.read_address.next = self.rp1_slot.q.val();
        self.rp_din_k.next = self.pay_k.read_data.val();
        self.pay_x.read_address.next = self.rp1_slot.q.val();
        self.rp_din_c.next = self.pay_x.read_data.val();
        self.rp_din_vl.next = bit_cast::<77, 64>(self.payload.read_data.val().va)
            | (bit_cast::<77, 13>(self.payload.read_data.val().len) << 64);
        for i in 0..4 {
            if self.rp1_valid.q.val() & (self.rp_q.wr_ptr.val().index() == i) {
                self.rp_ki[i].d.next = self.rp_din_k.val();
                self.rp_kc[i].d.next = self.rp_din_c.val();
                self.rp_vl[i].d.next = self.rp_din_vl.val();
            }
        }
        self.rp_kr1.next = self.rp_q.rd_ptr.val() + 1;
        self.rp_k1.next = self.rp_ki[0].q.val();
        self.rp_c1.next = self.rp_kc[0].q.val();
        self.rp_vl1.next = self.rp_vl[0].q.val();
        for i in 0..4 {
            if self.rp_kr1.val().index() == i {
                self.rp_k1.next = self.rp_ki[i].q.val();
                self.rp_c1.next = self.rp_kc[i].q.val();
                self.rp_vl1.next = self.rp_vl[i].q.val();
            }
        }
        self.rp_hk_n.next = self.rp_hk.q.val();
        if self.c0_rp.val() {
            self.rp_hk_n.next = self.rp_din_k.val();
            if self.rp_q.count.val() >= 2 {
                self.rp_hk_n.next = self.rp_k1.val();
            }
        } else if self.rp_q.count.val() == 0 {
            self.rp_hk_n.next = self.rp_din_k.val();
        }
        // The head after a pop (b) and without one (a); `rp_hp` chooses.
        self.rp_hp.d.next = self.c0_rp.val();
        self.rp_hvb.d.next = self.rp_din_vl.val();
        self.rp_hcb.d.next = self.rp_din_c.val();
        if self.rp_q.count.val() >= 2 {
            self.rp_hvb.d.next = self.rp_vl1.val();
            self.rp_hcb.d.next = self.rp_c1.val();
        }
        self.rp_hva.d.next = self.rp_hvl.val();
        self.rp_hca.d.next = self.rp_hc.val();
        if self.rp_q.count.val() == 0 {
            self.rp_hva.d.next = self.rp_din_vl.val();
            self.rp_hca.d.next = self.rp_din_c.val();
        }
        self.rp_hk.d.next = self.rp_hk_n.val();
        for j in 0..5 {
            if self.c0_rpx[j].val() {
                self.rp_hkx[j].d.next = self.rp_din_k.val();
                if self.rp_q.count.val() >= 2 {
                    self.rp_hkx[j].d.next = self.rp_k1.val();
                }
            } else if self.rp_q.count.val() == 0 {
                self.rp_hkx[j].d.next = self.rp_din_k.val();
            }
        }
        self.rp_fill.next = self.rp_q.count.val()
            + bit_cast::<3, 1>(self.rp0_valid.q.val().into())
            + bit_cast::<3, 1>(self.rp1_valid.q.val().into());
        self.rp_take.next = self.rp_found.val() & (self.rp_fill.val() <= 3);
        self.rp0_valid.d.next = self.rp_take.val();
        self.rp0_slot.d.next = self.rp_sel.val();
        self.payload.read_address.next = self.rp0_slot.q.val();
        self.rp1_valid.d.next = self.rp0_valid.q.val();
        self.rp1_slot.d.next = self.rp0_slot.q.val();
        if self.rp_take.val() {
            for i in 0..SLOTS {
                if self.rp_oh.val().get_bit(i) {
                    self.sl_in_flight[i].d.next = true;
                }
            }
        }
        self.rv_next.next = self.pe_vec.val();
        if self.rp_take.val() {
            self.rv_next.next = self.pe_vec.val() & !self.rp_oh.val();
        }
        self.rp_vec.d.next = self.rv_next.val();

        // ---- c4: the decision's terms that need no TLB result ----
        // The slot table lags the decisions by the commit register: the
        // decision of the previous clock (in c6_*, written at the end of
        // this clock) is folded in here, the decision of this clock (at c5)
        // at c5 (c5_fwd_*, c6_free).
        // The QPN compare against every slot is made at c3 (`c4_mq`), with
        // the commit of that clock folded in; c4 folds in its own.
        self.s3_rq.next = self.s3.q.val().req;
        self.s5_rq.next = self.s5.q.val().req;
        self.fz_eq3.d.next = self.s5_rq.val().qpn == self.s2_rq.val().qpn;
        self.fz_eq4.d.next = self.s5_rq.val().qpn == self.s3_rq.val().qpn;
        self.fwd_eq.d.next = self.s4_rq.val().qpn == self.s3_rq.val().qpn;
        self.c3_fz.next = self.c6_alloc.q.val() & self.fz_eq3.q.val();
        self.c3_mq.next = 0.into();
        for i in 0..SLOTS {
            self.c3_mq.next = self.c3_mq.val().replace_bit(
                i,
                (self.sl_valid[i].q.val()
                    & (self.sl_qpn[i].q.val() == self.s3_rq.val().qpn)
                    & (!(self.c6_free_a.q.val() & self.c6_oh.q.val().get_bit(i))))
                    | (self.c3_fz.val() & self.c6_oh.q.val().get_bit(i)),
            );
        }
        self.c4_mq.d.next = self.c3_mq.val();
        self.c4_mv.next = 0.into();
        self.c4_tv.next = 0.into();
        self.s5_slot.next = bit_cast::<SLOT_BITS, 8>(self.s5.q.val().slot);
        self.s5_oh.next = 0.into();
        for i in 0..SLOTS {
            self.c4_match.next = self.c4_mq.q.val().get_bit(i)
                & (!(self.c6_free_b.q.val() & self.c6_oh.q.val().get_bit(i)));
            self.c4_mv.next = self.c4_mv.val().replace_bit(i, self.c4_match.val());
            self.c4_tv.next = self
                .c4_tv
                .val()
                .replace_bit(i, self.c4_match.val() & (!self.sl_has_succ[i].q.val()));
            self.s5_oh.next = self
                .s5_oh
                .val()
                .replace_bit(i, self.s5_slot.val().index() == i);
        }
        // OR of the indices: a QP's chain has one tail.
        self.c4_tail.next = 0.into();
        for b in 0..SLOT_BITS {
            self.c4_tail.next = self
                .c4_tail
                .val()
                .replace_bit(b, (self.c4_tv.val() & self.idx_mask[b].val()).any());
        }
        self.c5_tail.d.next = self.c4_tail.val();
        self.c5_bex.d.next = (self.c4_mv.val() & (!self.s5_oh.val())).any();
        self.c5_bs5.d.next = (self.c4_mv.val() & self.s5_oh.val()).any();
        self.c5_fz.d.next = self.c6_alloc.q.val() & self.fz_eq4.q.val();
        self.c5_fz_slot.d.next = self.c6_slot.q.val();
        self.c5_fv.d.next = false;
        self.c5_nak.d.next = false;
        self.c5_forced.d.next = 0.into();
        self.c5_fb.d.next = false;
        for i in 0..SLOTS {
            if bit_cast::<SLOT_BITS, 8>(self.s4.q.val().slot).index() == i {
                self.c5_fv.d.next = self.sl_state[i].q.val() == ParkState::Forced;
                self.c5_nak.d.next = self.sl_nak[i].q.val();
                self.c5_forced.d.next = self.sl_forced[i].q.val();
                self.c5_fb.d.next = self.sl_wb[i].q.val();
            }
        }
        self.c5_qbad.d.next =
            (bit_cast::<25, 24>(self.s4_rq.val().qpn) >= self.qps.val()) & (!self.s4_rq.val().pf);
        // Bytes left in the page from `off`, on each size's own width.
        self.c4_i4.next = bit_cast::<13, 12>(self.m4.q.val().off.get_bits::<12>(0));
        self.c4_r4.next = self.k4k.val() - self.c4_i4.val();
        self.c4_i2.next = bit_cast::<22, 21>(self.m4.q.val().off.get_bits::<21>(0));
        self.c4_r2.next = self.k2m.val() - self.c4_i2.val();
        self.c4_i1.next = bit_cast::<31, 30>(self.m4.q.val().off.get_bits::<30>(0));
        self.c4_r1.next = self.k1g.val() - self.c4_i1.val();
        self.c4_cov.next = 0.into();
        self.c4_cov.next = self
            .c4_cov
            .val()
            .replace_bit(0, self.s4_rq.val().len <= self.c4_r4.val());
        self.c4_cov.next = self.c4_cov.val().replace_bit(
            1,
            bit_cast::<22, 13>(self.s4_rq.val().len) <= self.c4_r2.val(),
        );
        self.c4_cov.next = self.c4_cov.val().replace_bit(
            2,
            bit_cast::<31, 13>(self.s4_rq.val().len) <= self.c4_r1.val(),
        );
        self.c5_l0_4k.d.next = self.c4_r4.val();
        self.c5_l0_2m.d.next = self.c4_r2.val().get_bits::<13>(0);
        self.c5_l0_1g.d.next = self.c4_r1.val().get_bits::<13>(0);
        self.c5_cov.d.next = self.c4_cov.val();
        self.c5_wr.d.next = (self.s4_rq.val().op == 0) | (self.s4_rq.val().op == 3); // = op::REMOTE_WRITE, op::LOCAL_WRITE

        // ---- c5: decide ----
        self.d_last.next =
            self.s5_valid.q.val() & ((!self.s5.q.val().cross) | self.s5.q.val().half);
        self.d_req.next = self.s5.q.val().req;
        self.d_write.next = self.c5_wr.q.val();
        self.d_remote.next = !self.d_req.val().op.get_bit(1); // op::REMOTE_WRITE or op::REMOTE_READ
        self.d_qpn_bad.next = self.c5_qbad.q.val();
        // The first page's results: held for a crossing request, else current.
        self.d_a_status.next = self.m5.q.val().status;
        self.d_a_off.next = self.m5.q.val().off;
        self.d_a_ppn.next = self.tlb.res_ppn.val();
        self.d_a_size.next = self.tlb.res_size.val();
        if self.s5.q.val().cross {
            self.d_a_status.next = self.ha_status.q.val();
            self.d_a_off.next = self.ha_off.q.val();
            self.d_a_ppn.next = self.ha_ppn.q.val();
            self.d_a_size.next = self.ha_size.q.val();
        }
        // The A half's page covers the access, else its beat's length, by
        // its size (terms from c4).
        self.a_cov.next = self.c5_cov.q.val().get_bit(0);
        self.a_len0.next = self.c5_l0_4k.q.val();
        if self.tlb.res_size.val() == 1 {
            // = page_size::SIZE_2M
            self.a_cov.next = self.c5_cov.q.val().get_bit(1);
            self.a_len0.next = self.c5_l0_2m.q.val();
        }
        if self.tlb.res_size.val() == 2 {
            // = page_size::SIZE_1G
            self.a_cov.next = self.c5_cov.q.val().get_bit(2);
            self.a_len0.next = self.c5_l0_1g.q.val();
        }
        // This clock's page allows the access: B's at a crossing's
        // decision, A's otherwise (and A's kept for the B half).
        self.d_b_ok.next =
            self.tlb.res_hit.val() & ((!self.d_write.val()) | self.tlb.res_writable.val());
        if self.s5_valid.q.val() & self.s5.q.val().cross & (!self.s5.q.val().half) {
            self.ha_ok.d.next = self.d_b_ok.val();
            self.ha_status.d.next = self.m5.q.val().status;
            self.ha_off.d.next = self.m5.q.val().off;
            self.ha_ppn.d.next = self.tlb.res_ppn.val();
            self.ha_size.d.next = self.tlb.res_size.val();
            self.ha_pend.d.next = self.plk_pending.val();
            self.ha_cov.d.next = self.a_cov.val();
            self.ha_len0.d.next = self.d_req.val().len;
            self.ha_len1.d.next = 0.into();
            if !self.a_cov.val() {
                self.ha_len0.d.next = self.a_len0.val();
                self.ha_len1.d.next = self.d_req.val().len - self.a_len0.val();
            }
        }
        self.d_a_ok.next = self.d_b_ok.val();
        if self.s5.q.val().cross {
            self.d_a_ok.next = self.ha_ok.q.val();
        }
        // Page masks: 4 KiB, 2 MiB, 1 GiB.
        self.d_mask_a.next = 0xFFF_u64.into();
        if self.d_a_size.val() == 1 {
            // = page_size::SIZE_2M
            self.d_mask_a.next = 0x1F_FFFF_u64.into();
        }
        if self.d_a_size.val() == 2 {
            // = page_size::SIZE_1G
            self.d_mask_a.next = 0x3FFF_FFFF_u64.into();
        }
        self.d_mask_b.next = 0xFFF_u64.into();
        if self.tlb.res_size.val() == 1 {
            // = page_size::SIZE_2M
            self.d_mask_b.next = 0x1F_FFFF_u64.into();
        }
        if self.tlb.res_size.val() == 2 {
            // = page_size::SIZE_1G
            self.d_mask_b.next = 0x3FFF_FFFF_u64.into();
        }
        self.d_in_a.next = self.d_a_off.val() & self.d_mask_a.val();
        // A request inside one 4 KiB page is covered by any page; a crossing
        // one (deciding at B) by A's page when A's terms say so.
        self.d_covered.next = (!self.s5.q.val().cross) | self.ha_cov.q.val();
        self.d_pa_a.next = (bit_cast::<64, 52>(self.d_a_ppn.val()) << 12) + self.d_in_a.val();
        self.d_pa_b.next = (bit_cast::<64, 52>(self.tlb.res_ppn.val()) << 12)
            + (self.m5.q.val().off & self.d_mask_b.val());
        self.d_len0.next = self.d_req.val().len;
        self.d_len1.next = 0.into();
        if self.s5.q.val().cross {
            self.d_len0.next = self.ha_len0.q.val();
            self.d_len1.next = self.ha_len1.q.val();
        }
        // QP chain: is a request of this QP parked, and which is the youngest?
        // (From c4, corrected for the previous clock's allocation and free.)
        self.d_blocked.next = self.c5_bex.q.val()
            | (self.c5_bs5.q.val() & (!self.c6_free.q.val()))
            | self.c5_fz.q.val()
            | self.c5_fwd_alloc.q.val();
        self.d_tail.next = self.c5_tail.q.val();
        if self.c5_fz.q.val() {
            self.d_tail.next = self.c5_fz_slot.q.val();
        }
        if self.c5_fwd_alloc.q.val() {
            self.d_tail.next = self.c5_fwd_slot.q.val();
        }
        self.d_forced_valid.next = self.c5_fv.q.val();
        self.d_forced.next = self.c5_forced.q.val();
        // RNR for a remote op, STALL for a local one.
        self.d_fault.next = 2.into(); // = status::STALL
        if self.d_remote.val() {
            self.d_fault.next = 1.into(); // = status::RNR
        }
        // A's page pending in the fault queue (B's is `plk_pending`).
        self.d_a_pend.next = self.plk_pending.val();
        if self.s5.q.val().cross {
            self.d_a_pend.next = self.ha_pend.q.val();
        }
        // Room in the fault-report FIFO for this decision's report, the
        // commit's (c6) counted.
        self.d_room.next = (self.flt_fifo.count.val() <= 2)
            | ((self.flt_fifo.count.val() == 3) & (!self.c6_report.q.val()));
        self.d_report.next = false;
        self.d_fb.next = false;
        self.d_keep.next = false;
        self.d_rsp.next.tag = self.d_req.val().tag;
        // The addresses and lengths are loaded whatever the answer (the
        // output shows them only with status OK), so the decision reaches
        // only the status and `two` among c6's response bits.
        self.d_rsp.next.status = 0.into(); // = status::OK
        self.d_rsp.next.pa0 = self.d_pa_a.val();
        self.d_rsp.next.len0 = self.d_len0.val();
        self.d_rsp.next.pa1 = self.d_pa_b.val();
        self.d_rsp.next.len1 = self.d_len1.val();
        self.d_rsp.next.two = false;
        self.d_rsp.next.epoch = self.s5.q.val().epoch;
        self.d_respond.next = false;
        self.d_susp.next = false;
        self.d_park.next = false;
        self.d_need_walk.next = false;
        self.d_walk_b.next = false;
        self.d_nsent.next = false;
        if self.d_last.val() {
            if (!self.s5.q.val().replay) & self.d_blocked.val() {
                // Behind a parked request of its QP, whatever its answer. It
                // waits READY, without a walk: its page is most often the one
                // its predecessor is walking, and its replay (once it heads
                // the chain) walks only if it still misses.
                self.d_park.next = true;
            } else if self.s5.q.val().replay & self.c5_nak.q.val() {
                // Its RNR NAK went out early, at its walk's completion: it
                // is answered RNR (and its page reported) whatever it would
                // meet now, as the NAK said.
                if self.d_room.val() {
                    self.d_respond.next = true;
                    self.d_rsp.next.status = 1.into(); // = status::RNR
                    self.d_report.next = true;
                    self.d_fb.next = self.c5_fb.q.val();
                    self.d_nsent.next = true;
                } else {
                    // No room for its report: stays Forced, replays again.
                    self.d_park.next = true;
                    self.d_keep.next = true;
                }
            } else if self.ov_fatal.val() & (!self.d_req.val().pf) {
                // The responder: the QP is in error.
                self.d_respond.next = true;
                self.d_rsp.next.status = 5.into(); // = status::FATAL
            } else if self.ov_drop.val() & (!self.d_req.val().pf) {
                // The responder: a remote op of a QP that waits for the
                // retransmission of another PSN.
                self.d_respond.next = true;
                self.d_rsp.next.status = 3.into(); // = status::DROP
            } else if (self.d_a_status.val() == 4) | self.d_qpn_bad.val() {
                // = status::ACCESS_ERR
                self.d_respond.next = true;
                self.d_rsp.next.status = 4.into(); // = status::ACCESS_ERR
            } else if self.s5.q.val().replay & self.d_forced_valid.val() {
                if self.d_forced.val() == 5 {
                    // = status::FATAL
                    self.d_respond.next = true;
                    self.d_rsp.next.status = self.d_forced.val();
                } else if self.d_room.val() {
                    // RNR / STALL for a missing page: answered and reported
                    // (the page its walk found missing).
                    self.d_respond.next = true;
                    self.d_rsp.next.status = self.d_forced.val();
                    self.d_report.next = true;
                    self.d_fb.next = self.c5_fb.q.val();
                } else {
                    // No room for its report: stays Forced, replays again.
                    self.d_park.next = true;
                    self.d_keep.next = true;
                }
            } else if self.d_a_status.val() == 1 {
                // = mr_table::STATUS_SUSPENDED
                self.d_susp.next = true;
                self.d_respond.next = true;
                self.d_rsp.next.status = self.d_fault.val();
            } else if !self.d_a_ok.val() {
                if !self.d_a_pend.val() {
                    self.d_park.next = true;
                    self.d_need_walk.next = true;
                } else if self.d_room.val() {
                    // The page is pending in the fault queue: answered at
                    // once and reported (its QP joins the wait list), no
                    // walk.
                    self.d_respond.next = true;
                    self.d_rsp.next.status = self.d_fault.val();
                    self.d_report.next = true;
                } else {
                    // Pending, no room for the report: waits READY.
                    self.d_park.next = true;
                }
            } else if self.d_covered.val() {
                self.d_respond.next = true;
            } else if !self.d_b_ok.val() {
                if !self.plk_pending.val() {
                    self.d_park.next = true;
                    self.d_need_walk.next = true;
                    self.d_walk_b.next = true;
                } else if self.d_room.val() {
                    self.d_respond.next = true;
                    self.d_rsp.next.status = self.d_fault.val();
                    self.d_report.next = true;
                    self.d_fb.next = true;
                } else {
                    self.d_park.next = true;
                }
            } else {
                self.d_respond.next = true;
                self.d_rsp.next.two = true;
            }
        }
        // A PREFETCH page's answer goes to the prefetch unit alone.
        self.rsp6_valid.d.next = self.d_respond.val() & (!self.d_req.val().pf);
        self.rsp6.d.next = self.d_rsp.val();
        self.m_cm_valid.next = self.d_respond.val() & (!self.d_req.val().pf);
        self.m_pf_valid.next = self.d_respond.val() & self.d_req.val().pf;
        self.m_pf_status.next = self.d_rsp.val().status;
        self.m_cm_status.next = self.d_rsp.val().status;
        self.m_cm_rqpn.next = self.d_req.val().rqpn;
        self.m_cm_msn.next = self.d_req.val().msn;
        self.m_cm_susp.next = self.d_susp.val();
        self.m_cm_epoch.next = self.d_rsp.val().epoch;
        self.m_cm_qpn.next = self.d_req.val().qpn;
        self.m_cm_mr.next = self.m5.q.val().mr;
        self.m_cm_nak_sent.next = self.d_nsent.val();
        self.out_fifo.data_in.next = self.rsp6.q.val();
        self.mon_overflow.next = self.out_fifo.overflow.val() | self.flt_fifo.overflow.val();

        // Free slot for a new park: the lowest free slot of the previous
        // clock, or its highest if the previous clock's park took the
        // lowest. Both are found a clock ahead, from registers.
        self.pe_vec.next = 0.into();
        for i in 0..SLOTS {
            self.pe_vec.next = self
                .pe_vec
                .val()
                .replace_bit(i, !self.alloc_vec.q.val().get_bit(i));
        }
        self.pe_vc.next = self.pe_vec.val() & !self.c6_ohp.q.val();
        self.pe_rp.high.next = false;
        self.pe_lo.high.next = false;
        self.pe_hi.high.next = true;
        self.pe_wi.high.next = false;
        self.pe_lo_c.high.next = false;
        self.pe_hi_c.high.next = true;
        self.pe_lo.vec.next = self.pe_vec.val();
        self.pe_hi.vec.next = self.pe_vec.val();
        self.pe_lo_c.vec.next = self.pe_vc.val();
        self.pe_hi_c.vec.next = self.pe_vc.val();
        self.fl_lo.d.next = self.pe_lo.idx.val();
        self.fl_hi.d.next = self.pe_hi.idx.val();
        if self.c6_alloc.q.val() {
            self.fl_lo.d.next = self.pe_lo_c.idx.val();
            self.fl_hi.d.next = self.pe_hi_c.idx.val();
        }
        self.free_sel.next = self.fl_lo.q.val();
        if self.prev_alloc.q.val() & (self.fl_lo.q.val() == self.c5_fwd_slot.q.val()) {
            self.free_sel.next = self.fl_hi.q.val();
        }
        self.d_slot.next = bit_cast::<SLOT_BITS, 8>(self.s5.q.val().slot);
        if !self.s5.q.val().replay {
            self.d_slot.next = self.free_sel.val();
        }
        self.d_alloc.next = self.d_park.val() & (!self.s5.q.val().replay);
        self.d_free.next = self.d_respond.val() & self.s5.q.val().replay;
        self.prev_alloc.d.next = self.d_alloc.val();
        // What this decision changes for the request now at c4.
        self.c5_fwd_alloc.d.next = self.d_alloc.val() & self.fwd_eq.q.val();
        self.c5_fwd_slot.d.next = self.free_sel.val();
        // Slots taken: the commit's park and the commit's free, both from
        // the c6 registers (the search above takes the commit's park from
        // its second pair of trees, so it sees the park of the previous
        // clock's decision all the same).
        // The decision itself reaches only a few commit flip-flops, never
        // the 64 enables of this vector.
        self.av_next.next = self.alloc_vec.q.val();
        for i in 0..SLOTS {
            if self.c6_alloc.q.val() & self.c6_oh.q.val().get_bit(i) {
                self.av_next.next = self.av_next.val().replace_bit(i, true);
            }
            if self.c6_free.q.val() & self.c6_oh.q.val().get_bit(i) {
                self.av_next.next = self.av_next.val().replace_bit(i, false);
            }
        }
        self.alloc_vec.d.next = self.av_next.val();

        // ---- c6: commit the decision into the slot table ----
        self.c6_park.d.next = self.d_park.val();
        self.c6_alloc.d.next = self.d_alloc.val();
        self.c6_free.d.next = self.d_free.val();
        if self.s5_valid.q.val() | self.c6_free_a.q.val() {
            self.c6_free_a.d.next = self.d_free.val();
        }
        if self.d_last.val() | self.c6_free_b.q.val() {
            self.c6_free_b.d.next = self.d_free.val();
        }
        self.c6_need_walk.d.next = self.d_need_walk.val();
        self.c6_walk_b.d.next = self.d_walk_b.val();
        self.c6_slot.d.next = self.d_slot.val();
        self.d_oh.next = 0.into();
        for i in 0..SLOTS {
            if self.d_slot.val().index() == i {
                self.d_oh.next = self.d_oh.val().replace_bit(i, true);
            }
        }
        self.c6_oh.d.next = self.d_oh.val();
        if self.s5_valid.q.val() {
            self.c6_ohp.d.next = self.d_oh.val();
        }
        self.c6_qpn.d.next = self.d_req.val().qpn;
        self.c6_write.d.next = self.d_write.val();
        self.c6_remote.d.next = self.d_remote.val();
        self.c6_blocked.d.next = self.d_blocked.val();
        self.c6_tail.d.next = self.d_tail.val();
        self.c6_req.d.next = self.d_req.val();
        // Walk info for a park: the page that missed. It is read only for a
        // park that needs a walk, and such a park walks B exactly when it
        // decides at the B half of a crossing request whose A page is usable
        // (a miss on A walks A). So the page is chosen from c5's registers
        // (`ha_*`, `s5`), not from the decision, which would otherwise reach
        // these 128 bits.
        self.c6_wva.d.next = self.d_req.val().va;
        self.c6_woff.d.next = self.d_a_off.val();
        if self.s5.q.val().cross & self.ha_ok.q.val() {
            self.c6_wva.d.next = self.s5.q.val().va;
            self.c6_woff.d.next = self.m5.q.val().off;
        }
        self.c6_root.d.next = self.m5.q.val().root;
        self.c6_lvl.d.next = self.m5.q.val().lvl;
        self.c6_mr.d.next = self.m5.q.val().mr;
        self.c6_report.d.next = self.d_report.val();
        self.c6_fb.d.next = self.d_fb.val();
        self.c6_end.d.next = self.m5.q.val().end;
        self.c6_keep.d.next = self.d_keep.val();
        self.c6_tv.d.next = self.ov_tmr_valid.val();
        self.c6_tc.d.next = self.ov_tmr_code.val();
        // The fault report, from the commit registers.
        self.c6_rq.next = self.c6_req.q.val();
        // A park for a walk keeps the request's early-NAK fields.
        self.c6_nf.next = bit_cast::<NF_BITS, 24>(self.c6_rq.val().qpn)
            | (bit_cast::<NF_BITS, 24>(self.c6_rq.val().rqpn) << 24)
            | (bit_cast::<NF_BITS, 24>(self.c6_rq.val().psn) << 48)
            | (bit_cast::<NF_BITS, 24>(self.c6_rq.val().msn) << 72)
            | (bit_cast::<NF_BITS, 1>(self.c6_tv.q.val().into()) << 96)
            | (bit_cast::<NF_BITS, 5>(self.c6_tc.q.val()) << 97);
        self.nf.write_enable.next = self.c6_park.q.val() & self.c6_need_walk.q.val();
        self.nf.write_address.next = self.c6_slot.q.val();
        self.nf.write_data.next = self.c6_nf.val();
        self.f_rec.next.mr = self.c6_mr.q.val();
        self.f_rec.next.vpn =
            self.c6_rq.val().va.get_bits::<52>(12) + bit_cast::<52, 1>(self.c6_fb.q.val().into());
        self.f_rec.next.qpn = self.c6_rq.val().qpn;
        self.f_rec.next.op = self.c6_rq.val().op;
        self.f_rec.next.va = self.c6_rq.val().va;
        self.f_rec.next.msg_len = self.c6_rq.val().msg_len;
        self.f_rec.next.end = self.c6_end.q.val();
        // NO_FAULT: the PREFETCH page is answered, its fault not reported.
        self.flt_fifo.push.next = self.c6_report.q.val() & (!self.c6_rq.val().nofault);
        self.flt_fifo.data_in.next = self.f_rec.val();
        self.m_flt_valid.next = !self.flt_fifo.empty.val();
        self.m_flt_mr.next = self.flt_fifo.data_out.val().mr;
        self.m_flt_vpn.next = self.flt_fifo.data_out.val().vpn;
        self.m_flt_qpn.next = self.flt_fifo.data_out.val().qpn;
        self.m_flt_op.next = self.flt_fifo.data_out.val().op;
        self.m_flt_va.next = self.flt_fifo.data_out.val().va;
        self.m_flt_msg_len.next = self.flt_fifo.data_out.val().msg_len;
        self.m_flt_mr_hi.next = self.flt_fifo.data_out.val().end;
        self.flt_fifo.pop.next = (!self.flt_fifo.empty.val()) & self.m_flt_ready.val();

        self.wi_va.write_enable.next = self.c6_park.q.val();
        self.wi_off.write_enable.next = self.c6_park.q.val();
        self.wi_root.write_enable.next = self.c6_park.q.val();
        self.wi_lvl.write_enable.next = self.c6_park.q.val();
        self.wi_mr.write_enable.next = self.c6_park.q.val();
        self.wi_va.write_address.next = self.c6_slot.q.val();
        self.wi_off.write_address.next = self.c6_slot.q.val();
        self.wi_root.write_address.next = self.c6_slot.q.val();
        self.wi_lvl.write_address.next = self.c6_slot.q.val();
        self.wi_mr.write_address.next = self.c6_slot.q.val();
        self.wi_va.write_data.next = self.c6_wva.q.val();
        self.wi_off.write_data.next = self.c6_woff.q.val();
        self.wi_root.write_data.next = self.c6_root.q.val();
        self.wi_lvl.write_data.next = self.c6_lvl.q.val();
        self.wi_mr.write_data.next = self.c6_mr.q.val();
        self.payload.write_enable.next = self.c6_alloc.q.val();
        self.payload.write_address.next = self.c6_slot.q.val();
        self.payload.write_data.next = self.c6_req.q.val();
        self.c6_va.next = self.c6_req.q.val().va;
        self.c6_len.next = self.c6_req.q.val().len;
        self.c6_xend.next = bit_cast::<14, 12>(self.c6_va.val().get_bits::<12>(0))
            + bit_cast::<14, 13>(self.c6_len.val());
        self.pay_k.write_enable.next = self.c6_alloc.q.val();
        self.pay_k.write_address.next = self.c6_slot.q.val();
        self.pay_k.write_data.next = self.c6_req.q.val().key.get_bits::<MR_BITS>(8);
        self.pay_x.write_enable.next = self.c6_alloc.q.val();
        self.pay_x.write_address.next = self.c6_slot.q.val();
        self.pay_x.write_data.next = bit_cast::<2, 1>((self.c6_xend.val() > 4096).into())
            | (bit_cast::<2, 1>(((self.c6_req.q.val().key & self.key_hi.val()) != 0).into()) << 1);

        for i in 0..SLOTS {
            if self.c6_oh.q.val().get_bit(i) {
                if self.c6_park.q.val() {
                    self.sl_state[i].d.next = ParkState::Ready;
                    if self.c6_need_walk.q.val() {
                        self.sl_state[i].d.next = ParkState::NeedWalk;
                        self.sl_wb[i].d.next = self.c6_walk_b.q.val();
                    }
                    if self.c6_keep.q.val() {
                        self.sl_state[i].d.next = ParkState::Forced;
                    }
                    self.sl_in_flight[i].d.next = false;
                }
                if self.c6_park.q.val() | self.c6_free.q.val() {
                    self.sl_early[i].d.next =
                        self.c6_need_walk.q.val() & self.c6_remote.q.val() & (!self.c6_rq.val().pf);
                }
                if self.c6_alloc.q.val() | self.c6_free.q.val() {
                    self.sl_nak[i].d.next = false;
                }
                if self.c6_alloc.q.val() {
                    self.sl_valid[i].d.next = true;
                    self.sl_qpn[i].d.next = self.c6_qpn.q.val();
                    self.sl_write[i].d.next = self.c6_write.q.val();
                    self.sl_remote[i].d.next = self.c6_remote.q.val();
                    self.sl_pred_valid[i].d.next = self.c6_blocked.q.val();
                    self.sl_pred[i].d.next = self.c6_tail.q.val();
                    self.sl_has_succ[i].d.next = false;
                }
                if self.c6_free.q.val() {
                    self.sl_valid[i].d.next = false;
                    self.sl_in_flight[i].d.next = false;
                }
            }
            if self.c6_alloc.q.val() & self.c6_blocked.q.val() & (self.c6_tail.q.val().index() == i)
            {
                self.sl_has_succ[i].d.next = true;
            }
            if self.qp_cmd_busy.val() {
                self.sl_early[i].d.next = false;
            }
            if self.c6_free.q.val()
                & self.sl_pred_valid[i].q.val()
                & (self.sl_pred[i].q.val() == self.c6_slot.q.val())
            {
                self.sl_pred_valid[i].d.next = false;
            }
        }
        if self.c6_alloc.q.val() & (!self.c6_free.q.val()) {
            self.used_cnt.d.next = self.used_cnt.q.val() + 1;
        }
        if self.c6_free.q.val() & (!self.c6_alloc.q.val()) {
            self.used_cnt.d.next = self.used_cnt.q.val() - 1;
        }
        self.mon_parked.next = self.used_cnt.q.val();

        // ---- walk issue: one parked request that needs a walk at a time ----
        // Select (wi_busy rises), RAM read (wi_have), RAM words registered
        // (wi_have2: offered to the walker from registers), walker's answer
        // registered (wf_fire: the slot table is updated and the issue
        // frees for the next slot).
        self.pe_vec.next = 0.into();
        for i in 0..SLOTS {
            self.pe_vec.next = self.pe_vec.val().replace_bit(
                i,
                self.sl_valid[i].q.val() & (self.sl_state[i].q.val() == ParkState::NeedWalk),
            );
        }
        self.pe_wi.vec.next = self.pe_vec.val();
        self.wi_found.next = self.pe_wi.found.val();
        self.wi_sel.next = self.pe_wi.idx.val();
        self.wi_va.read_address.next = self.wi_slot.q.val();
        self.wi_off.read_address.next = self.wi_slot.q.val();
        self.wi_root.read_address.next = self.wi_slot.q.val();
        self.wi_lvl.read_address.next = self.wi_slot.q.val();
        self.wi_mr.read_address.next = self.wi_slot.q.val();
        if (!self.wi_busy.q.val()) & self.wi_found.val() {
            self.wi_busy.d.next = true;
            self.wi_slot.d.next = self.wi_sel.val();
        }
        // The RAMs are read at the registered wi_slot: the walk info is on
        // the RAM output two clocks after selection, in wq_* the clock after.
        self.wi_have.d.next = self.wi_busy.q.val();
        self.wi_have2.d.next = self.wi_have.q.val();
        self.wq_va.d.next = self.wi_va.read_data.val();
        self.wq_off.d.next = self.wi_off.read_data.val();
        self.wq_root.d.next = self.wi_root.read_data.val();
        self.wq_lvl.d.next = self.wi_lvl.read_data.val();
        self.wq_mr.d.next = self.wi_mr.read_data.val();
        // No attach while a completion is offered, held in dr_* or being
        // released (rl_valid): the request could join the very walk that is
        // finishing and never see its completion, or get a walk id whose old
        // completion is still to be applied.
        self.walker.req_valid.next = self.wi_busy.q.val()
            & self.wi_have2.q.val()
            & (!self.wf_fire.q.val())
            & (!self.dr_valid.q.val())
            & (!self.rl_valid.q.val())
            & (!self.walker.done_valid.val());
        self.walker.req_mr.next = self.wq_mr.q.val();
        self.walker.req_off.next = self.wq_off.q.val();
        self.walker.req_root.next = self.wq_root.q.val();
        self.walker.req_levels_m1.next = self.wq_lvl.q.val();
        self.wf_fire.d.next = self.walker.req_valid.val() & self.walker.req_ready.val();
        self.wf_id.d.next = self.walker.req_id.val();
        self.wf_coal.d.next = self.walker.req_coalesced.val();
        if self.wf_fire.q.val() {
            self.wi_busy.d.next = false;
            self.wi_have.d.next = false;
            self.wi_have2.d.next = false;
            for i in 0..SLOTS {
                if self.wi_slot.q.val().index() == i {
                    self.sl_state[i].d.next = ParkState::Walking;
                    self.sl_walk[i].d.next = self.wf_id.q.val();
                    self.sl_org[i].d.next = !self.wf_coal.q.val();
                }
            }
            for i in 0..8 {
                if (self.wf_id.q.val().index() == i) & (!self.wf_coal.q.val()) {
                    self.walk_va[i].d.next = self.wq_va.q.val();
                    self.walk_slot[i].d.next = self.wi_slot.q.val();
                }
            }
        }

        // ---- walk completion: fill the TLB, wake the requests waiting ----
        // In the clock after an accepted invalidation (`flush_busy`) the
        // completion held here is judged against it and nothing moves: no
        // fill, no release, no new completion (the walker's `done_stale`
        // does not include that invalidation yet).
        self.w_fill.next =
            self.dr_valid.q.val() & self.dr_ok.q.val() & (!self.walker.flush_busy.val());
        self.dr_take.next = self.dr_valid.q.val()
            & (!self.walker.flush_busy.val())
            & ((!self.w_fill.val()) | self.tlb.fill_ready.val());
        // A completion is taken only into an empty `dr_*`: the walker's
        // handshake (which frees a slot of the walker and moves its
        // round robin) then depends on two registers, not on `dr_take`
        // and the TLB's `fill_ready` behind it. A fill cannot be taken
        // more often than one per 3 clocks anyway (the TLB's holding
        // register), so fills lose nothing; completions that fill nothing
        // (a fault, a stale walk) pass at one per 2 clocks.
        self.walker.done_ready.next = (!self.dr_valid.q.val()) & (!self.walker.flush_busy.val());
        if self.dr_take.val() {
            self.dr_valid.d.next = false;
        }
        if self.walker.done_ready.val() {
            self.dp_mr.d.next = self.walker.done_mr.val();
            self.dp_off.d.next = self.walker.done_off.val();
            self.dp_size.d.next = self.walker.done_size.val();
        }
        if self.walker.done_valid.val() & self.walker.done_ready.val() {
            self.dr_valid.d.next = true;
            self.dr_id.d.next = self.walker.done_id.val();
            self.dr_status.d.next = self.walker.done_status.val();
            self.dr_mr.d.next = self.walker.done_mr.val();
            self.dr_off.d.next = self.walker.done_off.val();
            self.dr_ppn.d.next = self.walker.done_ppn.val();
            self.dr_size.d.next = self.walker.done_size.val();
            self.dr_w.d.next = self.walker.done_writable.val();
            self.dr_stale.d.next = self.walker.done_stale.val();
            self.dr_ok.d.next = (self.walker.done_status.val() == 0) // = walker::STATUS_OK
                & (!self.walker.done_stale.val());
        } else if self.walker.flush_busy.val() {
            self.dr_stale.d.next = self.dr_stale.q.val() | self.walker.probe_stale.val();
            self.dr_ok.d.next = self.dr_ok.q.val() & (!self.walker.probe_stale.val());
        }
        // The release, a clock after the take: the completion's walk id
        // and outcome, copied from dr_* (still the taken completion's).
        self.rl_valid.d.next = self.dr_take.val();
        self.rl_id.d.next = self.dr_id.q.val();
        self.rl_stale.d.next = self.dr_stale.q.val();
        self.rl_ok.d.next = self.dr_ok.q.val();
        // dr_status 1 = walker::STATUS_NOT_PRESENT
        self.rl_absent.d.next = (self.dr_status.q.val() == 1) & (!self.dr_stale.q.val());
        self.rl_w.d.next = self.dr_w.q.val();
        self.tlb.fill_valid.next = self.w_fill.val();
        // dr_size 1, 2 = page_size::SIZE_2M, SIZE_1G
        self.hf_acc.d.next = self.w_fill.val()
            & self.tlb.fill_ready.val()
            & ((self.dr_size.q.val() == 1) | (self.dr_size.q.val() == 2));
        self.tlb.fill_mr.next = self.dr_mr.q.val().get_bits::<MR_BITS>(0);
        self.tlb.fill_va.next = self.walk_va[0].q.val();
        for i in 0..8 {
            if self.dr_id.q.val().index() == i {
                self.tlb.fill_va.next = self.walk_va[i].q.val();
            }
        }
        self.tlb.fill_off.next = self.dr_off.q.val();
        self.tlb.fill_ppn.next = self.dr_ppn.q.val();
        self.tlb.fill_size.next = self.dr_size.q.val();
        self.tlb.fill_writable.next = self.dr_w.q.val();

        // ---- early RNR NAK: 4 clocks from the R beat to m_nak ----
        // The completion the walker offers (its payload is a one-hot mux
        // of registers) is matched against the slots: the one that started
        // this walk, waiting on it, a remote op heading its QP with no QP
        // command since it parked, and whose page the walk found missing
        // (or read-only for its write). Registered one-hot into ec_vec.
        self.ec_next.next = 0.into();
        for i in 0..SLOTS {
            self.ec_next.next = self.ec_next.val().replace_bit(
                i,
                self.sl_valid[i].q.val()
                    & (self.sl_state[i].q.val() == ParkState::Walking)
                    & (self.sl_walk[i].q.val() == self.walker.done_id.val())
                    & self.sl_org[i].q.val()
                    & self.sl_early[i].q.val()
                    & (!self.sl_pred_valid[i].q.val())
                    & ((self.walker.done_status.val() == 1) // = walker::STATUS_NOT_PRESENT
                        | ((self.walker.done_status.val() == 0) // = walker::STATUS_OK
                            & self.sl_write[i].q.val()
                            & (!self.walker.done_writable.val()))),
            );
        }
        self.ec_vec.d.next = self.ec_next.val();
        self.ec_ok.d.next = self.walker.done_valid.val()
            & (!self.walker.done_stale.val())
            & (!self.qp_cmd_busy.val());
        self.ec_sl.d.next = self.walk_slot[0].q.val();
        for i in 0..8 {
            if self.walker.done_id.val().index() == i {
                self.ec_sl.d.next = self.walk_slot[i].q.val();
            }
        }
        self.ec_acc.d.next = self.walker.done_valid.val() & self.walker.done_ready.val();
        // The clock after, the completion is in dr_*: its NAK is offered
        // if the completion is applied now (so the slot turns Forced RNR
        // at the release), with the fields read from `nf` at the slot's
        // index.
        self.nf.read_address.next = self.ec_sl.q.val();
        self.e_valid.d.next = self.ec_vec.q.val().any()
            & self.ec_ok.q.val()
            & self.ec_acc.q.val()
            & self.dr_take.val()
            & (!self.dr_stale.q.val());
        self.e_slot.d.next = self.ec_sl.q.val();
        self.e_f.d.next = self.nf.read_data.val();
        self.m_en_valid.next = self.e_valid.q.val();
        self.m_en_qpn.next = self.e_f.q.val().get_bits::<24>(0);
        self.m_en_rqpn.next = self.e_f.q.val().get_bits::<24>(24);
        self.m_en_psn.next = self.e_f.q.val().get_bits::<24>(48);
        self.m_en_msn.next = self.e_f.q.val().get_bits::<24>(72);
        self.m_en_tmr_valid.next = self.e_f.q.val().get_bit(96);
        self.m_en_tmr_code.next = self.e_f.q.val().get_bits::<5>(97);
        for i in 0..SLOTS {
            if self.e_valid.q.val() & self.m_en_ready.val() & (self.e_slot.q.val().index() == i) {
                self.sl_nak[i].d.next = true;
            }
        }
        for i in 0..SLOTS {
            if self.rl_valid.q.val()
                & self.sl_valid[i].q.val()
                & (self.sl_state[i].q.val() == ParkState::Walking)
                & (self.sl_walk[i].q.val() == self.rl_id.q.val())
            {
                if self.rl_stale.q.val() {
                    self.sl_state[i].d.next = ParkState::NeedWalk;
                } else if self.rl_ok.q.val() {
                    self.sl_state[i].d.next = ParkState::Ready;
                    if self.sl_write[i].q.val() & (!self.rl_w.q.val()) {
                        self.sl_state[i].d.next = ParkState::Forced;
                        self.sl_forced[i].d.next = 2.into(); // = status::STALL
                        if self.sl_remote[i].q.val() {
                            self.sl_forced[i].d.next = 1.into(); // = status::RNR
                        }
                    }
                } else if self.rl_absent.q.val() {
                    self.sl_state[i].d.next = ParkState::Forced;
                    self.sl_forced[i].d.next = 2.into(); // = status::STALL
                    if self.sl_remote[i].q.val() {
                        self.sl_forced[i].d.next = 1.into(); // = status::RNR
                    }
                } else {
                    // walker::STATUS_FATAL
                    self.sl_state[i].d.next = ParkState::Forced;
                    self.sl_forced[i].d.next = 5.into(); // = status::FATAL
                }
            }
        }

        // ---- output: one beat per page ----
        // The head is the FIFO's oldest word, or the c6 response when the
        // FIFO is empty; the c6 response enters the FIFO unless it leaves
        // whole in this clock (its last beat taken as the head).
        self.o_head.next = self.out_fifo.data_out.val();
        if self.out_fifo.empty.val() {
            self.o_head.next = self.rsp6.q.val();
        }
        self.m_xrsp.valid.next = (!self.out_fifo.empty.val()) | self.rsp6_valid.q.val();
        // Epochs come with the command unit's drain (not built yet).
        self.m_xrsp.epoch.next = bit_cast::<8, 4>(self.o_head.val().epoch);
        self.m_xrsp.tag.next = self.o_head.val().tag;
        self.m_xrsp.status.next = self.o_head.val().status;
        self.m_xrsp.pa.next = self.o_head.val().pa0;
        self.m_xrsp.seg_len.next = self.o_head.val().len0;
        self.m_xrsp.last.next = !self.o_head.val().two;
        if self.beat2.q.val() {
            self.m_xrsp.pa.next = self.o_head.val().pa1;
            self.m_xrsp.seg_len.next = self.o_head.val().len1;
            self.m_xrsp.last.next = true;
        }
        // Only an OK answer (status 0) shows an address and a length.
        if self.o_head.val().status != 0 {
            self.m_xrsp.pa.next = 0.into();
            self.m_xrsp.seg_len.next = 0.into();
        }
        self.o_leave.next =
            self.m_xrsp.valid.val() & self.m_xrsp.ready.val() & self.m_xrsp.last.val();
        self.o_occ.next = self.out_fifo.count.val()
            + bit_cast::<4, 1>(self.rsp6_valid.q.val().into())
            + bit_cast::<4, 1>(self.s5_valid.q.val().into());
        self.o_room.d.next =
            (self.o_occ.val() <= 2) | (self.o_leave.val() & (self.o_occ.val() == 3));
        self.out_fifo.pop.next = false;
        self.out_fifo.push.next = self.rsp6_valid.q.val();
        if self.m_xrsp.valid.val() & self.m_xrsp.ready.val() {
            if self.m_xrsp.last.val() {
                self.out_fifo.pop.next = true;
                self.beat2.d.next = false;
                if self.out_fifo.empty.val() {
                    self.out_fifo.push.next = false;
                }
            } else {
                self.beat2.d.next = true;
            }
        }
        self.mon_multi_hit.next = self.tlb.res_valid.val() & self.tlb.res_multi_hit.val();
        self.mon_tlb_hit.next = self.tlb.res_valid.val() & self.tlb.res_hit.val();
        self.mon_tlb_miss.next = self.tlb.res_valid.val() & (!self.tlb.res_hit.val());
        self.mon_walk.next = self.walker.req_valid.val() & self.walker.req_ready.val();
        self.mon_tlb_refused.next = self.s1_valid.q.val() & (!self.tlb.ready.val());

        // ---- reset ----
        if self.rs_st.q.val() {
            for i in 0..SLOTS {
                self.sl_valid[i].d.next = false;
                self.sl_in_flight[i].d.next = false;
                self.sl_pred_valid[i].d.next = false;
                self.sl_has_succ[i].d.next = false;
            }
            self.used_cnt.d.next = 0.into();
            self.s1_valid.d.next = false;
            self.s2_valid.d.next = false;
            self.s3_valid.d.next = false;
            self.s4_valid.d.next = false;
            self.s5_valid.d.next = false;
            self.b_pend.d.next = false;
            self.b_pend_k.d.next = false;
            for j in 0..5 {
                self.b_pend_kx[j].d.next = false;
            }
            self.hf_acc.d.next = false;
            self.rp0_valid.d.next = false;
            self.rp1_valid.d.next = false;
            self.prev_alloc.d.next = false;
            self.c6_park.d.next = false;
            self.c6_alloc.d.next = false;
            self.c6_free.d.next = false;
            self.c6_free_a.d.next = false;
            self.c6_free_b.d.next = false;
            self.c6_report.d.next = false;
            self.c6_keep.d.next = false;
            self.alloc_vec.d.next = 0.into();
            self.rp_vec.d.next = 0.into();
            self.wi_busy.d.next = false;
            self.wi_have.d.next = false;
            self.wi_have2.d.next = false;
            self.wf_fire.d.next = false;
            self.dr_valid.d.next = false;
            self.beat2.d.next = false;
            self.rsp6_valid.d.next = false;
            self.ec_vec.d.next = 0.into();
            self.ec_acc.d.next = false;
            self.e_valid.d.next = false;
        }
    }
}

/// The translation path on the SPEC section 6 parameters.
pub type DefaultTranslator = Translator<8, 8, 32, 64, 6, 7, 8>;

/// Generates the Verilog of [`DefaultTranslator`] for `qps` queue pairs,
/// top module `translator`.
pub fn generate_verilog(qps: usize) -> String {
    let mut uut = DefaultTranslator::new(qps);
    uut.connect_all();
    crate::verilog::generate(&uut, "translator")
}
