//! The host side of the serial bridge's protocol (`docs/bridge.md`): frames,
//! records and a [`Bridge`] client over any byte [`Link`], which is also a
//! driver [`Bus`], so `Driver` runs on a board unchanged.
//!
//! The command bytes, status bytes and record sizes are the IP's
//! (`odp_mmu::board::bridge`), defined once.

use std::fmt;

use odp_mmu::board::bridge::{
    answer, cmd, CSR_BYTES, HEADER_BYTES, MEM_MAX_BYTES, NAK_BYTES, STATUS_BYTES, WAKE_BYTES,
    XREQ_BYTES, XRSP_BYTES,
};
use odp_mmu::spec::{aeth, rnr_timer};

use crate::driver::Bus;
use crate::harness::top::XReq;
use crate::models::page_table::WordMemory;

/// A byte transport to the bridge: a serial port on a board, the Verilated
/// board top's UART pins in simulation.
pub trait Link {
    /// Sends `bytes`, in order.
    fn send(&mut self, bytes: &[u8]) -> Result<(), String>;
    /// Receives exactly `n` bytes, or fails (a timeout names how many came).
    fn recv(&mut self, n: usize) -> Result<Vec<u8>, String>;
}

/// What went wrong in a bridge exchange.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BridgeError {
    /// The transport failed or timed out.
    Link(String),
    /// The answer echoed another command byte: the two sides are out of
    /// step (a byte lost on the line).
    Desync { sent: u8, echoed: u8 },
    /// The bridge answered a status other than OK.
    Refused { cmd: u8, status: u8 },
    /// A request the bridge would refuse, caught before it is sent.
    BadArgument(&'static str),
}

impl fmt::Display for BridgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BridgeError::Link(e) => write!(f, "serial link: {e}"),
            BridgeError::Desync { sent, echoed } => write!(
                f,
                "out of step: sent command {sent:#04x}, the answer echoes {echoed:#04x}"
            ),
            BridgeError::Refused { cmd, status } => write!(
                f,
                "command {cmd:#04x} answered {} ({status:#04x})",
                status_name(*status)
            ),
            BridgeError::BadArgument(what) => write!(f, "bad argument: {what}"),
        }
    }
}

impl std::error::Error for BridgeError {}

/// The name of a status byte.
pub fn status_name(status: u8) -> &'static str {
    match status {
        answer::OK => "OK",
        answer::BAD_CMD => "BAD_CMD",
        answer::BAD_LEN => "BAD_LEN",
        answer::BAD_ADDR => "BAD_ADDR",
        answer::BUS_ERR => "BUS_ERR",
        answer::EMPTY => "EMPTY",
        answer::BUSY => "BUSY",
        _ => "unknown status",
    }
}

/// A frame: `CMD`, `ADDR` (little endian), `LEN`, and the payload for a
/// write-class command (bit 0 of `CMD` clear).
pub fn encode_frame(command: u8, addr: u32, len: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = Vec::with_capacity(HEADER_BYTES + payload.len());
    f.push(command);
    f.extend_from_slice(&addr.to_le_bytes());
    f.push(len);
    f.extend_from_slice(payload);
    f
}

/// A read-class command: bit 0 set (no payload; the answer carries `LEN`
/// bytes).
pub fn is_read(command: u8) -> bool {
    command & 1 == 1
}

/// An answer: the echoed command byte, the status and a read's data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub echo: u8,
    pub status: u8,
    pub data: Vec<u8>,
}

/// The bridge's status record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BridgeStatus {
    pub version: u8,
    /// `odp_mmu::board::bridge::flag` bits.
    pub flags: u8,
    pub responses: u8,
    pub naks: u8,
    pub wakes: u8,
}

impl BridgeStatus {
    fn decode(b: &[u8]) -> Self {
        Self {
            version: b[0],
            flags: b[1],
            responses: b[2],
            naks: b[3],
            wakes: b[4],
        }
    }
}

/// A response beat as the bridge captured it from `m_xrsp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XRsp {
    pub tag: u8,
    pub status: u8,
    pub pa: u64,
    pub seg_len: u16,
    pub last: bool,
    pub epoch: u8,
}

