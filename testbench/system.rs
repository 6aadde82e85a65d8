//! The whole core through its real interfaces, on the Verilated `odp_mmu`.
//!
//! The bench plays the driver: it brings the core up and registers MRs over
//! AXI4-Lite (MR_WRITE commands through the doorbell, results polled in
//! `CMD_STATUS`), with their page tables in the host memory model behind the
//! AXI4 master (random latency, out-of-order read data, backpressure, an
//! SLVERR region). Then requesters send random translation requests on many
//! QPs with random idle gaps and response backpressure; every answer is
//! checked against the reference translation of the MR it names (status,
//! one `(pa, seg_len)` per page, `last`), per-QP order holds, and at the end
//! every request is answered and the core's counters, read over AXI4-Lite,
//! equal the bench's own counts. A bad command is answered with its code in
//! `ERROR_INFO` and changes nothing.

#[path = "harness/mod.rs"]
mod harness;

use std::collections::{HashMap, VecDeque};

use harness::monitor::StreamMonitor;
use harness::seed;
use harness::verilated::Verilated;
use odp_mmu::control::command::{OP_MR_WRITE, RES_MR_RANGE};
use odp_mmu::regmap;
use odp_mmu::sim::host_memory::{
    Addr, AxiMonitor, HostMemory, MasterOut, MemConfig, SlaveOut, RESP_SLVERR,
};
use odp_mmu::sim::mr_check::{MrEntry, STATE_VALID};
use odp_mmu::sim::page_table::{PageSize, PageTableBuilder};
use odp_mmu::sim::translate_ref::{translate, Req, ACCESS_ERR, FATAL, OK, RNR, STALL};
use odp_mmu::Params;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The Verilated core with host memory on its AXI4 master.
struct Sys {
    m: Verilated,
    clk: usize,
    mem: HostMemory,
    mon: AxiMonitor,
    clock: u64,
    walk_reads: u64,
    /// The memory's outputs of this clock, drawn once in `settle`.
    slave: SlaveOut,
}

impl Sys {
    fn new(params: &Params, cfg: MemConfig) -> Self {
        let v = odp_mmu::top::generate_verilog(params).unwrap();
        let name = if params.mr_entries == 8 {
            "odp_mmu_small"
        } else {
            "odp_mmu"
        };
        let v = v.replace("odp_mmu", name);
        let m = Verilated::new(&v, name);
        let clk = m.port("clk");
        let mut mem = HostMemory::new(cfg);
        mem.logging = false;
        Self {
            m,
            clk,
            mem,
            mon: AxiMonitor::new(),
            clock: 0,
            walk_reads: 0,
            slave: SlaveOut::default(),
        }
    }

    /// Settles with the memory's outputs applied: call after setting the
    /// bench's inputs, then read outputs, then `edge`.
    fn settle(&mut self) {
        let s = self.mem.outputs();
        self.slave = s;
        let m = &mut self.m;
        m.set("m_axi_arready", s.arready as u128);
        m.set("m_axi_rvalid", s.r.is_some() as u128);
        m.set("m_axi_rid", s.r.map_or(0, |b| b.id) as u128);
        m.set("m_axi_rdata", s.r.map_or(0, |b| b.data) as u128);
        m.set("m_axi_rresp", s.r.map_or(0, |b| b.resp) as u128);
        m.set("m_axi_rlast", s.r.map_or(0, |b| b.last as u8) as u128);
        m.set("m_axi_awready", 1);
        m.set("m_axi_wready", 1);
        m.set("m_axi_bvalid", 0);
        m.eval();
        assert_eq!(
            m.get("m_axi_awvalid") + m.get("m_axi_wvalid") + m.get("m_nak_valid"),
            0,
            "clock {}: nothing writes host memory or sends a NAK yet",
            self.clock
        );
    }

    /// The rising edge: memory and monitor see the master's outputs.
    fn edge(&mut self) {
        let s = self.slave;
        let m = &mut self.m;
        let ar = (m.get("m_axi_arvalid") == 1).then(|| Addr {
            id: m.get("m_axi_arid") as u8,
            addr: m.get("m_axi_araddr") as u64,
            len: m.get("m_axi_arlen") as u8,
            size: m.get("m_axi_arsize") as u8,
            burst: m.get("m_axi_arburst") as u8,
        });
        let mo = MasterOut {
            ar,
            rready: m.get("m_axi_rready") == 1,
            aw: None,
            w: None,
            bready: true,
        };
        self.walk_reads += (ar.is_some() && s.arready) as u64;
        self.mon.check(&mo, &s);
        self.mem.edge(&mo);
        self.m.tick_idx(self.clk);
        self.clock += 1;
    }

