//! The bench command's fault-path scenarios on the whole core (Verilated
//! default `odp_mmu`, fixed 200-clock memory): a page fault from the walk
//! that finds the page missing to the RNR NAK, the event record in host
//! memory, the RESUME and the retried request; the wake of a stalled local
//! QP; and a cold 4 MiB RDMA WRITE with and without the prefetch hint.
//!
//! | key | scenario |
//! |---|---|
//! | `fault_to_nak_clocks` | one REMOTE_WRITE to a missing page on an idle core: clocks from the read-data beat that brings the non-present PTE to the walker to the first clock its NAK is valid on `m_nak` |
//! | `fault_event_clocks` | the same fault: from that beat to the last write-data beat of its event record taken on the AXI4 master (the record is in host memory) |
//! | `resume_to_ok_clocks` | the driver maps the page and RESUMEs; the retransmission is offered the clock the driver call returns: clocks from the RESUME doorbell (the AXI4-Lite write address taken) to the retransmission's OK answer, the driver's `CMD_STATUS` polls and the retransmission's walk (2 levels of 200-clock reads: the RESUME does not fill the TLB) included |
//! | `fault_hw_overhead_clocks` | `fault_event_clocks` + `resume_to_ok_clocks`: the core's share of a fault, the driver's time between event and RESUME excluded |
//! | `wake_after_resume_clocks` | one LOCAL_WRITE to a missing page, answered STALL: from its RESUME doorbell to its `m_wake` |
//! | `fault_events_per_clock_storm` | [`storm_bench_cfg`]: 32 QPs fault at once on 32 missing pages; page-fault events read per clock, first request to last record written |
//! | `cold_4mib_write_rnr_round_trips_with_hint`, `..._without_hint` | an RDMA WRITE of 4 MiB (1024 packets of 4096 bytes) into an MR whose pages are all missing, one packet in flight, the RNR timer left out: the RNR NAKs the requester gets. The driver maps the event's prefetch range (with hint) or only the faulting page (without) |
//! | `adaptive_rnr_code`, `adaptive_rnr_expected_code`, `adaptive_rnr_service_p90_us` | [`adaptive_rnr_bench_cfg`]: `CTRL.ADAPTIVE_RNR` on, `CLOCKS_PER_US` = 1, 150 faults in a row, each resumed a uniform 1,000..1,500 clocks after the driver read its event: the median timer code of the RNR NAKs after 30 faults of warm-up, the smallest code whose time reaches the 90th percentile of the service times the core measured, and that percentile in microseconds ([`adaptive_rnr`]) |

use crate::driver::{Driver, Event, Mr, MrSpec, PageFaultEvent};
use crate::harness::top::{Beat, Inputs, VerilatedTop, XReq};
use crate::models::host_memory::MemConfig;
use crate::models::translate_ref::Req;
use odp_mmu::spec::{op::byte as op, status::byte as status, PageSize};

/// The fault-path numbers (see the module table).
#[derive(Clone, Debug, Default)]
pub struct FaultNumbers {
    pub fault_to_nak_clocks: u64,
    pub fault_event_clocks: u64,
    pub resume_to_ok_clocks: u64,
    pub fault_hw_overhead_clocks: u64,
    pub wake_after_resume_clocks: u64,
    pub cold_4mib_write_rnr_round_trips_with_hint: u64,
    pub cold_4mib_write_rnr_round_trips_without_hint: u64,
    /// [`fault_storm`] on [`storm_bench_cfg`]: page-fault events per clock in a storm, and the
    /// events.
    pub fault_events_per_clock_storm: f64,
    pub storm_events: u64,
    /// The distinct pages the storm's messages were sent on: each faults
    /// at least once, so `storm_events` is at least this.
    pub storm_pages: u64,
    /// [`adaptive_rnr`] on [`adaptive_rnr_bench_cfg`]: the code the
    /// adaptive timer settles on, the smallest code that reaches the 90th
    /// percentile of the applied service times, and that percentile (µs).
    pub adaptive_rnr_code: u64,
    pub adaptive_rnr_expected_code: u64,
    pub adaptive_rnr_service_p90_us: f64,
}

/// The MR of every scenario: 4096 pages (16 MiB, two table levels), none
/// mapped.
pub const BASE: u64 = 0x5000_0000;
const PAGES: u64 = 4096;
/// Event ring: 64 records, above every table and frame.
const RING: u64 = 0x7_0000_0000;
/// Frames of the mapped pages.
const FRAME: u64 = 0x80_0000;

