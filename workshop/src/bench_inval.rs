//! The bench command's invalidation scenarios on the whole core (Verilated
//! default `odp_mmu`, fixed 200-clock memory), driven through the driver
//! library (`docs/invalidation.md`, `docs/driver.md`).
//!
//! The core sits in [`Loaded`], the NIC around it: a request source
//! (requests offered back to back, at most 200 outstanding, responses
//! always ready) and a DMA engine that returns every OK response on
//! `s_done`, with its epoch, [`DMA_CLOCKS`] after it was taken. The driver's
//! register accesses run in the same clocks, so traffic goes on while it
//! issues commands.
//!
//! The idle numbers are exact clock counts: the driver loads the command's
//! `CMD_ARG` words with one ordinary call, then each probe rings the
//! doorbell alone, idles `d` clocks and reads the register once; the
//! smallest `d` whose read sees the command done (found by bisection; the
//! core is idle and deterministic, so every probe runs the same clocks)
//! gives the clocks from the doorbell's AXI4-Lite write-address handshake
//! to the read-address handshake of the earliest read that sees it. The
//! read's data reaches the driver [`InvalNumbers::lite_read_clocks`] later.
//!
//! | key | scenario |
//! |---|---|
//! | `invalidate_idle_clocks` | idle core, no DMA in flight: INVALIDATE of a one-page range, doorbell to `INV_DONE` moving (the register the driver's `invalidation_done` / `wait_invalidation` read) |
//! | `invalidate_idle_event_clocks` | the same command: doorbell to the last write-data beat of its "invalidation done" record taken on the AXI4 master (the record is in host memory) |
//! | `invalidate_all_idle_clocks` | as `invalidate_idle_clocks`, INVALIDATE ALL |
//! | `invalidate_mr_idle_clocks` | as `invalidate_idle_clocks`, INVALIDATE of the whole MR |
//! | `invalidate_32_pages_idle_clocks`, `invalidate_64_pages_idle_clocks`, `invalidate_512_pages_idle_clocks` | as `invalidate_idle_clocks`, a range of 32, 64 and 512 pages |
//! | `invalidate_flush_clocks_per_page` | (64 pages - 1 page) / 63: what each further page of a range costs (the TLB sweeps one set per clock, one set per page of a range shorter than the sets) |
//! | `requests_per_clock_under_invalidation` | 20,000 hit requests (as `top_hit_requests_per_clock`: 64 TLB-resident pages, QPs 0..15) while the driver issues an INVALIDATE of a one-page range of another MR every [`INVALIDATE_PERIOD`] clocks: requests / clocks from the first accept to the last response |
//! | `requests_per_clock_under_invalidate_mr` | the same with an INVALIDATE of the whole other MR every [`INVALIDATE_PERIOD`] clocks |
//! | `requests_per_clock_under_invalidate_all` | the same with an INVALIDATE ALL every [`INVALIDATE_PERIOD`] clocks (each empties the TLB: the hot pages walk again) |
//! | `mr_write_clocks` | idle core: MR_WRITE, doorbell to `CMD_STATUS.BUSY` reading clear with result 0 (the nine `CMD_ARG` writes before it not counted; `mr_register_clocks` counts them) |
//!
//! | `prefetch_pages_per_clock` | idle core: PREFETCH of 512 mapped 4 KiB pages (one table level) none of which is in the TLB: pages / clocks from the doorbell to the last write-data beat of its "prefetch done" record (walk-bound: at most 4 walks of 201 clocks each in flight) |
//! | `prefetch_cached_pages_per_clock` | the same PREFETCH again, every page now in the TLB (port-bound) |
//! | `requests_per_clock_under_prefetch` | the 20,000 hit requests of `requests_per_clock_under_invalidation` while the driver keeps a PREFETCH (NO_FAULT) of the other MR's 1,024 unmapped pages running, a new one as soon as the last one's event is read |
//!
//! The clock-count targets are asserted in `cargo test --test bench_top`.

use std::collections::VecDeque;

