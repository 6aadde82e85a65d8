//! The invalidation unit (`InvalUnit`): epochs, the DMA drain and its
//! events, against the guarantee it exists for.
//!
//! The bench plays the command unit (invalidations and suspends offered
//! until taken), the translator (its TLB port: `inv_ready` and a done
//! pulse after a sweep of random length; OK decisions stamped with the
//! epoch the unit showed up to six clocks before, as the pipeline from c0
//! to the decision does) and the DMA engine (every OK response returned on
//! `s_done` after a random delay, in any order). Its reference is the
//! guarantee itself, kept in plain Rust with absolute epochs: an entry's
//! event may come only when every OK response stamped before its epoch
//! change has been returned and its TLB sweep is over; events come in
//! acceptance order, one per entry, with its kind, MR and tag, and every
//! entry gets its event once its responses are back. Directed tests name
//! each rule and measure the clocks; the random runs go on the Verilated
//! Verilog (long) and on the rust-hdl model in lockstep with it (short).

use std::collections::VecDeque;

use odp_mmu::control::inval::*;
use odp_mmu::spec::event;
use odp_mmu_workshop::harness;

use harness::dut::{Dut, Locked};
use harness::lockstep::Lockstep;
use harness::monitor::StreamMonitor;
use harness::seed;
use harness::verilated::Verilated;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

type Unit = InvalUnit<8>;

odp_mmu_workshop::port_map!(UnitPorts for Unit {
    clock: clock,
    inputs: [rst, s_iv_valid, s_iv_kind, s_iv_mr, s_iv_tag, s_iv_va_lo, s_iv_va_hi, s_iv_off_lo, s_iv_off_hi, m_inv_ready, m_inv_done, ok_valid, ok_epoch, s_done_valid, s_done_epoch, bad_valid, bad_op, bad_tag, bad_code, bad_arg0, m_ev_ready],
    outputs: [epoch, full, s_iv_ready, m_inv_valid, m_inv_kind, m_inv_mr, m_inv_va_lo, m_inv_va_hi, m_inv_off_lo, m_inv_off_hi, m_ev_valid, m_ev_w0, m_ev_w1, m_ev_w2, issued, completed, in_progress, err_done, err_overflow, cnt_inv, mon_late_ok],
});

fn verilog() -> String {
    let mut uut = Unit::new();
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, "inval_unit")
}

fn ver() -> Verilated {
    Verilated::of_block(&mut Unit::new(), "inval_unit")
}

fn lockstep() -> Locked<UnitPorts> {
    Lockstep::of::<UnitPorts>(Unit::new(), "inval_unit")
}

/// An invalidation or suspend as the command unit offers it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cmd {
    kind: u64,
    mr: u8,
    tag: u8,
    va_lo: u64,
    va_hi: u64,
}

/// One clock's inputs.
#[derive(Clone, Copy, Debug, Default)]
struct Ins {
    rst: bool,
    iv: Option<Cmd>,
    inv_ready: bool,
    inv_done: bool,
    ok: Option<u8>,
    done: Option<u8>,
    /// `(op, tag, code, arg0)` of a refused command.
    bad: Option<(u8, u8, u8, u16)>,
    ev_ready: bool,
}

/// One clock's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Outs {
    epoch: u8,
    full: bool,
    iv_ready: bool,
    inv_valid: bool,
    inv_kind: u8,
    ev: Option<[u64; 3]>,
    issued: u32,
    completed: u32,
    in_progress: u8,
    err_done: bool,
    err_overflow: bool,
    cnt_inv: bool,
    late: bool,
}

