//! Page-table walker tests.
//!
//! Every test runs the walker in a closed loop with the host-memory model
//! (`odp_mmu_workshop::models::host_memory`) and a cycle-exact scoreboard (`Bench`) that
//! checks, every clock: `req_ready`/`req_id`/`req_coalesced` against the
//! coalescing rule, every AR (fields, address = the next PTE of the walk
//! its ID names, at most one per slot), `rready`, `done_valid` against the
//! set of finished walks, every completion against the reference walk
//! (`odp_mmu_workshop::models::page_table`), the `done_*` payload's stability under
//! backpressure, the stale flags after `flush` (which walks each command
//! covers, by the leaf each finds) and the probe, the orphan handling after
//! `rst`, and (through `AxiMonitor`) the AXI handshake rules on both sides.
//!
//! Directed tests run in lockstep (the rust-hdl model and the Verilated
//! generated Verilog, every output compared every clock); the long random
//! runs use the Verilated model alone.

use odp_mmu_workshop::harness;

use harness::seed;
use odp_mmu_workshop::models;

use std::collections::{HashMap, VecDeque};

use harness::dut::{AxiPorts, Dut, Locked};
use harness::lockstep::Lockstep;
use harness::verilated::Verilated;
use models::host_memory::{
    AxiMonitor, HostMemory, MasterOut, MemConfig, RBeat, SlaveOut, RESP_DECERR, RESP_OKAY,
    RESP_SLVERR,
};
use models::page_table::{
    out_of_reach, pte_address, walk_step, walk_trace, MrTables, Outcome, PageTableBuilder, Step,
};
use odp_mmu::spec::{pte, PageSize};
use odp_mmu::translate::walker::Walker;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

// ---------------------------------------------------------------------------
// The device under test behind one interface: rust-hdl model, lockstep, or
// Verilated model alone.

#[derive(Clone, Copy, Debug, Default)]
struct Inputs {
    rst: bool,
    req_valid: bool,
    req_mr: u8,
    req_off: u64,
    req_root: u64,
    req_levels_m1: u8,
    done_ready: bool,
    flush: bool,
    flush_kind: u8,
    flush_mr: u8,
    flush_off_lo: u64,
    flush_off_hi: u64,
    probe_mr: u8,
    probe_off: u64,
    probe_size: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Outputs {
    req_ready: bool,
    req_id: u8,
    req_coalesced: bool,
    done_valid: bool,
    done_id: u8,
    done_status: u8,
    done_mr: u8,
    done_off: u64,
    done_ppn: u64,
    done_size: u8,
    done_writable: bool,
    done_stale: bool,
    flush_busy: bool,
    probe_stale: bool,
    /// The AXI4 read master (`m_axi_*`).
    axi: MasterOut,
}

odp_mmu_workshop::port_map!(WalkerPorts<const S: usize> for Walker<S> {
    clock: clock,
    inputs: [rst, req_valid, req_mr, req_off, req_root, req_levels_m1, done_ready, flush, flush_kind, flush_mr, flush_off_lo, flush_off_hi, probe_mr, probe_off, probe_size],
    outputs: [req_ready, req_id, req_coalesced, done_valid, done_id, done_status, done_mr, done_off, done_ppn, done_size, done_writable, done_stale, flush_busy, probe_stale],
    bundles: [m_axi],
});

/// One clock: apply `i` and the memory's outputs `s` (with `idle_r` on the
/// R payload while `rvalid` is low), settle, return the outputs, then the
/// rising edge.
fn cycle(d: &mut dyn Dut, axi: &AxiPorts, i: &Inputs, s: &SlaveOut, idle_r: RBeat) -> Outputs {
    d.set("rst", i.rst as u128);
    d.set("req_valid", i.req_valid as u128);
    d.set("req_mr", i.req_mr as u128);
    d.set("req_off", i.req_off as u128);
    d.set("req_root", i.req_root as u128);
    d.set("req_levels_m1", i.req_levels_m1 as u128);
    d.set("done_ready", i.done_ready as u128);
    d.set("flush", i.flush as u128);
    d.set("flush_kind", i.flush_kind as u128);
    d.set("flush_mr", i.flush_mr as u128);
    d.set("flush_off_lo", i.flush_off_lo as u128);
    d.set("flush_off_hi", i.flush_off_hi as u128);
    d.set("probe_mr", i.probe_mr as u128);
    d.set("probe_off", i.probe_off as u128);
    d.set("probe_size", i.probe_size as u128);
    axi.drive(d, s);
    if s.r.is_none() {
        d.set("m_axi_rid", idle_r.id as u128);
        d.set("m_axi_rdata", idle_r.data as u128);
        d.set("m_axi_rresp", idle_r.resp as u128);
        d.set("m_axi_rlast", idle_r.last as u128);
    }
    d.settle();
    let o = Outputs {
        req_ready: d.is("req_ready"),
        req_id: d.get("req_id") as u8,
        req_coalesced: d.is("req_coalesced"),
        done_valid: d.is("done_valid"),
        done_id: d.get("done_id") as u8,
        done_status: d.get("done_status") as u8,
        done_mr: d.get("done_mr") as u8,
        done_off: d.get("done_off") as u64,
        done_ppn: d.get("done_ppn") as u64,
        done_size: d.get("done_size") as u8,
        done_writable: d.is("done_writable"),
        done_stale: d.is("done_stale"),
        flush_busy: d.is("flush_busy"),
        probe_stale: d.is("probe_stale"),
        axi: axi.master_out(d),
    };
    d.tick();
    o
}

/// rust-hdl model and Verilated Verilog, compared every clock.
fn lockstep<const S: usize>() -> Locked<WalkerPorts<S>> {
    Lockstep::of::<WalkerPorts<S>>(Walker::<S>::new(), &module_name::<S>())
}

/// The Verilated generated Verilog alone (fast).
fn verilated<const S: usize>() -> Verilated {
    Verilated::of_block(&mut Walker::<S>::new(), &module_name::<S>())
}

fn module_name<const S: usize>() -> String {
    format!("walker_s{S}")
}

fn walker_verilog<const S: usize>() -> String {
    let mut uut = Walker::<S>::new();
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, &module_name::<S>())
}

// ---------------------------------------------------------------------------
// The closed-loop bench and its cycle-exact scoreboard.

/// A translation request as the bench issues it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Req {
    tag: u64,
    mr: u8,
    off: u64,
}

/// A flush command: `kind` 0 ALL, 1 BY_MR, 2 BY_MR_RANGE `[lo, hi)` in
/// offset space, 3 none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Flush {
    kind: u8,
    mr: u8,
    lo: u64,
    hi: u64,
}

/// What a flush covers of a walk of `mr` / `off`: (its own page, its 2 MiB
/// region, its 1 GiB region). A region of `size` bytes is covered when it
/// meets `[lo, hi)` (an empty range meets a region that straddles it).
/// Walks compare `off` bits 47:12 (a walk in reach has zero above).
fn covers(f: &Flush, mr: u8, off: u64) -> (bool, bool, bool) {
    let off = off & ((1 << 48) - 1);
    let meets = |shift: u32| {
        let start = (off >> shift << shift) as u128;
        start < f.hi as u128 && start + (1u128 << shift) > f.lo as u128
    };
    match f.kind {
        0 => (true, false, false),
        1 => (mr == f.mr, false, false),
        2 if mr == f.mr => (meets(12), meets(21), meets(30)),
        _ => (false, false, false),
    }
}

/// Stale flags of a walk, by the size of the leaf it finds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct StaleFlags {
    page: bool,
    region2m: bool,
    region1g: bool,
}

impl StaleFlags {
    fn add(&mut self, (page, r2, r1): (bool, bool, bool)) {
        self.page |= page;
        self.region2m |= r2;
        self.region1g |= r1;
    }

    /// Stale for a walk that ended in `outcome` (a failed walk by its page).
    fn of(&self, outcome: &Outcome) -> bool {
        match outcome {
            Outcome::Ok {
                size: PageSize::Size2M,
                ..
            } => self.page || self.region2m,
            Outcome::Ok {
                size: PageSize::Size1G,
                ..
            } => self.page || self.region1g,
            _ => self.page,
        }
    }
}

/// The scoreboard's view of one slot.
#[derive(Clone, Debug, PartialEq, Eq)]
enum SlotModel {
    Free,
    /// Walking: the table and level of the next PTE, whether its AR is out.
    Walking {
        table: u64,
        level: u8,
        ar_out: bool,
    },
    Done(Outcome),
    /// An off out of reach: Done(Fatal) on the next edge, without a read.
    OutOfReach,
    /// Cancelled by rst with a read on the bus (or an AR being presented).
    Orphan {
        ar_out: bool,
    },
}

