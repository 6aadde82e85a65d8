//! The bench command: performance of the translation path, measured in
//! simulation clocks, on the translator block alone (rust-hdl model) and on
//! the whole core, the top level `odp_mmu` (Verilated default preset).
//!
//! Every number comes from a scenario run here, clock by clock, against the
//! host-memory model of [`crate::models::host_memory`] with a fixed latency of
//! [`MEMORY_LATENCY`] clocks (AR handshake to R handshake).
//!
//! **Translator alone** (`Translator`, SPEC section 6 sizes; the keys keep
//! their names from before the whole-core bench): MRs are written on its
//! MR write port, page tables built straight into host memory.
//!
//! **Whole core** (keys `top_*`, `mr_register_clocks`,
//! `verilated_top_clocks_per_second`): the same scenarios on
//! [`crate::harness::top::VerilatedTop`], the Verilated default `odp_mmu`
//! driven through its flat ports only. Requests go in on `s_xreq` and come
//! back on `m_xrsp`; the driver library ([`crate::driver::Driver`]) brings
//! the core up and registers every MR through the AXI4-Lite slave
//! (MR_WRITE through the doorbell, result polled); the driver builds the
//! page tables in host memory. The whole core runs on the Verilated model
//! because the rust-hdl model of `DefaultOdpMmu` is far too slow for
//! 10,000-request runs (the translator alone already takes seconds);
//! Verilator is found in `.tools/` as the tests find it
//! ([`crate::tools`]), and the model is built once into `build/verilator`.
//! The core has one preset with 8 walkers and none with 1, so the walker
//! ratio is measured on the translator only; the whole core reports its
//! 8-walker clocks (`top_miss_clocks_8_walkers`) beside it.
//!
//! | key | scenario |
//! |---|---|
//! | `hit_requests_per_clock`, `top_hit_requests_per_clock` | 10,000 requests to 64 TLB-resident pages, response always ready: requests / clocks from first accept to last response |
//! | `hit_latency_clocks`, `top_hit_latency_clocks` | one request to a resident page on an idle core: clocks from the accepting edge to `m_xrsp_valid` |
//! | `hit_under_miss_requests_per_clock`, `top_hit_under_miss_requests_per_clock` | 10,000 requests: hot QPs hit resident pages while cold QPs (other QPs) stream 512-byte accesses through pages not in the TLB; `*_miss_fraction` is the measured share of requests that missed: requests parked (translator's `mon_parked`), `TLB_MISSES` counter delta (whole core, read through the driver) |
//! | `walk_overhead_clocks` | walker alone, one walk per `levels` 1..4: walk latency (first clock the request is offered to the first clock of `done_valid`) minus `levels` x 200, worst level |
//! | `walks_in_flight_max`, `top_walks_in_flight_max` | most page-table reads outstanding at once in the random-miss run with 8 walkers |
//! | `miss_throughput_ratio_8_vs_1_walker` | translator only: 128 requests, each to its own random page and QP: clocks with 1 walker / clocks with 8 walkers (`miss_clocks_1_walker`, `miss_clocks_8_walkers`; `top_miss_clocks_8_walkers` on the whole core) |
//! | `mr_register_clocks` | whole core: clocks of one `Driver::register_mr` on an idle core (argument writes, doorbell, `CMD_STATUS` polls until the result), one clock per AXI4-Lite beat |
//! | `verilated_top_clocks_per_second` | whole core, wall clock: simulated clocks per second of the Verilated `odp_mmu` with its harness (host memory, driver, request source) over a speed run of 100,000 requests in the hit-under-miss mix, the cold QPs streaming through 256 pages each of a 4096-page MR, so walks, fills and evictions go on throughout (`verilated_top_clocks`, `verilated_top_seconds`). Depends on the machine; measured here only, never asserted |
//!
//! The clock-count keys of the whole core are asserted against the SPEC
//! section 7 targets in `cargo test --test bench_top`.
//!
//! The fault path's keys come from [`crate::bench_faults`], the
//! invalidation keys (`invalidate_*`, `requests_per_clock_under_*`,
//! `mr_write_clocks`) and the PREFETCH keys (`prefetch_*`,
//! `requests_per_clock_under_prefetch`) from [`crate::bench_inval`].

use rust_hdl::prelude::*;
use serde::Serialize;

use crate::driver::{Driver, Mr, MrSpec};
use crate::harness::top::{Beat, Inputs, VerilatedTop, XReq};
use crate::models::host_memory::{HostMemory, MemConfig};
use crate::models::mr_check::MrEntry;
use crate::models::page_table::PageTableBuilder;
use crate::models::translate_ref::Req;
use odp_mmu::spec::PageSize;
use odp_mmu::spec::{mr_state::byte as mr_state, op::byte as op};
use odp_mmu::translate::walker::Walker;
use odp_mmu::translate::Translator;

/// Memory latency of the miss scenarios, in clocks.
pub const MEMORY_LATENCY: u64 = 200;

/// The measured numbers of the translator alone (see the module table),
/// and of the whole core in `top`.
#[derive(Clone, Debug, Default)]
pub struct Numbers {
    pub hit_requests_per_clock: f64,
    pub hit_latency_clocks: u64,
    pub hit_under_miss_requests_per_clock: f64,
    pub hit_under_miss_miss_fraction: f64,
    pub walk_overhead_clocks: u64,
    pub walk_overhead_by_levels: [u64; 4],
    pub walks_in_flight_max: usize,
    pub miss_clocks_8_walkers: u64,
    pub miss_clocks_1_walker: u64,
    pub miss_throughput_ratio_8_vs_1_walker: f64,
    pub top: TopNumbers,
    /// The fault path on the whole core ([`crate::bench_faults`]).
    pub faults: crate::bench_faults::FaultNumbers,
    /// Invalidation and MR_WRITE on the whole core ([`crate::bench_inval`]).
    pub inval: crate::bench_inval::InvalNumbers,
}

