//! The `odp_mmu` top level: its port contract, synthesizability, lockstep
//! equivalence of its Verilog, and its behaviour with an empty MR table.

use odp_mmu_workshop::harness;

use harness::seed;

use harness::lockstep::Lockstep;
use harness::monitor::StreamMonitor;
use harness::verilated::{Dir, Verilated};
use odp_mmu::control::regmap;
use odp_mmu::spec::mr_state::byte as mr_state;
use odp_mmu::spec::status;
use odp_mmu::spec::PageSize;
use odp_mmu::{DefaultOdpMmu, Params, SmallOdpMmu};
use odp_mmu_workshop::driver::{self, Bus, Driver};
use odp_mmu_workshop::harness::top::{read32, write32, LiteCycle, LiteIn, LiteOut};
use odp_mmu_workshop::models::host_memory::{AxiMonitor, HostMemory, MemConfig};
use odp_mmu_workshop::models::mr_check::MrEntry;
use odp_mmu_workshop::models::page_table::{PageTableBuilder, WordMemory};
use odp_mmu_workshop::models::responder_ref::{Answer, Lookup, ResponderRef};
use odp_mmu_workshop::models::translate_ref::{translate, Req};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, VecDeque};

fn small() -> Params {
    Params::small()
}

/// SPEC section 2, port by port: name, width, direction.
const CONTRACT: &[(&str, usize, Dir)] = &[
    ("clk", 1, Dir::In),
    ("rst", 1, Dir::In),
    ("s_xreq_valid", 1, Dir::In),
    ("s_xreq_ready", 1, Dir::Out),
    ("s_xreq_tag", 8, Dir::In),
    ("s_xreq_op", 2, Dir::In),
    ("s_xreq_qpn", 24, Dir::In),
    ("s_xreq_rqpn", 24, Dir::In),
    ("s_xreq_psn", 24, Dir::In),
    ("s_xreq_msn", 24, Dir::In),
    ("s_xreq_pd", 16, Dir::In),
    ("s_xreq_key", 32, Dir::In),
    ("s_xreq_va", 64, Dir::In),
    ("s_xreq_len", 13, Dir::In),
    ("s_xreq_msg_len", 32, Dir::In),
    ("m_xrsp_valid", 1, Dir::Out),
    ("m_xrsp_ready", 1, Dir::In),
    ("m_xrsp_tag", 8, Dir::Out),
    ("m_xrsp_status", 3, Dir::Out),
    ("m_xrsp_pa", 64, Dir::Out),
    ("m_xrsp_seg_len", 13, Dir::Out),
    ("m_xrsp_last", 1, Dir::Out),
    ("m_xrsp_epoch", 8, Dir::Out),
    ("m_nak_valid", 1, Dir::Out),
    ("m_nak_ready", 1, Dir::In),
    ("m_nak_qpn", 24, Dir::Out),
    ("m_nak_hdr", 128, Dir::Out),
    ("m_wake_valid", 1, Dir::Out),
    ("m_wake_ready", 1, Dir::In),
    ("m_wake_qpn", 24, Dir::Out),
    ("s_done_valid", 1, Dir::In),
    ("s_done_epoch", 8, Dir::In),
    ("m_axi_araddr", 64, Dir::Out),
    ("m_axi_arid", 4, Dir::Out),
    ("m_axi_arlen", 8, Dir::Out),
    ("m_axi_arvalid", 1, Dir::Out),
    ("m_axi_arready", 1, Dir::In),
    ("m_axi_rdata", 64, Dir::In),
    ("m_axi_rid", 4, Dir::In),
    ("m_axi_rresp", 2, Dir::In),
    ("m_axi_rready", 1, Dir::Out),
    ("m_axi_awaddr", 64, Dir::Out),
    ("m_axi_wdata", 64, Dir::Out),
    ("m_axi_wstrb", 8, Dir::Out),
    ("m_axi_bresp", 2, Dir::In),
    ("s_axil_awaddr", 16, Dir::In),
    ("s_axil_wdata", 32, Dir::In),
    ("s_axil_araddr", 16, Dir::In),
    ("s_axil_rdata", 32, Dir::Out),
    ("s_axil_rresp", 2, Dir::Out),
    ("irq", 1, Dir::Out),
];

