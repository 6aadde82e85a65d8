//! Models of the core's environment in a NIC, for the system testbench:
//! the requesters that send translation requests (a remote RC requester per
//! remote QP, a local requester per local QP), the DMA engine that moves the
//! bytes of every OK answer, and the page layout of the MRs they use with a
//! byte-accurate image of their contents.
//!
//! - **Remote RC requester** (ops REMOTE_WRITE / REMOTE_READ): messages of
//!   random length split into MTU-sized packets with consecutive 24-bit
//!   PSNs, a window of packets in flight. An RNR answer stands for the RNR
//!   NAK its responder sends: the requester stops, waits its RNR timer
//!   (scaled to clocks) once its packets in flight are answered, and
//!   retransmits from the NAK'd PSN, as an RC sender does.
//! - **Local requester** (ops LOCAL_READ / LOCAL_WRITE): the same message
//!   stream; a STALL stops it until it may retry. Until the fault path drives
//!   `m_wake`, it retries after a fixed back-off.
//! - **DMA engine**: every OK request's beats are carried out after a random
//!   delay, in order per QP: writes place the packet's bytes at `pa` in host
//!   memory, reads fetch them and compare with the image. Each completed
//!   request is reported on `s_done` with its `epoch`.
//! - **Image**: per QP, the bytes of its buffer as the DMA engine last left
//!   them (updated at the moment of each DMA write). A read that returns
//!   other bytes, or a final host memory that differs from the image, is data
//!   corruption: a wrong `pa`, a wrong `seg_len`, a page boundary split wrong.

use std::collections::{BTreeMap, VecDeque};

use crate::models::host_memory::HostMemory;
use odp_mmu::spec::op::byte as op;
use odp_mmu::spec::PageSize;
use rand::rngs::StdRng;
use rand::Rng;

/// A page of a message MR: where it is, where it maps, when it was mapped.
#[derive(Clone, Debug)]
pub struct Page {
    /// Position of the MR in the bench's message-MR list.
    pub mr: usize,
    pub va: u64,
    pub size: PageSize,
    /// Host frame number (physical address >> 12).
    pub frame: u64,
    /// The clock its PTE was written (`None`: not present yet).
    pub mapped_at: Option<u64>,
}

/// The pages of every message MR, by (MR, first VA).
#[derive(Default)]
pub struct Pages {
    pub map: BTreeMap<(usize, u64), Page>,
}

impl Pages {
    /// The page of `mr` holding `va`.
    pub fn at(&self, mr: usize, va: u64) -> &Page {
        let (_, p) = self
            .map
            .range(..=(mr, va))
            .next_back()
            .filter(|(_, p)| p.mr == mr && va >= p.va && va - p.va < p.size.bytes())
            .unwrap_or_else(|| panic!("no page of message MR {mr} holds va {va:#x}"));
        p
    }

    /// Every page `[va, va + len)` touches, in order.
    pub fn touched(&self, mr: usize, va: u64, len: u64) -> Vec<&Page> {
        let mut out: Vec<&Page> = Vec::new();
        let mut a = va;
        while a < va + len {
            let p = self.at(mr, a);
            a = p.va + p.size.bytes();
            out.push(p);
        }
        out
    }
}

/// One packet of a message: one translation request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    pub op: u8,
    pub va: u64,
    pub len: u64,
    pub psn: u32,
    pub msn: u32,
    /// Bytes from `va` to the end of its message (the prefetch hint).
    pub msg_len: u32,
    /// The packet completes its message.
    pub ends_msg: bool,
    /// Seed of the bytes a write carries (`data_byte`).
    pub data_seed: u64,
}

/// The byte a write packet carries at `k` bytes from its start.
pub fn data_byte(seed: u64, k: u64) -> u8 {
    let x = (seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    (x >> 56) as u8
}

/// Whether the DMA of `op` writes host memory.
pub fn writes_memory(op: u8) -> bool {
    op == op::REMOTE_WRITE || op == op::LOCAL_WRITE
}

/// What the requester waits for after a non-OK answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    /// Sending freely.
    None,
    /// An RNR / STALL answer for packet `idx` arrived; waiting for the rest
    /// of the window, then `timer` clocks.
    Retry { idx: usize },
    /// Retransmission starts at clock `at` from packet `idx`.
    Until { at: u64, idx: usize },
}

/// A requester of one QP (remote RC or local).
pub struct Requester {
    pub qpn: u32,
    pub remote: bool,
    /// The remote QP (remote requesters): `rqpn` of every request.
    pub rqpn: u32,
    /// Message MR it targets, its key and PD.
    pub mr: usize,
    pub key: u32,
    pub pd: u16,
    /// Its buffer: `[buf_va, buf_va + buf_len)` inside the MR.
    pub buf_va: u64,
    pub buf_len: u64,
    pub mtu: u64,
    pub window: usize,
    /// Clocks to wait after RNR (the RNR timer) or STALL (back-off).
    pub retry_clocks: u64,
    /// Packets not yet answered OK for good, oldest first; `base` is the
    /// index of `packets[0]` in the QP's packet sequence.
    packets: VecDeque<(Packet, bool)>,
    base: usize,
    /// Index (in the sequence) of the next packet to send.
    next: usize,
    /// Packets sent and not answered.
    pub in_flight: usize,
    wait: Wait,
    next_psn: u32,
    next_msn: u32,
    /// Messages completed (every packet answered OK, in order).
    pub messages_done: u64,
    pub retries: u64,
    /// No new messages after this.
    pub closing: bool,
}

