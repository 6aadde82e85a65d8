//! The translation path (`Translator`: MR table + TLB + walker + ordering)
//! against the reference model, with host memory behind AXI4.
//!
//! One testbench drives either backend: the Verilated Verilog alone (long
//! seeded random runs) or the rust-hdl model in lockstep with the Verilog
//! (short runs). Every clock it checks: every answer equals the reference
//! answer (status, one `(pa, seg_len)` per page, `last`), answers of one QP
//! leave in request order, no request is lost (a drain at the end must
//! return every tag), at most one TLB entry hits, the output FIFO never
//! overflows, and the AXI4 and stream handshake rules hold.
//!
//! The random benches also play the per-QP responder (`docs/responder.md`):
//! each request carries a PSN of its own (unique in the run), the bench
//! draws at acceptance whether the responder will call its QP in error
//! (`ov_fatal`, FATAL) or drop it (`ov_drop`, DROP, remote ops only), and
//! drives these for the lookup at c5 that the translator presented on
//! `m_qlk_*` at c2 (every lookup of a request, both halves and every
//! replay, gets the same overrides, as a real responder's state would give
//! them). The timer override (`ov_tmr_valid`, `ov_tmr_code`) is drawn per
//! request too and driven the same way (noise in clocks without a lookup at
//! c5). It raises `hold` in random clocks and bursts, `qp_cmd_busy` in
//! rare short bursts, and takes early RNR NAKs (`m_en_ready`) in most
//! clocks. It checks `m_qlk_*` against the request, that no lookup is
//! issued while `hold` is high, and that every request is answered on
//! `m_cm_*` once, at c5, with its reference status (overrides applied),
//! remote QPN, MSN and suspended flag.
//!
//! Early RNR NAKs (`m_en_*`): each offer lasts one clock and names a
//! request in flight and not yet answered on `m_cm_*`, with its QPN, remote
//! QPN, PSN, MSN and timer override; it is a remote op whose reference
//! answer is RNR, every request its QP sent before it is decided, no
//! `qp_cmd_busy` came from the commit of its park to the walker's
//! completion, and no request is offered twice. A request whose NAK was
//! taken is answered RNR with `m_cm_nak_sent`; every other answer has
//! `m_cm_nak_sent` low. The stop rule counts NAKs taken and refused. A
//! directed test pins the offer to the third clock after the R beat of the
//! PTE that ends the walk, and checks local ops, a refused NAK and a QP
//! command.

use odp_mmu_workshop::harness;

use harness::seed;
use odp_mmu_workshop::models;

use std::collections::{HashMap, VecDeque};

use harness::dut::{AxiPorts, Dut};
use harness::lockstep::Lockstep;
use harness::monitor::StreamMonitor;
use harness::verilated::Verilated;
use models::host_memory::{
    Addr, AxiMonitor, HostMemory, MasterOut, MemConfig, SlaveOut, RESP_SLVERR,
};
use models::mr_check::MrEntry;
use models::page_table::{walk, Outcome, PageTableBuilder};
use models::translate_ref::{mr_end, translate, Answer, Req};
use odp_mmu::spec::PageSize;
use odp_mmu::spec::{mr_state::byte as mr_state, op::byte as op, status::byte as status};
use odp_mmu::translate::Translator;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

/// 8 MRs, 4 TLB sets, 4 huge entries, 8 slots, 2 walks.
type Small = Translator<3, 2, 4, 8, 3, 4, 2>;
/// The SPEC section 6 configuration.
type Full = Translator<8, 8, 32, 64, 6, 7, 8>;
const QPS: u32 = 12;

fn verilog_of<B: Block>(mut uut: B, name: &str) -> String {
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, name)
}

// ---------------------------------------------------------------------------
// The world: MRs and their page tables in host memory
// ---------------------------------------------------------------------------

struct World {
    mrs: Vec<MrEntry>,
    idx_bits: u32,
    mem: HostMemory,
}

/// Random MRs of every shape: 1..4 levels, 4 KiB / 2 MiB / 1 GiB pages,
/// holes (page faults), read-only pages, a PTE behind an AXI error (FATAL),
/// suspended and invalid MRs, MRs at VA 0 and at the top of the 64-bit space.
fn build_world(rng: &mut StdRng, idx_bits: u32, cfg: MemConfig) -> World {
    let mut mem = HostMemory::new(cfg);
    mem.logging = false;
    let mut tables = PageTableBuilder::new(0x1000, 0x10_0000);
    let mut mrs = Vec::new();
    let frame = |rng: &mut StdRng, size: PageSize| -> u64 {
        let align = size.bytes() >> 12;
        (rng.gen_range(0x10_0000u64..0x80_0000) / align) * align
    };
    for i in 0..1u32 << idx_bits {
        let levels: u8 = rng.gen_range(1..=4);
        let t = tables.new_mr(levels);
        let huge_1g = levels >= 3 && rng.gen_ratio(1, 3);
        let length: u64 = if huge_1g {
            1 << 30
        } else if levels == 1 {
            rng.gen_range(1..=64) * 4096 - rng.gen_range(0..4096)
        } else {
            rng.gen_range(1..=6) << 21
        };
        let base_va: u64 = match rng.gen_range(0..5) {
            0 => 0,
            1 => (u64::MAX - length) + 1,
            2 => rng.gen::<u64>() >> 4 & !0xFFF,
            _ => rng.gen::<u64>() >> 4,
        };
        let span = length + (base_va & 0xFFF);
        // Every fourth MR has its first last-level table behind SLVERR.
        let fatal_mr = i % 4 == 1 && !huge_1g;
        if huge_1g {
            tables.map(
                &mut mem,
                t,
                0,
                PageSize::Size1G,
                frame(rng, PageSize::Size1G),
                rng.gen_ratio(6, 7),
            );
        } else {
            let mut off = 0;
            while off < span {
                let two_meg = levels >= 2
                    && !(fatal_mr && off == 0)
                    && off % (1 << 21) == 0
                    && off + (1 << 21) <= span + 4096
                    && rng.gen_ratio(1, 3);
                let size = if two_meg {
                    PageSize::Size2M
                } else {
                    PageSize::Size4K
                };
                if rng.gen_ratio(4, 5) {
                    tables.map(
                        &mut mem,
                        t,
                        off,
                        size,
                        frame(rng, size),
                        rng.gen_ratio(6, 7),
                    );
                }
                off += size.bytes();
            }
        }
        if fatal_mr {
            let a = tables.pte_addr(&mut mem, t, 0, 0) & !0xFFF;
            mem.inject_error(a..a + 4096, RESP_SLVERR);
        }
        let state = match rng.gen_range(0..10) {
            _ if fatal_mr => mr_state::VALID,
            0 => mr_state::SUSPENDED,
            1 => mr_state::INVALID,
            _ => mr_state::VALID,
        };
        mrs.push(MrEntry {
            tag: rng.gen(),
            pd: rng.gen_range(1..3),
            base_va,
            length,
            access: if fatal_mr || rng.gen_ratio(4, 5) {
                7
            } else {
                rng.gen_range(0..8)
            },
            root: t.root,
            levels_m1: t.levels_m1,
            state,
        });
    }
    World { mrs, idx_bits, mem }
}

/// A random request, mostly legal, some of every illegal kind.
fn random_req(rng: &mut StdRng, w: &World) -> Req {
    let i = rng.gen_range(0..w.mrs.len());
    let e = &w.mrs[i];
    let mut key = ((i as u32) << 8) | e.tag as u32;
    if rng.gen_ratio(1, 30) {
        key ^= 1 << rng.gen_range(0..32);
    }
    let len: u16 = match rng.gen_range(0..100) {
        0 => 0,
        1 => rng.gen_range(4097..8192),
        2..=40 => rng.gen_range(1..=256),
        _ => rng.gen_range(1..=4096),
    };
    let span = e.length;
    let mut off = if rng.gen_ratio(1, 3) {
        // Close to a 4 KiB boundary: crossing accesses.
        ((rng.gen_range(0..span.max(1)) | 0xFFF) - rng.gen_range(0..64)).min(span.saturating_sub(1))
    } else {
        rng.gen_range(0..span.max(1))
    };
    if off + len as u64 > span && rng.gen_ratio(9, 10) {
        off = span.saturating_sub(len as u64);
    }
    Req {
        op: rng.gen_range(0..4),
        qpn: if rng.gen_ratio(1, 40) {
            QPS + rng.gen_range(0..3)
        } else {
            rng.gen_range(0..QPS)
        },
        pd: if rng.gen_ratio(1, 40) { 3 } else { e.pd },
        key,
        va: e.base_va.wrapping_add(off),
        len,
    }
}

/// A request near an earlier one: same MR and page, another offset, length,
/// op and often another QP. Half the random traffic is drawn this way, so
/// pages are reused while they are resident (TLB hits, hits under misses,
/// writes to read-only resident pages) and walks coalesce.
fn nearby_req(rng: &mut StdRng, r: &Req) -> Req {
    Req {
        op: rng.gen_range(0..4),
        qpn: if rng.gen() {
            r.qpn
        } else {
            rng.gen_range(0..QPS)
        },
        va: (r.va & !0xFFF) | rng.gen_range(0..4096),
        len: rng.gen_range(1..=512),
        ..*r
    }
}

/// The answer kinds `(status, beats)` every random run must see.
const KINDS: [(u8, usize, &str); 6] = [
    (status::OK, 1, "OK in one beat"),
    (status::OK, 2, "OK in two beats"),
    (status::RNR, 1, "RNR"),
    (status::STALL, 1, "STALL"),
    (status::ACCESS_ERR, 1, "ACCESS_ERR"),
    (status::FATAL, 1, "FATAL"),
];

/// A world in which every answer kind of `KINDS` occurs, with one request of
/// each kind, found by drawing random requests against the reference. Every
/// run starts with these requests, so its coverage holds by construction
/// whatever the seed.
fn covering_world(rng: &mut StdRng, idx_bits: u32, cfg: MemConfig) -> (World, Vec<Req>) {
    for _ in 0..100 {
        let w = build_world(rng, idx_bits, cfg.clone());
        let mut found: [Option<Req>; 6] = [None; 6];
        for _ in 0..20_000 {
            let r = random_req(rng, &w);
            let a = translate(&w.mrs, w.idx_bits, QPS, &w.mem, &r);
            let beats = if a.status == status::OK {
                a.beats.len()
            } else {
                1
            };
            if let Some(k) = KINDS
                .iter()
                .position(|&(st, n, _)| (st, n) == (a.status, beats))
            {
                found[k].get_or_insert(r);
            }
            if found.iter().all(Option::is_some) {
                return (w, found.into_iter().flatten().collect());
            }
        }
    }
    panic!("no world with every answer kind in 100 tries: build_world is too narrow");
}

// ---------------------------------------------------------------------------
// Pins: one clock's inputs and outputs, whatever the backend
// ---------------------------------------------------------------------------

/// A fault report: `(mr, vpn, qpn, op, va, msg_len, mr_hi)`.
type Flt = (u8, u64, u32, u8, u64, u32, u64);

/// The `msg_len` the testbench sends with a request: any value will do, as
/// long as the fault report can be checked to carry it.
fn msg_len_of(r: &Req) -> u32 {
    ((r.va >> 4) as u32 & 0xF_FFFF) + r.len as u32
}