fn step(d: &mut dyn Dut, i: &Ins) -> Outs {
    let c = i.iv.unwrap_or_default();
    let b = i.bad.unwrap_or_default();
    for (n, v) in [
        ("rst", i.rst as u128),
        ("s_iv_valid", i.iv.is_some() as u128),
        ("s_iv_kind", c.kind as u128),
        ("s_iv_mr", c.mr as u128),
        ("s_iv_tag", c.tag as u128),
        ("s_iv_va_lo", c.va_lo as u128),
        ("s_iv_va_hi", c.va_hi as u128),
        ("s_iv_off_lo", (c.va_lo >> 1) as u128),
        ("s_iv_off_hi", (c.va_hi >> 1) as u128),
        ("m_inv_ready", i.inv_ready as u128),
        ("m_inv_done", i.inv_done as u128),
        ("ok_valid", i.ok.is_some() as u128),
        ("ok_epoch", i.ok.unwrap_or(0) as u128),
        ("s_done_valid", i.done.is_some() as u128),
        ("s_done_epoch", i.done.unwrap_or(0) as u128),
        ("bad_valid", i.bad.is_some() as u128),
        ("bad_op", b.0 as u128),
        ("bad_tag", b.1 as u128),
        ("bad_code", b.2 as u128),
        ("bad_arg0", b.3 as u128),
        ("m_ev_ready", i.ev_ready as u128),
    ] {
        d.set(n, v);
    }
    d.settle();
    let o = Outs {
        epoch: d.get("epoch") as u8,
        full: d.is("full"),
        iv_ready: d.is("s_iv_ready"),
        inv_valid: d.is("m_inv_valid"),
        inv_kind: d.get("m_inv_kind") as u8,
        ev: d.is("m_ev_valid").then(|| {
            [
                d.get("m_ev_w0") as u64,
                d.get("m_ev_w1") as u64,
                d.get("m_ev_w2") as u64,
            ]
        }),
        issued: d.get("issued") as u32,
        completed: d.get("completed") as u32,
        in_progress: d.get("in_progress") as u8,
        err_done: d.is("err_done"),
        err_overflow: d.is("err_overflow"),
        cnt_inv: d.is("cnt_inv"),
        late: d.is("mon_late_ok"),
    };
    if o.inv_valid {
        // The TLB port carries the command's range and offsets as given.
        assert_eq!(d.get("m_inv_va_lo") as u64, c.va_lo);
        assert_eq!(d.get("m_inv_va_hi") as u64, c.va_hi);
        assert_eq!(d.get("m_inv_off_lo") as u64, c.va_lo >> 1);
        assert_eq!(d.get("m_inv_off_hi") as u64, c.va_hi >> 1);
        assert_eq!(d.get("m_inv_mr") as u8, c.mr);
    }
    d.tick();
    o
}

/// `ODP_TRACE=from-to` prints every clock of that range.
fn trace(clock: u64) -> bool {
    std::env::var("ODP_TRACE").ok().is_some_and(|r| {
        let (a, b) = r.split_once('-').unwrap_or((&r, &r));
        (a.parse().unwrap_or(u64::MAX)..=b.parse().unwrap_or(0)).contains(&clock)
    })
}

/// An entry the reference tracks: its command, the absolute epoch its
/// epoch change leads to, whether its TLB sweep is over.
#[derive(Clone, Copy, Debug)]
struct Entry {
    cmd: Cmd,
    target: u64,
    swept: bool,
}

/// The TLB kind an `IV_*` kind becomes.
fn tlb_kind(kind: u64) -> u8 {
    match kind {
        IV_RANGE => 2,
        IV_MR => 1,
        _ => 0,
    }
}

/// The event word 0 of a done entry.
fn done_w0(c: &Cmd) -> u64 {
    if c.kind == IV_SUSPEND {
        event::MR_SUSPENDED | (c.mr as u64) << 16
    } else {
        event::INV_DONE | (c.mr as u64) << 16 | (c.tag as u64) << 32
    }
}

