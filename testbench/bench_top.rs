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
    // the retransmission's walk among them), 11. The SPEC's 4 clocks from
    // the walk to the NAK are not met: the answer waits for the request's
    // replay through the lookup pipeline (docs/performance.md).
    for (what, got, bound) in [
        ("fault_to_nak_clocks", n.fault_to_nak_clocks, 13),
        ("fault_event_clocks", n.fault_event_clocks, 26),
        ("resume_to_ok_clocks", n.resume_to_ok_clocks, 440),
        ("wake_after_resume_clocks", n.wake_after_resume_clocks, 11),
    ] {
        assert!(got <= bound, "{what}: {got} clocks, at most {bound}");
        assert!(got > 0, "{what}: 0 clocks is no measurement");
    }
    // Measured when the storm scenario was added: 23 events in 2,507
    // clocks (0.0092 a clock), bound by the walks every fault needs.
    assert!(
        n.fault_events_per_clock_storm >= 0.009 && n.storm_events >= 20,
        "fault storm: {} events at {} a clock",
        n.storm_events,
        n.fault_events_per_clock_storm
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
