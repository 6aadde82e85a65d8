//! The prefetch unit (`Prefetcher`): PREFETCH's page lookups, their
//! answers and the "prefetch done" record.
//!
//! The bench plays the command unit (PREFETCHes offered until taken, a
//! random delay apart), the translator (lookups taken with random
//! `m_rq_ready`, each answered one to forty clocks later with a random
//! status, at most one answer per clock, in any order) and the event ring
//! (random `m_ev_ready`), with random resets.
//!
//! The reference (`models::prefetch_ref`) gives the lookups of a range and
//! the record of its answers. Every clock the bench checks: `s_ready` and
//! `busy` follow whether a PREFETCH runs; each lookup is the next one of the
//! range, with the command's MR and flags, and both streams keep what they
//! offer until taken; never more than `max_out` lookups are unanswered, and
//! a lookup that may go is offered within a clock; the record comes the
//! clock after the last answer, no earlier, with the counts of the
//! answers; `cnt_done` pulses when it is taken. Runs: directed (the
//! lookups of a range, the `max_out` limit, the record), random on the
//! Verilated Verilog (long) and on the rust-hdl model in lockstep with it
//! (short).

use std::collections::VecDeque;

use odp_mmu::control::prefetch::Prefetcher;
use odp_mmu::spec::status::byte as status;
use odp_mmu_workshop::harness;
use odp_mmu_workshop::models::prefetch_ref::{lookup, pages, Counts, Lookup};

use harness::dut::{Dut, Locked};
use harness::lockstep::Lockstep;
use harness::monitor::StreamMonitor;
use harness::seed;
use harness::verilated::Verilated;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The default core's limit: half of its 8 walks.
const MAX_OUT: u64 = 4;

odp_mmu_workshop::port_map!(UnitPorts for Prefetcher {
    clock: clock,
    inputs: [rst, s_valid, s_mr, s_lo, s_hi, s_write, s_nofault, s_tag, m_rq_ready, a_valid, a_status, m_ev_ready],
    outputs: [s_ready, busy, m_rq_valid, m_rq_mr, m_rq_va, m_rq_write, m_rq_nofault, m_rq_msg_len, m_ev_valid, m_ev_w0, m_ev_w1, m_ev_w2, cnt_done],
});

fn ver(max_out: u64) -> Verilated {
    Verilated::of_block(
        &mut Prefetcher::new(max_out as usize),
        &format!("prefetch_{max_out}"),
    )
}

fn lockstep() -> Locked<UnitPorts> {
    Lockstep::of::<UnitPorts>(Prefetcher::new(MAX_OUT as usize), "prefetch_4")
}

/// A PREFETCH as the command unit hands it over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cmd {
    mr: u8,
    lo: u64,
    /// Exclusive end; all ones stands for 2^64.
    hi: u64,
    write: bool,
    nofault: bool,
    tag: u8,
}

/// One lookup as offered on `m_rq_*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Rq {
    mr: u8,
    write: bool,
    nofault: bool,
    at: Lookup,
}

/// One clock's inputs.
#[derive(Clone, Copy, Debug, Default)]
struct Ins {
    rst: bool,
    cmd: Option<Cmd>,
    rq_ready: bool,
    answer: Option<u8>,
    ev_ready: bool,
}

/// One clock's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Outs {
    s_ready: bool,
    busy: bool,
    rq: Option<Rq>,
    ev: Option<[u64; 3]>,
    cnt_done: bool,
}

fn settle(d: &mut dyn Dut, i: &Ins) -> Outs {
    let c = i.cmd.unwrap_or_default();
    d.set("rst", i.rst as u128);
    d.set("s_valid", i.cmd.is_some() as u128);
    d.set("s_mr", c.mr as u128);
    d.set("s_lo", c.lo as u128);
    d.set("s_hi", c.hi as u128);
    d.set("s_write", c.write as u128);
    d.set("s_nofault", c.nofault as u128);
    d.set("s_tag", c.tag as u128);
    d.set("m_rq_ready", i.rq_ready as u128);
    d.set("a_valid", i.answer.is_some() as u128);
    d.set("a_status", i.answer.unwrap_or(0) as u128);
    d.set("m_ev_ready", i.ev_ready as u128);
    d.settle();
    Outs {
        s_ready: d.is("s_ready"),
        busy: d.is("busy"),
        rq: d.is("m_rq_valid").then(|| Rq {
            mr: d.get("m_rq_mr") as u8,
            write: d.is("m_rq_write"),
            nofault: d.is("m_rq_nofault"),
            at: Lookup {
                va: d.get("m_rq_va") as u64,
                msg_len: d.get("m_rq_msg_len") as u32,
            },
        }),
        ev: d.is("m_ev_valid").then(|| {
            [
                d.get("m_ev_w0") as u64,
                d.get("m_ev_w1") as u64,
                d.get("m_ev_w2") as u64,
            ]
        }),
        cnt_done: d.is("cnt_done"),
    }
}

