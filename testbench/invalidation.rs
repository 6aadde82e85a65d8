//! Synchronized invalidation on the whole core (`odp_mmu`, Verilated),
//! through the driver library, against the guarantee monitor.
//!
//! The bench plays the NIC around the core: local requesters read random
//! pages of one MR (many QPs, random backpressure on `m_xrsp`), a DMA engine
//! carries out every OK answer and returns it on `s_done` after a random
//! delay (most within a few hundred clocks, some up to 10,000), and the host
//! memory answers page-table reads after random latencies with rare tails of
//! 20,000 clocks. The driver plays the kernel: it migrates pages (rewrites a
//! present PTE to a fresh frame), unmaps pages (clears the PTE; the page
//! faults and the fault handler maps it to a fresh frame and RESUMEs), and
//! after each change calls INVALIDATE for a range covering the page, now and
//! then a whole MR or everything, keeping several in flight; it services
//! faults from the event ring.
//!
//! The guarantee monitor knows every frame each page ever had. A frame
//! replaced by the driver is "retiring" until the invalidation that covers
//! it is seen done (`INV_DONE`), and "dead" from then on (the kernel may
//! reuse it). It checks:
//!
//! - every OK beat's frame is the page's current frame or a retiring one of
//!   that page, never a dead one and never another page's (isolation);
//! - when an invalidation is seen done, every OK response the core emitted
//!   before the command was issued has been returned on `s_done`, and no OK
//!   response using a frame it retires is still outstanding (its DMA could
//!   still touch the frame);
//! - every invalidation-done event names a command's tag, in order;
//! - at the end every request has been answered OK, every invalidation is
//!   done, `ERROR` holds nothing unexpected and `INVALIDATIONS` counts them.
//!
//! The race that breaks naive designs is a directed test: a walk reads the
//! PTE, the driver rewrites it and invalidates, and the walk's data comes
//! back after the flush: the stale frame must never be used.

use std::collections::{HashMap, HashSet, VecDeque};

use odp_mmu::control::regmap;
use odp_mmu::spec::PageSize;
use odp_mmu::spec::{op::byte as op, status::byte as status};
use odp_mmu::Params;
use odp_mmu_workshop::driver::{Bus, Driver, Event, FaultAnswer, InvScope, InvTicket, Mr, MrSpec};
use odp_mmu_workshop::harness;
use odp_mmu_workshop::harness::monitor::StreamMonitor;
use odp_mmu_workshop::harness::seed;
use odp_mmu_workshop::harness::top::{
    read32, write32, Inputs, LiteCycle, LiteIn, LiteOut, VerilatedTop, XReq,
};
use odp_mmu_workshop::models::host_memory::MemConfig;
use odp_mmu_workshop::models::page_table::WordMemory;
use odp_mmu_workshop::models::translate_ref::Req;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const BASE: u64 = 0x4000_0000;
const KEY: u32 = 0x5a;
const PD: u16 = 1;
/// Frames handed out to pages, each one fresh.
const FIRST_FRAME: u64 = 0x10_0000;
const RING: u64 = 0x7_0000_0000;

/// An OK response whose DMA is under way.
#[derive(Clone, Copy, Debug)]
struct Dma {
    frame: u64,
    epoch: u8,
    emitted: u64,
    due: u64,
}

/// The NIC around the core and the monitor's view of the pages.
struct World {
    top: VerilatedTop,
    rng: StdRng,
    /// Requests are offered (and retried) while true.
    traffic: bool,
    pages: u64,
    /// Percent of clocks a new request is offered.
    req_pct: u32,
    /// New requests are offered (else only retries).
    new_requests: bool,
    offer: Option<XReq>,
    /// Requests in the core: tag -> page index.
    inflight: HashMap<u8, u64>,
    /// STALLed requests to offer again: (clock, page).
    retry: VecDeque<(u64, u64)>,
    /// Each page's current frame (None: unmapped) and every frame it had.
    frame_of: Vec<Option<u64>>,
    owner: HashMap<u64, u64>,
    dead: HashSet<u64>,
    next_frame: u64,
    dma: Vec<Dma>,
    xrsp_mon: StreamMonitor<(u8, u8, u64, u64, bool, u8)>,
    xreq_mon: StreamMonitor<Option<XReq>>,
    /// Clock each request in the core was accepted, by tag.
    accepted_at: HashMap<u8, u64>,
    /// Longest wait from acceptance to the answer's handshake.
    max_wait: u64,
    /// The DMA engine returns every OK answer within 16 clocks.
    dma_fast: bool,
    /// Every wake taken on `m_wake`: `(clock, qpn)`.
    wakes: Vec<(u64, u32)>,
    // counts
    requests: u64,
    oks: u64,
    stalls: u64,
    returned: u64,
    max_dma: usize,
}

