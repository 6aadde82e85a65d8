//! Small primitives shared by several blocks.

pub mod plru;
pub mod reg_fifo;