#[derive(Clone, Debug)]
struct Slot {
    st: SlotModel,
    mr: u8,
    off: u64,
    stale: StaleFlags,
    /// A flush was compared with the walk.
    flushed: bool,
    reqs: Vec<u64>,
    reads: usize,
    start_clock: u64,
    /// The clock its request was first offered.
    offered_clock: u64,
    first_done_clock: Option<u64>,
}

impl Slot {
    fn free() -> Self {
        Self {
            st: SlotModel::Free,
            mr: 0,
            off: 0,
            stale: StaleFlags::default(),
            flushed: false,
            reqs: Vec::new(),
            reads: 0,
            start_clock: 0,
            offered_clock: 0,
            first_done_clock: None,
        }
    }
}

/// A completion as the bench accepted it.
#[derive(Clone, Debug)]
struct Completion {
    clock: u64,
    slot: u8,
    mr: u8,
    off: u64,
    outcome: Outcome,
    stale: bool,
    /// A flush was compared with the walk (stale or not).
    flushed: bool,
    /// Tags of every request answered by it.
    reqs: Vec<u64>,
    /// PTE reads the walk made.
    reads: usize,
    /// Clocks from the request handshake to the first clock done_valid was up.
    latency: u64,
    /// Clocks from the request's first clock offered to the first clock
    /// done_valid was up.
    latency_from_offer: u64,
}

struct Bench<D: Dut> {
    dut: D,
    axi: AxiPorts,
    slots: usize,
    mem: HostMemory,
    mon: AxiMonitor,
    tables: PageTableBuilder,
    model: Vec<Slot>,
    clock: u64,
    mrs: HashMap<u8, MrTables>,
    queue: VecDeque<Req>,
    presented: Option<Req>,
    next_tag: u64,
    rng: StdRng,
    /// Chance per clock of presenting a queued request.
    req_pct: u32,
    /// Chance per clock of done_ready.
    done_ready_pct: u32,
    /// Drive random junk on the request payload while req_valid is low.
    junk_payload: bool,
    /// Pulse flush (with this command) / rst on the next clock.
    flush_next: Option<Flush>,
    /// The flush of the last clock, compared in this one.
    fl_pending: Option<Flush>,
    rst_next: bool,
    prev: Option<(Inputs, Outputs)>,
    completions: Vec<Completion>,
    /// (tag, slot, coalesced) of every accepted request.
    accepted: Vec<(u64, u8, bool)>,
    /// Requests dropped by rst.
    cancelled: Vec<u64>,
    max_walks_in_flight: usize,
    max_reads_in_flight: usize,
    /// done_valid expected on this clock (decided on the last edge).
    done_expect: bool,
    /// A request was offered in the last clock and not taken: the walker
    /// may take it in this one (it compares a request with the walks in
    /// the clock it is first offered).
    armed: bool,
    /// The clock the request in `presented` was first offered.
    presented_clock: u64,
}

/// Reads never reach this frame range; tables live in it.
const TABLE_BASE_FRAME: u64 = 0x10_0000;
const TABLE_END_FRAME: u64 = 0x20_0000;

impl<D: Dut> Bench<D> {
    fn new(dut: D, slots: usize, cfg: MemConfig, seed: u64) -> Self {
        Self {
            dut,
            axi: AxiPorts::read("m_axi"),
            slots,
            mem: HostMemory::new(cfg),
            mon: AxiMonitor::new(),
            tables: PageTableBuilder::new(TABLE_BASE_FRAME, TABLE_END_FRAME),
            model: (0..slots).map(|_| Slot::free()).collect(),
            clock: 0,
            mrs: HashMap::new(),
            queue: VecDeque::new(),
            presented: None,
            next_tag: 0,
            rng: StdRng::seed_from_u64(seed ^ 0x5eed),
            req_pct: 100,
            done_ready_pct: 100,
            junk_payload: false,
            flush_next: None,
            fl_pending: None,
            rst_next: false,
            prev: None,
            completions: Vec::new(),
            accepted: Vec::new(),
            cancelled: Vec::new(),
            max_walks_in_flight: 0,
            max_reads_in_flight: 0,
            done_expect: false,
            armed: false,
            presented_clock: 0,
        }
    }

    fn new_mr(&mut self, mr: u8, levels: u8) -> MrTables {
        let t = self.tables.new_mr(levels);
        self.mrs.insert(mr, t);
        t
    }

    fn request(&mut self, mr: u8, off: u64) -> u64 {
        let tag = self.next_tag;
        self.next_tag += 1;
        self.queue.push_back(Req { tag, mr, off });
        tag
    }

    fn pct(&mut self, p: u32) -> bool {
        p >= 100 || self.rng.gen_range(0..100) < p
    }

    fn busy(&self) -> bool {
        !self.queue.is_empty()
            || self.presented.is_some()
            || self.model.iter().any(|s| s.st != SlotModel::Free)
    }

    /// Runs until every request is answered and every slot is free.
    fn run_until_idle(&mut self, limit: u64) {
        let end = self.clock + limit;
        while self.busy() {
            assert!(self.clock < end, "walker not idle after {limit} clocks");
            self.step();
        }
    }

    fn run(&mut self, clocks: u64) {
        for _ in 0..clocks {
            self.step();
        }
    }

    fn completion_for(&self, tag: u64) -> &Completion {
        self.completions
            .iter()
            .find(|c| c.reqs.contains(&tag))
            .unwrap_or_else(|| panic!("request {tag} has no completion"))
    }

    /// The reference outcome for a request to `mr`/`off` in today's memory.
    fn reference(&self, mr: u8, off: u64) -> (Outcome, Vec<u64>) {
        let t = self.mrs[&mr];
        walk_trace(&self.mem, t.root, t.levels_m1, off)
    }

    /// One clock.
    fn step(&mut self) -> Outputs {
        let s = self.mem.outputs();
        if self.presented.is_none() && !self.queue.is_empty() && self.pct(self.req_pct) {
            self.presented = self.queue.pop_front();
            self.presented_clock = self.clock;
        }
        let f = self.flush_next.unwrap_or_default();
        let mut i = Inputs {
            rst: self.rst_next,
            flush: self.flush_next.is_some(),
            flush_kind: f.kind,
            flush_mr: f.mr,
            flush_off_lo: f.lo,
            flush_off_hi: f.hi,
            done_ready: self.pct(self.done_ready_pct),
            ..Default::default()
        };
        if self.flush_next.is_none() && self.junk_payload {
            i.flush_kind = self.rng.gen_range(0..4);
            i.flush_mr = self.rng.gen();
            i.flush_off_lo = self.rng.gen();
            i.flush_off_hi = self.rng.gen();
        }
        // The probe: the pending flush's MR and a page near its range, or
        // a random walk's, or junk.
        let pf = self.fl_pending.unwrap_or_default();
        (i.probe_mr, i.probe_off) = match self.rng.gen_range(0..4) {
            0 => (self.rng.gen(), self.rng.gen()),
            1 => {
                let k = self.rng.gen_range(0..self.slots);
                (self.model[k].mr, self.model[k].off)
            }
            _ => {
                let bits = self.rng.gen_range(12..32);
                let d = self.rng.gen_range(0..1u64 << bits);
                let base = if self.rng.gen() { pf.lo } else { pf.hi };
                (
                    pf.mr,
                    if self.rng.gen() {
                        base.wrapping_add(d)
                    } else {
                        base.wrapping_sub(d)
                    },
                )
            }
        };
        i.probe_size = self.rng.gen_range(0..3);
        // The R payload while rvalid is low: zero, or junk to be ignored.
        let mut idle_r = RBeat::default();
        if s.r.is_none() && self.junk_payload {
            idle_r = RBeat {
                id: self.rng.gen_range(0..16),
                data: self.rng.gen(),
                resp: self.rng.gen_range(0..4),
                last: false,
            };
        }
        if let Some(req) = self.presented {
            let t = self.mrs[&req.mr];
            i.req_valid = true;
            i.req_mr = req.mr;
            i.req_off = req.off;
            i.req_root = t.root;
            i.req_levels_m1 = t.levels_m1;
        } else if self.junk_payload {
            i.req_mr = self.rng.gen();
            i.req_off = self.rng.gen();
            i.req_root = self.rng.gen::<u64>() & ((1 << 52) - 1);
            i.req_levels_m1 = self.rng.gen_range(0..4);
        }
        let o = cycle(&mut self.dut, &self.axi, &i, &s, idle_r);
        self.mon.check(&o.axi, &s);
        self.check_and_update(&i, &o, &s);
        self.mem.edge(&o.axi);
        self.prev = Some((i, o));
        self.rst_next = false;
        self.flush_next = None;
        self.clock += 1;
        o
    }