/// A core of `params` with the fault scenarios' MR (4096 pages from
/// [`BASE`], none mapped, key 0x5a, PD 1, every right) and an event ring
/// of 64 records, interrupts off.
pub fn core_with(params: &odp_mmu::Params) -> (Driver<VerilatedTop>, Mr) {
    let top = VerilatedTop::new(params, MemConfig::fixed(crate::bench::MEMORY_LATENCY));
    let mut drv = Driver::new(top, 0x100..0x1000, true);
    drv.bring_up()
        .unwrap_or_else(|e| panic!("bench: bring-up: {e}"));
    let mr = drv
        .register_mr(
            0,
            MrSpec {
                tag: 0x5a,
                pd: 1,
                base_va: BASE,
                length: PAGES << 12,
                access: 7,
                levels: 2,
            },
        )
        .unwrap_or_else(|e| panic!("bench: register_mr: {e}"));
    drv.setup_event_ring(RING, 6, false)
        .unwrap_or_else(|e| panic!("bench: event ring: {e}"));
    (drv, mr)
}

fn core() -> (Driver<VerilatedTop>, Mr) {
    core_with(&odp_mmu::Params::default())
}

fn req(op: u8, va: u64, len: u16) -> Req {
    Req {
        op,
        qpn: 3,
        pd: 1,
        key: 0x5a,
        va,
        len,
    }
}

/// Offers `r` (remote QP 0x42, MSN 1) until taken, then runs until its
/// answer; returns the status and the clock its (last) beat was valid.
pub fn one(drv: &mut Driver<VerilatedTop>, r: &Req, psn: u32, msg_len: u32) -> (u8, u64) {
    let x = XReq {
        tag: 7,
        req: *r,
        rqpn: 0x42,
        psn,
        msn: 1,
        msg_len,
    };
    let limit = drv.bus.clock + 100_000;
    let mut offered = true;
    loop {
        assert!(drv.bus.clock < limit, "bench: no answer to {r:x?}");
        let now = drv.bus.clock;
        let o = drv.bus.cycle(&Inputs {
            req: offered.then_some(x),
            rsp_ready: true,
            ..Default::default()
        });
        offered &= !o.accepted;
        if let Some((_, st, _, _, true)) = o.beat {
            return (st, now);
        }
    }
}

/// Clocks the core until the driver finds at least one event; returns them.
pub fn events(drv: &mut Driver<VerilatedTop>) -> Vec<PageFaultEvent> {
    for _ in 0..1000 {
        for _ in 0..20 {
            drv.bus.cycle(&Inputs {
                rsp_ready: true,
                ..Default::default()
            });
        }
        let ev = drv
            .poll_events()
            .unwrap_or_else(|e| panic!("bench: poll: {e}"));
        if !ev.is_empty() {
            return ev
                .into_iter()
                .map(|e| match e {
                    Event::PageFault(pf) => pf,
                    e => panic!("bench: unexpected event {e:x?}"),
                })
                .collect();
        }
    }
    panic!("bench: no event within 20,000 clocks");
}

/// Maps the 4 KiB page of `va` to its frame.
pub fn map(drv: &mut Driver<VerilatedTop>, mr: &Mr, va: u64) {
    let page = va & !0xfff;
    drv.map(
        mr,
        page,
        PageSize::Size4K,
        FRAME + ((page - BASE) >> 12),
        true,
    );
}

fn resume(drv: &mut Driver<VerilatedTop>, pf: &PageFaultEvent) -> u64 {
    drv.resume_fault(pf.token, false)
        .unwrap_or_else(|e| panic!("bench: RESUME: {e}"));
    drv.bus.last_lite_write
}

/// The fault, event, RESUME and wake numbers.
fn one_fault(n: &mut FaultNumbers) {
    let (mut drv, mr) = core();
    let va = BASE + 0x10_0000;
    let (st, _) = one(&mut drv, &req(op::REMOTE_WRITE, va, 64), 100, 64);
    assert_eq!(st, status::RNR, "bench: a missing page answers RNR");
    let seen = drv.bus.last_read_data;
    while drv.bus.naks.is_empty() {
        drv.bus.cycle(&Inputs::default());
    }
    let (nak_clock, _, hdr) = drv.bus.naks[0];
    assert_eq!(hdr.to_be_bytes()[12], 0x2c, "bench: RNR NAK, code 12");
    n.fault_to_nak_clocks = nak_clock - seen;
    let ev = events(&mut drv);
    assert_eq!(ev.len(), 1, "bench: one fault, one event");
    n.fault_event_clocks = drv.bus.last_write_data - seen;
    map(&mut drv, &mr, ev[0].page_va);
    let doorbell = resume(&mut drv, &ev[0]);
    let (st, ok) = one(&mut drv, &req(op::REMOTE_WRITE, va, 64), 100, 64);
    assert_eq!(st, status::OK, "bench: the retransmission after RESUME");
    n.resume_to_ok_clocks = ok - doorbell;
    n.fault_hw_overhead_clocks = n.fault_event_clocks + n.resume_to_ok_clocks;

    // A local op: STALL, then the wake.
    let va = BASE + 0x20_0000;
    let (st, _) = one(&mut drv, &req(op::LOCAL_WRITE, va, 64), 0, 64);
    assert_eq!(st, status::STALL, "bench: a missing page answers STALL");
    let ev = events(&mut drv);
    map(&mut drv, &mr, ev[0].page_va);
    drv.bus.wakes.clear();
    let doorbell = resume(&mut drv, &ev[0]);
    while drv.bus.wakes.is_empty() {
        assert!(drv.bus.clock < doorbell + 10_000, "bench: no wake");
        drv.bus.cycle(&Inputs::default());
    }
    n.wake_after_resume_clocks = drv.bus.wakes[0].0 - doorbell;
}

