#![doc = include_str!("../../docs/bridge.md")]

use rust_hdl::prelude::*;

use crate::board::interfaces::{AxiLiteMaster, MemPortOut, NakIn, WakeIn, XReqOut, XRspIn};
use crate::board::uart::{UartRx, UartTx};
use crate::common::fifo::SmallFifo;

/// The protocol version [`cmd::STATUS`] reports (byte 0 of its record).
pub const VERSION: u8 = 1;

/// Command bytes. Bit 0 is the command's class, for every byte, known or
/// not: clear, a write (`LEN` payload bytes follow the header); set, a read
/// (no payload; the answer carries `LEN` bytes).
pub mod cmd {
    /// Read: the bridge's status record ([`super::STATUS_BYTES`] bytes).
    pub const STATUS: u8 = 0x01;
    /// Write: one 32-bit register of the core at `ADDR` (4 bytes).
    pub const CSR_WRITE: u8 = 0x02;
    /// Read: one 32-bit register of the core at `ADDR` (4 bytes).
    pub const CSR_READ: u8 = 0x03;
    /// Write: `LEN` / 8 words of board memory from byte address `ADDR`.
    pub const MEM_WRITE: u8 = 0x04;
    /// Read: `LEN` / 8 words of board memory from byte address `ADDR`.
    pub const MEM_READ: u8 = 0x05;
    /// Write: a translation request for `s_xreq`
    /// ([`super::XREQ_BYTES`] bytes).
    pub const XREQ_PUSH: u8 = 0x06;
    /// Read: the oldest captured `m_xrsp` beat ([`super::XRSP_BYTES`]).
    pub const XRSP_POP: u8 = 0x07;
    /// Read: the oldest captured `m_nak` NAK ([`super::NAK_BYTES`]).
    pub const NAK_POP: u8 = 0x09;
    /// Read: the oldest captured `m_wake` wake ([`super::WAKE_BYTES`]).
    pub const WAKE_POP: u8 = 0x0B;
    /// Write, no payload: resets the core (and the capture FIFOs and the
    /// waiting request).
    pub const RESET: u8 = 0x0C;
}

/// Status bytes: the second byte of every answer.
pub mod answer {
    /// Done; a read's data follows.
    pub const OK: u8 = 0x00;
    /// No command has this byte; the frame was skipped by its class.
    pub const BAD_CMD: u8 = 0x01;
    /// `LEN` is not legal for the command; nothing was done.
    pub const BAD_LEN: u8 = 0x02;
    /// `ADDR` is unaligned or beyond the space; nothing was done.
    pub const BAD_ADDR: u8 = 0x03;
    /// The core's AXI4-Lite slave answered SLVERR or DECERR.
    pub const BUS_ERR: u8 = 0x04;
    /// A pop found its FIFO empty.
    pub const EMPTY: u8 = 0x05;
    /// A push found the previous request still waiting on `s_xreq`;
    /// nothing changed.
    pub const BUSY: u8 = 0x06;
}

/// Bytes of a frame's header: the command byte, `ADDR` (4 bytes, little
/// endian) and `LEN`.
pub const HEADER_BYTES: usize = 6;
/// [`cmd::STATUS`] record bytes.
pub const STATUS_BYTES: usize = 8;
/// [`cmd::CSR_WRITE`] / [`cmd::CSR_READ`] data bytes.
pub const CSR_BYTES: usize = 4;
/// The most bytes one [`cmd::MEM_WRITE`] / [`cmd::MEM_READ`] moves (31
/// words; `LEN` is one byte and a multiple of 8).
pub const MEM_MAX_BYTES: usize = 248;
/// [`cmd::XREQ_PUSH`] record bytes.
pub const XREQ_BYTES: usize = 34;
/// [`cmd::XRSP_POP`] record bytes.
pub const XRSP_BYTES: usize = 14;
/// [`cmd::NAK_POP`] record bytes.
pub const NAK_BYTES: usize = 19;
/// [`cmd::WAKE_POP`] record bytes.
pub const WAKE_BYTES: usize = 3;
/// Entries of each capture FIFO (responses, NAKs, wakes).
pub const CAPTURE_DEPTH: usize = 8;
/// Bytes the receive FIFO holds while the bridge is busy.
pub const RX_FIFO_BYTES: usize = 16;
/// Clocks the core's reset is held after [`cmd::RESET`].
pub const RESET_CLOCKS: u64 = 15;

