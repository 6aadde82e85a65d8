//! The Versa board top, Verilated, driven through its pins: a host UART on
//! `uart_rx` / `uart_tx` (a [`Link`] for the protocol client), the
//! oscillator and the reset button; the LEDs read back.
//!
//! The board top's Verilog is the one `odp-mmu bitstream` builds, with one
//! change: the PLL primitive, a black box for Yosys, becomes a model in
//! which the output clock is the input clock and the PLL is always locked
//! ([`pll_sim_model`]). The serial line runs at a small divisor (clocks per
//! bit) so that a frame takes hundreds of clocks, not thousands.

use std::collections::VecDeque;

use odp_mmu::board::pll::{pll_blackbox, pll_model_head};
use odp_mmu::board::versa::Versa;
use rust_hdl::prelude::Block;

use super::protocol::Link;
use crate::harness::rhdl::ports;
use crate::harness::verilated::Verilated;

/// The module name of the Verilated board top.
pub const SIM_TOP: &str = "odp_mmu_versa5g_sim";

/// `EHXPLLL` for simulation: `CLKOP` is `CLKI`, `LOCK` is high; the head
/// (ports and the parameters the instance sets, unused) is the IP's
/// [`pll_model_head`].
pub fn pll_sim_model() -> String {
    format!(
        "/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
{}assign CLKOP = CLKI;
assign CLKOS = 1'b0;
assign CLKOS2 = 1'b0;
assign CLKOS3 = 1'b0;
assign LOCK = 1'b1;
assign INTLOCK = 1'b1;
assign REFCLK = CLKI;
assign CLKINTFB = 1'b0;
endmodule
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
",
        pll_model_head()
    )
}

/// The Verilog of the Versa top with `divisor` clocks per bit, module
/// `name`, as `odp-mmu bitstream` builds it (the PLL a black box).
pub fn versa_verilog(divisor: u16, name: &str) -> String {
    let mut uut = Versa::new(divisor);
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, name)
}

/// `verilog` with the PLL's black box swapped for [`pll_sim_model`];
/// panics if the black box is not there.
pub fn with_pll_model(verilog: &str) -> String {
    let blackbox = pll_blackbox();
    assert!(
        verilog.contains(&blackbox),
        "the board top's Verilog does not declare the PLL black box"
    );
    verilog.replace(&blackbox, &pll_sim_model())
}

/// Where the host's receiver is in a byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RxPhase {
    Idle,
    /// Clocks to the middle of the start bit.
    Start(u32),
    /// (data bits taken, clocks to the next sample, byte so far)
    Data(u32, u32, u8),
    /// Clocks to the middle of the stop bit, the byte.
    Stop(u32, u8),
}

/// A host's UART at the clock of the design it talks to: `divisor` clocks
/// per bit, 8N1. Each clock it gives the level to drive on the design's
/// receive pin ([`HostUart::drive`]) and takes the level of its transmit
/// pin ([`HostUart::sample`]).
pub struct HostUart {
    /// Clocks per bit.
    pub divisor: u32,
    /// Line levels still to send, one per clock.
    out: VecDeque<bool>,
    phase: RxPhase,
    received: VecDeque<u8>,
    /// Bytes received whose stop bit was low.
    pub frame_errors: u64,
}

impl HostUart {
    /// A UART of `divisor` clocks per bit (at least 4).
    pub fn new(divisor: u16) -> Self {
        assert!(divisor >= 4, "HostUart: divisor must be at least 4");
        Self {
            divisor: divisor as u32,
            out: VecDeque::new(),
            phase: RxPhase::Idle,
            received: VecDeque::new(),
            frame_errors: 0,
        }
    }

    fn queue_bits(&mut self, bits: impl Iterator<Item = bool>) {
        for bit in bits {
            for _ in 0..self.divisor {
                self.out.push_back(bit);
            }
        }
    }

    /// Queues a byte: start bit, 8 data bits (least significant first),
    /// stop bit.
    pub fn queue_byte(&mut self, byte: u8) {
        self.queue_bits(
            std::iter::once(false)
                .chain((0..8).map(|k| byte >> k & 1 == 1))
                .chain(std::iter::once(true)),
        );
    }

    /// Queues a byte with a low stop bit (a framing error), then a byte
    /// time of idle line.
    pub fn queue_broken_byte(&mut self, byte: u8) {
        self.queue_bits(
            std::iter::once(false)
                .chain((0..8).map(|k| byte >> k & 1 == 1))
                .chain(std::iter::once(false))
                .chain(std::iter::repeat_n(true, 10)),
        );
    }

    /// Nothing left to send.
    pub fn sent(&self) -> bool {
        self.out.is_empty()
    }

    /// The level to drive this clock (idle high when nothing is queued).
    pub fn drive(&mut self) -> bool {
        self.out.pop_front().unwrap_or(true)
    }

