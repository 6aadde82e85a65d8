//! The whole core in its environment, on the Verilated `odp_mmu`.
//!
//! The bench drives the core only through its ports and the driver library
//! (`odp_mmu_workshop::driver`). The driver plays the OS: it brings the core up,
//! registers MRs over AXI4-Lite and builds their page tables in the host
//! memory model behind the AXI4 master (random latency with rare tails of
//! 20,000 clocks, out-of-order read data, backpressure, an SLVERR region);
//! during traffic it services faults after random delays (maps the missing
//! pages and RESUMEs; now and then RESUMEs with the error flag instead,
//! mapping nothing, and now and then RESUMEs a token a second time, which
//! must be refused as stale and change nothing), resets the QPs that went
//! in error (as the connection manager), suspends MRs (MR_SUSPEND) and,
//! once their "MR suspended" event is read, resumes them (MR_RESUME), and
//! reads counters. Every register access of the driver clocks the whole
//! system, so traffic flows while it works.
//!
//! Traffic (models in `models/env.rs`): a remote RC requester per remote QP
//! (RDMA WRITE / READ messages in MTU packets, RNR timer, retransmission
//! from the NAK'd PSN), a local requester per local QP (STALL and retry;
//! on FATAL a requester stops until its QP is reset, then sends the same
//! packets again),
//! and a DMA engine that carries out every OK answer on a byte-accurate
//! host-memory image and reports `s_done`. Beside them a stream of random
//! requests, many of them bad, on MRs whose tables never change, checked
//! answer by answer against the reference translation.
//!
//! Monitors: isolation (an OK beat's `pa` and `seg_len` come from the
//! page's present PTE, the MR is valid; RNR / STALL only for a page that was
//! missing or an MR that was suspended), per-QP order, stream and AXI4
//! protocol, liveness (every message completes, nothing is left unanswered),
//! data (every DMA read returns the bytes the buffer holds; at the end host
//! memory holds every buffer's bytes), QP error (a message QP's FATAL
//! needs an error RESUME of a page it faulted on, one per error episode,
//! and every answer is FATAL until its QP_RESET, remote ones with NAK
//! 0x63), MR suspend (its "MR suspended" event comes only once every OK
//! answer of the MR taken before the MR_SUSPEND has reported `s_done`),
//! and the core's counters equal the bench's own counts.

use odp_mmu_workshop::harness;
use odp_mmu_workshop::models::env;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use env::{Dma, DmaEngine, Packet, Page, Pages, Requester};
use harness::monitor::StreamMonitor;
use harness::seed;
use odp_mmu::control::command::RES_MR_RANGE;
use odp_mmu::control::regmap;
use odp_mmu::spec::PageSize;
use odp_mmu::spec::{mr_state::byte as mr_state, op::byte as op, status::byte as status};
use odp_mmu::Params;
use odp_mmu_workshop::driver::{self, Bus, Driver, Event, MrSpec};
use odp_mmu_workshop::harness::top::{
    read32, write32, Inputs, LiteCycle, LiteIn, LiteOut, VerilatedTop, XReq,
};
use odp_mmu_workshop::models::host_memory::{HostMemory, MemConfig, RESP_SLVERR};
use odp_mmu_workshop::models::mr_check::{mr_index, MrEntry};
use odp_mmu_workshop::models::page_table::{PageTableBuilder, WordMemory};
use odp_mmu_workshop::models::translate_ref::{translate, Req};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The event ring's base in host memory, above every table and frame.
const RING_BASE: u64 = 0x7_0000_0000;

/// The memory's rare latency tail, clocks.
const TAIL: u64 = 20_000;
/// An RNR / STALL answer is legal for a page mapped (or an MR resumed) up
/// to this long before the request: a walk that read the old PTE may still
/// be answering, and requests join it.
const SLACK: u64 = TAIL + 5_000;
/// The requesters' RNR timer (code 12, 0.64 ms, at one clock per µs) and
/// the local requester's back-off, clocks.
const RNR_CLOCKS: u64 = 640;
const STALL_CLOCKS: u64 = 200;

/// Who sent a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Src {
    /// Message traffic: requester position, packet sequence index, the
    /// packet (a retransmitted copy may be answered after the packet
    /// retired).
    Msg(usize, usize, Packet),
    /// Random traffic on the static MRs, answer known at acceptance.
    Random,
}

/// A request on the port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Offer {
    tag: u8,
    src: Src,
    req: Req,
    rqpn: u32,
    psn: u32,
    msn: u32,
    msg_len: u32,
}

/// A request in flight.
struct InFlight {
    offer: Offer,
    accepted: u64,
    /// Random traffic: the reference answer.
    want: Option<(u8, Vec<(u64, u64)>)>,
    beats: Vec<(u64, u64)>,
    epoch: u8,
}

/// A RESUME_FAULT with the error flag: the fault's 4 KiB page and the
/// clocks the driver's call started and returned. The QPs on the fault's
/// wait lists are put in error some time after `from`; a QP is on them
/// only if one of its requests to the page, accepted before `to`, was
/// answered RNR / STALL.
struct ErrResume {
    mr: usize,
    page_va: u64,
    from: u64,
    to: u64,
}

/// A message MR and its suspend windows: when MR_SUSPEND and MR_RESUME
/// were issued and when their results came (each command changes the MR's
/// state somewhere in between: MR_RESUME's result waits for its wakes).
struct MsgMr {
    mr: driver::Mr,
    suspended: Vec<(Span, Option<Span>)>,
}

/// From a command's issue to its result (clocks).
#[derive(Clone, Copy, Debug)]
struct Span {
    issued: u64,
    done: u64,
}

/// Everything beside the core: memory, traffic, monitors.
struct Env {
    rng: StdRng,
    qps: u32,
    idx_bits: u32,
    /// The MR table as the driver wrote it (reference of random traffic).
    table: Vec<MrEntry>,
    static_mrs: Vec<usize>,
    msg: Vec<MsgMr>,
    pages: Pages,
    reqs: Vec<Requester>,
    images: Vec<Vec<u8>>,
    dma: DmaEngine,
    offer: Option<Offer>,
    inflight: HashMap<u8, InFlight>,
    per_qp: HashMap<u32, VecDeque<u8>>,
    recent: VecDeque<Req>,
    next_tag: u8,
    random_on: bool,
    req_pct: u32,
    rsp_pct: u32,
    xreq_mon: StreamMonitor<Option<Offer>>,
    xrsp_mon: StreamMonitor<(u8, u8, u64, u64, bool, u8)>,
    /// Pages answered RNR / STALL and still missing (the OS maps them first).
    faulted: BTreeSet<(usize, u64)>,
    sent: u64,
    seen: HashMap<u8, u64>,
    msg_answers: HashMap<u8, u64>,
    dones: u64,
    /// OK answers to the random stream (returned on `s_done` unperformed).
    random_oks: u64,
    /// Clocks a request was offered and not taken.
    blocked: u64,
    /// Pages of static MRs, `(mr, vpn)`, on which a random request got
    /// RNR / STALL for a missing page: from then on the page may be pending
    /// in the fault queue, and a request that would hit it (a read of a
    /// read-only page whose write faulted) may get RNR / STALL too, until
    /// its RESUME.
    faulted_static: HashSet<(usize, u64)>,
    /// STALL answers and wakes per QP.
    stalls_by_qp: HashMap<u32, u64>,
    wakes_by_qp: HashMap<u32, u64>,
    /// The RC responder discipline (SPEC 5.5), the bench's own: per QP with
    /// responder state (below `qp_table`), the PSN an RNR answer made it
    /// wait for, in answer order.
    waiting: HashMap<u32, u32>,
    /// QPs with responder state: 2^`QP_BITS` of the preset.
    qp_table: u32,
    /// NAKs the answers call for and NAKs taken on `m_nak`, not yet paired,
    /// per local QP: NAKs keep their QP's answer order, not the global
    /// one (an RNR NAK leaves when its walk finds the page missing, before
    /// the answer, while other QPs' NAKs come with their answers).
    nak_want: HashMap<u32, VecDeque<Nak>>,
    nak_got: HashMap<u32, VecDeque<Nak>>,
    /// NAKs paired, and of them RNR NAKs.
    naks: u64,
    rnr_naks: u64,
    /// The error RESUMEs the driver sent, in order.
    err_resumes: Vec<ErrResume>,
    /// Per message QP: the 4 KiB pages `(MR, page VA)` its requests
    /// touched when they were answered RNR / STALL, each with the earliest
    /// acceptance clock of such a request.
    fault_touch: HashMap<u32, HashMap<(usize, u64), u64>>,
    /// Per message QP: the error RESUMEs (positions in `err_resumes`)
    /// matched to its error episodes so far. Each RESUME puts a QP in error
    /// at most once, so each episode (the first FATAL after the QP's start
    /// or its last QP_RESET) needs one of its own.
    err_used: HashMap<u32, HashSet<usize>>,
    /// Message QPs in error: a FATAL came, QP_RESET not yet issued. Every
    /// answer of theirs is FATAL.
    in_error: HashSet<u32>,
    /// Requesters whose QP is in error, with the clock from which the
    /// connection manager resets it: they offer nothing until the QP_RESET
    /// is done, then retry from the FATAL'd packet (same PSNs).
    reset_due: BTreeMap<usize, u64>,
    /// FATAL answers of message QPs in error, and of random traffic (walks
    /// that failed).
    err_fatals: u64,
    walk_fatals: u64,
}

/// A NAK's fields, as the bench expects them or as decoded from `m_nak`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Nak {
    qpn: u32,
    rqpn: u32,
    psn: u32,
    msn: u32,
    syndrome: u8,
}

/// Decodes an RC Acknowledge header (BTH + AETH, byte 0 in bits 127:120)
/// by the IBTA layout, checking the fields every NAK of the core has fixed:
/// opcode 0x11, SE/M/PadCnt/TVer 0, P_Key 0xFFFF (the register's reset
/// value), FECN/BECN/reserved 0, AckReq/reserved 0.
fn decode_nak(clock: u64, qpn: u32, hdr: u128) -> Nak {
    let b: [u8; 16] = hdr.to_be_bytes();
    let be24 = |i: usize| (b[i] as u32) << 16 | (b[i + 1] as u32) << 8 | b[i + 2] as u32;
    assert_eq!(b[0], 0x11, "clock {clock}: NAK opcode {hdr:#034x}");
    assert_eq!(b[1], 0, "clock {clock}: NAK SE/M/PadCnt/TVer {hdr:#034x}");
    assert_eq!(
        [b[2], b[3]],
        [0xff, 0xff],
        "clock {clock}: NAK P_Key {hdr:#034x}"
    );
    assert_eq!(b[4], 0, "clock {clock}: NAK FECN/BECN {hdr:#034x}");
    assert_eq!(b[8], 0, "clock {clock}: NAK AckReq {hdr:#034x}");
    Nak {
        qpn,
        rqpn: be24(5),
        psn: be24(9),
        msn: be24(13),
        syndrome: b[12],
    }
}

/// The Verilated core with its environment.
struct World {
    top: VerilatedTop,
    /// An AXI4-Lite write / read of the driver is under way (a response
    /// outside one is a protocol violation).
    lite_w: bool,
    lite_r: bool,
    env: Env,
}

