//! The event-ring writer (`EventRing`) against its reference model.
//!
//! A scoreboard runs the plain-Rust reference (`odp_mmu_workshop::models::events_ref`)
//! on every record the block takes and checks, in order, every AW and W
//! handshake (address, ID, burst shape, each beat's data, strobes and
//! `wlast`), every completion on `m_done`, and every clock the registered
//! outputs (`eq_prod`, `occupancy`, `irq`, `err_*`) against the indices of
//! the clock before. The AXI side is the host-memory model with random
//! latency, backpressure on AW, W and B and injected error responses, and
//! the `AxiMonitor` checks the protocol every clock. A driver model consumes
//! the ring by owner bit, as the driver does, and checks every record's
//! content and order exactly. Directed tests name each rule; the random
//! runs go on the Verilated Verilog (long) and on the rust-hdl model in
//! lockstep with its Verilog (short).

use odp_mmu_workshop::harness;

use std::sync::LazyLock;

use harness::dut::{AxiPorts, Dut, Locked};
use harness::lockstep::Lockstep;
use harness::seed;
use harness::verilated::Verilated;
use odp_mmu::fault::events::{EventRing, AW_LATENCY_CLOCKS, MAX_OUTSTANDING};
use odp_mmu::fault::*;
use odp_mmu::spec::op;
use odp_mmu_workshop::models::events_ref::{
    has_room, is_new, owner, size_legal, slot_addr, EventRingRef, Record,
};
use odp_mmu_workshop::models::host_memory::{
    AxiMonitor, HostMemory, MasterOut, MemConfig, SlaveOut, RESP_DECERR, RESP_SLVERR,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

fn verilog() -> String {
    let mut uut = EventRing::new();
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, "event_ring")
}

/// One clock's inputs (the AXI slave side comes from the memory model).
#[derive(Clone, Copy, Debug, Default)]
struct Ins {
    rst: bool,
    base: u64,
    log2: u8,
    cons: u32,
    irq_en: bool,
    ring_reset: bool,
    ev: Option<Record>,
    s: SlaveOut,
}

/// One clock's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Outs {
    ready: bool,
    s_ev_ready: bool,
    eq_prod: u32,
    occupancy: u32,
    irq: bool,
    err_write: bool,
    err_cons: bool,
    err_size: bool,
    done: Option<bool>,
    m: MasterOut,
}

odp_mmu_workshop::port_map!(RingPorts for EventRing {
    clock: clock,
    inputs: [rst, eq_base, eq_log2_size, eq_cons, irq_en, ring_reset, s_ev_valid, s_ev_w0, s_ev_w1, s_ev_w2, s_ev_w3],
    outputs: [ready, eq_prod, occupancy, irq, err_write, err_cons, err_size, s_ev_ready, m_done_valid, m_done_err],
    bundles: [m_axi],
});

/// The ring's AXI4 write master.
static AXI: LazyLock<AxiPorts> = LazyLock::new(|| AxiPorts::write_only("m_axi"));

/// The Verilated Verilog.
fn ver() -> Verilated {
    Verilated::of_block(&mut EventRing::new(), "event_ring")
}

/// The rust-hdl model in lockstep with its Verilog.
fn lockstep() -> Locked<RingPorts> {
    Lockstep::of::<RingPorts>(EventRing::new(), "event_ring")
}

/// Drives one clock's inputs.
fn drive(d: &mut dyn Dut, i: &Ins) {
    let r = i.ev.unwrap_or_default();
    for (n, v) in [
        ("rst", i.rst as u128),
        ("eq_base", i.base as u128),
        ("eq_log2_size", i.log2 as u128),
        ("eq_cons", i.cons as u128),
        ("irq_en", i.irq_en as u128),
        ("ring_reset", i.ring_reset as u128),
        ("s_ev_valid", i.ev.is_some() as u128),
        ("s_ev_w0", r.w[0] as u128),
        ("s_ev_w1", r.w[1] as u128),
        ("s_ev_w2", r.w[2] as u128),
        ("s_ev_w3", r.w3_in() as u128),
    ] {
        d.set(n, v);
    }
    AXI.drive(d, &i.s);
}

/// Reads one clock's settled outputs.
fn read(d: &mut dyn Dut) -> Outs {
    Outs {
        ready: d.is("ready"),
        s_ev_ready: d.is("s_ev_ready"),
        eq_prod: d.get("eq_prod") as u32,
        occupancy: d.get("occupancy") as u32,
        irq: d.is("irq"),
        err_write: d.is("err_write"),
        err_cons: d.is("err_cons"),
        err_size: d.is("err_size"),
        done: d.is("m_done_valid").then(|| d.is("m_done_err")),
        m: AXI.master_out(d),
    }
}

/// What the bench saw, for assertions and coverage.
#[derive(Clone, Debug, Default)]
struct Seen {
    takes: u64,
    /// Clocks a record was taken in.
    take_clocks: Vec<u64>,
    /// Clocks AW was valid for the first time after being idle.
    aw_rise: Vec<u64>,
    aw_count: u64,
    w_count: u64,
    b_count: u64,
    done: u64,
    done_err: u64,
    err_write: u64,
    err_cons: u64,
    err_size: u64,
    /// Records taken at the start of a lap after the first.
    wraps: u64,
    /// Clocks a record was offered and the ring had no room.
    full_clocks: u64,
    full_episodes: u64,
    max_outstanding: usize,
    clocks_at_max: u64,
    /// W beats handshaken before their burst's AW.
    w_ahead: u64,
    /// AW handshakes while an earlier burst's W beats were still due.
    aw_ahead: u64,
    resets: u64,
    resets_in_flight: u64,
    ring_resets: u64,
    irq_clocks: u64,
}

