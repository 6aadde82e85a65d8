//! The command unit (`CommandUnit`) against its reference model.
//!
//! Every clock the bench compares every output (`cmd_ready`, the result
//! stream, `err_resume_stale`, the MR table write ports, the RESUME stream
//! to the fault queue and the QP command stream to the responder) with a
//! cycle model of the unit built on the plain-Rust command reference
//! (`odp_mmu_workshop::models::command_ref`). The bench plays the fault
//! queue's RESUME port ([`FaultQueue`]): its `s_res_ready` after a delay,
//! and one answer, done or stale, `RES_CHECK_CLOCKS` after each handshake;
//! and the per-QP responder's command port ([`Responder`]): its ready after
//! a delay, and a `qp_refused` pulse the clock after a handshake it
//! refuses. Stream monitors check that the RESUME and the QP command hold,
//! valid and stable, until taken. Directed tests name each command and
//! each bad-command answer; the random runs drive random commands (good and
//! bad fields, every op code) with random `cmd_valid` gaps, `ready` drops,
//! fault-queue and responder delays and answers, stray refusal pulses, and
//! resets, on the Verilated Verilog (long) and on the rust-hdl model in
//! lockstep with it (short).

use std::collections::VecDeque;

use odp_mmu_workshop::harness;

use harness::dut::Dut;
use harness::lockstep::Lockstep;
use harness::monitor::StreamMonitor;
use harness::seed;
use harness::verilated::Verilated;
use odp_mmu::control::command::*;
use odp_mmu::control::inval::IV_SUSPEND;
use odp_mmu::control::regmap::op;
use odp_mmu::fault::fault_queue::RES_CHECK_CLOCKS;
use odp_mmu::spec::{mr_state, qp_cmd};
use odp_mmu_workshop::models::command_ref::{
    execute, execute_with, inv_offsets, qp_result, resume_result, Command, Effect, Inv, Outcome,
    Pf, QpCmd, Resume,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

/// 8 MRs; the default core has 256 (`CommandUnit<8>`).
type Small = CommandUnit<3>;
type Full = CommandUnit<8>;

fn verilog_of<B: Block>(mut uut: B, name: &str) -> String {
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, name)
}

/// One clock's inputs.
#[derive(Clone, Copy, Debug, Default)]
struct Ins {
    rst: bool,
    ready: bool,
    cmd: Option<Command>,
    /// The fault queue's `s_res_ready`, `res_done` and `res_stale`.
    fq_ready: bool,
    fq_done: bool,
    fq_stale: bool,
    /// The responder's `s_qpcmd_ready` and `qpcmd_refused`.
    qp_ready: bool,
    qp_refused: bool,
    /// The invalidation unit's `s_iv_ready` and `full`.
    iv_ready: bool,
    iv_full: bool,
    /// The MR waiters' `r_ready` and `r_done`.
    mw_ready: bool,
    mw_done: bool,
    /// The prefetch unit's `s_ready` and `busy`.
    pf_ready: bool,
    pf_busy: bool,
}

/// The invalidation port's payload: the command and its offsets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct IvOut {
    inv: Inv,
    off_lo: u64,
    off_hi: u64,
}

/// One clock's outputs, as compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Outs {
    cmd_ready: bool,
    /// `(op, tag, code)` of a `res_valid` clock.
    res: Option<(u8, u8, u8)>,
    err_resume_stale: bool,
    /// The full write: every field, when `mr_wr_valid`.
    wr: Option<Effect>,
    /// The state write `(index, state)`, when `mr_st_valid`.
    st: Option<(u32, u8)>,
    /// The RESUME offered, when `fq_res_valid`.
    fq_res: Option<Resume>,
    /// The QP command offered, when `qp_valid`.
    qp: Option<QpCmd>,
    /// The invalidation offered, when `iv_valid`.
    iv: Option<IvOut>,
    /// The MR_RESUME offered (its MR), when `mw_valid`.
    mw: Option<u8>,
    /// The PREFETCH offered, when `pf_valid`.
    pf: Option<Pf>,
}

odp_mmu_workshop::port_map!(SmallPorts for Small {
    clock: clock,
    inputs: [rst, ready, cmd_valid, cmd_op, cmd_tag, cmd_arg0, cmd_arg1, cmd_arg2, cmd_arg3, cmd_arg4, cmd_arg5, cmd_arg6, cmd_arg7, cmd_arg8, fq_res_ready, fq_res_done, fq_res_stale, qp_ready, qp_refused, iv_ready, iv_full, mw_ready, mw_done, pf_ready, pf_busy],
    outputs: [cmd_ready, res_valid, res_op, res_tag, res_code, err_resume_stale, fq_res_valid, fq_res_token, fq_res_err, qp_valid, qp_kind, qp_qpn, qp_timer, iv_valid, iv_kind, iv_mr, iv_va_lo, iv_va_hi, iv_off_lo, iv_off_hi, mw_valid, mw_mr, pf_valid, pf_write, pf_nofault],
    bundles: [mr_wr, mr_st],
});

/// The Verilated Verilog of `uut`, as module `name`.
fn ver<B: Block>(mut uut: B, name: &str) -> Verilated {
    Verilated::of_block(&mut uut, name)
}

const ARGS: [&str; 9] = [
    "cmd_arg0", "cmd_arg1", "cmd_arg2", "cmd_arg3", "cmd_arg4", "cmd_arg5", "cmd_arg6", "cmd_arg7",
    "cmd_arg8",
];

/// Applies `i`, settles, returns the outputs before the edge.
fn settle(d: &mut dyn Dut, i: &Ins) -> Outs {
    d.set("rst", i.rst as u128);
    d.set("ready", i.ready as u128);
    let c = i.cmd.unwrap_or_default();
    d.set("cmd_valid", i.cmd.is_some() as u128);
    d.set("cmd_op", c.op as u128);
    d.set("cmd_tag", c.tag as u128);
    for (n, a) in ARGS.iter().zip(c.args) {
        d.set(n, a as u128);
    }
    d.set("fq_res_ready", i.fq_ready as u128);
    d.set("fq_res_done", i.fq_done as u128);
    d.set("fq_res_stale", i.fq_stale as u128);
    d.set("qp_ready", i.qp_ready as u128);
    d.set("qp_refused", i.qp_refused as u128);
    d.set("iv_ready", i.iv_ready as u128);
    d.set("iv_full", i.iv_full as u128);
    d.set("mw_ready", i.mw_ready as u128);
    d.set("mw_done", i.mw_done as u128);
    d.set("pf_ready", i.pf_ready as u128);
    d.set("pf_busy", i.pf_busy as u128);
    d.settle();
    Outs {
        cmd_ready: d.is("cmd_ready"),
        res: d.is("res_valid").then(|| {
            (
                d.get("res_op") as u8,
                d.get("res_tag") as u8,
                d.get("res_code") as u8,
            )
        }),
        err_resume_stale: d.is("err_resume_stale"),
        wr: d.is("mr_wr_valid").then(|| Effect {
            index: d.get("mr_wr_index") as u32,
            tag: d.get("mr_wr_tag") as u8,
            pd: d.get("mr_wr_pd") as u16,
            base_va: d.get("mr_wr_base_va") as u64,
            length: d.get("mr_wr_length") as u64,
            access: d.get("mr_wr_access") as u8,
            root: d.get("mr_wr_root") as u64,
            levels_m1: d.get("mr_wr_levels_m1") as u8,
            state: d.get("mr_wr_state") as u8,
        }),
        st: d
            .is("mr_st_valid")
            .then(|| (d.get("mr_st_index") as u32, d.get("mr_st_state") as u8)),
        fq_res: d.is("fq_res_valid").then(|| Resume {
            token: d.get("fq_res_token") as u32,
            err: d.is("fq_res_err"),
        }),
        qp: d.is("qp_valid").then(|| QpCmd {
            kind: d.get("qp_kind") as u8,
            qpn: d.get("qp_qpn") as u32,
            timer: d.get("qp_timer") as u8,
        }),
        iv: d.is("iv_valid").then(|| IvOut {
            inv: Inv {
                kind: d.get("iv_kind") as u8,
                mr: d.get("iv_mr") as u8,
                va_lo: d.get("iv_va_lo") as u64,
                va_hi: d.get("iv_va_hi") as u64,
            },
            off_lo: d.get("iv_off_lo") as u64,
            off_hi: d.get("iv_off_hi") as u64,
        }),
        mw: d.is("mw_valid").then(|| d.get("mw_mr") as u8),
        pf: d.is("pf_valid").then(|| Pf {
            mr: d.get("iv_mr") as u8,
            va_lo: d.get("iv_va_lo") as u64,
            va_hi: d.get("iv_va_hi") as u64,
            write: d.is("pf_write"),
            nofault: d.is("pf_nofault"),
        }),
    }
}

