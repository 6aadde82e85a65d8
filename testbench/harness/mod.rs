//! Shared testbench infrastructure: the Verilated-model loader, the lockstep
//! runner, rust-hdl port access and the synthesizability checks. Each test
//! target includes this module with `#[path = "harness/mod.rs"] mod harness;`.
#![allow(dead_code)] // each test target uses a different part of the harness

pub mod checks;
pub mod lockstep;
pub mod monitor;
pub mod rhdl;
pub mod verilated;

use rand::Rng;

/// The seed of a random test: `ODP_SEED` when set (replay), else a fresh
/// one. Printed so that a failing run can be replayed.
pub fn seed() -> u64 {
    let seed = std::env::var("ODP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| rand::thread_rng().gen());
    println!("seed {seed} (replay with ODP_SEED={seed})");
    seed
}
