//! Per-QP RC responder state beside the translator's pipeline: the RNR
//! discipline of SPEC section 5.5 applied inside the translator's decision
//! (no clock added to an answer), and the RC Acknowledge headers of the
//! NAKs the answers call for.
#![doc = include_str!("../../docs/responder.md")]

use crate::common::fifo::SmallFifo;
use crate::common::interfaces::NakOut;
use crate::spec::aeth;
use rust_hdl::prelude::*;

/// Smallest legal `QP_BITS`.
pub const MIN_QP_BITS: usize = 2;
/// Largest legal `QP_BITS` (4096 QPs, 8 DP16KD).
pub const MAX_QP_BITS: usize = 12;
/// Entries of the NAK FIFO.
pub const NAK_FIFO_DEPTH: usize = 16;
/// `room` is high while the NAK FIFO holds at most this many NAKs: then it
/// has room for a NAK of every lookup that can be in flight behind it (c0
/// to c6: seven) and for the one pushed while `room` is being registered.
pub const ROOM_LIMIT: u64 = (NAK_FIFO_DEPTH - 8) as u64;
/// Clocks from the decision (c5) that answers a remote op with a NAK to the
/// first clock its NAK can be valid on `m_nak`: the commit register (c6),
/// then the FIFO.
pub const NAK_LATENCY_CLOCKS: u64 = 2;

/// Bits of a packed NAK FIFO word: local QPN, DestQP, PSN, MSN, syndrome,
/// P_Key.
const NAK_BITS: usize = 120;