impl World {
    fn new(params: &Params, seed: u64) -> Self {
        let mut cfg = MemConfig::random(1, 300, seed ^ 1);
        cfg.tail = (300, TAIL);
        Self {
            top: VerilatedTop::new(params, cfg),
            lite_w: false,
            lite_r: false,
            env: Env {
                rng: StdRng::seed_from_u64(seed ^ 2),
                qps: params.qps as u32,
                idx_bits: params.mr_entries.trailing_zeros(),
                table: vec![MrEntry::default(); params.mr_entries],
                static_mrs: Vec::new(),
                msg: Vec::new(),
                pages: Pages::default(),
                reqs: Vec::new(),
                images: Vec::new(),
                dma: DmaEngine::new(0),
                offer: None,
                inflight: HashMap::new(),
                per_qp: HashMap::new(),
                recent: VecDeque::new(),
                next_tag: 0,
                random_on: false,
                req_pct: 70,
                rsp_pct: 70,
                xreq_mon: StreamMonitor::new("s_xreq"),
                xrsp_mon: StreamMonitor::new("m_xrsp"),
                faulted: BTreeSet::new(),
                sent: 0,
                seen: HashMap::new(),
                msg_answers: HashMap::new(),
                dones: 0,
                random_oks: 0,
                blocked: 0,
                faulted_static: HashSet::new(),
                stalls_by_qp: HashMap::new(),
                wakes_by_qp: HashMap::new(),
                waiting: HashMap::new(),
                qp_table: match odp_mmu::Preset::of(params) {
                    Some(odp_mmu::Preset::Small) => 64,
                    _ => 1024,
                },
                nak_want: HashMap::new(),
                nak_got: HashMap::new(),
                naks: 0,
                rnr_naks: 0,
                err_resumes: Vec::new(),
                fault_touch: HashMap::new(),
                err_used: HashMap::new(),
                in_error: HashSet::new(),
                reset_due: BTreeMap::new(),
                err_fatals: 0,
                walk_fatals: 0,
            },
        }
    }

    fn clock(&self) -> u64 {
        self.top.clock
    }

    /// One clock: the traffic models and `lite` drive the inputs, the
    /// outputs are observed and checked, then the rising edge.
    fn clock_once(&mut self, lite: LiteIn) -> LiteOut {
        let now = self.top.clock;
        let e = &mut self.env;
        e.dma.run(now, &mut self.top.mem, &e.reqs, &mut e.images);
        if now.is_multiple_of(2048) {
            e.req_pct = e.rng.gen_range(10..=100);
            e.rsp_pct = e.rng.gen_range(10..=100);
        }
        if e.offer.is_none() && e.inflight.len() < 200 && e.rng.gen_range(0..100) < e.req_pct {
            e.offer = e.pick_offer(now);
        }
        let o = e.offer;
        let rsp_ready = e.rng.gen_range(0..100) < e.rsp_pct;
        let done = e.dma.pop_done();
        e.dones += done.is_some() as u64;
        let out = self.top.cycle(&Inputs {
            req: o.map(|o| XReq {
                tag: o.tag,
                req: o.req,
                rqpn: o.rqpn,
                psn: o.psn,
                msn: o.msn,
                msg_len: o.msg_len,
            }),
            rsp_ready,
            done,
            lite,
            wake_stall: e.rng.gen_ratio(1, 4),
            nak_stall: e.rng.gen_ratio(1, 4),
        });
        while let Some((_, q)) = self.top.wakes.pop_front() {
            *self.env.wakes_by_qp.entry(q).or_default() += 1;
        }
        while let Some((c, q, hdr)) = self.top.naks.pop_front() {
            self.env
                .nak_got
                .entry(q)
                .or_default()
                .push_back(decode_nak(c, q, hdr));
            self.env.pair_naks(c, q);
        }
        assert!(
            out.lite.b.is_none() || self.lite_w,
            "clock {now}: BVALID with no AXI4-Lite write under way"
        );
        assert!(
            out.lite.r.is_none() || self.lite_r,
            "clock {now}: RVALID with no AXI4-Lite read under way"
        );
        let e = &mut self.env;
        if o.is_some() && !out.accepted {
            e.blocked += 1;
        }
        if let Some(Some(o)) = e.xreq_mon.observe(now, o.is_some(), out.accepted, o) {
            e.accepted(o, now, &self.top.mem);
        }
        let (t, st, pa, seg, last) = out.offered.unwrap_or_default();
        let beat = (t, st, pa, seg, last, out.epoch);
        if let Some(b) = e
            .xrsp_mon
            .observe(now, out.offered.is_some(), rsp_ready, beat)
        {
            e.beat(b, now);
        }
        out.lite
    }
}

impl LiteCycle for World {
    fn lite_cycle(&mut self, lite: LiteIn) -> LiteOut {
        self.clock_once(lite)
    }
}

impl WordMemory for World {
    fn load64(&mut self, addr: u64) -> u64 {
        self.top.mem.read64(addr)
    }
    fn store64(&mut self, addr: u64, value: u64) {
        self.top.mem.write64(addr, value)
    }
}

impl Bus for World {
    fn write32(&mut self, addr: u16, data: u32) -> Result<(), u8> {
        self.lite_w = true;
        let r = write32(self, addr, data);
        self.lite_w = false;
        r
    }

    fn read32(&mut self, addr: u16) -> u32 {
        self.lite_r = true;
        let v = read32(self, addr);
        self.lite_r = false;
        v
    }
}

impl Env {
    /// The next request: a message packet of a requester, or random traffic.
    fn pick_offer(&mut self, now: u64) -> Option<Offer> {
        let mut tag = self.next_tag;
        while self.inflight.contains_key(&tag) {
            tag = tag.wrapping_add(1);
        }
        self.next_tag = tag.wrapping_add(1);
        if self.random_on && self.rng.gen_ratio(1, 4) {
            let req = random_req(
                &mut self.rng,
                &self.table,
                &self.static_mrs,
                self.reqs.len() as u32,
                self.qps,
                &self.recent,
            );
            // Half the requests of a waiting QP carry the PSN it waits for,
            // as a retransmission does (the rest are DROP).
            let psn = match self.waiting.get(&req.qpn) {
                Some(&p) if self.rng.gen() => p,
                _ => self.rng.gen_range(0..1 << 24),
            };
            return Some(Offer {
                tag,
                src: Src::Random,
                req,
                rqpn: self.rng.gen_range(0..1 << 24),
                psn,
                msn: self.rng.gen_range(0..1 << 24),
                msg_len: self.rng.gen(),
            });
        }
        let n = self.reqs.len();
        if n == 0 {
            return None;
        }
        let start = self.rng.gen_range(0..n);
        for k in 0..n {
            let i = (start + k) % n;
            if self.reset_due.contains_key(&i) {
                // Its QP is in error: nothing until the QP_RESET.
                continue;
            }
            let r = &mut self.reqs[i];
            if let Some((idx, p)) = r.offer(&mut self.rng, now) {
                return Some(Offer {
                    tag,
                    src: Src::Msg(i, idx, p),
                    req: Req {
                        op: p.op,
                        qpn: r.qpn,
                        pd: r.pd,
                        key: r.key,
                        va: p.va,
                        len: p.len as u16,
                    },
                    rqpn: r.rqpn,
                    psn: p.psn,
                    msn: p.msn,
                    msg_len: p.msg_len,
                });
            }
        }
        None
    }

    fn accepted(&mut self, o: Offer, now: u64, mem: &HostMemory) {
        let want = match o.src {
            Src::Random => {
                let a = translate(&self.table, self.idx_bits, self.qps, mem, &o.req);
                if let Some(p) = a.fault_page {
                    let index = mr_index(o.req.key, self.idx_bits);
                    self.faulted_static.insert((index, p >> 12));
                }
                if self.recent.len() == 16 {
                    self.recent.pop_front();
                }
                self.recent.push_back(o.req);
                Some((a.status, a.beats))
            }
            Src::Msg(i, idx, _) => {
                self.reqs[i].sent(idx);
                None
            }
        };
        self.inflight.insert(
            o.tag,
            InFlight {
                offer: o,
                accepted: now,
                want,
                beats: Vec::new(),
                epoch: 0,
            },
        );
        self.per_qp.entry(o.req.qpn).or_default().push_back(o.tag);
        self.offer = None;
        self.sent += 1;
    }

    /// One response beat.
    fn beat(&mut self, (t, status, pa, seg, last, epoch): (u8, u8, u64, u64, bool, u8), now: u64) {
        let f = self
            .inflight
            .get_mut(&t)
            .unwrap_or_else(|| panic!("clock {now}: answer for unknown tag {t}"));
        let q = self.per_qp.get_mut(&f.offer.req.qpn).unwrap();
        assert_eq!(
            q.front(),
            Some(&t),
            "clock {now}: QP {} answered out of order",
            f.offer.req.qpn
        );
        if status != status::OK {
            assert!(
                last && f.beats.is_empty(),
                "clock {now}: a non-OK answer is one beat"
            );
        } else if !f.beats.is_empty() {
            assert_eq!(epoch, f.epoch, "clock {now}: every beat carries one epoch");
        }
        f.beats.push((pa, seg));
        f.epoch = epoch;
        if !last {
            return;
        }
        q.pop_front();
        let f = self.inflight.remove(&t).unwrap();
        *self.seen.entry(status).or_default() += 1;
        if status == status::STALL {
            *self.stalls_by_qp.entry(f.offer.req.qpn).or_default() += 1;
        }
        let req = f.offer.req;
        if !self.responder(&f, status, now) {
            if let Src::Msg(i, idx, _) = f.offer.src {
                *self.msg_answers.entry(status).or_default() += 1;
                self.reqs[i].answered(idx, false, now);
            }
            return;
        }
        match f.offer.src {
            Src::Random => {
                let (want, beats) = f.want.unwrap();
                let fault = if req.op <= op::REMOTE_READ {
                    status::RNR
                } else {
                    status::STALL
                };
                let index = mr_index(req.key, self.idx_bits);
                let first = req.va >> 12;
                let last = (req.va + (req.len as u64).max(1) - 1) >> 12;
                let pending_page =
                    (first..=last).any(|v| self.faulted_static.contains(&(index, v)));
                if !(want == status::OK && status == fault && pending_page) {
                    assert_eq!(status, want, "clock {now}: status of tag {t} {req:x?}");
                }
                self.walk_fatals += (status == status::FATAL) as u64;
                if status == status::OK {
                    assert_eq!(f.beats, beats, "clock {now}: beats of tag {t} {req:x?}");
                    // Nothing to transfer: the DMA engine returns it at once.
                    self.dma.abandon(now, f.epoch);
                    self.random_oks += 1;
                }
            }
            Src::Msg(i, idx, _) => {
                *self.msg_answers.entry(status).or_default() += 1;
                self.msg_answer(i, idx, status, &f, now);
            }
        }
    }

    /// The responder discipline on an answer, in answer order (SPEC 5.5):
    /// a remote op of a QP waiting for another PSN must be DROP and nothing
    /// else may be; RNR makes the QP wait, any other answer ends the wait.
    /// Queues the NAK the answer calls for. False for a DROP (no other
    /// check applies to it).
    fn responder(&mut self, f: &InFlight, status: u8, now: u64) -> bool {
        let req = f.offer.req;
        let remote = req.op == op::REMOTE_WRITE || req.op == op::REMOTE_READ;
        let state = remote && req.qpn < self.qp_table;
        let psn = f.offer.psn;
        // A QP in error answers FATAL to everything, before the PSN rule
        // (a remote op with a NAK 0x63, below). The first FATAL of a
        // message QP starts an error episode, which an error RESUME must
        // account for.
        let msg = matches!(f.offer.src, Src::Msg(..));
        if msg && !self.in_error.contains(&req.qpn) && status == status::FATAL {
            self.error_episode(req.qpn, now);
        }
        let in_error = msg && self.in_error.contains(&req.qpn);
        if in_error {
            assert_eq!(
                status,
                status::FATAL,
                "clock {now}: QP {} is in error until its QP_RESET: psn {psn:#x} {req:x?}",
                req.qpn
            );
        }
        let waits_for = self.waiting.get(&req.qpn).copied().filter(|_| state);
        let drop = !in_error && waits_for.is_some_and(|p| p != psn);
        assert_eq!(
            status == status::DROP,
            drop,
            "clock {now}: QP {} psn {psn:#x} waiting for {waits_for:x?}: status {status}",
            req.qpn
        );
        if drop {
            return false;
        }
        if state {
            if status == status::RNR {
                self.waiting.insert(req.qpn, psn);
            } else {
                self.waiting.remove(&req.qpn);
            }
        }
        let syndrome = match status {
            status::RNR => Some(0x20 | odp_mmu::spec::rnr_timer::RESET_CODE as u8),
            status::ACCESS_ERR => Some(0x62),
            status::FATAL => Some(0x63),
            _ => None,
        };
        if let Some(syndrome) = syndrome.filter(|_| remote) {
            self.rnr_naks += (status == status::RNR) as u64;
            self.nak_want.entry(req.qpn).or_default().push_back(Nak {
                qpn: req.qpn,
                rqpn: f.offer.rqpn,
                psn,
                msn: f.offer.msn,
                syndrome,
            });
            self.pair_naks(now, req.qpn);
        }
        true
    }