#[test]
fn top_module_is_odp_mmu_with_the_spec_port_names() {
    harness::big_stack(top_ports_follow_the_contract)
}

fn top_ports_follow_the_contract() {
    let v = odp_mmu::top::generate_verilog(&Params::default()).unwrap();
    let ports = harness::rhdl::ports(&DefaultOdpMmu::new(&Params::default()));
    // The Verilog's module header lists the block's ports, in their order.
    let names: Vec<&str> = ports.iter().map(|p| p.name.as_str()).collect();
    assert!(v.contains(&format!("module odp_mmu({});", names.join(","))));
    for (name, width, dir) in CONTRACT {
        let p = ports
            .iter()
            .find(|p| p.name == *name)
            .unwrap_or_else(|| panic!("odp_mmu has no port {name}"));
        assert_eq!((p.width, p.dir), (*width, *dir), "port {name}");
    }
    assert!(
        ports.iter().all(|p| !p.name.contains('$')),
        "ports must be flat"
    );
    assert!(
        !v.contains("module top"),
        "rust-hdl's `top` must be renamed"
    );
}

#[test]
fn generated_verilog_passes_yosys_and_verilator_lint_default_and_small() {
    harness::big_stack(generated_verilog_passes_yosys_and_verilator_lint_default_and_small_body)
}

fn generated_verilog_passes_yosys_and_verilator_lint_default_and_small_body() {
    for p in [Params::default(), small()] {
        let v = odp_mmu::top::generate_verilog(&p).unwrap();
        harness::checks::assert_synthesizable(&v, "odp_mmu");
    }
}

fn set_clock(u: &mut SmallOdpMmu, high: bool) {
    u.clk.next = high.into();
}

#[test]
fn top_verilog_matches_the_rust_hdl_model_on_random_stimulus_in_lockstep() {
    harness::big_stack(top_verilog_matches_the_rust_hdl_model_on_random_stimulus_in_lockstep_body)
}

fn top_verilog_matches_the_rust_hdl_model_on_random_stimulus_in_lockstep_body() {
    let mut ls = Lockstep::new(SmallOdpMmu::new(&small()), "odp_mmu", set_clock);
    let mut rng = StdRng::seed_from_u64(seed());
    ls.run(
        3_000,
        |clock, u| {
            u.rst.next = clock < 2 || rng.gen_ratio(1, 500);
            u.s_xreq.valid.next = rng.gen();
            u.s_xreq.tag.next = (rng.gen::<u8>() as u64).into();
            u.s_xreq.va.next = rng.gen::<u64>().into();
            u.s_xreq.key.next = (rng.gen::<u32>() as u64).into();
            u.m_xrsp.ready.next = rng.gen();
            // Writes to registers of every kind, the doorbell included, so
            // commands (random op codes and arguments) run too.
            u.s_axil.awvalid.next = rng.gen();
            u.s_axil.awaddr.next = (random_csr(&mut rng) as u64).into();
            u.s_axil.wvalid.next = rng.gen();
            u.s_axil.wdata.next = (rng.gen::<u32>() as u64).into();
            u.s_axil.wstrb.next = (rng.gen::<u8>() as u64 & 0xf).into();
            u.s_axil.bready.next = rng.gen();
            u.s_axil.arvalid.next = rng.gen();
            u.s_axil.rready.next = rng.gen();
            u.s_axil.araddr.next = (random_csr(&mut rng) as u64).into();
        },
        |_, _| {},
    )
    .unwrap_or_else(|m| panic!("{m}"));
}

/// A CSR address: a defined register most of the time, else any address.
fn random_csr(rng: &mut StdRng) -> u16 {
    if rng.gen_ratio(3, 4) {
        odp_mmu::control::regmap::REGS[rng.gen_range(0..odp_mmu::control::regmap::REGS.len())]
            .offset
    } else {
        rng.gen()
    }
}

/// With no valid MR, every request (op 0, REMOTE_WRITE) is answered by one
/// ACCESS_ERR beat and one NAK 0x62, in order, under random backpressure
/// and idle gaps; undefined CSRs read 0.
#[test]
fn empty_core_answers_every_random_request_access_err_in_order() {
    harness::big_stack(empty_core_answers_every_random_request_access_err_in_order_body)
}