/// Responder state for 2^`QP_BITS` QPs. See the module page
/// (`docs/responder.md`) for the ports' timing against the translator's
/// pipeline, the rules and the forwarding.
///
/// # Per-QP state (block RAM, 32 bits)
///
/// `[23:0]` expected PSN, `[24]` waiting, `[25]` error, `[26]` timer
/// override valid, `[31:27]` timer override code.
#[derive(LogicBlock)]
pub struct QpResponder<const QP_BITS: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous active-high reset: drops everything in flight, empties
    /// the NAK FIFO and starts the sweep that clears every QP's state.
    pub rst: Signal<In, Bit>,
    /// High once the sweep after reset or power-up is done (2^`QP_BITS`
    /// clocks).
    pub ready: Signal<Out, Bit>,
    /// P_Key of every NAK (CSR register), sampled at the decision (c5).
    pub pkey: Signal<In, Bits<16>>,
    /// RNR timer code of a QP without an override (the RNR timer block's
    /// `code`), sampled at the decision.
    pub rnr_timer: Signal<In, Bits<5>>,

    /// c2: a lookup is at the translator's c2 (it decides three clocks
    /// later).
    pub lk_valid: Signal<In, Bit>,
    /// c2: its local QPN (24 bits; one beyond the table has no state).
    pub lk_qpn: Signal<In, Bits<24>>,
    /// c2: its PSN.
    pub lk_psn: Signal<In, Bits<24>>,
    /// c2: it is a remote op (op bit 1 clear).
    pub lk_remote: Signal<In, Bit>,

    /// c5: the QP of the lookup deciding now is in error: answer FATAL
    /// (any op). From registers and one index compare.
    pub ov_fatal: Signal<Out, Bit>,
    /// c5: the lookup deciding now is a remote op of a QP that waits for
    /// another PSN: answer DROP. Never high with `ov_fatal`.
    pub ov_drop: Signal<Out, Bit>,

    /// c5: the decision answers the lookup at c5 (its last half).
    pub cm_valid: Signal<In, Bit>,
    /// c5: the answer's status, overrides applied.
    pub cm_status: Signal<In, Bits<3>>,
    /// c5: the request's remote QPN (DestQP of a NAK).
    pub cm_rqpn: Signal<In, Bits<24>>,
    /// c5: the request's MSN (MSN of a NAK).
    pub cm_msn: Signal<In, Bits<24>>,
    /// c5: the RNR answer is for a suspended MR (counted apart).
    pub cm_susp: Signal<In, Bit>,
    /// c5: the RNR answer's NAK has already gone out through the early
    /// port (`en_*`): the state is updated as for any RNR answer, but no
    /// second NAK is queued.
    pub cm_nak_sent: Signal<In, Bit>,
    /// c5: the QP of the lookup deciding now has its own RNR timer code
    /// (SET_TIMER), `ov_tmr_code`. The translator keeps both with a
    /// parked request for its early NAK.
    pub ov_tmr_valid: Signal<Out, Bit>,
    /// c5: that code.
    pub ov_tmr_code: Signal<Out, Bits<5>>,

    /// Early RNR NAK (`en_*`), for a request whose walk has just found its
    /// page missing, before the request is answered: queued at once when
    /// `en_ready`, with the syndrome 0x20 | (`en_tmr_code` if
    /// `en_tmr_valid`, else `rnr_timer`). Nothing else changes: the
    /// request's RNR answer (with `cm_nak_sent`) updates the QP's state
    /// later. Offered for one clock; one not taken is not queued.
    pub en_valid: Signal<In, Bit>,
    /// Early NAK: local QPN.
    pub en_qpn: Signal<In, Bits<24>>,
    /// Early NAK: remote QPN (DestQP).
    pub en_rqpn: Signal<In, Bits<24>>,
    /// Early NAK: PSN.
    pub en_psn: Signal<In, Bits<24>>,
    /// Early NAK: MSN.
    pub en_msn: Signal<In, Bits<24>>,
    /// Early NAK: the QP's own timer code is valid (`ov_tmr_valid` when
    /// the request parked).
    pub en_tmr_valid: Signal<In, Bit>,
    /// Early NAK: that code.
    pub en_tmr_code: Signal<In, Bits<5>>,
    /// An early NAK is taken: the NAK FIFO is empty and nothing is being
    /// pushed into it (so the early NAK follows every NAK queued before and
    /// reorders none), no QP command is held or on its way through c3 to
    /// c5, and the sweep is done. From registers.
    pub en_ready: Signal<Out, Bit>,
    /// A QP command is held or on its way through c3 to c5 (from
    /// registers): the QP state a parked request was judged on may be
    /// changing, so the translator forgets which of its parked requests
    /// may get an early NAK.
    pub cmd_busy: Signal<Out, Bit>,

    /// The translator must not issue a lookup: the sweep runs, a command
    /// waits for a slot, or the NAK FIFO lacks room for every lookup that
    /// could be in flight. From registers.
    pub hold: Signal<Out, Bit>,

    /// NAKs (`m_nak_*`): the local QP and the BTH + AETH header.
    pub m_nak: NakOut,

    /// QP command valid.
    pub s_qpcmd_valid: Signal<In, Bit>,
    /// QP command taken (from registers and `rst`).
    pub s_qpcmd_ready: Signal<Out, Bit>,
    /// Kind ([`crate::spec::qp_cmd`]).
    pub s_qpcmd_kind: Signal<In, Bits<2>>,
    /// QP number (24 bits); one at or beyond 2^`QP_BITS` is refused.
    pub s_qpcmd_qpn: Signal<In, Bits<24>>,
    /// Timer code of SET_TIMER.
    pub s_qpcmd_timer: Signal<In, Bits<5>>,
    /// One clock, the clock after a command was taken: it named a QP beyond
    /// the table and will change nothing.
    pub qpcmd_refused: Signal<Out, Bit>,

    /// One clock per RNR NAK of a missing page queued.
    pub nak_rnr: Signal<Out, Bit>,
    /// One clock per RNR NAK of a suspended MR queued.
    pub nak_rnr_susp: Signal<Out, Bit>,
    /// One clock per error NAK (0x62 or 0x63) queued.
    pub nak_err: Signal<Out, Bit>,
    /// One clock per answer DROP.
    pub drop: Signal<Out, Bit>,
    /// The NAK FIFO refused a push (never, by `hold`; a monitor).
    pub mon_overflow: Signal<Out, Bit>,

    // --- storage and reset sweep ---
    qp_state: RAM<Bits<32>, QP_BITS>,
    ready_r: DFF<Bit>,
    sweep: DFF<Bits<QP_BITS>>,
    room: DFF<Bit>,
    // --- command holding register ---
    cmd_held: DFF<Bit>,
    cmd_kind: DFF<Bits<2>>,
    cmd_qpn: DFF<Bits<24>>,
    cmd_timer: DFF<Bits<5>>,
    cmd_refused: DFF<Bit>,
    // --- constants ---
    qpn_hi_mask: Constant<Bits<24>>,
    bth_opcode: Constant<Bits<128>>,
    synd_rnr: Constant<Bits<8>>,
    synd_access: Constant<Bits<8>>,
    synd_operr: Constant<Bits<8>>,
    // --- c2: the slot (a lookup, or the held command in a bubble) ---
    inject: Signal<Local, Bit>,
    slot_qpn: Signal<Local, Bits<24>>,
    // --- c3: the RAM word on the RAM's output, registered as it is ---
    v3: DFF<Bit>,
    cmd3: DFF<Bit>,
    inr3: DFF<Bit>,
    idx3: DFF<Bits<QP_BITS>>,
    psn3: DFF<Bits<24>>,
    qpn3: DFF<Bits<24>>,
    rem3: DFF<Bit>,
    kind3: DFF<Bits<2>>,
    tmr3: DFF<Bits<5>>,
    // --- c4: the registered RAM word, and the writes it missed ---
    ram4: DFF<Bits<32>>,
    f4_hit: DFF<Bit>,
    f4_st: DFF<Bits<32>>,
    v4: DFF<Bit>,
    cmd4: DFF<Bit>,
    inr4: DFF<Bit>,
    idx4: DFF<Bits<QP_BITS>>,
    psn4: DFF<Bits<24>>,
    qpn4: DFF<Bits<24>>,
    rem4: DFF<Bit>,
    kind4: DFF<Bits<2>>,
    tmr4: DFF<Bits<5>>,
    st4: Signal<Local, Bits<32>>,
    eq4: Signal<Local, Bit>,
    // --- c5: the state before the commit now in c6 ---
    v5: DFF<Bit>,
    cmd5: DFF<Bit>,
    inr5: DFF<Bit>,
    idx5: DFF<Bits<QP_BITS>>,
    psn5: DFF<Bits<24>>,
    qpn5: DFF<Bits<24>>,
    rem5: DFF<Bit>,
    kind5: DFF<Bits<2>>,
    tmr5: DFF<Bits<5>>,
    st5: DFF<Bits<32>>,
    eq_st5: DFF<Bit>,
    eq_prev5: DFF<Bit>,
    m6: Signal<Local, Bit>,
    st: Signal<Local, Bits<32>>,
    eq: Signal<Local, Bit>,
    s_wait: Signal<Local, Bit>,
    s_err: Signal<Local, Bit>,
    code: Signal<Local, Bits<5>>,
    n_psn: Signal<Local, Bits<24>>,
    n_wait: Signal<Local, Bits<1>>,
    n_err: Signal<Local, Bits<1>>,
    n_tv: Signal<Local, Bits<1>>,
    n_tc: Signal<Local, Bits<5>>,
    nak: Signal<Local, Bit>,
    synd: Signal<Local, Bits<8>>,
    // --- c6: the commit (state write and NAK push) ---
    c6_wr: DFF<Bit>,
    c6_idx: DFF<Bits<QP_BITS>>,
    c6_new: DFF<Bits<32>>,
    c6_setp: DFF<Bit>,
    c6_nak: DFF<Bit>,
    c6_word: DFF<Bits<NAK_BITS>>,
    c6_rnr: DFF<Bit>,
    c6_susp: DFF<Bit>,
    c6_err: DFF<Bit>,
    c6_drop: DFF<Bit>,
    // --- the write of the clock before (not in a read made at its edge) ---
    lw_v: DFF<Bit>,
    lw_idx: DFF<Bits<QP_BITS>>,
    lw_st: DFF<Bits<32>>,
    nak_fifo: SmallFifo<Bits<NAK_BITS>, NAK_FIFO_DEPTH, 4, 5>,
    nak_word: Signal<Local, Bits<NAK_BITS>>,
    // --- early NAKs ---
    en_fire: Signal<Local, Bit>,
    en_code: Signal<Local, Bits<5>>,
    en_word: Signal<Local, Bits<NAK_BITS>>,
}

