//! Reference model of the translation TLB (`odp_mmu::translate::tlb::Tlb`), in plain
//! Rust and written from the datasheet, not from the RTL.
//!
//! Two layers:
//! - [`TlbModel`]: the entries. 4 KiB sets of 4 ways and the huge-page
//!   array, each with its tree pseudo-LRU, so that hits and misses match the
//!   block exactly, not just "a hit is right".
//! - [`TlbRef`]: the clock-level contract around it: when a lookup, a fill,
//!   an invalidation or a reset takes effect, and what every output is in
//!   every clock (`ready`, `fill_ready`, `inv_ready`, `inv_done`, `res_*`).
//!   A testbench compares all outputs of the block with [`TlbRef::outs`] in
//!   every clock.

#![allow(dead_code)] // each test uses a different part of the model

use odp_mmu::spec::page_size::{SIZE_1G, SIZE_2M, SIZE_4K};
use odp_mmu::translate::tlb::{INV_ALL, INV_BY_MR, INV_BY_MR_RANGE};

/// Inputs of the block in one clock (values as the ports carry them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TlbIns {
    pub rst: bool,
    pub lk_valid: bool,
    pub lk_mr: u64,
    pub lk_va: u64,
    pub lk_off: u64,
    pub fill_valid: bool,
    pub fill_mr: u64,
    pub fill_va: u64,
    pub fill_off: u64,
    pub fill_ppn: u64,
    pub fill_size: u64,
    pub fill_writable: bool,
    pub inv_valid: bool,
    pub inv_kind: u64,
    pub inv_mr: u64,
    pub inv_va_lo: u64,
    pub inv_va_hi: u64,
    pub inv_off_lo: u64,
    pub inv_off_hi: u64,
}

/// Outputs of the block in one clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TlbOuts {
    pub ready: bool,
    pub res_valid: bool,
    pub res_hit: bool,
    pub res_ppn: u64,
    pub res_size: u64,
    pub res_writable: bool,
    pub res_multi_hit: bool,
    pub fill_ready: bool,
    pub inv_ready: bool,
    pub inv_done: bool,
}

/// A fill as the walker offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fill {
    pub mr: u64,
    pub va: u64,
    pub off: u64,
    pub ppn: u64,
    pub size: u64,
    pub writable: bool,
}

/// An invalidation request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inv {
    pub kind: u64,
    pub mr: u64,
    pub va_lo: u64,
    pub va_hi: u64,
    pub off_lo: u64,
    pub off_hi: u64,
}

impl Inv {
    /// Does the invalidation remove a page of MR `mr` covering bytes
    /// `[start, start + len)` of VA space (`in_va`) or off space?
    pub fn covers(&self, mr: u64, in_va: bool, start: u64, len: u64) -> bool {
        let (lo, hi) = if in_va {
            (self.va_lo, self.va_hi)
        } else {
            (self.off_lo, self.off_hi)
        };
        let overlaps =
            lo < hi && (start as u128) < hi as u128 && (start as u128 + len as u128) > lo as u128;
        match self.kind {
            INV_ALL => true,
            INV_BY_MR => mr == self.mr,
            INV_BY_MR_RANGE => mr == self.mr && overlaps,
            _ => false,
        }
    }

    /// Does it cover the page a fill would create?
    pub fn covers_fill(&self, f: &Fill) -> bool {
        match f.size {
            SIZE_4K => self.covers(f.mr, true, f.va & !0xFFF, 1 << 12),
            SIZE_2M => self.covers(f.mr, false, f.off & !((1 << 21) - 1), 1 << 21),
            SIZE_1G => self.covers(f.mr, false, f.off & !((1 << 30) - 1), 1 << 30),
            _ => true,
        }
    }
}

/// What a lookup returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Translation {
    pub ppn: u64,
    pub size: u64,
    pub writable: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct Way {
    valid: bool,
    mr: u64,
    vpn: u64,
    ppn: u64,
    writable: bool,
    /// The MR's and the global generation when it was filled.
    gen: u8,
    gg: u8,
}

#[derive(Clone, Copy, Debug, Default)]
struct Huge {
    valid: bool,
    mr: u64,
    gig: bool,
    /// Base of the page in off space.
    base: u64,
    ppn: u64,
    writable: bool,
}