/// [`cmd::STATUS`] record byte 1.
pub mod flag {
    /// The core's `irq`.
    pub const IRQ: u8 = 1 << 0;
    /// A pushed request still waits on `s_xreq`.
    pub const XREQ_WAITING: u8 = 1 << 1;
    /// The core is held in reset.
    pub const CORE_RESET: u8 = 1 << 2;
    /// Since the last status read: a byte's stop bit was low, or a byte
    /// arrived with the receive FIFO full (it was dropped).
    pub const RX_ERROR: u8 = 1 << 3;
    /// Since the last status read: the board memory answered the core's
    /// AXI4 master with an error (an access beyond the memory).
    pub const MEM_ERROR: u8 = 1 << 4;
    /// Since the last status read: a FATAL response was captured.
    pub const FATAL_SEEN: u8 = 1 << 5;
}

/// Where the bridge is in a frame.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum BridgeState {
    /// Waits for a command byte.
    Cmd,
    /// Takes `ADDR` (4 bytes) and `LEN`.
    Hdr,
    /// Checks the command, `LEN` and `ADDR` into `status`.
    Check,
    /// Takes a write's payload (a bad command's too, to skip it).
    Payload,
    /// Writes a MEM_WRITE word that just came in.
    MemWrite,
    /// Carries the command out.
    Exec,
    /// CSR_WRITE: AW and W until taken, then B.
    LiteW,
    /// CSR_READ: AR until taken, then R.
    LiteR,
    /// Sends the command byte back.
    SendEcho,
    /// Sends the status byte.
    SendStatus,
    /// Sends the answer's data bytes, `tn` of them from `tsr`.
    SendData,
    /// MEM_READ: asks the memory for the next word.
    MemRead,
    /// MEM_READ: waits for the word.
    MemReadWait,
}

