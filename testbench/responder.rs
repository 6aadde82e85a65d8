//! The per-QP responder (`QpResponder`) beside a model of the translator,
//! against its reference model.
//!
//! The bench plays the translator: it issues lookups at c0 while `hold` is
//! low and carries them through its own c0..c2 shift register (two
//! stages), so lookups issued before `hold` rose still arrive at c2; at c5
//! it decides each lookup from a raw answer drawn at issue (OK, RNR /
//! STALL, ACCESS_ERR, FATAL, or parked: behind a parked request of its QP,
//! which beats the overrides, or a miss being walked, which they beat),
//! applies the block's overrides as the translator does (`ov_fatal` ->
//! FATAL, else `ov_drop` -> DROP, else the raw answer) and drives `cm_*`.
//! It models where each held command takes its c2 slot and runs the plain-
//! Rust reference (`odp_mmu_workshop::models::responder_ref`) in decision
//! order.
//!
//! It also plays the translator's early RNR NAK path: now and then it
//! offers an early NAK on `en_*` for one clock (random fields, any QPN,
//! with or without the QP's own timer code; in the random runs half of
//! them for a parked remote lookup, whose replay then comes back), and
//! some remote faults come as the replay of a request whose NAK went out
//! early: answered RNR whatever the overrides, with `cm_nak_sent`, so the
//! reference changes the QP's state as for any RNR but expects no NAK and
//! no pulse.
//!
//! Every clock it checks `ov_fatal` / `ov_drop` / `ov_tmr_*` against the
//! reference for the lookup at c5 (and that `cm_*` and `en_*` do not reach
//! them, `en_ready` or `cmd_busy`), `ready`, `hold`, `s_qpcmd_ready`,
//! `qpcmd_refused`, `cmd_busy` (a command held or at c3 to c5), `en_ready`
//! (ready, NAK FIFO empty, no commit push, not `cmd_busy`) and the counter
//! pulses (`nak_rnr` also in the clock an early NAK is taken) against the
//! bench's model of the block's registers, `m_nak_valid` against the NAK
//! FIFO's occupancy (an early NAK taken counts at once), every NAK in
//! order (an early NAK ahead of the NAK decided in its clock, its header
//! from the reference's independent encoder) through a stream monitor, and
//! `mon_overflow` low; at the end every expected NAK has come.

use odp_mmu_workshop::harness;

use std::collections::VecDeque;

use harness::dut::Dut;
use harness::lockstep::Lockstep;
use harness::monitor::StreamMonitor;
use harness::seed;
use harness::verilated::Verilated;
use odp_mmu::fault::responder::{QpResponder, NAK_FIFO_DEPTH, NAK_LATENCY_CLOCKS, ROOM_LIMIT};
use odp_mmu::spec::status::byte::{ACCESS_ERR, DROP, FATAL, OK, RNR, STALL};
use odp_mmu::spec::{aeth, qp_cmd, rnr_timer};
use odp_mmu_workshop::models::responder_ref::{
    nak_header, Answer, EarlyNak, Lookup, Nak, Pulses, ResponderRef,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

/// 16 QPs; the default core has 1024 (`QpResponder<10>`).
type Small = QpResponder<4>;
type Full = QpResponder<10>;

fn verilog_of<B: Block>(mut uut: B, name: &str) -> String {
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, name)
}

odp_mmu_workshop::port_map!(SmallPorts for Small {
    clock: clock,
    inputs: [rst, pkey, rnr_timer, lk_valid, lk_qpn, lk_psn, lk_remote, cm_valid, cm_status, cm_rqpn, cm_msn, cm_susp, cm_nak_sent, en_valid, en_qpn, en_rqpn, en_psn, en_msn, en_tmr_valid, en_tmr_code, s_qpcmd_valid, s_qpcmd_kind, s_qpcmd_qpn, s_qpcmd_timer],
    outputs: [ready, ov_fatal, ov_drop, ov_tmr_valid, ov_tmr_code, en_ready, cmd_busy, hold, s_qpcmd_ready, qpcmd_refused, nak_rnr, nak_rnr_susp, nak_err, drop, mon_overflow],
    bundles: [m_nak],
});

/// A responder under test, and the width of its QP table.
struct Uut {
    d: Box<dyn Dut>,
    qp_bits: u32,
}

impl Uut {
    /// The Verilated Verilog of the 16-QP table.
    fn small() -> Self {
        Self::verilated(Small::new(), "responder_small", 4)
    }
    /// The Verilated Verilog of the 1024-QP table.
    fn full() -> Self {
        Self::verilated(Full::new(), "responder_full", 10)
    }
    fn verilated<B: Block>(mut uut: B, name: &str, qp_bits: u32) -> Self {
        let d = Box::new(Verilated::of_block(&mut uut, name));
        Self { d, qp_bits }
    }
    /// The rust-hdl model of the 16-QP table in lockstep with its Verilog.
    fn lockstep() -> Self {
        let d = Box::new(Lockstep::of::<SmallPorts>(Small::new(), "responder_small"));
        Self { d, qp_bits: 4 }
    }
}

/// The translator's own answer for a lookup, before the overrides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Raw {
    Ok,
    /// A missing page (or a suspended MR): RNR for a remote op, STALL for
    /// a local one.
    Fault,
    AccessErr,
    Fatal,
    /// Behind a parked request of its QP: parks whatever the overrides.
    ParkBlocked,
    /// A miss to be walked: parks unless an override answers it.
    ParkMiss,
}

/// A lookup the bench issues, with what the translator will answer at c5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Lk {
    qpn: u32,
    psn: u32,
    remote: bool,
    raw: Raw,
    /// The fault is a suspended MR (`cm_susp`).
    susp: bool,
    rqpn: u32,
    msn: u32,
    /// A remote fault whose RNR NAK went out early (the replay of a request
    /// the translator sent an early NAK for): answered RNR whatever the
    /// overrides, with `cm_nak_sent`.
    nak_sent: bool,
}

impl Lk {
    fn lookup(&self) -> Lookup {
        Lookup {
            qpn: self.qpn,
            psn: self.psn,
            remote: self.remote,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cmd {
    kind: u8,
    qpn: u32,
    timer: u8,
}

/// What occupies one of the block's slots (c2 to c5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    L(Lk),
    C(Cmd),
}

/// One clock's stimulus.
#[derive(Clone, Copy, Debug, Default)]
struct Ins {
    rst: bool,
    pkey: u16,
    rnr_timer: u8,
    /// A lookup the translator would issue at c0 (issued unless `hold`).
    issue: Option<Lk>,
    /// A QP command offered on `s_qpcmd_*`.
    cmd: Option<Cmd>,
    /// An early RNR NAK offered on `en_*` (for this clock only).
    early: Option<EarlyNak>,
    m_nak_ready: bool,
}

/// One clock's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Outs {
    ready: bool,
    hold: bool,
    ov_fatal: bool,
    ov_drop: bool,
    /// `ov_tmr_valid` / `ov_tmr_code`.
    ov_tmr: (bool, u8),
    en_ready: bool,
    cmd_busy: bool,
    s_qpcmd_ready: bool,
    refused: bool,
    pulses: Pulses,
    nak: Option<Nak>,
    overflow: bool,
}

/// What a clock's `step` reports besides the outputs.
#[derive(Clone, Copy, Debug, Default)]
struct Took {
    issued: bool,
    cmd_taken: bool,
    /// The early NAK on offer was taken.
    early_taken: bool,
}

/// Drives one clock's inputs: everything but `cm_*`.
fn drive(d: &mut dyn Dut, i: &Ins, c2: Option<&Lk>) {
    let c = i.cmd.unwrap_or_default();
    let l = c2.copied();
    for (n, v) in [
        ("rst", i.rst as u128),
        ("pkey", i.pkey as u128),
        ("rnr_timer", i.rnr_timer as u128),
        ("lk_valid", l.is_some() as u128),
        ("lk_qpn", l.map_or(0, |l| l.qpn) as u128),
        ("lk_psn", l.map_or(0, |l| l.psn) as u128),
        ("lk_remote", l.is_some_and(|l| l.remote) as u128),
        ("s_qpcmd_valid", i.cmd.is_some() as u128),
        ("s_qpcmd_kind", c.kind as u128),
        ("s_qpcmd_qpn", c.qpn as u128),
        ("s_qpcmd_timer", c.timer as u128),
        ("m_nak_ready", i.m_nak_ready as u128),
    ] {
        d.set(n, v);
    }
}

/// Drives the translator's answer at c5, and whether its NAK went out
/// early (`cm_nak_sent`).
fn drive_answer(d: &mut dyn Dut, a: Option<&Answer>, nak_sent: bool) {
    let a = a.copied();
    for (n, v) in [
        ("cm_valid", a.is_some() as u128),
        ("cm_status", a.map_or(0, |a| a.status) as u128),
        ("cm_rqpn", a.map_or(0, |a| a.rqpn) as u128),
        ("cm_msn", a.map_or(0, |a| a.msn) as u128),
        ("cm_susp", a.is_some_and(|a| a.susp) as u128),
        ("cm_nak_sent", nak_sent as u128),
    ] {
        d.set(n, v);
    }
}

/// Drives the early NAK port.
fn drive_early(d: &mut dyn Dut, e: Option<&EarlyNak>) {
    let valid = e.is_some();
    let e = e.copied().unwrap_or_default();
    for (n, v) in [
        ("en_valid", valid as u128),
        ("en_qpn", e.qpn as u128),
        ("en_rqpn", e.rqpn as u128),
        ("en_psn", e.psn as u128),
        ("en_msn", e.msn as u128),
        ("en_tmr_valid", e.tmr_valid as u128),
        ("en_tmr_code", e.tmr_code as u128),
    ] {
        d.set(n, v);
    }
}

/// Reads one clock's settled outputs.
fn read(d: &mut dyn Dut) -> Outs {
    Outs {
        ready: d.is("ready"),
        hold: d.is("hold"),
        ov_fatal: d.is("ov_fatal"),
        ov_drop: d.is("ov_drop"),
        ov_tmr: (d.is("ov_tmr_valid"), d.get("ov_tmr_code") as u8),
        en_ready: d.is("en_ready"),
        cmd_busy: d.is("cmd_busy"),
        s_qpcmd_ready: d.is("s_qpcmd_ready"),
        refused: d.is("qpcmd_refused"),
        pulses: Pulses {
            rnr: d.is("nak_rnr"),
            rnr_susp: d.is("nak_rnr_susp"),
            err: d.is("nak_err"),
            drop: d.is("drop"),
        },
        nak: d.is("m_nak_valid").then(|| Nak {
            qpn: d.get("m_nak_qpn") as u32,
            hdr: d.get("m_nak_hdr"),
        }),
        overflow: d.is("mon_overflow"),
    }
}

/// The translator's decision at c5: the overrides, in its order, over the
/// raw answer (`None`: parked, `cm_valid` low). A remote fault whose NAK
/// went out early is answered RNR whatever the overrides, as the
/// translator answers the replay of a request it sent an early NAK for.
fn translate(lk: &Lk, ov_fatal: bool, ov_drop: bool) -> Option<Answer> {
    let status = match lk.raw {
        Raw::ParkBlocked => return None,
        Raw::Fault if lk.nak_sent && lk.remote => RNR,
        _ if ov_fatal => FATAL,
        _ if ov_drop => DROP,
        Raw::ParkMiss => return None,
        Raw::Ok => OK,
        Raw::Fault if lk.remote => RNR,
        Raw::Fault => STALL,
        Raw::AccessErr => ACCESS_ERR,
        Raw::Fatal => FATAL,
    };
    Some(Answer {
        status,
        susp: lk.susp && lk.raw == Raw::Fault,
        rqpn: lk.rqpn,
        msn: lk.msn,
    })
}

/// One decision at c5, for the directed tests' checks.
#[derive(Clone, Copy, Debug)]
struct Decided {
    clock: u64,
    lk: Lk,
    /// The answer's status, `None` when parked.
    status: Option<u8>,
    /// `ov_tmr_valid` / `ov_tmr_code` at the decision.
    ov_tmr: (bool, u8),
}

/// The bench: the translator's side, the model of the block's registers,
/// the reference, the monitors and the coverage counts.
struct Bench {
    dut: Uut,
    r: ResponderRef,
    clock: u64,
    /// Clocks of the reset sweep still to come (`ready` low).
    sweep_left: u64,
    /// The translator's c0..c2: `pipe[0]` was issued last clock, `pipe[1]`
    /// is at c2 now.
    pipe: [Option<Lk>; 2],
    c3: Option<Slot>,
    c4: Option<Slot>,
    c5: Option<Slot>,
    /// The block's command holding register, and the clock it was taken.
    held: Option<(Cmd, u64)>,
    /// NAKs in the block's NAK FIFO, and its `room` register.
    fifo: u64,
    room: bool,
    /// The NAK decided last clock, pushed at this clock's edge.
    push: bool,
    /// Pulses (from last clock's decision) and `qpcmd_refused` due now.
    exp_pulses: Pulses,
    exp_refused: bool,
    exp_nak: VecDeque<Nak>,
    mon_nak: StreamMonitor<Option<Nak>>,
    got_nak: Vec<(u64, Nak)>,
    decided: Vec<Decided>,
    /// Early NAKs taken, and the clock of each.
    early: Vec<(u64, EarlyNak)>,
    /// Clocks each command waited from being taken to its c2 slot.
    inject_waits: Vec<u64>,
    /// The clocks `hold` was high while the block was ready and held no
    /// command (the NAK FIFO's room).
    room_holds: u64,
    fifo_peak: u64,
    // --- coverage ---
    /// Index of the in-range slots that wrote at c5 in the last four
    /// clocks (`[0]` the last clock), and whether it was an RNR (its PSN).
    writes: [Option<(u32, bool, u32)>; 4],
    dist: [u64; 4],
    behind_rnr_same_psn: u64,
    behind_rnr_other_psn: u64,
    cmd_forwarded: u64,
    retransmits: u64,
    overrides_used: u64,
    parks: u64,
    nak_stalls: u64,
    resets: u64,
    out_of_range: u64,
    wraps: u64,
    refused: u64,
    cmds: [u64; 4],
    late_injects: u64,
    /// Early NAKs refused while a NAK was in the FIFO or being pushed, and
    /// while a QP command was held or in c3 to c5 (and no NAK).
    early_refused_nak: u64,
    early_refused_cmd: u64,
    /// Early NAKs taken with the QP's own timer code.
    early_tmr: u64,
    /// Early NAKs taken in the clock of a decision that queues a NAK (the
    /// early one goes first).
    early_beside_decision: u64,
    /// Per QP of the table: its wait was set by an RNR answer whose NAK
    /// went out early; and the DROPs of other PSNs while it was.
    wait_from_sent: Vec<bool>,
    sent_drops: u64,
    /// `nak_rnr` pulses seen.
    rnr_pulses: u64,
}

impl Bench {
    fn new(dut: Uut) -> Self {
        let qp_bits = dut.qp_bits;
        Self {
            dut,
            r: ResponderRef::new(qp_bits),
            clock: 0,
            sweep_left: 1 << qp_bits,
            pipe: [None; 2],
            c3: None,
            c4: None,
            c5: None,
            held: None,
            fifo: 0,
            room: false,
            push: false,
            exp_pulses: Pulses::default(),
            exp_refused: false,
            exp_nak: VecDeque::new(),
            mon_nak: StreamMonitor::new("m_nak"),
            got_nak: Vec::new(),
            decided: Vec::new(),
            early: Vec::new(),
            inject_waits: Vec::new(),
            room_holds: 0,
            fifo_peak: 0,
            writes: [None; 4],
            dist: [0; 4],
            behind_rnr_same_psn: 0,
            behind_rnr_other_psn: 0,
            cmd_forwarded: 0,
            retransmits: 0,
            overrides_used: 0,
            parks: 0,
            nak_stalls: 0,
            resets: 0,
            out_of_range: 0,
            wraps: 0,
            refused: 0,
            cmds: [0; 4],
            late_injects: 0,
            early_refused_nak: 0,
            early_refused_cmd: 0,
            early_tmr: 0,
            early_beside_decision: 0,
            wait_from_sent: vec![false; 1 << qp_bits],
            sent_drops: 0,
            rnr_pulses: 0,
        }
    }