/// The bench: the unit's environment and the guarantee's reference.
struct Bench<D: Dut> {
    dut: D,
    clock: u64,
    /// Absolute epoch (the unit counts modulo 16).
    epoch_abs: u64,
    last_epoch: u8,
    /// The epoch shown in each of the last clocks (newest last), for OK
    /// decisions stamped up to six clocks back.
    history: VecDeque<u64>,
    /// OK responses outstanding: (absolute epoch, clock it is returned).
    outstanding: Vec<(u64, u64)>,
    /// Entries accepted, oldest first.
    entries: VecDeque<Entry>,
    /// The sweep running: clock its done pulse is due.
    sweep_due: Option<u64>,
    /// A take one and two clocks ago: the epoch changes two clocks after.
    took: [bool; 2],
    ev_monitor: StreamMonitor<[u64; 3]>,
    /// Refused commands not yet seen as error events.
    bad_pulses: VecDeque<[u64; 2]>,
    /// The last error event said more followed (merged, never posted).
    may_skip: bool,
    /// `err_done` expected at these clocks.
    err_due: VecDeque<u64>,
    /// Done events handed over since the last reset.
    handed: u32,
    // coverage
    taken: u64,
    events: u64,
    suspends: u64,
    waited_for_dma: u64,
    err_events: u64,
    merged_errors: u64,
    bad_dones: u64,
    full_clocks: u64,
    resets: u64,
}

impl<D: Dut> Bench<D> {
    fn new(dut: D) -> Self {
        Self {
            dut,
            clock: 0,
            epoch_abs: 0,
            last_epoch: 0,
            history: VecDeque::new(),
            outstanding: Vec::new(),
            entries: VecDeque::new(),
            sweep_due: None,
            took: [false; 2],
            ev_monitor: StreamMonitor::new("m_ev"),
            bad_pulses: VecDeque::new(),
            may_skip: false,
            err_due: VecDeque::new(),
            handed: 0,
            taken: 0,
            events: 0,
            suspends: 0,
            waited_for_dma: 0,
            err_events: 0,
            merged_errors: 0,
            bad_dones: 0,
            full_clocks: 0,
            resets: 0,
        }
    }

    /// The epoch `back` clocks ago (0: the current one), absolute.
    fn epoch_back(&self, back: usize) -> u64 {
        let n = self.history.len();
        if back < n {
            self.history[n - 1 - back]
        } else {
            self.history.front().copied().unwrap_or(self.epoch_abs)
        }
    }

    /// Whether an OK of epoch `e` mod 16 is outstanding (the unit's count
    /// of it is not zero).
    fn outstanding_mod(&self, e: u8) -> bool {
        self.outstanding.iter().any(|&(a, _)| a % 16 == e as u64)
    }