impl<const QP_BITS: usize> QpResponder<QP_BITS> {
    /// Number of QPs with state, 2^`QP_BITS`.
    pub const QPS: usize = 1 << QP_BITS;

    /// A responder whose every QP is clear once its power-up sweep is done.
    /// Panics unless `2 <= QP_BITS <= 12`.
    pub fn new() -> Self {
        assert!(
            (MIN_QP_BITS..=MAX_QP_BITS).contains(&QP_BITS),
            "QpResponder: QP_BITS must be in {MIN_QP_BITS}..={MAX_QP_BITS}, got {QP_BITS}"
        );
        let hi = 0xff_ffff & !((1u64 << QP_BITS) - 1);
        Self {
            clock: Default::default(),
            rst: Default::default(),
            ready: Default::default(),
            pkey: Default::default(),
            rnr_timer: Default::default(),
            lk_valid: Default::default(),
            lk_qpn: Default::default(),
            lk_psn: Default::default(),
            lk_remote: Default::default(),
            ov_fatal: Default::default(),
            ov_drop: Default::default(),
            cm_valid: Default::default(),
            cm_status: Default::default(),
            cm_rqpn: Default::default(),
            cm_msn: Default::default(),
            cm_susp: Default::default(),
            cm_nak_sent: Default::default(),
            ov_tmr_valid: Default::default(),
            ov_tmr_code: Default::default(),
            en_valid: Default::default(),
            en_qpn: Default::default(),
            en_rqpn: Default::default(),
            en_psn: Default::default(),
            en_msn: Default::default(),
            en_tmr_valid: Default::default(),
            en_tmr_code: Default::default(),
            en_ready: Default::default(),
            cmd_busy: Default::default(),
            hold: Default::default(),
            m_nak: Default::default(),
            s_qpcmd_valid: Default::default(),
            s_qpcmd_ready: Default::default(),
            s_qpcmd_kind: Default::default(),
            s_qpcmd_qpn: Default::default(),
            s_qpcmd_timer: Default::default(),
            qpcmd_refused: Default::default(),
            nak_rnr: Default::default(),
            nak_rnr_susp: Default::default(),
            nak_err: Default::default(),
            drop: Default::default(),
            mon_overflow: Default::default(),
            qp_state: Default::default(),
            ready_r: Default::default(),
            sweep: Default::default(),
            room: Default::default(),
            cmd_held: Default::default(),
            cmd_kind: Default::default(),
            cmd_qpn: Default::default(),
            cmd_timer: Default::default(),
            cmd_refused: Default::default(),
            qpn_hi_mask: Constant::new(hi.into()),
            bth_opcode: Constant::new((0..8).fold(Bits::<128>::default(), |w, k| {
                w.replace_bit(120 + k, (aeth::BTH_OPCODE_RC_ACK >> k) & 1 == 1)
            })),
            synd_rnr: Constant::new(aeth::RNR_NAK.into()),
            synd_access: Constant::new(aeth::REMOTE_ACCESS_ERR.into()),
            synd_operr: Constant::new(aeth::REMOTE_OP_ERR.into()),
            inject: Default::default(),
            slot_qpn: Default::default(),
            v3: Default::default(),
            cmd3: Default::default(),
            inr3: Default::default(),
            idx3: Default::default(),
            psn3: Default::default(),
            qpn3: Default::default(),
            rem3: Default::default(),
            kind3: Default::default(),
            tmr3: Default::default(),
            ram4: Default::default(),
            f4_hit: Default::default(),
            f4_st: Default::default(),
            v4: Default::default(),
            cmd4: Default::default(),
            inr4: Default::default(),
            idx4: Default::default(),
            psn4: Default::default(),
            qpn4: Default::default(),
            rem4: Default::default(),
            kind4: Default::default(),
            tmr4: Default::default(),
            st4: Default::default(),
            eq4: Default::default(),
            v5: Default::default(),
            cmd5: Default::default(),
            inr5: Default::default(),
            idx5: Default::default(),
            psn5: Default::default(),
            qpn5: Default::default(),
            rem5: Default::default(),
            kind5: Default::default(),
            tmr5: Default::default(),
            st5: Default::default(),
            eq_st5: Default::default(),
            eq_prev5: Default::default(),
            m6: Default::default(),
            st: Default::default(),
            eq: Default::default(),
            s_wait: Default::default(),
            s_err: Default::default(),
            code: Default::default(),
            n_psn: Default::default(),
            n_wait: Default::default(),
            n_err: Default::default(),
            n_tv: Default::default(),
            n_tc: Default::default(),
            nak: Default::default(),
            synd: Default::default(),
            c6_wr: Default::default(),
            c6_idx: Default::default(),
            c6_new: Default::default(),
            c6_setp: Default::default(),
            c6_nak: Default::default(),
            c6_word: Default::default(),
            c6_rnr: Default::default(),
            c6_susp: Default::default(),
            c6_err: Default::default(),
            c6_drop: Default::default(),
            lw_v: Default::default(),
            lw_idx: Default::default(),
            lw_st: Default::default(),
            nak_fifo: Default::default(),
            nak_word: Default::default(),
            en_fire: Default::default(),
            en_code: Default::default(),
            en_word: Default::default(),
        }
    }
}