    /// One clock with no request and no CSR access.
    fn idle(&mut self) {
        self.m.set("s_xreq_valid", 0);
        self.m.set("m_xrsp_ready", 1);
        self.settle();
        self.edge();
    }

    /// An AXI4-Lite write (address and data together); returns BRESP.
    fn write32(&mut self, addr: u16, data: u32) -> u8 {
        let (mut aw, mut w) = (true, true);
        for _ in 0..100 {
            self.m.set("s_axil_awvalid", aw as u128);
            self.m.set("s_axil_awaddr", addr as u128);
            self.m.set("s_axil_wvalid", w as u128);
            self.m.set("s_axil_wdata", data as u128);
            self.m.set("s_axil_wstrb", 0xf);
            self.m.set("s_axil_bready", 1);
            self.settle();
            let aw_taken = aw && self.m.get("s_axil_awready") == 1;
            let w_taken = w && self.m.get("s_axil_wready") == 1;
            let b = (self.m.get("s_axil_bvalid") == 1).then(|| self.m.get("s_axil_bresp") as u8);
            self.edge();
            aw &= !aw_taken;
            w &= !w_taken;
            if let Some(resp) = b {
                self.m.set("s_axil_awvalid", 0);
                self.m.set("s_axil_wvalid", 0);
                return resp;
            }
        }
        panic!("AXI4-Lite write to {addr:#x} not answered");
    }

    /// An AXI4-Lite read.
    fn read32(&mut self, addr: u16) -> u32 {
        let mut ar = true;
        for _ in 0..100 {
            self.m.set("s_axil_arvalid", ar as u128);
            self.m.set("s_axil_araddr", addr as u128);
            self.m.set("s_axil_rready", 1);
            self.settle();
            let ar_taken = ar && self.m.get("s_axil_arready") == 1;
            let r = (self.m.get("s_axil_rvalid") == 1).then(|| {
                (
                    self.m.get("s_axil_rdata") as u32,
                    self.m.get("s_axil_rresp"),
                )
            });
            self.edge();
            ar &= !ar_taken;
            if let Some((data, resp)) = r {
                self.m.set("s_axil_arvalid", 0);
                assert_eq!(resp, 0, "read of {addr:#x}");
                return data;
            }
        }
        panic!("AXI4-Lite read of {addr:#x} not answered");
    }

    fn counter(&mut self, name: &str) -> u64 {
        let c = regmap::COUNTERS.iter().find(|c| c.name == name).unwrap();
        let lo = self.read32(c.offset()) as u64;
        let hi = self.read32(c.offset() + 4) as u64;
        lo | hi << 32
    }

    /// Issues a command the way a driver does (BUSY clear, arguments,
    /// doorbell, BUSY clear again) and returns its result code.
    fn command(&mut self, op: u8, tag: u8, args: &[u32]) -> u32 {
        let busy = |s: &mut Self| s.read32(regmap::CMD_STATUS) >> regmap::CMD_STATUS_BUSY & 1;
        while busy(self) == 1 {}
        for (k, a) in args.iter().enumerate() {
            assert_eq!(self.write32(regmap::cmd_arg(k), *a), 0);
        }
        let bell = (op as u32) << regmap::CMD_DOORBELL_OP_LSB
            | (tag as u32) << regmap::CMD_DOORBELL_TAG_LSB;
        assert_eq!(self.write32(regmap::CMD_DOORBELL, bell), 0, "doorbell");
        loop {
            let st = self.read32(regmap::CMD_STATUS);
            if st >> regmap::CMD_STATUS_BUSY & 1 == 0 {
                return st >> regmap::CMD_STATUS_RESULT_LSB & 0xff;
            }
        }
    }
}