    fn check_and_update(&mut self, i: &Inputs, o: &Outputs, s: &SlaveOut) {
        let c = self.clock;
        let n = self.slots;
        // ---- Outputs against the model (state before the edge).
        assert!(o.axi.rready, "clock {c}: rready must always be high");
        if let Some(ar) = o.axi.ar {
            assert_eq!(
                (ar.len, ar.size, ar.burst),
                (0, 3, 1),
                "clock {c}: AR fields"
            );
            let id = ar.id as usize;
            assert!(id < n, "clock {c}: arid {id} >= SLOTS {n}");
            match self.model[id].st {
                SlotModel::Walking {
                    table,
                    level,
                    ar_out: false,
                } => {
                    let want = pte_address(table, level, self.model[id].off);
                    assert_eq!(
                        ar.addr, want,
                        "clock {c}: araddr of slot {id} (level {level})"
                    );
                }
                SlotModel::Orphan { ar_out: false } => {}
                ref st => panic!("clock {c}: AR from slot {id} in state {st:?}"),
            }
        }
        let done_now: Vec<bool> = self
            .model
            .iter()
            .map(|s| matches!(s.st, SlotModel::Done(_)))
            .collect();
        if i.rst {
            assert!(!o.done_valid, "clock {c}: done_valid during rst");
            assert!(!o.req_ready, "clock {c}: req_ready during rst");
        } else {
            assert_eq!(
                o.done_valid, self.done_expect,
                "clock {c}: done_valid vs finished walks"
            );
        }
        if o.done_valid {
            let id = o.done_id as usize;
            assert!(id < n, "clock {c}: done_id {id}");
            let slot = &mut self.model[id];
            let SlotModel::Done(outcome) = slot.st else {
                panic!(
                    "clock {c}: completion from slot {id} in state {:?}",
                    slot.st
                )
            };
            slot.first_done_clock.get_or_insert(c);
            assert_eq!(
                (o.done_mr, o.done_off, o.done_stale),
                (slot.mr, slot.off, slot.stale.of(&outcome)),
                "clock {c}: completion of slot {id}: mr, off, stale ({:?})",
                slot.stale
            );
            let got = decode(o);
            assert_eq!(
                got, outcome,
                "clock {c}: completion of slot {id} (off {:#x})",
                slot.off
            );
            if !matches!(outcome, Outcome::Ok { .. }) {
                assert_eq!(
                    (o.done_ppn, o.done_size, o.done_writable),
                    (0, 0, false),
                    "clock {c}: a failed walk reports no leaf"
                );
            }
        }
        if let Some((pi, po)) = self.prev {
            if po.done_valid && !pi.done_ready && !i.rst {
                let keep = |x: &Outputs| {
                    (
                        x.done_valid,
                        x.done_id,
                        x.done_status,
                        x.done_mr,
                        x.done_off,
                        x.done_ppn,
                        x.done_size,
                        x.done_writable,
                    )
                };
                assert_eq!(
                    keep(o),
                    keep(&po),
                    "clock {c}: completion changed while not ready"
                );
                // The one exception: a flush may make a waiting completion
                // stale; it never becomes fresh again.
                assert!(
                    o.done_stale || !po.done_stale,
                    "clock {c}: done_stale fell while not ready"
                );
            }
        }
        assert_eq!(
            o.flush_busy,
            self.fl_pending.is_some(),
            "clock {c}: flush_busy"
        );
        let probe_want = self.fl_pending.is_some_and(|f| {
            let (page, r2, r1) = covers(&f, i.probe_mr, i.probe_off);
            page || (i.probe_size == 1 && r2) || (i.probe_size == 2 && r1)
        });
        assert_eq!(
            o.probe_stale, probe_want,
            "clock {c}: probe_stale for mr {} off {:#x} size {} against {:x?}",
            i.probe_mr, i.probe_off, i.probe_size, self.fl_pending
        );
        if i.req_valid {
            let page = i.req_off >> 12;
            let matches: Vec<usize> = (0..n)
                .filter(|&k| {
                    let s = &self.model[k];
                    matches!(s.st, SlotModel::Walking { .. })
                        && !s.stale.page
                        && s.mr == i.req_mr
                        && s.off >> 12 == page
                })
                .collect();
            assert!(
                matches.len() <= 1,
                "clock {c}: two live walks of one page: {matches:?}"
            );
            let coalesce_with = matches.first().copied();
            let any_free = self.model.iter().any(|s| s.st == SlotModel::Free);
            let ready = !i.rst && self.armed && (coalesce_with.is_some() || any_free);
            assert_eq!(o.req_ready, ready, "clock {c}: req_ready");
            if o.req_ready {
                assert_eq!(
                    o.req_coalesced,
                    coalesce_with.is_some(),
                    "clock {c}: req_coalesced"
                );
                match coalesce_with {
                    Some(k) => assert_eq!(o.req_id as usize, k, "clock {c}: coalesced req_id"),
                    None => assert_eq!(
                        self.model[o.req_id as usize].st,
                        SlotModel::Free,
                        "clock {c}: req_id {} is not free",
                        o.req_id
                    ),
                }
            }
        }

        // ---- The edge.
        let ar_fire = o.axi.ar.is_some() && s.arready;
        let r_fire = s.r.filter(|_| o.axi.rready);
        let done_fire = o.done_valid && i.done_ready;
        let req_fire = i.req_valid && o.req_ready;
        // The completion register, chosen on this edge, is busy on the next
        // clock when it is held, or some other walk is Done, or this edge's
        // R beat finishes a walk.
        let held = o.done_valid && !i.done_ready;
        let waiting = (0..n).any(|k| done_now[k] && !(o.done_valid && o.done_id as usize == k));
        // The slots a pending flush is compared with: every one holding a
        // walk before this edge.
        let holding: Vec<bool> = self.model.iter().map(|s| s.st != SlotModel::Free).collect();
        let finishing =
            r_fire.is_some_and(|r| match self.model.get(r.id as usize).map(|s| &s.st) {
                Some(SlotModel::Walking {
                    level,
                    ar_out: true,
                    ..
                }) => matches!(walk_step(*level, r.data, r.resp), Step::Finish(_)),
                _ => false,
            });
        self.done_expect = !i.rst && (held || waiting || finishing);
        self.armed = i.req_valid && !req_fire && !i.rst;
        if i.rst {
            for k in 0..n {
                let slot = &mut self.model[k];
                let r_here = r_fire.is_some_and(|r| r.id as usize == k);
                let ar_out = matches!(
                    slot.st,
                    SlotModel::Walking { ar_out: true, .. } | SlotModel::Orphan { ar_out: true }
                );
                let presenting = o.axi.ar.is_some_and(|ar| ar.id as usize == k);
                self.cancelled.append(&mut slot.reqs);
                slot.st = if r_here {
                    assert!(ar_out, "clock {c}: R for slot {k} with no read out");
                    SlotModel::Free
                } else if ar_out {
                    SlotModel::Orphan { ar_out: true }
                } else if presenting {
                    SlotModel::Orphan { ar_out: ar_fire }
                } else {
                    SlotModel::Free
                };
                slot.stale = StaleFlags::default();
            }
        } else {
            for slot in self.model.iter_mut() {
                if slot.st == SlotModel::OutOfReach {
                    slot.st = SlotModel::Done(Outcome::Fatal);
                }
            }
            if let Some(r) = r_fire {
                let k = r.id as usize;
                assert!(k < n, "clock {c}: R beat for ID {k}");
                let slot = &mut self.model[k];
                slot.st = match slot.st {
                    SlotModel::Orphan { ar_out: true } => SlotModel::Free,
                    SlotModel::Walking {
                        level,
                        ar_out: true,
                        ..
                    } => {
                        slot.reads += 1;
                        match walk_step(level, r.data, r.resp) {
                            Step::Finish(outcome) => SlotModel::Done(outcome),
                            Step::Descend(frame) => SlotModel::Walking {
                                table: frame,
                                level: level - 1,
                                ar_out: false,
                            },
                        }
                    }
                    ref st => panic!("clock {c}: R beat for slot {k} in state {st:?}"),
                };
            }
            if done_fire {
                let k = o.done_id as usize;
                let slot = std::mem::replace(&mut self.model[k], Slot::free());
                let SlotModel::Done(outcome) = slot.st else {
                    unreachable!()
                };
                self.completions.push(Completion {
                    clock: c,
                    slot: k as u8,
                    mr: slot.mr,
                    off: slot.off,
                    outcome,
                    stale: slot.stale.of(&outcome),
                    flushed: slot.flushed,
                    reqs: slot.reqs,
                    reads: slot.reads,
                    latency: slot.first_done_clock.unwrap() - slot.start_clock,
                    latency_from_offer: slot.first_done_clock.unwrap() - slot.offered_clock,
                });
            }
            if req_fire {
                let req = self.presented.take().unwrap();
                self.accepted.push((req.tag, o.req_id, o.req_coalesced));
                let slot = &mut self.model[o.req_id as usize];
                if o.req_coalesced {
                    slot.reqs.push(req.tag);
                } else {
                    let t = self.mrs[&req.mr];
                    *slot = Slot {
                        st: if out_of_reach(req.off, t.levels_m1) {
                            SlotModel::OutOfReach
                        } else {
                            SlotModel::Walking {
                                table: t.root,
                                level: t.levels_m1,
                                ar_out: false,
                            }
                        },
                        mr: req.mr,
                        off: req.off,
                        stale: StaleFlags::default(),
                        flushed: false,
                        reqs: vec![req.tag],
                        reads: 0,
                        start_clock: c,
                        offered_clock: self.presented_clock,
                        first_done_clock: None,
                    };
                }
            }
            if let Some(f) = self.fl_pending {
                for (k, slot) in self.model.iter_mut().enumerate() {
                    // A slot whose completion this edge takes is free now.
                    if holding[k] && slot.st != SlotModel::Free {
                        slot.stale.add(covers(&f, slot.mr, slot.off));
                        slot.flushed = true;
                    }
                }
            }
        }
        self.fl_pending = if i.flush && !i.rst {
            Some(Flush {
                kind: i.flush_kind,
                mr: i.flush_mr,
                lo: i.flush_off_lo,
                hi: i.flush_off_hi,
            })
        } else {
            None
        };
        // AR after R: a slot's next AR can not be accepted on the edge that
        // delivers its previous R (the walker presents it a clock later).
        if let Some(ar) = o.axi.ar.filter(|_| ar_fire) {
            let k = ar.id as usize;
            match &mut self.model[k].st {
                SlotModel::Walking { ar_out, .. } | SlotModel::Orphan { ar_out } if !i.rst => {
                    assert!(!*ar_out, "clock {c}: second AR from slot {k}");
                    *ar_out = true;
                }
                _ => {} // handled by the rst branch above
            }
        }
        self.max_walks_in_flight = self.max_walks_in_flight.max(
            self.model
                .iter()
                .filter(|s| !matches!(s.st, SlotModel::Free | SlotModel::Orphan { .. }))
                .count(),
        );
        self.max_reads_in_flight = self.max_reads_in_flight.max(self.mon.outstanding_reads());
    }
}