/// The numbers measured on the whole Verilated `odp_mmu` (JSON keys
/// `top_*`, `mr_register_clocks`, `verilated_top_*`).
#[derive(Clone, Debug, Default)]
pub struct TopNumbers {
    pub hit_requests_per_clock: f64,
    pub hit_latency_clocks: u64,
    pub hit_under_miss_requests_per_clock: f64,
    /// `TLB_MISSES` over requests in the hit-under-miss run.
    pub hit_under_miss_miss_fraction: f64,
    pub walks_in_flight_max: usize,
    pub miss_clocks_8_walkers: u64,
    /// Clocks of one `Driver::register_mr` on an idle core.
    pub mr_register_clocks: u64,
    /// Wall-clock simulation speed over the speed run (0 when not run).
    pub verilated_top_clocks_per_second: f64,
    pub verilated_clocks: u64,
    pub verilated_seconds: f64,
}

/// `build/bench.json`: one key per number, named as in the module table.
/// Ratios keep 3 or 4 decimals, as the table prints them.
#[derive(Serialize)]
struct BenchFile {
    hit_requests_per_clock: f64,
    hit_latency_clocks: u64,
    hit_under_miss_requests_per_clock: f64,
    hit_under_miss_miss_fraction: f64,
    walk_overhead_clocks: u64,
    /// `levels` 1 to 4.
    walk_overhead_clocks_by_levels: [u64; 4],
    walks_in_flight_max: usize,
    miss_clocks_8_walkers: u64,
    miss_clocks_1_walker: u64,
    miss_throughput_ratio_8_vs_1_walker: f64,
    top_hit_requests_per_clock: f64,
    top_hit_latency_clocks: u64,
    top_hit_under_miss_requests_per_clock: f64,
    top_hit_under_miss_miss_fraction: f64,
    top_walks_in_flight_max: usize,
    top_miss_clocks_8_walkers: u64,
    mr_register_clocks: u64,
    verilated_top_clocks_per_second: u64,
    verilated_top_clocks: u64,
    verilated_top_seconds: f64,
    memory_latency_clocks: u64,
    fault_to_nak_clocks: u64,
    fault_event_clocks: u64,
    resume_to_ok_clocks: u64,
    fault_hw_overhead_clocks: u64,
    wake_after_resume_clocks: u64,
    cold_4mib_write_rnr_round_trips_with_hint: u64,
    cold_4mib_write_rnr_round_trips_without_hint: u64,
    fault_events_per_clock_storm: f64,
    adaptive_rnr_code: u64,
    adaptive_rnr_expected_code: u64,
    adaptive_rnr_service_p90_us: f64,
    invalidate_idle_clocks: u64,
    invalidate_idle_event_clocks: u64,
    invalidate_all_idle_clocks: u64,
    invalidate_mr_idle_clocks: u64,
    invalidate_32_pages_idle_clocks: u64,
    invalidate_64_pages_idle_clocks: u64,
    invalidate_512_pages_idle_clocks: u64,
    invalidate_flush_clocks_per_page: f64,
    requests_per_clock_under_invalidation: f64,
    requests_per_clock_under_invalidate_mr: f64,
    requests_per_clock_under_invalidate_all: f64,
    mr_write_clocks: u64,
    prefetch_pages_per_clock: f64,
    prefetch_cached_pages_per_clock: f64,
    requests_per_clock_under_prefetch: f64,
}

/// `x` rounded to `decimals` places as `format!` rounds it (exactly, from
/// the binary value: scaling by a power of ten first would round some
/// ties the other way), read back as the nearest `f64`, which JSON then
/// prints with at most that many decimals.
fn round(x: f64, decimals: usize) -> f64 {
    format!("{x:.decimals$}").parse().unwrap_or(x)
}

