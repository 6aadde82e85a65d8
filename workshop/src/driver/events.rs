//! The event ring and the fault loop, the driver's side of
//! `docs/events.md` and `docs/fault_queue.md`.
//!
//! The driver owns the ring: 2^n records of 32 bytes in host memory, which
//! it zeroes and hands to the core with [`Driver::setup_event_ring`]. The
//! core writes records there; the driver finds new ones by their owner bit
//! alone ([`Driver::poll_events`]), without reading a register, and tells
//! the core how far it has read with one `EQ_CONS` write per batch. Page
//! faults are answered with [`Driver::resume_fault`];
//! [`Driver::service_faults`] is the whole loop for testbenches: poll, hand
//! each fault to a handler that maps pages, resume each with its token, and
//! give every other event back to the caller.
//!
//! The record layout is `odp_mmu::fault`'s (`EVENT_*`); the ring arithmetic
//! (slot address, owner bit, legal sizes) is the reference model's
//! ([`crate::models::events_ref`]), so the driver, the model and the
//! hardware share one definition of each.

use super::{Bus, Driver, Error, Result};
use crate::models::events_ref::{self, Record};
use odp_mmu::control::command;
use odp_mmu::control::regmap::{self, op};
use odp_mmu::fault::{
    EVENT_RECORD_BYTES, EVENT_RECORD_WORDS, EVENT_W0_CODE_SHIFT, EVENT_W0_MR_SHIFT,
    EVENT_W0_TOKEN_SHIFT, EVENT_W3_QPN_MASK,
};
use odp_mmu::spec::event;

/// The RESUME_FAULT result code for a token that names no posted fault
/// (stale: already resumed, from before a reset, or never written): the
/// command unit's [`command::RES_STALE_TOKEN`].
pub const RES_STALE_TOKEN: u8 = command::RES_STALE_TOKEN as u8;

/// RESUME_FAULT `CMD_ARG1` bit 0 (`FLAGS.ERROR`): the driver could not map
/// the page, and the requests waiting on it get FATAL.
pub const RESUME_FLAGS_ERROR: u32 = 1 << 0;

/// The event ring as the driver set it up, with its consumer index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventRing {
    /// Byte address of slot 0 in host memory (32-byte aligned).
    pub base: u64,
    /// `EQ_LOG2_SIZE`: the ring has `2^log2_size` records.
    pub log2_size: u32,
    /// The driver's free-running consumer index: records read so far. The
    /// last value written to `EQ_CONS`.
    pub cons: u32,
}

impl EventRing {
    /// Records in the ring.
    pub fn entries(&self) -> u32 {
        1 << self.log2_size
    }

    /// Bytes of host memory the ring takes.
    pub fn bytes(&self) -> u64 {
        EVENT_RECORD_BYTES << self.log2_size
    }
}

/// A page-fault record (kind 1): what the core asks the driver to map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageFaultEvent {
    /// Names the fault in RESUME_FAULT: slot in bits 7:0, generation in
    /// bits 15:8.
    pub token: u32,
    /// MR index.
    pub mr: u16,
    /// QPN of the first request that faulted on the page.
    pub qpn: u32,
    /// The request's op (`odp_mmu::spec::op`): bit 1 set for a local op.
    pub op: u8,
    /// VA of the missing 4 KiB page.
    pub page_va: u64,
    /// Prefetch hint: bytes of the request before the page (clamped to the
    /// MR and to `PREFETCH_CAP`).
    pub hint_before: u32,
    /// Prefetch hint: bytes of the request after the page (clamped the
    /// same way).
    pub hint_after: u32,
}

impl PageFaultEvent {
    /// The VA range the hint covers: the faulting page with the hinted bytes
    /// on either side. The page alone when both hints are 0.
    pub fn prefetch_range(&self) -> std::ops::Range<u64> {
        let start = self.page_va.saturating_sub(self.hint_before as u64);
        let end = self
            .page_va
            .saturating_add(4096)
            .saturating_add(self.hint_after as u64);
        start..end
    }
}

