#![doc = include_str!("../../docs/mr_table.md")]

use rust_hdl::prelude::*;

use crate::common::interfaces::{MrStateIn, MrWriteIn};
use crate::common::lut_ram::LutRam;

/// Verdict on `res_status` besides the SPEC's [`status::OK`](crate::spec::status::OK) and
/// [`status::ACCESS_ERR`](crate::spec::status::ACCESS_ERR): every check passes but the MR is SUSPENDED. The
/// translation pipeline turns it into RNR (remote op) or STALL (local op).
/// The code is the MR state's bit 1 ([`mr_state::SUSPENDED`](crate::spec::mr_state::SUSPENDED) = 2), which is
/// how stage 2 computes the verdict.
pub const STATUS_SUSPENDED: u64 = 1;

/// Largest request the table accepts, in bytes (SPEC: `len` is 1..4096).
pub const MAX_LEN_BYTES: u64 = 4096;

/// Smallest legal `IDX_BITS`.
pub const MIN_IDX_BITS: usize = 2;
/// Largest legal `IDX_BITS` (1024 entries).
pub const MAX_IDX_BITS: usize = 10;

/// The MR table with its default size, 256 entries (SPEC section 6).
pub type DefaultMrTable = MrTable<8>;

/// Memory-region table with `2^IDX_BITS` entries and a fully pipelined
/// protection check.
///
/// # Parameters
///
/// - `IDX_BITS`: log2 of the number of entries, `2..=10` (4 to 1024 MRs);
///   the default table ([`DefaultMrTable`]) has 8 (256 MRs). Checked at
///   construction. A key whose index (`key[31:8]`) is `2^IDX_BITS` or more
///   is refused (ACCESS_ERR), never folded onto a smaller index.
///
/// # Entry
///
/// `tag[7:0]`, `pd[15:0]`, `base_va[63:0]`, `length[63:0]`, `access[2:0]`
/// (bit 0 LOCAL_WRITE, bit 1 REMOTE_WRITE, bit 2 REMOTE_READ; LOCAL_READ is
/// always allowed), `root[51:0]` (bits 63:12 of the root table's physical
/// address), `levels_m1[1:0]` (page-table levels minus one) and
/// `state[1:0]` (0 INVALID, 1 VALID, 2 SUSPENDED, 3 reserved = INVALID).
/// An MR covers `[base_va, base_va + length)` computed without wrap-around:
/// it may end exactly at 2^64. An MR whose end is beyond 2^64 is accepted
/// and treated as ending at 2^64: no request can wrap around the top of the
/// address space.
///
/// # Ports
///
/// All ports are synchronous to `clock`. Groups:
///
/// - `rst` / `ready`: reset and the clearing sweep. After `rst` (and after
///   power-up) `ready` is low while the table writes one entry per clock to
///   all-zero (state INVALID), `2^IDX_BITS` clocks, then high until the next
///   `rst`. While `ready` is low, writes and lookups are ignored: no entry
///   changes and no result comes out.
/// - `wr_*`: full entry write, one per clock, no backpressure.
/// - `st_*`: state-only write (suspend, resume, invalidate). When `wr_valid`
///   and `st_valid` are both high, both writes happen; on the same index the
///   full write wins.
/// - `lk_*`: lookup request, one per clock, no backpressure. Drive these
///   from registers: the first stage is a LUT-RAM read.
/// - `res_*`: the lookup's verdict and offset, two clocks after the request.
///
/// # Latency and ordering
///
/// A lookup presented in clock `c0` has `res_valid` high in `c0 + 2`, from a
/// register. A lookup sees every write presented in an earlier clock and
/// none presented in the same clock (old data; every field, including the
/// state, is read at the same edge).
///
/// # Storage and stages
///
/// On ECP5 a block RAM's clock-to-out (about 4 ns) followed by any compare
/// does not fit one 125 MHz clock, and neither does a 256-entry LUT-RAM read
/// followed by a 52-bit subtract. So:
/// - everything a check reads is in distributed (LUT) RAM, read in the
///   request clock and registered at the first edge: `base_va[63:12]`; tag,
///   PD, access, `base_va[11:0]`; the MR end `min(base_va + length, 2^64)`,
///   summed once at write time so that no lookup adds base and length; and
///   the state, in a two-write-port LUT RAM (XOR banks) so that a full write
///   and a state-only write can land in the same clock;
/// - root and levels, which only pass through, are in block RAM (rust-hdl
///   `RAM`, registered read);
/// - stage 1 (`c0` to the first edge): the LUT-RAM reads, `va + len`, the
///   key-range, length and page-crossing checks;
/// - stage 2 (`c0 + 1` to the second edge), from registers: three carry
///   chains side by side (`off`, `va >= base_va`, `va + len <= end`), the
///   tag, PD, access and state checks, then one level of logic to the
///   verdict.
///
/// # Invariants
///
/// - `res_status` is one of [`status::OK`](crate::spec::status::OK), [`STATUS_SUSPENDED`],
///   [`status::ACCESS_ERR`](crate::spec::status::ACCESS_ERR).
/// - OK or SUSPENDED only when the key index is in range, the key tag and PD
///   match (or `lk_any`), `1 <= len <= 4096`, `base_va <= va`,
///   `va + len <= min(base_va + length, 2^64)` (65-bit), the op's access
///   right is set and the state is VALID (OK) or SUSPENDED (SUSPENDED).
/// - `res_valid` in clock `c + 2` exactly when `lk_valid && ready && !rst`
///   in `c` and no `rst` in `c + 1`.
///
/// `res_off`, `res_root` and `res_levels_m1` carry the entry at index
/// `key[8 + IDX_BITS - 1 : 8]` whatever the status: consumers use them only
/// with OK or SUSPENDED. `res_cross` is a property of the request alone.
#[derive(LogicBlock)]
pub struct MrTable<const IDX_BITS: usize> {
    /// Clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous active-high reset: cancels lookups in flight and starts
    /// the clearing sweep.
    pub rst: Signal<In, Bit>,
    /// High once the clearing sweep after reset or power-up is complete.
    pub ready: Signal<Out, Bit>,