    /// The first FATAL of message QP `qpn` since its start or its last
    /// QP_RESET: matches it to an error RESUME that can have put the QP in
    /// error (sent before `now`, for a page one of the QP's requests
    /// accepted before the RESUME returned was answered RNR / STALL on, and
    /// not matched to an earlier episode of the QP), oldest first.
    fn error_episode(&mut self, qpn: u32, now: u64) {
        let touch = self.fault_touch.get(&qpn);
        let used = self.err_used.entry(qpn).or_default();
        let k = self
            .err_resumes
            .iter()
            .enumerate()
            .position(|(k, e)| {
                e.from < now
                    && !used.contains(&k)
                    && touch
                        .and_then(|t| t.get(&(e.mr, e.page_va)))
                        .is_some_and(|&at| at < e.to)
            })
            .unwrap_or_else(|| {
                panic!(
                    "clock {now}: FATAL for QP {qpn}, which no error RESUME can have put in error \
                     (error RESUMEs {}, matched to its earlier episodes {used:?})",
                    self.err_resumes.len()
                )
            });
        used.insert(k);
        self.in_error.insert(qpn);
    }

    /// Pairs the NAKs expected with those taken for QP `qpn`, in order.
    fn pair_naks(&mut self, now: u64, qpn: u32) {
        let (want, got) = (
            self.nak_want.entry(qpn).or_default(),
            self.nak_got.entry(qpn).or_default(),
        );
        while !want.is_empty() && !got.is_empty() {
            let (w, g) = (want.pop_front(), got.pop_front());
            assert_eq!(g, w, "clock {now}: NAK {} in QP {qpn}'s order", self.naks);
            self.naks += 1;
        }
        let early: usize = self.nak_got.values().map(VecDeque::len).sum();
        assert!(
            early <= 64,
            "clock {now}: NAKs with no answer calling for them: {:x?}",
            self.nak_got
        );
    }

    /// The isolation and liveness monitors of a message packet's answer.
    fn msg_answer(&mut self, i: usize, idx: usize, status: u8, f: &InFlight, now: u64) {
        let r = &self.reqs[i];
        let req = f.offer.req;
        let mr_pos = r.mr;
        let mr = &self.msg[r.mr];
        let what = format!(
            "clock {now}: QP {} psn {:#x} {req:x?} accepted at {}",
            req.qpn, f.offer.psn, f.accepted
        );
        let suspended_during = mr.suspended.iter().any(|&(on, off)| {
            on.issued <= now && off.is_none_or(|off| off.done.saturating_add(8) >= f.accepted)
        });
        let suspended_throughout = mr.suspended.iter().any(|&(on, off)| {
            on.done.saturating_add(8) <= f.accepted && off.is_none_or(|off| off.issued > now)
        });
        let pages = self.pages.touched(r.mr, req.va, req.len as u64);
        match status {
            status::OK => {
                assert!(
                    !suspended_throughout,
                    "{what}: OK while its MR is suspended ({:?})",
                    mr.suspended
                );
                // Each beat: the page's frame, up to the page's end.
                let mut va = req.va;
                let mut want = Vec::new();
                for p in &pages {
                    assert!(
                        p.mapped_at.is_some_and(|m| m <= now),
                        "{what}: OK for page {:#x}, which is not present",
                        p.va
                    );
                    let end = (p.va + p.size.bytes()).min(req.va + req.len as u64);
                    want.push(((p.frame << 12) + (va - p.va), end - va));
                    va = end;
                }
                assert_eq!(f.beats, want, "{what}: beats (pa, seg_len)");
            }
            status::RNR | status::STALL => {
                let remote = req.op == op::REMOTE_WRITE || req.op == op::REMOTE_READ;
                assert_eq!(
                    status,
                    if remote { status::RNR } else { status::STALL },
                    "{what}: RNR for remote ops, STALL for local ones"
                );
                let missing: Vec<u64> = pages
                    .iter()
                    .filter(|p| p.mapped_at.is_none_or(|m| m + SLACK > f.accepted))
                    .map(|p| p.va)
                    .collect();
                assert!(
                    suspended_during || !missing.is_empty(),
                    "{what}: {} for present pages of a valid MR",
                    if remote { "RNR" } else { "STALL" }
                );
                for p in pages.iter().filter(|p| p.mapped_at.is_none()) {
                    self.faulted.insert((p.mr, p.va));
                }
                // The fault slots the QP may have joined: every 4 KiB page
                // the request touched.
                let touch = self.fault_touch.entry(req.qpn).or_default();
                let end = req.va + (req.len as u64).max(1);
                for page in req.va >> 12..=(end - 1) >> 12 {
                    let at = touch.entry((mr_pos, page << 12)).or_insert(f.accepted);
                    *at = (*at).min(f.accepted);
                }
            }
            status::FATAL => {
                // The QP is in error (`responder` checked that an error
                // RESUME accounts for it). The requester stops, as an RC
                // consumer does; the connection manager resets the QP once
                // nothing of it is in flight, and the requester retries.
                self.err_fatals += 1;
                let due = now + self.rng.gen_range(0..400);
                self.reset_due.entry(i).or_insert(due);
            }
            _ => panic!("{what}: status {status} for a request the MR allows"),
        }
        let ok = status == status::OK;
        if ok {
            let Src::Msg(_, _, p) = f.offer.src else {
                unreachable!()
            };
            self.dma.push(
                &mut self.rng,
                now,
                Dma {
                    req: i,
                    packet: p,
                    beats: f.beats.clone(),
                    epoch: f.epoch,
                    due: 0,
                    answered: now,
                },
            );
        }
        self.reqs[i].answered(idx, ok, now);
    }
}

/// Random traffic on the static MRs and on QPs no requester uses: wrong
/// tags, PDs, QPs, lengths; pages missing, read-only, behind SLVERR.
fn random_req(
    rng: &mut StdRng,
    table: &[MrEntry],
    static_mrs: &[usize],
    first_qp: u32,
    qps: u32,
    recent: &VecDeque<Req>,
) -> Req {
    if !recent.is_empty() && rng.gen() {
        let r = recent[rng.gen_range(0..recent.len())];
        return Req {
            op: rng.gen_range(0..4),
            va: (r.va & !0xfff) | rng.gen_range(0..4096),
            len: rng.gen_range(1..=512),
            ..r
        };
    }
    let i = static_mrs[rng.gen_range(0..static_mrs.len())];
    let e = &table[i];
    let mut key = (i as u32) << 8 | e.tag as u32;
    if rng.gen_ratio(1, 30) {
        // Only the tag: another index could name a message MR.
        key ^= 1 << rng.gen_range(0..8);
    }
    let len = if rng.gen_ratio(1, 50) {
        0
    } else {
        rng.gen_range(1..=4096)
    };
    let off = rng.gen_range(0..e.length.max(1));
    Req {
        op: rng.gen_range(0..4),
        qpn: if rng.gen_ratio(1, 40) {
            qps + 1
        } else {
            rng.gen_range(first_qp..qps)
        },
        pd: if rng.gen_ratio(1, 40) { 3 } else { e.pd },
        key,
        va: e.base_va.wrapping_add(off),
        len,
    }
}

/// Static MRs of every depth and page size with holes, read-only pages and
/// one table behind SLVERR, laid out in `mem` (frames from 0x8000).
fn build_static_mrs(rng: &mut StdRng, mem: &mut HostMemory, n: usize) -> Vec<MrEntry> {
    let mut tables = PageTableBuilder::new(0x8000, 0x10_0000);
    let mut mrs = Vec::new();
    for i in 0..n {
        let levels: u8 = rng.gen_range(1..=4);
        let t = tables.new_mr(levels);
        let length: u64 = if levels == 1 {
            rng.gen_range(1..=64) * 4096 - rng.gen_range(0..4096)
        } else {
            rng.gen_range(1..=4) << 21
        };
        let base_va = rng.gen::<u64>() >> 8;
        let span = length + (base_va & 0xfff);
        let mut off = 0;
        while off < span {
            let two_meg = levels >= 2
                && !(i % 4 == 1 && off == 0)
                && off % (1 << 21) == 0
                && off + (1 << 21) <= span + 4096
                && rng.gen_ratio(1, 3);
            let size = if two_meg {
                PageSize::Size2M
            } else {
                PageSize::Size4K
            };
            if rng.gen_ratio(4, 5) {
                let align = size.bytes() >> 12;
                let frame = (rng.gen_range(0x10_0000u64..0x80_0000) / align) * align;
                tables.map(mem, t, off, size, frame, rng.gen_ratio(6, 7));
            }
            off += size.bytes();
        }
        if i % 4 == 1 {
            let a = tables.pte_addr(mem, t, 0, 0) & !0xfff;
            mem.inject_error(a..a + 4096, RESP_SLVERR);
        }
        mrs.push(MrEntry {
            tag: rng.gen(),
            pd: rng.gen_range(1..3),
            base_va,
            length,
            access: if rng.gen_ratio(4, 5) {
                7
            } else {
                rng.gen_range(0..8)
            },
            root: t.root,
            levels_m1: t.levels_m1,
            state: mr_state::VALID,
        });
    }
    mrs
}

/// Host frames for message pages: unique, so a byte has one home.
struct Frames {
    next_4k: u64,
    next_2m: u64,
}

impl Frames {
    fn take(&mut self, size: PageSize) -> u64 {
        match size {
            PageSize::Size4K => {
                self.next_4k += 1;
                self.next_4k - 1
            }
            _ => {
                self.next_2m += 512;
                self.next_2m - 512
            }
        }
    }
}

/// Writes the buffer bytes a page holds into its frame (the OS faulting the
/// page in brings its content).
fn fill_frame(mem: &mut HostMemory, p: &Page, reqs: &[Requester], images: &[Vec<u8>]) {
    for (r, img) in reqs.iter().zip(images) {
        if r.mr != p.mr {
            continue;
        }
        let lo = r.buf_va.max(p.va);
        let hi = (r.buf_va + r.buf_len).min(p.va + p.size.bytes());
        for va in lo..hi {
            let a = (p.frame << 12) + (va - p.va);
            let v = img[(va - r.buf_va) as usize];
            mem.write_strb(a & !7, (v as u64) << (8 * (a & 7)), 1 << (a & 7));
        }
    }
}

/// Error events matched so far: whether the last one had `more` set, and
/// the refusal matched while skipping was allowed.
#[derive(Default)]
struct ErrorMatch {
    more: bool,
    same: Option<(u8, u16, u8)>,
}

/// Matches error event `ev` with the oldest refused command expected
/// (`(code, MR field, op)`); refusals merged into the previous error event
/// (its `more`) are skipped. Identical refusals cannot be told apart: when
/// an event matched the first of a run of them after a `more`, the rest of
/// the run may have been the ones merged, and are skipped later too.
fn error_event(now: u64, ev: &Event, want: &mut VecDeque<(u8, u16, u8)>, m: &mut ErrorMatch) {
    let Event::Error {
        code,
        mr,
        detail,
        more,
    } = *ev
    else {
        unreachable!()
    };
    let t = (code, mr, detail as u8);
    loop {
        let w = want
            .pop_front()
            .unwrap_or_else(|| panic!("clock {now}: error event {ev:x?} with no refused command"));
        if w == t {
            break;
        }
        assert!(
            m.more || m.same == Some(w),
            "clock {now}: error event of {w:x?} lost (event {ev:x?})"
        );
    }
    m.same = m.more.then_some(t);
    m.more = more;
}

