//! The invalidation unit: epochs, the DMA drain, and the "invalidation
//! done" / "MR suspended" / error events.
#![doc = include_str!("../../docs/invalidation.md")]

use rust_hdl::prelude::*;

/// Epochs in the ring: `epoch` is 4 bits (`m_xrsp_epoch[3:0]`).
pub const EPOCHS: usize = 16;
/// Invalidations and suspends in progress at most: accepted, done event
/// not yet handed to the event ring. A ninth is refused (`full`).
pub const MAX_IN_PROGRESS: usize = 8;
/// Clocks after an epoch change before the drain may pass the old epoch:
/// every lookup issued in it has reached its decision (c0 to c5) and its
/// OK, if any, is counted (two registers).
pub const SETTLE_CLOCKS: u64 = 12;
/// Width of each epoch's count of OK responses not yet returned on
/// `s_done`.
pub const COUNT_BITS: usize = 16;

/// `s_iv_kind`: invalidate the TLB entries of MR `mr` overlapping
/// `[va_lo, va_hi)`.
pub const IV_RANGE: u64 = 0;
/// `s_iv_kind`: invalidate every TLB entry of MR `mr`.
pub const IV_MR: u64 = 1;
/// `s_iv_kind`: invalidate every TLB entry.
pub const IV_ALL: u64 = 2;
/// `s_iv_kind`: MR suspend: no TLB change (the command unit sets the MR's
/// state in the handshake clock), drain, then "MR suspended".
pub const IV_SUSPEND: u64 = 3;