use crate::bench::{hit_reqs, warm_reqs, XorShift, HOT_BASE, MEMORY_LATENCY};
use crate::driver::{Bus, Driver, Event, InvScope, InvTicket, Mr, MrSpec, PrefetchFlags};
use crate::harness::top::{
    read32, write32, Inputs, LiteCycle, LiteIn, LiteOut, VerilatedTop, XReq,
};
use crate::models::host_memory::MemConfig;
use crate::models::page_table::WordMemory;
use crate::models::translate_ref::Req;
use odp_mmu::control::regmap::{self, op};
use odp_mmu::spec::{status::byte as status, PageSize};

/// Clocks between two INVALIDATEs of the loaded scenarios.
pub const INVALIDATE_PERIOD: u64 = 1_000;
/// Clocks from an OK response taken to its `s_done` (the DMA engine's
/// transfer), one `s_done` a clock, in order.
pub const DMA_CLOCKS: u64 = 16;
/// Hit requests of a loaded scenario.
pub const LOADED_REQUESTS: usize = 20_000;
/// Pages of the range whose cost gives `invalidate_flush_clocks_per_page`.
pub const FLUSH_PAGES: u64 = 64;

/// The unrelated MR: 1024 pages, none mapped (nothing reads them).
const OTHER_BASE: u64 = 0x7c00_0000_0000;
const OTHER_PAGES: u64 = 1024;
/// Event ring: 64 records, above every table and frame.
const RING: u64 = 0x7_0000_0000;
/// Idle clocks before each probe of the idle scenarios: every earlier
/// write of the core has had its response.
const QUIET_CLOCKS: u64 = 1_000;
/// Clock budget of one wait for a command, an `INV_DONE` or an event.
const WAIT_CLOCKS: u64 = 20_000;

/// The invalidation numbers (see the module table).
#[derive(Clone, Debug, Default)]
pub struct InvalNumbers {
    pub invalidate_idle_clocks: u64,
    pub invalidate_idle_event_clocks: u64,
    pub invalidate_all_idle_clocks: u64,
    pub invalidate_mr_idle_clocks: u64,
    pub invalidate_32_pages_idle_clocks: u64,
    pub invalidate_64_pages_idle_clocks: u64,
    pub invalidate_512_pages_idle_clocks: u64,
    pub invalidate_flush_clocks_per_page: f64,
    pub requests_per_clock_under_invalidation: f64,
    /// INVALIDATEs issued in that run, and how many of them were not yet
    /// done when the next was issued.
    pub invalidations_under_load: u64,
    pub invalidations_late_under_load: u64,
    pub requests_per_clock_under_invalidate_mr: f64,
    pub requests_per_clock_under_invalidate_all: f64,
    pub invalidate_all_under_load: u64,
    pub invalidate_all_late_under_load: u64,
    pub mr_write_clocks: u64,
    pub prefetch_pages_per_clock: f64,
    pub prefetch_cached_pages_per_clock: f64,
    pub requests_per_clock_under_prefetch: f64,
    /// PREFETCHes that ran during that run.
    pub prefetches_under_load: u64,
    /// An AXI4-Lite read: read-address handshake to the data beat.
    pub lite_read_clocks: u64,
}

/// The NIC around the Verilated core: request source, DMA engine, and the
/// driver's AXI4-Lite master in the same clocks (a driver [`Bus`]).
pub struct Loaded {
    pub top: VerilatedTop,
    reqs: Vec<Req>,
    next: usize,
    outstanding: usize,
    answered: usize,
    first: Option<u64>,
    last: u64,
    /// OK responses whose DMA runs: (clock due on `s_done`, epoch).
    dma: VecDeque<(u64, u8)>,
    not_ok: u64,
    /// Clock of the last AXI4-Lite read-address handshake, and of the last
    /// read-data beat.
    last_ar: u64,
    last_r: u64,
}

