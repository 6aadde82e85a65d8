//! The host side of the board design (`odp_mmu::board`): the serial
//! bridge's protocol, its transports and the board scenario.
//!
//! - [`protocol`]: frames, records and the [`protocol::Bridge`] client over
//!   any byte [`protocol::Link`]; the client is a driver
//!   [`Bus`](crate::driver::Bus);
//! - [`serial`]: a serial port as a link (the `odp-mmu board` command);
//! - [`sim`]: the Verilated Versa top as a link, driven through its UART
//!   pins (the `board` test);
//! - [`demo`]: the scenario both run: an MR, page tables, requests, a
//!   fault and its NAK, event, resume and retry.

pub mod demo;
pub mod protocol;
pub mod serial;
pub mod sim;