/// The invalidation unit for an MR table of 2^`MR_BITS` entries.
///
/// # Ports
///
/// - `epoch` (out): the current epoch, stamped by the translator on every
///   lookup at c0 and returned with its response.
/// - `s_iv_*` (in stream): one invalidation or suspend from the command
///   unit: `kind` (`IV_*`), `mr`, `tag`, the byte range `[va_lo, va_hi)` and
///   the same range in the MR's page-table offsets `[off_lo, off_hi)`.
///   `s_iv_ready` is high when there is room (`full` low), the epoch ring
///   has room, no epoch change is pending, and, for a TLB kind, the
///   translator's `inv_ready` is high: the unit offers the TLB its
///   invalidation (`m_inv_*`) in the same clock, so both handshakes happen
///   at the same edge.
/// - `full` (out): `MAX_IN_PROGRESS` in progress: the command unit
///   refuses the command (INV_BUSY) instead of waiting.
/// - `m_inv_*`: the translator's `inv_*` port (TLB kinds 0 ALL, 1 BY_MR,
///   2 BY_MR_RANGE); `m_inv_done` its done pulse (the sweep is over).
/// - `ok_valid`, `ok_epoch`: the translator's decision answered OK
///   (`m_cm_valid` with status OK) in that epoch: one more response whose
///   DMA the drain waits for.
/// - `s_done_valid`, `s_done_epoch`: the DMA engine returns one OK response
///   of that epoch (SPEC `s_done_*`). One of an epoch with nothing
///   outstanding, or with bits 7:4 set, is bad input: `err_done`, ignored.
/// - `bad_*`: a command the command unit refused (one clock): an error
///   event is posted for it.
/// - `m_ev_*` (out stream): event records for the event ring (words 0 to
///   2; word 3 is 0 for every kind this unit posts).
/// - `issued`, `completed` (out, free-running 32-bit): invalidations and
///   suspends accepted and done; `in_progress` the difference.
/// - `err_done`, `err_overflow` (out, pulses): a bad `s_done`; an OK
///   response counted in an epoch whose count was at its maximum (the
///   count holds: more than 2^16 - 1 OK responses of one epoch outstanding
///   is beyond what the unit tracks).
/// - `cnt_inv` (out, pulse): an invalidation (not a suspend) done: its
///   event goes to the event register.
/// - `mon_late_ok` (out): invariant monitor: an OK was counted in an epoch
///   the drain had already passed (never happens while the translator's
///   pipeline is at most `SETTLE_CLOCKS` - 3 clocks from c0 to its
///   decision).
#[derive(LogicBlock)]
pub struct InvalUnit<const MR_BITS: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous active-high reset: epoch 0, nothing in progress, every
    /// count 0.
    pub rst: Signal<In, Bit>,

    /// The current epoch.
    pub epoch: Signal<Out, Bits<4>>,
    /// `MAX_IN_PROGRESS` in progress.
    pub full: Signal<Out, Bit>,

    /// Invalidation / suspend valid.
    pub s_iv_valid: Signal<In, Bit>,
    /// Taken.
    pub s_iv_ready: Signal<Out, Bit>,
    /// `IV_*`.
    pub s_iv_kind: Signal<In, Bits<2>>,
    /// MR index (8 bits whatever `MR_BITS`).
    pub s_iv_mr: Signal<In, Bits<8>>,
    /// The doorbell's tag, echoed in "invalidation done".
    pub s_iv_tag: Signal<In, Bits<8>>,
    /// Range start, bytes (IV_RANGE).
    pub s_iv_va_lo: Signal<In, Bits<64>>,
    /// Range end (exclusive), bytes.
    pub s_iv_va_hi: Signal<In, Bits<64>>,
    /// Range start in MR offsets.
    pub s_iv_off_lo: Signal<In, Bits<64>>,
    /// Range end in MR offsets.
    pub s_iv_off_hi: Signal<In, Bits<64>>,

    /// TLB invalidation valid (the translator's `inv_valid`).
    pub m_inv_valid: Signal<Out, Bit>,
    /// The translator's `inv_ready`.
    pub m_inv_ready: Signal<In, Bit>,
    /// TLB kind: 0 ALL, 1 BY_MR, 2 BY_MR_RANGE.
    pub m_inv_kind: Signal<Out, Bits<2>>,
    /// MR index.
    pub m_inv_mr: Signal<Out, Bits<MR_BITS>>,
    /// Range start, bytes.
    pub m_inv_va_lo: Signal<Out, Bits<64>>,
    /// Range end, bytes.
    pub m_inv_va_hi: Signal<Out, Bits<64>>,
    /// Range start, MR offsets.
    pub m_inv_off_lo: Signal<Out, Bits<64>>,
    /// Range end, MR offsets.
    pub m_inv_off_hi: Signal<Out, Bits<64>>,
    /// The translator's `inv_done`: the sweep is over.
    pub m_inv_done: Signal<In, Bit>,

    /// An OK decision.
    pub ok_valid: Signal<In, Bit>,
    /// Its epoch.
    pub ok_epoch: Signal<In, Bits<4>>,
    /// A DMA completion (`s_done_valid`).
    pub s_done_valid: Signal<In, Bit>,
    /// Its epoch (`s_done_epoch`).
    pub s_done_epoch: Signal<In, Bits<8>>,

    /// A refused command (one clock).
    pub bad_valid: Signal<In, Bit>,
    /// Its op code.
    pub bad_op: Signal<In, Bits<8>>,
    /// Its tag.
    pub bad_tag: Signal<In, Bits<8>>,
    /// Its result code.
    pub bad_code: Signal<In, Bits<8>>,
    /// Its `CMD_ARG0` bits 15:0 (the MR index of MR commands).
    pub bad_arg0: Signal<In, Bits<16>>,

    /// Event record valid.
    pub m_ev_valid: Signal<Out, Bit>,
    /// Event record taken.
    pub m_ev_ready: Signal<In, Bit>,
    /// Record word 0.
    pub m_ev_w0: Signal<Out, Bits<64>>,
    /// Record word 1.
    pub m_ev_w1: Signal<Out, Bits<64>>,
    /// Record word 2.
    pub m_ev_w2: Signal<Out, Bits<64>>,

    /// Accepted, free-running.
    pub issued: Signal<Out, Bits<32>>,
    /// Done, free-running.
    pub completed: Signal<Out, Bits<32>>,
    /// In progress.
    pub in_progress: Signal<Out, Bits<4>>,
    /// Bad `s_done` (pulse).
    pub err_done: Signal<Out, Bit>,
    /// A count at its maximum (pulse).
    pub err_overflow: Signal<Out, Bit>,
    /// An invalidation done (pulse).
    pub cnt_inv: Signal<Out, Bit>,
    /// Invariant monitor: an OK counted in a drained epoch.
    pub mon_late_ok: Signal<Out, Bit>,

    // --- epochs ---
    cur: DFF<Bits<4>>,
    dptr: DFF<Bits<4>>,
    quiet: DFF<Bits<4>>,
    cnt: [DFF<Bits<COUNT_BITS>>; EPOCHS],
    zero: [DFF<Bit>; EPOCHS],
    ok_r: DFF<Bit>,
    ok_e: DFF<Bits<4>>,
    dn_r: DFF<Bit>,
    dn_e: DFF<Bits<4>>,
    err_done_r: DFF<Bit>,
    err_ovf_r: DFF<Bit>,
    late_r: DFF<Bit>,
    // --- the accepted command, pushed a clock later with its epoch ---
    bump: DFF<Bit>,
    b_susp: DFF<Bit>,
    b_tag: DFF<Bits<8>>,
    b_mr: DFF<Bits<8>>,
    sweeping: DFF<Bit>,
    // --- queue of entries in progress ---
    q_susp: [DFF<Bit>; MAX_IN_PROGRESS],
    q_tag: [DFF<Bits<8>>; MAX_IN_PROGRESS],
    q_mr: [DFF<Bits<8>>; MAX_IN_PROGRESS],
    q_target: [DFF<Bits<4>>; MAX_IN_PROGRESS],
    q_head: DFF<Bits<3>>,
    q_tail: DFF<Bits<3>>,
    q_count: DFF<Bits<4>>,
    issued_r: DFF<Bits<32>>,
    done_r: DFF<Bits<32>>,
    // --- event register and the pending error event ---
    ev_valid: DFF<Bit>,
    ev_w0: DFF<Bits<64>>,
    ev_w1: DFF<Bits<64>>,
    ev_w2: DFF<Bits<64>>,
    er_pend: DFF<Bit>,
    er_w0: DFF<Bits<64>>,
    er_w1: DFF<Bits<64>>,
    er_more: DFF<Bit>,
    // --- locals ---
    take: Signal<Local, Bit>,
    room: Signal<Local, Bit>,
    tlb_kind: Signal<Local, Bit>,
    zsel: Signal<Local, Bit>,
    h_susp: Signal<Local, Bit>,
    h_tag: Signal<Local, Bits<8>>,
    h_mr: Signal<Local, Bits<8>>,
    h_target: Signal<Local, Bits<4>>,
    head_done: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    ev_free: Signal<Local, Bit>,
    inc: Signal<Local, Bits<EPOCHS>>,
    dec: Signal<Local, Bits<EPOCHS>>,
    d_live: Signal<Local, Bits<4>>,
    d_ok: Signal<Local, Bits<4>>,
}