impl Loaded {
    fn new() -> Self {
        Self {
            top: VerilatedTop::new(
                &odp_mmu::Params::default(),
                MemConfig::fixed(MEMORY_LATENCY),
            ),
            reqs: Vec::new(),
            next: 0,
            outstanding: 0,
            answered: 0,
            first: None,
            last: 0,
            dma: VecDeque::new(),
            not_ok: 0,
            last_ar: 0,
            last_r: 0,
        }
    }

    /// Starts offering `reqs` (the previous ones must all be answered).
    fn start(&mut self, reqs: Vec<Req>) {
        assert_eq!(self.outstanding, 0, "bench: requests still in the core");
        self.reqs = reqs;
        self.next = 0;
        self.answered = 0;
        self.first = None;
    }

    fn finished(&self) -> bool {
        self.answered == self.reqs.len()
    }

    fn clock_once(&mut self, lite: LiteIn) -> LiteOut {
        let now = self.top.clock;
        let req = (self.next < self.reqs.len() && self.outstanding < 200).then(|| XReq {
            tag: self.next as u8,
            req: self.reqs[self.next],
            ..Default::default()
        });
        let done = match self.dma.front() {
            Some(&(due, epoch)) if due <= now => {
                self.dma.pop_front();
                Some(epoch)
            }
            _ => None,
        };
        let o = self.top.cycle(&Inputs {
            req,
            rsp_ready: true,
            done,
            lite,
            ..Default::default()
        });
        if o.accepted {
            self.first.get_or_insert(now);
            self.next += 1;
            self.outstanding += 1;
        }
        if let Some((_, st, _, _, true)) = o.beat {
            self.answered += 1;
            self.outstanding -= 1;
            self.last = now;
            if st == status::OK {
                self.dma.push_back((now + DMA_CLOCKS, o.epoch));
            } else {
                self.not_ok += 1;
            }
        }
        if o.lite.arready {
            self.last_ar = now;
        }
        if o.lite.r.is_some() {
            self.last_r = now;
        }
        o.lite
    }

    fn idle(&mut self, clocks: u64) {
        for _ in 0..clocks {
            self.clock_once(LiteIn::default());
        }
    }
}

impl LiteCycle for Loaded {
    fn lite_cycle(&mut self, lite: LiteIn) -> LiteOut {
        self.clock_once(lite)
    }
}

impl WordMemory for Loaded {
    fn load64(&mut self, addr: u64) -> u64 {
        self.top.mem.read64(addr)
    }
    fn store64(&mut self, addr: u64, value: u64) {
        self.top.mem.write64(addr, value)
    }
}

impl Bus for Loaded {
    fn write32(&mut self, addr: u16, data: u32) -> Result<(), u8> {
        write32(self, addr, data)
    }
    fn read32(&mut self, addr: u16) -> u32 {
        read32(self, addr)
    }
}

/// A default core brought up by the driver, with the unrelated MR (index
/// 1, [`OTHER_PAGES`] pages, none mapped) and a 64-record event ring.
pub(crate) fn core() -> (Driver<Loaded>, Mr) {
    let mut drv = Driver::new(Loaded::new(), 0x100..0x1000, true);
    drv.bring_up()
        .unwrap_or_else(|e| panic!("bench: bring-up: {e}"));
    let other = drv
        .register_mr(
            1,
            MrSpec {
                tag: 0x5a,
                pd: 1,
                base_va: OTHER_BASE,
                length: OTHER_PAGES << 12,
                access: 7,
                levels: 2,
            },
        )
        .unwrap_or_else(|e| panic!("bench: register_mr: {e}"));
    drv.setup_event_ring(RING, 6, false)
        .unwrap_or_else(|e| panic!("bench: event ring: {e}"));
    (drv, other)
}

/// Polls `CMD_STATUS` until `BUSY` reads clear; returns it.
fn wait_command(bus: &mut Loaded) -> u32 {
    let limit = bus.top.clock + WAIT_CLOCKS;
    loop {
        let s = bus.read32(regmap::CMD_STATUS);
        if s >> regmap::CMD_STATUS_BUSY & 1 == 0 {
            return s;
        }
        assert!(
            bus.top.clock < limit,
            "bench: CMD_STATUS.BUSY still set after {WAIT_CLOCKS} clocks"
        );
    }
}