/// The serial bridge between a host and the board around `odp_mmu`: a
/// UART (8N1) and a byte protocol that reach the core's AXI4-Lite
/// registers, the board memory, the request stream `s_xreq` and, through
/// capture FIFOs, the streams `m_xrsp`, `m_nak` and `m_wake`. The protocol
/// is on the module page (`docs/bridge.md`).
///
/// # Ports
///
/// - `rx`, `tx`: the serial line (`rx` asynchronous; `tx` from a
///   flip-flop, idle high).
/// - `m_axil_*`: AXI4-Lite master to the core's `s_axil_*`, one access at
///   a time.
/// - `mem_*`: the board memory's word port ([`MemPortOut`]).
/// - `m_xreq_*` (stream out): a pushed request, held until taken.
/// - `s_xrsp_*`, `s_nak_*`, `s_wake_*` (streams in): each captured into a
///   FIFO of [`CAPTURE_DEPTH`] entries the host pops; `ready` is low while
///   its FIFO is full, so nothing is lost.
/// - `irq`, `mem_err` (in): the core's interrupt and the memory's error
///   pulse, reported by [`cmd::STATUS`].
/// - `core_rst` (out): the core's reset request, [`RESET_CLOCKS`] clocks
///   after [`cmd::RESET`].
/// - `err`, `xreq_waiting`, `rsp_waiting`, `nak_waiting` (out): for LEDs:
///   an error flag is set ([`flag`]), a request waits on `s_xreq`, a
///   response / NAK waits in its FIFO.
///
/// `rst` (synchronous) resets the bridge, its FIFOs and its UART; it does
/// not raise `core_rst`.
#[derive(LogicBlock)]
pub struct UartBridge {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub rst: Signal<In, Bit>,
    /// Serial input (from the host).
    pub rx: Signal<In, Bit>,
    /// Serial output (to the host).
    pub tx: Signal<Out, Bit>,
    /// AXI4-Lite master: the core's registers.
    pub m_axil: AxiLiteMaster,
    /// The board memory's word port.
    pub mem: MemPortOut,
    /// Requests to the core's `s_xreq`.
    pub m_xreq: XReqOut,
    /// The core's responses, captured.
    pub s_xrsp: XRspIn,
    /// The core's NAKs, captured.
    pub s_nak: NakIn,
    /// The core's wakes, captured.
    pub s_wake: WakeIn,
    /// The core's interrupt.
    pub irq: Signal<In, Bit>,
    /// The board memory answered the core with an error (pulse).
    pub mem_err: Signal<In, Bit>,
    /// Reset request for the core.
    pub core_rst: Signal<Out, Bit>,
    /// An error flag is set (see [`flag`]).
    pub err: Signal<Out, Bit>,
    /// A pushed request waits on `s_xreq`.
    pub xreq_waiting: Signal<Out, Bit>,
    /// A response waits in its FIFO.
    pub rsp_waiting: Signal<Out, Bit>,
    /// A NAK waits in its FIFO.
    pub nak_waiting: Signal<Out, Bit>,
    urx: UartRx,
    utx: UartTx,
    rx_fifo: SmallFifo<Bits<8>, 16, 4, 5>,
    rsp_fifo: SmallFifo<Bits<112>, 8, 3, 4>,
    nak_fifo: SmallFifo<Bits<152>, 8, 3, 4>,
    wake_fifo: SmallFifo<Bits<24>, 8, 3, 4>,
    /// Bytes of board memory: the end a MEM access may reach.
    mem_bytes: Constant<Bits<33>>,
    state: DFF<BridgeState>,
    cmd: DFF<Bits<8>>,
    addr: DFF<Bits<32>>,
    len: DFF<Bits<8>>,
    /// Header or payload bytes taken.
    cnt: DFF<Bits<8>>,
    status: DFF<Bits<8>>,
    /// The payload, each byte entering at the top.
    rsr: DFF<Bits<272>>,
    /// The answer's data, next byte in bits 7:0.
    tsr: DFF<Bits<152>>,
    /// Bytes left in `tsr`.
    tn: DFF<Bits<5>>,
    /// MEM_READ bytes not yet fetched.
    left: DFF<Bits<8>>,
    aw_p: DFF<Bit>,
    w_p: DFF<Bit>,
    ar_p: DFF<Bit>,
    mem_req: DFF<Bit>,
    mem_we: DFF<Bit>,
    /// The pushed request and whether it waits on `s_xreq`.
    xq: DFF<Bits<272>>,
    xq_valid: DFF<Bit>,
    /// Clocks left of the core's reset.
    rst_cnt: DFF<Bits<4>>,
    rx_err_s: DFF<Bit>,
    mem_err_s: DFF<Bit>,
    fatal_s: DFF<Bit>,
    /// The status the checks give the frame in `Check`.
    chk: Signal<Local, Bits<8>>,
    /// `ADDR + LEN`: where a MEM access ends.
    mem_end: Signal<Local, Bits<33>>,
    /// The next received byte, and whether there is one.
    rx_byte: Signal<Local, Bits<8>>,
    have: Signal<Local, Bit>,
    cnt1: Signal<Local, Bits<8>>,
    last_b: Signal<Local, Bits<8>>,
    rsp_rec: Signal<Local, Bits<112>>,
    nak_rec: Signal<Local, Bits<152>>,
    flags: Signal<Local, Bits<8>>,
    fifo_rst: Signal<Local, Bit>,
}

