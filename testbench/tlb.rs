//! Tests of the translation TLB (`odp_mmu::translate::tlb::Tlb`).
//!
//! Every test runs the block next to the clock-level reference model
//! (`models/tlb_model.rs`) and compares every output in every clock; the
//! reference includes the tree pseudo-LRU, so hits and misses match
//! exactly. An invariant monitor checks `res_multi_hit` every clock.
//!
//! Backends: the rust-hdl model driven directly (directed tests), the
//! lockstep harness (rust-hdl model and Verilated generated Verilog compared
//! port by port every clock), and the Verilated model alone (long runs).
//! Two configurations: the default `Tlb<8, 8, 32>` and a small `Tlb<2, 3, 4>`.

use odp_mmu_workshop::harness;

use harness::seed;
use odp_mmu_workshop::models::tlb_model;

use std::collections::HashMap;
use std::time::Instant;

use harness::dut::{Dut, Locked, Rhdl};
use harness::lockstep::Lockstep;
use harness::verilated::Verilated;
use odp_mmu::spec::page_size::{SIZE_1G, SIZE_2M, SIZE_4K};
use odp_mmu::translate::tlb::{DefaultTlb, Tlb, INV_ALL, INV_BY_MR, INV_BY_MR_RANGE};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;
use tlb_model::*;

type SmallTlb = Tlb<2, 3, 4>;

// ---------------------------------------------------------------------------
// Backends
// ---------------------------------------------------------------------------

odp_mmu_workshop::port_map!(TlbPorts<const S: usize, const M: usize, const H: usize> for Tlb<S, M, H> {
    clock: clock,
    inputs: [
        rst, lk_valid, lk_mr, lk_va, lk_off, lk_off_q1, lk_off_q2, lk_off_q3, fill_valid, fill_mr, fill_va, fill_off, fill_ppn,
        fill_size, fill_writable,
    ],
    outputs: [
        ready, res_valid, res_hit, res_ppn, res_size, res_writable, res_multi_hit, fill_ready,
    ],
    bundles: [inv],
});

/// Outputs in the current clock (functions of registers only).
fn outs(d: &mut dyn Dut) -> TlbOuts {
    TlbOuts {
        ready: d.is("ready"),
        res_valid: d.is("res_valid"),
        res_hit: d.is("res_hit"),
        res_ppn: d.get("res_ppn") as u64,
        res_size: d.get("res_size") as u64,
        res_writable: d.is("res_writable"),
        res_multi_hit: d.is("res_multi_hit"),
        fill_ready: d.is("fill_ready"),
        inv_ready: d.is("inv_ready"),
        inv_done: d.is("inv_done"),
    }
}

/// Applies `i` for the current clock and runs its rising edge.
fn clock(d: &mut dyn Dut, i: &TlbIns) {
    d.set("rst", i.rst as u128);
    d.set("lk_valid", i.lk_valid as u128);
    d.set("lk_mr", i.lk_mr as u128);
    d.set("lk_va", i.lk_va as u128);
    d.set("lk_off", i.lk_off as u128);
    // The copies carry bits 63:21 only, as the MR table's do.
    let high = i.lk_off & !((1u64 << 21) - 1);
    d.set("lk_off_q1", high as u128);
    d.set("lk_off_q2", high as u128);
    d.set("lk_off_q3", high as u128);
    d.set("fill_valid", i.fill_valid as u128);
    d.set("fill_mr", i.fill_mr as u128);
    d.set("fill_va", i.fill_va as u128);
    d.set("fill_off", i.fill_off as u128);
    d.set("fill_ppn", i.fill_ppn as u128);
    d.set("fill_size", i.fill_size as u128);
    d.set("fill_writable", i.fill_writable as u128);
    d.set("inv_valid", i.inv_valid as u128);
    d.set("inv_kind", i.inv_kind as u128);
    d.set("inv_mr", i.inv_mr as u128);
    d.set("inv_va_lo", i.inv_va_lo as u128);
    d.set("inv_va_hi", i.inv_va_hi as u128);
    d.set("inv_off_lo", i.inv_off_lo as u128);
    d.set("inv_off_hi", i.inv_off_hi as u128);
    d.settle();
    d.tick();
}

/// The rust-hdl model alone, driven directly (no threads).
fn rhdl<const S: usize, const M: usize, const H: usize>() -> Rhdl<TlbPorts<S, M, H>> {
    Rhdl::new(Tlb::<S, M, H>::new())
}

/// The rust-hdl model and the Verilated Verilog, compared every clock.
fn lockstep<const S: usize, const M: usize, const H: usize>(
    name: &str,
) -> Locked<TlbPorts<S, M, H>> {
    Lockstep::of::<TlbPorts<S, M, H>>(Tlb::<S, M, H>::new(), name)
}

fn verilog<const S: usize, const M: usize, const H: usize>(name: &str) -> String {
    let mut uut = Tlb::<S, M, H>::new();
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, name)
}

/// The Verilated Verilog alone.
fn verilated<const S: usize, const M: usize, const H: usize>(name: &str) -> Verilated {
    Verilated::of_block(&mut Tlb::<S, M, H>::new(), name)
}

// ---------------------------------------------------------------------------
// The bench: block + reference + monitors
// ---------------------------------------------------------------------------

struct Bench<D: Dut> {
    dut: D,
    r: TlbRef,
    clock: u64,
    /// `lk_off` to drive in the next clock (the lookup issued in this one).
    off_next: u64,
    /// The `res_multi_hit` monitor (off only in the test that provokes it).
    check_multi: bool,
    /// The last clocks, printed when an output differs.
    history: std::collections::VecDeque<(u64, TlbIns, TlbOuts)>,
}

const HISTORY: usize = 200;

impl<D: Dut> Bench<D> {
    fn new(dut: D, set_bits: usize, huge: usize) -> Self {
        Self {
            dut,
            r: TlbRef::new(set_bits, huge),
            clock: 0,
            off_next: 0,
            check_multi: true,
            history: Default::default(),
        }
    }

    /// One clock: checks every output against the reference, then applies
    /// `ins` (its `lk_off` is supplied here; `off` is the off of the lookup
    /// in `ins`, if any) to both.
    fn step(&mut self, mut ins: TlbIns, off: u64) -> TlbOuts {
        let got = outs(&mut self.dut);
        let want = self.r.outs();
        if got != want {
            for (c, i, o) in &self.history {
                eprintln!("clock {c}: {o:x?}\n    {i:x?}");
            }
        }
        assert_eq!(
            got, want,
            "clock {}: outputs differ from the reference",
            self.clock
        );
        // The translator tests `inv_valid` alone in its issue decision.
        assert!(
            got.inv_ready || !got.ready,
            "clock {}: ready high without inv_ready",
            self.clock
        );
        if self.check_multi {
            assert!(
                !got.res_multi_hit,
                "clock {}: more than one entry hit",
                self.clock
            );
        }
        ins.lk_off = self.off_next;
        self.off_next = if ins.lk_valid && got.ready { off } else { 0 };
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back((self.clock, ins, got));
        clock(&mut self.dut, &ins);
        self.r.clock(&ins);
        self.clock += 1;
        got
    }

