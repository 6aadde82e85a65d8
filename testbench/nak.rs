//! The RNR NAK generator (`NakGen`) against its reference model.
//!
//! A scoreboard runs the plain-Rust reference (`odp_mmu_workshop::models::nak_ref`) on
//! every beat and command the block takes and compares, in order, every
//! answer beat and every NAK that leaves it; stream monitors check the
//! valid/ready rules on both outputs every clock, and `ready` is checked
//! every clock against the sweep length. Directed tests name each rule;
//! the random runs drive hot QPs, retransmissions, multi-beat answers,
//! commands, resets and random backpressure on every stream, on the
//! Verilated Verilog (long) and on the rust-hdl model in lockstep with its
//! Verilog (short).

use odp_mmu_workshop::harness;

use std::collections::VecDeque;

use harness::dut::Dut;
use harness::lockstep::Lockstep;
use harness::monitor::StreamMonitor;
use harness::seed;
use harness::verilated::Verilated;
use odp_mmu::fault::nak::{NakGen, LATENCY_CLOCKS};
use odp_mmu::spec::status::byte::{ACCESS_ERR, DROP, FATAL, OK, RNR, STALL};
use odp_mmu::spec::{aeth, op, qp_cmd, rnr_timer, status};
use odp_mmu_workshop::models::nak_ref::Nak;
use odp_mmu_workshop::models::nak_ref::{NakRef, OutBeat, RspBeat};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

/// 16 QPs; the default core has 1024 (`NakGen<10>`).
type Small = NakGen<4>;
type Full = NakGen<10>;

fn verilog_of<B: Block>(mut uut: B, name: &str) -> String {
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, name)
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cmd {
    kind: u8,
    qpn: u32,
    timer: u8,
}

/// One clock's inputs.
#[derive(Clone, Copy, Debug, Default)]
struct Ins {
    rst: bool,
    pkey: u16,
    rnr_timer: u8,
    rsp: Option<RspBeat>,
    cmd: Option<Cmd>,
    m_rsp_ready: bool,
    m_nak_ready: bool,
}

/// One clock's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Outs {
    ready: bool,
    s_rsp_ready: bool,
    s_qpcmd_ready: bool,
    rsp: Option<OutBeat>,
    nak: Option<Nak>,
    refused: bool,
    nak_rnr: bool,
    nak_err: bool,
    drop: bool,
}

odp_mmu_workshop::port_map!(SmallPorts for Small {
    clock: clock,
    inputs: [rst, pkey, rnr_timer, s_rsp_valid, s_rsp_tag, s_rsp_status, s_rsp_pa, s_rsp_seg_len, s_rsp_last, s_rsp_epoch, s_rsp_op, s_rsp_qpn, s_rsp_rqpn, s_rsp_psn, s_rsp_msn, m_rsp_ready, s_qpcmd_valid, s_qpcmd_kind, s_qpcmd_qpn, s_qpcmd_timer],
    outputs: [ready, s_rsp_ready, m_rsp_valid, m_rsp_tag, m_rsp_status, m_rsp_pa, m_rsp_seg_len, m_rsp_last, m_rsp_epoch, m_rsp_op, m_rsp_qpn, s_qpcmd_ready, qpcmd_refused, nak_rnr, nak_err, drop],
    bundles: [m_nak],
});

/// A NAK generator under test, and the width of its QP table.
struct Uut {
    d: Box<dyn Dut>,
    qp_bits: u32,
}

impl Uut {
    /// The Verilated Verilog of the 16-QP table.
    fn small() -> Self {
        Self::verilated(Small::new(), "nak_small", 4)
    }
    /// The Verilated Verilog of the 1024-QP table.
    fn full() -> Self {
        Self::verilated(Full::new(), "nak_full", 10)
    }
    fn verilated<B: Block>(mut uut: B, name: &str, qp_bits: u32) -> Self {
        let d = Box::new(Verilated::of_block(&mut uut, name));
        Self { d, qp_bits }
    }
    /// The rust-hdl model of the 16-QP table in lockstep with its Verilog.
    fn lockstep() -> Self {
        let d = Box::new(Lockstep::of::<SmallPorts>(Small::new(), "nak_small"));
        Self { d, qp_bits: 4 }
    }
}

/// Drives one clock's inputs.
fn drive(d: &mut dyn Dut, i: &Ins) {
    let b = i.rsp.unwrap_or_default();
    let c = i.cmd.unwrap_or_default();
    for (n, v) in [
        ("rst", i.rst as u128),
        ("pkey", i.pkey as u128),
        ("rnr_timer", i.rnr_timer as u128),
        ("s_rsp_valid", i.rsp.is_some() as u128),
        ("s_rsp_tag", b.tag as u128),
        ("s_rsp_status", b.status as u128),
        ("s_rsp_pa", b.pa as u128),
        ("s_rsp_seg_len", b.seg_len as u128),
        ("s_rsp_last", b.last as u128),
        ("s_rsp_epoch", b.epoch as u128),
        ("s_rsp_op", b.op as u128),
        ("s_rsp_qpn", b.qpn as u128),
        ("s_rsp_rqpn", b.rqpn as u128),
        ("s_rsp_psn", b.psn as u128),
        ("s_rsp_msn", b.msn as u128),
        ("m_rsp_ready", i.m_rsp_ready as u128),
        ("m_nak_ready", i.m_nak_ready as u128),
        ("s_qpcmd_valid", i.cmd.is_some() as u128),
        ("s_qpcmd_kind", c.kind as u128),
        ("s_qpcmd_qpn", c.qpn as u128),
        ("s_qpcmd_timer", c.timer as u128),
    ] {
        d.set(n, v);
    }
}