impl UartBridge {
    /// A bridge with a UART of `divisor` clocks per bit (see
    /// [`crate::board::uart::MIN_DIVISOR`]) in front of a board memory of
    /// `mem_bytes` bytes (a multiple of 8; MEM commands beyond it answer
    /// BAD_ADDR).
    pub fn new(divisor: u16, mem_bytes: u32) -> Self {
        assert!(
            mem_bytes.is_multiple_of(8) && mem_bytes > 0,
            "UartBridge: mem_bytes must be a non-zero multiple of 8, got {mem_bytes}"
        );
        Self {
            clock: Default::default(),
            rst: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            m_axil: Default::default(),
            mem: Default::default(),
            m_xreq: Default::default(),
            s_xrsp: Default::default(),
            s_nak: Default::default(),
            s_wake: Default::default(),
            irq: Default::default(),
            mem_err: Default::default(),
            core_rst: Default::default(),
            err: Default::default(),
            xreq_waiting: Default::default(),
            rsp_waiting: Default::default(),
            nak_waiting: Default::default(),
            urx: UartRx::new(divisor),
            utx: UartTx::new(divisor),
            rx_fifo: Default::default(),
            rsp_fifo: Default::default(),
            nak_fifo: Default::default(),
            wake_fifo: Default::default(),
            mem_bytes: Constant::new((mem_bytes as u64).into()),
            state: Default::default(),
            cmd: Default::default(),
            addr: Default::default(),
            len: Default::default(),
            cnt: Default::default(),
            status: Default::default(),
            rsr: Default::default(),
            tsr: Default::default(),
            tn: Default::default(),
            left: Default::default(),
            aw_p: Default::default(),
            w_p: Default::default(),
            ar_p: Default::default(),
            mem_req: Default::default(),
            mem_we: Default::default(),
            xq: Default::default(),
            xq_valid: Default::default(),
            rst_cnt: Default::default(),
            rx_err_s: Default::default(),
            mem_err_s: Default::default(),
            fatal_s: Default::default(),
            chk: Default::default(),
            mem_end: Default::default(),
            rx_byte: Default::default(),
            have: Default::default(),
            cnt1: Default::default(),
            last_b: Default::default(),
            rsp_rec: Default::default(),
            nak_rec: Default::default(),
            flags: Default::default(),
            fifo_rst: Default::default(),
        }
    }
}