/// Where the model's command is: the unit's states after Idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Check,
    /// A good RESUME_FAULT, offered to the fault queue.
    Resume(Resume),
    /// Taken by the fault queue; waits for its answer.
    ResumeWait,
    /// A good QP_RESET / QP_RNR_TIMER, offered to the responder.
    Qp(QpCmd),
    /// Taken by the responder; reads `qp_refused` this clock.
    QpWait,
    /// A good INVALIDATE / MR_SUSPEND: reads the MR's base.
    InvPrep(Inv),
    /// Offered to the invalidation unit.
    Inv(IvOut),
    /// A good MR_RESUME of this MR, offered to the MR waiters.
    MrRes(u32),
    /// Taken by the MR waiters; waits for `mw_done`.
    MrResWait,
    /// A good PREFETCH, offered to the prefetch unit.
    Pf(Pf),
    /// Taken, with this result code and MR table write.
    Issue(u8, Option<Effect>),
}

/// Cycle model of the unit: Idle -> Check -> (Resume -> ResumeWait -> |
/// Qp -> QpWait ->) Issue, on the reference.
struct Model {
    mr_bits: u32,
    /// The command copied and where it is.
    held: Option<(Command, Phase)>,
    /// Each MR's base VA, as MR_WRITE set it (the unit's shadow table;
    /// `rst` keeps it).
    base: Vec<u64>,
}

impl Model {
    fn new(mr_bits: u32) -> Self {
        Self {
            mr_bits,
            held: None,
            base: vec![0; 1 << mr_bits],
        }
    }

    fn outs(&self, i: &Ins) -> Outs {
        let mut o = Outs::default();
        match self.held {
            Some((_, Phase::Resume(r))) if !i.rst => o.fq_res = Some(r),
            Some((_, Phase::Qp(q))) if !i.rst => o.qp = Some(q),
            Some((_, Phase::Pf(p))) if !i.rst => o.pf = Some(p),
            Some((_, Phase::MrRes(mr))) if !i.rst => {
                o.mw = Some(mr as u8);
                if i.mw_ready {
                    let index = mr & ((1 << self.mr_bits) - 1);
                    o.st = Some((index, mr_state::VALID as u8));
                }
            }
            Some((c, Phase::Inv(v))) if !i.rst => {
                o.iv = Some(v);
                if v.inv.kind == IV_SUSPEND as u8 && i.iv_ready {
                    o.st = Some((c.args[0], mr_state::SUSPENDED as u8));
                }
            }
            Some((c, Phase::Issue(code, effect))) => {
                o.cmd_ready = true;
                if !i.rst {
                    o.res = Some((c.op, c.tag, code));
                    o.err_resume_stale = code == RES_STALE_TOKEN as u8;
                }
                match effect {
                    Some(e) if c.op == op::MR_WRITE => o.wr = Some(e),
                    Some(e) => o.st = Some((e.index, e.state)),
                    None => {}
                }
            }
            _ => {}
        }
        o
    }

    fn edge(&mut self, i: &Ins) {
        if let Some((c, _)) = self.held {
            assert_eq!(i.cmd, Some(c), "the bench holds a command until taken");
        }
        let held_before = self.held;
        self.held = match self.held {
            _ if i.rst => None,
            None => i.cmd.filter(|_| i.ready).map(|c| (c, Phase::Check)),
            Some((c, Phase::Check)) => Some((
                c,
                match execute_with(&c, self.mr_bits, i.iv_full, i.pf_busy) {
                    Outcome::Done(code, effect) => Phase::Issue(code, effect),
                    Outcome::Resume(r) => Phase::Resume(r),
                    Outcome::Qp(q) => Phase::Qp(q),
                    Outcome::Inv(v) => Phase::InvPrep(v),
                    Outcome::MrResume(mr) => Phase::MrRes(mr),
                    Outcome::Prefetch(p) => Phase::Pf(p),
                },
            )),
            Some((c, Phase::InvPrep(v))) => {
                let base = self.base[(c.args[0] & ((1 << self.mr_bits) - 1)) as usize];
                let (off_lo, off_hi) = inv_offsets(v.va_lo, v.va_hi, base);
                Some((
                    c,
                    Phase::Inv(IvOut {
                        inv: v,
                        off_lo,
                        off_hi,
                    }),
                ))
            }
            Some((c, Phase::Inv(_))) if i.iv_ready => Some((c, Phase::Issue(RES_OK as u8, None))),
            Some((c, Phase::Pf(_))) if i.pf_ready => Some((c, Phase::Issue(RES_OK as u8, None))),
            Some((c, Phase::Resume(_))) if i.fq_ready => Some((c, Phase::ResumeWait)),
            Some((c, Phase::ResumeWait)) if i.fq_done || i.fq_stale => {
                Some((c, Phase::Issue(resume_result(i.fq_stale), None)))
            }
            Some((c, Phase::Qp(_))) if i.qp_ready => Some((c, Phase::QpWait)),
            Some((c, Phase::MrRes(_))) if i.mw_ready => Some((c, Phase::MrResWait)),
            Some((c, Phase::MrResWait)) if i.mw_done => Some((c, Phase::Issue(RES_OK as u8, None))),
            Some((c, Phase::QpWait)) => Some((c, Phase::Issue(qp_result(i.qp_refused), None))),
            Some((_, Phase::Issue(..))) => None,
            waiting => waiting,
        };
        // The shadow base is written with the MR table, reset or not.
        if let Some((c, Phase::Issue(_, Some(e)))) = held_before {
            if c.op == op::MR_WRITE {
                self.base[e.index as usize] = e.base_va;
            }
        }
    }
}

/// The fault queue's RESUME port as the bench plays it: `s_res_ready`
/// rises once a RESUME's valid has been seen for its delay in clocks (0:
/// ready is already high when valid rises), and each RESUME taken is
/// answered, done or stale, `RES_CHECK_CLOCKS` after its handshake.
struct FaultQueue {
    rng: StdRng,
    /// `(delay, stale)` of the next RESUMEs; drawn at random once empty.
    script: VecDeque<(u32, bool)>,
    /// The current RESUME's `(delay, stale)`.
    next: (u32, bool),
    /// Clocks the current RESUME has been offered and not taken.
    waited: u32,
    /// Answers due: `(clock, stale)`.
    answers: VecDeque<(u64, bool)>,
    /// Whether `rst` drops the answers due (the fault queue reset too);
    /// `None`: at random.
    rst_drops_answers: Option<bool>,
    monitor: StreamMonitor<Resume>,
    /// Every RESUME taken.
    taken: Vec<Resume>,
    /// Clocks `fq_res_valid` was high with `fq_res_ready` low.
    waits: u64,
    /// RESUMEs that waited for ready at least one clock.
    waited_resumes: u64,
    /// Answers that came while no RESUME waited for one (after a reset).
    stray_answers: u64,
}

impl FaultQueue {
    /// Random delays and answers.
    fn random(seed: u64) -> Self {
        Self::scripted_then(StdRng::seed_from_u64(seed), &[])
    }

    /// `script`'s `(delay, stale)`, one per RESUME, then random ones.
    fn scripted(script: &[(u32, bool)]) -> Self {
        Self::scripted_then(StdRng::seed_from_u64(0), script)
    }

    fn scripted_then(rng: StdRng, script: &[(u32, bool)]) -> Self {
        let mut fq = Self {
            rng,
            script: script.iter().copied().collect(),
            next: (0, false),
            waited: 0,
            answers: VecDeque::new(),
            rst_drops_answers: None,
            monitor: StreamMonitor::new("fq_res"),
            taken: Vec::new(),
            waits: 0,
            waited_resumes: 0,
            stray_answers: 0,
        };
        fq.next = fq.draw();
        fq
    }

    fn draw(&mut self) -> (u32, bool) {
        self.script.pop_front().unwrap_or_else(|| {
            let delay = match self.rng.gen_range(0..8) {
                0..=2 => 0,
                3..=4 => 1,
                5..=6 => self.rng.gen_range(2..8),
                _ => self.rng.gen_range(8..40),
            };
            (delay, self.rng.gen_ratio(1, 3))
        })
    }

    /// This clock's `fq_res_ready`, `fq_res_done`, `fq_res_stale` into `i`.
    fn drive(&mut self, clock: u64, i: &mut Ins) {
        i.fq_ready = self.waited >= self.next.0;
        let answer = match self.answers.front() {
            Some(&(due, stale)) if due == clock => {
                self.answers.pop_front();
                Some(stale)
            }
            _ => None,
        };
        i.fq_done = answer == Some(false);
        i.fq_stale = answer == Some(true);
    }