/// The scoreboard around a DUT.
struct Bench<D: Dut> {
    dut: D,
    mem: HostMemory,
    mon: AxiMonitor,
    r: EventRingRef,
    clock: u64,
    /// Inputs and outputs of the previous clock (registered outputs are
    /// checked against them).
    prev: Option<(Ins, Outs, u32)>,
    prev_aw_valid: bool,
    was_full: bool,
    /// rst seen and `ready` not yet back.
    draining: bool,
    seen: Seen,
}

impl<D: Dut> Bench<D> {
    fn new(dut: D, cfg: MemConfig) -> Self {
        let mut mem = HostMemory::new(cfg);
        mem.logging = false;
        Self {
            dut,
            mem,
            mon: AxiMonitor::new(),
            r: EventRingRef::new(),
            clock: 0,
            prev: None,
            prev_aw_valid: false,
            was_full: false,
            draining: true,
            seen: Seen::default(),
        }
    }

    /// One clock with inputs `i` (its slave side replaced by the memory's).
    fn step(&mut self, i: &Ins) -> Outs {
        let c = self.clock;
        let s = self.mem.outputs();
        let i = Ins { s, ..*i };
        drive(&mut self.dut, &i);
        self.dut.settle();
        let o = read(&mut self.dut);
        self.mon.check(&o.m, &s);
        if self.r.zero_pending && o.eq_prod == 0 {
            self.r.zero();
        }
        let written_now = self.r.written;
        // Registered outputs: the clock before's indices and inputs.
        if let Some((pi, po, pw)) = self.prev {
            assert_eq!(
                o.occupancy,
                po.eq_prod.wrapping_sub(pi.cons),
                "clock {c}: occupancy"
            );
            assert_eq!(
                o.irq,
                pi.irq_en && pw != pi.cons,
                "clock {c}: irq (irq_en {}, written {pw}, cons {})",
                pi.irq_en,
                pi.cons
            );
        }
        if !self.r.zero_pending {
            assert_eq!(o.eq_prod, self.r.prod, "clock {c}: eq_prod");
        }
        if !o.ready {
            assert!(!o.s_ev_ready, "clock {c}: s_ev_ready while not ready");
        }
        if self.draining && o.ready {
            assert_eq!(
                self.r.outstanding(),
                0,
                "clock {c}: ready again with bursts in flight"
            );
            self.draining = false;
        }
        if i.rst {
            assert!(!o.s_ev_ready, "clock {c}: s_ev_ready during rst");
        }
        // Pulses.
        assert_eq!(
            o.err_write,
            o.done == Some(true),
            "clock {c}: err_write with m_done_err"
        );
        if let Some(err) = o.done {
            self.r
                .done(err)
                .unwrap_or_else(|e| panic!("clock {c}: {e}"));
            self.seen.done += 1;
            self.seen.done_err += err as u64;
        }
        self.seen.err_write += o.err_write as u64;
        self.seen.err_cons += o.err_cons as u64;
        self.seen.err_size += o.err_size as u64;
        self.seen.irq_clocks += o.irq as u64;
        // AXI handshakes of this edge, against the reference.
        if o.m.aw.is_some() && !self.prev_aw_valid {
            self.seen.aw_rise.push(c);
        }
        self.prev_aw_valid = o.m.aw.is_some();
        assert!(o.m.bready, "clock {c}: bready low");
        if let (Some(aw), true) = (o.m.aw, s.awready) {
            assert_eq!(
                (aw.id as u64, aw.len, aw.size, aw.burst),
                (EVENT_AXI_ID, 3, 3, 1),
                "clock {c}: AW id / len / size / burst"
            );
            if let Some(a) = self.r.aw_due.front() {
                if self.r.w_due.iter().any(|w| w.index == a.index) {
                    self.seen.aw_ahead += 1;
                }
            }
            self.r
                .aw(aw.addr)
                .unwrap_or_else(|e| panic!("clock {c}: {e}"));
            self.seen.aw_count += 1;
        }
        if let (Some(w), true) = (o.m.w, s.wready) {
            if let Some(front) = self.r.w_due.front() {
                if self.r.aw_due.iter().any(|a| a.index == front.index) {
                    self.seen.w_ahead += 1;
                }
            }
            self.r
                .w(w.data, w.strb, w.last)
                .unwrap_or_else(|e| panic!("clock {c}: {e}"));
            self.seen.w_count += 1;
        }
        if let (Some(b), true) = (s.b, o.m.bready) {
            self.r
                .b(b.resp)
                .unwrap_or_else(|e| panic!("clock {c}: {e}"));
            self.seen.b_count += 1;
        }
        // The record stream, with the configuration the block sampled (the
        // clock before's).
        let (cbase, clog2, ccons) = self
            .prev
            .map_or((0, 0, 0), |(pi, _, _)| (pi.base, pi.log2, pi.cons));
        if i.ev.is_some() && o.ready && size_legal(clog2 as u32) {
            let room = has_room(
                if self.r.zero_pending { 0 } else { self.r.prod },
                i.cons,
                clog2 as u32,
            );
            if !room {
                self.seen.full_clocks += 1;
                if !self.was_full {
                    self.seen.full_episodes += 1;
                }
            }
            self.was_full = !room;
        }
        if let (Some(rec), true) = (i.ev, o.s_ev_ready) {
            assert!(
                size_legal(clog2 as u32),
                "clock {c}: record taken with EQ_LOG2_SIZE {clog2}"
            );
            let p = if self.r.zero_pending { 0 } else { self.r.prod };
            // The block sees EQ_CONS a clock late: room against that value
            // (the driver's index only grows, so it is room now too).
            assert!(
                has_room(p, ccons, clog2 as u32),
                "clock {c}: record {p} taken into a full ring (cons {ccons})"
            );
            if p > 0 && (p & ((1 << clog2) - 1)) == 0 {
                self.seen.wraps += 1;
            }
            self.r.take(&rec, cbase, clog2 as u32);
            self.seen.takes += 1;
            self.seen.take_clocks.push(c);
        }
        let out = self.r.outstanding();
        if out > self.seen.max_outstanding {
            self.seen.max_outstanding = out;
            self.seen.clocks_at_max = 0;
        }
        if out == self.seen.max_outstanding {
            self.seen.clocks_at_max += 1;
        }
        assert!(out <= MAX_OUTSTANDING, "clock {c}: {out} bursts in flight");
        if i.ring_reset {
            self.r.reset_indices();
            self.seen.ring_resets += 1;
        }
        if i.rst {
            self.r.reset_indices();
            self.seen.resets += 1;
            self.seen.resets_in_flight += (out > 0) as u64;
            self.draining = true;
        }
        self.prev = Some((i, o, written_now));
        self.mem.edge(&o.m);
        self.dut.tick();
        self.clock += 1;
        o
    }
}

