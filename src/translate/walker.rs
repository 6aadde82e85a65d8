#![doc = include_str!("../../docs/walker.md")]

use rust_hdl::prelude::*;

use crate::common::interfaces::AxiReadMaster;

/// State of one walk slot.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum SlotState {
    /// Holds no walk; may be allocated.
    Free,
    /// Allocated on the last edge; becomes Issue (or Done for an `off`
    /// out of reach).
    Alloc,
    /// Has the address of its next PTE and waits for the pick register.
    Issue,
    /// Picked, its AR in the AR register or accepted; waits for the one R beat
    /// with its ID.
    Wait,
    /// Holds a result and waits for the completion stream.
    Done,
}

/// Completion status: a leaf was found (`done_ppn`, `done_size`,
/// `done_writable` are valid).
pub const STATUS_OK: u64 = 0;
/// Completion status: some PTE on the path had P clear (a page fault).
pub const STATUS_NOT_PRESENT: u64 = 1;
/// Completion status: an AXI read answered SLVERR or DECERR, a level-3 PTE had
/// the reserved H bit, or `off` lies beyond what the tree reaches.
pub const STATUS_FATAL: u64 = 2;

/// Which of a walk's possible leaves a flush covers: the combinational
/// range compare of one walk slot (or of the caller's probe) against the
/// flush command the walker registered (`fl_*`).
///
/// `off` is the walk's offset; only bits 47:12 are compared (a walk in
/// reach has `off < 2^48`). The outputs are independent of the leaf's size,
/// which is known only when the walk ends:
///
/// - `page`: the flush covers the walk's 4 KiB page, or its whole MR, or
///   everything. Whatever leaf the walk finds covers that page, so the walk
///   is stale.
/// - `in2m` / `in1g`: the flush range meets the 2 MiB / 1 GiB region around
///   `off`: the walk is stale if its leaf turns out to be that large.
///
/// A region `n` of `2^s` bytes meets `[off_lo, off_hi)` when
/// `n >= off_lo >> s` and `n < ceil(off_hi / 2^s)`, that is `n < off_hi >>
/// s`, or equal to it with `off_hi`'s bits below `s` not all zero (`frac*`).
/// The three sizes share one compare: the page number (bits 47:12) is
/// compared in three chunks, 47:30 (1 GiB), 29:21 and 20:12, and each size
/// combines the chunks above its own.
#[derive(LogicBlock, Default)]
pub struct FlushMatch {
    /// The flush is an ALL.
    pub all: Signal<In, Bit>,
    /// The flush is a BY_MR.
    pub by_mr: Signal<In, Bit>,
    /// The flush is a BY_MR_RANGE whose `off_lo` is below `2^48`.
    pub range: Signal<In, Bit>,
    /// The flush's MR.
    pub fl_mr: Signal<In, Bits<8>>,
    /// `off_lo` bits 47:12.
    pub lo: Signal<In, Bits<36>>,
    /// `off_hi` bits 47:12.
    pub hi: Signal<In, Bits<36>>,
    /// `off_hi >= 2^48`: no upper bound.
    pub hi_big: Signal<In, Bit>,
    /// `off_hi` bits 11:0 not all zero.
    pub frac4: Signal<In, Bit>,
    /// `off_hi` bits 20:0 not all zero.
    pub frac2: Signal<In, Bit>,
    /// `off_hi` bits 29:0 not all zero.
    pub frac1: Signal<In, Bit>,
    /// The walk's MR.
    pub mr: Signal<In, Bits<8>>,
    /// The walk's offset.
    pub off: Signal<In, Bits<64>>,
    /// The walk is stale whatever its leaf.
    pub page: Signal<Out, Bit>,
    /// The walk is stale if its leaf is 2 MiB.
    pub in2m: Signal<Out, Bit>,
    /// The walk is stale if its leaf is 1 GiB.
    pub in1g: Signal<Out, Bit>,
    mr_eq: Signal<Local, Bit>,
    a_gt_lo: Signal<Local, Bit>,
    a_eq_lo: Signal<Local, Bit>,
    b_gt_lo: Signal<Local, Bit>,
    b_eq_lo: Signal<Local, Bit>,
    c_ge_lo: Signal<Local, Bit>,
    a_lt_hi: Signal<Local, Bit>,
    a_eq_hi: Signal<Local, Bit>,
    b_lt_hi: Signal<Local, Bit>,
    b_eq_hi: Signal<Local, Bit>,
    c_lt_hi: Signal<Local, Bit>,
    c_eq_hi: Signal<Local, Bit>,
    ge2: Signal<Local, Bit>,
    lt2: Signal<Local, Bit>,
}

impl Logic for FlushMatch {
    #[hdl_gen]
    fn update(&mut self) {
        self.mr_eq.next = self.mr.val() == self.fl_mr.val();
        // Chunks of the page number: a = bits 47:30, b = 29:21, c = 20:12.
        self.a_gt_lo.next = self.off.val().get_bits::<18>(30) > self.lo.val().get_bits::<18>(18);
        self.a_eq_lo.next = self.off.val().get_bits::<18>(30) == self.lo.val().get_bits::<18>(18);
        self.b_gt_lo.next = self.off.val().get_bits::<9>(21) > self.lo.val().get_bits::<9>(9);
        self.b_eq_lo.next = self.off.val().get_bits::<9>(21) == self.lo.val().get_bits::<9>(9);
        self.c_ge_lo.next = self.off.val().get_bits::<9>(12) >= self.lo.val().get_bits::<9>(0);
        self.a_lt_hi.next = self.off.val().get_bits::<18>(30) < self.hi.val().get_bits::<18>(18);
        self.a_eq_hi.next = self.off.val().get_bits::<18>(30) == self.hi.val().get_bits::<18>(18);
        self.b_lt_hi.next = self.off.val().get_bits::<9>(21) < self.hi.val().get_bits::<9>(9);
        self.b_eq_hi.next = self.off.val().get_bits::<9>(21) == self.hi.val().get_bits::<9>(9);
        self.c_lt_hi.next = self.off.val().get_bits::<9>(12) < self.hi.val().get_bits::<9>(0);
        self.c_eq_hi.next = self.off.val().get_bits::<9>(12) == self.hi.val().get_bits::<9>(0);
        self.ge2.next = self.b_gt_lo.val() | self.b_eq_lo.val();
        self.lt2.next = self.b_lt_hi.val() | (self.b_eq_hi.val() & self.frac2.val());
        self.page.next = self.all.val()
            | (self.by_mr.val() & self.mr_eq.val())
            | (self.range.val()
                & self.mr_eq.val()
                & (self.a_gt_lo.val()
                    | (self.a_eq_lo.val()
                        & (self.b_gt_lo.val() | (self.b_eq_lo.val() & self.c_ge_lo.val()))))
                & (self.hi_big.val()
                    | self.a_lt_hi.val()
                    | (self.a_eq_hi.val()
                        & (self.b_lt_hi.val()
                            | (self.b_eq_hi.val()
                                & (self.c_lt_hi.val()
                                    | (self.c_eq_hi.val() & self.frac4.val())))))));
        self.in2m.next = self.range.val()
            & self.mr_eq.val()
            & (self.a_gt_lo.val() | (self.a_eq_lo.val() & self.ge2.val()))
            & (self.hi_big.val() | self.a_lt_hi.val() | (self.a_eq_hi.val() & self.lt2.val()));
        self.in1g.next = self.range.val()
            & self.mr_eq.val()
            & (self.a_gt_lo.val() | self.a_eq_lo.val())
            & (self.hi_big.val() | self.a_lt_hi.val() | (self.a_eq_hi.val() & self.frac1.val()));
    }
}