    /// After the clock's outputs: a handshake schedules its answer.
    fn observe(&mut self, clock: u64, i: &Ins, o: &Outs, model: &Model) {
        if (i.fq_done || i.fq_stale) && !matches!(model.held, Some((_, Phase::ResumeWait))) {
            self.stray_answers += 1;
        }
        if i.rst {
            // The RESUME offered, if any, is withdrawn: the next one draws
            // afresh.
            if self.waited > 0 {
                self.next = self.draw();
            }
            self.waited = 0;
            self.monitor = StreamMonitor::new("fq_res");
            if self
                .rst_drops_answers
                .unwrap_or_else(|| self.rng.gen_ratio(1, 2))
            {
                self.answers.clear();
            }
            return;
        }
        let valid = o.fq_res.is_some();
        let payload = o.fq_res.unwrap_or_default();
        if let Some(r) = self.monitor.observe(clock, valid, i.fq_ready, payload) {
            self.answers
                .push_back((clock + RES_CHECK_CLOCKS, self.next.1));
            self.taken.push(r);
            self.waited_resumes += (self.waited > 0) as u64;
            self.waited = 0;
            self.next = self.draw();
        } else if valid {
            self.waited += 1;
            self.waits += 1;
        }
    }
}

/// The per-QP responder's command port as the bench plays it: ready rises
/// once a QP command's valid has been seen for its delay in clocks (0:
/// ready is already high when valid rises), and a command it refuses gets
/// `qp_refused` in the clock after its handshake. In random runs it also
/// pulses `qp_refused` now and then in a clock that answers no handshake,
/// which the unit must ignore.
struct Responder {
    rng: StdRng,
    /// `(delay, refuse)` of the next QP commands; drawn at random once empty.
    script: VecDeque<(u32, bool)>,
    /// The current QP command's `(delay, refuse)`.
    next: (u32, bool),
    /// Clocks the current QP command has been offered and not taken.
    waited: u32,
    /// The clock of the refusal due, if any.
    refusal: Option<u64>,
    /// Stray `qp_refused` pulses, one in `stray` clocks (0: none).
    stray: u32,
    monitor: StreamMonitor<QpCmd>,
    /// Every QP command taken.
    taken: Vec<QpCmd>,
    /// Every QP command taken and refused.
    refused: Vec<QpCmd>,
    /// Clocks `qp_valid` was high with `qp_ready` low.
    waits: u64,
    /// QP commands that waited for ready at least one clock.
    waited_cmds: u64,
    /// Stray pulses sent (none answered a handshake).
    strays: u64,
}

impl Responder {
    /// Random delays and refusals, and stray pulses.
    fn random(seed: u64) -> Self {
        let mut r = Self::scripted_then(StdRng::seed_from_u64(seed), &[]);
        r.stray = 64;
        r
    }

    /// `script`'s `(delay, refuse)`, one per QP command, then random ones.
    fn scripted(script: &[(u32, bool)]) -> Self {
        Self::scripted_then(StdRng::seed_from_u64(0), script)
    }

    fn scripted_then(rng: StdRng, script: &[(u32, bool)]) -> Self {
        let mut r = Self {
            rng,
            script: script.iter().copied().collect(),
            next: (0, false),
            waited: 0,
            refusal: None,
            stray: 0,
            monitor: StreamMonitor::new("qp"),
            taken: Vec::new(),
            refused: Vec::new(),
            waits: 0,
            waited_cmds: 0,
            strays: 0,
        };
        r.next = r.draw();
        r
    }

    fn draw(&mut self) -> (u32, bool) {
        self.script.pop_front().unwrap_or_else(|| {
            let delay = match self.rng.gen_range(0..8) {
                0..=2 => 0,
                3..=4 => 1,
                5..=6 => self.rng.gen_range(2..8),
                _ => self.rng.gen_range(8..40),
            };
            (delay, self.rng.gen_ratio(1, 4))
        })
    }

    /// This clock's `qp_ready` and `qp_refused` into `i`. A stray pulse
    /// never lands where the model reads a refusal (the clock after a
    /// handshake).
    fn drive(&mut self, clock: u64, i: &mut Ins, model: &Model) {
        i.qp_ready = self.waited >= self.next.0;
        i.qp_refused = self.refusal == Some(clock);
        if self.refusal.is_some_and(|due| due <= clock) {
            self.refusal = None;
        }
        let reads = matches!(model.held, Some((_, Phase::QpWait)));
        if !i.qp_refused && !reads && self.stray > 0 && self.rng.gen_ratio(1, self.stray) {
            i.qp_refused = true;
            self.strays += 1;
        }
    }

    /// After the clock's outputs: a handshake schedules its refusal.
    fn observe(&mut self, clock: u64, i: &Ins, o: &Outs) {
        if i.rst {
            // The QP command offered, if any, is withdrawn: the next one
            // draws afresh. A refusal due now came with the reset.
            if self.waited > 0 {
                self.next = self.draw();
            }
            self.waited = 0;
            self.monitor = StreamMonitor::new("qp");
            return;
        }
        let valid = o.qp.is_some();
        let payload = o.qp.unwrap_or_default();
        if let Some(q) = self.monitor.observe(clock, valid, i.qp_ready, payload) {
            if self.next.1 {
                self.refusal = Some(clock + 1);
                self.refused.push(q);
            }
            self.taken.push(q);
            self.waited_cmds += (self.waited > 0) as u64;
            self.waited = 0;
            self.next = self.draw();
        } else if valid {
            self.waited += 1;
            self.waits += 1;
        }
    }
}

/// The invalidation unit's port (or the prefetch unit's) as the bench
/// plays it: `s_iv_ready` rises once an offer has waited its delay (drawn
/// at random, or from a script), and `full` (the prefetch unit's `busy`)
/// is a level that flips at random (never, with `full_odds` 0).
struct TakePort<T: Copy + Default + PartialEq + std::fmt::Debug> {
    rng: StdRng,
    script: VecDeque<u32>,
    /// The current offer's delay and the clocks it has waited.
    next: u32,
    waited: u32,
    full: bool,
    full_odds: u32,
    monitor: StreamMonitor<T>,
    /// Every offer taken.
    taken: Vec<T>,
    /// Offers that waited for ready at least one clock.
    waited_cmds: u64,
}

type InvPort = TakePort<IvOut>;
type PfPort = TakePort<Pf>;

impl<T: Copy + Default + PartialEq + std::fmt::Debug> TakePort<T> {
    fn new(rng: StdRng, script: &[u32], full_odds: u32) -> Self {
        let mut p = Self {
            rng,
            script: script.iter().copied().collect(),
            next: 0,
            waited: 0,
            full: false,
            full_odds,
            monitor: StreamMonitor::new(std::any::type_name::<T>()),
            taken: Vec::new(),
            waited_cmds: 0,
        };
        p.next = p.draw();
        p
    }

    /// Ready at once, never full, unless `script` names delays.
    fn scripted(script: &[u32]) -> Self {
        Self::new(StdRng::seed_from_u64(0), script, 0)
    }

    /// Random delays and `full`.
    fn random(seed: u64) -> Self {
        let mut p = Self::new(StdRng::seed_from_u64(seed), &[], 40);
        p.script.clear();
        p
    }

    fn draw(&mut self) -> u32 {
        self.script.pop_front().unwrap_or_else(|| {
            if self.full_odds == 0 {
                return 0;
            }
            match self.rng.gen_range(0..8) {
                0..=3 => 0,
                4..=5 => 1,
                _ => self.rng.gen_range(2..40),
            }
        })
    }

    /// This clock's `(ready, full)`.
    fn drive(&self) -> (bool, bool) {
        (self.waited >= self.next, self.full)
    }

    fn observe(&mut self, clock: u64, rst: bool, offer: Option<T>, ready: bool) {
        if self.full_odds > 0 && self.rng.gen_ratio(1, self.full_odds) {
            self.full = !self.full;
        }
        if rst {
            if self.waited > 0 {
                self.next = self.draw();
            }
            self.waited = 0;
            self.monitor = StreamMonitor::new(std::any::type_name::<T>());
            return;
        }
        let valid = offer.is_some();
        if let Some(v) = self
            .monitor
            .observe(clock, valid, ready, offer.unwrap_or_default())
        {
            self.taken.push(v);
            self.waited_cmds += (self.waited > 0) as u64;
            self.waited = 0;
            self.next = self.draw();
        } else if valid {
            self.waited += 1;
        }
    }
}

/// The MR waiters' resume port as the bench plays it: `r_ready` after a
/// random delay (at once for a directed run), `r_done` a random number of
/// clocks after the handshake.
struct MwPort {
    rng: StdRng,
    random: bool,
    waited: u32,
    next: u32,
    done_at: Option<u64>,
    /// MR_RESUMEs taken.
    taken: u64,
}

impl MwPort {
    fn new(seed: u64, random: bool) -> Self {
        Self {
            rng: StdRng::seed_from_u64(seed),
            random,
            waited: 0,
            next: 0,
            done_at: None,
            taken: 0,
        }
    }