    /// The design's transmit pin this clock.
    pub fn sample(&mut self, tx: bool) {
        let d = self.divisor;
        self.phase = match self.phase {
            RxPhase::Idle if !tx => RxPhase::Start(d / 2 - 1),
            RxPhase::Idle => RxPhase::Idle,
            RxPhase::Start(0) if tx => RxPhase::Idle,
            RxPhase::Start(0) => RxPhase::Data(0, d - 1, 0),
            RxPhase::Start(n) => RxPhase::Start(n - 1),
            RxPhase::Data(k, 0, b) => {
                let b = b | (tx as u8) << k;
                if k == 7 {
                    RxPhase::Stop(d - 1, b)
                } else {
                    RxPhase::Data(k + 1, d - 1, b)
                }
            }
            RxPhase::Data(k, n, b) => RxPhase::Data(k, n - 1, b),
            RxPhase::Stop(0, b) => {
                if tx {
                    self.received.push_back(b);
                } else {
                    self.frame_errors += 1;
                }
                RxPhase::Idle
            }
            RxPhase::Stop(n, b) => RxPhase::Stop(n - 1, b),
        };
    }

    /// Bytes received and not yet taken.
    pub fn pending(&self) -> usize {
        self.received.len()
    }

    /// Takes `n` received bytes.
    pub fn take(&mut self, n: usize) -> Vec<u8> {
        self.received.drain(..n).collect()
    }
}

/// A design with a UART's pins, run one clock at a time.
pub trait UartPins {
    /// One clock with `rx` on the design's receive pin; the level of its
    /// transmit pin after the clock edge.
    fn cycle(&mut self, rx: bool) -> bool;
}

/// A [`Link`] over a design's UART pins: a [`HostUart`] on `pins`.
pub struct UartLink<P: UartPins> {
    pub pins: P,
    pub uart: HostUart,
    /// Clocks run.
    pub clock: u64,
    /// Clocks a `recv` waits for its first byte before it fails.
    pub answer_timeout: u64,
}

impl<P: UartPins> UartLink<P> {
    /// A host UART of `divisor` clocks per bit on `pins`.
    pub fn new(pins: P, divisor: u16) -> Self {
        Self {
            pins,
            uart: HostUart::new(divisor),
            clock: 0,
            answer_timeout: 20_000,
        }
    }

    /// One clock.
    pub fn cycle(&mut self) {
        let rx = self.uart.drive();
        let tx = self.pins.cycle(rx);
        self.uart.sample(tx);
        self.clock += 1;
    }

    /// `n` clocks.
    pub fn run(&mut self, n: u64) {
        for _ in 0..n {
            self.cycle();
        }
    }

    /// Clocks until everything queued is on the line.
    pub fn flush(&mut self) {
        while !self.uart.sent() {
            self.cycle();
        }
    }
}

impl<P: UartPins> Link for UartLink<P> {
    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        for &b in bytes {
            self.uart.queue_byte(b);
        }
        self.flush();
        Ok(())
    }

    fn recv(&mut self, n: usize) -> Result<Vec<u8>, String> {
        // The first byte within `answer_timeout` clocks, then a byte time
        // (and a margin) for each next one.
        let byte_clocks = 12 * self.uart.divisor as u64;
        let mut deadline = self.clock + self.answer_timeout;
        let mut have = self.uart.pending();
        while self.uart.pending() < n {
            if self.clock >= deadline {
                return Err(format!(
                    "{} of {n} bytes received by clock {}",
                    self.uart.pending(),
                    self.clock
                ));
            }
            self.cycle();
            if self.uart.pending() > have {
                have = self.uart.pending();
                deadline = self.clock + byte_clocks;
            }
        }
        Ok(self.uart.take(n))
    }
}

/// The Verilated Versa top's pins.
pub struct VersaPins {
    pub m: Verilated,
    clk: usize,
    rst_n: usize,
    rx: usize,
    tx: usize,
    led: usize,
}

impl VersaPins {
    /// Builds (or finds in `build/verilator`) and loads the board top with
    /// `divisor` clocks per bit; the button released.
    pub fn new(divisor: u16) -> Self {
        let mut uut = Versa::new(divisor);
        uut.connect_all();
        let verilog = with_pll_model(&odp_mmu::verilog::generate(&uut, SIM_TOP));
        let mut m = Verilated::with_ports(&verilog, SIM_TOP, ports(&uut));
        m.set("rst_n", 1);
        m.set("uart_rx", 1);
        m.eval();
        Self {
            clk: m.port("clk100"),
            rst_n: m.port("rst_n"),
            rx: m.port("uart_rx"),
            tx: m.port("uart_tx"),
            led: m.port("led"),
            m,
        }
    }

    /// The reset button: pressed (`true`) or released.
    pub fn press_reset(&mut self, pressed: bool) {
        self.m.set_idx(self.rst_n, !pressed as u128);
    }

    /// The LEDs, bit set = lit (the pins are low when lit).
    pub fn leds(&mut self) -> u8 {
        !(self.m.get_idx(self.led) as u8)
    }
}

impl UartPins for VersaPins {
    fn cycle(&mut self, rx: bool) -> bool {
        let m = &mut self.m;
        m.set_idx(self.rx, rx as u128);
        m.set_idx(self.clk, 1);
        m.eval();
        m.set_idx(self.clk, 0);
        m.eval();
        m.get_idx(self.tx) == 1
    }
}

/// The Verilated Versa top with a host UART on its pins.
pub type SimBoard = UartLink<VersaPins>;

/// The Verilated Versa top with `divisor` clocks per bit, after 50 clocks
/// with the button released and the line idle.
pub fn sim_board(divisor: u16) -> SimBoard {
    let mut b = UartLink::new(VersaPins::new(divisor), divisor);
    b.run(50);
    b
}