    /// One clock: adds the environment's inputs to `i` (the TLB's done
    /// pulse, a DMA return), steps the unit and checks its outputs.
    fn step(&mut self, i: &mut Ins) -> Outs {
        let clock = self.clock;
        if i.rst {
            self.sweep_due = None;
        }
        i.inv_done = self.sweep_due == Some(clock);
        if i.done.is_none() {
            if let Some(k) = self.outstanding.iter().position(|&(_, due)| due <= clock) {
                let (e, _) = self.outstanding.swap_remove(k);
                i.done = Some((e % 16) as u8);
            }
        }
        let o = step(&mut self.dut, i);
        if trace(clock) {
            println!("{clock}: {i:x?}\n    -> {o:x?}");
        }
        // The epoch changes only two clocks after a take, by one.
        if self.took[1] {
            assert_eq!(
                o.epoch,
                (self.last_epoch + 1) % 16,
                "clock {clock}: epoch change"
            );
            self.epoch_abs += 1;
        } else {
            assert_eq!(
                o.epoch, self.last_epoch,
                "clock {clock}: epoch changed without a take"
            );
        }
        self.last_epoch = o.epoch;
        self.history.push_back(self.epoch_abs);
        if self.history.len() > 8 {
            self.history.pop_front();
        }
        assert!(
            !o.late,
            "clock {clock}: an OK was counted in a drained epoch"
        );
        assert!(!o.err_overflow, "clock {clock}: count overflow");
        let want_err = self.err_due.front() == Some(&clock);
        if want_err {
            self.err_due.pop_front();
        }
        assert_eq!(o.err_done, want_err, "clock {clock}: err_done");
        // Counters: `completed` counts entries whose event entered the
        // event register; `in_progress` is the difference.
        let in_reg = o.ev.is_some_and(|w| w[0] & 0xff != event::ERROR);
        assert_eq!(
            o.completed,
            self.handed + in_reg as u32,
            "clock {clock}: completed"
        );
        assert_eq!(
            o.in_progress as u32,
            o.issued.wrapping_sub(o.completed),
            "clock {clock}: in progress"
        );
        assert_eq!(
            o.issued,
            self.handed + in_reg as u32 + self.entries.len() as u32
                - (self.took[0] as u32)
                - (in_reg as u32),
            "clock {clock}: issued"
        );
        assert_eq!(
            o.full,
            o.in_progress >= 8 || (o.in_progress == 7 && self.took[0])
        );
        self.full_clocks += o.full as u64;
        if let Some(c) = i.iv {
            if o.inv_valid {
                assert_eq!(o.inv_kind, tlb_kind(c.kind));
                assert_ne!(c.kind, IV_SUSPEND, "a suspend never reaches the TLB");
                assert_eq!(
                    o.iv_ready, i.inv_ready,
                    "clock {clock}: both handshakes at one edge"
                );
            } else {
                assert!(c.kind == IV_SUSPEND || !o.iv_ready);
            }
        } else {
            assert!(!o.inv_valid);
        }
        // The guarantee, from the first clock an entry's event is offered:
        // every OK stamped before its epoch change is back, and its sweep is
        // over.
        if in_reg {
            let e = self
                .entries
                .front()
                .expect("a done event with nothing in progress");
            assert!(e.swept, "clock {clock}: done before the TLB sweep ended");
            let early = self
                .outstanding
                .iter()
                .filter(|&&(a, _)| a < e.target)
                .count();
            assert_eq!(
                early, 0,
                "clock {clock}: done with {early} older OK responses out"
            );
            assert_eq!(
                o.ev.unwrap(),
                [done_w0(&e.cmd), 0, 0],
                "clock {clock}: done event"
            );
        }
        let payload = o.ev.unwrap_or_default();
        if let Some(w) = self
            .ev_monitor
            .observe(clock, o.ev.is_some(), i.ev_ready, payload)
        {
            if w[0] & 0xff == event::ERROR {
                // The first refused command of a pending group is posted;
                // the ones merged behind it (word 2 bit 0) never are.
                loop {
                    let want = self.bad_pulses.pop_front().unwrap_or_else(|| {
                        panic!("clock {clock}: an error event no refused command explains")
                    });
                    if want == [w[0], w[1]] {
                        break;
                    }
                    assert!(
                        self.may_skip,
                        "clock {clock}: a refused command's event was lost"
                    );
                }
                assert!(w[2] <= 1);
                self.may_skip = w[2] == 1;
                self.err_events += 1;
                self.merged_errors += w[2];
            } else {
                self.entries.pop_front();
                self.handed += 1;
                self.events += 1;
                self.suspends += (w[0] & 0xff == event::MR_SUSPENDED) as u64;
            }
        }
        if i.inv_done {
            self.sweep_due = None;
            for e in self.entries.iter_mut() {
                e.swept = true;
            }
        }
        self.took = [false, self.took[0]];
        if let (Some(c), true) = (i.iv, o.iv_ready && !i.rst) {
            self.took[0] = true;
            self.taken += 1;
            let swept = c.kind == IV_SUSPEND;
            self.entries.push_back(Entry {
                cmd: c,
                target: self.epoch_abs + 1,
                swept,
            });
            if !swept {
                self.sweep_due = Some(clock + 2 + (c.mr as u64 % 9) * 7);
            }
            self.waited_for_dma += !self.outstanding.is_empty() as u64;
        }
        if i.rst {
            self.resets += (clock >= 2) as u64;
            self.entries.clear();
            self.outstanding.clear();
            self.bad_pulses.clear();
            self.may_skip = false;
            self.err_due.clear();
            self.handed = 0;
            self.epoch_abs += (16 - self.epoch_abs % 16) % 16;
            self.last_epoch = 0;
            self.history.clear();
            self.took = [false; 2];
            self.ev_monitor = StreamMonitor::new("m_ev");
        }
        self.clock += 1;
        o
    }
}