fn decode(o: &Outputs) -> Outcome {
    match o.done_status {
        0 => Outcome::Ok {
            ppn: o.done_ppn,
            size: match o.done_size {
                0 => PageSize::Size4K,
                1 => PageSize::Size2M,
                2 => PageSize::Size1G,
                s => panic!("done_size {s}"),
            },
            writable: o.done_writable,
        },
        1 => Outcome::NotPresent,
        2 => Outcome::Fatal,
        s => panic!("done_status {s}"),
    }
}

fn lockstep8(cfg: MemConfig) -> Bench<Locked<WalkerPorts<8>>> {
    Bench::new(lockstep::<8>(), 8, cfg, 1)
}

/// A data frame number for test mappings (below the table pool).
fn frame(n: u64) -> u64 {
    0x4_0000 + n
}

/// Runs one request to completion and checks it against the reference walk;
/// returns the completion.
fn walk_once<D: Dut>(b: &mut Bench<D>, mr: u8, off: u64) -> Completion {
    let (want, trace) = b.reference(mr, off);
    let ars_before = b.mon.ar_count;
    let tag = b.request(mr, off);
    b.run_until_idle(10_000);
    let c = b.completion_for(tag).clone();
    assert_eq!(c.outcome, want, "mr {mr} off {off:#x}");
    assert_eq!(c.reads, trace.len(), "PTE reads for off {off:#x}");
    assert_eq!(b.mon.ar_count - ars_before, trace.len() as u64, "AR count");
    assert!(!c.stale);
    c
}

// ---------------------------------------------------------------------------
// Directed tests.

#[test]
fn walker_walks_4k_leaf_at_every_depth() {
    let mut b = lockstep8(MemConfig::fixed(3));
    for levels in 1..=4u8 {
        let mr = levels;
        let t = b.new_mr(mr, levels);
        let off = 0x1234_5000 & ((1u64 << (12 + 9 * levels as u64)) - 1) | 0x123;
        b.tables.map(
            &mut b.mem,
            t,
            off,
            PageSize::Size4K,
            frame(levels as u64),
            true,
        );
        let c = walk_once(&mut b, mr, off);
        assert_eq!(
            c.outcome,
            Outcome::Ok {
                ppn: frame(levels as u64),
                size: PageSize::Size4K,
                writable: true
            }
        );
        assert_eq!(c.reads, levels as usize);
    }
}

#[test]
fn walker_reports_not_present_at_each_level() {
    let mut b = lockstep8(MemConfig::fixed(2));
    let t = b.new_mr(0, 4);
    for level in 0..4u8 {
        let off = (level as u64 + 1) << 39 | (level as u64) << 30 | 0x5000;
        // Build the path, then write a PTE with P clear (other bits set).
        b.tables.set_pte(
            &mut b.mem,
            t,
            off,
            level,
            (frame(9) << 12) | pte::W | pte::H,
        );
        let c = walk_once(&mut b, 0, off);
        assert_eq!(c.outcome, Outcome::NotPresent);
        assert_eq!(
            c.reads,
            4 - level as usize,
            "a clear P at level {level} ends the walk"
        );
    }
}

#[test]
fn walker_reports_w_clear_leaf_as_read_only() {
    let mut b = lockstep8(MemConfig::fixed(2));
    let t = b.new_mr(3, 3);
    b.tables
        .map(&mut b.mem, t, 0x7000, PageSize::Size4K, frame(7), false);
    b.tables
        .map(&mut b.mem, t, 0x8000, PageSize::Size4K, frame(8), true);
    let ro = walk_once(&mut b, 3, 0x7008);
    let rw = walk_once(&mut b, 3, 0x8008);
    assert!(matches!(
        ro.outcome,
        Outcome::Ok {
            writable: false,
            ..
        }
    ));
    assert!(matches!(rw.outcome, Outcome::Ok { writable: true, .. }));
}

#[test]
fn walker_finds_2m_leaf_at_level_1_and_1g_leaf_at_level_2() {
    let mut b = lockstep8(MemConfig::fixed(4));
    for levels in 2..=4u8 {
        let t = b.new_mr(levels, levels);
        let off2m = 0x0060_0000 + 0x1_2345;
        b.tables
            .map(&mut b.mem, t, off2m, PageSize::Size2M, 0x200 * 5, true);
        let c = walk_once(&mut b, levels, off2m);
        assert_eq!(
            c.outcome,
            Outcome::Ok {
                ppn: 0x200 * 5,
                size: PageSize::Size2M,
                writable: true
            }
        );
        assert_eq!(c.reads, levels as usize - 1);
        if levels >= 3 {
            let off1g = 0x8000_0000 + 0x123_4567;
            b.tables
                .map(&mut b.mem, t, off1g, PageSize::Size1G, 0x4_0000 * 3, false);
            let c = walk_once(&mut b, levels, off1g);
            assert_eq!(
                c.outcome,
                Outcome::Ok {
                    ppn: 0x4_0000 * 3,
                    size: PageSize::Size1G,
                    writable: false
                }
            );
            assert_eq!(c.reads, levels as usize - 2);
        }
    }
}

#[test]
fn walker_ignores_h_at_level_0_and_faults_h_at_level_3() {
    let mut b = lockstep8(MemConfig::fixed(2));
    let t = b.new_mr(1, 4);
    b.tables
        .set_pte(&mut b.mem, t, 0x3000, 0, (frame(3) << 12) | pte::P | pte::H);
    let c = walk_once(&mut b, 1, 0x3000);
    assert_eq!(
        c.outcome,
        Outcome::Ok {
            ppn: frame(3),
            size: PageSize::Size4K,
            writable: false
        }
    );
    let off = 5u64 << 39;
    b.tables.set_pte(
        &mut b.mem,
        t,
        off,
        3,
        (frame(0) << 12) | pte::P | pte::W | pte::H,
    );
    let c = walk_once(&mut b, 1, off);
    assert_eq!(c.outcome, Outcome::Fatal);
    assert_eq!(c.reads, 1);
}

#[test]
fn walker_faults_off_out_of_reach_without_reading_memory() {
    let mut b = lockstep8(MemConfig::fixed(2));
    for levels in 1..=4u8 {
        let t = b.new_mr(levels, levels);
        let reach = 1u64 << (12 + 9 * levels as u64);
        // The last page in reach walks; the first byte beyond it does not.
        b.tables
            .map(&mut b.mem, t, reach - 1, PageSize::Size4K, frame(1), true);
        let inside = walk_once(&mut b, levels, reach - 1);
        assert!(matches!(inside.outcome, Outcome::Ok { .. }));
        for off in [reach, u64::MAX, reach | 0xfff, 1 << 63] {
            let c = walk_once(&mut b, levels, off);
            assert_eq!(c.outcome, Outcome::Fatal, "levels {levels} off {off:#x}");
            assert_eq!(c.reads, 0);
            assert_eq!(c.latency, 3, "an unreachable off completes in 3 clocks");
        }
    }
}

