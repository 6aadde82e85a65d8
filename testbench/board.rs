//! The board design (`odp_mmu::board`, `docs/fpga.md`, `docs/bridge.md`).
//!
//! - The serial bridge alone, Verilated, driven through its UART pins by
//!   the host protocol client (`odp_mmu_workshop::board::protocol`), with
//!   models on its other ports: an AXI4-Lite register file, a memory word
//!   port, a request sink and the three stream sources. Directed tests of
//!   every command, of bad command bytes of either class, bad lengths and
//!   addresses (answered, nothing changed), the push while busy, the
//!   capture FIFOs full and holding their streams back with nothing lost,
//!   and the error flags; a seeded random run of good and bad frames with
//!   random backpressure against a plain-Rust model of the protocol; a
//!   lockstep run of the bridge's Verilog against its rust-hdl model.
//! - The board memory alone: AXI4 bursts (reads, writes with strobes)
//!   against a word model, and its error answers; a lockstep run of its
//!   Verilog against its rust-hdl model on seeded random traffic (bursts
//!   good and bad on both channels at once, the word port, resets,
//!   backpressure).
//! - Yosys and Verilator checks of every board block and of the Versa top.
//! - The Versa top, Verilated, driven through its UART pins only by the
//!   same scenario `odp-mmu board` runs on a board: a translation answered
//!   OK, a fault with its RNR NAK and its event record, the RESUME and the
//!   retransmission answered OK, a STALL with its wake.
//! - `constraints/ecp5_versa5g.lpf` is what the port constraints generate
//!   (`ODP_BLESS=1 cargo test --release --test board` refreshes it), and
//!   the PLL's dividers are those `ecppll` computes.

use std::collections::{HashMap, VecDeque};

use odp_mmu::board::bridge::{
    answer, cmd, flag, UartBridge, CAPTURE_DEPTH, NAK_BYTES, RESET_CLOCKS, STATUS_BYTES,
    XREQ_BYTES, XRSP_BYTES,
};
use odp_mmu::board::memory::BoardMemory;
use odp_mmu::board::pll::VERSA_50MHZ;
use odp_mmu::board::uart::{UartRx, UartTx};
use odp_mmu::board::versa::Versa;
use odp_mmu::spec::{aeth, rnr_timer, status};
use odp_mmu_workshop::board::demo;
use odp_mmu_workshop::board::protocol::{Bridge, Nak, XRsp};
use odp_mmu_workshop::board::sim::{self, UartLink, UartPins};
use odp_mmu_workshop::harness::checks::assert_synthesizable;
use odp_mmu_workshop::harness::dut::{Dut, Locked};
use odp_mmu_workshop::harness::lockstep::Lockstep;
use odp_mmu_workshop::harness::top::XReq;
use odp_mmu_workshop::harness::verilated::Verilated;
use odp_mmu_workshop::harness::{self, seed};
use odp_mmu_workshop::models::responder_ref::nak_header;
use odp_mmu_workshop::models::translate_ref::Req;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

/// Clocks per bit in simulation.
const DIV: u16 = 4;
/// The bridge bench's memory: 1 KiB.
const MEM: u32 = 1024;
/// The register the bench's AXI4-Lite slave answers SLVERR for.
const ERR_REG: u16 = 0x0ffc;

fn verilog_of<B: Block>(mut uut: B, name: &str) -> String {
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, name)
}

odp_mmu_workshop::port_map!(BridgePorts for UartBridge {
    clock: clock,
    inputs: [
        rst, rx, irq, mem_err,
        m_axil.awready, m_axil.wready, m_axil.bresp, m_axil.bvalid, m_axil.arready,
        m_axil.rdata, m_axil.rresp, m_axil.rvalid,
        mem.ready, mem.rvalid, mem.rdata,
        m_xreq.ready,
        s_xrsp.valid, s_xrsp.tag, s_xrsp.status, s_xrsp.pa, s_xrsp.seg_len, s_xrsp.last,
        s_xrsp.epoch,
        s_nak.valid, s_nak.qpn, s_nak.hdr,
        s_wake.valid, s_wake.qpn,
    ],
    outputs: [
        tx, core_rst, err, xreq_waiting, rsp_waiting, nak_waiting,
        m_axil.awaddr, m_axil.awprot, m_axil.awvalid, m_axil.wdata, m_axil.wstrb, m_axil.wvalid,
        m_axil.bready, m_axil.araddr, m_axil.arprot, m_axil.arvalid, m_axil.rready,
        mem.valid, mem.write, mem.addr, mem.wdata,
        m_xreq.valid, m_xreq.tag, m_xreq.op, m_xreq.qpn, m_xreq.rqpn, m_xreq.psn, m_xreq.msn,
        m_xreq.pd, m_xreq.key, m_xreq.va, m_xreq.len, m_xreq.msg_len,
        s_xrsp.ready, s_nak.ready, s_wake.ready,
    ],
});

/// Backpressure of the bench's models, percent of clocks ready.
#[derive(Clone, Copy, Debug)]
struct Pressure {
    lite: u32,
    mem: u32,
    seed: u64,
}

impl Pressure {
    fn none() -> Self {
        Self {
            lite: 100,
            mem: 100,
            seed: 0,
        }
    }
}

/// The bridge with models on every port but its UART.
struct BridgeEnv<D: Dut> {
    dut: D,
    rng: StdRng,
    pressure: Pressure,
    // AXI4-Lite register file.
    regs: HashMap<u16, u32>,
    aw: Option<u16>,
    w: Option<u32>,
    b: Option<u8>,
    r: Option<(u32, u8)>,
    lite_writes: u64,
    lite_reads: u64,
    // The memory word port.
    words: HashMap<u32, u64>,
    /// A read in flight: its word and the clocks until `rvalid`.
    mem_read: Option<(u64, u32)>,
    mem_ops: u64,
    // The request sink.
    xreq_ready: bool,
    taken: Vec<XReq>,
    /// The request on offer and not taken last clock (it must stay).
    xreq_held: Option<XReq>,
    // The stream sources.
    rsp_q: VecDeque<XRsp>,
    nak_q: VecDeque<Nak>,
    wake_q: VecDeque<u32>,
    rsp_taken: u64,
    nak_taken: u64,
    wake_taken: u64,
    irq: bool,
    mem_err_pulse: bool,
    core_rst_clocks: u64,
    clock: u64,
}

impl<D: Dut> BridgeEnv<D> {
    fn new(dut: D, pressure: Pressure) -> Self {
        let mut e = Self {
            dut,
            rng: StdRng::seed_from_u64(pressure.seed),
            pressure,
            regs: HashMap::new(),
            aw: None,
            w: None,
            b: None,
            r: None,
            lite_writes: 0,
            lite_reads: 0,
            words: HashMap::new(),
            mem_read: None,
            mem_ops: 0,
            xreq_ready: true,
            taken: Vec::new(),
            xreq_held: None,
            rsp_q: VecDeque::new(),
            nak_q: VecDeque::new(),
            wake_q: VecDeque::new(),
            rsp_taken: 0,
            nak_taken: 0,
            wake_taken: 0,
            irq: false,
            mem_err_pulse: false,
            core_rst_clocks: 0,
            clock: 0,
        };
        e.dut.set("rst", 1);
        e.dut.set("rx", 1);
        e.dut.settle();
        e.dut.tick();
        e.dut.set("rst", 0);
        e
    }

    fn chance(&mut self, pct: u32) -> bool {
        pct >= 100 || self.rng.gen_range(0..100) < pct
    }

