//! The small shared blocks of `src/common/`: the small FIFO against a
//! `VecDeque`, the lowest-set-bit tree against `trailing_zeros` (and
//! `leading_zeros` for its highest-bit mode) and the reset copies against
//! the reset one clock late, through the harness's one DUT contract (the
//! same stimulus on the Verilated Verilog, the rust-hdl model, and both in
//! lockstep); and that synthesis keeps every reset copy.

use std::collections::VecDeque;

use odp_mmu::common::fifo::SmallFifo;
use odp_mmu::common::lowest::LowestSet;
use odp_mmu::common::reset::ResetCopy;
use odp_mmu_workshop::harness::checks::assert_synthesizable;
use odp_mmu_workshop::harness::dut::{Dut, Rhdl};
use odp_mmu_workshop::harness::lockstep::Lockstep;
use odp_mmu_workshop::harness::verilated::Verilated;
use odp_mmu_workshop::harness::{self, seed};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

/// A 4-deep FIFO of 16-bit words.
type Fifo = SmallFifo<Bits<16>, 4, 2, 3>;
const DEPTH: usize = 4;

odp_mmu_workshop::port_map!(FifoPorts for Fifo {
    clock: clock,
    inputs: [rst, push, data_in, pop],
    outputs: [data_out, empty, full, count, overflow, rd_ptr, wr_ptr],
});

fn verilog() -> String {
    let mut uut = Fifo::default();
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, "small_fifo")
}

/// `clocks` clocks of random pushes and pops (with random data) against a
/// `VecDeque` and a count of each; every output checked every clock.
/// Returns the number of (pushes accepted, pops, refused pushes).
fn random_run(d: &mut dyn Dut, seed: u64, clocks: u64) -> (u64, u64, u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut model: VecDeque<u16> = VecDeque::new();
    let (mut pushes, mut pops, mut refused) = (0, 0, 0);
    d.set("rst", 1);
    d.settle();
    d.tick();
    d.set("rst", 0);
    for clock in 0..clocks {
        // Phases of mostly-push and mostly-pop so the FIFO fills and drains.
        let push_pct = if (clock / 64) % 2 == 0 { 70 } else { 30 };
        let push = rng.gen_range(0..100) < push_pct;
        let pop = rng.gen_range(0..100) < 100 - push_pct;
        let data: u16 = rng.gen();
        d.set("push", push as u128);
        d.set("pop", pop as u128);
        d.set("data_in", data as u128);
        d.settle();
        let at = |what: &str| format!("clock {clock}: {what}");
        assert_eq!(d.get("count"), model.len() as u128, "{}", at("count"));
        assert_eq!(d.is("empty"), model.is_empty(), "{}", at("empty"));
        assert_eq!(d.is("full"), model.len() == DEPTH, "{}", at("full"));
        if let Some(&head) = model.front() {
            assert_eq!(d.get("data_out"), head as u128, "{}", at("head"));
        }
        let popped = pop && !model.is_empty();
        let accepted = push && model.len() < DEPTH;
        assert_eq!(d.is("overflow"), push && !accepted, "{}", at("overflow"));
        // The pointers count the words taken and written since the reset.
        assert_eq!(
            d.get("rd_ptr"),
            (pops % DEPTH as u64) as u128,
            "{}",
            at("rd_ptr")
        );
        assert_eq!(
            d.get("wr_ptr"),
            (pushes % DEPTH as u64) as u128,
            "{}",
            at("wr_ptr")
        );
        if popped {
            model.pop_front();
            pops += 1;
        }
        if accepted {
            model.push_back(data);
            pushes += 1;
        }
        refused += (push && !accepted) as u64;
        d.tick();
    }
    (pushes, pops, refused)
}

#[test]
fn small_fifo_is_synthesizable() {
    assert_synthesizable(&verilog(), "small_fifo");
}

#[test]
fn small_fifo_random_verilated_against_a_deque() {
    let mut d = Verilated::of_block(&mut Fifo::default(), "small_fifo");
    let (pushes, pops, refused) = random_run(&mut d, seed(), 20_000 * harness::scale());
    assert!(
        pushes > 5_000 && pops > 5_000 && refused > 100,
        "weak stimulus: {pushes} pushes, {pops} pops, {refused} refused"
    );
}

