//! Plain-Rust models shared by the testbenches: host memory behind an AXI4
//! slave, and page tables laid out in it with the reference walk.

pub mod host_memory;
pub mod mr_check;
pub mod page_table;
pub mod translate_ref;