/// Suspends (MR_SUSPEND) or resumes (MR_RESUME) message MR `k` through
/// the driver and in the bench's copies; returns the clock the command
/// finished.
fn suspend_msg_mr(drv: &mut Driver<World>, k: usize, suspend: bool) -> u64 {
    let mut mr = drv.bus.env.msg[k].mr;
    if suspend {
        drv.suspend_mr(&mut mr)
            .unwrap_or_else(|e| panic!("MR_SUSPEND of message MR {k}: {e}"));
    } else {
        drv.resume_mr(&mut mr)
            .unwrap_or_else(|e| panic!("MR_RESUME of message MR {k}: {e}"));
    }
    let e = &mut drv.bus.env;
    e.msg[k].mr = mr;
    e.table[k] = mr.entry();
    drv.bus.clock()
}

/// A suspended MR's drain guarantee, when its "MR suspended" event is read:
/// every OK answer for the MR taken before the MR_SUSPEND was issued has
/// been returned on `s_done` (its DMA is over), so the driver may move the
/// MR's pages.
fn check_suspend_drained(w: &World, now: u64, mr: u16, pending: &mut Option<(usize, u64, bool)>) {
    let Some((k, issued, seen)) = pending.as_mut() else {
        panic!("clock {now}: \"MR suspended\" for MR {mr} with no MR_SUSPEND pending");
    };
    assert!(
        *k == mr as usize && !*seen,
        "clock {now}: \"MR suspended\" for MR {mr}, MR_SUSPEND pending for MR {k} (seen {seen})"
    );
    let left = w.env.dma.unreported(|i| w.env.reqs[i].mr == *k, *issued);
    assert_eq!(
        left, 0,
        "clock {now}: MR {mr} suspended while {left} OK answers of it taken before the MR_SUSPEND (clock {issued}) still do DMA"
    );
    *seen = true;
}

