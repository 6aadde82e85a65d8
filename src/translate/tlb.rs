#![doc = include_str!("../../docs/tlb.md")]

use rust_hdl::prelude::*;

use crate::common::interfaces::InvalidateIn;
use crate::common::plru::TreePlru;

/// `inv_kind`: remove every entry.
pub const INV_ALL: u64 = 0;
/// `inv_kind`: remove every entry of MR `inv_mr`.
pub const INV_BY_MR: u64 = 1;
/// `inv_kind`: remove the entries of MR `inv_mr` whose page overlaps the range.
pub const INV_BY_MR_RANGE: u64 = 2;
/// `inv_kind` 3 is reserved: accepted, removes nothing.
pub const INV_RESERVED: u64 = 3;

/// Ways per set of the 4 KiB array (fixed).
pub const WAYS: usize = 4;

/// The default configuration of SPEC section 6: 256 sets x 4 ways = 1024
/// entries of 4 KiB, 8-bit MR index, 32 huge-page entries.
pub type DefaultTlb = Tlb<8, 8, 32>;

/// Phase of the block: the one state machine.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum TlbState {
    /// After `rst`: one set per clock has its valid bits and PLRU state
    /// cleared; lookups, fills and invalidations are refused.
    Clear,
    /// Normal operation: lookups, fills, invalidation requests accepted.
    Run,
    /// An invalidation is being applied: one step per clock (a set, or a
    /// generation step); lookups and new invalidations are refused, fills are still accepted (and dropped
    /// when the invalidation covers them).
    Inv,
}