/// RNR NAKs of a cold 4 MiB RDMA WRITE, the driver mapping the prefetch
/// range (`hint`) or the faulting page alone.
pub fn cold_write_round_trips(hint: bool) -> u64 {
    let (mut drv, mr) = core();
    const MSG: u64 = 4 << 20;
    let start = BASE + 0x40_0000;
    let mut rnr = 0;
    for k in 0..MSG / 4096 {
        let va = start + k * 4096;
        let psn = k as u32;
        let msg_len = (MSG - k * 4096) as u32;
        loop {
            let (st, _) = one(&mut drv, &req(op::REMOTE_WRITE, va, 4096), psn, msg_len);
            if st == status::OK {
                break;
            }
            assert_eq!(st, status::RNR, "bench: packet {k}");
            rnr += 1;
            for pf in events(&mut drv) {
                let range = if hint {
                    pf.prefetch_range()
                } else {
                    pf.page_va..pf.page_va + 4096
                };
                for page in (range.start..range.end).step_by(4096) {
                    map(&mut drv, &mr, page);
                }
                resume(&mut drv, &pf);
            }
        }
    }
    rnr
}

/// Every fault-path number.
pub fn top_faults(progress: &mut dyn FnMut(&str)) -> FaultNumbers {
    let mut n = FaultNumbers::default();
    progress("odp_mmu: one fault, its NAK, event, RESUME and wake");
    one_fault(&mut n);
    progress("odp_mmu: cold 4 MiB RDMA WRITE with the prefetch hint");
    n.cold_4mib_write_rnr_round_trips_with_hint = cold_write_round_trips(true);
    progress("odp_mmu: cold 4 MiB RDMA WRITE without the hint");
    n.cold_4mib_write_rnr_round_trips_without_hint = cold_write_round_trips(false);
    progress("odp_mmu: a fault storm of 32 QPs on 32 missing pages");
    let r = fault_storm(&storm_bench_cfg());
    n.fault_events_per_clock_storm = r.events_per_clock();
    n.storm_events = r.events;
    n.storm_pages = r.pages;
    progress("odp_mmu: adaptive RNR timer against a known service-time distribution");
    let r = adaptive_rnr(&adaptive_rnr_bench_cfg());
    n.adaptive_rnr_code = r.code as u64;
    n.adaptive_rnr_expected_code = r.expected_code as u64;
    n.adaptive_rnr_service_p90_us = r.service_p90_us;
    n
}

/// The bench's storm: the default core, 200-clock memory, no backpressure,
/// 32 QPs (half remote, half local) each sending one 64-byte packet to a
/// random one of 32 missing pages, a driver that reads the 64-record ring
/// every 20 clocks and resumes at once. `fault_events_per_clock_storm` is
/// the events read over the clocks from the first request taken to the
/// last record's last beat in host memory: every fault needs its walk
/// (2 reads of 200 clocks, 8 walks at a time), so it is the walkers that
/// bound it, not the fault queue (1 fault per 6 clocks) or the ring writer
/// (1 record per 4 clocks).
pub fn storm_bench_cfg() -> StormCfg {
    StormCfg {
        params: odp_mmu::Params::default(),
        mem: MemConfig::fixed(crate::bench::MEMORY_LATENCY),
        ring_log2: 6,
        pages: 32,
        qps: 32,
        msgs: 1,
        poll_every: 20,
        service: (0, 0),
        rnr_wait: (100, 100),
        backpressure: false,
        seed: 1,
    }
}

/// A fault storm's set-up (see [`fault_storm`]).
#[derive(Clone, Debug)]
pub struct StormCfg {
    pub params: odp_mmu::Params,
    pub mem: MemConfig,
    /// Event ring of `2^ring_log2` records: 1 makes it full at once.
    pub ring_log2: u32,
    /// Pages 1..=`pages` of the MR are the storm's (all missing at first,
    /// one leaf table, so each has its own leaf PTE address).
    pub pages: u64,
    /// QPs 1..=`qps`: odd ones remote (REMOTE_WRITE), even ones local
    /// (LOCAL_WRITE).
    pub qps: u32,
    /// Messages per QP, each on a random storm page.
    pub msgs: u32,
    /// The driver polls the ring every `poll_every` clocks and maps and
    /// resumes each fault a random `service` clocks after it saw it.
    pub poll_every: u64,
    pub service: (u64, u64),
    /// A remote QP retransmits a random `rnr_wait` clocks after an RNR.
    pub rnr_wait: (u64, u64),
    /// Random backpressure on `m_xrsp`, `m_wake` and `m_nak`.
    pub backpressure: bool,
    pub seed: u64,
}

