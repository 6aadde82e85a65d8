//! Fault queue: the pending-fault table, fault events with a prefetch hint,
//! RESUME_FAULT and the per-slot wait lists that wake stalled QPs.
#![doc = include_str!("../../docs/fault_queue.md")]

use rust_hdl::prelude::*;

use crate::common::lowest::LowestSet;
use crate::spec::event;

/// Clocks from a lookup (`lk_valid`) to its answer (`lk_out_valid`).
pub const LOOKUP_LATENCY: u64 = 3;
/// Clocks from a fault's handshake on `s_flt` to its `cnt_*` pulse and to
/// `s_flt_ready` high again.
pub const FLT_CLOCKS: u64 = 6;
/// Clocks from a RESUME's handshake on `s_res` to `res_done` / `res_stale`.
pub const RES_CHECK_CLOCKS: u64 = 3;
/// Clocks per 32-QP word of a wait list while a RESUME's lists are read,
/// besides 2 clocks per note.
pub const WAIT_WORD_CLOCKS: u64 = 3;
/// Smallest legal `SLOT_BITS`.
pub const MIN_SLOT_BITS: usize = 1;
/// Largest legal `SLOT_BITS` (64 slots).
pub const MAX_SLOT_BITS: usize = 6;
/// Smallest legal `QP_BITS` (two 32-QP words per wait list).
pub const MIN_QP_BITS: usize = 6;
/// Largest legal `QP_BITS`.
pub const MAX_QP_BITS: usize = 12;
/// The hint cap's reset value in the register map: 4 MiB.
pub const HINT_CAP_DEFAULT: u64 = 4 << 20;

/// The fault queue of the default core: 32 slots, 1024 QPs (SPEC section 6).
pub type DefaultFaultQueue = FaultQueue<32, 5, 10, 5, 10>;

/// Where the fault / RESUME engine is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum FqState {
    /// Clearing the wait RAMs after power-up or `rst`.
    Sweep,
    /// Waits for a RESUME (first) or a fault.
    Idle,
    /// Fault: key compared with every slot; message end and page end.
    F1,
    /// Fault: coalesce, new slot or overflow; hint bounds.
    F2,
    /// Fault: hint differences; the wait-list word is read.
    F3,
    /// Fault: hints clamped; the wait-list word is written.
    F4,
    /// Fault: the slot and its record are written; counter pulse.
    F5,
    /// RESUME: token checked against its slot.
    R1,
    /// RESUME: accepted (slot to DRAIN) or stale.
    R2,
    /// Wait list: one word read.
    ScanRead,
    /// Wait list: the word taken and cleared in the RAM.
    ScanLoad,
    /// Wait list: the next QP of the word to a note, or the next word.
    ScanEmit,
    /// Wait list: a note waits on `m_note`.
    ScanNote,
    /// Wait lists read: the slot is freed; the overflow list next, if any.
    ScanFree,
}

/// A pending-fault slot's state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum SlotState {
    /// Holds nothing.
    Free,
    /// Holds a fault whose record is not yet taken on `m_ev`.
    New,
    /// Its record is taken; waits for RESUME.
    Posted,
    /// RESUME accepted: its wait lists are being read.
    Drain,
}

/// Where the record emitter is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum EmState {
    /// Picks the lowest NEW slot.
    Pick,
    /// Reads the slot's record.
    Read,
    /// The record is valid on `m_ev`.
    Out,
}

/// What the event record needs of a slot, kept in a small RAM.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct FaultRec {
    pub gen: Bits<8>,
    pub op: Bits<2>,
    pub qpn: Bits<24>,
    pub before: Bits<32>,
    pub after: Bits<32>,
    pub mr: Bits<8>,
    pub vpn: Bits<52>,
}