    fn in_range(&self, qpn: u32) -> bool {
        self.r.in_range(qpn)
    }

    /// One clock.
    fn step(&mut self, i: &Ins) -> (Outs, Took) {
        let c = self.clock;
        let d = &mut *self.dut.d;
        // c2: the oldest lookup in flight, else the held command.
        let c2 = self.pipe[1];
        let inject = c2.is_none() && self.held.is_some();
        drive(d, i, c2.as_ref());
        drive_answer(d, None, false);
        drive_early(d, None);
        d.settle();
        let first = read(d);
        // c5: the translator decides with the block's overrides; the early
        // NAK is offered beside it.
        let lk5 = match self.c5 {
            Some(Slot::L(l)) => Some(l),
            _ => None,
        };
        let answer = lk5.and_then(|l| translate(&l, first.ov_fatal, first.ov_drop));
        let nak_sent = answer.is_some() && lk5.is_some_and(|l| l.nak_sent);
        drive_answer(d, answer.as_ref(), nak_sent);
        drive_early(d, i.early.as_ref());
        d.settle();
        let o = read(d);
        assert_eq!(
            (o.ov_fatal, o.ov_drop, o.ov_tmr),
            (first.ov_fatal, first.ov_drop, first.ov_tmr),
            "clock {c}: ov_* follow cm_* or en_* (they must come from registers)"
        );
        assert_eq!(
            (o.en_ready, o.cmd_busy),
            (first.en_ready, first.cmd_busy),
            "clock {c}: en_ready / cmd_busy follow cm_* or en_* (they must come from registers)"
        );

        // The block's registers as the bench models them.
        let ready = self.sweep_left == 0;
        assert_eq!(
            o.ready, ready,
            "clock {c}: ready (sweep clocks left {})",
            self.sweep_left
        );
        let hold = !ready || self.held.is_some() || !self.room;
        assert_eq!(
            o.hold, hold,
            "clock {c}: hold (ready {ready}, command held {:?}, room {} from the NAK FIFO a clock ago, {} NAKs now)",
            self.held, self.room, self.fifo
        );
        assert_eq!(
            o.s_qpcmd_ready,
            ready && self.held.is_none() && !i.rst,
            "clock {c}: s_qpcmd_ready (command held {:?})",
            self.held
        );
        // A QP command held, or at c3, c4 or c5.
        let cmd_busy = self.held.is_some()
            || [self.c3, self.c4, self.c5]
                .iter()
                .any(|s| matches!(s, Some(Slot::C(_))));
        assert_eq!(
            o.cmd_busy, cmd_busy,
            "clock {c}: cmd_busy (held {:?}, c3 {:?}, c4 {:?}, c5 {:?})",
            self.held, self.c3, self.c4, self.c5
        );
        let en_ready = ready && self.fifo == 0 && !self.push && !cmd_busy;
        assert_eq!(
            o.en_ready, en_ready,
            "clock {c}: en_ready (ready {ready}, {} NAKs in the FIFO, commit push {}, cmd_busy {cmd_busy})",
            self.fifo, self.push
        );
        let early_taken = i.early.is_some() && en_ready && !i.rst;
        if i.early.is_some() && !en_ready && ready {
            if self.fifo > 0 || self.push {
                self.early_refused_nak += 1;
            } else {
                self.early_refused_cmd += 1;
            }
        }
        assert!(!o.overflow, "clock {c}: mon_overflow (a NAK lost)");
        assert_eq!(o.refused, self.exp_refused, "clock {c}: qpcmd_refused");
        assert_eq!(
            o.nak.is_some(),
            self.fifo > 0,
            "clock {c}: m_nak_valid with {} NAKs in the FIFO",
            self.fifo
        );
        if !i.rst {
            // The commit's pulses of last clock's decision; `nak_rnr` also
            // in the clock an early NAK is taken.
            let mut pulses = self.exp_pulses;
            pulses.rnr |= early_taken;
            assert_eq!(
                o.pulses, pulses,
                "clock {c}: counter pulses (early NAK taken {early_taken})"
            );
            self.rnr_pulses += o.pulses.rnr as u64;
            match lk5 {
                Some(l) => {
                    let want = self.r.overrides(&l.lookup());
                    assert_eq!(
                        (o.ov_fatal, o.ov_drop),
                        (want.fatal, want.drop),
                        "clock {c}: ov_fatal / ov_drop for {l:?} (state {:?})",
                        self.r.qp(l.qpn)
                    );
                    assert_eq!(
                        o.ov_tmr,
                        (want.timer.is_some(), want.timer.unwrap_or(0)),
                        "clock {c}: ov_tmr_valid / ov_tmr_code for {l:?} (state {:?})",
                        self.r.qp(l.qpn)
                    );
                }
                None => assert!(
                    !o.ov_fatal && !o.ov_drop,
                    "clock {c}: an override without a lookup at c5"
                ),
            }
        }

        let issued = i.issue.is_some() && !o.hold && !i.rst;
        let cmd_taken = i.cmd.is_some() && o.s_qpcmd_ready;
        let mut pulses = Pulses::default();
        let mut push = false;
        if i.rst {
            self.r.reset();
            self.exp_nak.clear();
            self.mon_nak = StreamMonitor::new("m_nak");
            self.resets += 1;
            self.sweep_left = 1 << self.dut.qp_bits;
            self.pipe = [None; 2];
            self.c3 = None;
            self.c4 = None;
            self.c5 = None;
            self.held = None;
            self.writes = [None; 4];
            self.wait_from_sent.iter_mut().for_each(|w| *w = false);
            self.room = self.fifo <= ROOM_LIMIT;
            self.fifo = 0;
        } else {
            if let Some(got) = self
                .mon_nak
                .observe(c, o.nak.is_some(), i.m_nak_ready, o.nak)
            {
                let got = got.unwrap();
                let want = self.exp_nak.pop_front();
                assert_eq!(
                    Some(got),
                    want,
                    "clock {c}: m_nak (hdr got {:032x})",
                    got.hdr
                );
                self.got_nak.push((c, got));
            }
            self.nak_stalls += (o.nak.is_some() && !i.m_nak_ready) as u64;
            self.room_holds += (o.hold && ready && self.held.is_none()) as u64;
            // An early NAK taken: pushed into the FIFO at this clock's
            // edge, ahead of the NAK of this clock's decision (pushed at the
            // next edge). The FIFO is empty and nothing else is pushed.
            if early_taken {
                let e = i.early.unwrap();
                assert!(
                    self.exp_nak.is_empty(),
                    "clock {c}: early NAK taken with NAKs still to come"
                );
                let n = self.r.early_nak(&e, i.pkey, i.rnr_timer);
                self.exp_nak.push_back(n);
                self.early.push((c, e));
                self.early_tmr += e.tmr_valid as u64;
            }
            // The decision at c5, in decision order.
            let mut wrote = None;
            match self.c5 {
                Some(Slot::L(l)) => {
                    self.cover_lookup(&l);
                    let dec = self.r.decide_with(
                        &l.lookup(),
                        answer.as_ref(),
                        nak_sent,
                        i.pkey,
                        i.rnr_timer,
                    );
                    self.retransmits += dec.retransmit as u64;
                    self.overrides_used += dec.override_used as u64;
                    self.parks += answer.is_none() as u64;
                    pulses = dec.pulses;
                    if let Some(n) = dec.nak {
                        self.exp_nak.push_back(n);
                        push = true;
                        self.early_beside_decision += early_taken as u64;
                    }
                    if let (Some(a), true) = (answer, l.remote) {
                        if let Some(w) = self.wait_from_sent.get_mut(l.qpn as usize) {
                            if a.status == DROP {
                                self.sent_drops += *w as u64;
                            } else {
                                *w = a.status == RNR && nak_sent;
                            }
                        }
                    }
                    self.decided.push(Decided {
                        clock: c,
                        lk: l,
                        status: answer.map(|a| a.status),
                        ov_tmr: o.ov_tmr,
                    });
                    if let (Some(a), true) = (answer, l.remote && self.in_range(l.qpn)) {
                        wrote = Some((l.qpn, a.status == RNR, l.psn));
                    }
                }
                Some(Slot::C(cm)) => {
                    self.r.command(cm.kind, cm.qpn, cm.timer);
                    if cm.kind as u64 == qp_cmd::RESET {
                        if let Some(w) = self.wait_from_sent.get_mut(cm.qpn as usize) {
                            *w = false;
                        }
                    }
                    if self.in_range(cm.qpn) {
                        wrote = Some((cm.qpn, false, u32::MAX));
                    }
                }
                None => {}
            }
            self.writes = [wrote, self.writes[0], self.writes[1], self.writes[2]];
            // The NAK FIFO: the push of last clock's decision or of an
            // early NAK, the pop.
            let pop = self.fifo > 0 && i.m_nak_ready;
            self.room = self.fifo <= ROOM_LIMIT;
            self.fifo = self.fifo + (self.push || early_taken) as u64 - pop as u64;
            self.fifo_peak = self.fifo_peak.max(self.fifo);
            assert!(
                self.fifo <= NAK_FIFO_DEPTH as u64,
                "clock {c}: more NAKs than the FIFO holds"
            );
            // The command holding register and the slots.
            let slot2 = match (c2, inject) {
                (Some(l), _) => Some(Slot::L(l)),
                (None, true) => {
                    let (cm, taken) = self.held.take().unwrap();
                    let wait = c - taken;
                    assert!(
                        wait <= 3,
                        "clock {c}: a command taken at {taken} took its slot only now"
                    );
                    self.inject_waits.push(wait);
                    self.late_injects += (wait > 1) as u64;
                    Some(Slot::C(cm))
                }
                (None, false) => None,
            };
            self.c5 = self.c4;
            self.c4 = self.c3;
            self.c3 = slot2;
            self.pipe = [i.issue.filter(|_| issued), self.pipe[0]];
            if cmd_taken {
                let cm = i.cmd.unwrap();
                self.held = Some((cm, c));
                self.cmds[cm.kind as usize & 3] += 1;
                self.refused += !self.in_range(cm.qpn) as u64;
            }
            if self.sweep_left > 0 {
                self.sweep_left -= 1;
            }
        }
        self.exp_pulses = pulses;
        self.exp_refused = cmd_taken && !self.in_range(i.cmd.unwrap().qpn);
        self.push = push;
        self.dut.d.tick();
        self.clock += 1;
        (
            o,
            Took {
                issued,
                cmd_taken,
                early_taken,
            },
        )
    }

