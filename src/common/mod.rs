//! Small primitives shared by several blocks.

pub mod interfaces;
pub mod lowest;
pub mod plru;
pub mod reg_fifo;