impl Numbers {
    /// The numbers as a JSON object (flat, one key per number, in the
    /// order `build/bench.json` has always had them).
    pub fn to_json(&self) -> String {
        let l = self.walk_overhead_by_levels;
        let t = &self.top;
        let file = BenchFile {
            hit_requests_per_clock: round(self.hit_requests_per_clock, 4),
            hit_latency_clocks: self.hit_latency_clocks,
            hit_under_miss_requests_per_clock: round(self.hit_under_miss_requests_per_clock, 4),
            hit_under_miss_miss_fraction: round(self.hit_under_miss_miss_fraction, 4),
            walk_overhead_clocks: self.walk_overhead_clocks,
            walk_overhead_clocks_by_levels: l,
            walks_in_flight_max: self.walks_in_flight_max,
            miss_clocks_8_walkers: self.miss_clocks_8_walkers,
            miss_clocks_1_walker: self.miss_clocks_1_walker,
            miss_throughput_ratio_8_vs_1_walker: round(self.miss_throughput_ratio_8_vs_1_walker, 3),
            top_hit_requests_per_clock: round(t.hit_requests_per_clock, 4),
            top_hit_latency_clocks: t.hit_latency_clocks,
            top_hit_under_miss_requests_per_clock: round(t.hit_under_miss_requests_per_clock, 4),
            top_hit_under_miss_miss_fraction: round(t.hit_under_miss_miss_fraction, 4),
            top_walks_in_flight_max: t.walks_in_flight_max,
            top_miss_clocks_8_walkers: t.miss_clocks_8_walkers,
            mr_register_clocks: t.mr_register_clocks,
            // A rate of millions of clocks per second: whole clocks.
            verilated_top_clocks_per_second: round(t.verilated_top_clocks_per_second, 0) as u64,
            verilated_top_clocks: t.verilated_clocks,
            verilated_top_seconds: round(t.verilated_seconds, 3),
            memory_latency_clocks: MEMORY_LATENCY,
            fault_to_nak_clocks: self.faults.fault_to_nak_clocks,
            fault_event_clocks: self.faults.fault_event_clocks,
            resume_to_ok_clocks: self.faults.resume_to_ok_clocks,
            fault_hw_overhead_clocks: self.faults.fault_hw_overhead_clocks,
            wake_after_resume_clocks: self.faults.wake_after_resume_clocks,
            cold_4mib_write_rnr_round_trips_with_hint: self
                .faults
                .cold_4mib_write_rnr_round_trips_with_hint,
            cold_4mib_write_rnr_round_trips_without_hint: self
                .faults
                .cold_4mib_write_rnr_round_trips_without_hint,
            fault_events_per_clock_storm: round(self.faults.fault_events_per_clock_storm, 4),
            adaptive_rnr_code: self.faults.adaptive_rnr_code,
            adaptive_rnr_expected_code: self.faults.adaptive_rnr_expected_code,
            adaptive_rnr_service_p90_us: round(self.faults.adaptive_rnr_service_p90_us, 1),
            invalidate_idle_clocks: self.inval.invalidate_idle_clocks,
            invalidate_idle_event_clocks: self.inval.invalidate_idle_event_clocks,
            invalidate_all_idle_clocks: self.inval.invalidate_all_idle_clocks,
            invalidate_mr_idle_clocks: self.inval.invalidate_mr_idle_clocks,
            invalidate_32_pages_idle_clocks: self.inval.invalidate_32_pages_idle_clocks,
            invalidate_64_pages_idle_clocks: self.inval.invalidate_64_pages_idle_clocks,
            invalidate_512_pages_idle_clocks: self.inval.invalidate_512_pages_idle_clocks,
            invalidate_flush_clocks_per_page: round(self.inval.invalidate_flush_clocks_per_page, 3),
            requests_per_clock_under_invalidation: round(
                self.inval.requests_per_clock_under_invalidation,
                4,
            ),
            requests_per_clock_under_invalidate_mr: round(
                self.inval.requests_per_clock_under_invalidate_mr,
                4,
            ),
            requests_per_clock_under_invalidate_all: round(
                self.inval.requests_per_clock_under_invalidate_all,
                4,
            ),
            mr_write_clocks: self.inval.mr_write_clocks,
            prefetch_pages_per_clock: round(self.inval.prefetch_pages_per_clock, 4),
            prefetch_cached_pages_per_clock: round(self.inval.prefetch_cached_pages_per_clock, 4),
            requests_per_clock_under_prefetch: round(
                self.inval.requests_per_clock_under_prefetch,
                4,
            ),
        };
        serde_json::to_string_pretty(&file).expect("numbers always serialize") + "\n"
    }

