//! Shared testbench infrastructure: the Verilated-model loader, the lockstep
//! runner, rust-hdl port access and the synthesizability checks. Each test
//! target includes this module with `#[path = "harness/mod.rs"] mod harness;`.
#![allow(dead_code)] // each test target uses a different part of the harness

pub mod checks;
pub mod lockstep;
pub mod monitor;
pub mod rhdl;
pub mod verilated;