/// Fault queue with 2^`SLOT_BITS` pending-fault slots and wait lists for
/// 2^`QP_BITS` QPs. `WORD_BITS` = `QP_BITS - 5` and `ADDR_BITS` =
/// `SLOT_BITS + WORD_BITS` are checked at construction. See the module page
/// (`docs/fault_queue.md`) for the rules and the timing.
///
/// # Invariants
///
/// - At most one pending (NEW or POSTED) slot per (MR, page).
/// - A slot's record is offered on `m_ev` once, and the slot is resumed
///   only after its record was taken.
/// - Each QP on a slot's lists gets exactly one note when the slot is
///   resumed; a QP on the overflow list gets one wake when a slot is freed.
#[derive(LogicBlock)]
pub struct FaultQueue<
    const SLOTS: usize,
    const SLOT_BITS: usize,
    const QP_BITS: usize,
    const WORD_BITS: usize,
    const ADDR_BITS: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous active-high reset: empties every slot and clears the
    /// wait lists (a sweep of 2^`ADDR_BITS` clocks).
    pub rst: Signal<In, Bit>,
    /// High once the sweep is done; nothing is taken before.
    pub ready: Signal<Out, Bit>,
    /// Largest prefetch hint, bytes, each side (CSR).
    pub hint_cap: Signal<In, Bits<32>>,

    /// Lookup valid (one per clock, always taken).
    pub lk_valid: Signal<In, Bit>,
    /// Lookup MR index.
    pub lk_mr: Signal<In, Bits<8>>,
    /// Lookup 4 KiB page number (`va >> 12`).
    pub lk_vpn: Signal<In, Bits<52>>,
    /// The answer of the lookup of `LOOKUP_LATENCY` clocks before.
    pub lk_out_valid: Signal<Out, Bit>,
    /// The page is pending (a NEW or POSTED slot holds it).
    pub lk_pending: Signal<Out, Bit>,
    /// The slot that holds it (0 when not pending).
    pub lk_slot: Signal<Out, Bits<8>>,

    /// Fault valid.
    pub s_flt_valid: Signal<In, Bit>,
    /// Fault taken (from registers and `rst`).
    pub s_flt_ready: Signal<Out, Bit>,
    /// Fault MR index.
    pub s_flt_mr: Signal<In, Bits<8>>,
    /// Faulting 4 KiB page number.
    pub s_flt_vpn: Signal<In, Bits<52>>,
    /// Local QP of the request.
    pub s_flt_qpn: Signal<In, Bits<24>>,
    /// Op of the request (bit 1 set: local op).
    pub s_flt_op: Signal<In, Bits<2>>,
    /// The request's `va`.
    pub s_flt_va: Signal<In, Bits<64>>,
    /// The request's `msg_len`: bytes from `va` to the end of the message.
    pub s_flt_msg_len: Signal<In, Bits<32>>,
    /// The MR's base VA.
    pub s_flt_mr_lo: Signal<In, Bits<64>>,
    /// The MR's end VA (base + length).
    pub s_flt_mr_hi: Signal<In, Bits<64>>,

    /// Page-fault record valid (to the event-ring writer).
    pub m_ev_valid: Signal<Out, Bit>,
    /// Record taken.
    pub m_ev_ready: Signal<In, Bit>,
    /// Record word 0: kind, op, MR, token.
    pub m_ev_w0: Signal<Out, Bits<64>>,
    /// Record word 1: page VA.
    pub m_ev_w1: Signal<Out, Bits<64>>,
    /// Record word 2: hint bytes before (`[31:0]`) and after (`[63:32]`).
    pub m_ev_w2: Signal<Out, Bits<64>>,
    /// Record word 3, bits 62:0: QPN.
    pub m_ev_w3: Signal<Out, Bits<63>>,

    /// RESUME_FAULT valid.
    pub s_res_valid: Signal<In, Bit>,
    /// RESUME_FAULT taken (from registers and `rst`).
    pub s_res_ready: Signal<Out, Bit>,
    /// The fault's token (`[7:0]` slot, `[15:8]` generation).
    pub s_res_token: Signal<In, Bits<32>>,
    /// The driver could not map the page.
    pub s_res_err: Signal<In, Bit>,
    /// Pulse: a RESUME was accepted.
    pub res_done: Signal<Out, Bit>,
    /// Pulse: a RESUME was stale and changed nothing.
    pub res_stale: Signal<Out, Bit>,
    /// With `res_done`: the service time is valid.
    pub svc_valid: Signal<Out, Bit>,
    /// Clocks from the record's handshake to the RESUME's handshake.
    pub svc_clocks: Signal<Out, Bits<32>>,

    /// Note valid.
    pub m_note_valid: Signal<Out, Bit>,
    /// Note taken.
    pub m_note_ready: Signal<In, Bit>,
    /// The QP to notify.
    pub m_note_qpn: Signal<Out, Bits<24>>,
    /// Send the QP one wake.
    pub m_note_wake: Signal<Out, Bit>,
    /// Put the QP in error.
    pub m_note_err: Signal<Out, Bit>,

    /// Slots NEW or POSTED.
    pub pending: Signal<Out, Bits<8>>,
    /// Pulse: a fault took a new slot.
    pub cnt_new: Signal<Out, Bit>,
    /// Pulse: a fault coalesced into a pending slot.
    pub cnt_coalesced: Signal<Out, Bit>,
    /// Pulse: a fault found every slot busy and was not recorded.
    pub cnt_overflow: Signal<Out, Bit>,
    /// Pulse: a local QP joined a stall or overflow wait list it was not on
    /// (it will get one `m_note_wake`): the top counts QPs waiting for a
    /// wake with it.
    pub cnt_waiting: Signal<Out, Bit>,

    /// Re-announce (level): while high, every POSTED slot goes back to NEW
    /// at a clock the engine is idle and takes no RESUME, so its record is
    /// offered on `m_ev` again, with the same token. The top drives it
    /// while the event ring is disabled (`EQ_LOG2_SIZE` = 0), so that a
    /// re-initialised ring holds a record of every fault still awaiting
    /// its RESUME (`docs/fault_queue.md`, Re-announcing).
    pub repost: Signal<In, Bit>,
    /// High on the clocks the POSTED slots go back to NEW (for the
    /// testbench: the model applies the re-announce there).
    pub reposting: Signal<Out, Bit>,

    // --- constants ---
    slots_c: Constant<Bits<9>>,
    qps_c: Constant<Bits<25>>,
    last_word: Constant<Bits<WORD_BITS>>,
    wshift: Constant<Bits<8>>,
    one32: Constant<Bits<32>>,
    kind_pf: Constant<Bits<64>>,
    // --- slots ---
    st: [DFF<SlotState>; SLOTS],
    key_mr: [DFF<Bits<8>>; SLOTS],
    key_vpn: [DFF<Bits<52>>; SLOTS],
    gen: [DFF<Bits<8>>; SLOTS],
    pend_cnt: DFF<Bits<8>>,
    pend_vec: Signal<Local, Bits<SLOTS>>,
    new_vec: Signal<Local, Bits<SLOTS>>,
    free_vec: Signal<Local, Bits<SLOTS>>,
    // --- RAMs ---
    rec: RAM<FaultRec, SLOT_BITS>,
    post_t: RAM<Bits<32>, SLOT_BITS>,
    w_stall: RAM<Bits<32>, ADDR_BITS>,
    w_rnr: RAM<Bits<32>, ADDR_BITS>,
    w_ovf: RAM<Bits<32>, WORD_BITS>,
    now: DFF<Bits<32>>,
    // --- lookup ---
    lk_v1: DFF<Bit>,
    lk_mr1: DFF<Bits<8>>,
    lk_vpn1: DFF<Bits<52>>,
    lk_v2: DFF<Bit>,
    lk_match: DFF<Bits<SLOTS>>,
    lk_mv: Signal<Local, Bits<SLOTS>>,
    lk_enc: LowestSet<SLOTS, SLOT_BITS>,
    lk_v3: DFF<Bit>,
    lk_p3: DFF<Bit>,
    lk_s3: DFF<Bits<8>>,
    // --- engine ---
    fs: DFF<FqState>,
    ready_r: DFF<Bit>,
    sweep: DFF<Bits<ADDR_BITS>>,
    take_flt: Signal<Local, Bit>,
    take_res: Signal<Local, Bit>,
    g_res: DFF<Bit>,
    f_mr: DFF<Bits<8>>,
    f_vpn: DFF<Bits<52>>,
    f_qpn: DFF<Bits<24>>,
    f_op: DFF<Bits<2>>,
    f_va: DFF<Bits<64>>,
    f_len: DFF<Bits<32>>,
    f_lo: DFF<Bits<64>>,
    f_hi: DFF<Bits<64>>,
    f_cap: DFF<Bits<32>>,
    f_qok: DFF<Bit>,
    f_match: DFF<Bits<SLOTS>>,
    f_mv: Signal<Local, Bits<SLOTS>>,
    f_free: DFF<Bits<SLOTS>>,
    f_sum: DFF<Bits<65>>,
    f_pg: DFF<Bits<65>>,
    f_pe: DFF<Bits<65>>,
    f_end: DFF<Bits<65>>,
    f_start: DFF<Bits<65>>,
    f_new: DFF<Bit>,
    f_coal: DFF<Bit>,
    f_ovf: DFF<Bit>,
    f_slot: DFF<Bits<8>>,
    f_oh: DFF<Bits<SLOTS>>,
    f_rslot: DFF<Bits<SLOT_BITS>>,
    f_gen: DFF<Bits<8>>,
    f_genl: Signal<Local, Bits<8>>,
    f_m1: Signal<Local, Bits<SLOTS>>,
    f_f1: Signal<Local, Bits<SLOTS>>,
    r_oh: DFF<Bits<SLOTS>>,
    r_ohl: Signal<Local, Bits<SLOTS>>,
    sc_oh: DFF<Bits<SLOTS>>,
    em_oh: DFF<Bits<SLOTS>>,
    em_m1: Signal<Local, Bits<SLOTS>>,
    f_aft: DFF<Bits<65>>,
    f_bef: DFF<Bits<65>>,
    f_aft32: DFF<Bits<32>>,
    f_bef32: DFF<Bits<32>>,
    m_enc: LowestSet<SLOTS, SLOT_BITS>,
    fr_enc: LowestSet<SLOTS, SLOT_BITS>,
    sum_l: Signal<Local, Bits<65>>,
    pg_l: Signal<Local, Bits<65>>,
    pe_l: Signal<Local, Bits<65>>,
    ovf_any: DFF<Bit>,
    // RESUME
    r_tok: DFF<Bits<32>>,
    r_err: DFF<Bit>,
    r_now: DFF<Bits<32>>,
    r_ok: DFF<Bit>,
    w_new: DFF<Bit>,
    w_free: DFF<Bit>,
    r_ok_l: Signal<Local, Bit>,
    // wait-list read
    sc_ovf: DFF<Bit>,
    sc_slot: DFF<Bits<8>>,
    sc_word: DFF<Bits<WORD_BITS>>,
    sc_err: DFF<Bit>,
    sc_stall: DFF<Bits<32>>,
    sc_rnr: DFF<Bits<32>>,
    sc_enc: LowestSet<32, 5>,
    sc_any: Signal<Local, Bits<32>>,
    sc_m1: Signal<Local, Bits<32>>,
    sc_low: Signal<Local, Bits<32>>,
    w_addr: Signal<Local, Bits<ADDR_BITS>>,
    w_bit: Signal<Local, Bits<32>>,
    // outputs
    note_v: DFF<Bit>,
    note_qpn: DFF<Bits<24>>,
    note_wake: DFF<Bit>,
    note_err: DFF<Bit>,
    done_r: DFF<Bit>,
    stale_r: DFF<Bit>,
    svc_r: DFF<Bits<32>>,
    c_new: DFF<Bit>,
    c_coal: DFF<Bit>,
    c_ovf: DFF<Bit>,
    c_wait: DFF<Bit>,
    f_wait: DFF<Bit>,
    rp: Signal<Local, Bit>,
    // --- record emitter ---
    em: DFF<EmState>,
    em_slot: DFF<Bits<8>>,
    em_enc: LowestSet<SLOTS, SLOT_BITS>,
    em_take: Signal<Local, Bit>,
    rd: Signal<Local, FaultRec>,
    wrec: Signal<Local, FaultRec>,
}