    fn xreq_on_offer(&mut self) -> XReq {
        let d = &mut self.dut;
        XReq {
            tag: d.get("m_xreq_tag") as u8,
            req: Req {
                op: d.get("m_xreq_op") as u8,
                qpn: d.get("m_xreq_qpn") as u32,
                pd: d.get("m_xreq_pd") as u16,
                key: d.get("m_xreq_key") as u32,
                va: d.get("m_xreq_va") as u64,
                len: d.get("m_xreq_len") as u16,
            },
            rqpn: d.get("m_xreq_rqpn") as u32,
            psn: d.get("m_xreq_psn") as u32,
            msn: d.get("m_xreq_msn") as u32,
            msg_len: d.get("m_xreq_msg_len") as u32,
        }
    }
}

impl<D: Dut> UartPins for BridgeEnv<D> {
    fn cycle(&mut self, rx: bool) -> bool {
        let c = self.clock;
        let lite_ready = self.chance(self.pressure.lite);
        let mem_ready = self.chance(self.pressure.mem);
        let d = &mut self.dut;
        d.set("rx", rx as u128);
        d.set("irq", self.irq as u128);
        d.set("mem_err", self.mem_err_pulse as u128);
        self.mem_err_pulse = false;
        // The register file's outputs.
        let awready = lite_ready && self.aw.is_none() && self.b.is_none();
        let wready = lite_ready && self.w.is_none() && self.b.is_none();
        let arready = lite_ready && self.r.is_none();
        d.set("m_axil_awready", awready as u128);
        d.set("m_axil_wready", wready as u128);
        d.set("m_axil_bvalid", self.b.is_some() as u128);
        d.set("m_axil_bresp", self.b.unwrap_or(0) as u128);
        d.set("m_axil_arready", arready as u128);
        d.set("m_axil_rvalid", self.r.is_some() as u128);
        d.set("m_axil_rdata", self.r.map_or(0, |r| r.0) as u128);
        d.set("m_axil_rresp", self.r.map_or(0, |r| r.1) as u128);
        // The memory port.
        let rvalid = matches!(self.mem_read, Some((_, 0)));
        let mem_take_ready = mem_ready && self.mem_read.is_none();
        d.set("mem_ready", mem_take_ready as u128);
        d.set("mem_rvalid", rvalid as u128);
        d.set("mem_rdata", self.mem_read.map_or(0, |m| m.0) as u128);
        // The streams.
        d.set("m_xreq_ready", self.xreq_ready as u128);
        let rsp = self.rsp_q.front().copied();
        d.set("s_xrsp_valid", rsp.is_some() as u128);
        if let Some(r) = rsp {
            d.set("s_xrsp_tag", r.tag as u128);
            d.set("s_xrsp_status", r.status as u128);
            d.set("s_xrsp_pa", r.pa as u128);
            d.set("s_xrsp_seg_len", r.seg_len as u128);
            d.set("s_xrsp_last", r.last as u128);
            d.set("s_xrsp_epoch", r.epoch as u128);
        }
        let nak = self.nak_q.front().copied();
        d.set("s_nak_valid", nak.is_some() as u128);
        if let Some(n) = nak {
            d.set("s_nak_qpn", n.qpn as u128);
            d.set("s_nak_hdr", n.hdr);
        }
        let wake = self.wake_q.front().copied();
        d.set("s_wake_valid", wake.is_some() as u128);
        d.set("s_wake_qpn", wake.unwrap_or(0) as u128);
        d.settle();

        // The handshakes of the coming edge.
        let d = &mut self.dut;
        self.mem_read = match self.mem_read {
            Some((_, 0)) | None => None,
            Some((w, n)) => Some((w, n - 1)),
        };
        if d.is("mem_valid") && mem_take_ready {
            let addr = d.get("mem_addr") as u32;
            assert_eq!(addr % 8, 0, "clock {c}: unaligned memory word {addr:#x}");
            assert!(
                addr < MEM,
                "clock {c}: memory access beyond the memory: {addr:#x}"
            );
            if d.is("mem_write") {
                self.words.insert(addr, d.get("mem_wdata") as u64);
            } else {
                self.mem_read = Some((self.words.get(&addr).copied().unwrap_or(0), 1));
            }
            self.mem_ops += 1;
        }
        if self.b.is_some() && d.is("m_axil_bready") {
            self.b = None;
        }
        if self.r.is_some() && d.is("m_axil_rready") {
            self.r = None;
        }
        if awready && d.is("m_axil_awvalid") {
            self.aw = Some(d.get("m_axil_awaddr") as u16);
        }
        if wready && d.is("m_axil_wvalid") {
            assert_eq!(d.get("m_axil_wstrb"), 0xf, "clock {c}: wstrb");
            self.w = Some(d.get("m_axil_wdata") as u32);
        }
        if let (Some(a), Some(v)) = (self.aw, self.w) {
            if a == ERR_REG {
                self.b = Some(2);
            } else {
                self.regs.insert(a, v);
                self.b = Some(0);
            }
            self.aw = None;
            self.w = None;
            self.lite_writes += 1;
        }
        if arready && d.is("m_axil_arvalid") {
            let a = d.get("m_axil_araddr") as u16;
            self.r = Some(if a == ERR_REG {
                (0, 2)
            } else {
                (self.regs.get(&a).copied().unwrap_or(0), 0)
            });
            self.lite_reads += 1;
        }
        let xreq = self.dut.is("m_xreq_valid").then(|| self.xreq_on_offer());
        if let Some(held) = self.xreq_held.take() {
            assert_eq!(
                xreq,
                Some(held),
                "clock {c}: a request on offer left or changed before it was taken"
            );
        }
        if let Some(x) = xreq {
            if self.xreq_ready {
                self.taken.push(x);
            } else {
                self.xreq_held = Some(x);
            }
        }
        let d = &mut self.dut;
        if rsp.is_some() && d.is("s_xrsp_ready") {
            self.rsp_q.pop_front();
            self.rsp_taken += 1;
        }
        if nak.is_some() && d.is("s_nak_ready") {
            self.nak_q.pop_front();
            self.nak_taken += 1;
        }
        if wake.is_some() && d.is("s_wake_ready") {
            self.wake_q.pop_front();
            self.wake_taken += 1;
        }
        self.core_rst_clocks += d.is("core_rst") as u64;
        d.tick();
        self.clock += 1;
        d.get("tx") == 1
    }
}

type Host<D> = Bridge<UartLink<BridgeEnv<D>>>;

fn host<D: Dut>(dut: D, pressure: Pressure) -> Host<D> {
    Bridge::new(UartLink::new(BridgeEnv::new(dut, pressure), DIV))
}

fn verilated_bridge() -> Verilated {
    Verilated::of_block(&mut UartBridge::new(DIV, MEM), "uart_bridge")
}

fn env<D: Dut>(h: &mut Host<D>) -> &mut BridgeEnv<D> {
    &mut h.link.pins
}

/// One frame; its answer (echo checked).
fn frame<D: Dut>(h: &mut Host<D>, c: u8, addr: u32, len: u8, payload: &[u8]) -> (u8, Vec<u8>) {
    let a = h.exchange(c, addr, len, payload).expect("an answer");
    assert_eq!(a.echo, c);
    (a.status, a.data)
}

fn sample_xreq(tag: u8) -> XReq {
    XReq {
        tag,
        req: Req {
            op: 1,
            qpn: 0x00ab_cdef & 0xff_ffff,
            pd: 0x1234,
            key: 0xdead_be5a,
            va: 0x0123_4567_89ab_cdef,
            len: 0x1fff,
        },
        rqpn: 0x65_4321,
        psn: 0xfe_dcba,
        msn: 0x11_2233,
        msg_len: 0xcafe_f00d,
    }
}

fn sample_rsp(k: u64) -> XRsp {
    XRsp {
        tag: k as u8,
        status: (k % 6) as u8,
        pa: 0x1_0000_0000_0000 + k * 0x1001,
        seg_len: (k * 37 % 8192) as u16,
        last: k.is_multiple_of(2),
        epoch: (k * 3) as u8,
    }
}