/// The result code of a finished command's `CMD_STATUS`.
fn result(s: u32) -> u32 {
    s >> regmap::CMD_STATUS_RESULT_LSB & 0xff
}

/// Rings the doorbell with `op` and `tag` (the `CMD_ARG` words as the last
/// command left them), idles `d` clocks and reads `reg` once. Returns the
/// doorbell's write-address handshake clock, the clocks from it to the
/// read's address handshake, and the value read.
fn probe(bus: &mut Loaded, op: u8, tag: u8, d: u64, reg: u16) -> (u64, u64, u32) {
    let bell =
        (op as u32) << regmap::CMD_DOORBELL_OP_LSB | (tag as u32) << regmap::CMD_DOORBELL_TAG_LSB;
    bus.write32(regmap::CMD_DOORBELL, bell)
        .unwrap_or_else(|b| panic!("bench: doorbell answered {b}"));
    let at = bus.top.last_lite_write;
    bus.idle(d);
    let v = bus.read32(reg);
    (at, bus.last_ar - at, v)
}

/// The smallest `d` in `0..=max` for which `seen_after(d)` is `Some`, by
/// bisection (it must be monotonic in `d`); returns that `Some` value.
/// Panics naming `what` when even `max` does not see it.
fn earliest(what: &str, max: u64, mut seen_after: impl FnMut(u64) -> Option<u64>) -> u64 {
    if let Some(c) = seen_after(0) {
        return c;
    }
    let mut at_hi = seen_after(max)
        .unwrap_or_else(|| panic!("bench: {what} not visible {max} clocks after the doorbell"));
    let (mut lo, mut hi) = (0, max);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        match seen_after(mid) {
            Some(c) => {
                hi = mid;
                at_hi = c;
            }
            None => lo = mid,
        }
    }
    at_hi
}

/// Waits (bounded) until `INV_DONE` has passed `seq`.
fn wait_inv_done(drv: &mut Driver<Loaded>, seq: u32) {
    let t = InvTicket { seq, tag: 0 };
    let limit = drv.bus.top.clock + WAIT_CLOCKS;
    while !drv.invalidation_done(&t) {
        assert!(
            drv.bus.top.clock < limit,
            "bench: invalidation {seq} not done after {WAIT_CLOCKS} clocks"
        );
        drv.bus.idle(10);
    }
}

/// Reads the event ring until `count` "invalidation done" records have
/// come (bounded); returns their tags. Any other record is a failure.
fn inv_done_events(drv: &mut Driver<Loaded>, count: usize) -> Vec<u8> {
    let mut tags = Vec::new();
    let limit = drv.bus.top.clock + WAIT_CLOCKS;
    loop {
        for e in drv
            .poll_events()
            .unwrap_or_else(|e| panic!("bench: poll: {e}"))
        {
            match e {
                Event::InvalidationDone { tag, .. } => tags.push(tag as u8),
                e => panic!("bench: unexpected event {e:x?}"),
            }
        }
        if tags.len() >= count {
            return tags;
        }
        assert!(
            drv.bus.top.clock < limit,
            "bench: {} of {count} invalidation-done events after {WAIT_CLOCKS} clocks",
            tags.len()
        );
        drv.bus.idle(10);
    }
}