    /// The numbers as a table with their targets (SPEC section 7).
    pub fn table(&self) -> String {
        let t = &self.top;
        let f = &self.faults;
        let iv = &self.inval;
        let rows = [
            (
                "hit_requests_per_clock",
                format!("{:.3}", self.hit_requests_per_clock),
                format!("{:.3}", t.hit_requests_per_clock),
                ">= 0.98",
            ),
            (
                "hit_latency_clocks",
                self.hit_latency_clocks.to_string(),
                t.hit_latency_clocks.to_string(),
                "<= 6",
            ),
            (
                "hit_under_miss_requests_per_clock",
                format!("{:.3}", self.hit_under_miss_requests_per_clock),
                format!("{:.3}", t.hit_under_miss_requests_per_clock),
                ">= 0.8",
            ),
            (
                "hit_under_miss_miss_fraction",
                format!("{:.3}", self.hit_under_miss_miss_fraction),
                format!("{:.3}", t.hit_under_miss_miss_fraction),
                "~0.125",
            ),
            (
                "walk_overhead_clocks",
                self.walk_overhead_clocks.to_string(),
                "-".to_string(),
                "<= 8",
            ),
            (
                "walks_in_flight_max",
                self.walks_in_flight_max.to_string(),
                t.walks_in_flight_max.to_string(),
                "8",
            ),
            (
                "miss_clocks_8_walkers",
                self.miss_clocks_8_walkers.to_string(),
                t.miss_clocks_8_walkers.to_string(),
                "-",
            ),
            (
                "miss_throughput_ratio_8_vs_1_walker",
                format!("{:.2}", self.miss_throughput_ratio_8_vs_1_walker),
                "-".to_string(),
                ">= 5",
            ),
            (
                "mr_register_clocks",
                "-".to_string(),
                t.mr_register_clocks.to_string(),
                "-",
            ),
            (
                "verilated_top_clocks_per_second",
                "-".to_string(),
                format!("{:.0}", t.verilated_top_clocks_per_second),
                "-",
            ),
            (
                "fault_to_nak_clocks",
                "-".to_string(),
                f.fault_to_nak_clocks.to_string(),
                "<= 4",
            ),
            (
                "fault_event_clocks",
                "-".to_string(),
                f.fault_event_clocks.to_string(),
                "-",
            ),
            (
                "resume_to_ok_clocks",
                "-".to_string(),
                f.resume_to_ok_clocks.to_string(),
                "-",
            ),
            (
                "fault_hw_overhead_clocks",
                "-".to_string(),
                f.fault_hw_overhead_clocks.to_string(),
                "-",
            ),
            (
                "wake_after_resume_clocks",
                "-".to_string(),
                f.wake_after_resume_clocks.to_string(),
                "-",
            ),
            (
                "cold_4mib_write_rnr_round_trips_with_hint",
                "-".to_string(),
                f.cold_4mib_write_rnr_round_trips_with_hint.to_string(),
                "<= 2",
            ),
            (
                "cold_4mib_write_rnr_round_trips_without_hint",
                "-".to_string(),
                f.cold_4mib_write_rnr_round_trips_without_hint.to_string(),
                "~1024",
            ),
            (
                "fault_events_per_clock_storm",
                "-".to_string(),
                format!("{:.4}", f.fault_events_per_clock_storm),
                "-",
            ),
            (
                "adaptive_rnr_code",
                "-".to_string(),
                f.adaptive_rnr_code.to_string(),
                "p90 or +1",
            ),
            (
                "adaptive_rnr_expected_code",
                "-".to_string(),
                f.adaptive_rnr_expected_code.to_string(),
                "-",
            ),
            (
                "adaptive_rnr_service_p90_us",
                "-".to_string(),
                format!("{:.1}", f.adaptive_rnr_service_p90_us),
                "-",
            ),
            (
                "invalidate_idle_clocks",
                "-".to_string(),
                iv.invalidate_idle_clocks.to_string(),
                "-",
            ),
            (
                "invalidate_idle_event_clocks",
                "-".to_string(),
                iv.invalidate_idle_event_clocks.to_string(),
                "-",
            ),
            (
                "invalidate_all_idle_clocks",
                "-".to_string(),
                iv.invalidate_all_idle_clocks.to_string(),
                "-",
            ),
            (
                "invalidate_mr_idle_clocks",
                "-".to_string(),
                iv.invalidate_mr_idle_clocks.to_string(),
                "-",
            ),
            (
                "invalidate_32_pages_idle_clocks",
                "-".to_string(),
                iv.invalidate_32_pages_idle_clocks.to_string(),
                "-",
            ),
            (
                "invalidate_64_pages_idle_clocks",
                "-".to_string(),
                iv.invalidate_64_pages_idle_clocks.to_string(),
                "-",
            ),
            (
                "invalidate_512_pages_idle_clocks",
                "-".to_string(),
                iv.invalidate_512_pages_idle_clocks.to_string(),
                "-",
            ),
            (
                "invalidate_flush_clocks_per_page",
                "-".to_string(),
                format!("{:.3}", iv.invalidate_flush_clocks_per_page),
                "-",
            ),
            (
                "requests_per_clock_under_invalidation",
                "-".to_string(),
                format!("{:.3}", iv.requests_per_clock_under_invalidation),
                ">= 0.8",
            ),
            (
                "requests_per_clock_under_invalidate_mr",
                "-".to_string(),
                format!("{:.3}", iv.requests_per_clock_under_invalidate_mr),
                ">= 0.8",
            ),
            (
                "requests_per_clock_under_invalidate_all",
                "-".to_string(),
                format!("{:.3}", iv.requests_per_clock_under_invalidate_all),
                "-",
            ),
            (
                "mr_write_clocks",
                "-".to_string(),
                iv.mr_write_clocks.to_string(),
                "-",
            ),
            (
                "prefetch_pages_per_clock",
                "-".to_string(),
                format!("{:.4}", iv.prefetch_pages_per_clock),
                "-",
            ),
            (
                "prefetch_cached_pages_per_clock",
                "-".to_string(),
                format!("{:.4}", iv.prefetch_cached_pages_per_clock),
                "-",
            ),
            (
                "requests_per_clock_under_prefetch",
                "-".to_string(),
                format!("{:.3}", iv.requests_per_clock_under_prefetch),
                ">= 0.8",
            ),
        ];
        let mut s = format!(
            "{:<44} {:>10} {:>10} {:>9}\n",
            "metric", "translator", "odp_mmu", "target"
        );
        for (k, a, b, tg) in rows {
            s.push_str(&format!("{k:<44} {a:>10} {b:>10} {tg:>9}\n"));
        }
        s
    }
}

/// The bench's translator: SPEC section 6 parameters, `WALKS` walkers.
type BenchTranslator<const WALKS: usize> = Translator<8, 8, 32, 64, 6, 7, WALKS>;

/// The rust-hdl translator driven clock by clock against host memory.
struct Sim<const WALKS: usize> {
    uut: Box<BenchTranslator<WALKS>>,
    mem: HostMemory,
    clock: u64,
    parks: u64,
    parked: u64,
}

fn settle<B: Block>(uut: &mut B) {
    assert!(simulate(uut, 10_000), "the design does not settle");
}

impl<const WALKS: usize> Sim<WALKS> {
    fn new(mem: HostMemory) -> Self {
        let mut uut = Box::new(BenchTranslator::<WALKS>::new(1024));
        uut.connect_all();
        let mut sim = Self {
            uut,
            mem,
            clock: 0,
            parks: 0,
            parked: 0,
        };
        sim.uut.rst.next = true;
        sim.cycle(None, true);
        sim.cycle(None, true);
        sim.uut.rst.next = false;
        while !sim.uut.ready.val() {
            sim.cycle(None, true);
        }
        sim
    }