    fn drive(&mut self, clock: u64, i: &mut Ins) {
        i.mw_ready = self.waited >= self.next;
        i.mw_done = self.done_at == Some(clock);
    }

    fn observe(&mut self, clock: u64, i: &Ins, o: &Outs) {
        if o.mw.is_some() && i.mw_ready {
            self.taken += 1;
            self.waited = 0;
            let r = &mut self.rng;
            self.next = if self.random { r.gen_range(0..6) } else { 0 };
            self.done_at = Some(clock + if self.random { r.gen_range(1..40) } else { 3 });
        } else if o.mw.is_some() {
            self.waited += 1;
        }
    }
}

/// What a directed run saw.
#[derive(Debug, Default)]
struct Run {
    /// `(op, tag, code)` of each result, in order.
    results: Vec<(u8, u8, u8)>,
    /// Per result: clocks from the command's first offer (the unit copies
    /// it then) to its result, both counted.
    clocks: Vec<u64>,
    /// Per result: `err_resume_stale` came with it.
    stale_flags: Vec<bool>,
}

impl Run {
    fn codes(&self) -> Vec<u8> {
        self.results.iter().map(|r| r.2).collect()
    }
}

/// Runs `cmds` through `dut` one after the other (each offered, with
/// `ready` high, until taken, or dropped by a reset), checking every clock
/// against the model; `fq` plays the fault queue, `qp` the responder, and
/// `rst_when(clock, model, fq, qp)` adds resets (the command the model
/// holds then is dropped).
fn run_with_resets(
    dut: &mut impl Dut,
    mr_bits: u32,
    cmds: &[Command],
    fq: &mut FaultQueue,
    qp: &mut Responder,
    rst_when: &mut dyn FnMut(u64, &Model, &FaultQueue, &Responder) -> bool,
) -> Run {
    let mut iv = InvPort::scripted(&[]);
    let mut pf = PfPort::scripted(&[]);
    run_all(dut, mr_bits, cmds, fq, qp, &mut iv, &mut pf, rst_when)
}

/// [`run_all`] on the small unit without resets, RESUMEs or QP commands
/// (the responder must see none), `iv` and `pf` playing their units.
fn run_units(dut: &mut impl Dut, cmds: &[Command], iv: &mut InvPort, pf: &mut PfPort) -> Run {
    let mut qp = no_qp_cmds();
    let never = &mut |_, _: &Model, _: &FaultQueue, _: &Responder| false;
    let run = run_all(dut, 3, cmds, &mut no_resumes(), &mut qp, iv, pf, never);
    assert!(qp.taken.is_empty() && qp.waits == 0, "qp_valid never rose");
    run
}

/// [`run_with_resets`] with `iv` playing the invalidation unit and `pf`
/// the prefetch unit.
#[allow(clippy::too_many_arguments)]
fn run_all(
    dut: &mut impl Dut,
    mr_bits: u32,
    cmds: &[Command],
    fq: &mut FaultQueue,
    qp: &mut Responder,
    iv: &mut InvPort,
    pf: &mut PfPort,
    rst_when: &mut dyn FnMut(u64, &Model, &FaultQueue, &Responder) -> bool,
) -> Run {
    let mut model = Model::new(mr_bits);
    let mut mw = MwPort::new(0, false);
    let mut run = Run::default();
    let (mut next, mut dropped, mut offered_at) = (0, 0, 2);
    for clock in 0..200 * (cmds.len() as u64 + 2) {
        let mut i = Ins {
            rst: clock == 0 || (clock > 1 && rst_when(clock, &model, fq, qp)),
            ready: clock > 1,
            cmd: cmds.get(next).copied().filter(|_| clock > 1),
            ..Ins::default()
        };
        fq.drive(clock, &mut i);
        qp.drive(clock, &mut i, &model);
        (i.iv_ready, i.iv_full) = iv.drive();
        (i.pf_ready, i.pf_busy) = pf.drive();
        mw.drive(clock, &mut i);
        let o = settle(dut, &i);
        assert_eq!(o, model.outs(&i), "clock {clock}, inputs {i:x?}");
        if let Some(r) = o.res {
            run.results.push(r);
            run.clocks.push(clock - offered_at + 1);
            run.stale_flags.push(o.err_resume_stale);
        }
        let dropping = i.rst && model.held.is_some();
        fq.observe(clock, &i, &o, &model);
        qp.observe(clock, &i, &o);
        iv.observe(clock, i.rst, o.iv, i.iv_ready);
        pf.observe(clock, i.rst, o.pf, i.pf_ready);
        mw.observe(clock, &i, &o);
        model.edge(&i);
        dut.tick();
        if (o.cmd_ready && i.cmd.is_some()) || dropping {
            next += 1;
            dropped += dropping as usize;
            offered_at = clock + 1;
        }
        if next == cmds.len() && model.held.is_none() && clock > 4 {
            break;
        }
    }
    assert_eq!(
        run.results.len() + dropped,
        cmds.len(),
        "every command answers once, unless a reset dropped it"
    );
    run
}

/// [`run_with_resets`] without resets, and a responder that must see no
/// QP command.
fn run_directed(dut: &mut impl Dut, mr_bits: u32, cmds: &[Command], fq: &mut FaultQueue) -> Run {
    let mut qp = no_qp_cmds();
    let run = run_qp(dut, mr_bits, cmds, fq, &mut qp);
    assert!(qp.taken.is_empty() && qp.waits == 0, "qp_valid never rose");
    run
}

/// [`run_with_resets`] without resets.
fn run_qp(
    dut: &mut impl Dut,
    mr_bits: u32,
    cmds: &[Command],
    fq: &mut FaultQueue,
    qp: &mut Responder,
) -> Run {
    run_with_resets(dut, mr_bits, cmds, fq, qp, &mut |_, _, _, _| false)
}

/// The fault queue of a run with no RESUME_FAULT: it must see none.
fn no_resumes() -> FaultQueue {
    FaultQueue::scripted(&[])
}

/// The responder of a run with no QP command: it must see none.
fn no_qp_cmds() -> Responder {
    Responder::scripted(&[])
}

fn mr_write(index: u32, word1: u32, base_va: u64, length: u64, root_pa: u64) -> Command {
    Command {
        op: op::MR_WRITE,
        tag: index as u8 ^ 0x5a,
        args: [
            index,
            word1,
            0xbeef,
            base_va as u32,
            (base_va >> 32) as u32,
            length as u32,
            (length >> 32) as u32,
            root_pa as u32,
            (root_pa >> 32) as u32,
        ],
    }
}

fn cmd(op: u8, arg0: u32, arg1: u32) -> Command {
    Command {
        op,
        tag: op.wrapping_mul(3),
        args: [arg0, arg1, 0, 0, 0, 0, 0, 0, 0],
    }
}

/// QP_RESET of `qpn` (the whole `CMD_ARG0` word), tagged `tag`.
fn qp_reset(qpn: u32, tag: u8) -> Command {
    Command {
        tag,
        ..cmd(op::QP_RESET, qpn, 0)
    }
}

/// QP_RNR_TIMER of `qpn` with timer word `word1`, tagged `tag`.
fn qp_timer(qpn: u32, word1: u32, tag: u8) -> Command {
    Command {
        tag,
        ..cmd(op::QP_RNR_TIMER, qpn, word1)
    }
}

/// RESUME_FAULT of `token` with flags word `flags`, tagged `tag`.
fn resume(token: u32, flags: u32, tag: u8) -> Command {
    Command {
        tag,
        ..cmd(op::RESUME_FAULT, token, flags)
    }
}

#[test]
fn command_unit_writes_an_mr_with_every_field_and_sets_states() {
    let mut dut = ver(Small::new(), "command_small");
    // tag 0xa7, access 5, levels-1 3, state 1 (valid).
    let word1 = 0xa7 | (5 << 8) | (3 << 12) | (1 << 16);
    let cmds = [
        mr_write(7, word1, 0xffff_f000_0000_1234, 0x2000, 0x12_3456_7000),
        cmd(op::MR_SET_STATE, 7, 2),
        // An MR that ends exactly at 2^64 is legal.
        mr_write(0, word1, u64::MAX - 0xfff, 0x1000, 0x1000),
    ];
    let run = run_directed(&mut dut, 3, &cmds, &mut no_resumes());
    assert_eq!(
        run.results,
        vec![
            (op::MR_WRITE, 7 ^ 0x5a, RES_OK as u8),
            (op::MR_SET_STATE, 6, RES_OK as u8),
            (op::MR_WRITE, 0x5a, RES_OK as u8),
        ]
    );
    assert_eq!(run.clocks, [3, 3, 3], "an MR command takes three clocks");
}