    /// Coverage of a lookup deciding now: the forwarding distance to the
    /// last write of its QP (a command's among them), right behind an RNR
    /// of its QP, PSNs near the wrap, QPNs beyond the table.
    fn cover_lookup(&mut self, l: &Lk) {
        if !self.in_range(l.qpn) {
            self.out_of_range += 1;
            return;
        }
        if let Some(k) = self
            .writes
            .iter()
            .position(|w| w.is_some_and(|w| w.0 == l.qpn))
        {
            self.dist[k] += 1;
            // The newest write of its QP is a command's: forwarded.
            if self.writes[k].is_some_and(|w| w.2 == u32::MAX) {
                self.cmd_forwarded += 1;
            }
        }
        if let Some((q, true, p)) = self.writes[0] {
            if q == l.qpn && l.remote {
                if p == l.psn {
                    self.behind_rnr_same_psn += 1;
                } else {
                    self.behind_rnr_other_psn += 1;
                }
            }
        }
        if let Some(q) = self.r.qp(l.qpn) {
            if l.remote && q.waiting && (q.psn >= 0xff_fff0 || l.psn >= 0xff_fff0) {
                self.wraps += 1;
            }
        }
    }

    /// Nothing in flight, every expected NAK out.
    fn drained(&self) -> bool {
        self.pipe.iter().all(Option::is_none)
            && self.c3.is_none()
            && self.c4.is_none()
            && self.c5.is_none()
            && self.held.is_none()
            && self.exp_nak.is_empty()
            && self.fifo == 0
            && !self.push
    }

    /// The statuses decided, in order: `(qpn, psn, status)`, `None` parked.
    fn statuses(&self) -> Vec<(u32, u32, Option<u8>)> {
        self.decided
            .iter()
            .map(|d| (d.lk.qpn, d.lk.psn, d.status))
            .collect()
    }