#[test]
fn walker_reports_slverr_and_decerr_at_each_level_as_fatal() {
    let mut b = lockstep8(MemConfig::fixed(3));
    let t = b.new_mr(2, 4);
    let mut k = 0;
    for resp in [RESP_SLVERR, RESP_DECERR] {
        for level in 0..4u8 {
            k += 1;
            let off = (k << 30) | 0x9000;
            b.tables
                .map(&mut b.mem, t, off, PageSize::Size4K, frame(k), true);
            let addr = b.tables.pte_addr(&mut b.mem, t, off, level);
            b.mem.inject_error(addr..addr + 8, resp);
            let c = walk_once(&mut b, 2, off);
            assert_eq!(c.outcome, Outcome::Fatal, "resp {resp} at level {level}");
            assert_eq!(c.reads, 4 - level as usize);
            b.mem.clear_errors();
            let ok = walk_once(&mut b, 2, off);
            assert!(matches!(ok.outcome, Outcome::Ok { .. }));
        }
    }
}

#[test]
fn walker_second_miss_to_same_page_waits_on_first() {
    let mut b = lockstep8(MemConfig::fixed(20));
    let t = b.new_mr(4, 4);
    let u = b.new_mr(5, 4);
    b.tables
        .map(&mut b.mem, t, 0xabc_d000, PageSize::Size4K, frame(42), true);
    b.tables
        .map(&mut b.mem, u, 0xabc_d000, PageSize::Size4K, frame(43), true);
    let first = b.request(4, 0xabc_d010);
    b.run(10); // the first walk is reading its second level
    let second = b.request(4, 0xabc_dff8);
    let other_mr = b.request(5, 0xabc_d010);
    b.run_until_idle(10_000);
    let acc: HashMap<u64, (u8, bool)> = b.accepted.iter().map(|&(t, s, c)| (t, (s, c))).collect();
    assert!(!acc[&first].1);
    assert_eq!(
        acc[&second],
        (acc[&first].0, true),
        "the second miss joins the first walk"
    );
    assert!(!acc[&other_mr].1, "another MR's page is another walk");
    let c = b.completion_for(first).clone();
    assert_eq!(c.reqs, vec![first, second], "one completion answers both");
    assert_eq!(c.reads, 4);
    assert_eq!(b.completions.len(), 2);
    assert_eq!(b.mon.ar_count, 8, "one AR sequence per walk");
    assert_eq!(
        b.mem
            .ar_log
            .iter()
            .filter(|(_, ar)| ar.id == acc[&first].0)
            .count(),
        4
    );
}

#[test]
fn walker_keeps_8_walks_in_flight() {
    let mut b = lockstep8(MemConfig::fixed(60));
    let t = b.new_mr(0, 2);
    let mut tags = Vec::new();
    for k in 0..9u64 {
        b.tables
            .map(&mut b.mem, t, k << 21, PageSize::Size4K, frame(k), true);
        tags.push(b.request(0, k << 21));
    }
    b.run(20);
    assert_eq!(
        b.mon.outstanding_reads(),
        8,
        "eight reads on the bus at once"
    );
    assert!(b.presented.is_some(), "the ninth request waits for a slot");
    b.run_until_idle(10_000);
    assert_eq!(b.max_reads_in_flight, 8);
    assert_eq!(b.max_walks_in_flight, 8);
    for (k, &tag) in tags.iter().enumerate() {
        let c = b.completion_for(tag);
        assert_eq!(
            c.outcome,
            Outcome::Ok {
                ppn: frame(k as u64),
                size: PageSize::Size4K,
                writable: true
            }
        );
    }
    println!(
        "max walks in flight {}, max reads in flight {}",
        b.max_walks_in_flight, b.max_reads_in_flight
    );
}

#[test]
fn walker_completes_out_of_order() {
    let mut b = lockstep8(MemConfig::fixed(10));
    let deep = b.new_mr(1, 4);
    let flat = b.new_mr(2, 1);
    b.tables
        .map(&mut b.mem, deep, 0x5000, PageSize::Size4K, frame(1), true);
    b.tables
        .map(&mut b.mem, flat, 0x5000, PageSize::Size4K, frame(2), true);
    let slow = b.request(1, 0x5000);
    let fast = b.request(2, 0x5000);
    b.run_until_idle(1000);
    let order: Vec<u64> = b.completions.iter().map(|c| c.reqs[0]).collect();
    assert_eq!(
        order,
        vec![fast, slow],
        "a one-level walk overtakes a four-level one"
    );

    // Data returned out of order across IDs by the memory.
    let mut cfg = MemConfig::random(1, 80, 7);
    cfg.arready_pct = 100;
    let mut b = lockstep8(cfg);
    let t = b.new_mr(0, 2);
    for k in 0..8u64 {
        b.tables
            .map(&mut b.mem, t, k << 21, PageSize::Size4K, frame(k), true);
        b.request(0, k << 21);
    }
    b.run_until_idle(10_000);
    let order: Vec<u64> = b.completions.iter().map(|c| c.reqs[0]).collect();
    assert_ne!(
        order,
        (0..8).collect::<Vec<_>>(),
        "random latencies reorder completions"
    );
}

#[test]
fn walker_flush_marks_walks_in_flight_stale() {
    let mut b = lockstep8(MemConfig::fixed(30));
    let t = b.new_mr(0, 3);
    b.tables
        .map(&mut b.mem, t, 0x1000, PageSize::Size4K, frame(1), true);
    b.tables
        .map(&mut b.mem, t, 0x2000, PageSize::Size4K, frame(2), true);
    let a = b.request(0, 0x1000);
    let bb = b.request(0, 0x2000);
    b.run(40);
    // The driver remaps page 1, then the invalidation unit pulses flush
    // (ALL).
    b.tables
        .map(&mut b.mem, t, 0x1000, PageSize::Size4K, frame(11), true);
    b.flush_next = Some(Flush::default());
    b.step();
    // The walker compares the flush in the next clock (a request offered
    // then may still join the walk, and is answered stale with it); from
    // the clock after, a request for page 1 must not join the stale walk.
    b.step();
    let again = b.request(0, 0x1000);
    b.run_until_idle(10_000);
    assert!(b.completion_for(a).stale);
    assert!(b.completion_for(bb).stale);
    let c = b.completion_for(again);
    assert!(!c.stale);
    assert_ne!(
        c.slot,
        b.completion_for(a).slot,
        "a fresh walk, not the stale one"
    );
    assert_eq!(
        c.outcome,
        Outcome::Ok {
            ppn: frame(11),
            size: PageSize::Size4K,
            writable: true
        }
    );
    let acc: HashMap<u64, bool> = b.accepted.iter().map(|&(t, _, c)| (t, c)).collect();
    assert!(!acc[&again]);

    // A completion waiting on done_ready at the flush is stale too, and a
    // request accepted on the flush clock itself is stale.
    b.done_ready_pct = 0;
    let waiting = b.request(0, 0x2000);
    b.run(200);
    assert!(b.model.iter().any(|s| matches!(s.st, SlotModel::Done(_))));
    let on_flush = b.request(0, 0x1000);
    // Its first clock offered (compared, not taken), then the flush clock.
    b.step();
    assert!(!b.accepted.iter().any(|&(t, _, _)| t == on_flush));
    b.flush_next = Some(Flush::default());
    b.step();
    assert!(
        b.accepted.iter().any(|&(t, _, _)| t == on_flush),
        "accepted on the flush clock"
    );
    // The caller takes no completion while the flush is compared
    // (`flush_busy`).
    b.step();
    b.done_ready_pct = 100;
    b.run_until_idle(10_000);
    assert!(b.completion_for(waiting).stale);
    assert!(b.completion_for(on_flush).stale);
}