#[derive(Clone, Copy, Default)]
struct Inputs {
    rst: bool,
    xreq: Option<(u8, Req)>,
    xrsp_ready: bool,
    /// `m_flt_ready`.
    flt_ready: bool,
    /// `plk_pending`: the answer to the pending lookup of three clocks ago.
    plk_pending: bool,
    mr_wr: Option<(u32, MrEntry)>,
    /// An invalidation offered: `(kind, mr, va_lo, va_hi, off_lo, off_hi)`.
    inv: Option<Inv>,
    axi: SlaveOut,
    /// The request's RC context `(psn, rqpn, msn)` (zero without one).
    rc: (u32, u32, u32),
    /// The responder's overrides for the lookup at c5, and `hold`.
    ov_fatal: bool,
    ov_drop: bool,
    hold: bool,
    /// The responder's timer override for the lookup at c5 (`ov_tmr_valid`,
    /// `ov_tmr_code`).
    ov_tmr: (bool, u8),
    /// `qp_cmd_busy`: a QP command in flight at the responder.
    cmd_busy: bool,
    /// `m_en_ready`: the responder takes an early NAK.
    en_ready: bool,
    /// The invalidation epoch (`epoch`), stamped on every lookup at c0.
    epoch: u8,
}

/// An invalidation: `(kind, mr, va_lo, va_hi, off_lo, off_hi)`.
type Inv = (u8, u32, u64, u64, u64, u64);

/// The responder's lookup at c2: `(qpn, psn, remote)`.
type Qlk = (u32, u32, bool);
/// The decision's answer at c5: `(status, rqpn, msn, susp)`.
type Cm = (u8, u32, u32, bool);
/// An early RNR NAK on `m_en_*`: `(qpn, rqpn, psn, msn, tmr_valid,
/// tmr_code)`.
type En = (u32, u32, u32, u32, bool, u8);

#[derive(Clone, Copy, Default, Debug)]
struct Outputs {
    ready: bool,
    xreq_ready: bool,
    xrsp_valid: bool,
    xrsp: (u8, u8, u64, u64, bool),
    inv_ready: bool,
    ar: Option<Addr>,
    rready: bool,
    multi_hit: bool,
    overflow: bool,
    tlb_refused: bool,
    plk: Option<(u8, u64)>,
    flt_valid: bool,
    flt: Flt,
    qlk: Option<Qlk>,
    cm: Option<Cm>,
    /// `m_xrsp_epoch` and `m_cm_epoch`.
    xrsp_epoch: u8,
    cm_epoch: u8,
    /// `m_cm_qpn`, `m_cm_mr`.
    cm_qpn: u32,
    cm_mr: u8,
    /// `m_cm_nak_sent`.
    cm_nak_sent: bool,
    /// The early NAK offered (`m_en_valid` and its fields).
    en: Option<En>,
}

odp_mmu_workshop::port_map!(SmallPorts for Small {
    clock: clock,
    inputs: [rst, plk_pending, m_flt_ready, ov_fatal, ov_drop, hold, epoch, xreq_pf, xreq_nofault,
        ov_tmr_valid, ov_tmr_code, qp_cmd_busy, m_en_ready],
    outputs: [ready, mon_multi_hit, mon_overflow, mon_tlb_refused, mon_parked, mon_tlb_hit, mon_tlb_miss, mon_walk,
        m_plk_valid, m_plk_mr, m_plk_vpn, m_flt_valid, m_flt_mr, m_flt_vpn, m_flt_qpn, m_flt_op, m_flt_va,
        m_flt_msg_len, m_flt_mr_hi, m_qlk_valid, m_qlk_qpn, m_qlk_psn, m_qlk_remote, m_cm_valid,
        m_cm_status, m_cm_rqpn, m_cm_msn, m_cm_susp, m_cm_epoch, m_cm_qpn, m_cm_mr, m_pf_valid, m_pf_status,
        m_cm_nak_sent, m_en_valid, m_en_qpn, m_en_rqpn, m_en_psn, m_en_msn, m_en_tmr_valid, m_en_tmr_code],
    bundles: [s_xreq, m_xrsp, mr_wr, mr_st, inv, m_axi],
});

/// The translator under test on any backend of the harness's DUT contract:
/// the Verilated Verilog alone (`Verilated`), or the rust-hdl model in
/// lockstep with it (`Locked`, the testbench sees the rust-hdl outputs).
struct Backend {
    d: Box<dyn Dut>,
    axi: AxiPorts,
}

impl Backend {
    /// The Verilated model of `uut`'s generated Verilog as `name`.
    fn verilated<B: Block>(mut uut: B, name: &str) -> Self {
        Self::on(Box::new(Verilated::of_block(&mut uut, name)))
    }

    /// The small translator in lockstep with its Verilog.
    fn lockstep() -> Self {
        Self::on(Box::new(Lockstep::of::<SmallPorts>(
            Small::new(QPS as usize),
            "translator_small",
        )))
    }

    fn on(d: Box<dyn Dut>) -> Self {
        Self {
            d,
            axi: AxiPorts::read("m_axi"),
        }
    }

    /// Applies the inputs, settles, returns the outputs (before the edge).
    /// Payloads are zero while their valid is low.
    fn settle(&mut self, i: &Inputs) -> Outputs {
        let d = &mut *self.d;
        d.set("rst", i.rst as u128);
        let (valid, tag, r) = match i.xreq {
            Some((tag, r)) => (true, tag, r),
            None => (
                false,
                0,
                Req {
                    op: 0,
                    qpn: 0,
                    pd: 0,
                    key: 0,
                    va: 0,
                    len: 0,
                },
            ),
        };
        d.set("s_xreq_valid", valid as u128);
        d.set("s_xreq_tag", tag as u128);
        d.set("s_xreq_op", r.op as u128);
        d.set("s_xreq_qpn", r.qpn as u128);
        d.set("s_xreq_pd", r.pd as u128);
        d.set("s_xreq_key", r.key as u128);
        d.set("s_xreq_va", r.va as u128);
        d.set("s_xreq_len", r.len as u128);
        d.set(
            "s_xreq_msg_len",
            if valid { msg_len_of(&r) as u128 } else { 0 },
        );
        d.set("s_xreq_psn", i.rc.0 as u128);
        d.set("s_xreq_rqpn", i.rc.1 as u128);
        d.set("s_xreq_msn", i.rc.2 as u128);
        d.set("m_xrsp_ready", i.xrsp_ready as u128);
        d.set("m_flt_ready", i.flt_ready as u128);
        d.set("plk_pending", i.plk_pending as u128);
        // The responder's side, as the bench plays it.
        d.set("ov_fatal", i.ov_fatal as u128);
        d.set("ov_drop", i.ov_drop as u128);
        d.set("hold", i.hold as u128);
        d.set("ov_tmr_valid", i.ov_tmr.0 as u128);
        d.set("ov_tmr_code", i.ov_tmr.1 as u128);
        d.set("qp_cmd_busy", i.cmd_busy as u128);
        d.set("m_en_ready", i.en_ready as u128);
        d.set("epoch", i.epoch as u128);
        let (wv, idx, e) = match i.mr_wr {
            Some((idx, e)) => (true, idx, e),
            None => (
                false,
                0,
                MrEntry {
                    tag: 0,
                    pd: 0,
                    base_va: 0,
                    length: 0,
                    access: 0,
                    root: 0,
                    levels_m1: 0,
                    state: 0,
                },
            ),
        };
        d.set("mr_wr_valid", wv as u128);
        d.set("mr_wr_index", idx as u128);
        d.set("mr_wr_tag", e.tag as u128);
        d.set("mr_wr_pd", e.pd as u128);
        d.set("mr_wr_base_va", e.base_va as u128);
        d.set("mr_wr_length", e.length as u128);
        d.set("mr_wr_access", e.access as u128);
        d.set("mr_wr_root", e.root as u128);
        d.set("mr_wr_levels_m1", e.levels_m1 as u128);
        d.set("mr_wr_state", e.state as u128);
        let (kind, mr, va_lo, va_hi, off_lo, off_hi) = i.inv.unwrap_or_default();
        d.set("inv_valid", i.inv.is_some() as u128);
        d.set("inv_kind", kind as u128);
        d.set("inv_mr", mr as u128);
        d.set("inv_va_lo", va_lo as u128);
        d.set("inv_va_hi", va_hi as u128);
        d.set("inv_off_lo", off_lo as u128);
        d.set("inv_off_hi", off_hi as u128);
        self.axi.drive(d, &i.axi);
        d.settle();
        let m = self.axi.master_out(d);
        Outputs {
            ready: d.is("ready"),
            xreq_ready: d.is("s_xreq_ready"),
            xrsp_valid: d.is("m_xrsp_valid"),
            xrsp: (
                d.get("m_xrsp_tag") as u8,
                d.get("m_xrsp_status") as u8,
                d.get("m_xrsp_pa") as u64,
                d.get("m_xrsp_seg_len") as u64,
                d.is("m_xrsp_last"),
            ),
            inv_ready: d.is("inv_ready"),
            ar: m.ar,
            rready: m.rready,
            multi_hit: d.is("mon_multi_hit"),
            overflow: d.is("mon_overflow"),
            tlb_refused: d.is("mon_tlb_refused"),
            plk: d
                .is("m_plk_valid")
                .then(|| (d.get("m_plk_mr") as u8, d.get("m_plk_vpn") as u64)),
            flt_valid: d.is("m_flt_valid"),
            flt: (
                d.get("m_flt_mr") as u8,
                d.get("m_flt_vpn") as u64,
                d.get("m_flt_qpn") as u32,
                d.get("m_flt_op") as u8,
                d.get("m_flt_va") as u64,
                d.get("m_flt_msg_len") as u32,
                d.get("m_flt_mr_hi") as u64,
            ),
            qlk: d.is("m_qlk_valid").then(|| {
                (
                    d.get("m_qlk_qpn") as u32,
                    d.get("m_qlk_psn") as u32,
                    d.is("m_qlk_remote"),
                )
            }),
            cm: d.is("m_cm_valid").then(|| {
                (
                    d.get("m_cm_status") as u8,
                    d.get("m_cm_rqpn") as u32,
                    d.get("m_cm_msn") as u32,
                    d.is("m_cm_susp"),
                )
            }),
            xrsp_epoch: d.get("m_xrsp_epoch") as u8,
            cm_epoch: d.get("m_cm_epoch") as u8,
            cm_qpn: d.get("m_cm_qpn") as u32,
            cm_mr: d.get("m_cm_mr") as u8,
            cm_nak_sent: d.is("m_cm_nak_sent"),
            en: d.is("m_en_valid").then(|| {
                (
                    d.get("m_en_qpn") as u32,
                    d.get("m_en_rqpn") as u32,
                    d.get("m_en_psn") as u32,
                    d.get("m_en_msn") as u32,
                    d.is("m_en_tmr_valid"),
                    d.get("m_en_tmr_code") as u8,
                )
            }),
        }
    }

    /// The rising and falling edges.
    fn tick(&mut self) {
        self.d.tick();
    }
}

// ---------------------------------------------------------------------------
// The testbench
// ---------------------------------------------------------------------------

struct InFlight {
    req: Req,
    answer: Answer,
    beat: usize,
    /// `(psn, rqpn, msn)`.
    rc: (u32, u32, u32),
    /// The responder's overrides for every lookup of the request:
    /// `(ov_fatal, ov_drop)` and `(ov_tmr_valid, ov_tmr_code)`.
    ov: (bool, bool),
    tmr: (bool, u8),
    /// The clock of its last lookup at c5 (the one that parked it, when
    /// its early NAK is offered).
    last_c5: Option<u64>,
    /// Early NAKs offered for it, and the clock its early NAK was taken in.
    en_offers: u32,
    nak: Option<u64>,
    /// Answers on `m_cm_*` so far.
    decided: u32,
    /// The clock the request was accepted in.
    accepted: u64,
    /// The epoch of its decision on `m_cm_epoch`, once decided.
    epoch: Option<u8>,
}