fn sample_nak(k: u64) -> Nak {
    Nak {
        qpn: (k * 0x10101) as u32 & 0xff_ffff,
        hdr: nak_header(0xffff, 0x123456, k as u32, 0x20 | 12, 7) ^ (k as u128) << 64,
    }
}

// ---------------------------------------------------------------------
// The bridge: directed tests on its Verilated Verilog.

#[test]
fn bridge_carries_out_every_command() {
    let mut h = host(verilated_bridge(), Pressure::none());
    let st = h.status().unwrap();
    assert_eq!(
        (st.version, st.flags, st.responses, st.naks, st.wakes),
        (1, 0, 0, 0, 0)
    );

    h.csr_write(0x40, 0xdead_beef).unwrap();
    h.csr_write(0xfffc, 0x0102_0304).unwrap();
    assert_eq!(env(&mut h).regs.get(&0x40), Some(&0xdead_beef));
    assert_eq!(h.csr_read(0x40).unwrap(), 0xdead_beef);
    assert_eq!(h.csr_read(0xfffc).unwrap(), 0x0102_0304);
    assert_eq!(h.csr_read(0x44).unwrap(), 0);
    // The slave's SLVERR: BUS_ERR, no data.
    assert_eq!(
        frame(&mut h, cmd::CSR_WRITE, ERR_REG as u32, 4, &[1, 2, 3, 4]),
        (answer::BUS_ERR, vec![])
    );
    assert_eq!(
        frame(&mut h, cmd::CSR_READ, ERR_REG as u32, 4, &[]),
        (answer::BUS_ERR, vec![])
    );

    let words: Vec<u64> = (0..31)
        .map(|k| 0x0101_0101_0101_0101u64.wrapping_mul(k + 1) ^ (k << 56))
        .collect();
    h.mem_write(0x100, &words).unwrap();
    for (k, w) in words.iter().enumerate() {
        assert_eq!(
            env(&mut h).words.get(&(0x100 + 8 * k as u32)),
            Some(w),
            "word {k}"
        );
    }
    assert_eq!(h.mem_read(0x100, 31).unwrap(), words);
    assert_eq!(h.mem_read(0x3f8, 1).unwrap(), vec![0]);
    assert_eq!(h.mem_read(0x108, 2).unwrap(), words[1..3]);

    let x = sample_xreq(9);
    assert!(h.push(&x).unwrap());
    h.link.run(20);
    assert_eq!(env(&mut h).taken, vec![x]);

    for k in 0..3 {
        env(&mut h).rsp_q.push_back(sample_rsp(k));
        env(&mut h).nak_q.push_back(sample_nak(k));
        env(&mut h).wake_q.push_back(0x10_0000 + k as u32);
    }
    h.link.run(20);
    let st = h.status().unwrap();
    assert_eq!((st.responses, st.naks, st.wakes), (3, 3, 3));
    for k in 0..3 {
        assert_eq!(h.pop_response().unwrap(), Some(sample_rsp(k)));
        assert_eq!(h.pop_nak().unwrap(), Some(sample_nak(k)));
        assert_eq!(h.pop_wake().unwrap(), Some(0x10_0000 + k as u32));
    }

    let before = env(&mut h).core_rst_clocks;
    h.reset_core().unwrap();
    assert_eq!(env(&mut h).core_rst_clocks - before, RESET_CLOCKS);
}

#[test]
fn bridge_skips_an_unknown_command_by_its_class_and_answers_bad_cmd() {
    let mut h = host(verilated_bridge(), Pressure::none());
    // A write-class byte (bit 0 clear) brings LEN payload bytes, which are
    // skipped: bytes that would be commands (0x01 STATUS, 0x06 PUSH) too.
    assert_eq!(
        frame(&mut h, 0x08, 0, 5, &[0x01, 0x06, 0x00, 0x00, 0x00]),
        (answer::BAD_CMD, vec![])
    );
    // A read-class byte brings none and answers no data.
    assert_eq!(
        frame(&mut h, 0x0f, 0x1234, 200, &[]),
        (answer::BAD_CMD, vec![])
    );
    assert_eq!(frame(&mut h, 0x00, 0, 0, &[]), (answer::BAD_CMD, vec![]));
    assert_eq!(frame(&mut h, 0xff, 0, 8, &[]), (answer::BAD_CMD, vec![]));
    assert_eq!(
        frame(&mut h, 0xfe, 0, 34, &[0x06; 34]),
        (answer::BAD_CMD, vec![])
    );
    // In step after each, and nothing happened.
    assert_eq!(h.status().unwrap().version, 1);
    let e = env(&mut h);
    assert_eq!(
        (e.lite_writes, e.lite_reads, e.mem_ops, e.taken.len()),
        (0, 0, 0, 0)
    );
    assert_eq!(h.link.uart.pending(), 0, "no stray answer bytes");
}

#[test]
fn bridge_refuses_bad_lengths_and_addresses_and_changes_nothing() {
    let mut h = host(verilated_bridge(), Pressure::none());
    h.mem_write(0x3f8, &[0x5555]).unwrap();
    let ops = env(&mut h).mem_ops;
    let cases: &[(u8, u32, u8, u8)] = &[
        (cmd::STATUS, 0, 4, answer::BAD_LEN),
        (cmd::CSR_WRITE, 0x40, 3, answer::BAD_LEN),
        (cmd::CSR_WRITE, 0x40, 8, answer::BAD_LEN),
        (cmd::CSR_WRITE, 0x41, 4, answer::BAD_ADDR),
        (cmd::CSR_WRITE, 0x1_0000, 4, answer::BAD_ADDR),
        (cmd::CSR_READ, 0x42, 4, answer::BAD_ADDR),
        (cmd::CSR_READ, 0x40, 0, answer::BAD_LEN),
        (cmd::MEM_WRITE, 0x100, 0, answer::BAD_LEN),
        (cmd::MEM_WRITE, 0x100, 12, answer::BAD_LEN),
        (cmd::MEM_WRITE, 0x104, 8, answer::BAD_ADDR),
        (cmd::MEM_WRITE, 0x3f8, 16, answer::BAD_ADDR),
        (cmd::MEM_WRITE, 0xffff_fff8, 16, answer::BAD_ADDR),
        (cmd::MEM_READ, 0x400, 8, answer::BAD_ADDR),
        (cmd::MEM_READ, 0x100, 255, answer::BAD_LEN),
        (cmd::XREQ_PUSH, 0, 33, answer::BAD_LEN),
        (cmd::XRSP_POP, 0, 13, answer::BAD_LEN),
        (cmd::NAK_POP, 0, 20, answer::BAD_LEN),
        (cmd::WAKE_POP, 0, 4, answer::BAD_LEN),
        (cmd::RESET, 0, 2, answer::BAD_LEN),
    ];
    for &(c, addr, len, want) in cases {
        let payload = if c & 1 == 0 {
            vec![0xa5; len as usize]
        } else {
            vec![]
        };
        assert_eq!(
            frame(&mut h, c, addr, len, &payload),
            (want, vec![]),
            "command {c:#04x} ADDR {addr:#x} LEN {len}"
        );
    }
    let e = env(&mut h);
    assert_eq!(
        (e.lite_writes, e.lite_reads, e.mem_ops, e.taken.len()),
        (0, 0, ops, 0)
    );
    assert_eq!(e.core_rst_clocks, 0);
    assert_eq!(e.words.get(&0x3f8), Some(&0x5555));
    assert_eq!(h.mem_read(0x3f8, 1).unwrap(), vec![0x5555]);
}