/// Bring-up, MR registration and a bad command through the driver, then
/// `clocks` of traffic with the driver playing the OS, then the drain and
/// the final checks. Returns the clocks run.
fn system_run(params: &Params, clocks: u64, seed: u64) -> u64 {
    println!("run: seed {seed} (replay with ODP_SEED={seed}), {clocks} clocks");
    let mut rng = StdRng::seed_from_u64(seed);
    let world = World::new(params, seed);
    let mut drv = Driver::new(world, 0x1000..0x8000, true);
    let caps = drv.bring_up().expect("bring-up");
    assert_eq!(
        (caps.mrs, caps.qps, caps.walks),
        (
            params.mr_entries as u32,
            params.qps as u32,
            params.walks as u32
        ),
        "capabilities"
    );

    // Message MRs: half of the table (at most 8), buffers for the
    // requesters; the other half (at most 16) static MRs.
    let n_msg = (params.mr_entries / 2).min(8);
    let n_static = (params.mr_entries - n_msg).min(16);
    let mut frames = Frames {
        next_4k: 0x20_0000,
        next_2m: 0x40_0000,
    };
    let n_req = (params.qps as u32 * 3 / 4).min(12) as usize;
    let mut msg_mrs = Vec::new();
    let mut pages = Pages::default();
    for k in 0..n_msg {
        let levels: u8 = rng.gen_range(1..=4);
        let length: u64 = if levels == 1 {
            rng.gen_range(256..=500) << 12
        } else {
            rng.gen_range(1..=3) << 21
        };
        let spec = MrSpec {
            tag: rng.gen(),
            pd: rng.gen_range(1..4),
            base_va: (rng.gen::<u64>() >> 12) | rng.gen_range(0..4096),
            length,
            access: 7,
            levels,
        };
        let mr = drv
            .register_mr(k as u32, spec)
            .expect("register message MR");
        let first = spec.base_va & !0xfff;
        let end = spec.base_va + length;
        let mut va = first;
        while va < end {
            let huge = levels >= 2 && (va - first).is_multiple_of(1 << 21) && rng.gen_ratio(1, 3);
            let size = if huge {
                PageSize::Size2M
            } else {
                PageSize::Size4K
            };
            pages.map.insert(
                (k, va),
                Page {
                    mr: k,
                    va,
                    size,
                    frame: frames.take(size),
                    mapped_at: None,
                },
            );
            va += size.bytes();
        }
        drv.bus.env.table[k] = mr.entry();
        msg_mrs.push(MsgMr {
            mr,
            suspended: Vec::new(),
        });
    }
    for (j, e) in build_static_mrs(&mut rng, &mut drv.bus.top.mem, n_static)
        .into_iter()
        .enumerate()
    {
        let index = n_msg + j;
        drv.write_mr(index as u32, &e).expect("register static MR");
        drv.bus.env.table[index] = e;
        drv.bus.env.static_mrs.push(index);
    }

    // Requesters: remote ones on the first QPs, then local ones; a buffer
    // each in a message MR.
    let mut reqs = Vec::new();
    let mut images = Vec::new();
    for q in 0..n_req {
        // Requesters of one MR get disjoint slices of it.
        let k = q % n_msg;
        let mr = &msg_mrs[k].mr;
        let per_mr = n_req.div_ceil(n_msg) as u64;
        let slice = mr.spec.length / per_mr;
        let len = rng.gen_range(4096..=65536).min(slice);
        let va = mr.spec.base_va + (q / n_msg) as u64 * slice + rng.gen_range(0..=slice - len);
        let remote = q < n_req * 2 / 3;
        reqs.push(Requester::new(
            &mut rng,
            q as u32,
            remote,
            k,
            mr.key(),
            mr.spec.pd,
            va,
            len,
            if remote { RNR_CLOCKS } else { STALL_CLOCKS },
        ));
        images.push((0..len).map(|_| rng.gen()).collect::<Vec<u8>>());
    }
    // Map 60 % of the pages now; the rest fault and are mapped later.
    let keys: Vec<(usize, u64)> = pages.map.keys().copied().collect();
    let mut missing: Vec<(usize, u64)> = Vec::new();
    for key in keys {
        if rng.gen_ratio(3, 5) {
            let p = pages.map.get_mut(&key).unwrap();
            drv.map(&msg_mrs[key.0].mr, p.va, p.size, p.frame, true);
            p.mapped_at = Some(drv.bus.clock());
            fill_frame(&mut drv.bus.top.mem, p, &reqs, &images);
        } else {
            missing.push(key);
        }
    }
    {
        let e = &mut drv.bus.env;
        e.dma = DmaEngine::new(reqs.len());
        e.reqs = reqs;
        e.images = images;
        e.pages = pages;
        e.msg = msg_mrs;
    }

    // A bad command: an MR index out of range. Answered, recorded, ignored.
    let bad = drv.bus.env.table[n_msg];
    assert_eq!(
        drv.write_mr(params.mr_entries as u32, &bad),
        Err(driver::Error::Command {
            op: regmap::op::MR_WRITE,
            code: RES_MR_RANGE as u8
        })
    );
    let (err, info) = drv.errors();
    assert_eq!(err >> regmap::ERROR_BAD_CMD & 1, 1, "ERROR.BAD_CMD");
    assert_eq!(
        (
            info >> regmap::ERROR_INFO_OP_LSB & 0xff,
            info >> regmap::ERROR_INFO_CODE_LSB & 0xff
        ),
        (regmap::op::MR_WRITE as u32, RES_MR_RANGE as u32)
    );
    drv.clear_errors(err).unwrap();
    assert_eq!(drv.errors().0 >> regmap::ERROR_BAD_CMD & 1, 0);
    // Each refused command also posts an error event (code, MR = ARG0
    // bits 15:0, op in the detail word), once the ring is there: the
    // refusals expected, oldest first, and whether the last error event
    // said more followed (merged into it, never posted).
    let mut want_errors: VecDeque<(u8, u16, u8)> = VecDeque::new();
    want_errors.push_back((
        RES_MR_RANGE as u8,
        params.mr_entries as u16,
        regmap::op::MR_WRITE,
    ));
    let mut errors_merge = ErrorMatch::default();

    // The event ring: 64 records in host memory above every table and
    // frame, interrupts on. A RESUME of a token never handed out is stale:
    // refused, flagged, and nothing changes.
    drv.setup_event_ring(RING_BASE, 6, true)
        .expect("event ring set-up");
    assert_eq!(
        drv.resume_fault(0x0001_0000, false),
        Err(driver::Error::StaleToken { token: 0x0001_0000 })
    );
    want_errors.push_back((driver::RES_STALE_TOKEN, 0, regmap::op::RESUME_FAULT));
    let (err, _) = drv.errors();
    assert_eq!(
        err >> regmap::ERROR_RESUME_STALE & 1,
        1,
        "ERROR.RESUME_STALE"
    );
    drv.clear_errors(err).unwrap();

    // Traffic, with the driver playing the OS.
    drv.bus.env.random_on = true;
    let start = drv.bus.clock();
    let mut next_poll = start;
    let mut faults = 0u64;
    let mut hinted = 0u64;
    let mut next_csr = start + 1000;
    let mut resume_at: Option<(usize, u64)> = None;
    // The MR_SUSPEND in progress: message MR, clock it was issued, its
    // "MR suspended" event read.
    let mut suspending: Option<(usize, u64, bool)> = None;
    let mut lookups_seen = 0u64;
    let mut suspends = 0u64;
    // The PREFETCH running (its tag, pages and WRITE flag), and the
    // PREFETCHes done.
    let mut prefetching: Option<(u8, u64, bool)> = None;
    let mut prefetches = 0u64;
    // The driver's error and stale RESUMEs, the QP resets of the
    // connection manager; error RESUMEs per 4 KiB page (at most 2, so every
    // message completes); the last token resumed (a stale one from then
    // on: its slot's generation has moved on, and only this driver's
    // RESUMEs move it).
    let mut stale = 0u64;
    let mut error_events = 0u64;
    let mut qp_resets = 0u64;
    let mut err_per_page: HashMap<(usize, u64), u32> = HashMap::new();
    let mut last_token: Option<u32> = None;
    let mut closing = false;
    loop {
        let now = drv.bus.clock();
        let c = now - start;
        let w = &mut drv.bus;
        if !closing {
            closing = harness::done(c, clocks, clocks * 10, || {
                let e = &w.env;
                let ans = |s: u8| e.msg_answers.get(&s).copied().unwrap_or(0);
                let any = |s: u8| e.seen.get(&s).copied().unwrap_or(0);
                vec![
                    ("message OK", ans(status::OK), 100),
                    ("message RNR", ans(status::RNR), 1),
                    ("message STALL", ans(status::STALL), 1),
                    ("ACCESS_ERR", any(status::ACCESS_ERR), 1),
                    ("walk FATAL", e.walk_fatals, 1),
                    ("error RESUMEs", e.err_resumes.len() as u64, 1),
                    ("FATAL from QP error", e.err_fatals, 1),
                    ("QP resets", qp_resets, 1),
                    ("stale RESUMEs", stale, 1),
                    ("error events of refused commands", error_events, 3),
                    (
                        "messages done",
                        e.reqs.iter().map(|r| r.messages_done).sum(),
                        50,
                    ),
                    ("MR suspends", suspends, 1),
                    ("PREFETCHes done", prefetches, 2),
                    ("fault events", faults, 1),
                    ("wakes", e.wakes_by_qp.values().sum(), 1),
                ]
            });
            if closing {
                for r in &mut w.env.reqs {
                    r.closing = true;
                }
                w.env.random_on = false;
            }
        }
        if closing
            && prefetching.is_none()
            && w.env.inflight.is_empty()
            && w.env.offer.is_none()
            && w.env.dma.is_empty()
            && w.env.reqs.iter().all(|r| r.idle())
        {
            break;
        }
        assert!(
            c < clocks * 10 * harness::scale() + 400_000,
            "deadlock at clock {now}: {} requests unanswered, {} pages missing, QPs in error {:?}, resets due {:?}, requesters busy: {:#?}",
            w.env.inflight.len(),
            missing.len(),
            w.env.in_error,
            w.env.reset_due,
            w.env
                .reqs
                .iter()
                .filter(|r| !r.idle())
                .map(|r| r.state())
                .collect::<Vec<_>>()
        );
        // The connection manager: a QP in error with nothing in flight (and
        // nothing on offer) is reset through the driver; its requester then
        // retries.
        let reset = w.env.reset_due.iter().find(|&(&i, &due)| {
            now >= due
                && w.env.reqs[i].in_flight == 0
                && !matches!(w.env.offer, Some(Offer { src: Src::Msg(j, ..), .. }) if j == i)
        });
        if let Some(i) = reset.map(|(&i, _)| i) {
            let qpn = w.env.reqs[i].qpn;
            drv.qp_reset(qpn)
                .unwrap_or_else(|e| panic!("clock {now}: QP_RESET of QP {qpn}: {e}"));
            let e = &mut drv.bus.env;
            e.in_error.remove(&qpn);
            e.waiting.remove(&qpn);
            e.reset_due.remove(&i);
            qp_resets += 1;
            continue;
        }
        if now >= next_poll && w.top.irq {
            // The fault loop, after a random service delay: read the ring,
            // map each message page that faulted (and the pages of its
            // prefetch hint), RESUME its token. Now and then the driver
            // cannot map a missing page: it RESUMEs with the error flag and
            // maps nothing (the QPs waiting on the fault go in error; their
            // retries fault again later). A fault on a static MR's page
            // (tables that never change) is resumed as it is. Now and then
            // the driver resumes a token a second time: stale, refused,
            // and nothing else changes.
            let events = drv.poll_events().expect("poll the event ring");
            for ev in events {
                if let Event::Error { .. } = ev {
                    error_event(now, &ev, &mut want_errors, &mut errors_merge);
                    error_events += 1;
                    continue;
                }
                if let Event::MrSuspended { mr } = ev {
                    check_suspend_drained(&drv.bus, now, mr, &mut suspending);
                    continue;
                }
                if let Event::PrefetchDone {
                    tag,
                    filled,
                    faulted,
                    refused,
                    ..
                } = ev
                {
                    // Every page counted once; a message MR's pages are in
                    // it and every right is there but, maybe, local write.
                    let (t, n, write) = prefetching
                        .take()
                        .unwrap_or_else(|| panic!("clock {now}: {ev:x?} with no PREFETCH running"));
                    assert_eq!(tag, t as u32, "clock {now}: the PREFETCH's tag");
                    assert_eq!(
                        filled as u64 + faulted as u64 + refused as u64,
                        n,
                        "clock {now}: {ev:x?} counts every page once"
                    );
                    assert!(refused == 0 || write, "clock {now}: {ev:x?} refused pages");
                    prefetches += 1;
                    continue;
                }
                let Event::PageFault(pf) = ev else {
                    panic!("clock {now}: unexpected event {ev:x?}");
                };
                faults += 1;
                let mr = pf.mr as usize;
                let mut mapped = Vec::new();
                if mr < n_msg {
                    let m = drv.bus.env.msg[mr].mr;
                    let lo = m.spec.base_va & !0xfff;
                    let hi = m.spec.base_va + m.spec.length;
                    let range = pf.prefetch_range();
                    assert!(
                        range.start >= lo.min(pf.page_va) && range.end <= hi.max(pf.page_va + 4096),
                        "clock {now}: prefetch hint {range:x?} beyond MR {mr} [{lo:#x}, {hi:#x})"
                    );
                    let page = {
                        let p = drv.bus.env.pages.at(mr, pf.page_va);
                        (p.mr, p.va)
                    };
                    let errs = err_per_page.entry((mr, pf.page_va)).or_default();
                    // Errors only on pages a message request has been
                    // answered RNR / STALL on: most faults on missing pages
                    // are raised by PREFETCH pages (QPN 0xFFFFF8 + page mod
                    // 8), and an error on a fault no QP waits on puts
                    // nothing in error, so a run could spend every error
                    // RESUME on nothing. The first such fault of a run
                    // always gets one: the run's coverage needs one, and a
                    // run may see only a dozen such faults.
                    let touched = drv
                        .bus
                        .env
                        .fault_touch
                        .values()
                        .any(|t| t.contains_key(&(mr, pf.page_va)));
                    if !closing
                        && *errs < 2
                        && touched
                        && missing.contains(&page)
                        && (drv.bus.env.err_resumes.is_empty() || rng.gen_ratio(1, 4))
                    {
                        *errs += 1;
                        let from = drv.bus.clock();
                        drv.resume_fault(pf.token, true).unwrap_or_else(|e| {
                            panic!("clock {now}: RESUME with error of {pf:x?}: {e}")
                        });
                        let to = drv.bus.clock();
                        drv.bus.env.err_resumes.push(ErrResume {
                            mr,
                            page_va: pf.page_va,
                            from,
                            to,
                        });
                        last_token = Some(pf.token);
                        continue;
                    }
                    hinted += (range.end - range.start) / 4096 - 1;
                    let mut va = range.start;
                    while va < range.end {
                        let key = {
                            let p = drv.bus.env.pages.at(mr, va.max(m.spec.base_va));
                            (p.mr, p.va)
                        };
                        if let Some(k) = missing.iter().position(|&m| m == key) {
                            missing.swap_remove(k);
                            let p = drv.bus.env.pages.map[&key].clone();
                            drv.map(&m, p.va, p.size, p.frame, true);
                            let w = &mut drv.bus;
                            fill_frame(&mut w.top.mem, &p, &w.env.reqs, &w.env.images);
                            // Present from now: a request not waiting on the
                            // pending fault may walk it at once.
                            let at = w.clock();
                            w.env.pages.map.get_mut(&key).unwrap().mapped_at = Some(at);
                            mapped.push(key);
                        }
                        va = drv.bus.env.pages.map[&key].va
                            + drv.bus.env.pages.map[&key].size.bytes();
                    }
                }
                drv.resume_fault(pf.token, false)
                    .unwrap_or_else(|e| panic!("clock {now}: RESUME of {pf:x?}: {e}"));
                last_token = Some(pf.token);
                for key in mapped {
                    drv.bus.env.faulted.remove(&key);
                }
            }
            if let Some(token) = last_token.filter(|_| rng.gen_ratio(1, 10)) {
                assert_eq!(
                    drv.resume_fault(token, false),
                    Err(driver::Error::StaleToken { token }),
                    "clock {now}: a second RESUME of token {token:#x}"
                );
                let (err, info) = drv.errors();
                let bits = 1 << regmap::ERROR_RESUME_STALE | 1 << regmap::ERROR_BAD_CMD;
                assert_eq!(
                    err & bits,
                    bits,
                    "clock {now}: ERROR.RESUME_STALE and BAD_CMD after a stale RESUME"
                );
                assert_eq!(
                    (
                        info >> regmap::ERROR_INFO_OP_LSB & 0xff,
                        info >> regmap::ERROR_INFO_CODE_LSB & 0xff
                    ),
                    (
                        regmap::op::RESUME_FAULT as u32,
                        driver::RES_STALE_TOKEN as u32
                    ),
                    "clock {now}: ERROR_INFO after a stale RESUME"
                );
                // Only these two: ERROR.WALK_FATAL stays for the final check.
                drv.clear_errors(bits).unwrap();
                stale += 1;
                want_errors.push_back((
                    driver::RES_STALE_TOKEN,
                    token as u16,
                    regmap::op::RESUME_FAULT,
                ));
            }
            next_poll = drv.bus.clock() + if closing { 20 } else { rng.gen_range(20..1500) };
            continue;
        }
        // The driver resumes the MR once it has read the "MR suspended"
        // event (the pages could have moved then).
        let drained = suspending.is_some_and(|s| s.2);
        if let Some((k, _)) = resume_at.filter(|&(_, at)| drained && (now >= at || closing)) {
            // The MR may be valid from the issue on: the window's end is
            // known (its result not yet) while the command runs.
            let issued = drv.bus.clock();
            drv.bus.env.msg[k].suspended.last_mut().unwrap().1 = Some(Span {
                issued,
                done: u64::MAX,
            });
            let done = suspend_msg_mr(&mut drv, k, false);
            drv.bus.env.msg[k].suspended.last_mut().unwrap().1 = Some(Span { issued, done });
            resume_at = None;
            suspending = None;
            continue;
        }
        if now >= next_csr && !closing {
            next_csr = now + rng.gen_range(200..3000);
            if resume_at.is_none() && rng.gen_ratio(1, 4) {
                let k = rng.gen_range(0..n_msg);
                let issued = drv.bus.clock();
                suspending = Some((k, issued, false));
                drv.bus.env.msg[k].suspended.push((
                    Span {
                        issued,
                        done: u64::MAX,
                    },
                    None,
                ));
                let at = suspend_msg_mr(&mut drv, k, true);
                drv.bus.env.msg[k].suspended.last_mut().unwrap().0.done = at;
                resume_at = Some((k, at + rng.gen_range(100..3000)));
                suspends += 1;
            } else if prefetching.is_none() && rng.gen_ratio(1, 3) {
                // A PREFETCH of up to 64 pages of a message MR, its
                // missing pages faulted (and serviced as any fault) or not.
                let m = drv.bus.env.msg[rng.gen_range(0..n_msg)].mr;
                let off = rng.gen_range(0..m.spec.length);
                let len = rng.gen_range(1..=(m.spec.length - off).min(64 << 12));
                let va = m.spec.base_va + off;
                let flags = driver::PrefetchFlags {
                    write: rng.gen(),
                    no_fault: rng.gen(),
                };
                let tag = drv
                    .prefetch(&m, va, len, flags)
                    .unwrap_or_else(|e| panic!("clock {now}: PREFETCH: {e}"));
                let pages = ((va + len - 1) >> 12) - (va >> 12) + 1;
                prefetching = Some((tag, pages, flags.write));
            } else {
                let n = drv.counter("LOOKUPS").unwrap();
                assert!(
                    n >= lookups_seen,
                    "LOOKUPS went back from {lookups_seen} to {n}"
                );
                lookups_seen = n;
            }
            continue;
        }
        drv.bus.clock_once(LiteIn::default());
    }
    let w = &mut drv.bus;
    let e = &w.env;
    let msgs: u64 = e.reqs.iter().map(|r| r.messages_done).sum();
    let retries: u64 = e.reqs.iter().map(|r| r.retries).sum();
    println!(
        "error RESUMEs {}, FATALs from QP error {}, QP resets {qp_resets}, stale RESUMEs {stale}, walk FATALs {}, PREFETCHes {prefetches}",
        e.err_resumes.len(),
        e.err_fatals,
        e.walk_fatals
    );
    println!(
        "{} clocks: sent {}, refused {} clocks, by status {:?}; messages {msgs}, retries {retries}, DMA writes {} reads {} bytes {}, suspends {suspends}, pages still missing {}",
        w.clock() - start,
        e.sent,
        e.blocked,
        e.seen,
        e.dma.writes,
        e.dma.reads,
        e.dma.bytes,
        missing.len()
    );

    // Host memory holds every buffer's bytes.
    for (r, img) in e.reqs.iter().zip(&e.images) {
        for (k, &want) in img.iter().enumerate() {
            let va = r.buf_va + k as u64;
            let p = e.pages.at(r.mr, va);
            if p.mapped_at.is_none() {
                continue;
            }
            let a = (p.frame << 12) + (va - p.va);
            let got = (w.top.mem.read64(a & !7) >> (8 * (a & 7))) as u8;
            assert_eq!(
                got, want,
                "QP {} buffer byte at va {va:#x} (pa {a:#x})",
                r.qpn
            );
        }
    }

    assert_eq!(
        e.dones,
        e.msg_answers.get(&status::OK).copied().unwrap_or(0) + e.random_oks,
        "one s_done per OK request"
    );

    // The counters equal the bench's counts.
    let sent = e.sent;
    let get = |s: u8| e.seen.get(&s).copied().unwrap_or(0);
    let (acc, stall, fatal) = (
        get(status::ACCESS_ERR),
        get(status::STALL),
        get(status::FATAL),
    );
    let (walk_fatals, err_fatals) = (e.walk_fatals, e.err_fatals);
    assert_eq!(
        fatal,
        walk_fatals + err_fatals,
        "every FATAL is a walk's or a QP in error's"
    );
    let reads = w.top.walk_reads;
    let clock = w.clock();
    assert_eq!(drv.counter("LOOKUPS").unwrap(), sent, "LOOKUPS");
    assert_eq!(drv.counter("ACCESS_ERRORS").unwrap(), acc, "ACCESS_ERRORS");
    assert_eq!(drv.counter("STALLS").unwrap(), stall, "STALLS");
    assert_eq!(drv.counter("FATALS").unwrap(), fatal, "FATALS");
    let (err, _) = drv.errors();
    // Set by a FATAL a walk decided, not by those of a QP in error.
    assert_eq!(
        err >> regmap::ERROR_WALK_FATAL & 1,
        (walk_fatals > 0) as u32,
        "ERROR.WALK_FATAL after {walk_fatals} walk FATALs and {err_fatals} FATALs of QPs in error"
    );
    drv.clear_errors(err).unwrap();
    assert_eq!(drv.errors().0, 0, "ERROR cleared");
    assert_eq!(drv.counter("WALK_READS").unwrap(), reads, "WALK_READS");
    let (hits, misses) = (
        drv.counter("TLB_HITS").unwrap(),
        drv.counter("TLB_MISSES").unwrap(),
    );
    assert!(hits > 0 && misses > 0, "TLB hits {hits}, misses {misses}");
    assert!(drv.counter("WALKS").unwrap() > 0, "WALKS");
    // Faults: one event per new pending fault, every one seen by the
    // driver; wakes as sent, and no QP woken more often than it stalled.
    // Random traffic's last faults may land after the loop's last poll:
    // read and resume them, polling every 2,000 clocks until a poll finds
    // nothing and FAULTS says nothing more was recorded. A record's write
    // can wait out the memory's latency tail: polls go on while FAULTS is
    // ahead, up to SLACK clocks after the last record found.
    let mut quiet = 0;
    loop {
        for _ in 0..2000 {
            drv.bus.clock_once(LiteIn::default());
        }
        let ev = drv.poll_events().expect("final poll");
        if ev.is_empty() {
            quiet += 2000;
            if quiet > SLACK || drv.counter("FAULTS").unwrap() == faults {
                break;
            }
            continue;
        }
        quiet = 0;
        for e in ev {
            if let Event::Error { .. } = e {
                error_event(drv.bus.clock(), &e, &mut want_errors, &mut errors_merge);
                continue;
            }
            if let Event::MrSuspended { mr } = e {
                panic!("MR {mr} suspended after the run: its MR_RESUME came first");
            }
            let Event::PageFault(pf) = e else {
                panic!("unexpected event {e:x?}");
            };
            faults += 1;
            drv.resume_fault(pf.token, false)
                .unwrap_or_else(|e| panic!("RESUME of {pf:x?}: {e}"));
        }
    }
    assert_eq!(drv.counter("FAULTS").unwrap(), faults, "FAULTS");
    // Every NAK an answer called for came, in order, and no other.
    for _ in 0..100 {
        drv.bus.clock_once(LiteIn::default());
    }
    let e = &drv.bus.env;
    assert!(
        e.nak_want.values().all(VecDeque::is_empty) && e.nak_got.values().all(VecDeque::is_empty),
        "NAKs not paired: expected {:x?}, taken {:x?}",
        e.nak_want,
        e.nak_got
    );
    let (naks, rnr_naks, drops) = (
        e.naks,
        e.rnr_naks,
        e.seen.get(&status::DROP).copied().unwrap_or(0),
    );
    assert_eq!(
        drv.counter("RNR_NAKS_FAULT").unwrap() + drv.counter("RNR_NAKS_SUSPENDED").unwrap(),
        rnr_naks,
        "RNR_NAKS_FAULT + RNR_NAKS_SUSPENDED"
    );
    assert_eq!(drv.counter("DROPS").unwrap(), drops, "DROPS");
    println!("NAKs {naks} (RNR {rnr_naks}), DROP answers {drops}");
    let e = &drv.bus.env;
    let wakes: u64 = e.wakes_by_qp.values().sum();
    for (q, &n) in &e.wakes_by_qp {
        let st = e.stalls_by_qp.get(q).copied().unwrap_or(0);
        assert!(n <= st, "QP {q}: {n} wakes for {st} STALL answers");
    }
    assert_eq!(drv.counter("WAKES").unwrap(), wakes, "WAKES");
    println!("fault events {faults}, pages mapped from hints {hinted}, wakes {wakes}");
    drv.clear_counters().unwrap();
    assert_eq!(drv.counter("LOOKUPS").unwrap(), 0, "COUNTER_CLEAR");
    clock
}