/// Requester, responder and checker around one backend.
struct Bench {
    rng: StdRng,
    w: World,
    mon: AxiMonitor,
    xrsp_mon: StreamMonitor<(u8, u8, u64, u64, bool)>,
    clock: u64,
    phase_init: u32,
    pending: Option<(u8, Req)>,
    /// The RC context of the request on offer.
    pending_rc: (u32, u32, u32),
    next_psn: u32,
    /// In-flight requests by PSN (unique in a run).
    by_psn: HashMap<u32, u8>,
    /// Percentages of accepted requests the responder answers FATAL (its
    /// QP in error) and DROP (remote ops); of clocks with `hold` high.
    pub fatal_pct: u32,
    pub drop_pct: u32,
    pub hold_pct: u32,
    /// Clocks of a `hold` burst still to come.
    hold_left: u32,
    /// Percentage of clocks with `m_en_ready` high; mean clocks between
    /// `qp_cmd_busy` bursts (1 to 3 clocks; 0: never).
    pub en_pct: u32,
    pub busy_every: u32,
    /// Early NAKs the run must see taken, and refused.
    pub en_min: u64,
    /// Clocks of a `qp_cmd_busy` burst still to come.
    busy_left: u32,
    /// The clocks `qp_cmd_busy` was high in, in order.
    busy_clocks: Vec<u64>,
    /// The PSN of the early NAK offered in the last clock.
    en_last: Option<u32>,
    /// Early NAKs taken and offered but refused; answers with
    /// `m_cm_nak_sent`.
    pub naks_taken: u64,
    pub naks_refused: u64,
    pub nak_answers: u64,
    /// The responder's lookups at c5, c4 and c3 (front: c5).
    qlk_q: VecDeque<Option<Qlk>>,
    /// `hold` two clocks ago and one clock ago (front: two).
    hold_q: VecDeque<bool>,
    pub ov_fatal_answers: u64,
    pub ov_drop_answers: u64,
    /// Clocks `hold` kept an offered request out.
    pub held_offers: u64,
    /// Directed requests sent before the random ones.
    prefix: VecDeque<Req>,
    /// The last requests accepted, for `nearby_req`.
    recent: VecDeque<Req>,
    inflight: HashMap<u8, InFlight>,
    per_qp: HashMap<u32, VecDeque<u8>>,
    next_tag: u8,
    req_pct: u32,
    rsp_pct: u32,
    inv_every: u64,
    inv_pending: Option<Inv>,
    /// The epoch the bench drives on `epoch`: it moves on in random clocks,
    /// as the invalidation unit's does.
    epoch: u8,
    /// The epoch driven in each clock so far.
    epochs: Vec<u8>,
    /// `m_flt_ready` percentage.
    flt_pct: u32,
    /// The pending-fault oracle: this percentage of the pages that are not
    /// present answers "pending" (a fixed choice per page and run), so
    /// their requests are answered RNR / STALL without a walk.
    pend_pct: u32,
    pend_salt: u64,
    /// Answers to the pending lookups of the last three clocks, oldest first.
    plk_q: VecDeque<bool>,
    flt_mon: StreamMonitor<Flt>,
    /// Fault reports expected (answered or accepted RNR / STALL of a
    /// missing page) less those seen.
    expect_flt: HashMap<Flt, i64>,
    pub reports: u64,
    pub pend_hits: u64,
    pub issuing: bool,
    pub sent: u64,
    pub answered: u64,
    pub seen: HashMap<(u8, usize), u64>,
}

impl Bench {
    fn new(
        rng: StdRng,
        (w, prefix): (World, Vec<Req>),
        req_pct: u32,
        rsp_pct: u32,
        inv_every: u64,
    ) -> Self {
        Self {
            rng,
            w,
            prefix: prefix.into(),
            recent: VecDeque::new(),
            mon: AxiMonitor::new(),
            xrsp_mon: StreamMonitor::new("m_xrsp"),
            clock: 0,
            phase_init: 0,
            pending: None,
            pending_rc: (0, 0, 0),
            next_psn: 0xff_fff0,
            by_psn: HashMap::new(),
            fatal_pct: 0,
            drop_pct: 0,
            hold_pct: 0,
            hold_left: 0,
            en_pct: 0,
            busy_every: 0,
            en_min: 0,
            busy_left: 0,
            busy_clocks: Vec::new(),
            en_last: None,
            naks_taken: 0,
            naks_refused: 0,
            nak_answers: 0,
            qlk_q: VecDeque::from(vec![None; 3]),
            hold_q: VecDeque::from(vec![false; 2]),
            ov_fatal_answers: 0,
            ov_drop_answers: 0,
            held_offers: 0,
            inflight: HashMap::new(),
            per_qp: HashMap::new(),
            next_tag: 0,
            req_pct,
            rsp_pct,
            inv_every,
            epoch: 0,
            epochs: Vec::new(),
            inv_pending: None,
            flt_pct: 70,
            pend_pct: 0,
            pend_salt: 0,
            plk_q: VecDeque::from(vec![false; 3]),
            flt_mon: StreamMonitor::new("m_flt"),
            expect_flt: HashMap::new(),
            reports: 0,
            pend_hits: 0,
            issuing: true,
            sent: 0,
            answered: 0,
            seen: HashMap::new(),
        }
    }

