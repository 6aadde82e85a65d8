//! The MR waiters (`MrWaiters`): QPs stalled on suspended MRs and their
//! wakes on MR_RESUME.
//!
//! The bench plays the translator (joins: a QP answered STALL because an
//! MR is suspended, at most one per clock, for MRs it holds suspended; an
//! MR being resumed may still see joins up to five clocks after the
//! resume's handshake, as lookups in the pipeline do), the command unit
//! (resumes offered until taken), the output queue (`rsp_pushed` and
//! `rsp_popped` moving at random, popped never ahead) and the wake
//! consumer (random `m_wake_ready`).
//!
//! The reference keeps, per QP, the joins not yet covered by a wake. It
//! checks: every `cnt_join` is a join of a QP with none uncovered (the
//! first of a stall); every sweep hit (`mon_hit`) is of a QP with joins
//! uncovered, on the resumed MR or on two MRs or more (then it covers all
//! of them); wakes come in hit order, each after the output queue has
//! delivered every response pushed before its sweep began; at `r_done` no
//! QP has a join uncovered on the resumed MR, nor on two MRs; nothing else
//! is ever woken. Runs: directed (the sweep's clock count, dedupe, the
//! `more` bit, the fence), random on the Verilated Verilog (long) and on
//! the rust-hdl model in lockstep with it (short).

use std::collections::{BTreeSet, HashMap, VecDeque};

use odp_mmu::control::mr_waiters::*;
use odp_mmu_workshop::harness;

use harness::dut::{Dut, Locked};
use harness::lockstep::Lockstep;
use harness::seed;
use harness::verilated::Verilated;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

/// 64 QPs: sweeps are short, so a run sees many.
const QP_BITS: usize = 6;
const QPS: u32 = 1 << QP_BITS;
type Unit = MrWaiters<QP_BITS>;

odp_mmu_workshop::port_map!(UnitPorts for Unit {
    clock: clock,
    inputs: [rst, j_valid, j_qpn, j_mr, r_valid, r_mr, rsp_pushed, rsp_popped, m_wake_ready],
    outputs: [ready, cnt_join, r_ready, r_done, m_wake_valid, m_wake_qpn, mon_hit, mon_hit_qpn],
});

fn verilog() -> String {
    let mut uut = Unit::new();
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, "mr_waiters")
}

fn ver() -> Verilated {
    Verilated::of_block(&mut Unit::new(), "mr_waiters")
}

fn lockstep() -> Locked<UnitPorts> {
    Lockstep::of::<UnitPorts>(Unit::new(), "mr_waiters")
}