/// The driver's side of the ring: consumes by owner bit and checks every
/// record against the reference's log.
struct Driver {
    base: u64,
    log2: u8,
    cons: u32,
    irq_en: bool,
    consumed: u64,
    skipped: u64,
    /// Slots whose last write failed: their content is stale and can look
    /// new; the driver waits for the record's B before reading them.
    poisoned: Vec<bool>,
}

impl Driver {
    fn new(base: u64, log2: u8) -> Self {
        Self {
            base,
            log2,
            cons: 0,
            irq_en: true,
            consumed: 0,
            skipped: 0,
            poisoned: vec![false; 1 << log2],
        }
    }

    fn ins(&self) -> Ins {
        Ins {
            base: self.base,
            log2: self.log2,
            cons: self.cons,
            irq_en: self.irq_en,
            ..Ins::default()
        }
    }

    /// Consumes at most `max` records that are new in host memory.
    fn consume<D: Dut>(&mut self, b: &mut Bench<D>, max: usize) {
        let n = self.log2 as u32;
        for _ in 0..max {
            let c = self.cons;
            let slot = (c as usize) & ((1 << n) - 1);
            let entry = b.r.log.get(c as usize).copied();
            let resp = entry.and_then(|e| e.1);
            if resp == Some(true) {
                // Its write failed (the driver learns it from ERROR): the
                // slot holds stale data.
                self.poisoned[slot] = true;
                self.cons = c.wrapping_add(1);
                self.skipped += 1;
                continue;
            }
            if self.poisoned[slot] && resp.is_none() {
                return;
            }
            let addr = slot_addr(self.base, n, c);
            let words: Vec<u64> = (0..4).map(|k| b.mem.read64(addr + 8 * k)).collect();
            if !is_new(words[3], c, n) {
                return;
            }
            let (rec, _) = entry.unwrap_or_else(|| {
                panic!(
                    "clock {}: slot {slot} looks new for index {c} before any record {c} was taken: {words:x?}",
                    b.clock
                )
            });
            assert_eq!(
                words,
                rec.in_ring(c, n).to_vec(),
                "clock {}: record {c} in host memory",
                b.clock
            );
            self.poisoned[slot] = false;
            self.cons = c.wrapping_add(1);
            self.consumed += 1;
        }
    }

    /// Zeroes the ring and the consumer index (part of a ring reset).
    fn clear_ring<D: Dut>(&mut self, b: &mut Bench<D>) {
        let base = self.base & !(EVENT_RECORD_BYTES - 1);
        for k in 0..(4u64 << self.log2) {
            b.mem.write64(base + 8 * k, 0);
        }
        self.cons = 0;
        self.poisoned = vec![false; 1 << self.log2];
    }
}

fn rec(k: u64) -> Record {
    match k % 5 {
        0 => Record::page_fault(
            (k % 4) as u8,
            k as u16,
            0x8000_0000 | k as u32,
            0x7f00_0000_0000 + (k << 12),
            (k as u32) << 12,
            0x40_0000,
            0xab_0000 | k as u32,
        ),
        1 => Record::inv_done(k as u16, 0x100 + k as u32),
        2 => Record::prefetch_done(
            k as u16,
            0x200 + k as u32,
            7 * k as u32,
            k as u32,
            2 * k as u32,
        ),
        3 => Record::mr_suspended(k as u16),
        _ => Record::error(0x21, k as u16, 0xdead_0000_0000 | k),
    }
}

const BASE: u64 = 0x1_2340_0000;

fn idle_mem() -> MemConfig {
    MemConfig::fixed(3)
}

/// Runs until the block has been ready for a clock (after power-up).
fn boot<D: Dut>(b: &mut Bench<D>, d: &Driver) {
    for _ in 0..3 {
        b.step(&d.ins());
    }
    assert!(!b.draining);
}

/// Offers records `recs` one after another (each held until taken) for up
/// to `clocks` clocks, the driver consuming `per_clock` records a clock;
/// returns when all were taken and everything in flight completed.
fn run_records<D: Dut>(
    b: &mut Bench<D>,
    d: &mut Driver,
    recs: &[Record],
    per_clock: usize,
    clocks: u64,
) {
    let mut next = 0;
    for _ in 0..clocks {
        let i = Ins {
            ev: recs.get(next).copied(),
            ..d.ins()
        };
        let o = b.step(&i);
        if i.ev.is_some() && o.s_ev_ready {
            next += 1;
        }
        d.consume(b, per_clock);
        if next == recs.len() && b.r.outstanding() == 0 && b.r.done_due.is_empty() {
            return;
        }
    }
    panic!(
        "{} of {} records taken, {} in flight after {clocks} clocks",
        next,
        recs.len(),
        b.r.outstanding()
    );
}

fn settle_clocks<D: Dut>(b: &mut Bench<D>, d: &mut Driver, n: u64) {
    for _ in 0..n {
        b.step(&d.ins());
        d.consume(b, 1);
    }
}