/// Reads one clock's settled outputs.
fn read(d: &mut dyn Dut) -> Outs {
    Outs {
        ready: d.is("ready"),
        s_rsp_ready: d.is("s_rsp_ready"),
        s_qpcmd_ready: d.is("s_qpcmd_ready"),
        rsp: d.is("m_rsp_valid").then(|| OutBeat {
            tag: d.get("m_rsp_tag") as u8,
            status: d.get("m_rsp_status") as u8,
            pa: d.get("m_rsp_pa") as u64,
            seg_len: d.get("m_rsp_seg_len") as u16,
            last: d.is("m_rsp_last"),
            epoch: d.get("m_rsp_epoch") as u8,
            op: d.get("m_rsp_op") as u8,
            qpn: d.get("m_rsp_qpn") as u32,
        }),
        nak: d.is("m_nak_valid").then(|| Nak {
            qpn: d.get("m_nak_qpn") as u32,
            hdr: d.get("m_nak_hdr"),
        }),
        refused: d.is("qpcmd_refused"),
        nak_rnr: d.is("nak_rnr"),
        nak_err: d.is("nak_err"),
        drop: d.is("drop"),
    }
}

/// Pulse and event counts, hardware side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    rnr: u64,
    err: u64,
    drop: u64,
    refused: u64,
}

/// The scoreboard around a DUT: reference, expected queues, monitors.
struct Bench {
    dut: Uut,
    r: NakRef,
    exp_rsp: VecDeque<OutBeat>,
    exp_nak: VecDeque<Nak>,
    mon_rsp: StreamMonitor<Option<OutBeat>>,
    mon_nak: StreamMonitor<Option<Nak>>,
    clock: u64,
    sweep_left: u64,
    hw: Counts,
    got_rsp: Vec<OutBeat>,
    got_nak: Vec<Nak>,
    /// Clocks a beat was taken in, and its qpn.
    taken: Vec<(u64, u32)>,
    /// Clocks an answer / a NAK was valid for the first time.
    rsp_valid_at: Vec<u64>,
    nak_valid_at: Vec<u64>,
    prev_rsp_valid: bool,
    prev_nak_valid: bool,
    // coverage
    retransmits: u64,
    overrides: u64,
    back_to_back: u64,
    nak_stalls: u64,
    input_stalls: u64,
    resets: u64,
    out_of_range: u64,
    wraps: u64,
    last_take: Option<(u64, u32)>,
}

impl Bench {
    fn new(dut: Uut) -> Self {
        let qp_bits = dut.qp_bits;
        Self {
            dut,
            r: NakRef::new(qp_bits),
            exp_rsp: VecDeque::new(),
            exp_nak: VecDeque::new(),
            mon_rsp: StreamMonitor::new("m_rsp"),
            mon_nak: StreamMonitor::new("m_nak"),
            clock: 0,
            sweep_left: 1 << qp_bits,
            hw: Counts::default(),
            got_rsp: Vec::new(),
            got_nak: Vec::new(),
            taken: Vec::new(),
            rsp_valid_at: Vec::new(),
            nak_valid_at: Vec::new(),
            prev_rsp_valid: false,
            prev_nak_valid: false,
            retransmits: 0,
            overrides: 0,
            back_to_back: 0,
            nak_stalls: 0,
            input_stalls: 0,
            resets: 0,
            out_of_range: 0,
            wraps: 0,
            last_take: None,
        }
    }

    fn ref_counts(&self) -> Counts {
        Counts {
            rnr: self.r.rnr_naks,
            err: self.r.err_naks,
            drop: self.r.drops,
            refused: self.r.refused,
        }
    }

    /// One clock; returns the outputs before the edge.
    fn step(&mut self, i: &Ins) -> Outs {
        let c = self.clock;
        drive(&mut *self.dut.d, i);
        self.dut.d.settle();
        let o = read(&mut *self.dut.d);
        assert_eq!(
            o.ready,
            self.sweep_left == 0,
            "clock {c}: ready (sweep clocks left {})",
            self.sweep_left
        );
        assert!(
            !o.s_rsp_ready || o.ready,
            "clock {c}: beat taken before ready"
        );
        assert!(
            !o.s_qpcmd_ready || o.ready,
            "clock {c}: command taken before ready"
        );
        if i.rst {
            assert!(
                !o.s_rsp_ready && !o.s_qpcmd_ready,
                "clock {c}: taken during rst"
            );
            self.r.reset();
            self.exp_rsp.clear();
            self.exp_nak.clear();
            self.mon_rsp = StreamMonitor::new("m_rsp");
            self.mon_nak = StreamMonitor::new("m_nak");
            self.hw = self.ref_counts();
            self.resets += 1;
            self.last_take = None;
            self.sweep_left = 1 << self.dut.qp_bits;
        } else {
            if o.rsp.is_some() && !self.prev_rsp_valid {
                self.rsp_valid_at.push(c);
            }
            if o.nak.is_some() && !self.prev_nak_valid {
                self.nak_valid_at.push(c);
            }
            if let Some(got) = self
                .mon_rsp
                .observe(c, o.rsp.is_some(), i.m_rsp_ready, o.rsp)
            {
                let got = got.unwrap();
                let want = self.exp_rsp.pop_front();
                assert_eq!(Some(got), want, "clock {c}: m_rsp beat");
                self.got_rsp.push(got);
            }
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
                self.got_nak.push(got);
            }
            self.nak_stalls += (o.nak.is_some() && !i.m_nak_ready) as u64;
            self.input_stalls += (i.rsp.is_some() && o.ready && !o.s_rsp_ready) as u64;
            self.hw.rnr += o.nak_rnr as u64;
            self.hw.err += o.nak_err as u64;
            self.hw.drop += o.drop as u64;
            self.hw.refused += o.refused as u64;
            if let (Some(b), true) = (i.rsp, o.s_rsp_ready) {
                if self.last_take == Some((c.wrapping_sub(1), b.qpn)) {
                    self.back_to_back += 1;
                }
                self.last_take = Some((c, b.qpn));
                self.taken.push((c, b.qpn));
                if (b.qpn as u64) >> self.dut.qp_bits != 0 {
                    self.out_of_range += 1;
                }
                if let Some(q) = self.r.qp(b.qpn) {
                    if q.waiting && (q.psn >= 0xff_fff0 || b.psn >= 0xff_fff0) {
                        self.wraps += 1;
                    }
                }
                let s = self.r.beat(&b, i.pkey, i.rnr_timer);
                self.retransmits += s.retransmit as u64;
                self.overrides += s.override_used as u64;
                self.exp_rsp.extend(s.rsp);
                self.exp_nak.extend(s.nak);
            }
            if let (Some(cm), true) = (i.cmd, o.s_qpcmd_ready) {
                self.r.command(cm.kind, cm.qpn, cm.timer);
            }
            if self.sweep_left > 0 {
                self.sweep_left -= 1;
            }
        }
        self.prev_rsp_valid = o.rsp.is_some() && !i.rst;
        self.prev_nak_valid = o.nak.is_some() && !i.rst;
        self.dut.d.tick();
        self.clock += 1;
        o
    }

    /// Everything taken has come out and every pulse arrived.
    fn drained(&self) -> bool {
        self.exp_rsp.is_empty() && self.exp_nak.is_empty()
    }

    fn assert_counts(&self) {
        assert_eq!(self.hw, self.ref_counts(), "counter pulses");
    }
}