#[derive(Clone, Copy, Debug, Default)]
struct Ins {
    rst: bool,
    join: Option<(u32, u8)>,
    resume: Option<u8>,
    pushed: u64,
    popped: u64,
    wake_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Outs {
    ready: bool,
    cnt_join: bool,
    r_ready: bool,
    r_done: bool,
    wake: Option<u32>,
    hit: Option<u32>,
}

fn step(d: &mut dyn Dut, i: &Ins) -> Outs {
    let (jq, jm) = i.join.unwrap_or_default();
    for (n, v) in [
        ("rst", i.rst as u128),
        ("j_valid", i.join.is_some() as u128),
        ("j_qpn", jq as u128),
        ("j_mr", jm as u128),
        ("r_valid", i.resume.is_some() as u128),
        ("r_mr", i.resume.unwrap_or(0) as u128),
        ("rsp_pushed", (i.pushed & 0xFFFF) as u128),
        ("rsp_popped", (i.popped & 0xFFFF) as u128),
        ("m_wake_ready", i.wake_ready as u128),
    ] {
        d.set(n, v);
    }
    d.settle();
    let o = Outs {
        ready: d.is("ready"),
        cnt_join: d.is("cnt_join"),
        r_ready: d.is("r_ready"),
        r_done: d.is("r_done"),
        wake: d.is("m_wake_valid").then(|| d.get("m_wake_qpn") as u32),
        hit: d.is("mon_hit").then(|| d.get("mon_hit_qpn") as u32),
    };
    d.tick();
    o
}

/// A resume the reference follows: its MR, the clock of its handshake.
#[derive(Clone, Copy, Debug)]
struct Res {
    mr: u8,
    taken: u64,
}

/// The unit, the reference and the checks.
struct Bench<D: Dut> {
    d: D,
    clock: u64,
    /// Per QP: the joins `(mr, clock)` no wake covers yet, each from the
    /// clock the unit checks it (two after its arrival).
    joins: HashMap<u32, Vec<(u8, u64)>>,
    /// Joins arrived and not yet checked: `(qpn, mr, check clock)`.
    arriving: VecDeque<(u32, u8, u64)>,
    /// Clocks at which a `cnt_join` is due (the clock after the check of
    /// a join that recorded its QP).
    join_due: VecDeque<u64>,
    /// Hits whose wake has not been taken, and the fence each waits for.
    wakes_due: VecDeque<(u32, u64)>,
    /// `rsp_pushed` of every clock (the fence is one of them).
    pushed_at: Vec<u64>,
    res: Option<Res>,
    /// Counts for coverage and for the directed tests.
    recorded: u64,
    hits: u64,
    more_hits: u64,
    wakes: u64,
    resumes_done: u64,
    fence_waits: u64,
    resets: u64,
}

impl<D: Dut> Bench<D> {
    fn new(d: D) -> Self {
        Self {
            d,
            clock: 0,
            joins: HashMap::new(),
            arriving: VecDeque::new(),
            join_due: VecDeque::new(),
            wakes_due: VecDeque::new(),
            pushed_at: Vec::new(),
            res: None,
            recorded: 0,
            hits: 0,
            more_hits: 0,
            wakes: 0,
            resumes_done: 0,
            fence_waits: 0,
            resets: 0,
        }
    }

