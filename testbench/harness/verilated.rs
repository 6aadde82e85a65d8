//! The Verilated-model loader, which lives in the library
//! (`odp_mmu::sim::verilated`) since the bench command loads the Verilated
//! core too; re-exported here so every test target keeps its path.

pub use odp_mmu::sim::verilated::*;
