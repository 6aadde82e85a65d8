//! The QPs stalled on suspended MRs, and their wakes on MR_RESUME.
#![doc = include_str!("../../docs/mr_waiters.md")]

use rust_hdl::prelude::*;

/// Clocks from an MR_RESUME's handshake (the clock the command unit writes
/// the MR's state valid) to the first read of its sweep: every lookup that
/// saw the MR suspended has been decided (c0 to c5), its join has reached
/// the table (two registers in the core, one in the block), with margin.
pub const SETTLE_CLOCKS: u64 = 12;

/// Where the unit is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum MwState {
    /// After `rst`: clears every entry, one per clock (`ready` low).
    Init,
    /// Records joins; waits for a resume.
    Idle,
    /// A resume was taken: waits `SETTLE_CLOCKS` for the last joins of its
    /// MR, then takes the wake fence.
    Settle,
    /// Reads every entry once; wakes and clears those of the MR.
    Sweep,
    /// The sweep is over: `r_done` pulses.
    Done,
}

/// Waiters on suspended MRs for 2^`QP_BITS` QPs.
///
/// One entry per QP in a block RAM: `waiting`, the MR it waits on and a
/// `more` bit. A QP is recorded once (the first MR it stalls on) and woken
/// once, when that MR resumes; a QP that stalls on a second MR while it
/// waits gets `more` and is woken by the first resume of any MR. Woken, it
/// retries every request it holds, and one that still meets a suspended MR
/// stalls and is recorded again.
///
/// # Ports
///
/// - `j_valid`, `j_qpn`, `j_mr` (in, no backpressure, at most one per
///   clock): a STALL answered because MR `j_mr` is suspended (the
///   translator's decision with `m_cm_susp`, local op). A QP not waiting
///   is recorded (`cnt_join` pulses two clocks later); one waiting already
///   is not. A QPN at or beyond 2^`QP_BITS` is ignored (the translator
///   answers such a QP ACCESS_ERR, never STALL), so are joins during
///   `Init`.
/// - `r_valid`, `r_mr` (in), `r_ready` (out): MR_RESUME of MR `r_mr`, a
///   stream; `r_ready` is high in `Idle` only. The command unit makes the
///   MR valid in the handshake clock. `r_done` (out) pulses once its sweep
///   is over: every QP recorded on MR `r_mr` has had its wake taken.
/// - `rsp_pushed`, `rsp_popped` (in, 16-bit counters): responses entered
///   into and left the translator's output queue. Wakes of a sweep wait
///   until `rsp_popped` has reached `rsp_pushed` as it was when the sweep
///   began, so each woken QP's STALL answer leaves before its wake.
/// - `m_wake_*` (out stream): the wakes: `m_wake_qpn` a register,
///   `m_wake_valid` a register and the fence compare.
/// - `ready` (out): the reset sweep is over.
/// - `cnt_join` (out, pulse): a QP was recorded (the core's
///   `QPS_STALLED_NOW` gauge counts it, and a wake takes it off).
///
/// # Timing
///
/// The RAM has one read port and one write port, and its output is
/// registered: a word read in clock `t` is checked in `t + 2`. A join reads
/// its QP's entry in the clock it arrives and, two clocks later, writes it
/// if the QP was not waiting (`cnt_join` the clock after). The sweep reads
/// one entry per clock in the clocks without a join; a match (in its check
/// clock) clears the entry, drops the read in flight behind it and holds
/// the sweep until its wake is taken. A read and a write at the same edge
/// return the old word, so every check takes the writes of the two clocks
/// since its read into account; which of them wrote its entry is compared
/// a clock ahead, while the word is on the RAM's output. The sweep of a
/// resume takes `SETTLE_CLOCKS` + 2^`QP_BITS` + 4 clocks from its
/// handshake to `r_done`, plus one per join and three per wake (with
/// `m_wake_ready` high and the fence passed). 161 to 164 MHz alone on
/// LFE5U-85F-8 (1024 QPs, seeds 1 to 3).
#[derive(LogicBlock)]
pub struct MrWaiters<const QP_BITS: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous active-high reset: clears every entry (`Init`).
    pub rst: Signal<In, Bit>,
    /// The reset sweep is over.
    pub ready: Signal<Out, Bit>,

    /// A STALL of a suspended MR: the QP joins its MR's waiters.
    pub j_valid: Signal<In, Bit>,
    /// With `j_valid`: the QP.
    pub j_qpn: Signal<In, Bits<24>>,
    /// With `j_valid`: the MR index.
    pub j_mr: Signal<In, Bits<8>>,
    /// A QP was recorded.
    pub cnt_join: Signal<Out, Bit>,

    /// MR_RESUME offered.
    pub r_valid: Signal<In, Bit>,
    /// MR_RESUME taken (`Idle`).
    pub r_ready: Signal<Out, Bit>,
    /// With `r_valid`: the MR index.
    pub r_mr: Signal<In, Bits<8>>,
    /// The resume's sweep is over.
    pub r_done: Signal<Out, Bit>,

    /// Responses into the translator's output queue, mod 2^16.
    pub rsp_pushed: Signal<In, Bits<16>>,
    /// Responses out of it (last beat), mod 2^16.
    pub rsp_popped: Signal<In, Bits<16>>,

    /// A wake.
    pub m_wake_valid: Signal<Out, Bit>,
    /// With `m_wake_valid`: the QP.
    pub m_wake_qpn: Signal<Out, Bits<24>>,
    /// The wake is taken.
    pub m_wake_ready: Signal<In, Bit>,
    /// Monitor: the sweep found (and cleared) an entry to wake this clock;
    /// `mon_hit_qpn` is its QP. Joins from the next clock on record the
    /// QP anew.
    pub mon_hit: Signal<Out, Bit>,
    /// With `mon_hit`: the QP.
    pub mon_hit_qpn: Signal<Out, Bits<24>>,

    /// Bit 9 more MRs, bit 8 waiting, bits 7:0 the (first) MR.
    waiters: RAM<Bits<10>, QP_BITS>,
    state: DFF<MwState>,
    /// The MR being resumed.
    res_mr: DFF<Bits<8>>,
    /// Settle clocks left.
    settle: DFF<Bits<4>>,
    /// `rsp_pushed` when the sweep began.
    fence: DFF<Bits<16>>,
    /// Next entry to read (sweep) or clear (init).
    idx: DFF<Bits<QP_BITS>>,
    /// Every entry has been read (sweep).
    issued_all: DFF<Bit>,
    /// The sweep's read of the clock before (its word on the RAM's
    /// output), and of two clocks before (its word in `rd`: checked now).
    s1_valid: DFF<Bit>,
    s1_idx: DFF<Bits<QP_BITS>>,
    s2_valid: DFF<Bit>,
    s2_idx: DFF<Bits<QP_BITS>>,
    /// The join of the clock before and of two clocks before (checked and
    /// written now).
    j1_valid: DFF<Bit>,
    j1_qpn: DFF<Bits<QP_BITS>>,
    j1_mr: DFF<Bits<8>>,
    j2_valid: DFF<Bit>,
    j2_qpn: DFF<Bits<QP_BITS>>,
    j2_mr: DFF<Bits<8>>,
    /// The RAM's output, registered.
    rd: DFF<Bits<10>>,
    /// The writes of the clock before (`wp`) and of two clocks before
    /// (`wq`): a read at those edges missed them.
    wp_valid: DFF<Bit>,
    wp_addr: DFF<Bits<QP_BITS>>,
    wp_data: DFF<Bits<10>>,
    wq_data: DFF<Bits<10>>,
    /// The entry checked now was written by `wp` / `wq` (compared a clock
    /// ahead, while its word was on the RAM's output).
    m_p: DFF<Bit>,
    m_q: DFF<Bit>,
    /// The wake on offer.
    wk_valid: DFF<Bit>,
    wk_qpn: DFF<Bits<QP_BITS>>,
    /// `cnt_join`.
    joined: DFF<Bit>,
    /// `r_done`.
    done_r: DFF<Bit>,
    /// QPN bits above `QP_BITS`.
    qpn_high: Constant<Bits<24>>,
    /// An entry's `waiting` (bit 8) and `more` (bit 9) bits.
    waiting_bit: Constant<Bits<10>>,
    more_bit: Constant<Bits<10>>,

    /// A join arrives this clock (and reads the port).
    j_now: Signal<Local, Bit>,
    /// The sweep reads this clock.
    s_read: Signal<Local, Bit>,
    /// The word read two clocks before, with the writes since.
    word: Signal<Local, Bits<10>>,
    /// The entry whose word is on the RAM's output (checked next clock).
    c1_addr: Signal<Local, Bits<QP_BITS>>,
    /// `hit` for each source of the word: the RAM, `wp`, `wq`.
    hit_rd: Signal<Local, Bit>,
    hit_p: Signal<Local, Bit>,
    hit_q: Signal<Local, Bit>,
    /// The check writes a join's record / its `more` bit.
    j_rec: Signal<Local, Bit>,
    j_more: Signal<Local, Bit>,
    /// The sweep restarts its reads after the entry it woke.
    idx_after: Signal<Local, Bits<QP_BITS>>,
    /// The checked entry is one to wake.
    hit: Signal<Local, Bit>,
    idx_next: Signal<Local, Bits<QP_BITS>>,
    /// The fence is passed.
    fence_ok: Signal<Local, Bit>,
    fence_d: Signal<Local, Bits<16>>,
    wake_take: Signal<Local, Bit>,
}