    /// One clock. Returns whether `req` was accepted and the beat taken.
    fn cycle(&mut self, req: Option<(u8, &Req)>, rsp_ready: bool) -> (bool, Option<Beat>) {
        let u = &mut *self.uut;
        let s = self.mem.outputs();
        crate::models::host_memory::drive_read_slave(&mut u.m_axi, &s);
        crate::harness::top::drive_xreq(&mut u.s_xreq, req);
        u.m_xrsp.ready.next = rsp_ready;
        settle(u);
        let accepted = req.is_some() && u.s_xreq.ready.val();
        let beat = (u.m_xrsp.valid.val() && rsp_ready).then(|| {
            (
                u.m_xrsp.tag.val().index() as u8,
                u.m_xrsp.status.val().index() as u8,
                u.m_xrsp.pa.val().to_u64(),
                u.m_xrsp.seg_len.val().index() as u64,
                u.m_xrsp.last.val(),
            )
        });
        let parked = u.mon_parked.val().index() as u64;
        if parked > self.parked {
            self.parks += parked - self.parked;
        }
        self.parked = parked;
        let m = crate::models::host_memory::read_master_out(&u.m_axi);
        self.mem.edge(&m);
        u.clock.next = true.into();
        settle(u);
        u.clock.next = false.into();
        settle(u);
        self.clock += 1;
        (accepted, beat)
    }

    fn write_mr(&mut self, index: u64, e: &MrEntry) {
        let u = &mut *self.uut;
        u.mr_wr.valid.next = true;
        u.mr_wr.index.next = index.into();
        u.mr_wr.tag.next = (e.tag as u64).into();
        u.mr_wr.pd.next = (e.pd as u64).into();
        u.mr_wr.base_va.next = e.base_va.into();
        u.mr_wr.length.next = e.length.into();
        u.mr_wr.access.next = (e.access as u64).into();
        u.mr_wr.root.next = e.root.into();
        u.mr_wr.levels_m1.next = (e.levels_m1 as u64).into();
        u.mr_wr.state.next = (e.state as u64).into();
        self.cycle(None, true);
        self.uut.mr_wr.valid.next = false;
    }
}

/// A design with the translation ports, one clock at a time: the
/// translator alone or the whole Verilated `odp_mmu`.
trait XPort {
    /// One clock with `req` offered; whether it was taken, and the response
    /// beat taken.
    fn xcycle(&mut self, req: Option<(u8, &Req)>, rsp_ready: bool) -> (bool, Option<Beat>);
    /// Clocks run so far.
    fn clocks(&self) -> u64;
}

impl<const WALKS: usize> XPort for Sim<WALKS> {
    fn xcycle(&mut self, req: Option<(u8, &Req)>, rsp_ready: bool) -> (bool, Option<Beat>) {
        self.cycle(req, rsp_ready)
    }
    fn clocks(&self) -> u64 {
        self.clock
    }
}

impl XPort for VerilatedTop {
    fn xcycle(&mut self, req: Option<(u8, &Req)>, rsp_ready: bool) -> (bool, Option<Beat>) {
        let o = self.cycle(&Inputs {
            req: req.map(|(tag, r)| XReq {
                tag,
                req: *r,
                ..Default::default()
            }),
            rsp_ready,
            ..Default::default()
        });
        (o.accepted, o.beat)
    }
    fn clocks(&self) -> u64 {
        self.clock
    }
}

/// Sends `reqs` in order as fast as they are accepted (tags cycle; at most
/// 200 outstanding), response always ready, and returns (clock of the first
/// accept, clock of the last response's last beat).
fn stream<P: XPort>(p: &mut P, reqs: &[Req]) -> (u64, u64) {
    let mut next = 0;
    let mut outstanding = 0usize;
    let mut answered = 0;
    let (mut first, mut last) = (None, 0);
    let limit = p.clocks() + 2_000_000;
    while answered < reqs.len() {
        assert!(p.clocks() < limit, "bench: the design stopped answering");
        let req = (next < reqs.len() && outstanding < 200).then(|| (next as u8, &reqs[next]));
        let (acc, beat) = p.xcycle(req, true);
        let now = p.clocks() - 1;
        if acc {
            first.get_or_insert(now);
            next += 1;
            outstanding += 1;
        }
        if let Some((_, _, _, _, true)) = beat {
            answered += 1;
            outstanding -= 1;
            last = now;
        }
    }
    (first.unwrap_or(0), last)
}

/// Clocks from the edge that accepts `r` (offered to an idle design) to
/// the clock its first beat is valid.
fn hit_latency<P: XPort>(p: &mut P, r: &Req) -> u64 {
    for _ in 0..10 {
        p.xcycle(None, true);
    }
    let (acc, _) = p.xcycle(Some((0, r)), true);
    assert!(acc, "bench: an idle design must accept a request");
    let start = p.clocks() - 1;
    for _ in 0..1_000 {
        let (_, beat) = p.xcycle(None, true);
        if beat.is_some() {
            return p.clocks() - 1 - start;
        }
    }
    panic!("bench: no answer to a hit");
}

/// The bench's xorshift64 (fixed seed: every run draws the same requests).
pub(crate) struct XorShift(u64);

impl XorShift {
    pub(crate) fn new() -> Self {
        Self(0x2545_f491_4f6c_dd1d)
    }
    pub(crate) fn next(&mut self) -> u64 {
        let x = &mut self.0;
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }
}

/// 10,000 reads of 64 bytes by QPs 0..15 to the 64 hot pages (MR 0).
pub(crate) fn hit_reqs(rng: &mut XorShift) -> Vec<Req> {
    (0..10_000)
        .map(|_| {
            let r = rng.next();
            read_req(
                (r % 16) as u32,
                0,
                HOT_BASE + (((r >> 8) % 64) << 12) + ((r >> 20) % 64) * 64,
                64,
            )
        })
        .collect()
}