/// Page-table walker with `SLOTS` concurrent walks (1..=8; the product's
/// default is 8).
///
/// # What it does
///
/// A request names a memory region (`req_mr`), the offset into it
/// (`req_off`, SPEC section 3: `off = va - (base_va & !0xFFF)`), the MR's
/// root table (`req_root`, a 4 KiB frame number) and its depth
/// (`req_levels_m1` = levels - 1). The walker reads one 64-bit PTE per level
/// over AXI4 and answers on the completion stream with the leaf's frame
/// number, size and W bit, or NOT_PRESENT, or FATAL.
///
/// Each request is attached to a *slot*, reported on `req_id` at the
/// handshake. A request for the same `mr` and the same 4 KiB page
/// (`off[63:12]`) as a walk that is still reading memory starts no walk: it is
/// attached to that walk's slot (`req_coalesced` = 1) and is answered by that
/// walk's single completion. The caller keeps the list of requests waiting on
/// each slot; the completion's `done_id` names the slot.
///
/// # Parameters
///
/// - `SLOTS`: walks in flight, 1..=8 (asserted by [`Walker::new`]). Slot `i`
///   uses AXI ID `i`.
///
/// # Ports
///
/// Everything is synchronous to `clock`; streams are valid/ready and transfer
/// on a rising edge where both are high.
///
/// - Request stream (`req_*`): `req_ready`, `req_id` and `req_coalesced` are
///   combinational in the walker's registers (not in the payload,
///   `req_valid`, `done_ready` or any AXI input); the caller records
///   `req_id`/`req_coalesced` at the handshake. A request is compared with
///   the walks in the clock it is first offered and taken from its second
///   clock on: `req_ready` is low in a request's first clock, and otherwise
///   only when no slot is free and no walk in flight matches (and during
///   `rst`). The payload holds while `req_valid && !req_ready`.
/// - Completion stream (`done_*`): one completion per walk, in any order
///   across slots; payload holds while `done_valid && !done_ready`, except
///   `done_stale`, which rises if a `flush` hits the waiting completion
///   (sample it at the handshake); the slot is free from the edge that
///   accepts its completion. `done_valid`/`done_id` are registers and the
///   payload a one-hot mux of registers.
/// - Flush (`flush`, `flush_kind`, `flush_mr`, `flush_off_lo`,
///   `flush_off_hi`): one-clock pulse from the invalidation, with its
///   command: kind 0 ALL, 1 BY_MR, 2 BY_MR_RANGE (`[off_lo, off_hi)` in the
///   MR's offset space), 3 none (the TLB's codes). The walker registers
///   the command (`flush_busy` is high in the next clock) and compares it,
///   in that next clock, with every walk holding a slot then, which
///   includes every walk that held one in the pulse's clock and one
///   accepted on that very clock. A walk it covers completes with
///   `done_stale` = 1; the caller must not fill its TLB from it. Covered
///   means: ALL; BY_MR of the walk's MR; BY_MR_RANGE of its MR whose range
///   meets the leaf the walk finds (its 4 KiB page, 2 MiB or 1 GiB region by
///   the leaf's size; a walk that fails is judged by its 4 KiB page). Walks
///   of other pages complete as usual: a stream of invalidations of other
///   pages never restarts a walk. A walk whose own page is covered accepts
///   no further coalescing: a later request for its page starts a fresh
///   walk. An empty range (`off_hi <= off_lo`) may mark walks of the pages
///   around it (the invalidation unit refuses empty ranges); one with
///   `off_lo >= 2^48` marks nothing.
/// - `flush_busy`: the command of the last clock's pulse is being compared.
///   A completion taken in this clock was chosen before it, so its
///   `done_stale` does not include it: the caller holds `done_ready` low,
///   and judges a completion it has already taken with the probe.
/// - Probe (`probe_mr`, `probe_off`, `probe_size`, `probe_stale`): the same
///   compare for one completion the caller holds (its MR, offset and leaf
///   size code, 0 for a failed walk): `probe_stale` is high when
///   `flush_busy` and the command covers it. Combinational.
/// - AXI4 read master (`m_axi_ar*`, `m_axi_r*`): single-beat reads
///   (`arlen` 0, `arsize` 3 = 8 bytes, `arburst` INCR), `arid` = slot,
///   at most one read per slot in flight, data accepted in any order across
///   IDs. The AR outputs are registers. `m_axi_rready` is always high: every
///   R beat is taken on arrival.
///
/// # Latency
///
/// Let `L` be the memory's clocks from AR handshake to R handshake, with
/// `m_axi_arready` and `done_ready` high and no other walk competing. A
/// request accepted on rising edge `t` has `done_valid` high in the clock
/// that ends with edge `t + levels * (L + 1) + 3`:
///
/// - the slot is picked for the root PTE's AR on edge `t + 1` (the slot's
///   Alloc clock), the AR is loaded into the AR register on `t + 2` and
///   accepted on `t + 3`;
/// - each R beat that leads one level down loads the next AR straight into
///   the AR register on its own edge: one clock plus `L` per further level;
/// - the R beat that ends the walk loads the completion register on its
///   own edge: `done_valid` the clock after.
///
/// The overhead over `levels * L` is `levels + 3`, 4..7 clocks, from the
/// handshake, and `levels + 4`, 5..8 clocks, from the first clock the
/// request is offered (SPEC: <= 8).
/// The pick clock keeps the AR choice and the address mux in separate
/// clocks (the walker's longest path otherwise).
/// An `off` beyond the tree's reach completes 3 clocks after the handshake
/// without reading memory. The AR channel issues up to one read per clock
/// across slots and the completion stream one completion per clock; requests
/// are taken at most one per 2 clocks.
///
/// # Reset
///
/// `rst` (synchronous, active high) cancels every walk and drops every
/// pending completion; no request or completion handshakes while `rst` is
/// high. AXI reads already issued are not abandoned: a slot whose AR was
/// accepted, or is held in the AR register (AXI forbids withdrawing it: the
/// register keeps presenting it until `m_axi_arready`), becomes an
/// *orphan*: it takes its R beat (rready stays high) and drops it, then
/// frees itself. Orphans are never allocated, never coalesced onto and
/// never complete, so a stale R beat can not be mistaken for a new walk's
/// data under the same ID.
///
/// # Invariants
///
/// - At most one AR outstanding per slot; `arid` < `SLOTS`.
/// - `m_axi_arvalid`, once high, stays high with a stable payload until
///   `m_axi_arready` (also across `rst`); same for `done_valid` and its
///   payload, except that `rst` withdraws a pending completion and `flush`
///   may raise `done_stale` (never lower it).
/// - Among walks whose own page no flush covered, at most one per (`mr`,
///   `off[63:12]`) is reading memory at any time.
/// - Coalescing assumes `req_root`/`req_levels_m1` are a function of `req_mr`
///   while a walk of that MR is in flight; rewriting an MR must be followed
///   by a BY_MR or ALL `flush` (the stale walks then accept no new
///   requests).
///
/// # Bad input
///
/// - `off >= 2^(12 + 9 * levels)`: FATAL, no memory read. The MR write
///   command should refuse MRs whose length exceeds the tree's reach.
/// - An R beat whose ID names no slot waiting for data is ignored.
/// - `rresp` OKAY or EXOKAY is data; SLVERR or DECERR is FATAL.
#[derive(LogicBlock)]
pub struct Walker<const SLOTS: usize> {
    /// Clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous active-high reset (see "Reset").
    pub rst: Signal<In, Bit>,