/// One event record, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A page is missing; resume it with [`Driver::resume_fault`].
    PageFault(PageFaultEvent),
    /// An INVALIDATE finished: its doorbell tag.
    InvalidationDone { mr: u16, tag: u32 },
    /// A PREFETCH finished: its tag, the pages it filled (the TLB holds
    /// them), the pages that faulted (missing, pending or MR suspended) and
    /// the pages refused (outside the MR, no right, MR not valid).
    PrefetchDone {
        mr: u16,
        tag: u32,
        filled: u32,
        faulted: u32,
        refused: u32,
    },
    /// An MR_SUSPEND finished: the MR is suspended and drained.
    MrSuspended { mr: u16 },
    /// The core reports an error: its code, the MR and a detail word; `more`:
    /// further errors came while this one waited for the ring and were not
    /// posted (`ERROR` / `ERROR_INFO` hold the latest).
    Error {
        code: u8,
        mr: u16,
        detail: u64,
        more: bool,
    },
    /// A kind this library does not know: the four words as read (owner bit
    /// included).
    Unknown { words: [u64; EVENT_RECORD_WORDS] },
}

impl Event {
    /// Decodes the four words of a record (`docs/events.md`, Record layout).
    /// Reserved fields and the owner bit are ignored.
    pub fn decode(words: &[u64; EVENT_RECORD_WORDS]) -> Event {
        let rec = Record { w: *words };
        let w0 = words[0];
        let code = (w0 >> EVENT_W0_CODE_SHIFT) as u8;
        let mr = (w0 >> EVENT_W0_MR_SHIFT) as u16;
        let token = (w0 >> EVENT_W0_TOKEN_SHIFT) as u32;
        match rec.kind() {
            event::PAGE_FAULT => Event::PageFault(PageFaultEvent {
                token,
                mr,
                qpn: (words[3] & EVENT_W3_QPN_MASK) as u32,
                op: code,
                page_va: words[1],
                hint_before: words[2] as u32,
                hint_after: (words[2] >> 32) as u32,
            }),
            event::INV_DONE => Event::InvalidationDone { mr, tag: token },
            event::PREFETCH_DONE => Event::PrefetchDone {
                mr,
                tag: token,
                filled: words[1] as u32,
                faulted: (words[1] >> 32) as u32,
                refused: words[2] as u32,
            },
            event::MR_SUSPENDED => Event::MrSuspended { mr },
            event::ERROR => Event::Error {
                code,
                mr,
                detail: words[1],
                more: words[2] & 1 != 0,
            },
            _ => Event::Unknown { words: *words },
        }
    }
}

/// A fault handler's answer: what RESUME_FAULT tells the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultAnswer {
    /// The page is mapped: the waiting requests retry (error flag clear).
    Mapped,
    /// The page cannot be mapped: the waiting requests get FATAL (error
    /// flag set).
    Failed,
}

/// What one [`Driver::service_faults`] batch did. Every record the batch
/// consumed from the ring is in exactly one of the lists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaultService {
    /// Page faults the core accepted a RESUME_FAULT for, with the handler's
    /// answer, in ring order.
    pub resumed: Vec<(PageFaultEvent, FaultAnswer)>,
    /// Page faults whose RESUME_FAULT was refused, with the error:
    /// [`Error::StaleToken`] for a stale token, [`Error::Command`] for any
    /// other result code, or the bus error or timeout that stopped the batch.
    pub failed: Vec<(PageFaultEvent, Error)>,
    /// Page faults neither handled nor resumed because an earlier
    /// RESUME_FAULT of the batch ended in a bus error or a timeout (the
    /// command unit is not answering). The caller resumes them once it has
    /// recovered; they are no longer in the ring.
    pub unhandled: Vec<PageFaultEvent>,
    /// Every other event, in ring order, for the caller.
    pub others: Vec<Event>,
}

impl<B: Bus> Driver<B> {
    /// The event ring as set up, with the consumer index; `None` before
    /// [`Driver::setup_event_ring`].
    pub fn event_ring(&self) -> Option<EventRing> {
        self.ring
    }