#[test]
fn events_first_lap_writes_owner_one_and_a_wrap_flips_it() {
    let mut b = Bench::new(ver(), idle_mem());
    let mut d = Driver::new(BASE, 2);
    boot(&mut b, &d);
    let recs: Vec<Record> = (0..10).map(rec).collect();
    run_records(&mut b, &mut d, &recs[..4], 0, 200);
    // First lap: slots 0..3, owner 1, words as given.
    for k in 0..4u32 {
        let a = BASE + 32 * k as u64;
        let w3 = b.mem.read64(a + 24);
        assert_eq!(w3 >> 63, 1, "lap 0 record {k}: owner 1");
        assert_eq!(w3 & !(1 << 63), recs[k as usize].w3_in());
        assert_eq!(b.mem.read64(a), recs[k as usize].w[0]);
    }
    d.consume(&mut b, 4);
    assert_eq!(d.consumed, 4);
    // Second lap: owner 0 in every slot.
    run_records(&mut b, &mut d, &recs[4..8], 0, 400);
    for k in 4..8u32 {
        let a = BASE + 32 * (k as u64 % 4);
        assert_eq!(b.mem.read64(a + 24) >> 63, 0, "record {k}: owner 0");
        assert_eq!(b.mem.read64(a + 8), recs[k as usize].w[1]);
        assert!(!owner(k, 2));
    }
    d.consume(&mut b, 4);
    // Third lap: owner 1 again in slots 0 and 1, slots 2 and 3 keep lap 2.
    run_records(&mut b, &mut d, &recs[8..10], 1, 400);
    assert_eq!(d.consumed, 10, "the driver found every record by owner bit");
    for (k, want) in [(8u32, 1u64), (9, 1), (6, 0), (7, 0)] {
        let a = BASE + 32 * (k as u64 % 4);
        assert_eq!(b.mem.read64(a + 24) >> 63, want, "record {k}: owner {want}");
        assert_eq!(b.mem.read64(a), recs[k as usize].w[0]);
    }
    assert_eq!(b.seen.wraps, 2);
    assert_eq!(b.seen.done, 10);
}

#[test]
fn events_full_ring_holds_the_record_until_eq_cons_moves() {
    let mut b = Bench::new(ver(), idle_mem());
    let mut d = Driver::new(BASE, 2);
    boot(&mut b, &d);
    let recs: Vec<Record> = (0..6).map(rec).collect();
    // Offered back to back: the fifth is refused at once (the room check
    // counts the take of the same clock).
    let mut next = 0;
    for _ in 0..100 {
        let o = b.step(&Ins {
            ev: Some(recs[next]),
            ..d.ins()
        });
        next += o.s_ev_ready as usize;
        assert!(next <= 4, "a fifth record taken into a 4-entry ring");
    }
    assert_eq!(next, 4);
    assert_eq!(b.r.outstanding(), 0);
    // Four unconsumed entries: the fifth waits, nothing is written.
    for _ in 0..300 {
        let o = b.step(&Ins {
            ev: Some(recs[4]),
            ..d.ins()
        });
        assert!(!o.s_ev_ready, "record taken into a full ring");
        assert!(o.m.aw.is_none() && o.m.w.is_none());
        assert_eq!(o.occupancy, 4);
    }
    // The driver reads the first entry (but does not yet move EQ_CONS):
    // still full.
    d.consume(&mut b, 1);
    let cons = d.cons;
    d.cons = 0;
    for _ in 0..20 {
        let o = b.step(&Ins {
            ev: Some(recs[4]),
            ..d.ins()
        });
        assert!(!o.s_ev_ready);
    }
    assert_eq!(
        b.mem.read64(BASE + 24) >> 63,
        1,
        "slot 0 still holds record 0"
    );
    d.cons = cons;
    run_records(&mut b, &mut d, &recs[4..6], 1, 100);
    assert_eq!(
        b.mem.read64(BASE + 24) >> 63,
        0,
        "record 4 in slot 0, owner 0"
    );
    assert_eq!(b.mem.read64(BASE), recs[4].w[0]);
    assert!(
        b.seen.full_episodes == 1 && b.seen.full_clocks >= 320,
        "{} episodes, {} clocks",
        b.seen.full_episodes,
        b.seen.full_clocks
    );
    d.consume(&mut b, 8);
    assert_eq!(d.consumed, 6);
}

#[test]
fn events_two_entry_ring_takes_two_back_to_back_then_waits() {
    // Fewer entries than bursts in flight: only the room check stops the
    // third record, in the clock right after the second was taken.
    let mut b = Bench::new(ver(), MemConfig::fixed(30));
    let mut d = Driver::new(BASE, 1);
    boot(&mut b, &d);
    let mut next = 0;
    for _ in 0..100 {
        let o = b.step(&Ins {
            ev: Some(rec(next as u64)),
            ..d.ins()
        });
        next += o.s_ev_ready as usize;
        assert!(next <= 2, "a third record taken into a 2-entry ring");
    }
    assert_eq!(b.seen.take_clocks[1], b.seen.take_clocks[0] + 1);
    run_records(&mut b, &mut d, &[rec(2), rec(3)], 1, 300);
    settle_clocks(&mut b, &mut d, 40);
    assert_eq!(d.consumed, 4);
}