impl Requester {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        rng: &mut StdRng,
        qpn: u32,
        remote: bool,
        mr: usize,
        key: u32,
        pd: u16,
        buf_va: u64,
        buf_len: u64,
        retry_clocks: u64,
    ) -> Self {
        Self {
            qpn,
            remote,
            rqpn: rng.gen_range(0..1 << 24),
            mr,
            key,
            pd,
            buf_va,
            buf_len,
            mtu: [256, 1024, 4096][rng.gen_range(0..3)],
            window: rng.gen_range(1..=8),
            retry_clocks,
            packets: VecDeque::new(),
            base: 0,
            next: 0,
            in_flight: 0,
            wait: Wait::None,
            // Start near the 24-bit wrap on some QPs.
            next_psn: if rng.gen() {
                (1 << 24) - rng.gen_range(1..200)
            } else {
                rng.gen_range(0..1 << 24)
            },
            next_msn: rng.gen_range(0..1 << 24),
            messages_done: 0,
            retries: 0,
            closing: false,
        }
    }

    /// Queues a new message of random op, place and length inside the buffer.
    fn new_message(&mut self, rng: &mut StdRng) {
        let len = if rng.gen_ratio(1, 4) {
            rng.gen_range(1..=64)
        } else {
            rng.gen_range(1..=self.buf_len.min(20_000))
        };
        let start = self.buf_va + rng.gen_range(0..=self.buf_len - len);
        let op = match (self.remote, rng.gen::<bool>()) {
            (true, true) => op::REMOTE_WRITE,
            (true, false) => op::REMOTE_READ,
            (false, true) => op::LOCAL_WRITE,
            (false, false) => op::LOCAL_READ,
        };
        let msn = self.next_msn;
        self.next_msn = (self.next_msn + 1) & 0xff_ffff;
        let mut off = 0;
        while off < len {
            let plen = self.mtu.min(len - off);
            let p = Packet {
                op,
                va: start + off,
                len: plen,
                psn: self.next_psn,
                msn,
                msg_len: (len - off) as u32,
                ends_msg: off + plen == len,
                data_seed: rng.gen(),
            };
            self.next_psn = (self.next_psn + 1) & 0xff_ffff;
            self.packets.push_back((p, false));
            off += plen;
        }
    }

    /// The packet to offer now, if any: `(sequence index, packet)`.
    pub fn offer(&mut self, rng: &mut StdRng, now: u64) -> Option<(usize, Packet)> {
        if let Wait::Until { at, idx } = self.wait {
            if now < at {
                return None;
            }
            self.next = idx;
            self.wait = Wait::None;
        }
        if self.wait != Wait::None || self.in_flight >= self.window {
            return None;
        }
        if self.next - self.base == self.packets.len() {
            if self.closing || self.packets.len() > 64 {
                return None;
            }
            self.new_message(rng);
        }
        let idx = self.next;
        Some((idx, self.packets[idx - self.base].0))
    }

    /// The offered packet `idx` was accepted.
    pub fn sent(&mut self, idx: usize) {
        debug_assert_eq!(idx, self.next);
        self.next += 1;
        self.in_flight += 1;
    }

    /// The answer for packet `idx`: `ok`, or RNR / STALL (`retry`).
    pub fn answered(&mut self, idx: usize, ok: bool, now: u64) {
        self.in_flight -= 1;
        if ok {
            if idx >= self.base {
                self.packets[idx - self.base].1 = true;
            }
            // Retire the oldest packets answered OK.
            while let Some(&(p, true)) = self.packets.front() {
                if self.next == self.base {
                    break;
                }
                self.packets.pop_front();
                self.base += 1;
                if p.ends_msg {
                    self.messages_done += 1;
                }
            }
        } else {
            self.retries += 1;
            // A go-back already scheduled still has to resend its packets.
            let earliest = match self.wait {
                Wait::Retry { idx: w } | Wait::Until { idx: w, .. } => w.min(idx),
                Wait::None => idx,
            };
            self.wait = Wait::Retry { idx: earliest };
        }
        if let Wait::Retry { idx } = self.wait {
            if self.in_flight == 0 {
                // Go back: the packets from `idx` on are sent again (those
                // already answered OK too, as an RC sender does).
                for k in idx.max(self.base)..self.base + self.packets.len() {
                    self.packets[k - self.base].1 = false;
                }
                self.wait = Wait::Until {
                    at: now + self.retry_clocks,
                    idx: idx.max(self.base),
                };
            }
        }
    }

    /// Its state, for a deadlock report.
    pub fn state(&self) -> String {
        format!(
            "QP {}: wait {:?}, next {}, base {}, queued {}, in flight {}, first {:x?}",
            self.qpn,
            self.wait,
            self.next,
            self.base,
            self.packets.len(),
            self.in_flight,
            self.packets.front()
        )
    }

    /// Nothing is queued or in flight.
    pub fn idle(&self) -> bool {
        self.packets.is_empty() && self.in_flight == 0
    }
}