    /// Full write (`wr_*`): writes every field of entry `wr_index` at the
    /// clock's edge.
    pub wr: MrWriteIn<IDX_BITS>,
    /// State-only write (`st_*`): sets the state of entry `st_index`.
    pub st: MrStateIn<IDX_BITS>,

    /// Lookup: a request is presented this clock.
    pub lk_valid: Signal<In, Bit>,
    /// Lookup: lkey / rkey (index in `[31:8]`, tag in `[7:0]`).
    pub lk_key: Signal<In, Bits<32>>,
    /// Lookup: copies of the key's index, `lk_key[8 + IDX_BITS - 1 : 8]`,
    /// one per LUT RAM: `lk_ix_b0` and `lk_ix_b1` address the two halves of
    /// `base_va[63:12]`, `lk_ix_c` the check word and the state, `lk_ix_e0`
    /// and `lk_ix_e1` the two halves of the end. Each must equal the key's
    /// index whenever `lk_valid` is high; otherwise they are don't-care.
    /// The caller drives each from logic of its own, so that no single net
    /// fans out to every LUT-RAM cell of the table (about 650 of them at the
    /// default 256 MRs).
    pub lk_ix_b0: Signal<In, Bits<IDX_BITS>>,
    /// See `lk_ix_b0`.
    pub lk_ix_b1: Signal<In, Bits<IDX_BITS>>,
    /// See `lk_ix_b0`.
    pub lk_ix_c: Signal<In, Bits<IDX_BITS>>,
    /// See `lk_ix_b0`.
    pub lk_ix_e0: Signal<In, Bits<IDX_BITS>>,
    /// See `lk_ix_b0`.
    pub lk_ix_e1: Signal<In, Bits<IDX_BITS>>,
    /// Lookup: requester's protection domain.
    pub lk_pd: Signal<In, Bits<16>>,
    /// Lookup: first byte accessed.
    pub lk_va: Signal<In, Bits<64>>,
    /// Lookup: bytes accessed (legal 1..=4096).
    pub lk_len: Signal<In, Bits<13>>,
    /// Lookup: 0 REMOTE_WRITE, 1 REMOTE_READ, 2 LOCAL_READ, 3 LOCAL_WRITE.
    pub lk_op: Signal<In, Bits<2>>,
    /// Lookup: an internal lookup of the MR itself (a PREFETCH page): the
    /// key tag and PD are not compared. The key's index, the length, the
    /// bounds, the op's access right and the state are checked as for any
    /// lookup.
    pub lk_any: Signal<In, Bit>,