/// A flush marks only the walks it covers, by the leaf each finds: a range
/// of the walk's own page, a range in the 2 MiB / 1 GiB region of a walk
/// whose leaf is that large, its MR, everything; not a walk of another page
/// whose leaf is small, of another MR, a kind-3 command or a range above
/// 2^48. Uncovered walks complete as usual and keep taking joiners.
#[test]
fn walker_flush_marks_only_the_walks_it_covers() {
    let mut b = lockstep8(MemConfig::fixed(60));
    let t = b.new_mr(0, 3);
    let u = b.new_mr(1, 2);
    let four_k = [0x1000, 0x5000, 0x4000_5000u64];
    for (k, &off) in four_k.iter().enumerate() {
        b.tables
            .map(&mut b.mem, t, off, PageSize::Size4K, frame(k as u64), true);
    }
    b.tables.map(
        &mut b.mem,
        t,
        0x40_0000,
        PageSize::Size2M,
        frame(0x200),
        true,
    );
    b.tables.map(
        &mut b.mem,
        t,
        0x8000_0000,
        PageSize::Size1G,
        frame(0x4_0000),
        true,
    );
    b.tables
        .map(&mut b.mem, u, 0x1000, PageSize::Size4K, frame(9), true);
    let range = |lo: u64, hi: u64| Flush {
        kind: 2,
        mr: 0,
        lo,
        hi,
    };
    // Every flush comes while all six walks are reading memory.
    let page = b.request(0, 0x1000);
    let other_page = b.request(0, 0x5000);
    let far_4k = b.request(0, 0x4000_5000);
    let leaf_2m = b.request(0, 0x40_3000);
    let leaf_1g = b.request(0, 0x8000_7000);
    let other_mr = b.request(1, 0x1000);
    b.run(20);
    let flushes = [
        range(0x1800, 0x1900),           // page 1 only
        range(0x50_0000, 0x50_1000),     // the 2 MiB leaf's region, not its page
        range(0x4000_0000, 0x4000_1000), // the 1 GiB region of far_4k, not its page
        range(0xbfff_f000, 0xc000_0000), // the 1 GiB leaf's region, last page
        range(1 << 48, u64::MAX),        // above what a walk reaches
        Flush {
            kind: 3,
            ..range(0, u64::MAX)
        }, // none
        Flush {
            kind: 1,
            mr: 2,
            lo: 0,
            hi: 0,
        }, // another MR, which walks nothing
    ];
    for f in flushes {
        b.flush_next = Some(f);
        b.step();
        b.step();
    }
    // Joiners: a request for the covered page starts a fresh walk; one for
    // a page only possibly stale (the 2 MiB leaf's) still joins.
    let page_again = b.request(0, 0x1000);
    let joins_2m = b.request(0, 0x40_3000);
    let joins_other = b.request(0, 0x5000);
    b.run(10);
    b.run_until_idle(10_000);
    let stale = |b: &Bench<_>, tag| b.completion_for(tag).stale;
    assert!(stale(&b, page), "the range covers the walk's page");
    assert!(!stale(&b, other_page), "another 4 KiB page of the MR");
    assert!(
        !stale(&b, far_4k),
        "a 4 KiB leaf whose 1 GiB region the range meets"
    );
    assert!(
        stale(&b, leaf_2m),
        "a 2 MiB leaf whose region the range meets"
    );
    assert!(
        stale(&b, leaf_1g),
        "a 1 GiB leaf whose region the range meets"
    );
    assert!(!stale(&b, other_mr), "another MR");
    assert!(!stale(&b, page_again), "a walk started after the flush");
    let acc: HashMap<u64, bool> = b.accepted.iter().map(|&(t, _, c)| (t, c)).collect();
    assert!(!acc[&page_again], "no join onto a walk of a covered page");
    assert!(acc[&joins_2m], "a possibly stale walk still takes joiners");
    assert!(acc[&joins_other], "an uncovered walk takes joiners");
    assert_eq!(
        b.completion_for(joins_2m).slot,
        b.completion_for(leaf_2m).slot
    );

    // BY_MR covers every walk of its MR and none of another.
    let m0 = b.request(0, 0x5000);
    let m1 = b.request(1, 0x1000);
    b.run(20);
    b.flush_next = Some(Flush {
        kind: 1,
        mr: 1,
        lo: 0,
        hi: 0,
    });
    b.run_until_idle(10_000);
    assert!(!stale(&b, m0));
    assert!(stale(&b, m1));
}

#[test]
fn walker_holds_completions_under_done_backpressure() {
    let mut cfg = MemConfig::fixed(5);
    cfg.reorder = true;
    let mut b = lockstep8(cfg);
    let t = b.new_mr(0, 2);
    for k in 0..12u64 {
        b.tables.map(
            &mut b.mem,
            t,
            k << 21,
            PageSize::Size4K,
            frame(k),
            k % 2 == 0,
        );
        b.request(0, k << 21);
    }
    b.done_ready_pct = 0;
    b.run(300);
    assert!(b.completions.is_empty());
    assert_eq!(
        b.model
            .iter()
            .filter(|s| matches!(s.st, SlotModel::Done(_)))
            .count(),
        8,
        "all eight walks finished and wait"
    );
    b.done_ready_pct = 30; // the bench checks payload stability every clock
    b.run_until_idle(10_000);
    assert_eq!(b.completions.len(), 12);
}

#[test]
fn walker_reset_drains_reads_already_on_the_bus() {
    let mut b = lockstep8(MemConfig::fixed(50));
    let t = b.new_mr(0, 4);
    for k in 0..8u64 {
        b.tables
            .map(&mut b.mem, t, k << 30, PageSize::Size4K, frame(k), true);
        b.request(0, k << 30);
    }
    b.run(30);
    assert!(b.mon.outstanding_reads() > 0);
    b.rst_next = true;
    b.step();
    let orphans = b
        .model
        .iter()
        .filter(|s| matches!(s.st, SlotModel::Orphan { .. }))
        .count();
    assert!(orphans > 0, "reads on the bus at reset");
    assert!(b.completions.is_empty());
    // New work after reset: served by the free slots, then by the drained ones.
    b.queue.clear();
    let after: Vec<u64> = (0..8u64).map(|k| b.request(0, k << 30)).collect();
    b.run_until_idle(10_000);
    assert_eq!(b.mon.outstanding_reads(), 0);
    for (k, tag) in after.into_iter().enumerate() {
        let c = b.completion_for(tag);
        assert_eq!(
            c.outcome,
            Outcome::Ok {
                ppn: frame(k as u64),
                size: PageSize::Size4K,
                writable: true
            }
        );
    }
    assert_eq!(
        b.completions.len(),
        8,
        "no completion from a cancelled walk"
    );
    assert_eq!(b.mon.r_count, b.mon.ar_count, "every R beat taken");
}

#[test]
fn walker_reset_keeps_a_presented_ar_until_accepted() {
    let mut cfg = MemConfig::fixed(5);
    cfg.arready_pct = 0;
    let mut b = lockstep8(cfg);
    let t = b.new_mr(0, 2);
    b.tables
        .map(&mut b.mem, t, 0x1000, PageSize::Size4K, frame(1), true);
    b.request(0, 0x1000);
    b.run(5);
    let o = b.prev.unwrap().1;
    assert!(o.axi.ar.is_some());
    b.rst_next = true;
    b.step(); // the AxiMonitor fails if arvalid drops here
    assert_eq!(b.model[0].st, SlotModel::Orphan { ar_out: false });
    b.run(10);
    b.mem.cfg.arready_pct = 100;
    b.run_until_idle(1000);
    assert_eq!(b.mon.ar_count, 1);
    assert_eq!(b.mon.r_count, 1);
    assert!(b.completions.is_empty());
}

#[test]
fn walker_latency_is_levels_times_memory_latency_plus_levels_plus_3() {
    let mut report = Vec::new();
    for mem_latency in [1u64, 10, 100] {
        let mut b = lockstep8(MemConfig::fixed(mem_latency));
        for levels in 1..=4u8 {
            let t = b.new_mr(levels, levels);
            b.tables
                .map(&mut b.mem, t, 0x3000, PageSize::Size4K, frame(3), true);
            let c = walk_once(&mut b, levels, 0x3000);
            let overhead = c.latency - levels as u64 * mem_latency;
            report.push(format!(
                "memory latency {mem_latency:3}, levels {levels}: {} clocks (overhead {overhead})",
                c.latency
            ));
            // One clock per level to load the AR register (the first from
            // the pick register, picked in the allocation clock, the others
            // on the R beat before), one for the pick, and one for the
            // registered completion.
            assert_eq!(overhead, levels as u64 + 3);
            // The request is compared in its first clock offered and taken
            // in its second.
            let from_offer = c.latency_from_offer - levels as u64 * mem_latency;
            assert_eq!(from_offer, overhead + 1, "from the first clock offered");
            assert!(from_offer <= 8, "SPEC: levels x memory latency + <= 8");
        }
    }
    println!("{}", report.join("\n"));
}

#[test]
fn walker_presents_full_64_bit_pte_addresses() {
    let mut b = lockstep8(MemConfig::fixed(2));
    // A root frame with every high bit set: araddr = {root, index, 000}.
    let root = (1u64 << 52) - 2;
    b.mrs.insert(9, MrTables { root, levels_m1: 1 });
    let off = 0x1ff << 21 | 0x155 << 12;
    b.mem
        .write64(pte_address(root, 1, off), (0x12_3456u64 << 12) | pte::P);
    b.mem.write64(
        pte_address(0x12_3456, 0, off),
        (frame(5) << 12) | pte::P | pte::W,
    );
    let c = walk_once(&mut b, 9, off);
    assert_eq!(b.mem.ar_log[0].1.addr, 0xffff_ffff_ffff_eff8);
    assert!(matches!(c.outcome, Outcome::Ok { ppn, .. } if ppn == frame(5)));
}