/// The random environment: commands, OK decisions, DMA delays, event
/// backpressure, refused commands, bad completions and resets.
struct Driver {
    rng: StdRng,
    offer: Option<Cmd>,
    /// 1 in `cmd_odds` clocks a new command is drawn.
    cmd_odds: u32,
    /// OK decisions per clock, in 1/256.
    ok_rate: u32,
    /// Largest DMA return delay.
    max_delay: u64,
    ev_ready_odds: (u32, u32),
    rst_odds: u32,
    bad_odds: u32,
}

impl Driver {
    fn clock<D: Dut>(&mut self, b: &mut Bench<D>) -> Outs {
        let rng = &mut self.rng;
        let rst = b.clock < 2 || (self.rst_odds > 0 && rng.gen_ratio(1, self.rst_odds));
        if self.offer.is_none() && rng.gen_ratio(1, self.cmd_odds) {
            let kind = rng.gen_range(0..4);
            let va_lo: u64 = rng.gen();
            self.offer = Some(Cmd {
                kind,
                mr: rng.gen(),
                tag: rng.gen(),
                va_lo,
                va_hi: va_lo.wrapping_add(rng.gen_range(1..1 << 20)),
            });
        }
        let mut i = Ins {
            rst,
            iv: self.offer,
            inv_ready: b.sweep_due.is_none() && rng.gen_ratio(3, 4),
            ev_ready: rng.gen_ratio(self.ev_ready_odds.0, self.ev_ready_odds.1),
            ..Ins::default()
        };
        if rng.gen_range(0..256) < self.ok_rate {
            // A decision stamped between zero and six clocks ago.
            let e = b.epoch_back(rng.gen_range(0..=6));
            i.ok = Some((e % 16) as u8);
            let delay = rng.gen_range(0..=self.max_delay);
            b.outstanding.push((e, b.clock + 2 + delay));
        }
        if self.bad_odds > 0 && rng.gen_ratio(1, self.bad_odds) {
            let bad = (rng.gen(), rng.gen(), rng.gen_range(1..11), rng.gen());
            i.bad = Some(bad);
        }
        // Now and then a bad s_done: an epoch with nothing outstanding (the
        // unit's count of it is zero) or with bits 7:4 set.
        if rng.gen_ratio(1, 500) {
            let e: u8 = if rng.gen() {
                rng.gen_range(16..=255)
            } else {
                rng.gen_range(0..16)
            };
            if e >= 16 || (!b.outstanding_mod(e) && i.ok != Some(e)) {
                i.done = Some(e);
                if !rst {
                    // Two bad pulses due in one clock are one err_done.
                    let due = b.clock + if e >= 16 { 1 } else { 2 };
                    if b.err_due.back() != Some(&due) {
                        b.err_due.push_back(due);
                    }
                    b.bad_dones += 1;
                }
            }
        }
        let o = b.step(&mut i);
        if !rst {
            if let Some(bad) = i.bad {
                b.bad_pulses.push_back([
                    event::ERROR | (bad.2 as u64) << 8 | (bad.3 as u64) << 16,
                    bad.0 as u64 | (bad.1 as u64) << 8,
                ]);
            }
        }
        if i.iv.is_some() && (o.iv_ready || rst) {
            self.offer = None;
        }
        o
    }
}