    /// Result stage: a lookup presented two clocks ago.
    pub res_valid: Signal<Out, Bit>,
    /// Result stage: 0 OK, 1 SUSPENDED, 4 ACCESS_ERR.
    pub res_status: Signal<Out, Bits<3>>,
    /// Result stage: entry index.
    pub res_mr: Signal<Out, Bits<IDX_BITS>>,
    /// Result stage: `va - (base_va & !0xFFF)`, wrapping 64-bit: the offset
    /// the MR's page tables are indexed with (SPEC section 3).
    pub res_off: Signal<Out, Bits<64>>,
    /// Four more copies of `res_off` bits 63:21 (the bits a huge page's
    /// key holds; zero below), each from flip-flops of its own and equal to
    /// those bits whenever `res_valid` is high, for a consumer that wants
    /// the fanout split (the TLB compares each quarter of its huge entries
    /// against one). Otherwise they may differ: each copy loads under a
    /// condition of its own, which keeps synthesis from merging them.
    pub res_off_q0: Signal<Out, Bits<64>>,
    /// See `res_off_q0`.
    pub res_off_q1: Signal<Out, Bits<64>>,
    /// See `res_off_q0`.
    pub res_off_q2: Signal<Out, Bits<64>>,
    /// See `res_off_q0`.
    pub res_off_q3: Signal<Out, Bits<64>>,
    /// Result stage: root table physical address bits 63:12.
    pub res_root: Signal<Out, Bits<52>>,
    /// Result stage: page-table levels minus one.
    pub res_levels_m1: Signal<Out, Bits<2>>,
    /// Result stage: the access crosses a 4 KiB boundary,
    /// `(va & 0xFFF) + len > 4096`.
    pub res_cross: Signal<Out, Bit>,
    /// Result stage: the MR's end, `min(base_va + length, 2^64 - 1)` (an MR
    /// ending at 2^64 answers `2^64 - 1`); the fault path clamps its
    /// prefetch hint to it. Valid with OK and SUSPENDED.
    pub res_end: Signal<Out, Bits<64>>,

    // --- storage ---
    /// `base_va[37:12]`.
    base_p0: LutRam<Bits<26>, IDX_BITS>,
    /// `base_va[63:38]`.
    base_p1: LutRam<Bits<26>, IDX_BITS>,
    /// `[7:0]` tag, `[23:8]` PD, `[26:24]` access, `[38:27]` `base_va[11:0]`,
    /// `[39]` end bit 64.
    chk: LutRam<Bits<40>, IDX_BITS>,
    /// End bits 31:0.
    end_p0: LutRam<Bits<32>, IDX_BITS>,
    /// End bits 63:32.
    end_p1: LutRam<Bits<32>, IDX_BITS>,
    /// `[51:0]` root, `[53:52]` levels_m1.
    walk: RAM<Bits<54>, IDX_BITS>,
    /// The 2-bit state, with its two write ports.
    state: StateRam<IDX_BITS>,
    // --- reset sweep ---
    ready_r: DFF<Bit>,
    /// The `ready` output's own copy of `ready_r` (the same sequence; it
    /// loads only when it differs from its own value, so that synthesis
    /// keeps it apart): placed by the caller's issue logic, not by the
    /// sweep and the lookup's first stage that `ready_r` feeds.
    ready_o: DFF<Bit>,
    ready_n: Signal<Local, Bit>,
    sweep: DFF<Bits<IDX_BITS>>,
    // --- constants ---
    key_hi_mask: Constant<Bits<32>>,
    bit64: Constant<Bits<65>>,
    // --- write path ---
    sweeping: Signal<Local, Bit>,
    w_en: Signal<Local, Bit>,
    w_idx: Signal<Local, Bits<IDX_BITS>>,
    w_sum: Signal<Local, Bits<65>>,
    w_end: Signal<Local, Bits<65>>,
    // --- stage 1: LUT-RAM read into registers, request-only sums ---
    lk_idx: Signal<Local, Bits<IDX_BITS>>,
    m_end: Signal<Local, Bits<65>>,
    va_end: Signal<Local, Bits<65>>,
    cross_sum: Signal<Local, Bits<14>>,
    valid_s1: DFF<Bit>,
    idx_s1: DFF<Bits<IDX_BITS>>,
    va_s1: DFF<Bits<64>>,
    va_end_s1: DFF<Bits<65>>,
    tag_s1: DFF<Bits<8>>,
    pd_s1: DFF<Bits<16>>,
    op_s1: DFF<Bits<2>>,
    any_s1: DFF<Bit>,
    key_ok_s1: DFF<Bit>,
    len_ok_s1: DFF<Bit>,
    cross_s1: DFF<Bit>,
    m_base_page_s1: DFF<Bits<52>>,
    m_chk_s1: DFF<Bits<40>>,
    m_end_s1: DFF<Bits<65>>,
    m_state_s1: DFF<Bits<2>>,
    // --- stage 2: every check, from registers, and the verdict ---
    m_base: Signal<Local, Bits<64>>,
    off_hi: Signal<Local, Bits<52>>,
    off_new: Signal<Local, Bits<64>>,
    lo_ok: Signal<Local, Bit>,
    hi_ok: Signal<Local, Bit>,
    lo_gt_h: Signal<Local, Bit>,
    lo_eq_h: Signal<Local, Bit>,
    lo_ge_l: Signal<Local, Bit>,
    hi_lt_h: Signal<Local, Bit>,
    hi_eq_h: Signal<Local, Bit>,
    hi_le_l: Signal<Local, Bit>,
    acc_ok: Signal<Local, Bit>,
    live: Signal<Local, Bit>,
    pre_ok: Signal<Local, Bit>,
    all_ok: Signal<Local, Bit>,
    valid_s2: DFF<Bit>,
    status_s2: DFF<Bits<3>>,
    idx_s2: DFF<Bits<IDX_BITS>>,
    off_s2: DFF<Bits<64>>,
    off_hi43: Signal<Local, Bits<43>>,
    off_q0: DFF<Bits<43>>,
    off_q1: DFF<Bits<43>>,
    off_q2: DFF<Bits<43>>,
    off_q3: DFF<Bits<43>>,
    root_s2: DFF<Bits<52>>,
    levels_s2: DFF<Bits<2>>,
    cross_s2: DFF<Bit>,
    end_s2: DFF<Bits<64>>,
}