/// The PREFETCH the reference follows.
#[derive(Clone, Copy, Debug)]
struct Run {
    cmd: Cmd,
    pages: u64,
    /// Lookups taken so far.
    sent: u64,
    /// Answers so far, counted.
    answered: u64,
    counts: Counts,
    /// The clock the last answer came (the record is due the clock after).
    last_answer: Option<u64>,
}

/// The unit, the reference and the checks.
struct Bench<D: Dut> {
    d: D,
    max_out: u64,
    clock: u64,
    run: Option<Run>,
    rq_mon: StreamMonitor<Rq>,
    ev_mon: StreamMonitor<[u64; 3]>,
    /// Clocks in a row a lookup could go and none was offered.
    idle: u64,
    /// Counts for coverage and for the directed tests.
    taken: u64,
    records: u64,
    lookups: u64,
    held_by_limit: u64,
    resets: u64,
}

impl<D: Dut> Bench<D> {
    fn new(d: D, max_out: u64) -> Self {
        Self {
            d,
            max_out,
            clock: 0,
            run: None,
            rq_mon: StreamMonitor::new("m_rq"),
            ev_mon: StreamMonitor::new("m_ev"),
            idle: 0,
            taken: 0,
            records: 0,
            lookups: 0,
            held_by_limit: 0,
            resets: 0,
        }
    }

    /// One clock: applies `i`, checks the outputs against the reference,
    /// advances it. Returns the outputs and the lookup taken, if any.
    fn step(&mut self, i: &Ins) -> (Outs, Option<Rq>) {
        let o = settle(&mut self.d, i);
        let clock = self.clock;
        let at = format!(
            "clock {clock}, inputs {i:x?}, outputs {o:x?}, run {:x?}",
            self.run
        );
        let running = self.run.is_some();
        assert_eq!(o.s_ready, !running && !i.rst, "s_ready: {at}");
        assert_eq!(o.busy, running, "busy: {at}");
        let out = self.run.map_or(0, |r| r.sent - r.answered);
        let mut sent = None;
        if let Some(r) = &self.run {
            // The next lookup, when one may go.
            let may = r.sent < r.pages && out < self.max_out;
            if let Some(rq) = o.rq {
                assert!(may && !i.rst, "a lookup offered that may not go: {at}");
                let want = Rq {
                    mr: r.cmd.mr,
                    write: r.cmd.write,
                    nofault: r.cmd.nofault,
                    at: lookup(r.cmd.lo, r.cmd.hi, r.sent),
                };
                assert_eq!(rq, want, "lookup {}: {at}", r.sent);
            }
            if may && o.rq.is_none() && !i.rst {
                self.idle += 1;
                assert!(self.idle <= 1, "a lookup that may go waits: {at}");
            } else {
                self.idle = 0;
            }
            self.held_by_limit += (r.sent < r.pages && out == self.max_out) as u64;
            // The record: the clock after the last answer, not before.
            let due = r.sent == r.pages && r.answered == r.pages;
            let want = r.counts.record(r.cmd.mr, r.cmd.tag).w;
            match o.ev {
                Some(w) => {
                    assert!(due, "a record before every page is answered: {at}");
                    assert_eq!(w, [want[0], want[1], want[2]], "the record: {at}");
                }
                None => assert!(
                    !due || r.last_answer.is_none_or(|c| c + 1 >= clock) || i.rst,
                    "the record is late: {at}"
                ),
            }
        } else {
            assert!(o.rq.is_none() && o.ev.is_none(), "idle unit offers: {at}");
        }
        assert_eq!(
            o.cnt_done,
            o.ev.is_some() && i.ev_ready && !i.rst,
            "cnt_done: {at}"
        );
        if i.rst {
            self.rq_mon = StreamMonitor::new("m_rq");
            self.ev_mon = StreamMonitor::new("m_ev");
            self.run = None;
            self.idle = 0;
            self.resets += 1;
        } else {
            if let Some(rq) =
                self.rq_mon
                    .observe(clock, o.rq.is_some(), i.rq_ready, o.rq.unwrap_or_default())
            {
                sent = Some(rq);
            }
            let rec =
                self.ev_mon
                    .observe(clock, o.ev.is_some(), i.ev_ready, o.ev.unwrap_or_default());
            if let Some(r) = &mut self.run {
                if sent.is_some() {
                    r.sent += 1;
                    self.lookups += 1;
                }
                if let Some(st) = i.answer {
                    assert!(
                        r.answered < r.sent - sent.is_some() as u64,
                        "bench: answer without a lookup"
                    );
                    r.answered += 1;
                    r.counts.count(st);
                    r.last_answer = Some(clock);
                }
            }
            if rec.is_some() {
                self.run = None;
                self.records += 1;
            }
            if let Some(c) = i.cmd.filter(|_| o.s_ready) {
                self.taken += 1;
                self.run = Some(Run {
                    cmd: c,
                    pages: pages(c.lo, c.hi),
                    sent: 0,
                    answered: 0,
                    counts: Counts::default(),
                    last_answer: None,
                });
            }
        }
        self.d.tick();
        self.clock += 1;
        (o, sent)
    }
}