impl Driver {
    fn random(seed: u64) -> Self {
        Self {
            rng: StdRng::seed_from_u64(seed),
            offer: None,
            cmd_odds: 40,
            ok_rate: 96,
            max_delay: 300,
            ev_ready_odds: (1, 2),
            rst_odds: 0,
            bad_odds: 400,
        }
    }

    /// Random phases: bursts of commands, DMA tails up to 10,000 clocks,
    /// a stalled event ring, idle spells.
    fn new_phase(&mut self) {
        let r = &mut self.rng;
        self.cmd_odds = [3, 20, 100, 1000][r.gen_range(0..4)];
        self.ok_rate = [0, 16, 96, 255][r.gen_range(0..4)];
        self.max_delay = [4, 300, 2_000, 10_000][r.gen_range(0..4)];
        self.ev_ready_odds = [(1, 1), (1, 2), (1, 20)][r.gen_range(0..3)];
        self.bad_odds = [50, 400, 5000][r.gen_range(0..3)];
    }
}

/// Runs random phases for `clocks` (more if a coverage bin is short), then
/// drains: no new work, the ring ready, every entry must finish.
fn random_run(dut: impl Dut, clocks: u64, seed: u64, phase: u64) {
    println!("seed {seed}");
    let mut b = Bench::new(dut);
    let mut d = Driver::random(seed);
    while !harness::done(b.clock, clocks, clocks * 10, || {
        vec![
            ("entries taken", b.taken, 50),
            ("done events", b.events, 40),
            ("MR suspended events", b.suspends, 5),
            ("entries that waited for DMA", b.waited_for_dma, 10),
            ("error events", b.err_events, 5),
            ("error events with merged errors", b.merged_errors, 1),
            ("bad s_done", b.bad_dones, 3),
            ("clocks full", b.full_clocks, 10),
            ("resets", b.resets, 2),
        ]
    }) {
        if b.clock.is_multiple_of(phase) {
            d.new_phase();
            d.rst_odds = if d.rng.gen_ratio(1, 3) { 500 } else { 0 };
        }
        d.clock(&mut b);
    }
    // Drain: DMA returns within its delays, the ring always ready.
    (
        d.cmd_odds,
        d.ok_rate,
        d.ev_ready_odds,
        d.rst_odds,
        d.bad_odds,
    ) = (u32::MAX, 0, (1, 1), 0, 0);
    let start = b.clock;
    while !(b.entries.is_empty() && b.outstanding.is_empty() && d.offer.is_none()) {
        assert!(
            b.clock - start < 40_000,
            "entries never finished: {:?}, {} OK responses out",
            b.entries,
            b.outstanding.len()
        );
        d.clock(&mut b);
    }
    for _ in 0..40 {
        let o = d.clock(&mut b);
        assert!(o.ev.is_none() && o.in_progress == 0);
    }
    println!(
        "{} clocks: {} entries, {} done events ({} MR suspended), {} waited for DMA, {} error \
         events ({} with merged errors), {} bad s_done, {} clocks full, {} resets",
        b.clock,
        b.taken,
        b.events,
        b.suspends,
        b.waited_for_dma,
        b.err_events,
        b.merged_errors,
        b.bad_dones,
        b.full_clocks,
        b.resets
    );
}

#[test]
fn inval_unit_random_matches_the_drain_guarantee_on_verilog() {
    random_run(ver(), 300_000, seed(), 5_000);
}

#[test]
fn inval_unit_random_lockstep_matches_verilog() {
    random_run(lockstep(), 4_000, seed(), 400);
}

#[test]
fn inval_unit_is_synthesizable() {
    harness::checks::assert_synthesizable(&verilog(), "inval_unit");
}

/// Steps `b` with `i` until `until(outs)` or `n` clocks; returns the clocks
/// taken (the clock where it held counted) and the outputs.
fn run_until<D: Dut>(
    b: &mut Bench<D>,
    i: Ins,
    n: u64,
    until: impl Fn(&Outs) -> bool,
) -> (u64, Outs) {
    for k in 1..=n {
        let mut x = i;
        let o = b.step(&mut x);
        if until(&o) {
            return (k, o);
        }
    }
    panic!("not reached within {n} clocks");
}