fn empty_core_answers_every_random_request_access_err_in_order_body() {
    let mut m = Verilated::of_block(&mut DefaultOdpMmu::new(&Params::default()), "odp_mmu");
    let mut rng = StdRng::seed_from_u64(seed());
    let clk = m.port("clk");
    let mut xreq = StreamMonitor::new("s_xreq");
    let mut xrsp = StreamMonitor::new("m_xrsp");
    let mut axil_r = StreamMonitor::new("s_axil_r");
    let mut nak_mon = StreamMonitor::new("m_nak");
    let mut naks = 0u64;
    let mut expect: VecDeque<u128> = VecDeque::new();
    let (mut tag, mut sent, mut reads) = (0u8, 0u64, 0u64);
    m.set("rst", 1);
    m.tick_idx(clk);
    m.set("rst", 0);
    let (mut valid, mut ar_valid) = (false, false);
    let mut clock = 0u64;
    while !harness::done(clock, 200_000, 2_000_000, || {
        vec![
            ("requests sent", sent, 50_000),
            ("CSR reads", reads, 10_000),
        ]
    }) {
        // A source may raise valid at will but holds it until ready.
        valid |= rng.gen_ratio(3, 4);
        if !ar_valid {
            ar_valid = rng.gen();
            let mut a: u16 = rng.gen();
            while odp_mmu::control::regmap::by_offset(a & !3).is_some() {
                a = rng.gen();
            }
            m.set("s_axil_araddr", a as u128);
        }
        m.set("s_xreq_valid", valid as u128);
        m.set("s_xreq_tag", tag as u128);
        m.set("m_xrsp_ready", rng.gen_ratio(2, 3) as u128);
        m.set("m_nak_ready", rng.gen_ratio(2, 3) as u128);
        m.set("s_axil_arvalid", ar_valid as u128);
        m.set("s_axil_rready", rng.gen::<bool>() as u128);
        m.eval();
        let (rv, rr) = (m.get("s_xreq_valid") == 1, m.get("s_xreq_ready") == 1);
        if xreq.observe(clock, rv, rr, tag).is_some() {
            expect.push_back(tag as u128);
            tag = tag.wrapping_add(1);
            sent += 1;
            valid = false;
        }
        if m.get("s_axil_arready") == 1 {
            ar_valid = false;
        }
        let beat = (
            m.get("m_xrsp_tag"),
            m.get("m_xrsp_status"),
            m.get("m_xrsp_last"),
            m.get("m_xrsp_pa"),
        );
        let (ov, or) = (m.get("m_xrsp_valid") == 1, m.get("m_xrsp_ready") == 1);
        if let Some((t, s, last, pa)) = xrsp.observe(clock, ov, or, beat) {
            assert_eq!(
                Some(t),
                expect.pop_front(),
                "response order at clock {clock}"
            );
            assert_eq!((s, last, pa), (status::ACCESS_ERR as u128, 1, 0));
        }
        let r = (m.get("s_axil_rdata"), m.get("s_axil_rresp"));
        let (arv, arr) = (m.get("s_axil_rvalid") == 1, m.get("s_axil_rready") == 1);
        if axil_r.observe(clock, arv, arr, r).is_some() {
            assert_eq!(r, (0, 0), "undefined CSR read at clock {clock}");
            reads += 1;
        }
        let (nv, nr) = (m.get("m_nak_valid") == 1, m.get("m_nak_ready") == 1);
        if let Some(hdr) = nak_mon.observe(clock, nv, nr, m.get("m_nak_hdr")) {
            let b = hdr.to_be_bytes();
            assert_eq!((b[0], b[12]), (0x11, 0x62), "NAK {naks} at clock {clock}");
            naks += 1;
        }
        assert_eq!(m.get("m_axi_arvalid") + m.get("m_axi_awvalid"), 0);
        m.tick_idx(clk);
        clock += 1;
    }
    // Drain: the request on offer may still be taken; then every one sent
    // must be answered.
    let end = clock + 1_000;
    while !expect.is_empty() || m.get("m_xrsp_valid") == 1 {
        assert!(clock < end, "responses lost: {} unanswered", expect.len());
        m.set("s_xreq_valid", 0);
        m.set("m_xrsp_ready", 1);
        m.set("m_nak_ready", 1);
        m.eval();
        if m.get("m_xrsp_valid") == 1 {
            assert_eq!(Some(m.get("m_xrsp_tag")), expect.pop_front(), "drain order");
            assert_eq!(m.get("m_xrsp_status"), status::ACCESS_ERR as u128);
        }
        if nak_mon
            .observe(clock, m.get("m_nak_valid") == 1, true, m.get("m_nak_hdr"))
            .is_some()
        {
            naks += 1;
        }
        m.tick_idx(clk);
        clock += 1;
    }
    for _ in 0..4 {
        m.eval();
        if nak_mon
            .observe(clock, m.get("m_nak_valid") == 1, true, m.get("m_nak_hdr"))
            .is_some()
        {
            naks += 1;
        }
        m.tick_idx(clk);
        clock += 1;
    }
    assert_eq!(naks, sent, "one NAK 0x62 per remote ACCESS_ERR");
    println!("{clock} clocks: sent {sent}, NAKs {naks}, CSR reads {reads}");
}