fn reset<D: Dut>(b: &mut Bench<D>) {
    b.step(&Ins {
        rst: true,
        ..Ins::default()
    });
}

/// Runs `cmd` with every lookup taken at once and answered `delay` clocks
/// later with `status_of(k)`, the record taken at once; returns the
/// lookups and the clocks from the command's offer to the record taken.
fn run_one<D: Dut>(
    b: &mut Bench<D>,
    cmd: Cmd,
    delay: u64,
    status_of: impl Fn(u64) -> u8,
) -> (Vec<Rq>, u64) {
    let start = b.clock;
    let mut offered = Some(cmd);
    let mut due: VecDeque<(u64, u8)> = VecDeque::new();
    let mut rqs = Vec::new();
    for _ in 0..100_000 {
        let answer = match due.front() {
            Some(&(c, st)) if c <= b.clock => {
                due.pop_front();
                Some(st)
            }
            _ => None,
        };
        let (o, sent) = b.step(&Ins {
            cmd: offered,
            rq_ready: true,
            answer,
            ev_ready: true,
            ..Ins::default()
        });
        if o.s_ready {
            offered = None;
        }
        if let Some(rq) = sent {
            due.push_back((b.clock - 1 + delay, status_of(rqs.len() as u64)));
            rqs.push(rq);
        }
        if o.cnt_done {
            return (rqs, b.clock - start);
        }
    }
    panic!("no record for {cmd:x?}");
}

#[test]
fn prefetch_sends_one_lookup_per_page_and_counts_the_answers() {
    let mut b = Bench::new(ver(MAX_OUT), MAX_OUT);
    reset(&mut b);
    // Three and a half pages from an offset: four lookups, the first at the
    // range's first byte, the others at their page's.
    let cmd = Cmd {
        mr: 0x2a,
        lo: 0x7000_0800,
        hi: 0x7000_4000,
        write: true,
        nofault: false,
        tag: 0x5c,
    };
    let sts = [status::OK, status::STALL, status::ACCESS_ERR, status::OK];
    let (rqs, _) = run_one(&mut b, cmd, 3, |k| sts[k as usize]);
    let vas: Vec<(u64, u32)> = rqs.iter().map(|r| (r.at.va, r.at.msg_len)).collect();
    assert_eq!(
        vas,
        [
            (0x7000_0800, 0x3800),
            (0x7000_1000, 0x3000),
            (0x7000_2000, 0x2000),
            (0x7000_3000, 0x1000)
        ]
    );
    assert!(rqs.iter().all(|r| r.mr == 0x2a && r.write && !r.nofault));
    assert_eq!(b.records, 1);
    // One byte at the top of the address space: one lookup, the range's
    // end held as all ones.
    let top = Cmd {
        lo: u64::MAX - 1,
        hi: u64::MAX,
        nofault: true,
        ..cmd
    };
    let (rqs, _) = run_one(&mut b, top, 1, |_| status::RNR);
    assert_eq!(rqs.len(), 1);
    assert_eq!(
        (rqs[0].at.va, rqs[0].at.msg_len, rqs[0].nofault),
        (u64::MAX - 1, 1, true)
    );
}

#[test]
fn prefetch_keeps_at_most_max_out_lookups_unanswered() {
    for max_out in [1, MAX_OUT] {
        let mut b = Bench::new(ver(max_out), max_out);
        reset(&mut b);
        let cmd = Cmd {
            lo: 0x10_0000,
            hi: 0x10_0000 + (64 << 12),
            ..Cmd::default()
        };
        // Answers 30 clocks after each lookup: the unit waits at the limit
        // (the bench checks it never passes it), so 64 pages take about
        // 64 / max_out answer times.
        let (rqs, clocks) = run_one(&mut b, cmd, 30, |_| status::OK);
        assert_eq!(rqs.len(), 64);
        assert!(b.held_by_limit > 0, "the limit was reached");
        let per_round = 30 + 2;
        assert!(
            clocks <= 64 / max_out * per_round + 40,
            "max_out {max_out}: {clocks} clocks for 64 pages"
        );
        assert!(
            clocks >= 64 / max_out * 30,
            "max_out {max_out}: {clocks} clocks"
        );
    }
}

/// The bench's random traffic.
struct Traffic {
    rng: StdRng,
    offer: Option<Cmd>,
    gap: u64,
    /// Lookups taken, each with the clock its answer is due.
    due: Vec<(u64, u8)>,
    ended_at_top: u64,
    saturated: u64,
}