    /// The NAKs out, in order: `(qpn, syndrome)`.
    fn syndromes(&self) -> Vec<(u32, u8)> {
        self.got_nak
            .iter()
            .map(|(_, n)| (n.qpn, (n.hdr >> 24) as u8))
            .collect()
    }
}

const PKEY: u16 = 0xffff;
const TIMER: u8 = rnr_timer::RESET_CODE as u8;
const RNR12: u8 = aeth::RNR_NAK as u8 | TIMER;

fn idle() -> Ins {
    Ins {
        pkey: PKEY,
        rnr_timer: TIMER,
        m_nak_ready: true,
        ..Ins::default()
    }
}

/// A remote lookup and its raw answer; `rqpn` and `msn` derived from it.
fn lk(qpn: u32, psn: u32, raw: Raw) -> Lk {
    Lk {
        qpn,
        psn,
        remote: true,
        raw,
        susp: false,
        rqpn: 0x10_0000 + qpn,
        msn: 0x20_0000 + psn,
        nak_sent: false,
    }
}

/// A remote fault whose RNR NAK went out early: answered RNR with
/// `cm_nak_sent`.
fn sent(qpn: u32, psn: u32) -> Lk {
    Lk {
        nak_sent: true,
        ..lk(qpn, psn, Raw::Fault)
    }
}

fn local(qpn: u32, psn: u32, raw: Raw) -> Lk {
    Lk {
        remote: false,
        ..lk(qpn, psn, raw)
    }
}

fn cmd(kind: u64, qpn: u32, timer: u8) -> Cmd {
    Cmd {
        kind: kind as u8,
        qpn,
        timer,
    }
}

/// A directed stimulus item.
#[derive(Clone, Copy, Debug)]
enum Item {
    /// A lookup, offered until issued.
    L(Lk),
    /// A command, offered until taken.
    C(Cmd),
}

/// Waits for `ready`, then offers `items` in order, one at a time, each
/// until taken, with `gap` idle clocks after each; then drains. Items are
/// decided in the order offered, whatever the `gap`: a command taken after
/// a lookup was issued takes a c2 slot behind it (only a command taken in
/// the clock a lookup is issued can go ahead of it, see
/// `responder_command_takes_a_free_c2_slot_ahead_of_a_lookup_issued_with_it`).
fn run(dut: Uut, items: &[Item], gap: u64, nak_ready: impl Fn(u64) -> bool) -> Bench {
    let mut b = Bench::new(dut);
    feed(&mut b, items, gap, nak_ready);
    b
}

/// As [`run`], on a bench already running.
fn feed(b: &mut Bench, items: &[Item], gap: u64, nak_ready: impl Fn(u64) -> bool) {
    let mut next = 0;
    let mut wait = 0u64;
    let mut quiet = 0;
    while quiet <= 8 {
        let c = b.clock;
        let mut i = Ins {
            m_nak_ready: nak_ready(c),
            ..idle()
        };
        if b.sweep_left == 0 && wait == 0 {
            match items.get(next) {
                Some(Item::L(l)) => i.issue = Some(*l),
                Some(Item::C(x)) => i.cmd = Some(*x),
                None => {}
            }
        }
        wait = wait.saturating_sub(1);
        let (_, t) = b.step(&i);
        if t.issued || t.cmd_taken {
            next += 1;
            wait = gap;
        }
        quiet = if next >= items.len() && b.drained() {
            quiet + 1
        } else {
            0
        };
        assert!(
            b.clock < 100_000,
            "directed run did not drain (item {next})"
        );
    }
}

/// Waits for `ready`, then runs `clocks` one per clock: each lookup must be
/// issued in its clock (`hold` low) and each command taken; then drains.
fn script(dut: Uut, clocks: &[(Option<Lk>, Option<Cmd>)]) -> Bench {
    let mut b = Bench::new(dut);
    while b.sweep_left > 0 {
        b.step(&idle());
    }
    for (k, &(issue, cmd)) in clocks.iter().enumerate() {
        let (_, t) = b.step(&Ins {
            issue,
            cmd,
            ..idle()
        });
        assert!(
            t.issued == issue.is_some() && t.cmd_taken == cmd.is_some(),
            "script clock {k}: not taken ({t:?})"
        );
    }
    while !b.drained() {
        b.step(&idle());
        assert!(b.clock < 10_000);
    }
    b
}

/// One clock of a script: a lookup.
fn l(x: Lk) -> (Option<Lk>, Option<Cmd>) {
    (Some(x), None)
}

/// One clock of a script: nothing issued.
const GAP: (Option<Lk>, Option<Cmd>) = (None, None);

#[test]
fn responder_rnr_then_drop_of_other_psns_until_the_retransmission() {
    let items = [
        Item::L(lk(3, 100, Raw::Fault)),
        Item::L(lk(3, 101, Raw::Ok)),
        Item::L(lk(4, 7, Raw::Ok)),
        Item::L(lk(3, 102, Raw::Fault)),
        Item::L(lk(3, 103, Raw::AccessErr)),
        Item::L(lk(3, 104, Raw::ParkMiss)), // the override answers a miss
        Item::L(lk(3, 105, Raw::ParkBlocked)), // parked whatever the override
        Item::L(lk(3, 100, Raw::Ok)),
        Item::L(lk(3, 101, Raw::Ok)),
    ];
    let b = run(Uut::small(), &items, 6, |_| true);
    assert_eq!(
        b.statuses(),
        vec![
            (3, 100, Some(RNR)),
            (3, 101, Some(DROP)),
            (4, 7, Some(OK)),
            (3, 102, Some(DROP)),
            (3, 103, Some(DROP)),
            (3, 104, Some(DROP)),
            (3, 105, None),
            (3, 100, Some(OK)),
            (3, 101, Some(OK)),
        ]
    );
    assert_eq!(b.syndromes(), vec![(3, RNR12)], "no NAK for a DROP");
    assert_eq!((b.r.drops, b.r.rnr_naks), (4, 1));
}

#[test]
fn responder_retransmission_that_faults_again_keeps_the_wait() {
    let items = [
        Item::L(lk(5, 9, Raw::Fault)),
        Item::L(lk(5, 9, Raw::Fault)),
        Item::L(lk(5, 10, Raw::Ok)),
        Item::L(lk(5, 9, Raw::Ok)),
        Item::L(lk(5, 10, Raw::Ok)),
    ];
    let b = run(Uut::small(), &items, 6, |_| true);
    let st: Vec<_> = b.statuses().iter().map(|s| s.2).collect();
    assert_eq!(
        st,
        vec![Some(RNR), Some(RNR), Some(DROP), Some(OK), Some(OK)]
    );
    assert_eq!(b.syndromes(), vec![(5, RNR12), (5, RNR12)]);
}

#[test]
fn responder_back_to_back_lookups_of_one_qp_at_distances_1_2_3_4() {
    // The slot ahead's commit is forwarded at c5 (distance 1, with the PSN
    // compare against the slot ahead when that commit is an RNR: equal and
    // not equal, and a state PSN that equals the lookup's but is stale);
    // the commit of c4's clock at c4 (distance 2); at c3, the commit of
    // that clock (distance 3) and the one written at the edge of the read,
    // from lw_* (distance 4).
    let clocks = [
        // Distance 1 behind an RNR: the retransmission passes, another
        // PSN drops.
        l(lk(2, 10, Raw::Fault)),
        l(lk(2, 10, Raw::Ok)),
        l(lk(2, 11, Raw::Fault)),
        l(lk(2, 12, Raw::Ok)),
        GAP,
        GAP,
        GAP,
        GAP,
        l(lk(2, 11, Raw::Ok)),
        // The state PSN is 11 (wait ended); an RNR of 20 right ahead makes
        // 11 a DROP although the stale word says 11.
        l(lk(2, 20, Raw::Fault)),
        l(lk(2, 11, Raw::Ok)),
        GAP,
        GAP,
        GAP,
        GAP,
        l(lk(2, 20, Raw::Ok)),
        // Distance 1 behind an answer that ends the wait (no PSN set).
        l(lk(2, 21, Raw::Ok)),
        GAP,
        GAP,
        GAP,
        GAP,
        // Distance 2.
        l(lk(6, 30, Raw::Fault)),
        l(lk(9, 1, Raw::Ok)),
        l(lk(6, 31, Raw::Ok)),
        l(lk(9, 2, Raw::Ok)),
        l(lk(6, 30, Raw::Ok)),
        GAP,
        l(lk(6, 31, Raw::Ok)),
        GAP,
        GAP,
        GAP,
        GAP,
        // Distance 3, and a retransmission at distance 3.
        l(lk(7, 40, Raw::Fault)),
        GAP,
        GAP,
        l(lk(7, 41, Raw::Ok)),
        GAP,
        GAP,
        l(lk(7, 40, Raw::Ok)),
        GAP,
        GAP,
        l(lk(7, 41, Raw::Ok)),
        // Distance 3 through other QPs.
        l(lk(8, 50, Raw::Fault)),
        l(lk(9, 3, Raw::Ok)),
        l(lk(10, 3, Raw::Ok)),
        l(lk(8, 51, Raw::Ok)),
        GAP,
        GAP,
        GAP,
        GAP,
        // Distance 4, and a retransmission at distance 4.
        l(lk(11, 70, Raw::Fault)),
        GAP,
        GAP,
        GAP,
        l(lk(11, 71, Raw::Ok)),
        GAP,
        GAP,
        GAP,
        l(lk(11, 70, Raw::Ok)),
        GAP,
        GAP,
        GAP,
        l(lk(11, 71, Raw::Ok)),
        // Distance 4 through other QPs.
        l(lk(12, 80, Raw::Fault)),
        l(lk(9, 4, Raw::Ok)),
        l(lk(10, 4, Raw::Ok)),
        l(lk(13, 4, Raw::Ok)),
        l(lk(12, 81, Raw::Ok)),
    ];
    let b = script(Uut::small(), &clocks);
    assert_eq!(
        b.statuses(),
        vec![
            (2, 10, Some(RNR)),
            (2, 10, Some(OK)),
            (2, 11, Some(RNR)),
            (2, 12, Some(DROP)),
            (2, 11, Some(OK)),
            (2, 20, Some(RNR)),
            (2, 11, Some(DROP)),
            (2, 20, Some(OK)),
            (2, 21, Some(OK)),
            (6, 30, Some(RNR)),
            (9, 1, Some(OK)),
            (6, 31, Some(DROP)),
            (9, 2, Some(OK)),
            (6, 30, Some(OK)),
            (6, 31, Some(OK)),
            (7, 40, Some(RNR)),
            (7, 41, Some(DROP)),
            (7, 40, Some(OK)),
            (7, 41, Some(OK)),
            (8, 50, Some(RNR)),
            (9, 3, Some(OK)),
            (10, 3, Some(OK)),
            (8, 51, Some(DROP)),
            (11, 70, Some(RNR)),
            (11, 71, Some(DROP)),
            (11, 70, Some(OK)),
            (11, 71, Some(OK)),
            (12, 80, Some(RNR)),
            (9, 4, Some(OK)),
            (10, 4, Some(OK)),
            (13, 4, Some(OK)),
            (12, 81, Some(DROP)),
        ]
    );
    assert!(b.dist[0] >= 5 && b.dist[1] >= 3 && b.dist[2] >= 4 && b.dist[3] >= 4);
    assert_eq!(b.behind_rnr_same_psn, 1);
    assert_eq!(b.behind_rnr_other_psn, 2);
}

#[test]
fn responder_commands_between_lookups_of_their_qp_are_forwarded() {
    // A lookup issued two clocks after another, a command taken with it:
    // the command takes the bubble between them, so c5 sees lookup,
    // command, lookup on consecutive clocks.
    let between = |first: Lk, c: Cmd, second: Lk| [l(first), GAP, (Some(second), Some(c))];
    let mut clocks = Vec::new();
    // RESET between an RNR and another PSN of its QP: not dropped.
    clocks.extend(between(
        lk(5, 40, Raw::Fault),
        cmd(qp_cmd::RESET, 5, 0),
        lk(5, 41, Raw::Ok),
    ));
    clocks.extend([GAP; 6]);
    // SET_TIMER between: the RNR right after it uses the code.
    clocks.extend(between(
        lk(6, 50, Raw::Ok),
        cmd(qp_cmd::SET_TIMER, 6, 3),
        lk(6, 51, Raw::Fault),
    ));
    clocks.extend([GAP; 6]);
    // SET_ERROR right behind an RNR of its QP (the commit ahead of the
    // command sets the PSN), then a lookup of its QP: FATAL.
    clocks.extend(between(
        lk(7, 60, Raw::Fault),
        cmd(qp_cmd::SET_ERROR, 7, 0),
        local(7, 61, Raw::Ok),
    ));
    clocks.extend([GAP; 6]);
    // CLEAR_TIMER between two RNRs of the PSN QP 6 waits for (the
    // retransmission faults again): the first uses the override, the
    // second the global code.
    clocks.extend(between(
        lk(6, 51, Raw::Fault),
        cmd(qp_cmd::CLEAR_TIMER, 6, 0),
        lk(6, 51, Raw::Fault),
    ));
    let b = script(Uut::small(), &clocks);
    let d: Vec<_> = b.decided.iter().map(|d| d.clock).collect();
    for w in d.chunks(2) {
        assert_eq!(w[1] - w[0], 2, "lookup, command, lookup: {d:?}");
    }
    assert_eq!(
        b.inject_waits,
        vec![1, 1, 1, 1],
        "each command in the bubble"
    );
    assert_eq!(b.cmd_forwarded, 4);
    assert_eq!(
        b.statuses(),
        vec![
            (5, 40, Some(RNR)),
            (5, 41, Some(OK)),
            (6, 50, Some(OK)),
            (6, 51, Some(RNR)),
            (7, 60, Some(RNR)),
            (7, 61, Some(FATAL)),
            (6, 51, Some(RNR)),
            (6, 51, Some(RNR)),
        ]
    );
    assert_eq!(
        b.syndromes(),
        vec![(5, RNR12), (6, 0x23), (7, RNR12), (6, 0x23), (6, RNR12)],
        "no NAK for the local op; the timer code follows the commands"
    );
}

#[test]
fn responder_command_takes_a_free_c2_slot_ahead_of_a_lookup_issued_with_it() {
    // The order that counts is the c2 slot's: a command taken in the clock
    // a lookup is issued takes the free c2 slot ahead of it, so the lookup
    // sees the command (docs/responder.md: every lookup deciding after it
    // sees it); a command taken the clock after a lookup's issue finds the
    // lookup in c2 and takes the slot behind it.
    let clocks = [
        (Some(lk(2, 1, Raw::Ok)), Some(cmd(qp_cmd::SET_ERROR, 2, 0))),
        GAP,
        GAP,
        GAP,
        l(lk(3, 1, Raw::Ok)),
        (None, Some(cmd(qp_cmd::SET_ERROR, 3, 0))),
        GAP,
        GAP,
        l(lk(3, 2, Raw::Ok)),
    ];
    let b = script(Uut::small(), &clocks);
    assert_eq!(b.inject_waits, vec![1, 2]);
    assert_eq!(
        b.statuses(),
        vec![(2, 1, Some(FATAL)), (3, 1, Some(OK)), (3, 2, Some(FATAL))]
    );
    assert_eq!(b.syndromes(), vec![(2, 0x63), (3, 0x63)]);
}

#[test]
fn responder_psn_compare_is_24_bit_across_the_wrap() {
    let items = [
        Item::L(lk(1, 0xff_ffff, Raw::Fault)),
        Item::L(lk(1, 0, Raw::Ok)),
        Item::L(lk(1, 0x7f_ffff, Raw::Ok)),
        Item::L(lk(1, 0xff_ffff, Raw::Ok)),
        Item::L(lk(2, 0, Raw::Fault)),
        Item::L(lk(2, 0xff_ffff, Raw::Ok)),
        Item::L(lk(2, 1, Raw::Ok)),
        Item::L(lk(2, 0, Raw::Ok)),
    ];
    for gap in [0, 6] {
        let b = run(Uut::small(), &items, gap, |_| true);
        let st: Vec<_> = b.statuses().iter().map(|s| s.2).collect();
        assert_eq!(
            st,
            vec![
                Some(RNR),
                Some(DROP),
                Some(DROP),
                Some(OK),
                Some(RNR),
                Some(DROP),
                Some(DROP),
                Some(OK)
            ],
            "gap {gap}"
        );
    }
}

#[test]
fn responder_error_state_overrides_remote_with_nak_and_local_without() {
    let items = [
        Item::L(lk(7, 1, Raw::Fault)),
        Item::C(cmd(qp_cmd::SET_ERROR, 7, 0)),
        Item::L(lk(7, 2, Raw::Ok)),          // FATAL + 0x63
        Item::L(local(7, 3, Raw::Ok)),       // FATAL, no NAK
        Item::L(lk(7, 1, Raw::Fault)),       // FATAL + 0x63, error wins
        Item::L(local(7, 4, Raw::Fault)),    // FATAL, no NAK
        Item::L(local(7, 5, Raw::ParkMiss)), // answered FATAL, no walk
        Item::L(lk(7, 6, Raw::ParkBlocked)), // parked: no answer
        Item::L(local(8, 1, Raw::Fault)),    // other QPs unchanged: STALL
        Item::C(cmd(qp_cmd::RESET, 7, 0)),
        Item::L(lk(7, 9, Raw::Ok)), // clear again
        Item::L(local(7, 9, Raw::Ok)),
    ];
    let b = run(Uut::small(), &items, 4, |_| true);
    assert_eq!(
        b.statuses(),
        vec![
            (7, 1, Some(RNR)),
            (7, 2, Some(FATAL)),
            (7, 3, Some(FATAL)),
            (7, 1, Some(FATAL)),
            (7, 4, Some(FATAL)),
            (7, 5, Some(FATAL)),
            (7, 6, None),
            (8, 1, Some(STALL)),
            (7, 9, Some(OK)),
            (7, 9, Some(OK)),
        ]
    );
    assert_eq!(b.syndromes(), vec![(7, RNR12), (7, 0x63), (7, 0x63)]);
    assert_eq!(b.r.local_fatals, 3);
    assert_eq!(b.r.err_naks, 2);
}

#[test]
fn responder_qp_reset_clears_wait_error_and_timer() {
    let items = [
        Item::C(cmd(qp_cmd::SET_TIMER, 2, 7)),
        Item::L(lk(2, 1, Raw::Fault)), // 0x27, waits for 1
        Item::C(cmd(qp_cmd::SET_ERROR, 2, 0)),
        Item::C(cmd(qp_cmd::RESET, 2, 0)),
        Item::L(lk(2, 5, Raw::Ok)),    // not waiting, not in error
        Item::L(lk(2, 6, Raw::Fault)), // global code: override gone
    ];
    let b = run(Uut::small(), &items, 6, |_| true);
    let st: Vec<_> = b.statuses().iter().map(|s| s.2).collect();
    assert_eq!(st, vec![Some(RNR), Some(OK), Some(RNR)]);
    assert_eq!(b.syndromes(), vec![(2, 0x27), (2, RNR12)]);
}

#[test]
fn responder_timer_commands_set_the_rnr_syndrome() {
    let items = [
        Item::C(cmd(qp_cmd::SET_TIMER, 2, 3)),
        Item::L(lk(2, 1, Raw::Fault)), // 0x23
        Item::L(lk(3, 1, Raw::Fault)), // 0x2c: other QPs keep the global code
        Item::C(cmd(qp_cmd::CLEAR_TIMER, 2, 0)),
        Item::L(lk(2, 1, Raw::Fault)), // 0x2c, the retransmission faults again
        Item::C(cmd(qp_cmd::SET_TIMER, 3, 31)),
        Item::L(lk(3, 1, Raw::Fault)), // 0x3f
        Item::C(cmd(qp_cmd::SET_TIMER, 3, 0)),
        Item::L(lk(3, 1, Raw::Fault)), // 0x20: code 0 is a code
    ];
    let b = run(Uut::small(), &items, 6, |_| true);
    assert_eq!(
        b.syndromes(),
        vec![(2, 0x23), (3, RNR12), (2, RNR12), (3, 0x3f), (3, 0x20)]
    );
    assert_eq!(b.overrides_used, 3);
}

#[test]
fn responder_rnr_timer_and_pkey_are_those_of_the_decision_clock() {
    // `rnr_timer` and `pkey` change every clock: each NAK carries the
    // values of its decision's clock (c5).
    let mut b = Bench::new(Uut::small());
    let vals = |c: u64| ((c * 7 % 32) as u8, 0x8000 | (c as u16).wrapping_mul(0x1357));
    let lookups: Vec<Lk> = (0..12u32)
        .map(|k| {
            let mut x = lk(k, 100 + k, Raw::Fault);
            if k % 3 == 2 {
                x.raw = Raw::AccessErr;
            }
            x
        })
        .collect();
    let mut next = 0;
    while next < lookups.len() || !b.drained() {
        let (t, p) = vals(b.clock);
        let mut i = Ins {
            pkey: p,
            rnr_timer: t,
            issue: lookups.get(next).copied(),
            ..idle()
        };
        if b.sweep_left > 0 {
            i.issue = None;
        }
        if b.step(&i).1.issued {
            next += 1;
        }
        assert!(b.clock < 1_000);
    }
    let answered: Vec<&Decided> = b.decided.iter().filter(|d| d.status.is_some()).collect();
    assert_eq!(b.got_nak.len(), 12);
    for (d, (_, n)) in answered.iter().zip(&b.got_nak) {
        let (t, p) = vals(d.clock);
        let syn = (n.hdr >> 24) as u8;
        if d.status == Some(RNR) {
            assert_eq!(syn, aeth::RNR_NAK as u8 | t, "code of clock {}", d.clock);
        }
        assert_eq!((n.hdr >> 96) as u16, p, "P_Key of clock {}", d.clock);
    }
}

/// The header's bytes, read back one IBTA field at a time.
fn check_header(hdr: u128, pkey: u16, dest_qp: u32, psn: u32, syndrome: u8, msn: u32) {
    let b = hdr.to_be_bytes();
    assert_eq!(b[0], 0x11, "BTH opcode: RC Acknowledge");
    assert_eq!(b[1], 0x00, "BTH SE / M / PadCnt / TVer");
    assert_eq!(u16::from_be_bytes([b[2], b[3]]), pkey, "BTH P_Key");
    assert_eq!(b[4], 0x00, "BTH FECN / BECN / resv6a");
    assert_eq!(
        u32::from_be_bytes([0, b[5], b[6], b[7]]),
        dest_qp,
        "BTH DestQP"
    );
    assert_eq!(b[8], 0x00, "BTH AckReq / resv7");
    assert_eq!(u32::from_be_bytes([0, b[9], b[10], b[11]]), psn, "BTH PSN");
    assert_eq!(b[12], syndrome, "AETH syndrome");
    assert_eq!(
        u32::from_be_bytes([0, b[13], b[14], b[15]]),
        msn,
        "AETH MSN"
    );
}

#[test]
fn responder_nak_header_fields_follow_the_ibta_layout() {
    let mut x = lk(6, 0x12_3456, Raw::AccessErr);
    (x.rqpn, x.msn) = (0xab_cdef, 0x65_4321);
    let mut y = lk(7, 0xfe_dcba, Raw::Fatal);
    (y.rqpn, y.msn) = (0x00_0001, 0xff_ffff);
    let mut z = lk(0x80_0008, 0, Raw::Fault);
    (z.rqpn, z.msn) = (0xff_ffff, 0);
    let items = [Item::L(x), Item::L(y), Item::L(z)];
    let b = run(Uut::small(), &items, 0, |_| true);
    let n: Vec<Nak> = b.got_nak.iter().map(|g| g.1).collect();
    assert_eq!(
        (n[0].qpn, n[1].qpn, n[2].qpn),
        (6, 7, 0x80_0008),
        "m_nak_qpn is the local QP"
    );
    check_header(n[0].hdr, PKEY, 0xab_cdef, 0x12_3456, 0x62, 0x65_4321);
    check_header(n[1].hdr, PKEY, 0x00_0001, 0xfe_dcba, 0x63, 0xff_ffff);
    check_header(n[2].hdr, PKEY, 0xff_ffff, 0x00_0000, RNR12, 0);
}

/// One step of a stimulus whose NAKs are checked byte for byte and decoded:
/// a remote lookup with the `pkey` and `rnr_timer` of its decision and the
/// AETH syndrome of the NAK it must cause (`None`: no NAK), or a QP command.
#[derive(Clone, Copy, Debug)]
enum Wire {
    L {
        lk: Lk,
        pkey: u16,
        timer: u8,
        nak: Option<u8>,
    },
    C(Cmd),
}

/// What a NAK must carry: `(local QPN, P_Key, DestQP, PSN, syndrome, MSN)`.
type WireNak = (u32, u16, u32, u32, u8, u32);

/// The stimulus of the wire tests and the NAKs it must cause, in order,
/// worked out from the rules (not from the reference model).
///
/// Every RNR timer code, once through `rnr_timer` and once through a QP's
/// override (with a different global code); ACCESS_ERR (0x62) and FATAL
/// (0x63); a QP in error (0x63 whatever the answer); PSNs, MSNs, DestQPs
/// and P_Keys at and around the 24-bit (16-bit) limits, PSN 0xFFFFFF and 0
/// among them; local QPNs inside and beyond the 16-QP table. An RNR is
/// followed by its retransmission (OK, no NAK), which ends the QP's wait.
fn wire_stimulus() -> (Vec<Wire>, Vec<WireNak>) {
    const PSNS: [u32; 6] = [0xff_ffff, 0, 1, 0x80_0000, 0xff_fffe, 0x7f_ffff];
    const MSNS: [u32; 5] = [0, 0xff_ffff, 1, 0x80_0000, 0x7f_ffff];
    const RQPNS: [u32; 7] = [0xff_ffff, 0, 1, 0x80_0000, 0x12_3456, 0x7f_ffff, 0xab_cdef];
    const PKEYS: [u16; 4] = [0xffff, 0x8001, 0x7fff, 0x8000];
    const BEYOND: [u32; 3] = [16, 0x80_0000, 0xff_ffff];
    let mut steps = Vec::new();
    let mut naks = Vec::new();
    let mut n = 0usize;
    // The n-th NAK-causing lookup: fields from the tables above.
    let mut respond = |steps: &mut Vec<Wire>, qpn: u32, raw: Raw, timer: u8, syndrome: u8| {
        let mut x = lk(qpn, PSNS[n % PSNS.len()], raw);
        x.rqpn = RQPNS[n % RQPNS.len()];
        x.msn = MSNS[n % MSNS.len()];
        let pkey = PKEYS[n % PKEYS.len()];
        n += 1;
        steps.push(Wire::L {
            lk: x,
            pkey,
            timer,
            nak: Some(syndrome),
        });
        naks.push((qpn, pkey, x.rqpn, x.psn, syndrome, x.msn));
        if raw == Raw::Fault {
            x.raw = Raw::Ok;
            steps.push(Wire::L {
                lk: x,
                pkey,
                timer,
                nak: None,
            });
        }
    };
    let rnr = |code: u8| aeth::RNR_NAK as u8 | code;
    for code in 0..32u8 {
        let qpn = if code % 4 == 3 {
            BEYOND[code as usize / 4 % BEYOND.len()]
        } else {
            code as u32 % 16
        };
        respond(&mut steps, qpn, Raw::Fault, code, rnr(code));
    }
    for code in 0..32u8 {
        let qpn = code as u32 % 16;
        steps.push(Wire::C(cmd(qp_cmd::SET_TIMER, qpn, code)));
        respond(&mut steps, qpn, Raw::Fault, (code + 13) % 32, rnr(code));
        steps.push(Wire::C(cmd(qp_cmd::CLEAR_TIMER, qpn, 0)));
    }
    for k in 0..16u32 {
        let qpn = if k % 4 == 3 {
            BEYOND[k as usize % 3]
        } else {
            k
        };
        let (raw, syndrome) = if k % 2 == 0 {
            (Raw::AccessErr, aeth::REMOTE_ACCESS_ERR)
        } else {
            (Raw::Fatal, aeth::REMOTE_OP_ERR)
        };
        respond(&mut steps, qpn, raw, TIMER, syndrome as u8);
    }
    // A QP in error: its remote ops get FATAL and 0x63, an OK and an RNR
    // alike.
    steps.push(Wire::C(cmd(qp_cmd::SET_ERROR, 9, 0)));
    respond(&mut steps, 9, Raw::Ok, TIMER, aeth::REMOTE_OP_ERR as u8);
    let mut retry = match steps.last() {
        Some(Wire::L { lk, .. }) => *lk,
        _ => unreachable!(),
    };
    retry.raw = Raw::Fault;
    retry.psn = 0;
    retry.msn = 0xff_ffff;
    steps.push(Wire::L {
        lk: retry,
        pkey: 0x8001,
        timer: 5,
        nak: Some(aeth::REMOTE_OP_ERR as u8),
    });
    naks.push((
        9,
        0x8001,
        retry.rqpn,
        0,
        aeth::REMOTE_OP_ERR as u8,
        0xff_ffff,
    ));
    steps.push(Wire::C(cmd(qp_cmd::RESET, 9, 0)));
    (steps, naks)
}

/// Runs the wire stimulus on the 16-QP Verilog, one step at a time with
/// `pkey` and `rnr_timer` held from a lookup's issue to its decision, and
/// returns the bench (which also checks every NAK against the reference).
fn wire_run(steps: &[Wire]) -> Bench {
    let mut b = Bench::new(Uut::small());
    let (mut next, mut wait) = (0, 0u64);
    let mut cur = (PKEY, TIMER);
    while next < steps.len() || !b.drained() {
        let mut i = Ins {
            pkey: cur.0,
            rnr_timer: cur.1,
            ..idle()
        };
        if b.sweep_left == 0 && wait == 0 {
            match steps.get(next) {
                Some(Wire::L {
                    lk, pkey, timer, ..
                }) => {
                    i.issue = Some(*lk);
                    (i.pkey, i.rnr_timer) = (*pkey, *timer);
                }
                Some(Wire::C(c)) => i.cmd = Some(*c),
                None => {}
            }
        }
        wait = wait.saturating_sub(1);
        let (_, t) = b.step(&i);
        if t.issued || t.cmd_taken {
            // The next step waits until this one has decided (c5, five
            // clocks after the issue).
            cur = (i.pkey, i.rnr_timer);
            next += 1;
            wait = 6;
        }
        assert!(b.clock < 20_000, "stimulus not taken (step {next})");
    }
    b
}

#[test]
fn responder_nak_headers_are_byte_exact_for_every_timer_code_and_nak_kind() {
    let (steps, want) = wire_stimulus();
    let in_stimulus: Vec<u8> = steps
        .iter()
        .filter_map(|s| match s {
            Wire::L { nak, .. } => *nak,
            Wire::C(_) => None,
        })
        .collect();
    assert_eq!(in_stimulus, want.iter().map(|w| w.4).collect::<Vec<_>>());
    let b = wire_run(&steps);
    assert_eq!(b.got_nak.len(), want.len(), "NAKs out of the Verilog");
    for (k, ((_, n), &(qpn, pkey, dest_qp, psn, syndrome, msn))) in
        b.got_nak.iter().zip(&want).enumerate()
    {
        assert_eq!(n.qpn, qpn, "NAK {k}: m_nak_qpn");
        assert_eq!(
            n.hdr,
            nak_header(pkey, dest_qp, psn, syndrome, msn),
            "NAK {k}: header {:032x}",
            n.hdr
        );
        check_header(n.hdr, pkey, dest_qp, psn, syndrome, msn);
    }
    // The stimulus reached what it is meant to.
    let codes: std::collections::BTreeSet<u8> = want
        .iter()
        .filter(|w| w.4 & 0xe0 == aeth::RNR_NAK as u8)
        .map(|w| w.4 & aeth::TIMER_MASK as u8)
        .collect();
    assert_eq!(codes.len(), 32, "every RNR timer code");
    assert_eq!(b.overrides_used, 32, "every code through an override");
    for v in [0xff_ffff, 0, 1, 0x80_0000] {
        assert!(want.iter().any(|w| w.3 == v), "PSN {v:#x}");
        assert!(want.iter().any(|w| w.5 == v), "MSN {v:#x}");
    }
    for v in [0xff_ffff, 0] {
        assert!(want.iter().any(|w| w.2 == v), "DestQP {v:#x}");
    }
    for v in [0xffff, 0x8001] {
        assert!(want.iter().any(|w| w.1 == v), "P_Key {v:#x}");
    }
    for s in [aeth::REMOTE_ACCESS_ERR, aeth::REMOTE_OP_ERR] {
        assert!(want.iter().any(|w| w.4 == s as u8), "syndrome {s:#x}");
    }
    assert!(
        want.iter().any(|w| !b.in_range(w.0)),
        "QPNs beyond the table"
    );
    // Every RNR of a QP with state is followed by its retransmission.
    let rnr_with_state = want
        .iter()
        .filter(|w| w.4 & 0xe0 == aeth::RNR_NAK as u8 && b.in_range(w.0))
        .count();
    assert_eq!(b.retransmits as usize, rnr_with_state, "retransmissions");
    assert!(rnr_with_state >= 56);
}

#[test]
fn responder_nak_headers_decode_as_roce_v2_in_scapy() {
    use harness::roce;
    let (steps, want) = wire_stimulus();
    let b = wire_run(&steps);
    assert_eq!(b.got_nak.len(), want.len(), "NAKs out of the Verilog");
    let packets: Vec<Vec<u8>> = b
        .got_nak
        .iter()
        .map(|(_, n)| roce::frame_nak(n.hdr))
        .collect();
    let got = roce::dissect_naks(&packets).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got.len(), want.len(), "packets decoded");
    for (k, (d, &(_, pkey, dest_qp, psn, syndrome, msn))) in got.iter().zip(&want).enumerate() {
        let at = format!("packet {k} ({d:?})");
        assert!(d.has_udp && d.has_bth && d.has_aeth, "{at}: layers");
        assert_eq!(d.index, k, "{at}: order");
        assert_eq!(
            (d.ip_src.as_str(), d.ip_dst.as_str()),
            ("192.0.2.1", "192.0.2.2"),
            "{at}: IPv4 addresses"
        );
        assert_eq!(
            (d.ip_proto, d.ip_ttl, d.ip_tos, d.ip_df),
            (17, roce::TTL, 0, true),
            "{at}: IPv4 protocol, TTL, TOS, DF"
        );
        assert!(d.ip_chksum_ok && d.ip_len_ok, "{at}: IPv4 checksum, length");
        assert_eq!(
            (d.udp_sport, d.udp_dport, d.udp_chksum),
            (roce::UDP_SRC_PORT, roce::ROCE_V2_PORT, 0),
            "{at}: UDP ports, checksum"
        );
        assert!(d.udp_len_ok, "{at}: UDP length");
        assert_eq!(
            d.opcode,
            aeth::BTH_OPCODE_RC_ACK as u8,
            "{at}: BTH opcode RC Acknowledge"
        );
        assert_eq!(
            (d.solicited, d.migreq, d.padcount, d.tver),
            (false, false, 0, 0),
            "{at}: BTH SE, M, PadCnt, TVer"
        );
        assert_eq!(
            (d.fecn, d.becn, d.resv6, d.resv7),
            (false, false, 0, 0),
            "{at}: BTH FECN, BECN, reserved"
        );
        assert!(!d.ack_req, "{at}: BTH AckReq");
        assert_eq!(d.pkey, pkey, "{at}: BTH P_Key");
        assert_eq!(d.dest_qp, dest_qp, "{at}: BTH DestQP");
        assert_eq!(d.psn, psn, "{at}: BTH PSN");
        assert_eq!(d.syndrome, syndrome, "{at}: AETH syndrome");
        assert_eq!(d.msn, msn, "{at}: AETH MSN");
        assert!(d.icrc_ok, "{at}: ICRC");
    }
    println!("{} NAKs framed as RoCE v2 and decoded by scapy", got.len());
}