    /// Sets up the event ring: `2^log2_size` records (`log2_size` 1..=16) at
    /// `base` (32-byte aligned) in host memory, and `CTRL.IRQ_EN` = `irq`.
    /// The order is the one `docs/events.md` gives for (re)programming a
    /// ring:
    ///
    /// 1. `EQ_LOG2_SIZE` = 0: the ring reset. The core takes no record
    ///    into the old ring, and every fault still awaiting its RESUME will
    ///    be announced again in the new one (same token);
    /// 2. wait until `EQ_PROD` reads 0: the writes in flight are done and
    ///    the writer's indices are zero. If it does not within the poll
    ///    bound: [`Error::RingNotReset`] (the ring stays disabled);
    /// 3. zero the ring's memory: every owner bit 0, so nothing looks new
    ///    to a consumer at index 0;
    /// 4. `EQ_BASE_LO`, `EQ_BASE_HI`, `EQ_CONS` = 0, then `EQ_LOG2_SIZE` =
    ///    `log2_size`, which enables the ring (base and size may change only
    ///    while it is disabled);
    /// 5. `CTRL.IRQ_EN` by read-modify-write, keeping the other bits.
    ///
    /// The driver's consumer index starts at 0.
    pub fn setup_event_ring(&mut self, base: u64, log2_size: u32, irq: bool) -> Result<EventRing> {
        if !events_ref::size_legal(log2_size) {
            return Err(Error::BadArgument {
                what: "event ring log2 size must be 1..=16",
            });
        }
        if !base.is_multiple_of(EVENT_RECORD_BYTES) {
            return Err(Error::BadArgument {
                what: "event ring base must be 32-byte aligned",
            });
        }
        self.write(regmap::EQ_LOG2_SIZE, 0)?;
        self.ring = None;
        if self
            .poll(regmap::EQ_PROD, "EQ_PROD = 0", |p| p == 0)
            .is_err()
        {
            let prod = self.bus.read32(regmap::EQ_PROD);
            return Err(Error::RingNotReset { prod });
        }
        let ring = EventRing {
            base,
            log2_size,
            cons: 0,
        };
        for k in 0..ring.bytes() / 8 {
            self.bus.store64(base + 8 * k, 0);
        }
        self.write(regmap::EQ_BASE_LO, base as u32)?;
        self.write(regmap::EQ_BASE_HI, (base >> 32) as u32)?;
        self.write(regmap::EQ_CONS, 0)?;
        self.write(regmap::EQ_LOG2_SIZE, log2_size)?;
        self.ring = Some(ring);
        let ctrl = self.bus.read32(regmap::CTRL) & !(1 << regmap::CTRL_IRQ_EN);
        self.write(regmap::CTRL, ctrl | (irq as u32) << regmap::CTRL_IRQ_EN)?;
        Ok(ring)
    }

    /// Reads every new record at the consumer index, in ring order, and
    /// returns them decoded. A record is new while its owner bit equals
    /// `1 - ((c >> n) & 1)` for its index `c`; the first record that is not
    /// ends the batch (the core has not written it, or not its last beat,
    /// yet). Word 3, which holds the owner bit and lands last, is read
    /// before the other three (a kernel driver puts `dma_rmb()` between).
    ///
    /// After a non-empty batch the driver writes `EQ_CONS` once, with the
    /// new index: the slots are the core's again. If that write fails the
    /// consumer index stays where it was, and the next poll reads the same
    /// records again (the core cannot have overwritten them). A batch is at
    /// most one ring's worth of records.
    ///
    /// The poll does not read `ERROR`: after `ERROR.EVENT_WRITE_ERR` a slot
    /// may hold a stale record, and the ring must be reset
    /// ([`Driver::recover_event_ring`]).
    pub fn poll_events(&mut self) -> Result<Vec<Event>> {
        let ring = self.ring.ok_or(Error::BadArgument {
            what: "no event ring: call setup_event_ring first",
        })?;
        let n = ring.log2_size;
        let mut c = ring.cons;
        let mut events = Vec::new();
        for _ in 0..ring.entries() {
            let addr = events_ref::slot_addr(ring.base, n, c);
            let last = EVENT_RECORD_WORDS - 1;
            let w3 = self.bus.load64(addr + 8 * last as u64);
            if !events_ref::is_new(w3, c, n) {
                break;
            }
            let mut words = [0; EVENT_RECORD_WORDS];
            for (k, w) in words.iter_mut().enumerate().take(last) {
                *w = self.bus.load64(addr + 8 * k as u64);
            }
            words[last] = w3;
            events.push(Event::decode(&words));
            c = c.wrapping_add(1);
        }
        if c != ring.cons {
            self.write(regmap::EQ_CONS, c)?;
            self.ring = Some(EventRing { cons: c, ..ring });
        }
        Ok(events)
    }