/// An INVALIDATE of `scope` on the idle core (nothing outstanding): the
/// clocks from the doorbell to `INV_DONE` moving, and to its event record
/// in host memory.
fn idle_invalidation(drv: &mut Driver<Loaded>, mr: &Mr, scope: InvScope, what: &str) -> (u64, u64) {
    // One ordinary call loads the CMD_ARG words.
    let t = drv
        .invalidate_start(mr, scope)
        .unwrap_or_else(|e| panic!("bench: {what}: {e}"));
    wait_inv_done(drv, t.seq);
    assert_eq!(inv_done_events(drv, 1), [t.tag], "bench: {what}: event tag");
    let mut tag = 0x80u8;
    let mut event = Vec::new();
    let clocks = earliest(what, 2_000, |d| {
        // Idle first: the event writer's earlier record writes have their
        // responses back (200-clock memory), so every probe starts from
        // the same state.
        drv.bus.idle(QUIET_CLOCKS);
        let issued = drv.bus.read32(regmap::INV_ISSUED);
        assert_eq!(
            drv.bus.read32(regmap::INV_DONE),
            issued,
            "bench: {what}: the core is not idle"
        );
        let writes = drv.bus.top.event_writes;
        tag = tag.wrapping_add(1);
        let (bell, clocks, done) = probe(&mut drv.bus, op::INVALIDATE, tag, d, regmap::INV_DONE);
        let seq = issued.wrapping_add(1);
        let st = wait_command(&mut drv.bus);
        assert_eq!(result(st), 0, "bench: {what}: result {}", result(st));
        assert_eq!(
            drv.bus.read32(regmap::INV_ISSUED),
            seq,
            "bench: {what}: INV_ISSUED"
        );
        wait_inv_done(drv, seq);
        assert_eq!(inv_done_events(drv, 1), [tag], "bench: {what}: event tag");
        assert_eq!(
            drv.bus.top.event_writes,
            writes + 1,
            "bench: {what}: one record"
        );
        event.push(drv.bus.top.last_write_data - bell);
        (done.wrapping_sub(seq) as i32 >= 0).then_some(clocks)
    });
    event.sort_unstable();
    assert_eq!(
        event.first(),
        event.last(),
        "bench: {what}: the event clocks vary between probes"
    );
    (clocks, event[0])
}

/// MR_WRITE on the idle core: doorbell to `CMD_STATUS.BUSY` clear.
fn mr_write(drv: &mut Driver<Loaded>, other: &Mr) -> u64 {
    // One ordinary MR_WRITE loads the CMD_ARG words (MR 1's entry again).
    drv.write_mr(other.index, &other.entry())
        .unwrap_or_else(|e| panic!("bench: MR_WRITE: {e}"));
    let mut tag = 0u8;
    earliest("MR_WRITE", 200, |d| {
        drv.bus.idle(QUIET_CLOCKS);
        tag = tag.wrapping_add(1);
        let (_, clocks, st) = probe(&mut drv.bus, op::MR_WRITE, tag, d, regmap::CMD_STATUS);
        let fin = wait_command(&mut drv.bus);
        assert_eq!(result(fin), 0, "bench: MR_WRITE result {}", result(fin));
        assert_eq!(
            fin >> regmap::CMD_STATUS_OP_LSB & 0xff,
            op::MR_WRITE as u32,
            "bench: CMD_STATUS.OP after MR_WRITE"
        );
        (st >> regmap::CMD_STATUS_BUSY & 1 == 0).then_some(clocks)
    })
}

/// The idle numbers (the loaded keys left 0).
pub fn idle_numbers() -> InvalNumbers {
    let mut n = InvalNumbers::default();
    let (mut drv, other) = core();
    let page = |pages: u64| InvScope::Range {
        va: OTHER_BASE + 0x1000,
        len: pages << 12,
    };
    (n.invalidate_idle_clocks, n.invalidate_idle_event_clocks) =
        idle_invalidation(&mut drv, &other, page(1), "INVALIDATE of one page");
    (n.invalidate_32_pages_idle_clocks, _) =
        idle_invalidation(&mut drv, &other, page(32), "INVALIDATE of 32 pages");
    (n.invalidate_64_pages_idle_clocks, _) = idle_invalidation(
        &mut drv,
        &other,
        page(FLUSH_PAGES),
        "INVALIDATE of 64 pages",
    );
    (n.invalidate_512_pages_idle_clocks, _) =
        idle_invalidation(&mut drv, &other, page(512), "INVALIDATE of 512 pages");
    (n.invalidate_all_idle_clocks, _) =
        idle_invalidation(&mut drv, &other, InvScope::All, "INVALIDATE ALL");
    (n.invalidate_mr_idle_clocks, _) = idle_invalidation(
        &mut drv,
        &other,
        InvScope::WholeMr,
        "INVALIDATE of a whole MR",
    );
    n.invalidate_flush_clocks_per_page = (n.invalidate_64_pages_idle_clocks as f64
        - n.invalidate_idle_clocks as f64)
        / (FLUSH_PAGES - 1) as f64;
    n.mr_write_clocks = mr_write(&mut drv, &other);
    let ar = drv.bus.top.clock;
    drv.bus.read32(regmap::ID);
    assert!(drv.bus.last_ar >= ar, "bench: the ID read was not taken");
    n.lite_read_clocks = drv.bus.last_r - drv.bus.last_ar;
    n
}