#[test]
fn responder_local_ops_of_a_waiting_qp_keep_their_answer_and_the_wait() {
    // QP 1 waits for PSN 5; its local ops (any PSN) are neither dropped
    // nor NAKed and leave the wait as it is: another remote PSN still
    // drops, the retransmission still passes.
    let items = [
        Item::L(lk(1, 5, Raw::Fault)),
        Item::L(local(1, 77, Raw::Ok)),
        Item::L(local(1, 78, Raw::Fault)),
        Item::L(local(1, 79, Raw::AccessErr)),
        Item::L(local(1, 5, Raw::Fatal)),
        Item::L(lk(1, 6, Raw::Ok)),
        Item::L(lk(1, 5, Raw::Ok)),
        Item::L(lk(1, 6, Raw::Ok)),
    ];
    for gap in [0, 6] {
        let b = run(Uut::small(), &items, gap, |_| true);
        assert_eq!(
            b.statuses(),
            vec![
                (1, 5, Some(RNR)),
                (1, 77, Some(OK)),
                (1, 78, Some(STALL)),
                (1, 79, Some(ACCESS_ERR)),
                (1, 5, Some(FATAL)),
                (1, 6, Some(DROP)),
                (1, 5, Some(OK)),
                (1, 6, Some(OK)),
            ],
            "gap {gap}"
        );
        assert_eq!(b.syndromes(), vec![(1, RNR12)], "local ops send no NAK");
    }
}

