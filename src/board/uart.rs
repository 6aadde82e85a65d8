//! An 8N1 UART: a receiver and a transmitter, each `divisor` clocks per
//! bit (a constructor parameter: 434 for 115200 baud at 50 MHz, 4 in
//! simulation).
//!
//! A byte on the line is a start bit (low), eight data bits, least
//! significant first, and a stop bit (high); the idle line is high. No
//! parity, no flow control.

use rust_hdl::prelude::*;

/// The smallest legal `divisor`: the receiver samples a bit half a period
/// after its edge, so a period needs at least 4 clocks.
pub const MIN_DIVISOR: u16 = 4;

fn check_divisor(who: &str, divisor: u16) {
    assert!(
        divisor >= MIN_DIVISOR,
        "{who}: divisor must be at least {MIN_DIVISOR} clocks per bit, got {divisor}"
    );
}

/// Where the receiver is in a byte.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum RxState {
    /// Line idle (high): waits for a falling edge.
    Idle,
    /// Half a bit into the start bit: still low, or a glitch.
    Start,
    /// Samples the eight data bits at their middles.
    Data,
    /// Samples the stop bit.
    Stop,
    /// The stop bit was low: waits for the line to go high again.
    Break,
}

/// UART receiver, 8N1.
///
/// - `rx` (in): the line, asynchronous (two flip-flops synchronize it).
/// - `valid`, `data` (out): one clock per byte received, at the middle of
///   its stop bit; no backpressure (the user takes every byte).
/// - `frame_err` (out): one clock when a stop bit reads low; that byte is
///   dropped and the receiver waits for the line to go high.
///
/// A falling edge starts a byte; the line is sampled half a bit later
/// (still low: a start bit; high: a glitch, ignored), then once per bit
/// period at the middle of each bit. `rst` (synchronous) drops a byte in
/// progress. Latency: `valid` comes 2 clocks (the synchronizer) after the
/// middle of the stop bit on the line.
#[derive(LogicBlock)]
pub struct UartRx {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub rst: Signal<In, Bit>,
    /// Serial input, idle high.
    pub rx: Signal<In, Bit>,
    /// A byte is on `data` this clock.
    pub valid: Signal<Out, Bit>,
    /// The byte received.
    pub data: Signal<Out, Bits<8>>,
    /// A stop bit was low: the byte is dropped.
    pub frame_err: Signal<Out, Bit>,
    divisor_m1: Constant<Bits<16>>,
    half_m1: Constant<Bits<16>>,
    /// The synchronizer, inverted (a flip-flop starts at 0 and the idle
    /// line is high): `line_n` is the line's level, low when high.
    sync_n1: DFF<Bit>,
    line_n: DFF<Bit>,
    state: DFF<RxState>,
    /// Clocks left until the next sample.
    count: DFF<Bits<16>>,
    /// Data bits sampled so far in this byte.
    bits: DFF<Bits<3>>,
    shift: DFF<Bits<8>>,
    valid_r: DFF<Bit>,
    data_r: DFF<Bits<8>>,
    err_r: DFF<Bit>,
}

impl UartRx {
    /// A receiver of `divisor` clocks per bit (at least [`MIN_DIVISOR`]).
    pub fn new(divisor: u16) -> Self {
        check_divisor("UartRx", divisor);
        Self {
            clock: Default::default(),
            rst: Default::default(),
            rx: Default::default(),
            valid: Default::default(),
            data: Default::default(),
            frame_err: Default::default(),
            divisor_m1: Constant::new(((divisor - 1) as u64).into()),
            half_m1: Constant::new(((divisor / 2 - 1) as u64).into()),
            sync_n1: Default::default(),
            line_n: Default::default(),
            state: Default::default(),
            count: Default::default(),
            bits: Default::default(),
            shift: Default::default(),
            valid_r: Default::default(),
            data_r: Default::default(),
            err_r: Default::default(),
        }
    }
}