/// `runs` seeds in a row from the test's seed; at least `total` clocks.
fn system_runs(params: &Params, runs: u64, clocks: u64) {
    let base = seed();
    let mut total = 0;
    for k in 0..runs {
        total += system_run(params, clocks, base.wrapping_add(k));
    }
    println!("{runs} runs, {total} clocks in all");
    assert!(total >= runs * clocks * harness::scale());
}

#[test]
fn system_small_core_in_its_environment_random() {
    system_runs(&Params::small(), 10, 250_000);
}

#[test]
fn system_default_core_in_its_environment_random() {
    system_runs(&Params::default(), 10, 250_000);
}

/// RESUME with the error flag puts the QPs that waited on the fault in
/// error (SPEC section 4): the stalled local QP is woken and its retry is
/// FATAL (no NAK), the remote QP's retransmission is FATAL with NAK 0x63,
/// until QP_RESET; a QP's RNR timer override reaches its NAKs; a QPN
/// beyond the core's QPs is refused. Through the driver library on the
/// Verilated small core.
#[test]
fn system_error_resume_makes_qps_fatal_until_qp_reset() {
    use odp_mmu_workshop::bench_faults::{core_with, events, map, one, BASE};
    let (mut drv, mr) = core_with(&Params::small());
    let va = BASE + 0x3000;
    let req = |op, qpn| Req {
        op,
        qpn,
        pd: 1,
        key: 0x5a,
        va,
        len: 64,
    };
    let (remote, local) = (5, 6);
    let (st, _) = one(&mut drv, &req(op::REMOTE_WRITE, remote), 0x10, 64);
    assert_eq!(st, status::RNR);
    let (st, _) = one(&mut drv, &req(op::LOCAL_WRITE, local), 0, 64);
    assert_eq!(st, status::STALL);
    // Another PSN of the waiting remote QP: DROP, no NAK.
    let (st, _) = one(&mut drv, &req(op::REMOTE_WRITE, remote), 0x11, 64);
    assert_eq!(st, status::DROP);
    let ev = events(&mut drv);
    assert_eq!(ev.len(), 1, "one fault for the page: {ev:x?}");
    drv.bus.wakes.clear();
    drv.resume_fault(ev[0].token, true)
        .expect("RESUME with error");
    for _ in 0..300 {
        drv.bus.cycle(&Inputs::default());
    }
    let wakes: Vec<u32> = drv.bus.wakes.iter().map(|w| w.1).collect();
    assert_eq!(wakes, vec![local], "one wake, for the stalled local QP");
    map(&mut drv, &mr, va);
    // Every NAK taken, for the packet dissector at the end.
    let mut wire: Vec<u128> = Vec::new();
    let mut syndromes = |drv: &mut Driver<VerilatedTop>| -> Vec<(u32, u8)> {
        for _ in 0..20 {
            drv.bus.cycle(&Inputs::default());
        }
        drv.bus
            .naks
            .drain(..)
            .map(|(_, q, h)| {
                wire.push(h);
                (q, h.to_be_bytes()[12])
            })
            .collect()
    };
    assert_eq!(syndromes(&mut drv), vec![(remote, 0x2c)], "the RNR NAK");
    // In error, page mapped or not: FATAL, a NAK 0x63 for the remote op.
    let (st, _) = one(&mut drv, &req(op::REMOTE_WRITE, remote), 0x10, 64);
    assert_eq!(st, status::FATAL, "remote QP in error");
    let (st, _) = one(&mut drv, &req(op::LOCAL_WRITE, local), 0, 64);
    assert_eq!(st, status::FATAL, "local QP in error");
    assert_eq!(syndromes(&mut drv), vec![(remote, 0x63)]);
    assert_eq!(
        drv.errors().0 >> regmap::ERROR_WALK_FATAL & 1,
        0,
        "no walk failed"
    );
    // QP_RESET clears the error.
    drv.qp_reset(remote).expect("QP_RESET");
    drv.qp_reset(local).expect("QP_RESET");
    let (st, _) = one(&mut drv, &req(op::REMOTE_WRITE, remote), 0x12, 64);
    assert_eq!(st, status::OK, "remote QP after QP_RESET");
    let (st, _) = one(&mut drv, &req(op::LOCAL_WRITE, local), 0, 64);
    assert_eq!(st, status::OK, "local QP after QP_RESET");
    // A timer override reaches the QP's RNR NAKs, and only its.
    drv.set_qp_rnr_timer(remote, Some(5)).expect("QP_RNR_TIMER");
    let missing = |k: u64| Req {
        va: BASE + 0x10_0000 + (k << 12),
        ..req(op::REMOTE_READ, remote)
    };
    let (st, _) = one(&mut drv, &missing(0), 0x20, 64);
    assert_eq!(st, status::RNR);
    let (st, _) = one(
        &mut drv,
        &Req {
            qpn: 7,
            ..missing(1)
        },
        0x20,
        64,
    );
    assert_eq!(st, status::RNR);
    assert_eq!(syndromes(&mut drv), vec![(remote, 0x25), (7, 0x2c)]);
    drv.set_qp_rnr_timer(remote, None)
        .expect("QP_RNR_TIMER off");
    let (st, _) = one(&mut drv, &missing(0), 0x20, 64);
    assert_eq!(st, status::RNR, "the retransmission of the NAK'd PSN");
    assert_eq!(syndromes(&mut drv), vec![(remote, 0x2c)]);
    // A QPN beyond the core's QPs: refused, nothing changes.
    let e = drv.qp_reset(1 << 20).expect_err("QPN beyond the table");
    assert!(format!("{e}").contains("QP"), "{e}");
    assert_eq!(
        drv.counter("DROPS").unwrap(),
        1,
        "DROPS counts the one DROP answer"
    );
    assert_eq!(drv.counter("RNR_NAKS_FAULT").unwrap(), 4, "RNR_NAKS_FAULT");
    // The NAKs the core emitted, framed as RoCE v2 packets, decode in
    // scapy's dissector to the fields the bench decodes by the IBTA layout.
    let packets: Vec<Vec<u8>> = wire.iter().map(|&h| harness::roce::frame_nak(h)).collect();
    let decoded = harness::roce::dissect_naks(&packets).expect("scapy dissects the NAKs");
    assert_eq!(decoded.len(), wire.len());
    let psns: Vec<u32> = decoded.iter().map(|d| d.psn).collect();
    assert_eq!(psns, vec![0x10, 0x10, 0x20, 0x20, 0x20], "PSNs on the wire");
    for (&h, d) in wire.iter().zip(&decoded) {
        let n = decode_nak(0, 0, h);
        assert!(d.has_udp && d.has_bth && d.has_aeth && d.icrc_ok, "{d:x?}");
        assert_eq!(
            (d.opcode, d.pkey, d.dest_qp, d.ack_req, d.syndrome, d.msn),
            (0x11, 0xffff, n.rqpn, false, n.syndrome, n.msn),
            "{d:x?}"
        );
        assert_eq!((n.rqpn, n.msn), (0x42, 1), "DestQP and MSN of the request");
    }
}