#[test]
fn responder_qpn_beyond_the_table_has_no_state_and_its_command_is_refused() {
    // Small table: 16 QPs. 16, 0x13 and 0x10_0003 alias QPs 0 and 3 in
    // their low bits; nothing may fold onto them, back to back included.
    let items = [
        Item::L(lk(16, 5, Raw::Fault)), // NAK, global code, no wait kept
        Item::L(lk(16, 6, Raw::Ok)),    // OK, not DROP
        Item::L(lk(0, 6, Raw::Ok)),     // QP 0 untouched
        Item::C(cmd(qp_cmd::SET_ERROR, 0x10_0000, 0)), // refused
        Item::L(lk(0, 7, Raw::Ok)),
        Item::L(lk(0x10_0000, 7, Raw::AccessErr)), // NAK 0x62
        Item::C(cmd(qp_cmd::SET_TIMER, 3, 9)),
        Item::L(lk(3, 1, Raw::Fault)),    // 0x29, QP 3 waits for 1
        Item::L(lk(0x13, 2, Raw::Fault)), // beyond: clear QP, global code
        Item::L(lk(0x13, 3, Raw::Ok)),    // not waiting
        Item::L(lk(0x10_0003, 4, Raw::Ok)),
        Item::C(cmd(qp_cmd::SET_ERROR, 0x13, 0)), // refused, QP 3 not in error
        Item::L(lk(3, 2, Raw::Ok)),               // QP 3 still waits: DROP
        Item::L(local(0x13, 2, Raw::Ok)),
    ];
    for gap in [0, 5] {
        let b = run(Uut::small(), &items, gap, |_| true);
        assert_eq!(
            b.statuses(),
            vec![
                (16, 5, Some(RNR)),
                (16, 6, Some(OK)),
                (0, 6, Some(OK)),
                (0, 7, Some(OK)),
                (0x10_0000, 7, Some(ACCESS_ERR)),
                (3, 1, Some(RNR)),
                (0x13, 2, Some(RNR)),
                (0x13, 3, Some(OK)),
                (0x10_0003, 4, Some(OK)),
                (3, 2, Some(DROP)),
                (0x13, 2, Some(OK)),
            ],
            "gap {gap}"
        );
        assert_eq!(
            b.syndromes(),
            vec![(16, RNR12), (0x10_0000, 0x62), (3, 0x29), (0x13, RNR12)]
        );
        assert_eq!(b.refused, 2, "qpcmd_refused pulses once per command");
    }
}

#[test]
fn responder_command_under_continuous_lookups_takes_a_slot_within_three_clocks() {
    // The translator offers a lookup every clock; a command offered in
    // the middle is taken, `hold` stops the issue, the lookups already in
    // flight (two: issued the clock before and the clock of the take)
    // still come, then the command takes the first free slot, and the
    // issue resumes.
    let mut b = Bench::new(Uut::small());
    let mut k = 0u32;
    // Offered in this order (popped from the end).
    let mut cmds_left = vec![
        cmd(qp_cmd::RESET, 4, 0),
        cmd(qp_cmd::SET_TIMER, 5, 1),
        cmd(qp_cmd::SET_ERROR, 4, 0),
    ];
    let mut pending = None;
    let mut hold_rose = Vec::new();
    let mut issued_at = Vec::new();
    let mut prev_hold = true;
    while b.clock < 400 || !b.drained() {
        let c = b.clock;
        let mut i = idle();
        if b.sweep_left == 0 && c < 400 {
            i.issue = Some(lk(4 + k % 2, k, Raw::Fault));
            if c % 50 == 25 {
                pending = cmds_left.pop();
            }
            i.cmd = pending;
        }
        let (o, t) = b.step(&i);
        if t.cmd_taken {
            pending = None;
        }
        if t.issued {
            k += 1;
            issued_at.push(c);
        }
        if o.hold && !prev_hold && o.ready {
            hold_rose.push(c);
        }
        prev_hold = o.hold;
        assert!(b.clock < 2_000);
    }
    assert_eq!(b.cmds.iter().sum::<u64>(), 3);
    assert_eq!(
        b.inject_waits,
        vec![3, 3, 3],
        "two lookups in flight, then the command's slot"
    );
    assert_eq!(
        hold_rose.len(),
        3,
        "hold rose once per command: {hold_rose:?}"
    );
    for h in &hold_rose {
        // Hold high for the command's two waiting clocks and its slot.
        let gap = issued_at.iter().find(|&&x| x > *h).unwrap() - h;
        assert_eq!(gap, 3, "issue resumes after the command's slot");
    }
    // QP 4 in error between SET_ERROR and RESET: its lookups FATAL.
    let fatal = b.decided.iter().filter(|d| d.status == Some(FATAL)).count();
    assert!(fatal >= 10, "lookups of the QP in error: {fatal}");
    assert!(b.r.local_fatals == 0 && b.r.err_naks as usize == fatal);
}

#[test]
fn responder_nak_backpressure_300_clocks_raises_hold_and_loses_nothing() {
    // 40 lookups, each with a NAK (ACCESS_ERR, and RNRs of 16 QPs), while
    // m_nak is stalled for 300 clocks.
    let items: Vec<Item> = (0..40u32)
        .map(|k| {
            let raw = if k % 2 == 0 {
                Raw::AccessErr
            } else {
                Raw::Fault
            };
            Item::L(lk(k % 16, 1000 + k, raw))
        })
        .collect();
    let b = run(Uut::small(), &items, 0, |c| c > 300);
    // The second RNR of a QP is another PSN: DROP, no NAK.
    let naks = b
        .decided
        .iter()
        .filter(|d| matches!(d.status, Some(RNR) | Some(ACCESS_ERR)))
        .count();
    assert_eq!(b.got_nak.len(), naks);
    assert!(naks >= 28, "NAKs: {naks}");
    assert!(
        b.room_holds > 250,
        "hold from a full NAK FIFO: {}",
        b.room_holds
    );
    assert_eq!(b.fifo_peak, NAK_FIFO_DEPTH as u64, "the FIFO filled");
    assert!(b.nak_stalls > 250);
    let psns: Vec<u32> = b
        .got_nak
        .iter()
        .map(|(_, n)| (n.hdr >> 32) as u32 & 0xff_ffff)
        .collect();
    let want: Vec<u32> = b
        .decided
        .iter()
        .filter(|d| matches!(d.status, Some(RNR) | Some(ACCESS_ERR)))
        .map(|d| d.lk.psn)
        .collect();
    assert_eq!(psns, want, "NAKs in decision order");
}

#[test]
fn responder_reset_sweep_holds_and_clears_every_qp() {
    let mut b = Bench::new(Uut::small());
    let offer = Ins {
        issue: Some(lk(3, 1, Raw::Fault)),
        cmd: Some(cmd(qp_cmd::SET_ERROR, 9, 0)),
        ..idle()
    };
    // Power-up sweep: 16 clocks, `hold` high, nothing issued or taken
    // (the bench checks `ready` and `hold` every clock).
    for _ in 0..16 {
        let (o, t) = b.step(&offer);
        assert!(o.hold && !o.ready && !t.issued && !t.cmd_taken);
    }
    let (o, t) = b.step(&offer);
    assert!(o.ready && t.issued && t.cmd_taken, "ready after 16 clocks");
    for _ in 0..10 {
        b.step(&idle());
    }
    assert!(b.r.qp(3).unwrap().waiting && b.r.qp(9).unwrap().error);
    // A reset with NAKs in the FIFO, lookups and a command in flight: all
    // dropped.
    let stalled = Ins {
        m_nak_ready: false,
        ..idle()
    };
    for k in 0..3 {
        b.step(&Ins {
            issue: Some(lk(5, k, Raw::AccessErr)),
            ..stalled
        });
    }
    for _ in 0..6 {
        b.step(&stalled);
    }
    assert_eq!(b.fifo, 3, "three NAKs waiting");
    b.step(&Ins {
        issue: Some(lk(5, 10, Raw::AccessErr)),
        ..stalled
    });
    let (_, t) = b.step(&Ins {
        issue: Some(lk(5, 11, Raw::AccessErr)),
        cmd: Some(cmd(qp_cmd::SET_ERROR, 3, 0)),
        ..stalled
    });
    assert!(t.issued && t.cmd_taken);
    let naks = b.got_nak.len();
    b.step(&Ins {
        rst: true,
        ..idle()
    });
    for _ in 0..16 {
        let (o, t) = b.step(&Ins {
            issue: Some(lk(3, 2, Raw::Ok)),
            cmd: Some(cmd(qp_cmd::RESET, 9, 0)),
            ..idle()
        });
        assert!(o.hold && !t.issued && !t.cmd_taken && o.nak.is_none());
    }
    let (_, t) = b.step(&Ins {
        issue: Some(lk(3, 2, Raw::Ok)),
        ..idle()
    });
    assert!(t.issued);
    b.step(&Ins {
        issue: Some(lk(9, 2, Raw::Ok)),
        ..idle()
    });
    while !b.drained() {
        b.step(&idle());
    }
    assert_eq!(b.got_nak.len(), naks, "the NAKs in flight were dropped");
    let last: Vec<_> = b.statuses().into_iter().rev().take(2).collect();
    assert_eq!(
        last,
        vec![(9, 2, Some(OK)), (3, 2, Some(OK))],
        "the reset ended the wait and the error"
    );
}

#[test]
fn responder_full_size_sweep_and_top_qpns_without_aliasing() {
    let items = [
        Item::L(lk(1023, 4, Raw::Fault)),
        Item::L(lk(511, 4, Raw::Ok)),
        Item::L(lk(1023, 5, Raw::Ok)),
        Item::L(lk(1024 + 1023, 5, Raw::Ok)),
        Item::C(cmd(qp_cmd::SET_ERROR, 1024, 0)),
        Item::L(lk(0, 5, Raw::Ok)),
        Item::L(lk(1023, 4, Raw::Ok)),
    ];
    let b = run(Uut::full(), &items, 0, |_| true);
    assert!(b.decided[0].clock > 1024, "the sweep runs 1024 clocks");
    let st: Vec<_> = b.statuses().iter().map(|s| (s.0, s.2)).collect();
    assert_eq!(
        st,
        vec![
            (1023, Some(RNR)),
            (511, Some(OK)),
            (1023, Some(DROP)),
            (2047, Some(OK)),
            (0, Some(OK)),
            (1023, Some(OK))
        ]
    );
    assert_eq!(b.refused, 1);
}

#[test]
fn responder_nak_is_valid_two_clocks_after_the_decision() {
    let b = run(
        Uut::small(),
        &[Item::L(lk(1, 1, Raw::AccessErr))],
        0,
        |_| true,
    );
    assert_eq!(
        b.got_nak[0].0,
        b.decided[0].clock + NAK_LATENCY_CLOCKS,
        "decided at {}",
        b.decided[0].clock
    );
}

/// A bench whose block is ready (the power-up sweep done).
fn ready_bench(dut: Uut) -> Bench {
    let mut b = Bench::new(dut);
    while b.sweep_left > 0 {
        b.step(&idle());
    }
    b
}