impl Logic for UartRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sync_n1, line_n, state, count, bits, shift, valid_r, data_r, err_r);
        self.sync_n1.d.next = !self.rx.val();
        self.line_n.d.next = self.sync_n1.q.val();
        self.valid_r.d.next = false;
        self.err_r.d.next = false;
        if self.count.q.val() != 0 {
            self.count.d.next = self.count.q.val() - 1;
        }
        match self.state.q.val() {
            RxState::Idle => {
                if self.line_n.q.val() {
                    self.count.d.next = self.half_m1.val();
                    self.state.d.next = RxState::Start;
                }
            }
            RxState::Start => {
                if self.count.q.val() == 0 {
                    if self.line_n.q.val() {
                        self.count.d.next = self.divisor_m1.val();
                        self.bits.d.next = 0.into();
                        self.state.d.next = RxState::Data;
                    } else {
                        self.state.d.next = RxState::Idle;
                    }
                }
            }
            RxState::Data => {
                if self.count.q.val() == 0 {
                    // Least significant bit first: each bit enters at the top.
                    if self.line_n.q.val() {
                        self.shift.d.next = self.shift.q.val() >> 1;
                    } else {
                        self.shift.d.next = (self.shift.q.val() >> 1) | 0x80;
                    }
                    self.count.d.next = self.divisor_m1.val();
                    self.bits.d.next = self.bits.q.val() + 1;
                    if self.bits.q.val() == 7 {
                        self.state.d.next = RxState::Stop;
                    }
                }
            }
            RxState::Stop => {
                if self.count.q.val() == 0 {
                    if self.line_n.q.val() {
                        self.err_r.d.next = true;
                        self.state.d.next = RxState::Break;
                    } else {
                        self.valid_r.d.next = true;
                        self.data_r.d.next = self.shift.q.val();
                        self.state.d.next = RxState::Idle;
                    }
                }
            }
            RxState::Break => {
                if !self.line_n.q.val() {
                    self.state.d.next = RxState::Idle;
                }
            }
            _ => {
                self.state.d.next = RxState::Idle;
            }
        }
        if self.rst.val() {
            self.state.d.next = RxState::Idle;
            self.valid_r.d.next = false;
            self.err_r.d.next = false;
        }
        self.valid.next = self.valid_r.q.val();
        self.data.next = self.data_r.q.val();
        self.frame_err.next = self.err_r.q.val();
    }
}

/// UART transmitter, 8N1.
///
/// - `valid`, `ready`, `data` (stream in): a byte to send; `ready` is high
///   while the transmitter is idle, and the byte is taken at the edge where
///   both are high.
/// - `tx` (out): the line, idle high, from a flip-flop.
///
/// A byte taken at edge `e` starts its start bit at edge `e + 1`; each bit
/// lasts `divisor` clocks; `ready` rises one clock after the stop bit ends,
/// so bytes sent back to back are 10 bit periods and one clock apart.
/// `rst` (synchronous) abandons a byte in progress and drives the line
/// high.
#[derive(LogicBlock)]
pub struct UartTx {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub rst: Signal<In, Bit>,
    /// A byte is offered.
    pub valid: Signal<In, Bit>,
    /// The transmitter takes a byte.
    pub ready: Signal<Out, Bit>,
    /// The byte offered.
    pub data: Signal<In, Bits<8>>,
    /// Serial output, idle high.
    pub tx: Signal<Out, Bit>,
    divisor_m1: Constant<Bits<16>>,
    busy: DFF<Bit>,
    /// Clocks left in the bit on the line.
    count: DFF<Bits<16>>,
    /// Bits left to put on the line, start and stop bits included.
    left: DFF<Bits<4>>,
    /// Stop bit, data bits and start bit, the next one in bit 0.
    shift: DFF<Bits<10>>,
    /// The line, inverted (a flip-flop starts at 0; the idle line is high).
    line_n: DFF<Bit>,
}

impl UartTx {
    /// A transmitter of `divisor` clocks per bit (at least [`MIN_DIVISOR`]).
    pub fn new(divisor: u16) -> Self {
        check_divisor("UartTx", divisor);
        Self {
            clock: Default::default(),
            rst: Default::default(),
            valid: Default::default(),
            ready: Default::default(),
            data: Default::default(),
            tx: Default::default(),
            divisor_m1: Constant::new(((divisor - 1) as u64).into()),
            busy: Default::default(),
            count: Default::default(),
            left: Default::default(),
            shift: Default::default(),
            line_n: Default::default(),
        }
    }
}

impl Logic for UartTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy, count, left, shift, line_n);
        self.ready.next = !self.busy.q.val();
        if self.busy.q.val() {
            if self.count.q.val() != 0 {
                self.count.d.next = self.count.q.val() - 1;
            } else if self.left.q.val() == 0 {
                self.busy.d.next = false;
            } else {
                self.line_n.d.next = !self.shift.q.val().get_bit(0);
                self.shift.d.next = self.shift.q.val() >> 1;
                self.left.d.next = self.left.q.val() - 1;
                self.count.d.next = self.divisor_m1.val();
            }
        } else if self.valid.val() {
            // Stop bit (1), the byte, start bit (0).
            self.shift.d.next = (bit_cast::<10, 8>(self.data.val()) << 1) | 0x200;
            self.left.d.next = 10.into();
            self.count.d.next = 0.into();
            self.busy.d.next = true;
        }
        if self.rst.val() {
            self.busy.d.next = false;
            self.line_n.d.next = false;
        }
        self.tx.next = !self.line_n.q.val();
    }
}