#[test]
fn events_irq_is_irq_en_and_written_records_not_consumed() {
    let mut b = Bench::new(ver(), MemConfig::fixed(20));
    let mut d = Driver::new(BASE, 3);
    d.irq_en = false;
    boot(&mut b, &d);
    // The bench checks irq against (irq_en, written, cons) of the clock
    // before on every clock; here the named cases.
    let o = b.step(&Ins {
        ev: Some(rec(0)),
        ..d.ins()
    });
    assert!(o.s_ev_ready);
    let mut irq_before_b = false;
    d.irq_en = true;
    for _ in 0..30 {
        let o = b.step(&d.ins());
        if b.seen.b_count == 0 {
            irq_before_b |= o.irq;
        }
    }
    assert!(
        !irq_before_b,
        "no irq while the record is not in host memory"
    );
    assert!(b.step(&d.ins()).irq, "irq once the record is written");
    d.irq_en = false;
    b.step(&d.ins());
    assert!(!b.step(&d.ins()).irq, "irq_en low masks it");
    d.irq_en = true;
    b.step(&d.ins());
    assert!(b.step(&d.ins()).irq);
    d.consume(&mut b, 1);
    b.step(&d.ins());
    assert!(!b.step(&d.ins()).irq, "consumed: irq low");
    assert!(b.seen.irq_clocks > 0);
}

#[test]
fn events_error_response_pulses_err_write_and_done_err_and_nothing_hangs() {
    let mut b = Bench::new(ver(), idle_mem());
    let mut d = Driver::new(BASE, 2);
    boot(&mut b, &d);
    // Slot 1 answers SLVERR, slot 2 DECERR, on the first lap.
    b.mem.inject_error(BASE + 32..BASE + 64, RESP_SLVERR);
    b.mem.inject_error(BASE + 64..BASE + 96, RESP_DECERR);
    let recs: Vec<Record> = (0..8).map(rec).collect();
    run_records(&mut b, &mut d, &recs[..4], 1, 200);
    assert_eq!(b.seen.err_write, 2, "one err_write pulse per bad B");
    assert_eq!(b.seen.done_err, 2);
    assert_eq!(b.seen.done, 4);
    assert_eq!(b.r.write_errors, 2);
    assert_eq!(b.step(&d.ins()).eq_prod, 4, "the failed slots still count");
    // The slots are skipped by the driver (it learns of them from ERROR);
    // later records land and are found.
    b.mem.clear_errors();
    run_records(&mut b, &mut d, &recs[4..8], 1, 300);
    settle_clocks(&mut b, &mut d, 10);
    assert_eq!((d.consumed, d.skipped), (6, 2));
    // The documented recovery: disable, ring_reset, wait for EQ_PROD 0,
    // zero the ring, EQ_CONS 0, enable.
    ring_reinit(&mut b, &mut d, false, BASE + 0x1000, 3);
    run_records(&mut b, &mut d, &recs[..3], 1, 200);
    settle_clocks(&mut b, &mut d, 10);
    assert_eq!(b.mem.read64(BASE + 0x1000 + 24) >> 63, 1, "slot 0, owner 1");
    assert_eq!(d.consumed, 9);
}

/// The driver's ring (re)initialisation: EQ_LOG2_SIZE 0 (nothing more is
/// taken), `ring_reset` (or `rst`), wait until EQ_PROD reads 0 (the writer
/// drained), zero the new ring, EQ_CONS 0, program base and size.
fn ring_reinit<D: Dut>(b: &mut Bench<D>, d: &mut Driver, rst: bool, base: u64, log2: u8) {
    d.log2 = 0;
    b.step(&d.ins());
    b.step(&Ins {
        ring_reset: !rst,
        rst,
        ..d.ins()
    });
    let mut waited = 0;
    loop {
        let o = b.step(&d.ins());
        if o.eq_prod == 0 && o.ready {
            break;
        }
        waited += 1;
        assert!(waited < 10_000, "the writer never drained");
    }
    d.base = base;
    d.log2 = log2;
    d.clear_ring(b);
    d.log2 = 0;
    b.step(&d.ins());
    d.log2 = log2;
}

#[test]
fn events_illegal_size_disables_the_ring_and_pulses_err_size_once() {
    let mut b = Bench::new(ver(), idle_mem());
    let mut d = Driver::new(BASE, 0);
    boot(&mut b, &d);
    for log2 in [0u8, 17, 31] {
        d.log2 = log2;
        for _ in 0..50 {
            let o = b.step(&Ins {
                ev: Some(rec(1)),
                ..d.ins()
            });
            assert!(!o.s_ev_ready, "size {log2}: record taken");
            assert!(o.m.aw.is_none());
        }
    }
    assert_eq!(
        b.seen.err_size, 1,
        "one pulse on entering 17..=31 (17 -> 31 stays illegal), none for 0"
    );
    d.log2 = 0;
    b.step(&d.ins());
    d.log2 = 20;
    settle_clocks(&mut b, &mut d, 5);
    assert_eq!(b.seen.err_size, 2);
    // A legal size: taken.
    d.log2 = 16;
    d.poisoned = vec![false; 1 << 16];
    b.step(&d.ins());
    run_records(&mut b, &mut d, &[rec(2), rec(3)], 1, 100);
    assert_eq!(d.consumed, 2);
}

#[test]
fn events_bad_consumer_index_is_treated_as_full_and_pulses_err_cons() {
    let mut b = Bench::new(ver(), idle_mem());
    let mut d = Driver::new(BASE, 2);
    boot(&mut b, &d);
    run_records(&mut b, &mut d, &[rec(0), rec(1)], 1, 100);
    assert_eq!(d.cons, 2);
    // Ahead of the producer: 3 > prod 2 (the block sees it a clock late).
    d.cons = 3;
    b.step(&d.ins());
    for _ in 0..40 {
        let o = b.step(&Ins {
            ev: Some(rec(2)),
            ..d.ins()
        });
        assert!(!o.s_ev_ready, "taken with cons ahead of prod");
    }
    assert_eq!(b.seen.err_cons, 1, "one pulse while it stays bad");
    // More than 2^n behind: prod 2, cons 2^32 - 3 (5 behind).
    d.cons = 0u32.wrapping_sub(3);
    settle_clocks_no_consume(&mut b, &d, 10);
    assert_eq!(b.seen.err_cons, 1, "still bad: no new pulse");
    d.cons = 2;
    settle_clocks_no_consume(&mut b, &d, 3);
    d.cons = 0u32.wrapping_sub(3);
    settle_clocks_no_consume(&mut b, &d, 3);
    assert_eq!(b.seen.err_cons, 2, "bad again after good: a new pulse");
    // Exactly 2^n behind is legal (full, no pulse).
    d.cons = 2;
    settle_clocks_no_consume(&mut b, &d, 3);
    d.cons = 0u32.wrapping_sub(2);
    settle_clocks_no_consume(&mut b, &d, 5);
    assert_eq!(b.seen.err_cons, 2);
    d.cons = 2;
    run_records(&mut b, &mut d, &[rec(2)], 1, 100);
    assert_eq!(d.consumed, 3);
}