/// Translation TLB.
///
/// # What it does
///
/// Caches leaf translations `(mr, page) -> (ppn, size, writable)` produced
/// by the page-table walker. 4 KiB entries live in a `2^SET_BITS`-set x 4-way
/// array in block RAM, keyed by `(mr, va[63:12])`: set index
/// `va[12+SET_BITS-1:12]`, tag `(mr, va[63:12])`. Keying on the VA page is the
/// same as keying on the page of `off = va - (base_va & !0xFFF)` because the
/// MR base is 4 KiB aligned in that formula. Huge entries (2 MiB and 1 GiB
/// leaves) are aligned in *off* space, not in VA space, so they are keyed by
/// `(mr, size, off[63:21])` or `(mr, size, off[63:30])` and live in `HUGE`
/// registers that are compared in parallel with `lk_off`, which the caller
/// supplies one clock after the lookup (it comes from the MR table).
///
/// Replacement: a fill of a key that is present overwrites that entry
/// (never a duplicate), else it takes the lowest-numbered invalid entry,
/// else the tree pseudo-LRU victim. The 4-way sets use a 3-bit tree per set
/// (stored with the set's 4 valid bits in a small block RAM), the huge
/// entries one `HUGE-1`-bit tree ([`TreePlru`]). A hit, and a fill, make the
/// entry most recently used.
///
/// # Parameters
///
/// - `SET_BITS`: log2 of the number of 4 KiB sets, 1..=12 (default 8: 256
///   sets, 1024 entries).
/// - `MR_BITS`: width of the MR index, 1..=16 (default 8).
/// - `HUGE`: number of huge-page entries, a power of two in 2..=64
///   (default 32).
///
/// Checked by [`Tlb::new`] with a message.
///
/// # Ports (all synchronous to `clock`; `rst` synchronous, active high)
///
/// Lookup (no backpressure; issue only while `ready` is high): clock c0
/// `lk_valid`, `lk_mr`, `lk_va`; clock c0+1 `lk_off` of the same lookup.
/// Result registered, valid in clock c0+4: `res_valid`, `res_hit`, `res_ppn`,
/// `res_size`, `res_writable`, `res_multi_hit`. All `res_*` are zero in
/// clocks without a result.
///
/// Fill (valid/ready): `fill_valid`, `fill_ready`, `fill_mr`, `fill_va`
/// (4 KiB pages), `fill_off` (huge pages), `fill_ppn`, `fill_size`,
/// `fill_writable`. A fill is never lost for lack of room: `fill_ready`
/// stays low until the one-entry holding register is free. A taken fill is
/// written unless an invalidation covers it (see Invariants) or its size is
/// the reserved 3.
///
/// Invalidation (valid/ready, then a done pulse): `inv_valid`, `inv_ready`,
/// `inv_kind`, `inv_mr`, `inv_va_lo`, `inv_va_hi`, `inv_off_lo`, `inv_off_hi`,
/// `inv_done`.
/// `inv_ready` is high in every clock `ready` is (both are registers; `ready`
/// is only ever high while no invalidation or reset sweep runs), so a user
/// that issues only under `ready` may test `inv_valid` alone for an
/// invalidation taken in the same clock.
///
/// # Latency and throughput
///
/// - Lookup: result in clock c0+4 (registered), one lookup per clock. The
///   four clocks: c0 reads the block RAMs, c0+1 registers their words
///   (stage R) and compares the huge keys with `lk_off`, c0+2 compares the
///   4 KiB ways (stage 1), c0+3 selects the frame (select stage).
///   Operations take effect in issue order, as if at c0+1 (the reference
///   model's view); the extra stages only delay the result.
/// - Fill accepted in clock a: it is issued in the first clock i > a in
///   which no lookup is issued and takes effect as of clock i+1 (its
///   holding register is freed then; stage 1 writes the huge entries at
///   the end of i+2, stage 2 the RAMs at the end of i+3, forwarded until
///   then); lookups
///   issued after clock i see it (from a+2 when the TLB is idle). When a
///   lookup takes the clock a pending fill wanted, `ready` is low in the next
///   clock, so a fill costs at most one refused lookup clock. `fill_ready`
///   is low from a+1 to i+1: one fill per 3 clocks at most.
/// - Invalidation accepted in clock b: `ready` is low from b+1. Clock b+1
///   issues no step (the prep clock: the sweep is set up from the
///   registered bounds; a pending fill may be issued). A fill pending at b
///   is applied first, then one step per clock. `INV_ALL` and
///   `INV_BY_MR` take four steps that advance the global or the MR's
///   generation (4 KiB entries of an older generation never hit), or, when
///   that generation wraps (every 16th ALL, every 256th BY_MR of one MR),
///   three plus a sweep of every set. `INV_BY_MR_RANGE` sweeps the sets its
///   4 KiB pages map to, one per clock, `min(pages, sets)` steps. Huge
///   entries are compared in parallel with the last step. `inv_done`
///   pulses, and `ready` returns, in the clock after the last step:
///   `b + 2 + steps`, plus one clock per fill applied during the
///   invalidation.
/// - Reset: `rst` high in clock r; `ready` is low in clocks r+1 ..= r+2^SET_BITS.
///
/// # Invariants
///
/// - At most one entry matches any lookup: a fill of a key that is present
///   overwrites it. `res_multi_hit` reports a violation, which only entries
///   of two sizes covering the same address can cause (a page table changed
///   without a covering invalidation, or `lk_off` inconsistent with `lk_va`);
///   the result is then the bitwise OR of the matching entries.
/// - A lookup issued in clock c sees every fill written and every
///   invalidation done before it; one issued at or before the clock an
///   invalidation is accepted may still hit what the invalidation removes
///   (no lookup can be issued between acceptance and `inv_done`).
/// - No fill covered by an invalidation survives it if the fill was accepted
///   before `inv_done`, or was offered in the clock the invalidation was
///   accepted: a fill written before the sweep is swept (or holds a generation
///   the invalidation retires); a fill written
///   while it runs is checked against it and dropped; a fill offered but not
///   taken at acceptance holds back the last step until it is taken (and
///   `fill_ready` is low in the clock of the last step). A fill first offered
///   later and taken from `inv_done` on is written as usual: the walker must
///   not offer fills of walks that were in flight when the invalidation was
///   accepted.
#[derive(LogicBlock)]
pub struct Tlb<const SET_BITS: usize, const MR_BITS: usize, const HUGE: usize> {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous active-high reset: clears every entry (sweep of
    /// `2^SET_BITS` clocks with `ready` low).
    pub rst: Signal<In, Bit>,
    /// High when a lookup may be issued in this clock (registered).
    pub ready: Signal<Out, Bit>,

    /// Lookup request, clock c0 (ignored while `ready` is low).
    pub lk_valid: Signal<In, Bit>,
    /// MR index of the lookup, clock c0.
    pub lk_mr: Signal<In, Bits<MR_BITS>>,
    /// Virtual address of the lookup, clock c0.
    pub lk_va: Signal<In, Bits<64>>,
    /// `va - (base_va & !0xFFF)` of the lookup issued in the previous clock;
    /// only bits 63:21 are read (a huge key's bits). The first quarter of
    /// the huge entries compares against it.
    pub lk_off: Signal<In, Bits<64>>,
    /// The same value as `lk_off` in bits 63:21 whenever a lookup was issued
    /// in the previous clock, from flip-flops of its own: the second quarter of
    /// the huge entries compares against it, the third against
    /// `lk_off_q2`, the last against `lk_off_q3`, so that no bit fans out
    /// to more than a quarter of them (place and route).
    pub lk_off_q1: Signal<In, Bits<64>>,
    /// See `lk_off_q1`.
    pub lk_off_q2: Signal<In, Bits<64>>,
    /// See `lk_off_q1`.
    pub lk_off_q3: Signal<In, Bits<64>>,

    /// A lookup result is presented (clock c0+4).
    pub res_valid: Signal<Out, Bit>,
    /// The lookup hit.
    pub res_hit: Signal<Out, Bit>,
    /// Frame of the page, `PA[63:12]` (a huge page's frame base).
    pub res_ppn: Signal<Out, Bits<52>>,
    /// Page size code of the hit ([`crate::spec::page_size`]).
    pub res_size: Signal<Out, Bits<2>>,
    /// The leaf PTE's W bit.
    pub res_writable: Signal<Out, Bit>,
    /// More than one entry matched (must never happen; see Invariants).
    pub res_multi_hit: Signal<Out, Bit>,

    /// A fill is offered.
    pub fill_valid: Signal<In, Bit>,
    /// The fill is taken at this clock's edge when `fill_valid` is high.
    pub fill_ready: Signal<Out, Bit>,
    /// MR index of the fill.
    pub fill_mr: Signal<In, Bits<MR_BITS>>,
    /// Virtual address in the page (4 KiB fills; bits 11:0 ignored).
    pub fill_va: Signal<In, Bits<64>>,
    /// Offset in the MR anywhere in the page (huge fills; low bits ignored).
    pub fill_off: Signal<In, Bits<64>>,
    /// Frame of the page, `PA[63:12]`.
    pub fill_ppn: Signal<In, Bits<52>>,
    /// Page size code ([`crate::spec::page_size`]); 3 is reserved: accepted
    /// and discarded.
    pub fill_size: Signal<In, Bits<2>>,
    /// The leaf PTE's W bit.
    pub fill_writable: Signal<In, Bit>,

    /// Invalidation (`inv_*`): offered on `valid`, taken at the edge where
    /// `ready` is high; `kind` is [`INV_ALL`], [`INV_BY_MR`],
    /// [`INV_BY_MR_RANGE`] ([`INV_RESERVED`] removes nothing), `mr` the MR
    /// of a BY_MR / BY_MR_RANGE one, `[va_lo, va_hi)` the range in VA
    /// (4 KiB entries; empty when `hi <= lo`), `[off_lo, off_hi)` the same
    /// range in off space (huge entries). `done` pulses for one clock: the
    /// lookups issued from that clock on cannot hit an entry it covers.
    pub inv: InvalidateIn<MR_BITS>,

    // 4 KiB array: one RAM per way. Word layout (also used by the huge
    // registers): [39:0] ppn (the page table's frame field, PTE bits
    // 51:12), [47:40] the MR's generation and [51:48] the global
    // generation at the fill (compared for 4 KiB entries only), [52]
    // writable, [68:53] mr (16 bits, written from MR_BITS bits: the bits
    // above are zero, and every MR compare reads the low MR_BITS only),
    // [120:69] page key (VA page for 4 KiB, aligned off page for huge),
    // [121] 1 GiB page (huge only).
    ways: [RAM<Bits<128>, SET_BITS>; WAYS],
    // Generation of each MR: a 4 KiB entry is current only while its
    // word's generations equal its MR's and the global one. BY_MR and ALL
    // advance a generation instead of sweeping the sets.
    mgen: RAM<Bits<8>, MR_BITS>,
    ggen: DFF<Bits<4>>,
    // Per set: [3:0] valid per way, [7:4] 4-way tree PLRU (bit 4 unused).
    meta: RAM<Bits<8>, SET_BITS>,
    plru4: TreePlru<4>,
    plru_h: TreePlru<HUGE>,
    h_entry: [DFF<Bits<128>>; HUGE],
    h_valid: DFF<Bits<HUGE>>,
    h_plru: DFF<Bits<HUGE>>,

    state: DFF<TlbState>,
    ready_r: DFF<Bit>,
    // The `ready` output's own copy of ready_r (the same sequence; loaded
    // only when it differs from its own value, so that synthesis keeps it
    // apart), placed beside the caller's issue logic rather than the
    // stage-0 choice that ready_r feeds. ready_n is both registers' input.
    ready_o: DFF<Bit>,
    ready_n: Signal<Local, Bit>,
    inv_done_r: DFF<Bit>,
    // A fill was offered but not taken when the invalidation was accepted.
    owe_fill: DFF<Bit>,

    // The fill holding register: taken at acceptance, freed in stage 1.
    fq_valid: DFF<Bit>,
    fq_issued: DFF<Bit>,
    fq_mr: DFF<Bits<MR_BITS>>,
    fq_vpn: DFF<Bits<52>>,
    fq_opn: DFF<Bits<52>>,
    fq_ppn: DFF<Bits<52>>,
    fq_size: DFF<Bits<2>>,
    fq_w: DFF<Bit>,

    // The invalidation being applied, with its bounds precomputed.
    inv_kind_r: DFF<Bits<2>>,
    inv_mr_r: DFF<Bits<MR_BITS>>,
    inv_lo: DFF<Bits<52>>,
    inv_hi: DFF<Bits<52>>,
    inv_empty: DFF<Bit>,
    // Copies of the 2 MiB bounds for the two single compares (the fill's
    // coverage and its word's, `clre`), loaded in every Run clock rather
    // than on acceptance: the different enable keeps synthesis from
    // merging them with the bounds that feed the 32 entries' compares, so
    // they can be placed by their own logic. The value is the same where
    // it is used: acceptance is the last Run clock.
    inv_olo2f: DFF<Bits<43>>,
    inv_ohi2f: DFF<Bits<43>>,
    // One copy for each eighth of the huge entries' coverage compares
    // (`eighth[g]`), so that a bound bit fans out to four or five of
    // them. Each copy loads under an enable of its own, or with a reset of
    // its own, so synthesis keeps eight: copy 0 on acceptance; the others
    // in clocks that are not Inv (each tests its own copy of the state,
    // `inv_st`), copy 1 in every such clock, 2 in those
    // with an invalidation offered, 4 in those with a range invalidation
    // offered, 6 in those whose offered kind is a range; 3, 5 and 7 like
    // 1, 2 and 6, cleared by the reset. The compares count only for a
    // range invalidation, in the Inv state, and all eight hold its bounds
    // through it (its acceptance is the last clock before Inv, with the
    // invalidation offered).
    inv_olo2q: [DFF<Bits<43>>; 8],
    inv_ohi2q: [DFF<Bits<43>>; 8],
    // "The state is Inv", one copy for each pair of bound copies above,
    // equal to `state == Inv` in every clock (both power up low, in
    // Clear). The copies' enables test their own flag, so that each is a
    // gate placed with its copy rather than a term of the state register
    // shared by all eight (86 enables each, spread over the huge
    // entries). Each flag loads only when it differs from the next state,
    // which keeps synthesis from merging the eight.
    inv_st: [DFF<Bit>; 8],
    st_inv_n: Signal<Local, Bit>,
    // The offered invalidation is a range (for the bound copies' enables).
    inv_is_rng: Signal<Local, Bit>,
    inv_olo1: DFF<Bits<43>>,
    inv_ohi1: DFF<Bits<43>>,
    inv_oempty: DFF<Bit>,
    sweep_set: DFF<Bits<SET_BITS>>,
    sweep_left: DFF<Bits<16>>,
    // sweep_left != 0, loaded beside sweep_left from the same choice (each
    // load below sets both), so that the last step is known from a
    // flip-flop rather than a 16-bit zero test behind the counter: that
    // test fed the sweep's own decrement and, through fill_ready, the
    // walker. Its power-up value matches sweep_left's (zero).
    sl_nz: DFF<Bit>,
    // The invalidation advances a generation (ALL, BY_MR): its steps clear
    // no 4 KiB way. Its first step (the probe) reads the generation; the
    // probe's stage R writes the next one, or, when it wraps, turns the
    // invalidation into a full sweep.
    genm: DFF<Bit>,
    probe_pend: DFF<Bit>,
    // The probe in its stage 1, where its generation is in `s1_kg`
    // (registered from the RAM: no logic behind the RAM's output), split
    // by kind a clock ahead (BY_MR: pr_mr; ALL: pr_all), and whether the
    // global generation is at its last value (gg_full == (ggen == 0xF)),
    // so that the wrap decision starts from registers without decoding
    // the kind.
    pr_mr: DFF<Bit>,
    pr_all: DFF<Bit>,
    gg_full: DFF<Bit>,

    // Stage R: the operation whose RAM read was issued in the previous
    // clock. The RAM words are only registered here: the block RAM's
    // clock-to-output takes half of a 125 MHz clock, so no logic follows
    // it in the same clock.
    sr_lk: DFF<Bit>,
    sr_fill: DFF<Bit>,
    sr_sweep: DFF<Bit>,
    sr_clear: DFF<Bit>,
    sr_last: DFF<Bit>,
    sr_probe: DFF<Bit>,
    // A step that clears no 4 KiB way (a generation step), in stage R and
    // stage 1.
    sr_nc: DFF<Bit>,
    s1_nc: DFF<Bit>,
    // The global generation in the operation's stage 0, and the key's
    // generations (MR's in [7:0], global in [11:8]) in stage 1.
    sr_gg: DFF<Bits<4>>,
    s1_kg: DFF<Bits<12>>,
    sr_set: DFF<Bits<SET_BITS>>,
    sr_mr: DFF<Bits<MR_BITS>>,
    sr_vpn: DFF<Bits<52>>,
    // The valid huge entry holding the fill's key and size (one-hot, at
    // most one), found in the fill's stage 0: neither the entries nor
    // their valid bits can change at the end of that clock. Its index is
    // taken in stage R.
    // Split in two halves registered from the pending fill's register in
    // its stage 0 (the key's bits 51:18; the rest of the key, the size,
    // the MR and the valid bit), ANDed in stage R.
    dp_hi: DFF<Bits<HUGE>>,
    dp_lo: DFF<Bits<HUGE>>,
    // The lowest invalid huge entry, registered every clock from h_valid:
    // in a fill's stage R it is that of the current h_valid, because
    // h_valid does not change at the end of a fill's stage 0 (no fill is
    // in stage 1 and no last sweep step in stage R then).
    hinv_oh: DFF<Bits<HUGE>>,
    hinv_found: DFF<Bit>,
    // The huge entries the current invalidation covers, registered every
    // clock (used by the last sweep step in its stage R), and whether it
    // covers the word the fill in stage 1 writes (the entry that changes
    // at that edge).
    clrh_r: DFF<Bits<HUGE>>,
    clre_r: DFF<Bit>,
    // The coverage's three compares per entry, registered a clock before
    // clrh_r is: the key against the upper bound, against the lower
    // bound (or, for 1 GiB, its upper bits equal), and the MR.
    cl_le: DFF<Bits<HUGE>>,
    cl_ge: DFF<Bits<HUGE>>,
    cl_mr: DFF<Bits<HUGE>>,
    // The clock after an invalidation is accepted: its bounds are in
    // registers, the sweep length and the coverage compares are computed
    // from them, and no sweep step is issued.
    inv_prep: DFF<Bit>,
    // Accepted with the invalidation: the sweep length's ingredients.
    sp0_r: DFF<Bits<52>>,
    sp1_r: DFF<Bits<16>>,
    hp0_r: DFF<Bit>,
    rr_way: [DFF<Bits<128>>; WAYS],
    rr_meta: DFF<Bits<8>>,
    // The fill of stage R for stage 1: its word, its kind and whether the
    // invalidation current in stage R covers it (the holding register is
    // freed in stage R).
    f1_entry: DFF<Bits<128>>,
    // f1_entry's huge key and size bits and its MR again, for the
    // invalidation's coverage of the word a fill writes (`clre`): loaded
    // for a fill in stage R or in stage 1 (an enable unlike f1_entry's,
    // which keeps the copies apart), counted only for a fill in stage 1.
    f1_ck: DFF<Bits<44>>,
    f1_cmr: DFF<Bits<MR_BITS>>,
    f1_4k: DFF<Bit>,
    f1_cov: DFF<Bit>,
    // The fill's three coverage range checks, made a clock before the
    // fill's stage R (see `rng4`).
    rg4_r: DFF<Bit>,
    rg2_r: DFF<Bit>,
    rg1_r: DFF<Bit>,
    // The rest of the fill's coverage, made beside them: covered whatever
    // the range (cov_a_r), or if in range (cov_b_r).
    cov_a_r: DFF<Bit>,
    cov_b_r: DFF<Bit>,
    // The invalidation as stage 1 sees it: one clock behind the
    // registers above, so that the last sweep step, in stage 1 two clocks
    // after its issue, still sees its own invalidation when the next one
    // is accepted in the `inv_done` clock.
    s1i_inv_kind: DFF<Bits<2>>,
    s1i_inv_lo: DFF<Bits<52>>,
    s1i_inv_hi: DFF<Bits<52>>,
    s1i_inv_empty: DFF<Bit>,
    // The huge keys are compared with lk_off in stage R, a clock before
    // stage 1, and merged there with the valid bits: s1_mh is the lookup's
    // match vector. No lookup is in stage R while a huge fill is in stage
    // 1 (`ready` is low in the clock after a huge fill's issue), so no
    // entry changes under the compare. s1_wr_oh is the entry the fill of
    // stage 1 writes (one-hot or zero).
    s1_mh: DFF<Bits<HUGE>>,
    s1_wr_oh: DFF<Bits<HUGE>>,
    // The lookup's MR against every huge entry, and the entries' valid
    // bits, as stage R sees them (compared in stage 0, corrected for the
    // entry the fill of stage 1 writes and the entries the last sweep step
    // clears at the end of stage 0): stage R compares the off key only.
    sr_hpre: DFF<Bits<HUGE>>,
    // The huge entry the fill of stage R will write in stage 1 (index and
    // one-hot), chosen in stage R: the entries and their valid bits cannot
    // change at the end of a fill's stage R (no fill and no last sweep step
    // is in stage 1 then), nor the PLRU tree (no lookup is in stage 1
    // then either: a huge fill is not issued in the clock after a
    // lookup's issue). The one-hot is gated in stage R by whether the fill
    // applies (zero if not), and that condition is a register too (f1_ah):
    // the entries' write enables and the mask of the lookup in stage R
    // start at flip-flops of their own, not behind s1_fill.
    f1_tidx: DFF<Bits<8>>,
    f1_hs: DFF<Bits<HUGE>>,
    f1_ah: DFF<Bit>,

    // Stage 1: the operation of stage R in the previous clock.
    s1_lk: DFF<Bit>,
    s1_fill: DFF<Bit>,
    s1_sweep: DFF<Bit>,
    s1_clear: DFF<Bit>,
    s1_set: DFF<Bits<SET_BITS>>,
    s1_mr: DFF<Bits<MR_BITS>>,
    s1_vpn: DFF<Bits<52>>,
    // Stage 2: the 4 KiB metadata and way writes of the operation that was
    // in stage 1 in the previous clock, computed from these registers only
    // (what stage 1 found: hit, first invalid way, the set's metadata, the
    // ways a sweep clears, the word a fill writes). s2_same: stage 2's set
    // is stage 1's set (registered a clock early).
    s2_lk: DFF<Bit>,
    s2_hit: DFF<Bit>,
    s2_hit_idx: DFF<Bits<8>>,
    s2_inv_found: DFF<Bit>,
    s2_inv_idx: DFF<Bits<8>>,
    s2_apply: DFF<Bit>,
    s2_sweep: DFF<Bit>,
    s2_clear: DFF<Bit>,
    s2_set: DFF<Bits<SET_BITS>>,
    s2_meta: DFF<Bits<8>>,
    s2_clr4: DFF<Bits<4>>,
    s2_entry: DFF<Bits<128>>,
    s2_same: DFF<Bit>,

    // The RAM write committed at the previous edge, for the read that
    // happened at the same edge (the RAMs return the old word).
    // The enables already include "same set as the read": they are
    // registered so that no set compare sits in front of stage 1's logic.
    fwd_meta_en: DFF<Bit>,
    fwd_meta: DFF<Bits<8>>,
    fwd_way: DFF<Bits<4>>,
    fwd_entry: DFF<Bits<128>>,
    // fwd_* one clock later, when its read reaches stage 1 (fwd2), and the
    // write committed at the edge that ended stage R (fwdb), both for the
    // operation entering stage 1.
    fwd2_meta_en: DFF<Bit>,
    fwd2_meta: DFF<Bits<8>>,
    fwd2_way: DFF<Bits<4>>,
    fwd2_entry: DFF<Bits<128>>,
    // Stage 1's compares of the forwarded words and of stage 2's word,
    // made a clock ahead (the words and the keys move unconditionally).
    fm_fwd2: DFF<Bit>,
    fm_fwdb: DFF<Bit>,
    mq_fwd2: DFF<Bit>,
    mq_fwdb: DFF<Bit>,
    rg_fwd2: DFF<Bit>,
    rg_fwdb: DFF<Bit>,
    fm_s2: DFF<Bit>,
    fwdb_meta_en: DFF<Bit>,
    fwdb_meta: DFF<Bits<8>>,
    fwdb_way: DFF<Bits<4>>,
    fwdb_entry: DFF<Bits<128>>,

    // Select stage: what stage 1 matched, for the result registers. The
    // huge frames are read from h_entry, which cannot change between the
    // compare and the select (only a fill's stage 1 writes it, and stage 1
    // held the lookup).
    x_lk: DFF<Bit>,
    x_m4: DFF<Bits<4>>,
    // The ways of x_m4 whose frame is in x_way (not the way stage 2 wrote
    // in the lookup's stage 1), and whether that written word, x_e,
    // matched: the frame select stays an AND-OR of registers.
    x_m4o: DFF<Bits<4>>,
    x_me: DFF<Bit>,
    x_e: DFF<Bits<53>>,
    x_mh: DFF<Bits<HUGE>>,
    xh_any: DFF<Bit>,
    xh_multi: DFF<Bit>,
    x_way: [DFF<Bits<53>>; WAYS],

    r_valid: DFF<Bit>,
    r_hit: DFF<Bit>,
    r_ppn: DFF<Bits<52>>,
    r_size: DFF<Bits<2>>,
    r_w: DFF<Bit>,
    r_multi: DFF<Bit>,

    sets_m1_16: Constant<Bits<16>>,
    sets_m1_52: Constant<Bits<52>>,
    sets_hi_52: Constant<Bits<52>>,
    // Page-number masks that align an off page to 2 MiB / 1 GiB.
    key_mask_2m: Constant<Bits<52>>,
    key_mask_1g: Constant<Bits<52>>,
    // Huge PLRU victim as a one-hot AND per leaf: leaf e is the victim of
    // its half when the tree nodes below the root on its path
    // (hv_mask[e]) hold hv_dir[e]; upper_half marks the leaves of the
    // upper half.
    hv_mask: [Constant<Bits<HUGE>>; HUGE],
    hv_dir: [Constant<Bits<HUGE>>; HUGE],
    upper_half: Constant<Bits<HUGE>>,
    // eighth[g]: the huge entries compared against the invalidation
    // bounds' copy g (`inv_olo2q`).
    eighth: [Constant<Bits<HUGE>>; 8],
    // quarter[g]: the huge entries compared against lk_off copy g in
    // stage R (entry e is in quarter e * 4 / HUGE).
    quarter: [Constant<Bits<HUGE>>; 4],

    // Stage 0.
    fq_pending: Signal<Local, Bit>,
    last_step: Signal<Local, Bit>,
    last_now: Signal<Local, Bit>,
    fill_blocked: Signal<Local, Bit>,
    hf_wait: Signal<Local, Bit>,
    issue_lk: Signal<Local, Bit>,
    issue_fill: Signal<Local, Bit>,
    issue_sweep: Signal<Local, Bit>,
    inv_accept: Signal<Local, Bit>,
    fill_accept: Signal<Local, Bit>,
    rd_set: Signal<Local, Bits<SET_BITS>>,
    lk_take: Signal<Local, Bit>,
    alt_fq: Signal<Local, Bit>,
    alt_set: Signal<Local, Bits<SET_BITS>>,
    lo_pn: Signal<Local, Bits<52>>,
    hi_m1: Signal<Local, Bits<64>>,
    hi_pn: Signal<Local, Bits<52>>,
    hi_pn0: Signal<Local, Bits<52>>,
    span0: Signal<Local, Bits<52>>,
    lo16n: Signal<Local, Bits<16>>,
    span1: Signal<Local, Bits<16>>,
    hi_page0: Signal<Local, Bit>,
    span_small: Signal<Local, Bit>,
    span16: Signal<Local, Bits<16>>,
    ohi_m1: Signal<Local, Bits<64>>,
    // Stage 1.
    fwd_same_next: Signal<Local, Bit>,
    fwdb_same: Signal<Local, Bit>,
    meta_eff: Signal<Local, Bits<8>>,
    m4s: Signal<Local, Bits<4>>,
    hit4s_idx: Signal<Local, Bits<8>>,
    fmw: Signal<Local, Bit>,
    s0_mr: Signal<Local, Bits<MR_BITS>>,
    gen_old: Signal<Local, Bits<8>>,
    gen_wrap: Signal<Local, Bit>,
    eq_sw: Signal<Local, Bit>,
    eq_lk: Signal<Local, Bit>,
    eq_fq: Signal<Local, Bit>,
    valid4s: Signal<Local, Bits<4>>,
    s2_vfwd: Signal<Local, Bits<4>>,
    s2_mwe: Signal<Local, Bit>,
    wa4: Signal<Local, Bits<4>>,
    idx: Signal<Local, Bits<8>>,
    ent: Signal<Local, Bits<128>>,
    mr_eq: Signal<Local, Bit>,
    in_rng: Signal<Local, Bit>,
    gig: Signal<Local, Bit>,
    fkey: Signal<Local, Bit>,
    krr: Signal<Local, Bits<4>>,
    pv: Signal<Local, Bits<4>>,
    qv: Signal<Local, Bits<4>>,
    k43: Signal<Local, Bits<43>>,
    m4: Signal<Local, Bits<4>>,
    clr4: Signal<Local, Bits<4>>,
    hit4_found: Signal<Local, Bit>,
    hit4_idx: Signal<Local, Bits<8>>,
    inv4_found: Signal<Local, Bit>,
    inv4_idx: Signal<Local, Bits<8>>,
    hent0: Signal<Local, Bits<128>>,
    hdup0: Signal<Local, Bits<HUGE>>,
    dlo0: Signal<Local, Bits<HUGE>>,
    cle0: Signal<Local, Bits<HUGE>>,
    cge0: Signal<Local, Bits<HUGE>>,
    cleq: [Signal<Local, Bits<HUGE>>; 8],
    cgeq: [Signal<Local, Bits<HUGE>>; 8],
    cmr0: Signal<Local, Bits<HUGE>>,
    hneg: Signal<Local, Bits<HUGE>>,
    hvec: Signal<Local, Bits<HUGE>>,
    hkey0: Signal<Local, Bits<HUGE>>,
    rng1: Signal<Local, Bit>,
    kmask: Signal<Local, Bits<52>>,
    rng2: Signal<Local, Bit>,
    rng4: Signal<Local, Bit>,
    hv_oh: Signal<Local, Bits<HUGE>>,
    hv_sub: Signal<Local, Bits<HUGE>>,
    hv_up: Signal<Local, Bits<HUGE>>,
    hv_lo: Signal<Local, Bits<HUGE>>,
    hv_up_idx: Signal<Local, Bits<8>>,
    hv_lo_idx: Signal<Local, Bits<8>>,
    hv_idx: Signal<Local, Bits<8>>,
    mh0: Signal<Local, Bits<HUGE>>,
    hmr0: Signal<Local, Bits<HUGE>>,
    fmr0: Signal<Local, Bit>,
    hv_next: Signal<Local, Bits<HUGE>>,
    sr_opq: [Signal<Local, Bits<52>>; 4],
    hkq: [Signal<Local, Bits<HUGE>>; 4],
    dup_oh: Signal<Local, Bits<HUGE>>,
    inv_oh: Signal<Local, Bits<HUGE>>,
    toh_n: Signal<Local, Bits<HUGE>>,
    ah_n: Signal<Local, Bit>,
    mh: Signal<Local, Bits<HUGE>>,
    clrh: Signal<Local, Bits<HUGE>>,
    hset: Signal<Local, Bits<HUGE>>,
    clre: Signal<Local, Bit>,
    hclr: Signal<Local, Bits<HUGE>>,
    hith_found: Signal<Local, Bit>,
    hith_idx: Signal<Local, Bits<8>>,
    duph_found: Signal<Local, Bit>,
    duph_idx: Signal<Local, Bits<8>>,
    invh_found: Signal<Local, Bit>,
    invh_idx: Signal<Local, Bits<8>>,
    m4m1: Signal<Local, Bits<4>>,
    mhm1: Signal<Local, Bits<HUGE>>,
    acc_ppn: Signal<Local, Bits<40>>,
    acc_w: Signal<Local, Bit>,
    acc_size: Signal<Local, Bits<2>>,
    fill_4k: Signal<Local, Bit>,
    fill_huge: Signal<Local, Bit>,
    fill_gig: Signal<Local, Bit>,
    fill_key: Signal<Local, Bits<52>>,
    fill_cov: Signal<Local, Bit>,
    fmr_eq: Signal<Local, Bit>,
    apply4: Signal<Local, Bit>,
    applyh: Signal<Local, Bit>,
    target4: Signal<Local, Bits<8>>,
    targeth: Signal<Local, Bits<8>>,
    new_entry: Signal<Local, Bits<128>>,
    way_we: Signal<Local, Bits<4>>,
    valid_new: Signal<Local, Bits<4>>,
    meta_we: Signal<Local, Bit>,
    meta_wd: Signal<Local, Bits<8>>,
}

impl<const SET_BITS: usize, const MR_BITS: usize, const HUGE: usize> Tlb<SET_BITS, MR_BITS, HUGE> {
    /// Number of 4 KiB sets.
    pub const SETS: usize = 1 << SET_BITS;