impl<const IDX_BITS: usize> MrTable<IDX_BITS> {
    /// Number of entries, `2^IDX_BITS`.
    pub const ENTRIES: usize = 1 << IDX_BITS;

    /// A table with every entry INVALID once its power-up sweep is done.
    /// Panics when `IDX_BITS` is outside `2..=10`.
    pub fn new() -> Self {
        assert!(
            (MIN_IDX_BITS..=MAX_IDX_BITS).contains(&IDX_BITS),
            "MrTable: IDX_BITS must be in {MIN_IDX_BITS}..={MAX_IDX_BITS}, got {IDX_BITS}"
        );
        // Key bits above the index: any of them set names an MR beyond the table.
        let key_hi_mask = (u32::MAX as u64) & !((1u64 << (8 + IDX_BITS)) - 1);
        Self {
            clock: Default::default(),
            rst: Default::default(),
            ready: Default::default(),
            wr: Default::default(),
            st: Default::default(),
            lk_valid: Default::default(),
            lk_key: Default::default(),
            lk_ix_b0: Default::default(),
            lk_ix_b1: Default::default(),
            lk_ix_c: Default::default(),
            lk_ix_e0: Default::default(),
            lk_ix_e1: Default::default(),
            lk_pd: Default::default(),
            lk_va: Default::default(),
            lk_len: Default::default(),
            lk_op: Default::default(),
            lk_any: Default::default(),
            res_valid: Default::default(),
            res_status: Default::default(),
            res_mr: Default::default(),
            res_off: Default::default(),
            res_off_q0: Default::default(),
            res_off_q1: Default::default(),
            res_off_q2: Default::default(),
            res_off_q3: Default::default(),
            res_root: Default::default(),
            res_levels_m1: Default::default(),
            res_cross: Default::default(),
            res_end: Default::default(),
            base_p0: Default::default(),
            base_p1: Default::default(),
            chk: Default::default(),
            end_p0: Default::default(),
            end_p1: Default::default(),
            walk: Default::default(),
            state: Default::default(),
            ready_r: Default::default(),
            ready_o: Default::default(),
            ready_n: Default::default(),
            sweep: Default::default(),
            key_hi_mask: Constant::new(key_hi_mask.into()),
            bit64: Constant::new(Bits::<65>::default().replace_bit(64, true)),
            sweeping: Default::default(),
            w_en: Default::default(),
            w_idx: Default::default(),
            w_sum: Default::default(),
            w_end: Default::default(),
            lk_idx: Default::default(),
            m_end: Default::default(),
            va_end: Default::default(),
            cross_sum: Default::default(),
            valid_s1: Default::default(),
            idx_s1: Default::default(),
            va_s1: Default::default(),
            va_end_s1: Default::default(),
            tag_s1: Default::default(),
            pd_s1: Default::default(),
            op_s1: Default::default(),
            any_s1: Default::default(),
            key_ok_s1: Default::default(),
            len_ok_s1: Default::default(),
            cross_s1: Default::default(),
            m_base_page_s1: Default::default(),
            m_chk_s1: Default::default(),
            m_end_s1: Default::default(),
            m_state_s1: Default::default(),
            m_base: Default::default(),
            off_hi: Default::default(),
            off_new: Default::default(),
            lo_ok: Default::default(),
            hi_ok: Default::default(),
            lo_gt_h: Default::default(),
            lo_eq_h: Default::default(),
            lo_ge_l: Default::default(),
            hi_lt_h: Default::default(),
            hi_eq_h: Default::default(),
            hi_le_l: Default::default(),
            acc_ok: Default::default(),
            live: Default::default(),
            pre_ok: Default::default(),
            all_ok: Default::default(),
            valid_s2: Default::default(),
            status_s2: Default::default(),
            idx_s2: Default::default(),
            off_s2: Default::default(),
            off_hi43: Default::default(),
            off_q0: Default::default(),
            off_q1: Default::default(),
            off_q2: Default::default(),
            off_q3: Default::default(),
            root_s2: Default::default(),
            levels_s2: Default::default(),
            cross_s2: Default::default(),
            end_s2: Default::default(),
        }
    }
}