impl<const MR_BITS: usize> InvalUnit<MR_BITS> {
    /// An invalidation unit for 2^`MR_BITS` MRs (2..=8).
    pub fn new() -> Self {
        assert!(
            (2..=8).contains(&MR_BITS),
            "InvalUnit: MR_BITS must be in 2..=8, got {MR_BITS}"
        );
        Self {
            clock: Default::default(),
            rst: Default::default(),
            epoch: Default::default(),
            full: Default::default(),
            s_iv_valid: Default::default(),
            s_iv_ready: Default::default(),
            s_iv_kind: Default::default(),
            s_iv_mr: Default::default(),
            s_iv_tag: Default::default(),
            s_iv_va_lo: Default::default(),
            s_iv_va_hi: Default::default(),
            s_iv_off_lo: Default::default(),
            s_iv_off_hi: Default::default(),
            m_inv_valid: Default::default(),
            m_inv_ready: Default::default(),
            m_inv_kind: Default::default(),
            m_inv_mr: Default::default(),
            m_inv_va_lo: Default::default(),
            m_inv_va_hi: Default::default(),
            m_inv_off_lo: Default::default(),
            m_inv_off_hi: Default::default(),
            m_inv_done: Default::default(),
            ok_valid: Default::default(),
            ok_epoch: Default::default(),
            s_done_valid: Default::default(),
            s_done_epoch: Default::default(),
            bad_valid: Default::default(),
            bad_op: Default::default(),
            bad_tag: Default::default(),
            bad_code: Default::default(),
            bad_arg0: Default::default(),
            m_ev_valid: Default::default(),
            m_ev_ready: Default::default(),
            m_ev_w0: Default::default(),
            m_ev_w1: Default::default(),
            m_ev_w2: Default::default(),
            issued: Default::default(),
            completed: Default::default(),
            in_progress: Default::default(),
            err_done: Default::default(),
            err_overflow: Default::default(),
            cnt_inv: Default::default(),
            mon_late_ok: Default::default(),
            cur: Default::default(),
            dptr: Default::default(),
            quiet: Default::default(),
            cnt: std::array::from_fn(|_| Default::default()),
            zero: std::array::from_fn(|_| Default::default()),
            ok_r: Default::default(),
            ok_e: Default::default(),
            dn_r: Default::default(),
            dn_e: Default::default(),
            err_done_r: Default::default(),
            err_ovf_r: Default::default(),
            late_r: Default::default(),
            bump: Default::default(),
            b_susp: Default::default(),
            b_tag: Default::default(),
            b_mr: Default::default(),
            sweeping: Default::default(),
            q_susp: std::array::from_fn(|_| Default::default()),
            q_tag: std::array::from_fn(|_| Default::default()),
            q_mr: std::array::from_fn(|_| Default::default()),
            q_target: std::array::from_fn(|_| Default::default()),
            q_head: Default::default(),
            q_tail: Default::default(),
            q_count: Default::default(),
            issued_r: Default::default(),
            done_r: Default::default(),
            ev_valid: Default::default(),
            ev_w0: Default::default(),
            ev_w1: Default::default(),
            ev_w2: Default::default(),
            er_pend: Default::default(),
            er_w0: Default::default(),
            er_w1: Default::default(),
            er_more: Default::default(),
            take: Default::default(),
            room: Default::default(),
            tlb_kind: Default::default(),
            zsel: Default::default(),
            h_susp: Default::default(),
            h_tag: Default::default(),
            h_mr: Default::default(),
            h_target: Default::default(),
            head_done: Default::default(),
            pop: Default::default(),
            push: Default::default(),
            ev_free: Default::default(),
            inc: Default::default(),
            dec: Default::default(),
            d_live: Default::default(),
            d_ok: Default::default(),
        }
    }
}