/// The full-size top in lockstep, driven as the system testbench drives it:
/// the driver library brings it up and registers MRs over AXI4-Lite, host
/// memory answers its walks, requests hit and miss; every output of the
/// rust-hdl model and of its Verilog is compared every clock, and every
/// answer is checked against the reference translation with the
/// responder's rules applied (`responder_ref`, per QP in request order,
/// which is the order of a QP's decisions): requests carry PSNs, a QP
/// that got an RNR sees both retransmissions of the waited-for PSN and
/// other PSNs (DROP); every NAK is checked against the reference's (local
/// QP, DestQP, PSN, MSN, syndrome; of an RNR NAK the timer code is the
/// adaptive timer's and is not checked), in order per QP.
struct LockstepSys {
    ls: Lockstep<DefaultOdpMmu>,
    mem: HostMemory,
    mon: AxiMonitor,
    rng: StdRng,
    mrs: Vec<MrEntry>,
    keys: Vec<(usize, u64)>,
    offer: Option<(u8, Req)>,
    next_tag: u8,
    /// By tag: reference status, reference beats, beats received.
    inflight: HashMap<u8, Expected>,
    answers: u64,
    by_status: [u64; 8],
    traffic: bool,
    /// The RC context `(psn, rqpn, msn)` of the request on offer.
    offer_rc: (u32, u32, u32),
    /// The responder's reference, fed in request order.
    resp: ResponderRef,
    /// Next new PSN per QP.
    psn_next: Vec<u32>,
    /// NAKs expected, per local QP, in order: the header.
    naks: HashMap<u32, VecDeque<u128>>,
    naks_seen: u64,
}

/// The fields of a NAK header the top-level bench checks: opcode, DestQP,
/// PSN, MSN and syndrome (the whole syndrome of an error NAK, the RNR
/// NAK's kind of an RNR NAK).
fn nak_fields(hdr: u128) -> (u8, u32, u32, u32, u8) {
    let syndrome = (hdr >> 24) as u8;
    (
        (hdr >> 120) as u8,
        (hdr >> 64) as u32 & 0xff_ffff,
        (hdr >> 32) as u32 & 0xff_ffff,
        hdr as u32 & 0xff_ffff,
        if syndrome & 0xe0 == 0x20 {
            0x20
        } else {
            syndrome
        },
    )
}

type Expected = (u8, Vec<(u64, u64)>, Vec<(u64, u64)>);

fn set_clock_default(u: &mut DefaultOdpMmu, high: bool) {
    u.clk.next = high.into();
}

