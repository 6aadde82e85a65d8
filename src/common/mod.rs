//! Small primitives shared by several blocks.

pub mod fifo;
pub mod interfaces;
pub mod lowest;
pub mod lut_ram;
pub mod plru;
pub mod reset;