fn reset<D: Dut>(b: &mut Bench<D>) {
    for _ in 0..2 {
        b.step(&mut Ins {
            rst: true,
            ..Ins::default()
        });
    }
}

fn cmd(kind: u64, mr: u8, tag: u8) -> Cmd {
    Cmd {
        kind,
        mr,
        tag,
        va_lo: 0x1000,
        va_hi: 0x3000,
    }
}

/// Offers `c` until taken (the TLB ready); returns the clocks it took.
fn offer<D: Dut>(b: &mut Bench<D>, c: Cmd) -> u64 {
    let i = Ins {
        iv: Some(c),
        inv_ready: true,
        ev_ready: true,
        ..Ins::default()
    };
    run_until(b, i, 100, |o| o.iv_ready).0
}

fn idle() -> Ins {
    Ins {
        inv_ready: true,
        ev_ready: true,
        ..Ins::default()
    }
}

#[test]
fn inval_unit_idle_invalidation_is_done_after_its_sweep_and_the_settle_time() {
    let mut b = Bench::new(ver());
    reset(&mut b);
    assert_eq!(offer(&mut b, cmd(IV_RANGE, 3, 0x42)), 1, "taken at once");
    // The bench's TLB sweep of MR 3 ends 2 + 3 * 7 clocks after the take;
    // the settle time is shorter, so the sweep decides.
    let (k, o) = run_until(&mut b, idle(), 200, |o| o.ev.is_some());
    assert_eq!(
        o.ev.unwrap(),
        [event::INV_DONE | 3 << 16 | 0x42 << 32, 0, 0]
    );
    assert_eq!(k, 2 + 3 * 7 + 2, "two clocks after the sweep's done pulse");
    // A suspend: no sweep; the settle time decides.
    assert_eq!(offer(&mut b, cmd(IV_SUSPEND, 5, 0)), 1);
    let (k, o) = run_until(&mut b, idle(), 200, |o| o.ev.is_some());
    assert_eq!(o.ev.unwrap(), [event::MR_SUSPENDED | 5 << 16, 0, 0]);
    println!("suspend, idle: event {k} clocks after the take");
    assert_eq!(k, SETTLE_CLOCKS + 4);
}

#[test]
fn inval_unit_waits_for_every_older_ok_response_and_not_for_newer_ones() {
    let mut b = Bench::new(ver());
    reset(&mut b);
    // Three OKs in epoch 0, returned at clocks far apart.
    let e0 = b.epoch_abs;
    for delay in [500u64, 1_000, 1_500] {
        let mut i = idle();
        i.ok = Some((e0 % 16) as u8);
        b.outstanding.push((e0, b.clock + delay));
        b.step(&mut i);
    }
    assert_eq!(offer(&mut b, cmd(IV_SUSPEND, 1, 0)), 1);
    // OKs of the new epoch, never returned in this test: they must not
    // hold the event back.
    for _ in 0..20 {
        let mut i = idle();
        i.ok = Some(((e0 + 1) % 16) as u8);
        b.outstanding.push((e0 + 1, u64::MAX));
        b.step(&mut i);
    }
    let start = b.clock;
    let (_, o) = run_until(&mut b, idle(), 3_000, |o| o.ev.is_some());
    assert_eq!(o.ev.unwrap()[0] & 0xff, event::MR_SUSPENDED);
    let waited = b.clock - start;
    assert!(
        (1_450..1_500).contains(&waited),
        "event after the last older return: {waited}"
    );
    assert_eq!(b.outstanding.len(), 20, "the newer OKs are still out");
}