    fn idle(&mut self, clocks: usize) {
        for _ in 0..clocks {
            self.step(TlbIns::default(), 0);
        }
    }

    fn reset(&mut self) -> u64 {
        self.step(
            TlbIns {
                rst: true,
                ..Default::default()
            },
            0,
        );
        let start = self.clock;
        while !outs(&mut self.dut).ready {
            self.idle(1);
        }
        self.clock - start
    }

    /// Issues a lookup as soon as `ready` allows; returns the outputs of
    /// the clock its result is presented in (four clocks later).
    fn lookup(&mut self, mr: u64, va: u64, off: u64) -> TlbOuts {
        while !outs(&mut self.dut).ready {
            self.idle(1);
        }
        let ins = TlbIns {
            lk_valid: true,
            lk_mr: mr,
            lk_va: va,
            ..Default::default()
        };
        self.step(ins, off);
        self.idle(3);
        let o = self.step(TlbIns::default(), 0);
        assert!(o.res_valid, "no result four clocks after the lookup");
        o
    }

    fn hit(&mut self, mr: u64, va: u64, off: u64) -> Option<Translation> {
        let o = self.lookup(mr, va, off);
        o.res_hit.then_some(Translation {
            ppn: o.res_ppn,
            size: o.res_size,
            writable: o.res_writable,
        })
    }

    /// Offers a fill until it is taken, then idles until it is applied.
    fn fill(&mut self, f: Fill) {
        self.offer_fill(f);
        self.idle(3);
    }

    fn offer_fill(&mut self, f: Fill) {
        loop {
            let o = self.step(fill_ins(&f), 0);
            if o.fill_ready {
                return;
            }
        }
    }

    /// Offers an invalidation until taken and waits for `inv_done`;
    /// returns (clock accepted, clock of the done pulse).
    fn inv(&mut self, inv: Inv) -> (u64, u64) {
        let accepted = loop {
            let c = self.clock;
            if self.step(inv_ins(&inv), 0).inv_ready {
                break c;
            }
        };
        loop {
            let c = self.clock;
            if self.step(TlbIns::default(), 0).inv_done {
                return (accepted, c);
            }
        }
    }
}

fn fill_ins(f: &Fill) -> TlbIns {
    TlbIns {
        fill_valid: true,
        fill_mr: f.mr,
        fill_va: f.va,
        fill_off: f.off,
        fill_ppn: f.ppn,
        fill_size: f.size,
        fill_writable: f.writable,
        ..Default::default()
    }
}

fn inv_ins(i: &Inv) -> TlbIns {
    TlbIns {
        inv_valid: true,
        inv_kind: i.kind,
        inv_mr: i.mr,
        inv_va_lo: i.va_lo,
        inv_va_hi: i.va_hi,
        inv_off_lo: i.off_lo,
        inv_off_hi: i.off_hi,
        ..Default::default()
    }
}

const KIB4: u64 = 1 << 12;
const MIB2: u64 = 1 << 21;
const GIB1: u64 = 1 << 30;

/// An MR whose base VA is `base` (4 KiB aligned), as the MR table sees it.
#[derive(Clone, Copy)]
struct Mr {
    idx: u64,
    base: u64,
}

impl Mr {
    fn va(&self, off: u64) -> u64 {
        self.base + off
    }
    fn page(&self, off: u64, size: u64, ppn: u64, writable: bool) -> Fill {
        Fill {
            mr: self.idx,
            va: self.va(off),
            off,
            ppn,
            size,
            writable,
        }
    }
    fn hit<D: Dut>(&self, b: &mut Bench<D>, off: u64) -> Option<Translation> {
        b.hit(self.idx, self.va(off), off)
    }
    fn range(&self, kind: u64, off_lo: u64, off_hi: u64) -> Inv {
        Inv {
            kind,
            mr: self.idx,
            va_lo: self.va(off_lo),
            va_hi: self.va(off_hi),
            off_lo,
            off_hi,
        }
    }
}

const MR_A: Mr = Mr {
    idx: 1,
    base: 0x7f12_3456_7000,
};
const MR_B: Mr = Mr {
    idx: 2,
    base: 0x0000_5555_0000,
};

fn t4k(ppn: u64, writable: bool) -> Option<Translation> {
    Some(Translation {
        ppn,
        size: SIZE_4K,
        writable,
    })
}

fn small() -> Bench<Rhdl<TlbPorts<2, 3, 4>>> {
    let mut b = Bench::new(rhdl::<2, 3, 4>(), 2, 4);
    b.reset();
    b
}

fn default_cfg() -> Bench<Rhdl<TlbPorts<8, 8, 32>>> {
    let mut b = Bench::new(rhdl::<8, 8, 32>(), 8, 32);
    b.reset();
    b
}

// ---------------------------------------------------------------------------
// Directed tests
// ---------------------------------------------------------------------------

#[test]
fn tlb_misses_when_empty() {
    let mut b = small();
    for off in [0, KIB4, MIB2 + 5, GIB1 * 3 + 77] {
        assert_eq!(MR_A.hit(&mut b, off), None);
    }
}

#[test]
fn tlb_hits_after_4k_fill_with_frame_and_writable() {
    for writable in [false, true] {
        let mut b = small();
        b.fill(MR_A.page(0x5000, SIZE_4K, 0xABCDE, writable));
        assert_eq!(MR_A.hit(&mut b, 0x5000), t4k(0xABCDE, writable));
        assert_eq!(MR_A.hit(&mut b, 0x5FFF), t4k(0xABCDE, writable));
        assert_eq!(MR_A.hit(&mut b, 0x6000), None);
        assert_eq!(MR_A.hit(&mut b, 0x4FFF), None);
    }
}

#[test]
fn tlb_hits_anywhere_in_a_2m_page_keyed_by_off() {
    let mut b = small();
    // The MR base is not 2 MiB aligned: the page is aligned in off space.
    let off = 3 * MIB2 + 0x1_2345;
    b.fill(MR_A.page(off, SIZE_2M, 0x8_0000, true));
    let want = Some(Translation {
        ppn: 0x8_0000,
        size: SIZE_2M,
        writable: true,
    });
    for probe in [3 * MIB2, 3 * MIB2 + 0x1000, 4 * MIB2 - 1] {
        assert_eq!(MR_A.hit(&mut b, probe), want, "off {probe:#x}");
    }
    assert_eq!(MR_A.hit(&mut b, 3 * MIB2 - 1), None);
    assert_eq!(MR_A.hit(&mut b, 4 * MIB2), None);
    // The VA is not part of a huge key: only off is.
    assert_eq!(b.hit(MR_A.idx, 0xdead_0000, 3 * MIB2 + 0x7000), want);
}

#[test]
fn tlb_hits_anywhere_in_a_1g_page_keyed_by_off() {
    let mut b = small();
    b.fill(MR_A.page(2 * GIB1 + 0x1234_5000, SIZE_1G, 0x40_0000, false));
    let want = Some(Translation {
        ppn: 0x40_0000,
        size: SIZE_1G,
        writable: false,
    });
    for probe in [2 * GIB1, 2 * GIB1 + 0x3FFF_F000, 2 * GIB1 + 5 * MIB2 + 3] {
        assert_eq!(MR_A.hit(&mut b, probe), want, "off {probe:#x}");
    }
    assert_eq!(MR_A.hit(&mut b, GIB1 * 3), None);
    assert_eq!(MR_A.hit(&mut b, GIB1 * 2 - 1), None);
}