impl XRsp {
    /// Decodes a response record.
    pub fn decode(b: &[u8]) -> Self {
        assert_eq!(b.len(), XRSP_BYTES);
        Self {
            tag: b[0],
            status: b[1],
            pa: u64::from_le_bytes(b[2..10].try_into().unwrap()),
            seg_len: u16::from_le_bytes([b[10], b[11]]),
            last: b[12] & 1 == 1,
            epoch: b[13],
        }
    }
}

/// A NAK as the bridge captured it from `m_nak`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nak {
    /// Local QP.
    pub qpn: u32,
    /// BTH + AETH, byte 0 in bits 127:120 (as on `m_nak_hdr`).
    pub hdr: u128,
}

impl Nak {
    /// Decodes a NAK record.
    pub fn decode(b: &[u8]) -> Self {
        assert_eq!(b.len(), NAK_BYTES);
        Self {
            qpn: u32::from_le_bytes([b[0], b[1], b[2], 0]),
            hdr: u128::from_le_bytes(b[3..19].try_into().unwrap()),
        }
    }

    /// The header's fields.
    pub fn header(&self) -> NakHeader {
        NakHeader::decode(self.hdr)
    }
}

/// The fields of an RC Acknowledge header (BTH + AETH) that a NAK carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NakHeader {
    /// BTH opcode (0x11, RC Acknowledge).
    pub opcode: u8,
    pub pkey: u16,
    /// BTH DestQP: the remote QP.
    pub dest_qp: u32,
    pub psn: u32,
    /// AETH syndrome.
    pub syndrome: u8,
    pub msn: u32,
}

impl NakHeader {
    /// Decodes the 16 header bytes, byte 0 in bits 127:120.
    pub fn decode(hdr: u128) -> Self {
        let b = hdr.to_be_bytes();
        let u24 = |i: usize| u32::from_be_bytes([0, b[i], b[i + 1], b[i + 2]]);
        Self {
            opcode: b[0],
            pkey: u16::from_be_bytes([b[2], b[3]]),
            dest_qp: u24(5),
            psn: u24(9),
            syndrome: b[12],
            msn: u24(13),
        }
    }

    /// The RNR timer code of an RNR NAK, `None` for another syndrome.
    pub fn rnr_timer(&self) -> Option<u8> {
        (self.syndrome as u64 & !aeth::TIMER_MASK == aeth::RNR_NAK)
            .then_some((self.syndrome as u64 & aeth::TIMER_MASK) as u8)
    }

    /// The syndrome in words: `RNR NAK, timer 12 (0.640 ms)`, `remote
    /// access error`, ...
    pub fn describe(&self) -> String {
        if let Some(code) = self.rnr_timer() {
            let us = rnr_timer::US[code as usize];
            return format!(
                "RNR NAK, timer code {code} ({}.{:03} ms)",
                us / 1000,
                us % 1000
            );
        }
        match self.syndrome as u64 {
            aeth::REMOTE_ACCESS_ERR => "NAK remote access error".into(),
            aeth::REMOTE_OP_ERR => "NAK remote operational error".into(),
            s => format!("syndrome {s:#04x}"),
        }
    }
}

impl fmt::Display for NakHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "opcode {:#04x}{}, P_Key {:#06x}, DestQP {:#x}, PSN {:#x}, MSN {:#x}: {}",
            self.opcode,
            if self.opcode as u64 == aeth::BTH_OPCODE_RC_ACK {
                " (RC Acknowledge)"
            } else {
                ""
            },
            self.pkey,
            self.dest_qp,
            self.psn,
            self.msn,
            self.describe()
        )
    }
}

/// The request record of `XREQ_PUSH`.
pub fn encode_xreq(x: &XReq) -> [u8; XREQ_BYTES] {
    let r = &x.req;
    let mut b = Vec::with_capacity(XREQ_BYTES);
    b.push(x.tag);
    b.push(r.op);
    b.extend_from_slice(&r.qpn.to_le_bytes()[..3]);
    b.extend_from_slice(&x.rqpn.to_le_bytes()[..3]);
    b.extend_from_slice(&x.psn.to_le_bytes()[..3]);
    b.extend_from_slice(&x.msn.to_le_bytes()[..3]);
    b.extend_from_slice(&r.pd.to_le_bytes());
    b.extend_from_slice(&r.key.to_le_bytes());
    b.extend_from_slice(&r.va.to_le_bytes());
    b.extend_from_slice(&r.len.to_le_bytes());
    b.extend_from_slice(&x.msg_len.to_le_bytes());
    b.try_into().expect("34 bytes")
}