/// `count` requests. Three in four: hot QPs 0..7 on resident pages (MR 0).
/// One in four: cold QPs 100..115, each streaming 512-byte reads through
/// its own `stride` pages of the cold MR `cold_mr` at `cold_base`, which
/// are not in the TLB.
fn mixed_reqs(
    rng: &mut XorShift,
    count: u64,
    cold_mr: u32,
    cold_base: u64,
    stride: u64,
) -> Vec<Req> {
    let mut cold_pos = [0u64; 16];
    (0..count)
        .map(|k| {
            let r = rng.next();
            if k % 4 == 3 {
                let q = ((k / 4) % 16) as usize;
                let va = cold_base + ((q as u64 * stride) << 12) + cold_pos[q] * 512;
                cold_pos[q] += 1;
                read_req(100 + q as u32, cold_mr, va, 512)
            } else {
                read_req((r % 8) as u32, 0, HOT_BASE + (((r >> 8) % 64) << 12), 64)
            }
        })
        .collect()
}

/// The hit-under-miss scenario: 10,000 mixed requests, 32 cold pages per
/// cold QP in MR 1.
fn hit_under_miss_reqs(rng: &mut XorShift) -> Vec<Req> {
    mixed_reqs(rng, 10_000, 1, COLD_BASE, 32)
}

/// 128 reads of 64 bytes, each by its own QP to its own page of MR 0.
fn random_miss_reqs() -> Vec<Req> {
    (0..128u64)
        .map(|k| read_req(k as u32, 0, COLD_BASE + (((k * 197) % 512) << 12), 64))
        .collect()
}

/// The 64 hot pages warmed into the TLB.
pub(crate) fn warm_reqs() -> Vec<Req> {
    (0..64)
        .map(|p| read_req(0, 0, HOT_BASE + (p << 12), 64))
        .collect()
}

/// An MR of `pages` 4 KiB pages, all mapped and writable, at `base_va`.
fn mapped_mr(
    mem: &mut HostMemory,
    tables: &mut PageTableBuilder,
    base_va: u64,
    pages: u64,
    levels: u8,
    first_frame: u64,
) -> MrEntry {
    let t = tables.new_mr(levels);
    for p in 0..pages {
        tables.map(mem, t, p << 12, PageSize::Size4K, first_frame + p, true);
    }
    MrEntry {
        tag: 0x5a,
        pd: 1,
        base_va,
        length: pages << 12,
        access: 7,
        root: t.root,
        levels_m1: t.levels_m1,
        state: mr_state::VALID,
    }
}

fn read_req(qpn: u32, mr: u32, va: u64, len: u16) -> Req {
    Req {
        op: op::LOCAL_READ,
        qpn,
        pd: 1,
        key: (mr << 8) | 0x5a,
        va,
        len,
    }
}

pub(crate) const HOT_BASE: u64 = 0x7f00_0000_0000;
const COLD_BASE: u64 = 0x7e00_0000_0000;
/// The speed run's cold MR (4096 pages, two table levels).
const LOAD_BASE: u64 = 0x7d00_0000_0000;
/// Requests of the speed run.
const LOAD_REQUESTS: u64 = 100_000;

/// Hit throughput and latency; hit-under-miss throughput (translator).
fn hits(numbers: &mut Numbers, progress: &mut dyn FnMut(&str)) {
    let mut mem = HostMemory::new(MemConfig::fixed(MEMORY_LATENCY));
    mem.logging = false;
    let mut tables = PageTableBuilder::new(0x100, 0x1000);
    let hot = mapped_mr(&mut mem, &mut tables, HOT_BASE, 64, 1, 0x10_0000);
    let cold = mapped_mr(&mut mem, &mut tables, COLD_BASE, 512, 1, 0x20_0000);
    let mut sim = Sim::<8>::new(mem);
    sim.write_mr(0, &hot);
    sim.write_mr(1, &cold);
    stream(&mut sim, &warm_reqs());

    progress("translator: hit throughput");
    let mut rng = XorShift::new();
    let reqs = hit_reqs(&mut rng);
    let (first, last) = stream(&mut sim, &reqs);
    numbers.hit_requests_per_clock = reqs.len() as f64 / (last - first + 1) as f64;

    progress("translator: hit latency");
    numbers.hit_latency_clocks = hit_latency(&mut sim, &read_req(1, 0, HOT_BASE + 0x3000, 8));

    progress("translator: hit under miss");
    let reqs = hit_under_miss_reqs(&mut rng);
    let parks = sim.parks;
    let (first, last) = stream(&mut sim, &reqs);
    numbers.hit_under_miss_requests_per_clock = reqs.len() as f64 / (last - first + 1) as f64;
    numbers.hit_under_miss_miss_fraction = (sim.parks - parks) as f64 / reqs.len() as f64;
}

/// 128 requests, each to its own page and QP: clocks until all answered.
fn random_misses<const WALKS: usize>() -> (u64, usize) {
    let mut mem = HostMemory::new(MemConfig::fixed(MEMORY_LATENCY));
    mem.logging = false;
    let mut tables = PageTableBuilder::new(0x100, 0x1000);
    let mr = mapped_mr(&mut mem, &mut tables, COLD_BASE, 512, 1, 0x20_0000);
    let mut sim = Sim::<WALKS>::new(mem);
    sim.write_mr(0, &mr);
    let (first, last) = stream(&mut sim, &random_miss_reqs());
    (last - first + 1, sim.mem.max_outstanding_reads)
}

