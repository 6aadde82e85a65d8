//! Lockstep: one stimulus, two simulators, every output compared every clock.
//!
//! The testbench drives the rust-hdl model; the harness copies every
//! top-level input the testbench set into the Verilated model of the same
//! block's generated Verilog, settles both, and compares every top-level
//! output before each rising edge. The first difference is reported with the
//! clock number, the port and both values. This is the only check that the
//! Verilog users synthesize behaves like the model the tests exercise:
//! rust-hdl's simulation and its Verilog differ on operator precedence and
//! expression width (see "rust-hdl pitfalls" in `docs/verification.md`).

use std::fmt;

use rust_hdl::prelude::*;

use super::rhdl::{ports, top_ports};
use super::verilated::{Dir, Verilated};

/// The first difference between the two simulators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Clock number (0 = before the first rising edge).
    pub clock: u64,
    pub port: String,
    /// Value in the rust-hdl model, hexadecimal.
    pub rust: String,
    /// Value in the Verilated Verilog, hexadecimal.
    pub verilog: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "lockstep mismatch at clock {} on port {}: rust-hdl 0x{} != verilog 0x{}",
            self.clock, self.port, self.rust, self.verilog
        )
    }
}

fn hex(words: &[u32]) -> String {
    let mut s: String = words.iter().rev().map(|w| format!("{w:08x}")).collect();
    let trimmed = s.trim_start_matches('0').len();
    s.drain(..s.len() - trimmed.max(1));
    s
}

/// A rust-hdl block and the Verilated model of its generated Verilog.
pub struct Lockstep<U: Block> {
    /// The rust-hdl model; testbenches set its inputs and read its outputs.
    pub uut: U,
    /// The Verilated model.
    pub model: Verilated,
    set_clock: fn(&mut U, bool),
    clock_port: usize,
    /// Model port index of each rust-hdl top-level port, in probe order.
    map: Vec<usize>,
    clock: u64,
}

impl<U: Block> Lockstep<U> {
    /// Connects `uut`, generates its Verilog as module `name`, builds the
    /// Verilated model. `set_clock` drives the block's clock input.
    pub fn new(mut uut: U, name: &str, set_clock: fn(&mut U, bool)) -> Self {
        uut.connect_all();
        let verilog = odp_mmu::verilog::generate(&uut, name);
        Self::with_verilog(uut, &verilog, name, set_clock)
    }

    /// As `new`, with the Verilog given (generated from `uut` and edited);
    /// the model's ports are `uut`'s.
    pub fn with_verilog(
        mut uut: U,
        verilog: &str,
        name: &str,
        set_clock: fn(&mut U, bool),
    ) -> Self {
        let model = Verilated::with_ports(verilog, name, ports(&uut));
        set_clock(&mut uut, false);
        assert!(simulate(&mut uut, 10_000), "rust-hdl model does not settle");
        let ports = top_ports(&uut);
        let mut clock_port = None;
        let map = ports
            .iter()
            .map(|p| {
                let idx = model.port(&p.name);
                if p.is_clock {
                    assert!(clock_port.is_none(), "lockstep supports one clock");
                    clock_port = Some(idx);
                }
                idx
            })
            .collect();
        Self {
            uut,
            model,
            set_clock,
            clock_port: clock_port.expect("the block has no clock input"),
            map,
            clock: 0,
        }
    }

    /// Clocks run so far.
    pub fn clock(&self) -> u64 {
        self.clock
    }

    /// One clock: `drive` sets the rust-hdl inputs; both models settle; every
    /// output is compared; `observe` sees the settled rust-hdl model (the
    /// values a handshake takes at the coming edge); then the rising and
    /// falling edges.
    pub fn step(
        &mut self,
        drive: impl FnOnce(u64, &mut U),
        observe: impl FnOnce(u64, &U),
    ) -> Result<(), Mismatch> {
        self.settle(drive)?;
        observe(self.clock, &self.uut);
        self.edge();
        Ok(())
    }

    /// The first half of `step`: `drive`, settle both models, compare every
    /// output. The settled rust-hdl model is then in `uut`.
    pub fn settle(&mut self, drive: impl FnOnce(u64, &mut U)) -> Result<(), Mismatch> {
        drive(self.clock, &mut self.uut);
        assert!(
            simulate(&mut self.uut, 10_000),
            "rust-hdl model does not settle"
        );
        let ports = top_ports(&self.uut);
        for (p, &idx) in ports.iter().zip(&self.map) {
            if p.dir == Dir::In && !p.is_clock {
                self.model.set_words(idx, &p.words);
            }
        }
        self.model.eval();
        for (p, &idx) in ports.iter().zip(&self.map) {
            if p.dir == Dir::Out {
                let v = self.model.get_words(idx);
                if v != p.words {
                    return Err(Mismatch {
                        clock: self.clock,
                        port: p.name.clone(),
                        rust: hex(&p.words),
                        verilog: hex(&v),
                    });
                }
            }
        }
        Ok(())
    }

    /// The second half of `step`: the rising and falling edges on both.
    pub fn edge(&mut self) {
        for level in [true, false] {
            (self.set_clock)(&mut self.uut, level);
            assert!(
                simulate(&mut self.uut, 10_000),
                "rust-hdl model does not settle"
            );
            self.model.set_idx(self.clock_port, level as u128);
            self.model.eval();
        }
        self.clock += 1;
    }

    /// Runs `clocks` clocks of `drive` / `observe` (see `step`).
    pub fn run(
        &mut self,
        clocks: u64,
        mut drive: impl FnMut(u64, &mut U),
        mut observe: impl FnMut(u64, &U),
    ) -> Result<(), Mismatch> {
        for _ in 0..clocks {
            self.step(&mut drive, &mut observe)?;
        }
        Ok(())
    }
}
