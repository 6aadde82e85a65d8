//! # odp-mmu
//!
//! An open on-demand-paging MMU for RDMA NICs, written in `rust-hdl`: a
//! translation TLB, a page-table walker over AXI4, a fault queue with RNR NAK
//! generation, and synchronized invalidation, composed into the top-level
//! module `odp_mmu` that integrators instantiate. See `docs/` and the
//! product specification for the interface and the guarantees.
//!
//! The library holds every block and the build flow; the `odp-mmu` binary is a
//! thin command-line front end (`verilog`, `synth`, `pnr`, `depth`, `bench`).

pub mod bench;
pub mod common;
pub mod control;
pub mod depth;
pub mod driver;
pub mod fault;
pub mod flow;
pub mod mr_table;
pub mod params;
pub mod regmap;
pub mod sim;
pub mod tlb;
pub mod tools;
pub mod top;
pub mod translate;
pub mod verilog;
pub mod walker;

pub use params::Params;
pub use top::{DefaultOdpMmu, OdpMmu, SmallOdpMmu};