#[test]
fn tlb_isolates_mrs() {
    let mut b = small();
    let a = MR_A;
    let other = Mr {
        idx: 5,
        base: MR_A.base,
    };
    b.fill(a.page(0x3000, SIZE_4K, 0x111, true));
    b.fill(a.page(5 * MIB2, SIZE_2M, 0x222, true));
    b.fill(a.page(GIB1, SIZE_1G, 0x333, true));
    assert!(a.hit(&mut b, 0x3000).is_some());
    assert!(a.hit(&mut b, 5 * MIB2).is_some());
    assert!(a.hit(&mut b, GIB1).is_some());
    // Same VA and same off, other MR: all miss.
    assert_eq!(other.hit(&mut b, 0x3000), None);
    assert_eq!(other.hit(&mut b, 5 * MIB2), None);
    assert_eq!(other.hit(&mut b, GIB1), None);
}

#[test]
fn tlb_evicts_least_recently_used_of_a_full_set() {
    let mut b = small();
    let sets = 4u64;
    // Five pages of one set: offs 0, 4, 8, 12, 16 pages apart.
    let offs: Vec<u64> = (0..5).map(|k| k * sets * KIB4).collect();
    for (k, &off) in offs.iter().enumerate() {
        b.fill(MR_A.page(off, SIZE_4K, 0x100 + k as u64, true));
    }
    assert_eq!(
        MR_A.hit(&mut b, offs[0]),
        None,
        "the first filled is evicted"
    );
    for (k, &off) in offs.iter().enumerate().skip(1) {
        assert_eq!(MR_A.hit(&mut b, off), t4k(0x100 + k as u64, true));
    }
}

#[test]
fn tlb_hit_refreshes_entry_against_eviction() {
    let mut b = small();
    let offs: Vec<u64> = (0..5).map(|k| k * 4 * KIB4).collect();
    for (k, &off) in offs.iter().take(4).enumerate() {
        b.fill(MR_A.page(off, SIZE_4K, 0x100 + k as u64, true));
    }
    // Page 0 is least recently used; a hit makes it most recently used.
    assert!(MR_A.hit(&mut b, offs[0]).is_some());
    b.fill(MR_A.page(offs[4], SIZE_4K, 0x104, true));
    assert!(
        MR_A.hit(&mut b, offs[0]).is_some(),
        "refreshed page survives"
    );
    // Tree PLRU after touches 0,1,2,3,0: root points at ways 2/3, their
    // node at way 2 (touched before way 3): page 2 was replaced.
    assert_eq!(MR_A.hit(&mut b, offs[2]), None);
    for k in [1, 3, 4] {
        assert!(MR_A.hit(&mut b, offs[k]).is_some(), "page {k}");
    }
}

#[test]
fn tlb_huge_entries_replace_least_recently_used() {
    let mut b = small();
    for k in 0..5u64 {
        b.fill(MR_A.page(k * MIB2, SIZE_2M, 0x1000 + k, true));
    }
    assert_eq!(MR_A.hit(&mut b, 0), None, "first of five evicted from four");
    for k in 1..5u64 {
        assert!(MR_A.hit(&mut b, k * MIB2 + 0x10).is_some());
    }
}

#[test]
fn tlb_refill_of_present_page_updates_it_without_duplicate() {
    let mut b = small();
    let offs: Vec<u64> = (0..4).map(|k| k * 4 * KIB4).collect();
    b.fill(MR_A.page(offs[0], SIZE_4K, 0x1, false));
    b.fill(MR_A.page(offs[0], SIZE_4K, 0x2, true));
    assert_eq!(MR_A.hit(&mut b, offs[0]), t4k(0x2, true));
    // A duplicate would occupy a way: three more pages would then evict.
    for &off in &offs[1..] {
        b.fill(MR_A.page(off, SIZE_4K, 0x9, true));
    }
    for &off in &offs {
        assert!(MR_A.hit(&mut b, off).is_some());
    }
    assert_eq!(b.r.model.occupancy(), (4, 0));
    // Huge: same, with an off elsewhere in the page.
    b.fill(MR_A.page(MIB2, SIZE_2M, 0x10, false));
    b.fill(MR_A.page(MIB2 + 0x5000, SIZE_2M, 0x20, true));
    for k in 0..3u64 {
        b.fill(MR_A.page((2 + k) * MIB2, SIZE_2M, 0x30, true));
    }
    assert_eq!(
        MR_A.hit(&mut b, MIB2 + 1),
        Some(Translation {
            ppn: 0x20,
            size: SIZE_2M,
            writable: true
        })
    );
    assert_eq!(b.r.model.occupancy(), (4, 4));
}

/// Fills 4 KiB, 2 MiB and 1 GiB pages into MR A and MR B.
fn populate<D: Dut>(b: &mut Bench<D>) {
    for mr in [MR_A, MR_B] {
        for k in 0..3u64 {
            b.fill(mr.page(k * KIB4, SIZE_4K, 0x100 + k, true));
        }
        b.fill(mr.page(8 * MIB2, SIZE_2M, 0x200, true));
        b.fill(mr.page(2 * GIB1, SIZE_1G, 0x300, true));
    }
}

fn probes() -> [u64; 5] {
    [0, KIB4, 2 * KIB4, 8 * MIB2 + 9, 2 * GIB1 + 9]
}

#[test]
fn tlb_flush_all_removes_everything() {
    let mut b = small();
    populate(&mut b);
    b.inv(Inv {
        kind: INV_ALL,
        mr: 0,
        va_lo: 0,
        va_hi: 0,
        off_lo: 0,
        off_hi: 0,
    });
    for mr in [MR_A, MR_B] {
        for off in probes() {
            assert_eq!(mr.hit(&mut b, off), None);
        }
    }
}

#[test]
fn tlb_flush_by_mr_keeps_other_mrs() {
    let mut b = small();
    populate(&mut b);
    b.inv(MR_A.range(INV_BY_MR, 0, 0));
    for off in probes() {
        assert_eq!(MR_A.hit(&mut b, off), None, "MR A off {off:#x}");
        assert!(MR_B.hit(&mut b, off).is_some(), "MR B off {off:#x}");
    }
}

