//! The SPEC section 7 translation targets on the whole core, in simulated
//! clocks: the bench command's full-top scenarios (`odp_mmu_workshop::bench::
//! top_translation`) on the Verilated default `odp_mmu`, MRs registered by
//! the driver over AXI4-Lite, page tables in host memory (fixed 200-clock
//! latency). Deterministic: the same design gives the same clocks on every
//! machine, so a change that slows the hit path or serializes misses fails
//! here. The wall-clock speed is measured by the bench command only.

use odp_mmu::Params;
use odp_mmu_workshop::bench::{top_random_misses, top_translation};

#[test]
fn whole_core_meets_the_hit_and_hit_under_miss_targets() {
    let n = top_translation(&mut |what| println!("{what}"), false);
    println!("{n:?}");
    assert!(
        n.hit_requests_per_clock >= 0.98,
        "hit throughput {:.4} requests/clock, target >= 0.98",
        n.hit_requests_per_clock
    );
    assert!(
        n.hit_latency_clocks <= 6,
        "hit latency {} clocks, target <= 6",
        n.hit_latency_clocks
    );
    assert!(
        n.hit_under_miss_requests_per_clock >= 0.8,
        "hit-under-miss throughput {:.4} requests/clock, target >= 0.8",
        n.hit_under_miss_requests_per_clock
    );
    // The scenario must really miss (about 1 request in 8 on a page not in
    // the TLB), or the throughput above says nothing about hits under misses.
    assert!(
        (0.1..0.25).contains(&n.hit_under_miss_miss_fraction),
        "hit-under-miss run missed on {:.3} of its requests",
        n.hit_under_miss_miss_fraction
    );
    assert_eq!(
        n.walks_in_flight_max, 8,
        "random misses must keep all 8 walkers reading"
    );
    assert!(
        (1..1_000).contains(&n.mr_register_clocks),
        "register_mr took {} clocks",
        n.mr_register_clocks
    );
}

/// A parameter takes effect: the small preset's 2 walkers keep exactly 2
/// page-table reads in flight where the default's 8 keep 8, and serialize
/// the misses accordingly.
#[test]
fn the_walks_parameter_sets_the_walks_in_flight_of_the_whole_core() {
    let (clocks_small, walks_small) = top_random_misses(&Params::small());
    let (clocks_default, walks_default) = top_random_misses(&Params::default());
    println!("small: {walks_small} walks, {clocks_small} clocks; default: {walks_default} walks, {clocks_default} clocks");
    assert_eq!(walks_small, Params::small().walks, "small preset");
    assert_eq!(walks_default, Params::default().walks, "default preset");
    assert!(
        clocks_small > 3 * clocks_default,
        "2 walkers took {clocks_small} clocks, 8 took {clocks_default}"
    );
}

/// The fault path on the whole core: RNR NAK, event record, RESUME, wake,
/// and the prefetch hint's effect on a cold 4 MiB RDMA WRITE. Each bound is
/// the number measured when the path was composed (a slower core fails);
/// the SPEC section 7 targets they meet or miss are in
/// `docs/performance.md`.
#[test]
fn whole_core_fault_path_clocks() {
    let n = odp_mmu_workshop::bench_faults::top_faults(&mut |what| println!("{what}"));
    println!("{n:?}");
    // Measured when composed: 13, 26, 440 (two 201-clock table reads of
    // the retransmission's walk among them; 441 since the walker picks a
    // slot a clock before loading its AR), 11. The NAK has come 4 clocks
    // after the R beat since the early NAK (SPEC section 7's target;
    // docs/performance.md), 13 before. 27 and 442 since a walk's completion
    // releases its waiting slots a clock after it is taken, 28 and 443 since
    // the replay's payload RAM is addressed from a register (issue 9's
    // timing), 444 since the walker takes a request in its second clock
    // offered (its coalescing compare registered, issue 9's timing).
    for (what, got, bound) in [
        ("fault_to_nak_clocks", n.fault_to_nak_clocks, 4),
        ("fault_event_clocks", n.fault_event_clocks, 28),
        ("resume_to_ok_clocks", n.resume_to_ok_clocks, 444),
        ("wake_after_resume_clocks", n.wake_after_resume_clocks, 11),
    ] {
        assert!(got <= bound, "{what}: {got} clocks, at most {bound}");
        assert!(got > 0, "{what}: 0 clocks is no measurement");
    }
    // Measured when the storm scenario was added: 23 events in 2,507
    // clocks (0.0092 a clock), bound by the walks every fault needs; 0.0088
    // since the walker picks a slot a clock before loading its AR. Every
    // page a message went to faults at least once (19 pages; a page faults
    // again when a walk read its PTE before the mapping, which the timing
    // decides).
    assert!(
        n.fault_events_per_clock_storm >= 0.0085 && n.storm_events >= n.storm_pages,
        "fault storm: {} events on {} pages at {} a clock",
        n.storm_events,
        n.storm_pages,
        n.fault_events_per_clock_storm
    );
    assert!(n.storm_pages >= 16, "fault storm: {} pages", n.storm_pages);
    // The adaptive RNR timer's bench run (1 clock per us, delays uniform
    // 1,000..1,500 clocks). Measured when added: code 15, and 15 the code
    // of the 90th percentile; the tolerance is the estimator's (see the
    // test below).
    assert!(
        (n.adaptive_rnr_expected_code..=n.adaptive_rnr_expected_code + 1)
            .contains(&n.adaptive_rnr_code),
        "adaptive RNR timer: code {}, the 90th percentile's code {}",
        n.adaptive_rnr_code,
        n.adaptive_rnr_expected_code
    );
    assert!(
        n.cold_4mib_write_rnr_round_trips_with_hint <= 2,
        "cold 4 MiB write with the hint: {} RNR round trips, target <= 2",
        n.cold_4mib_write_rnr_round_trips_with_hint
    );
    assert!(
        n.cold_4mib_write_rnr_round_trips_without_hint >= 1000,
        "without the hint each page faults on its own: {} round trips",
        n.cold_4mib_write_rnr_round_trips_without_hint
    );
}