/// An event record whose write fails is not lost: the ring reset that
/// recovers from `ERROR.EVENT_WRITE_ERR` announces every fault still
/// awaiting its RESUME again, with its token; the driver services them and
/// the requests complete. While a local QP waits, `QPS_STALLED_NOW` counts
/// it.
#[test]
fn system_lost_event_record_is_announced_again_after_the_ring_reset() {
    use odp_mmu_workshop::bench_faults::{core_with, events, map, one, BASE};
    let (mut drv, mr) = core_with(&Params::small());
    let ring = drv.event_ring().expect("ring set up");
    // The ring's slot 0 answers SLVERR: the first record does not land.
    drv.bus
        .mem
        .inject_error(ring.base..ring.base + 32, RESP_SLVERR);
    let req = |op, qpn, page: u64| Req {
        op,
        qpn,
        pd: 1,
        key: 0x5a,
        va: BASE + (page << 12),
        len: 64,
    };
    let (remote, local) = (5, 6);
    let (st, _) = one(&mut drv, &req(op::REMOTE_WRITE, remote, 1), 0x10, 64);
    assert_eq!(st, status::RNR);
    let (st, _) = one(&mut drv, &req(op::LOCAL_WRITE, local, 2), 0, 64);
    assert_eq!(st, status::STALL);
    for _ in 0..400 {
        drv.bus.cycle(&Inputs::default());
    }
    // The first record failed, so the driver sees nothing (slot 0 never
    // looks new); the error bit says why.
    assert!(drv.poll_events().expect("poll").is_empty());
    let (err, _) = drv.errors();
    assert_eq!(
        err >> regmap::ERROR_EVENT_WRITE_ERR & 1,
        1,
        "ERROR.EVENT_WRITE_ERR"
    );
    assert_eq!(drv.counter("QPS_STALLED_NOW").unwrap(), 1, "the local QP");
    // Recovery: the ring reset; both faults are announced again.
    drv.bus.mem.clear_errors();
    assert_eq!(drv.recover_event_ring(), Ok(true));
    assert!(!drv.bus.irq, "irq is low with interrupts off");
    let mut ev = events(&mut drv);
    ev.sort_by_key(|e| e.page_va);
    let pages: Vec<(u64, u32)> = ev.iter().map(|e| (e.page_va, e.qpn)).collect();
    assert_eq!(
        pages,
        vec![(BASE + 0x1000, remote), (BASE + 0x2000, local)],
        "both faults announced in the new ring: {ev:x?}"
    );
    assert_eq!(drv.errors().0 >> regmap::ERROR_EVENT_WRITE_ERR & 1, 0);
    assert_eq!(drv.recover_event_ring(), Ok(false), "nothing to recover");
    drv.bus.wakes.clear();
    for e in &ev {
        map(&mut drv, &mr, e.page_va);
        drv.resume_fault(e.token, false).expect("RESUME");
    }
    for _ in 0..300 {
        drv.bus.cycle(&Inputs::default());
    }
    let wakes: Vec<u32> = drv.bus.wakes.iter().map(|w| w.1).collect();
    assert_eq!(wakes, vec![local], "one wake for the stalled QP");
    assert_eq!(drv.counter("QPS_STALLED_NOW").unwrap(), 0);
    let (st, _) = one(&mut drv, &req(op::REMOTE_WRITE, remote, 1), 0x10, 64);
    assert_eq!(st, status::OK, "the retransmission");
    let (st, _) = one(&mut drv, &req(op::LOCAL_WRITE, local, 2), 0, 64);
    assert_eq!(st, status::OK, "the local retry");
    assert!(drv.poll_events().expect("poll").is_empty(), "no event more");
}

/// Bad event-ring registers set their `ERROR` bits and take or overwrite
/// nothing.
#[test]
fn system_bad_event_ring_size_and_consumer_index_set_their_error_bits() {
    use odp_mmu_workshop::bench_faults::{core_with, events, one, BASE};
    let (mut drv, _mr) = core_with(&Params::small());
    let req = Req {
        op: op::REMOTE_READ,
        qpn: 3,
        pd: 1,
        key: 0x5a,
        va: BASE,
        len: 64,
    };
    // EQ_CONS ahead of EQ_PROD: the ring counts as full.
    drv.bus.write32(regmap::EQ_CONS, 3).expect("EQ_CONS");
    let (st, _) = one(&mut drv, &req, 1, 64);
    assert_eq!(st, status::RNR);
    for _ in 0..300 {
        drv.bus.cycle(&Inputs::default());
    }
    let bits = |drv: &mut Driver<VerilatedTop>| {
        let e = drv.errors().0;
        (
            e >> regmap::ERROR_EQ_CONS_BAD & 1,
            e >> regmap::ERROR_EQ_SIZE_BAD & 1,
        )
    };
    assert_eq!(bits(&mut drv), (1, 0), "EQ_CONS_BAD");
    assert_eq!(drv.bus.read32(regmap::EQ_PROD), 0, "nothing taken");
    // Legal again: the record goes out.
    drv.bus.write32(regmap::EQ_CONS, 0).expect("EQ_CONS");
    assert_eq!(events(&mut drv).len(), 1);
    // A size beyond 16 disables the ring and sets EQ_SIZE_BAD.
    drv.bus
        .write32(regmap::EQ_LOG2_SIZE, 20)
        .expect("EQ_LOG2_SIZE");
    // (Another QP: QP 3 waits for the retransmission of PSN 1.)
    let (st, _) = one(
        &mut drv,
        &Req {
            qpn: 4,
            va: BASE + 0x1000,
            ..req
        },
        2,
        64,
    );
    assert_eq!(st, status::RNR);
    for _ in 0..300 {
        drv.bus.cycle(&Inputs::default());
    }
    assert_eq!(bits(&mut drv), (1, 1), "EQ_SIZE_BAD");
    assert_eq!(drv.bus.read32(regmap::EQ_PROD), 1, "nothing more taken");
}

/// A fault storm through the real top and the driver library: 12 QPs
/// (half remote, half local) fault on 24 pages, more than the small core's
/// 4 slots, into a 2-record ring the driver reads late; every stream and
/// AXI channel stalls at random. `fault_storm` checks, as it runs: no
/// duplicate event for a pending page, exactly one wake per STALL, no walk
/// for a pending page, no fault lost (every message OK, one RNR NAK per RNR
/// answer, FAULTS equal to the events read, QPS_STALLED_NOW back to 0).
#[test]
fn system_fault_storm_random_loses_no_fault_and_wakes_every_stall_once() {
    use odp_mmu_workshop::bench_faults::{fault_storm, StormCfg};
    let seed = seed();
    let cfg = StormCfg {
        params: Params::small(),
        mem: MemConfig::random(1, 120, seed ^ 5),
        ring_log2: 1,
        pages: 24,
        qps: 12,
        msgs: 12,
        poll_every: 400,
        service: (500, 4000),
        rnr_wait: (50, 300),
        backpressure: true,
        seed,
    };
    let r = fault_storm(&cfg);
    println!("seed {seed}: {r:?}");
    let slots = Params::small().pending_faults as u64;
    assert!(r.events > slots, "more faults than slots: {}", r.events);
    assert_eq!(r.max_pending_faults, slots, "every slot busy at once");
    assert_eq!(r.max_event_ring, 2, "the ring full");
    assert!(
        r.faults_coalesced > 0,
        "faults coalesced into pending slots"
    );
    assert!(
        r.stalls > 0 && r.rnr > r.events / 2,
        "both kinds of QP faulted"
    );
    assert!(
        r.leaf_reads >= r.events,
        "the pending-page check saw the walks"
    );
}

/// The wake fence: a STALL answer held in the core's output queue (the
/// shell holds `m_xrsp_ready` low) is delivered before the wake that
/// resolves it, however fast the driver resumes the fault. The fence is
/// conservative: a note's wake waits for every answer queued before it
/// came up, so QP a's wake waits behind QP b's held answer too.
#[test]
fn system_wake_never_overtakes_its_stall_answer() {
    use odp_mmu_workshop::bench_faults::{core_with, events, map, one, BASE};
    let (mut drv, mr) = core_with(&Params::small());
    let req = |qpn| Req {
        op: op::LOCAL_WRITE,
        qpn,
        pd: 1,
        key: 0x5a,
        va: BASE + 0x7000,
        len: 64,
    };
    let (a, b) = (4, 5);
    let (st, _) = one(&mut drv, &req(a), 0, 64);
    assert_eq!(st, status::STALL);
    let ev = events(&mut drv);
    // QP b's request to the pending page: answered STALL at once, but the
    // answer stays queued (m_xrsp_ready low from here on).
    drv.bus.lite_rsp_ready = false;
    let x = XReq {
        tag: 9,
        req: req(b),
        rqpn: 0x42,
        psn: 0,
        msn: 1,
        msg_len: 64,
    };
    let mut offered = true;
    for _ in 0..50 {
        let o = drv.bus.cycle(&Inputs {
            req: offered.then_some(x),
            ..Default::default()
        });
        offered &= !o.accepted;
    }
    assert!(!offered, "QP b's request taken");
    map(&mut drv, &mr, ev[0].page_va);
    drv.bus.wakes.clear();
    drv.resume_fault(ev[0].token, false).expect("RESUME");
    for _ in 0..300 {
        drv.bus.cycle(&Inputs::default());
    }
    assert!(
        drv.bus.wakes.is_empty(),
        "no wake while b's STALL is held: {:?}",
        drv.bus.wakes
    );
    // Release m_xrsp: b's STALL, then b's wake.
    let mut stall_at = None;
    for _ in 0..100 {
        let now = drv.bus.clock;
        let o = drv.bus.cycle(&Inputs {
            rsp_ready: true,
            ..Default::default()
        });
        if let Some((9, s, _, _, true)) = o.beat {
            assert_eq!(s, status::STALL);
            stall_at = Some(now);
        }
    }
    let stall_at = stall_at.expect("b's STALL delivered");
    let mut woken: Vec<u32> = drv.bus.wakes.iter().map(|w| w.1).collect();
    woken.sort();
    assert_eq!(woken, vec![a, b], "one wake each");
    for w in &drv.bus.wakes {
        assert!(
            w.0 > stall_at,
            "wake of QP {} at clock {}, not after b's STALL at {stall_at}",
            w.1,
            w.0
        );
    }
}

/// MR_SUSPEND then MR_RESUME through the driver, on the whole core: local
/// requests to the suspended MR get STALL (remote ones RNR), each local QP
/// is counted in `QPS_STALLED_NOW` once however often it stalled, and
/// MR_RESUME's result comes when every one of them has had exactly one
/// wake; their retries are answered OK. A resume that finds nobody waiting
/// wakes nobody; an MR index beyond the table is refused.
#[test]
fn system_mr_resume_wakes_every_qp_stalled_on_the_suspended_mr_once() {
    use odp_mmu_workshop::bench_faults::{core_with, map, one, BASE};
    let (mut drv, mut mr) = core_with(&Params::small());
    let va = BASE + 0x3000;
    map(&mut drv, &mr, va);
    let req = |op, qpn| Req {
        op,
        qpn,
        pd: 1,
        key: 0x5a,
        va,
        len: 64,
    };
    // No OK answer is out: the suspend drains at once.
    let t = drv.suspend_mr(&mut mr).expect("MR_SUSPEND");
    drv.wait_invalidation(&t).expect("MR_SUSPEND drained");
    drv.bus.wakes.clear();
    for q in [1, 2, 1, 3, 3] {
        let (st, _) = one(&mut drv, &req(op::LOCAL_WRITE, q), 0, 64);
        assert_eq!(st, status::STALL, "local QP {q} on the suspended MR");
    }
    let (st, _) = one(&mut drv, &req(op::REMOTE_WRITE, 5), 0x10, 64);
    assert_eq!(st, status::RNR, "remote QP on the suspended MR");
    for _ in 0..20 {
        drv.bus.cycle(&Inputs::default());
    }
    assert_eq!(drv.counter("QPS_STALLED_NOW").unwrap(), 3, "three QPs wait");
    assert!(drv.bus.wakes.is_empty(), "no wake before MR_RESUME");
    drv.resume_mr(&mut mr).expect("MR_RESUME");
    let mut wakes: Vec<u32> = drv.bus.wakes.iter().map(|w| w.1).collect();
    wakes.sort();
    assert_eq!(
        wakes,
        vec![1, 2, 3],
        "one wake per stalled QP by the result"
    );
    assert_eq!(drv.counter("QPS_STALLED_NOW").unwrap(), 0);
    assert_eq!(drv.counter("WAKES").unwrap(), 3);
    for q in [1, 2, 3] {
        let (st, _) = one(&mut drv, &req(op::LOCAL_WRITE, q), 0, 64);
        assert_eq!(st, status::OK, "QP {q} retried after its wake");
    }
    drv.resume_mr(&mut mr).expect("MR_RESUME of a valid MR");
    assert_eq!(drv.bus.wakes.len(), 3, "nobody waits: no wake");
    match drv.command(regmap::op::MR_RESUME, &[1 << 20]) {
        Err(driver::Error::Command { code, .. }) => assert_eq!(code as u64, RES_MR_RANGE),
        other => panic!("MR_RESUME of index 2^20: {other:?}"),
    }
}