impl<const IDX_BITS: usize> Default for MrTable<IDX_BITS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const IDX_BITS: usize> Logic for MrTable<IDX_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            ready_r,
            ready_o,
            sweep,
            valid_s1,
            idx_s1,
            va_s1,
            va_end_s1,
            tag_s1,
            pd_s1,
            op_s1,
            any_s1,
            key_ok_s1,
            len_ok_s1,
            cross_s1,
            m_base_page_s1,
            m_chk_s1,
            m_end_s1,
            m_state_s1,
            valid_s2,
            status_s2,
            idx_s2,
            off_s2,
            off_q0,
            off_q1,
            off_q2,
            off_q3,
            root_s2,
            levels_s2,
            cross_s2,
            end_s2
        );
        self.base_p0.clock.next = self.clock.val();
        self.base_p1.clock.next = self.clock.val();
        self.chk.clock.next = self.clock.val();
        self.end_p0.clock.next = self.clock.val();
        self.end_p1.clock.next = self.clock.val();
        self.walk.read_clock.next = self.clock.val();
        self.walk.write_clock.next = self.clock.val();
        self.state.clock.next = self.clock.val();

        // ---- Reset sweep: after rst (or power-up) write every entry to zero,
        // one per clock, then raise ready. The sweep owns the write ports.
        self.sweeping.next = !self.ready_r.q.val();
        self.ready_n.next = self.ready_r.q.val();
        if self.sweeping.val() {
            self.sweep.d.next = self.sweep.q.val() + 1;
            if self.sweep.q.val().all() {
                self.ready_n.next = true;
            }
        }
        if self.rst.val() {
            self.ready_n.next = false;
            self.sweep.d.next = 0.into();
        }
        self.ready_r.d.next = self.ready_n.val();
        if self.ready_n.val() ^ self.ready_o.q.val() {
            self.ready_o.d.next = self.ready_n.val();
        }
        self.ready.next = self.ready_o.q.val();

        // ---- Full-write port (shared with the sweep). The MR end is summed
        // here, once per write, so the lookup compares against a stored
        // value instead of adding base and length in its own path.
        self.w_en.next = self.wr.valid.val() & !self.rst.val();
        self.w_idx.next = self.wr.index.val();
        self.w_sum.next =
            bit_cast::<65, 64>(self.wr.base_va.val()) + bit_cast::<65, 64>(self.wr.length.val());
        // An end beyond 2^64 is clamped to 2^64: no request may wrap around
        // the top of the address space, whatever the MR claims.
        self.w_end.next = self.w_sum.val();
        if self.w_sum.val().get_bit(64) {
            self.w_end.next = self.bit64.val();
        }
        self.base_p0.write_data.next = self.wr.base_va.val().get_bits::<26>(12);
        self.base_p1.write_data.next = self.wr.base_va.val().get_bits::<26>(38);
        self.chk.write_data.next = bit_cast::<40, 8>(self.wr.tag.val())
            | (bit_cast::<40, 16>(self.wr.pd.val()) << 8)
            | (bit_cast::<40, 3>(self.wr.access.val()) << 24)
            | (bit_cast::<40, 12>(self.wr.base_va.val().get_bits::<12>(0)) << 27)
            | (bit_cast::<40, 1>(self.w_end.val().get_bits::<1>(64)) << 39);
        self.end_p0.write_data.next = self.w_end.val().get_bits::<32>(0);
        self.end_p1.write_data.next = self.w_end.val().get_bits::<32>(32);
        self.walk.write_data.next = bit_cast::<54, 52>(self.wr.root.val())
            | (bit_cast::<54, 2>(self.wr.levels_m1.val()) << 52);
        if self.sweeping.val() {
            self.w_en.next = true;
            self.w_idx.next = self.sweep.q.val();
            self.base_p0.write_data.next = 0.into();
            self.base_p1.write_data.next = 0.into();
            self.chk.write_data.next = 0.into();
            self.end_p0.write_data.next = 0.into();
            self.end_p1.write_data.next = 0.into();
            self.walk.write_data.next = 0.into();
        }
        self.base_p0.write_enable.next = self.w_en.val();
        self.base_p0.write_address.next = self.w_idx.val();
        self.base_p1.write_enable.next = self.w_en.val();
        self.base_p1.write_address.next = self.w_idx.val();
        self.chk.write_enable.next = self.w_en.val();
        self.chk.write_address.next = self.w_idx.val();
        self.end_p0.write_enable.next = self.w_en.val();
        self.end_p0.write_address.next = self.w_idx.val();
        self.end_p1.write_enable.next = self.w_en.val();
        self.end_p1.write_address.next = self.w_idx.val();
        self.walk.write_enable.next = self.w_en.val();
        self.walk.write_address.next = self.w_idx.val();

        // ---- State: the full write (and the sweep) on one port, the
        // state-only write on the other.
        self.state.w_en.next = self.w_en.val();
        self.state.w_mask.next = self.wr.valid.val() | self.sweeping.val();
        self.state.w_address.next = self.w_idx.val();
        self.state.w_data.next = self.wr.state.val();
        self.state.d_address.next = self.wr.index.val();
        self.state.clr.next = self.sweeping.val();
        // Not gated by rst: a state write in the clock of a reset is
        // overwritten by the sweep that follows it (ready_r is low from the
        // next clock), and the reset, which reaches every control register,
        // stays off the write enables of the state RAM's copies.
        self.state.s_en.next = self.st.valid.val() & self.ready_r.q.val();
        self.state.s_address.next = self.st.index.val();
        self.state.s_data.next = self.st.state.val();

        // ---- Stage 1 (request clock c0 -> edge 1): the LUT-RAM reads go
        // straight into registers, so the checks start the next clock from
        // flip-flops. Beside them, the request-only sums va + len (65-bit)
        // and va[11:0] + len, and the key-range and length checks. Each LUT
        // RAM reads at its own copy of the index (see lk_ix_b0); the block
        // RAM and the stage registers take the key's own.
        self.lk_idx.next = self.lk_key.val().get_bits::<IDX_BITS>(8);
        self.base_p0.read_address.next = self.lk_ix_b0.val();
        self.base_p1.read_address.next = self.lk_ix_b1.val();
        self.chk.read_address.next = self.lk_ix_c.val();
        self.end_p0.read_address.next = self.lk_ix_e0.val();
        self.end_p1.read_address.next = self.lk_ix_e1.val();
        self.walk.read_address.next = self.lk_idx.val();
        self.state.read_address.next = self.lk_ix_c.val();
        self.m_end.next = bit_cast::<65, 32>(self.end_p0.read_data.val())
            | (bit_cast::<65, 32>(self.end_p1.read_data.val()) << 32);
        if self.chk.read_data.val().get_bit(39) {
            self.m_end.next = self.m_end.val() | self.bit64.val();
        }
        self.va_end.next =
            bit_cast::<65, 64>(self.lk_va.val()) + bit_cast::<65, 13>(self.lk_len.val());
        self.cross_sum.next = bit_cast::<14, 12>(self.lk_va.val().get_bits::<12>(0))
            + bit_cast::<14, 13>(self.lk_len.val());

        self.valid_s1.d.next = self.lk_valid.val() & self.ready_r.q.val() & !self.rst.val();
        self.idx_s1.d.next = self.lk_idx.val();
        self.va_s1.d.next = self.lk_va.val();
        self.va_end_s1.d.next = self.va_end.val();
        self.tag_s1.d.next = self.lk_key.val().get_bits::<8>(0);
        self.pd_s1.d.next = self.lk_pd.val();
        self.op_s1.d.next = self.lk_op.val();
        self.any_s1.d.next = self.lk_any.val();
        // The whole key is checked: index bits above the table must be zero.
        self.key_ok_s1.d.next = (self.lk_key.val() & self.key_hi_mask.val()) == 0;
        self.len_ok_s1.d.next = (self.lk_len.val() != 0) & (self.lk_len.val() <= 4096);
        self.cross_s1.d.next = self.cross_sum.val() > 4096;
        self.m_base_page_s1.d.next = bit_cast::<52, 26>(self.base_p0.read_data.val())
            | (bit_cast::<52, 26>(self.base_p1.read_data.val()) << 26);
        self.m_chk_s1.d.next = self.chk.read_data.val();
        self.m_end_s1.d.next = self.m_end.val();
        self.m_state_s1.d.next = self.state.read_data.val();

        // ---- Stage 2 (c0 + 1 -> edge 2), from registers only: three carry
        // chains side by side (off = va - page(base_va), va >= base_va,
        // va + len <= end), the tag / PD equalities, the access bit for the
        // op, then the verdict. The block-RAM read of root / levels issued
        // in stage 1 lands here and is registered.
        self.m_base.next = (bit_cast::<64, 52>(self.m_base_page_s1.q.val()) << 12)
            | bit_cast::<64, 12>(self.m_chk_s1.q.val().get_bits::<12>(27));
        self.off_hi.next = self.va_s1.q.val().get_bits::<52>(12) - self.m_base_page_s1.q.val();
        // The two bound compares in halves side by side (bits 31:0 and
        // the rest), each a carry chain of half the length, joined by one
        // gate: `va >= base` and `va + len <= end`.
        self.lo_gt_h.next =
            self.va_s1.q.val().get_bits::<32>(32) > self.m_base.val().get_bits::<32>(32);
        self.lo_eq_h.next =
            self.va_s1.q.val().get_bits::<32>(32) == self.m_base.val().get_bits::<32>(32);
        self.lo_ge_l.next =
            self.va_s1.q.val().get_bits::<32>(0) >= self.m_base.val().get_bits::<32>(0);
        self.lo_ok.next = self.lo_gt_h.val() | (self.lo_eq_h.val() & self.lo_ge_l.val());
        self.hi_lt_h.next =
            self.va_end_s1.q.val().get_bits::<33>(32) < self.m_end_s1.q.val().get_bits::<33>(32);
        self.hi_eq_h.next =
            self.va_end_s1.q.val().get_bits::<33>(32) == self.m_end_s1.q.val().get_bits::<33>(32);
        self.hi_le_l.next =
            self.va_end_s1.q.val().get_bits::<32>(0) <= self.m_end_s1.q.val().get_bits::<32>(0);
        self.hi_ok.next = self.hi_lt_h.val() | (self.hi_eq_h.val() & self.hi_le_l.val());
        self.acc_ok.next = true;
        if self.op_s1.q.val() == 0 {
            // = op::REMOTE_WRITE
            self.acc_ok.next = self.m_chk_s1.q.val().get_bit(25);
        }
        if self.op_s1.q.val() == 1 {
            // = op::REMOTE_READ
            self.acc_ok.next = self.m_chk_s1.q.val().get_bit(26);
        }
        if self.op_s1.q.val() == 3 {
            // = op::LOCAL_WRITE
            self.acc_ok.next = self.m_chk_s1.q.val().get_bit(24);
        }
        // State 1 (VALID) or 2 (SUSPENDED): exactly one of the two bits set.
        self.live.next = self.m_state_s1.q.val().get_bit(0) ^ self.m_state_s1.q.val().get_bit(1);
        // Everything but the two bound compares first, so that only one
        // level of logic follows the carry chains.
        self.pre_ok.next = self.key_ok_s1.q.val()
            & self.len_ok_s1.q.val()
            & ((self.tag_s1.q.val() == self.m_chk_s1.q.val().get_bits::<8>(0))
                | self.any_s1.q.val())
            & ((self.pd_s1.q.val() == self.m_chk_s1.q.val().get_bits::<16>(8))
                | self.any_s1.q.val())
            & self.acc_ok.val()
            & self.live.val();
        self.all_ok.next = self.pre_ok.val() & self.lo_ok.val() & self.hi_ok.val();

        self.valid_s2.d.next = self.valid_s1.q.val() & !self.rst.val();
        self.status_s2.d.next = 4.into(); // = status::ACCESS_ERR
        if self.all_ok.val() {
            self.status_s2.d.next = bit_cast::<3, 1>(self.m_state_s1.q.val().get_bits::<1>(1));
        }
        self.idx_s2.d.next = self.idx_s1.q.val();
        self.off_new.next = (bit_cast::<64, 52>(self.off_hi.val()) << 12)
            | bit_cast::<64, 12>(self.va_s1.q.val().get_bits::<12>(0));
        self.off_s2.d.next = self.off_new.val();
        // The copies (see res_off_q0), of off[63:21] only: loaded for a
        // lookup; otherwise q0 and q1 hold (q1 also loads in the clock after
        // one), q2 clears, q3 sets.
        self.off_hi43.next = self.off_new.val().get_bits::<43>(21);
        if self.valid_s1.q.val() {
            self.off_q0.d.next = self.off_hi43.val();
        }
        if self.valid_s1.q.val() | self.valid_s2.q.val() {
            self.off_q1.d.next = self.off_hi43.val();
        }
        self.off_q2.d.next = 0.into();
        self.off_q3.d.next = 0x7FF_FFFF_FFFF_u64.into();
        if self.valid_s1.q.val() {
            self.off_q2.d.next = self.off_hi43.val();
            self.off_q3.d.next = self.off_hi43.val();
        }
        self.root_s2.d.next = self.walk.read_data.val().get_bits::<52>(0);
        self.levels_s2.d.next = self.walk.read_data.val().get_bits::<2>(52);
        self.cross_s2.d.next = self.cross_s1.q.val();
        self.end_s2.d.next = self.m_end_s1.q.val().get_bits::<64>(0);
        if self.m_end_s1.q.val().get_bit(64) {
            self.end_s2.d.next = 0xFFFF_FFFF_FFFF_FFFF_u64.into();
        }

        self.res_valid.next = self.valid_s2.q.val();
        self.res_status.next = self.status_s2.q.val();
        self.res_mr.next = self.idx_s2.q.val();
        self.res_off.next = self.off_s2.q.val();
        self.res_off_q0.next = bit_cast::<64, 43>(self.off_q0.q.val()) << 21;
        self.res_off_q1.next = bit_cast::<64, 43>(self.off_q1.q.val()) << 21;
        self.res_off_q2.next = bit_cast::<64, 43>(self.off_q2.q.val()) << 21;
        self.res_off_q3.next = bit_cast::<64, 43>(self.off_q3.q.val()) << 21;
        self.res_root.next = self.root_s2.q.val();
        self.res_levels_m1.next = self.levels_s2.q.val();
        self.res_cross.next = self.cross_s2.q.val();
        self.res_end.next = self.end_s2.q.val();
    }
}