/// What a fault storm did (every guarantee is checked while it runs).
#[derive(Clone, Debug, Default)]
pub struct StormReport {
    pub clocks: u64,
    /// Page-fault events the driver read (a page can fault again when a
    /// walk read its PTE before the mapping), and the distinct pages the
    /// messages were sent on.
    pub events: u64,
    pub pages: u64,
    /// RNR / STALL answers, wakes and NAKs.
    pub rnr: u64,
    pub stalls: u64,
    pub wakes: u64,
    pub naks: u64,
    /// Counters read at the end.
    pub faults: u64,
    pub faults_coalesced: u64,
    pub max_pending_faults: u64,
    pub max_event_ring: u64,
    /// Leaf-PTE reads checked against the pending windows.
    pub leaf_reads: u64,
    /// The first request taken and the last event record's last beat in
    /// host memory.
    pub first_request: u64,
    pub last_event_write: u64,
}

impl StormReport {
    /// Page-fault events per clock, first request to last record written.
    pub fn events_per_clock(&self) -> f64 {
        self.events as f64 / (self.last_event_write - self.first_request).max(1) as f64
    }
}

/// Where a storm QP is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum QpState {
    /// Its message's packet is to be offered (from the clock given).
    Ready(u64),
    /// Offered or taken, the answer not yet back.
    Sent,
    /// Got STALL: waits for its `m_wake`.
    Stalled,
    Done,
}

