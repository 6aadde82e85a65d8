//! Plain-Rust simulation models, shared by the testbenches and the bench
//! command: host memory behind an AXI4 slave port (latency, reordering,
//! backpressure, error injection) with an AXI4 protocol monitor, page tables
//! laid out in it with the reference walk of SPEC section 3, and the
//! reference MR protection check; the reference event-ring writer and fault queue, the per-QP responder; the Verilated-model loader and the
//! Verilated `odp_mmu` against host memory, a driver [`crate::driver::Bus`].

pub mod command_ref;
pub mod env;
pub mod events_ref;
pub mod fault_queue_ref;
pub mod host_memory;
pub mod mr_check;
pub mod page_table;
pub mod prefetch_ref;
pub mod responder_ref;
pub mod rnr_timer_ref;
pub mod tlb_model;
pub mod translate_ref;