/// The 2-bit MR states: LUT RAM with two write ports and one asynchronous
/// read port.
///
/// Port `w` (full write, sweep) and port `s` (state-only write) both write at
/// the clock edge; when both name the same entry only `w` is done. Built as
/// an XOR multi-port memory: banks `F` (written by `w`) and `S` (written by
/// `s`) each hold one copy per read port, the state of entry `i` is
/// `F[i] ^ S[i]`, and a write stores its value XOR the other bank's current
/// entry, so neither port disturbs the other. The Rust model is the plain
/// two-port memory; the lockstep runs check the XOR construction against it.
///
/// The reset sweep (`clr`, with `w_en`) zeroes the entry at `w_address` in
/// both banks instead of writing `F` against `S`. Outside it the `w`
/// write's data reads `S` at `d_address`, the full write's own index
/// (equal to `w_address` then), so the sweep's address select and its
/// enable stay off that read: only the final zeroing sees `clr`.
#[derive(LogicBlock)]
struct StateRam<const N: usize> {
    clock: Signal<In, Clock>,
    read_address: Signal<In, Bits<N>>,
    read_data: Signal<Out, Bits<2>>,
    w_en: Signal<In, Bit>,
    w_address: Signal<In, Bits<N>>,
    /// The full write's state (don't-care with `clr`).
    w_data: Signal<In, Bits<2>>,
    /// The full write's index, equal to `w_address` whenever `w_en` is
    /// high and `clr` low.
    d_address: Signal<In, Bits<N>>,
    /// The reset sweep: the `w` write zeroes its entry (`s_en` is low).
    clr: Signal<In, Bit>,
    /// A full write is offered on `w_address` (its valid or the sweep,
    /// without rst): a state write to the same entry is dropped. Equal to
    /// `w_en` outside a reset, after which the sweep rewrites every entry.
    w_mask: Signal<In, Bit>,
    s_en: Signal<In, Bit>,
    s_address: Signal<In, Bits<N>>,
    s_data: Signal<In, Bits<2>>,
    _mem: Vec<Bits<2>>,
}