#[test]
fn command_unit_refuses_every_bad_command_and_writes_nothing() {
    let mut dut = ver(Small::new(), "command_small");
    let good1 = 0x11 | (1 << 16);
    let cmds = [
        mr_write(8, good1, 0, 0x1000, 0x1000),
        mr_write(1 << 20, good1, 0, 0x1000, 0x1000),
        mr_write(1, 0x11 | (3 << 16), 0, 0x1000, 0x1000),
        mr_write(1, good1, u64::MAX - 0xfff, 0x1001, 0x1000),
        mr_write(1, good1, 0, 0x1000, 0x1008),
        cmd(op::MR_SET_STATE, 9, 1),
        cmd(op::MR_SET_STATE, 1, 3),
        cmd(op::RESUME_FAULT, 0x0102, 2),
        cmd(op::QP_RESET, 1 << 24, 0),
        cmd(op::QP_RNR_TIMER, 0x8000_0003, 0x105),
        cmd(0x00, 0, 0),
        cmd(0x0a, 0, 0),
        cmd(0xff, 0, 0),
    ];
    let mut want: Vec<u8> = vec![
        RES_MR_RANGE,
        RES_MR_RANGE,
        RES_BAD_FIELD,
        RES_RANGE_WRAPS,
        RES_ROOT_UNALIGNED,
        RES_MR_RANGE,
        RES_BAD_FIELD,
        RES_BAD_FIELD,
        RES_BAD_FIELD,
        RES_BAD_FIELD,
        RES_UNKNOWN_OP,
        RES_UNKNOWN_OP,
        RES_UNKNOWN_OP,
    ]
    .into_iter()
    .map(|c| c as u8)
    .collect();
    let mut all = cmds.to_vec();
    for &op in OPS_PLANNED {
        all.push(cmd(op, 0, 0));
        want.push(RES_NOT_BUILT as u8);
    }
    // The model comparison in run_directed already checks that no write
    // port, no RESUME and no QP command rises; the codes name each refusal.
    let mut fq = no_resumes();
    let run = run_directed(&mut dut, 3, &all, &mut fq);
    assert_eq!(run.codes(), want);
    assert!(fq.taken.is_empty());
}

#[test]
fn command_unit_resumes_a_fault_and_answers_ok_on_done_stale_token_on_stale() {
    let mut dut = ver(Small::new(), "command_small");
    // The fault queue's ready at once, at once, after one clock (as the
    // real one at the earliest) and at once; answers done, stale, done,
    // stale.
    let mut fq = FaultQueue::scripted(&[(0, false), (0, true), (1, false), (0, true)]);
    let cmds = [
        resume(0x0305, 0, 0x11),
        resume(0x1f02, 1, 0x22),
        cmd(op::MR_SET_STATE, 3, 1),
        resume(0x0001_0004, 1, 0x33),
        resume(0xffff_ffff, 0, 0x44),
    ];
    let run = run_directed(&mut dut, 3, &cmds, &mut fq);
    let (ok, stale) = (RES_OK as u8, RES_STALE_TOKEN as u8);
    assert_eq!(
        run.results,
        [
            (op::RESUME_FAULT, 0x11, ok),
            (op::RESUME_FAULT, 0x22, stale),
            (op::MR_SET_STATE, 6, ok),
            (op::RESUME_FAULT, 0x33, ok),
            (op::RESUME_FAULT, 0x44, stale),
        ]
    );
    assert_eq!(run.stale_flags, [false, true, false, false, true]);
    // The token and flag go to the fault queue as the driver wrote them.
    let r = |token, err| Resume { token, err };
    assert_eq!(
        fq.taken,
        [
            r(0x0305, false),
            r(0x1f02, true),
            r(0x0001_0004, true),
            r(0xffff_ffff, false)
        ]
    );
    // Copy, check, handshake, three clocks of the fault queue's check, result.
    assert_eq!(run.clocks, [7, 7, 3, 8, 7]);
}

#[test]
fn command_unit_holds_a_resume_valid_and_stable_for_random_ready_delays() {
    let mut rng = StdRng::seed_from_u64(seed());
    let mut dut = ver(Small::new(), "command_small");
    let mut script: Vec<(u32, bool)> = (0..4).map(|d| (d, rng.gen())).collect();
    script.extend((0..12).map(|_| (rng.gen_range(4..64), rng.gen())));
    let mut fq = FaultQueue::scripted(&script);
    let cmds: Vec<Command> = (0..script.len())
        .map(|k| resume(rng.gen(), rng.gen_range(0..2), k as u8))
        .collect();
    // The stream monitor in `fq` fails on a valid that drops or a payload
    // that changes before the handshake.
    let run = run_directed(&mut dut, 3, &cmds, &mut fq);
    let want: Vec<u64> = script.iter().map(|&(d, _)| 7 + d as u64).collect();
    assert_eq!(run.clocks, want, "seven clocks plus the ready delay");
    let codes: Vec<u8> = script.iter().map(|&(_, s)| resume_result(s)).collect();
    assert_eq!(run.codes(), codes);
    let sent: Vec<Resume> = cmds
        .iter()
        .map(|c| Resume {
            token: c.args[0],
            err: c.args[1] == 1,
        })
        .collect();
    assert_eq!(fq.taken, sent);
    // Valid did not wait for ready: it was up through every delay clock.
    let delays: u64 = script.iter().map(|&(d, _)| d as u64).sum();
    assert_eq!(fq.waits, delays);
}

#[test]
fn command_unit_refuses_reserved_resume_flags_and_sends_nothing() {
    let mut dut = ver(Small::new(), "command_small");
    let mut fq = FaultQueue::scripted(&[(0, true)]);
    let cmds: Vec<Command> = [2, 3, 0x8000_0000, 0x8000_0001, 0xffff_fffe, u32::MAX]
        .into_iter()
        .enumerate()
        .map(|(k, flags)| resume(0x0102, flags, k as u8))
        .collect();
    let run = run_directed(&mut dut, 3, &cmds, &mut fq);
    assert_eq!(run.codes(), vec![RES_BAD_FIELD as u8; cmds.len()]);
    assert_eq!(run.clocks, vec![3; cmds.len()], "refused in three clocks");
    assert!(
        fq.taken.is_empty() && fq.waits == 0,
        "fq_res_valid never rose"
    );
    assert!(run.stale_flags.iter().all(|&s| !s));
}

#[test]
fn command_unit_rst_drops_a_resume_offered_or_waiting_and_ignores_its_answer() {
    let mut dut = ver(Small::new(), "command_small");
    // A waits for ready and is reset before it is taken; B1 is reset in
    // the clock after its handshake, B2 in the clock its answer comes; C
    // follows. The fault queue keeps the answers of B1 and B2 (stale)
    // through the resets; they arrive while no RESUME waits and are
    // ignored.
    let mut fq = FaultQueue::scripted(&[(6, false), (0, true), (0, true), (2, false)]);
    fq.rst_drops_answers = Some(false);
    let (a, b1, b2, c) = (
        resume(0x0101, 0, 0xa),
        resume(0x0202, 0, 0xb1),
        resume(0x0303, 1, 0xb2),
        resume(0x0404, 0, 0xc),
    );
    let mut resets = 0;
    let mut qp = no_qp_cmds();
    let run = run_with_resets(
        &mut dut,
        3,
        &[a, b1, b2, c],
        &mut fq,
        &mut qp,
        &mut |clock, m, fq, _| {
            let rst = match m.held {
                Some((x, Phase::Resume(_))) => x == a && fq.waited == 3,
                Some((x, Phase::ResumeWait)) if x == b1 => true,
                Some((x, Phase::ResumeWait)) => {
                    x == b2 && fq.answers.front().map(|&(due, _)| due) == Some(clock)
                }
                _ => false,
            };
            resets += rst as u32;
            rst
        },
    );
    assert_eq!(resets, 3);
    assert_eq!(run.results, [(op::RESUME_FAULT, 0xc, RES_OK as u8)]);
    assert_eq!(run.stale_flags, [false]);
    assert_eq!(
        fq.taken,
        [
            Resume {
                token: 0x0202,
                err: false
            },
            Resume {
                token: 0x0303,
                err: true
            },
            Resume {
                token: 0x0404,
                err: false
            },
        ],
        "A was never handed over"
    );
    assert_eq!(fq.stray_answers, 1, "B1's answer came after its reset");
}