impl World {
    fn new(params: &Params, mem: MemConfig, seed: u64, pages: u64) -> Self {
        Self {
            top: VerilatedTop::new(params, mem),
            rng: StdRng::seed_from_u64(seed),
            traffic: false,
            pages,
            req_pct: 60,
            new_requests: true,
            offer: None,
            inflight: HashMap::new(),
            retry: VecDeque::new(),
            frame_of: vec![None; pages as usize],
            owner: HashMap::new(),
            dead: HashSet::new(),
            next_frame: FIRST_FRAME,
            dma: Vec::new(),
            xrsp_mon: StreamMonitor::new("m_xrsp"),
            xreq_mon: StreamMonitor::new("s_xreq"),
            accepted_at: HashMap::new(),
            max_wait: 0,
            dma_fast: false,
            wakes: Vec::new(),
            requests: 0,
            oks: 0,
            stalls: 0,
            returned: 0,
            max_dma: 0,
        }
    }

    fn fresh_frame(&mut self, page: u64) -> u64 {
        let f = self.next_frame;
        self.next_frame += 1;
        self.owner.insert(f, page);
        f
    }

    fn req_of(&mut self, page: u64) -> Req {
        Req {
            op: op::LOCAL_READ,
            qpn: self.rng.gen_range(0..16),
            pd: PD,
            key: KEY,
            va: BASE + (page << 12) + 64 * self.rng.gen_range(0..63),
            len: 64,
        }
    }

    fn offer_next(&mut self, now: u64) {
        if self.offer.is_some() || !self.traffic || self.inflight.len() >= 200 {
            return;
        }
        let page = match self.retry.front() {
            Some(&(at, p)) if at <= now => {
                self.retry.pop_front();
                p
            }
            _ if self.new_requests && self.rng.gen_range(0..100) < self.req_pct => {
                self.rng.gen_range(0..self.pages)
            }
            _ => return,
        };
        let tag = loop {
            let t: u8 = self.rng.gen();
            if !self.inflight.contains_key(&t) {
                break t;
            }
        };
        let req = self.req_of(page);
        self.offer_req(tag, req, page);
        self.requests += 1;
    }

    /// Offers `req` (a 64-byte local access to `page`) as `tag`, in flight
    /// from now on.
    fn offer_req(&mut self, tag: u8, req: Req, page: u64) {
        self.offer = Some(XReq {
            tag,
            req,
            rqpn: 0,
            psn: 0,
            msn: 0,
            msg_len: 64,
        });
        self.inflight.insert(tag, page);
    }