impl<const QP_BITS: usize> Default for MrWaiters<QP_BITS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const QP_BITS: usize> MrWaiters<QP_BITS> {
    /// A waiter table for 2^`QP_BITS` QPs (1 to 24 bits).
    pub fn new() -> Self {
        assert!(
            (1..=24).contains(&QP_BITS),
            "QP_BITS {QP_BITS} not in 1..=24"
        );
        Self {
            clock: Default::default(),
            rst: Default::default(),
            ready: Default::default(),
            j_valid: Default::default(),
            j_qpn: Default::default(),
            j_mr: Default::default(),
            cnt_join: Default::default(),
            r_valid: Default::default(),
            r_ready: Default::default(),
            r_mr: Default::default(),
            r_done: Default::default(),
            rsp_pushed: Default::default(),
            rsp_popped: Default::default(),
            m_wake_valid: Default::default(),
            m_wake_qpn: Default::default(),
            m_wake_ready: Default::default(),
            mon_hit: Default::default(),
            mon_hit_qpn: Default::default(),
            waiters: Default::default(),
            state: DFF::default(),
            res_mr: Default::default(),
            settle: Default::default(),
            fence: Default::default(),
            idx: Default::default(),
            issued_all: Default::default(),
            s1_valid: Default::default(),
            s1_idx: Default::default(),
            s2_valid: Default::default(),
            s2_idx: Default::default(),
            j1_valid: Default::default(),
            j1_qpn: Default::default(),
            j1_mr: Default::default(),
            j2_valid: Default::default(),
            j2_qpn: Default::default(),
            j2_mr: Default::default(),
            rd: Default::default(),
            wp_valid: Default::default(),
            wp_addr: Default::default(),
            wp_data: Default::default(),
            wq_data: Default::default(),
            m_p: Default::default(),
            m_q: Default::default(),
            wk_valid: Default::default(),
            wk_qpn: Default::default(),
            joined: Default::default(),
            done_r: Default::default(),
            qpn_high: Constant::new((0xFF_FFFF_u64 & !((1u64 << QP_BITS) - 1)).into()),
            waiting_bit: Constant::new(0x100.into()),
            more_bit: Constant::new(0x200.into()),
            j_now: Default::default(),
            s_read: Default::default(),
            word: Default::default(),
            c1_addr: Default::default(),
            hit_rd: Default::default(),
            hit_p: Default::default(),
            hit_q: Default::default(),
            j_rec: Default::default(),
            j_more: Default::default(),
            idx_after: Default::default(),
            hit: Default::default(),
            idx_next: Default::default(),
            fence_ok: Default::default(),
            fence_d: Default::default(),
            wake_take: Default::default(),
        }
    }
}