    /// Request valid.
    pub req_valid: Signal<In, Bit>,
    /// Request ready: a slot is free or a walk of the same page is reading.
    pub req_ready: Signal<Out, Bit>,
    /// Memory region of the request (coalescing key together with `off[63:12]`).
    pub req_mr: Signal<In, Bits<8>>,
    /// Byte offset into the MR's page-table address space.
    pub req_off: Signal<In, Bits<64>>,
    /// Root table's 4 KiB frame number (physical address >> 12).
    pub req_root: Signal<In, Bits<52>>,
    /// Number of table levels minus one (0..3 for levels 1..4).
    pub req_levels_m1: Signal<In, Bits<2>>,
    /// Slot the request is attached to (valid while `req_valid && req_ready`).
    pub req_id: Signal<Out, Bits<3>>,
    /// 1 when the request joined a walk already in flight.
    pub req_coalesced: Signal<Out, Bit>,

    /// Completion valid.
    pub done_valid: Signal<Out, Bit>,
    /// Completion ready; the slot is freed at the handshake.
    pub done_ready: Signal<In, Bit>,
    /// Slot that completed (the `req_id` its requests were given).
    pub done_id: Signal<Out, Bits<3>>,
    /// 0 OK, 1 NOT_PRESENT, 2 FATAL.
    pub done_status: Signal<Out, Bits<2>>,
    /// MR of the walk.
    pub done_mr: Signal<Out, Bits<8>>,
    /// `off` of the walk (of the request that started it).
    pub done_off: Signal<Out, Bits<64>>,
    /// Leaf PTE bits 51:12 (frame number; huge leaves as written in the PTE); 0 unless OK.
    pub done_ppn: Signal<Out, Bits<52>>,
    /// Leaf size: 0 4 KiB, 1 2 MiB, 2 1 GiB; 0 unless OK.
    pub done_size: Signal<Out, Bits<2>>,
    /// Leaf W bit; 0 unless OK.
    pub done_writable: Signal<Out, Bit>,
    /// A `flush` covering this walk's leaf happened while the walk held its
    /// slot: do not cache it.
    pub done_stale: Signal<Out, Bit>,

    /// One-clock pulse: mark the walks holding a slot that the command
    /// (`flush_*`) covers stale.
    pub flush: Signal<In, Bit>,
    /// 0 ALL, 1 BY_MR, 2 BY_MR_RANGE, 3 none.
    pub flush_kind: Signal<In, Bits<2>>,
    /// MR of BY_MR and BY_MR_RANGE.
    pub flush_mr: Signal<In, Bits<8>>,
    /// Start of the BY_MR_RANGE range, in the MR's offset space.
    pub flush_off_lo: Signal<In, Bits<64>>,
    /// End (exclusive) of the BY_MR_RANGE range.
    pub flush_off_hi: Signal<In, Bits<64>>,
    /// The last clock's flush is being compared: take no completion now.
    pub flush_busy: Signal<Out, Bit>,
    /// Probe: MR of a completion the caller holds.
    pub probe_mr: Signal<In, Bits<8>>,
    /// Probe: its offset.
    pub probe_off: Signal<In, Bits<64>>,
    /// Probe: its leaf size code (0 for a failed walk).
    pub probe_size: Signal<In, Bits<2>>,
    /// The flush being compared (`flush_busy`) covers the probe.
    pub probe_stale: Signal<Out, Bit>,

    /// AXI4 read master for the page-table reads (`m_axi_*`).
    pub m_axi: AxiReadMaster,

    // Per-slot registers.
    state: [DFF<SlotState>; SLOTS],
    /// The slot's walk was cancelled by `rst` with a read still on the bus.
    orphan: [DFF<Bit>; SLOTS],
    /// A flush covered the walk's own page (or its MR, or everything).
    stale: [DFF<Bit>; SLOTS],
    /// A flush met the 2 MiB region around the walk's page.
    stale2m: [DFF<Bit>; SLOTS],
    /// A flush met the 1 GiB region around the walk's page.
    stale1g: [DFF<Bit>; SLOTS],
    mr: [DFF<Bits<8>>; SLOTS],
    off: [DFF<Bits<64>>; SLOTS],
    /// Level of the table being read (Issue/Wait) or of the leaf (Done).
    level: [DFF<Bits<2>>; SLOTS],
    /// Index of the next PTE in its table (`off` field of `level`).
    pte_index: [DFF<Bits<9>>; SLOTS],
    /// Frame of the table being read (Issue/Wait) or of the leaf (Done).
    frame: [DFF<Bits<52>>; SLOTS],
    status: [DFF<Bits<2>>; SLOTS],
    /// The request's off is beyond the tree's reach (valid in Alloc).
    unreachable: [DFF<Bit>; SLOTS],
    writable: [DFF<Bit>; SLOTS],