    fn clock_once(&mut self, lite: LiteIn) -> LiteOut {
        let now = self.top.clock;
        if now.is_multiple_of(4096) {
            self.req_pct = self.rng.gen_range(5..=100);
        }
        self.offer_next(now);
        let rsp_ready = self.rng.gen_range(0..100) < 85;
        let done = self
            .dma
            .iter()
            .position(|d| d.due <= now)
            .map(|k| self.dma.swap_remove(k).epoch);
        self.returned += done.is_some() as u64;
        let o = self.offer;
        let out = self.top.cycle(&Inputs {
            req: o,
            rsp_ready,
            done,
            lite,
            wake_stall: false,
            nak_stall: false,
        });
        self.wakes.extend(self.top.wakes.drain(..));
        if let Some(Some(x)) = self.xreq_mon.observe(now, o.is_some(), out.accepted, o) {
            self.offer = None;
            self.accepted_at.insert(x.tag, now);
        }
        let (t, st, pa, seg, last) = out.offered.unwrap_or_default();
        let beat = (t, st, pa, seg, last, out.epoch);
        if let Some((tag, st, pa, _, last, epoch)) =
            self.xrsp_mon
                .observe(now, out.offered.is_some(), rsp_ready, beat)
        {
            assert!(
                last,
                "clock {now}: a 64-byte access inside a page is one beat"
            );
            let page = self
                .inflight
                .remove(&tag)
                .unwrap_or_else(|| panic!("clock {now}: answer for tag {tag} not in flight"));
            if let Some(at) = self.accepted_at.remove(&tag) {
                self.max_wait = self.max_wait.max(now - at);
            }
            match st {
                status::OK => {
                    let frame = pa >> 12;
                    assert!(
                        !self.dead.contains(&frame),
                        "clock {now}: page {page} answered with frame {frame:#x}, whose invalidation is done"
                    );
                    assert_eq!(
                        self.owner.get(&frame),
                        Some(&page),
                        "clock {now}: page {page} answered with frame {frame:#x}, not one of its frames"
                    );
                    self.oks += 1;
                    let delay = match self.rng.gen_range(0..100) {
                        _ if self.dma_fast => self.rng.gen_range(0..16),
                        0..=79 => self.rng.gen_range(0..200),
                        80..=97 => self.rng.gen_range(200..2_000),
                        _ => self.rng.gen_range(2_000..=10_000),
                    };
                    self.dma.push(Dma {
                        frame,
                        epoch,
                        emitted: now,
                        due: now + 1 + delay,
                    });
                    self.max_dma = self.max_dma.max(self.dma.len());
                }
                status::STALL => {
                    // The page is unmapped (or its fault pending): offer it
                    // again later, as a requester woken would.
                    self.stalls += 1;
                    let at = now + self.rng.gen_range(20..400);
                    self.retry.push_back((at, page));
                }
                s => panic!("clock {now}: status {s} for page {page}"),
            }
        }
        out.lite
    }

    fn idle(&mut self, n: u64) {
        for _ in 0..n {
            self.clock_once(LiteIn::default());
        }
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
        write32(self, addr, data)
    }
    fn read32(&mut self, addr: u16) -> u32 {
        read32(self, addr)
    }
}

/// An invalidation the driver issued and the monitor follows.
struct Pending {
    ticket: InvTicket,
    /// The clock the driver started the command: OK responses emitted
    /// before it must all be returned when it is done.
    issued_at: u64,
    /// Frames it retires.
    frames: Vec<u64>,
}

/// A core of `params` with one MR of `pages` pages, every page mapped to a
/// fresh frame, an event ring, interrupts off.
fn setup(params: &Params, mem: MemConfig, seed: u64, pages: u64) -> (Driver<World>, Mr) {
    let mut drv = Driver::new(World::new(params, mem, seed, pages), 0x100..0x1000, true);
    drv.bring_up().expect("bring-up");
    let mr = drv
        .register_mr(
            0,
            MrSpec {
                tag: KEY as u8,
                pd: PD,
                base_va: BASE,
                length: pages << 12,
                access: 7,
                levels: 2,
            },
        )
        .expect("register the MR");
    for p in 0..pages {
        let f = drv.bus.fresh_frame(p);
        drv.map(&mr, BASE + (p << 12), PageSize::Size4K, f, true);
        drv.bus.frame_of[p as usize] = Some(f);
    }
    drv.setup_event_ring(RING, 6, false).expect("event ring");
    (drv, mr)
}

/// The monitor's check when `p` is seen done: every OK response emitted
/// before the command is back, and none of its retired frames is in use.
fn check_done(w: &mut World, p: &Pending) {
    let now = w.top.clock;
    for d in &w.dma {
        assert!(
            d.emitted >= p.issued_at,
            "clock {now}: invalidation (tag {}) done with an OK response of clock {} (before \
             the command at {}) not returned",
            p.ticket.tag,
            d.emitted,
            p.issued_at
        );
        assert!(
            !p.frames.contains(&d.frame),
            "clock {now}: invalidation (tag {}) done while a DMA of retired frame {:#x} \
             (emitted at {}) is out",
            p.ticket.tag,
            d.frame,
            d.emitted
        );
    }
    for f in &p.frames {
        w.dead.insert(*f);
    }
}