/// An early NAK; `tmr` the QP's own timer code, else code 7 offered with
/// `en_tmr_valid` low (to be ignored).
fn early(qpn: u32, psn: u32, tmr: Option<u8>) -> EarlyNak {
    EarlyNak {
        qpn,
        rqpn: 0x30_0000 + qpn,
        psn,
        msn: 0x40_0000 + psn,
        tmr_valid: tmr.is_some(),
        tmr_code: tmr.unwrap_or(7),
    }
}

#[test]
fn responder_early_nak_is_queued_at_once_with_its_timer_code_and_changes_no_state() {
    // One offer a clock on an idle block: the first is taken (`nak_rnr` in
    // that clock, the NAK valid on `m_nak` the next clock), the one in the
    // next clock is refused (the first is in the FIFO) and never comes,
    // and so on. Syndrome 0x20 | the offered code with `en_tmr_valid`,
    // else `rnr_timer` of the clock it is taken.
    let offers: [(EarlyNak, u16, u8); 8] = [
        (
            EarlyNak {
                qpn: 5,
                rqpn: 0xab_cdef,
                psn: 0x12_3456,
                msn: 0x65_4321,
                tmr_valid: false,
                tmr_code: 7,
            },
            0x8001,
            9,
        ),
        (early(1, 1, None), 0x8001, 9),
        (
            EarlyNak {
                qpn: 6,
                rqpn: 0,
                psn: 0xff_ffff,
                msn: 0,
                tmr_valid: true,
                tmr_code: 3,
            },
            0x7fff,
            9,
        ),
        (early(1, 2, Some(4)), 0x7fff, 9),
        (
            EarlyNak {
                qpn: 0xff_ffff,
                rqpn: 0xff_ffff,
                psn: 0,
                msn: 0xff_ffff,
                tmr_valid: true,
                tmr_code: 0,
            },
            0xffff,
            31,
        ),
        (early(1, 3, None), 0xffff, 31),
        (
            EarlyNak {
                qpn: 0x80_0006,
                rqpn: 1,
                psn: 0x80_0000,
                msn: 1,
                tmr_valid: false,
                tmr_code: 31,
            },
            0x8000,
            0,
        ),
        (early(1, 4, Some(5)), 0x8000, 0),
    ];
    let mut b = ready_bench(Uut::small());
    let mut taken_at = Vec::new();
    for (k, &(e, pkey, timer)) in offers.iter().enumerate() {
        let c = b.clock;
        let (o, t) = b.step(&Ins {
            pkey,
            rnr_timer: timer,
            early: Some(e),
            ..idle()
        });
        let want = k % 2 == 0;
        assert_eq!(
            (o.en_ready, t.early_taken, o.pulses.rnr),
            (want, want, want),
            "offer {k}: en_ready, taken, nak_rnr"
        );
        assert_eq!(o.nak.is_some(), !want, "offer {k}: m_nak_valid");
        if want {
            taken_at.push(c);
        }
    }
    while !b.drained() {
        b.step(&idle());
        assert!(b.clock < 1_000);
    }
    let want: [(u32, u16, u32, u32, u8, u32); 4] = [
        (5, 0x8001, 0xab_cdef, 0x12_3456, 0x29, 0x65_4321),
        (6, 0x7fff, 0, 0xff_ffff, 0x23, 0),
        (0xff_ffff, 0xffff, 0xff_ffff, 0, 0x20, 0xff_ffff),
        (0x80_0006, 0x8000, 1, 0x80_0000, 0x20, 1),
    ];
    assert_eq!(b.got_nak.len(), want.len(), "only the NAKs taken come");
    for (k, (((at, n), &(qpn, pkey, dest_qp, psn, syndrome, msn)), &c)) in
        b.got_nak.iter().zip(&want).zip(&taken_at).enumerate()
    {
        assert_eq!(*at, c + 1, "NAK {k}: valid the clock after it was taken");
        assert_eq!(n.qpn, qpn, "NAK {k}: m_nak_qpn");
        assert_eq!(
            n.hdr,
            nak_header(pkey, dest_qp, psn, syndrome, msn),
            "NAK {k}: header {:032x}",
            n.hdr
        );
        check_header(n.hdr, pkey, dest_qp, psn, syndrome, msn);
    }
    assert_eq!(b.rnr_pulses, 4);
    // No state changed: QPs 5 and 6 neither wait nor have a timer code
    // (their RNRs use the global code), and QP 6 (the alias of
    // 0x80_0006) does not drop another PSN.
    let items = [
        Item::L(lk(5, 1, Raw::Ok)),
        Item::L(lk(6, 2, Raw::Ok)),
        Item::L(lk(6, 0xff_ffff, Raw::Fault)),
        Item::L(lk(5, 0x12_3456, Raw::Fault)),
    ];
    feed(&mut b, &items, 0, |_| true);
    assert_eq!(
        b.statuses(),
        vec![
            (5, 1, Some(OK)),
            (6, 2, Some(OK)),
            (6, 0xff_ffff, Some(RNR)),
            (5, 0x12_3456, Some(RNR)),
        ]
    );
    assert!(b.decided.iter().all(|d| d.ov_tmr == (false, 0)));
    assert_eq!(
        b.syndromes()[4..],
        [(6, RNR12), (5, RNR12)],
        "the early NAKs set no timer code"
    );
}

#[test]
fn responder_early_nak_is_refused_while_a_nak_or_a_qp_command_is_in_the_way() {
    let mut b = ready_bench(Uut::small());
    let mut psn = 0;
    let mut offer = |b: &mut Bench, i: Ins| {
        psn += 1;
        b.step(&Ins {
            early: Some(early(9, psn, None)),
            ..i
        })
    };
    // A commit pushing its NAK: refused in the clock of the push (the
    // FIFO still empty), then while the NAK is in the FIFO (m_nak stalled
    // three clocks, then the clock it leaves); taken the clock after.
    let (_, t) = b.step(&Ins {
        issue: Some(lk(2, 10, Raw::AccessErr)),
        ..idle()
    });
    assert!(t.issued);
    while !b.push {
        b.step(&idle());
        assert!(b.clock < 1_000);
    }
    assert_eq!(b.fifo, 0);
    let stalled = Ins {
        m_nak_ready: false,
        ..idle()
    };
    let (o, t) = offer(&mut b, stalled);
    assert!(
        !o.en_ready && !t.early_taken,
        "refused beside the commit's push"
    );
    for k in 0..3 {
        let (o, t) = offer(&mut b, stalled);
        assert!(
            o.nak.is_some() && !o.en_ready && !t.early_taken,
            "stalled {k}"
        );
    }
    let (o, t) = offer(&mut b, idle());
    assert!(o.nak.is_some() && !o.en_ready && !t.early_taken, "popped");
    let (o, t) = offer(&mut b, idle());
    assert!(o.nak.is_none() && o.en_ready && t.early_taken, "FIFO empty");
    while !b.drained() {
        b.step(&idle());
    }
    // A command taken on an idle block: held one clock (it takes the free
    // c2 slot at once), then at c3, c4 and c5: `cmd_busy` and refused for
    // four clocks; taken once it is in c6.
    let busy_clocks = |b: &mut Bench, offer: &mut dyn FnMut(&mut Bench, Ins) -> (Outs, Took)| {
        let mut busy = 0;
        loop {
            let (o, t) = offer(b, idle());
            assert_eq!(o.cmd_busy, !o.en_ready, "clock {}", b.clock - 1);
            assert_eq!(t.early_taken, o.en_ready);
            if t.early_taken {
                return busy;
            }
            busy += 1;
            assert!(busy < 10);
        }
    };
    let (o, t) = b.step(&Ins {
        cmd: Some(cmd(qp_cmd::SET_TIMER, 6, 5)),
        ..idle()
    });
    assert!(t.cmd_taken && !o.cmd_busy && o.en_ready);
    assert_eq!(busy_clocks(&mut b, &mut offer), 4, "held, c3, c4, c5");
    while !b.drained() {
        b.step(&idle());
    }
    // Held two clocks behind a lookup in flight: five clocks.
    b.step(&Ins {
        issue: Some(lk(3, 1, Raw::Ok)),
        ..idle()
    });
    let (_, t) = b.step(&Ins {
        cmd: Some(cmd(qp_cmd::CLEAR_TIMER, 6, 0)),
        ..idle()
    });
    assert!(t.cmd_taken);
    assert_eq!(busy_clocks(&mut b, &mut offer), 5, "held twice, c3, c4, c5");
    while !b.drained() {
        b.step(&idle());
    }
    assert_eq!(b.early_refused_nak, 5);
    assert_eq!(b.early_refused_cmd, 9);
    assert_eq!(b.early.len(), 3);
    assert_eq!(
        b.syndromes(),
        vec![(2, 0x62), (9, RNR12), (9, RNR12), (9, RNR12)]
    );
}

#[test]
fn responder_rnr_answer_whose_nak_went_out_early_queues_none_but_waits() {
    // The RNR answer with `cm_nak_sent`: no NAK, no `nak_rnr`, but the QP
    // waits for the PSN as after any RNR (other PSNs DROP, back to back
    // too); its retransmission that faults again gets a NAK as usual.
    let items = [
        Item::L(sent(3, 100)),
        Item::L(lk(3, 101, Raw::Ok)),
        Item::L(lk(3, 102, Raw::Fault)),
        Item::L(lk(3, 100, Raw::Ok)),
        Item::L(lk(3, 101, Raw::Ok)),
        Item::L(sent(4, 7)),
        Item::L(lk(4, 7, Raw::Fault)),
        Item::L(lk(4, 8, Raw::Ok)),
        Item::L(lk(4, 7, Raw::Ok)),
        // Beyond the table: nothing written, nothing queued.
        Item::L(sent(0x13, 5)),
        Item::L(lk(3, 6, Raw::Ok)),
        // A QP put in error after its request's early NAK: the replay is
        // still answered RNR (as the NAK said), no NAK; the QP stays in
        // error until QP_RESET.
        Item::C(cmd(qp_cmd::SET_ERROR, 5, 0)),
        Item::L(sent(5, 9)),
        Item::L(lk(5, 10, Raw::Ok)),
        Item::L(local(5, 1, Raw::Ok)),
        Item::C(cmd(qp_cmd::RESET, 5, 0)),
        Item::L(lk(5, 10, Raw::Ok)),
    ];
    for gap in [0, 6] {
        let b = run(Uut::small(), &items, gap, |_| true);
        assert_eq!(
            b.statuses(),
            vec![
                (3, 100, Some(RNR)),
                (3, 101, Some(DROP)),
                (3, 102, Some(DROP)),
                (3, 100, Some(OK)),
                (3, 101, Some(OK)),
                (4, 7, Some(RNR)),
                (4, 7, Some(RNR)),
                (4, 8, Some(DROP)),
                (4, 7, Some(OK)),
                (0x13, 5, Some(RNR)),
                (3, 6, Some(OK)),
                (5, 9, Some(RNR)),
                (5, 10, Some(FATAL)),
                (5, 1, Some(FATAL)),
                (5, 10, Some(OK)),
            ],
            "gap {gap}"
        );
        assert_eq!(b.syndromes(), vec![(4, RNR12), (5, 0x63)], "gap {gap}");
        assert_eq!(b.rnr_pulses, 1, "gap {gap}: nak_rnr");
        assert_eq!(b.sent_drops, 2, "gap {gap}");
    }
    // The whole early path: the early NAK of QP 2 PSN 50 is taken, the
    // request's replay is answered RNR with `cm_nak_sent`: one NAK in
    // all, and QP 2 then waits for PSN 50.
    let mut b = ready_bench(Uut::small());
    let (_, t) = b.step(&Ins {
        early: Some(early(2, 50, None)),
        ..idle()
    });
    assert!(t.early_taken);
    let items = [
        Item::L(sent(2, 50)),
        Item::L(lk(2, 51, Raw::Ok)),
        Item::L(lk(2, 50, Raw::Ok)),
    ];
    feed(&mut b, &items, 0, |_| true);
    let st: Vec<_> = b.statuses().iter().map(|s| s.2).collect();
    assert_eq!(st, vec![Some(RNR), Some(DROP), Some(OK)]);
    assert_eq!(b.got_nak.len(), 1, "one NAK for the request");
    check_header(
        b.got_nak[0].1.hdr,
        PKEY,
        0x30_0002,
        50,
        RNR12,
        0x40_0000 + 50,
    );
    assert_eq!(b.rnr_pulses, 1);
}

