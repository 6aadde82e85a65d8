//! The small shared blocks of `src/common/`: the register FIFO against a
//! `VecDeque`, through the harness's one DUT contract (the same stimulus on
//! the Verilated Verilog, the rust-hdl model, and both in lockstep).

use std::collections::VecDeque;

use odp_mmu::common::reg_fifo::RegFifo;
use odp_mmu_workshop::harness::checks::assert_synthesizable;
use odp_mmu_workshop::harness::dut::{Dut, Rhdl};
use odp_mmu_workshop::harness::lockstep::Lockstep;
use odp_mmu_workshop::harness::verilated::Verilated;
use odp_mmu_workshop::harness::{self, seed};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

/// A 4-deep FIFO of 16-bit words.
type Fifo = RegFifo<Bits<16>, 4, 2, 3>;
const DEPTH: usize = 4;

odp_mmu_workshop::port_map!(FifoPorts for Fifo {
    clock: clock,
    inputs: [rst, push, data_in, pop],
    outputs: [data_out, empty, full, count, overflow],
});

fn verilog() -> String {
    let mut uut = Fifo::default();
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, "reg_fifo")
}

/// `clocks` clocks of random pushes and pops (with random data) against a
/// `VecDeque`; every output checked every clock. Returns the number of
/// (pushes accepted, pops, refused pushes).
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
fn reg_fifo_is_synthesizable() {
    assert_synthesizable(&verilog(), "reg_fifo");
}

#[test]
fn reg_fifo_random_verilated_against_a_deque() {
    let mut d = Verilated::of_block(&mut Fifo::default(), "reg_fifo");
    let (pushes, pops, refused) = random_run(&mut d, seed(), 20_000 * harness::scale());
    assert!(
        pushes > 5_000 && pops > 5_000 && refused > 100,
        "weak stimulus: {pushes} pushes, {pops} pops, {refused} refused"
    );
}

#[test]
fn reg_fifo_random_rust_hdl_against_a_deque() {
    let mut d = Rhdl::<FifoPorts>::new(Fifo::default());
    let (_, _, refused) = random_run(&mut d, seed(), 2_000);
    assert!(refused > 0, "weak stimulus: the FIFO never filled");
}

#[test]
fn reg_fifo_random_lockstep() {
    let mut d = Lockstep::of::<FifoPorts>(Fifo::default(), "reg_fifo");
    random_run(&mut d, seed(), 2_000);
    assert_eq!(d.clock(), 2_001);
}