#[test]
fn command_unit_sends_qp_commands_to_the_responder_and_answers_qp_range_on_refusal() {
    let mut dut = ver(Small::new(), "command_small");
    // The responder's ready at once, after one clock, at once, at once
    // (refused), after three clocks (refused), at once; the MR_SET_STATE
    // between them reaches no port.
    let mut qp = Responder::scripted(&[
        (0, false),
        (1, false),
        (0, false),
        (0, true),
        (3, true),
        (0, false),
    ]);
    let cmds = [
        qp_reset(5, 0x11),
        // Enable set, code 17: SET_TIMER 17; the largest QPN.
        qp_timer(0x00ff_ffff, 0x100 | 17, 0x22),
        // Enable clear: CLEAR_TIMER, the code (17) not sent.
        qp_timer(3, 17, 0x33),
        cmd(op::MR_SET_STATE, 3, 1),
        qp_reset(0x00ab_cdef, 0x44),
        // Every ignored ARG1 bit set, enable and code 31: SET_TIMER 31.
        qp_timer(0x0000_1000, u32::MAX, 0x55),
        // Enable set, code 0 (the 655.36 ms code is a legal override).
        qp_timer(0, 0x100, 0x66),
    ];
    let mut fq = no_resumes();
    let run = run_qp(&mut dut, 3, &cmds, &mut fq, &mut qp);
    let (ok, range) = (RES_OK as u8, RES_QP_RANGE as u8);
    assert_eq!(
        run.results,
        [
            (op::QP_RESET, 0x11, ok),
            (op::QP_RNR_TIMER, 0x22, ok),
            (op::QP_RNR_TIMER, 0x33, ok),
            (op::MR_SET_STATE, 6, ok),
            (op::QP_RESET, 0x44, range),
            (op::QP_RNR_TIMER, 0x55, range),
            (op::QP_RNR_TIMER, 0x66, ok),
        ]
    );
    // QP_RANGE is a non-zero result (the top's ERROR.BAD_CMD and
    // ERROR_INFO), and not a stale RESUME.
    assert!(run.stale_flags.iter().all(|&s| !s));
    assert!(
        fq.taken.is_empty() && fq.waits == 0,
        "fq_res_valid never rose"
    );
    let q = |kind: u64, qpn, timer| QpCmd {
        kind: kind as u8,
        qpn,
        timer,
    };
    assert_eq!(
        qp.taken,
        [
            q(qp_cmd::RESET, 5, 0),
            q(qp_cmd::SET_TIMER, 0x00ff_ffff, 17),
            q(qp_cmd::CLEAR_TIMER, 3, 0),
            q(qp_cmd::RESET, 0x00ab_cdef, 0),
            q(qp_cmd::SET_TIMER, 0x1000, 31),
            q(qp_cmd::SET_TIMER, 0, 0),
        ]
    );
    assert_eq!(qp.refused, [qp.taken[3], qp.taken[4]]);
    // Copy, check, handshake, the refusal clock, result: five clocks plus
    // the clocks ready stays low.
    assert_eq!(run.clocks, [5, 6, 5, 3, 5, 8, 5]);
    assert_eq!(qp.waits, 4);
}

#[test]
fn command_unit_holds_a_qp_command_valid_and_stable_for_random_ready_delays() {
    let mut rng = StdRng::seed_from_u64(seed());
    let mut dut = ver(Small::new(), "command_small");
    let mut script: Vec<(u32, bool)> = (0..4).map(|d| (d, rng.gen())).collect();
    script.extend((0..12).map(|_| (rng.gen_range(4..64), rng.gen())));
    let mut qp = Responder::scripted(&script);
    let cmds: Vec<Command> = (0..script.len())
        .map(|k| {
            let qpn = rng.gen::<u32>() & 0x00ff_ffff;
            if rng.gen() {
                qp_reset(qpn, k as u8)
            } else {
                qp_timer(qpn, rng.gen(), k as u8)
            }
        })
        .collect();
    // The stream monitor in `qp` fails on a valid that drops or a payload
    // that changes before the handshake.
    let run = run_qp(&mut dut, 3, &cmds, &mut no_resumes(), &mut qp);
    let want: Vec<u64> = script.iter().map(|&(d, _)| 5 + d as u64).collect();
    assert_eq!(run.clocks, want, "five clocks plus the ready delay");
    let codes: Vec<u8> = script.iter().map(|&(_, r)| qp_result(r)).collect();
    assert_eq!(run.codes(), codes);
    let sent: Vec<QpCmd> = cmds
        .iter()
        .map(|c| match execute(c, 3) {
            Outcome::Qp(q) => q,
            o => panic!("{c:x?}: {o:?}"),
        })
        .collect();
    assert_eq!(qp.taken, sent);
    // Valid did not wait for ready: it was up through every delay clock.
    let delays: u64 = script.iter().map(|&(d, _)| d as u64).sum();
    assert_eq!(qp.waits, delays);
}

#[test]
fn command_unit_refuses_a_qpn_beyond_24_bits_and_sends_nothing() {
    let mut dut = ver(Small::new(), "command_small");
    let words = [1 << 24, 1 << 31, 0xff00_0000, 0x0100_0005, u32::MAX];
    let cmds: Vec<Command> = words
        .iter()
        .enumerate()
        .flat_map(|(k, &w)| [qp_reset(w, k as u8), qp_timer(w, 0x10a, k as u8)])
        .collect();
    let mut qp = Responder::scripted(&[(0, true)]);
    let run = run_qp(&mut dut, 3, &cmds, &mut no_resumes(), &mut qp);
    assert_eq!(run.codes(), vec![RES_BAD_FIELD as u8; cmds.len()]);
    assert_eq!(run.clocks, vec![3; cmds.len()], "refused in three clocks");
    assert!(qp.taken.is_empty() && qp.waits == 0, "qp_valid never rose");
}

#[test]
fn command_unit_rst_drops_a_qp_command_offered_or_taken_and_ignores_its_refusal() {
    let mut dut = ver(Small::new(), "command_small");
    // A waits for ready and is reset before it is taken; B is reset in the
    // clock after its handshake, the clock of its refusal; C follows and is
    // refused, D carried out.
    let mut qp = Responder::scripted(&[(6, false), (0, true), (2, true), (0, false)]);
    let (a, b, c, d) = (
        qp_reset(0x0a, 0xa),
        qp_timer(0x0b, 0x107, 0xb),
        qp_reset(0x0c, 0xc),
        qp_timer(0x0d, 0x007, 0xd),
    );
    let mut resets = 0;
    let run = run_with_resets(
        &mut dut,
        3,
        &[a, b, c, d],
        &mut no_resumes(),
        &mut qp,
        &mut |_, m, _, qp| {
            let rst = match m.held {
                Some((x, Phase::Qp(_))) => x == a && qp.waited == 3,
                Some((x, Phase::QpWait)) => x == b,
                _ => false,
            };
            resets += rst as u32;
            rst
        },
    );
    assert_eq!(resets, 2);
    assert_eq!(
        run.results,
        [
            (op::QP_RESET, 0xc, RES_QP_RANGE as u8),
            (op::QP_RNR_TIMER, 0xd, RES_OK as u8)
        ]
    );
    let q = |kind: u64, qpn, timer| QpCmd {
        kind: kind as u8,
        qpn,
        timer,
    };
    assert_eq!(
        qp.taken,
        [
            q(qp_cmd::SET_TIMER, 0x0b, 7),
            q(qp_cmd::RESET, 0x0c, 0),
            q(qp_cmd::CLEAR_TIMER, 0x0d, 0),
        ],
        "A was never handed over"
    );
}

#[test]
fn command_unit_takes_no_command_before_the_datapath_is_ready() {
    let mut dut = ver(Small::new(), "command_small");
    let c = mr_write(1, 1 << 16, 0, 0x1000, 0x1000);
    for _ in 0..5 {
        let o = settle(
            &mut dut,
            &Ins {
                cmd: Some(c),
                fq_ready: true,
                qp_ready: true,
                ..Ins::default()
            },
        );
        assert!(!o.cmd_ready && o.res.is_none() && o.wr.is_none() && o.fq_res.is_none());
        assert!(o.qp.is_none());
        dut.tick();
    }
}