#[test]
fn responder_ov_tmr_shows_the_qp_timer_code_at_c5() {
    // `ov_tmr_*` for lookups of their QP right behind the commands (the
    // forwarding) and spaced; other QPs, the alias beyond the table and
    // local ops included.
    let items = [
        Item::C(cmd(qp_cmd::SET_TIMER, 6, 5)),
        Item::L(lk(6, 1, Raw::Ok)),
        Item::L(lk(7, 1, Raw::Ok)),
        Item::L(lk(22, 1, Raw::Ok)),
        Item::L(local(6, 2, Raw::Ok)),
        Item::C(cmd(qp_cmd::SET_TIMER, 6, 31)),
        Item::L(lk(6, 3, Raw::Ok)),
        Item::C(cmd(qp_cmd::SET_TIMER, 6, 0)),
        Item::L(lk(6, 4, Raw::Ok)),
        Item::C(cmd(qp_cmd::CLEAR_TIMER, 6, 0)),
        Item::L(lk(6, 5, Raw::Ok)),
        Item::C(cmd(qp_cmd::SET_TIMER, 6, 9)),
        Item::L(lk(6, 6, Raw::Ok)),
        Item::C(cmd(qp_cmd::RESET, 6, 0)),
        Item::L(lk(6, 7, Raw::Ok)),
    ];
    for gap in [0, 5] {
        let b = run(Uut::small(), &items, gap, |_| true);
        let got: Vec<_> = b.decided.iter().map(|d| d.ov_tmr).collect();
        assert_eq!(
            got,
            vec![
                (true, 5),
                (false, 0),
                (false, 0),
                (true, 5),
                (true, 31),
                (true, 0),
                (false, 0),
                (true, 9),
                (false, 0),
            ],
            "gap {gap}"
        );
    }
}

/// Random traffic: the translator's issue with hot QPs, retransmissions,
/// PSNs near the wrap, every raw answer and both park kinds, replays of
/// parked lookups, commands, resets, phases of NAK backpressure.
fn random_run(dut: Uut, clocks: u64, seed: u64) {
    let qp_bits = dut.qp_bits;
    let qps = 1u32 << qp_bits;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut b = Bench::new(dut);
    let hot: Vec<u32> = (0..5).map(|_| rng.gen_range(0..qps)).collect();
    let mut offer: Option<Lk> = None;
    let mut cmd_offer: Option<Cmd> = None;
    let mut parked: Vec<Lk> = Vec::new();
    let mut psn_next = vec![0u32; qps as usize];
    let mut last_psn = vec![0u32; qps as usize];
    let (mut pkey, mut timer) = (PKEY, TIMER);
    let (mut lk_p, mut nak_p) = (1.0f64, 1.0f64);
    let mut timer_every_clock = false;
    // About eight resets in the minimum length of the run.
    let reset_odds = (clocks / 8).max(300) as u32;
    while !harness::done(b.clock, clocks, clocks * 20, || {
        vec![
            ("rnr naks", b.r.rnr_naks, 50),
            ("rnr naks of suspended MRs", b.r.rnr_susp_naks, 20),
            ("error naks", b.r.err_naks, 20),
            ("drops", b.r.drops, 20),
            ("retransmissions ending a wait", b.retransmits, 20),
            ("timer overrides used", b.overrides_used, 3),
            ("local ops of a QP in error", b.r.local_fatals, 3),
            (
                "lookups at distance 1 of a write of their QP",
                b.dist[0],
                50,
            ),
            (
                "lookups at distance 2 of a write of their QP",
                b.dist[1],
                50,
            ),
            (
                "lookups at distance 3 of a write of their QP",
                b.dist[2],
                50,
            ),
            (
                "lookups at distance 4 of a write of their QP",
                b.dist[3],
                50,
            ),
            ("right behind an RNR, its PSN", b.behind_rnr_same_psn, 5),
            (
                "right behind an RNR, another PSN",
                b.behind_rnr_other_psn,
                5,
            ),
            (
                "lookups forwarded a command of their QP",
                b.cmd_forwarded,
                5,
            ),
            ("parked lookups", b.parks, 20),
            ("hold from the NAK FIFO's room", b.room_holds, 50),
            ("NAK stalled clocks", b.nak_stalls, 100),
            ("commands behind lookups in flight", b.late_injects, 5),
            ("resets", b.resets, 3),
            ("QPNs beyond the table", b.out_of_range, 3),
            ("refused commands", b.refused, 1),
            ("PSN compares near the wrap", b.wraps, 3),
            ("QP_RESET", b.cmds[0], 2),
            ("SET_ERROR", b.cmds[1], 2),
            ("SET_TIMER", b.cmds[2], 2),
            ("CLEAR_TIMER", b.cmds[3], 2),
            ("early NAKs taken", b.r.early_naks, 20),
            ("early NAKs with the QP's timer code", b.early_tmr, 5),
            (
                "early NAKs refused for a NAK queued or being pushed",
                b.early_refused_nak,
                10,
            ),
            (
                "early NAKs refused for a QP command",
                b.early_refused_cmd,
                5,
            ),
            (
                "early NAKs ahead of the NAK decided in their clock",
                b.early_beside_decision,
                3,
            ),
            ("RNR answers whose NAK went out early", b.r.rnr_sent, 20),
            ("DROPs of a QP waiting after an early NAK", b.sent_drops, 5),
        ]
    }) {
        let c = b.clock;
        if c.is_multiple_of(128) {
            let mode = |rng: &mut StdRng| match rng.gen_range(0..8) {
                0 => 0.1,
                1..=2 => 0.5,
                _ => 1.0,
            };
            lk_p = mode(&mut rng);
            nak_p = if rng.gen_ratio(1, 12) {
                0.0
            } else {
                mode(&mut rng)
            };
            if rng.gen_ratio(1, 8) {
                pkey = rng.gen();
                timer = rng.gen_range(0..32);
            }
            timer_every_clock = rng.gen_ratio(1, 16);
        }
        if timer_every_clock {
            timer = rng.gen_range(0..32);
        }
        if offer.is_none() && rng.gen_bool(lk_p) {
            offer = Some(if !parked.is_empty() && rng.gen_ratio(1, 3) {
                // The replay of a parked lookup, with a new answer.
                let mut x = parked.swap_remove(rng.gen_range(0..parked.len()));
                x.raw = if x.nak_sent {
                    // Its early NAK was taken: answered RNR.
                    Raw::Fault
                } else if rng.gen_ratio(1, 4) {
                    Raw::ParkMiss
                } else {
                    Raw::Ok
                };
                x
            } else {
                let qpn = match rng.gen_range(0..100) {
                    0 => rng.gen_range(qps..1 << 24),
                    1 => {
                        hot[rng.gen_range(0..hot.len())]
                            | (rng.gen_range(1..1u32 << (24 - qp_bits)) << qp_bits)
                    }
                    2..=26 => rng.gen_range(0..qps),
                    _ => hot[rng.gen_range(0..hot.len())],
                };
                let idx = (qpn & (qps - 1)) as usize;
                let st = b.r.qp(qpn).copied().unwrap_or_default();
                let psn = match rng.gen_range(0..20) {
                    0..=6 if st.waiting => st.psn,
                    0..=2 => last_psn[idx],
                    3..=4 => rng.gen_range(0xff_fff8..=0xff_ffff),
                    5 => rng.gen::<u32>() & 0xff_ffff,
                    _ => {
                        psn_next[idx] = (psn_next[idx] + 1) & 0xff_ffff;
                        psn_next[idx]
                    }
                };
                last_psn[idx] = psn;
                let raw = match rng.gen_range(0..100) {
                    0..=44 => Raw::Ok,
                    45..=69 => Raw::Fault,
                    70..=77 => Raw::AccessErr,
                    78..=83 => Raw::Fatal,
                    84..=91 => Raw::ParkBlocked,
                    _ => Raw::ParkMiss,
                };
                let remote = rng.gen_ratio(4, 5);
                Lk {
                    qpn,
                    psn,
                    remote,
                    raw,
                    susp: rng.gen_ratio(1, 3),
                    rqpn: rng.gen::<u32>() & 0xff_ffff,
                    msn: rng.gen::<u32>() & 0xff_ffff,
                    // Some remote faults come as the replay of a request
                    // whose NAK went out early.
                    nak_sent: remote && raw == Raw::Fault && rng.gen_ratio(1, 6),
                }
            });
        }
        if cmd_offer.is_none() && rng.gen_ratio(1, 50) {
            // Often the QP of the lookup on offer (a fault note's SET_ERROR
            // is for a QP with traffic), so a command lands right between
            // lookups of its QP.
            let qpn = match rng.gen_range(0..10) {
                0 => rng.gen::<u32>() & 0xff_ffff,
                1..=2 => rng.gen_range(0..qps),
                3..=5 if offer.is_some() => offer.unwrap().qpn,
                _ => hot[rng.gen_range(0..hot.len())],
            };
            // SET_ERROR rarer, so the hot QPs are not in error most of
            // the time.
            let kind = match rng.gen_range(0..10) {
                0..=3 => qp_cmd::RESET,
                4 => qp_cmd::SET_ERROR,
                5..=7 => qp_cmd::SET_TIMER,
                _ => qp_cmd::CLEAR_TIMER,
            };
            cmd_offer = Some(cmd(kind, qpn, rng.gen_range(0..32)));
        }
        // An early NAK now and then, for one clock: half of them for a
        // parked remote lookup (its replay then comes answered RNR with
        // `cm_nak_sent`), the others with random fields for any QPN.
        let mut early = None;
        let mut early_for = None;
        if rng.gen_ratio(1, 8) {
            let tmr_code = rng.gen_range(0..32);
            let k = rng.gen_range(0..parked.len().max(1));
            early = Some(match parked.get(k) {
                Some(p) if p.remote && !p.nak_sent && rng.gen_bool(0.5) => {
                    early_for = Some(k);
                    let t = b.r.overrides(&p.lookup()).timer;
                    EarlyNak {
                        qpn: p.qpn,
                        rqpn: p.rqpn,
                        psn: p.psn,
                        msn: p.msn,
                        tmr_valid: t.is_some(),
                        tmr_code: t.unwrap_or(tmr_code),
                    }
                }
                _ => EarlyNak {
                    qpn: match rng.gen_range(0..4) {
                        0 => rng.gen::<u32>() & 0xff_ffff,
                        1 => rng.gen_range(0..qps),
                        _ => hot[rng.gen_range(0..hot.len())],
                    },
                    rqpn: rng.gen::<u32>() & 0xff_ffff,
                    psn: rng.gen::<u32>() & 0xff_ffff,
                    msn: rng.gen::<u32>() & 0xff_ffff,
                    tmr_valid: rng.gen_bool(0.5),
                    tmr_code,
                },
            });
        }
        let i = Ins {
            rst: c < 1 || rng.gen_ratio(1, reset_odds),
            pkey,
            rnr_timer: timer,
            issue: offer,
            cmd: cmd_offer,
            early,
            m_nak_ready: rng.gen_bool(nak_p),
        };
        let decided_before = b.decided.len();
        let (_, t) = b.step(&i);
        if t.issued {
            offer = None;
        }
        if t.cmd_taken {
            cmd_offer = None;
        }
        if let (true, Some(k)) = (t.early_taken, early_for) {
            parked[k].nak_sent = true;
        }
        if let Some(d) = b.decided.get(decided_before) {
            if d.status.is_none() && parked.len() < 64 {
                parked.push(d.lk);
            }
        }
        if i.rst {
            // The translator is reset with the block: its parked
            // requests are gone.
            parked.clear();
        }
    }
    // Drain, then every NAK must have come.
    let mut left = 200;
    while !b.drained() {
        b.step(&Ins {
            pkey,
            rnr_timer: timer,
            ..idle()
        });
        left -= 1;
        assert!(left > 0, "not drained: {} NAKs missing", b.exp_nak.len());
    }
    println!(
        "{} clocks: {} decisions ({} parked), {} NAKs ({} RNR, {} RNR suspended, {} error, {} early; {} early refused), {} RNR answers after an early NAK, {} drops, {} local FATAL, {} commands ({} refused), {} resets, NAK FIFO peak {}, distances {:?}",
        b.clock,
        b.decided.len(),
        b.parks,
        b.got_nak.len(),
        b.r.rnr_naks,
        b.r.rnr_susp_naks,
        b.r.err_naks,
        b.r.early_naks,
        b.early_refused_nak + b.early_refused_cmd,
        b.r.rnr_sent,
        b.r.drops,
        b.r.local_fatals,
        b.cmds.iter().sum::<u64>(),
        b.refused,
        b.resets,
        b.fifo_peak,
        b.dist
    );
}

#[test]
fn responder_matches_reference_on_verilog_random() {
    let seed = seed();
    random_run(Uut::small(), 200_000, seed);
    random_run(Uut::full(), 200_000, seed);
}

#[test]
fn responder_verilog_matches_rust_hdl_in_random_lockstep() {
    random_run(Uut::lockstep(), 3_000, seed());
}

#[test]
fn responder_is_synthesizable_small_and_full() {
    harness::checks::assert_synthesizable(
        &verilog_of(Small::new(), "responder_small"),
        "responder_small",
    );
    harness::checks::assert_synthesizable(
        &verilog_of(Full::new(), "responder_full"),
        "responder_full",
    );
}

#[test]
fn responder_refuses_an_out_of_range_qp_bits() {
    assert!(std::panic::catch_unwind(QpResponder::<1>::new).is_err());
    assert!(std::panic::catch_unwind(QpResponder::<13>::new).is_err());
}