#[test]
fn small_fifo_random_rust_hdl_against_a_deque() {
    let mut d = Rhdl::<FifoPorts>::new(Fifo::default());
    let (_, _, refused) = random_run(&mut d, seed(), 2_000);
    assert!(refused > 0, "weak stimulus: the FIFO never filled");
}

#[test]
fn small_fifo_random_lockstep() {
    let mut d = Lockstep::of::<FifoPorts>(Fifo::default(), "small_fifo");
    random_run(&mut d, seed(), 2_000);
    assert_eq!(d.clock(), 2_001);
}

/// `LowestSet` on 64 bits behind an input and an output register (the
/// harness drives clocked blocks).
#[derive(LogicBlock, Default)]
struct LowestTb {
    clock: Signal<In, Clock>,
    vec: Signal<In, Bits<64>>,
    high: Signal<In, Bit>,
    found: Signal<Out, Bit>,
    idx: Signal<Out, Bits<6>>,
    v: DFF<Bits<64>>,
    h: DFF<Bit>,
    f: DFF<Bit>,
    i: DFF<Bits<6>>,
    pe: LowestSet<64, 6>,
}

impl Logic for LowestTb {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, v, h, f, i);
        self.v.d.next = self.vec.val();
        self.h.d.next = self.high.val();
        self.pe.vec.next = self.v.q.val();
        self.pe.high.next = self.h.q.val();
        self.f.d.next = self.pe.found.val();
        self.i.d.next = self.pe.idx.val();
        self.found.next = self.f.q.val();
        self.idx.next = self.i.q.val();
    }
}

odp_mmu_workshop::port_map!(LowestPorts for LowestTb {
    clock: clock,
    inputs: [vec, high],
    outputs: [found, idx],
});

fn lowest_verilog() -> String {
    let mut uut = LowestTb::default();
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, "lowest_tb")
}

/// `clocks` random vectors (empty, one bit, sparse, dense), each searched
/// for its lowest or (at random) its highest set bit, each answer checked
/// two clocks later against `trailing_zeros` / `leading_zeros`. Returns how
/// many vectors were empty.
fn lowest_run(d: &mut dyn Dut, seed: u64, clocks: u64) -> u64 {
    let mut rng = StdRng::seed_from_u64(seed);
    println!("lowest_run seed {seed}");
    let mut sent: VecDeque<(u64, bool)> = VecDeque::new();
    let mut empty = 0;
    for clock in 0..clocks {
        let v: u64 = match rng.gen_range(0..5) {
            0 => 0,
            1 => 1 << rng.gen_range(0..64),
            2 => rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>(),
            3 => rng.gen::<u64>() << rng.gen_range(0..64),
            _ => rng.gen(),
        };
        let high = rng.gen_bool(0.5);
        empty += (v == 0) as u64;
        d.set("vec", v as u128);
        d.set("high", high as u128);
        d.settle();
        if sent.len() == 2 {
            let (w, high) = sent.pop_front().unwrap();
            assert_eq!(d.is("found"), w != 0, "clock {clock}: found for {w:#x}");
            let want = match (w, high) {
                (0, _) => 0,
                (_, false) => w.trailing_zeros() as u128,
                (_, true) => 63 - w.leading_zeros() as u128,
            };
            assert_eq!(
                d.get("idx"),
                want,
                "clock {clock}: index for {w:#x} (high {high})"
            );
        }
        sent.push_back((v, high));
        d.tick();
    }
    empty
}

#[test]
fn lowest_set_is_synthesizable() {
    assert_synthesizable(&lowest_verilog(), "lowest_tb");
}

#[test]
fn lowest_set_random_verilated_against_trailing_zeros() {
    let mut d = Verilated::of_block(&mut LowestTb::default(), "lowest_tb");
    let empty = lowest_run(&mut d, seed(), 20_000 * harness::scale());
    assert!(empty > 100, "weak stimulus: {empty} empty vectors");
}