/// What a loaded run measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadedRun {
    pub requests: usize,
    pub requests_per_clock: f64,
    /// INVALIDATEs issued during the run.
    pub invalidations: u64,
    /// Of them, not yet done when the next one was issued.
    pub late: u64,
}

/// What the loaded scenario invalidates every [`INVALIDATE_PERIOD`] clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Load {
    /// A one-page range of the unrelated MR (a different page each time).
    Page,
    /// The whole unrelated MR.
    WholeMr,
    /// Everything, the hot pages included.
    All,
}

/// Registers the hot MR (index 0, 64 pages at [`HOT_BASE`], mapped),
/// warms its pages into the TLB and starts `requests` hit requests on them
/// (as `top_hit_requests_per_clock`). Returns the clock by which the run
/// must be over.
pub(crate) fn hot_traffic(drv: &mut Driver<Loaded>, requests: usize) -> u64 {
    let hot = drv
        .register_mr(
            0,
            MrSpec {
                tag: 0x5a,
                pd: 1,
                base_va: HOT_BASE,
                length: 64 << 12,
                access: 7,
                levels: 1,
            },
        )
        .unwrap_or_else(|e| panic!("bench: register_mr: {e}"));
    for p in 0..64 {
        drv.map(
            &hot,
            HOT_BASE + (p << 12),
            PageSize::Size4K,
            0x10_0000 + p,
            true,
        );
    }
    let limit = drv.bus.top.clock + 50 * requests as u64 + 100_000;
    // Warm the 64 pages into the TLB.
    drv.bus.start(warm_reqs());
    while !drv.bus.finished() {
        assert!(drv.bus.top.clock < limit, "bench: the warm-up stopped");
        drv.bus.idle(1);
    }
    let mut rng = XorShift::new();
    let mut reqs = Vec::new();
    while reqs.len() < requests {
        reqs.extend(hit_reqs(&mut rng));
    }
    reqs.truncate(requests);
    drv.bus.start(reqs);
    limit
}