#[test]
fn bridge_push_while_the_request_waits_answers_busy_and_pops_of_empty_fifos_empty() {
    let mut h = host(verilated_bridge(), Pressure::none());
    assert_eq!(h.pop_response().unwrap(), None);
    assert_eq!(h.pop_nak().unwrap(), None);
    assert_eq!(h.pop_wake().unwrap(), None);
    env(&mut h).xreq_ready = false;
    let (a, b) = (sample_xreq(1), sample_xreq(2));
    assert!(h.push(&a).unwrap());
    assert!(!h.push(&b).unwrap(), "the second push answers BUSY");
    let st = h.status().unwrap();
    assert_eq!(st.flags & flag::XREQ_WAITING, flag::XREQ_WAITING);
    env(&mut h).xreq_ready = true;
    h.link.run(5);
    assert_eq!(
        env(&mut h).taken,
        vec![a],
        "the BUSY request was dropped, the first kept"
    );
    assert!(h.push(&b).unwrap());
    h.link.run(5);
    assert_eq!(env(&mut h).taken, vec![a, b]);
    assert_eq!(h.status().unwrap().flags & flag::XREQ_WAITING, 0);
}

#[test]
fn bridge_full_capture_fifos_hold_their_streams_back_and_lose_nothing() {
    let mut h = host(verilated_bridge(), Pressure::none());
    let n = CAPTURE_DEPTH as u64 + 5;
    for k in 0..n {
        env(&mut h).rsp_q.push_back(sample_rsp(k));
        env(&mut h).nak_q.push_back(sample_nak(k));
        env(&mut h).wake_q.push_back(k as u32);
    }
    h.link.run(200);
    let e = env(&mut h);
    assert_eq!((e.rsp_taken, e.nak_taken, e.wake_taken), (8, 8, 8));
    assert_eq!((e.rsp_q.len(), e.nak_q.len(), e.wake_q.len()), (5, 5, 5));
    assert!(!e.dut.is("s_xrsp_ready") && !e.dut.is("s_nak_ready") && !e.dut.is("s_wake_ready"));
    let st = h.status().unwrap();
    assert_eq!((st.responses, st.naks, st.wakes), (8, 8, 8));
    // Every record comes out, in order, as room is made.
    for k in 0..n {
        assert_eq!(
            h.pop_response().unwrap(),
            Some(sample_rsp(k)),
            "response {k}"
        );
        assert_eq!(h.pop_nak().unwrap(), Some(sample_nak(k)), "NAK {k}");
        assert_eq!(h.pop_wake().unwrap(), Some(k as u32), "wake {k}");
    }
    assert_eq!(h.pop_response().unwrap(), None);
    let e = env(&mut h);
    assert_eq!((e.rsp_taken, e.nak_taken, e.wake_taken), (n, n, n));
}

#[test]
fn bridge_flags_report_errors_once_and_light_the_error_output() {
    let mut h = host(verilated_bridge(), Pressure::none());
    assert!(!env(&mut h).dut.is("err"));
    // A byte with a low stop bit.
    h.link.uart.queue_broken_byte(0x55);
    h.link.flush();
    h.link.run(50);
    assert!(env(&mut h).dut.is("err"));
    assert_eq!(h.status().unwrap().flags, flag::RX_ERROR);
    assert!(!env(&mut h).dut.is("err"));
    assert_eq!(h.status().unwrap().flags, 0, "cleared by the read");
    // The memory's error pulse, a FATAL response, the interrupt.
    env(&mut h).mem_err_pulse = true;
    env(&mut h).rsp_q.push_back(XRsp {
        status: status::byte::FATAL,
        ..sample_rsp(0)
    });
    env(&mut h).irq = true;
    h.link.run(10);
    assert!(env(&mut h).dut.is("err"));
    let want = flag::MEM_ERROR | flag::FATAL_SEEN | flag::IRQ;
    assert_eq!(h.status().unwrap().flags, want);
    assert_eq!(
        h.status().unwrap().flags,
        flag::IRQ,
        "irq is a level, not sticky"
    );
}

// ---------------------------------------------------------------------
// The bridge: random frames against a model of the protocol.

/// What the bridge must answer `frame`, given the bench's state, and the
/// model's state after it. A plain-Rust reading of docs/bridge.md.
struct ProtocolModel {
    regs: HashMap<u16, u32>,
    words: HashMap<u32, u64>,
    rsp: VecDeque<XRsp>,
    taken: Vec<XReq>,
}

impl ProtocolModel {
    fn answer(&mut self, c: u8, addr: u32, len: u8, payload: &[u8]) -> (u8, Vec<u8>) {
        let len_ok = match c {
            cmd::STATUS => len as usize == STATUS_BYTES,
            cmd::CSR_WRITE | cmd::CSR_READ => len == 4,
            cmd::MEM_WRITE | cmd::MEM_READ => len != 0 && len.is_multiple_of(8),
            cmd::XREQ_PUSH => len as usize == XREQ_BYTES,
            cmd::XRSP_POP => len as usize == XRSP_BYTES,
            cmd::NAK_POP => len as usize == NAK_BYTES,
            cmd::WAKE_POP => len == 3,
            cmd::RESET => len == 0,
            _ => return (answer::BAD_CMD, vec![]),
        };
        if !len_ok {
            return (answer::BAD_LEN, vec![]);
        }
        let addr_ok = match c {
            cmd::CSR_WRITE | cmd::CSR_READ => addr.is_multiple_of(4) && addr < 0x1_0000,
            cmd::MEM_WRITE | cmd::MEM_READ => {
                addr.is_multiple_of(8) && addr as u64 + len as u64 <= MEM as u64
            }
            _ => true,
        };
        if !addr_ok {
            return (answer::BAD_ADDR, vec![]);
        }
        match c {
            cmd::CSR_WRITE if addr == ERR_REG as u32 => (answer::BUS_ERR, vec![]),
            cmd::CSR_READ if addr == ERR_REG as u32 => (answer::BUS_ERR, vec![]),
            cmd::CSR_WRITE => {
                self.regs
                    .insert(addr as u16, u32::from_le_bytes(payload.try_into().unwrap()));
                (answer::OK, vec![])
            }
            cmd::CSR_READ => (
                answer::OK,
                self.regs
                    .get(&(addr as u16))
                    .copied()
                    .unwrap_or(0)
                    .to_le_bytes()
                    .to_vec(),
            ),
            cmd::MEM_WRITE => {
                for (k, w) in payload.chunks(8).enumerate() {
                    self.words.insert(
                        addr + 8 * k as u32,
                        u64::from_le_bytes(w.try_into().unwrap()),
                    );
                }
                (answer::OK, vec![])
            }
            cmd::MEM_READ => (
                answer::OK,
                (0..len as u32 / 8)
                    .flat_map(|k| {
                        self.words
                            .get(&(addr + 8 * k))
                            .copied()
                            .unwrap_or(0)
                            .to_le_bytes()
                    })
                    .collect(),
            ),
            cmd::XREQ_PUSH => {
                // The sink is always ready here: the request is taken long
                // before the next frame.
                let mut b = [0u8; 34];
                b.copy_from_slice(payload);
                self.taken.push(decode_xreq(&b));
                (answer::OK, vec![])
            }
            cmd::XRSP_POP => match self.rsp.pop_front() {
                Some(r) => (answer::OK, encode_rsp(&r)),
                None => (answer::EMPTY, vec![]),
            },
            _ => unreachable!("only the commands the random run draws"),
        }
    }
}

fn encode_rsp(r: &XRsp) -> Vec<u8> {
    let mut b = vec![r.tag, r.status];
    b.extend_from_slice(&r.pa.to_le_bytes());
    b.extend_from_slice(&r.seg_len.to_le_bytes());
    b.push(r.last as u8);
    b.push(r.epoch);
    b
}