    /// Whether the oracle calls (MR index, page) pending: a page that is not
    /// present, chosen by a hash of the page and the run's salt.
    fn pending(&self, mr: u8, vpn: u64) -> bool {
        if self.pend_pct == 0 {
            return false;
        }
        let e = &self.w.mrs[mr as usize];
        let h =
            (vpn ^ ((mr as u64) << 52) ^ self.pend_salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
        let off = (vpn << 12).wrapping_sub(e.base_va & !0xFFF);
        h % 100 < self.pend_pct as u64
            && walk(&self.w.mem, e.root, e.levels_m1, off) == Outcome::NotPresent
    }

    /// An invalidation (the memory does not change, so it only costs
    /// refills and re-walks): ALL, a whole MR, or a range of pages around a
    /// recent request, so that it meets walks in flight (and by its 2 MiB or
    /// 1 GiB region, walks of huge leaves) while sparing others.
    fn random_inv(&mut self) -> Inv {
        let n = self.w.mrs.len() as u32;
        match (self.rng.gen_range(0..10), self.recent.is_empty()) {
            (0, _) => (0, 0, 0, 0, 0, 0),
            (1..=2, _) | (_, true) => (1, self.rng.gen_range(0..n), 0, 0, 0, 0),
            _ => {
                let r = self.recent[self.rng.gen_range(0..self.recent.len())];
                let mr = (r.key >> 8) & (n - 1);
                let base = self.w.mrs[mr as usize].base_va & !0xFFF;
                let shift = [12, 12, 12, 21, 30][self.rng.gen_range(0..5)];
                let lo = (r.va >> shift << shift)
                    .wrapping_sub(self.rng.gen_range(0..2u64) << shift)
                    .wrapping_add(self.rng.gen_range(0..4096));
                let hi = lo.wrapping_add(self.rng.gen_range(1..3u64 << shift));
                (2, mr, lo, hi, lo.wrapping_sub(base), hi.wrapping_sub(base))
            }
        }
    }

    fn inputs(&mut self, ready: bool) -> Inputs {
        let mut i = Inputs {
            axi: self.w.mem.outputs(),
            xrsp_ready: self.rng.gen_range(0..100) < self.rsp_pct,
            flt_ready: self.rng.gen_range(0..100) < self.flt_pct,
            plk_pending: self.plk_q.pop_front().unwrap(),
            epoch: self.epoch,
            ..Inputs::default()
        };
        self.epochs.push(self.epoch);
        if self.rng.gen_ratio(1, 32) {
            self.epoch = (self.epoch + 1) % 16;
        }
        if self.clock < 2 {
            i.rst = true;
            return i;
        }
        // The responder's side: the overrides of the lookup at c5 (drawn
        // when its request was accepted), and `hold` in random clocks and
        // now and then in a burst.
        // Between lookups `ov_tmr_*` is noise: only the value at a
        // decision may be kept.
        i.ov_tmr = (self.rng.gen(), self.rng.gen_range(0..32));
        if let Some((_, psn, _)) = self.qlk_q[0] {
            let tag = self.by_psn[&psn];
            (i.ov_fatal, i.ov_drop) = self.inflight[&tag].ov;
            i.ov_tmr = self.inflight[&tag].tmr;
        }
        // The early NAK's taker, and now and then a QP command.
        i.en_ready = self.rng.gen_range(0..100) < self.en_pct;
        if self.busy_every > 0 {
            if self.busy_left == 0 && self.rng.gen_ratio(1, self.busy_every) {
                self.busy_left = self.rng.gen_range(1..=3);
            }
            i.cmd_busy = self.busy_left > 0;
            self.busy_left = self.busy_left.saturating_sub(1);
        }
        if self.hold_pct > 0 {
            if self.hold_left == 0 && self.rng.gen_ratio(1, 400) {
                self.hold_left = self.rng.gen_range(1..=40);
            }
            i.hold = self.hold_left > 0 || self.rng.gen_range(0..100) < self.hold_pct;
            self.hold_left = self.hold_left.saturating_sub(1);
        }
        let n = self.w.mrs.len() as u32;
        if !ready || self.phase_init < n {
            if ready {
                i.mr_wr = Some((self.phase_init, self.w.mrs[self.phase_init as usize]));
                self.phase_init += 1;
            }
            return i;
        }
        if self.inv_pending.is_none()
            && self.inv_every > 0
            && self.rng.gen_range(0..self.inv_every) == 0
        {
            self.inv_pending = Some(self.random_inv());
        }
        i.inv = self.inv_pending;
        if self.pending.is_none()
            && self.issuing
            && self.inflight.len() < 200
            && self.rng.gen_range(0..100) < self.req_pct
        {
            while self.inflight.contains_key(&self.next_tag) {
                self.next_tag = self.next_tag.wrapping_add(1);
            }
            let req = match self.prefix.pop_front() {
                Some(r) => r,
                None if !self.recent.is_empty() && self.rng.gen() => {
                    let k = self.rng.gen_range(0..self.recent.len());
                    nearby_req(&mut self.rng, &self.recent[k])
                }
                None => random_req(&mut self.rng, &self.w),
            };
            self.pending = Some((self.next_tag, req));
            self.pending_rc = (
                self.next_psn,
                self.rng.gen::<u32>() & 0xff_ffff,
                self.rng.gen::<u32>() & 0xff_ffff,
            );
            self.next_psn = (self.next_psn + 1) & 0xff_ffff;
            self.next_tag = self.next_tag.wrapping_add(1);
        }
        i.xreq = self.pending;
        if self.pending.is_some() {
            i.rc = self.pending_rc;
        }
        i
    }

    fn outputs(&mut self, i: &Inputs, o: &Outputs) {
        let c = self.clock;
        assert!(!o.multi_hit, "clock {c}: more than one TLB entry hit");
        assert!(!o.overflow, "clock {c}: output FIFO overflow");
        assert!(
            !o.tlb_refused,
            "clock {c}: a lookup reached the TLB while it was not ready"
        );
        if i.inv.is_some() && o.inv_ready {
            self.inv_pending = None;
        }
        let pend = o.plk.is_some_and(|(mr, vpn)| self.pending(mr, vpn));
        self.plk_q.push_back(pend);
        // The responder's ports: no issue while `hold` is high (the lookup
        // of c0 two clocks ago is at c2 now), the lookup at c2 is a
        // request's, one answer per request at c5.
        assert!(
            !(i.hold && o.xreq_ready),
            "clock {c}: s_xreq_ready while hold is high"
        );
        if i.hold && i.xreq.is_some() {
            self.held_offers += 1;
        }
        let held2 = self.hold_q.pop_front().unwrap();
        self.hold_q.push_back(i.hold);
        assert!(
            !(held2 && o.qlk.is_some()),
            "clock {c}: a lookup at c2 issued while hold was high"
        );
        if let Some((qpn, psn, remote)) = o.qlk {
            let tag = *self
                .by_psn
                .get(&psn)
                .unwrap_or_else(|| panic!("clock {c}: m_qlk_psn {psn:#x} of no request in flight"));
            let f = &self.inflight[&tag];
            assert_eq!(
                (qpn, remote),
                (f.req.qpn, f.req.op & 2 == 0),
                "clock {c}: m_qlk of tag {tag} {:x?}",
                f.req
            );
        }
        let c5 = self.qlk_q.pop_front().unwrap();
        self.qlk_q.push_back(o.qlk);
        if i.rst {
            self.qlk_q = VecDeque::from(vec![None; 3]);
        }
        if i.cmd_busy {
            self.busy_clocks.push(c);
        }
        if let Some((_, psn, _)) = c5 {
            let tag = self.by_psn[&psn];
            self.inflight.get_mut(&tag).unwrap().last_c5 = Some(c);
        }
        self.early_nak(c, i, o);
        if let Some((st, rqpn, msn, susp)) = o.cm {
            let (_, psn, _) =
                c5.unwrap_or_else(|| panic!("clock {c}: m_cm_valid without a lookup at c5"));
            let tag = self.by_psn[&psn];
            let f = self.inflight.get_mut(&tag).unwrap();
            let want_susp = matches!(f.answer.status, status::RNR | status::STALL)
                && f.answer.fault_page.is_none();
            // Every lookup is stamped with the epoch of its c0, a B half
            // with its A half's; a miss is decided by a later lookup (its
            // replay). So the decision's epoch is one driven between the
            // request's acceptance and c0 of the lookup at c5 now.
            let lookups = &self.epochs[f.accepted as usize..=c as usize - 5];
            assert!(
                lookups.contains(&o.cm_epoch),
                "clock {c}: m_cm_epoch {} of tag {tag} was not current in any clock from its acceptance (clock {}) to c0 of its decision ({:?})",
                o.cm_epoch,
                f.accepted,
                lookups
            );
            f.epoch = Some(o.cm_epoch);
            assert_eq!(o.cm_qpn, f.req.qpn, "clock {c}: m_cm_qpn of tag {tag}");
            // The NAK went out early exactly when it was taken on m_en_*.
            if let Some(t) = f.nak {
                assert!(
                    t < c && st == status::RNR && o.cm_nak_sent,
                    "clock {c}: tag {tag}, whose early NAK was taken in clock {t}, answered {st} with m_cm_nak_sent {}",
                    o.cm_nak_sent
                );
                self.nak_answers += 1;
            } else {
                assert!(
                    !o.cm_nak_sent,
                    "clock {c}: m_cm_nak_sent for tag {tag} {:x?}, whose early NAK was not taken",
                    f.req
                );
            }
            if want_susp {
                // The MR waiters record the QP on this MR.
                let index = (f.req.key >> 8) as usize & ((1 << self.w.idx_bits) - 1);
                assert_eq!(o.cm_mr as usize, index, "clock {c}: m_cm_mr of tag {tag}");
            }
            assert_eq!(
                (st, rqpn, msn, susp),
                (f.answer.status, f.rc.1, f.rc.2, want_susp),
                "clock {c}: m_cm of tag {tag} {:x?} (overrides {:?})",
                f.req,
                f.ov
            );
            let by_override = if i.ov_fatal {
                Some(status::FATAL)
            } else if i.ov_drop {
                Some(status::DROP)
            } else {
                None
            };
            assert!(
                by_override.is_none_or(|w| w == st),
                "clock {c}: answer {st} ignores the overrides"
            );
            self.ov_fatal_answers += f.ov.0 as u64;
            self.ov_drop_answers += (f.ov.1 && !f.ov.0) as u64;
            f.decided += 1;
        }
        if i.plk_pending {
            self.pend_hits += 1;
        }
        if let Some(f) = self.flt_mon.observe(c, o.flt_valid, i.flt_ready, o.flt) {
            let n = self.expect_flt.entry(f).or_default();
            assert!(
                *n > 0,
                "clock {c}: fault report {f:x?} that no RNR / STALL answer of a missing page accounts for"
            );
            *n -= 1;
            self.reports += 1;
        }
        if let (Some((tag, req)), true) = (i.xreq, o.xreq_ready) {
            let mut answer = translate(&self.w.mrs, self.w.idx_bits, QPS, &self.w.mem, &req);
            // The responder's overrides (a QP with state: below QPS).
            let has_state = req.qpn < QPS;
            let fatal = has_state && self.rng.gen_range(0..100) < self.fatal_pct;
            let drop = has_state
                && req.op & 2 == 0
                && !fatal
                && self.rng.gen_range(0..100) < self.drop_pct;
            let tmr = (self.rng.gen_ratio(1, 2), self.rng.gen_range(0..32));
            if fatal || drop {
                answer = Answer {
                    status: if fatal { status::FATAL } else { status::DROP },
                    beats: Vec::new(),
                    fault_page: None,
                };
            }
            if let Some(p) = answer.fault_page {
                let index = (req.key >> 8) as usize & ((1 << self.w.idx_bits) - 1);
                *self
                    .expect_flt
                    .entry((
                        index as u8,
                        p >> 12,
                        req.qpn,
                        req.op,
                        req.va,
                        msg_len_of(&req),
                        mr_end(&self.w.mrs[index]),
                    ))
                    .or_default() += 1;
            }
            self.inflight.insert(
                tag,
                InFlight {
                    req,
                    answer,
                    beat: 0,
                    rc: i.rc,
                    ov: (fatal, drop),
                    tmr,
                    last_c5: None,
                    en_offers: 0,
                    nak: None,
                    decided: 0,
                    accepted: c,
                    epoch: None,
                },
            );
            assert!(
                self.by_psn.insert(i.rc.0, tag).is_none(),
                "PSN {:#x} reused in flight",
                i.rc.0
            );
            self.per_qp.entry(req.qpn).or_default().push_back(tag);
            if self.recent.len() == 16 {
                self.recent.pop_front();
            }
            self.recent.push_back(req);
            self.pending = None;
            self.sent += 1;
        }
        if let Some((tag, status, pa, seg_len, last)) =
            self.xrsp_mon.observe(c, o.xrsp_valid, i.xrsp_ready, o.xrsp)
        {
            let f = self
                .inflight
                .get_mut(&tag)
                .unwrap_or_else(|| panic!("clock {c}: response for unknown tag {tag}"));
            let q = self.per_qp.get_mut(&f.req.qpn).unwrap();
            assert_eq!(
                q.front(),
                Some(&tag),
                "clock {c}: QP {} answered out of order: tag {tag} {:x?} before the tag sent ahead of it",
                f.req.qpn,
                f.req
            );
            assert_eq!(
                status, f.answer.status,
                "clock {c}: status of tag {tag} {:x?} (reference answer {:x?})",
                f.req, f.answer.beats
            );
            assert_eq!(
                Some(o.xrsp_epoch),
                f.epoch,
                "clock {c}: m_xrsp_epoch of tag {tag} is not its decision's m_cm_epoch"
            );
            if status == status::OK {
                assert_eq!(
                    (pa, seg_len, last),
                    (
                        f.answer.beats[f.beat].0,
                        f.answer.beats[f.beat].1,
                        f.beat + 1 == f.answer.beats.len()
                    ),
                    "clock {c}: beat {} of tag {tag} {:x?}",
                    f.beat,
                    f.req
                );
            } else {
                assert!(last, "clock {c}: a non-OK answer is one beat");
                assert_eq!(
                    (pa, seg_len),
                    (0, 0),
                    "clock {c}: a non-OK answer (tag {tag}, status {status}) shows no address"
                );
            }
            f.beat += 1;
            if last {
                assert_eq!(
                    f.decided, 1,
                    "clock {c}: tag {tag} answered on m_cm_* {} times",
                    f.decided
                );
                *self.seen.entry((status, f.beat)).or_default() += 1;
                q.pop_front();
                self.by_psn.remove(&f.rc.0);
                self.inflight.remove(&tag);
                self.answered += 1;
            }
        }
        let m = read_master(o);
        self.mon.check(&m, &i.axi);
        self.w.mem.edge(&m);
        self.clock += 1;
    }

    /// The early RNR NAK on `m_en_*` in clock `c`: offered for one clock,
    /// for a remote request in flight and not yet answered, whose reference
    /// answer is RNR, heading its QP, with no QP command since it parked,
    /// with its own fields and timer override; at most once per request.
    fn early_nak(&mut self, c: u64, i: &Inputs, o: &Outputs) {
        let Some((qpn, rqpn, psn, msn, tv, tc)) = o.en else {
            self.en_last = None;
            return;
        };
        assert_ne!(
            self.en_last,
            Some(psn),
            "clock {c}: m_en_valid for PSN {psn:#x} held a second clock"
        );
        self.en_last = Some(psn);
        let tag = *self.by_psn.get(&psn).unwrap_or_else(|| {
            panic!("clock {c}: early NAK for PSN {psn:#x}, no request in flight")
        });
        let f = &self.inflight[&tag];
        assert_eq!(
            (qpn, rqpn, msn),
            (f.req.qpn, f.rc.1, f.rc.2),
            "clock {c}: m_en_qpn / rqpn / msn of tag {tag} {:x?}",
            f.req
        );
        // No PREFETCH in this bench (`xreq_pf` low): a remote op.
        assert!(
            f.req.op & 2 == 0,
            "clock {c}: early NAK of tag {tag}, a local op {:x?}",
            f.req
        );
        assert_eq!(
            (tv, tc),
            f.tmr,
            "clock {c}: m_en_tmr_* of tag {tag} are not its ov_tmr_*"
        );
        assert_eq!(
            f.decided, 0,
            "clock {c}: early NAK of tag {tag} {:x?}, answered on m_cm_* already",
            f.req
        );
        assert_eq!(
            f.en_offers, 0,
            "clock {c}: a second early NAK offered for tag {tag} {:x?}",
            f.req
        );
        // The overrides are fixed per request: the NAK must be the answer.
        assert_eq!(
            f.answer.status,
            status::RNR,
            "clock {c}: early NAK of tag {tag} {:x?}, whose reference answer is {:x?} (overrides {:?})",
            f.req,
            f.answer,
            f.ov
        );
        // It heads its QP's chain: all its QP sent before it is decided.
        for t in self.per_qp[&f.req.qpn].iter().take_while(|&&t| t != tag) {
            assert!(
                self.inflight[t].decided > 0,
                "clock {c}: early NAK of tag {tag} while tag {t} ahead of it on QP {} is undecided",
                f.req.qpn
            );
        }
        // No QP command from the commit of the park (the clock after its
        // lookup at c5) to the walker's completion (two clocks ago).
        let parked = f
            .last_c5
            .unwrap_or_else(|| panic!("clock {c}: early NAK of tag {tag}, never looked up"));
        let next_busy = self.busy_clocks[self.busy_clocks.partition_point(|&b| b <= parked)..]
            .first()
            .copied();
        assert!(
            next_busy.is_none_or(|b| b + 2 >= c),
            "clock {c}: early NAK of tag {tag}, parked at c5 in clock {parked}, after qp_cmd_busy in clock {next_busy:?}"
        );
        let f = self.inflight.get_mut(&tag).unwrap();
        f.en_offers += 1;
        if i.en_ready {
            f.nak = Some(c);
            self.naks_taken += 1;
        } else {
            self.naks_refused += 1;
        }
    }

    fn idle(&self) -> bool {
        self.pending.is_none()
            && self.inflight.is_empty()
            && self.expect_flt.values().all(|&n| n == 0)
    }
}

impl Bench {
    /// What a run must reach: every answer kind once, `min_answers` answers.
    fn bins(&self, min_answers: u64) -> harness::Bins {
        let mut bins: harness::Bins = KINDS
            .iter()
            .map(|&(st, n, name)| (name, self.seen.get(&(st, n)).copied().unwrap_or(0), 1))
            .collect();
        bins.push(("answers", self.answered, min_answers));
        bins.push(("fault reports", self.reports, 1));
        if self.fatal_pct > 0 {
            bins.push(("FATAL by ov_fatal", self.ov_fatal_answers, 10));
        }
        if self.drop_pct > 0 {
            bins.push(("DROP by ov_drop", self.ov_drop_answers, 10));
        }
        if self.hold_pct > 0 {
            bins.push(("offers kept out by hold", self.held_offers, 100));
        }
        if self.pend_pct > 0 {
            bins.push(("pending-page lookups", self.pend_hits, 1));
        }
        if self.en_min > 0 && self.en_pct > 0 {
            bins.push(("early NAKs taken", self.naks_taken, self.en_min));
            bins.push(("answers with m_cm_nak_sent", self.nak_answers, self.en_min));
        }
        if self.en_min > 0 && self.en_pct < 100 {
            bins.push(("early NAKs refused", self.naks_refused, self.en_min));
        }
        bins
    }
}

/// Runs at least `clocks` clocks of traffic and on until `bins` is reached
/// (at most ten times as long), then drains: every request must be
/// answered within `drain` clocks.
/// The translator's AXI4 master as host memory sees it: it only reads.
fn read_master(o: &Outputs) -> MasterOut {
    MasterOut {
        ar: o.ar,
        rready: o.rready,
        aw: None,
        w: None,
        bready: true,
    }
}

fn run(b: &mut Bench, be: &mut Backend, clocks: u64, min_answers: u64, drain: u64) {
    let mut ready = false;
    while !harness::done(b.clock, clocks, clocks * 10, || b.bins(min_answers)) {
        let i = b.inputs(ready);
        let o = be.settle(&i);
        ready = o.ready;
        b.outputs(&i, &o);
        be.tick();
    }
    b.issuing = false;
    let end = b.clock + drain;
    while !b.idle() {
        assert!(
            b.clock < end,
            "deadlock: {} requests unanswered, fault reports missing {:x?}, {drain} clocks after the last one was sent",
            b.inflight.len(),
            b.expect_flt.iter().filter(|(_, &n)| n != 0).collect::<Vec<_>>()
        );
        let i = b.inputs(ready);
        let o = be.settle(&i);
        b.outputs(&i, &o);
        be.tick();
    }
    println!(
        "{} clocks: sent {}, answered {}, fault reports {}, pending lookups answered pending {}, FATAL / DROP by override {} / {}, offers kept out by hold {}, early NAKs taken {} / refused {} (answers with m_cm_nak_sent {}), qp_cmd_busy clocks {}; (status, beats) -> count: {:?}",
        b.clock,
        b.sent,
        b.answered,
        b.reports,
        b.pend_hits,
        b.ov_fatal_answers,
        b.ov_drop_answers,
        b.held_offers,
        b.naks_taken,
        b.naks_refused,
        b.nak_answers,
        b.busy_clocks.len(),
        b.seen
    );
}

#[test]
fn small_translator_matches_reference_on_verilog_random_long() {
    let seed = seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let w = covering_world(&mut rng, 3, MemConfig::random(1, 500, seed ^ 1));
    let mut be = Backend::verilated(Small::new(QPS as usize), "translator_small");
    let mut b = Bench::new(rng, w, 60, 70, 20_000);
    b.pend_pct = 50;
    b.pend_salt = seed;
    (b.fatal_pct, b.drop_pct, b.hold_pct) = (4, 8, 10);
    (b.en_pct, b.busy_every, b.en_min) = (75, 400, 5);
    run(&mut b, &mut be, 1_000_000, 2_000, 200_000);
}

#[test]
fn full_translator_matches_reference_on_verilog_random() {
    let seed = seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let w = covering_world(&mut rng, 8, MemConfig::random(1, 200, seed ^ 1));
    let mut be = Backend::verilated(Full::new(QPS as usize), "translator_full");
    let mut b = Bench::new(rng, w, 80, 80, 0);
    b.pend_pct = 50;
    b.pend_salt = seed;
    (b.fatal_pct, b.drop_pct, b.hold_pct) = (4, 8, 10);
    (b.en_pct, b.busy_every, b.en_min) = (75, 400, 50);
    run(&mut b, &mut be, 200_000, 10_000, 100_000);
}

#[test]
fn small_translator_verilog_matches_rust_hdl_in_random_lockstep() {
    let seed = seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let w = covering_world(&mut rng, 3, MemConfig::random(1, 30, seed ^ 1));
    let mut b = Bench::new(rng, w, 60, 70, 1_500);
    b.pend_pct = 50;
    b.pend_salt = seed;
    (b.fatal_pct, b.drop_pct, b.hold_pct) = (4, 8, 10);
    (b.en_pct, b.busy_every, b.en_min) = (75, 400, 2);
    run(&mut b, &mut Backend::lockstep(), 4_000, 300, 20_000);
}

#[test]
fn translator_verilog_passes_yosys_and_verilator_lint_small_and_full() {
    harness::checks::assert_synthesizable(
        &verilog_of(Small::new(QPS as usize), "translator_small"),
        "translator_small",
    );
    harness::checks::assert_synthesizable(
        &verilog_of(Full::new(QPS as usize), "translator_full"),
        "translator_full",
    );
}

// ---------------------------------------------------------------------------
// Directed: page crossing at every page size, VA 0, top of the VA space
// ---------------------------------------------------------------------------

/// Sends each request alone on the small translator (Verilog) and returns
/// its beats `(status, pa, seg_len, last)`, checking each answer against the
/// reference model too.
fn answers(w: &mut World, reqs: &[Req]) -> Vec<Vec<(u8, u64, u64, bool)>> {
    answers_with(w, reqs, &|_, _| false).0
}

/// A directed run's answers (as [`answers`]), the fault reports in order
/// and the addresses of the page-table reads, with `pending(mr, vpn)`
/// answering the translator's pending lookups.
type Directed = (Vec<Vec<(u8, u64, u64, bool)>>, Vec<Flt>, Vec<u64>);

fn answers_with(w: &mut World, reqs: &[Req], pending: &dyn Fn(u8, u64) -> bool) -> Directed {
    let mut be = Backend::verilated(Small::new(QPS as usize), "translator_small");
    let mut plk_q: VecDeque<bool> = VecDeque::from(vec![false; 3]);
    let mut reports = Vec::new();
    let mut reads = Vec::new();
    let mut clock = 0u64;
    let mut step = |w: &mut World, i: &mut Inputs| -> Outputs {
        i.axi = w.mem.outputs();
        i.plk_pending = plk_q.pop_front().unwrap();
        i.flt_ready = true;
        let o = be.settle(i);
        plk_q.push_back(o.plk.is_some_and(|(mr, vpn)| pending(mr, vpn)));
        if o.flt_valid {
            reports.push(o.flt);
        }
        if let (Some(a), true) = (o.ar, i.axi.arready) {
            reads.push(a.addr);
        }
        w.mem.edge(&read_master(&o));
        be.tick();
        clock += 1;
        o
    };
    for _ in 0..2 {
        step(
            w,
            &mut Inputs {
                rst: true,
                ..Inputs::default()
            },
        );
    }
    while !step(w, &mut Inputs::default()).ready {}
    for (k, e) in w.mrs.clone().iter().enumerate() {
        step(
            w,
            &mut Inputs {
                mr_wr: Some((k as u32, *e)),
                ..Inputs::default()
            },
        );
    }
    let mut out = Vec::new();
    for r in reqs {
        let expect = translate(&w.mrs, w.idx_bits, QPS, &w.mem, r);
        let mut sent = false;
        let mut beats = Vec::new();
        for _ in 0..20_000 {
            let mut i = Inputs {
                xreq: (!sent).then_some((7, *r)),
                xrsp_ready: true,
                flt_ready: true,
                ..Inputs::default()
            };
            let o = step(w, &mut i);
            sent |= o.xreq_ready;
            if o.xrsp_valid {
                let (tag, status, pa, len, last) = o.xrsp;
                assert_eq!(tag, 7);
                beats.push((status, pa, len, last));
                if last {
                    break;
                }
            }
        }
        let got = Answer {
            status: beats.last().expect("no answer").0,
            beats: if beats[0].0 == status::OK {
                beats.iter().map(|b| (b.1, b.2)).collect()
            } else {
                Vec::new()
            },
            // Reports are checked by the random benches.
            fault_page: expect.fault_page,
        };
        assert_eq!(got, expect, "{r:x?}");
        out.push(beats);
    }
    for _ in 0..20 {
        step(w, &mut Inputs::default());
    }
    (out, reports, reads)
}

/// A mapping: `(off, size, frame, writable)`.
type Map = (u64, PageSize, u64, bool);

fn world_with(mrs: Vec<(MrEntry, Vec<Map>)>) -> World {
    let mut mem = HostMemory::new(MemConfig::random(1, 40, 7));
    let mut tables = PageTableBuilder::new(0x1000, 0x10_0000);
    let mut entries = Vec::new();
    for (mut e, maps) in mrs {
        let t = tables.new_mr(e.levels_m1 + 1);
        for (off, size, frame, w) in maps {
            tables.map(&mut mem, t, off, size, frame, w);
        }
        e.root = t.root;
        entries.push(e);
    }
    while entries.len() < 8 {
        entries.push(MrEntry {
            state: mr_state::INVALID,
            ..entries[0]
        });
    }
    World {
        mrs: entries,
        idx_bits: 3,
        mem,
    }
}

/// Physical address `offset` bytes into frame `frame`.
fn pa(frame: u64, offset: u64) -> u64 {
    (frame << 12) + offset
}

fn mr(base_va: u64, length: u64, levels: u8) -> MrEntry {
    MrEntry {
        tag: 0x33,
        pd: 1,
        base_va,
        length,
        access: 7,
        root: 0,
        levels_m1: levels - 1,
        state: mr_state::VALID,
    }
}

fn local_read(mr: u32, va: u64, len: u16) -> Req {
    Req {
        op: op::LOCAL_READ,
        qpn: 1,
        pd: 1,
        key: (mr << 8) | 0x33,
        va,
        len,
    }
}

#[test]
fn translation_splits_at_page_boundaries_of_every_size_and_not_inside_huge_pages() {
    use PageSize::*;
    let b0 = 0x10_0000_0000u64 + 0x345; // MR base not 4 KiB aligned: pages align in off space
    let b1 = 0x40_0000_0000u64;
    let mut w = world_with(vec![
        (
            mr(b0, 0x60_0000, 2),
            vec![
                (0x1F_F000, Size4K, 0x1_0000, true),
                (0x20_0000, Size2M, 0x2_0000, true),
                (0x40_0000, Size2M, 0x2_0200, true),
            ],
        ),
        (
            mr(b1, 0x8000_0000, 3),
            vec![
                (0, Size1G, 0x40_0000, true),
                (1 << 30, Size1G, 0x80_0000, true),
            ],
        ),
    ]);
    let base4k = b0 & !0xFFF;
    let reqs = [
        // 4 KiB page into a 2 MiB page.
        local_read(0, base4k + 0x1F_FF00, 512),
        // 2 MiB page into the next 2 MiB page.
        local_read(0, base4k + 0x3F_FF80, 256),
        // Inside one 2 MiB page across a 4 KiB boundary: one beat.
        local_read(0, base4k + 0x20_0F00, 4096),
        // 1 GiB page into the next 1 GiB page.
        local_read(1, b1 + 0x3FFF_FFC0, 128),
    ];
    let a = answers(&mut w, &reqs);
    assert_eq!(
        a[0],
        vec![
            (status::OK, pa(0x1_0000, 0xF00), 256, false),
            (status::OK, pa(0x2_0000, 0), 256, true)
        ]
    );
    assert_eq!(
        a[1],
        vec![
            (status::OK, pa(0x2_0000, 0x1F_FF80), 128, false),
            (status::OK, pa(0x2_0200, 0), 128, true)
        ]
    );
    assert_eq!(a[2], vec![(status::OK, pa(0x2_0000, 0xF00), 4096, true)]);
    assert_eq!(
        a[3],
        vec![
            (status::OK, pa(0x40_0000, 0x3FFF_FFC0), 64, false),
            (status::OK, pa(0x80_0000, 0), 64, true)
        ]
    );
}

/// A request that ends exactly at a 4 KiB page end does not cross: one
/// beat, and no B half looks up the next page. (A B half whose A page
/// covers the access changes no answer, so the lookups themselves are
/// checked, on the pending-lookup port that every lookup drives.) Checked
/// for a request parked on a miss and replayed (its crossing bit kept
/// beside its payload) and for a hit straight from the request port, with
/// one byte more as the control.
#[test]
fn a_request_ending_exactly_at_a_page_end_is_one_beat_on_replay_and_on_a_hit() {
    use PageSize::*;
    let base = 0x20_0000u64;
    // Pages 0 and 2 mapped; 1 and 3 missing.
    let mut w = world_with(vec![(
        mr(base, 0x4000, 1),
        vec![(0, Size4K, 0x700, true), (0x2000, Size4K, 0x702, false)],
    )]);
    let reqs = [
        // Cold: walked, parked, replayed.
        local_read(0, base + 0xF00, 256),
        // A hit from the port.
        local_read(0, base + 0xF00, 256),
        // A whole page, a hit.
        local_read(0, base, 4096),
        // Cold page 2, half a page to its end: replayed.
        local_read(0, base + 0x2800, 0x800),
        // One byte more: crosses into the missing page 3.
        local_read(0, base + 0x2800, 0x801),
        // A whole page 2, a hit.
        local_read(0, base + 0x2000, 4096),
    ];
    let looked = std::cell::RefCell::new(Vec::new());
    let (a, reports, _) = answers_with(&mut w, &reqs, &|_, vpn| {
        looked.borrow_mut().push(vpn);
        false
    });
    let looked = looked.into_inner();
    let vpn0 = base >> 12;
    assert!(
        !looked.contains(&(vpn0 + 1)),
        "a B half looked up page 1: {looked:x?}"
    );
    assert!(
        looked.contains(&(vpn0 + 3)),
        "the crossing request's B half did not look up page 3: {looked:x?}"
    );
    assert_eq!(a[0], vec![(status::OK, pa(0x700, 0xF00), 256, true)]);
    assert_eq!(a[1], vec![(status::OK, pa(0x700, 0xF00), 256, true)]);
    assert_eq!(a[2], vec![(status::OK, pa(0x700, 0), 4096, true)]);
    assert_eq!(a[3], vec![(status::OK, pa(0x702, 0x800), 0x800, true)]);
    assert_eq!(a[4].last().unwrap().0, status::STALL, "{:x?}", a[4]);
    assert_eq!(a[5], vec![(status::OK, pa(0x702, 0), 4096, true)]);
    assert_eq!(
        reports.iter().map(|f| f.1).collect::<Vec<_>>(),
        vec![vpn0 + 3],
        "only the crossing request reports, and it names page 3"
    );
}

#[test]
fn a_pending_page_is_answered_at_once_without_a_walk_and_every_fault_is_reported() {
    use PageSize::*;
    let base = 0x10_0000u64;
    // Pages 0 and 3 mapped; 1 and 2 missing, 1 pending in the fault queue.
    let mut w = world_with(vec![(
        mr(base, 0x4000, 1),
        vec![(0, Size4K, 0x500, true), (0x3000, Size4K, 0x503, true)],
    )]);
    let root = w.mrs[0].root << 12;
    let vpn1 = (base >> 12) + 1;
    let remote_write = Req {
        op: op::REMOTE_WRITE,
        ..local_read(0, base + 0x1100, 64)
    };
    let reqs = [
        local_read(0, base + 0x1008, 16),
        remote_write,
        // Crosses from page 0 into the pending page 1: the report names B.
        local_read(0, base + 0xFF0, 32),
        // Page 2 is missing but not pending: walked, then reported.
        local_read(0, base + 0x2000, 8),
        // Page 3: a hit after its walk, no report.
        local_read(0, base + 0x3000, 8),
    ];
    let (a, reports, reads) = answers_with(&mut w, &reqs, &|mr, vpn| mr == 0 && vpn == vpn1);
    let st: Vec<u8> = a.iter().map(|b| b[0].0).collect();
    assert_eq!(
        st,
        [
            status::STALL,
            status::RNR,
            status::STALL,
            status::STALL,
            status::OK
        ]
    );
    let end = base + 0x4000;
    let flt = |r: &Req, vpn: u64| (0u8, vpn, r.qpn, r.op, r.va, msg_len_of(r), end);
    assert_eq!(
        reports,
        vec![
            flt(&reqs[0], vpn1),
            flt(&reqs[1], vpn1),
            flt(&reqs[2], vpn1),
            flt(&reqs[3], vpn1 + 1),
        ],
        "one report per RNR / STALL of a missing page, in answer order"
    );
    assert!(
        !reads.contains(&(root + 8)),
        "the pending page's PTE was read: {reads:x?}"
    );
    for pte in [root, root + 16, root + 24] {
        assert!(reads.contains(&pte), "PTE {pte:#x} not read: {reads:x?}");
    }
}

#[test]
fn translation_works_for_an_mr_at_va_zero_and_at_the_top_of_the_va_space() {
    use PageSize::*;
    let top = 0u64.wrapping_sub(0x2000);
    let mut w = world_with(vec![
        (
            mr(0, 0x2000, 1),
            vec![(0, Size4K, 0x111, true), (0x1000, Size4K, 0x222, true)],
        ),
        (
            mr(top, 0x2000, 1),
            vec![(0, Size4K, 0x333, true), (0x1000, Size4K, 0x444, false)],
        ),
    ]);
    let reqs = [
        local_read(0, 0, 16),
        local_read(0, 0xFF0, 32),
        local_read(1, u64::MAX - 15, 16),
        local_read(1, top + 0xFF0, 32),
        // One byte past the top of the space is out of bounds.
        local_read(1, u64::MAX - 15, 17),
        // A remote write to the read-only last page: RNR (page fault).
        Req {
            op: op::REMOTE_WRITE,
            ..local_read(1, u64::MAX - 15, 16)
        },
        // A local write to it: STALL.
        Req {
            op: op::LOCAL_WRITE,
            ..local_read(1, u64::MAX - 15, 16)
        },
    ];
    let a = answers(&mut w, &reqs);
    assert_eq!(a[0], vec![(status::OK, pa(0x111, 0), 16, true)]);
    assert_eq!(
        a[1],
        vec![
            (status::OK, pa(0x111, 0xFF0), 16, false),
            (status::OK, pa(0x222, 0), 16, true)
        ]
    );
    assert_eq!(a[2], vec![(status::OK, pa(0x444, 0xFF0), 16, true)]);
    assert_eq!(
        a[3],
        vec![
            (status::OK, pa(0x333, 0xFF0), 16, false),
            (status::OK, pa(0x444, 0), 16, true)
        ]
    );
    assert_eq!(a[4][0].0, status::ACCESS_ERR);
    assert_eq!(a[5][0].0, status::RNR);
    assert_eq!(a[6][0].0, status::STALL);
}

// ---------------------------------------------------------------------------
// Directed: the early RNR NAK
// ---------------------------------------------------------------------------

/// The RC context `(psn, rqpn, msn)` of the request sent alone.
const EN_RC: (u32, u32, u32) = (0x12_3456, 0xAB_CDEF, 0x65_4321);
/// The responder's timer override for the request's lookups at c5, and
/// what it drives in every other clock.
const EN_TMR: (bool, u8) = (true, 0x15);
const EN_TMR_IDLE: (bool, u8) = (false, 0x0A);

/// What one request sent alone to an idle translator shows.
#[derive(Debug, Default)]
struct Alone {
    /// Clocks of the AXI R handshakes.
    r_beats: Vec<u64>,
    /// Clocks of its lookups at c2 (`m_qlk_valid`).
    qlk: Vec<u64>,
    /// Clocks with `m_en_valid` high, and the NAK offered.
    en: Vec<(u64, En)>,
    /// Answers on `m_cm_*`: `(clock, status, m_cm_nak_sent)`.
    cm: Vec<(u64, u8, bool)>,
    /// The status of its answer on `m_xrsp_*`.
    status: Option<u8>,
    reports: Vec<Flt>,
}

/// A fresh small translator on one of the backends.
type MakeBackend = fn() -> Backend;

/// Sends `r` (tag 5, RC context `EN_RC`) alone on `be` once the MR table of
/// `w` is written, with `m_en_ready` at `en_ready` in every clock,
/// `qp_cmd_busy` high in the clocks `busy` (counted from the first clock of
/// the run), and `EN_TMR` on `ov_tmr_*` at c5 of each of its lookups.
fn alone(mut be: Backend, w: &mut World, r: Req, en_ready: bool, busy: &[u64]) -> Alone {
    let mut a = Alone::default();
    let n = w.mrs.len();
    let (mut ready, mut mr_next, mut sent, mut end) = (false, 0, false, None);
    for clock in 0..5_000u64 {
        let mut i = Inputs {
            rst: clock < 2,
            axi: w.mem.outputs(),
            xrsp_ready: true,
            flt_ready: true,
            en_ready,
            cmd_busy: busy.contains(&clock),
            // The lookup at c2 three clocks ago is at c5 now.
            ov_tmr: if a.qlk.contains(&clock.wrapping_sub(3)) {
                EN_TMR
            } else {
                EN_TMR_IDLE
            },
            ..Inputs::default()
        };
        if clock >= 2 && ready {
            if mr_next < n {
                i.mr_wr = Some((mr_next as u32, w.mrs[mr_next]));
                mr_next += 1;
            } else if !sent {
                i.xreq = Some((5, r));
                i.rc = EN_RC;
            }
        }
        let o = be.settle(&i);
        ready = o.ready;
        sent |= i.xreq.is_some() && o.xreq_ready;
        if i.axi.r.is_some() && o.rready {
            a.r_beats.push(clock);
        }
        if o.qlk.is_some() {
            a.qlk.push(clock);
        }
        if let Some(e) = o.en {
            a.en.push((clock, e));
        }
        if let Some((st, ..)) = o.cm {
            a.cm.push((clock, st, o.cm_nak_sent));
        }
        if o.flt_valid {
            a.reports.push(o.flt);
        }
        if o.xrsp_valid {
            assert_eq!(a.status, None, "a second answer");
            let (tag, st, _, _, last) = o.xrsp;
            assert_eq!(tag, 5);
            if st != status::OK {
                assert!(last, "a non-OK answer is one beat");
            }
            if last {
                a.status = Some(st);
                end = Some(clock);
            }
        }
        w.mem.edge(&read_master(&o));
        be.tick();
        if end.is_some_and(|e| clock >= e + 30) {
            return a;
        }
    }
    panic!("{r:x?} not answered: {a:?}");
}

/// On an idle translator, a remote op parked for a walk that finds its page
/// missing (or read-only for its write) has its RNR NAK offered on `m_en_*`
/// 3 clocks after the R beat of the PTE that ends the walk, with its own
/// QPN, remote QPN, PSN, MSN and the timer override of its lookup at c5
/// (not the value driven in other clocks). Taken, its answer is RNR with
/// `m_cm_nak_sent`; refused, or for a local op, or after a `qp_cmd_busy`
/// since it parked, its answer comes the usual way without it. Run on the
/// Verilog and on the rust-hdl model in lockstep with it.
#[test]
fn an_early_rnr_nak_leaves_three_clocks_after_the_pte_beat_for_remote_ops_only() {
    use PageSize::*;
    let base = 0x10_0000u64;
    // One 1-level MR (a walk is one PTE read): page 0 mapped, page 1
    // missing, page 2 read-only.
    let world = || {
        world_with(vec![(
            mr(base, 0x3000, 1),
            vec![(0, Size4K, 0x500, true), (0x2000, Size4K, 0x502, false)],
        )])
    };
    let req = |op: u8, off: u64| Req {
        op,
        ..local_read(0, base + off, 64)
    };
    let end = base + 0x3000;
    let report = |r: &Req| (0u8, r.va >> 12, r.qpn, r.op, r.va, msg_len_of(r), end);
    let nak = (1, EN_RC.1, EN_RC.0, EN_RC.2, EN_TMR.0, EN_TMR.1);
    let verilog: MakeBackend = || Backend::verilated(Small::new(QPS as usize), "translator_small");
    for (name, backend) in [("verilog", verilog), ("lockstep", Backend::lockstep)] {
        // Remote ops to a missing page (a write and a read) and a remote
        // write to a read-only page, NAK taken.
        for r in [
            req(op::REMOTE_WRITE, 0x1100),
            req(op::REMOTE_READ, 0x1100),
            req(op::REMOTE_WRITE, 0x2100),
        ] {
            let a = alone(backend(), &mut world(), r, true, &[]);
            let ctx = format!("{name}: {r:x?}: {a:?}");
            assert_eq!(a.r_beats.len(), 1, "{ctx}");
            // Clock r: the R beat of the PTE; the walker loads its
            // completion register on its edge. r + 1: `done_valid`, taken
            // at once (`done_ready`: nothing else in flight), the slot that
            // started the walk matched into `ec_vec`. r + 2: the completion
            // is applied from `dr_*` (the slot turns Forced RNR), the offer
            // and its fields (read from `nf` at the slot) are registered.
            // r + 3: `m_en_valid`, taken (`m_en_ready`) on its edge.
            let r_beat = a.r_beats[0];
            assert_eq!(a.en, vec![(r_beat + 3, nak)], "{ctx}");
            assert_eq!(a.cm.len(), 1, "{ctx}");
            let (cm_clock, st, nak_sent) = a.cm[0];
            assert!(cm_clock > r_beat + 3, "{ctx}");
            assert_eq!((st, nak_sent), (status::RNR, true), "{ctx}");
            assert_eq!(a.status, Some(status::RNR), "{ctx}");
            assert_eq!(a.reports, vec![report(&r)], "{ctx}");
        }
        // A local write to the missing page: no early NAK, STALL.
        let r = req(op::LOCAL_WRITE, 0x1100);
        let a = alone(backend(), &mut world(), r, true, &[]);
        let ctx = format!("{name}: {r:x?}: {a:?}");
        assert_eq!(a.r_beats.len(), 1, "{ctx}");
        assert_eq!(a.en, vec![], "{ctx}");
        assert_eq!(
            a.cm.iter().map(|c| (c.1, c.2)).collect::<Vec<_>>(),
            vec![(status::STALL, false)],
            "{ctx}"
        );
        assert_eq!(a.status, Some(status::STALL), "{ctx}");
        assert_eq!(a.reports, vec![report(&r)], "{ctx}");
        // The remote write with `m_en_ready` low: offered in the same
        // clock, not taken, so answered RNR without `m_cm_nak_sent`.
        let r = req(op::REMOTE_WRITE, 0x1100);
        let a = alone(backend(), &mut world(), r, false, &[]);
        let ctx = format!("{name}: m_en_ready low: {a:?}");
        assert_eq!(a.r_beats.len(), 1, "{ctx}");
        assert_eq!(a.en, vec![(a.r_beats[0] + 3, nak)], "{ctx}");
        assert_eq!(
            a.cm.iter().map(|c| (c.1, c.2)).collect::<Vec<_>>(),
            vec![(status::RNR, false)],
            "{ctx}"
        );
        assert_eq!(a.status, Some(status::RNR), "{ctx}");
        assert_eq!(a.reports, vec![report(&r)], "{ctx}");
        // A QP command in the clock its park commits (the clock after its
        // lookup at c5), or in the clock of the walker's completion: no
        // early NAK, RNR the usual way. The run without it gives those
        // clocks (the same run up to then).
        let free = alone(backend(), &mut world(), r, true, &[]);
        for busy in [free.qlk[0] + 4, free.r_beats[0] + 1] {
            let a = alone(backend(), &mut world(), r, true, &[busy]);
            let ctx = format!("{name}: qp_cmd_busy in clock {busy}: {a:?}");
            assert_eq!(a.r_beats, free.r_beats, "{ctx}");
            assert_eq!(a.en, vec![], "{ctx}");
            assert_eq!(
                a.cm.iter().map(|c| (c.1, c.2)).collect::<Vec<_>>(),
                vec![(status::RNR, false)],
                "{ctx}"
            );
            assert_eq!(a.status, Some(status::RNR), "{ctx}");
            assert_eq!(a.reports, vec![report(&r)], "{ctx}");
        }
    }
}

// ---------------------------------------------------------------------------
// Directed: the output's room under a stalled consumer
// ---------------------------------------------------------------------------

/// With `m_xrsp_ready` low, the translator takes a request only while every
/// answer in flight will find room in the output: 8 responses, the output
/// FIFO's words and the registered c6 response together. Exactly 8 requests
/// are taken, nothing overflows, and the 8 answers leave in order once the
/// consumer is ready; then requests are taken again.
/// The small Verilated translator, reset and ready with `w`'s MRs written;
/// returns its clock step (fault reports always taken, no output
/// overflow allowed).
fn small_with_mrs(w: &mut World) -> impl FnMut(&mut World, &mut Inputs) -> Outputs {
    let mut be = Backend::verilated(Small::new(QPS as usize), "translator_small");
    let mut step = move |w: &mut World, i: &mut Inputs| -> Outputs {
        i.axi = w.mem.outputs();
        i.flt_ready = true;
        let o = be.settle(i);
        assert!(!o.overflow, "output FIFO overflow");
        w.mem.edge(&read_master(&o));
        be.tick();
        o
    };
    for _ in 0..2 {
        step(
            w,
            &mut Inputs {
                rst: true,
                ..Inputs::default()
            },
        );
    }
    while !step(w, &mut Inputs::default()).ready {}
    for (k, e) in w.mrs.clone().iter().enumerate() {
        step(
            w,
            &mut Inputs {
                mr_wr: Some((k as u32, *e)),
                ..Inputs::default()
            },
        );
    }
    step
}

/// Clocks `clocks` clocks with the output ready and nothing offered, and
/// returns each response beat as `(tag, status, last)`.
fn drain_output(
    step: &mut impl FnMut(&mut World, &mut Inputs) -> Outputs,
    w: &mut World,
    clocks: usize,
) -> Vec<(u8, u8, bool)> {
    let mut beats = Vec::new();
    for _ in 0..clocks {
        let o = step(
            w,
            &mut Inputs {
                xrsp_ready: true,
                ..Inputs::default()
            },
        );
        if o.xrsp_valid {
            let (tag, st, _, _, last) = o.xrsp;
            beats.push((tag, st, last));
        }
    }
    beats
}

/// Two replays wait in the replay queue while the output is full (of
/// answers to a third QP), then leave with no replay pushed behind them:
/// both are answered. ("Not
/// empty" after the first pop depends on the queue's "two or more",
/// which must hold while the queue neither pushes nor pops.)
#[test]
fn two_replays_held_by_a_stalled_output_are_both_answered_when_it_drains() {
    use PageSize::*;
    let base = 0x1000_0000u64;
    let mut w = world_with(vec![(
        mr(base, 0x10_0000, 1),
        vec![(0, Size4K, 0x600, true), (0x1000, Size4K, 0x601, true)],
    )]);
    // Walks slower than the output fills: both replays queue behind it.
    w.mem.cfg = MemConfig::fixed(60);
    let mut step = small_with_mrs(&mut w);
    // Two misses of two QPs (no order between them), then requests with a
    // bad key until the stalled output takes no more: the two walks
    // complete and both replays wait in the queue.
    let a = local_read(0, base + 0x100, 64);
    let mut b = local_read(0, base + 0x1100, 64);
    b.qpn = 2;
    // Of a third QP, so that they do not wait behind the parked ones.
    let mut bad = local_read(0, base, 64);
    bad.key ^= 1;
    bad.qpn = 3;
    let mut sent = 0u8;
    for _ in 0..400 {
        let r = match sent {
            0 => a,
            1 => b,
            _ => bad,
        };
        let o = step(
            &mut w,
            &mut Inputs {
                xreq: Some((sent, r)),
                ..Inputs::default()
            },
        );
        sent += o.xreq_ready as u8;
    }
    assert_eq!(sent, 10, "requests taken while the output is stalled");
    let mut answers = Vec::new();
    for (tag, st, last) in drain_output(&mut step, &mut w, 200) {
        assert!(last, "one beat per request");
        answers.push((tag, st));
    }
    answers.sort();
    let want: Vec<(u8, u8)> = [(0, status::OK), (1, status::OK)]
        .into_iter()
        .chain((2..10).map(|t| (t, status::ACCESS_ERR)))
        .collect();
    assert_eq!(answers, want, "every request answered once");
}

#[test]
fn a_stalled_output_takes_exactly_eight_requests_and_loses_none() {
    let mut w = world_with(vec![(mr(0x1000_0000, 0x10_0000, 1), vec![])]);
    let mut step = small_with_mrs(&mut w);
    // A key whose tag does not match: ACCESS_ERR at c5, no walk, no park.
    let mut bad = local_read(0, 0x1000_0000, 64);
    bad.key ^= 1;
    let mut taken = 0u8;
    for _ in 0..200 {
        let o = step(
            &mut w,
            &mut Inputs {
                xreq: Some((taken, bad)),
                ..Inputs::default()
            },
        );
        taken += o.xreq_ready as u8;
    }
    assert_eq!(taken, 8, "requests taken while the output is stalled");
    let mut tags = Vec::new();
    for (tag, st, last) in drain_output(&mut step, &mut w, 50) {
        assert_eq!((st, last), (status::ACCESS_ERR, true));
        tags.push(tag);
    }
    assert_eq!(tags, (0..8).collect::<Vec<u8>>());
    let o = step(
        &mut w,
        &mut Inputs {
            xreq: Some((8, bad)),
            xrsp_ready: true,
            ..Inputs::default()
        },
    );
    assert!(
        o.xreq_ready,
        "a request is taken once the output has drained"
    );
}

// ---------------------------------------------------------------------------
// Directed: the registered reset
// ---------------------------------------------------------------------------

/// Clocks from a `rst` clock to the first clock `ready` is high again on
/// [`Small`]: the translator acts on `rst` one clock later (1), the MR
/// table then clears its 2^3 entries (the TLB's 4 sets take less), and
/// `ready` is its register (1).
const SMALL_RESET_TO_READY: u64 = 1 + 8 + 1;

/// The translator registers `rst`: a reset in clock r is acted on in clock
/// r+1, which refuses requests; from r+2 on nothing that was in flight
/// comes out (answers in the output FIFO, a walk on the bus, a fault
/// report held by its consumer), `ready` is low until the MR table and the
/// TLB are cleared, as many clocks after the reset as after power-up, and
/// then the MR written before answers ACCESS_ERR and, written again, walks
/// its page again (the TLB forgot it).
#[test]
fn a_reset_is_acted_on_one_clock_later_and_drops_everything_in_flight() {
    use PageSize::*;
    let base = 0x20_0000u64;
    // Page 0 mapped, page 1 missing.
    let mut w = world_with(vec![(mr(base, 0x2000, 1), vec![(0, Size4K, 0x700, true)])]);
    let mut be = Backend::verilated(Small::new(QPS as usize), "translator_small");
    let reads = std::cell::Cell::new(0u64);
    let clock = std::cell::Cell::new(0u64);
    let mut step = |w: &mut World, i: Inputs| -> Outputs {
        let mut i = i;
        i.axi = w.mem.outputs();
        let o = be.settle(&i);
        assert!(!o.overflow, "clock {}: output FIFO overflow", clock.get());
        if let (Some(_), true) = (o.ar, i.axi.arready) {
            reads.set(reads.get() + 1);
        }
        w.mem.edge(&read_master(&o));
        be.tick();
        clock.set(clock.get() + 1);
        o
    };
    let idle = Inputs::default();
    let with_rst = Inputs {
        rst: true,
        ..Inputs::default()
    };
    // Power-up: rst in clocks 0 and 1.
    step(&mut w, with_rst);
    step(&mut w, with_rst);
    let mut up = 2;
    while !step(&mut w, idle).ready {
        up += 1;
        assert!(up < 100, "not ready after power-up");
    }
    assert_eq!(
        up - 1,
        SMALL_RESET_TO_READY,
        "power-up: clocks from the last rst to ready"
    );
    let write_mrs = |w: &mut World, step: &mut dyn FnMut(&mut World, Inputs) -> Outputs| {
        for (k, e) in w.mrs.clone().iter().enumerate() {
            step(
                w,
                Inputs {
                    mr_wr: Some((k as u32, *e)),
                    ..Inputs::default()
                },
            );
        }
    };
    write_mrs(&mut w, &mut step);
    // One request at a time, answered before the next: `(status, reads)`.
    let one = |w: &mut World, step: &mut dyn FnMut(&mut World, Inputs) -> Outputs, tag: u8| {
        let r = local_read(0, base + 0x100, 64);
        let mut sent = false;
        for _ in 0..200 {
            let o = step(
                w,
                Inputs {
                    xreq: (!sent).then_some((tag, r)),
                    xrsp_ready: true,
                    flt_ready: true,
                    ..Inputs::default()
                },
            );
            sent |= o.xreq_ready;
            if o.xrsp_valid {
                let (t, st, _, _, last) = o.xrsp;
                assert_eq!((t, last), (tag, true), "the answer to tag {tag}");
                return st;
            }
        }
        panic!("tag {tag}: no answer in 200 clocks");
    };
    let before = reads.get();
    assert_eq!(one(&mut w, &mut step, 1), status::OK);
    assert!(reads.get() > before, "the cold page was not walked");
    let before = reads.get();
    assert_eq!(one(&mut w, &mut step, 2), status::OK);
    assert_eq!(reads.get(), before, "a TLB hit read the page table");

    // In flight at the reset: answers held by a stalled consumer, a walk
    // of the missing page, a fault report not taken.
    let mut taken = 0;
    for k in 0..40 {
        let va = if taken == 3 { base + 0x1000 } else { base };
        let o = step(
            &mut w,
            Inputs {
                xreq: (taken < 4).then_some((10 + taken, local_read(0, va, 64))),
                ..Inputs::default()
            },
        );
        taken += (taken < 4 && o.xreq_ready) as u8;
        if k == 8 {
            assert!(o.xrsp_valid, "no answer waiting for the stalled consumer");
        }
    }
    assert_eq!(taken, 4, "requests taken before the reset");
    // Clock r: rst, with a request offered (if taken, it is dropped too).
    let r = clock.get();
    let offer = |tag: u8| Inputs {
        xreq: Some((tag, local_read(0, base, 64))),
        ..Inputs::default()
    };
    step(
        &mut w,
        Inputs {
            rst: true,
            ..offer(20)
        },
    );
    // Clock r+1, the translator's reset clock: requests refused.
    let o = step(&mut w, offer(21));
    assert!(!o.xreq_ready, "a request was taken in the clock after rst");
    // From r+2: nothing from before, ready low until the tables are clear.
    let mut rise = None;
    for _ in 0..100 {
        let c = clock.get();
        let o = step(
            &mut w,
            Inputs {
                xrsp_ready: true,
                flt_ready: true,
                ..offer(22)
            },
        );
        let ctx = format!("clock r+{}: {o:?}", c - r);
        assert!(!o.xrsp_valid, "{ctx}: an answer from before the reset");
        assert!(!o.flt_valid, "{ctx}: a fault report from before the reset");
        assert!(
            o.cm.is_none() && o.en.is_none(),
            "{ctx}: a decision after the reset"
        );
        if o.ready {
            rise = Some(c - r);
            // Taken in the clock ready rises, if the translator was free.
            taken = o.xreq_ready as u8;
            break;
        }
        assert!(!o.xreq_ready, "{ctx}: a request taken before ready");
    }
    assert_eq!(rise, Some(SMALL_RESET_TO_READY), "clocks from rst to ready");
    // The MR table forgot the MR, the TLB its page.
    if taken == 1 {
        let mut answer = None;
        for _ in 0..50 {
            let o = step(
                &mut w,
                Inputs {
                    xrsp_ready: true,
                    ..Inputs::default()
                },
            );
            if o.xrsp_valid {
                answer = Some((o.xrsp.0, o.xrsp.1));
                break;
            }
        }
        assert_eq!(
            answer,
            Some((22, status::ACCESS_ERR)),
            "the request taken at ready"
        );
    }
    assert_eq!(one(&mut w, &mut step, 30), status::ACCESS_ERR);
    write_mrs(&mut w, &mut step);
    let before = reads.get();
    assert_eq!(one(&mut w, &mut step, 31), status::OK);
    assert!(
        reads.get() > before,
        "the page was not walked again after the reset"
    );
    // A reset of the idle, ready translator: clock r+1 refuses a request
    // it would otherwise take (a request taken there would be lost).
    let o = step(&mut w, idle);
    assert!(o.ready && o.xreq_ready, "not idle and ready: {o:?}");
    step(&mut w, with_rst);
    let o = step(&mut w, offer(40));
    assert!(
        !o.xreq_ready,
        "a request was taken in the idle translator's reset clock"
    );
}

// ---------------------------------------------------------------------------
// Directed: a request of a QP meeting the free of its QP's parked request
// ---------------------------------------------------------------------------

/// What [`x_then_y`] saw: `x`'s lookup clocks at c2, the clock `y` was
/// taken in, the answers `(clock, tag, status)`.
type XThenY = (Vec<u64>, Option<u64>, Vec<(u64, u8, u8)>);

/// Runs a small translator from power-up: MRs written, request `x` (tag 1)
/// offered from the first ready clock until taken, request `y` (tag 2)
/// offered in clock `y_at` only (if given). Returns the clocks of `x`'s
/// lookups at c2 (`m_qlk`), the clock `y` was taken in, and the answers as
/// `(clock, tag, status)` of their last beats.
fn x_then_y(w: &mut World, x: Req, y: Req, y_at: Option<u64>) -> XThenY {
    let mut be = Backend::verilated(Small::new(QPS as usize), "translator_small");
    let n = w.mrs.len();
    let (mut ready, mut mr_next, mut x_sent) = (false, 0, false);
    let (mut qlk, mut y_taken, mut answers) = (Vec::new(), None, Vec::new());
    for clock in 0..3_000u64 {
        let mut i = Inputs {
            rst: clock < 2,
            axi: w.mem.outputs(),
            xrsp_ready: true,
            flt_ready: true,
            ..Inputs::default()
        };
        if clock >= 2 && ready {
            if mr_next < n {
                i.mr_wr = Some((mr_next as u32, w.mrs[mr_next]));
                mr_next += 1;
            } else if !x_sent {
                i.xreq = Some((1, x));
            } else if y_at == Some(clock) {
                i.xreq = Some((2, y));
            }
        }
        let o = be.settle(&i);
        ready = o.ready;
        if let (Some((tag, _)), true) = (i.xreq, o.xreq_ready) {
            if tag == 1 {
                x_sent = true;
            } else {
                y_taken = Some(clock);
            }
        }
        if o.qlk.is_some() && answers.is_empty() {
            qlk.push(clock);
        }
        if o.xrsp_valid && o.xrsp.4 {
            answers.push((clock, o.xrsp.0, o.xrsp.1));
        }
        w.mem.edge(&read_master(&o));
        be.tick();
        if answers.len() == 1 + y_taken.is_some() as usize && clock > y_at.unwrap_or(0) + 40 {
            break;
        }
    }
    (qlk, y_taken, answers)
}

/// Request x of QP 1 misses, parks for its walk and is answered when it
/// replays, which frees its slot at the replay's commit (c6). Request y
/// of the same QP, taken 1 to 6 clocks after the replay's issue, reaches
/// c3 or c4 in the clock of that free: the freed slot must not count as a
/// parked request of y's QP ahead of it (`c6_free_a` at c3, `c6_free_b` at
/// c4), or y would wait behind a slot that no longer exists. In every
/// alignment y hits the TLB and is answered OK, after x.
#[test]
fn a_request_meeting_the_free_of_its_qps_parked_request_is_not_ordered_behind_it() {
    use PageSize::*;
    let base = 0x10_0000u64;
    let world = || world_with(vec![(mr(base, 0x2000, 1), vec![(0, Size4K, 0x500, true)])]);
    let x = local_read(0, base + 0x100, 64);
    let y = local_read(0, base + 0x200, 64);
    // x alone: its lookups at c2 are its first pass and its replay.
    let (qlk, _, answers) = x_then_y(&mut world(), x, y, None);
    assert_eq!(qlk.len(), 2, "x's lookups at c2: {qlk:?}");
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert_eq!((answers[0].1, answers[0].2), (1, status::OK));
    // The replay's issue (c0) is two clocks before its lookup at c2.
    let t = qlk[1] - 2;
    let mut offsets = Vec::new();
    for k in 1..=6u64 {
        let (_, taken, answers) = x_then_y(&mut world(), x, y, Some(t + k));
        let ctx = format!("y offered at replay + {k}: taken {taken:?}, answers {answers:?}");
        let Some(at) = taken else {
            continue;
        };
        offsets.push(at - t);
        assert_eq!(
            answers.iter().map(|a| (a.1, a.2)).collect::<Vec<_>>(),
            vec![(1, status::OK), (2, status::OK)],
            "{ctx}"
        );
    }
    // y was taken at c3 and at c4 of the free (3 and 2 clocks after the
    // replay's issue): both alignments ran.
    assert!(
        offsets.contains(&2) && offsets.contains(&3),
        "y taken at replay + {offsets:?} only"
    );
}