/// The adaptive RNR timer on the whole core against two known service-time
/// distributions (`bench_faults::adaptive_rnr`): `CTRL.ADAPTIVE_RNR` on,
/// 1 clock per µs, 150 faults each, the driver resuming every fault a
/// uniform random delay after it read the event (1,000..1,500 clocks, then
/// 3,000..4,000). The scenario checks every NAK's code against the
/// reference estimator over the service times before it; this test checks
/// what the code settles on. The estimator aims at `srtt + 4 rttvar`
/// (mean plus four mean deviations), not at a percentile: for a unimodal
/// distribution that lands at the code of the 90th percentile or one code
/// above it, the tolerance `docs/rnr_nak.md` documents and the block's
/// distribution test asserts. The two distributions' 90th percentiles are
/// two codes or more apart, so the bands do not overlap: a timer that
/// ignored the service time (or a constant code) fails one of them.
#[test]
fn adaptive_rnr_random_code_settles_at_the_90th_percentile_of_service_times() {
    use odp_mmu::spec::rnr_timer::US;
    use odp_mmu_workshop::bench_faults::{adaptive_rnr, adaptive_rnr_bench_cfg, AdaptiveRnrCfg};
    let seed = odp_mmu_workshop::harness::seed();
    let run = |delay: (u64, u64), seed: u64| {
        let cfg = AdaptiveRnrCfg {
            delay,
            seed,
            ..adaptive_rnr_bench_cfg()
        };
        let r = adaptive_rnr(&cfg);
        println!(
            "delay {}..{} clocks at {} clock(s) per us: service p50 {:.0} us, p90 {:.0} us, mean {:.0} us \
             (overhead {}..{} clocks); code of p90 {} ({} us); codes after warm-up {:?}, median {} ({} us); \
             {:.1}% covered; {} clocks",
            delay.0,
            delay.1,
            r.clocks_per_us,
            r.service_p50_us,
            r.service_p90_us,
            r.service_mean_us,
            r.overhead_clocks.0,
            r.overhead_clocks.1,
            r.expected_code,
            US[r.expected_code as usize],
            r.code_shares,
            r.code,
            US[r.code as usize],
            100.0 * r.covered,
            r.clocks
        );
        assert!(
            r.code >= r.expected_code && r.code <= r.expected_code + 1,
            "delay {delay:?}: the timer settled at code {}, the 90th percentile of the service \
             times ({:.0} us) wants code {} (or one above)",
            r.code,
            r.service_p90_us,
            r.expected_code
        );
        assert!(
            r.covered >= 0.95,
            "delay {delay:?}: only {:.3} of the faults were covered by their NAK's code",
            r.covered
        );
        r
    };
    let fast = run((1000, 1500), seed);
    let slow = run((3000, 4000), seed.wrapping_add(1));
    assert!(
        slow.expected_code >= fast.expected_code + 2,
        "the scenario's distributions must be two codes apart: {} and {}",
        fast.expected_code,
        slow.expected_code
    );
    assert!(
        slow.code > fast.code,
        "slower service, code {}; faster service, code {}",
        slow.code,
        fast.code
    );
}