#[test]
fn lowest_set_random_lockstep() {
    let mut d = Lockstep::of::<LowestPorts>(LowestTb::default(), "lowest_tb");
    lowest_run(&mut d, seed(), 1_000);
    assert_eq!(d.clock(), 1_000);
}

/// Four reset copies of one `rst`, each on its own output.
#[derive(LogicBlock, Default)]
struct ResetTb {
    clock: Signal<In, Clock>,
    rst: Signal<In, Bit>,
    q0: Signal<Out, Bit>,
    q1: Signal<Out, Bit>,
    q2: Signal<Out, Bit>,
    q3: Signal<Out, Bit>,
    c0: ResetCopy,
    c1: ResetCopy,
    c2: ResetCopy,
    c3: ResetCopy,
}

impl Logic for ResetTb {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, c0, c1, c2, c3);
        self.c0.rst.next = self.rst.val();
        self.c1.rst.next = self.rst.val();
        self.c2.rst.next = self.rst.val();
        self.c3.rst.next = self.rst.val();
        self.q0.next = self.c0.q.val();
        self.q1.next = self.c1.q.val();
        self.q2.next = self.c2.q.val();
        self.q3.next = self.c3.q.val();
    }
}

odp_mmu_workshop::port_map!(ResetPorts for ResetTb {
    clock: clock,
    inputs: [rst],
    outputs: [q0, q1, q2, q3],
});

fn reset_verilog() -> String {
    let mut uut = ResetTb::default();
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, "reset_tb")
}

/// `clocks` clocks of `rst` in random runs (single clocks and longer
/// pulses); every copy must show the `rst` of the clock before, and 0 in
/// the first clock (power-up). Returns the clocks with `rst` high.
fn reset_run(d: &mut dyn Dut, seed: u64, clocks: u64) -> u64 {
    let mut rng = StdRng::seed_from_u64(seed);
    println!("reset_run seed {seed}");
    let (mut prev, mut high, mut left) = (false, 0, 0u32);
    for clock in 0..clocks {
        if left == 0 && rng.gen_ratio(1, 4) {
            left = rng.gen_range(1..=6);
        }
        let rst = left > 0;
        left = left.saturating_sub(1);
        high += rst as u64;
        d.set("rst", rst as u128);
        d.settle();
        for q in ["q0", "q1", "q2", "q3"] {
            assert_eq!(d.is(q), prev, "clock {clock}: {q}");
        }
        prev = rst;
        d.tick();
    }
    high
}

#[test]
fn reset_copy_is_synthesizable() {
    assert_synthesizable(&reset_verilog(), "reset_tb");
}

#[test]
fn reset_copy_random_verilated_follows_rst_one_clock_late() {
    let mut d = Verilated::of_block(&mut ResetTb::default(), "reset_tb");
    let high = reset_run(&mut d, seed(), 10_000);
    assert!(high > 1_000, "weak stimulus: rst high in {high} clocks");
}

#[test]
fn reset_copy_random_lockstep() {
    let mut d = Lockstep::of::<ResetPorts>(ResetTb::default(), "reset_tb");
    reset_run(&mut d, seed(), 1_000);
    assert_eq!(d.clock(), 1_000);
}

/// The point of the block: four copies of one reset are four flip-flops
/// after the project's synthesis for ECP5 and UltraScale+ (`flow::synth`),
/// not one (four registers loading `rst` every clock would be merged).
#[test]
fn reset_copies_stay_apart_in_synthesis() {
    let dir = odp_mmu_workshop::tools::build_dir()
        .join("checks")
        .join("reset_tb");
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("reset_tb.generated.v");
    std::fs::write(&source, reset_verilog()).unwrap();
    let targets = odp_mmu_workshop::flow::synth_in(&source, "reset_tb", &dir)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(targets.len(), 2, "one result per target");
    for t in targets {
        assert_eq!(
            t.ffs, 4,
            "{}: flip-flops after synthesis: {}",
            t.target, t.raw_stat
        );
    }
}