/// A random command: any op (the built ones most often), fields good and bad.
fn random_cmd(rng: &mut StdRng) -> Command {
    let op = match rng.gen_range(0..20) {
        0..=4 => op::MR_WRITE,
        5..=7 => op::MR_SET_STATE,
        8..=9 => op::RESUME_FAULT,
        10 => op::QP_RESET,
        11 => op::QP_RNR_TIMER,
        12..=13 => op::INVALIDATE,
        14 => op::MR_SUSPEND,
        15 => op::MR_RESUME,
        16..=17 => op::PREFETCH,
        _ => rng.gen(),
    };
    let index = match rng.gen_range(0..10) {
        0 => rng.gen(),
        1 => rng.gen_range(0..1024),
        _ => rng.gen_range(0..8),
    };
    let base: u64 = match rng.gen_range(0..4) {
        0 => u64::MAX - rng.gen_range(0..0x10_0000),
        _ => rng.gen(),
    };
    let length: u64 = match rng.gen_range(0..4) {
        0 => (!base).wrapping_add(rng.gen_range(0..3)),
        _ => rng.gen_range(0..1 << 40),
    };
    let root: u64 = if rng.gen_ratio(1, 8) {
        rng.gen()
    } else {
        rng.gen::<u64>() & !0xfff
    };
    let mut c = mr_write(index, rng.gen(), base, length, root);
    c.op = op;
    c.tag = rng.gen();
    if op == op::MR_SET_STATE {
        c.args[1] = rng.gen_range(0..4);
    }
    if op == op::INVALIDATE || op == op::PREFETCH {
        // Flags mostly a range, else a whole MR, all, or a reserved bit;
        // the range near the MR bases the random MR_WRITEs set, empty,
        // wrapping or ending exactly at 2^64.
        c.args[1] = match rng.gen_range(0..10) {
            0 => rng.gen(),
            1 => 1 << rng.gen_range(2..32),
            2 => INV_FLAG_ALL,
            3 => INV_FLAG_MR,
            4 => INV_FLAG_ALL | INV_FLAG_MR,
            _ => 0,
        };
        let va: u64 = match rng.gen_range(0..3) {
            0 => base.wrapping_add(rng.gen_range(0..1 << 24)),
            1 => base.wrapping_sub(rng.gen_range(0..1 << 24)),
            _ => rng.gen(),
        };
        let len: u64 = match rng.gen_range(0..8) {
            0 => 0,
            1 => (!va).wrapping_add(rng.gen_range(0..3)),
            2 => rng.gen(),
            _ => rng.gen_range(1..1 << 22),
        };
        c.args[2] = va as u32;
        c.args[3] = (va >> 32) as u32;
        c.args[4] = len as u32;
        c.args[5] = (len >> 32) as u32;
    }
    if op == op::RESUME_FAULT {
        // Tokens as records carry them, and any word; mostly good flags,
        // else one reserved bit (each must refuse alone) or any word.
        if rng.gen_ratio(3, 4) {
            c.args[0] &= 0xffff;
        }
        c.args[1] = match rng.gen_range(0..8) {
            0 => rng.gen(),
            1 => 1 << rng.gen_range(1..32) | rng.gen_range(0..2),
            _ => rng.gen_range(0..2),
        };
    }
    if op == op::QP_RESET || op == op::QP_RNR_TIMER {
        // QPNs mostly within 24 bits, else one bit of 31:24 set (each must
        // refuse alone) or any word; the timer word any word (the bits
        // other than code and enable are ignored) or just code and enable.
        c.args[0] = match rng.gen_range(0..8) {
            0 => rng.gen(),
            1 => 1 << rng.gen_range(24..32) | rng.gen_range(0..64),
            2 => rng.gen::<u32>() & 0x00ff_ffff,
            _ => rng.gen_range(0..64),
        };
        if rng.gen() {
            c.args[1] = rng.gen_range(0..32) | (rng.gen_range(0..2) << 8);
        }
    }
    c
}

/// Result codes in `RES_*` order, as the coverage bins name them.
const CODE_NAMES: [&str; 12] = [
    "OK",
    "unknown op",
    "not built",
    "MR out of range",
    "bad field",
    "range wraps",
    "root unaligned",
    "stale token",
    "QP out of range",
    "empty range",
    "invalidation busy",
    "prefetch busy",
];

fn random_run(dut: &mut impl Dut, mr_bits: u32, clocks: u64, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut model = Model::new(mr_bits);
    let mut fq = FaultQueue::random(rng.gen());
    let mut qp = Responder::random(rng.gen());
    let mut iv = InvPort::random(rng.gen());
    let mut pf = PfPort::random(rng.gen());
    let mut mw = MwPort::new(rng.gen(), true);
    let mut offer: Option<Command> = None;
    let (mut taken, mut codes, mut resets) = (0u64, [0u64; 12], 0u64);
    let (mut stale_flags, mut resume_resets, mut qp_resets) = (0u64, 0u64, 0u64);
    let mut clock = 0;
    while !harness::done(clock, clocks, clocks * 10, || {
        let mut bins: harness::Bins = vec![
            ("commands", taken, 100),
            ("resets", resets, 2),
            ("MR_RESUMEs taken by the MR waiters", mw.taken, 5),
            (
                "resumes taken by the fault queue",
                fq.taken.len() as u64,
                20,
            ),
            ("resumes that waited for ready", fq.waited_resumes, 5),
            ("resets during a RESUME", resume_resets, 1),
            (
                "QP commands taken by the responder",
                qp.taken.len() as u64,
                20,
            ),
            ("QP commands refused", qp.refused.len() as u64, 3),
            ("QP commands that waited for ready", qp.waited_cmds, 5),
            ("resets during a QP command", qp_resets, 1),
            ("stray refusals ignored", qp.strays, 3),
            ("invalidations taken", iv.taken.len() as u64, 20),
            (
                "suspends taken",
                iv.taken
                    .iter()
                    .filter(|v| v.inv.kind == IV_SUSPEND as u8)
                    .count() as u64,
                5,
            ),
            ("invalidations that waited for ready", iv.waited_cmds, 5),
            ("prefetches taken", pf.taken.len() as u64, 10),
            ("prefetches that waited for ready", pf.waited_cmds, 3),
        ];
        for (k, name) in CODE_NAMES.into_iter().enumerate() {
            // Every op is built: NOT_BUILT never comes.
            if k != RES_NOT_BUILT as usize {
                bins.push((name, codes[k], 1));
            }
        }
        bins
    }) {
        // Resets land in a RESUME or a QP command (offered or waiting)
        // more often than elsewhere, so that the lockstep run sees them.
        let in_resume = matches!(model.held, Some((_, Phase::Resume(_) | Phase::ResumeWait)));
        let in_qp = matches!(model.held, Some((_, Phase::Qp(_) | Phase::QpWait)));
        let rst =
            clock < 2 || rng.gen_ratio(1, 2000) || ((in_resume || in_qp) && rng.gen_ratio(1, 300));
        if offer.is_none() && rng.gen_ratio(2, 3) {
            offer = Some(random_cmd(&mut rng));
        }
        let mut i = Ins {
            rst,
            ready: rng.gen_ratio(9, 10),
            cmd: offer,
            ..Ins::default()
        };
        fq.drive(clock, &mut i);
        qp.drive(clock, &mut i, &model);
        (i.iv_ready, i.iv_full) = iv.drive();
        (i.pf_ready, i.pf_busy) = pf.drive();
        mw.drive(clock, &mut i);
        let o = settle(dut, &i);
        assert_eq!(o, model.outs(&i), "clock {clock}, inputs {i:x?}");
        if o.cmd_ready && offer.is_some() {
            offer = None;
            taken += 1;
        }
        if let Some((_, _, code)) = o.res {
            codes[code as usize] += 1;
        }
        stale_flags += o.err_resume_stale as u64;
        resets += (rst && clock >= 2) as u64;
        resume_resets += (rst && in_resume) as u64;
        qp_resets += (rst && in_qp) as u64;
        fq.observe(clock, &i, &o, &model);
        qp.observe(clock, &i, &o);
        iv.observe(clock, i.rst, o.iv, i.iv_ready);
        pf.observe(clock, i.rst, o.pf, i.pf_ready);
        mw.observe(clock, &i, &o);
        model.edge(&i);
        dut.tick();
        clock += 1;
    }
    assert_eq!(stale_flags, codes[RES_STALE_TOKEN as usize]);
    println!(
        "{clock} clocks: {taken} commands, result codes {codes:?}, {resets} resets \
         ({resume_resets} during a RESUME, {qp_resets} during a QP command); fault queue: \
         {} RESUMEs taken, {} waited for ready ({} clocks), {} answers after a reset \
         ignored; responder: {} QP commands taken, {} refused, {} waited for ready ({} \
         clocks), {} stray refusals ignored",
        fq.taken.len(),
        fq.waited_resumes,
        fq.waits,
        fq.stray_answers,
        qp.taken.len(),
        qp.refused.len(),
        qp.waited_cmds,
        qp.waits,
        qp.strays
    );
}

#[test]
fn command_unit_matches_reference_on_verilog_random() {
    let seed = seed();
    random_run(&mut ver(Small::new(), "command_small"), 3, 200_000, seed);
    random_run(&mut ver(Full::new(), "command_full"), 8, 200_000, seed);
}

#[test]
fn command_unit_verilog_matches_rust_hdl_in_random_lockstep() {
    random_run(
        &mut Lockstep::of::<SmallPorts>(Small::new(), "command_small"),
        3,
        3_000,
        seed(),
    );
}

#[test]
fn command_unit_is_synthesizable_small_and_full() {
    harness::checks::assert_synthesizable(
        &verilog_of(Small::new(), "command_small"),
        "command_small",
    );
    harness::checks::assert_synthesizable(&verilog_of(Full::new(), "command_full"), "command_full");
}

#[test]
fn command_unit_refuses_an_out_of_range_mr_bits() {
    assert!(std::panic::catch_unwind(CommandUnit::<1>::new).is_err());
    assert!(std::panic::catch_unwind(CommandUnit::<11>::new).is_err());
}