/// Invalidation and MR_WRITE on the whole core (`bench_inval`), through the
/// driver library. Bounds, from the blocks' documented clocks:
///
/// - an idle one-page INVALIDATE, doorbell to `INV_DONE` moving: the
///   doorbell reaches the command unit a clock after its handshake; the
///   unit copies, checks and reads the MR's base, and the invalidation
///   unit takes the command in the fourth clock (`docs/commands.md`); from
///   that handshake the unit needs `SETTLE_CLOCKS` + 4 = 16 clocks with no
///   OK outstanding (`docs/invalidation.md`), and `INV_DONE` counts at the
///   same edge: 20. Fewer than 16 would mean the drain did not wait for the
///   settle time, a broken guarantee, so that is checked too;
/// - MR_WRITE, doorbell to `CMD_STATUS.BUSY` clear: the doorbell register
///   (1) and the unit's three clocks (copy, check, write and result): 4;
/// - a range sweep costs one clock per page (one TLB set a clock,
///   `docs/tlb.md`): 64 pages take exactly 32 clocks more than 32 pages;
/// - hits while a one-page INVALIDATE of another MR comes every 1,000
///   clocks: >= 0.8 requests a clock (the target), every
///   invalidation done before the next is issued;
/// - ALL and whole-MR INVALIDATE on the idle core cost what one page
///   costs (the TLB advances a generation in four clocks, no sweep of its
///   256 sets), and hits under a whole-MR INVALIDATE of another MR every
///   1,000 clocks stay at >= 0.95 requests a clock (a 256-clock sweep
///   would refuse lookups a quarter of the time: at most 0.75).
#[test]
fn whole_core_invalidation_clocks() {
    use odp_mmu_workshop::bench_inval::{idle_numbers, loaded, Load};
    let n = idle_numbers();
    println!("{n:?}");
    assert!(
        (16..=20).contains(&n.invalidate_idle_clocks),
        "idle one-page INVALIDATE: INV_DONE moved {} clocks after the doorbell, expected 16..=20",
        n.invalidate_idle_clocks
    );
    assert!(
        (1..=4).contains(&n.mr_write_clocks),
        "MR_WRITE: CMD_STATUS done {} clocks after the doorbell, at most 4",
        n.mr_write_clocks
    );
    assert_eq!(
        n.invalidate_64_pages_idle_clocks - n.invalidate_32_pages_idle_clocks,
        32,
        "a range sweep costs one clock per page: 32 pages {} clocks, 64 pages {}",
        n.invalidate_32_pages_idle_clocks,
        n.invalidate_64_pages_idle_clocks
    );
    for (what, clocks) in [
        ("ALL", n.invalidate_all_idle_clocks),
        ("whole-MR", n.invalidate_mr_idle_clocks),
    ] {
        assert!(
            clocks <= n.invalidate_idle_clocks + 2,
            "idle {what} INVALIDATE: {clocks} clocks, one page {}: not constant-time",
            n.invalidate_idle_clocks
        );
    }
    let r = loaded(10_000, Load::WholeMr);
    println!("whole MR: {r:?}");
    assert!(
        r.requests_per_clock >= 0.95 && r.invalidations >= 8 && r.late == 0,
        "hits under a whole-MR INVALIDATE of another MR every 1,000 clocks: {:.4} requests/clock (>= 0.95), {} INVALIDATEs, {} late",
        r.requests_per_clock,
        r.invalidations,
        r.late
    );
    let r = loaded(10_000, Load::Page);
    println!("{r:?}");
    assert!(
        r.requests_per_clock >= 0.8,
        "hits under a one-page INVALIDATE every 1,000 clocks: {:.4} requests/clock, target >= 0.8",
        r.requests_per_clock
    );
    assert!(
        r.invalidations >= 8,
        "the run must really invalidate: {} INVALIDATEs",
        r.invalidations
    );
    assert_eq!(
        r.late, 0,
        "an INVALIDATE was still in progress when the next was issued"
    );
}

/// PREFETCH on the whole default core (`docs/prefetch.md`, bench keys
/// `prefetch_*`): cold pages are walk-bound at four walks in flight, half
/// the core's eight, and never more (a PREFETCH holding all eight walkers
/// would prefetch twice as fast, above the bound); pages already in the TLB
/// go faster; and hits of another MR keep >= 0.9 requests a clock while a
/// PREFETCH runs all along.
#[test]
fn whole_core_prefetch_keeps_to_its_half_of_the_walkers() {
    use odp_mmu_workshop::bench::MEMORY_LATENCY;
    use odp_mmu_workshop::bench_inval::{idle_prefetch, under_prefetch};
    let (cold, cached) = idle_prefetch();
    println!("PREFETCH of 512 pages: {cold:.4} pages/clock cold, {cached:.4} cached");
    // One table level: a walk is one read of MEMORY_LATENCY clocks plus
    // its overhead (at most 8) and the lookup pipeline around it.
    let at_most = 4.0 / (MEMORY_LATENCY + 1) as f64;
    let at_least = 4.0 / (MEMORY_LATENCY + 1 + 8 + 24) as f64;
    assert!(
        (at_least..=at_most).contains(&cold),
        "cold PREFETCH: {cold:.4} pages/clock, expected {at_least:.4}..={at_most:.4} (4 walks in flight)"
    );
    assert!(
        cached >= 0.25,
        "cached PREFETCH: {cached:.4} pages/clock, at least 0.25"
    );
    let (rate, runs) = under_prefetch(10_000);
    println!("hits under PREFETCH: {rate:.4} requests/clock, {runs} PREFETCHes");
    assert!(
        rate >= 0.9 && runs >= 1,
        "hits while a PREFETCH runs: {rate:.4} requests/clock (>= 0.9), {runs} PREFETCHes"
    );
}