/// The request the bridge puts on `s_xreq` for a push record (fields cut
/// to their widths).
fn decode_xreq(b: &[u8; 34]) -> XReq {
    let u24 = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], 0]);
    XReq {
        tag: b[0],
        req: Req {
            op: b[1] & 3,
            qpn: u24(2),
            pd: u16::from_le_bytes([b[14], b[15]]),
            key: u32::from_le_bytes(b[16..20].try_into().unwrap()),
            va: u64::from_le_bytes(b[20..28].try_into().unwrap()),
            len: u16::from_le_bytes([b[28], b[29]]) & 0x1fff,
        },
        rqpn: u24(5),
        psn: u24(8),
        msn: u24(11),
        msg_len: u32::from_le_bytes(b[30..34].try_into().unwrap()),
    }
}

/// `frames` random frames, good and bad, with random backpressure on the
/// register file and the memory port; each answer against the model.
fn random_frames<D: Dut>(h: &mut Host<D>, rng: &mut StdRng, frames: usize) -> [u64; 4] {
    let mut m = ProtocolModel {
        regs: HashMap::new(),
        words: HashMap::new(),
        rsp: VecDeque::new(),
        taken: Vec::new(),
    };
    // (OK, refused, BUS_ERR, EMPTY) answers seen.
    let mut seen = [0u64; 4];
    for f in 0..frames {
        // Fewer responses than pops: the FIFO fills in bursts and drains.
        if rng.gen_range(0..(if (f / 50) % 2 == 0 { 6 } else { 80 })) == 0 {
            let r = sample_rsp(rng.gen_range(0..1000));
            m.rsp.push_back(r);
            env(h).rsp_q.push_back(r);
        }
        let c = [
            cmd::CSR_WRITE,
            cmd::CSR_READ,
            cmd::MEM_WRITE,
            cmd::MEM_READ,
            cmd::XREQ_PUSH,
            cmd::XRSP_POP,
            0x08,
            0x11,
        ][rng.gen_range(0..8)];
        let good = rng.gen_range(0..4) != 0;
        let (addr, len): (u32, u8) = match c {
            cmd::CSR_WRITE | cmd::CSR_READ => {
                let a = [0x40, 0x44, 0x48, ERR_REG as u32][rng.gen_range(0..4)];
                if good {
                    (a, 4)
                } else {
                    (
                        a | rng.gen_range(0..4) | rng.gen_range(0..2) << 16,
                        rng.gen_range(0..9),
                    )
                }
            }
            cmd::MEM_WRITE | cmd::MEM_READ => {
                let words = rng.gen_range(1..=4u32);
                let a = 8 * rng.gen_range(0..(MEM / 8 - words + 1));
                if good {
                    (a, 8 * words as u8)
                } else {
                    (rng.gen_range(0..MEM + 64), rng.gen_range(0..40))
                }
            }
            cmd::XREQ_PUSH => (0, if good { 34 } else { rng.gen_range(30..38) }),
            cmd::XRSP_POP => (0, if good { 14 } else { rng.gen_range(10..18) }),
            _ => (rng.gen(), rng.gen_range(0..12)),
        };
        let payload: Vec<u8> = if c & 1 == 0 {
            (0..len).map(|_| rng.gen()).collect()
        } else {
            vec![]
        };
        let want = m.answer(c, addr, len, &payload);
        let got = frame(h, c, addr, len, &payload);
        assert_eq!(
            got, want,
            "frame {f}: command {c:#04x} ADDR {addr:#x} LEN {len}"
        );
        seen[match want.0 {
            answer::OK => 0,
            answer::BUS_ERR => 2,
            answer::EMPTY => 3,
            _ => 1,
        }] += 1;
        h.link.run(8);
    }
    let e = env(h);
    assert_eq!(e.taken, m.taken, "requests on s_xreq");
    assert_eq!(e.regs, m.regs, "registers");
    seen
}

#[test]
fn bridge_random_frames_match_the_protocol_model_under_backpressure() {
    let seed = seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let pressure = Pressure {
        lite: 40,
        mem: 30,
        seed,
    };
    let mut h = host(verilated_bridge(), pressure);
    let seen = random_frames(&mut h, &mut rng, 1000 * harness::scale() as usize);
    println!(
        "answers: {} OK, {} refused, {} BUS_ERR, {} EMPTY",
        seen[0], seen[1], seen[2], seen[3]
    );
    assert!(
        seen.iter().all(|&n| n > 0),
        "every kind of answer: {seen:?}"
    );
}

#[test]
fn bridge_verilog_matches_rust_hdl_in_lockstep() {
    let seed = harness::fixed_seed("bridge_verilog_matches_rust_hdl_in_lockstep");
    let mut rng = StdRng::seed_from_u64(seed);
    let dut: Locked<BridgePorts> =
        Lockstep::of::<BridgePorts>(UartBridge::new(DIV, MEM), "uart_bridge_ls");
    let pressure = Pressure {
        lite: 50,
        mem: 50,
        seed,
    };
    let mut h = host(dut, pressure);
    // A short run of every kind of frame, then the capture FIFOs and a
    // push.
    random_frames(&mut h, &mut rng, 40);
    for k in 0..3 {
        env(&mut h).nak_q.push_back(sample_nak(k));
        env(&mut h).wake_q.push_back(k as u32);
    }
    assert_eq!(h.status().unwrap().naks, 3);
    assert_eq!(h.pop_nak().unwrap(), Some(sample_nak(0)));
    assert_eq!(h.pop_wake().unwrap(), Some(0));
    assert!(h.push(&sample_xreq(3)).unwrap());
    h.reset_core().unwrap();
    println!("{} clocks in lockstep", env(&mut h).dut.clock());
}

// ---------------------------------------------------------------------
// The board memory.

odp_mmu_workshop::port_map!(MemPorts for BoardMemory<6> {
    clock: clock,
    inputs: [rst, host.valid, host.write, host.addr, host.wdata],
    outputs: [err, host.ready, host.rvalid, host.rdata],
    bundles: [s_axi],
});

/// A burst: id, address, beats, size, burst type.
type Burst = (u8, u64, u8, u8, u8);

/// An AXI4 master in front of the memory, one burst at a time, with
/// random `rready` / `wvalid` gaps.
struct MemBench<D: Dut> {
    d: D,
    rng: StdRng,
    errs: u64,
}

impl<D: Dut> MemBench<D> {
    fn clock(&mut self) {
        self.errs += self.d.is("err") as u64;
        self.d.tick();
    }

    /// Reads a burst: the beats' (data, resp, last, id).
    fn read(&mut self, (id, addr, beats, size, burst): Burst) -> Vec<(u64, u8, bool, u8)> {
        let d = &mut self.d;
        d.set("s_axi_arvalid", 1);
        d.set("s_axi_arid", id as u128);
        d.set("s_axi_araddr", addr as u128);
        d.set("s_axi_arlen", beats as u128 - 1);
        d.set("s_axi_arsize", size as u128);
        d.set("s_axi_arburst", burst as u128);
        for guard in 0.. {
            assert!(guard < 1000, "AR of {addr:#x} not taken");
            self.d.settle();
            let taken = self.d.is("s_axi_arready");
            self.clock();
            if taken {
                break;
            }
        }
        self.d.set("s_axi_arvalid", 0);
        let mut out = Vec::new();
        let mut held: Option<(u64, u8, bool, u8)> = None;
        let mut guard = 0;
        while out.len() < beats as usize {
            guard += 1;
            assert!(guard < 1000, "R beats of {addr:#x}: {out:?}");
            let ready = self.rng.gen_range(0..3) != 0;
            self.d.set("s_axi_rready", ready as u128);
            self.d.settle();
            if self.d.is("s_axi_rvalid") {
                let b = (
                    self.d.get("s_axi_rdata") as u64,
                    self.d.get("s_axi_rresp") as u8,
                    self.d.is("s_axi_rlast"),
                    self.d.get("s_axi_rid") as u8,
                );
                if let Some(h) = held {
                    assert_eq!(b, h, "an R beat changed before rready");
                }
                held = if ready {
                    out.push(b);
                    None
                } else {
                    Some(b)
                };
            } else {
                assert!(held.is_none(), "an R beat left before rready");
            }
            self.clock();
        }
        self.d.set("s_axi_rready", 0);
        out
    }