/// The client of a bridge on `link`.
///
/// As a driver [`Bus`] (and [`WordMemory`]) it cannot return errors: the
/// first failure is kept ([`Bridge::take_fault`]), and every access after
/// it does nothing and reads 0, so a driver call ends quickly (its polls
/// time out) and the caller reports the fault.
pub struct Bridge<L: Link> {
    pub link: L,
    fault: Option<BridgeError>,
}

impl<L: Link> Bridge<L> {
    /// A client on `link`.
    pub fn new(link: L) -> Self {
        Self { link, fault: None }
    }

    /// The first failure of a [`Bus`] access since the last call, if any.
    pub fn take_fault(&mut self) -> Option<BridgeError> {
        self.fault.take()
    }

    /// Sends one frame and reads its answer, whatever its status.
    pub fn exchange(
        &mut self,
        command: u8,
        addr: u32,
        len: u8,
        payload: &[u8],
    ) -> Result<Answer, BridgeError> {
        self.link
            .send(&encode_frame(command, addr, len, payload))
            .map_err(BridgeError::Link)?;
        let head = self.link.recv(2).map_err(BridgeError::Link)?;
        let mut a = Answer {
            echo: head[0],
            status: head[1],
            data: Vec::new(),
        };
        if a.echo != command {
            return Err(BridgeError::Desync {
                sent: command,
                echoed: a.echo,
            });
        }
        if a.status == answer::OK && is_read(command) && len > 0 {
            a.data = self.link.recv(len as usize).map_err(BridgeError::Link)?;
        }
        Ok(a)
    }

    /// One command that must answer OK; its data.
    fn command(
        &mut self,
        command: u8,
        addr: u32,
        len: usize,
        payload: &[u8],
    ) -> Result<Vec<u8>, BridgeError> {
        let a = self.exchange(command, addr, len as u8, payload)?;
        match a.status {
            answer::OK => Ok(a.data),
            status => Err(BridgeError::Refused {
                cmd: command,
                status,
            }),
        }
    }

    /// The bridge's status record (clears its error flags).
    pub fn status(&mut self) -> Result<BridgeStatus, BridgeError> {
        let d = self.command(cmd::STATUS, 0, STATUS_BYTES, &[])?;
        Ok(BridgeStatus::decode(&d))
    }

    /// Reads the core's register at byte offset `addr`.
    pub fn csr_read(&mut self, addr: u16) -> Result<u32, BridgeError> {
        let d = self.command(cmd::CSR_READ, addr as u32, CSR_BYTES, &[])?;
        Ok(u32::from_le_bytes(d.try_into().unwrap()))
    }

    /// Writes the core's register at byte offset `addr`.
    pub fn csr_write(&mut self, addr: u16, value: u32) -> Result<(), BridgeError> {
        self.command(cmd::CSR_WRITE, addr as u32, CSR_BYTES, &value.to_le_bytes())
            .map(|_| ())
    }

    /// Reads `words` 64-bit words of board memory from byte address `addr`
    /// (8-aligned), 31 words a frame.
    pub fn mem_read(&mut self, addr: u32, words: usize) -> Result<Vec<u64>, BridgeError> {
        let mut out = Vec::with_capacity(words);
        let mut at = addr;
        while out.len() < words {
            let n = (words - out.len()).min(MEM_MAX_BYTES / 8);
            let d = self.command(cmd::MEM_READ, at, 8 * n, &[])?;
            out.extend(
                d.chunks(8)
                    .map(|c| u64::from_le_bytes(c.try_into().unwrap())),
            );
            at += 8 * n as u32;
        }
        Ok(out)
    }

    /// Writes `words` to board memory from byte address `addr` (8-aligned),
    /// 31 words a frame.
    pub fn mem_write(&mut self, addr: u32, words: &[u64]) -> Result<(), BridgeError> {
        let mut at = addr;
        for chunk in words.chunks(MEM_MAX_BYTES / 8) {
            let payload: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
            self.command(cmd::MEM_WRITE, at, payload.len(), &payload)?;
            at += payload.len() as u32;
        }
        Ok(())
    }