    /// One clock; returns the outputs.
    fn clock(&mut self, i: &Ins) -> Outs {
        let c = self.clock;
        self.pushed_at.push(i.pushed);
        let o = step(&mut self.d, i);
        assert!(i.popped <= i.pushed, "bench: popped ahead of pushed");
        if i.rst {
            self.joins.clear();
            self.arriving.clear();
            self.join_due.clear();
            self.wakes_due.clear();
            self.res = None;
            self.resets += 1;
            self.clock += 1;
            return o;
        }
        // cnt_join: exactly the joins that found their QP with nothing
        // uncovered, two clocks later.
        let due = self.join_due.front() == Some(&c);
        if due {
            self.join_due.pop_front();
        }
        assert_eq!(o.cnt_join, due, "clock {c}: cnt_join");
        if let Some(q) = o.hit {
            let r = self
                .res
                .unwrap_or_else(|| panic!("clock {c}: hit of QP {q} with no resume"));
            let j = self.joins.remove(&q).unwrap_or_default();
            let mrs: BTreeSet<u8> = j.iter().map(|&(m, _)| m).collect();
            assert!(
                mrs.contains(&r.mr) || mrs.len() >= 2,
                "clock {c}: QP {q} woken by the resume of MR {} but it waits on {mrs:?}",
                r.mr
            );
            if j[0].0 != r.mr {
                // Recorded on another MR: woken through `more`.
                self.more_hits += 1;
            }
            // The fence: rsp_pushed in the last settle clock.
            let fence = self.pushed_at[(r.taken + SETTLE_CLOCKS) as usize];
            self.wakes_due.push_back((q, fence));
            self.hits += 1;
        }
        if let Some(q) = o.wake {
            let &(want, fence) = self
                .wakes_due
                .front()
                .unwrap_or_else(|| panic!("clock {c}: wake of QP {q} that no sweep hit"));
            assert_eq!(q, want, "clock {c}: wakes out of hit order");
            assert!(
                i.popped >= fence,
                "clock {c}: wake of QP {q} before the output queue passed its fence ({} of {fence})",
                i.popped
            );
            if i.wake_ready {
                self.wakes_due.pop_front();
                self.wakes += 1;
            }
        } else if let Some(&(_, fence)) = self.wakes_due.front() {
            if i.popped < fence {
                self.fence_waits += 1;
            }
        }
        if o.r_done {
            let r = self
                .res
                .take()
                .unwrap_or_else(|| panic!("clock {c}: r_done with no resume"));
            assert!(
                self.wakes_due.is_empty(),
                "clock {c}: r_done with wakes not taken"
            );
            // Every join of the MR was checked before the sweep began. A QP that
            // had stalled on two MRs before then had `more` when the sweep
            // read it; one whose second MR came later may have been read
            // before.
            let sweep = r.taken + SETTLE_CLOCKS;
            for (q, j) in &self.joins {
                let early: BTreeSet<u8> = j
                    .iter()
                    .filter(|&&(_, t)| t <= sweep)
                    .map(|&(m, _)| m)
                    .collect();
                assert!(
                    !j.iter().any(|&(m, _)| m == r.mr) && early.len() < 2,
                    "clock {c}: resume of MR {} done, QP {q} still waits on {j:?}",
                    r.mr
                );
            }
            self.resumes_done += 1;
        }
        if let (Some(mr), true) = (i.resume, o.r_ready) {
            assert!(self.res.is_none(), "clock {c}: r_ready during a resume");
            self.res = Some(Res { mr, taken: c });
        }
        // Joins reach the table in their check clock, after any hit of
        // that clock (the two never share a clock).
        while let Some(&(q, mr, at)) = self.arriving.front() {
            if at != c {
                break;
            }
            self.arriving.pop_front();
            let j = self.joins.entry(q).or_default();
            if j.is_empty() {
                self.join_due.push_back(c + 1);
                self.recorded += 1;
            }
            j.push((mr, c));
        }
        if let Some((q, mr)) = i.join {
            if o.ready && q < QPS {
                self.arriving.push_back((q, mr, c + 2));
            }
        }
        self.clock += 1;
        o
    }
}

/// Clocks until `ready` after a reset.
fn reset<D: Dut>(b: &mut Bench<D>) -> u64 {
    b.clock(&Ins {
        rst: true,
        ..Ins::default()
    });
    let start = b.clock;
    while !b.clock(&Ins::default()).ready {
        assert!(b.clock - start < 2 * QPS as u64, "ready never came");
    }
    // The clocks with `ready` low.
    b.clock - start - 1
}

/// Offers a resume of `mr` until done (wakes always taken, fence passed);
/// returns the clocks from the handshake to `r_done`.
fn resume<D: Dut>(b: &mut Bench<D>, mr: u8) -> u64 {
    let mut taken = None;
    loop {
        let i = Ins {
            resume: taken.is_none().then_some(mr),
            wake_ready: true,
            ..Ins::default()
        };
        let c = b.clock;
        let o = b.clock(&i);
        if taken.is_none() && o.r_ready {
            taken = Some(c);
        }
        if o.r_done {
            return c - taken.unwrap();
        }
        assert!(b.clock < 1_000_000, "resume never done");
    }
}

/// Joins `(qpn, mr)` in consecutive clocks, then two clocks for the last
/// to reach the table.
fn joins<D: Dut>(b: &mut Bench<D>, js: &[(u32, u8)]) {
    for &j in js {
        b.clock(&Ins {
            join: Some(j),
            ..Ins::default()
        });
    }
    for _ in 0..2 {
        b.clock(&Ins::default());
    }
}

fn join<D: Dut>(b: &mut Bench<D>, q: u32, mr: u8) {
    joins(b, &[(q, mr)]);
}

#[test]
fn mr_waiters_sweep_takes_settle_plus_one_clock_per_qp_and_three_per_wake() {
    let mut b = Bench::new(ver());
    assert_eq!(reset(&mut b), QPS as u64, "reset sweep: one clock per QP");
    let idle = resume(&mut b, 3);
    assert_eq!(b.wakes, 0);
    assert_eq!(idle, SETTLE_CLOCKS + QPS as u64 + 4, "idle sweep clocks");
    // Not the last entry: a hit there has no read after it to drop.
    for q in [0, 5, QPS - 2] {
        join(&mut b, q, 3);
    }
    let busy = resume(&mut b, 3);
    assert_eq!(b.wakes, 3, "every QP stalled on MR 3 woken");
    assert_eq!(busy, idle + 3 * 3, "three clocks per wake");
    assert_eq!(b.resumes_done, 2);
}

#[test]
fn mr_waiters_wake_a_qp_once_for_many_stalls_and_only_on_its_mr() {
    let mut b = Bench::new(ver());
    reset(&mut b);
    // QP 7 stalls three times on MR 1 (back to back, then later), QP 9
    // on MR 2: MR 1's resume wakes QP 7 once, not QP 9.
    joins(&mut b, &[(7, 1), (7, 1), (9, 2)]);
    join(&mut b, 7, 1);
    assert_eq!(b.recorded, 2, "two QPs recorded");
    resume(&mut b, 1);
    assert_eq!(b.wakes, 1);
    // A resume of an MR nobody waits on wakes nobody; MR 2's wakes QP 9.
    resume(&mut b, 5);
    assert_eq!(b.wakes, 1);
    resume(&mut b, 2);
    assert_eq!(b.wakes, 2);
    // Nobody waits any more: a second resume of MR 2 wakes nobody.
    resume(&mut b, 2);
    assert_eq!(b.wakes, 2);
    // A QPN beyond the table is ignored.
    join(&mut b, QPS + 3, 1);
    resume(&mut b, 1);
    assert_eq!(b.wakes, 2);
}

#[test]
fn mr_waiters_wake_a_qp_stalled_on_two_mrs_at_the_first_resume() {
    let mut b = Bench::new(ver());
    reset(&mut b);
    // Recorded on MR 1, stalled on MR 2 too: MR 1's resume wakes it.
    join(&mut b, 4, 1);
    join(&mut b, 4, 2);
    resume(&mut b, 1);
    assert_eq!((b.wakes, b.more_hits), (1, 0));
    // Woken, it retries and stalls on MR 2 again; MR 2's resume wakes it.
    join(&mut b, 4, 2);
    resume(&mut b, 2);
    assert_eq!(b.wakes, 2);
    // Recorded on MR 1, then MR 2: the resume of 2 wakes it through
    // `more`, and MR 1's resume then finds nobody.
    join(&mut b, 6, 1);
    join(&mut b, 6, 2);
    resume(&mut b, 2);
    assert_eq!((b.wakes, b.more_hits), (3, 1));
    resume(&mut b, 1);
    assert_eq!(b.wakes, 3);
}

#[test]
fn mr_waiters_hold_a_wake_until_the_stall_answer_has_left() {
    let mut b = Bench::new(ver());
    reset(&mut b);
    // 40 responses queued, none delivered: the wake waits for all 40.
    join(&mut b, 2, 0);
    let mut popped = 0;
    let mut woken_at = None;
    let mut taken = false;
    for k in 0..400u64 {
        if k > 200 && popped < 40 {
            popped += 1;
        }
        let o = b.clock(&Ins {
            resume: (!taken).then_some(0),
            pushed: 40,
            popped,
            wake_ready: true,
            ..Ins::default()
        });
        taken |= o.r_ready;
        if o.wake.is_some() && woken_at.is_none() {
            woken_at = Some(k);
        }
    }
    assert!(b.fence_waits > 100, "the wake waited for the fence");
    assert_eq!(woken_at, Some(201 + 39), "woken the clock the 40th left");
    assert_eq!((b.wakes, b.resumes_done), (1, 1));
}

/// Random stimulus.
struct Driver {
    rng: StdRng,
    join_odds: u32,
    resume_odds: u32,
    wake_ready_pct: u32,
    pop_pct: u32,
    rst_odds: u32,
    /// MRs held suspended (joins come for these).
    suspended: Vec<u8>,
    pushed: u64,
    popped: u64,
    /// The resume on offer, and the clock it was taken.
    offer: Option<u8>,
    taken: Option<(u8, u64)>,
}

impl Driver {
    fn new(seed: u64) -> Self {
        let mut d = Self {
            rng: StdRng::seed_from_u64(seed),
            join_odds: 2,
            resume_odds: 200,
            wake_ready_pct: 50,
            pop_pct: 50,
            rst_odds: 0,
            suspended: vec![0, 1, 2],
            pushed: 0,
            popped: 0,
            offer: None,
            taken: None,
        };
        d.new_phase();
        d
    }

