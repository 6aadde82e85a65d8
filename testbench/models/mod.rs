//! The library's plain-Rust simulation models, under the names the
//! testbenches use.

pub use odp_mmu::sim::{host_memory, mr_check, page_table, translate_ref};
