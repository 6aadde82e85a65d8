//! # odp-mmu
//!
//! An open on-demand-paging MMU for RDMA NICs, written in `rust-hdl`: a
//! translation TLB, a page-table walker over AXI4, a fault queue with RNR NAK
//! generation, and synchronized invalidation, composed into the top-level
//! module `odp_mmu` that integrators instantiate.
//!
//! This crate is the IP alone: synthesizable blocks grouped by concern, the
//! parameters and the Verilog naming. Its
//! one dependency is rust-hdl. The command line, the tool flow, the models
//! and the test harness are the `odp-mmu-workshop` package (`workshop/`).
//!
//! - [`translate`]: MR table, TLB, page-table walker, the translator;
//! - [`fault`]: per-QP responder (RNR NAKs), adaptive RNR timer, event-ring
//!   writer, fault queue;
//! - [`control`]: register map, CSR block, command unit;
//! - [`common`]: small shared blocks (FIFO, pseudo-LRU);
//! - [`spec`]: the SPEC's code tables (status, op, MR state, access rights,
//!   PTE bits, page sizes, AETH syndromes, RNR timer codes, QP commands,
//!   event kinds), defined once for every block, model and test;
//! - [`top`]: `odp_mmu`, the composed core;
//! - [`board`]: a board design around it: the ECP5-5G Versa top, block RAM
//!   as host memory and a serial bridge (`docs/fpga.md`).

pub mod board;
pub mod common;
pub mod control;
pub mod fault;
pub mod params;
pub mod spec;
pub mod top;
pub mod translate;
pub mod verilog;

pub use params::{Params, Preset};
pub use top::{DefaultOdpMmu, OdpMmu, SmallOdpMmu};
