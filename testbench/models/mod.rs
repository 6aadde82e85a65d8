//! Plain-Rust models shared by the testbenches: the library's simulation
//! models (host memory, page tables, MR check) and the translation
//! reference model built on them.

pub use odp_mmu::sim::{host_memory, mr_check, page_table};
pub mod translate_ref;