/// `requests` hit requests (64 resident pages of MR 0) with the driver
/// issuing an INVALIDATE every [`INVALIDATE_PERIOD`] clocks, of the scope
/// `load` names. Checks that every request is answered OK, every
/// invalidation is done with its event, and `ERROR` stays clear.
pub fn loaded(requests: usize, load: Load) -> LoadedRun {
    let (mut drv, other) = core();
    let limit = hot_traffic(&mut drv, requests);
    let mut run = LoadedRun {
        requests,
        ..Default::default()
    };
    let mut next_inv = None;
    let mut prev: Option<InvTicket> = None;
    let mut tags = Vec::new();
    let mut events = Vec::new();
    while !drv.bus.finished() {
        assert!(
            drv.bus.top.clock < limit,
            "bench: {} of {requests} requests answered by clock {limit}",
            drv.bus.answered
        );
        let now = drv.bus.top.clock;
        match (next_inv, drv.bus.first) {
            (None, Some(first)) => next_inv = Some(first + INVALIDATE_PERIOD),
            (Some(at), _) if now >= at => {
                if let Some(t) = prev {
                    run.late += !drv.invalidation_done(&t) as u64;
                }
                let k = run.invalidations;
                let scope = match load {
                    Load::All => InvScope::All,
                    Load::WholeMr => InvScope::WholeMr,
                    Load::Page => InvScope::Range {
                        va: OTHER_BASE + ((k % OTHER_PAGES) << 12),
                        len: 1 << 12,
                    },
                };
                let t = drv
                    .invalidate_start(&other, scope)
                    .unwrap_or_else(|e| panic!("bench: INVALIDATE under load: {e}"));
                tags.push(t.tag);
                prev = Some(t);
                run.invalidations += 1;
                next_inv = Some(at + INVALIDATE_PERIOD);
                events.extend(inv_done_events(&mut drv, 0));
                continue;
            }
            _ => {}
        }
        drv.bus.idle(1);
    }
    let (first, last) = (drv.bus.first.unwrap_or(0), drv.bus.last);
    run.requests_per_clock = requests as f64 / (last - first + 1) as f64;
    assert_eq!(drv.bus.not_ok, 0, "bench: hit requests answered not OK");
    if let Some(t) = prev {
        wait_inv_done(&mut drv, t.seq);
    }
    let missing = tags.len() - events.len();
    events.extend(inv_done_events(&mut drv, missing));
    assert_eq!(events, tags, "bench: invalidation-done events, in order");
    let (error, info) = drv.errors();
    assert_eq!(error, 0, "bench: ERROR {error:#x} (ERROR_INFO {info:#x})");
    run
}

/// Every invalidation number (see the module table).
pub fn top_inval(progress: &mut dyn FnMut(&str)) -> InvalNumbers {
    progress("odp_mmu: INVALIDATE and MR_WRITE on the idle core");
    let mut n = idle_numbers();
    progress("odp_mmu: hits under a one-page INVALIDATE every 1,000 clocks");
    let r = loaded(LOADED_REQUESTS, Load::Page);
    n.requests_per_clock_under_invalidation = r.requests_per_clock;
    n.invalidations_under_load = r.invalidations;
    n.invalidations_late_under_load = r.late;
    progress("odp_mmu: hits under a whole-MR INVALIDATE every 1,000 clocks");
    n.requests_per_clock_under_invalidate_mr =
        loaded(LOADED_REQUESTS, Load::WholeMr).requests_per_clock;
    progress("odp_mmu: hits under an INVALIDATE ALL every 1,000 clocks");
    let r = loaded(LOADED_REQUESTS, Load::All);
    n.requests_per_clock_under_invalidate_all = r.requests_per_clock;
    n.invalidate_all_under_load = r.invalidations;
    n.invalidate_all_late_under_load = r.late;
    progress("odp_mmu: PREFETCH of 512 pages on the idle core, cold and cached");
    (
        n.prefetch_pages_per_clock,
        n.prefetch_cached_pages_per_clock,
    ) = idle_prefetch();
    progress("odp_mmu: hits while a PREFETCH runs all along");
    (n.requests_per_clock_under_prefetch, n.prefetches_under_load) =
        under_prefetch(LOADED_REQUESTS);
    n
}

/// Pages of the idle PREFETCH scenarios.
pub const PREFETCH_PAGES: u64 = 512;
/// Base of the MR the idle PREFETCH scenarios prefetch (index 2).
const PF_BASE: u64 = 0x7e00_0000_0000;