#[test]
fn walker_with_one_slot_serialises_walks_and_still_coalesces() {
    let mut b = Bench::new(lockstep::<1>(), 1, MemConfig::fixed(10), 1);
    let t = b.new_mr(0, 2);
    b.tables
        .map(&mut b.mem, t, 0x1000, PageSize::Size4K, frame(1), true);
    b.tables
        .map(&mut b.mem, t, 0x2000, PageSize::Size4K, frame(2), true);
    let a = b.request(0, 0x1000);
    let a2 = b.request(0, 0x1ff0);
    let c = b.request(0, 0x2000);
    b.run_until_idle(1000);
    assert_eq!(b.max_walks_in_flight, 1);
    assert_eq!(b.completion_for(a).reqs, vec![a, a2]);
    assert!(b.completion_for(c).clock > b.completion_for(a).clock);
    assert_eq!(b.mon.ar_count, 4);
}

// ---------------------------------------------------------------------------
// Random tests against the reference walk.

/// Random page tables: `mrs` MRs of random depth, each with random 4K / 2M /
/// 1G mappings, clear P at random levels, H at level 3, and error ranges.
/// Returns the offsets worth asking for, per MR.
fn random_tables<D: Dut>(b: &mut Bench<D>, rng: &mut StdRng, mrs: u8) -> Vec<(u8, Vec<u64>)> {
    let mut hot = Vec::new();
    for mr in 0..mrs {
        let levels = rng.gen_range(1..=4u8);
        let t = b.new_mr(mr * 17, levels);
        let reach_bits = 12 + 9 * levels as u64;
        let mut offs = Vec::new();
        for _ in 0..rng.gen_range(4..24) {
            let off = rng.gen::<u64>() & ((1 << reach_bits) - 1);
            let size = match rng.gen_range(0..10) {
                0 | 1 if levels >= 2 => PageSize::Size2M,
                2 if levels >= 3 => PageSize::Size1G,
                _ => PageSize::Size4K,
            };
            // A page whose path is blocked by an earlier huge leaf is skipped.
            if walk_trace(&b.mem, t.root, t.levels_m1, off)
                .1
                .iter()
                .any(|&a| b.mem.read64(a) & pte::H != 0)
            {
                continue;
            }
            let f = (rng.gen_range(0..1u64 << 20) * (size.bytes() >> 12)) & ((1 << 40) - 1);
            match rng.gen_range(0..12) {
                0 => {
                    // P clear at a random level on the path.
                    let level = rng.gen_range(0..=t.levels_m1);
                    b.tables
                        .set_pte(&mut b.mem, t, off, level, rng.gen::<u64>() & !pte::P);
                }
                1 if levels == 4 => {
                    b.tables
                        .set_pte(&mut b.mem, t, off, 3, (frame(0) << 12) | pte::P | pte::H);
                }
                2 => {
                    b.tables.map(&mut b.mem, t, off, size, f, rng.gen());
                    let level = rng.gen_range(size.level()..=t.levels_m1);
                    let addr = b.tables.pte_addr(&mut b.mem, t, off, level);
                    let resp = if rng.gen() { RESP_SLVERR } else { RESP_DECERR };
                    b.mem.inject_error(addr..addr + 8, resp);
                }
                3 => {
                    // Level-0 leaf with H set and random ignored bits.
                    let pte =
                        (f << 12) | pte::P | pte::H | (rng.gen::<u64>() & 0xfff0_0000_0000_0f7c);
                    b.tables.set_pte(&mut b.mem, t, off, 0, pte);
                }
                _ => {
                    b.tables.map(&mut b.mem, t, off, size, f, rng.gen());
                }
            }
            offs.push(off);
        }
        hot.push((mr * 17, offs));
    }
    hot
}

/// A random request: mostly the hot pages (so walks coalesce), sometimes a
/// random offset in reach, rarely one out of reach.
fn random_request<D: Dut>(b: &mut Bench<D>, rng: &mut StdRng, hot: &[(u8, Vec<u64>)]) {
    let (mr, offs) = &hot[rng.gen_range(0..hot.len())];
    let t = b.mrs[mr];
    let reach_bits = 12 + 9 * (t.levels_m1 as u64 + 1);
    let off = match rng.gen_range(0..20) {
        0 => rng.gen::<u64>() & ((1 << reach_bits) - 1),
        1 => rng.gen::<u64>() | (1 << reach_bits),
        2 => (1 << reach_bits) | (rng.gen::<u64>() & ((1 << reach_bits) - 1)),
        _ if !offs.is_empty() => offs[rng.gen_range(0..offs.len())] ^ rng.gen_range(0..4096),
        _ => rng.gen::<u64>() & ((1 << reach_bits) - 1),
    };
    b.request(*mr, off);
}

/// A random flush command: mostly a range around a walk in flight (its
/// page, a few pages, its 2 MiB or 1 GiB region, unaligned ends), sometimes
/// its whole MR, everything, kind 3, or a range far above.
fn random_flush<D: Dut>(b: &Bench<D>, rng: &mut StdRng) -> Flush {
    let k = rng.gen_range(0..b.slots);
    let (mr, off) = (b.model[k].mr, b.model[k].off);
    match rng.gen_range(0..20) {
        0 => Flush::default(),
        1..=2 => Flush {
            kind: 1,
            mr: if rng.gen() { mr } else { rng.gen() },
            ..Flush::default()
        },
        3 => Flush {
            kind: 3,
            mr,
            lo: 0,
            hi: u64::MAX,
        },
        4 => Flush {
            kind: 2,
            mr,
            lo: (rng.gen::<u64>() | 1 << 48) >> rng.gen_range(0..2),
            hi: u64::MAX,
        },
        _ => {
            let shift = [12, 12, 21, 30][rng.gen_range(0..4)];
            let at = (off >> shift << shift)
                .wrapping_add((rng.gen_range(0..5u64) << shift).wrapping_sub(2 << shift))
                .wrapping_add(rng.gen_range(0..4096));
            Flush {
                kind: 2,
                mr,
                lo: at,
                hi: at.wrapping_add(rng.gen_range(1..3u64 << shift)),
            }
        }
    }
}

/// Runs `clocks` random clocks; every completion is checked against the
/// reference walk (the bench also checks every clock cycle-exactly).
fn random_run<D: Dut>(dut: D, slots: usize, clocks: u64, latency: (u64, u64), seed: u64) -> String {
    let mut rng = StdRng::seed_from_u64(seed);
    let cfg = MemConfig::random(latency.0, latency.1, seed.wrapping_add(1));
    let mut b = Bench::new(dut, slots, cfg, seed.wrapping_add(2));
    b.mem.logging = false;
    b.junk_payload = true;
    let hot = random_tables(&mut b, &mut rng, 6);
    let start = std::time::Instant::now();
    let mut checked = 0usize;
    let mut stale = 0usize;
    let mut spared = 0usize;
    let mut coalesced = 0usize;
    let mut resets = 0usize;
    let mut outcomes = [0u64; 3];
    while !harness::done(b.clock, clocks, clocks * 10, || {
        vec![
            ("requests answered", checked as u64, 100),
            ("coalesced requests", coalesced as u64, 1),
            ("stale walks", stale as u64, 1),
            ("walks a flush spared", spared as u64, 1),
            ("resets", resets as u64, 2),
            ("leaf found", outcomes[0], 1),
            ("page not present", outcomes[1], 1),
            ("fatal walk", outcomes[2], 1),
        ]
    }) {
        // Change the backpressure pattern every few thousand clocks.
        if b.clock.is_multiple_of(4096) {
            b.req_pct = rng.gen_range(5..=100);
            b.done_ready_pct = rng.gen_range(5..=100);
        }
        if b.queue.len() < 4 {
            random_request(&mut b, &mut rng, &hot);
        }
        if rng.gen_range(0..300) == 0 {
            b.flush_next = Some(random_flush(&b, &mut rng));
        }
        if rng.gen_range(0..5_000) == 0 {
            b.rst_next = true;
            resets += 1;
        }
        b.step();
        for c in b.completions.drain(..) {
            let (want, trace) = {
                let t = b.mrs[&c.mr];
                walk_trace(&b.mem, t.root, t.levels_m1, c.off)
            };
            assert_eq!(c.outcome, want, "seed {seed}: mr {} off {:#x}", c.mr, c.off);
            assert_eq!(
                c.reads,
                trace.len(),
                "seed {seed}: reads for off {:#x}",
                c.off
            );
            checked += c.reqs.len();
            outcomes[match c.outcome {
                Outcome::Ok { .. } => 0,
                Outcome::NotPresent => 1,
                Outcome::Fatal => 2,
            }] += 1;
            stale += c.stale as usize;
            spared += (c.flushed && !c.stale) as usize;
            coalesced += c.reqs.len() - 1;
        }
    }
    format!(
        "{} clocks in {:.1} s: {checked} requests answered ({coalesced} coalesced, {stale} stale walks, {spared} walks a flush spared), {resets} resets, max walks in flight {}, max reads in flight {}",
        b.clock,
        start.elapsed().as_secs_f64(),
        b.max_walks_in_flight,
        b.max_reads_in_flight
    )
}