    /// Writes a burst of `data` with `strb` (wlast on beat `last_at`);
    /// the B response (id, resp).
    fn write(
        &mut self,
        (id, addr, beats, size, burst): Burst,
        data: &[u64],
        strb: u8,
        last_at: usize,
    ) -> (u8, u8) {
        let d = &mut self.d;
        d.set("s_axi_awvalid", 1);
        d.set("s_axi_awid", id as u128);
        d.set("s_axi_awaddr", addr as u128);
        d.set("s_axi_awlen", beats as u128 - 1);
        d.set("s_axi_awsize", size as u128);
        d.set("s_axi_awburst", burst as u128);
        d.set("s_axi_bready", 1);
        let mut aw = true;
        let mut k = 0;
        for guard in 0.. {
            assert!(
                guard < 1000,
                "write burst at {addr:#x}: {k} beats taken, no B"
            );
            let offer = k < data.len() && self.rng.gen_range(0..3) != 0;
            let d = &mut self.d;
            d.set("s_axi_wvalid", offer as u128);
            d.set("s_axi_wdata", data.get(k).copied().unwrap_or(0) as u128);
            d.set("s_axi_wstrb", strb as u128);
            d.set("s_axi_wlast", (k == last_at) as u128);
            d.settle();
            let aw_taken = aw && d.is("s_axi_awready");
            if offer && d.is("s_axi_wready") {
                k += 1;
            }
            if d.is("s_axi_bvalid") {
                let b = (d.get("s_axi_bid") as u8, d.get("s_axi_bresp") as u8);
                assert_eq!(k, data.len(), "B before the last W beat");
                self.clock();
                self.d.set("s_axi_wvalid", 0);
                return b;
            }
            self.clock();
            if aw_taken {
                aw = false;
                self.d.set("s_axi_awvalid", 0);
            }
        }
        unreachable!()
    }

    /// A word through the host port.
    fn host(&mut self, write: bool, addr: u32, wdata: u64) -> u64 {
        let d = &mut self.d;
        d.set("host_valid", 1);
        d.set("host_write", write as u128);
        d.set("host_addr", addr as u128);
        d.set("host_wdata", wdata as u128);
        for guard in 0.. {
            assert!(guard < 1000, "host request at {addr:#x} not taken");
            self.d.settle();
            let taken = self.d.is("host_ready");
            self.clock();
            if taken {
                break;
            }
        }
        self.d.set("host_valid", 0);
        if write {
            return 0;
        }
        for _ in 0..4 {
            self.d.settle();
            if self.d.is("host_rvalid") {
                let v = self.d.get("host_rdata") as u64;
                self.clock();
                return v;
            }
            self.clock();
        }
        panic!("no host_rvalid within 4 clocks");
    }
}

#[test]
fn board_memory_serves_incr_bursts_with_strobes_and_answers_bad_bursts() {
    let d = Verilated::of_block(&mut BoardMemory::<6>::new(), "board_memory");
    let mut b = MemBench {
        d,
        rng: StdRng::seed_from_u64(harness::fixed_seed("board_memory")),
        errs: 0,
    };
    b.d.set("rst", 0);
    // Host port writes, AXI reads of them (a 4-beat burst, ID 5).
    for k in 0..8u64 {
        b.host(true, 0x40 + 8 * k as u32, 0x1111_1111_1111_1111 * (k + 1));
    }
    let r = b.read((5, 0x40, 4, 3, 1));
    let want: Vec<_> = (0..4u64)
        .map(|k| (0x1111_1111_1111_1111 * (k + 1), 0, k == 3, 5))
        .collect();
    assert_eq!(r, want);
    // An AXI write burst with byte strobes, read back through both ports.
    let (bid, bresp) = b.write(
        (9, 0x48, 2, 3, 1),
        &[0xaaaa_aaaa_aaaa_aaaa, 0xbbbb_bbbb_bbbb_bbbb],
        0x0f,
        1,
    );
    assert_eq!((bid, bresp), (9, 0));
    assert_eq!(b.host(false, 0x48, 0), 0x2222_2222_aaaa_aaaa);
    assert_eq!(
        b.read((1, 0x50, 1, 3, 1)),
        vec![(0x3333_3333_bbbb_bbbb, 0, true, 1)]
    );
    assert_eq!(b.errs, 0);
    // The last word and a beat beyond (512 bytes): OKAY then DECERR, zero.
    b.host(true, 0x1f8, 77);
    assert_eq!(
        b.read((2, 0x1f8, 2, 3, 1)),
        vec![(77, 0, false, 2), (0, 3, true, 2)]
    );
    assert_eq!(b.errs, 1);
    // A FIXED burst and 4-byte beats: SLVERR on every beat; no write.
    assert_eq!(
        b.read((3, 0x40, 2, 3, 0)),
        vec![(0, 2, false, 3), (0, 2, true, 3)]
    );
    assert_eq!(b.write((4, 0x40, 1, 2, 1), &[5], 0xff, 0), (4, 2));
    assert_eq!(b.host(false, 0x40, 0), 0x1111_1111_1111_1111);
    // Beyond the memory: DECERR, nothing written (the address wraps at
    // the host port, so the word at 0 shows it).
    b.host(true, 0, 0x55);
    assert_eq!(b.write((6, 0x200, 1, 3, 1), &[0x66], 0xff, 0), (6, 3));
    assert_eq!(b.host(false, 0, 0), 0x55);
    // wlast on the wrong beat: SLVERR, the burst still takes its beats.
    assert_eq!(b.write((7, 0x60, 2, 3, 1), &[1, 2], 0xff, 0), (7, 2));
    assert_eq!(b.errs, 6);
}

/// A random AXI4 master and word-port client for the board memory: one
/// clock of inputs at a time, every valid held until its ready, random
/// `rready` / `bready` / `wvalid` gaps, random payloads on idle channels,
/// now and then a reset (which abandons whatever is in flight on both
/// sides). What each clock's handshakes carried is counted for the
/// coverage bins.
struct MemTraffic {
    rng: StdRng,
    /// The AR / AW on offer until taken.
    ar: Option<Burst>,
    aw: Option<Burst>,
    /// W beats of the bursts whose AW is out (data, strobes, wlast).
    w: VecDeque<(u64, u8, bool)>,
    /// The front W beat is on offer (held until taken).
    w_on: bool,
    /// The word-port request on offer until taken: write, address, data.
    host: Option<(bool, u32, u64)>,
    rready: bool,
    bready: bool,
    rst: bool,
    /// R beats taken and B responses taken, by response code.
    r: [u64; 4],
    b: [u64; 4],
    /// B responses of bursts whose wlast was misplaced.
    b_wlast: u64,
    wlast_bad: VecDeque<bool>,
    host_reads: u64,
    host_writes: u64,
    /// Clocks with rvalid / bvalid high and the ready low.
    r_held: u64,
    b_held: u64,
    /// Word-port requests taken while an AR or AW was on offer.
    host_first: u64,
    resets: u64,
    /// Clocks with `err` high.
    errs: u64,
}

impl MemTraffic {
    fn new(seed: u64) -> Self {
        Self {
            rng: StdRng::seed_from_u64(seed),
            ar: None,
            aw: None,
            w: VecDeque::new(),
            w_on: false,
            host: None,
            rready: false,
            bready: false,
            rst: false,
            r: [0; 4],
            b: [0; 4],
            b_wlast: 0,
            wlast_bad: VecDeque::new(),
            host_reads: 0,
            host_writes: 0,
            r_held: 0,
            b_held: 0,
            host_first: 0,
            resets: 0,
            errs: 0,
        }
    }