    // AR channel: the output register, the pick register before it
    // (`pk_sel` one-hot) and the round-robin pointer.
    pk_valid: DFF<Bit>,
    pk_id: DFF<Bits<3>>,
    pk_sel: [DFF<Bit>; SLOTS],
    ar_valid: DFF<Bit>,
    ar_id: DFF<Bits<3>>,
    ar_addr: DFF<Bits<64>>,
    /// Slots after the last AR grant (round-robin pointer, thermometer).
    ar_mask: [DFF<Bit>; SLOTS],
    // Completion arbiter: the slot presented (registered), round robin.
    done_present: DFF<Bit>,
    done_cur: DFF<Bits<3>>,
    done_rr: DFF<Bits<3>>,
    // The request offered in the last clock was not taken: its payload
    // is the same in this one (stream rule), and `eq_q` holds its compare
    // with every slot.
    armed: DFF<Bit>,
    // Per slot: the last clock's request payload has the slot's MR and
    // 4 KiB page (bits 47:12, with 63:48 zero).
    eq_q: [DFF<Bit>; SLOTS],
    // The flush command of the last clock, bounds in page units
    // (`FlushMatch`).
    fl_valid: DFF<Bit>,
    fl_all: DFF<Bit>,
    fl_by_mr: DFF<Bit>,
    fl_range: DFF<Bit>,
    fl_mr: DFF<Bits<8>>,
    fl_lo: DFF<Bits<36>>,
    fl_hi: DFF<Bits<36>>,
    fl_hi_big: DFF<Bit>,
    fl_frac4: DFF<Bit>,
    fl_frac2: DFF<Bit>,
    fl_frac1: DFF<Bit>,
    fm: [FlushMatch; SLOTS],
    fm_probe: FlushMatch,

    // Combinational helpers.
    match_found: Signal<Local, Bit>,
    match_id: Signal<Local, Bits<3>>,
    free_found: Signal<Local, Bit>,
    free_id: Signal<Local, Bits<3>>,
    req_out_of_reach: Signal<Local, Bit>,
    req_index: Signal<Local, Bits<9>>,
    ar_found: Signal<Local, Bit>,
    ar_grant: Signal<Local, Bits<3>>,
    ar_load_ok: Signal<Local, Bit>,
    ar_take: Signal<Local, Bit>,
    pk_load: Signal<Local, Bit>,
    ar_direct: Signal<Local, Bit>,
    ar_cand: [Signal<Local, Bit>; SLOTS],
    r_any: Signal<Local, Bit>,
    r_orphan: Signal<Local, Bit>,
    r_level: Signal<Local, Bits<2>>,
    r_next_index: Signal<Local, Bits<9>>,
    r_descend: Signal<Local, Bit>,
    r_finish: Signal<Local, Bit>,
    next_index: [Signal<Local, Bits<9>>; SLOTS],
    ar_gnt: [Signal<Local, Bit>; SLOTS],
    gnt_masked: [Signal<Local, Bit>; SLOTS],
    gnt_first: [Signal<Local, Bit>; SLOTS],
    seen_masked: Signal<Local, Bit>,
    gnt_below: Signal<Local, Bit>,
    ar_frame: Signal<Local, Bits<52>>,
    ar_index: Signal<Local, Bits<9>>,
    done_found: Signal<Local, Bit>,
    done_sel: Signal<Local, Bits<3>>,
    done_fire: Signal<Local, Bit>,
    done_next_rr: Signal<Local, Bits<3>>,
    r_hit: [Signal<Local, Bit>; SLOTS],
    slot_match: [Signal<Local, Bit>; SLOTS],
    done_cand: [Signal<Local, Bit>; SLOTS],
    slot_free: [Signal<Local, Bit>; SLOTS],
    req_off_high_zero: Signal<Local, Bit>,
    pte_frame: Signal<Local, Bits<52>>,
    slot_stale: [Signal<Local, Bit>; SLOTS],
}

impl<const SLOTS: usize> Walker<SLOTS> {
    /// A walker with `SLOTS` walk slots; panics unless `1 <= SLOTS <= 8`.
    pub fn new() -> Self {
        assert!(
            (1..=8).contains(&SLOTS),
            "Walker: SLOTS must be in 1..=8 (3-bit slot IDs), got {SLOTS}"
        );
        Self {
            clock: Default::default(),
            rst: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_mr: Default::default(),
            req_off: Default::default(),
            req_root: Default::default(),
            req_levels_m1: Default::default(),
            req_id: Default::default(),
            req_coalesced: Default::default(),
            done_valid: Default::default(),
            done_ready: Default::default(),
            done_id: Default::default(),
            done_status: Default::default(),
            done_mr: Default::default(),
            done_off: Default::default(),
            done_ppn: Default::default(),
            done_size: Default::default(),
            done_writable: Default::default(),
            done_stale: Default::default(),
            flush: Default::default(),
            flush_kind: Default::default(),
            flush_mr: Default::default(),
            flush_off_lo: Default::default(),
            flush_off_hi: Default::default(),
            flush_busy: Default::default(),
            probe_mr: Default::default(),
            probe_off: Default::default(),
            probe_size: Default::default(),
            probe_stale: Default::default(),
            m_axi: Default::default(),
            state: std::array::from_fn(|_| Default::default()),
            orphan: std::array::from_fn(|_| Default::default()),
            stale: std::array::from_fn(|_| Default::default()),
            stale2m: std::array::from_fn(|_| Default::default()),
            stale1g: std::array::from_fn(|_| Default::default()),
            mr: std::array::from_fn(|_| Default::default()),
            off: std::array::from_fn(|_| Default::default()),
            level: std::array::from_fn(|_| Default::default()),
            pte_index: std::array::from_fn(|_| Default::default()),
            frame: std::array::from_fn(|_| Default::default()),
            status: std::array::from_fn(|_| Default::default()),
            unreachable: std::array::from_fn(|_| Default::default()),
            writable: std::array::from_fn(|_| Default::default()),
            pk_valid: Default::default(),
            pk_id: Default::default(),
            pk_sel: std::array::from_fn(|_| Default::default()),
            ar_valid: Default::default(),
            ar_id: Default::default(),
            ar_addr: Default::default(),
            ar_mask: std::array::from_fn(|_| Default::default()),
            done_present: Default::default(),
            done_cur: Default::default(),
            done_rr: Default::default(),
            armed: Default::default(),
            eq_q: std::array::from_fn(|_| Default::default()),
            fl_valid: Default::default(),
            fl_all: Default::default(),
            fl_by_mr: Default::default(),
            fl_range: Default::default(),
            fl_mr: Default::default(),
            fl_lo: Default::default(),
            fl_hi: Default::default(),
            fl_hi_big: Default::default(),
            fl_frac4: Default::default(),
            fl_frac2: Default::default(),
            fl_frac1: Default::default(),
            fm: std::array::from_fn(|_| Default::default()),
            fm_probe: Default::default(),
            match_found: Default::default(),
            match_id: Default::default(),
            free_found: Default::default(),
            free_id: Default::default(),
            req_out_of_reach: Default::default(),
            req_index: Default::default(),
            ar_found: Default::default(),
            ar_grant: Default::default(),
            ar_load_ok: Default::default(),
            ar_take: Default::default(),
            pk_load: Default::default(),
            ar_direct: Default::default(),
            ar_cand: std::array::from_fn(|_| Default::default()),
            r_any: Default::default(),
            r_orphan: Default::default(),
            r_level: Default::default(),
            r_next_index: Default::default(),
            r_descend: Default::default(),
            r_finish: Default::default(),
            next_index: std::array::from_fn(|_| Default::default()),
            ar_gnt: std::array::from_fn(|_| Default::default()),
            gnt_masked: std::array::from_fn(|_| Default::default()),
            gnt_first: std::array::from_fn(|_| Default::default()),
            seen_masked: Default::default(),
            gnt_below: Default::default(),
            ar_frame: Default::default(),
            ar_index: Default::default(),
            done_found: Default::default(),
            done_sel: Default::default(),
            done_fire: Default::default(),
            done_next_rr: Default::default(),
            r_hit: std::array::from_fn(|_| Default::default()),
            slot_match: std::array::from_fn(|_| Default::default()),
            done_cand: std::array::from_fn(|_| Default::default()),
            slot_free: std::array::from_fn(|_| Default::default()),
            req_off_high_zero: Default::default(),
            pte_frame: Default::default(),
            slot_stale: std::array::from_fn(|_| Default::default()),
        }
    }
}

