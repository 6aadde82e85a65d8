//! The Lattice ECP5-5G Versa board (LFE5UM5G-45F-8BG381C) top: its
//! oscillator, reset button, USB serial line and LEDs around
//! [`BoardCore`].
//!
//! Pins, I/O standards and polarities are the board's (Lattice "ECP5-5G
//! Versa Development Board User Guide", as transcribed in the open board
//! files litex-boards `litex_boards/platforms/lattice_versa_ecp5.py` and
//! amaranth-boards `amaranth_boards/versa_ecp5.py`, which agree on every
//! pin used here):
//!
//! | port | site | standard | on the board |
//! |---|---|---|---|
//! | `clk100` | P3 (P of the pair P3 / P4) | LVDS | 100 MHz oscillator |
//! | `rst_n` | T1 | LVCMOS33 | reset button, low when pressed |
//! | `uart_rx` | C11 | LVCMOS33, pull-up | serial data from the USB UART (FT2232H channel B) |
//! | `uart_tx` | A11 | LVCMOS33 | serial data to the USB UART |
//! | `led[0..8]` | E16 D17 D18 E18 F17 F18 E17 F16 | LVCMOS25 | LEDs, on when low |
//!
//! The constraints are rust-hdl signal constraints on the ports, so
//! `constraints/ecp5_versa5g.lpf` is generated from this file
//! ([`Versa::lpf`]).

use rust_hdl::fpga::toolchains::ecp5::generate_lpf;
use rust_hdl::prelude::*;

use crate::board::core::BoardCore;
use crate::board::pll::{Ecp5Pll, VERSA_50MHZ};

/// The board's oscillator, MHz.
pub const OSC_MHZ: u32 = 100;
/// The core clock the PLL makes from it, MHz.
pub const CORE_MHZ: u32 = 50;
/// The serial line's baud rate on the board.
pub const BAUD: u32 = 115_200;
/// Clocks per bit at [`CORE_MHZ`] and [`BAUD`]: 434 (115,207 baud, 0.006 %
/// off).
pub const UART_DIVISOR: u16 =
    ((CORE_MHZ as u64 * 1_000_000 + BAUD as u64 / 2) / BAUD as u64) as u16;
/// The LED sites, `led[0]` first.
pub const LED_SITES: [&str; 8] = ["E16", "D17", "D18", "E18", "F17", "F18", "E17", "F16"];
/// The LED of [`Versa::led`] that shows the PLL locked (the others are
/// [`crate::board::core::led`]).
pub const LED_PLL_LOCK: usize = 7;

/// The Versa board top.
///
/// - `clk100` (in): the 100 MHz oscillator, into the PLL (50 MHz out,
///   [`VERSA_50MHZ`]), which clocks everything else;
/// - `rst_n` (in): the reset button; it and a PLL out of lock reset the
///   board core;
/// - `uart_rx`, `uart_tx`: the serial bridge, 8N1 at [`BAUD`] with
///   [`UART_DIVISOR`] (or the divisor given to [`Versa::new`]);
/// - `led[7:0]` (out, low = on): bits 0 to 6 as [`crate::board::core::led`],
///   bit 7 the PLL locked.
#[derive(LogicBlock)]
pub struct Versa {
    /// 100 MHz oscillator (LVDS).
    pub clk100: Signal<In, Clock>,
    /// Reset button, low when pressed.
    pub rst_n: Signal<In, Bit>,
    /// Serial data from the host.
    pub uart_rx: Signal<In, Bit>,
    /// Serial data to the host.
    pub uart_tx: Signal<Out, Bit>,
    /// LEDs, low = on.
    pub led: Signal<Out, Bits<8>>,
    pll: Ecp5Pll,
    board: BoardCore,
    lock_b: Signal<Local, Bits<8>>,
}

fn custom(index: usize, text: String) -> PinConstraint {
    PinConstraint {
        index,
        constraint: Constraint::Custom(text),
    }
}

impl Versa {
    /// The board top for the board: [`UART_DIVISOR`] clocks per bit.
    pub fn board() -> Self {
        Self::new(UART_DIVISOR)
    }

    /// The board top with `divisor` clocks per bit on the serial line (a
    /// small one in simulation), its ports carrying the board's pin
    /// constraints.
    pub fn new(divisor: u16) -> Self {
        let mut uut = Self {
            clk100: Default::default(),
            rst_n: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            led: Default::default(),
            pll: Ecp5Pll::new(VERSA_50MHZ),
            board: BoardCore::new(divisor),
            lock_b: Default::default(),
        };
        // rust-hdl maps only LVCMOS33 to an LPF I/O type: LVDS and
        // LVCMOS25 go in as the LPF's own words.
        uut.clk100.add_location(0, "P3");
        uut.clk100
            .add_constraint(custom(0, "IOBUF PORT \"clk100\" IO_TYPE=LVDS".into()));
        uut.clk100.add_constraint(PinConstraint {
            index: 0,
            constraint: Constraint::Timing(Periodic(PeriodicTiming {
                net: "clk100".into(),
                period_nanoseconds: 1000.0 / OSC_MHZ as f64,
                duty_cycle: 50.0,
            })),
        });
        uut.rst_n.add_location(0, "T1");
        uut.rst_n.add_signal_type(0, SignalType::LowVoltageCMOS_3v3);
        uut.uart_rx.add_location(0, "C11");
        uut.uart_rx.add_constraint(custom(
            0,
            "IOBUF PORT \"uart_rx\" IO_TYPE=LVCMOS33 PULLMODE=UP".into(),
        ));
        uut.uart_tx.add_location(0, "A11");
        uut.uart_tx
            .add_signal_type(0, SignalType::LowVoltageCMOS_3v3);
        for (i, site) in LED_SITES.iter().enumerate() {
            uut.led.add_location(i, site);
            uut.led.add_constraint(custom(
                i,
                format!("IOBUF PORT \"led[{i}]\" IO_TYPE=LVCMOS25"),
            ));
        }
        uut
    }

    /// The LPF of the board's pins, generated from the port constraints
    /// (`constraints/ecp5_versa5g.lpf` is this text).
    pub fn lpf(&self) -> String {
        format!(
            "# Pins of the odp_mmu board top on the Lattice ECP5-5G Versa board\n\
             # (LFE5UM5G-45F-8BG381C), generated from the port constraints of\n\
             # src/board/versa.rs by rust-hdl's generate_lpf; refresh with\n\
             #   ODP_BLESS=1 cargo test --release --test board\n\
             {}",
            generate_lpf(self)
        )
    }
}

impl Logic for Versa {
    #[hdl_gen]
    fn update(&mut self) {
        self.pll.clki.next = self.clk100.val();
        self.board.clk.next = self.pll.clkop.val();
        self.board.rst_in.next = !self.rst_n.val() | !self.pll.lock.val();
        self.board.uart_rx.next = self.uart_rx.val();
        self.uart_tx.next = self.board.uart_tx.val();
        self.lock_b.next = 0.into();
        if self.pll.lock.val() {
            self.lock_b.next = 0x80.into(); // = 1 << LED_PLL_LOCK
        }
        self.led.next = !(bit_cast::<8, 7>(self.board.leds.val()) | self.lock_b.val());
    }
}