    /// A burst: mostly INCR of 8-byte beats inside the 512-byte memory,
    /// some running off its end or starting beyond it (up to the top of
    /// the address space), some of another type or size, some long.
    fn burst(&mut self) -> Burst {
        let rng = &mut self.rng;
        let addr = match rng.gen_range(0..10) {
            0 => 0x200 + 8 * rng.gen_range(0..8u64),
            1 => rng.gen::<u64>() | 1 << 63,
            2 => rng.gen_range(0..0x200u64),
            _ => 8 * rng.gen_range(0..64u64),
        };
        let beats = if rng.gen_range(0..12) == 0 {
            rng.gen_range(9..=48u8)
        } else {
            rng.gen_range(1..=8u8)
        };
        let size = if rng.gen_range(0..6) == 0 {
            rng.gen_range(0..8u8)
        } else {
            3
        };
        let burst = if rng.gen_range(0..6) == 0 {
            rng.gen_range(0..4u8)
        } else {
            1
        };
        (rng.gen_range(0..16u8), addr, beats, size, burst)
    }

    /// Sets this clock's inputs.
    fn drive(&mut self, d: &mut impl Dut) {
        self.rst = self.rng.gen_range(0..800) == 0;
        if self.ar.is_none() && self.rng.gen_range(0..5) == 0 {
            self.ar = Some(self.burst());
        }
        if self.aw.is_none() && self.w.len() < 8 && self.rng.gen_range(0..5) == 0 {
            let aw = self.burst();
            let beats = aw.2 as usize;
            // wlast on another beat (or none) now and then; always the
            // burst's beats.
            let last = if self.rng.gen_range(0..8) == 0 {
                self.rng.gen_range(0..=beats)
            } else {
                beats - 1
            };
            self.wlast_bad.push_back(last != beats - 1);
            for k in 0..beats {
                let strb = if self.rng.gen() { 0xff } else { self.rng.gen() };
                self.w.push_back((self.rng.gen(), strb, k == last));
            }
            self.aw = Some(aw);
        }
        if self.host.is_none() && self.rng.gen_range(0..8) == 0 {
            let addr = if self.rng.gen_range(0..8) == 0 {
                self.rng.gen()
            } else {
                8 * self.rng.gen_range(0..64u32)
            };
            self.host = Some((self.rng.gen(), addr, self.rng.gen()));
        }
        self.w_on = !self.w.is_empty() && (self.w_on || self.rng.gen_range(0..3) != 0);
        self.rready = self.rng.gen_range(0..3) != 0;
        self.bready = self.rng.gen_range(0..3) != 0;

        let rng = &mut self.rng;
        d.set("rst", self.rst as u128);
        for (ch, burst) in [("ar", self.ar), ("aw", self.aw)] {
            let (id, addr, beats, size, kind) = burst.unwrap_or((
                rng.gen_range(0..16),
                rng.gen(),
                rng.gen_range(1..=255),
                rng.gen_range(0..8),
                rng.gen_range(0..4),
            ));
            d.set(&format!("s_axi_{ch}valid"), burst.is_some() as u128);
            d.set(&format!("s_axi_{ch}id"), id as u128);
            d.set(&format!("s_axi_{ch}addr"), addr as u128);
            d.set(&format!("s_axi_{ch}len"), beats as u128 - 1);
            d.set(&format!("s_axi_{ch}size"), size as u128);
            d.set(&format!("s_axi_{ch}burst"), kind as u128);
            d.set(&format!("s_axi_{ch}lock"), rng.gen_range(0..2));
            d.set(&format!("s_axi_{ch}cache"), rng.gen_range(0..16));
            d.set(&format!("s_axi_{ch}prot"), rng.gen_range(0..8));
        }
        let (wdata, wstrb, wlast) = match self.w.front() {
            Some(&beat) if self.w_on => beat,
            _ => (rng.gen(), rng.gen(), rng.gen()),
        };
        d.set("s_axi_wvalid", self.w_on as u128);
        d.set("s_axi_wdata", wdata as u128);
        d.set("s_axi_wstrb", wstrb as u128);
        d.set("s_axi_wlast", wlast as u128);
        d.set("s_axi_rready", self.rready as u128);
        d.set("s_axi_bready", self.bready as u128);
        let (write, addr, wdata) = self.host.unwrap_or((rng.gen(), rng.gen(), rng.gen()));
        d.set("host_valid", self.host.is_some() as u128);
        d.set("host_write", write as u128);
        d.set("host_addr", addr as u128);
        d.set("host_wdata", wdata as u128);
    }

    /// Takes this clock's handshakes from the settled outputs.
    fn observe(&mut self, d: &mut impl Dut) {
        self.errs += d.is("err") as u64;
        if d.is("s_axi_rvalid") {
            if self.rready {
                self.r[d.get("s_axi_rresp") as usize] += 1;
            } else {
                self.r_held += 1;
            }
        }
        if d.is("s_axi_bvalid") {
            if self.bready {
                self.b[d.get("s_axi_bresp") as usize] += 1;
                self.b_wlast += self.wlast_bad.pop_front().unwrap_or(false) as u64;
            } else {
                self.b_held += 1;
            }
        }
        let host_taken = self.host.is_some() && d.is("host_ready");
        if host_taken && (self.ar.is_some() || self.aw.is_some()) {
            self.host_first += 1;
        }
        if d.is("host_rvalid") {
            self.host_reads += 1;
        }
        if host_taken {
            self.host_writes += self.host.take().unwrap().0 as u64;
        }
        if self.ar.is_some() && d.is("s_axi_arready") {
            self.ar = None;
        }
        if self.aw.is_some() && d.is("s_axi_awready") {
            self.aw = None;
        }
        if self.w_on && d.is("s_axi_wready") {
            self.w.pop_front();
            self.w_on = false;
        }
        if self.rst {
            // The reset abandons both sides' bursts: so does the master.
            self.resets += 1;
            self.ar = None;
            self.aw = None;
            self.w.clear();
            self.w_on = false;
            self.wlast_bad.clear();
            self.host = None;
        }
    }

    fn bins(&self) -> harness::Bins {
        vec![
            ("R beats OKAY", self.r[0], 200),
            ("R beats SLVERR", self.r[2], 10),
            ("R beats DECERR", self.r[3], 10),
            ("B OKAY", self.b[0], 20),
            ("B SLVERR", self.b[2], 5),
            ("B DECERR", self.b[3], 3),
            ("B of a misplaced wlast", self.b_wlast, 2),
            ("word-port reads", self.host_reads, 10),
            ("word-port writes", self.host_writes, 10),
            ("word port taken while an AR / AW waits", self.host_first, 5),
            ("R beats held by rready", self.r_held, 50),
            ("B held by bready", self.b_held, 10),
            ("err pulses", self.errs, 10),
            ("resets", self.resets, 2),
        ]
    }
}

/// The memory's Verilog against its rust-hdl model on the same random
/// traffic ([`MemTraffic`]): read and write bursts at once with random
/// ids, lengths, sizes, types and strobes, bursts off the memory's end and
/// beyond it, misplaced `wlast`, word-port reads and writes, resets, and
/// random backpressure. Every clock settles both simulators and compares
/// every output port of the block (the lockstep backend's `settle`) before
/// the edge.
#[test]
fn board_memory_verilog_matches_rust_hdl_in_lockstep() {
    let seed = harness::seed_for("board_memory_verilog_matches_rust_hdl_in_lockstep");
    let mut d: Locked<MemPorts> =
        Lockstep::of::<MemPorts>(BoardMemory::<6>::new(), "board_memory_ls");
    let mut t = MemTraffic::new(seed);
    let mut clock = 0;
    while !harness::done(clock, 5000, 50_000, || t.bins()) {
        t.drive(&mut d);
        d.settle();
        t.observe(&mut d);
        d.tick();
        clock += 1;
    }
    assert_eq!(d.clock(), clock, "every clock compared");
    println!("{clock} clocks in lockstep: {:?}", t.bins());
}