/// Services the event ring: maps faulted pages to fresh frames and
/// RESUMEs; checks invalidation-done events against the tags issued.
fn service(drv: &mut Driver<World>, mr: &Mr, tags: &mut VecDeque<u8>, inv_events: &mut u64) {
    let mr = *mr;
    let batch = drv
        .service_faults(|d, f| {
            let page = (f.page_va - BASE) >> 12;
            if d.bus.frame_of[page as usize].is_none() {
                let fr = d.bus.fresh_frame(page);
                d.map(&mr, f.page_va, PageSize::Size4K, fr, true);
                d.bus.frame_of[page as usize] = Some(fr);
            }
            FaultAnswer::Mapped
        })
        .expect("service faults");
    assert!(batch.failed.is_empty(), "{:x?}", batch.failed);
    for ev in batch.others {
        match ev {
            Event::InvalidationDone { tag, .. } => {
                let want = tags
                    .pop_front()
                    .expect("an invalidation-done event with none issued");
                assert_eq!(
                    tag, want as u32,
                    "invalidation-done events in command order"
                );
                *inv_events += 1;
            }
            e => panic!("unexpected event {e:x?}"),
        }
    }
}

fn random_run(params: &Params, clocks: u64, seed: u64) {
    println!("seed {seed}");
    let mut cfg = MemConfig::random(1, 300, seed ^ 1);
    cfg.tail = (300, 20_000);
    let pages = 48;
    let (mut drv, mr) = setup(params, cfg, seed ^ 2, pages);
    let mut rng = StdRng::seed_from_u64(seed ^ 3);
    drv.bus.traffic = true;
    let start = drv.bus.top.clock;
    let mut pending: VecDeque<Pending> = VecDeque::new();
    let mut tags: VecDeque<u8> = VecDeque::new();
    let (mut migrations, mut unmaps, mut whole, mut all, mut done) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut inv_events = 0u64;
    let mut waited_for_dma = 0u64;
    let mut invalidations = 0u64;
    while !harness::done(drv.bus.top.clock - start, clocks, clocks * 10, || {
        vec![
            ("migrations", migrations, 40),
            ("unmaps", unmaps, 20),
            ("whole-MR invalidations", whole, 3),
            ("invalidate-all", all, 3),
            ("invalidations seen done", done, 60),
            ("done while DMA was out", waited_for_dma, 20),
            ("STALL answers", drv.bus.stalls, 20),
        ]
    }) {
        drv.bus.idle(rng.gen_range(20..400));
        service(&mut drv, &mr, &mut tags, &mut inv_events);
        // Invalidations seen done, oldest first.
        while let Some(p) = pending.front() {
            if !drv.invalidation_done(&p.ticket) {
                break;
            }
            let p = pending.pop_front().unwrap();
            check_done(&mut drv.bus, &p);
            done += 1;
        }
        if pending.len() >= 6 {
            continue;
        }
        // A kernel change and its invalidation.
        let page = rng.gen_range(0..pages);
        let va = BASE + (page << 12);
        let issued_at = drv.bus.top.clock;
        let mut frames = Vec::new();
        let kind = rng.gen_range(0..20);
        if let Some(old) = drv.bus.frame_of[page as usize] {
            frames.push(old);
            if kind < 12 {
                let f = drv.bus.fresh_frame(page);
                drv.map(&mr, va, PageSize::Size4K, f, true);
                drv.bus.frame_of[page as usize] = Some(f);
                migrations += 1;
            } else {
                drv.unmap(&mr, va, PageSize::Size4K);
                drv.bus.frame_of[page as usize] = None;
                unmaps += 1;
            }
        }
        let scope = match kind {
            18 => {
                whole += 1;
                InvScope::WholeMr
            }
            19 => {
                all += 1;
                InvScope::All
            }
            _ => {
                // A range covering the page, from a page or two before it.
                let lo = va.saturating_sub(rng.gen_range(0..3) << 12).max(BASE);
                let len = (va - lo) + rng.gen_range(1..=3 << 12);
                InvScope::Range {
                    va: lo + rng.gen_range(0..64),
                    len,
                }
            }
        };
        let ticket = drv.invalidate_start(&mr, scope).expect("INVALIDATE");
        invalidations += 1;
        waited_for_dma += !drv.bus.dma.is_empty() as u64;
        tags.push_back(ticket.tag);
        pending.push_back(Pending {
            ticket,
            issued_at,
            frames,
        });
    }
    // Drain: no new requests; every STALL retried until answered.
    drv.bus.new_requests = false;
    let stop = drv.bus.top.clock + 200_000;
    while !(pending.is_empty() && drv.bus.inflight.is_empty() && drv.bus.dma.is_empty()) {
        assert!(
            drv.bus.top.clock < stop,
            "not drained: {} invalidations, {} requests, {} DMAs out",
            pending.len(),
            drv.bus.inflight.len(),
            drv.bus.dma.len()
        );
        drv.bus.idle(200);
        service(&mut drv, &mr, &mut tags, &mut inv_events);
        while let Some(p) = pending.front() {
            if !drv.invalidation_done(&p.ticket) {
                break;
            }
            let p = pending.pop_front().unwrap();
            check_done(&mut drv.bus, &p);
            done += 1;
        }
    }
    drv.bus.traffic = false;
    drv.bus.idle(200);
    service(&mut drv, &mr, &mut tags, &mut inv_events);
    assert!(tags.is_empty(), "every invalidation posted its done event");
    assert_eq!(drv.counter("INVALIDATIONS").unwrap(), invalidations);
    let (err, _) = drv.errors();
    assert_eq!(err >> regmap::ERROR_DONE_BAD & 1, 0, "ERROR.DONE_BAD");
    assert_eq!(drv.bus.returned, drv.bus.oks, "every OK returned");
    println!(
        "{} clocks: {} requests, {} OK, {} STALL, {migrations} migrations, {unmaps} unmaps, \
         {whole} whole-MR, {all} all, {done} invalidations done ({waited_for_dma} issued with \
         DMA out, at most {} DMAs out), {inv_events} done events",
        drv.bus.top.clock - start,
        drv.bus.requests,
        drv.bus.oks,
        drv.bus.stalls,
        drv.bus.max_dma
    );
}