/// Runs PREFETCH of `mr`'s `[va, va + len)` with `flags` on the loaded
/// core and returns the clocks from its doorbell to the last write-data
/// beat of the first record written after it, and the events read until
/// its "prefetch done" (which the caller checks).
fn timed_prefetch(
    drv: &mut Driver<Loaded>,
    mr: &Mr,
    va: u64,
    len: u64,
    flags: PrefetchFlags,
) -> (u64, Vec<Event>) {
    let tag = drv
        .prefetch(mr, va, len, flags)
        .unwrap_or_else(|e| panic!("bench: PREFETCH: {e}"));
    let doorbell = drv.bus.top.last_lite_write;
    let limit = drv.bus.top.clock + 100 * WAIT_CLOCKS;
    while drv.bus.top.last_write_data < doorbell {
        assert!(
            drv.bus.top.clock < limit,
            "bench: no record after the PREFETCH"
        );
        drv.bus.idle(1);
    }
    // The record's four beats, then it is read.
    drv.bus.idle(8);
    let clocks = drv.bus.top.last_write_data - doorbell;
    let events = drv
        .poll_events()
        .unwrap_or_else(|e| panic!("bench: poll: {e}"));
    assert!(
        matches!(events.last(), Some(Event::PrefetchDone { tag: t, .. }) if *t == tag as u32),
        "bench: the PREFETCH's record: {events:x?}"
    );
    (clocks, events)
}

/// The idle PREFETCH numbers: cold pages per clock, cached pages per
/// clock. Checks that every page counts as filled.
pub fn idle_prefetch() -> (f64, f64) {
    let (mut drv, _) = core();
    let mr = drv
        .register_mr(
            2,
            MrSpec {
                tag: 0x5a,
                pd: 1,
                base_va: PF_BASE,
                length: PREFETCH_PAGES << 12,
                access: 7,
                levels: 1,
            },
        )
        .unwrap_or_else(|e| panic!("bench: register_mr: {e}"));
    for p in 0..PREFETCH_PAGES {
        drv.map(
            &mr,
            PF_BASE + (p << 12),
            PageSize::Size4K,
            0x20_0000 + p,
            true,
        );
    }
    drv.bus.idle(QUIET_CLOCKS);
    let mut rate = [0.0; 2];
    for r in &mut rate {
        let (clocks, events) = timed_prefetch(
            &mut drv,
            &mr,
            PF_BASE,
            PREFETCH_PAGES << 12,
            PrefetchFlags::default(),
        );
        let want = PREFETCH_PAGES as u32;
        assert!(
            matches!(events.last(), Some(Event::PrefetchDone { filled, faulted: 0, refused: 0, .. }) if *filled == want),
            "bench: every page filled: {events:x?}"
        );
        *r = PREFETCH_PAGES as f64 / clocks as f64;
    }
    (rate[0], rate[1])
}

/// `requests` hit requests (as [`loaded`]) while a PREFETCH (NO_FAULT) of
/// the other MR's unmapped pages runs all along. Returns requests per
/// clock and the PREFETCHes run. Checks every request answered OK and
/// `ERROR` clear.
pub fn under_prefetch(requests: usize) -> (f64, u64) {
    let (mut drv, other) = core();
    let limit = hot_traffic(&mut drv, requests);
    let flags = PrefetchFlags {
        write: false,
        no_fault: true,
    };
    let (mut running, mut runs, mut next_poll) = (false, 0, 0);
    while !drv.bus.finished() {
        assert!(
            drv.bus.top.clock < limit,
            "bench: the requests under PREFETCH stopped"
        );
        if !running && drv.bus.first.is_some() {
            drv.prefetch(&other, OTHER_BASE, OTHER_PAGES << 12, flags)
                .unwrap_or_else(|e| panic!("bench: PREFETCH under load: {e}"));
            (running, runs) = (true, runs + 1);
        }
        if drv.bus.top.clock >= next_poll {
            let events = drv
                .poll_events()
                .unwrap_or_else(|e| panic!("bench: poll: {e}"));
            running &= !events
                .iter()
                .any(|e| matches!(e, Event::PrefetchDone { .. }));
            next_poll = drv.bus.top.clock + 500;
        }
        drv.bus.idle(1);
    }
    let (first, last) = (drv.bus.first.unwrap_or(0), drv.bus.last);
    assert_eq!(drv.bus.not_ok, 0, "bench: hit requests answered not OK");
    let (error, info) = drv.errors();
    assert_eq!(error, 0, "bench: ERROR {error:#x} (ERROR_INFO {info:#x})");
    (requests as f64 / (last - first + 1) as f64, runs)
}