fn settle_clocks_no_consume<D: Dut>(b: &mut Bench<D>, d: &Driver, n: u64) {
    for _ in 0..n {
        b.step(&d.ins());
    }
}

#[test]
fn events_ring_reset_waits_for_bursts_then_restarts_at_slot_zero() {
    let mut b = Bench::new(ver(), MemConfig::fixed(40));
    let mut d = Driver::new(BASE, 3);
    boot(&mut b, &d);
    let recs: Vec<Record> = (0..5).map(rec).collect();
    let mut next = 0;
    while next < 3 {
        let o = b.step(&Ins {
            ev: Some(recs[next]),
            ..d.ins()
        });
        next += o.s_ev_ready as usize;
    }
    assert!(b.r.outstanding() > 0);
    b.step(&Ins {
        ring_reset: true,
        ..d.ins()
    });
    // Nothing is taken and EQ_PROD keeps 3 until the three bursts are done.
    let mut zero_at = None;
    for k in 0..200 {
        let o = b.step(&Ins {
            ev: Some(recs[3]),
            ..d.ins()
        });
        if o.eq_prod == 0 && zero_at.is_none() {
            zero_at = Some(k);
            assert_eq!(b.seen.b_count, 3, "zeroed only after every B");
        }
        if zero_at.is_none() {
            assert!(!o.s_ev_ready);
            assert_eq!(o.eq_prod, 3);
        } else if o.s_ev_ready {
            break;
        }
    }
    assert!(zero_at.is_some());
    assert_eq!(b.seen.done, 3, "every burst in flight completed");
    assert_eq!(b.seen.takes, 4, "the record after the reset is index 0");
    assert_eq!(b.r.log.len(), 1);
    assert_eq!(b.r.log[0].0, recs[3]);
    // The bench checked its AW: slot 0 again.
    run_records(&mut b, &mut d, &recs[4..5], 0, 300);
    assert_eq!(b.mem.read64(BASE), recs[3].w[0], "record 3 at slot 0");
    assert_eq!(b.mem.read64(BASE + 32), recs[4].w[0], "record 4 at slot 1");
    assert_eq!(b.mem.read64(BASE + 32 + 24) >> 63, 1, "owner 1 again");
}

#[test]
fn events_ring_reset_with_a_stale_eq_cons_takes_nothing_until_eq_cons_is_zero() {
    // A driver that skips the documented sequence (ring still enabled,
    // EQ_CONS left at its old value) gets a full ring, not an overwrite.
    let mut b = Bench::new(ver(), idle_mem());
    let mut d = Driver::new(BASE, 3);
    boot(&mut b, &d);
    let recs: Vec<Record> = (0..5).map(rec).collect();
    run_records(&mut b, &mut d, &recs[..5], 1, 200);
    settle_clocks(&mut b, &mut d, 3);
    assert_eq!(d.cons, 5);
    b.step(&Ins {
        ring_reset: true,
        ..d.ins()
    });
    for _ in 0..50 {
        let o = b.step(&Ins {
            ev: Some(recs[0]),
            ..d.ins()
        });
        assert!(!o.s_ev_ready, "taken with EQ_CONS 5 ahead of index 0");
    }
    assert_eq!(b.seen.err_cons, 1, "the stale index is reported");
    d.clear_ring(&mut b);
    run_records(&mut b, &mut d, &recs[..1], 1, 100);
    settle_clocks(&mut b, &mut d, 5);
    assert_eq!(d.consumed, 6);
}

#[test]
fn events_rst_completes_bursts_in_flight_before_ready() {
    let mut cfg = MemConfig::fixed(30);
    cfg.awready_pct = 50;
    let mut b = Bench::new(ver(), cfg);
    let mut d = Driver::new(BASE, 3);
    boot(&mut b, &d);
    let mut next = 0;
    while next < 4 {
        let o = b.step(&Ins {
            ev: Some(rec(next as u64)),
            ..d.ins()
        });
        next += o.s_ev_ready as usize;
    }
    b.step(&d.ins());
    assert_eq!(b.r.outstanding(), 4);
    // rst for three clocks: the bench checks ready stays low until nothing
    // is in flight and the AXI monitor that every burst completes cleanly.
    for k in 0..3 {
        let o = b.step(&Ins {
            rst: true,
            ..d.ins()
        });
        assert!(!o.s_ev_ready, "nothing taken in a rst clock");
        assert!(o.ready == (k == 0), "ready falls the clock after rst");
    }
    let mut clocks = 0;
    while !b.step(&d.ins()).ready {
        clocks += 1;
        assert!(clocks < 500);
    }
    assert_eq!(b.seen.done, 4, "the drained bursts report m_done");
    assert_eq!(b.seen.b_count, 4);
    assert!(
        clocks > 20,
        "ready waited for the B responses ({clocks} clocks)"
    );
    assert_eq!(b.step(&d.ins()).eq_prod, 0);
    // The driver reinitialises the ring; the next record lands at slot 0.
    d.clear_ring(&mut b);
    settle_clocks(&mut b, &mut d, 2);
    run_records(&mut b, &mut d, &[rec(9)], 1, 300);
    settle_clocks(&mut b, &mut d, 3);
    assert_eq!(b.mem.read64(BASE), rec(9).w[0]);
    assert_eq!(d.consumed, 1);
}