/// A fault storm on the whole core: many QPs fault on more distinct pages
/// than the fault queue has slots, the event ring fills up, the driver
/// services the faults late, and (with `backpressure`) every stream and AXI
/// channel stalls at random. Panics on the first broken guarantee:
///
/// - no duplicate event for a page while its fault is pending (coalescing);
/// - every STALL is followed by exactly one `m_wake` (no wake without a
///   STALL, none twice), and `QPS_STALLED_NOW` is 0 at the end;
/// - no walk reads the leaf PTE of a pending page (from 2,000 clocks after
///   its event was read, so that walks already under way when it faulted
///   are not counted, until its RESUME);
/// - no fault is lost: every message completes with OK, every RNR answer
///   has its NAK, `FAULTS` equals the events read, and nothing is pending at
///   the end.
pub fn fault_storm(cfg: &StormCfg) -> StormReport {
    use crate::models::page_table::walk_trace;
    use rand::{rngs::StdRng, Rng, SeedableRng};
    use std::collections::{BTreeMap, HashMap};

    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let top = VerilatedTop::new(&cfg.params, cfg.mem.clone());
    let mut drv = Driver::new(top, 0x100..0x1000, true);
    drv.bring_up()
        .unwrap_or_else(|e| panic!("storm: bring-up: {e}"));
    let mr = drv
        .register_mr(
            0,
            MrSpec {
                tag: 0x5a,
                pd: 1,
                base_va: BASE,
                length: PAGES << 12,
                access: 7,
                levels: 2,
            },
        )
        .unwrap_or_else(|e| panic!("storm: register_mr: {e}"));
    assert!(cfg.pages < 512, "storm pages share one leaf table");
    // Page 0 mapped: the leaf table exists, so a walk of a storm page reads
    // that page's own leaf PTE.
    map(&mut drv, &mr, BASE);
    drv.setup_event_ring(RING, cfg.ring_log2, false)
        .unwrap_or_else(|e| panic!("storm: event ring: {e}"));
    let leaf = |drv: &Driver<VerilatedTop>, page: u64| -> u64 {
        let (_, reads) = walk_trace(
            &drv.bus.mem,
            mr.tables.root,
            mr.tables.levels_m1,
            mr.offset(BASE + (page << 12)),
        );
        *reads.last().expect("a walk reads a PTE")
    };
    let leaf_page: HashMap<u64, u64> = (1..=cfg.pages).map(|p| (leaf(&drv, p), p)).collect();
    assert_eq!(leaf_page.len() as u64, cfg.pages, "one leaf PTE per page");
    drv.bus.mem.logging = true;
    drv.bus.mem.ar_log.clear();
    // The answers taken while the driver runs are kept: the storm sees
    // every one, in order, before the wakes of the same clocks.
    drv.bus.keep_lite_beats = true;

    let n = cfg.qps as usize;
    let mut st = vec![QpState::Ready(0); n];
    let mut page: Vec<u64> = (0..n).map(|_| rng.gen_range(1..=cfg.pages)).collect();
    let mut pages_sent = std::collections::HashSet::new();
    let mut sent_msgs = vec![0u32; n];
    let mut psn = vec![0u32; n];
    let remote = |q: usize| (q + 1) % 2 == 1;
    // Pending faults the driver knows: page -> (token, due, seen).
    let mut pending: BTreeMap<u64, (u32, u64, u64)> = BTreeMap::new();
    // Windows in which no walk may read a page's leaf PTE.
    let mut windows: Vec<(u64, u64, u64)> = Vec::new();
    let mut rep = StormReport::default();
    let mut offer: Option<(usize, XReq)> = None;
    let mut rr = 0usize;
    let mut next_poll = 0u64;
    let mut rnr_answers = 0u64;
    let limit = 3_000_000u64;
    let mut first_request = None;
    loop {
        let now = drv.bus.clock;
        if now >= limit {
            let c = drv.counters();
            panic!(
                "storm: not done after {limit} clocks: {st:?}; pending {pending:?}; offer {offer:?}; counters {c:?}"
            );
        }
        if st.iter().all(|s| *s == QpState::Done) && pending.is_empty() {
            break;
        }
        // The next packet: round robin over the QPs that may send.
        if offer.is_none() {
            for k in 0..n {
                let q = (rr + k) % n;
                if matches!(st[q], QpState::Ready(t) if t <= now) {
                    rr = q + 1;
                    let op = if remote(q) {
                        op::REMOTE_WRITE
                    } else {
                        op::LOCAL_WRITE
                    };
                    let x = XReq {
                        tag: q as u8,
                        req: Req {
                            op,
                            qpn: q as u32 + 1,
                            pd: 1,
                            key: 0x5a,
                            va: BASE + (page[q] << 12) + 64 * (q as u64 % 64),
                            len: 64,
                        },
                        rqpn: 0x100 + q as u32,
                        psn: psn[q],
                        msn: sent_msgs[q],
                        msg_len: 64,
                    };
                    pages_sent.insert(page[q]);
                    st[q] = QpState::Sent;
                    offer = Some((q, x));
                    break;
                }
            }
        }
        let bp = cfg.backpressure;
        let o = drv.bus.cycle(&Inputs {
            req: offer.map(|o| o.1),
            rsp_ready: !bp || rng.gen_ratio(3, 5),
            wake_stall: bp && rng.gen_ratio(1, 3),
            nak_stall: bp && rng.gen_ratio(1, 3),
            ..Default::default()
        });
        if o.accepted {
            first_request.get_or_insert(now);
            offer = None;
        }
        // Answers (also those taken while the driver ran) and wakes, in
        // clock order, a wake before an answer of the same clock: a wake
        // must never come before the STALL it resolves.
        let mut evs: Vec<(u64, u8, Option<Beat>, u32)> = drv
            .bus
            .lite_beats
            .drain(..)
            .map(|(c, b)| (c, 1, Some(b), 0))
            .collect();
        evs.extend(o.beat.map(|b| (now, 1, Some(b), 0)));
        evs.extend(drv.bus.wakes.drain(..).map(|(c, q)| (c, 0, None, q)));
        evs.sort_by_key(|e| (e.0, e.1));
        for (now, _, beat, qpn) in evs {
            let Some((tag, status, _, _, last)) = beat else {
                let c = now;
                let q = qpn as usize - 1;
                assert_eq!(
                    st.get(q),
                    Some(&QpState::Stalled),
                    "storm: clock {c}: wake for QP {qpn}, which is not stalled (twice, never, or before its STALL answer)"
                );
                rep.wakes += 1;
                st[q] = QpState::Ready(c);
                continue;
            };
            if !last {
                continue;
            }
            let q = tag as usize;
            assert_eq!(
                st[q],
                QpState::Sent,
                "storm: clock {now}: answer for QP {q}"
            );
            match status {
                status::OK => {
                    sent_msgs[q] += 1;
                    psn[q] = (psn[q] + 1) & 0xff_ffff;
                    page[q] = rng.gen_range(1..=cfg.pages);
                    st[q] = if sent_msgs[q] == cfg.msgs {
                        QpState::Done
                    } else {
                        QpState::Ready(now)
                    };
                }
                status::RNR if remote(q) => {
                    rep.rnr += 1;
                    rnr_answers += 1;
                    st[q] = QpState::Ready(now + rng.gen_range(cfg.rnr_wait.0..=cfg.rnr_wait.1));
                }
                status::STALL if !remote(q) => {
                    rep.stalls += 1;
                    st[q] = QpState::Stalled;
                }
                s => panic!("storm: clock {now}: QP {q} page {} answered {s}", page[q]),
            }
        }
        // NAKs (also those of the clocks a driver call ran).
        while let Some((c, qpn, hdr)) = drv.bus.naks.pop_front() {
            let syndrome = hdr.to_be_bytes()[12];
            assert_eq!(
                syndrome & 0xe0,
                0x20,
                "storm: clock {c}: NAK for QP {qpn} is not an RNR NAK: {syndrome:#x}"
            );
            rep.naks += 1;
        }
        // The driver: read the ring, service the faults that are due.
        if now >= next_poll {
            next_poll = now + cfg.poll_every;
            let evs = drv
                .poll_events()
                .unwrap_or_else(|e| panic!("storm: poll: {e}"));
            let seen = drv.bus.clock;
            for ev in evs {
                let Event::PageFault(pf) = ev else {
                    panic!("storm: unexpected event {ev:x?}");
                };
                let p = (pf.page_va - BASE) >> 12;
                assert!(
                    !pending.contains_key(&p),
                    "storm: clock {seen}: a second event for page {p}, still pending \
                     (tokens {:#x} and {:#x})",
                    pending[&p].0,
                    pf.token
                );
                let due = seen + rng.gen_range(cfg.service.0..=cfg.service.1);
                pending.insert(p, (pf.token, due, seen));
                rep.events += 1;
            }
            let due: Vec<u64> = pending
                .iter()
                .filter(|(_, v)| v.1 <= seen)
                .map(|(p, _)| *p)
                .collect();
            for p in due {
                let (token, _, seen_at) = pending.remove(&p).unwrap();
                map(&mut drv, &mr, BASE + (p << 12));
                drv.resume_fault(token, false)
                    .unwrap_or_else(|e| panic!("storm: RESUME {token:#x}: {e}"));
                windows.push((p, seen_at + 2000, drv.bus.last_lite_write));
            }
        }
    }
    rep.clocks = drv.bus.clock;
    rep.pages = pages_sent.len() as u64;
    rep.first_request = first_request.unwrap_or(0);
    rep.last_event_write = drv.bus.last_write_data;
    // No walk of a pending page.
    for (c, a) in &drv.bus.mem.ar_log {
        if let Some(&p) = leaf_page.get(&a.addr) {
            rep.leaf_reads += 1;
            if let Some(w) = windows.iter().find(|w| w.0 == p && w.1 <= *c && *c < w.2) {
                panic!(
                    "storm: clock {c}: a walk read the leaf PTE of page {p}, pending from {} to {}",
                    w.1, w.2
                );
            }
        }
    }
    for _ in 0..100 {
        drv.bus.cycle(&Inputs::default());
    }
    let mut counter = |name: &str| {
        drv.counter(name)
            .unwrap_or_else(|e| panic!("storm: counter {name}: {e}"))
    };
    rep.faults = counter("FAULTS");
    rep.faults_coalesced = counter("FAULTS_COALESCED");
    rep.max_pending_faults = counter("MAX_PENDING_FAULTS");
    rep.max_event_ring = counter("MAX_EVENT_RING");
    assert_eq!(
        rep.faults, rep.events,
        "storm: FAULTS against the events read"
    );
    assert_eq!(counter("QPS_STALLED_NOW"), 0, "storm: QPs still stalled");
    assert_eq!(counter("STALLS"), rep.stalls, "storm: STALLS");
    assert_eq!(counter("WAKES"), rep.wakes, "storm: WAKES");
    assert_eq!(rep.wakes, rep.stalls, "storm: one wake per STALL");
    assert_eq!(rep.naks, rnr_answers, "storm: one RNR NAK per RNR answer");
    assert_eq!(counter("RNR_NAKS_FAULT"), rep.naks, "storm: RNR_NAKS_FAULT");
    rep
}