impl Logic for UartBridge {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, cmd, addr, len, cnt, status, rsr, tsr, tn, left, aw_p, w_p, ar_p,
            mem_req, mem_we, xq, xq_valid, rst_cnt, rx_err_s, mem_err_s, fatal_s
        );
        clock!(self, clock, urx, utx, rx_fifo, rsp_fifo, nak_fifo, wake_fifo);
        self.urx.rst.next = self.rst.val();
        self.utx.rst.next = self.rst.val();
        self.rx_fifo.rst.next = self.rst.val();
        self.fifo_rst.next = self.rst.val() | (self.rst_cnt.q.val() != 0);
        self.rsp_fifo.rst.next = self.fifo_rst.val();
        self.nak_fifo.rst.next = self.fifo_rst.val();
        self.wake_fifo.rst.next = self.fifo_rst.val();

        // ---- Receive: UART -> receive FIFO -> the frame parser.
        self.urx.rx.next = self.rx.val();
        self.rx_fifo.push.next = self.urx.valid.val();
        self.rx_fifo.data_in.next = self.urx.data.val();
        self.rx_fifo.pop.next = false;
        self.rx_byte.next = self.rx_fifo.data_out.val();
        self.have.next = !self.rx_fifo.empty.val();

        // ---- Capture FIFOs: each stream's record as the host reads it
        // (docs/bridge.md, Records); ready while there is room.
        self.last_b.next = 0.into();
        if self.s_xrsp.last.val() {
            self.last_b.next = 1.into();
        }
        self.rsp_rec.next = bit_cast::<112, 8>(self.s_xrsp.tag.val())
            | (bit_cast::<112, 3>(self.s_xrsp.status.val()) << 8)
            | (bit_cast::<112, 64>(self.s_xrsp.pa.val()) << 16)
            | (bit_cast::<112, 13>(self.s_xrsp.seg_len.val()) << 80)
            | (bit_cast::<112, 8>(self.last_b.val()) << 96)
            | (bit_cast::<112, 8>(self.s_xrsp.epoch.val()) << 104);
        self.nak_rec.next = bit_cast::<152, 24>(self.s_nak.qpn.val())
            | (bit_cast::<152, 128>(self.s_nak.hdr.val()) << 24);
        self.s_xrsp.ready.next = !self.rsp_fifo.full.val();
        self.rsp_fifo.push.next = self.s_xrsp.valid.val() & !self.rsp_fifo.full.val();
        self.rsp_fifo.data_in.next = self.rsp_rec.val();
        self.rsp_fifo.pop.next = false;
        self.s_nak.ready.next = !self.nak_fifo.full.val();
        self.nak_fifo.push.next = self.s_nak.valid.val() & !self.nak_fifo.full.val();
        self.nak_fifo.data_in.next = self.nak_rec.val();
        self.nak_fifo.pop.next = false;
        self.s_wake.ready.next = !self.wake_fifo.full.val();
        self.wake_fifo.push.next = self.s_wake.valid.val() & !self.wake_fifo.full.val();
        self.wake_fifo.data_in.next = self.s_wake.qpn.val();
        self.wake_fifo.pop.next = false;

        // ---- The frame's checks, from the registered header.
        self.mem_end.next =
            bit_cast::<33, 32>(self.addr.q.val()) + bit_cast::<33, 8>(self.len.q.val());
        self.chk.next = 0.into(); // = answer::OK
        if self.cmd.q.val() == 0x01 {
            // = cmd::STATUS
            if self.len.q.val() != 8 {
                self.chk.next = 2.into(); // = answer::BAD_LEN
            }
        } else if (self.cmd.q.val() == 0x02) | (self.cmd.q.val() == 0x03) {
            // = cmd::CSR_WRITE, cmd::CSR_READ
            if self.len.q.val() != 4 {
                self.chk.next = 2.into(); // = answer::BAD_LEN
            } else if self.addr.q.val().get_bits::<16>(16).any()
                | self.addr.q.val().get_bits::<2>(0).any()
            {
                self.chk.next = 3.into(); // = answer::BAD_ADDR
            }
        } else if (self.cmd.q.val() == 0x04) | (self.cmd.q.val() == 0x05) {
            // = cmd::MEM_WRITE, cmd::MEM_READ
            if (self.len.q.val() == 0) | self.len.q.val().get_bits::<3>(0).any() {
                self.chk.next = 2.into(); // = answer::BAD_LEN
            } else if self.addr.q.val().get_bits::<3>(0).any()
                | (self.mem_end.val() > self.mem_bytes.val())
            {
                self.chk.next = 3.into(); // = answer::BAD_ADDR
            }
        } else if self.cmd.q.val() == 0x06 {
            // = cmd::XREQ_PUSH
            if self.len.q.val() != 34 {
                // = XREQ_BYTES
                self.chk.next = 2.into(); // = answer::BAD_LEN
            }
        } else if self.cmd.q.val() == 0x07 {
            // = cmd::XRSP_POP
            if self.len.q.val() != 14 {
                // = XRSP_BYTES
                self.chk.next = 2.into(); // = answer::BAD_LEN
            }
        } else if self.cmd.q.val() == 0x09 {
            // = cmd::NAK_POP
            if self.len.q.val() != 19 {
                // = NAK_BYTES
                self.chk.next = 2.into(); // = answer::BAD_LEN
            }
        } else if self.cmd.q.val() == 0x0b {
            // = cmd::WAKE_POP
            if self.len.q.val() != 3 {
                // = WAKE_BYTES
                self.chk.next = 2.into(); // = answer::BAD_LEN
            }
        } else if self.cmd.q.val() == 0x0c {
            // = cmd::RESET
            if self.len.q.val() != 0 {
                self.chk.next = 2.into(); // = answer::BAD_LEN
            }
        } else {
            self.chk.next = 1.into(); // = answer::BAD_CMD
        }

        // ---- The status record's flags.
        self.flags.next = 0.into();
        if self.irq.val() {
            self.flags.next = self.flags.val() | 0x01; // = flag::IRQ
        }
        if self.xq_valid.q.val() {
            self.flags.next = self.flags.val() | 0x02; // = flag::XREQ_WAITING
        }
        if self.rst_cnt.q.val() != 0 {
            self.flags.next = self.flags.val() | 0x04; // = flag::CORE_RESET
        }
        if self.rx_err_s.q.val() {
            self.flags.next = self.flags.val() | 0x08; // = flag::RX_ERROR
        }
        if self.mem_err_s.q.val() {
            self.flags.next = self.flags.val() | 0x10; // = flag::MEM_ERROR
        }
        if self.fatal_s.q.val() {
            self.flags.next = self.flags.val() | 0x20; // = flag::FATAL_SEEN
        }

        // ---- The frame.
        self.cnt1.next = self.cnt.q.val() + 1;
        self.utx.valid.next = false;
        self.utx.data.next = self.cmd.q.val();
        match self.state.q.val() {
            BridgeState::Cmd => {
                if self.have.val() {
                    self.rx_fifo.pop.next = true;
                    self.cmd.d.next = self.rx_byte.val();
                    self.cnt.d.next = 0.into();
                    self.state.d.next = BridgeState::Hdr;
                }
            }
            BridgeState::Hdr => {
                if self.have.val() {
                    self.rx_fifo.pop.next = true;
                    if self.cnt.q.val() == 4 {
                        self.len.d.next = self.rx_byte.val();
                        self.state.d.next = BridgeState::Check;
                    } else {
                        // ADDR, least significant byte first.
                        self.addr.d.next = (self.addr.q.val() >> 8)
                            | (bit_cast::<32, 8>(self.rx_byte.val()) << 24);
                        self.cnt.d.next = self.cnt1.val();
                    }
                }
            }
            BridgeState::Check => {
                self.status.d.next = self.chk.val();
                self.cnt.d.next = 0.into();
                self.tn.d.next = 0.into();
                self.left.d.next = 0.into();
                self.state.d.next = BridgeState::Exec;
                // A write class command (bit 0 clear) brings LEN bytes,
                // whether or not it is known and good.
                if !self.cmd.q.val().get_bit(0) & (self.len.q.val() != 0) {
                    self.state.d.next = BridgeState::Payload;
                }
            }
            BridgeState::Payload => {
                if self.have.val() {
                    self.rx_fifo.pop.next = true;
                    self.rsr.d.next =
                        (self.rsr.q.val() >> 8) | (bit_cast::<272, 8>(self.rx_byte.val()) << 264);
                    self.cnt.d.next = self.cnt1.val();
                    if (self.cmd.q.val() == 0x04) // = cmd::MEM_WRITE
                        & (self.status.q.val() == 0) // = answer::OK
                        & (self.cnt.q.val().get_bits::<3>(0) == 7)
                    {
                        // A word is in: write it (bytes still coming wait
                        // in the receive FIFO).
                        self.mem_req.d.next = true;
                        self.mem_we.d.next = true;
                        self.state.d.next = BridgeState::MemWrite;
                    } else if self.cnt1.val() == self.len.q.val() {
                        self.state.d.next = BridgeState::Exec;
                    }
                }
            }
            BridgeState::MemWrite => {
                if self.mem.ready.val() {
                    self.mem_req.d.next = false;
                    self.addr.d.next = self.addr.q.val() + 8;
                    self.state.d.next = BridgeState::Payload;
                    if self.cnt.q.val() == self.len.q.val() {
                        self.state.d.next = BridgeState::Exec;
                    }
                }
            }
            BridgeState::Exec => {
                self.state.d.next = BridgeState::SendEcho;
                if self.status.q.val() == 0 {
                    // = answer::OK
                    if self.cmd.q.val() == 0x01 {
                        // = cmd::STATUS: version, flags, FIFO counts.
                        self.tsr.d.next = (bit_cast::<152, 8>(self.flags.val()) << 8)
                            | (bit_cast::<152, 4>(self.rsp_fifo.count.val()) << 16)
                            | (bit_cast::<152, 4>(self.nak_fifo.count.val()) << 24)
                            | (bit_cast::<152, 4>(self.wake_fifo.count.val()) << 32)
                            | 1; // = VERSION
                        self.tn.d.next = 8.into(); // = STATUS_BYTES
                        self.rx_err_s.d.next = false;
                        self.mem_err_s.d.next = false;
                        self.fatal_s.d.next = false;
                    } else if self.cmd.q.val() == 0x02 {
                        // = cmd::CSR_WRITE
                        self.aw_p.d.next = true;
                        self.w_p.d.next = true;
                        self.state.d.next = BridgeState::LiteW;
                    } else if self.cmd.q.val() == 0x03 {
                        // = cmd::CSR_READ
                        self.ar_p.d.next = true;
                        self.state.d.next = BridgeState::LiteR;
                    } else if self.cmd.q.val() == 0x05 {
                        // = cmd::MEM_READ: words are fetched as they go out.
                        self.left.d.next = self.len.q.val();
                    } else if self.cmd.q.val() == 0x06 {
                        // = cmd::XREQ_PUSH
                        if self.xq_valid.q.val() {
                            self.status.d.next = 6.into(); // = answer::BUSY
                        } else {
                            self.xq.d.next = self.rsr.q.val();
                            self.xq_valid.d.next = true;
                        }
                    } else if self.cmd.q.val() == 0x07 {
                        // = cmd::XRSP_POP
                        if self.rsp_fifo.empty.val() {
                            self.status.d.next = 5.into(); // = answer::EMPTY
                        } else {
                            self.tsr.d.next = bit_cast::<152, 112>(self.rsp_fifo.data_out.val());
                            self.tn.d.next = 14.into(); // = XRSP_BYTES
                            self.rsp_fifo.pop.next = true;
                        }
                    } else if self.cmd.q.val() == 0x09 {
                        // = cmd::NAK_POP
                        if self.nak_fifo.empty.val() {
                            self.status.d.next = 5.into(); // = answer::EMPTY
                        } else {
                            self.tsr.d.next = self.nak_fifo.data_out.val();
                            self.tn.d.next = 19.into(); // = NAK_BYTES
                            self.nak_fifo.pop.next = true;
                        }
                    } else if self.cmd.q.val() == 0x0b {
                        // = cmd::WAKE_POP
                        if self.wake_fifo.empty.val() {
                            self.status.d.next = 5.into(); // = answer::EMPTY
                        } else {
                            self.tsr.d.next = bit_cast::<152, 24>(self.wake_fifo.data_out.val());
                            self.tn.d.next = 3.into(); // = WAKE_BYTES
                            self.wake_fifo.pop.next = true;
                        }
                    } else if self.cmd.q.val() == 0x0c {
                        // = cmd::RESET
                        self.rst_cnt.d.next = 15.into(); // = RESET_CLOCKS
                    }
                }
            }
            BridgeState::LiteW => {
                if self.m_axil.awready.val() {
                    self.aw_p.d.next = false;
                }
                if self.m_axil.wready.val() {
                    self.w_p.d.next = false;
                }
                if self.m_axil.bvalid.val() {
                    if self.m_axil.bresp.val() != 0 {
                        self.status.d.next = 4.into(); // = answer::BUS_ERR
                    }
                    self.state.d.next = BridgeState::SendEcho;
                }
            }
            BridgeState::LiteR => {
                if self.m_axil.arready.val() {
                    self.ar_p.d.next = false;
                }
                if self.m_axil.rvalid.val() {
                    if self.m_axil.rresp.val() != 0 {
                        self.status.d.next = 4.into(); // = answer::BUS_ERR
                    } else {
                        self.tsr.d.next = bit_cast::<152, 32>(self.m_axil.rdata.val());
                        self.tn.d.next = 4.into(); // = CSR_BYTES
                    }
                    self.state.d.next = BridgeState::SendEcho;
                }
            }
            BridgeState::SendEcho => {
                self.utx.valid.next = true;
                if self.utx.ready.val() {
                    self.state.d.next = BridgeState::SendStatus;
                }
            }
            BridgeState::SendStatus => {
                self.utx.valid.next = true;
                self.utx.data.next = self.status.q.val();
                if self.utx.ready.val() {
                    self.state.d.next = BridgeState::Cmd;
                    if self.status.q.val() == 0 {
                        // = answer::OK
                        if self.tn.q.val() != 0 {
                            self.state.d.next = BridgeState::SendData;
                        } else if self.left.q.val() != 0 {
                            self.mem_req.d.next = true;
                            self.mem_we.d.next = false;
                            self.state.d.next = BridgeState::MemRead;
                        }
                    }
                }
            }
            BridgeState::SendData => {
                self.utx.valid.next = true;
                self.utx.data.next = self.tsr.q.val().get_bits::<8>(0);
                if self.utx.ready.val() {
                    self.tsr.d.next = self.tsr.q.val() >> 8;
                    self.tn.d.next = self.tn.q.val() - 1;
                    if self.tn.q.val() == 1 {
                        self.state.d.next = BridgeState::Cmd;
                        if self.left.q.val() != 0 {
                            self.mem_req.d.next = true;
                            self.mem_we.d.next = false;
                            self.state.d.next = BridgeState::MemRead;
                        }
                    }
                }
            }
            BridgeState::MemRead => {
                if self.mem.ready.val() {
                    self.mem_req.d.next = false;
                    self.state.d.next = BridgeState::MemReadWait;
                }
            }
            BridgeState::MemReadWait => {
                if self.mem.rvalid.val() {
                    self.tsr.d.next = bit_cast::<152, 64>(self.mem.rdata.val());
                    self.tn.d.next = 8.into();
                    self.left.d.next = self.left.q.val() - 8;
                    self.addr.d.next = self.addr.q.val() + 8;
                    self.state.d.next = BridgeState::SendData;
                }
            }
            _ => {
                self.state.d.next = BridgeState::Cmd;
            }
        }

        // ---- Error flags: set after the match, so that an error in the
        // clock a status read clears them is kept for the next read.
        if self.urx.frame_err.val() | self.rx_fifo.overflow.val() {
            self.rx_err_s.d.next = true;
        }
        if self.rsp_fifo.push.val() & (self.s_xrsp.status.val() == 5) {
            // = status::FATAL
            self.fatal_s.d.next = true;
        }
        if self.mem_err.val() {
            self.mem_err_s.d.next = true;
        }

        // ---- The core's ports.
        self.m_axil.awaddr.next = self.addr.q.val().get_bits::<16>(0);
        self.m_axil.awprot.next = 0.into();
        self.m_axil.awvalid.next = self.aw_p.q.val();
        self.m_axil.wdata.next = self.rsr.q.val().get_bits::<32>(240);
        self.m_axil.wstrb.next = 0xf.into();
        self.m_axil.wvalid.next = self.w_p.q.val();
        self.m_axil.bready.next = self.state.q.val() == BridgeState::LiteW;
        self.m_axil.araddr.next = self.addr.q.val().get_bits::<16>(0);
        self.m_axil.arprot.next = 0.into();
        self.m_axil.arvalid.next = self.ar_p.q.val();
        self.m_axil.rready.next = self.state.q.val() == BridgeState::LiteR;
        self.mem.valid.next = self.mem_req.q.val();
        self.mem.write.next = self.mem_we.q.val();
        self.mem.addr.next = self.addr.q.val();
        self.mem.wdata.next = self.rsr.q.val().get_bits::<64>(208);

        // The pushed request (docs/bridge.md, Records), held until taken.
        self.m_xreq.valid.next = self.xq_valid.q.val();
        self.m_xreq.tag.next = self.xq.q.val().get_bits::<8>(0);
        self.m_xreq.op.next = self.xq.q.val().get_bits::<2>(8);
        self.m_xreq.qpn.next = self.xq.q.val().get_bits::<24>(16);
        self.m_xreq.rqpn.next = self.xq.q.val().get_bits::<24>(40);
        self.m_xreq.psn.next = self.xq.q.val().get_bits::<24>(64);
        self.m_xreq.msn.next = self.xq.q.val().get_bits::<24>(88);
        self.m_xreq.pd.next = self.xq.q.val().get_bits::<16>(112);
        self.m_xreq.key.next = self.xq.q.val().get_bits::<32>(128);
        self.m_xreq.va.next = self.xq.q.val().get_bits::<64>(160);
        self.m_xreq.len.next = self.xq.q.val().get_bits::<13>(224);
        self.m_xreq.msg_len.next = self.xq.q.val().get_bits::<32>(240);
        if self.xq_valid.q.val() & self.m_xreq.ready.val() {
            self.xq_valid.d.next = false;
        }

        // The core's reset: RESET holds it, and drops the waiting request.
        if self.rst_cnt.q.val() != 0 {
            self.rst_cnt.d.next = self.rst_cnt.q.val() - 1;
            self.xq_valid.d.next = false;
        }
        self.core_rst.next = self.rst_cnt.q.val() != 0;

        self.tx.next = self.utx.tx.val();

        // LEDs.
        self.err.next = self.rx_err_s.q.val() | self.mem_err_s.q.val() | self.fatal_s.q.val();
        self.xreq_waiting.next = self.xq_valid.q.val();
        self.rsp_waiting.next = !self.rsp_fifo.empty.val();
        self.nak_waiting.next = !self.nak_fifo.empty.val();

        if self.rst.val() {
            self.state.d.next = BridgeState::Cmd;
            self.aw_p.d.next = false;
            self.w_p.d.next = false;
            self.ar_p.d.next = false;
            self.mem_req.d.next = false;
            self.xq_valid.d.next = false;
            self.rst_cnt.d.next = 0.into();
            self.rx_err_s.d.next = false;
            self.mem_err_s.d.next = false;
            self.fatal_s.d.next = false;
        }
    }
}