#[test]
fn invalidation_random_migrations_keep_the_guarantee_small_core() {
    harness::big_stack(|| random_run(&Params::small(), 150_000, seed()));
}

#[test]
fn invalidation_random_migrations_keep_the_guarantee_default_core() {
    harness::big_stack(|| random_run(&Params::default(), 150_000, seed()));
}

/// A walk reads the PTE, the driver rewrites it and invalidates, and the
/// walk's data (the old frame) comes back after the flush: the request is
/// answered from the new frame, and the walk's result was thrown away (the
/// page was walked again).
#[test]
fn invalidation_discards_a_walk_that_read_the_pte_before_it() {
    harness::big_stack(|| {
        let latency = 3_000;
        let (mut drv, mr) = setup(&Params::default(), MemConfig::fixed(latency), 5, 4);
        let page = 2u64;
        let va = BASE + (page << 12);
        let old = drv.bus.frame_of[page as usize].unwrap();
        let reads_before = drv.counter("WALK_READS").unwrap();
        // The request misses and walks: root PTE, then the leaf PTE, whose
        // data the memory captures when it takes the read.
        let req = drv.bus.req_of(page);
        drv.bus.offer_req(9, req, page);
        drv.bus.idle(latency + 200);
        assert_eq!(drv.bus.inflight.len(), 1, "still walking");
        // The kernel migrates the page while the leaf read is in flight.
        let new = drv.bus.fresh_frame(page);
        drv.map(&mr, va, PageSize::Size4K, new, true);
        drv.bus.frame_of[page as usize] = Some(new);
        let t = drv
            .invalidate_start(&mr, InvScope::Range { va, len: 4096 })
            .unwrap();
        drv.wait_invalidation(&t).unwrap();
        let done_at = drv.bus.top.clock;
        drv.bus.dead.insert(old);
        assert_eq!(
            drv.bus.inflight.len(),
            1,
            "not answered before the walk's data is back"
        );
        // The stale data comes back; the request must be answered from the
        // new frame (the World's monitor fails on the dead one).
        let mut k = 0;
        while !drv.bus.inflight.is_empty() {
            drv.bus.idle(100);
            k += 1;
            assert!(k < 200, "no answer");
        }
        assert_eq!(drv.bus.oks, 1);
        let dma = drv.bus.dma.first().copied();
        assert_eq!(
            dma.map(|d| d.frame),
            Some(new),
            "answered from the new frame"
        );
        assert!(
            dma.unwrap().emitted > done_at + latency,
            "answered only after a second walk"
        );
        let reads = drv.counter("WALK_READS").unwrap() - reads_before;
        assert_eq!(reads, 4, "two levels walked twice");
    })
}