    fn new_phase(&mut self) {
        let r = &mut self.rng;
        self.join_odds = [1, 3, 20][r.gen_range(0..3)];
        self.resume_odds = [50, 300, 2000][r.gen_range(0..3)];
        self.wake_ready_pct = [100, 60, 10][r.gen_range(0..3)];
        self.pop_pct = [100, 50, 5][r.gen_range(0..3)];
        self.rst_odds = if r.gen_ratio(1, 4) { 3000 } else { 0 };
    }

    fn inputs(&mut self, clock: u64) -> Ins {
        let r = &mut self.rng;
        let mut i = Ins::default();
        if self.rst_odds > 0 && r.gen_ratio(1, self.rst_odds) {
            i.rst = true;
            self.offer = None;
            self.taken = None;
            return i;
        }
        if r.gen_ratio(1, 2) && self.pushed - self.popped < 10_000 {
            self.pushed += 1;
        }
        if self.popped < self.pushed && r.gen_range(0..100) < self.pop_pct {
            self.popped += 1;
        }
        i.pushed = self.pushed;
        i.popped = self.popped;
        i.wake_ready = r.gen_range(0..100) < self.wake_ready_pct;
        // Joins for suspended MRs, and for the MR being resumed up to five
        // clocks after its handshake (lookups still in the pipeline).
        if r.gen_ratio(1, self.join_odds) {
            let late = self.taken.filter(|&(_, t)| clock <= t + 5).map(|(m, _)| m);
            let mr = match late {
                Some(m) if r.gen_ratio(1, 2) => Some(m),
                _ if !self.suspended.is_empty() => {
                    Some(self.suspended[r.gen_range(0..self.suspended.len())])
                }
                _ => None,
            };
            if let Some(mr) = mr {
                // Mostly QPs of the table, a few beyond it.
                let q = if r.gen_ratio(1, 50) {
                    QPS + r.gen_range(0..1000)
                } else {
                    r.gen_range(0..QPS)
                };
                i.join = Some((q, mr));
            }
        }
        if self.offer.is_none() && self.taken.is_none() && r.gen_ratio(1, self.resume_odds) {
            // Resume a suspended MR (or one nobody waits on), and suspend
            // another in its place.
            let mr = if !self.suspended.is_empty() && r.gen_ratio(4, 5) {
                let k = r.gen_range(0..self.suspended.len());
                self.suspended[k]
            } else {
                r.gen_range(0..8)
            };
            // Valid from the handshake: no join after the pipeline's five
            // clocks.
            self.suspended.retain(|&m| m != mr);
            self.offer = Some(mr);
            let new = r.gen_range(0..8);
            if new != mr && !self.suspended.contains(&new) {
                self.suspended.push(new);
            }
        }
        i.resume = self.offer;
        i
    }