/// A directed stimulus item.
#[derive(Clone, Copy, Debug)]
enum Item {
    B(RspBeat),
    C(Cmd),
}

const PKEY: u16 = 0xffff;
const TIMER: u8 = rnr_timer::RESET_CODE as u8;

/// Runs `items` in order (each offered until taken) with the given output
/// readiness per clock, then drains; returns the bench.
fn run(
    dut: Uut,
    items: &[Item],
    rsp_ready: impl Fn(u64) -> bool,
    nak_ready: impl Fn(u64) -> bool,
) -> Bench {
    let mut b = Bench::new(dut);
    let mut next = 0;
    let mut quiet = 0;
    for _ in 0..100_000 {
        let c = b.clock;
        let mut i = Ins {
            pkey: PKEY,
            rnr_timer: TIMER,
            m_rsp_ready: rsp_ready(c),
            m_nak_ready: nak_ready(c),
            ..Ins::default()
        };
        if b.sweep_left == 0 {
            match items.get(next) {
                Some(Item::B(x)) => i.rsp = Some(*x),
                Some(Item::C(x)) => i.cmd = Some(*x),
                None => {}
            }
        }
        let o = b.step(&i);
        if (i.rsp.is_some() && o.s_rsp_ready) || (i.cmd.is_some() && o.s_qpcmd_ready) {
            next += 1;
        }
        quiet = if next >= items.len() && b.drained() {
            quiet + 1
        } else {
            0
        };
        if quiet > 8 {
            b.assert_counts();
            return b;
        }
    }
    panic!(
        "directed run did not drain (item {next} of {})",
        items.len()
    );
}

fn always(_: u64) -> bool {
    true
}

fn beat(qpn: u32, psn: u32, status: u64) -> RspBeat {
    RspBeat {
        tag: (psn as u8).wrapping_add(qpn as u8),
        status: status as u8,
        pa: 0x1000_0000 + psn as u64 * 0x40,
        seg_len: 64,
        last: true,
        epoch: 3,
        op: op::REMOTE_WRITE as u8,
        qpn,
        rqpn: 0x10_0000 + qpn,
        psn,
        msn: 0x20_0000 + psn,
    }
}

fn multi(qpn: u32, psn: u32, beats: usize) -> Vec<Item> {
    (0..beats)
        .map(|k| {
            let mut b = beat(qpn, psn, status::OK);
            b.pa += 0x1000 * k as u64;
            b.last = k + 1 == beats;
            Item::B(b)
        })
        .collect()
}

fn statuses(b: &Bench) -> Vec<(u32, u8)> {
    b.got_rsp.iter().map(|r| (r.qpn, r.status)).collect()
}

fn syndromes(b: &Bench) -> Vec<(u32, u8)> {
    b.got_nak
        .iter()
        .map(|n| (n.qpn, (n.hdr >> 24) as u8))
        .collect()
}

const RNR12: u8 = aeth::RNR_NAK as u8 | TIMER;

#[test]
fn rnr_nak_drops_later_psns_until_retransmit() {
    let items = [
        Item::B(beat(3, 100, status::RNR)),
        Item::B(beat(3, 101, status::OK)),
        Item::B(beat(4, 7, status::OK)),
        Item::B(beat(3, 102, status::RNR)),
        Item::B(beat(3, 103, status::ACCESS_ERR)),
        Item::B(beat(3, 100, status::OK)),
        Item::B(beat(3, 101, status::OK)),
    ];
    let b = run(Uut::small(), &items, always, always);
    assert_eq!(
        statuses(&b),
        vec![
            (3, RNR),
            (3, DROP),
            (4, OK),
            (3, DROP),
            (3, DROP),
            (3, OK),
            (3, OK)
        ]
    );
    assert_eq!(syndromes(&b), vec![(3, RNR12)], "no NAK for a dropped PSN");
    let d = b.got_rsp[1];
    assert!(
        d.last && d.pa == 0 && d.seg_len == 0,
        "a DROP beat carries no address"
    );
}