impl<const N: usize> Default for StateRam<N> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            w_en: Default::default(),
            w_address: Default::default(),
            w_data: Default::default(),
            d_address: Default::default(),
            clr: Default::default(),
            w_mask: Default::default(),
            s_en: Default::default(),
            s_address: Default::default(),
            s_data: Default::default(),
            _mem: vec![Bits::default(); 1 << N],
        }
    }
}

impl<const N: usize> Logic for StateRam<N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            if self.s_en.val()
                && !(self.w_mask.val() && self.s_address.val() == self.w_address.val())
            {
                self._mem[self.s_address.val().index()] = self.s_data.val();
            }
            // Applied last: the full write wins on the same entry.
            if self.w_en.val() {
                self._mem[self.w_address.val().index()] = if self.clr.val() {
                    Bits::default()
                } else {
                    self.w_data.val()
                };
            }
        }
        self.read_data.next = self._mem[self.read_address.val().index()];
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
(* ram_style = \"distributed\" *)
reg [1:0] f[0:{last}];
(* ram_style = \"distributed\" *)
reg [1:0] s[0:{last}];
wire s_do;
assign s_do = s_en & ~(w_mask & (s_address == d_address));

always @(posedge clock) begin
   if (w_en) begin
      f[w_address] <= clr ? 2'b00 : (w_data ^ s[d_address]);
   end
   if (s_do | (clr & w_en)) begin
      s[clr ? w_address : s_address] <= clr ? 2'b00 : (s_data ^ f[s_address]);
   end
end

always @(*) begin
   read_data = f[read_address] ^ s[read_address];
end
",
            last = (1usize << N) - 1
        ))
    }
}

/// Generates the Verilog of [`DefaultMrTable`] alone, top module
/// `mr_table`, for measuring the block by itself
/// (`odp-mmu pnr --design mr-table`).
pub fn generate_verilog() -> String {
    let mut uut = DefaultMrTable::new();
    uut.connect_all();
    crate::verilog::generate(&uut, "mr_table")
}