impl Huge {
    fn len(&self) -> u64 {
        if self.gig {
            1 << 30
        } else {
            1 << 21
        }
    }
    fn covers_off(&self, off: u64) -> bool {
        off >= self.base && (off - self.base) < self.len()
    }
}

/// Tree pseudo-LRU over `n` entries (n a power of two): `bits[k]` is node
/// k, node 1 the root, children 2k and 2k+1, entry i is leaf n+i; a node
/// points at the half holding the victim (false: lower, true: upper).
#[derive(Clone, Debug)]
pub struct TreePlru {
    n: usize,
    bits: Vec<bool>,
}

impl TreePlru {
    pub fn new(n: usize) -> Self {
        assert!(n.is_power_of_two() && n >= 2);
        Self {
            n,
            bits: vec![false; n],
        }
    }
    pub fn victim(&self) -> usize {
        let mut node = 1;
        while node < self.n {
            node = 2 * node + self.bits[node] as usize;
        }
        node - self.n
    }
    pub fn touch(&mut self, i: usize) {
        let mut node = self.n + i;
        while node > 1 {
            // Point the parent at the sibling half.
            self.bits[node / 2] = node.is_multiple_of(2);
            node /= 2;
        }
    }
    pub fn clear(&mut self) {
        self.bits.iter_mut().for_each(|b| *b = false);
    }
}

/// The TLB's entries and replacement state.
#[derive(Clone, Debug)]
pub struct TlbModel {
    pub sets: usize,
    ways: Vec<[Way; 4]>,
    plru4: Vec<TreePlru>,
    huge: Vec<Huge>,
    plru_h: TreePlru,
    /// Generation of each MR (8 bits; not cleared by reset, as the block's
    /// RAM is not) and the global generation (4 bits).
    mgen: std::collections::HashMap<u64, u8>,
    ggen: u8,
}

/// Outcome of a lookup in the model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lookup {
    pub hit: Option<Translation>,
    /// Number of matching entries (more than one is a block invariant
    /// violation, which a consistent stimulus never provokes).
    pub matches: usize,
}

impl TlbModel {
    pub fn new(set_bits: usize, huge: usize) -> Self {
        let sets = 1 << set_bits;
        Self {
            sets,
            ways: vec![[Way::default(); 4]; sets],
            plru4: vec![TreePlru::new(4); sets],
            huge: vec![Huge::default(); huge],
            plru_h: TreePlru::new(huge),
            mgen: Default::default(),
            ggen: 0,
        }
    }

    /// Every entry invalid, every PLRU tree and the global generation zero
    /// (the reset state); the MR generations are kept.
    pub fn clear(&mut self) {
        let mgen = std::mem::take(&mut self.mgen);
        *self = Self::new(self.sets.trailing_zeros() as usize, self.huge.len());
        self.mgen = mgen;
    }

    fn gen_of(&self, mr: u64) -> u8 {
        self.mgen.get(&mr).copied().unwrap_or(0)
    }

    /// A 4 KiB entry that holds `(mr, vpn)` in the current generations.
    fn current(&self, e: &Way, mr: u64, vpn: u64) -> bool {
        e.valid && e.mr == mr && e.vpn == vpn && e.gen == self.gen_of(mr) && e.gg == self.ggen
    }

    /// Advances the generation of `mr` (`INV_BY_MR`) or the global one
    /// (`INV_ALL`); true when it wrapped to zero (the block then sweeps).
    pub fn advance_generation(&mut self, kind: u64, mr: u64) -> bool {
        if kind == INV_BY_MR {
            let g = self.gen_of(mr);
            self.mgen.insert(mr, g.wrapping_add(1));
            g == 0xFF
        } else {
            let g = self.ggen;
            self.ggen = (g + 1) & 0xF;
            g == 0xF
        }
    }

    fn set_of(&self, vpn: u64) -> usize {
        (vpn as usize) & (self.sets - 1)
    }