    /// Zeroes `bytes` bytes of board memory from `addr` (both 8-aligned).
    pub fn mem_zero(&mut self, addr: u32, bytes: u32) -> Result<(), BridgeError> {
        if !addr.is_multiple_of(8) || !bytes.is_multiple_of(8) {
            return Err(BridgeError::BadArgument(
                "zeroed memory must be 8-byte aligned",
            ));
        }
        self.mem_write(addr, &vec![0; bytes as usize / 8])
    }

    /// Pushes a request for `s_xreq`: `Ok(false)` when the previous one
    /// still waits there (BUSY; nothing changed).
    pub fn push(&mut self, x: &XReq) -> Result<bool, BridgeError> {
        let a = self.exchange(cmd::XREQ_PUSH, 0, XREQ_BYTES as u8, &encode_xreq(x))?;
        match a.status {
            answer::OK => Ok(true),
            answer::BUSY => Ok(false),
            status => Err(BridgeError::Refused {
                cmd: cmd::XREQ_PUSH,
                status,
            }),
        }
    }

    /// A pop: the record, or `None` when the FIFO is empty.
    fn pop(&mut self, command: u8, bytes: usize) -> Result<Option<Vec<u8>>, BridgeError> {
        let a = self.exchange(command, 0, bytes as u8, &[])?;
        match a.status {
            answer::OK => Ok(Some(a.data)),
            answer::EMPTY => Ok(None),
            status => Err(BridgeError::Refused {
                cmd: command,
                status,
            }),
        }
    }

    /// The oldest captured response beat, if any.
    pub fn pop_response(&mut self) -> Result<Option<XRsp>, BridgeError> {
        Ok(self
            .pop(cmd::XRSP_POP, XRSP_BYTES)?
            .map(|d| XRsp::decode(&d)))
    }

    /// The oldest captured NAK, if any.
    pub fn pop_nak(&mut self) -> Result<Option<Nak>, BridgeError> {
        Ok(self.pop(cmd::NAK_POP, NAK_BYTES)?.map(|d| Nak::decode(&d)))
    }

    /// The oldest captured wake (its QPN), if any.
    pub fn pop_wake(&mut self) -> Result<Option<u32>, BridgeError> {
        Ok(self
            .pop(cmd::WAKE_POP, WAKE_BYTES)?
            .map(|d| u32::from_le_bytes([d[0], d[1], d[2], 0])))
    }

    /// Resets the core (the bridge's capture FIFOs too; not the memory).
    pub fn reset_core(&mut self) -> Result<(), BridgeError> {
        self.command(cmd::RESET, 0, 0, &[]).map(|_| ())
    }

    /// Runs `f` unless a fault is kept; keeps its failure.
    fn guarded<T: Default>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, BridgeError>) -> T {
        if self.fault.is_some() {
            return T::default();
        }
        match f(self) {
            Ok(v) => v,
            Err(e) => {
                self.fault = Some(e);
                T::default()
            }
        }
    }
}

impl<L: Link> WordMemory for Bridge<L> {
    fn load64(&mut self, addr: u64) -> u64 {
        self.guarded(|b| {
            let a = u32::try_from(addr)
                .map_err(|_| BridgeError::BadArgument("address beyond 32 bits"))?;
            Ok(b.mem_read(a, 1)?[0])
        })
    }

    fn store64(&mut self, addr: u64, value: u64) {
        self.guarded(|b| {
            let a = u32::try_from(addr)
                .map_err(|_| BridgeError::BadArgument("address beyond 32 bits"))?;
            b.mem_write(a, &[value])
        })
    }
}

impl<L: Link> Bus for Bridge<L> {
    fn read32(&mut self, addr: u16) -> u32 {
        self.guarded(|b| b.csr_read(addr))
    }

    fn write32(&mut self, addr: u16, data: u32) -> Result<(), u8> {
        if self.fault.is_some() {
            return Ok(());
        }
        match self.csr_write(addr, data) {
            Ok(()) => Ok(()),
            // The core answered an error: the driver's business (SLVERR).
            Err(BridgeError::Refused {
                status: answer::BUS_ERR,
                ..
            }) => Err(2),
            Err(e) => {
                self.fault = Some(e);
                Ok(())
            }
        }
    }
}