/// Driver-side MR registration: MR_WRITE with every field of `e`.
fn register_mr(sys: &mut Sys, index: u32, e: &MrEntry) -> u32 {
    let word1 = e.tag as u32
        | (e.access as u32) << regmap::MR_ARG1_ACCESS_LSB
        | (e.levels_m1 as u32) << regmap::MR_ARG1_LEVELS_M1_LSB
        | (e.state as u32) << regmap::MR_ARG1_STATE_LSB;
    let root_pa = e.root << 12;
    sys.command(
        OP_MR_WRITE as u8,
        index as u8,
        &[
            index,
            word1,
            e.pd as u32,
            e.base_va as u32,
            (e.base_va >> 32) as u32,
            e.length as u32,
            (e.length >> 32) as u32,
            root_pa as u32,
            (root_pa >> 32) as u32,
        ],
    )
}

/// MRs of every depth and page size with holes, read-only pages and one
/// table behind SLVERR, their tables laid out in `mem`.
fn build_mrs(rng: &mut StdRng, mem: &mut HostMemory, n: u32) -> Vec<MrEntry> {
    let mut tables = PageTableBuilder::new(0x1000, 0x10_0000);
    let mut mrs = Vec::new();
    for i in 0..n {
        let levels: u8 = rng.gen_range(1..=4);
        let t = tables.new_mr(levels);
        let length: u64 = if levels == 1 {
            rng.gen_range(1..=64) * 4096 - rng.gen_range(0..4096)
        } else {
            rng.gen_range(1..=4) << 21
        };
        let base_va = rng.gen::<u64>() >> 8;
        let span = length + (base_va & 0xfff);
        let mut off = 0;
        while off < span {
            let two_meg = levels >= 2
                && !(i % 4 == 1 && off == 0)
                && off % (1 << 21) == 0
                && off + (1 << 21) <= span + 4096
                && rng.gen_ratio(1, 3);
            let size = if two_meg {
                PageSize::Size2M
            } else {
                PageSize::Size4K
            };
            if rng.gen_ratio(4, 5) {
                let align = size.bytes() >> 12;
                let frame = (rng.gen_range(0x10_0000u64..0x80_0000) / align) * align;
                tables.map(mem, t, off, size, frame, rng.gen_ratio(6, 7));
            }
            off += size.bytes();
        }
        if i % 4 == 1 {
            let a = tables.pte_addr(mem, t, 0, 0) & !0xfff;
            mem.inject_error(a..a + 4096, RESP_SLVERR);
        }
        mrs.push(MrEntry {
            tag: rng.gen(),
            pd: rng.gen_range(1..3),
            base_va,
            length,
            access: if rng.gen_ratio(4, 5) {
                7
            } else {
                rng.gen_range(0..8)
            },
            root: t.root,
            levels_m1: t.levels_m1,
            state: STATE_VALID,
        });
    }
    mrs
}

fn random_req(rng: &mut StdRng, mrs: &[MrEntry], qps: u32, recent: &VecDeque<Req>) -> Req {
    if !recent.is_empty() && rng.gen() {
        let r = recent[rng.gen_range(0..recent.len())];
        return Req {
            op: rng.gen_range(0..4),
            va: (r.va & !0xfff) | rng.gen_range(0..4096),
            len: rng.gen_range(1..=512),
            ..r
        };
    }
    let i = rng.gen_range(0..mrs.len());
    let e = &mrs[i];
    let mut key = (i as u32) << 8 | e.tag as u32;
    if rng.gen_ratio(1, 30) {
        key ^= 1 << rng.gen_range(0..32);
    }
    let len = if rng.gen_ratio(1, 50) {
        0
    } else {
        rng.gen_range(1..=4096)
    };
    let off = rng.gen_range(0..e.length.max(1));
    Req {
        op: rng.gen_range(0..4),
        qpn: if rng.gen_ratio(1, 40) {
            qps + 1
        } else {
            rng.gen_range(0..qps)
        },
        pd: if rng.gen_ratio(1, 40) { 3 } else { e.pd },
        key,
        va: e.base_va.wrapping_add(off),
        len,
    }
}

/// A request in flight: itself, the reference beats `(pa, seg_len)`, the
/// reference status, the beats answered so far.
type InFlight = (Req, Vec<(u64, u64)>, u8, usize);