    /// The huge entries of part `g` when they are split into `parts`
    /// consecutive parts (entry `e` is in part `e * parts / HUGE`).
    fn part_mask(parts: usize, g: usize) -> u64 {
        (0..HUGE)
            .filter(|e| e * parts / HUGE == g)
            .fold(0, |m, e| m | (1 << e))
    }

    /// (mask, values) of the PLRU tree nodes below the root on the path of
    /// huge leaf `e`: the bits that make `e` the victim of its half.
    fn victim_path(e: usize) -> (u64, u64) {
        let levels = HUGE.trailing_zeros() as usize;
        let (mut mask, mut dir) = (0u64, 0u64);
        for depth in 1..levels {
            let node = (HUGE + e) >> (levels - depth);
            mask |= 1 << node;
            if (e >> (levels - 1 - depth)) & 1 == 1 {
                dir |= 1 << node;
            }
        }
        (mask, dir)
    }

    /// A TLB with every entry invalid once `rst` has been applied.
    ///
    /// Panics when a parameter is out of range.
    pub fn new() -> Self {
        assert!(
            (1..=12).contains(&SET_BITS),
            "Tlb: SET_BITS must be in 1..=12, got {SET_BITS}"
        );
        assert!(
            (1..=16).contains(&MR_BITS),
            "Tlb: MR_BITS must be in 1..=16, got {MR_BITS}"
        );
        assert!(
            HUGE.is_power_of_two() && (2..=64).contains(&HUGE),
            "Tlb: HUGE must be a power of two in 2..=64, got {HUGE}"
        );
        let sets_m1 = (Self::SETS - 1) as u64;
        Self {
            clock: Default::default(),
            rst: Default::default(),
            ready: Default::default(),
            lk_valid: Default::default(),
            lk_mr: Default::default(),
            lk_va: Default::default(),
            lk_off: Default::default(),
            lk_off_q1: Default::default(),
            lk_off_q2: Default::default(),
            lk_off_q3: Default::default(),
            res_valid: Default::default(),
            res_hit: Default::default(),
            res_ppn: Default::default(),
            res_size: Default::default(),
            res_writable: Default::default(),
            res_multi_hit: Default::default(),
            fill_valid: Default::default(),
            fill_ready: Default::default(),
            fill_mr: Default::default(),
            fill_va: Default::default(),
            fill_off: Default::default(),
            fill_ppn: Default::default(),
            fill_size: Default::default(),
            fill_writable: Default::default(),
            inv: Default::default(),
            ways: std::array::from_fn(|_| Default::default()),
            mgen: Default::default(),
            ggen: Default::default(),
            meta: Default::default(),
            plru4: TreePlru::new(),
            plru_h: TreePlru::new(),
            h_entry: std::array::from_fn(|_| Default::default()),
            h_valid: Default::default(),
            h_plru: Default::default(),
            state: Default::default(),
            ready_r: Default::default(),
            ready_o: Default::default(),
            ready_n: Default::default(),
            inv_done_r: Default::default(),
            owe_fill: Default::default(),
            fq_valid: Default::default(),
            fq_issued: Default::default(),
            fq_mr: Default::default(),
            fq_vpn: Default::default(),
            fq_opn: Default::default(),
            fq_ppn: Default::default(),
            fq_size: Default::default(),
            fq_w: Default::default(),
            inv_kind_r: Default::default(),
            inv_mr_r: Default::default(),
            inv_lo: Default::default(),
            inv_hi: Default::default(),
            inv_empty: Default::default(),
            inv_olo2q: std::array::from_fn(|_| Default::default()),
            inv_ohi2q: std::array::from_fn(|_| Default::default()),
            inv_st: std::array::from_fn(|_| Default::default()),
            st_inv_n: Default::default(),
            inv_is_rng: Default::default(),
            inv_olo2f: Default::default(),
            inv_ohi2f: Default::default(),
            inv_olo1: Default::default(),
            inv_ohi1: Default::default(),
            inv_oempty: Default::default(),
            sweep_set: Default::default(),
            sweep_left: Default::default(),
            sl_nz: Default::default(),
            genm: Default::default(),
            probe_pend: Default::default(),
            pr_mr: Default::default(),
            pr_all: Default::default(),
            gg_full: Default::default(),
            sr_lk: Default::default(),
            sr_fill: Default::default(),
            sr_sweep: Default::default(),
            sr_clear: Default::default(),
            sr_last: Default::default(),
            sr_probe: Default::default(),
            sr_nc: Default::default(),
            s1_nc: Default::default(),
            sr_gg: Default::default(),
            s1_kg: Default::default(),
            sr_set: Default::default(),
            sr_mr: Default::default(),
            sr_vpn: Default::default(),
            dp_hi: Default::default(),
            dp_lo: Default::default(),
            hinv_oh: Default::default(),
            hinv_found: Default::default(),
            clrh_r: Default::default(),
            clre_r: Default::default(),
            cl_le: Default::default(),
            cl_ge: Default::default(),
            cl_mr: Default::default(),
            inv_prep: Default::default(),
            sp0_r: Default::default(),
            sp1_r: Default::default(),
            hp0_r: Default::default(),
            rr_way: std::array::from_fn(|_| Default::default()),
            rr_meta: Default::default(),
            f1_entry: Default::default(),
            f1_ck: Default::default(),
            f1_cmr: Default::default(),
            f1_4k: Default::default(),
            f1_cov: Default::default(),
            rg4_r: Default::default(),
            rg2_r: Default::default(),
            rg1_r: Default::default(),
            cov_a_r: Default::default(),
            cov_b_r: Default::default(),
            s1i_inv_kind: Default::default(),
            s1i_inv_lo: Default::default(),
            s1i_inv_hi: Default::default(),
            s1i_inv_empty: Default::default(),
            s1_mh: Default::default(),
            s1_wr_oh: Default::default(),
            sr_hpre: Default::default(),
            f1_tidx: Default::default(),
            f1_hs: Default::default(),
            f1_ah: Default::default(),
            s1_lk: Default::default(),
            s1_fill: Default::default(),
            s1_sweep: Default::default(),
            s1_clear: Default::default(),
            s1_set: Default::default(),
            s1_mr: Default::default(),
            s1_vpn: Default::default(),
            s2_lk: Default::default(),
            s2_hit: Default::default(),
            s2_hit_idx: Default::default(),
            s2_inv_found: Default::default(),
            s2_inv_idx: Default::default(),
            s2_apply: Default::default(),
            s2_sweep: Default::default(),
            s2_clear: Default::default(),
            s2_set: Default::default(),
            s2_meta: Default::default(),
            s2_clr4: Default::default(),
            s2_entry: Default::default(),
            s2_same: Default::default(),
            fwd_meta_en: Default::default(),
            fwd_meta: Default::default(),
            fwd_way: Default::default(),
            fwd_entry: Default::default(),
            fwd2_meta_en: Default::default(),
            fwd2_meta: Default::default(),
            fwd2_way: Default::default(),
            fwd2_entry: Default::default(),
            fwdb_meta_en: Default::default(),
            fwdb_meta: Default::default(),
            fwdb_way: Default::default(),
            fwdb_entry: Default::default(),
            x_lk: Default::default(),
            x_m4: Default::default(),
            x_m4o: Default::default(),
            x_me: Default::default(),
            x_e: Default::default(),
            x_mh: Default::default(),
            xh_any: Default::default(),
            xh_multi: Default::default(),
            x_way: std::array::from_fn(|_| Default::default()),
            r_valid: Default::default(),
            r_hit: Default::default(),
            r_ppn: Default::default(),
            r_size: Default::default(),
            r_w: Default::default(),
            r_multi: Default::default(),
            sets_m1_16: Constant::new(sets_m1.into()),
            sets_m1_52: Constant::new(sets_m1.into()),
            sets_hi_52: Constant::new(((!sets_m1) & ((1u64 << 52) - 1)).into()),
            key_mask_2m: Constant::new(0xF_FFFF_FFFF_FE00u64.into()),
            key_mask_1g: Constant::new(0xF_FFFF_FFFC_0000u64.into()),
            hv_mask: std::array::from_fn(|e| Constant::new(Self::victim_path(e).0.into())),
            hv_dir: std::array::from_fn(|e| Constant::new(Self::victim_path(e).1.into())),
            upper_half: Constant::new(
                (((1u128 << HUGE) - 1) as u64 & !((1u64 << (HUGE / 2)) - 1)).into(),
            ),
            eighth: std::array::from_fn(|g| Constant::new(Self::part_mask(8, g).into())),
            quarter: std::array::from_fn(|g| Constant::new(Self::part_mask(4, g).into())),
            fq_pending: Default::default(),
            last_step: Default::default(),
            last_now: Default::default(),
            fill_blocked: Default::default(),
            hf_wait: Default::default(),
            issue_lk: Default::default(),
            issue_fill: Default::default(),
            issue_sweep: Default::default(),
            inv_accept: Default::default(),
            fill_accept: Default::default(),
            rd_set: Default::default(),
            lk_take: Default::default(),
            alt_fq: Default::default(),
            alt_set: Default::default(),
            lo_pn: Default::default(),
            hi_m1: Default::default(),
            hi_pn: Default::default(),
            hi_pn0: Default::default(),
            span0: Default::default(),
            lo16n: Default::default(),
            span1: Default::default(),
            hi_page0: Default::default(),
            span_small: Default::default(),
            span16: Default::default(),
            ohi_m1: Default::default(),
            fwd_same_next: Default::default(),
            fwdb_same: Default::default(),
            fm_fwd2: Default::default(),
            fm_fwdb: Default::default(),
            mq_fwd2: Default::default(),
            mq_fwdb: Default::default(),
            rg_fwd2: Default::default(),
            rg_fwdb: Default::default(),
            meta_eff: Default::default(),
            m4s: Default::default(),
            hit4s_idx: Default::default(),
            fmw: Default::default(),
            s0_mr: Default::default(),
            gen_old: Default::default(),
            gen_wrap: Default::default(),
            eq_sw: Default::default(),
            eq_lk: Default::default(),
            eq_fq: Default::default(),
            valid4s: Default::default(),
            s2_vfwd: Default::default(),
            s2_mwe: Default::default(),
            wa4: Default::default(),
            idx: Default::default(),
            ent: Default::default(),
            mr_eq: Default::default(),
            in_rng: Default::default(),
            gig: Default::default(),
            fkey: Default::default(),
            krr: Default::default(),
            pv: Default::default(),
            qv: Default::default(),
            k43: Default::default(),
            m4: Default::default(),
            clr4: Default::default(),
            hit4_found: Default::default(),
            hit4_idx: Default::default(),
            inv4_found: Default::default(),
            inv4_idx: Default::default(),
            hent0: Default::default(),
            hdup0: Default::default(),
            dlo0: Default::default(),
            cle0: Default::default(),
            cge0: Default::default(),
            cleq: Default::default(),
            cgeq: Default::default(),
            cmr0: Default::default(),
            hneg: Default::default(),
            hvec: Default::default(),
            hkey0: Default::default(),
            rng1: Default::default(),
            kmask: Default::default(),
            rng2: Default::default(),
            rng4: Default::default(),
            hv_oh: Default::default(),
            hv_sub: Default::default(),
            hv_up: Default::default(),
            hv_lo: Default::default(),
            hv_up_idx: Default::default(),
            hv_lo_idx: Default::default(),
            hv_idx: Default::default(),
            mh0: Default::default(),
            hmr0: Default::default(),
            fmr0: Default::default(),
            hv_next: Default::default(),
            sr_opq: Default::default(),
            hkq: Default::default(),
            dup_oh: Default::default(),
            inv_oh: Default::default(),
            toh_n: Default::default(),
            ah_n: Default::default(),
            mh: Default::default(),
            clrh: Default::default(),
            hset: Default::default(),
            clre: Default::default(),
            hclr: Default::default(),
            hith_found: Default::default(),
            hith_idx: Default::default(),
            duph_found: Default::default(),
            duph_idx: Default::default(),
            invh_found: Default::default(),
            invh_idx: Default::default(),
            m4m1: Default::default(),
            fm_s2: Default::default(),
            mhm1: Default::default(),
            acc_ppn: Default::default(),
            acc_w: Default::default(),
            acc_size: Default::default(),
            fill_4k: Default::default(),
            fill_huge: Default::default(),
            fill_gig: Default::default(),
            fill_key: Default::default(),
            fill_cov: Default::default(),
            fmr_eq: Default::default(),
            apply4: Default::default(),
            applyh: Default::default(),
            target4: Default::default(),
            targeth: Default::default(),
            new_entry: Default::default(),
            way_we: Default::default(),
            valid_new: Default::default(),
            meta_we: Default::default(),
            meta_wd: Default::default(),
        }
    }
}

impl<const SET_BITS: usize, const MR_BITS: usize, const HUGE: usize> Default
    for Tlb<SET_BITS, MR_BITS, HUGE>
{
    fn default() -> Self {
        Self::new()
    }
}

impl<const SET_BITS: usize, const MR_BITS: usize, const HUGE: usize> Logic
    for Tlb<SET_BITS, MR_BITS, HUGE>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            h_valid,
            h_plru,
            state,
            ready_r,
            ready_o,
            inv_done_r,
            owe_fill,
            fq_valid,
            fq_issued,
            fq_mr,
            fq_vpn,
            fq_opn,
            fq_ppn,
            fq_size,
            fq_w,
            inv_kind_r,
            inv_mr_r,
            inv_lo,
            inv_hi,
            inv_empty,
            inv_olo2f,
            inv_ohi2f,
            inv_olo1,
            inv_ohi1,
            inv_oempty,
            sweep_set,
            sweep_left,
            sl_nz,
            genm,
            probe_pend,
            pr_mr,
            pr_all,
            gg_full,
            ggen,
            sr_lk,
            sr_fill,
            sr_sweep,
            sr_clear,
            sr_last,
            sr_probe,
            sr_nc,
            s1_nc,
            sr_gg,
            s1_kg,
            sr_set,
            sr_mr,
            sr_vpn,
            dp_hi,
            dp_lo,
            hinv_oh,
            hinv_found,
            clrh_r,
            clre_r,
            cl_le,
            cl_ge,
            cl_mr,
            inv_prep,
            sp0_r,
            sp1_r,
            hp0_r,
            rr_meta,
            f1_entry,
            f1_ck,
            f1_cmr,
            f1_4k,
            f1_cov,
            rg4_r,
            rg2_r,
            rg1_r,
            cov_a_r,
            cov_b_r,
            s1i_inv_kind,
            s1i_inv_lo,
            s1i_inv_hi,
            s1i_inv_empty,
            s1_mh,
            s1_wr_oh,
            sr_hpre,
            f1_tidx,
            f1_hs,
            f1_ah,
            s1_lk,
            s1_fill,
            s1_sweep,
            s1_clear,
            s1_set,
            s1_mr,
            s1_vpn,
            s2_lk,
            s2_hit,
            s2_hit_idx,
            s2_inv_found,
            s2_inv_idx,
            s2_apply,
            s2_sweep,
            s2_clear,
            s2_set,
            s2_meta,
            s2_clr4,
            s2_entry,
            s2_same,
            fwd_meta_en,
            fwd_meta,
            fwd_way,
            fwd_entry,
            fwd2_meta_en,
            fwd2_meta,
            fwd2_way,
            fwd2_entry,
            fm_fwd2,
            fm_fwdb,
            mq_fwd2,
            mq_fwdb,
            rg_fwd2,
            rg_fwdb,
            fm_s2,
            fwdb_meta_en,
            fwdb_meta,
            fwdb_way,
            fwdb_entry,
            x_lk,
            x_m4,
            x_m4o,
            x_me,
            x_e,
            x_mh,
            xh_any,
            xh_multi,
            r_valid,
            r_hit,
            r_ppn,
            r_size,
            r_w,
            r_multi
        );
        for e in 0..HUGE {
            self.h_entry[e].clock.next = self.clock.val();
            self.h_entry[e].d.next = self.h_entry[e].q.val();
        }
        for g in 0..8 {
            self.inv_olo2q[g].clock.next = self.clock.val();
            self.inv_olo2q[g].d.next = self.inv_olo2q[g].q.val();
            self.inv_ohi2q[g].clock.next = self.clock.val();
            self.inv_ohi2q[g].d.next = self.inv_ohi2q[g].q.val();
            self.inv_st[g].clock.next = self.clock.val();
            self.inv_st[g].d.next = self.inv_st[g].q.val();
        }
        for w in 0..WAYS {
            self.rr_way[w].clock.next = self.clock.val();
            self.rr_way[w].d.next = self.ways[w].read_data.val();
            self.x_way[w].clock.next = self.clock.val();
            self.x_way[w].d.next = self.x_way[w].q.val();
        }

        // Outputs are functions of registers only.
        self.ready.next = self.ready_o.q.val();
        self.inv.done.next = self.inv_done_r.q.val();
        self.inv.ready.next = self.state.q.val() == TlbState::Run;
        // During an invalidation a fill is taken except in the clock the
        // last sweep step is issued: a fill taken earlier reaches stage 1
        // while the invalidation is still current and is checked against it.
        self.last_step.next = !self.sl_nz.q.val() && !self.inv_prep.q.val();
        self.last_now.next = self.last_step.val() && !self.owe_fill.q.val();
        self.fill_ready.next = !self.fq_valid.q.val()
            && ((self.state.q.val() == TlbState::Run)
                || ((self.state.q.val() == TlbState::Inv) && !self.last_now.val()));
        self.res_valid.next = self.r_valid.q.val();
        self.res_hit.next = self.r_hit.q.val();
        self.res_ppn.next = self.r_ppn.q.val();
        self.res_size.next = self.r_size.q.val();
        self.res_writable.next = self.r_w.q.val();
        self.res_multi_hit.next = self.r_multi.q.val();

        // ---------------------------------------------------------------
        // Stage 0: choose the one operation that reads the RAMs this clock.
        // Priority: reset sweep, lookup, pending fill, invalidation sweep.
        // ---------------------------------------------------------------
        self.fq_pending.next = self.fq_valid.q.val() && !self.fq_issued.q.val();
        self.fill_huge.next = (self.fq_size.q.val() == 1) || (self.fq_size.q.val() == 2); // = page_size::SIZE_2M, page_size::SIZE_1G
                                                                                          // A huge fill is not issued in the clock after a lookup's issue:
                                                                                          // no lookup is then in stage 1 in the fill's stage R, and the
                                                                                          // fill's PLRU victim comes from the tree's register alone (no
                                                                                          // touch of the same clock to fold in behind the lookup's matches).
        self.hf_wait.next = self.fill_huge.val() && self.sr_lk.q.val();
        self.fill_blocked.next = false;
        self.issue_lk.next = false;
        self.issue_fill.next = false;
        self.issue_sweep.next = false;
        self.inv_accept.next = false;
        self.ready_n.next = false;
        self.inv_done_r.d.next = false;
        match self.state.q.val() {
            TlbState::Clear => {
                self.issue_sweep.next = true;
                if self.last_step.val() {
                    self.state.d.next = TlbState::Run;
                    self.ready_n.next = true;
                }
            }
            TlbState::Run => {
                self.issue_lk.next = self.lk_valid.val() && self.ready_r.q.val();
                // No fill in the clock an invalidation is accepted: the
                // fill's coverage is decided a clock before its stage R
                // (cov_a_r), in the state of this clock.
                self.issue_fill.next = self.fq_pending.val()
                    && !self.issue_lk.val()
                    && !self.hf_wait.val()
                    && !self.inv.valid.val();
                self.inv_accept.next = self.inv.valid.val();
                // A pending fill that lost this clock to a lookup gets the
                // next one: refuse lookups for a clock (two for a huge
                // fill behind a lookup, see hf_wait). A huge fill issued
                // now refuses the next clock's lookup too, so that no
                // lookup is in stage R while the fill writes its entry in
                // stage 1 (the lookup's huge compare then reads settled
                // entries only).
                self.fill_blocked.next = self.fq_pending.val() && !self.issue_fill.val();
                self.ready_n.next = !(self.inv.valid.val()
                    || self.fill_blocked.val()
                    || (self.issue_fill.val() && self.fill_huge.val()));
                if self.inv.valid.val() {
                    self.state.d.next = TlbState::Inv;
                    // A fill offered now but not taken was computed before
                    // the invalidation: finish only after taking it.
                    self.owe_fill.d.next = self.fill_valid.val() && !self.fill_ready.val();
                }
            }
            TlbState::Inv => {
                self.owe_fill.d.next =
                    self.owe_fill.q.val() && self.fill_valid.val() && !self.fill_ready.val();
                if self.fq_pending.val() {
                    self.issue_fill.next = !self.hf_wait.val();
                } else if !(self.inv_prep.q.val()
                    || (self.last_step.val() && self.owe_fill.q.val()))
                {
                    self.issue_sweep.next = true;
                    if self.last_step.val() {
                        self.state.d.next = TlbState::Run;
                        self.ready_n.next = true;
                        self.inv_done_r.d.next = true;
                    }
                }
            }
        }
        self.inv_prep.d.next = self.inv_accept.val();
        self.fill_accept.next = self.fill_valid.val() && self.fill_ready.val();

        // The RAMs' read set. ready_r is only ever high in Run, so a
        // lookup is issued exactly when lk_take is high, and otherwise a
        // pending fill is issued in every state but Clear: the set is the
        // lookup's or a choice made from registers alone (alt_set), and the
        // lookup's valid bit, which comes from the translator's c1
        // register, is the select of the last multiplexer instead of the
        // first of three.
        self.lk_take.next = self.lk_valid.val() && self.ready_r.q.val();
        self.alt_fq.next = self.fq_pending.val() && (self.state.q.val() != TlbState::Clear);
        self.alt_set.next = self.sweep_set.q.val();
        if self.alt_fq.val() {
            self.alt_set.next = self.fq_vpn.q.val().get_bits::<SET_BITS>(0);
        }
        self.rd_set.next = self.alt_set.val();
        if self.lk_take.val() {
            self.rd_set.next = self.lk_va.val().get_bits::<SET_BITS>(12);
        }
        if self.issue_sweep.val() {
            self.sweep_set.d.next = self.sweep_set.q.val() + 1;
            self.sweep_left.d.next = self.sweep_left.q.val() - 1;
            self.sl_nz.d.next = self.sweep_left.q.val() != 1;
        }

        self.sr_lk.d.next = self.issue_lk.val();
        self.sr_fill.d.next = self.issue_fill.val();
        self.sr_sweep.d.next = self.issue_sweep.val();
        self.sr_clear.d.next = self.issue_sweep.val() && (self.state.q.val() == TlbState::Clear);
        self.sr_last.d.next = self.issue_sweep.val() && self.last_step.val();
        self.sr_set.d.next = self.rd_set.val();
        self.sr_probe.d.next = self.issue_sweep.val() && self.probe_pend.q.val();
        if self.issue_sweep.val() {
            self.probe_pend.d.next = false;
        }
        self.sr_nc.d.next = self.issue_sweep.val() && self.genm.q.val();
        self.sr_gg.d.next = self.ggen.q.val();
        // The MR read for the generation RAM, chosen like rd_set.
        self.s0_mr.next = self.inv_mr_r.q.val();
        if self.alt_fq.val() {
            self.s0_mr.next = self.fq_mr.q.val();
        }
        self.sr_vpn.d.next = self.fq_vpn.q.val();
        if self.lk_take.val() {
            self.s0_mr.next = self.lk_mr.val();
            self.sr_vpn.d.next = self.lk_va.val().get_bits::<52>(12);
        }
        if self.issue_fill.val() {
            self.fq_issued.d.next = true;
        }
        self.sr_mr.d.next = self.s0_mr.val();
        self.mgen.read_address.next = self.s0_mr.val();
        // Stage R to stage 1.
        self.s1_lk.d.next = self.sr_lk.q.val();
        self.s1_fill.d.next = self.sr_fill.q.val();
        self.s1_sweep.d.next = self.sr_sweep.q.val();
        self.s1_nc.d.next = self.sr_nc.q.val();
        self.s1_kg.d.next = bit_cast::<12, 8>(self.mgen.read_data.val())
            | (bit_cast::<12, 4>(self.sr_gg.q.val()) << 8);
        self.s1_clear.d.next = self.sr_clear.q.val();
        self.s1_set.d.next = self.sr_set.q.val();
        self.s1_mr.d.next = self.sr_mr.q.val();
        self.s1_vpn.d.next = self.sr_vpn.q.val();
        // Stage R: the huge keys against this clock's lk_off (registers and
        // the input only; the MR and the valid bit were compared in stage
        // 0, sr_hpre). key[51:18] at word bit 87, key[17:9] at word
        // bit 78. Each quarter of the entries compares against a copy of
        // its own (the quarter masks below; synthesis removes the compares
        // they leave unused).
        self.sr_opq[0].next = self.lk_off.val().get_bits::<52>(12);
        self.sr_opq[1].next = self.lk_off_q1.val().get_bits::<52>(12);
        self.sr_opq[2].next = self.lk_off_q2.val().get_bits::<52>(12);
        self.sr_opq[3].next = self.lk_off_q3.val().get_bits::<52>(12);
        self.hkey0.next = 0.into();
        for g in 0..4 {
            self.hkq[g].next = 0.into();
            for e in 0..HUGE {
                self.hent0.next = self.h_entry[e].q.val();
                self.hkq[g].next = self.hkq[g].val().replace_bit(
                    e,
                    (self.hent0.val().get_bits::<34>(87)
                        == self.sr_opq[g].val().get_bits::<34>(18))
                        && (self.hent0.val().get_bit(121)
                            || (self.hent0.val().get_bits::<9>(78)
                                == self.sr_opq[g].val().get_bits::<9>(9))),
                );
            }
            self.hkey0.next = self.hkey0.val() | (self.hkq[g].val() & self.quarter[g].val());
        }
        self.s1i_inv_kind.d.next = self.inv_kind_r.q.val();
        self.s1i_inv_lo.d.next = self.inv_lo.q.val();
        self.s1i_inv_hi.d.next = self.inv_hi.q.val();
        self.s1i_inv_empty.d.next = self.inv_empty.q.val();
        self.rr_meta.d.next = self.meta.read_data.val();

        // Fill acceptance. The holding register's words load in every
        // clock it is empty, whether or not the fill is taken (its
        // contents only count once fq_valid is set): their enable is a
        // register, not the handshake behind fill_ready, which fans out to
        // some 200 flip-flops.
        if self.fill_accept.val() {
            self.fq_valid.d.next = true;
            self.fq_issued.d.next = false;
        }
        if !self.fq_valid.q.val() {
            self.fq_mr.d.next = self.fill_mr.val();
            self.fq_vpn.d.next = self.fill_va.val().get_bits::<52>(12);
            self.fq_opn.d.next = self.fill_off.val().get_bits::<52>(12);
            self.fq_ppn.d.next = self.fill_ppn.val();
            self.fq_size.d.next = self.fill_size.val();
            self.fq_w.d.next = self.fill_writable.val();
        }

        // The pending fill's huge key against every huge entry (registers
        // only: the entries cannot change before the fill's stage 1, as
        // only fills write them and one fill is in flight at a time), in
        // two halves registered apart and ANDed in stage R: the key's bits
        // 51:18, and the rest with the size, the MR and the valid bit.
        self.hdup0.next = 0.into();
        self.dlo0.next = 0.into();
        for e in 0..HUGE {
            self.hent0.next = self.h_entry[e].q.val();
            self.hdup0.next = self.hdup0.val().replace_bit(
                e,
                self.hent0.val().get_bits::<34>(87) == self.fq_opn.q.val().get_bits::<34>(18),
            );
            self.dlo0.next = self.dlo0.val().replace_bit(
                e,
                (self.hent0.val().get_bit(121) == (self.fq_size.q.val() == 2)) // = page_size::SIZE_1G
                    && (self.hent0.val().get_bits::<MR_BITS>(53)
                        == self.fq_mr.q.val())
                    && (self.hent0.val().get_bit(121)
                        || (self.hent0.val().get_bits::<9>(78)
                            == self.fq_opn.q.val().get_bits::<9>(9))),
            );
        }
        self.dp_hi.d.next = self.hdup0.val();
        self.dp_lo.d.next = self.dlo0.val() & self.h_valid.q.val();
        // The lowest invalid huge entry (x & -x, a carry chain), for the
        // next clock.
        self.hvec.next = !self.h_valid.q.val();
        self.hneg.next = !self.hvec.val() + 1;
        self.inv_oh.next = self.hvec.val() & self.hneg.val();
        self.hinv_oh.d.next = self.inv_oh.val();
        self.hinv_found.d.next = self.hvec.val().any();

        // The last sweep step removes the huge entries it covers at the end
        // of its stage R (the invalidation registers still hold it then: a
        // new one is accepted at that edge at the earliest). The coverage
        // is registered a clock earlier (the invalidation registers do not
        // change at the end of the last step's issue clock); for the entry
        // a fill wrote at that edge the coverage of its word is used
        // instead; an entry the fill in stage 1 writes at the last step's
        // own edge is kept (that fill was checked against the
        // invalidation in its stage R).
        // A huge entry's key k (43 bits, 2 MiB units; a 1 GiB entry's low
        // nine bits are zero) overlaps the 2 MiB bounds [olo2, ohi2] iff
        // k <= ohi2 and its last 2 MiB unit (k | 0x1FF for 1 GiB) >= olo2,
        // which for 1 GiB is k >= olo2 or k[42:9] == olo2[42:9]: both
        // sizes compare with the same bounds, no size mux in front of the
        // comparators' carry chains.
        // First the three compares per entry, registered (cl_*), then
        // the coverage from them, registered (clrh_r): the compares see
        // the entries two clocks before the last step's stage R, so an
        // entry a fill wrote at the end of the compares' clock takes the
        // coverage of its word (clre_r, s1_wr_oh) in the second. The
        // invalidation's bounds are registers since its prep clock, in
        // which no step is issued: the compares of that clock are the
        // first the last step can use.
        self.cmr0.next = 0.into();
        for e in 0..HUGE {
            self.ent.next = self.h_entry[e].q.val();
            self.cmr0.next = self.cmr0.val().replace_bit(
                e,
                self.ent.val().get_bits::<MR_BITS>(53) == self.inv_mr_r.q.val(),
            );
        }
        // Each eighth against its own copy of the bounds (the compares of
        // the other copies that the masks leave unused are removed by
        // synthesis).
        self.cle0.next = 0.into();
        self.cge0.next = 0.into();
        for g in 0..8 {
            self.cleq[g].next = 0.into();
            self.cgeq[g].next = 0.into();
            for e in 0..HUGE {
                self.ent.next = self.h_entry[e].q.val();
                self.gig.next = self.ent.val().get_bit(121);
                self.k43.next = self.ent.val().get_bits::<43>(78);
                self.cleq[g].next = self.cleq[g]
                    .val()
                    .replace_bit(e, self.k43.val() <= self.inv_ohi2q[g].q.val());
                self.cgeq[g].next = self.cgeq[g].val().replace_bit(
                    e,
                    (self.k43.val() >= self.inv_olo2q[g].q.val())
                        || (self.gig.val()
                            && (self.k43.val().get_bits::<34>(9)
                                == self.inv_olo2q[g].q.val().get_bits::<34>(9))),
                );
            }
            self.cle0.next = self.cle0.val() | (self.cleq[g].val() & self.eighth[g].val());
            self.cge0.next = self.cge0.val() | (self.cgeq[g].val() & self.eighth[g].val());
        }
        self.cl_le.d.next = self.cle0.val();
        self.cl_ge.d.next = self.cge0.val();
        self.cl_mr.d.next = self.cmr0.val();
        self.clrh.next = 0.into();
        if self.inv_kind_r.q.val() == 0 {
            // = INV_ALL
            self.clrh.next = !self.clrh.val();
        }
        if self.inv_kind_r.q.val() == 1 {
            // = INV_BY_MR
            self.clrh.next = self.cl_mr.q.val();
        }
        if (self.inv_kind_r.q.val() == 2) && !self.inv_oempty.q.val() {
            // = INV_BY_MR_RANGE
            self.clrh.next = self.cl_mr.q.val() & self.cl_le.q.val() & self.cl_ge.q.val();
        }
        self.clrh.next = self.clrh.val() & !self.s1_wr_oh.q.val();
        if self.clre_r.q.val() {
            self.clrh.next = self.clrh.val() | self.s1_wr_oh.q.val();
        }
        self.clrh_r.d.next = self.clrh.val();
        self.gig.next = self.f1_ck.q.val().get_bit(43);
        self.mr_eq.next = self.f1_cmr.q.val() == self.inv_mr_r.q.val();
        self.k43.next = self.f1_ck.q.val().get_bits::<43>(0);
        self.in_rng.next = !self.inv_oempty.q.val()
            && (self.k43.val() <= self.inv_ohi2f.q.val())
            && ((self.k43.val() >= self.inv_olo2f.q.val())
                || (self.gig.val()
                    && (self.k43.val().get_bits::<34>(9)
                        == self.inv_olo2f.q.val().get_bits::<34>(9))));
        self.clre.next = (self.inv_kind_r.q.val() == 0) // = INV_ALL
            || (self.mr_eq.val()
                && ((self.inv_kind_r.q.val() == 1) // = INV_BY_MR
                    || ((self.inv_kind_r.q.val() == 2) && self.in_rng.val()))); // = INV_BY_MR_RANGE
        self.clre_r.d.next = self.clre.val();

        // Invalidation acceptance: precompute the bounds in page units.
        // 4 KiB pages overlapping [lo, hi) are lo_pn..=hi_pn. A huge page
        // with base page b overlaps iff b[51:9] (2 MiB) or b[51:18] (1 GiB)
        // lies between the range's bounds at that granularity; the 1 GiB
        // bounds are kept as 43-bit values with bits 8:0 zero (low bound)
        // or all ones (high bound) so one comparator pair serves both sizes.
        self.lo_pn.next = self.inv.va_lo.val().get_bits::<52>(12);
        self.hi_m1.next = self.inv.va_hi.val() - 1;
        self.hi_pn.next = self.hi_m1.val().get_bits::<52>(12);
        // The sweep length hi_pn - lo_pn without the subtraction of
        // hi - 1 in front of it (three carry chains in series were the
        // critical path): hi_pn is hi[63:12] - 1 when hi[11:0] is zero, so
        // span0 = hi[63:12] - lo_pn is one chain, span0 - 1 (low 16 bits)
        // a second in parallel, and "span < sets - 1" a zero test of
        // span0's bits above the set index.
        self.hi_pn0.next = self.inv.va_hi.val().get_bits::<52>(12);
        self.hi_page0.next = !self.inv.va_hi.val().get_bits::<12>(0).any();
        self.span0.next = self.hi_pn0.val() - self.lo_pn.val();
        self.lo16n.next = !self.lo_pn.val().get_bits::<16>(0);
        self.span1.next = self.hi_pn0.val().get_bits::<16>(0) + self.lo16n.val();
        self.span_small.next = !(self.sp0_r.q.val() & self.sets_hi_52.val()).any()
            && ((self.sp0_r.q.val() & self.sets_m1_52.val()) != self.sets_m1_52.val());
        self.span16.next = self.sp0_r.q.val().get_bits::<16>(0);
        if self.hp0_r.q.val() {
            self.span_small.next = !(self.sp0_r.q.val() & self.sets_hi_52.val()).any();
            self.span16.next = self.sp1_r.q.val();
        }
        // A range's sweep is set up in the prep clock, from registers.
        if self.inv_prep.q.val() && (self.inv_kind_r.q.val() == 2) {
            // = INV_BY_MR_RANGE
            if self.inv_empty.q.val() {
                self.sweep_left.d.next = 0.into();
                self.sl_nz.d.next = false;
            } else if self.span_small.val() {
                self.sweep_left.d.next = self.span16.val();
                self.sl_nz.d.next = self.span16.val().any();
                self.sweep_set.d.next = self.inv_lo.q.val().get_bits::<SET_BITS>(0);
            }
        }
        self.ohi_m1.next = self.inv.off_hi.val() - 1;
        // Copy g loads under its own flag inv_st[g] (= state == Inv).
        if !self.inv_st[1].q.val() {
            self.inv_olo2q[1].d.next = self.inv.off_lo.val().get_bits::<43>(21);
            self.inv_ohi2q[1].d.next = self.ohi_m1.val().get_bits::<43>(21);
        }
        if !self.inv_st[3].q.val() {
            self.inv_olo2q[3].d.next = self.inv.off_lo.val().get_bits::<43>(21);
            self.inv_ohi2q[3].d.next = self.ohi_m1.val().get_bits::<43>(21);
        }
        if !self.inv_st[2].q.val() && self.inv.valid.val() {
            self.inv_olo2q[2].d.next = self.inv.off_lo.val().get_bits::<43>(21);
            self.inv_ohi2q[2].d.next = self.ohi_m1.val().get_bits::<43>(21);
        }
        if !self.inv_st[5].q.val() && self.inv.valid.val() {
            self.inv_olo2q[5].d.next = self.inv.off_lo.val().get_bits::<43>(21);
            self.inv_ohi2q[5].d.next = self.ohi_m1.val().get_bits::<43>(21);
        }
        self.inv_is_rng.next = self.inv.kind.val() == 2;
        // = INV_BY_MR_RANGE
        if !self.inv_st[4].q.val() && self.inv.valid.val() && self.inv_is_rng.val() {
            self.inv_olo2q[4].d.next = self.inv.off_lo.val().get_bits::<43>(21);
            self.inv_ohi2q[4].d.next = self.ohi_m1.val().get_bits::<43>(21);
        }
        if !self.inv_st[6].q.val() && self.inv_is_rng.val() {
            self.inv_olo2q[6].d.next = self.inv.off_lo.val().get_bits::<43>(21);
            self.inv_ohi2q[6].d.next = self.ohi_m1.val().get_bits::<43>(21);
        }
        if !self.inv_st[7].q.val() && self.inv_is_rng.val() {
            self.inv_olo2q[7].d.next = self.inv.off_lo.val().get_bits::<43>(21);
            self.inv_ohi2q[7].d.next = self.ohi_m1.val().get_bits::<43>(21);
        }
        if self.rst.val() {
            self.inv_olo2q[3].d.next = 0.into();
            self.inv_ohi2q[3].d.next = 0.into();
            self.inv_olo2q[5].d.next = 0.into();
            self.inv_ohi2q[5].d.next = 0.into();
            self.inv_olo2q[7].d.next = 0.into();
            self.inv_ohi2q[7].d.next = 0.into();
        }
        if self.state.q.val() == TlbState::Run {
            self.inv_olo2f.d.next = self.inv.off_lo.val().get_bits::<43>(21);
            self.inv_ohi2f.d.next = self.ohi_m1.val().get_bits::<43>(21);
        }
        if self.inv_accept.val() {
            self.inv_kind_r.d.next = self.inv.kind.val();
            self.inv_mr_r.d.next = self.inv.mr.val();
            self.inv_lo.d.next = self.lo_pn.val();
            self.inv_hi.d.next = self.hi_pn.val();
            self.inv_empty.d.next = self.inv.va_lo.val() >= self.inv.va_hi.val();
            self.inv_olo2q[0].d.next = self.inv.off_lo.val().get_bits::<43>(21);
            self.inv_ohi2q[0].d.next = self.ohi_m1.val().get_bits::<43>(21);
            self.inv_olo1.d.next =
                bit_cast::<43, 34>(self.inv.off_lo.val().get_bits::<34>(30)) << 9;
            self.inv_ohi1.d.next =
                (bit_cast::<43, 34>(self.ohi_m1.val().get_bits::<34>(30)) << 9) | 0x1FF;
            self.inv_oempty.d.next = self.inv.off_lo.val() >= self.inv.off_hi.val();
            // Steps are counted minus one: sweep_left == 0 marks the last.
            self.sweep_set.d.next = 0.into();
            self.sweep_left.d.next = self.sets_m1_16.val();
            self.sl_nz.d.next = self.sets_m1_16.val().any();
            self.sp0_r.d.next = self.span0.val();
            self.sp1_r.d.next = self.span1.val();
            self.hp0_r.d.next = self.hi_page0.val();
            if self.inv.kind.val() == 3 {
                // = INV_RESERVED
                self.sweep_left.d.next = 0.into();
                self.sl_nz.d.next = false;
            }
            // ALL and BY_MR advance a generation: four steps (the probe,
            // two more, the last with the huge entries) that clear no 4 KiB
            // way, unless the probe finds the generation about to wrap.
            self.genm.d.next = false;
            self.probe_pend.d.next = false;
            if (self.inv.kind.val() == 0) || (self.inv.kind.val() == 1) {
                // = INV_ALL, INV_BY_MR
                self.sweep_left.d.next = 3.into();
                self.sl_nz.d.next = true;
                self.genm.d.next = true;
                self.probe_pend.d.next = true;
            }
        }

        // The probe two clocks after its issue: its generation (the MR's,
        // read in stage 0 with the invalidation's MR and registered in
        // stage R, or the global one) is advanced at the end of this clock,
        // so lookups issued from the clock after next (the last step is
        // issued at the earliest in the next one) see the new one. A
        // generation about to wrap could revive entries left from its
        // previous turn: the invalidation then sweeps every set instead,
        // clearing the MR's (or every) entries whatever their generation,
        // and the generation starts again from zero.
        self.pr_mr.d.next = self.sr_probe.q.val() && (self.inv_kind_r.q.val() == 1); // = INV_BY_MR
        self.pr_all.d.next = self.sr_probe.q.val() && (self.inv_kind_r.q.val() != 1);
        self.gen_old.next = self.s1_kg.q.val().get_bits::<8>(0);
        self.mgen.write_address.next = self.inv_mr_r.q.val();
        self.mgen.write_data.next = self.gen_old.val() + 1;
        self.mgen.write_enable.next = false;
        self.gen_wrap.next = false;
        if self.pr_mr.q.val() {
            self.gen_wrap.next = self.gen_old.val() == 0xFF;
            self.mgen.write_enable.next = true;
        }
        if self.pr_all.q.val() {
            self.gen_wrap.next = self.gg_full.q.val();
            self.ggen.d.next = self.ggen.q.val() + 1;
            self.gg_full.d.next = self.ggen.q.val() == 0xE;
        }
        if self.gen_wrap.val() {
            self.sweep_left.d.next = self.sets_m1_16.val();
            self.sl_nz.d.next = self.sets_m1_16.val().any();
            self.sweep_set.d.next = 0.into();
            self.genm.d.next = false;
        }
        if self.rst.val() {
            self.mgen.write_enable.next = false;
        }

        // ---------------------------------------------------------------
        // Stage 2: the 4 KiB writes of the operation stage 1 had in the
        // previous clock, from registers only. The fill target is the way
        // holding the same key, else the first invalid way, else the PLRU
        // victim; a hit or a fill makes the way most recently used.
        // ---------------------------------------------------------------
        self.plru4.state.next = self.s2_meta.q.val().get_bits::<4>(4);
        self.target4.next = self.plru4.victim.val();
        if self.s2_hit.q.val() {
            self.target4.next = self.s2_hit_idx.q.val();
        } else if self.s2_inv_found.q.val() {
            self.target4.next = self.s2_inv_idx.q.val();
        }
        self.plru4.touch.next = self.s2_hit_idx.q.val();
        if self.s2_apply.q.val() {
            self.plru4.touch.next = self.target4.val();
        }
        self.way_we.next = 0.into();
        self.valid_new.next = self.s2_meta.q.val().get_bits::<4>(0);
        self.meta_we.next = false;
        self.meta_wd.next = self.s2_meta.q.val();
        if self.s2_lk.q.val() && self.s2_hit.q.val() {
            self.meta_we.next = true;
            self.meta_wd.next = (bit_cast::<8, 4>(self.plru4.touched.val()) << 4)
                | bit_cast::<8, 4>(self.valid_new.val());
        }
        if self.s2_apply.q.val() {
            for w in 0..WAYS {
                if self.target4.val().index() == w {
                    self.way_we.next = self.way_we.val().replace_bit(w, true);
                    self.valid_new.next = self.valid_new.val().replace_bit(w, true);
                }
            }
            self.meta_we.next = true;
            self.meta_wd.next = (bit_cast::<8, 4>(self.plru4.touched.val()) << 4)
                | bit_cast::<8, 4>(self.valid_new.val());
        }
        if self.s2_sweep.q.val() {
            self.meta_we.next = true;
            self.meta_wd.next = (self.s2_meta.q.val() & 0xF0)
                | bit_cast::<8, 4>(self.valid_new.val() & !self.s2_clr4.q.val());
        }
        if self.s2_clear.q.val() {
            self.meta_wd.next = 0.into();
        }
        if self.rst.val() {
            self.meta_we.next = false;
            self.way_we.next = 0.into();
        }

        // ---------------------------------------------------------------
        // Stage 1: the registered RAM words of stage 0's set; compare.
        // They lack up to three writes: the one committed at the edge
        // they were read at (fwd2), the one committed at the end of stage
        // R (fwdb), and the one stage 2 commits now, applied in that order.
        // ---------------------------------------------------------------
        self.meta_eff.next = self.rr_meta.q.val();
        if self.fwd2_meta_en.q.val() {
            self.meta_eff.next = self.fwd2_meta.q.val();
        }
        if self.fwdb_meta_en.q.val() {
            self.meta_eff.next = self.fwdb_meta.q.val();
        }
        if self.s2_same.q.val() && self.meta_we.val() {
            self.meta_eff.next = self.meta_wd.val();
        }
        // The valid bits without the way stage 2 fills now (registers
        // only): stage 2's own valid bits after a sweep's clear, and wa4,
        // the way stage 2 writes in this set (computed from stage 2's
        // registers), enters only at the end of each decision below.
        self.s2_vfwd.next = self.s2_meta.q.val().get_bits::<4>(0);
        if self.s2_sweep.q.val() {
            self.s2_vfwd.next = self.s2_vfwd.val() & !self.s2_clr4.q.val();
        }
        if self.s2_clear.q.val() {
            self.s2_vfwd.next = 0.into();
        }
        self.s2_mwe.next = (self.s2_lk.q.val() && self.s2_hit.q.val())
            || self.s2_apply.q.val()
            || self.s2_sweep.q.val();
        self.valid4s.next = self.rr_meta.q.val().get_bits::<4>(0);
        if self.fwd2_meta_en.q.val() {
            self.valid4s.next = self.fwd2_meta.q.val().get_bits::<4>(0);
        }
        if self.fwdb_meta_en.q.val() {
            self.valid4s.next = self.fwdb_meta.q.val().get_bits::<4>(0);
        }
        if self.s2_same.q.val() && self.s2_mwe.val() {
            self.valid4s.next = self.s2_vfwd.val();
        }
        self.wa4.next = 0.into();
        if self.s2_same.q.val() {
            self.wa4.next = self.way_we.val();
        }

        // The fill's own fields (stage R: the holding register is still
        // full), for its word and its coverage check.
        self.fill_4k.next = self.fq_size.q.val() == 0; // = page_size::SIZE_4K
        self.fill_gig.next = self.fq_size.q.val() == 2; // = page_size::SIZE_1G
        self.fill_key.next = self.fq_opn.q.val() & self.key_mask_2m.val();
        if self.fill_gig.val() {
            self.fill_key.next = self.fq_opn.q.val() & self.key_mask_1g.val();
        }

        // 4 KiB ways.
        self.clr4.next = 0.into();
        self.hit4_found.next = false;
        self.hit4_idx.next = 0.into();
        self.inv4_found.next = false;
        self.inv4_idx.next = 0.into();
        self.acc_ppn.next = 0.into();
        self.acc_w.next = false;
        self.acc_size.next = 0.into();
        // The two forwarded words and stage 2's word are compared with the
        // lookup's key a clock ahead, when they are still fwd_entry,
        // s2_entry and f1_entry and the key is still in stage R (all of
        // them move on unconditionally): stage 1 gets the results from
        // registers, and no forwarded compare is in series with the
        // forwarding muxes.
        self.fm_fwd2.d.next = (self.fwd_entry.q.val().get_bits::<MR_BITS>(53)
            == self.sr_mr.q.val())
            && (self.fwd_entry.q.val().get_bits::<52>(69) == self.sr_vpn.q.val());
        self.fm_fwdb.d.next = (self.s2_entry.q.val().get_bits::<MR_BITS>(53) == self.sr_mr.q.val())
            && (self.s2_entry.q.val().get_bits::<52>(69) == self.sr_vpn.q.val());
        self.mq_fwd2.d.next = self.fwd_entry.q.val().get_bits::<MR_BITS>(53) == self.sr_mr.q.val();
        self.mq_fwdb.d.next = self.s2_entry.q.val().get_bits::<MR_BITS>(53) == self.sr_mr.q.val();
        self.rg_fwd2.d.next = (self.fwd_entry.q.val().get_bits::<52>(69) >= self.inv_lo.q.val())
            && (self.fwd_entry.q.val().get_bits::<52>(69) <= self.inv_hi.q.val());
        self.rg_fwdb.d.next = (self.s2_entry.q.val().get_bits::<52>(69) >= self.inv_lo.q.val())
            && (self.s2_entry.q.val().get_bits::<52>(69) <= self.inv_hi.q.val());
        self.fm_s2.d.next = (self.f1_entry.q.val().get_bits::<MR_BITS>(53) == self.sr_mr.q.val())
            && (self.f1_entry.q.val().get_bits::<52>(69) == self.sr_vpn.q.val());
        // Only the RAM word's generations are compared: a forwarded word
        // (written in the three clocks up to this one) is always of the
        // current generations. A fill that read a generation before an
        // invalidation advanced it was issued at the latest in the clock
        // the new one is written, before the last step; when it was issued
        // after the acceptance it is checked against the invalidation
        // (its stage R is still in the invalidation) and dropped, else it
        // was written by the acceptance's clock + 2, which a lookup issued
        // at `inv_done` (acceptance + 5 at the earliest) reads from the RAM.
        self.krr.next = 0.into();
        self.qv.next = 0.into();
        self.idx.next = 0.into();
        for w in 0..WAYS {
            // Every compare (tag, MR, sweep range) is made on each
            // candidate word, registers only, and the forwarding selects
            // among the results.
            self.ent.next = self.rr_way[w].q.val();
            self.krr.next = self.krr.val().replace_bit(
                w,
                (self.ent.val().get_bits::<MR_BITS>(53) == self.s1_mr.q.val())
                    && (self.ent.val().get_bits::<52>(69) == self.s1_vpn.q.val())
                    && (self.ent.val().get_bits::<12>(40) == self.s1_kg.q.val()),
            );
            self.mr_eq.next = self.ent.val().get_bits::<MR_BITS>(53) == self.s1_mr.q.val();
            self.in_rng.next = (self.ent.val().get_bits::<52>(69) >= self.s1i_inv_lo.q.val())
                && (self.ent.val().get_bits::<52>(69) <= self.s1i_inv_hi.q.val());
            // A forwarded word's match comes from a register (fm_fwd2,
            // fm_fwdb): only the RAM word's compare (krr) is made here.
            self.fkey.next = self.fwd2_way.q.val().get_bit(w) && self.fm_fwd2.q.val();
            if self.fwd2_way.q.val().get_bit(w) {
                self.ent.next = self.fwd2_entry.q.val();
                self.mr_eq.next = self.mq_fwd2.q.val();
                self.in_rng.next = self.rg_fwd2.q.val();
            }
            if self.fwdb_way.q.val().get_bit(w) {
                self.ent.next = self.fwdb_entry.q.val();
                self.fkey.next = self.fm_fwdb.q.val();
                self.mr_eq.next = self.mq_fwdb.q.val();
                self.in_rng.next = self.rg_fwdb.q.val();
            }
            self.qv.next = self
                .qv
                .val()
                .replace_bit(w, self.valid4s.val().get_bit(w) && self.fkey.val());
            self.x_way[w].d.next = self.ent.val().get_bits::<53>(0);
            // The first invalid way matters for a fill only, and no fill
            // is in stage 2 when one is in stage 1 (wa4 is zero then).
            if !self.valid4s.val().get_bit(w) && !self.inv4_found.val() {
                self.inv4_found.next = true;
                self.inv4_idx.next = self.idx.val();
            }
            // Invalidation predicate (stage 1 of a sweep step: s1_mr holds
            // the invalidation's MR).
            // Clearing an invalid way changes nothing, so the valid bit is
            // not needed here.
            self.in_rng.next = !self.s1i_inv_empty.q.val() && self.in_rng.val();
            if !self.wa4.val().get_bit(w)
                && !self.s1_nc.q.val()
                && ((self.s1i_inv_kind.q.val() == 0) // = INV_ALL
                    || (self.mr_eq.val()
                        && ((self.s1i_inv_kind.q.val() == 1) // = INV_BY_MR
                            || ((self.s1i_inv_kind.q.val() == 2) && self.in_rng.val()))))
            // = INV_BY_MR_RANGE
            {
                self.clr4.next = self.clr4.val().replace_bit(w, true);
            }
            self.idx.next = self.idx.val() + 1;
        }
        // The old words' matches: the RAM word's compare (krr, the late
        // term) meets the terms from registers and forwarding (pv: the RAM
        // word is the way's candidate and valid; qv: a forwarded word is,
        // valid and matching) in one gate. Valid keys are unique in a set:
        // at most one old word matches.
        self.pv.next = self.valid4s.val() & !self.fwd2_way.q.val() & !self.fwdb_way.q.val();
        self.m4s.next = (self.krr.val() & self.pv.val()) | self.qv.val();
        // The way stage 2 fills now holds its word, valid: its match is
        // fm_s2, a sweep keeps it (that fill was checked against the same
        // invalidation), and its frame reaches the select stage through
        // x_e.
        self.m4.next = self.m4s.val() & !self.wa4.val();
        if self.fm_s2.q.val() {
            self.m4.next = self.m4.val() | self.wa4.val();
        }
        self.hit4s_idx.next = 0.into();
        for w in 0..WAYS {
            if self.m4s.val().get_bit(w) {
                self.hit4s_idx.next = self.hit4s_idx.val() | w.to_bits();
            }
        }
        // The hit: the way stage 2 fills now when its word matches (that
        // fill replaced any other copy of the key), else an old word of
        // another way.
        self.fmw.next = self.s2_same.q.val() && self.s2_apply.q.val() && self.fm_s2.q.val();
        self.hit4_found.next = self.fmw.val() || (self.m4s.val() & !self.wa4.val()).any();
        self.hit4_idx.next = self.hit4s_idx.val();
        if self.fmw.val() {
            self.hit4_idx.next = self.target4.val();
        }

        // Huge entries: a lookup's matches, complete from stage R.
        self.mh.next = self.s1_mh.q.val();

        // The fill's huge target candidates, found a clock or more earlier
        // (see dp_hi, hinv_oh). hit (the entry a lookup makes most
        // recently used) is the OR of the indices of every match: keys are
        // unique, so it is the matching entry (a multi-hit is an invariant
        // violation).
        self.dup_oh.next = self.dp_hi.q.val() & self.dp_lo.q.val();
        self.duph_found.next = self.dup_oh.val().any();
        self.inv_oh.next = self.hinv_oh.q.val();
        self.invh_found.next = self.hinv_found.q.val();
        self.hith_found.next = self.mh.val().any();
        self.hith_idx.next = 0.into();
        self.idx.next = 0.into();
        self.duph_idx.next = 0.into();
        self.invh_idx.next = 0.into();
        for e in 0..HUGE {
            if self.mh.val().get_bit(e) {
                self.hith_idx.next = self.hith_idx.val() | self.idx.val();
            }
            if self.dup_oh.val().get_bit(e) {
                self.duph_idx.next = self.duph_idx.val() | self.idx.val();
            }
            if self.inv_oh.val().get_bit(e) {
                self.invh_idx.next = self.invh_idx.val() | self.idx.val();
            }
            self.idx.next = self.idx.val() + 1;
        }

        // What the select stage needs.
        self.x_lk.d.next = self.s1_lk.q.val();
        self.x_m4.d.next = self.m4.val();
        self.x_m4o.d.next = self.m4.val() & !self.wa4.val();
        self.x_me.d.next = self.s2_same.q.val() && self.s2_apply.q.val() && self.fm_s2.q.val();
        self.x_e.d.next = self.s2_entry.q.val().get_bits::<53>(0);
        self.x_mh.d.next = self.mh.val();
        // Whether x_mh has one match, or more (an invariant violation),
        // found beside it from stage 1's register, not after it.
        self.mhm1.next = self.mh.val() - 1;
        self.xh_any.d.next = self.mh.val().any();
        self.xh_multi.d.next = (self.mh.val() & self.mhm1.val()).any();

        // ---------------------------------------------------------------
        // Select stage: the lookup result from the match vectors of the
        // previous clock. Hit and multi-hit: "two or more bits" is
        // x & (x - 1) != 0 (a carry chain), not a chain through 36
        // entries; the frame is the OR of the matching entries' frames.
        // ---------------------------------------------------------------
        self.acc_ppn.next = 0.into();
        self.acc_w.next = false;
        self.acc_size.next = 0.into();
        for w in 0..WAYS {
            if self.x_m4o.q.val().get_bit(w) {
                self.acc_ppn.next = self.acc_ppn.val() | self.x_way[w].q.val().get_bits::<40>(0);
                if self.x_way[w].q.val().get_bit(52) {
                    self.acc_w.next = true;
                }
            }
        }
        if self.x_me.q.val() {
            self.acc_ppn.next = self.acc_ppn.val() | self.x_e.q.val().get_bits::<40>(0);
            if self.x_e.q.val().get_bit(52) {
                self.acc_w.next = true;
            }
        }
        for e in 0..HUGE {
            if self.x_mh.q.val().get_bit(e) {
                self.acc_ppn.next = self.acc_ppn.val() | self.h_entry[e].q.val().get_bits::<40>(0);
                if self.h_entry[e].q.val().get_bit(52) {
                    self.acc_w.next = true;
                }
                if self.h_entry[e].q.val().get_bit(121) {
                    self.acc_size.next = self.acc_size.val() | 2;
                } else {
                    self.acc_size.next = self.acc_size.val() | 1;
                }
            }
        }
        self.r_valid.d.next = self.x_lk.q.val();
        self.m4m1.next = self.x_m4.q.val() - 1;
        self.r_hit.d.next = self.x_lk.q.val() && (self.x_m4.q.val().any() || self.xh_any.q.val());
        self.r_multi.d.next = self.x_lk.q.val()
            && ((self.x_m4.q.val() & self.m4m1.val()).any()
                || self.xh_multi.q.val()
                || (self.x_m4.q.val().any() && self.xh_any.q.val()));
        self.r_ppn.d.next = 0.into();
        self.r_size.d.next = 0.into();
        self.r_w.d.next = false;
        if self.x_lk.q.val() {
            self.r_ppn.d.next = bit_cast::<52, 40>(self.acc_ppn.val());
            self.r_size.d.next = self.acc_size.val();
            self.r_w.d.next = self.acc_w.val();
        }

        // A fill reaching stage 1 while an invalidation is current is
        // dropped when the invalidation covers it (same predicate as the
        // sweep, applied to the fill's key).
        // The three range checks side by side from registers, the size
        // choosing after them: no mux in front of the comparators' carry
        // chains. They are made a clock ahead of the fill's stage R and
        // registered (rg4_r, rg2_r, rg1_r), and so are the state, kind and
        // MR terms (cov_a_r, cov_b_r): the fill's key cannot change in
        // between (the holding register is full from the clock the fill is
        // issued), and neither can the invalidation or the state, since a
        // fill is never issued in the clock an invalidation is accepted
        // (Run) or the last sweep step is issued (Inv). So the checks
        // compare against the bounds registers, and only a Run -> Run or
        // Inv -> Inv clock lies between them and the fill's stage R.
        self.kmask.next = self.fq_opn.q.val() & self.key_mask_2m.val();
        self.k43.next = self.kmask.val().get_bits::<43>(9);
        self.rng2.next = (self.k43.val() >= self.inv_olo2f.q.val())
            && (self.k43.val() <= self.inv_ohi2f.q.val());
        self.kmask.next = self.fq_opn.q.val() & self.key_mask_1g.val();
        self.k43.next = self.kmask.val().get_bits::<43>(9);
        self.rng1.next =
            (self.k43.val() >= self.inv_olo1.q.val()) && (self.k43.val() <= self.inv_ohi1.q.val());
        self.rng4.next = (self.fq_vpn.q.val() >= self.inv_lo.q.val())
            && (self.fq_vpn.q.val() <= self.inv_hi.q.val());
        self.rg4_r.d.next = self.rng4.val();
        self.rg2_r.d.next = self.rng2.val();
        self.rg1_r.d.next = self.rng1.val();
        self.fmr_eq.next = self.fq_mr.q.val() == self.inv_mr_r.q.val();
        self.cov_a_r.d.next = (self.state.q.val() == TlbState::Inv)
            && ((self.inv_kind_r.q.val() == 0) // = INV_ALL
                || (self.fmr_eq.val() && (self.inv_kind_r.q.val() == 1))); // = INV_BY_MR
        self.cov_b_r.d.next = (self.state.q.val() == TlbState::Inv)
            && self.fmr_eq.val()
            && (self.inv_kind_r.q.val() == 2); // = INV_BY_MR_RANGE
        self.in_rng.next = !self.inv_empty.q.val() && self.rg4_r.q.val();
        if self.fill_huge.val() {
            self.in_rng.next = !self.inv_oempty.q.val() && self.rg2_r.q.val();
            if self.fill_gig.val() {
                self.in_rng.next = !self.inv_oempty.q.val() && self.rg1_r.q.val();
            }
        }
        self.fill_cov.next = self.cov_a_r.q.val() || (self.cov_b_r.q.val() && self.in_rng.val());
        self.f1_cov.d.next = self.fill_cov.val();
        self.f1_4k.d.next = self.fill_4k.val();
        if self.sr_fill.q.val() {
            self.fq_valid.d.next = false;
            self.fq_issued.d.next = false;
        }
        self.apply4.next = self.s1_fill.q.val() && self.f1_4k.q.val() && !self.f1_cov.q.val();
        self.applyh.next = self.f1_ah.q.val();
        self.ah_n.next = self.sr_fill.q.val() && self.fill_huge.val() && !self.fill_cov.val();
        self.f1_ah.d.next = self.ah_n.val();

        // Huge fill target, chosen in the fill's stage R: the entry holding
        // the same key, else the first invalid entry, else the PLRU victim.
        // No lookup is in stage 1 then (`hf_wait`), so the tree's register
        // is the tree the fill sees: each half's victim, then the root
        // picks one.
        self.hv_sub.next = 0.into();
        for e in 0..HUGE {
            self.hv_sub.next = self.hv_sub.val().replace_bit(
                e,
                (self.h_plru.q.val() & self.hv_mask[e].val()) == self.hv_dir[e].val(),
            );
        }
        self.hv_up.next = self.hv_sub.val() & self.upper_half.val();
        self.hv_lo.next = self.hv_sub.val() & !self.upper_half.val();
        self.hv_up_idx.next = 0.into();
        self.hv_lo_idx.next = 0.into();
        self.idx.next = 0.into();
        for e in 0..HUGE {
            if self.hv_up.val().get_bit(e) {
                self.hv_up_idx.next = self.hv_up_idx.val() | self.idx.val();
            }
            if self.hv_lo.val().get_bit(e) {
                self.hv_lo_idx.next = self.hv_lo_idx.val() | self.idx.val();
            }
            self.idx.next = self.idx.val() + 1;
        }
        self.hv_oh.next = self.hv_lo.val();
        self.hv_idx.next = self.hv_lo_idx.val();
        if self.h_plru.q.val().get_bit(1) {
            self.hv_oh.next = self.hv_up.val();
            self.hv_idx.next = self.hv_up_idx.val();
        }
        self.f1_tidx.d.next = self.hv_idx.val();
        self.toh_n.next = self.hv_oh.val();
        if self.duph_found.val() {
            self.f1_tidx.d.next = self.duph_idx.val();
            self.toh_n.next = self.dup_oh.val();
        } else if self.invh_found.val() {
            self.f1_tidx.d.next = self.invh_idx.val();
            self.toh_n.next = self.inv_oh.val();
        }
        self.f1_hs.d.next = 0.into();
        if self.ah_n.val() {
            self.f1_hs.d.next = self.toh_n.val();
        }
        self.targeth.next = self.f1_tidx.q.val();
        self.plru_h.state.next = self.h_plru.q.val();
        self.plru_h.touch.next = self.hith_idx.val();
        if self.s1_fill.q.val() {
            self.plru_h.touch.next = self.targeth.val();
        }

        // The word a fill writes (4 KiB: VA page; huge: aligned off page).
        // The generations are those read in the fill's stage 0 (this is its
        // stage R).
        self.new_entry.next = bit_cast::<128, 40>(self.fq_ppn.q.val().get_bits::<40>(0))
            | (bit_cast::<128, 8>(self.mgen.read_data.val()) << 40)
            | (bit_cast::<128, 4>(self.sr_gg.q.val()) << 48)
            | (bit_cast::<128, MR_BITS>(self.fq_mr.q.val()) << 53)
            | (bit_cast::<128, 52>(self.fq_vpn.q.val()) << 69);
        if self.fill_huge.val() {
            self.new_entry.next = bit_cast::<128, 40>(self.fq_ppn.q.val().get_bits::<40>(0))
                | (bit_cast::<128, MR_BITS>(self.fq_mr.q.val()) << 53)
                | (bit_cast::<128, 52>(self.fill_key.val()) << 69);
            self.new_entry.next = self.new_entry.val().replace_bit(121, self.fill_gig.val());
        }
        self.new_entry.next = self.new_entry.val().replace_bit(52, self.fq_w.q.val());
        self.f1_entry.d.next = self.new_entry.val();
        if self.sr_fill.q.val() | self.s1_fill.q.val() {
            self.f1_ck.d.next = self.new_entry.val().get_bits::<44>(78);
            self.f1_cmr.d.next = self.new_entry.val().get_bits::<MR_BITS>(53);
        }

        self.mgen.read_clock.next = self.clock.val();
        self.mgen.write_clock.next = self.clock.val();
        self.meta.read_clock.next = self.clock.val();
        self.meta.write_clock.next = self.clock.val();
        self.meta.read_address.next = self.rd_set.val();
        self.meta.write_address.next = self.s2_set.q.val();
        self.meta.write_data.next = self.meta_wd.val();
        self.meta.write_enable.next = self.meta_we.val();
        for w in 0..WAYS {
            self.ways[w].read_clock.next = self.clock.val();
            self.ways[w].write_clock.next = self.clock.val();
            self.ways[w].read_address.next = self.rd_set.val();
            self.ways[w].write_address.next = self.s2_set.q.val();
            self.ways[w].write_data.next = self.s2_entry.q.val();
            self.ways[w].write_enable.next = self.way_we.val().get_bit(w);
        }
        // Stage 2's set is written now; the set read now is stage 1's two
        // clocks later: forward when they are the same.
        // (s2_set == rd_set, compared with each source of rd_set apart.)
        self.eq_sw.next = self.s2_set.q.val() == self.sweep_set.q.val();
        self.eq_lk.next = self.s2_set.q.val() == self.lk_va.val().get_bits::<SET_BITS>(12);
        self.eq_fq.next = self.s2_set.q.val() == self.fq_vpn.q.val().get_bits::<SET_BITS>(0);
        self.fwd_same_next.next = self.eq_sw.val();
        if self.alt_fq.val() {
            self.fwd_same_next.next = self.eq_fq.val();
        }
        if self.lk_take.val() {
            self.fwd_same_next.next = self.eq_lk.val();
        }
        self.fwd_meta_en.d.next = self.meta_we.val() && self.fwd_same_next.val();
        self.fwd_meta.d.next = self.meta_wd.val();
        self.fwd_way.d.next = 0.into();
        if self.fwd_same_next.val() {
            self.fwd_way.d.next = self.way_we.val();
        }
        self.fwd_entry.d.next = self.s2_entry.q.val();
        self.fwd2_meta_en.d.next = self.fwd_meta_en.q.val();
        self.fwd2_meta.d.next = self.fwd_meta.q.val();
        self.fwd2_way.d.next = self.fwd_way.q.val();
        self.fwd2_entry.d.next = self.fwd_entry.q.val();
        // Stage 2's set is written now; stage R's set reaches stage 1 in
        // the next clock with a word read before this write.
        self.fwdb_same.next = self.s2_set.q.val() == self.sr_set.q.val();
        self.fwdb_meta_en.d.next = self.meta_we.val() && self.fwdb_same.val();
        self.fwdb_meta.d.next = self.meta_wd.val();
        self.fwdb_way.d.next = 0.into();
        if self.fwdb_same.val() {
            self.fwdb_way.d.next = self.way_we.val();
        }
        self.fwdb_entry.d.next = self.s2_entry.q.val();

        // What stage 2 needs next clock.
        self.s2_lk.d.next = self.s1_lk.q.val();
        self.s2_hit.d.next = self.hit4_found.val();
        self.s2_hit_idx.d.next = self.hit4_idx.val();
        self.s2_inv_found.d.next = self.inv4_found.val();
        self.s2_inv_idx.d.next = self.inv4_idx.val();
        self.s2_apply.d.next = self.apply4.val();
        self.s2_sweep.d.next = self.s1_sweep.q.val();
        self.s2_clear.d.next = self.s1_clear.q.val();
        self.s2_set.d.next = self.s1_set.q.val();
        self.s2_meta.d.next = self.meta_eff.val();
        self.s2_clr4.d.next = self.clr4.val();
        self.s2_entry.d.next = self.f1_entry.q.val();
        self.s2_same.d.next = self.s1_set.q.val() == self.sr_set.q.val();

        // Huge writes.
        if self.s1_lk.q.val() && self.hith_found.val() {
            self.h_plru.d.next = self.plru_h.touched.val();
        }
        self.hset.next = self.f1_hs.q.val();
        for e in 0..HUGE {
            if self.f1_hs.q.val().get_bit(e) {
                self.h_entry[e].d.next = self.f1_entry.q.val();
            }
        }
        if self.applyh.val() {
            self.h_plru.d.next = self.plru_h.touched.val();
        }
        self.s1_wr_oh.d.next = self.hset.val();
        self.hclr.next = 0.into();
        if self.sr_sweep.q.val() && self.sr_last.q.val() {
            self.hclr.next = self.clrh_r.q.val() & !self.s1_wr_oh.q.val();
            if self.clre_r.q.val() {
                self.hclr.next = self.hclr.val() | self.s1_wr_oh.q.val();
            }
            self.hclr.next = self.hclr.val() & !self.hset.val();
        }
        self.hv_next.next = (self.h_valid.q.val() & !self.hclr.val()) | self.hset.val();
        self.h_valid.d.next = self.hv_next.val();
        // A lookup in stage 0: its MR against every huge entry as the
        // entries will be in its stage R (the entry the fill of stage 1
        // writes now is compared on that fill's word), and the valid bits
        // they will have then.
        self.fmr0.next = self.f1_entry.q.val().get_bits::<MR_BITS>(53) == self.lk_mr.val();
        self.hmr0.next = 0.into();
        for e in 0..HUGE {
            self.hent0.next = self.h_entry[e].q.val();
            self.hmr0.next = self.hmr0.val().replace_bit(
                e,
                self.hent0.val().get_bits::<MR_BITS>(53) == self.lk_mr.val(),
            );
        }
        self.hmr0.next = self.hmr0.val() & !self.hset.val();
        if self.fmr0.val() {
            self.hmr0.next = self.hmr0.val() | self.hset.val();
        }
        self.sr_hpre.d.next = self.hmr0.val() & self.hv_next.val();
        // A lookup in stage R: its huge matches as stage 1 will see them
        // (the valid bits and MR matches from stage 0; no huge fill is in
        // stage 1 and no sweep step in stage R with it).
        self.mh0.next = self.sr_hpre.q.val() & self.hkey0.val();
        self.s1_mh.d.next = self.mh0.val();

        // Synchronous reset of every control register (the RAM contents
        // are cleared by the Clear sweep that follows).
        if self.rst.val() {
            self.state.d.next = TlbState::Clear;
            self.sweep_set.d.next = 0.into();
            self.sweep_left.d.next = self.sets_m1_16.val();
            self.sl_nz.d.next = self.sets_m1_16.val().any();
            self.inv_kind_r.d.next = 0.into();
            self.ready_n.next = false;
            self.inv_done_r.d.next = false;
            self.owe_fill.d.next = false;
            self.inv_prep.d.next = false;
            self.fq_valid.d.next = false;
            self.fq_issued.d.next = false;
            self.sr_lk.d.next = false;
            self.sr_fill.d.next = false;
            self.sr_sweep.d.next = false;
            self.sr_clear.d.next = false;
            self.sr_last.d.next = false;
            self.sr_probe.d.next = false;
            self.pr_mr.d.next = false;
            self.pr_all.d.next = false;
            self.gg_full.d.next = false;
            self.sr_nc.d.next = false;
            self.s1_nc.d.next = false;
            self.genm.d.next = false;
            self.probe_pend.d.next = false;
            self.ggen.d.next = 0.into();
            self.s1_lk.d.next = false;
            self.s1_fill.d.next = false;
            self.f1_ah.d.next = false;
            self.f1_hs.d.next = 0.into();
            self.s1_sweep.d.next = false;
            self.s1_clear.d.next = false;
            self.s2_lk.d.next = false;
            self.s2_hit.d.next = false;
            self.s2_apply.d.next = false;
            self.s2_sweep.d.next = false;
            self.s2_clear.d.next = false;
            self.s2_same.d.next = false;
            self.fwd_meta_en.d.next = false;
            self.fwd_way.d.next = 0.into();
            self.fwd2_meta_en.d.next = false;
            self.fwd2_way.d.next = 0.into();
            self.fwdb_meta_en.d.next = false;
            self.fwdb_way.d.next = 0.into();
            self.x_lk.d.next = false;
            self.x_m4.d.next = 0.into();
            self.x_m4o.d.next = 0.into();
            self.x_me.d.next = false;
            self.x_mh.d.next = 0.into();
            self.xh_any.d.next = false;
            self.xh_multi.d.next = false;
            self.h_valid.d.next = 0.into();
            self.h_plru.d.next = 0.into();
            self.r_valid.d.next = false;
            self.r_hit.d.next = false;
            self.r_ppn.d.next = 0.into();
            self.r_size.d.next = 0.into();
            self.r_w.d.next = false;
            self.r_multi.d.next = false;
        }
        self.ready_r.d.next = self.ready_n.val();
        if self.ready_n.val() ^ self.ready_o.q.val() {
            self.ready_o.d.next = self.ready_n.val();
        }
        // The next state, for the bound copies' flags.
        self.st_inv_n.next = self.state.d.val() == TlbState::Inv;
        for g in 0..8 {
            if self.st_inv_n.val() ^ self.inv_st[g].q.val() {
                self.inv_st[g].d.next = self.st_inv_n.val();
            }
        }
    }
}

/// Generates the Verilog of [`DefaultTlb`] alone, top module `tlb`, for
/// measuring the block by itself (`odp-mmu pnr --design tlb`).
pub fn generate_verilog() -> String {
    let mut uut = DefaultTlb::new();
    uut.connect_all();
    crate::verilog::generate(&uut, "tlb")
}