impl<const QP_BITS: usize> Logic for MrWaiters<QP_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, res_mr, settle, fence, idx, issued_all, s1_valid, s1_idx, s2_valid,
            s2_idx, j1_valid, j1_qpn, j1_mr, j2_valid, j2_qpn, j2_mr, rd, wp_valid, wp_addr,
            wp_data, wq_data, m_p, m_q, wk_valid, wk_qpn, joined, done_r
        );
        self.waiters.read_clock.next = self.clock.val();
        self.waiters.write_clock.next = self.clock.val();

        self.idx_next.next = self.idx.q.val() + 1;
        self.fence_d.next = self.rsp_popped.val() - self.fence.q.val();
        self.fence_ok.next = !self.fence_d.val().get_bit(15);
        self.wake_take.next = self.wk_valid.q.val() & self.fence_ok.val() & self.m_wake_ready.val();

        // ---- The word read two clocks before (one of a join or the
        // sweep), registered, with the writes of the two clocks since (the
        // newer first): the check stage.
        self.rd.d.next = self.waiters.read_data.val();
        self.word.next = self.rd.q.val();
        if self.m_q.q.val() {
            self.word.next = self.wq_data.q.val();
        }
        if self.m_p.q.val() {
            self.word.next = self.wp_data.q.val();
        }
        // `hit` of each source in parallel, then the source's.
        self.hit_rd.next = self.rd.q.val().get_bit(8)
            & ((self.rd.q.val().get_bits::<8>(0) == self.res_mr.q.val())
                | self.rd.q.val().get_bit(9));
        self.hit_p.next = self.wp_data.q.val().get_bit(8)
            & ((self.wp_data.q.val().get_bits::<8>(0) == self.res_mr.q.val())
                | self.wp_data.q.val().get_bit(9));
        self.hit_q.next = self.wq_data.q.val().get_bit(8)
            & ((self.wq_data.q.val().get_bits::<8>(0) == self.res_mr.q.val())
                | self.wq_data.q.val().get_bit(9));
        self.hit.next = self.s2_valid.q.val() & self.hit_rd.val();
        if self.m_q.q.val() {
            self.hit.next = self.s2_valid.q.val() & self.hit_q.val();
        }
        if self.m_p.q.val() {
            self.hit.next = self.s2_valid.q.val() & self.hit_p.val();
        }
        self.idx_after.next = self.s2_idx.q.val() + 1;

        // ---- The read port: a join first, else the sweep.
        self.j_now.next = self.j_valid.val()
            & (!(self.j_qpn.val() & self.qpn_high.val()).any())
            & (self.state.q.val() != MwState::Init);
        self.s_read.next = (self.state.q.val() == MwState::Sweep)
            & (!self.issued_all.q.val())
            & (!self.j_now.val())
            & (!self.wk_valid.q.val())
            & (!self.hit.val());
        self.waiters.read_address.next = self.idx.q.val();
        if self.j_now.val() {
            self.waiters.read_address.next = self.j_qpn.val().get_bits::<QP_BITS>(0);
        }
        self.j1_valid.d.next = self.j_now.val();
        self.j1_qpn.d.next = self.j_qpn.val().get_bits::<QP_BITS>(0);
        self.j1_mr.d.next = self.j_mr.val();
        self.j2_valid.d.next = self.j1_valid.q.val();
        self.j2_qpn.d.next = self.j1_qpn.q.val();
        self.j2_mr.d.next = self.j1_mr.q.val();
        self.s1_valid.d.next = self.s_read.val();
        self.s1_idx.d.next = self.idx.q.val();
        self.s2_valid.d.next = self.s1_valid.q.val();
        self.s2_idx.d.next = self.s1_idx.q.val();
        if self.s_read.val() {
            self.idx.d.next = self.idx_next.val();
            if !self.idx_next.val().any() {
                self.issued_all.d.next = true;
            }
        }
        // A hit holds the sweep for its wake: the read of the clock before
        // is dropped and read again after it.
        if self.hit.val() {
            self.s2_valid.d.next = false;
            self.idx.d.next = self.idx_after.val();
            self.issued_all.d.next = !self.idx_after.val().any();
        }

        // ---- The write port: a join's record, the sweep's clear, or the
        // reset sweep (never two in one clock: a join and the sweep never
        // check in the same clock, and neither runs in Init).
        self.waiters.write_enable.next = false;
        self.waiters.write_address.next = self.j2_qpn.q.val();
        self.waiters.write_data.next =
            bit_cast::<10, 8>(self.j2_mr.q.val()) | self.waiting_bit.val();
        self.j_rec.next = self.j2_valid.q.val() & (!self.word.val().get_bit(8));
        // Waiting on another MR already: it is woken by the first resume
        // of either (bit 9), and stalls again on the other if that is
        // still suspended.
        self.j_more.next = self.j2_valid.q.val()
            & self.word.val().get_bit(8)
            & (self.word.val().get_bits::<8>(0) != self.j2_mr.q.val())
            & (!self.word.val().get_bit(9));
        self.joined.d.next = self.j_rec.val();
        if self.j_rec.val() {
            self.waiters.write_enable.next = true;
        }
        if self.j_more.val() {
            self.waiters.write_enable.next = true;
            self.waiters.write_data.next = self.word.val() | self.more_bit.val();
        }
        if self.hit.val() {
            self.waiters.write_enable.next = true;
            self.waiters.write_address.next = self.s2_idx.q.val();
            self.waiters.write_data.next = 0.into();
            self.wk_valid.d.next = true;
            self.wk_qpn.d.next = self.s2_idx.q.val();
        }
        if self.wake_take.val() {
            self.wk_valid.d.next = false;
        }
        if self.state.q.val() == MwState::Init {
            self.waiters.write_enable.next = true;
            self.waiters.write_address.next = self.idx.q.val();
            self.waiters.write_data.next = 0.into();
        }
        self.wp_valid.d.next = self.waiters.write_enable.val();
        self.wp_addr.d.next = self.waiters.write_address.val();
        self.wp_data.d.next = self.waiters.write_data.val();
        self.wq_data.d.next = self.wp_data.q.val();
        // The next check's forwarding, compared now: its entry's word is on
        // the RAM's output; `wp` (this clock's `wq`) and this clock's write
        // came after its read.
        self.c1_addr.next = self.s1_idx.q.val();
        if self.j1_valid.q.val() {
            self.c1_addr.next = self.j1_qpn.q.val();
        }
        self.m_q.d.next = self.wp_valid.q.val() & (self.wp_addr.q.val() == self.c1_addr.val());
        self.m_p.d.next = ((self.j_rec.val() | self.j_more.val())
            & (self.j2_qpn.q.val() == self.c1_addr.val()))
            | (self.hit.val() & (self.s2_idx.q.val() == self.c1_addr.val()))
            | ((self.state.q.val() == MwState::Init) & (self.idx.q.val() == self.c1_addr.val()));

        // ---- The resume.
        self.r_ready.next = self.state.q.val() == MwState::Idle;
        self.done_r.d.next = false;
        match self.state.q.val() {
            MwState::Init => {
                self.idx.d.next = self.idx_next.val();
                if !self.idx_next.val().any() {
                    self.state.d.next = MwState::Idle;
                }
            }
            MwState::Idle => {
                self.idx.d.next = 0.into();
                self.issued_all.d.next = false;
                if self.r_valid.val() {
                    self.res_mr.d.next = self.r_mr.val();
                    self.settle.d.next = 12.into(); // = SETTLE_CLOCKS
                    self.state.d.next = MwState::Settle;
                }
            }
            MwState::Settle => {
                self.settle.d.next = self.settle.q.val() - 1;
                self.fence.d.next = self.rsp_pushed.val();
                if self.settle.q.val() == 1 {
                    self.state.d.next = MwState::Sweep;
                }
            }
            MwState::Sweep => {
                if self.issued_all.q.val()
                    & (!self.s1_valid.q.val())
                    & (!self.s2_valid.q.val())
                    & (!self.hit.val())
                    & (!self.wk_valid.q.val())
                {
                    self.done_r.d.next = true;
                    self.state.d.next = MwState::Done;
                }
            }
            MwState::Done => {
                self.state.d.next = MwState::Idle;
            }
            _ => {
                self.state.d.next = MwState::Idle;
            }
        }
        if self.rst.val() {
            self.state.d.next = MwState::Init;
            self.idx.d.next = 0.into();
            self.issued_all.d.next = false;
            self.s1_valid.d.next = false;
            self.s2_valid.d.next = false;
            self.j1_valid.d.next = false;
            self.j2_valid.d.next = false;
            self.wk_valid.d.next = false;
            self.joined.d.next = false;
            self.done_r.d.next = false;
        }
        self.ready.next = self.state.q.val() != MwState::Init;
        self.cnt_join.next = self.joined.q.val();
        self.r_done.next = self.done_r.q.val();
        self.m_wake_valid.next = self.wk_valid.q.val() & self.fence_ok.val();
        self.m_wake_qpn.next = bit_cast::<24, QP_BITS>(self.wk_qpn.q.val());
        self.mon_hit.next = self.hit.val();
        self.mon_hit_qpn.next = bit_cast::<24, QP_BITS>(self.s2_idx.q.val());
    }
}