/// INVALIDATE of `[va, va + len)` with flags `flags` on MR `mr`.
fn invalidate(mr: u32, flags: u32, va: u64, len: u64, tag: u8) -> Command {
    Command {
        op: op::INVALIDATE,
        tag,
        args: [
            mr,
            flags,
            va as u32,
            (va >> 32) as u32,
            len as u32,
            (len >> 32) as u32,
            0,
            0,
            0,
        ],
    }
}

#[test]
fn command_unit_hands_invalidations_and_suspends_to_the_invalidation_unit() {
    use odp_mmu::control::inval::{IV_ALL, IV_MR, IV_RANGE};
    let mut dut = ver(Small::new(), "command_small");
    let word1 = 0x11 | (1 << 16);
    let cmds = [
        mr_write(2, word1, 0x7000_1234, 0x10_0000, 0x1000),
        // A range inside MR 2: offsets from its base page 0x7000_1000.
        invalidate(2, 0, 0x7000_5000, 0x3000, 0xa1),
        // A range starting below the base: its start offset is 0.
        invalidate(2, 0, 0x6fff_0000, 0x1_2000, 0xa2),
        invalidate(2, INV_FLAG_MR, 0, 0, 0xa3),
        invalidate(99, INV_FLAG_ALL, 0, 0, 0xa4),
        Command {
            tag: 0xa5,
            ..cmd(op::MR_SUSPEND, 2, 0)
        },
        // Refused: MR out of range, reserved flag, empty, wrapping.
        invalidate(8, 0, 0x1000, 0x1000, 0xb1),
        invalidate(2, 4, 0x1000, 0x1000, 0xb2),
        invalidate(2, 0, 0x1000, 0, 0xb3),
        invalidate(2, 0, u64::MAX - 0xfff, 0x1001, 0xb4),
        cmd(op::MR_SUSPEND, 8, 0),
        // Ending exactly at 2^64 is legal: the end is all ones.
        invalidate(2, 0, u64::MAX - 0xfff, 0x1000, 0xa6),
    ];
    // The unit is ready after 0, 3, 0, 1, 5 clocks of the first offers.
    let mut iv = InvPort::scripted(&[0, 3, 0, 1, 5]);
    let run = run_units(&mut dut, &cmds, &mut iv, &mut PfPort::scripted(&[]));
    let ok = RES_OK as u8;
    assert_eq!(
        run.codes(),
        [
            ok,
            ok,
            ok,
            ok,
            ok,
            ok,
            RES_MR_RANGE as u8,
            RES_BAD_FIELD as u8,
            RES_EMPTY_RANGE as u8,
            RES_RANGE_WRAPS as u8,
            RES_MR_RANGE as u8,
            ok
        ]
    );
    let v = |kind: u64, mr: u8, va_lo: u64, va_hi: u64, off_lo: u64, off_hi: u64| IvOut {
        inv: Inv {
            kind: kind as u8,
            mr,
            va_lo,
            va_hi,
        },
        off_lo,
        off_hi,
    };
    assert_eq!(
        iv.taken,
        [
            v(IV_RANGE, 2, 0x7000_5000, 0x7000_8000, 0x4000, 0x7000),
            v(IV_RANGE, 2, 0x6fff_0000, 0x7000_2000, 0, 0x1000),
            v(IV_MR, 2, 0, 0, 0, 0),
            v(IV_ALL, 99, 0, 0, 0, 0),
            v(IV_SUSPEND, 2, 0, 0, 0, 0),
            v(
                IV_RANGE,
                2,
                u64::MAX - 0xfff,
                u64::MAX,
                u64::MAX - 0xfff - 0x7000_1000,
                u64::MAX - 0x7000_1000
            ),
        ]
    );
    // Copy, check, the base read, the offer (plus its wait), the result.
    assert_eq!(run.clocks[1..6], [5, 8, 5, 6, 10]);
    assert_eq!(run.clocks[6..11], [3, 3, 3, 3, 3]);
}

#[test]
fn command_unit_refuses_invalidations_while_the_unit_is_full() {
    let mut dut = ver(Small::new(), "command_small");
    let mut iv = InvPort::scripted(&[]);
    iv.full = true;
    let cmds = [
        invalidate(1, 0, 0x1000, 0x1000, 1),
        cmd(op::MR_SUSPEND, 1, 0),
        invalidate(1, INV_FLAG_ALL, 0, 0, 2),
    ];
    let run = run_units(&mut dut, &cmds, &mut iv, &mut PfPort::scripted(&[]));
    assert_eq!(run.codes(), [RES_INV_BUSY as u8; 3]);
    assert!(iv.taken.is_empty(), "nothing reaches the unit");
}

#[test]
fn command_unit_hands_mr_resume_to_the_mr_waiters_and_answers_when_they_are_done() {
    let mut dut = ver(Small::new(), "command_small");
    let cmds = [
        cmd(op::MR_RESUME, 2, 0),
        // Index beyond the 8 MRs: refused, nothing offered.
        cmd(op::MR_RESUME, 8, 0),
        cmd(op::MR_RESUME, 7, 0xffff_ffff),
    ];
    let run = run_directed(&mut dut, 3, &cmds, &mut no_resumes());
    let (ok, range) = (RES_OK as u8, RES_MR_RANGE as u8);
    assert_eq!(run.codes(), [ok, range, ok]);
    // Copy, check, offer (taken at once: the MR's state written valid),
    // three clocks to the MR waiters' done, then the result: the model of
    // `run_directed` checks every port of every clock, this the total.
    assert_eq!(run.clocks[0], 7, "MR_RESUME with the MR waiters ready");
    assert_eq!(run.clocks[1], 3, "a refused MR_RESUME");
}

/// PREFETCH of `mr` with `flags`, the range `va` + `len`, tagged `tag`.
fn prefetch(mr: u32, flags: u32, va: u64, len: u64, tag: u8) -> Command {
    Command {
        op: op::PREFETCH,
        ..invalidate(mr, flags, va, len, tag)
    }
}

#[test]
fn command_unit_hands_prefetch_to_the_prefetch_unit_and_refuses_bad_ones() {
    let mut dut = ver(Small::new(), "command_small");
    let cmds = [
        prefetch(2, 0, 0x7000_5000, 0x3000, 0xa1),
        prefetch(7, PF_FLAG_WRITE | PF_FLAG_NO_FAULT, 0x10_0800, 1, 0xa2),
        // Ending exactly at 2^64 is legal: the end is all ones.
        prefetch(3, PF_FLAG_NO_FAULT, u64::MAX - 0xfff, 0x1000, 0xa3),
        // Refused: MR out of range, reserved flag, empty, wrapping.
        prefetch(8, 0, 0x1000, 0x1000, 0xb1),
        prefetch(2, 4, 0x1000, 0x1000, 0xb2),
        prefetch(2, 0, 0x1000, 0, 0xb3),
        prefetch(2, 0, u64::MAX - 0xfff, 0x1001, 0xb4),
    ];
    // The prefetch unit is ready after 0, 4 and 1 clocks of the offers.
    let mut pf = PfPort::scripted(&[0, 4, 1]);
    let run = run_units(&mut dut, &cmds, &mut InvPort::scripted(&[]), &mut pf);
    let ok = RES_OK as u8;
    assert_eq!(
        run.codes(),
        [
            ok,
            ok,
            ok,
            RES_MR_RANGE as u8,
            RES_BAD_FIELD as u8,
            RES_EMPTY_RANGE as u8,
            RES_RANGE_WRAPS as u8
        ]
    );
    let p = |mr: u8, va_lo: u64, va_hi: u64, write: bool, nofault: bool| Pf {
        mr,
        va_lo,
        va_hi,
        write,
        nofault,
    };
    assert_eq!(
        pf.taken,
        [
            p(2, 0x7000_5000, 0x7000_8000, false, false),
            p(7, 0x10_0800, 0x10_0801, true, true),
            p(3, u64::MAX - 0xfff, u64::MAX, false, true),
        ]
    );
    // Copy, check, the offer (plus its wait), the result; a refusal takes
    // three clocks.
    assert_eq!(run.clocks[..3], [4, 8, 5]);
    assert_eq!(run.clocks[3..], [3, 3, 3, 3]);
}

#[test]
fn command_unit_refuses_prefetch_while_one_runs() {
    let mut dut = ver(Small::new(), "command_small");
    let mut pf = PfPort::scripted(&[]);
    pf.full = true;
    let cmds = [
        prefetch(1, 0, 0x1000, 0x1000, 1),
        prefetch(1, PF_FLAG_WRITE, 0x8000, 0x10_0000, 2),
    ];
    let run = run_units(&mut dut, &cmds, &mut InvPort::scripted(&[]), &mut pf);
    assert_eq!(run.codes(), [RES_PF_BUSY as u8; 2]);
    assert!(pf.taken.is_empty(), "nothing reaches the unit");
}