impl<
        const SLOTS: usize,
        const SLOT_BITS: usize,
        const QP_BITS: usize,
        const WORD_BITS: usize,
        const ADDR_BITS: usize,
    > FaultQueue<SLOTS, SLOT_BITS, QP_BITS, WORD_BITS, ADDR_BITS>
{
    /// Number of QPs with wait-list bits, 2^`QP_BITS`.
    pub const QPS: usize = 1 << QP_BITS;

    /// An empty fault queue (it sweeps its wait RAMs after power-up).
    /// Panics on illegal parameters.
    pub fn new() -> Self {
        assert!(
            (MIN_SLOT_BITS..=MAX_SLOT_BITS).contains(&SLOT_BITS),
            "FaultQueue: SLOT_BITS must be in {MIN_SLOT_BITS}..={MAX_SLOT_BITS}, got {SLOT_BITS}"
        );
        assert!(
            (MIN_QP_BITS..=MAX_QP_BITS).contains(&QP_BITS),
            "FaultQueue: QP_BITS must be in {MIN_QP_BITS}..={MAX_QP_BITS}, got {QP_BITS}"
        );
        assert!(
            SLOTS == 1 << SLOT_BITS
                && WORD_BITS == QP_BITS - 5
                && ADDR_BITS == SLOT_BITS + WORD_BITS,
            "FaultQueue: SLOTS must be 2^SLOT_BITS, WORD_BITS QP_BITS - 5 and ADDR_BITS \
             SLOT_BITS + WORD_BITS, got {SLOTS}, {WORD_BITS} and {ADDR_BITS}"
        );
        Self {
            clock: Default::default(),
            rst: Default::default(),
            ready: Default::default(),
            hint_cap: Default::default(),
            lk_valid: Default::default(),
            lk_mr: Default::default(),
            lk_vpn: Default::default(),
            lk_out_valid: Default::default(),
            lk_pending: Default::default(),
            lk_slot: Default::default(),
            s_flt_valid: Default::default(),
            s_flt_ready: Default::default(),
            s_flt_mr: Default::default(),
            s_flt_vpn: Default::default(),
            s_flt_qpn: Default::default(),
            s_flt_op: Default::default(),
            s_flt_va: Default::default(),
            s_flt_msg_len: Default::default(),
            s_flt_mr_lo: Default::default(),
            s_flt_mr_hi: Default::default(),
            m_ev_valid: Default::default(),
            m_ev_ready: Default::default(),
            m_ev_w0: Default::default(),
            m_ev_w1: Default::default(),
            m_ev_w2: Default::default(),
            m_ev_w3: Default::default(),
            s_res_valid: Default::default(),
            s_res_ready: Default::default(),
            s_res_token: Default::default(),
            s_res_err: Default::default(),
            res_done: Default::default(),
            res_stale: Default::default(),
            svc_valid: Default::default(),
            svc_clocks: Default::default(),
            m_note_valid: Default::default(),
            m_note_ready: Default::default(),
            m_note_qpn: Default::default(),
            m_note_wake: Default::default(),
            m_note_err: Default::default(),
            pending: Default::default(),
            cnt_new: Default::default(),
            cnt_coalesced: Default::default(),
            cnt_overflow: Default::default(),
            cnt_waiting: Default::default(),
            repost: Default::default(),
            reposting: Default::default(),
            slots_c: Constant::new((SLOTS as u64).into()),
            qps_c: Constant::new((Self::QPS as u64).into()),
            last_word: Constant::new(((1u64 << WORD_BITS) - 1).into()),
            wshift: Constant::new((WORD_BITS as u64).into()),
            one32: Constant::new(1u64.into()),
            kind_pf: Constant::new(event::PAGE_FAULT.into()),
            st: std::array::from_fn(|_| Default::default()),
            key_mr: std::array::from_fn(|_| Default::default()),
            key_vpn: std::array::from_fn(|_| Default::default()),
            gen: std::array::from_fn(|_| Default::default()),
            pend_cnt: Default::default(),
            pend_vec: Default::default(),
            new_vec: Default::default(),
            free_vec: Default::default(),
            rec: Default::default(),
            post_t: Default::default(),
            w_stall: Default::default(),
            w_rnr: Default::default(),
            w_ovf: Default::default(),
            now: Default::default(),
            lk_v1: Default::default(),
            lk_mr1: Default::default(),
            lk_vpn1: Default::default(),
            lk_v2: Default::default(),
            lk_match: Default::default(),
            lk_enc: Default::default(),
            lk_v3: Default::default(),
            lk_p3: Default::default(),
            lk_s3: Default::default(),
            fs: Default::default(),
            ready_r: Default::default(),
            sweep: Default::default(),
            take_flt: Default::default(),
            take_res: Default::default(),
            g_res: Default::default(),
            f_mr: Default::default(),
            f_vpn: Default::default(),
            f_qpn: Default::default(),
            f_op: Default::default(),
            f_va: Default::default(),
            f_len: Default::default(),
            f_lo: Default::default(),
            f_hi: Default::default(),
            f_cap: Default::default(),
            f_qok: Default::default(),
            f_match: Default::default(),
            f_free: Default::default(),
            f_sum: Default::default(),
            f_pg: Default::default(),
            f_pe: Default::default(),
            f_end: Default::default(),
            f_start: Default::default(),
            f_new: Default::default(),
            f_coal: Default::default(),
            f_ovf: Default::default(),
            f_slot: Default::default(),
            f_oh: Default::default(),
            f_rslot: Default::default(),
            f_gen: Default::default(),
            f_genl: Default::default(),
            f_m1: Default::default(),
            f_f1: Default::default(),
            r_oh: Default::default(),
            r_ohl: Default::default(),
            sc_oh: Default::default(),
            em_oh: Default::default(),
            em_m1: Default::default(),
            f_aft: Default::default(),
            f_bef: Default::default(),
            f_aft32: Default::default(),
            f_bef32: Default::default(),
            m_enc: Default::default(),
            fr_enc: Default::default(),
            sum_l: Default::default(),
            pg_l: Default::default(),
            pe_l: Default::default(),
            ovf_any: Default::default(),
            r_tok: Default::default(),
            r_err: Default::default(),
            r_now: Default::default(),
            r_ok: Default::default(),
            w_new: Default::default(),
            w_free: Default::default(),
            r_ok_l: Default::default(),
            sc_ovf: Default::default(),
            sc_slot: Default::default(),
            sc_word: Default::default(),
            sc_err: Default::default(),
            sc_stall: Default::default(),
            sc_rnr: Default::default(),
            sc_enc: Default::default(),
            sc_any: Default::default(),
            sc_m1: Default::default(),
            sc_low: Default::default(),
            w_addr: Default::default(),
            w_bit: Default::default(),
            note_v: Default::default(),
            note_qpn: Default::default(),
            note_wake: Default::default(),
            note_err: Default::default(),
            done_r: Default::default(),
            stale_r: Default::default(),
            svc_r: Default::default(),
            c_new: Default::default(),
            c_coal: Default::default(),
            c_ovf: Default::default(),
            c_wait: Default::default(),
            f_wait: Default::default(),
            rp: Default::default(),
            em: Default::default(),
            em_slot: Default::default(),
            em_enc: Default::default(),
            em_take: Default::default(),
            rd: Default::default(),
            wrec: Default::default(),
            lk_mv: Default::default(),
            f_mv: Default::default(),
        }
    }
}