impl LockstepSys {
    fn clock_once(&mut self, lite: LiteIn) -> LiteOut {
        let LiteIn { aw, w, ar } = lite;
        if self.traffic && self.offer.is_none() && self.rng.gen_ratio(3, 4) {
            let i = self.rng.gen_range(0..self.mrs.len());
            let e = self.mrs[i];
            let (_, off) = self.keys[self.rng.gen_range(0..self.keys.len())];
            let off = if e.length == 0 { 0 } else { off % e.length };
            let mut tag = self.next_tag;
            while self.inflight.contains_key(&tag) {
                tag = tag.wrapping_add(1);
            }
            self.next_tag = tag.wrapping_add(1);
            let qpn = self.rng.gen_range(0..8);
            // A QP waiting after an RNR: the retransmission, or another
            // PSN (DROP); else the next PSN.
            let q = self.resp.qp(qpn).copied().unwrap_or_default();
            let psn = if q.waiting && self.rng.gen_ratio(1, 2) {
                q.psn
            } else {
                let p = self.psn_next[qpn as usize];
                self.psn_next[qpn as usize] = (p + 1) & 0xff_ffff;
                p
            };
            self.offer_rc = (psn, self.rng.gen::<u32>() >> 8, self.rng.gen::<u32>() >> 8);
            self.offer = Some((
                tag,
                Req {
                    op: self.rng.gen_range(0..4),
                    qpn,
                    // Now and then a wrong PD or key tag: ACCESS_ERR.
                    pd: e.pd ^ self.rng.gen_ratio(1, 30) as u16,
                    key: (i as u32) << 8 | (e.tag ^ self.rng.gen_ratio(1, 30) as u8) as u32,
                    va: e.base_va.wrapping_add(off),
                    len: self.rng.gen_range(1..=4096),
                },
            ));
        }
        let s = self.mem.outputs();
        let (offer, rsp_ready) = (self.offer, self.rng.gen_ratio(4, 5));
        let rc = self.offer_rc;
        let ls = &mut self.ls;
        ls.settle(|_, u| {
            u.rst.next = false;
            harness::top::drive_xreq(&mut u.s_xreq, offer.as_ref().map(|(t, r)| (*t, r)));
            u.s_xreq.psn.next = (rc.0 as u64).into();
            u.s_xreq.rqpn.next = (rc.1 as u64).into();
            u.s_xreq.msn.next = (rc.2 as u64).into();
            u.m_xrsp.ready.next = rsp_ready;
            u.m_nak.ready.next = true;
            u.m_wake.ready.next = true;
            u.s_axil.awvalid.next = aw.is_some();
            u.s_axil.awaddr.next = (aw.unwrap_or(0) as u64).into();
            u.s_axil.wvalid.next = w.is_some();
            u.s_axil.wdata.next = (w.unwrap_or(0) as u64).into();
            u.s_axil.wstrb.next = 0xf_u64.into();
            u.s_axil.bready.next = true;
            u.s_axil.arvalid.next = ar.is_some();
            u.s_axil.araddr.next = (ar.unwrap_or(0) as u64).into();
            u.s_axil.rready.next = true;
            odp_mmu_workshop::models::host_memory::drive_read_slave(&mut u.m_axi.rd, &s);
            u.m_axi.wr.awready.next = true;
            u.m_axi.wr.wready.next = true;
            u.m_axi.wr.bvalid.next = false;
        })
        .unwrap_or_else(|m| panic!("{m}"));
        let u = &ls.uut;
        let clock = ls.clock();
        let lite = LiteOut {
            awready: aw.is_some() && u.s_axil.awready.val(),
            wready: w.is_some() && u.s_axil.wready.val(),
            b: u.s_axil
                .bvalid
                .val()
                .then(|| u.s_axil.bresp.val().index() as u8),
            arready: ar.is_some() && u.s_axil.arready.val(),
            r: u.s_axil.rvalid.val().then(|| {
                (
                    u.s_axil.rdata.val().index() as u32,
                    u.s_axil.rresp.val().index() as u8,
                )
            }),
        };
        if let (Some((tag, r)), true) = (offer, u.s_xreq.ready.val()) {
            let mut table = self.mrs.clone();
            table.resize(256, MrEntry::default());
            let mut a = translate(&table, 8, 1024, &self.mem, &r);
            // The responder's rules, in this QP's decision order.
            let lk = Lookup {
                qpn: r.qpn,
                psn: rc.0,
                remote: r.op & 2 == 0,
            };
            let ov = self.resp.overrides(&lk);
            if ov.fatal || ov.drop {
                a.status = if ov.fatal {
                    status::FATAL
                } else {
                    status::DROP
                } as u8;
                a.beats.clear();
            }
            let d = self.resp.decide(
                &lk,
                Some(&Answer {
                    status: a.status,
                    susp: false,
                    rqpn: rc.1,
                    msn: rc.2,
                }),
                0xffff,
                0,
            );
            if let Some(n) = d.nak {
                self.naks.entry(n.qpn).or_default().push_back(n.hdr);
            }
            self.inflight.insert(tag, (a.status, a.beats, Vec::new()));
            self.offer = None;
        }
        if u.m_nak.valid.val() {
            let qpn = u.m_nak.qpn.val().index() as u32;
            let hdr = u.m_nak.hdr.val().to_u128();
            let want = self
                .naks
                .get_mut(&qpn)
                .and_then(VecDeque::pop_front)
                .unwrap_or_else(|| {
                    panic!("clock {clock}: NAK of QP {qpn} {hdr:032x} not expected")
                });
            assert_eq!(
                nak_fields(hdr),
                nak_fields(want),
                "clock {clock}: NAK of QP {qpn}: {hdr:032x}, expected {want:032x}"
            );
            self.naks_seen += 1;
        }
        if u.m_xrsp.valid.val() && rsp_ready {
            let tag = u.m_xrsp.tag.val().index() as u8;
            let status = u.m_xrsp.status.val().index() as u8;
            let beat = (u.m_xrsp.pa.val().to_u64(), u.m_xrsp.seg_len.val().to_u64());
            let f = self
                .inflight
                .get_mut(&tag)
                .unwrap_or_else(|| panic!("clock {clock}: unknown tag {tag}"));
            assert_eq!(status, f.0, "clock {clock}: status of tag {tag}");
            f.2.push(beat);
            if u.m_xrsp.last.val() {
                let (st, want, got) = self.inflight.remove(&tag).unwrap();
                if st == 0 {
                    assert_eq!(got, want, "clock {clock}: beats of tag {tag}");
                }
                self.answers += 1;
                self.by_status[st as usize] += 1;
            }
        }
        let mo = odp_mmu_workshop::models::host_memory::read_master_out(&u.m_axi.rd);
        self.mon.check(&mo, &s);
        self.mem.edge(&mo);
        ls.edge();
        lite
    }
}