// ---------------------------------------------------------------------
// Synthesizability, constraints, the PLL.

#[test]
fn board_blocks_are_synthesizable() {
    assert_synthesizable(
        &verilog_of(UartBridge::new(DIV, MEM), "uart_bridge_chk"),
        "uart_bridge_chk",
    );
    assert_synthesizable(
        &verilog_of(BoardMemory::<12>::new(), "board_memory_chk"),
        "board_memory_chk",
    );
    assert_synthesizable(&verilog_of(UartRx::new(434), "uart_rx_chk"), "uart_rx_chk");
    assert_synthesizable(&verilog_of(UartTx::new(434), "uart_tx_chk"), "uart_tx_chk");
    // The Versa top as the bitstream flow builds it (the PLL a black box
    // for Yosys), and with the PLL model for Verilator.
    let top =
        harness::big_stack(|| sim::versa_verilog(odp_mmu::board::versa::UART_DIVISOR, "versa_chk"));
    harness::checks::yosys_check(&top, "versa_chk").unwrap_or_else(|e| panic!("{e}"));
    harness::checks::verilator_lint(&sim::with_pll_model(&top), "versa_chk")
        .unwrap_or_else(|e| panic!("{e}"));
}

const LPF: &str = "constraints/ecp5_versa5g.lpf";

#[test]
fn versa_lpf_is_generated_from_the_port_constraints() {
    let want = harness::big_stack(|| Versa::board().lpf());
    for line in [
        "LOCATE COMP \"clk100\" SITE \"P3\"",
        "IOBUF PORT \"clk100\" IO_TYPE=LVDS",
        "FREQUENCY PORT \"clk100\" 100 MHz",
        "LOCATE COMP \"uart_rx\" SITE \"C11\"",
        "LOCATE COMP \"uart_tx\" SITE \"A11\"",
        "LOCATE COMP \"rst_n\" SITE \"T1\"",
        "LOCATE COMP \"led[0]\" SITE \"E16\"",
        "LOCATE COMP \"led[7]\" SITE \"F16\"",
        "IOBUF PORT \"led[7]\" IO_TYPE=LVCMOS25",
    ] {
        assert!(
            want.contains(line),
            "the generated LPF lacks `{line}`:\n{want}"
        );
    }
    harness::assert_fresh(
        LPF,
        &want,
        "src/board/versa.rs",
        "ODP_BLESS=1 cargo test --release --test board",
    );
}

#[test]
fn versa_pll_dividers_are_those_ecppll_computes() {
    let c = VERSA_50MHZ;
    assert_eq!((c.out_mhz(), c.vco_mhz()), (50.0, 600.0));
    let dir = odp_mmu_workshop::tools::build_dir().join("ecppll");
    std::fs::create_dir_all(&dir).unwrap();
    let out = odp_mmu_workshop::tools::command("yowasp-ecppll")
        .unwrap_or_else(|e| panic!("{e}"))
        .current_dir(&dir)
        .args(["-i", "100", "-o", "50", "-f", "pll.v"])
        .output()
        .expect("cannot run yowasp-ecppll");
    assert!(
        out.status.success(),
        "ecppll failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = std::fs::read_to_string(dir.join("pll.v")).unwrap();
    for (param, value) in [
        ("CLKI_DIV", c.clki_div),
        ("CLKFB_DIV", c.clkfb_div),
        ("CLKOP_DIV", c.clkop_div),
        ("CLKOP_CPHASE", c.clkop_cphase),
    ] {
        assert!(
            v.contains(&format!(".{param}({value})")),
            "ecppll's {param} differs:\n{v}"
        );
    }
}

// ---------------------------------------------------------------------
// The Versa top through its UART pins.

#[test]
fn board_top_translates_faults_resumes_and_wakes_over_its_uart() {
    harness::big_stack(|| {
        let board = sim::sim_board(DIV);
        let mut log = Vec::new();
        let (r, mut d) = demo::run(Bridge::new(board), &mut |l| log.push(l))
            .unwrap_or_else(|e| panic!("the board scenario failed: {e}"));
        for l in &log {
            println!("{l}");
        }
        let page = |k: u64| (demo::DATA_FRAME + k) << 12;
        assert_eq!(r.caps.mrs, 8);
        // The hit: one OK beat, the page's frame plus the offset.
        assert_eq!(
            r.hit,
            vec![XRsp {
                tag: 1,
                status: status::byte::OK,
                pa: page(0) + 0x40,
                seg_len: 64,
                last: true,
                epoch: 0
            }]
        );
        // The fault: RNR, the RNR NAK exactly as the SPEC builds it (default
        // P_Key, RNR timer code 12), the event naming the page and the QP.
        assert_eq!(r.fault_rsp.len(), 1);
        assert_eq!(r.fault_rsp[0].status, status::byte::RNR);
        assert_eq!(r.nak.qpn, demo::REMOTE_QPN);
        let syndrome = (aeth::RNR_NAK | rnr_timer::RESET_CODE) as u8;
        assert_eq!(
            r.nak.hdr,
            nak_header(0xffff, demo::RQPN, demo::FAULT_PSN, syndrome, demo::MSN)
        );
        let h = r.nak.header();
        assert_eq!(
            (h.opcode, h.psn, h.rnr_timer()),
            (0x11, demo::FAULT_PSN, Some(12))
        );
        assert_eq!(r.fault.page_va, demo::MR_BASE_VA + 4096);
        assert_eq!(r.fault.qpn, demo::REMOTE_QPN);
        assert_eq!(r.fault.mr, 0);
        // The retransmission: OK on the newly mapped page.
        assert_eq!(r.retry.len(), 1);
        assert_eq!(
            (r.retry[0].status, r.retry[0].pa, r.retry[0].seg_len),
            (0, page(1) + 0x40, 128)
        );
        // The STALL, its event, the wake, the retry.
        assert_eq!(r.stall_rsp[0].status, status::byte::STALL);
        assert_eq!(r.stall_fault.page_va, demo::MR_BASE_VA + 2 * 4096);
        assert_eq!(r.wake, demo::LOCAL_QPN);
        assert_eq!(
            (r.stall_retry[0].status, r.stall_retry[0].pa),
            (0, page(2) + 0x40)
        );
        // Counters: two faults, one RNR NAK, one wake, no errors.
        let counter = |n: &str| {
            r.counters
                .iter()
                .find(|(c, _)| *c == n)
                .map(|c| c.1)
                .unwrap()
        };
        assert_eq!(counter("FAULTS"), 2);
        assert_eq!(counter("RNR_NAKS_FAULT"), 1);
        assert_eq!(counter("WAKES"), 1);
        assert_eq!(counter("ACCESS_ERRORS") + counter("FATALS"), 0);
        // The board: PLL locked, core out of reset, nothing waiting, no
        // error; a bad frame still answered, and nothing lost on the line.
        let leds = d.bus.link.pins.leds();
        assert_eq!(
            leds & 0xfe,
            0x80,
            "LEDs {leds:#04x}: only lock (and the heartbeat)"
        );
        let a = d.bus.exchange(0x42, 0, 1, &[0]).unwrap();
        assert_eq!(a.status, answer::BAD_CMD);
        assert!(matches!(d.bus.pop_nak(), Ok(None)));
        assert_eq!(d.bus.link.uart.frame_errors, 0);
        println!("{} clocks", d.bus.link.clock);
    });
}