#[test]
fn events_keep_four_bursts_outstanding_and_never_five() {
    let mut b = Bench::new(ver(), MemConfig::fixed(60));
    let mut d = Driver::new(BASE, 5);
    boot(&mut b, &d);
    let recs: Vec<Record> = (0..24).map(rec).collect();
    run_records(&mut b, &mut d, &recs, 4, 3000);
    assert_eq!(b.seen.max_outstanding, MAX_OUTSTANDING);
    assert!(b.seen.clocks_at_max > 200, "{}", b.seen.clocks_at_max);
    settle_clocks(&mut b, &mut d, 5);
    assert_eq!(d.consumed, 24);
}

#[test]
fn events_aw_and_w_channels_run_independently() {
    // AW stalled: the W beats of all four buffered records go first.
    let mut cfg = idle_mem();
    cfg.awready_pct = 0;
    let mut b = Bench::new(ver(), cfg);
    let mut d = Driver::new(BASE, 3);
    boot(&mut b, &d);
    let recs: Vec<Record> = (0..8).map(rec).collect();
    let mut next = 0;
    for _ in 0..100 {
        let o = b.step(&Ins {
            ev: recs.get(next).copied(),
            ..d.ins()
        });
        next += (o.s_ev_ready && next < 8) as usize;
    }
    assert_eq!(next, 4, "four records in flight");
    assert_eq!(b.seen.aw_count, 0);
    assert_eq!(b.seen.w_count, 16, "W ran ahead of AW");
    b.mem.cfg.awready_pct = 100;
    // Now W stalled: AWs of the next four go ahead of their data.
    b.mem.cfg.wready_pct = 0;
    for _ in 0..100 {
        let o = b.step(&Ins {
            ev: recs.get(next).copied(),
            ..d.ins()
        });
        next += (o.s_ev_ready && next < 8) as usize;
    }
    assert_eq!(next, 8);
    assert_eq!(b.seen.aw_count, 8, "AW ran ahead of W");
    assert_eq!(b.seen.w_count, 16);
    assert!(b.seen.w_ahead >= 16 && b.seen.aw_ahead >= 4);
    b.mem.cfg.wready_pct = 100;
    settle_clocks(&mut b, &mut d, 100);
    assert_eq!(d.consumed, 8);
}

#[test]
fn events_aw_is_valid_two_clocks_after_the_record_is_taken() {
    let mut b = Bench::new(ver(), idle_mem());
    let mut d = Driver::new(BASE, 3);
    boot(&mut b, &d);
    run_records(&mut b, &mut d, &[rec(0)], 1, 100);
    assert_eq!(
        b.seen.aw_rise,
        vec![b.seen.take_clocks[0] + AW_LATENCY_CLOCKS]
    );
}

/// Records per clock with the producer always valid, the driver consuming
/// at once and a memory that answers B `latency` clocks after the last W.
fn throughput(latency: u64) -> f64 {
    let mut b = Bench::new(ver(), MemConfig::fixed(latency));
    let mut d = Driver::new(BASE, 6);
    boot(&mut b, &d);
    let clocks = 4000;
    let start = b.seen.takes;
    for k in 0..clocks {
        b.step(&Ins {
            ev: Some(rec(k)),
            ..d.ins()
        });
        d.consume(&mut b, 4);
    }
    (b.seen.takes - start) as f64 / clocks as f64
}

#[test]
fn events_throughput_is_one_record_per_four_clocks_up_to_a_latency_of_ten() {
    let got: Vec<(u64, f64)> = [1, 10, 20, 50]
        .iter()
        .map(|&l| (l, throughput(l)))
        .collect();
    println!("records per clock by B latency: {got:?}");
    // The W channel carries 4 beats a record: 0.25 is the ceiling. Four
    // bursts in flight cover a round trip of up to 16 clocks.
    assert!(got[0].1 > 0.24 && got[1].1 > 0.24, "{got:?}");
    // Beyond it: 4 records per round trip (B latency + 6 clocks).
    for &(l, t) in &got[2..] {
        let want = 4.0 / (l as f64 + 6.0);
        assert!((t - want).abs() < 0.01, "latency {l}: {t} vs {want}");
    }
}

#[test]
fn events_record_layout_per_kind() {
    // Field positions of docs/events.md, spelled out independently of the
    // reference's encoders.
    let pf = Record::page_fault(
        op::REMOTE_WRITE as u8 | 1,
        0x1234,
        0xcafe_f00d,
        0x7f12_3456_7000,
        0x3000,
        0x10_0000,
        0xab_cdef,
    );
    assert_eq!(pf.w[0], 0xcafe_f00d_1234_0101);
    assert_eq!(pf.w[1], 0x7f12_3456_7000);
    assert_eq!(pf.w[2], 0x0010_0000_0000_3000);
    assert_eq!(pf.w[3], 0xab_cdef);
    assert_eq!(Record::inv_done(7, 0x99).w, [0x99_0007_0002, 0, 0, 0]);
    assert_eq!(
        Record::prefetch_done(3, 5, 100, 2, 1).w,
        [0x5_0003_0003, (2 << 32) | 100, 1, 0]
    );
    assert_eq!(Record::mr_suspended(9).w, [0x9_0004, 0, 0, 0]);
    assert_eq!(Record::error(0x21, 4, 77).w, [0x4_2105, 77, 0, 0]);
    // Through the block: word 3's owner bit set, QPN kept, nothing else.
    let mut b = Bench::new(ver(), idle_mem());
    let mut d = Driver::new(BASE, 1);
    boot(&mut b, &d);
    run_records(&mut b, &mut d, &[pf], 1, 100);
    let got: Vec<u64> = (0..4).map(|k| b.mem.read64(BASE + 8 * k)).collect();
    assert_eq!(got, vec![pf.w[0], pf.w[1], pf.w[2], (1 << 63) | 0xab_cdef]);
}

