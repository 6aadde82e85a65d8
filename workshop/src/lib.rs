//! # odp-mmu workshop
//!
//! Everything around the `odp-mmu` IP that is not synthesized: the `odp-mmu`
//! command's flows, the models, the driver library and the test harness.
//!
//! - [`flow`], [`depth`], [`tools`]: Yosys and nextpnr runs, the logic-depth
//!   report, the paths of the tools installed in `.tools/`;
//! - [`mod@bench`]: the performance scenarios behind `odp-mmu bench`
//!   (with [`bench_faults`] and [`bench_inval`]);
//! - [`models`]: every model: SPEC references, cycle models, and the
//!   environment (host memory, page tables, requesters, DMA engine);
//! - [`driver`]: the driver library, over any register [`driver::Bus`];
//! - [`board`]: the board design's serial protocol, its transports (a
//!   serial port, the Verilated board top) and the board scenario;
//! - [`harness`]: what the test targets share: the Verilated-model loader,
//!   the lockstep runner, rust-hdl port access, synthesizability checks,
//!   the seed and stop rules of random tests;
//! - [`sta`]: the slack of every endpoint of a routed design, from
//!   nextpnr's SDF.

pub mod bench;
pub mod bench_faults;
pub mod bench_inval;
pub mod board;
pub mod depth;
pub mod driver;
pub mod flow;
pub mod harness;
pub mod models;
pub mod sta;
pub mod tools;