/// Bring-up, MR registration and a bad command; then `clocks` of traffic.
fn system_run(params: &Params, clocks: u64, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut sys = Sys::new(params, MemConfig::random(1, 300, seed ^ 1));
    let qps = params.qps as u32;
    let n = params.mr_entries.min(16) as u32;
    let idx_bits = params.mr_entries.trailing_zeros();

    // Bring-up: reset, then wait for the MR table's sweep.
    sys.m.set("rst", 1);
    sys.idle();
    sys.m.set("rst", 0);
    assert_eq!(sys.read32(regmap::ID), regmap::ID_VALUE);
    assert_eq!(sys.read32(regmap::CAP_MRS), params.mr_entries as u32);
    while sys.read32(regmap::STATUS) >> regmap::STATUS_READY & 1 == 0 {}

    let mut mrs = build_mrs(&mut rng, &mut sys.mem, n);
    for (i, e) in mrs.iter().enumerate() {
        assert_eq!(register_mr(&mut sys, i as u32, e), 0, "MR_WRITE {i}");
    }
    // The rest of the table stays invalid.
    mrs.resize(params.mr_entries, MrEntry::default());
    // A bad command: an MR index out of range. Answered, recorded, ignored.
    let bad = MrEntry {
        state: STATE_VALID,
        ..mrs[0]
    };
    let code = register_mr(&mut sys, params.mr_entries as u32, &bad);
    assert_eq!(code, RES_MR_RANGE as u32);
    let err = sys.read32(regmap::ERROR);
    assert_eq!(err >> regmap::ERROR_BAD_CMD & 1, 1, "ERROR.BAD_CMD");
    let info = sys.read32(regmap::ERROR_INFO);
    assert_eq!(
        (
            info >> regmap::ERROR_INFO_OP_LSB & 0xff,
            info >> regmap::ERROR_INFO_CODE_LSB & 0xff
        ),
        (OP_MR_WRITE as u32, RES_MR_RANGE as u32)
    );
    assert_eq!(sys.write32(regmap::ERROR, err), 0, "rw1c clear");
    assert_eq!(sys.read32(regmap::ERROR) >> regmap::ERROR_BAD_CMD & 1, 0);

    // Traffic.
    let mut xreq_mon = StreamMonitor::new("s_xreq");
    let mut xrsp_mon = StreamMonitor::new("m_xrsp");
    let mut offer: Option<(u8, Req)> = None;
    let mut inflight: HashMap<u8, InFlight> = HashMap::new();
    let mut per_qp: HashMap<u32, VecDeque<u8>> = HashMap::new();
    let mut recent: VecDeque<Req> = VecDeque::new();
    let mut next_tag = 0u8;
    let (mut sent, mut answered) = (0u64, 0u64);
    let mut seen: HashMap<u8, u64> = HashMap::new();
    let (mut req_pct, mut rsp_pct) = (70, 70);
    let start = sys.clock;
    let mut issuing = true;
    while issuing || !inflight.is_empty() || offer.is_some() {
        let c = sys.clock - start;
        if c.is_multiple_of(2048) {
            req_pct = rng.gen_range(10..=100);
            rsp_pct = rng.gen_range(10..=100);
        }
        issuing = !harness::done(c, clocks, clocks * 10, || {
            let mut bins: harness::Bins = [
                (OK, "OK"),
                (RNR, "RNR"),
                (STALL, "STALL"),
                (ACCESS_ERR, "ACCESS_ERR"),
                (FATAL, "FATAL"),
            ]
            .into_iter()
            .map(|(s, name)| (name, seen.get(&s).copied().unwrap_or(0), 1))
            .collect();
            bins.push(("answers", answered, 1_000));
            bins
        }) && issuing;
        assert!(
            c < clocks * 10 + 200_000,
            "deadlock: {} unanswered",
            inflight.len()
        );
        if offer.is_none() && issuing && inflight.len() < 200 && rng.gen_range(0..100) < req_pct {
            while inflight.contains_key(&next_tag) {
                next_tag = next_tag.wrapping_add(1);
            }
            offer = Some((next_tag, random_req(&mut rng, &mrs, qps, &recent)));
            next_tag = next_tag.wrapping_add(1);
        }
        let (tag, r) = offer.unwrap_or((
            0,
            Req {
                op: 0,
                qpn: 0,
                pd: 0,
                key: 0,
                va: 0,
                len: 0,
            },
        ));
        let m = &mut sys.m;
        m.set("s_xreq_valid", offer.is_some() as u128);
        m.set("s_xreq_tag", tag as u128);
        m.set("s_xreq_op", r.op as u128);
        m.set("s_xreq_qpn", r.qpn as u128);
        m.set("s_xreq_pd", r.pd as u128);
        m.set("s_xreq_key", r.key as u128);
        m.set("s_xreq_va", r.va as u128);
        m.set("s_xreq_len", r.len as u128);
        let ready = rng.gen_range(0..100) < rsp_pct;
        m.set("m_xrsp_ready", ready as u128);
        sys.settle();
        let m = &mut sys.m;
        let took = m.get("s_xreq_ready") == 1;
        if xreq_mon
            .observe(sys.clock, offer.is_some(), took, offer)
            .is_some()
        {
            let a = translate(&mrs, idx_bits, qps, &sys.mem, &r);
            inflight.insert(tag, (r, a.beats, a.status, 0));
            per_qp.entry(r.qpn).or_default().push_back(tag);
            if recent.len() == 16 {
                recent.pop_front();
            }
            recent.push_back(r);
            offer = None;
            sent += 1;
        }
        let beat = (
            m.get("m_xrsp_tag") as u8,
            m.get("m_xrsp_status") as u8,
            m.get("m_xrsp_pa") as u64,
            m.get("m_xrsp_seg_len") as u64,
            m.get("m_xrsp_last") == 1,
        );
        let valid = m.get("m_xrsp_valid") == 1;
        if let Some((t, status, pa, seg_len, last)) =
            xrsp_mon.observe(sys.clock, valid, ready, beat)
        {
            let clock = sys.clock;
            let (req, beats, want, k) = inflight
                .get_mut(&t)
                .unwrap_or_else(|| panic!("clock {clock}: answer for unknown tag {t}"));
            let q = per_qp.get_mut(&req.qpn).unwrap();
            assert_eq!(
                q.front(),
                Some(&t),
                "clock {clock}: QP {} out of order",
                req.qpn
            );
            assert_eq!(status, *want, "clock {clock}: status of tag {t} {req:x?}");
            if status == OK {
                assert_eq!(
                    (pa, seg_len, last),
                    (beats[*k].0, beats[*k].1, *k + 1 == beats.len()),
                    "clock {clock}: beat {k} of tag {t} {req:x?}"
                );
            } else {
                assert!(last, "clock {clock}: a non-OK answer is one beat");
            }
            *k += 1;
            if last {
                *seen.entry(status).or_default() += 1;
                q.pop_front();
                inflight.remove(&t);
                answered += 1;
            }
        }
        sys.edge();
    }
    sys.m.set("m_xrsp_ready", 1);
    println!(
        "{} clocks of traffic: sent {sent}, answered {answered}, by status {seen:?}",
        sys.clock - start
    );

    // The counters equal the bench's counts.
    let get = |s: u8| seen.get(&s).copied().unwrap_or(0);
    assert_eq!(sys.counter("LOOKUPS"), sent, "LOOKUPS");
    assert_eq!(
        sys.counter("ACCESS_ERRORS"),
        get(ACCESS_ERR),
        "ACCESS_ERRORS"
    );
    assert_eq!(sys.counter("STALLS"), get(STALL), "STALLS");
    assert_eq!(sys.counter("FATALS"), get(FATAL), "FATALS");
    let reads_before = sys.walk_reads;
    assert_eq!(sys.counter("WALK_READS"), reads_before, "WALK_READS");
    let (hits, misses) = (sys.counter("TLB_HITS"), sys.counter("TLB_MISSES"));
    assert!(hits > 0 && misses > 0, "TLB hits {hits}, misses {misses}");
    assert!(sys.counter("WALKS") > 0, "WALKS");
    assert_eq!(
        sys.write32(regmap::COUNTER_CLEAR, 1 << regmap::COUNTER_CLEAR_ALL),
        0
    );
    assert_eq!(sys.counter("LOOKUPS"), 0, "COUNTER_CLEAR");
}

#[test]
fn system_small_core_translates_mrs_registered_over_axi_lite_random() {
    system_run(&Params::small(), 100_000, seed());
}

#[test]
fn system_default_core_translates_mrs_registered_over_axi_lite_random() {
    system_run(&Params::default(), 50_000, seed());
}
