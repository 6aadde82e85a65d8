//! Small primitives shared by several blocks.

pub mod plru;