/// Misses under a steady stream of invalidations of other pages: each
/// discards only the walks it covers, so every miss completes in bounded
/// time, as without invalidations. The small core (2 walkers, 8 requests in
/// flight, 16 TLB entries) with requests on 32 pages, so most of them miss
/// and walk (2 levels of 41 clocks each); the driver invalidates one of 8
/// other pages of the same MR (its PTE unchanged) whenever fewer than 6 are
/// in progress, about one every 50 clocks. A design that restarted every
/// walk in flight at each invalidation would starve: a 2-level walk takes
/// longer than the gap between two invalidations.
#[test]
fn invalidation_of_other_pages_does_not_starve_misses() {
    harness::big_stack(|| {
        let run = |invalidate: bool| {
            let (mut drv, mr) = setup(&Params::small(), MemConfig::fixed(40), 11, 40);
            drv.bus.pages = 32;
            drv.bus.req_pct = 100;
            drv.bus.dma_fast = true;
            drv.bus.traffic = true;
            let mut rng = StdRng::seed_from_u64(12);
            let start = drv.bus.top.clock;
            let (req0, walks0) = (drv.bus.requests, drv.counter("TLB_MISSES").unwrap());
            let mut pending: VecDeque<InvTicket> = VecDeque::new();
            let mut tags: VecDeque<u8> = VecDeque::new();
            let mut events = 0u64;
            let mut issued = 0u64;
            while drv.bus.top.clock - start < 40_000 {
                if !invalidate {
                    drv.bus.idle(100);
                    continue;
                }
                // Consume the done events, as the driver's ring service does.
                if issued.is_multiple_of(16) {
                    service(&mut drv, &mr, &mut tags, &mut events);
                }
                while pending.front().is_some_and(|t| drv.invalidation_done(t)) {
                    pending.pop_front();
                }
                if pending.len() >= 6 {
                    drv.bus.idle(10);
                    continue;
                }
                let va = BASE + (rng.gen_range(32..40) << 12);
                let t = drv
                    .invalidate_start(&mr, InvScope::Range { va, len: 4096 })
                    .expect("INVALIDATE");
                tags.push_back(t.tag);
                pending.push_back(t);
                issued += 1;
            }
            let clocks = drv.bus.top.clock - start;
            // A request still in the core has waited too.
            let now = drv.bus.top.clock;
            let oldest = drv.bus.accepted_at.values().map(|&at| now - at).max();
            drv.bus.max_wait = drv.bus.max_wait.max(oldest.unwrap_or(0));
            let answered = drv.bus.requests - req0 - drv.bus.inflight.len() as u64;
            let misses = drv.counter("TLB_MISSES").unwrap() - walks0;
            println!(
                "invalidations {issued} ({:.0} clocks apart): {answered} requests answered, \
                 {misses} TLB misses, longest wait {} clocks",
                clocks as f64 / issued.max(1) as f64,
                drv.bus.max_wait
            );
            (issued, clocks, answered, drv.bus.max_wait)
        };
        let (_, _, base_answered, base_wait) = run(false);
        let (issued, clocks, answered, wait) = run(true);
        assert!(
            issued * 80 >= clocks,
            "an invalidation at least every 80 clocks: {issued} in {clocks}"
        );
        // Each invalidation costs the stream its doorbell handling and one
        // TLB sweep step, not a restart of the walks in flight.
        assert!(
            answered * 10 >= base_answered * 7,
            "{answered} requests answered under invalidations, {base_answered} without"
        );
        // Bounded waits: no request (answered or still in the core) waited
        // more than twice the longest wait without invalidations (which
        // the walks ahead of it in its QP's order and on the 2 walkers
        // set). Restarting every walk at each invalidation never completes
        // a walk: nothing would be answered at all.
        assert!(
            wait <= 2 * base_wait,
            "longest wait {wait} clocks under invalidations, {base_wait} without"
        );
    })
}

