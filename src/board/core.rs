//! The board-independent part of a board design: `odp_mmu` with host
//! memory in block RAM and the serial bridge, on one clock. A board top
//! ([`crate::board::versa::Versa`]) adds its clock, reset and pins.

use rust_hdl::prelude::*;

use crate::board::bridge::UartBridge;
use crate::board::interfaces::{
    AxiLiteMaster, AxiSlave, MemPortOut, NakIn, WakeIn, XReqOut, XRspIn,
};
use crate::board::memory::BoardMemory;
use crate::params::Params;
use crate::top::SmallOdpMmu;

/// log2 of the board memory's 64-bit words: 4096 words, 32 KiB at
/// physical address 0 (16 DP16KD).
pub const MEM_WORD_BITS: usize = 12;
/// Bytes of board memory.
pub const MEM_BYTES: u32 = 8 << MEM_WORD_BITS;
/// Clocks `rst` is held, at least, after the reset request falls (and
/// after configuration).
pub const RESET_CLOCKS: u64 = 15;

/// The LEDs of [`BoardCore::leds`], by bit (on = high).
pub mod led {
    /// Blinks while the clock runs (a counter's bit 25: 0.67 s on, 0.67 s
    /// off at 50 MHz).
    pub const HEARTBEAT: usize = 0;
    /// The core's `irq`: unconsumed events with interrupts enabled.
    pub const IRQ: usize = 1;
    /// An error flag of the bridge is set (a bad serial byte, a memory
    /// error answered to the core, a FATAL response), until a status read.
    pub const ERROR: usize = 2;
    /// A NAK waits in the bridge's FIFO.
    pub const NAK: usize = 3;
    /// A response waits in the bridge's FIFO.
    pub const RESPONSE: usize = 4;
    /// A pushed request waits on `s_xreq`.
    pub const REQUEST: usize = 5;
    /// The core is held in reset.
    pub const RESET: usize = 6;
}

/// `odp_mmu` (the small preset, [`SmallOdpMmu`]), a [`BoardMemory`] of
/// [`MEM_BYTES`] behind its AXI4 master, and a [`UartBridge`] that reaches
/// its registers, the memory and its streams from a serial line.
///
/// - `clk`: the one clock.
/// - `rst_in` (in): reset request, asynchronous, active high (a button, a
///   PLL not locked): synchronized by two flip-flops, then held
///   [`RESET_CLOCKS`] clocks; after configuration the same holds.
/// - `uart_rx`, `uart_tx`: the bridge's serial line.
/// - `leds` (out, high = on): [`led`].
///
/// `s_done` is tied off (no DMA engine on the board). The memory is never
/// reset: the core completes the AXI4 bursts it has started across its own
/// reset, and the memory serves them.
#[derive(LogicBlock)]
pub struct BoardCore {
    /// Clock.
    pub clk: Signal<In, Clock>,
    /// Reset request, asynchronous, active high.
    pub rst_in: Signal<In, Bit>,
    /// Serial input (from the host).
    pub uart_rx: Signal<In, Bit>,
    /// Serial output (to the host).
    pub uart_tx: Signal<Out, Bit>,
    /// Status LEDs ([`led`]), high = on.
    pub leds: Signal<Out, Bits<7>>,
    mmu: SmallOdpMmu,
    mem: BoardMemory<MEM_WORD_BITS>,
    bridge: UartBridge,
    rst_s1: DFF<Bit>,
    rst_s2: DFF<Bit>,
    /// Counts to 15 out of reset; 0 at configuration.
    por: DFF<Bits<4>>,
    beat: DFF<Bits<26>>,
    sys_rst: Signal<Local, Bit>,
    leds_l: Signal<Local, Bits<7>>,
}

impl BoardCore {
    /// The board core with a UART of `divisor` clocks per bit.
    pub fn new(divisor: u16) -> Self {
        Self {
            clk: Default::default(),
            rst_in: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            leds: Default::default(),
            mmu: SmallOdpMmu::new(&Params::small()),
            mem: BoardMemory::new(),
            bridge: UartBridge::new(divisor, MEM_BYTES),
            rst_s1: Default::default(),
            rst_s2: Default::default(),
            por: Default::default(),
            beat: Default::default(),
            sys_rst: Default::default(),
            leds_l: Default::default(),
        }
    }
}

impl Logic for BoardCore {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, rst_s1, rst_s2, por, beat);
        self.mmu.clk.next = self.clk.val();
        self.mem.clock.next = self.clk.val();
        self.bridge.clock.next = self.clk.val();

        // Reset: synchronized, then held 15 clocks (= RESET_CLOCKS).
        self.rst_s1.d.next = self.rst_in.val();
        self.rst_s2.d.next = self.rst_s1.q.val();
        if self.rst_s2.q.val() {
            self.por.d.next = 0.into();
        } else if self.por.q.val() != 15 {
            self.por.d.next = self.por.q.val() + 1;
        }
        self.sys_rst.next = self.por.q.val() != 15;
        self.mmu.rst.next = self.sys_rst.val() | self.bridge.core_rst.val();
        self.bridge.rst.next = self.sys_rst.val();
        self.mem.rst.next = false;

        AxiLiteMaster::join(&mut self.bridge.m_axil, &mut self.mmu.s_axil);
        AxiSlave::join(&mut self.mem.s_axi, &mut self.mmu.m_axi);
        MemPortOut::join(&mut self.bridge.mem, &mut self.mem.host);
        XReqOut::join(&mut self.bridge.m_xreq, &mut self.mmu.s_xreq);
        XRspIn::join(&mut self.bridge.s_xrsp, &mut self.mmu.m_xrsp);
        NakIn::join(&mut self.bridge.s_nak, &mut self.mmu.m_nak);
        WakeIn::join(&mut self.bridge.s_wake, &mut self.mmu.m_wake);
        self.mmu.s_done.valid.next = false;
        self.mmu.s_done.epoch.next = 0.into();
        self.bridge.irq.next = self.mmu.irq.val();
        self.bridge.mem_err.next = self.mem.err.val();
        self.bridge.rx.next = self.uart_rx.val();
        self.uart_tx.next = self.bridge.tx.val();

        self.beat.d.next = self.beat.q.val() + 1;
        self.leds_l.next = 0.into();
        if self.beat.q.val().get_bit(25) {
            self.leds_l.next = self.leds_l.val() | 0x01; // = led::HEARTBEAT
        }
        if self.mmu.irq.val() {
            self.leds_l.next = self.leds_l.val() | 0x02; // = led::IRQ
        }
        if self.bridge.err.val() {
            self.leds_l.next = self.leds_l.val() | 0x04; // = led::ERROR
        }
        if self.bridge.nak_waiting.val() {
            self.leds_l.next = self.leds_l.val() | 0x08; // = led::NAK
        }
        if self.bridge.rsp_waiting.val() {
            self.leds_l.next = self.leds_l.val() | 0x10; // = led::RESPONSE
        }
        if self.bridge.xreq_waiting.val() {
            self.leds_l.next = self.leds_l.val() | 0x20; // = led::REQUEST
        }
        if self.sys_rst.val() | self.bridge.core_rst.val() {
            self.leds_l.next = self.leds_l.val() | 0x40; // = led::RESET
        }
        self.leds.next = self.leds_l.val();
    }
}