impl<const MR_BITS: usize> Default for InvalUnit<MR_BITS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const MR_BITS: usize> Logic for InvalUnit<MR_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, cur, dptr, quiet, ok_r, ok_e, dn_r, dn_e, err_done_r, err_ovf_r, late_r,
            bump, b_susp, b_tag, b_mr, sweeping, q_head, q_tail, q_count, issued_r, done_r,
            ev_valid, ev_w0, ev_w1, ev_w2, er_pend, er_w0, er_w1, er_more
        );
        for i in 0..EPOCHS {
            self.cnt[i].clock.next = self.clock.val();
            self.cnt[i].d.next = self.cnt[i].q.val();
            self.zero[i].clock.next = self.clock.val();
            self.zero[i].d.next = !self.cnt[i].q.val().any();
        }
        for i in 0..MAX_IN_PROGRESS {
            self.q_susp[i].clock.next = self.clock.val();
            self.q_susp[i].d.next = self.q_susp[i].q.val();
            self.q_tag[i].clock.next = self.clock.val();
            self.q_tag[i].d.next = self.q_tag[i].q.val();
            self.q_mr[i].clock.next = self.clock.val();
            self.q_mr[i].d.next = self.q_mr[i].q.val();
            self.q_target[i].clock.next = self.clock.val();
            self.q_target[i].d.next = self.q_target[i].q.val();
        }

        // ---- Accepting: room in the queue and the epoch ring, no epoch
        // change pending; a TLB kind goes to the TLB at the same edge.
        self.full.next = (self.q_count.q.val() >= 8) // = MAX_IN_PROGRESS
            | ((self.q_count.q.val() == 7) & self.bump.q.val());
        self.room.next = (self.q_count.q.val() < 8) // = MAX_IN_PROGRESS
            & (!self.bump.q.val())
            & ((self.cur.q.val() + 1) != self.dptr.q.val())
            & (!self.rst.val());
        self.tlb_kind.next = self.s_iv_kind.val() != 3; // = IV_SUSPEND
        self.s_iv_ready.next = self.room.val() & ((!self.tlb_kind.val()) | self.m_inv_ready.val());
        self.m_inv_valid.next = self.s_iv_valid.val() & self.room.val() & self.tlb_kind.val();
        self.m_inv_kind.next = 2.into(); // = tlb::INV_BY_MR_RANGE
        if self.s_iv_kind.val() == 1 {
            // = IV_MR
            self.m_inv_kind.next = 1.into(); // = tlb::INV_BY_MR
        }
        if self.s_iv_kind.val() == 2 {
            // = IV_ALL
            self.m_inv_kind.next = 0.into(); // = tlb::INV_ALL
        }
        self.m_inv_mr.next = self.s_iv_mr.val().get_bits::<MR_BITS>(0);
        self.m_inv_va_lo.next = self.s_iv_va_lo.val();
        self.m_inv_va_hi.next = self.s_iv_va_hi.val();
        self.m_inv_off_lo.next = self.s_iv_off_lo.val();
        self.m_inv_off_hi.next = self.s_iv_off_hi.val();
        self.take.next = self.s_iv_valid.val() & self.s_iv_ready.val();

        self.bump.d.next = self.take.val();
        if self.m_inv_done.val() {
            self.sweeping.d.next = false;
        }
        if self.take.val() {
            self.b_susp.d.next = !self.tlb_kind.val();
            self.b_tag.d.next = self.s_iv_tag.val();
            self.b_mr.d.next = self.s_iv_mr.val();
            if self.tlb_kind.val() {
                self.sweeping.d.next = true;
            }
        }

        // ---- The epoch changes the clock after the handshake: lookups
        // issued up to then carry the old one. The entry's target is the
        // new epoch: it is done once the drain pointer reaches it.
        self.push.next = self.bump.q.val();
        if self.bump.q.val() {
            self.cur.d.next = self.cur.q.val() + 1;
            self.quiet.d.next = 0.into();
            self.issued_r.d.next = self.issued_r.q.val() + 1;
        } else if self.quiet.q.val() < 12 {
            // = SETTLE_CLOCKS
            self.quiet.d.next = self.quiet.q.val() + 1;
        }

        // ---- Counts: OK decisions in, DMA completions out (inputs
        // registered first).
        self.ok_r.d.next = self.ok_valid.val();
        self.ok_e.d.next = self.ok_epoch.val();
        self.dn_r.d.next =
            self.s_done_valid.val() & (!self.s_done_epoch.val().get_bits::<4>(4).any());
        self.dn_e.d.next = self.s_done_epoch.val().get_bits::<4>(0);
        self.err_done_r.d.next =
            self.s_done_valid.val() & self.s_done_epoch.val().get_bits::<4>(4).any();
        self.err_ovf_r.d.next = false;
        self.inc.next = 0.into();
        self.dec.next = 0.into();
        for i in 0..EPOCHS {
            self.inc.next = self
                .inc
                .val()
                .replace_bit(i, self.ok_r.q.val() & (self.ok_e.q.val().index() == i));
            self.dec.next = self
                .dec
                .val()
                .replace_bit(i, self.dn_r.q.val() & (self.dn_e.q.val().index() == i));
        }
        for i in 0..EPOCHS {
            if self.inc.val().get_bit(i) & (!self.dec.val().get_bit(i)) {
                if self.cnt[i].q.val().all() {
                    self.err_ovf_r.d.next = true;
                } else {
                    self.cnt[i].d.next = self.cnt[i].q.val() + 1;
                }
            }
            if self.dec.val().get_bit(i) & (!self.inc.val().get_bit(i)) {
                if self.cnt[i].q.val().any() {
                    self.cnt[i].d.next = self.cnt[i].q.val() - 1;
                } else {
                    self.err_done_r.d.next = true;
                }
            }
        }
        // An OK counted in an epoch outside the live window [dptr, cur].
        self.d_live.next = self.cur.q.val() - self.dptr.q.val();
        self.d_ok.next = self.cur.q.val() - self.ok_e.q.val();
        self.late_r.d.next = self.ok_r.q.val() & (self.d_ok.val() > self.d_live.val());

        // ---- The drain pointer: passes an epoch older than the current
        // one once the epoch has settled and its count is zero.
        self.zsel.next = false;
        for i in 0..EPOCHS {
            if self.dptr.q.val().index() == i {
                self.zsel.next = self.zero[i].q.val();
            }
        }
        if (self.quiet.q.val() >= 12) // = SETTLE_CLOCKS
            & (self.dptr.q.val() != self.cur.q.val())
            & self.zsel.val()
        {
            self.dptr.d.next = self.dptr.q.val() + 1;
        }

        // ---- The head entry: done when the drain pointer has reached
        // its target and no TLB sweep is running.
        self.h_susp.next = false;
        self.h_tag.next = 0.into();
        self.h_mr.next = 0.into();
        self.h_target.next = 0.into();
        for i in 0..MAX_IN_PROGRESS {
            if self.q_head.q.val().index() == i {
                self.h_susp.next = self.q_susp[i].q.val();
                self.h_tag.next = self.q_tag[i].q.val();
                self.h_mr.next = self.q_mr[i].q.val();
                self.h_target.next = self.q_target[i].q.val();
            }
        }
        self.ev_free.next = !self.ev_valid.q.val();
        self.head_done.next = self.q_count.q.val().any()
            & (!self.sweeping.q.val())
            & (!self.bump.q.val())
            & ((self.cur.q.val() - self.dptr.q.val()) <= (self.cur.q.val() - self.h_target.val()));
        self.pop.next = self.head_done.val() & self.ev_free.val();
        self.cnt_inv.next = self.pop.val() & (!self.h_susp.val()) & (!self.rst.val());

        // ---- Queue pointers.
        for i in 0..MAX_IN_PROGRESS {
            if self.push.val() & (self.q_tail.q.val().index() == i) {
                self.q_susp[i].d.next = self.b_susp.q.val();
                self.q_tag[i].d.next = self.b_tag.q.val();
                self.q_mr[i].d.next = self.b_mr.q.val();
                self.q_target[i].d.next = self.cur.q.val() + 1;
            }
        }
        if self.push.val() {
            self.q_tail.d.next = self.q_tail.q.val() + 1;
        }
        if self.pop.val() {
            self.q_head.d.next = self.q_head.q.val() + 1;
            self.done_r.d.next = self.done_r.q.val() + 1;
        }
        if self.push.val() & (!self.pop.val()) {
            self.q_count.d.next = self.q_count.q.val() + 1;
        }
        if self.pop.val() & (!self.push.val()) {
            self.q_count.d.next = self.q_count.q.val() - 1;
        }

        // ---- Events: a done entry first, else the pending error event.
        if self.ev_valid.q.val() & self.m_ev_ready.val() {
            self.ev_valid.d.next = false;
        }
        if self.pop.val() {
            self.ev_valid.d.next = true;
            // Kind 2 (INV_DONE) with the tag, or 4 (MR_SUSPENDED).
            self.ev_w0.d.next = (bit_cast::<64, 8>(self.h_mr.val()) << 16)
                | (bit_cast::<64, 8>(self.h_tag.val()) << 32)
                | 2_u64; // = event::INV_DONE
            if self.h_susp.val() {
                self.ev_w0.d.next = (bit_cast::<64, 8>(self.h_mr.val()) << 16) | 4_u64;
                // = event::MR_SUSPENDED
            }
            self.ev_w1.d.next = 0.into();
            self.ev_w2.d.next = 0.into();
        } else if self.ev_free.val() & self.er_pend.q.val() {
            self.ev_valid.d.next = true;
            self.ev_w0.d.next = self.er_w0.q.val();
            self.ev_w1.d.next = self.er_w1.q.val();
            self.ev_w2.d.next = 0.into();
            if self.er_more.q.val() {
                self.ev_w2.d.next = 1.into();
            }
            self.er_pend.d.next = false;
            self.er_more.d.next = false;
        }
        // A refused command: one pending error event; a further one while
        // it waits sets its word 2 bit 0 (more errors followed, see
        // ERROR_INFO) instead of being queued.
        if self.bad_valid.val() {
            if self.er_pend.q.val() & (!(self.ev_free.val() & (!self.pop.val()))) {
                self.er_more.d.next = true;
            } else {
                self.er_pend.d.next = true;
                self.er_more.d.next = false;
                self.er_w0.d.next = (bit_cast::<64, 8>(self.bad_code.val()) << 8)
                    | (bit_cast::<64, 16>(self.bad_arg0.val()) << 16)
                    | 5_u64; // = event::ERROR
                self.er_w1.d.next = bit_cast::<64, 8>(self.bad_op.val())
                    | (bit_cast::<64, 8>(self.bad_tag.val()) << 8);
            }
        }

        if self.rst.val() {
            self.cur.d.next = 0.into();
            self.dptr.d.next = 0.into();
            self.quiet.d.next = 12.into(); // = SETTLE_CLOCKS
            self.ok_r.d.next = false;
            self.dn_r.d.next = false;
            self.err_done_r.d.next = false;
            self.err_ovf_r.d.next = false;
            self.late_r.d.next = false;
            self.bump.d.next = false;
            self.sweeping.d.next = false;
            self.q_head.d.next = 0.into();
            self.q_tail.d.next = 0.into();
            self.q_count.d.next = 0.into();
            self.issued_r.d.next = 0.into();
            self.done_r.d.next = 0.into();
            self.ev_valid.d.next = false;
            self.er_pend.d.next = false;
            self.er_more.d.next = false;
            for i in 0..EPOCHS {
                self.cnt[i].d.next = 0.into();
            }
        }

        self.epoch.next = self.cur.q.val();
        self.m_ev_valid.next = self.ev_valid.q.val();
        self.m_ev_w0.next = self.ev_w0.q.val();
        self.m_ev_w1.next = self.ev_w1.q.val();
        self.m_ev_w2.next = self.ev_w2.q.val();
        self.issued.next = self.issued_r.q.val();
        self.completed.next = self.done_r.q.val();
        self.in_progress.next = self.q_count.q.val();
        self.err_done.next = self.err_done_r.q.val();
        self.err_overflow.next = self.err_ovf_r.q.val();
        self.mon_late_ok.next = self.late_r.q.val();
    }
}