/// Random traffic: records with idle gaps, a driver consuming by owner bit
/// after random delays, random latency and backpressure on AW, W and B,
/// error responses, ring resets and resets.
fn random_run(dut: impl Dut, clocks: u64, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut b = Bench::new(dut, MemConfig::random(1, 30, seed ^ 0x5eed));
    let bases = [BASE, BASE + 0x10_0000 + 0x5f, 0xffff_fff0_0000];
    let mut d = Driver::new(bases[0], 2);
    boot(&mut b, &d);
    let mut k = 0u64;
    let mut offered: Option<Record> = None;
    let (mut in_p, mut cons_p) = (0.5f64, 0.5f64);
    let mut error_until = 0u64;
    let reinit_odds = (clocks / 6).max(500) as u32;
    let err_odds = (clocks / 50).clamp(100, 2000) as u32;
    while !harness::done(b.clock, clocks, clocks * 20, || {
        vec![
            ("records taken", b.seen.takes, 500),
            ("wraps", b.seen.wraps, 20),
            ("full episodes", b.seen.full_episodes, 20),
            ("write errors", b.r.write_errors, 5),
            (
                "clocks with 4 bursts in flight",
                b.seen.clocks_at_max * (b.seen.max_outstanding == 4) as u64,
                50,
            ),
            ("W beats ahead of their AW", b.seen.w_ahead, 20),
            ("AW ahead of earlier W", b.seen.aw_ahead, 20),
            ("ring resets", b.seen.ring_resets, 2),
            ("resets with bursts in flight", b.seen.resets_in_flight, 2),
            ("records skipped after errors", d.skipped, 3),
            ("irq clocks", b.seen.irq_clocks, 100),
        ]
    }) {
        let c = b.clock;
        if c.is_multiple_of(256) {
            let pct = |rng: &mut StdRng| [5u32, 30, 60, 100][rng.gen_range(0..4)];
            b.mem.cfg.awready_pct = pct(&mut rng);
            b.mem.cfg.wready_pct = pct(&mut rng);
            b.mem.cfg.bvalid_pct = pct(&mut rng);
            let hi = [2u64, 10, 40][rng.gen_range(0..3)];
            b.mem.cfg.write_latency = (1, hi);
            in_p = [0.05, 0.3, 1.0][rng.gen_range(0..3)];
            cons_p = [0.01, 0.1, 0.5, 1.0][rng.gen_range(0..4)];
            d.irq_en = rng.gen_ratio(3, 4);
        }
        // Error responses on one slot of the ring for a while.
        if error_until == 0 && rng.gen_ratio(1, err_odds) {
            let slot = rng.gen_range(0..1u64 << d.log2.max(1));
            let a = slot_addr(d.base, d.log2 as u32, slot as u32);
            let resp = if rng.gen() { RESP_SLVERR } else { RESP_DECERR };
            b.mem.inject_error(a..a + 32, resp);
            error_until = c + rng.gen_range(50..400);
        }
        if error_until != 0 && c >= error_until {
            b.mem.clear_errors();
            error_until = 0;
        }
        if offered.is_none() && rng.gen_bool(in_p) {
            offered = Some(rec(rng.gen()));
            k += 1;
        }
        // A ring reinitialisation, sometimes through rst.
        if rng.gen_ratio(1, reinit_odds) {
            b.mem.clear_errors();
            error_until = 0;
            let rst = rng.gen();
            let base = bases[rng.gen_range(0..bases.len())];
            let log2 = rng.gen_range(1..=4);
            // The record offered stays offered (the producer holds it).
            ring_reinit(&mut b, &mut d, rst, base, log2);
            continue;
        }
        let o = b.step(&Ins {
            ev: offered,
            ..d.ins()
        });
        if offered.is_some() && o.s_ev_ready {
            offered = None;
        }
        if rng.gen_bool(cons_p) {
            let n = rng.gen_range(1..=4);
            d.consume(&mut b, n);
        }
        assert!(!o.err_cons, "clock {c}: err_cons with a good driver");
        assert!(!o.err_size, "clock {c}: err_size with legal sizes");
    }
    // Drain: everything offered is taken, every burst completes, the driver
    // finds every record.
    b.mem.clear_errors();
    b.mem.cfg = MemConfig::fixed(3);
    for _ in 0..400 {
        let o = b.step(&Ins {
            ev: offered,
            ..d.ins()
        });
        if offered.is_some() && o.s_ev_ready {
            offered = None;
        }
        d.consume(&mut b, 4);
    }
    assert!(offered.is_none(), "the last record was never taken");
    assert_eq!(b.r.outstanding(), 0, "bursts never completed");
    assert!(b.r.done_due.is_empty(), "completions never reported");
    assert_eq!(
        d.cons as usize,
        b.r.log.len(),
        "the driver did not find every record of the current ring"
    );
    assert_eq!(b.seen.err_write, b.r.write_errors);
    println!(
        "{} clocks: {} offered, {} taken, {} consumed, {} skipped, {} wraps, {} full episodes, \
         {} write errors, {} ring resets, {} resets",
        b.clock,
        k,
        b.seen.takes,
        d.consumed,
        d.skipped,
        b.seen.wraps,
        b.seen.full_episodes,
        b.r.write_errors,
        b.seen.ring_resets,
        b.seen.resets
    );
}

#[test]
fn events_match_reference_on_verilog_random() {
    random_run(ver(), 1_000_000, seed());
}

#[test]
fn events_verilog_matches_rust_hdl_in_random_lockstep() {
    random_run(lockstep(), 5_000, seed());
}

#[test]
fn events_is_synthesizable() {
    harness::checks::assert_synthesizable(&verilog(), "event_ring");
}
