#![doc = include_str!("../../docs/fpga.md")]
//!
//! # The blocks
//!
//! - [`versa`]: the ECP5-5G Versa board top: pins (as rust-hdl signal
//!   constraints, from which the LPF is generated), the PLL, the LEDs;
//! - [`core`]: the board-independent part: `odp_mmu` (small preset), the
//!   board memory and the serial bridge on one clock;
//! - [`bridge`]: the serial bridge and its byte protocol;
//! - [`memory`]: block RAM as host memory, an AXI4 slave;
//! - [`uart`]: the 8N1 receiver and transmitter;
//! - [`pll`]: the ECP5 PLL (`EHXPLLL`) wrapper;
//! - [`interfaces`]: the other ends of the core's interface bundles.

pub mod bridge;
pub mod core;
pub mod interfaces;
pub mod memory;
pub mod pll;
pub mod uart;
pub mod versa;