/// The Verilated default `odp_mmu`, brought up by the driver, with MRs
/// registered over AXI4-Lite and their pages mapped 4 KiB each (`(base_va,
/// pages, first frame)` at MR index 0, 1, ...). Returns the driver, the MRs
/// and the clocks the first `register_mr` took.
fn top_with_mrs(
    params: &odp_mmu::Params,
    mrs: &[(u64, u64, u64)],
) -> (Driver<VerilatedTop>, Vec<Mr>, u64) {
    let top = VerilatedTop::new(params, MemConfig::fixed(MEMORY_LATENCY));
    let mut drv = Driver::new(top, 0x100..0x1000, true);
    drv.bring_up()
        .unwrap_or_else(|e| panic!("bench: bring-up: {e}"));
    let mut out = Vec::new();
    let mut first_register = 0;
    for (k, &(base_va, pages, frame)) in mrs.iter().enumerate() {
        let spec = MrSpec {
            tag: 0x5a,
            pd: 1,
            base_va,
            length: pages << 12,
            access: 7,
            levels: if pages <= 512 { 1 } else { 2 },
        };
        let c0 = drv.bus.clock;
        let mr = drv
            .register_mr(k as u32, spec)
            .unwrap_or_else(|e| panic!("bench: register_mr: {e}"));
        if k == 0 {
            first_register = drv.bus.clock - c0;
        }
        for p in 0..pages {
            drv.map(&mr, base_va + (p << 12), PageSize::Size4K, frame + p, true);
        }
        out.push(mr);
    }
    (drv, out, first_register)
}

/// The translation keys on the whole core (Verilated default `odp_mmu`,
/// SPEC section 6 sizes, 8 walkers): the translator's scenarios, driven
/// through `s_xreq` / `m_xrsp`, MRs registered through AXI4-Lite by the
/// driver, page tables in host memory with the fixed [`MEMORY_LATENCY`].
/// Deterministic in clocks. With `measure_speed`, also the wall-clock
/// speed run (never asserted: it depends on the machine).
pub fn top_translation(progress: &mut dyn FnMut(&str), measure_speed: bool) -> TopNumbers {
    let mut n = TopNumbers::default();
    progress(
        "odp_mmu: Verilated model (built once, cached in build/verilator), MRs over AXI4-Lite",
    );
    let (mut drv, _, reg) = top_with_mrs(
        &odp_mmu::Params::default(),
        &[(HOT_BASE, 64, 0x10_0000), (COLD_BASE, 512, 0x20_0000)],
    );
    n.mr_register_clocks = reg;
    stream(&mut drv.bus, &warm_reqs());

    progress("odp_mmu: hit throughput");
    let mut rng = XorShift::new();
    let reqs = hit_reqs(&mut rng);
    let (first, last) = stream(&mut drv.bus, &reqs);
    n.hit_requests_per_clock = reqs.len() as f64 / (last - first + 1) as f64;

    progress("odp_mmu: hit latency");
    n.hit_latency_clocks = hit_latency(&mut drv.bus, &read_req(1, 0, HOT_BASE + 0x3000, 8));

    progress("odp_mmu: hit under miss");
    let reqs = hit_under_miss_reqs(&mut rng);
    let counter = |drv: &mut Driver<VerilatedTop>, name| {
        drv.counter(name)
            .unwrap_or_else(|e| panic!("bench: counter {name}: {e}"))
    };
    let (lookups, misses) = (
        counter(&mut drv, "LOOKUPS"),
        counter(&mut drv, "TLB_MISSES"),
    );
    let (first, last) = stream(&mut drv.bus, &reqs);
    n.hit_under_miss_requests_per_clock = reqs.len() as f64 / (last - first + 1) as f64;
    let lookups = counter(&mut drv, "LOOKUPS") - lookups;
    let misses = counter(&mut drv, "TLB_MISSES") - misses;
    assert_eq!(
        lookups,
        reqs.len() as u64,
        "bench: LOOKUPS counts every request"
    );
    n.hit_under_miss_miss_fraction = misses as f64 / reqs.len() as f64;

    if measure_speed {
        progress("odp_mmu: speed run (100,000 mixed requests, wall clock)");
        // The hit-under-miss mix at scale: the cold QPs stream through 256
        // pages each of a 4096-page MR (two table levels), so walks, fills
        // and TLB evictions go on throughout.
        let mr = drv
            .register_mr(
                2,
                MrSpec {
                    tag: 0x5a,
                    pd: 1,
                    base_va: LOAD_BASE,
                    length: 4096 << 12,
                    access: 7,
                    levels: 2,
                },
            )
            .unwrap_or_else(|e| panic!("bench: register_mr: {e}"));
        for p in 0..4096 {
            drv.map(
                &mr,
                LOAD_BASE + (p << 12),
                PageSize::Size4K,
                0x40_0000 + p,
                true,
            );
        }
        let reqs = mixed_reqs(&mut rng, LOAD_REQUESTS, 2, LOAD_BASE, 256);
        let (c0, t0) = (drv.bus.clock, std::time::Instant::now());
        stream(&mut drv.bus, &reqs);
        let secs = t0.elapsed().as_secs_f64();
        n.verilated_clocks = drv.bus.clock - c0;
        n.verilated_seconds = secs;
        n.verilated_top_clocks_per_second = n.verilated_clocks as f64 / secs.max(1e-9);
    }

    progress("odp_mmu: random misses, 8 walkers");
    (n.miss_clocks_8_walkers, n.walks_in_flight_max) =
        top_random_misses(&odp_mmu::Params::default());
    n
}