impl<const QP_BITS: usize> Default for QpResponder<QP_BITS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const QP_BITS: usize> Logic for QpResponder<QP_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            ready_r,
            sweep,
            room,
            cmd_held,
            cmd_kind,
            cmd_qpn,
            cmd_timer,
            cmd_refused,
            v3,
            cmd3,
            inr3,
            idx3,
            psn3,
            qpn3,
            rem3,
            kind3,
            tmr3,
            ram4,
            f4_hit,
            f4_st,
            v4,
            cmd4,
            inr4,
            idx4,
            psn4,
            qpn4,
            rem4,
            kind4,
            tmr4,
            v5,
            cmd5,
            inr5,
            idx5,
            psn5,
            qpn5,
            rem5,
            kind5,
            tmr5,
            st5,
            eq_st5,
            eq_prev5,
            c6_wr,
            c6_idx,
            c6_new,
            c6_setp,
            c6_nak,
            c6_word,
            c6_rnr,
            c6_susp,
            c6_err,
            c6_drop,
            lw_v,
            lw_idx,
            lw_st
        );
        self.qp_state.read_clock.next = self.clock.val();
        self.qp_state.write_clock.next = self.clock.val();
        self.nak_fifo.clock.next = self.clock.val();
        self.nak_fifo.rst.next = self.rst.val();

        // ---- Reset sweep: after rst (or power-up) clear one QP per clock,
        // then raise ready. The sweep owns the RAM's write port.
        if !self.ready_r.q.val() {
            self.sweep.d.next = self.sweep.q.val() + 1;
            if self.sweep.q.val().all() {
                self.ready_r.d.next = true;
            }
        }
        if self.rst.val() {
            self.ready_r.d.next = false;
            self.sweep.d.next = 0.into();
        }
        self.ready.next = self.ready_r.q.val();
        self.room.d.next = self.nak_fifo.count.val() <= 8; // = ROOM_LIMIT
        self.hold.next = (!self.ready_r.q.val()) | self.cmd_held.q.val() | (!self.room.q.val());

        // ---- Commands: held until a clock without a lookup at c2 (`hold`
        // stops the translator's issue, so one comes within two clocks),
        // then they go down c3 to c6 as a lookup does.
        self.s_qpcmd_ready.next =
            self.ready_r.q.val() & (!self.cmd_held.q.val()) & (!self.rst.val());
        self.inject.next = self.cmd_held.q.val() & (!self.lk_valid.val());
        if self.s_qpcmd_valid.val() & self.s_qpcmd_ready.val() {
            self.cmd_held.d.next = true;
            self.cmd_kind.d.next = self.s_qpcmd_kind.val();
            self.cmd_qpn.d.next = self.s_qpcmd_qpn.val();
            self.cmd_timer.d.next = self.s_qpcmd_timer.val();
        }
        if self.inject.val() | self.rst.val() {
            self.cmd_held.d.next = false;
        }
        self.cmd_refused.d.next = self.s_qpcmd_valid.val()
            & self.s_qpcmd_ready.val()
            & ((self.s_qpcmd_qpn.val() & self.qpn_hi_mask.val()) != 0);
        self.qpcmd_refused.next = self.cmd_refused.q.val();

        // ---- c2: address the state RAM.
        self.slot_qpn.next = self.lk_qpn.val();
        if self.inject.val() {
            self.slot_qpn.next = self.cmd_qpn.q.val();
        }
        self.qp_state.read_address.next = self.slot_qpn.val().get_bits::<QP_BITS>(0);
        self.v3.d.next = (self.lk_valid.val() | self.inject.val()) & (!self.rst.val());
        self.cmd3.d.next = self.inject.val();
        self.inr3.d.next = (self.slot_qpn.val() & self.qpn_hi_mask.val()) == 0;
        self.idx3.d.next = self.slot_qpn.val().get_bits::<QP_BITS>(0);
        self.psn3.d.next = self.lk_psn.val();
        self.qpn3.d.next = self.slot_qpn.val();
        self.rem3.d.next = self.lk_remote.val() & (!self.inject.val());
        self.kind3.d.next = self.cmd_kind.q.val();
        self.tmr3.d.next = self.cmd_timer.q.val();

        // ---- c3: the RAM word is registered as it leaves the RAM (the
        // block RAM's clock-to-output meets a flip-flop, no logic). Beside
        // it, the writes its read (at the edge ending c2) cannot have
        // seen, from registers: the one written at that edge (lw_*) and
        // the one written at the edge ending this clock (c6_*), the
        // younger first. The one written at the edge ending c4 is
        // forwarded at c4.
        self.ram4.d.next = self.qp_state.read_data.val();
        self.f4_hit.d.next = false;
        self.f4_st.d.next = self.lw_st.q.val();
        if self.lw_v.q.val() & (self.lw_idx.q.val() == self.idx3.q.val()) {
            self.f4_hit.d.next = true;
        }
        if self.c6_wr.q.val() & (self.c6_idx.q.val() == self.idx3.q.val()) {
            self.f4_hit.d.next = true;
            self.f4_st.d.next = self.c6_new.q.val();
        }
        self.v4.d.next = self.v3.q.val() & (!self.rst.val());
        self.cmd4.d.next = self.cmd3.q.val();
        self.inr4.d.next = self.inr3.q.val();
        self.idx4.d.next = self.idx3.q.val();
        self.psn4.d.next = self.psn3.q.val();
        self.qpn4.d.next = self.qpn3.q.val();
        self.rem4.d.next = self.rem3.q.val();
        self.kind4.d.next = self.kind3.q.val();
        self.tmr4.d.next = self.tmr3.q.val();

        // ---- c4: the state word: the commit of this clock (c6_*, written
        // at the edge ending it) over the writes forwarded at c3 over the
        // registered RAM word. The PSN compare runs on each of the three
        // words side by side, and the forwarding hits select among the
        // results.
        self.st4.next = self.ram4.q.val();
        self.eq4.next = self.ram4.q.val().get_bits::<24>(0) == self.psn4.q.val();
        if self.f4_hit.q.val() {
            self.st4.next = self.f4_st.q.val();
            self.eq4.next = self.f4_st.q.val().get_bits::<24>(0) == self.psn4.q.val();
        }
        if self.c6_wr.q.val() & (self.c6_idx.q.val() == self.idx4.q.val()) {
            self.st4.next = self.c6_new.q.val();
            self.eq4.next = self.c6_new.q.val().get_bits::<24>(0) == self.psn4.q.val();
        }
        self.v5.d.next = self.v4.q.val() & (!self.rst.val());
        self.cmd5.d.next = self.cmd4.q.val();
        self.inr5.d.next = self.inr4.q.val();
        self.idx5.d.next = self.idx4.q.val();
        self.psn5.d.next = self.psn4.q.val();
        self.qpn5.d.next = self.qpn4.q.val();
        self.rem5.d.next = self.rem4.q.val();
        self.kind5.d.next = self.kind4.q.val();
        self.tmr5.d.next = self.tmr4.q.val();
        self.st5.d.next = self.st4.val();
        // The PSN compares for c5, made here: against the state word, and
        // against the PSN of the slot now at c5, which is the one a write
        // setting the PSN in c6 will come from.
        self.eq_st5.d.next = self.eq4.val();
        self.eq_prev5.d.next = self.psn4.q.val() == self.psn5.q.val();

        // ---- c5: the state after the commit now in c6 (the decision of
        // the clock before), then the overrides.
        self.m6.next = self.c6_wr.q.val() & (self.c6_idx.q.val() == self.idx5.q.val());
        self.st.next = self.st5.q.val();
        self.eq.next = self.eq_st5.q.val();
        if self.m6.val() {
            self.st.next = self.c6_new.q.val();
            if self.c6_setp.q.val() {
                self.eq.next = self.eq_prev5.q.val();
            }
        }
        // A QPN beyond the table has no state: it is treated as a clear QP.
        if !self.inr5.q.val() {
            self.st.next = 0.into();
        }
        self.s_wait.next = self.st.val().get_bit(24);
        self.s_err.next = self.st.val().get_bit(25);
        self.ov_fatal.next = self.v5.q.val() & (!self.cmd5.q.val()) & self.s_err.val();
        self.ov_drop.next = self.v5.q.val()
            & (!self.cmd5.q.val())
            & self.rem5.q.val()
            & (!self.s_err.val())
            & self.s_wait.val()
            & (!self.eq.val());
        self.code.next = self.rnr_timer.val();
        if self.st.val().get_bit(26) {
            self.code.next = self.st.val().get_bits::<5>(27);
        }
        self.ov_tmr_valid.next = self.st.val().get_bit(26);
        self.ov_tmr_code.next = self.st.val().get_bits::<5>(27);

        // The new state word.
        self.n_psn.next = self.st.val().get_bits::<24>(0);
        self.n_wait.next = self.st.val().get_bits::<1>(24);
        self.n_err.next = self.st.val().get_bits::<1>(25);
        self.n_tv.next = self.st.val().get_bits::<1>(26);
        self.n_tc.next = self.st.val().get_bits::<5>(27);
        self.nak.next = false;
        self.synd.next = self.synd_operr.val();
        self.c6_setp.d.next = false;
        self.c6_rnr.d.next = false;
        self.c6_susp.d.next = false;
        self.c6_err.d.next = false;
        self.c6_drop.d.next = false;
        self.c6_wr.d.next = false;
        if self.v5.q.val() & self.cmd5.q.val() {
            self.c6_wr.d.next = self.inr5.q.val();
            if self.kind5.q.val() == 0 {
                // = qp_cmd::RESET
                self.n_psn.next = 0.into();
                self.n_wait.next = 0.into();
                self.n_err.next = 0.into();
                self.n_tv.next = 0.into();
                self.n_tc.next = 0.into();
            } else if self.kind5.q.val() == 1 {
                // = qp_cmd::SET_ERROR
                self.n_err.next = 1.into();
            } else if self.kind5.q.val() == 2 {
                // = qp_cmd::SET_TIMER
                self.n_tv.next = 1.into();
                self.n_tc.next = self.tmr5.q.val();
            } else {
                // qp_cmd::CLEAR_TIMER
                self.n_tv.next = 0.into();
                self.n_tc.next = 0.into();
            }
        } else if self.v5.q.val() & self.cm_valid.val() & self.rem5.q.val() {
            // A remote op answered (its status already overridden).
            self.c6_wr.d.next = self.inr5.q.val();
            if self.cm_status.val() == 1 {
                // = status::RNR: a NAK (unless it went out early), and
                // the QP waits for this PSN.
                self.nak.next = !self.cm_nak_sent.val();
                self.synd.next = self.synd_rnr.val() | bit_cast::<8, 5>(self.code.val());
                self.n_wait.next = 1.into();
                self.n_psn.next = self.psn5.q.val();
                self.c6_setp.d.next = true;
                self.c6_rnr.d.next = !self.cm_susp.val();
                self.c6_susp.d.next = self.cm_susp.val();
            } else if self.cm_status.val() == 3 {
                // = status::DROP: the QP keeps waiting.
                self.c6_drop.d.next = true;
            } else {
                // OK, ACCESS_ERR, FATAL: a retransmission of the
                // waited-for PSN (or any answer of a QP not waiting) ends
                // the wait.
                self.n_wait.next = 0.into();
                if self.cm_status.val() == 4 {
                    // = status::ACCESS_ERR
                    self.nak.next = true;
                    self.synd.next = self.synd_access.val();
                    self.c6_err.d.next = true;
                } else if self.cm_status.val() == 5 {
                    // = status::FATAL
                    self.nak.next = true;
                    self.c6_err.d.next = true;
                }
            }
        }
        if self.rst.val() {
            self.c6_wr.d.next = false;
            self.nak.next = false;
            self.c6_rnr.d.next = false;
            self.c6_susp.d.next = false;
            self.c6_err.d.next = false;
            self.c6_drop.d.next = false;
        }
        self.c6_idx.d.next = self.idx5.q.val();
        self.c6_new.d.next = bit_cast::<32, 24>(self.n_psn.val())
            | (bit_cast::<32, 1>(self.n_wait.val()) << 24)
            | (bit_cast::<32, 1>(self.n_err.val()) << 25)
            | (bit_cast::<32, 1>(self.n_tv.val()) << 26)
            | (bit_cast::<32, 5>(self.n_tc.val()) << 27);
        self.c6_nak.d.next = self.nak.val();
        self.c6_word.d.next = bit_cast::<NAK_BITS, 24>(self.qpn5.q.val())
            | (bit_cast::<NAK_BITS, 24>(self.cm_rqpn.val()) << 24)
            | (bit_cast::<NAK_BITS, 24>(self.psn5.q.val()) << 48)
            | (bit_cast::<NAK_BITS, 24>(self.cm_msn.val()) << 72)
            | (bit_cast::<NAK_BITS, 8>(self.synd.val()) << 96)
            | (bit_cast::<NAK_BITS, 16>(self.pkey.val()) << 104);

        // ---- c6: write the state (or the sweep), push the NAK.
        self.qp_state.write_enable.next = self.c6_wr.q.val();
        self.qp_state.write_address.next = self.c6_idx.q.val();
        self.qp_state.write_data.next = self.c6_new.q.val();
        if !self.ready_r.q.val() {
            self.qp_state.write_enable.next = true;
            self.qp_state.write_address.next = self.sweep.q.val();
            self.qp_state.write_data.next = 0.into();
        }
        self.lw_v.d.next = self.c6_wr.q.val() & (!self.rst.val());
        self.lw_idx.d.next = self.c6_idx.q.val();
        self.lw_st.d.next = self.c6_new.q.val();
        // An early NAK takes the FIFO's write port only in a clock without
        // a commit's NAK (`en_ready`).
        self.cmd_busy.next = self.cmd_held.q.val()
            | (self.v3.q.val() & self.cmd3.q.val())
            | (self.v4.q.val() & self.cmd4.q.val())
            | (self.v5.q.val() & self.cmd5.q.val());
        self.en_ready.next = self.ready_r.q.val()
            & self.nak_fifo.empty.val()
            & (!self.c6_nak.q.val())
            & (!self.cmd_busy.val());
        self.en_fire.next = self.en_valid.val() & self.en_ready.val() & (!self.rst.val());
        self.en_code.next = self.rnr_timer.val();
        if self.en_tmr_valid.val() {
            self.en_code.next = self.en_tmr_code.val();
        }
        self.en_word.next = bit_cast::<NAK_BITS, 24>(self.en_qpn.val())
            | (bit_cast::<NAK_BITS, 24>(self.en_rqpn.val()) << 24)
            | (bit_cast::<NAK_BITS, 24>(self.en_psn.val()) << 48)
            | (bit_cast::<NAK_BITS, 24>(self.en_msn.val()) << 72)
            | (bit_cast::<NAK_BITS, 8>(self.synd_rnr.val() | bit_cast::<8, 5>(self.en_code.val()))
                << 96)
            | (bit_cast::<NAK_BITS, 16>(self.pkey.val()) << 104);
        self.nak_fifo.push.next = (self.c6_nak.q.val() | self.en_fire.val()) & (!self.rst.val());
        self.nak_fifo.data_in.next = self.c6_word.q.val();
        if !self.c6_nak.q.val() {
            self.nak_fifo.data_in.next = self.en_word.val();
        }
        self.nak_rnr.next = (self.c6_rnr.q.val() & self.c6_nak.q.val()) | self.en_fire.val();
        self.nak_rnr_susp.next = self.c6_susp.q.val() & self.c6_nak.q.val();
        self.nak_err.next = self.c6_err.q.val() & self.c6_nak.q.val();
        self.drop.next = self.c6_drop.q.val();
        self.mon_overflow.next = self.nak_fifo.overflow.val();

        // ---- Output: the FIFO head.
        self.m_nak.valid.next = !self.nak_fifo.empty.val();
        self.nak_fifo.pop.next = self.m_nak.ready.val();
        self.nak_word.next = self.nak_fifo.data_out.val();
        self.m_nak.qpn.next = self.nak_word.val().get_bits::<24>(0);
        // BTH: opcode, SE/M/pad/TVer 0, P_Key, reserved 0, DestQP, AckReq /
        // reserved 0, PSN; AETH: syndrome, MSN.
        self.m_nak.hdr.next = self.bth_opcode.val()
            | (bit_cast::<128, 16>(self.nak_word.val().get_bits::<16>(104)) << 96)
            | (bit_cast::<128, 24>(self.nak_word.val().get_bits::<24>(24)) << 64)
            | (bit_cast::<128, 24>(self.nak_word.val().get_bits::<24>(48)) << 32)
            | (bit_cast::<128, 8>(self.nak_word.val().get_bits::<8>(96)) << 24)
            | bit_cast::<128, 24>(self.nak_word.val().get_bits::<24>(72));
    }
}