impl<
        const SLOTS: usize,
        const SLOT_BITS: usize,
        const QP_BITS: usize,
        const WORD_BITS: usize,
        const ADDR_BITS: usize,
    > Default for FaultQueue<SLOTS, SLOT_BITS, QP_BITS, WORD_BITS, ADDR_BITS>
{
    fn default() -> Self {
        Self::new()
    }
}

impl<
        const SLOTS: usize,
        const SLOT_BITS: usize,
        const QP_BITS: usize,
        const WORD_BITS: usize,
        const ADDR_BITS: usize,
    > Logic for FaultQueue<SLOTS, SLOT_BITS, QP_BITS, WORD_BITS, ADDR_BITS>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, pend_cnt, now, lk_v1, lk_mr1, lk_vpn1, lk_v2, lk_match, lk_v3, lk_p3,
            lk_s3, fs, ready_r, sweep, g_res, f_mr, f_vpn, f_qpn, f_op, f_va, f_len, f_lo, f_hi,
            f_cap, f_qok, f_match, f_free, f_sum, f_pg, f_pe, f_end, f_start, f_new, f_coal, f_ovf,
            f_slot, f_oh, f_rslot, f_gen, r_oh, sc_oh, em_oh, f_aft, f_bef, f_aft32, f_bef32,
            ovf_any, r_tok, r_err, r_now, r_ok, w_new, w_free, sc_ovf, sc_slot, sc_word, sc_err,
            sc_stall, sc_rnr, note_v, note_qpn, note_wake, note_err, done_r, stale_r, svc_r, c_new,
            c_coal, c_ovf, c_wait, f_wait, em, em_slot
        );
        for i in 0..SLOTS {
            self.st[i].clock.next = self.clock.val();
            self.key_mr[i].clock.next = self.clock.val();
            self.key_vpn[i].clock.next = self.clock.val();
            self.gen[i].clock.next = self.clock.val();
            self.st[i].d.next = self.st[i].q.val();
            self.key_mr[i].d.next = self.key_mr[i].q.val();
            self.key_vpn[i].d.next = self.key_vpn[i].q.val();
            self.gen[i].d.next = self.gen[i].q.val();
        }
        self.rec.read_clock.next = self.clock.val();
        self.rec.write_clock.next = self.clock.val();
        self.post_t.read_clock.next = self.clock.val();
        self.post_t.write_clock.next = self.clock.val();
        self.w_stall.read_clock.next = self.clock.val();
        self.w_stall.write_clock.next = self.clock.val();
        self.w_rnr.read_clock.next = self.clock.val();
        self.w_rnr.write_clock.next = self.clock.val();
        self.w_ovf.read_clock.next = self.clock.val();
        self.w_ovf.write_clock.next = self.clock.val();

        // Defaults.
        self.rec.write_enable.next = false;
        // The record's slot and generation, registered for the RAM write
        // (f_slot's fan-out is the slot decode).
        self.rec.write_address.next = self.f_rslot.q.val();
        self.rec.read_address.next = self.em_slot.q.val().get_bits::<SLOT_BITS>(0);
        self.post_t.write_enable.next = false;
        self.post_t.write_address.next = self.em_slot.q.val().get_bits::<SLOT_BITS>(0);
        self.post_t.write_data.next = self.now.q.val();
        self.post_t.read_address.next = self.r_tok.q.val().get_bits::<SLOT_BITS>(0);
        self.w_stall.write_enable.next = false;
        self.w_rnr.write_enable.next = false;
        self.w_ovf.write_enable.next = false;
        self.w_stall.write_data.next = 0.into();
        self.w_rnr.write_data.next = 0.into();
        self.w_ovf.write_data.next = 0.into();
        self.sc_any.next = 0.into();
        self.sc_m1.next = 0.into();
        self.sc_low.next = 0.into();
        self.take_flt.next = false;
        self.take_res.next = false;
        self.r_ok_l.next = false;
        self.r_ok.d.next = false;
        self.w_new.d.next = false;
        self.w_free.d.next = false;
        self.em_take.next = false;
        self.rd.next = self.rec.read_data.val();
        self.lk_mv.next = 0.into();
        self.f_mv.next = 0.into();
        self.r_ohl.next = 0.into();
        self.f_genl.next = 0.into();
        // One-hot slot selects (the lowest set bit, x & !(x - 1), on a
        // carry chain), so that no slot register decodes an index.
        self.f_m1.next = self.f_match.q.val() - 1;
        self.f_f1.next = self.f_free.q.val() - 1;
        self.wrec.next.op = self.f_op.q.val();
        self.wrec.next.qpn = self.f_qpn.q.val();
        self.wrec.next.before = self.f_bef32.q.val();
        self.wrec.next.after = self.f_aft32.q.val();
        self.wrec.next.mr = self.f_mr.q.val();
        self.wrec.next.vpn = self.f_vpn.q.val();
        self.wrec.next.gen = self.f_gen.q.val();
        self.now.d.next = self.now.q.val() + 1;

        // The wait RAMs' word address: {slot, qpn[QP_BITS-1:5]} for a
        // fault, {slot, word} while a list is read.
        self.w_addr.next = (bit_cast::<ADDR_BITS, 8>(self.f_slot.q.val()) << self.wshift.val())
            | bit_cast::<ADDR_BITS, WORD_BITS>(self.f_qpn.q.val().get_bits::<WORD_BITS>(5));
        if (self.fs.q.val() == FqState::ScanRead) | (self.fs.q.val() == FqState::ScanLoad) {
            self.w_addr.next = (bit_cast::<ADDR_BITS, 8>(self.sc_slot.q.val())
                << self.wshift.val())
                | bit_cast::<ADDR_BITS, WORD_BITS>(self.sc_word.q.val());
        }
        self.w_stall.read_address.next = self.w_addr.val();
        self.w_rnr.read_address.next = self.w_addr.val();
        self.w_stall.write_address.next = self.w_addr.val();
        self.w_rnr.write_address.next = self.w_addr.val();
        self.w_ovf.read_address.next = self.f_qpn.q.val().get_bits::<WORD_BITS>(5);
        if (self.fs.q.val() == FqState::ScanRead) | (self.fs.q.val() == FqState::ScanLoad) {
            self.w_ovf.read_address.next = self.sc_word.q.val();
        }
        self.w_ovf.write_address.next = self.w_ovf.read_address.val();
        self.w_bit.next = self.one32.val() << self.f_qpn.q.val().get_bits::<5>(0);

        // Slot vectors.
        self.pend_vec.next = 0.into();
        self.new_vec.next = 0.into();
        self.free_vec.next = 0.into();
        for i in 0..SLOTS {
            self.pend_vec.next = self.pend_vec.val().replace_bit(
                i,
                (self.st[i].q.val() == SlotState::New) | (self.st[i].q.val() == SlotState::Posted),
            );
            self.new_vec.next = self
                .new_vec
                .val()
                .replace_bit(i, self.st[i].q.val() == SlotState::New);
            self.free_vec.next = self
                .free_vec
                .val()
                .replace_bit(i, self.st[i].q.val() == SlotState::Free);
        }

        self.em_m1.next = self.new_vec.val() - 1;

        // --- Lookup: inputs registered, compared, encoded. ---
        self.lk_v1.d.next = self.lk_valid.val();
        self.lk_mr1.d.next = self.lk_mr.val();
        self.lk_vpn1.d.next = self.lk_vpn.val();
        self.lk_v2.d.next = self.lk_v1.q.val();
        self.lk_mv.next = 0.into();
        for i in 0..SLOTS {
            self.lk_mv.next = self.lk_mv.val().replace_bit(
                i,
                self.pend_vec.val().get_bit(i)
                    & (self.key_mr[i].q.val() == self.lk_mr1.q.val())
                    & (self.key_vpn[i].q.val() == self.lk_vpn1.q.val()),
            );
        }
        self.lk_match.d.next = self.lk_mv.val();
        self.lk_enc.vec.next = self.lk_match.q.val();
        self.lk_enc.high.next = false;
        self.lk_v3.d.next = self.lk_v2.q.val() & self.ready_r.q.val();
        self.lk_p3.d.next = self.lk_v2.q.val() & self.ready_r.q.val() & self.lk_enc.found.val();
        self.lk_s3.d.next = 0.into();
        if self.lk_v2.q.val() & self.ready_r.q.val() & self.lk_enc.found.val() {
            self.lk_s3.d.next = bit_cast::<8, SLOT_BITS>(self.lk_enc.idx.val());
        }
        self.lk_out_valid.next = self.lk_v3.q.val();
        self.lk_pending.next = self.lk_p3.q.val();
        self.lk_slot.next = self.lk_s3.q.val();

        // --- Fault / RESUME engine. ---
        self.m_enc.vec.next = self.f_match.q.val();
        self.m_enc.high.next = false;
        self.fr_enc.vec.next = self.f_free.q.val();
        self.fr_enc.high.next = false;
        self.sc_enc.vec.next = self.sc_stall.q.val() | self.sc_rnr.q.val();
        self.sc_enc.high.next = false;
        self.c_new.d.next = false;
        self.c_coal.d.next = false;
        self.c_ovf.d.next = false;
        self.c_wait.d.next = false;
        self.done_r.d.next = false;
        self.stale_r.d.next = false;
        self.sum_l.next =
            bit_cast::<65, 64>(self.f_va.q.val()) + bit_cast::<65, 32>(self.f_len.q.val());
        self.pg_l.next = bit_cast::<65, 52>(self.f_vpn.q.val()) << 12;
        self.pe_l.next = (bit_cast::<65, 52>(self.f_vpn.q.val()) + 1) << 12;
        if self.note_v.q.val() & self.m_note_ready.val() {
            self.note_v.d.next = false;
        }

        match self.fs.q.val() {
            FqState::Sweep => {
                self.w_stall.write_enable.next = true;
                self.w_rnr.write_enable.next = true;
                self.w_ovf.write_enable.next = true;
                self.w_stall.write_address.next = self.sweep.q.val();
                self.w_rnr.write_address.next = self.sweep.q.val();
                self.w_ovf.write_address.next = self.sweep.q.val().get_bits::<WORD_BITS>(0);
                self.sweep.d.next = self.sweep.q.val() + 1;
                if self.sweep.q.val().all() {
                    self.fs.d.next = FqState::Idle;
                    self.ready_r.d.next = true;
                    self.ovf_any.d.next = false;
                }
            }
            FqState::Idle => {
                if self.g_res.q.val() {
                    if self.s_res_valid.val() {
                        self.take_res.next = true;
                        self.fs.d.next = FqState::R1;
                    }
                } else if self.s_flt_valid.val() {
                    self.take_flt.next = true;
                    self.fs.d.next = FqState::F1;
                }
            }
            FqState::F1 => {
                self.f_qok.d.next = bit_cast::<25, 24>(self.f_qpn.q.val()) < self.qps_c.val();
                for i in 0..SLOTS {
                    self.f_mv.next = self.f_mv.val().replace_bit(
                        i,
                        self.pend_vec.val().get_bit(i)
                            & (self.key_mr[i].q.val() == self.f_mr.q.val())
                            & (self.key_vpn[i].q.val() == self.f_vpn.q.val()),
                    );
                }
                self.f_match.d.next = self.f_mv.val();
                self.f_free.d.next = self.free_vec.val();
                self.f_sum.d.next = self.sum_l.val();
                self.f_pg.d.next = self.pg_l.val();
                self.f_pe.d.next = self.pe_l.val();
                self.fs.d.next = FqState::F2;
            }
            FqState::F2 => {
                self.f_end.d.next = self.f_sum.q.val();
                if self.f_sum.q.val() > bit_cast::<65, 64>(self.f_hi.q.val()) {
                    self.f_end.d.next = bit_cast::<65, 64>(self.f_hi.q.val());
                }
                self.f_start.d.next = bit_cast::<65, 64>(self.f_va.q.val());
                if self.f_lo.q.val() > self.f_va.q.val() {
                    self.f_start.d.next = bit_cast::<65, 64>(self.f_lo.q.val());
                }
                self.f_new.d.next = false;
                self.f_coal.d.next = false;
                self.f_ovf.d.next = false;
                self.f_slot.d.next = 0.into();
                self.f_oh.d.next = 0.into();
                if self.m_enc.found.val() {
                    self.f_coal.d.next = true;
                    self.f_slot.d.next = bit_cast::<8, SLOT_BITS>(self.m_enc.idx.val());
                    self.f_oh.d.next = self.f_match.q.val() & (!self.f_m1.val());
                } else if self.fr_enc.found.val() {
                    self.f_new.d.next = true;
                    self.f_slot.d.next = bit_cast::<8, SLOT_BITS>(self.fr_enc.idx.val());
                    self.f_oh.d.next = self.f_free.q.val() & (!self.f_f1.val());
                } else {
                    self.f_ovf.d.next = true;
                }
                self.fs.d.next = FqState::F3;
            }
            FqState::F3 => {
                // The slot's generation, an AND-OR over the one-hot select
                // (an if-per-slot would be a 2^SLOT_BITS-deep mux chain).
                self.f_genl.next = 0.into();
                for i in 0..SLOTS {
                    if self.f_oh.q.val().get_bit(i) {
                        self.f_genl.next = self.f_genl.val() | self.gen[i].q.val();
                    }
                }
                self.f_gen.d.next = self.f_genl.val();
                // Reads the wait-list word (w_addr, from f_slot and f_qpn).
                self.f_aft.d.next = 0.into();
                if self.f_end.q.val() > self.f_pe.q.val() {
                    self.f_aft.d.next = self.f_end.q.val() - self.f_pe.q.val();
                }
                self.f_bef.d.next = 0.into();
                if self.f_pg.q.val() > self.f_start.q.val() {
                    self.f_bef.d.next = self.f_pg.q.val() - self.f_start.q.val();
                }
                self.fs.d.next = FqState::F4;
            }
            FqState::F4 => {
                self.w_new.d.next = self.f_new.q.val();
                self.f_rslot.d.next = self.f_slot.q.val().get_bits::<SLOT_BITS>(0);
                self.f_aft32.d.next = self.f_aft.q.val().get_bits::<32>(0);
                if self.f_aft.q.val().get_bits::<33>(32).any()
                    | (self.f_aft.q.val().get_bits::<32>(0) > self.f_cap.q.val())
                {
                    self.f_aft32.d.next = self.f_cap.q.val();
                }
                self.f_bef32.d.next = self.f_bef.q.val().get_bits::<32>(0);
                if self.f_bef.q.val().get_bits::<33>(32).any()
                    | (self.f_bef.q.val().get_bits::<32>(0) > self.f_cap.q.val())
                {
                    self.f_bef32.d.next = self.f_cap.q.val();
                }
                // The QP onto its wait list (f_wait: a local QP that was
                // not on it, counted with the fault's pulse).
                self.f_wait.d.next = false;
                self.w_stall.write_data.next = self.w_stall.read_data.val() | self.w_bit.val();
                self.w_rnr.write_data.next = self.w_rnr.read_data.val() | self.w_bit.val();
                self.w_ovf.write_data.next = self.w_ovf.read_data.val() | self.w_bit.val();
                if self.f_qok.q.val() {
                    if self.f_ovf.q.val() {
                        if self.f_op.q.val().get_bit(1) {
                            self.w_ovf.write_enable.next = true;
                            self.ovf_any.d.next = true;
                            self.f_wait.d.next =
                                (self.w_ovf.read_data.val() & self.w_bit.val()) == 0;
                        }
                    } else if self.f_op.q.val().get_bit(1) {
                        self.w_stall.write_enable.next = true;
                        self.f_wait.d.next = (self.w_stall.read_data.val() & self.w_bit.val()) == 0;
                    } else {
                        self.w_rnr.write_enable.next = true;
                    }
                }
                self.fs.d.next = FqState::F5;
            }
            FqState::F5 => {
                // The slot itself is written below, by w_new.
                self.rec.write_enable.next = self.w_new.q.val();
                if self.f_new.q.val() {
                    self.pend_cnt.d.next = self.pend_cnt.q.val() + 1;
                }
                self.c_new.d.next = self.f_new.q.val();
                self.c_coal.d.next = self.f_coal.q.val();
                self.c_ovf.d.next = self.f_ovf.q.val();
                self.c_wait.d.next = self.f_wait.q.val();
                self.fs.d.next = FqState::Idle;
            }
            FqState::R1 => {
                // Reads the slot's post time (post_t at r_tok's slot).
                // The token's slot one-hot, then an AND-OR of the slots'
                // checks (no mux chain).
                for i in 0..SLOTS {
                    self.r_ohl.next = self
                        .r_ohl
                        .val()
                        .replace_bit(i, self.r_tok.q.val().get_bits::<8>(0).index() == i);
                    self.r_ok_l.next = self.r_ok_l.val()
                        | (self.r_ohl.val().get_bit(i)
                            & (self.st[i].q.val() == SlotState::Posted)
                            & (self.gen[i].q.val() == self.r_tok.q.val().get_bits::<8>(8)));
                }
                self.r_oh.d.next = self.r_ohl.val();
                self.r_ok.d.next = self.r_ok_l.val()
                    & (bit_cast::<9, 8>(self.r_tok.q.val().get_bits::<8>(0)) < self.slots_c.val())
                    & (self.r_tok.q.val().get_bits::<16>(16) == 0);
                self.fs.d.next = FqState::R2;
            }
            FqState::R2 => {
                self.svc_r.d.next = self.r_now.q.val() - self.post_t.read_data.val();
                if self.r_ok.q.val() {
                    // The slot goes to DRAIN below, by r_ok.
                    self.done_r.d.next = true;
                    self.sc_oh.d.next = self.r_oh.q.val();
                    self.pend_cnt.d.next = self.pend_cnt.q.val() - 1;
                    self.sc_ovf.d.next = false;
                    self.sc_slot.d.next = self.r_tok.q.val().get_bits::<8>(0);
                    self.sc_word.d.next = 0.into();
                    self.sc_err.d.next = self.r_err.q.val();
                    self.fs.d.next = FqState::ScanRead;
                } else {
                    self.stale_r.d.next = true;
                    self.fs.d.next = FqState::Idle;
                }
            }
            FqState::ScanRead => {
                // Reads the word at w_addr (stall, rnr) / sc_word (overflow).
                self.fs.d.next = FqState::ScanLoad;
            }
            FqState::ScanLoad => {
                if self.sc_ovf.q.val() {
                    self.sc_stall.d.next = self.w_ovf.read_data.val();
                    self.sc_rnr.d.next = 0.into();
                    self.w_ovf.write_enable.next = true;
                } else {
                    self.sc_stall.d.next = self.w_stall.read_data.val();
                    self.sc_rnr.d.next = 0.into();
                    if self.sc_err.q.val() {
                        self.sc_rnr.d.next = self.w_rnr.read_data.val();
                    }
                    self.w_stall.write_enable.next = true;
                    self.w_rnr.write_enable.next = true;
                }
                self.fs.d.next = FqState::ScanEmit;
            }
            FqState::ScanEmit => {
                // The lowest QP of the word: its one-hot bit from a carry
                // chain (x & !(x - 1)), its index from the LowestSet tree.
                self.sc_any.next = self.sc_stall.q.val() | self.sc_rnr.q.val();
                self.sc_m1.next = self.sc_any.val() - 1;
                self.sc_low.next = self.sc_any.val() & (!self.sc_m1.val());
                if self.sc_any.val().any() {
                    self.note_v.d.next = true;
                    self.note_qpn.d.next = (bit_cast::<24, WORD_BITS>(self.sc_word.q.val()) << 5)
                        | bit_cast::<24, 5>(self.sc_enc.idx.val());
                    self.note_wake.d.next = (self.sc_stall.q.val() & self.sc_low.val()).any();
                    self.note_err.d.next = self.sc_err.q.val() & !self.sc_ovf.q.val();
                    self.sc_stall.d.next = self.sc_stall.q.val() & (!self.sc_low.val());
                    self.sc_rnr.d.next = self.sc_rnr.q.val() & (!self.sc_low.val());
                    self.fs.d.next = FqState::ScanNote;
                } else if self.sc_word.q.val() == self.last_word.val() {
                    if self.sc_ovf.q.val() {
                        self.fs.d.next = FqState::Idle;
                    } else {
                        self.w_free.d.next = true;
                        self.fs.d.next = FqState::ScanFree;
                    }
                } else {
                    self.sc_word.d.next = self.sc_word.q.val() + 1;
                    self.fs.d.next = FqState::ScanRead;
                }
            }
            FqState::ScanNote => {
                if self.m_note_ready.val() {
                    self.fs.d.next = FqState::ScanEmit;
                }
            }
            FqState::ScanFree => {
                // The slot is freed below, by w_free.
                if self.ovf_any.q.val() {
                    self.ovf_any.d.next = false;
                    self.sc_ovf.d.next = true;
                    self.sc_word.d.next = 0.into();
                    self.fs.d.next = FqState::ScanRead;
                } else {
                    self.fs.d.next = FqState::Idle;
                }
            }
        }
        // Slot writes, each from a strobe register that is high for exactly
        // the one clock of its state (no state decode in front of the 2^k
        // slot registers).
        // Re-announce: only while the engine is idle and takes no RESUME, so
        // that no RESUME check (R1 to R2) sees a slot change under it; the
        // emitter's take (below) and the engine's writes come after it.
        self.rp.next = self.repost.val()
            & (self.fs.q.val() == FqState::Idle)
            & (!self.take_res.val())
            & (!self.rst.val());
        for i in 0..SLOTS {
            if self.rp.val() & (self.st[i].q.val() == SlotState::Posted) {
                self.st[i].d.next = SlotState::New;
            }
            if self.w_new.q.val() & self.f_oh.q.val().get_bit(i) {
                self.st[i].d.next = SlotState::New;
                self.key_mr[i].d.next = self.f_mr.q.val();
                self.key_vpn[i].d.next = self.f_vpn.q.val();
            }
            if self.r_ok.q.val() & self.r_oh.q.val().get_bit(i) {
                self.st[i].d.next = SlotState::Drain;
            }
            if self.w_free.q.val() & self.sc_oh.q.val().get_bit(i) {
                self.st[i].d.next = SlotState::Free;
                self.gen[i].d.next = self.gen[i].q.val() + 1;
            }
        }
        if self.take_flt.val() {
            self.f_mr.d.next = self.s_flt_mr.val();
            self.f_vpn.d.next = self.s_flt_vpn.val();
            self.f_qpn.d.next = self.s_flt_qpn.val();
            self.f_op.d.next = self.s_flt_op.val();
            self.f_va.d.next = self.s_flt_va.val();
            self.f_len.d.next = self.s_flt_msg_len.val();
            self.f_lo.d.next = self.s_flt_mr_lo.val();
            self.f_hi.d.next = self.s_flt_mr_hi.val();
            self.f_cap.d.next = self.hint_cap.val();
        }
        if self.take_res.val() {
            self.r_tok.d.next = self.s_res_token.val();
            self.r_err.d.next = self.s_res_err.val();
            self.r_now.d.next = self.now.q.val();
        }
        // A RESUME seen waiting goes before any fault: from the clock after
        // its valid is seen, the fault port is closed until it is taken.
        self.g_res.d.next = self.s_res_valid.val() & !self.take_res.val();
        self.s_flt_ready.next =
            (self.fs.q.val() == FqState::Idle) & (!self.g_res.q.val()) & (!self.rst.val());
        self.s_res_ready.next =
            (self.fs.q.val() == FqState::Idle) & self.g_res.q.val() & (!self.rst.val());

        // --- Record emitter: the lowest NEW slot, one record at a time. ---
        self.em_enc.vec.next = self.new_vec.val();
        self.em_enc.high.next = false;
        match self.em.q.val() {
            EmState::Pick => {
                if self.em_enc.found.val() {
                    self.em_slot.d.next = bit_cast::<8, SLOT_BITS>(self.em_enc.idx.val());
                    self.em_oh.d.next = self.new_vec.val() & (!self.em_m1.val());
                    self.em.d.next = EmState::Read;
                }
            }
            EmState::Read => {
                self.em.d.next = EmState::Out;
            }
            EmState::Out => {
                if self.m_ev_ready.val() {
                    self.em_take.next = true;
                    self.em.d.next = EmState::Pick;
                }
            }
        }
        if self.em_take.val() {
            self.post_t.write_enable.next = true;
            for i in 0..SLOTS {
                if self.em_oh.q.val().get_bit(i) {
                    self.st[i].d.next = SlotState::Posted;
                }
            }
        }
        self.m_ev_valid.next = self.em.q.val() == EmState::Out;
        // The page-fault record of `docs/events.md`: the shifts are
        // `fault::EVENT_W0_CODE_SHIFT` (8), `EVENT_W0_MR_SHIFT` (16) and
        // `EVENT_W0_TOKEN_SHIFT` (32, the token's generation at 32 + 8).
        // rust-hdl writes a constant's name into the Verilog, so they are
        // literals here; the bench checks every word against the model's
        // `Record::page_fault`, which is built from those constants.
        self.m_ev_w0.next = self.kind_pf.val()
            | (bit_cast::<64, 2>(self.rd.val().op) << 8)
            | (bit_cast::<64, 8>(self.rd.val().mr) << 16)
            | (bit_cast::<64, 8>(self.em_slot.q.val()) << 32)
            | (bit_cast::<64, 8>(self.rd.val().gen) << 40);
        self.m_ev_w1.next = bit_cast::<64, 52>(self.rd.val().vpn) << 12;
        self.m_ev_w2.next = bit_cast::<64, 32>(self.rd.val().before)
            | (bit_cast::<64, 32>(self.rd.val().after) << 32);
        self.m_ev_w3.next = bit_cast::<63, 24>(self.rd.val().qpn);

        self.rec.write_data.next = self.wrec.val();

        // --- Outputs. ---
        self.ready.next = self.ready_r.q.val();
        self.m_note_valid.next = self.note_v.q.val();
        self.m_note_qpn.next = self.note_qpn.q.val();
        self.m_note_wake.next = self.note_wake.q.val();
        self.m_note_err.next = self.note_err.q.val();
        self.res_done.next = self.done_r.q.val();
        self.res_stale.next = self.stale_r.q.val();
        self.svc_valid.next = self.done_r.q.val();
        self.svc_clocks.next = self.svc_r.q.val();
        self.pending.next = self.pend_cnt.q.val();
        self.cnt_new.next = self.c_new.q.val();
        self.cnt_coalesced.next = self.c_coal.q.val();
        self.cnt_overflow.next = self.c_ovf.q.val();
        self.cnt_waiting.next = self.c_wait.q.val();
        self.reposting.next = self.rp.val();

        // --- Reset: every slot empty (generation + 1), the sweep again. ---
        if self.rst.val() {
            for i in 0..SLOTS {
                self.st[i].d.next = SlotState::Free;
                self.gen[i].d.next = self.gen[i].q.val() + 1;
            }
            self.fs.d.next = FqState::Sweep;
            self.ready_r.d.next = false;
            self.sweep.d.next = 0.into();
            self.pend_cnt.d.next = 0.into();
            self.note_v.d.next = false;
            self.em.d.next = EmState::Pick;
            self.lk_v2.d.next = false;
            self.lk_v3.d.next = false;
            self.c_new.d.next = false;
            self.c_coal.d.next = false;
            self.c_ovf.d.next = false;
            self.c_wait.d.next = false;
            self.done_r.d.next = false;
            self.stale_r.d.next = false;
            self.r_ok.d.next = false;
            self.w_new.d.next = false;
            self.w_free.d.next = false;
            self.rec.write_enable.next = false;
            self.post_t.write_enable.next = false;
        }
    }
}