#[test]
fn rnr_retransmission_that_faults_again_gets_rnr_and_nak_again() {
    let items = [
        Item::B(beat(5, 9, status::RNR)),
        Item::B(beat(5, 9, status::RNR)),
        Item::B(beat(5, 10, status::OK)),
        Item::B(beat(5, 9, status::OK)),
        Item::B(beat(5, 10, status::OK)),
    ];
    let b = run(Uut::small(), &items, always, always);
    assert_eq!(
        statuses(&b),
        vec![(5, RNR), (5, RNR), (5, DROP), (5, OK), (5, OK)]
    );
    assert_eq!(syndromes(&b), vec![(5, RNR12), (5, RNR12)]);
}

#[test]
fn rnr_psn_compare_is_24_bit_across_the_wrap() {
    let items = [
        Item::B(beat(1, 0xff_ffff, status::RNR)),
        Item::B(beat(1, 0, status::OK)),
        Item::B(beat(1, 0x7f_ffff, status::OK)),
        Item::B(beat(1, 0xff_ffff, status::OK)),
        Item::B(beat(2, 0, status::RNR)),
        Item::B(beat(2, 0xff_ffff, status::OK)),
        Item::B(beat(2, 1, status::OK)),
        Item::B(beat(2, 0, status::OK)),
    ];
    let b = run(Uut::small(), &items, always, always);
    assert_eq!(
        statuses(&b),
        vec![
            (1, RNR),
            (1, DROP),
            (1, DROP),
            (1, OK),
            (2, RNR),
            (2, DROP),
            (2, DROP),
            (2, OK)
        ]
    );
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
fn nak_header_fields_follow_the_ibta_layout() {
    let mut x = beat(6, 0x12_3456, status::ACCESS_ERR);
    x.rqpn = 0xab_cdef;
    x.msn = 0x65_4321;
    let mut y = beat(7, 0xfe_dcba, status::FATAL);
    y.rqpn = 0x00_0001;
    y.msn = 0xff_ffff;
    let mut z = beat(8, 0x00_0000, status::RNR);
    z.rqpn = 0xff_ffff;
    z.msn = 0;
    let mut bench = Bench::new(Uut::small());
    let mut pending = vec![(z, 0x8001u16, 31u8), (y, 0x7fff, 0), (x, 0xffff, 1)];
    while bench.got_nak.len() < 3 {
        let (b, pkey, t) = pending.last().copied().unwrap_or((x, 0, 0));
        let i = Ins {
            pkey,
            rnr_timer: t,
            rsp: (bench.sweep_left == 0 && !pending.is_empty()).then_some(b),
            m_rsp_ready: true,
            m_nak_ready: true,
            ..Ins::default()
        };
        if bench.step(&i).s_rsp_ready && i.rsp.is_some() {
            pending.pop();
        }
        assert!(bench.clock < 200);
    }
    let n = &bench.got_nak;
    assert_eq!(
        (n[0].qpn, n[1].qpn, n[2].qpn),
        (6, 7, 8),
        "m_nak_qpn is the local QP"
    );
    check_header(n[0].hdr, 0xffff, 0xab_cdef, 0x12_3456, 0x62, 0x65_4321);
    check_header(n[1].hdr, 0x7fff, 0x00_0001, 0xfe_dcba, 0x63, 0xff_ffff);
    check_header(n[2].hdr, 0x8001, 0xff_ffff, 0x00_0000, 0x20 | 31, 0);
}

/// One step of a stimulus whose NAKs are framed and decoded: a response
/// beat with the `pkey` and `rnr_timer` it is taken with and the AETH
/// syndrome of the NAK it must cause (`None`: no NAK), or a QP command.
#[derive(Clone, Copy, Debug)]
enum Wire {
    B {
        beat: RspBeat,
        pkey: u16,
        timer: u8,
        nak: Option<u8>,
    },
    C(Cmd),
}

/// What a decoded NAK must carry: `(P_Key, DestQP, PSN, syndrome, MSN)`.
type WireNak = (u16, u32, u32, u8, u32);

/// The stimulus of the wire test and the NAKs it must cause, in order.
///
/// Every RNR timer code, once through `rnr_timer` and once through a QP's
/// override (with a different global code); ACCESS_ERR and FATAL; a QP in
/// error; PSNs, MSNs, DestQPs and P_Keys at and around the 24-bit (16-bit)
/// limits; local QPNs inside and beyond the 16-QP table. An RNR is followed
/// by its retransmission (OK, no NAK), which ends the QP's wait.
fn wire_stimulus() -> (Vec<Wire>, Vec<WireNak>) {
    const PSNS: [u32; 6] = [0xff_ffff, 0, 1, 0x80_0000, 0xff_fffe, 0x7f_ffff];
    const MSNS: [u32; 5] = [0, 0xff_ffff, 1, 0x80_0000, 0x7f_ffff];
    const RQPNS: [u32; 7] = [0xff_ffff, 0, 1, 0x80_0000, 0x12_3456, 0x7f_ffff, 0xab_cdef];
    const PKEYS: [u16; 4] = [0xffff, 0x8001, 0x7fff, 0x8000];
    const BEYOND: [u32; 3] = [16, 0x80_0000, 0xff_ffff];
    let mut steps = Vec::new();
    let mut naks = Vec::new();
    let mut n = 0usize;
    // The n-th NAK-causing response: fields from the tables above.
    let mut respond = |steps: &mut Vec<Wire>, qpn: u32, status: u64, timer: u8, syndrome: u8| {
        let mut b = beat(qpn, PSNS[n % PSNS.len()], status);
        b.rqpn = RQPNS[n % RQPNS.len()];
        b.msn = MSNS[n % MSNS.len()];
        let pkey = PKEYS[n % PKEYS.len()];
        n += 1;
        steps.push(Wire::B {
            beat: b,
            pkey,
            timer,
            nak: Some(syndrome),
        });
        naks.push((pkey, b.rqpn, b.psn, syndrome, b.msn));
        if status == status::RNR {
            b.status = OK;
            steps.push(Wire::B {
                beat: b,
                pkey,
                timer,
                nak: None,
            });
        }
    };
    let cmd = |kind: u64, qpn: u32, timer: u8| {
        Wire::C(Cmd {
            kind: kind as u8,
            qpn,
            timer,
        })
    };
    let rnr = |code: u8| aeth::RNR_NAK as u8 | code;
    for code in 0..32u8 {
        let qpn = if code % 4 == 3 {
            BEYOND[code as usize / 4 % BEYOND.len()]
        } else {
            code as u32 % 16
        };
        respond(&mut steps, qpn, status::RNR, code, rnr(code));
    }
    for code in 0..32u8 {
        let qpn = code as u32 % 16;
        steps.push(cmd(qp_cmd::SET_TIMER, qpn, code));
        respond(&mut steps, qpn, status::RNR, (code + 13) % 32, rnr(code));
        steps.push(cmd(qp_cmd::CLEAR_TIMER, qpn, 0));
    }
    for k in 0..16u32 {
        let qpn = if k % 4 == 3 {
            BEYOND[k as usize % 3]
        } else {
            k
        };
        let (status, syndrome) = if k % 2 == 0 {
            (status::ACCESS_ERR, aeth::REMOTE_ACCESS_ERR)
        } else {
            (status::FATAL, aeth::REMOTE_OP_ERR)
        };
        respond(&mut steps, qpn, status, TIMER, syndrome as u8);
    }
    steps.push(cmd(qp_cmd::SET_ERROR, 9, 0));
    respond(&mut steps, 9, status::OK, TIMER, aeth::REMOTE_OP_ERR as u8);
    let mut retry = match steps.last() {
        Some(Wire::B { beat, .. }) => *beat,
        _ => unreachable!(),
    };
    retry.status = status::RNR as u8;
    retry.psn = 0;
    retry.msn = 0xff_ffff;
    steps.push(Wire::B {
        beat: retry,
        pkey: 0x8001,
        timer: 5,
        nak: Some(aeth::REMOTE_OP_ERR as u8),
    });
    naks.push((0x8001, retry.rqpn, 0, aeth::REMOTE_OP_ERR as u8, 0xff_ffff));
    steps.push(cmd(qp_cmd::RESET, 9, 0));
    (steps, naks)
}

#[test]
fn nak_headers_decode_as_roce_v2_in_scapy() {
    use harness::roce;
    let (steps, want) = wire_stimulus();
    let syndromes_in_stimulus: Vec<u8> = steps
        .iter()
        .filter_map(|s| match s {
            Wire::B { nak, .. } => *nak,
            Wire::C(_) => None,
        })
        .collect();
    assert_eq!(
        syndromes_in_stimulus,
        want.iter().map(|w| w.3).collect::<Vec<_>>()
    );
    let mut b = Bench::new(Uut::small());
    let mut next = 0;
    let mut quiet = 0;
    while quiet <= 8 {
        let mut i = Ins {
            pkey: PKEY,
            rnr_timer: TIMER,
            m_rsp_ready: true,
            m_nak_ready: true,
            ..Ins::default()
        };
        if b.sweep_left == 0 {
            match steps.get(next) {
                Some(Wire::B {
                    beat, pkey, timer, ..
                }) => {
                    i.rsp = Some(*beat);
                    i.pkey = *pkey;
                    i.rnr_timer = *timer;
                }
                Some(Wire::C(c)) => i.cmd = Some(*c),
                None => {}
            }
        }
        let o = b.step(&i);
        if (i.rsp.is_some() && o.s_rsp_ready) || (i.cmd.is_some() && o.s_qpcmd_ready) {
            next += 1;
        }
        quiet = if next >= steps.len() && b.drained() {
            quiet + 1
        } else {
            0
        };
        assert!(b.clock < 10_000, "stimulus not taken (step {next})");
    }
    b.assert_counts();
    assert_eq!(b.got_nak.len(), want.len(), "NAKs out of the Verilog");

    let packets: Vec<Vec<u8>> = b.got_nak.iter().map(|n| roce::frame_nak(n.hdr)).collect();
    let got = roce::dissect_naks(&packets).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got.len(), want.len(), "packets decoded");
    for (k, (d, &(pkey, dest_qp, psn, syndrome, msn))) in got.iter().zip(&want).enumerate() {
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
    // The stimulus reached what it is meant to.
    let codes: std::collections::BTreeSet<u8> = want
        .iter()
        .filter(|w| w.3 & 0xe0 == aeth::RNR_NAK as u8)
        .map(|w| w.3 & aeth::TIMER_MASK as u8)
        .collect();
    assert_eq!(codes.len(), 32, "every RNR timer code");
    for v in [0xff_ffff, 0, 1, 0x80_0000] {
        assert!(want.iter().any(|w| w.2 == v), "PSN {v:#x}");
        assert!(want.iter().any(|w| w.4 == v), "MSN {v:#x}");
    }
    for v in [0xff_ffff, 0] {
        assert!(want.iter().any(|w| w.1 == v), "DestQP {v:#x}");
    }
    for v in [0xffff, 0x8001] {
        assert!(want.iter().any(|w| w.0 == v), "P_Key {v:#x}");
    }
    for s in [aeth::REMOTE_ACCESS_ERR, aeth::REMOTE_OP_ERR] {
        assert!(want.iter().any(|w| w.3 == s as u8), "syndrome {s:#x}");
    }
    assert!(b.overrides >= 32, "timer overrides used: {}", b.overrides);
    println!(
        "{} NAKs framed as RoCE v2 and decoded by scapy ({} RNR timer codes)",
        got.len(),
        codes.len()
    );
}

#[test]
fn nak_back_to_back_responses_of_one_qp_see_each_others_state() {
    // Distances 1, 2 and 3 between beats of one QP, every beat taken in
    // consecutive clocks.
    let items = [
        Item::B(beat(2, 10, status::RNR)),
        Item::B(beat(2, 11, status::OK)),
        Item::B(beat(2, 10, status::OK)),
        Item::B(beat(2, 11, status::RNR)),
        Item::B(beat(9, 1, status::OK)),
        Item::B(beat(2, 12, status::OK)),
        Item::B(beat(9, 2, status::OK)),
        Item::B(beat(10, 2, status::OK)),
        Item::B(beat(2, 11, status::OK)),
        Item::B(beat(2, 12, status::OK)),
    ];
    let b = run(Uut::small(), &items, always, always);
    assert_eq!(
        statuses(&b),
        vec![
            (2, RNR),
            (2, DROP),
            (2, OK),
            (2, RNR),
            (9, OK),
            (2, DROP),
            (9, OK),
            (10, OK),
            (2, OK),
            (2, OK)
        ]
    );
    let clocks: Vec<u64> = b.taken.iter().map(|t| t.0).collect();
    assert!(
        clocks.windows(2).all(|w| w[1] == w[0] + 1),
        "one beat per clock: {clocks:?}"
    );
}

#[test]
fn nak_multi_beat_answer_is_swallowed_after_drop_or_fatal() {
    let mut items = vec![Item::B(beat(4, 50, status::RNR))];
    items.extend(multi(4, 51, 3)); // DROP, 2 beats swallowed
    items.extend(multi(4, 50, 3)); // the retransmission: 3 beats pass
    items.push(Item::C(Cmd {
        kind: qp_cmd::SET_ERROR as u8,
        qpn: 4,
        timer: 0,
    }));
    items.extend(multi(4, 52, 2)); // FATAL + NAK 0x63, 1 beat swallowed
    let mut local = multi(4, 53, 2);
    for it in &mut local {
        if let Item::B(b) = it {
            b.op = op::LOCAL_WRITE as u8;
        }
    }
    items.extend(local); // local: passes whole
    let b = run(Uut::small(), &items, always, always);
    assert_eq!(
        statuses(&b),
        vec![
            (4, RNR),
            (4, DROP),
            (4, OK),
            (4, OK),
            (4, OK),
            (4, FATAL),
            (4, OK),
            (4, OK)
        ]
    );
    let lasts: Vec<bool> = b.got_rsp.iter().map(|r| r.last).collect();
    assert_eq!(
        lasts,
        vec![true, true, false, false, true, true, false, true]
    );
    assert_eq!(syndromes(&b), vec![(4, RNR12), (4, 0x63)]);
    assert_eq!(b.r.swallowed, 3);
    assert_eq!(b.got_rsp[5].pa, 0);
}

#[test]
fn nak_backpressure_holds_responses_and_loses_no_nak() {
    // 16 RNR faults while m_nak is stalled 300 clocks and m_rsp now and then.
    let items: Vec<Item> = (0..40)
        .map(|k| Item::B(beat(k % 16, 1000 + k, status::RNR)))
        .collect();
    let b = run(Uut::small(), &items, |c| c % 3 != 0, |c| c > 300);
    assert_eq!(b.got_nak.len(), 40 - 24, "the first RNR of each QP NAKs");
    assert!(
        b.input_stalls > 250,
        "the input was held: {}",
        b.input_stalls
    );
    assert!(b.nak_stalls > 250);
    let psns: Vec<u32> = b
        .got_nak
        .iter()
        .map(|n| (n.hdr >> 32) as u32 & 0xff_ffff)
        .collect();
    assert_eq!(
        psns,
        (1000..1016).collect::<Vec<_>>(),
        "NAKs in response order"
    );
}

#[test]
fn nak_qp_commands_reset_error_and_timer_override() {
    let cmd = |kind: u64, qpn, timer| {
        Item::C(Cmd {
            kind: kind as u8,
            qpn,
            timer,
        })
    };
    let items = [
        cmd(qp_cmd::SET_TIMER, 2, 3),
        Item::B(beat(2, 1, status::RNR)), // 0x23
        Item::B(beat(3, 1, status::RNR)), // 0x2c: other QPs keep the global code
        cmd(qp_cmd::CLEAR_TIMER, 2, 0),
        Item::B(beat(2, 1, status::RNR)), // 0x2c
        cmd(qp_cmd::RESET, 2, 0),         // ends the wait
        Item::B(beat(2, 7, status::OK)),
        cmd(qp_cmd::SET_ERROR, 2, 0),
        Item::B(beat(2, 8, status::OK)),  // FATAL + 0x63
        Item::B(beat(2, 9, status::RNR)), // FATAL + 0x63 (error wins)
        cmd(qp_cmd::RESET, 2, 0),
        Item::B(beat(2, 10, status::OK)),
        cmd(qp_cmd::SET_TIMER, 3, 31),
        Item::B(beat(3, 1, status::RNR)), // the retransmission faults again: 0x3f
    ];
    let b = run(Uut::small(), &items, always, always);
    assert_eq!(
        statuses(&b),
        vec![
            (2, RNR),
            (3, RNR),
            (2, RNR),
            (2, OK),
            (2, FATAL),
            (2, FATAL),
            (2, OK),
            (3, RNR)
        ]
    );
    assert_eq!(
        syndromes(&b),
        vec![
            (2, 0x23),
            (3, RNR12),
            (2, RNR12),
            (2, 0x63),
            (2, 0x63),
            (3, 0x3f)
        ]
    );
}

#[test]
fn nak_local_ops_pass_unchanged_whatever_the_qp_state() {
    let mut items = vec![
        Item::B(beat(1, 5, status::RNR)),
        Item::C(Cmd {
            kind: qp_cmd::SET_ERROR as u8,
            qpn: 2,
            timer: 0,
        }),
    ];
    for (qpn, st) in [
        (1, status::OK),
        (1, status::STALL),
        (2, status::OK),
        (2, status::ACCESS_ERR),
    ] {
        let mut b = beat(qpn, 77, st);
        b.op = op::LOCAL_READ as u8;
        items.push(Item::B(b));
    }
    let b = run(Uut::small(), &items, always, always);
    assert_eq!(
        statuses(&b),
        vec![(1, RNR), (1, OK), (1, STALL), (2, OK), (2, ACCESS_ERR)]
    );
    assert_eq!(syndromes(&b), vec![(1, RNR12)], "local ops send no NAK");
}

#[test]
fn nak_qpn_beyond_the_table_is_a_clear_qp_and_changes_no_state() {
    // Small table: 16 QPs. QPN 16 and 0x100000 have no state; nothing may
    // fold onto QP 0.
    let items = [
        Item::B(beat(16, 5, status::RNR)), // NAK, global timer, no wait kept
        Item::B(beat(16, 6, status::OK)),  // OK, not DROP
        Item::B(beat(0, 6, status::OK)),   // QP 0 untouched
        Item::C(Cmd {
            kind: qp_cmd::SET_ERROR as u8,
            qpn: 0x10_0000,
            timer: 0,
        }), // refused
        Item::B(beat(0, 7, status::OK)),
        Item::B(beat(0x10_0000, 7, status::ACCESS_ERR)), // NAK 0x62
    ];
    let b = run(Uut::small(), &items, always, always);
    assert_eq!(
        statuses(&b),
        vec![
            (16, RNR),
            (16, OK),
            (0, OK),
            (0, OK),
            (0x10_0000, ACCESS_ERR)
        ]
    );
    assert_eq!(syndromes(&b), vec![(16, RNR12), (0x10_0000, 0x62)]);
    assert_eq!(b.hw.refused, 1, "qpcmd_refused pulses once");
}

#[test]
fn nak_reset_clears_every_qp_and_takes_nothing_until_ready() {
    let mut b = Bench::new(Uut::small());
    let idle = Ins {
        pkey: PKEY,
        rnr_timer: TIMER,
        m_rsp_ready: true,
        m_nak_ready: true,
        ..Ins::default()
    };
    let offer = Ins {
        rsp: Some(beat(3, 1, status::RNR)),
        cmd: Some(Cmd::default()),
        ..idle
    };
    // Power-up sweep: 16 clocks, nothing taken (Bench checks `ready`).
    for _ in 0..16 {
        let o = b.step(&offer);
        assert!(!o.s_rsp_ready && !o.s_qpcmd_ready);
    }
    let o = b.step(&Ins { cmd: None, ..offer });
    assert!(o.ready && o.s_rsp_ready, "ready after 16 clocks");
    for _ in 0..10 {
        b.step(&idle);
    }
    assert!(b.r.qp(3).unwrap().waiting);
    b.step(&Ins { rst: true, ..idle });
    for _ in 0..16 {
        let o = b.step(&Ins {
            rsp: Some(beat(3, 2, status::OK)),
            ..idle
        });
        assert!(!o.s_rsp_ready);
    }
    let o = b.step(&Ins {
        rsp: Some(beat(3, 2, status::OK)),
        ..idle
    });
    assert!(o.s_rsp_ready);
    for _ in 0..10 {
        b.step(&idle);
    }
    assert_eq!(
        statuses(&b),
        vec![(3, RNR), (3, OK)],
        "the reset ended the wait"
    );
}

#[test]
fn nak_answer_and_its_nak_are_valid_latency_clocks_after_the_beat_is_taken() {
    let b = run(
        Uut::small(),
        &[Item::B(beat(1, 1, status::ACCESS_ERR))],
        always,
        always,
    );
    let t = b.taken[0].0;
    assert_eq!(b.rsp_valid_at, vec![t + LATENCY_CLOCKS]);
    assert_eq!(b.nak_valid_at, vec![t + LATENCY_CLOCKS]);
}

#[test]
fn nak_full_size_table_sees_high_qpns_and_no_aliasing() {
    let items = [
        Item::B(beat(1023, 4, status::RNR)),
        Item::B(beat(511, 4, status::OK)),
        Item::B(beat(1023, 5, status::OK)),
        Item::B(beat(1024, 5, status::OK)),
        Item::B(beat(1023, 4, status::OK)),
    ];
    let b = run(Uut::full(), &items, always, always);
    assert_eq!(
        statuses(&b),
        vec![(1023, RNR), (511, OK), (1023, DROP), (1024, OK), (1023, OK)]
    );
}

/// Random traffic: a response generator with hot QPs and retransmissions,
/// commands, resets, phases of backpressure.
fn random_run(dut: Uut, clocks: u64, seed: u64) {
    let qp_bits = dut.qp_bits;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut b = Bench::new(dut);
    let hot: Vec<u32> = (0..5).map(|_| rng.gen_range(0..1u32 << qp_bits)).collect();
    let mut queue: VecDeque<RspBeat> = VecDeque::new();
    let mut cmd: Option<Cmd> = None;
    let (mut pkey, mut timer) = (PKEY, TIMER);
    let (mut rsp_p, mut nak_p) = (1.0f64, 1.0f64);
    let mut cmds = [0u64; 4];
    let mut psn_next = vec![0u32; 1 << qp_bits];
    // About eight resets in the minimum length of the run.
    let reset_odds = (clocks / 8).max(300) as u32;
    while !harness::done(b.clock, clocks, clocks * 20, || {
        vec![
            ("rnr naks", b.r.rnr_naks, 50),
            ("error naks", b.r.err_naks, 20),
            ("drops", b.r.drops, 20),
            ("swallowed beats", b.r.swallowed, 5),
            ("retransmissions ending a wait", b.retransmits, 20),
            ("timer overrides used", b.overrides, 3),
            ("back-to-back beats of one QP", b.back_to_back, 50),
            ("NAK stalled clocks", b.nak_stalls, 100),
            ("input held by full FIFOs", b.input_stalls, 50),
            ("resets", b.resets, 3),
            ("QPNs beyond the table", b.out_of_range, 3),
            ("refused commands", b.r.refused, 1),
            ("PSN compares near the wrap", b.wraps, 3),
            ("QP_RESET", cmds[0], 2),
            ("SET_ERROR", cmds[1], 2),
            ("SET_TIMER", cmds[2], 2),
            ("CLEAR_TIMER", cmds[3], 2),
        ]
    }) {
        let c = b.clock;
        if c.is_multiple_of(128) {
            let mode = |rng: &mut StdRng| match rng.gen_range(0..4) {
                0 => 0.1,
                1 => 0.5,
                _ => 1.0,
            };
            rsp_p = mode(&mut rng);
            nak_p = mode(&mut rng);
            if rng.gen_ratio(1, 8) {
                pkey = rng.gen();
                timer = rng.gen_range(0..32);
            }
        }
        if queue.is_empty() && rng.gen_ratio(3, 4) {
            let qpn = match rng.gen_range(0..100) {
                0..=1 => rng.gen_range(1u32 << qp_bits..1 << 24),
                2..=29 => rng.gen_range(0..1u32 << qp_bits),
                _ => hot[rng.gen_range(0..hot.len())],
            };
            let st = b.r.qp(qpn).copied().unwrap_or_default();
            let idx = (qpn as usize) & ((1 << qp_bits) - 1);
            let psn = match rng.gen_range(0..10) {
                0..=3 if st.waiting => st.psn,
                0..=1 => rng.gen_range(0xff_fff8..=0xff_ffff),
                2 => rng.gen(),
                _ => {
                    psn_next[idx] = (psn_next[idx] + 1) & 0xff_ffff;
                    psn_next[idx]
                }
            } & 0xff_ffff;
            let status = match rng.gen_range(0..100) {
                0..=49 => status::OK,
                50..=74 => status::RNR,
                75..=84 => status::ACCESS_ERR,
                85..=92 => status::FATAL,
                _ => rng.gen_range(0..8),
            } as u8;
            let op = if rng.gen_ratio(4, 5) {
                rng.gen_range(0..2)
            } else {
                rng.gen_range(2..4)
            };
            let beats = if status == OK {
                rng.gen_range(1..=3)
            } else {
                1
            };
            let (rqpn, msn): (u32, u32) =
                (rng.gen::<u32>() & 0xff_ffff, rng.gen::<u32>() & 0xff_ffff);
            let (tag, epoch) = (rng.gen(), rng.gen());
            for k in 0..beats {
                queue.push_back(RspBeat {
                    tag,
                    status,
                    pa: rng.gen(),
                    seg_len: rng.gen_range(1..=4096),
                    last: k + 1 == beats,
                    epoch,
                    op,
                    qpn,
                    rqpn,
                    psn,
                    msn,
                });
            }
        }
        if cmd.is_none() && rng.gen_ratio(1, 60) {
            let qpn = match rng.gen_range(0..10) {
                0 => rng.gen::<u32>() & 0xff_ffff,
                1..=3 => rng.gen_range(0..1u32 << qp_bits),
                _ => hot[rng.gen_range(0..hot.len())],
            };
            cmd = Some(Cmd {
                kind: rng.gen_range(0..4),
                qpn,
                timer: rng.gen_range(0..32),
            });
        }
        let i = Ins {
            rst: c < 1 || rng.gen_ratio(1, reset_odds),
            pkey,
            rnr_timer: timer,
            rsp: queue.front().copied().filter(|_| rng.gen_ratio(7, 8)),
            cmd,
            m_rsp_ready: rng.gen_bool(rsp_p),
            m_nak_ready: rng.gen_bool(nak_p),
        };
        let o = b.step(&i);
        if i.rsp.is_some() && o.s_rsp_ready {
            queue.pop_front();
        }
        if let (Some(cm), true) = (i.cmd, o.s_qpcmd_ready) {
            cmds[cm.kind as usize] += 1;
            cmd = None;
        }
        if i.rst {
            // A response in the middle of its beats is abandoned.
            queue.clear();
        }
    }
    // Drain, then every pulse must have arrived.
    let idle = Ins {
        pkey,
        rnr_timer: timer,
        m_rsp_ready: true,
        m_nak_ready: true,
        ..Ins::default()
    };
    for _ in 0..40 {
        b.step(&idle);
    }
    assert!(b.drained(), "everything taken came out");
    b.assert_counts();
    println!(
        "{} clocks: {} answers, {} NAKs ({} RNR, {} error), {} drops, {} swallowed, {} resets",
        b.clock,
        b.got_rsp.len(),
        b.got_nak.len(),
        b.r.rnr_naks,
        b.r.err_naks,
        b.r.drops,
        b.r.swallowed,
        b.resets
    );
}

#[test]
fn nak_matches_reference_on_verilog_random() {
    let seed = seed();
    random_run(Uut::small(), 100_000, seed);
    random_run(Uut::full(), 100_000, seed);
}

#[test]
fn nak_verilog_matches_rust_hdl_in_random_lockstep() {
    random_run(Uut::lockstep(), 3_000, seed());
}

#[test]
fn nak_is_synthesizable_small_and_full() {
    harness::checks::assert_synthesizable(&verilog_of(Small::new(), "nak_small"), "nak_small");
    harness::checks::assert_synthesizable(&verilog_of(Full::new(), "nak_full"), "nak_full");
}

#[test]
fn nak_refuses_an_out_of_range_qp_bits() {
    assert!(std::panic::catch_unwind(NakGen::<1>::new).is_err());
    assert!(std::panic::catch_unwind(NakGen::<13>::new).is_err());
}