/// The set-up of [`adaptive_rnr`]: the adaptive RNR timer measured on the
/// whole core against a service-time distribution the driver applies.
#[derive(Clone, Debug)]
pub struct AdaptiveRnrCfg {
    pub params: odp_mmu::Params,
    /// Written to `CLOCKS_PER_US`. At 1, the IBTA table's times in µs are
    /// clocks: codes 13 to 18 (960 to 5,120 µs) are 960 to 5,120 clocks,
    /// service times a simulation runs through by the hundred.
    pub clocks_per_us: u16,
    /// Faults in a row, one at a time, each on its own missing page.
    pub faults: usize,
    /// The first `warmup` faults are left out of the statistics (the
    /// estimator's start: its first target is three times the first
    /// sample, and `rttvar` forgets it by 3/4 per sample).
    pub warmup: usize,
    /// The driver maps the page and RESUMEs a uniform random
    /// `delay.0..=delay.1` clocks after the poll that read the event.
    pub delay: (u64, u64),
    pub seed: u64,
}

/// The bench's adaptive-RNR run: the default core, 1 clock per µs, 150
/// faults (30 of warm-up), resumed a uniform 1,000..=1,500 clocks after
/// their event was read, seed 1.
pub fn adaptive_rnr_bench_cfg() -> AdaptiveRnrCfg {
    AdaptiveRnrCfg {
        params: odp_mmu::Params::default(),
        clocks_per_us: 1,
        faults: 150,
        warmup: 30,
        delay: (1000, 1500),
        seed: 1,
    }
}