/// A fault pending on a page the driver invalidates stays consistent: the
/// invalidation completes without waiting for the fault; the fault's RESUME
/// is still accepted and wakes each QP that stalled on it once; the
/// requests, retried, walk again and are answered from the frame the fault
/// handler mapped.
#[test]
fn invalidation_of_a_page_with_a_pending_fault_keeps_the_fault_consistent() {
    harness::big_stack(|| {
        let (mut drv, mr) = setup(&Params::default(), MemConfig::fixed(50), 7, 4);
        let page = 1u64;
        let va = BASE + (page << 12);
        let old = drv.bus.frame_of[page as usize].unwrap();
        drv.unmap(&mr, va, PageSize::Size4K);
        drv.bus.frame_of[page as usize] = None;
        drv.invalidate_range(&mr, va, 4096).expect("INVALIDATE");
        // The World fails any OK answer with a dead frame.
        drv.bus.dead.insert(old);
        // Two QPs stall on the missing page: one fault, pending.
        let reads_before = drv.counter("WALK_READS").unwrap();
        for (tag, qpn) in [(5u8, 3u32), (6, 9)] {
            let mut req = drv.bus.req_of(page);
            req.qpn = qpn;
            drv.bus.offer_req(tag, req, page);
            drv.bus.idle(400);
            assert!(drv.bus.offer.is_none(), "request {tag} accepted");
        }
        assert_eq!(drv.bus.stalls, 2, "both requests answered STALL");
        assert!(drv.bus.inflight.is_empty());
        // The kernel changes the range while the fault is pending: the
        // invalidation completes on its own.
        let t = drv
            .invalidate_start(&mr, InvScope::Range { va, len: 4096 })
            .expect("INVALIDATE");
        drv.wait_invalidation(&t)
            .expect("an invalidation does not wait for a pending fault");
        // The fault handler maps the page to a fresh frame and RESUMEs the
        // fault: accepted, one wake for each QP.
        let wakes_before = drv.bus.wakes.len();
        let mut tags = VecDeque::from([t.tag]);
        let mut inv_events = 0;
        // The first INVALIDATE's done event is in the ring too.
        tags.push_front(t.tag.wrapping_sub(1));
        let batch = drv
            .service_faults(|d, f| {
                assert_eq!(f.page_va, va, "the fault of the missing page");
                let fr = d.bus.fresh_frame(page);
                d.map(&mr, va, PageSize::Size4K, fr, true);
                d.bus.frame_of[page as usize] = Some(fr);
                FaultAnswer::Mapped
            })
            .expect("service faults");
        assert_eq!(batch.resumed.len(), 1, "one fault, resumed");
        assert!(batch.failed.is_empty(), "{:x?}", batch.failed);
        for ev in batch.others {
            match ev {
                Event::InvalidationDone { tag, .. } => {
                    assert_eq!(Some(tag as u8), tags.pop_front());
                    inv_events += 1;
                }
                e => panic!("unexpected event {e:x?}"),
            }
        }
        assert_eq!(inv_events, 2);
        drv.bus.idle(200);
        let mut woken: Vec<u32> = drv.bus.wakes[wakes_before..].iter().map(|w| w.1).collect();
        woken.sort();
        assert_eq!(woken, vec![3, 9], "each stalled QP woken once");
        // The retries walk again and are answered OK from the new frame
        // (the World checks every OK frame: the page's, and not dead).
        drv.bus.new_requests = false;
        drv.bus.traffic = true;
        let stop = drv.bus.top.clock + 10_000;
        while drv.bus.oks < 2 {
            assert!(drv.bus.top.clock < stop, "retries not answered");
            drv.bus.idle(50);
        }
        assert_eq!(drv.bus.stalls, 2, "no STALL after the RESUME");
        let reads = drv.counter("WALK_READS").unwrap() - reads_before;
        assert!(
            reads >= 4,
            "the fault's walk and the retries' walk, 2 levels each: {reads} reads"
        );
    })
}