impl Traffic {
    fn cmd(&mut self) -> Cmd {
        let r = &mut self.rng;
        let base: u64 = match r.gen_range(0..8) {
            0 => u64::MAX - r.gen_range(0..8u64 << 12),
            _ => (r.gen::<u64>() & !0xfff) | (r.gen_range(0..2u64) * r.gen_range(0..0x1000)),
        };
        let len: u64 = match r.gen_range(0..10) {
            0 => 1,
            1 => r.gen_range(1..1u64 << 40),
            _ => r.gen_range(1..24u64 << 12),
        };
        let end = base as u128 + len as u128;
        let hi = end.min(u64::MAX as u128) as u64;
        self.ended_at_top += (hi == u64::MAX) as u64;
        self.saturated += (hi - base > u32::MAX as u64) as u64;
        Cmd {
            mr: r.gen(),
            lo: base.min(hi - 1),
            hi,
            write: r.gen(),
            nofault: r.gen(),
            tag: r.gen(),
        }
    }
}

fn random_run(dut: impl Dut, max_out: u64, clocks: u64, seed: u64) {
    println!("prefetch random run, max_out {max_out}, seed {seed:#x}");
    let mut b = Bench::new(dut, max_out);
    let mut t = Traffic {
        rng: StdRng::seed_from_u64(seed),
        offer: None,
        gap: 0,
        due: Vec::new(),
        ended_at_top: 0,
        saturated: 0,
    };
    reset(&mut b);
    let mut answers = [0u64; 3];
    while !harness::done(b.clock, clocks, clocks * 10, || {
        vec![
            ("PREFETCHes taken", b.taken, 40),
            ("records taken", b.records, 30),
            ("lookups", b.lookups, 1000),
            ("clocks held at max_out", b.held_by_limit, 200),
            ("resets", b.resets, 3),
            ("ranges ending at 2^64", t.ended_at_top, 2),
            ("message lengths saturated", t.saturated, 2),
            ("pages filled", answers[0], 100),
            ("pages faulted", answers[1], 100),
            ("pages refused", answers[2], 100),
        ]
    }) {
        let r = &mut t.rng;
        if t.offer.is_none() && b.run.is_none() {
            if t.gap == 0 {
                t.gap = r.gen_range(1..20);
            }
            t.gap -= 1;
            if t.gap == 0 {
                t.offer = Some(t.cmd());
            }
        }
        let r = &mut t.rng;
        // Long ranges are cut short by a reset after a few hundred pages.
        let long = b.run.is_some_and(|x| x.sent > 300);
        let rst = r.gen_ratio(1, 20_000) || (long && r.gen_ratio(1, 50));
        let answer = t
            .due
            .iter()
            .position(|&(c, _)| c <= b.clock)
            .filter(|_| r.gen_ratio(3, 4))
            .map(|k| t.due.swap_remove(k).1);
        let i = Ins {
            rst,
            cmd: t.offer,
            rq_ready: r.gen_ratio(2, 3),
            answer,
            ev_ready: r.gen_ratio(1, 2),
        };
        let (o, sent) = b.step(&i);
        if rst {
            t.due.clear();
            t.offer = None;
            continue;
        }
        if o.s_ready {
            t.offer = None;
        }
        if let Some(st) = answer {
            let k = match st {
                status::OK => 0,
                status::RNR | status::STALL => 1,
                _ => 2,
            };
            answers[k] += 1;
        }
        if sent.is_some() {
            let r = &mut t.rng;
            let st = [
                status::OK,
                status::RNR,
                status::STALL,
                status::ACCESS_ERR,
                status::FATAL,
            ][r.gen_range(0..5)];
            let delay = if r.gen_ratio(1, 4) {
                r.gen_range(1..40)
            } else {
                r.gen_range(1..6)
            };
            t.due.push((b.clock - 1 + delay, st));
        }
    }
    println!(
        "{} clocks: {} PREFETCHes, {} records, {} lookups, {} clocks held at max_out, {} resets",
        b.clock, b.taken, b.records, b.lookups, b.held_by_limit, b.resets
    );
}

#[test]
fn prefetch_matches_reference_on_verilog_random() {
    let seed = seed();
    random_run(ver(MAX_OUT), MAX_OUT, 200_000, seed);
    random_run(ver(1), 1, 100_000, seed ^ 1);
}

#[test]
fn prefetch_verilog_matches_rust_hdl_in_random_lockstep() {
    random_run(lockstep(), MAX_OUT, 5_000, seed());
}

#[test]
fn prefetch_is_synthesizable() {
    harness::checks::assert_synthesizable(
        &odp_mmu::control::prefetch::generate_verilog("prefetch"),
        "prefetch",
    );
}