/// What [`adaptive_rnr`] measured. Times in µs are clocks over
/// `clocks_per_us` as read back from the register.
#[derive(Clone, Debug, Default)]
pub struct AdaptiveRnrReport {
    /// `CLOCKS_PER_US` read back after the write.
    pub clocks_per_us: u16,
    /// Per fault, in order: the delay the driver applied, the service time
    /// the core measured (clocks from the event record's handshake to the
    /// RESUME's handshake: the step of `FAULT_SERVICE_SUM` the fault's
    /// RESUME made, the sample the timer took), and the RNR timer code of
    /// the fault's RNR NAK (decoded from the AETH syndrome on `m_nak`).
    pub delays: Vec<u64>,
    pub service_clocks: Vec<u64>,
    pub codes: Vec<u8>,
    pub warmup: usize,
    /// Of the faults after the warm-up: the service times' median, 90th
    /// percentile and mean (µs), and the smallest code whose time reaches
    /// that 90th percentile.
    pub service_p50_us: f64,
    pub service_p90_us: f64,
    pub service_mean_us: f64,
    pub expected_code: u8,
    /// The code the timer settled on: the median NAK code after the
    /// warm-up, and how many NAKs carried each code (ascending).
    pub code: u8,
    pub code_shares: Vec<(u8, usize)>,
    /// Share of the faults after the warm-up whose service time is no
    /// longer than the time of the code in their NAK (a sender that waits
    /// that long finds the page mapped).
    pub covered: f64,
    /// Smallest and largest service time minus applied delay: the event's
    /// way to the driver's poll and the RESUME's way back, in clocks.
    pub overhead_clocks: (u64, u64),
    /// Clocks of the whole run.
    pub clocks: u64,
}