    fn outputs(&mut self, i: &Ins, o: &Outs, clock: u64) {
        if let (Some(mr), true) = (i.resume, o.r_ready) {
            self.offer = None;
            self.taken = Some((mr, clock));
        }
        if o.r_done {
            self.taken = None;
        }
    }
}

fn random_run(dut: impl Dut, clocks: u64, seed: u64) {
    let mut b = Bench::new(dut);
    let mut d = Driver::new(seed);
    reset(&mut b);
    while !harness::done(b.clock, clocks, clocks * 10, || {
        vec![
            ("QPs recorded", b.recorded, 100),
            ("sweep hits", b.hits, 60),
            ("hits through more", b.more_hits, 3),
            ("wakes taken", b.wakes, 50),
            ("resumes done", b.resumes_done, 10),
            ("clocks a wake waited for its fence", b.fence_waits, 20),
        ]
    }) {
        if b.clock.is_multiple_of(5_000) {
            d.new_phase();
        }
        let c = b.clock;
        let i = d.inputs(c);
        let o = b.clock(&i);
        d.outputs(&i, &o, c);
        if i.rst {
            b.clock(&Ins::default());
            reset(&mut b);
        }
    }
}

#[test]
fn mr_waiters_match_reference_on_verilog_random() {
    random_run(ver(), 300_000, seed());
}

#[test]
fn mr_waiters_verilog_matches_rust_hdl_in_random_lockstep() {
    random_run(lockstep(), 8_000, seed());
}

#[test]
fn mr_waiters_are_synthesizable() {
    harness::checks::assert_synthesizable(&verilog(), "mr_waiters");
}