/// Clocks the core of `drv` (responses ready) until a "prefetch done"
/// event comes; returns it and the page faults polled meanwhile. Asserts
/// that nothing leaves on `m_xrsp`, `m_wake` or `m_nak` meanwhile: a
/// PREFETCH's answers are the prefetch unit's alone.
#[track_caller]
fn prefetch_events(drv: &mut Driver<VerilatedTop>) -> (Event, Vec<driver::PageFaultEvent>) {
    let (wakes, naks) = (drv.bus.wakes.len(), drv.bus.naks.len());
    let mut faults = Vec::new();
    for _ in 0..1000 {
        for _ in 0..20 {
            let o = drv.bus.cycle(&Inputs {
                rsp_ready: true,
                ..Default::default()
            });
            assert!(o.offered.is_none(), "a PREFETCH answer left on m_xrsp");
        }
        for e in drv.poll_events().expect("poll") {
            match e {
                Event::PageFault(f) => faults.push(f),
                Event::PrefetchDone { .. } => {
                    assert_eq!(drv.bus.wakes.len(), wakes, "no wake for a PREFETCH");
                    assert_eq!(drv.bus.naks.len(), naks, "no NAK for a PREFETCH");
                    return (e, faults);
                }
                // The refusal of a PREFETCH issued while one ran.
                Event::Error { code, .. } if code == driver::RES_PF_BUSY => {}
                e => panic!("unexpected event {e:x?}"),
            }
        }
    }
    panic!("no prefetch done event within 20,000 clocks");
}

/// PREFETCH through the driver on the small core: the pages it finds
/// mapped are filled into the TLB (requests to them then hit: no walk),
/// missing pages become page faults of QPN 0xFFFFFF with the rest of the
/// range as their hint (none with NO_FAULT), pages outside the MR are
/// refused, a read-only page does not fill for a write prefetch, and a
/// second PREFETCH while one runs is refused PF_BUSY. The "prefetch done"
/// event counts each kind, and `PREFETCHES` counts the prefetches.
#[test]
fn system_prefetch_fills_the_tlb_faults_missing_pages_and_counts_them() {
    use driver::{PrefetchFlags, RES_PF_BUSY};
    use odp_mmu_workshop::bench_faults::{core_with, map, one, BASE};
    let (mut drv, mr) = core_with(&Params::small());
    let page = |p: u64| BASE + (p << 12);
    // The "prefetch done" record of MR 0 with these counts.
    let want = |tag: u8, filled, faulted, refused| Event::PrefetchDone {
        mr: 0,
        tag: tag as u32,
        filled,
        faulted,
        refused,
    };
    // Pages 0..16 mapped but 5, 9, 12 and 13 (as many as the small core's
    // pending-fault slots: a fault beyond them would be counted but not
    // recorded, docs/prefetch.md).
    let missing_pages = [5, 9, 12, 13];
    let mapped: Vec<u64> = (0..16).filter(|p| !missing_pages.contains(p)).collect();
    for &p in &mapped {
        map(&mut drv, &mr, page(p));
    }
    let walks = drv.counter("WALKS").unwrap();
    let va = page(0) + 0x800;
    let len = (16 << 12) - 0x800;
    let tag = drv
        .prefetch(&mr, va, len, PrefetchFlags::default())
        .expect("PREFETCH");
    let (done, mut faults) = prefetch_events(&mut drv);
    assert_eq!(done, want(tag, 12, 4, 0));
    faults.sort_by_key(|f| f.page_va);
    let missing: Vec<u64> = missing_pages.iter().map(|&p| page(p)).collect();
    assert_eq!(
        faults.iter().map(|f| f.page_va).collect::<Vec<_>>(),
        missing
    );
    for f in &faults {
        assert_eq!(
            (f.qpn, f.op, f.mr),
            (
                0xff_fff8 | ((f.page_va >> 12) as u32 & 7),
                op::LOCAL_READ,
                0
            ),
            "{f:x?}"
        );
        assert_eq!(
            f.hint_after as u64,
            page(16) - f.page_va - 0x1000,
            "the hint runs to the range's end: {f:x?}"
        );
    }
    assert_eq!(drv.counter("WALKS").unwrap() - walks, 16, "one walk a page");
    assert_eq!(drv.counter("PREFETCHES").unwrap(), 1);
    assert_eq!(drv.counter("QPS_STALLED_NOW").unwrap(), 0, "no QP waits");
    // The mapped pages hit now: no walk more.
    let walks = drv.counter("WALKS").unwrap();
    for &p in &mapped {
        let r = Req {
            op: op::LOCAL_READ,
            qpn: 3,
            pd: 1,
            key: 0x5a,
            va: page(p) + 8,
            len: 64,
        };
        assert_eq!(one(&mut drv, &r, 0, 64).0, status::OK);
    }
    assert_eq!(drv.counter("WALKS").unwrap(), walks, "prefetched pages hit");
    // Service the faults: a PREFETCH fault wakes nobody.
    for f in &faults {
        map(&mut drv, &mr, f.page_va);
        drv.resume_fault(f.token, false).expect("RESUME");
    }

    // NO_FAULT over missing pages: counted, no fault event.
    let nf = PrefetchFlags {
        write: false,
        no_fault: true,
    };
    let tag = drv.prefetch(&mr, page(16), 8 << 12, nf).expect("PREFETCH");
    let (done, faults) = prefetch_events(&mut drv);
    assert_eq!(done, want(tag, 0, 8, 0));
    assert!(faults.is_empty(), "NO_FAULT raises no fault: {faults:x?}");

    // Across the MR's end (4096 pages): two pages in, two refused.
    let tag = drv
        .prefetch(&mr, page(4094), 4 << 12, nf)
        .expect("PREFETCH");
    let (done, _) = prefetch_events(&mut drv);
    assert_eq!(done, want(tag, 0, 2, 2));

    // For writing: a read-only page does not fill.
    drv.map(&mr, page(40), PageSize::Size4K, 0x9_0000, false);
    map(&mut drv, &mr, page(41));
    let w = PrefetchFlags {
        write: true,
        no_fault: true,
    };
    let tag = drv.prefetch(&mr, page(40), 2 << 12, w).expect("PREFETCH");
    let (done, _) = prefetch_events(&mut drv);
    assert_eq!(done, want(tag, 1, 1, 0));

    // One at a time: a second PREFETCH while 32 pages walk is refused.
    let first = drv
        .prefetch(&mr, page(100), 32 << 12, nf)
        .expect("PREFETCH");
    assert_eq!(
        drv.prefetch(&mr, page(0), 1, nf),
        Err(driver::Error::Command {
            op: regmap::op::PREFETCH,
            code: RES_PF_BUSY
        })
    );
    drv.clear_errors(1 << regmap::ERROR_BAD_CMD).unwrap();
    let (done, _) = prefetch_events(&mut drv);
    assert!(
        matches!(done, Event::PrefetchDone { tag, faulted: 32, .. } if tag == first as u32),
        "{done:x?}"
    );
    assert_eq!(drv.counter("PREFETCHES").unwrap(), 5);
}

/// Offers `r` until taken and runs until its answer, returning every OK
/// answer's epoch on `s_done` the clock after (the DMA engine done at once);
/// returns the status and the first beat's physical address.
fn translate_once(drv: &mut Driver<VerilatedTop>, r: &Req) -> (u8, u64) {
    let x = XReq {
        tag: 9,
        req: *r,
        ..Default::default()
    };
    let (mut offered, mut done, mut pa) = (true, None, None);
    let limit = drv.bus.clock + 20_000;
    loop {
        assert!(drv.bus.clock < limit, "no answer to {r:x?}");
        let o = drv.bus.cycle(&Inputs {
            req: offered.then_some(x),
            rsp_ready: true,
            done: done.take(),
            ..Default::default()
        });
        offered &= !o.accepted;
        if let Some((_, st, beat_pa, _, last)) = o.beat {
            pa.get_or_insert(beat_pa);
            if last {
                if st == status::OK {
                    drv.bus.cycle(&Inputs {
                        done: Some(o.epoch),
                        ..Default::default()
                    });
                }
                return (st, pa.unwrap());
            }
        }
    }
}

/// A dma-buf move: the driver invalidates a whole MR mapped with 4 KiB
/// pages, rewrites its first 2 MiB as one 2 MiB page of other memory and
/// the core translates every page of it to the new frame; the whole-MR
/// INVALIDATE costs about what a one-page one does (the TLB's generation
/// tags, no sweep), and nothing of the old mapping is ever used again.
#[test]
fn system_whole_mr_invalidation_then_refault_at_2mib_translates_to_the_new_frames() {
    use driver::InvScope;
    use odp_mmu_workshop::bench_faults::{core_with, map, BASE};
    let (mut drv, mr) = core_with(&Params::small());
    let req = |page: u64, off: u64| Req {
        op: op::LOCAL_READ,
        qpn: 2,
        pd: 1,
        key: 0x5a,
        va: BASE + (page << 12) + off,
        len: 64,
    };
    // Pages 0..16 of the first 2 MiB at 4 KiB (frames from `map`), each
    // translated once: in the TLB now.
    for p in 0..16 {
        map(&mut drv, &mr, BASE + (p << 12));
    }
    let old: Vec<u64> = (0..16)
        .map(|p| {
            let (st, pa) = translate_once(&mut drv, &req(p, 0x40));
            assert_eq!(st, status::OK, "page {p} before the move");
            pa
        })
        .collect();
    let t = drv
        .invalidate_start(
            &mr,
            InvScope::Range {
                va: BASE,
                len: 1 << 12,
            },
        )
        .expect("INVALIDATE of one page");
    let c0 = drv.bus.clock;
    drv.wait_invalidation(&t).expect("one page done");
    let one_page = drv.bus.clock - c0;
    map(&mut drv, &mr, BASE);
    // The move: whole-MR INVALIDATE, then one 2 MiB page at a new frame.
    let t = drv
        .invalidate_start(&mr, InvScope::WholeMr)
        .expect("INVALIDATE of the MR");
    let c0 = drv.bus.clock;
    drv.wait_invalidation(&t).expect("whole MR done");
    let whole = drv.bus.clock - c0;
    assert!(
        whole <= one_page + 4,
        "whole-MR INVALIDATE waited {whole} clocks, one page {one_page}: no sweep"
    );
    let frame_2m = 0x60_0000 >> 12 << 9; // 2 MiB aligned, away from the 4 KiB frames
    drv.map(&mr, BASE, PageSize::Size2M, frame_2m, true);
    for p in 0..16 {
        let (st, pa) = translate_once(&mut drv, &req(p, 0x40));
        assert_eq!(st, status::OK, "page {p} after the move");
        assert_eq!(
            pa,
            (frame_2m << 12) + (p << 12) + 0x40,
            "page {p}: the 2 MiB frame"
        );
        assert_ne!(pa, old[p as usize], "page {p}: never the old frame");
    }
    // And the rest of the 2 MiB page, never mapped at 4 KiB, translates too.
    let (st, pa) = translate_once(&mut drv, &req(511, 0xfc0));
    assert_eq!(
        (st, pa),
        (status::OK, (frame_2m << 12) + (511 << 12) + 0xfc0)
    );
    let (err, info) = drv.errors();
    assert_eq!(err, 0, "ERROR {err:#x} (ERROR_INFO {info:#x})");
}