/// The requester position of an abandoned DMA in [`DmaEngine`]'s queue.
const ABANDONED: usize = usize::MAX;

/// One OK request's DMA, queued in the engine.
#[derive(Clone, Debug)]
pub struct Dma {
    /// Requester position in the bench's list.
    pub req: usize,
    pub packet: Packet,
    /// The answer's beats `(pa, seg_len)`.
    pub beats: Vec<(u64, u64)>,
    pub epoch: u8,
    pub due: u64,
    /// The clock its OK answer was taken.
    pub answered: u64,
}

/// The DMA engine: per-QP FIFOs of OK requests, each carried out at its due
/// clock (not before the one ahead of it), reported on `s_done`.
#[derive(Default)]
pub struct DmaEngine {
    queues: Vec<VecDeque<Dma>>,
    /// Completed requests not yet pulsed on `s_done` (one a clock): epoch,
    /// requester position ([`ABANDONED`] for an abandoned one), clock of
    /// the OK answer.
    done: VecDeque<(u8, usize, u64)>,
    pub writes: u64,
    pub reads: u64,
    pub bytes: u64,
}

impl DmaEngine {
    pub fn new(requesters: usize) -> Self {
        Self {
            queues: (0..requesters).map(|_| VecDeque::new()).collect(),
            ..Default::default()
        }
    }

    /// An OK answer the engine does no DMA for (a request of no requester):
    /// it is still returned on `s_done`, with its epoch, in its turn, as
    /// the core's drain requires of every OK answer.
    pub fn abandon(&mut self, now: u64, epoch: u8) {
        self.done.push_back((epoch, ABANDONED, now));
    }

    /// Queues an OK request; its DMA takes a random time (rarely long).
    pub fn push(&mut self, rng: &mut StdRng, now: u64, mut d: Dma) {
        let q = &mut self.queues[d.req];
        let delay = if rng.gen_ratio(1, 100) {
            rng.gen_range(200..2000)
        } else {
            rng.gen_range(1..40)
        };
        d.due = q.back().map_or(0, |b| b.due).max(now + delay);
        q.push_back(d);
    }

    pub fn is_empty(&self) -> bool {
        self.queues.iter().all(|q| q.is_empty()) && self.done.is_empty()
    }

    /// The epoch to pulse on `s_done` this clock, if a request completed.
    pub fn pop_done(&mut self) -> Option<u8> {
        self.done.pop_front().map(|d| d.0)
    }

    /// OK answers taken before clock `before`, of the requesters `of`
    /// selects, whose DMA has not been reported on `s_done` yet.
    pub fn unreported(&self, of: impl Fn(usize) -> bool, before: u64) -> usize {
        let queued = self
            .queues
            .iter()
            .flatten()
            .filter(|d| of(d.req) && d.answered < before)
            .count();
        let done = self
            .done
            .iter()
            .filter(|d| d.1 != ABANDONED && of(d.1) && d.2 < before)
            .count();
        queued + done
    }

    /// Carries out every DMA due at `now`: writes into `mem` and `image`
    /// (the requester's buffer, indexed from its `buf_va`), reads checked
    /// against `image`.
    pub fn run(
        &mut self,
        now: u64,
        mem: &mut HostMemory,
        reqs: &[Requester],
        images: &mut [Vec<u8>],
    ) {
        for (qi, q) in self.queues.iter_mut().enumerate() {
            while q.front().is_some_and(|d| d.due <= now) {
                let d = q.pop_front().unwrap();
                let r = &reqs[qi];
                let img = &mut images[qi];
                let mut k = 0u64;
                for &(pa, seg) in &d.beats {
                    for b in 0..seg {
                        let at = (d.packet.va + k + b - r.buf_va) as usize;
                        let a = pa + b;
                        if writes_memory(d.packet.op) {
                            let v = data_byte(d.packet.data_seed, k + b);
                            mem.write_strb(a & !7, (v as u64) << (8 * (a & 7)), 1 << (a & 7));
                            img[at] = v;
                        } else {
                            let v = (mem.read64(a & !7) >> (8 * (a & 7))) as u8;
                            assert_eq!(
                                v,
                                img[at],
                                "clock {now}: QP {} read {:#x} (pa {a:#x}) returned {v:#04x}, the buffer holds {:#04x}: data corruption",
                                r.qpn,
                                d.packet.va + k + b,
                                img[at]
                            );
                        }
                    }
                    k += seg;
                }
                assert_eq!(k, d.packet.len, "beats cover the request");
                if writes_memory(d.packet.op) {
                    self.writes += 1;
                } else {
                    self.reads += 1;
                }
                self.bytes += k;
                self.done.push_back((d.epoch, d.req, d.answered));
            }
        }
    }
}