    /// Looks up `(mr, va)` / `(mr, off)` and makes the hit most recently used.
    pub fn lookup(&mut self, mr: u64, va: u64, off: u64) -> Lookup {
        let vpn = va >> 12;
        let set = self.set_of(vpn);
        let m4: Vec<usize> = (0..4)
            .filter(|&w| self.current(&self.ways[set][w], mr, vpn))
            .collect();
        let mh: Vec<usize> = (0..self.huge.len())
            .filter(|&i| {
                let e = &self.huge[i];
                e.valid && e.mr == mr && e.covers_off(off)
            })
            .collect();
        let mut t = Translation::default();
        for &w in &m4 {
            let e = &self.ways[set][w];
            t.ppn |= e.ppn;
            t.writable |= e.writable;
        }
        for &i in &mh {
            let e = &self.huge[i];
            t.ppn |= e.ppn;
            t.writable |= e.writable;
            t.size |= if e.gig { SIZE_1G } else { SIZE_2M };
        }
        if let Some(&w) = m4.first() {
            self.plru4[set].touch(w);
        }
        // The block touches the entry whose index is the OR of the
        // matching indices: the match itself when there is one, as a
        // consistent page table guarantees.
        if !mh.is_empty() {
            self.plru_h.touch(mh.iter().fold(0, |acc, &i| acc | i));
        }
        let matches = m4.len() + mh.len();
        Lookup {
            hit: (matches > 0).then_some(t),
            matches,
        }
    }

    /// Installs a translation: over the entry with the same key, else the
    /// first invalid entry, else the PLRU victim. Size 3 is ignored.
    pub fn fill(&mut self, f: &Fill) {
        match f.size {
            SIZE_4K => {
                let vpn = f.va >> 12;
                let set = self.set_of(vpn);
                // An entry of an older generation counts as valid here
                // (the block cannot see other MRs' generations when it
                // picks a way), but is not the fill's key.
                let ways = &self.ways[set];
                let w = (0..4)
                    .find(|&w| self.current(&ways[w], f.mr, vpn))
                    .or_else(|| (0..4).find(|&w| !ways[w].valid))
                    .unwrap_or_else(|| self.plru4[set].victim());
                self.ways[set][w] = Way {
                    valid: true,
                    mr: f.mr,
                    vpn,
                    ppn: f.ppn & ((1 << 40) - 1),
                    writable: f.writable,
                    gen: self.gen_of(f.mr),
                    gg: self.ggen,
                };
                self.plru4[set].touch(w);
            }
            SIZE_2M | SIZE_1G => {
                let gig = f.size == SIZE_1G;
                let len: u64 = if gig { 1 << 30 } else { 1 << 21 };
                let base = f.off & !(len - 1);
                let h = &self.huge;
                let i = (0..h.len())
                    .find(|&i| {
                        h[i].valid && h[i].mr == f.mr && h[i].gig == gig && h[i].base == base
                    })
                    .or_else(|| (0..h.len()).find(|&i| !h[i].valid))
                    .unwrap_or_else(|| self.plru_h.victim());
                self.huge[i] = Huge {
                    valid: true,
                    mr: f.mr,
                    gig,
                    base,
                    ppn: f.ppn & ((1 << 40) - 1),
                    writable: f.writable,
                };
                self.plru_h.touch(i);
            }
            _ => {}
        }
    }

    /// Removes every entry the invalidation covers; PLRU state is kept.
    pub fn invalidate(&mut self, inv: &Inv) {
        for set in 0..self.sets {
            self.invalidate_set(inv, set);
        }
        self.invalidate_huge(inv);
    }

    /// Removes the entries of one 4 KiB set the invalidation covers, of any
    /// generation.
    pub fn invalidate_set(&mut self, inv: &Inv, set: usize) {
        for e in self.ways[set].iter_mut() {
            if e.valid && inv.covers(e.mr, true, e.vpn << 12, 1 << 12) {
                e.valid = false;
            }
        }
    }

    /// Removes the huge entries the invalidation covers.
    pub fn invalidate_huge(&mut self, inv: &Inv) {
        for e in self.huge.iter_mut() {
            if e.valid && inv.covers(e.mr, false, e.base, e.len()) {
                e.valid = false;
            }
        }
    }