impl WordMemory for LockstepSys {
    fn load64(&mut self, addr: u64) -> u64 {
        self.mem.read64(addr)
    }
    fn store64(&mut self, addr: u64, value: u64) {
        self.mem.write64(addr, value)
    }
}

impl LiteCycle for LockstepSys {
    fn lite_cycle(&mut self, lite: LiteIn) -> LiteOut {
        self.clock_once(lite)
    }
}

impl Bus for LockstepSys {
    fn write32(&mut self, addr: u16, data: u32) -> Result<(), u8> {
        write32(self, addr, data)
    }
    fn read32(&mut self, addr: u16) -> u32 {
        read32(self, addr)
    }
}

#[test]
fn top_default_size_with_mrs_and_traffic_in_lockstep_random() {
    harness::big_stack(default_size_lockstep);
}

fn default_size_lockstep() {
    let seed = seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut mem = HostMemory::new(MemConfig::random(1, 40, seed ^ 1));
    mem.logging = false;
    // Two MRs: a 4 KiB-page one and one with a 2 MiB page, a hole each.
    let mut tables = PageTableBuilder::new(0x8000, 0x9000);
    let mut mrs = Vec::new();
    let mut keys = Vec::new();
    for (i, levels) in [(0usize, 1u8), (1, 2)] {
        let t = tables.new_mr(levels);
        let base_va = (rng.gen::<u64>() >> 20) | rng.gen_range(0..4096);
        let length = 6 << 20 >> (2 - levels);
        for p in 0..8u64 {
            if p == 5 {
                continue;
            }
            tables.map(
                &mut mem,
                t,
                p << 12,
                PageSize::Size4K,
                0x1_0000 + 16 * i as u64 + p,
                p != 6,
            );
            keys.push((i, p << 12 | rng.gen_range(0..4096)));
        }
        if levels == 2 {
            tables.map(&mut mem, t, 1 << 21, PageSize::Size2M, 0x2_0000, true);
            keys.push((i, 1 << 21 | rng.gen_range(0..1 << 21)));
        }
        mrs.push(MrEntry {
            tag: rng.gen(),
            pd: 1,
            base_va,
            length,
            access: 7,
            root: t.root,
            levels_m1: t.levels_m1,
            state: mr_state::VALID,
        });
    }
    let mut ls = Lockstep::new(
        DefaultOdpMmu::new(&Params::default()),
        "odp_mmu",
        set_clock_default,
    );
    ls.step(|_, u| u.rst.next = true, |_, _| {})
        .unwrap_or_else(|m| panic!("{m}"));
    let sys = LockstepSys {
        ls,
        mem,
        mon: AxiMonitor::new(),
        rng: StdRng::seed_from_u64(seed ^ 2),
        mrs: mrs.clone(),
        keys,
        offer: None,
        next_tag: 0,
        inflight: HashMap::new(),
        answers: 0,
        by_status: [0; 8],
        traffic: false,
        offer_rc: (0, 0, 0),
        resp: ResponderRef::new(10),
        psn_next: (0..8).map(|q| 0xff_fff0 + q).collect(),
        naks: HashMap::new(),
        naks_seen: 0,
    };
    let mut drv = Driver::new(sys, 0x9000..0xa000, true);
    drv.bring_up().expect("bring-up");
    for (i, e) in mrs.iter().enumerate() {
        drv.write_mr(i as u32, e).expect("MR_WRITE");
    }
    drv.bus.traffic = true;
    let start = drv.bus.ls.clock();
    // A PREFETCH of MR 1, all 768 pages (the 4 KiB ones, a hole, unmapped
    // pages and the 2 MiB page), beside the traffic; no event ring is set
    // up, so it never finishes and every further one is refused PF_BUSY.
    let len = mrs[1].length;
    let prefetch = [
        1,
        drv.bus.rng.gen_range(0..4),
        mrs[1].base_va as u32,
        (mrs[1].base_va >> 32) as u32,
        len as u32,
        (len >> 32) as u32,
    ];
    drv.command(regmap::op::PREFETCH, &prefetch)
        .expect("PREFETCH");
    let (mut reads, mut pf_busy) = (0, 0);
    while !harness::done(drv.bus.ls.clock() - start, 8_000, 40_000, || {
        let b = drv.bus.by_status;
        vec![
            ("answers", drv.bus.answers, 1_000),
            ("OK", b[status::OK as usize], 100),
            ("RNR", b[status::RNR as usize], 5),
            ("STALL", b[status::STALL as usize], 5),
            ("ACCESS_ERR", b[status::ACCESS_ERR as usize], 5),
            ("DROP", b[status::DROP as usize], 5),
            ("NAKs", drv.bus.naks_seen, 10),
            ("PREFETCHes refused PF_BUSY", pf_busy, 2),
        ]
    }) {
        // Counter reads over AXI4-Lite while requests flow, and now and
        // then a PREFETCH of a few pages (the holes included) beside them.
        if drv.bus.rng.gen_ratio(1, 50) {
            drv.counter("LOOKUPS").unwrap();
            reads += 1;
        } else if drv.bus.rng.gen_ratio(1, 2000) {
            // The PREFETCH runs on: its record waits for a ring.
            assert_eq!(
                drv.command(regmap::op::PREFETCH, &prefetch),
                Err(driver::Error::Command {
                    op: regmap::op::PREFETCH,
                    code: driver::RES_PF_BUSY
                }),
                "a second PREFETCH while the first runs"
            );
            pf_busy += 1;
        } else {
            drv.bus.clock_once(LiteIn::default());
        }
    }
    drv.bus.traffic = false;
    while drv.bus.offer.is_some()
        || !drv.bus.inflight.is_empty()
        || drv.bus.naks.values().any(|q| !q.is_empty())
    {
        drv.bus.clock_once(LiteIn::default());
        assert!(drv.bus.ls.clock() < start + 100_000, "drain");
    }
    let lookups = drv.counter("LOOKUPS").unwrap();
    println!(
        "{} clocks in lockstep, {} answers (by status {:?}), {} NAKs, {reads} counter reads, {pf_busy} PREFETCHes refused, LOOKUPS {lookups}",
        drv.bus.ls.clock(),
        drv.bus.answers,
        drv.bus.by_status,
        drv.bus.naks_seen
    );
    assert_eq!(lookups, drv.bus.answers, "LOOKUPS");
}