#[test]
fn tlb_flush_by_range_removes_exactly_the_overlapping_pages() {
    fn check<D: Dut>(b: &mut Bench<D>) {
        // 4 KiB pages 0..8 at offs k*4K; 2 MiB pages at 2M..8M; a 1 GiB
        // page at 1G; MR B the same.
        for mr in [MR_A, MR_B] {
            for k in 0..8u64 {
                b.fill(mr.page(k * KIB4, SIZE_4K, 0x100 + k, true));
            }
        }
        // [page 2 + 0x800, page 5): pages 2, 3, 4 overlap; 1 and 5 do not.
        b.inv(MR_A.range(INV_BY_MR_RANGE, 2 * KIB4 + 0x800, 5 * KIB4));
        for k in 0..8u64 {
            let removed = (2..5).contains(&k);
            assert_eq!(MR_A.hit(b, k * KIB4).is_none(), removed, "MR A page {k}");
            assert!(MR_B.hit(b, k * KIB4).is_some(), "MR B page {k}");
        }
        // One byte at the end of page 6 removes exactly page 6.
        b.inv(MR_A.range(INV_BY_MR_RANGE, 7 * KIB4 - 1, 7 * KIB4));
        assert_eq!(MR_A.hit(b, 6 * KIB4), None);
        assert!(MR_A.hit(b, 7 * KIB4).is_some());
        assert!(MR_A.hit(b, 5 * KIB4).is_some());
    }
    let mut b = small();
    check(&mut b);
    let mut b = default_cfg();
    check(&mut b);
}

#[test]
fn tlb_flush_by_range_removes_huge_pages_overlapping_its_edges() {
    let mut b = small();
    // 2 MiB pages k = 1, 2, 3 cover [k*2M, (k+1)*2M); a 1 GiB page at 1G.
    for k in 1..4u64 {
        b.fill(MR_A.page(k * MIB2, SIZE_2M, 0x10 + k, true));
    }
    b.fill(MR_A.page(GIB1, SIZE_1G, 0x40, true));
    // [2*2M - 1, 3*2M): the last byte of page 1, all of page 2; page 3
    // starts at hi.
    b.inv(MR_A.range(INV_BY_MR_RANGE, 2 * MIB2 - 1, 3 * MIB2));
    assert_eq!(MR_A.hit(&mut b, MIB2), None, "overlaps the low edge");
    assert_eq!(MR_A.hit(&mut b, 2 * MIB2), None, "inside");
    assert!(MR_A.hit(&mut b, 3 * MIB2).is_some(), "starts at hi: kept");
    assert!(MR_A.hit(&mut b, GIB1).is_some(), "elsewhere: kept");
    // A 4 KiB range inside the 1 GiB page removes it; another MR's range
    // removes nothing of MR A.
    b.inv(MR_B.range(INV_BY_MR_RANGE, 0, 4 * GIB1));
    assert!(MR_A.hit(&mut b, GIB1).is_some());
    b.inv(MR_A.range(INV_BY_MR_RANGE, GIB1 + 77 * MIB2, GIB1 + 77 * MIB2 + KIB4));
    assert_eq!(MR_A.hit(&mut b, GIB1), None);
    assert!(MR_A.hit(&mut b, 3 * MIB2).is_some());
}

#[test]
fn tlb_lookup_issued_at_inv_done_misses_and_one_in_flight_still_hits() {
    let mut b = small();
    b.fill(MR_A.page(0x7000, SIZE_4K, 0x77, true));
    let inv = MR_A.range(INV_BY_MR_RANGE, 0x7000, 0x8000);
    // A lookup issued in the clock the invalidation is accepted was issued
    // before it: it may still hit (and does).
    let mut ins = inv_ins(&inv);
    ins.lk_valid = true;
    ins.lk_mr = MR_A.idx;
    ins.lk_va = MR_A.va(0x7000);
    let o = b.step(ins, 0x7000);
    assert!(o.ready && o.inv_ready, "both taken in this clock");
    let o = b.step(TlbIns::default(), 0);
    assert!(!o.ready, "lookups refused from the next clock");
    let o = b.step(TlbIns::default(), 0);
    assert!(!o.ready && !o.inv_done, "the prep clock, then the step");
    let o = b.step(TlbIns::default(), 0);
    // One page: one sweep step, done in the clock ready returns.
    assert!(o.inv_done && o.ready, "done three clocks after acceptance");
    // Issued in the done clock itself: misses.
    let ins = TlbIns {
        lk_valid: true,
        lk_mr: MR_A.idx,
        lk_va: MR_A.va(0x7000),
        ..Default::default()
    };
    // The lookup issued with the invalidation shows its result now (four
    // clocks after its issue).
    let o = b.step(ins, 0x7000);
    assert!(o.res_valid && o.res_hit, "the in-flight lookup hit");
    b.idle(3);
    let o = b.step(TlbIns::default(), 0);
    assert!(o.res_valid && !o.res_hit);
}

#[test]
fn tlb_reset_clears_every_entry_and_sweeps_every_set() {
    let mut b = default_cfg();
    populate(&mut b);
    let refused = b.reset();
    assert_eq!(refused, 256, "one clock per set");
    for mr in [MR_A, MR_B] {
        for off in probes() {
            assert_eq!(mr.hit(&mut b, off), None);
        }
    }
}

#[test]
fn tlb_fill_racing_an_invalidation_does_not_survive_it() {
    let mut b = default_cfg();
    // 64 pages: a 64-clock sweep, long enough to offer fills during it.
    let inv = MR_A.range(INV_BY_MR_RANGE, 0, 64 * KIB4);
    // Accepted in the same clock as the invalidation.
    let f = MR_A.page(0x3000, SIZE_4K, 0x33, true);
    let mut ins = inv_ins(&inv);
    let fi = fill_ins(&f);
    ins.fill_valid = true;
    ins.fill_mr = fi.fill_mr;
    ins.fill_va = fi.fill_va;
    ins.fill_off = fi.fill_off;
    ins.fill_ppn = fi.fill_ppn;
    ins.fill_size = fi.fill_size;
    ins.fill_writable = fi.fill_writable;
    let o = b.step(ins, 0);
    assert!(o.fill_ready && o.inv_ready);
    // Fills accepted while the sweep runs, after it has passed their sets:
    // covered ones are dropped, not installed behind the sweep.
    b.idle(20);
    let covered = MR_A.page(0x9000, SIZE_4K, 0x99, true);
    let outside = MR_A.page(128 * KIB4, SIZE_4K, 0xAA, true);
    let huge_covered = MR_A.page(0, SIZE_2M, 0xBB, true);
    let other_mr = MR_B.page(0x9000, SIZE_4K, 0xCC, true);
    for f in [covered, outside, huge_covered, other_mr] {
        b.offer_fill(f);
    }
    let mut done = false;
    while !outs(&mut b.dut).ready {
        done |= b.step(TlbIns::default(), 0).inv_done;
    }
    done |= b.step(TlbIns::default(), 0).inv_done;
    assert!(done, "every fill was accepted before inv_done");
    assert_eq!(MR_A.hit(&mut b, 0x3000), None);
    assert_eq!(MR_A.hit(&mut b, 0x9000), None);
    assert_eq!(MR_A.hit(&mut b, KIB4 + 5), None);
    assert_eq!(MR_A.hit(&mut b, 128 * KIB4), t4k(0xAA, true));
    assert_eq!(MR_B.hit(&mut b, 0x9000), t4k(0xCC, true));
    assert_eq!(b.r.fills_dropped, 3);
}