    /// Number of 4 KiB entries of the current generations and of valid
    /// huge entries.
    pub fn occupancy(&self) -> (usize, usize) {
        let four = self
            .ways
            .iter()
            .flatten()
            .filter(|e| self.current(e, e.mr, e.vpn))
            .count();
        let huge = self.huge.iter().filter(|e| e.valid).count();
        (four, huge)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Clear,
    Run,
    Inv,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage1 {
    Idle,
    Lookup {
        mr: u64,
        va: u64,
    },
    Fill,
    /// An invalidation step; `probe`: the first step of a generation
    /// invalidation; `nc`: a step that clears no 4 KiB way.
    Sweep {
        set: usize,
        last: bool,
        probe: bool,
        nc: bool,
    },
}

/// Clock-level reference of the block's documented timing contract.
///
/// Rules (from the datasheet):
/// - Reset (`rst` high in a clock) clears everything; `ready` is then low
///   for `sets` clocks while the sets are swept.
/// - A lookup issued in clock c (`lk_valid && ready`) takes effect in clock
///   c+1 with that clock's `lk_off`; its result shows in clock c+4 (the
///   block registers its RAM words, then its match vectors, on the way).
/// - An accepted fill waits in a one-entry holding register; it is issued
///   in the first later clock in which no lookup is issued and takes effect
///   in the clock after. If a lookup took the clock it wanted, `ready` is
///   low in the next clock; in the clock after a huge fill's issue (2 MiB
///   or 1 GiB) it is low as well. `fill_ready` is low while the register
///   is full.
/// - An accepted invalidation: `ready` low from the next clock, which
///   issues no step (the prep clock: a pending fill may be issued in it),
///   a pending fill first, then one step per clock in the order of [`TlbRef::sweep`]
///   (huge entries with the last step), then `inv_done` and `ready` high
///   together. ALL and BY_MR take four steps that clear no set: the
///   first (the probe) advances the generation as it takes effect, and
///   when that generation wraps, every set is swept after it instead
///   (the clock after the probe takes effect restarts the count at set 0). Fills are accepted while it runs (not in the
///   clock of its last step) and dropped when it covers them; a fill
///   offered but not taken in the clock it was accepted holds back the last
///   step until it is taken.
pub struct TlbRef {
    pub model: TlbModel,
    mode: Mode,
    left: usize,
    sweep_set: usize,
    inv: Option<Inv>,
    /// The invalidation advances a generation (steps clear no set).
    genm: bool,
    probe_pend: bool,
    /// The probe took effect in the previous clock: its generation
    /// advances at the end of this one (unless a reset comes first), and
    /// when it wraps the sweep is set up then too.
    probe_d: Option<Inv>,
    /// The clock after an invalidation was accepted: no step.
    prep: bool,
    owe: bool,
    ready: bool,
    inv_done: bool,
    res: TlbOuts,
    /// `res` one and two clocks later: the result on the outputs.
    res_d1: TlbOuts,
    res_d2: TlbOuts,
    fq: Option<Fill>,
    fq_issued: bool,
    s1: Stage1,
    /// Counters for test reports.
    pub lookups: u64,
    pub hits: u64,
    /// Hits on 4 KiB, 2 MiB and 1 GiB entries.
    pub hits_by_size: [u64; 3],
    pub fills_applied: u64,
    pub fills_dropped: u64,
    pub invalidations: u64,
    /// Generations that wrapped (each one a full sweep): an MR's, the
    /// global one.
    pub wraps_mr: u64,
    pub wraps_all: u64,
    pub refused_clocks: u64,
}

impl TlbRef {
    pub fn new(set_bits: usize, huge: usize) -> Self {
        let mut r = Self {
            model: TlbModel::new(set_bits, huge),
            mode: Mode::Clear,
            left: 0,
            sweep_set: 0,
            inv: None,
            genm: false,
            probe_pend: false,
            probe_d: None,
            prep: false,
            owe: false,
            ready: false,
            inv_done: false,
            res: TlbOuts::default(),
            res_d1: TlbOuts::default(),
            res_d2: TlbOuts::default(),
            fq: None,
            fq_issued: false,
            s1: Stage1::Idle,
            lookups: 0,
            hits: 0,
            hits_by_size: [0; 3],
            fills_applied: 0,
            fills_dropped: 0,
            invalidations: 0,
            wraps_mr: 0,
            wraps_all: 0,
            refused_clocks: 0,
        };
        r.reset();
        r
    }

    fn reset(&mut self) {
        self.model.clear();
        self.mode = Mode::Clear;
        self.left = self.model.sets - 1;
        self.sweep_set = 0;
        self.inv = None;
        self.genm = false;
        self.probe_pend = false;
        self.probe_d = None;
        self.prep = false;
        self.owe = false;
        self.ready = false;
        self.inv_done = false;
        self.res = TlbOuts::default();
        self.res_d1 = TlbOuts::default();
        self.res_d2 = TlbOuts::default();
        self.fq = None;
        self.fq_issued = false;
        self.s1 = Stage1::Idle;
    }

    /// Sweep of an invalidation: (first set, steps minus one). Sets are
    /// swept in increasing order, wrapping: all of them from set 0, or, for
    /// a range of fewer pages than sets, the sets of its pages from the
    /// first page's.
    pub fn sweep(&self, inv: &Inv) -> (usize, usize) {
        let sets = self.model.sets as u64;
        match inv.kind {
            INV_ALL | INV_BY_MR => (0, 3),
            INV_BY_MR_RANGE if inv.va_lo < inv.va_hi => {
                let first = inv.va_lo >> 12;
                let span = ((inv.va_hi - 1) >> 12) - first;
                if span < sets - 1 {
                    ((first % sets) as usize, span as usize)
                } else {
                    (0, (sets - 1) as usize)
                }
            }
            _ => (0, 0),
        }
    }

    /// The block's outputs in the current clock.
    pub fn outs(&self) -> TlbOuts {
        let last_now = self.left == 0 && !self.owe && !self.prep;
        TlbOuts {
            ready: self.ready,
            fill_ready: self.fq.is_none()
                && (self.mode == Mode::Run || (self.mode == Mode::Inv && !last_now)),
            inv_ready: self.mode == Mode::Run,
            inv_done: self.inv_done,
            ..self.res_d2
        }
    }

    /// Advances over the rising edge that ends the current clock, with the
    /// inputs `ins` of that clock.
    pub fn clock(&mut self, ins: &TlbIns) {
        let outs = self.outs();
        if ins.rst {
            self.reset();
            return;
        }
        if !outs.ready {
            self.refused_clocks += 1;
        }
        let fq_pending = self.fq.is_some() && !self.fq_issued;
        // A huge fill is not issued in the clock after a lookup's issue.
        let hf_wait = matches!(self.s1, Stage1::Lookup { .. })
            && self
                .fq
                .is_some_and(|f| f.size == SIZE_2M || f.size == SIZE_1G);

        // Stage 1: the operation issued in the previous clock.
        let mut res = TlbOuts::default();
        // The probe of two clocks ago advances its generation at the end of
        // this clock, after the operation in stage 1 (which read the
        // generation in its stage 0).
        let probe_now = self.probe_d.take();
        match self.s1 {
            Stage1::Lookup { mr, va } => {
                let l = self.model.lookup(mr, va, ins.lk_off);
                self.lookups += 1;
                res.res_valid = true;
                if let Some(t) = l.hit {
                    self.hits += 1;
                    if l.matches == 1 {
                        self.hits_by_size[t.size as usize] += 1;
                    }
                    res.res_hit = true;
                    res.res_ppn = t.ppn;
                    res.res_size = t.size;
                    res.res_writable = t.writable;
                    res.res_multi_hit = l.matches > 1;
                }
            }
            Stage1::Fill => {
                let f = self.fq.take().expect("a fill in stage 1");
                self.fq_issued = false;
                let dropped = self.mode == Mode::Inv && self.inv.unwrap().covers_fill(&f);
                if dropped || f.size > SIZE_1G {
                    self.fills_dropped += 1;
                } else {
                    self.model.fill(&f);
                    self.fills_applied += 1;
                }
            }
            Stage1::Sweep {
                set,
                last,
                probe,
                nc,
            } => {
                // One 4 KiB set per step (fills taken during the sweep see
                // the sets swept so far); the huge entries at the last step.
                // The reset sweep has no invalidation: the model was cleared.
                if let Some(inv) = self.inv {
                    if probe {
                        self.probe_d = Some(inv);
                    }
                    if !nc {
                        self.model.invalidate_set(&inv, set);
                    }
                    if last {
                        self.model.invalidate_huge(&inv);
                        self.invalidations += 1;
                    }
                }
            }
            _ => {}
        }
        let wrap = probe_now.is_some_and(|inv| self.model.advance_generation(inv.kind, inv.mr));
        self.res_d2 = self.res_d1;
        self.res_d1 = self.res;
        self.res = res;

        // Stage 0.
        let prep = std::mem::replace(&mut self.prep, false);
        self.s1 = Stage1::Idle;
        self.ready = false;
        self.inv_done = false;
        match self.mode {
            Mode::Clear => {
                self.s1 = Stage1::Sweep {
                    set: self.sweep_set,
                    last: self.left == 0,
                    probe: false,
                    nc: false,
                };
                self.sweep_set = (self.sweep_set + 1) % self.model.sets;
                if self.left == 0 {
                    self.mode = Mode::Run;
                    self.ready = true;
                } else {
                    self.left -= 1;
                }
            }
            Mode::Run => {
                let issue_lk = ins.lk_valid && outs.ready;
                // Not in the clock an invalidation is accepted: the fill's
                // coverage is decided a clock before its stage R.
                let issue_fill = fq_pending && !issue_lk && !hf_wait && !ins.inv_valid;
                if issue_lk {
                    self.s1 = Stage1::Lookup {
                        mr: ins.lk_mr,
                        va: ins.lk_va,
                    };
                } else if issue_fill {
                    self.s1 = Stage1::Fill;
                    self.fq_issued = true;
                }
                let fill_blocked = fq_pending && !issue_fill;
                let huge_issued = issue_fill
                    && self
                        .fq
                        .is_some_and(|f| f.size == SIZE_2M || f.size == SIZE_1G);
                self.ready = !ins.inv_valid && !fill_blocked && !huge_issued;
                if ins.inv_valid {
                    let inv = Inv {
                        kind: ins.inv_kind,
                        mr: ins.inv_mr,
                        va_lo: ins.inv_va_lo,
                        va_hi: ins.inv_va_hi,
                        off_lo: ins.inv_off_lo,
                        off_hi: ins.inv_off_hi,
                    };
                    (self.sweep_set, self.left) = self.sweep(&inv);
                    self.genm = inv.kind == INV_ALL || inv.kind == INV_BY_MR;
                    self.probe_pend = self.genm;
                    self.inv = Some(inv);
                    self.mode = Mode::Inv;
                    self.prep = true;
                    self.owe = ins.fill_valid && !outs.fill_ready;
                }
            }
            Mode::Inv => {
                let owe = self.owe;
                self.owe = owe && ins.fill_valid && !outs.fill_ready;
                if fq_pending {
                    if !hf_wait {
                        self.s1 = Stage1::Fill;
                        self.fq_issued = true;
                    }
                } else if !(prep || (self.left == 0 && owe)) {
                    self.s1 = Stage1::Sweep {
                        set: self.sweep_set,
                        last: self.left == 0,
                        probe: self.probe_pend,
                        nc: self.genm,
                    };
                    self.probe_pend = false;
                    self.sweep_set = (self.sweep_set + 1) % self.model.sets;
                    if self.left == 0 {
                        self.mode = Mode::Run;
                        self.ready = true;
                        self.inv_done = true;
                    } else {
                        self.left -= 1;
                    }
                }
            }
        }
        // A wrapping generation: every set is swept from the clock after
        // next (steps issued until then clear nothing and are not counted).
        if wrap {
            if self.inv.is_some_and(|i| i.kind == INV_BY_MR) {
                self.wraps_mr += 1;
            } else {
                self.wraps_all += 1;
            }
            self.left = self.model.sets - 1;
            self.sweep_set = 0;
            self.genm = false;
        }
        if ins.fill_valid && outs.fill_ready {
            self.fq = Some(Fill {
                mr: ins.fill_mr,
                va: ins.fill_va,
                off: ins.fill_off,
                ppn: ins.fill_ppn,
                size: ins.fill_size,
                writable: ins.fill_writable,
            });
            self.fq_issued = false;
        }
    }
}