#[test]
fn inval_unit_takes_eight_and_refuses_a_ninth_until_one_is_done() {
    let mut b = Bench::new(ver());
    reset(&mut b);
    // An OK of epoch 0 outstanding holds every entry.
    let mut i = idle();
    i.ok = Some(0);
    b.outstanding.push((0, 400));
    b.step(&mut i);
    for k in 0..8 {
        offer(&mut b, cmd(IV_SUSPEND, k, k));
    }
    b.step(&mut idle());
    let o = b.step(&mut idle());
    assert!(o.full && o.in_progress == 8);
    let mut i = idle();
    i.iv = Some(cmd(IV_SUSPEND, 9, 9));
    for _ in 0..100 {
        let mut x = i;
        let o = b.step(&mut x);
        assert!(!o.iv_ready, "no room: the ninth waits");
    }
    // Once the OK is back the eight finish, in order, and the ninth goes.
    let (_, o) = run_until(&mut b, i, 1_000, |o| o.iv_ready);
    assert!(!o.full);
    let mut order = Vec::new();
    for _ in 0..200 {
        let o = b.step(&mut idle());
        if let Some(w) = o.ev {
            order.push((w[0] >> 16) as u8);
        }
    }
    assert!(b.entries.is_empty());
    assert_eq!(b.events, 9);
    let _ = order;
}

#[test]
fn inval_unit_holds_events_while_the_ring_is_full_and_keeps_their_order() {
    let mut b = Bench::new(ver());
    reset(&mut b);
    for k in 0..4 {
        offer(
            &mut b,
            cmd(
                [IV_RANGE, IV_MR, IV_ALL, IV_SUSPEND][k as usize],
                k,
                0x10 + k,
            ),
        );
        for _ in 0..80 {
            b.step(&mut idle());
        }
    }
    assert_eq!(b.events, 4);
    let mut stalled = idle();
    stalled.ev_ready = false;
    for k in 0..3 {
        offer(&mut b, cmd(IV_SUSPEND, 20 + k, 0));
    }
    for _ in 0..200 {
        let o = b.step(&mut stalled);
        assert!(
            o.in_progress >= 2,
            "done entries wait behind the held event"
        );
    }
    assert_eq!(b.events, 4);
    for _ in 0..20 {
        b.step(&mut idle());
    }
    assert_eq!(b.events, 7, "the bench checked their order and words");
}

#[test]
fn inval_unit_flags_bad_completions_and_posts_error_events() {
    let mut b = Bench::new(ver());
    reset(&mut b);
    // s_done of an epoch with nothing outstanding, and one with bits 7:4.
    let mut i = idle();
    i.done = Some(3);
    b.err_due.push_back(b.clock + 2);
    b.step(&mut i);
    for _ in 0..3 {
        b.step(&mut idle());
    }
    let mut i = idle();
    i.done = Some(0x13);
    b.err_due.push_back(b.clock + 1);
    b.step(&mut i);
    for _ in 0..4 {
        b.step(&mut idle());
    }
    assert!(b.err_due.is_empty());
    // Three refused commands back to back with the ring stalled: the
    // first goes to the event register, the second waits, the third is
    // merged into it ("more followed").
    let mut stalled = idle();
    stalled.ev_ready = false;
    for (k, code) in [(0u8, 3u8), (1, 9), (2, 4)] {
        let mut i = stalled;
        i.bad = Some((0x05, 0x70 + k, code, 0x1234));
        b.step(&mut i);
        b.bad_pulses.push_back([
            event::ERROR | (code as u64) << 8 | 0x1234 << 16,
            0x05 | (0x70 + k as u64) << 8,
        ]);
    }
    for _ in 0..5 {
        let o = b.step(&mut stalled);
        assert_eq!(o.ev.unwrap()[2], 0, "the first: nothing merged");
    }
    for _ in 0..5 {
        b.step(&mut idle());
    }
    assert_eq!((b.err_events, b.merged_errors), (2, 1));
    assert_eq!(b.bad_pulses.len(), 1, "the merged one is never posted");
}