#[test]
fn tlb_fill_just_before_a_one_step_invalidation_is_swept() {
    // A fill accepted 0..6 clocks before a one-step invalidation that
    // covers it: issued in the clock before the acceptance, it is written
    // as the sweep's only step is issued and must still be removed.
    for delay in 0..6 {
        for size in [SIZE_4K, SIZE_2M, SIZE_1G] {
            let mut b = default_cfg();
            b.offer_fill(MR_A.page(0, size, 0x77, true));
            b.idle(delay);
            b.inv(MR_A.range(INV_BY_MR_RANGE, 0, KIB4));
            assert_eq!(MR_A.hit(&mut b, 0), None, "delay {delay}, size {size}");
        }
    }
}

#[test]
fn tlb_fill_just_before_an_invalidation_is_checked_against_its_exact_edges() {
    // A fill of the page at `size` (one page of its size up), accepted
    // 0..6 clocks before a range invalidation: one of the delays issues it
    // in the clock the invalidation is accepted, whose coverage check
    // compares against the invalidation's inputs rather than its
    // registers. A range ending one byte into the page covers it (the
    // high bound is exclusive and not page aligned), and so does one
    // starting at its last byte: the fill is dropped. A range ending at
    // the page's base does not: the fill is installed.
    // The fill's set (4 KiB) or the huge entries are full beforehand, so
    // a covered fill written anyway (and swept) would have evicted one of
    // them, which the lookups of the other pages show.
    for delay in 0..6 {
        for size in [SIZE_4K, SIZE_2M, SIZE_1G] {
            let bytes = [KIB4, MIB2, GIB1][size as usize];
            // Pages in the fill's set: 1 MiB apart (256 sets of 4 KiB);
            // huge pages: 32 entries.
            let (stride, n) = if size == SIZE_4K {
                (1 << 20, 4)
            } else {
                (bytes, 32)
            };
            for (lo, hi, covered) in [
                (bytes - 1, bytes + 1, true),
                (bytes - 1, bytes, false),
                (2 * bytes - 1, 2 * bytes, true),
            ] {
                let mut b = default_cfg();
                let others: Vec<u64> = (1..=n).map(|j| bytes + j * stride).collect();
                for (j, &off) in others.iter().enumerate() {
                    b.fill(MR_A.page(off, size, 0x100 + j as u64, true));
                }
                b.offer_fill(MR_A.page(bytes, size, 0x77, true));
                b.idle(delay);
                b.inv(MR_A.range(INV_BY_MR_RANGE, lo, hi));
                let what = format!("delay {delay}, size {size}, [{lo:#x}, {hi:#x})");
                let kept = MR_A.hit(&mut b, bytes).is_some();
                assert_eq!(kept, !covered, "{what}");
                // A fill issued before the acceptance is installed, then
                // swept; one issued with it or later is dropped when
                // covered. Which pages are left is the reference model's
                // verdict, checked in every clock.
                let evicted = others
                    .iter()
                    .filter(|&&off| MR_A.hit(&mut b, off).is_none())
                    .count();
                assert!(evicted <= 1, "{what}: {evicted} pages evicted by one fill");
            }
        }
    }
}

#[test]
fn tlb_fill_stuck_in_handshake_is_taken_before_inv_done() {
    let mut b = small();
    let first = MR_A.page(0x40_0000, SIZE_4K, 0x1, true);
    let stuck = MR_A.page(0x1000, SIZE_4K, 0x2, true);
    // The first fill occupies the holding register; the second is offered
    // in the next clock (not taken) together with a one-page invalidation
    // covering it.
    b.step(fill_ins(&first), 0);
    let mut ins = fill_ins(&stuck);
    let inv = MR_A.range(INV_BY_MR_RANGE, 0x1000, 0x2000);
    let ii = inv_ins(&inv);
    ins.inv_valid = true;
    ins.inv_kind = ii.inv_kind;
    ins.inv_mr = ii.inv_mr;
    ins.inv_va_lo = ii.inv_va_lo;
    ins.inv_va_hi = ii.inv_va_hi;
    ins.inv_off_lo = ii.inv_off_lo;
    ins.inv_off_hi = ii.inv_off_hi;
    let o = b.step(ins, 0);
    assert!(!o.fill_ready && o.inv_ready);
    loop {
        let o = b.step(fill_ins(&stuck), 0);
        assert!(!o.inv_done, "done before the stuck fill was taken");
        if o.fill_ready {
            break;
        }
    }
    while !b.step(TlbIns::default(), 0).inv_done {}
    assert_eq!(MR_A.hit(&mut b, 0x1000), None, "the stale fill was dropped");
    assert!(MR_A.hit(&mut b, 0x40_0000).is_some());
}