#[test]
fn walker_random_lockstep_8_slots() {
    let seed = seed();
    let r = random_run(lockstep::<8>(), 8, 20_000, (1, 40), seed);
    println!("{r}");
}

#[test]
fn walker_random_lockstep_1_slot() {
    let seed = seed();
    let r = random_run(lockstep::<1>(), 1, 10_000, (1, 40), seed);
    println!("{r}");
}

#[test]
fn walker_random_verilated_long_8_slots() {
    let seed = seed();
    let r = random_run(verilated::<8>(), 8, 3_000_000, (1, 500), seed);
    println!("{r}");
}

#[test]
fn walker_random_verilated_long_1_slot() {
    let seed = seed();
    let r = random_run(verilated::<1>(), 1, 1_000_000, (1, 100), seed);
    println!("{r}");
}

// ---------------------------------------------------------------------------
// Synthesizability and construction.

#[test]
fn walker_8_slots_is_synthesizable() {
    harness::checks::assert_synthesizable(&walker_verilog::<8>(), &module_name::<8>());
}

#[test]
fn walker_1_slot_is_synthesizable() {
    harness::checks::assert_synthesizable(&walker_verilog::<1>(), &module_name::<1>());
}

#[test]
#[should_panic(expected = "SLOTS must be in 1..=8")]
fn walker_refuses_more_than_8_slots() {
    let _ = Walker::<9>::new();
}

// ---------------------------------------------------------------------------
// The host-memory model and the reference walk check themselves (the
// whole-core tests reuse them).

use models::host_memory::{Addr, BResp, WBeat};

/// Drives the model one clock as a master would; returns the slave outputs.
fn mem_clock(mem: &mut HostMemory, mon: &mut AxiMonitor, m: &MasterOut) -> SlaveOut {
    let s = mem.outputs();
    mon.check(m, &s);
    mem.edge(m);
    s
}

#[test]
fn host_memory_writes_incr_bursts_with_strobes_and_answers_b() {
    let mut mem = HostMemory::new(MemConfig::random(1, 20, 0x5eed_0001));
    let mut mon = AxiMonitor::new();
    mem.write64(0x1000, 0x1111_1111_1111_1111);
    mem.inject_error(0x9000..0x9008, RESP_SLVERR);
    let bursts = [
        (
            3u8,
            0x1000u64,
            vec![(0xaaaa_bbbb_cccc_ddddu64, 0x0fu8), (0x2222, 0xff)],
        ),
        (5, 0x8ff8, vec![(0x77, 0xff), (0x88, 0xff)]),
    ];
    let mut b_seen = Vec::new();
    for (id, addr, beats) in &bursts {
        let aw = Addr {
            id: *id,
            addr: *addr,
            len: beats.len() as u8 - 1,
            size: 3,
            burst: 1,
        };
        let mut aw_done = false;
        let mut k = 0;
        while !aw_done || k < beats.len() {
            let w = (k < beats.len()).then(|| WBeat {
                data: beats[k].0,
                strb: beats[k].1,
                last: k + 1 == beats.len(),
            });
            let m = MasterOut {
                aw: (!aw_done).then_some(aw),
                w,
                bready: true,
                ..Default::default()
            };
            let s = mem_clock(&mut mem, &mut mon, &m);
            aw_done |= s.awready;
            if w.is_some() && s.wready {
                k += 1;
            }
            b_seen.extend(s.b);
        }
    }
    for _ in 0..100 {
        let m = MasterOut {
            bready: true,
            ..Default::default()
        };
        b_seen.extend(mem_clock(&mut mem, &mut mon, &m).b);
    }
    assert_eq!(
        b_seen,
        vec![
            BResp {
                id: 3,
                resp: RESP_OKAY
            },
            BResp {
                id: 5,
                resp: RESP_SLVERR
            }
        ]
    );
    assert_eq!(
        mem.read64(0x1000),
        0x1111_1111_cccc_dddd,
        "wstrb keeps bytes 4..7"
    );
    assert_eq!(mem.read64(0x1008), 0x2222);
    assert_eq!(mem.read64(0x8ff8), 0, "an erroring burst writes nothing");
}

#[test]
fn host_memory_orders_reads_per_id_and_reorders_across_ids() {
    let mut mem = HostMemory::new(MemConfig::random(1, 200, 0x5eed_0002));
    let mut mon = AxiMonitor::new();
    for k in 0..64u64 {
        mem.write64(8 * k, k);
    }
    // 16 single-beat reads on each of IDs 0..4, plus a 4-beat burst on ID 5.
    let mut ars: VecDeque<Addr> = (0..64u64)
        .map(|k| Addr {
            id: (k % 4) as u8,
            addr: 8 * k,
            len: 0,
            size: 3,
            burst: 1,
        })
        .collect();
    ars.push_back(Addr {
        id: 5,
        addr: 0,
        len: 3,
        size: 3,
        burst: 1,
    });
    let mut beats = Vec::new();
    let mut clocks = 0;
    while beats.len() < 68 {
        let m = MasterOut {
            ar: ars.front().copied(),
            rready: clocks % 3 != 0,
            ..Default::default()
        };
        let s = mem_clock(&mut mem, &mut mon, &m);
        if s.arready && m.ar.is_some() {
            ars.pop_front();
        }
        if let (Some(r), true) = (s.r, m.rready) {
            beats.push(r);
        }
        clocks += 1;
        assert!(clocks < 100_000);
    }
    for id in 0..4u8 {
        let data: Vec<u64> = beats
            .iter()
            .filter(|r| r.id == id)
            .map(|r| r.data)
            .collect();
        let want: Vec<u64> = (0..64).filter(|k| k % 4 == id as u64).collect();
        assert_eq!(data, want, "ID {id} in order");
    }
    let burst: Vec<(u64, bool)> = beats
        .iter()
        .filter(|r| r.id == 5)
        .map(|r| (r.data, r.last))
        .collect();
    assert_eq!(burst, vec![(0, false), (1, false), (2, false), (3, true)]);
    let arrival: Vec<u64> = beats.iter().filter(|r| r.id < 4).map(|r| r.data).collect();
    assert_ne!(
        arrival,
        (0..64).collect::<Vec<_>>(),
        "IDs interleave out of order"
    );
    assert!(mem.max_outstanding_reads > 4);
}

#[test]
#[should_panic(expected = "AR dropped or changed before arready")]
fn axi_monitor_catches_a_changed_ar_payload() {
    let mut mon = AxiMonitor::new();
    let ar = Addr {
        id: 0,
        addr: 0,
        len: 0,
        size: 3,
        burst: 1,
    };
    let s = SlaveOut::default();
    mon.check(
        &MasterOut {
            ar: Some(ar),
            ..Default::default()
        },
        &s,
    );
    let moved = Addr { addr: 8, ..ar };
    mon.check(
        &MasterOut {
            ar: Some(moved),
            ..Default::default()
        },
        &s,
    );
}

#[test]
#[should_panic(expected = "R beat with ID 2 and no read outstanding")]
fn axi_monitor_catches_an_r_beat_with_an_unknown_id() {
    let mut mon = AxiMonitor::new();
    let s = SlaveOut {
        r: Some(models::host_memory::RBeat {
            id: 2,
            data: 0,
            resp: 0,
            last: true,
        }),
        ..Default::default()
    };
    mon.check(&MasterOut::default(), &s);
}

#[test]
fn reference_walk_follows_hand_written_tables() {
    let mut mem = HostMemory::new(MemConfig::fixed(1));
    // levels 2: root frame 0x100 -> table frame 0x200 -> 4K frame 0x300;
    // and a 2M leaf in the root's entry 1.
    mem.write64(0x10_0000, (0x200 << 12) | pte::P | pte::W);
    mem.write64(0x20_0000 + 8 * 5, (0x300 << 12) | pte::P);
    mem.write64(0x10_0008, (0x400 << 12) | pte::P | pte::W | pte::H);
    assert_eq!(
        walk_trace(&mem, 0x100, 1, 0x5abc),
        (
            Outcome::Ok {
                ppn: 0x300,
                size: PageSize::Size4K,
                writable: false
            },
            vec![0x10_0000, 0x20_0028]
        )
    );
    assert_eq!(
        walk_trace(&mem, 0x100, 1, 0x20_1234).0,
        Outcome::Ok {
            ppn: 0x400,
            size: PageSize::Size2M,
            writable: true
        }
    );
    assert_eq!(walk_trace(&mem, 0x100, 1, 0x6000).0, Outcome::NotPresent);
    assert_eq!(
        walk_trace(&mem, 0x100, 1, 1 << 30),
        (Outcome::Fatal, vec![])
    );
    mem.inject_error(0x20_0000..0x20_1000, RESP_DECERR);
    assert_eq!(walk_trace(&mem, 0x100, 1, 0x5abc).0, Outcome::Fatal);
}