    /// The recovery after `ERROR.EVENT_WRITE_ERR` (an event record's write
    /// got an AXI error, so a slot of the ring holds stale data and the
    /// driver cannot tell which): sets the ring up again at the same base
    /// and size ([`Driver::setup_event_ring`], with `CTRL.IRQ_EN` kept),
    /// then clears `ERROR.EVENT_WRITE_ERR`. Every fault still awaiting its
    /// RESUME is announced again in the new ring, with its token, including
    /// those whose record was lost; a fault the driver is already servicing
    /// may appear twice, and a RESUME of it before its new record lands is
    /// refused as stale ([`Error::StaleToken`]: resume it from the new
    /// record). Returns whether the error bit was set (false: nothing done).
    pub fn recover_event_ring(&mut self) -> Result<bool> {
        let err = self.bus.read32(regmap::ERROR);
        if err & (1 << regmap::ERROR_EVENT_WRITE_ERR) == 0 {
            return Ok(false);
        }
        let ring = self.ring.ok_or(Error::BadArgument {
            what: "no event ring: call setup_event_ring first",
        })?;
        let irq = self.bus.read32(regmap::CTRL) & (1 << regmap::CTRL_IRQ_EN) != 0;
        self.setup_event_ring(ring.base, ring.log2_size, irq)?;
        self.write(regmap::ERROR, 1 << regmap::ERROR_EVENT_WRITE_ERR)?;
        Ok(true)
    }

    /// RESUME_FAULT: resolves the fault named by `token` (from its
    /// [`PageFaultEvent`]); `err` false once its pages are mapped (the
    /// requests retry), true when they cannot be (the requests get FATAL).
    /// Write the PTEs before, as [`Driver::map`] does: the core may walk as
    /// soon as the command is accepted.
    ///
    /// A stale token (already resumed, from before a reset, never posted)
    /// is [`Error::StaleToken`]; the core then also sets
    /// `ERROR.RESUME_STALE` and `ERROR.BAD_CMD`, which stay set until the
    /// caller clears them. Any other refusal is [`Error::Command`] (NOT_BUILT
    /// on a core without the fault path).
    pub fn resume_fault(&mut self, token: u32, err: bool) -> Result<()> {
        let flags = if err { RESUME_FLAGS_ERROR } else { 0 };
        match self.command(op::RESUME_FAULT, &[token, flags]) {
            Err(Error::Command {
                code: RES_STALE_TOKEN,
                ..
            }) => Err(Error::StaleToken { token }),
            r => r,
        }
    }

    /// One pass of the fault loop, for testbenches: polls the ring
    /// ([`Driver::poll_events`]), calls `handler` for each page fault in
    /// ring order, and resumes each with its token and the handler's
    /// answer. The handler gets the driver, so it maps pages with
    /// [`Driver::map`] before it answers [`FaultAnswer::Mapped`].
    ///
    /// Nothing is dropped: the other events come back in
    /// [`FaultService::others`], refused resumes in
    /// [`FaultService::failed`]. A bus error or timeout on a RESUME_FAULT
    /// stops the resumes (the core is not answering commands): the rest of
    /// the batch's faults are returned unhandled. `Err` only when the poll
    /// itself fails, and then nothing was consumed.
    pub fn service_faults(
        &mut self,
        mut handler: impl FnMut(&mut Self, &PageFaultEvent) -> FaultAnswer,
    ) -> Result<FaultService> {
        let mut done = FaultService::default();
        let mut stopped = false;
        for ev in self.poll_events()? {
            let fault = match ev {
                Event::PageFault(f) => f,
                other => {
                    done.others.push(other);
                    continue;
                }
            };
            if stopped {
                done.unhandled.push(fault);
                continue;
            }
            let answer = handler(self, &fault);
            match self.resume_fault(fault.token, answer == FaultAnswer::Failed) {
                Ok(()) => done.resumed.push((fault, answer)),
                Err(e) => {
                    stopped = matches!(e, Error::Bus { .. } | Error::Timeout { .. });
                    done.failed.push((fault, e));
                }
            }
        }
        Ok(done)
    }
}