#[test]
fn tlb_lookup_result_arrives_four_clocks_later_one_per_clock() {
    let mut b = small();
    for k in 0..4u64 {
        b.fill(MR_A.page(k * KIB4, SIZE_4K, 0x50 + k, k % 2 == 0));
    }
    // Eight back-to-back lookups: results in clocks 4..12, in order.
    let mut got = Vec::new();
    for c in 0..12u64 {
        let (ins, off) = if c < 8 {
            let off = (c % 5) * KIB4;
            (
                TlbIns {
                    lk_valid: true,
                    lk_mr: MR_A.idx,
                    lk_va: MR_A.va(off),
                    ..Default::default()
                },
                off,
            )
        } else {
            (TlbIns::default(), 0)
        };
        let o = b.step(ins, off);
        assert!(o.ready);
        assert_eq!(o.res_valid, (4..12).contains(&c), "clock {c}");
        if o.res_valid {
            got.push(o.res_hit.then_some(o.res_ppn));
        }
    }
    let want: Vec<Option<u64>> = (0..8u64)
        .map(|k| (k % 5 < 4).then_some(0x50 + k % 5))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn tlb_refuses_lookups_for_one_clock_per_fill_three_per_huge_fill() {
    let mut b = small();
    // Under a lookup every clock, each 4 KiB fill costs one refused clock
    // and each huge fill three (the clock after the last lookup, in which
    // a huge fill is not issued; the clock it takes; and the next).
    // (The huge fills are MR_B's, so that no lookup of MR_A hits both a
    // huge and a 4 KiB entry.)
    for (mr, size, unit, cost) in [(&MR_A, SIZE_4K, KIB4, 1), (&MR_B, SIZE_2M, MIB2, 3)] {
        let mut fills = 0;
        let mut refused = 0;
        let f = |k: u64| mr.page((k % 5) * unit, size, k, true);
        let mut pending = Some(f(0));
        for c in 0..200u64 {
            let off = (c % 7) * KIB4;
            let mut ins = TlbIns {
                lk_valid: true,
                lk_mr: MR_A.idx,
                lk_va: MR_A.va(off),
                ..Default::default()
            };
            if let Some(p) = pending {
                let fi = fill_ins(&p);
                ins.fill_valid = true;
                ins.fill_mr = fi.fill_mr;
                ins.fill_va = fi.fill_va;
                ins.fill_off = fi.fill_off;
                ins.fill_ppn = fi.fill_ppn;
                ins.fill_size = fi.fill_size;
            }
            let o = b.step(ins, off);
            if !o.ready {
                refused += 1;
            }
            if o.fill_ready && pending.is_some() {
                fills += 1;
                pending = (fills < 20).then(|| f(fills));
            }
        }
        assert_eq!(fills, 20, "size code {size}");
        assert_eq!(refused, 20 * cost, "size code {size}");
        b.idle(4);
    }
    // With idle clocks between lookups, a 4 KiB fill takes one of them:
    // none refused. A huge fill refuses the clock after its own.
    type FillOf = fn(u64) -> Fill;
    let cases: [(FillOf, u32); 2] = [
        (|k| MR_A.page((100 + k) * KIB4, SIZE_4K, 100 + k, true), 0),
        (|k| MR_B.page((k % 5) * MIB2, SIZE_2M, 200 + k, true), 20),
    ];
    for (fill, want) in cases {
        let mut refused = 0;
        for k in 0..20u64 {
            b.offer_fill(fill(k));
            for c in 0..6u64 {
                let o = if c % 2 == 0 {
                    b.step(TlbIns::default(), 0)
                } else {
                    b.step(
                        TlbIns {
                            lk_valid: true,
                            lk_mr: MR_A.idx,
                            lk_va: MR_A.va(0),
                            ..Default::default()
                        },
                        0,
                    )
                };
                refused += !o.ready as u32;
            }
        }
        assert_eq!(refused, want);
    }
}

#[test]
fn tlb_invalidation_refuses_lookups_for_its_sweep_steps_only() {
    let mut b = default_cfg();
    // One page: one step; 3 pages: 3 steps; a wide range: 256; BY_MR and
    // ALL advance a generation: 4, whatever the TLB holds.
    b.fill(MR_A.page(0x1000, SIZE_4K, 0x1, true));
    b.fill(MR_B.page(0x1000, SIZE_4K, 0x2, true));
    for (inv, steps) in [
        (MR_A.range(INV_BY_MR_RANGE, 0x1000, 0x2000), 1),
        (MR_A.range(INV_BY_MR_RANGE, 0x1FFF, 0x3001), 3),
        (MR_A.range(INV_BY_MR_RANGE, 0, GIB1), 256),
        (MR_A.range(INV_BY_MR, 0, 0), 4),
        (MR_A.range(INV_ALL, 0, 0), 4),
        (MR_A.range(INV_BY_MR_RANGE, 0x5000, 0x5000), 1),
    ] {
        let (accepted, done) = b.inv(inv);
        // The prep clock, then one clock per step.
        assert_eq!(done - accepted, 2 + steps, "{inv:?}");
    }
}

/// BY_MR and ALL advance a generation instead of sweeping; an entry of an
/// old generation is dead, and when the generation wraps the block sweeps
/// every set, so an entry left from the generation's previous turn never
/// hits again.
#[test]
fn tlb_generation_invalidation_is_constant_time_and_wraps_with_a_sweep() {
    let mut b = default_cfg();
    let x = 0x7000;
    // A's page and B's page, filled in generation 0 of each.
    b.fill(MR_A.page(x, SIZE_4K, 0x11, true));
    b.fill(MR_B.page(x, SIZE_4K, 0x22, true));
    b.fill(MR_A.page(4 * MIB2, SIZE_2M, 0x400, true));
    assert!(MR_A.hit(&mut b, x).is_some());
    let mut steps = Vec::new();
    for k in 0..256 {
        let (accepted, done) = b.inv(MR_A.range(INV_BY_MR, 0, 0));
        steps.push(done - accepted - 2);
        // Gone after the first; B's page untouched.
        assert_eq!(MR_A.hit(&mut b, x), None, "BY_MR {k}");
        assert_eq!(MR_A.hit(&mut b, 4 * MIB2), None, "BY_MR {k}");
        assert_eq!(MR_B.hit(&mut b, x), t4k(0x22, true), "BY_MR {k}");
    }
    // 255 advances of four steps, then the wrap: the probe, two steps that
    // clear nothing, and a sweep of all 256 sets.
    assert!(steps[..255].iter().all(|&s| s == 4), "{steps:?}");
    assert_eq!(steps[255], 3 + 256);
    // A fill in the new turn of generation 0 hits again.
    b.fill(MR_A.page(x, SIZE_4K, 0x33, false));
    assert_eq!(MR_A.hit(&mut b, x), t4k(0x33, false));
    // ALL: the global generation (4 bits) wraps every 16th.
    let mut steps = Vec::new();
    for k in 0..16 {
        let (accepted, done) = b.inv(MR_A.range(INV_ALL, 0, 0));
        steps.push(done - accepted - 2);
        assert_eq!(MR_A.hit(&mut b, x), None, "ALL {k}");
        assert_eq!(MR_B.hit(&mut b, x), None, "ALL {k}");
        b.fill(MR_B.page(x, SIZE_4K, 0x44 + k, true));
        assert_eq!(MR_B.hit(&mut b, x), t4k(0x44 + k, true), "ALL {k}");
    }
    assert!(steps[..15].iter().all(|&s| s == 4), "{steps:?}");
    assert_eq!(steps[15], 3 + 256);
}

#[test]
fn tlb_ignores_reserved_fill_size_and_inv_kind() {
    let mut b = small();
    b.fill(MR_A.page(0x1000, SIZE_4K, 0x1, true));
    b.fill(MR_A.page(0x2000, 3, 0x2, true));
    assert_eq!(MR_A.hit(&mut b, 0x2000), None);
    b.inv(MR_A.range(3, 0, GIB1));
    assert!(MR_A.hit(&mut b, 0x1000).is_some());
    assert_eq!(b.r.model.occupancy(), (1, 0));
}

/// The monitor catches what it is there for: entries of two sizes that
/// overlap (a page table changed without an invalidation) both match.
#[test]
fn tlb_flags_multi_hit_when_sizes_overlap() {
    let mut b = small();
    b.check_multi = false;
    b.fill(MR_A.page(0x3000, SIZE_4K, 0x1, true));
    b.fill(MR_A.page(0, SIZE_2M, 0x2, true));
    let o = b.lookup(MR_A.idx, MR_A.va(0x3000), 0x3000);
    assert!(o.res_hit && o.res_multi_hit);
    let o = b.lookup(MR_A.idx, MR_A.va(0x4000), 0x4000);
    assert!(o.res_hit && !o.res_multi_hit);
}

// ---------------------------------------------------------------------------
// Random stimulus against the reference
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Region {
    Gig,
    Split,
}

/// A consistent random workload: per MR a base VA and a page layout of its
/// first 4 GiB of off space (each 1 GiB region one 1 GiB page or split into
/// 2 MiB slots, each slot one 2 MiB page or 4 KiB pages); per page a frame
/// that changes now and then (refills then update the entry). Layout and
/// base changes are always announced by an invalidation that covers them,
/// as a driver does, so entries of different sizes never overlap.
struct Stim {
    rng: StdRng,
    mr_bits: usize,
    mrs: Vec<Mr>,
    regions: HashMap<(u64, u64), Region>,
    slots: HashMap<(u64, u64, u64), bool>,
    frames: HashMap<(u64, u64, u64), (u64, bool)>,
    fill: Option<Fill>,
    inv: Option<(Inv, Option<Change>)>,
    /// `INV_BY_MR`s of the first MR still to be accepted before its 8-bit
    /// generation wraps, and `INV_ALL`s before the 4-bit global one does:
    /// they are issued before any random invalidation, so that every run
    /// sees both wrap whatever its seed. The MR generations live in block
    /// RAM and survive a reset; the global one does not, so a reset re-arms
    /// only the ALLs.
    mr_wrap_left: u32,
    all_wrap_left: u32,
    lk_rate: f64,
    fill_rate: f64,
    inv_rate: f64,
    hot_slots: u64,
    hot_pages: u64,
    rst_rate: f64,
}

#[derive(Clone, Copy)]
enum Change {
    Base(usize, u64),
    Region(u64, u64),
    Slot(u64, u64, u64),
}

impl Stim {
    fn new(seed: u64, mr_bits: usize) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let n = 4.min(1 << mr_bits) as u64;
        let mrs = (0..n)
            .map(|i| Mr {
                idx: (i * 3 + 1) % (1 << mr_bits),
                base: rng.gen_range(0..1u64 << 36) << 12,
            })
            .collect();
        let mut s = Self {
            rng,
            mr_bits,
            mrs,
            regions: HashMap::new(),
            slots: HashMap::new(),
            frames: HashMap::new(),
            fill: None,
            inv: None,
            mr_wrap_left: 256,
            all_wrap_left: 16,
            lk_rate: 0.8,
            fill_rate: 0.05,
            inv_rate: 0.002,
            hot_slots: 4,
            hot_pages: 8,
            rst_rate: 1.0 / 20_000.0,
        };
        s.new_phase();
        s
    }

    fn new_phase(&mut self) {
        let r = &mut self.rng;
        self.lk_rate = [0.0, 0.3, 0.7, 1.0, 1.0][r.gen_range(0..5)];
        self.fill_rate = [0.01, 0.05, 0.2, 0.6][r.gen_range(0..4)];
        self.inv_rate = [0.0, 0.001, 0.005][r.gen_range(0..3)];
        self.hot_slots = [1, 2, 8][r.gen_range(0..3)];
        self.hot_pages = [2, 8, 32][r.gen_range(0..3)];
    }

    fn region(&mut self, mr: u64, r: u64) -> Region {
        let pick = if self.rng.gen_bool(0.3) {
            Region::Gig
        } else {
            Region::Split
        };
        *self.regions.entry((mr, r)).or_insert(pick)
    }

    fn slot_is_2m(&mut self, mr: u64, r: u64, s: u64) -> bool {
        let pick = self.rng.gen_bool(0.3);
        *self.slots.entry((mr, r, s)).or_insert(pick)
    }

    /// A random off in MR `m`'s hot working set (sometimes cold).
    fn off(&mut self) -> u64 {
        let r = self.rng.gen_range(0..4u64);
        let s = if self.rng.gen_bool(0.9) {
            self.rng.gen_range(0..self.hot_slots)
        } else {
            self.rng.gen_range(0..512)
        };
        let p = if self.rng.gen_bool(0.9) {
            self.rng.gen_range(0..self.hot_pages)
        } else {
            self.rng.gen_range(0..512)
        };
        (r << 30) | (s << 21) | (p << 12) | self.rng.gen_range(0..4096)
    }

    /// The leaf the page table maps `off` of MR `m` to, as a fill.
    fn leaf(&mut self, m: usize, off: u64) -> Fill {
        let mr = self.mrs[m];
        let (r, s) = (off >> 30, (off >> 21) & 511);
        let size = match self.region(mr.idx, r) {
            Region::Gig => SIZE_1G,
            Region::Split if self.slot_is_2m(mr.idx, r, s) => SIZE_2M,
            Region::Split => SIZE_4K,
        };
        let shift = [12, 21, 30][size as usize];
        let key = (mr.idx, size, off >> shift);
        let new = (self.rng.gen_range(0..1u64 << 40), self.rng.gen_bool(0.5));
        let (ppn, writable) = *self.frames.entry(key).or_insert(new);
        mr.page(off, size, ppn, writable)
    }

    /// A random invalidation, with the layout change it announces.
    fn invalidation(&mut self) -> (Inv, Option<Change>) {
        let m = self.rng.gen_range(0..self.mrs.len());
        let mr = self.mrs[m];
        match self.rng.gen_range(0..100) {
            0..=4 => (mr.range(INV_ALL, 0, 0), None),
            5..=14 => {
                let base = self.rng.gen_range(0..1u64 << 36) << 12;
                (mr.range(INV_BY_MR, 0, 0), Some(Change::Base(m, base)))
            }
            15..=24 => {
                let r = self.rng.gen_range(0..4u64);
                let inv = mr.range(INV_BY_MR_RANGE, r << 30, (r + 1) << 30);
                (inv, Some(Change::Region(mr.idx, r)))
            }
            25..=39 => {
                let (r, s) = (
                    self.rng.gen_range(0..4u64),
                    self.rng.gen_range(0..self.hot_slots),
                );
                let lo = (r << 30) | (s << 21);
                let inv = mr.range(INV_BY_MR_RANGE, lo, lo + MIB2);
                (inv, Some(Change::Slot(mr.idx, r, s)))
            }
            40..=44 => {
                // Empty or reversed range: removes nothing.
                let lo = self.off();
                (
                    mr.range(INV_BY_MR_RANGE, lo, lo - self.rng.gen_range(0..3) * KIB4),
                    None,
                )
            }
            45..=47 => (mr.range(3, 0, GIB1), None),
            _ => {
                // A few pages, unaligned edges, somewhere in the working set.
                let lo = self.off();
                let len =
                    [1, 100, KIB4, 3 * KIB4 + 5, 40 * KIB4, MIB2 + 1][self.rng.gen_range(0..6)];
                (mr.range(INV_BY_MR_RANGE, lo, lo.saturating_add(len)), None)
            }
        }
    }

    fn apply_change(&mut self, c: Change) {
        match c {
            Change::Base(m, base) => {
                let idx = self.mrs[m].idx;
                self.mrs[m].base = base;
                // A re-registered MR gets fresh frames too.
                self.frames.retain(|k, _| k.0 != idx);
            }
            Change::Region(mr, r) => {
                let flip = match self.regions.get(&(mr, r)) {
                    Some(Region::Gig) => Region::Split,
                    _ => Region::Gig,
                };
                self.regions.insert((mr, r), flip);
                self.slots.retain(|k, _| !(k.0 == mr && k.1 == r));
            }
            Change::Slot(mr, r, s) => {
                let now = self.slots.get(&(mr, r, s)).copied().unwrap_or(false);
                self.slots.insert((mr, r, s), !now);
            }
        }
    }

    /// Inputs for this clock, given the block's outputs (which do not
    /// depend on this clock's inputs), and the lookup's off.
    fn next(&mut self, o: &TlbOuts, clock: u64) -> (TlbIns, u64) {
        if clock.is_multiple_of(500) {
            self.new_phase();
        }
        let mut ins = TlbIns::default();
        if self.rng.gen_bool(self.rst_rate) {
            ins.rst = true;
            self.fill = None;
            self.inv = None;
            self.all_wrap_left = 16;
            return (ins, 0);
        }
        let mut off = 0;
        if o.ready && self.rng.gen_bool(self.lk_rate) {
            if self.rng.gen_bool(0.02) {
                // MR 0 holds nothing in this workload.
                ins.lk_mr = 0;
                ins.lk_va = self.rng.gen();
                off = self.rng.gen();
            } else {
                let m = self.rng.gen_range(0..self.mrs.len());
                off = self.off();
                ins.lk_mr = self.mrs[m].idx;
                ins.lk_va = self.mrs[m].va(off);
            }
            ins.lk_valid = true;
        } else if self.rng.gen_bool(0.5) {
            // Lookup fields are don't-care without lk_valid.
            ins.lk_mr = self.rng.gen_range(0..1 << self.mr_bits);
            ins.lk_va = self.rng.gen();
        }
        if self.fill.is_none() && self.rng.gen_bool(self.fill_rate) {
            let m = self.rng.gen_range(0..self.mrs.len());
            let off = self.off();
            let mut f = self.leaf(m, off);
            if self.rng.gen_bool(0.02) {
                // The page table changed: the refill must update the entry.
                f.ppn = self.rng.gen_range(0..1u64 << 40);
                let shift = [12, 21, 30][f.size as usize];
                self.frames
                    .insert((f.mr, f.size, off >> shift), (f.ppn, f.writable));
            }
            if self.rng.gen_bool(0.005) {
                f.size = 3;
            }
            self.fill = Some(f);
        }
        if let Some(f) = self.fill {
            let fi = fill_ins(&f);
            ins.fill_valid = true;
            ins.fill_mr = fi.fill_mr;
            ins.fill_va = fi.fill_va;
            ins.fill_off = fi.fill_off;
            ins.fill_ppn = fi.fill_ppn;
            ins.fill_size = fi.fill_size;
            ins.fill_writable = fi.fill_writable;
            if o.fill_ready {
                self.fill = None;
            }
        }
        if self.inv.is_none() {
            if self.all_wrap_left > 0 {
                self.inv = Some((self.mrs[0].range(INV_ALL, 0, 0), None));
            } else if self.mr_wrap_left > 0 {
                self.inv = Some((self.mrs[0].range(INV_BY_MR, 0, 0), None));
            } else if self.rng.gen_bool(self.inv_rate) {
                self.inv = Some(self.invalidation());
            }
        }
        if let Some((inv, change)) = self.inv {
            let ii = inv_ins(&inv);
            ins.inv_valid = true;
            ins.inv_kind = ii.inv_kind;
            ins.inv_mr = ii.inv_mr;
            ins.inv_va_lo = ii.inv_va_lo;
            ins.inv_va_hi = ii.inv_va_hi;
            ins.inv_off_lo = ii.inv_off_lo;
            ins.inv_off_hi = ii.inv_off_hi;
            if o.inv_ready {
                if inv.kind == INV_ALL {
                    self.all_wrap_left = self.all_wrap_left.saturating_sub(1);
                } else if inv.kind == INV_BY_MR && inv.mr == self.mrs[0].idx {
                    self.mr_wrap_left = self.mr_wrap_left.saturating_sub(1);
                }
                // From the next clock on, the walker reads the new tables.
                if let Some(c) = change {
                    self.apply_change(c);
                }
                self.inv = None;
            }
        }
        (ins, off)
    }
}