/// `sorted[round((n - 1) q)]`: the percentile rule of the block-level
/// distribution test (`testbench/rnr_timer.rs`).
fn percentile(sorted: &[u64], q: f64) -> u64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// The adaptive RNR timer on the whole core against a known service-time
/// distribution. The driver brings up a core of `cfg.params` ([`core_with`]),
/// writes `CLOCKS_PER_US` and sets `CTRL.ADAPTIVE_RNR`. Then, `cfg.faults`
/// times, one fault at a time: a REMOTE_WRITE (remote QP 0x42, PSNs in
/// order) to a missing page is answered RNR and its RNR NAK comes out on
/// `m_nak`; the driver reads the event, waits the drawn delay, maps the page
/// and RESUMEs; the sender's retransmission is answered OK. The service
/// time of each fault is read from the `FAULT_SERVICE_SUM` counter.
///
/// Panics on the first broken guarantee: a fault not answered RNR or its
/// NAK not an RNR NAK, not exactly one event and one NAK per fault, a
/// retransmission not answered OK, or a NAK's code that is not the
/// reference estimator's (`models::rnr_timer_ref`) over the service times
/// of the faults before it (`RNR_TIMER` for the first fault, which has no
/// sample yet). The last check holds because the next fault's NAK comes a
/// walk of two 200-clock reads after the RESUME, long after
/// `CODE_LATENCY_MAX` (70 clocks).
pub fn adaptive_rnr(cfg: &AdaptiveRnrCfg) -> AdaptiveRnrReport {
    use crate::driver::Bus;
    use crate::models::rnr_timer_ref::{code_clocks, code_for, Estimator};
    use odp_mmu::control::regmap;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    assert!(
        cfg.faults > cfg.warmup && (cfg.faults as u64) < PAGES,
        "adaptive_rnr: {} faults, {} of warm-up, {PAGES} pages",
        cfg.faults,
        cfg.warmup
    );
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let (mut drv, mr) = core_with(&cfg.params);
    let write = |drv: &mut Driver<VerilatedTop>, addr: u16, data: u32| {
        drv.bus
            .write32(addr, data)
            .unwrap_or_else(|b| panic!("adaptive_rnr: write {addr:#06x}: BRESP {b}"));
    };
    write(&mut drv, regmap::CLOCKS_PER_US, cfg.clocks_per_us as u32);
    let ctrl = drv.bus.read32(regmap::CTRL);
    write(
        &mut drv,
        regmap::CTRL,
        ctrl | 1 << regmap::CTRL_ADAPTIVE_RNR,
    );
    let cpu = drv.bus.read32(regmap::CLOCKS_PER_US) as u16;
    assert_eq!(cpu, cfg.clocks_per_us, "adaptive_rnr: CLOCKS_PER_US");
    assert_ne!(
        drv.bus.read32(regmap::CTRL) & 1 << regmap::CTRL_ADAPTIVE_RNR,
        0,
        "adaptive_rnr: CTRL.ADAPTIVE_RNR"
    );
    let global = (drv.bus.read32(regmap::RNR_TIMER) & 0x1f) as u8;
    let sum = |drv: &mut Driver<VerilatedTop>| {
        drv.counter("FAULT_SERVICE_SUM")
            .unwrap_or_else(|e| panic!("adaptive_rnr: FAULT_SERVICE_SUM: {e}"))
    };
    let mut est = Estimator::default();
    let mut rep = AdaptiveRnrReport {
        clocks_per_us: cpu,
        warmup: cfg.warmup,
        ..Default::default()
    };
    let mut last_sum = sum(&mut drv);
    for k in 0..cfg.faults {
        let va = BASE + ((k as u64 + 1) << 12);
        let psn = k as u32;
        let r = req(op::REMOTE_WRITE, va, 64);
        let (st, _) = one(&mut drv, &r, psn, 64);
        assert_eq!(st, status::RNR, "adaptive_rnr: fault {k}: a missing page");
        let limit = drv.bus.clock + 1000;
        while drv.bus.naks.is_empty() {
            assert!(drv.bus.clock < limit, "adaptive_rnr: fault {k}: no NAK");
            drv.bus.cycle(&Inputs::default());
        }
        let (c, _, hdr) = drv.bus.naks.pop_front().expect("a NAK");
        let syndrome = hdr.to_be_bytes()[12];
        assert_eq!(
            syndrome & 0xe0,
            0x20,
            "adaptive_rnr: fault {k}: clock {c}: not an RNR NAK: syndrome {syndrome:#x}"
        );
        let code = syndrome & 0x1f;
        let want = if est.seen {
            code_for(est.target(), cpu)
        } else {
            global
        };
        assert_eq!(
            code,
            want,
            "adaptive_rnr: fault {k}: clock {c}: NAK code {code}, the estimator over the {k} \
             service times before it gives {want} (target {} clocks)",
            est.target()
        );
        let ev = events(&mut drv);
        assert_eq!(ev.len(), 1, "adaptive_rnr: fault {k}: one event");
        assert_eq!(
            ev[0].page_va, va,
            "adaptive_rnr: fault {k}: the event's page"
        );
        let delay = rng.gen_range(cfg.delay.0..=cfg.delay.1);
        for _ in 0..delay {
            drv.bus.cycle(&Inputs {
                rsp_ready: true,
                ..Default::default()
            });
        }
        map(&mut drv, &mr, va);
        resume(&mut drv, &ev[0]);
        // The sample is 3 clocks after the RESUME's handshake, the counter
        // a clock later.
        for _ in 0..8 {
            drv.bus.cycle(&Inputs::default());
        }
        let now = sum(&mut drv);
        let svc = now - last_sum;
        last_sum = now;
        assert!(
            svc > delay && svc <= u32::MAX as u64,
            "adaptive_rnr: fault {k}: service time {svc} clocks after a delay of {delay}"
        );
        est.update(svc as u32);
        let (st, _) = one(&mut drv, &r, psn, 64);
        assert_eq!(
            st,
            status::OK,
            "adaptive_rnr: fault {k}: the retransmission after RESUME"
        );
        assert!(
            drv.bus.naks.is_empty(),
            "adaptive_rnr: fault {k}: a second NAK {:x?}",
            drv.bus.naks
        );
        rep.delays.push(delay);
        rep.service_clocks.push(svc);
        rep.codes.push(code);
    }
    rep.clocks = drv.bus.clock;

    let w = cfg.warmup;
    let svc = &rep.service_clocks[w..];
    let codes = &rep.codes[w..];
    let mut xs = svc.to_vec();
    xs.sort_unstable();
    let us = |clocks: u64| clocks as f64 / cpu as f64;
    rep.service_p50_us = us(percentile(&xs, 0.5));
    let p90 = percentile(&xs, 0.9);
    rep.service_p90_us = us(p90);
    rep.service_mean_us = us(xs.iter().sum::<u64>()) / xs.len() as f64;
    rep.expected_code = code_for(p90, cpu);
    let mut sorted = codes.to_vec();
    sorted.sort_unstable();
    rep.code = sorted[sorted.len() / 2];
    for c in sorted {
        match rep.code_shares.last_mut() {
            Some((last, n)) if *last == c => *n += 1,
            _ => rep.code_shares.push((c, 1)),
        }
    }
    rep.covered = svc
        .iter()
        .zip(codes)
        .filter(|&(&s, &c)| s <= code_clocks(c, cpu))
        .count() as f64
        / svc.len() as f64;
    let over = rep
        .service_clocks
        .iter()
        .zip(&rep.delays)
        .map(|(s, d)| s - d);
    rep.overhead_clocks = (over.clone().min().unwrap_or(0), over.max().unwrap_or(0));
    rep
}
