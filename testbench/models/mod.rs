//! The library's plain-Rust simulation models, under the names the
//! testbenches use.
#![allow(unused_imports)] // each test target uses a different part of the models

pub use odp_mmu::sim::{host_memory, mr_check, page_table, translate_ref};