/// Runs `clocks` clocks of random stimulus on `dut` against the reference.
fn run_random<D: Dut>(
    dut: D,
    set_bits: usize,
    mr_bits: usize,
    huge: usize,
    clocks: u64,
    seed: u64,
) -> TlbRef {
    let mut b = Bench::new(dut, set_bits, huge);
    b.reset();
    let mut stim = Stim::new(seed, mr_bits);
    let mut c = 0;
    while !harness::done(c, clocks, clocks * 10, || {
        let r = &b.r;
        vec![
            ("misses", r.lookups - r.hits, 1),
            ("4 KiB hits", r.hits_by_size[0], 1),
            ("2 MiB hits", r.hits_by_size[1], 1),
            ("1 GiB hits", r.hits_by_size[2], 1),
            ("invalidations", r.invalidations, 1),
            ("MR generation wraps", r.wraps_mr, 1),
            ("global generation wraps", r.wraps_all, 1),
            ("fills dropped", r.fills_dropped, 1),
        ]
    }) {
        let o = outs(&mut b.dut);
        let (ins, off) = stim.next(&o, c);
        b.step(ins, off);
        c += 1;
    }
    let r = b.r;
    println!(
        "{c} clocks: {} lookups, {} hits (4K/2M/1G {:?}), {} fills applied, {} dropped, {} invalidations (generation wraps: {} MR, {} global), {} refused clocks",
        r.lookups, r.hits, r.hits_by_size, r.fills_applied, r.fills_dropped, r.invalidations, r.wraps_mr, r.wraps_all, r.refused_clocks
    );
    r
}