/// The random-miss scenario on the whole core of `params` (a preset): 128
/// requests, each to its own page (QPs modulo the core's), 200-clock
/// memory. Returns the clocks from the first accept to the last answer and
/// the most page-table reads outstanding at once (the walks in flight).
pub fn top_random_misses(params: &odp_mmu::Params) -> (u64, usize) {
    let (mut drv, _, _) = top_with_mrs(params, &[(COLD_BASE, 512, 0x20_0000)]);
    let qps = params.qps as u32;
    let reqs: Vec<Req> = random_miss_reqs()
        .into_iter()
        .map(|r| Req {
            qpn: r.qpn % qps,
            ..r
        })
        .collect();
    let (first, last) = stream(&mut drv.bus, &reqs);
    (last - first + 1, drv.bus.mem.max_outstanding_reads)
}

/// Walk latency minus levels x memory latency, per `levels`, on the walker
/// alone, from the first clock the request is offered (the walker takes it
/// in its second) to the first clock of `done_valid`.
fn walk_overhead() -> [u64; 4] {
    let mut out = [0; 4];
    for levels in 1..=4u8 {
        let mut mem = HostMemory::new(MemConfig::fixed(MEMORY_LATENCY));
        let mut tables = PageTableBuilder::new(0x100, 0x1000);
        let t = tables.new_mr(levels);
        tables.map(&mut mem, t, 0x5000, PageSize::Size4K, 0x12345, true);
        let mut w = Box::new(Walker::<8>::new());
        w.connect_all();
        w.rst.next = true;
        let mut clock = 0u64;
        let mut start = None;
        // The request is offered from this clock until it is taken.
        const OFFER: u64 = 4;
        loop {
            let s = mem.outputs();
            crate::models::host_memory::drive_read_slave(&mut w.m_axi, &s);
            if clock == 2 {
                w.rst.next = false;
            }
            w.req_valid.next = clock >= OFFER && start.is_none();
            w.req_mr.next = 0.into();
            w.req_off.next = 0x5000.into();
            w.req_root.next = t.root.into();
            w.req_levels_m1.next = (t.levels_m1 as u64).into();
            w.done_ready.next = true;
            settle(&mut *w);
            if w.req_valid.val() && w.req_ready.val() {
                start = Some(clock);
            }
            if w.done_valid.val() {
                start.expect("completion before request");
                let walk = clock - OFFER;
                out[levels as usize - 1] = walk.saturating_sub(levels as u64 * MEMORY_LATENCY);
                break;
            }
            let m = crate::models::host_memory::read_master_out(&w.m_axi);
            mem.edge(&m);
            w.clock.next = true.into();
            settle(&mut *w);
            w.clock.next = false.into();
            settle(&mut *w);
            clock += 1;
            assert!(clock < 10_000, "bench: walk did not complete");
        }
    }
    out
}

/// Runs every scenario; `progress` is told which one starts. Fails, naming
/// the install command, when Verilator (needed for the whole core) is
/// missing.
pub fn run(progress: &mut dyn FnMut(&str)) -> Result<Numbers, String> {
    crate::tools::tool("verilator-cli")?;
    let mut n = Numbers::default();
    hits(&mut n, progress);
    progress("translator: walk overhead");
    n.walk_overhead_by_levels = walk_overhead();
    n.walk_overhead_clocks = *n.walk_overhead_by_levels.iter().max().unwrap();
    progress("translator: random misses, 8 walkers");
    let (c8, inflight) = random_misses::<8>();
    progress("translator: random misses, 1 walker");
    let (c1, _) = random_misses::<1>();
    n.walks_in_flight_max = inflight;
    n.miss_clocks_8_walkers = c8;
    n.miss_clocks_1_walker = c1;
    n.miss_throughput_ratio_8_vs_1_walker = c1 as f64 / c8 as f64;
    n.top = top_translation(progress, true);
    n.faults = crate::bench_faults::top_faults(progress);
    n.inval = crate::bench_inval::top_inval(progress);
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_json_carries_every_key_the_issue_names() {
        let json = Numbers::default().to_json();
        for key in [
            "hit_requests_per_clock",
            "hit_latency_clocks",
            "hit_under_miss_requests_per_clock",
            "walk_overhead_clocks",
            "walks_in_flight_max",
            "miss_throughput_ratio_8_vs_1_walker",
            "top_hit_requests_per_clock",
            "top_hit_latency_clocks",
            "top_hit_under_miss_requests_per_clock",
            "top_hit_under_miss_miss_fraction",
            "top_walks_in_flight_max",
            "mr_register_clocks",
            "verilated_top_clocks_per_second",
            "fault_to_nak_clocks",
            "fault_hw_overhead_clocks",
            "wake_after_resume_clocks",
            "cold_4mib_write_rnr_round_trips_with_hint",
            "cold_4mib_write_rnr_round_trips_without_hint",
            "fault_events_per_clock_storm",
            "adaptive_rnr_code",
            "adaptive_rnr_expected_code",
            "adaptive_rnr_service_p90_us",
            "invalidate_idle_clocks",
            "invalidate_all_idle_clocks",
            "invalidate_mr_idle_clocks",
            "invalidate_flush_clocks_per_page",
            "requests_per_clock_under_invalidation",
            "requests_per_clock_under_invalidate_mr",
            "requests_per_clock_under_invalidate_all",
            "mr_write_clocks",
            "prefetch_pages_per_clock",
            "prefetch_cached_pages_per_clock",
            "requests_per_clock_under_prefetch",
        ] {
            assert!(
                json.contains(&format!("\"{key}\": ")),
                "{key} missing from {json}"
            );
        }
    }
}