impl<const SLOTS: usize> Default for Walker<SLOTS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const SLOTS: usize> Logic for Walker<SLOTS> {
    // The walk, from SPEC section 3 ("Page tables in host memory"):
    //
    //   Per MR, a radix tree of 4 KiB tables of 512 little-endian 64-bit
    //   entries. `levels` is 1..4. The walk starts at the root table at level
    //   `levels-1`; the index at level i is `off[12+9i+8 : 12+9i]`; the entry
    //   is at `table + 8*index`.
    //     bit 0  P   present; a clear P at any level is a page fault
    //     bit 1  W   writable
    //     bit 7  H   at level 1: a 2 MiB leaf; at level 2: a 1 GiB leaf;
    //                at level 0 ignored; at level 3 reserved (FATAL)
    //     51:12      physical address of the next table, or of the page frame
    //
    // Per slot: Free --req--> Alloc --> Issue --pick--> Wait --R-->
    // (Issue or, straight through the AR register, Wait one level down |
    // Done) --completion--> Free. Alloc may be picked itself
    // (Alloc --> Wait). An off the tree can not reach goes Alloc --> Done
    // (FATAL) without a read.
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            ar_valid,
            pk_valid,
            pk_id,
            ar_id,
            ar_addr,
            done_present,
            done_cur,
            done_rr,
            armed,
            fl_valid,
            fl_all,
            fl_by_mr,
            fl_range,
            fl_mr,
            fl_lo,
            fl_hi,
            fl_hi_big,
            fl_frac4,
            fl_frac2,
            fl_frac1
        );
        for i in 0..SLOTS {
            self.eq_q[i].clock.next = self.clock.val();
            self.pk_sel[i].clock.next = self.clock.val();
            self.pk_sel[i].d.next = self.pk_sel[i].q.val();
            self.ar_mask[i].clock.next = self.clock.val();
            self.ar_mask[i].d.next = self.ar_mask[i].q.val();
            self.state[i].clock.next = self.clock.val();
            self.orphan[i].clock.next = self.clock.val();
            self.stale[i].clock.next = self.clock.val();
            self.stale2m[i].clock.next = self.clock.val();
            self.stale1g[i].clock.next = self.clock.val();
            self.mr[i].clock.next = self.clock.val();
            self.off[i].clock.next = self.clock.val();
            self.level[i].clock.next = self.clock.val();
            self.pte_index[i].clock.next = self.clock.val();
            self.frame[i].clock.next = self.clock.val();
            self.status[i].clock.next = self.clock.val();
            self.unreachable[i].clock.next = self.clock.val();
            self.writable[i].clock.next = self.clock.val();
            self.state[i].d.next = self.state[i].q.val();
            self.orphan[i].d.next = self.orphan[i].q.val();
            self.stale[i].d.next = self.stale[i].q.val();
            self.stale2m[i].d.next = self.stale2m[i].q.val();
            self.stale1g[i].d.next = self.stale1g[i].q.val();
            self.mr[i].d.next = self.mr[i].q.val();
            self.off[i].d.next = self.off[i].q.val();
            self.level[i].d.next = self.level[i].q.val();
            self.pte_index[i].d.next = self.pte_index[i].q.val();
            self.frame[i].d.next = self.frame[i].q.val();
            self.status[i].d.next = self.status[i].q.val();
            self.unreachable[i].d.next = self.unreachable[i].q.val();
            self.writable[i].d.next = self.writable[i].q.val();
        }

        // ---- Flush: register the command (bits 47:12 of its bounds and
        // the flags the compare needs), then compare it with every slot in
        // the next clock.
        self.fl_valid.d.next = self.flush.val() & !self.rst.val();
        self.fl_all.d.next = self.flush_kind.val() == 0;
        self.fl_by_mr.d.next = self.flush_kind.val() == 1;
        self.fl_range.d.next =
            (self.flush_kind.val() == 2) & !self.flush_off_lo.val().get_bits::<16>(48).any();
        self.fl_mr.d.next = self.flush_mr.val();
        self.fl_lo.d.next = self.flush_off_lo.val().get_bits::<36>(12);
        self.fl_hi.d.next = self.flush_off_hi.val().get_bits::<36>(12);
        self.fl_hi_big.d.next = self.flush_off_hi.val().get_bits::<16>(48).any();
        self.fl_frac4.d.next = self.flush_off_hi.val().get_bits::<12>(0).any();
        self.fl_frac2.d.next = self.flush_off_hi.val().get_bits::<21>(0).any();
        self.fl_frac1.d.next = self.flush_off_hi.val().get_bits::<30>(0).any();
        for i in 0..SLOTS {
            self.fm[i].all.next = self.fl_all.q.val();
            self.fm[i].by_mr.next = self.fl_by_mr.q.val();
            self.fm[i].range.next = self.fl_range.q.val();
            self.fm[i].fl_mr.next = self.fl_mr.q.val();
            self.fm[i].lo.next = self.fl_lo.q.val();
            self.fm[i].hi.next = self.fl_hi.q.val();
            self.fm[i].hi_big.next = self.fl_hi_big.q.val();
            self.fm[i].frac4.next = self.fl_frac4.q.val();
            self.fm[i].frac2.next = self.fl_frac2.q.val();
            self.fm[i].frac1.next = self.fl_frac1.q.val();
            self.fm[i].mr.next = self.mr[i].q.val();
            self.fm[i].off.next = self.off[i].q.val();
            // Stale as the completion reports it: by the leaf's size
            // (`level` of a Done slot; 0 for a failed walk).
            self.slot_stale[i].next = self.stale[i].q.val()
                | (self.stale2m[i].q.val() & (self.level[i].q.val() == 1))
                | (self.stale1g[i].q.val() & (self.level[i].q.val() == 2));
        }
        self.fm_probe.all.next = self.fl_all.q.val();
        self.fm_probe.by_mr.next = self.fl_by_mr.q.val();
        self.fm_probe.range.next = self.fl_range.q.val();
        self.fm_probe.fl_mr.next = self.fl_mr.q.val();
        self.fm_probe.lo.next = self.fl_lo.q.val();
        self.fm_probe.hi.next = self.fl_hi.q.val();
        self.fm_probe.hi_big.next = self.fl_hi_big.q.val();
        self.fm_probe.frac4.next = self.fl_frac4.q.val();
        self.fm_probe.frac2.next = self.fl_frac2.q.val();
        self.fm_probe.frac1.next = self.fl_frac1.q.val();
        self.fm_probe.mr.next = self.probe_mr.val();
        self.fm_probe.off.next = self.probe_off.val();
        self.flush_busy.next = self.fl_valid.q.val();
        self.probe_stale.next = self.fl_valid.q.val()
            & (self.fm_probe.page.val()
                | (self.fm_probe.in2m.val() & (self.probe_size.val() == 1))
                | (self.fm_probe.in1g.val() & (self.probe_size.val() == 2)));

        // ---- Request side: coalesce onto a walk still reading memory (not
        // stale, not orphaned), else take the lowest free slot.
        //
        // Reach check (off >= 2^(12 + 9 * levels)) and the root-level index.
        self.req_out_of_reach.next = false;
        self.req_index.next = 0.into();
        match self.req_levels_m1.val().index() {
            0 => {
                self.req_out_of_reach.next = self.req_off.val().get_bits::<43>(21).any();
                self.req_index.next = self.req_off.val().get_bits::<9>(12);
            }
            1 => {
                self.req_out_of_reach.next = self.req_off.val().get_bits::<34>(30).any();
                self.req_index.next = self.req_off.val().get_bits::<9>(21);
            }
            2 => {
                self.req_out_of_reach.next = self.req_off.val().get_bits::<25>(39).any();
                self.req_index.next = self.req_off.val().get_bits::<9>(30);
            }
            _ => {
                self.req_out_of_reach.next = self.req_off.val().get_bits::<16>(48).any();
                self.req_index.next = self.req_off.val().get_bits::<9>(39);
            }
        }

        // The coalescing compare is registered: a request is compared with
        // every slot in the clock it is first offered (`eq_q`) and taken
        // from its second clock on (`armed`), so the handshake, `req_id`
        // and the allocation start at flip-flops, not at a 44-bit compare
        // of the caller's payload. The compare stays true: a slot's MR and
        // off only load while it is Free, and a slot that turns live
        // between the two clocks was allocated by a handshake, which
        // disarms the request.
        for i in 0..SLOTS {
            self.slot_free[i].next = self.state[i].q.val() == SlotState::Free;
        }
        // A live walk's off is in reach, below 2^48: compare bits 47:12
        // per slot and check 63:48 once. A request equal to a live walk
        // there (same MR, so the same depth) is in reach too, so the
        // request's own reach check stays off this path; a slot whose
        // request was out of reach (Alloc, on its way to FATAL) takes no
        // joiners.
        self.req_off_high_zero.next = !self.req_off.val().get_bits::<16>(48).any();
        for i in 0..SLOTS {
            self.eq_q[i].d.next = self.req_off_high_zero.val()
                & (self.mr[i].q.val() == self.req_mr.val())
                & (self.off[i].q.val().get_bits::<36>(12) == self.req_off.val().get_bits::<36>(12));
        }
        // The live walks of one page are at most one (a walk only starts
        // when none matches, and stale walks are excluded), so the matches
        // are one-hot and need no priority chain: OR them.
        self.match_found.next = false;
        self.match_id.next = 0.into();
        self.free_found.next = false;
        self.free_id.next = 0.into();
        for i in 0..SLOTS {
            self.slot_match[i].next = ((self.state[i].q.val() == SlotState::Alloc)
                | (self.state[i].q.val() == SlotState::Issue)
                | (self.state[i].q.val() == SlotState::Wait))
                & !self.unreachable[i].q.val()
                & !self.orphan[i].q.val()
                & !self.stale[i].q.val()
                & self.eq_q[i].q.val();
            if self.slot_match[i].val() {
                self.match_found.next = true;
                self.match_id.next = self.match_id.val() | i.to_bits();
            }
            if self.slot_free[i].val() & !self.free_found.val() {
                self.free_found.next = true;
                self.free_id.next = i.to_bits();
            }
        }
        self.req_ready.next =
            self.armed.q.val() & (self.match_found.val() | self.free_found.val()) & !self.rst.val();
        self.req_coalesced.next = self.match_found.val();
        self.req_id.next = self.free_id.val();
        if self.match_found.val() {
            self.req_id.next = self.match_id.val();
        }
        self.armed.d.next = self.req_valid.val() & !self.req_ready.val() & !self.rst.val();

        // ---- R channel: always ready; a beat belongs to the slot its ID
        // names. The beat's slot fields are picked by one-hot OR muxes.
        self.m_axi.rready.next = true;
        self.r_any.next = false;
        self.r_orphan.next = false;
        self.r_level.next = 0.into();
        self.r_next_index.next = 0.into();
        for i in 0..SLOTS {
            self.r_hit[i].next = self.m_axi.rvalid.val()
                & (self.m_axi.rid.val().index() == i)
                & (self.state[i].q.val() == SlotState::Wait);
            // The index one level down (level 0 never descends).
            self.next_index[i].next = self.off[i].q.val().get_bits::<9>(30);
            if self.level[i].q.val() == 1 {
                self.next_index[i].next = self.off[i].q.val().get_bits::<9>(12);
            }
            if self.level[i].q.val() == 2 {
                self.next_index[i].next = self.off[i].q.val().get_bits::<9>(21);
            }
            if self.r_hit[i].val() {
                self.r_any.next = true;
                self.r_orphan.next = self.r_orphan.val() | self.orphan[i].q.val();
                self.r_level.next = self.r_level.val() | self.level[i].q.val();
                self.r_next_index.next = self.r_next_index.val() | self.next_index[i].val();
            }
        }
        self.pte_frame.next = bit_cast::<52, 40>(self.m_axi.rdata.val().get_bits::<40>(12));
        // A table entry above level 0 without H: the walk goes one level down.
        self.r_descend.next = self.r_any.val()
            & !self.r_orphan.val()
            & !self.m_axi.rresp.val().get_bit(1)
            & self.m_axi.rdata.val().get_bit(0) // pte::P
            & !self.m_axi.rdata.val().get_bit(7) // pte::H
            & (self.r_level.val() != 0);

        // The beat ends its (live) walk: a leaf, a fault or an error.
        self.r_finish.next = self.r_any.val() & !self.r_orphan.val() & !self.r_descend.val();

        // ---- AR channel: registered outputs, fed in two steps. The pick
        // register (`pk_*`) takes a waiting slot (round robin over Issue
        // slots and Alloc slots whose request did not coalesce) whenever it
        // is empty or hands its slot on at this edge; the picked slot is in
        // Wait from then on. When the AR register is empty or its AR is
        // accepted on this edge, it loads the picked slot's next PTE
        // address (a mux by the registered one-hot pick), or else, with no
        // slot picked, straight from this edge's R beat when that beat
        // sends its walk one level down; so a descent costs no extra clock
        // while the channel is free. The choice and the 61-bit address mux
        // are a clock apart: neither waits for the other. The AR register
        // holds until m_axi_arready, also across rst (AXI forbids
        // withdrawing it).
        for i in 0..SLOTS {
            self.ar_cand[i].next = (self.state[i].q.val() == SlotState::Issue)
                | ((self.state[i].q.val() == SlotState::Alloc) & !self.unreachable[i].q.val());
        }
        // Round robin as one-hot grants: `ar_mask` marks the slots after
        // the last grant; the first candidate there wins, else the first
        // candidate overall. No encode/decode between the grant and the mux.
        self.seen_masked.next = false;
        self.ar_found.next = false;
        for i in 0..SLOTS {
            self.gnt_masked[i].next =
                self.ar_cand[i].val() & self.ar_mask[i].q.val() & !self.seen_masked.val();
            self.gnt_first[i].next = self.ar_cand[i].val() & !self.ar_found.val();
            self.seen_masked.next =
                self.seen_masked.val() | (self.ar_cand[i].val() & self.ar_mask[i].q.val());
            self.ar_found.next = self.ar_found.val() | self.ar_cand[i].val();
        }
        self.ar_grant.next = 0.into();
        self.ar_frame.next = 0.into();
        self.ar_index.next = 0.into();
        for i in 0..SLOTS {
            self.ar_gnt[i].next = self.gnt_first[i].val();
            if self.seen_masked.val() {
                self.ar_gnt[i].next = self.gnt_masked[i].val();
            }
            if self.ar_gnt[i].val() {
                self.ar_grant.next = self.ar_grant.val() | i.to_bits();
            }
            // The picked slot's address: OR of one-hot terms, not a
            // priority chain; synthesis builds a balanced AND-OR mux.
            if self.pk_sel[i].q.val() {
                self.ar_frame.next = self.ar_frame.val() | self.frame[i].q.val();
                self.ar_index.next = self.ar_index.val() | self.pte_index[i].q.val();
            }
        }
        self.m_axi.arvalid.next = self.ar_valid.q.val();
        self.m_axi.arid.next = bit_cast::<4, 3>(self.ar_id.q.val());
        self.m_axi.araddr.next = self.ar_addr.q.val();
        self.m_axi.arlen.next = 0.into();
        self.m_axi.arsize.next = 3.into();
        self.m_axi.arburst.next = 1.into();
        self.m_axi.arlock.next = false;
        self.m_axi.arcache.next = 3.into(); // normal non-cacheable bufferable
        self.m_axi.arprot.next = 0.into();
        self.ar_load_ok.next = !self.ar_valid.q.val() | self.m_axi.arready.val();
        // The pick register hands its slot to the AR register, and is free
        // for a new pick at this edge if it does (or holds none).
        self.pk_load.next = self.ar_load_ok.val() & self.pk_valid.q.val() & !self.rst.val();
        self.ar_take.next =
            self.ar_found.val() & (!self.pk_valid.q.val() | self.pk_load.val()) & !self.rst.val();
        self.ar_direct.next =
            self.ar_load_ok.val() & !self.pk_valid.q.val() & self.r_descend.val() & !self.rst.val();
        if self.rst.val() {
            self.pk_valid.d.next = false;
        } else if !self.pk_valid.q.val() | self.pk_load.val() {
            self.pk_valid.d.next = self.ar_take.val();
            self.pk_id.d.next = self.ar_grant.val();
            for i in 0..SLOTS {
                self.pk_sel[i].d.next = self.ar_gnt[i].val();
            }
        }
        if self.rst.val() {
            self.ar_valid.d.next = self.ar_valid.q.val() & !self.m_axi.arready.val();
        } else if self.ar_load_ok.val() {
            self.ar_valid.d.next = self.pk_load.val() | self.ar_direct.val();
            // {frame, index, 3'b000}: the table is 4 KiB aligned, so no adder.
            if self.pk_valid.q.val() {
                self.ar_id.d.next = self.pk_id.q.val();
                self.ar_addr.d.next = (bit_cast::<64, 52>(self.ar_frame.val()) << 12)
                    | (bit_cast::<64, 9>(self.ar_index.val()) << 3);
            } else {
                self.ar_id.d.next = self.m_axi.rid.val().get_bits::<3>(0);
                self.ar_addr.d.next = (bit_cast::<64, 52>(self.pte_frame.val()) << 12)
                    | (bit_cast::<64, 9>(self.r_next_index.val()) << 3);
            }
        }
        self.gnt_below.next = false;
        for i in 0..SLOTS {
            if self.ar_take.val() {
                self.ar_mask[i].d.next = self.gnt_below.val();
            }
            self.gnt_below.next = self.gnt_below.val() | self.ar_gnt[i].val();
        }

        // ---- Completion stream. The slot presented is a register
        // (`done_cur`), chosen one clock ahead, so the completion outputs
        // are a short mux from registers: a round robin over the Done
        // slots not presented, else the slot whose walk the R beat of this
        // edge finishes. It is held while waiting for done_ready (stream
        // rule: payload stable).
        self.done_found.next = false;
        self.done_sel.next = 0.into();
        for i in 0..SLOTS {
            self.done_cand[i].next = (self.state[i].q.val() == SlotState::Done)
                & !(self.done_present.q.val() & (self.done_cur.q.val().index() == i));
        }
        for i in 0..SLOTS {
            if self.done_cand[i].val()
                & (self.done_rr.q.val().index() <= i)
                & !self.done_found.val()
            {
                self.done_found.next = true;
                self.done_sel.next = i.to_bits();
            }
        }
        for i in 0..SLOTS {
            if self.done_cand[i].val() & !self.done_found.val() {
                self.done_found.next = true;
                self.done_sel.next = i.to_bits();
            }
        }
        self.done_valid.next = self.done_present.q.val() & !self.rst.val();
        self.done_id.next = self.done_cur.q.val();
        self.done_status.next = 0.into();
        self.done_mr.next = 0.into();
        self.done_off.next = 0.into();
        self.done_ppn.next = 0.into();
        self.done_size.next = 0.into();
        self.done_writable.next = false;
        self.done_stale.next = false;
        for i in 0..SLOTS {
            // OR of one-hot terms (see the AR mux).
            if self.done_cur.q.val().index() == i {
                self.done_status.next = self.done_status.val() | self.status[i].q.val();
                self.done_mr.next = self.done_mr.val() | self.mr[i].q.val();
                self.done_off.next = self.done_off.val() | self.off[i].q.val();
                self.done_ppn.next = self.done_ppn.val() | self.frame[i].q.val();
                self.done_size.next = self.done_size.val() | self.level[i].q.val();
                self.done_writable.next = self.done_writable.val() | self.writable[i].q.val();
                self.done_stale.next = self.done_stale.val() | self.slot_stale[i].val();
            }
        }
        self.done_fire.next = self.done_valid.val() & self.done_ready.val();
        if self.rst.val() {
            self.done_present.d.next = false;
        } else if !self.done_present.q.val() | self.done_ready.val() {
            // A waiting Done slot first; else the walk this edge's R beat
            // finishes, presented on the next clock without a Done clock.
            self.done_present.d.next = self.done_found.val() | self.r_finish.val();
            self.done_cur.d.next = self.m_axi.rid.val().get_bits::<3>(0);
            if self.done_found.val() {
                self.done_cur.d.next = self.done_sel.val();
            }
        }
        self.done_next_rr.next = self.done_cur.q.val() + 1;
        if self.done_fire.val() {
            self.done_rr.d.next = self.done_next_rr.val();
        }

        // ---- Per-slot state machine.
        for i in 0..SLOTS {
            if self.rst.val() {
                // Cancel everything, but let reads already on the bus finish:
                // an orphan keeps presenting its AR until accepted, then
                // takes and drops its R beat.
                self.state[i].d.next = SlotState::Free;
                self.orphan[i].d.next = false;
                self.stale[i].d.next = false;
                self.stale2m[i].d.next = false;
                self.stale1g[i].d.next = false;
                // A slot in Wait has its AR accepted or held in the AR
                // register (its R beat will come), or is only picked (no
                // AR was presented: it is simply freed).
                if (self.state[i].q.val() == SlotState::Wait)
                    & !self.r_hit[i].val()
                    & !(self.pk_valid.q.val() & self.pk_sel[i].q.val())
                {
                    self.state[i].d.next = SlotState::Wait;
                    self.orphan[i].d.next = true;
                }
            } else {
                if self.fl_valid.q.val() {
                    self.stale[i].d.next = self.stale[i].q.val() | self.fm[i].page.val();
                    self.stale2m[i].d.next = self.stale2m[i].q.val() | self.fm[i].in2m.val();
                    self.stale1g[i].d.next = self.stale1g[i].q.val() | self.fm[i].in1g.val();
                }
                if self.slot_free[i].val() {
                    // A free slot's registers are don't-care, so it loads
                    // the request payload every clock.
                    self.state[i].d.next = SlotState::Free;
                    self.mr[i].d.next = self.req_mr.val();
                    self.off[i].d.next = self.req_off.val();
                    self.stale[i].d.next = false;
                    self.stale2m[i].d.next = false;
                    self.stale1g[i].d.next = false;
                    self.orphan[i].d.next = false;
                    self.writable[i].d.next = false;
                    self.pte_index[i].d.next = self.req_index.val();
                    self.status[i].d.next = 0.into(); // = STATUS_OK
                    self.level[i].d.next = self.req_levels_m1.val();
                    self.frame[i].d.next = self.req_root.val();
                    self.unreachable[i].d.next = self.req_out_of_reach.val();
                    if self.req_valid.val()
                        & self.req_ready.val()
                        & !self.match_found.val()
                        & (self.free_id.val().index() == i)
                    {
                        self.state[i].d.next = SlotState::Alloc;
                    }
                }
                match self.state[i].q.val() {
                    SlotState::Free => {}
                    SlotState::Alloc => {
                        // Start walking, or complete FATAL for an off
                        // beyond reach.
                        self.state[i].d.next = SlotState::Issue;
                        if self.unreachable[i].q.val() {
                            self.state[i].d.next = SlotState::Done;
                            self.status[i].d.next = 2.into(); // = STATUS_FATAL
                            self.level[i].d.next = 0.into();
                            self.frame[i].d.next = 0.into();
                        }
                        if self.ar_take.val() & self.ar_gnt[i].val() {
                            self.state[i].d.next = SlotState::Wait;
                        }
                    }
                    SlotState::Issue => {
                        if self.ar_take.val() & self.ar_gnt[i].val() {
                            self.state[i].d.next = SlotState::Wait;
                        }
                    }
                    SlotState::Wait => {
                        if self.r_hit[i].val() {
                            // Default: a non-leaf entry; descend one level,
                            // straight into the AR register when it is free.
                            self.state[i].d.next = SlotState::Issue;
                            if self.ar_direct.val() {
                                self.state[i].d.next = SlotState::Wait;
                            }
                            self.frame[i].d.next = self.pte_frame.val();
                            self.level[i].d.next = self.level[i].q.val() - 1;
                            self.pte_index[i].d.next = self.next_index[i].val();
                            if self.orphan[i].q.val() {
                                // Cancelled by rst: drop the beat.
                                self.state[i].d.next = SlotState::Free;
                                self.orphan[i].d.next = false;
                            } else if self.m_axi.rresp.val().get_bit(1) {
                                // SLVERR / DECERR.
                                self.state[i].d.next = SlotState::Done;
                                self.status[i].d.next = 2.into(); // = STATUS_FATAL
                                self.frame[i].d.next = 0.into();
                                self.level[i].d.next = 0.into();
                            } else if !self.m_axi.rdata.val().get_bit(0) {
                                // P (pte::P) clear at any level: page fault.
                                self.state[i].d.next = SlotState::Done;
                                self.status[i].d.next = 1.into(); // = STATUS_NOT_PRESENT
                                self.frame[i].d.next = 0.into();
                                self.level[i].d.next = 0.into();
                            } else if (self.level[i].q.val() == 0)
                                | (self.m_axi.rdata.val().get_bit(7)
                                    & ((self.level[i].q.val() == 1) | (self.level[i].q.val() == 2)))
                            {
                                // A leaf: 4 KiB at level 0 (H ignored), 2 MiB
                                // at level 1, 1 GiB at level 2; the leaf's
                                // level is its size code (spec::page_size).
                                self.state[i].d.next = SlotState::Done;
                                self.status[i].d.next = 0.into(); // = STATUS_OK
                                self.level[i].d.next = self.level[i].q.val();
                                self.writable[i].d.next = self.m_axi.rdata.val().get_bit(1);
                            // pte::W
                            } else if self.m_axi.rdata.val().get_bit(7) {
                                // H (pte::H) at level 3: reserved.
                                self.state[i].d.next = SlotState::Done;
                                self.status[i].d.next = 2.into(); // = STATUS_FATAL
                                self.frame[i].d.next = 0.into();
                                self.level[i].d.next = 0.into();
                            }
                        }
                    }
                    SlotState::Done => {
                        if self.done_fire.val() & (self.done_cur.q.val().index() == i) {
                            self.state[i].d.next = SlotState::Free;
                        }
                    }
                }
            }
        }
    }
}

/// The walker of the SPEC section 6 configuration: 8 concurrent walks.
pub type DefaultWalker = Walker<8>;

/// Generates the Verilog of [`DefaultWalker`] alone, top module `walker`,
/// for measuring the block by itself (`odp-mmu pnr --design walker`).
pub fn generate_verilog() -> String {
    let mut uut = DefaultWalker::new();
    uut.connect_all();
    crate::verilog::generate(&uut, "walker")
}