#[test]
fn tlb_random_against_reference_small() {
    run_random(rhdl::<2, 3, 4>(), 2, 3, 4, 100_000, seed());
}

#[test]
fn tlb_random_against_reference_default() {
    run_random(rhdl::<8, 8, 32>(), 8, 8, 32, 40_000, seed());
}

#[test]
fn tlb_random_lockstep_verilog_matches_rust_hdl_small() {
    run_random(lockstep::<2, 3, 4>("tlb_small"), 2, 3, 4, 20_000, seed());
}

#[test]
fn tlb_random_lockstep_verilog_matches_rust_hdl_default() {
    run_random(
        lockstep::<8, 8, 32>("tlb_default"),
        8,
        8,
        32,
        10_000,
        seed(),
    );
}

#[test]
fn tlb_random_long_run_on_verilog_small() {
    let start = Instant::now();
    run_random(
        verilated::<2, 3, 4>("tlb_small"),
        2,
        3,
        4,
        2_000_000,
        seed(),
    );
    println!("{:.1} s", start.elapsed().as_secs_f64());
}

#[test]
fn tlb_random_long_run_on_verilog_default() {
    let start = Instant::now();
    run_random(
        verilated::<8, 8, 32>("tlb_default"),
        8,
        8,
        32,
        2_000_000,
        seed(),
    );
    println!("{:.1} s", start.elapsed().as_secs_f64());
}

// ---------------------------------------------------------------------------
// Synthesizability
// ---------------------------------------------------------------------------

use harness::checks::assert_synthesizable;

#[test]
fn tlb_small_is_synthesizable() {
    assert_synthesizable(&verilog::<2, 3, 4>("tlb_small"), "tlb_small");
}

#[test]
fn tlb_default_is_synthesizable() {
    assert_synthesizable(&verilog::<8, 8, 32>("tlb_default"), "tlb_default");
}

#[test]
fn tlb_rejects_out_of_range_parameters() {
    let huge3 = std::panic::catch_unwind(Tlb::<2, 3, 3>::new);
    assert!(huge3.is_err());
    let sets0 = std::panic::catch_unwind(Tlb::<0, 3, 4>::new);
    assert!(sets0.is_err());
    let mr17 = std::panic::catch_unwind(Tlb::<2, 17, 4>::new);
    assert!(mr17.is_err());
    let _ok: DefaultTlb = DefaultTlb::new();
    let _ok2: SmallTlb = SmallTlb::new();
}
