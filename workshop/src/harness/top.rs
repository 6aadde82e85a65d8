//! The Verilated `odp_mmu` (either preset) against the host-memory model,
//! clock by clock, through its flat ports only: the one harness of the whole
//! core, shared by the bench command and the system testbench.
//!
//! [`VerilatedTop::cycle`] runs one clock with the given [`Inputs`]: a
//! request offered on `s_xreq` (with its RC context), `m_xrsp_ready`, an
//! `s_done` pulse and the AXI4-Lite master's outputs. The AXI4 read master is
//! served by [`HostMemory`] and checked by [`AxiMonitor`], read and write
//! channels (the event-ring writer's records land in `mem`). `m_wake` is
//! ready unless [`Inputs::wake_stall`]; every wake taken is queued in
//! [`VerilatedTop::wakes`], also in the clocks a driver call runs, and `irq`
//! is kept in [`VerilatedTop::irq`]. `m_nak` is ready unless
//! [`Inputs::nak_stall`]; every NAK taken is queued in
//! [`VerilatedTop::naks`], and the stream rules are checked on it every
//! clock (a NAK on offer stays, unchanged, until taken).
//!
//! [`write32`] and [`read32`] are the AXI4-Lite master of every simulated
//! driver bus: whole-clock handshakes (address and data offered together,
//! each until taken, `bready` / `rready` high) over any [`LiteCycle`], with
//! the slave's response checked to come only after its request was taken.
//! [`VerilatedTop`] is a driver [`Bus`] through them, so
//! `Driver::register_mr` and friends run on it unchanged; page tables are
//! built straight into `mem`.

use crate::driver::Bus;
use crate::harness::verilated::Verilated;
use crate::models::host_memory::{
    Addr, AxiMonitor, HostMemory, MasterOut, MemConfig, SlaveOut, WBeat,
};
use crate::models::page_table::WordMemory;
use crate::models::translate_ref::Req;
use odp_mmu::{DefaultOdpMmu, Params, Preset, SmallOdpMmu};

macro_rules! ports {
    ($($name:ident),* $(,)?) => {
        /// Indices of the ports the bench drives or reads.
        #[derive(Clone, Copy)]
        struct Ports {
            $($name: usize,)*
        }
        impl Ports {
            fn of(m: &Verilated) -> Self {
                Self { $($name: m.port(stringify!($name)),)* }
            }
        }
    };
}

ports!(
    clk,
    rst,
    s_xreq_valid,
    s_xreq_ready,
    s_xreq_tag,
    s_xreq_op,
    s_xreq_qpn,
    s_xreq_pd,
    s_xreq_key,
    s_xreq_va,
    s_xreq_len,
    s_xreq_rqpn,
    s_xreq_psn,
    s_xreq_msn,
    s_xreq_msg_len,
    s_done_valid,
    s_done_epoch,
    m_xrsp_epoch,
    m_nak_valid,
    m_nak_qpn,
    m_nak_hdr,
    m_wake_valid,
    m_wake_qpn,
    irq,
    m_axi_awvalid,
    m_axi_awid,
    m_axi_awaddr,
    m_axi_awlen,
    m_axi_awsize,
    m_axi_awburst,
    m_axi_wvalid,
    m_axi_wdata,
    m_axi_wstrb,
    m_axi_wlast,
    m_axi_bvalid,
    m_axi_bready,
    m_axi_bid,
    m_axi_bresp,
    m_xrsp_valid,
    m_xrsp_ready,
    m_xrsp_tag,
    m_xrsp_status,
    m_xrsp_pa,
    m_xrsp_seg_len,
    m_xrsp_last,
    m_nak_ready,
    m_wake_ready,
    m_axi_arvalid,
    m_axi_arready,
    m_axi_arid,
    m_axi_araddr,
    m_axi_arlen,
    m_axi_arsize,
    m_axi_arburst,
    m_axi_rvalid,
    m_axi_rready,
    m_axi_rid,
    m_axi_rdata,
    m_axi_rresp,
    m_axi_rlast,
    m_axi_awready,
    m_axi_wready,
    s_axil_awvalid,
    s_axil_awready,
    s_axil_awaddr,
    s_axil_wvalid,
    s_axil_wready,
    s_axil_wdata,
    s_axil_wstrb,
    s_axil_bvalid,
    s_axil_bready,
    s_axil_bresp,
    s_axil_arvalid,
    s_axil_arready,
    s_axil_araddr,
    s_axil_rvalid,
    s_axil_rready,
    s_axil_rdata,
    s_axil_rresp,
);

/// A response beat: tag, status, pa, seg_len, last.
pub type Beat = (u8, u8, u64, u64, bool);

/// AXI4-Lite master outputs of one clock (each offered while `Some`).
#[derive(Clone, Copy, Debug, Default)]
pub struct LiteIn {
    pub aw: Option<u16>,
    pub w: Option<u32>,
    pub ar: Option<u16>,
}

/// The AXI4-Lite slave's outputs of one clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct LiteOut {
    /// `awready` while an address was offered (the address is taken).
    pub awready: bool,
    /// `wready` while data was offered (the data is taken).
    pub wready: bool,
    /// `bresp` of a write response this clock.
    pub b: Option<u8>,
    /// `arready` while an address was offered.
    pub arready: bool,
    /// `(rdata, rresp)` of a read response this clock.
    pub r: Option<(u32, u8)>,
}

/// A translation request with its RC context (SPEC section 2 `s_xreq_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct XReq {
    pub tag: u8,
    pub req: Req,
    pub rqpn: u32,
    pub psn: u32,
    pub msn: u32,
    pub msg_len: u32,
}

/// The bench's side of one clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs {
    /// The request offered on `s_xreq`.
    pub req: Option<XReq>,
    pub rsp_ready: bool,
    /// An `s_done` pulse with its epoch.
    pub done: Option<u8>,
    pub lite: LiteIn,
    /// `m_wake_ready` low this clock (it is high otherwise).
    pub wake_stall: bool,
    /// `m_nak_ready` low this clock (it is high otherwise).
    pub nak_stall: bool,
}

/// What the core did in one clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct Out {
    /// The offered request was taken.
    pub accepted: bool,
    /// The response beat on offer (`m_xrsp_valid`), taken or not.
    pub offered: Option<Beat>,
    /// The response beat taken (valid with `m_xrsp_ready` high).
    pub beat: Option<Beat>,
    /// `m_xrsp_epoch` of the beat on offer.
    pub epoch: u8,
    pub lite: LiteOut,
}

/// One clock of an AXI4-Lite master's view of a simulated core: the driver
/// buses of the testbenches implement it and get their register accesses
/// from [`write32`] and [`read32`].
pub trait LiteCycle {
    /// One clock with `lite` offered; the slave's outputs of that clock.
    fn lite_cycle(&mut self, lite: LiteIn) -> LiteOut;
}

/// An AXI4-Lite write: address and data offered together, each until taken;
/// `Err(bresp)` for SLVERR. Panics if the response comes before both were
/// taken or not within 100 clocks.
pub fn write32<T: LiteCycle + ?Sized>(t: &mut T, addr: u16, data: u32) -> Result<(), u8> {
    let (mut aw, mut w) = (true, true);
    for _ in 0..100 {
        let lite = LiteIn {
            aw: aw.then_some(addr),
            w: w.then_some(data),
            ar: None,
        };
        let o = t.lite_cycle(lite);
        if let Some(resp) = o.b {
            assert!(
                !aw && !w,
                "AXI4-Lite: BVALID before both AW and W of the write to {addr:#x} were taken"
            );
            return if resp == 0 { Ok(()) } else { Err(resp) };
        }
        aw &= !o.awready;
        w &= !o.wready;
    }
    panic!("AXI4-Lite write to {addr:#x} not answered");
}

/// An AXI4-Lite read. Panics on an error response (undefined registers read
/// zero with OKAY), on a response before the address was taken, or on none
/// within 100 clocks.
pub fn read32<T: LiteCycle + ?Sized>(t: &mut T, addr: u16) -> u32 {
    let mut ar = true;
    for _ in 0..100 {
        let lite = LiteIn {
            ar: ar.then_some(addr),
            ..Default::default()
        };
        let o = t.lite_cycle(lite);
        if let Some((data, resp)) = o.r {
            assert!(!ar, "AXI4-Lite: RVALID before AR of {addr:#x} was taken");
            assert_eq!(resp, 0, "AXI4-Lite read of {addr:#x} answered RRESP {resp}");
            return data;
        }
        ar &= !o.arready;
    }
    panic!("AXI4-Lite read of {addr:#x} not answered");
}

/// The Verilated `odp_mmu` with host memory behind its AXI4 master.
pub struct VerilatedTop {
    m: Verilated,
    p: Ports,
    /// Host memory: page tables live here.
    pub mem: HostMemory,
    /// The AXI4 protocol monitor on the master port.
    pub mon: AxiMonitor,
    /// Clocks run since construction (reset included).
    pub clock: u64,
    /// Read addresses taken on the AXI4 master (page-table reads).
    pub walk_reads: u64,
    /// Wakes taken on `m_wake`, `(clock, qpn)`, oldest first; the bench
    /// takes them out.
    pub wakes: std::collections::VecDeque<(u64, u32)>,
    /// `irq` in the last clock run.
    pub irq: bool,
    /// Write bursts taken on the AXI4 master (event records).
    pub event_writes: u64,
    /// The clock of the last read-data beat taken on the AXI4 master (a
    /// page-table word reached the walker).
    pub last_read_data: u64,
    /// The clock of the last write-data beat with `wlast` taken (an event
    /// record's last word is in host memory).
    pub last_write_data: u64,
    /// The clock of the last AXI4-Lite write address taken (a driver
    /// command's doorbell is the last write of its call).
    pub last_lite_write: u64,
    /// NAKs taken on `m_nak`, `(clock, local qpn, hdr)`, oldest first; the
    /// bench takes them out.
    pub naks: std::collections::VecDeque<(u64, u32, u128)>,
    /// The NAK on offer and not taken in the last clock.
    nak_held: Option<(u32, u128)>,
    /// Keep the answers taken in the clocks of a driver call (the
    /// AXI4-Lite cycles drain `m_xrsp`) in [`VerilatedTop::lite_beats`],
    /// for a bench that must see every answer.
    pub keep_lite_beats: bool,
    /// Answers taken in driver calls, `(clock, beat)`, oldest first.
    pub lite_beats: std::collections::VecDeque<(u64, Beat)>,
    /// `m_xrsp_ready` in the clocks of a driver call (true by default).
    pub lite_rsp_ready: bool,
}

impl VerilatedTop {
    /// Builds (or finds in `build/verilator`) and loads the Verilated
    /// `odp_mmu` of `params` (a preset: see `top::generate_verilog`), then
    /// holds reset for two clocks. Memory answers after `mem`. Panics with
    /// the install command when Verilator is missing.
    pub fn new(params: &Params, mem: MemConfig) -> Self {
        params.validate().expect("valid parameters");
        // One module name per preset: both can live in one process.
        let m = match Preset::of(params).expect("a preset") {
            Preset::Default => Verilated::of_block(&mut DefaultOdpMmu::new(params), "odp_mmu"),
            Preset::Small => Verilated::of_block(&mut SmallOdpMmu::new(params), "odp_mmu_small"),
        };
        let p = Ports::of(&m);
        let mut mem = HostMemory::new(mem);
        mem.logging = false;
        let mut top = Self {
            m,
            p,
            mem,
            mon: AxiMonitor::new(),
            clock: 0,
            walk_reads: 0,
            wakes: Default::default(),
            irq: false,
            event_writes: 0,
            last_read_data: 0,
            last_write_data: 0,
            last_lite_write: 0,
            naks: Default::default(),
            nak_held: None,
            keep_lite_beats: false,
            lite_beats: Default::default(),
            lite_rsp_ready: true,
        };
        top.m.set_idx(top.p.rst, 1);
        top.cycle(&Inputs::default());
        top.cycle(&Inputs::default());
        top.m.set_idx(top.p.rst, 0);
        top
    }

    /// One clock: drives the inputs, reads the settled outputs, then the
    /// rising edge (host memory moves on the same edge).
    pub fn cycle(&mut self, inp: &Inputs) -> Out {
        let (m, p) = (&mut self.m, self.p);
        let x = inp.req.unwrap_or_default();
        let r = x.req;
        m.set_idx(p.s_xreq_valid, inp.req.is_some() as u128);
        m.set_idx(p.s_xreq_tag, x.tag as u128);
        m.set_idx(p.s_xreq_op, r.op as u128);
        m.set_idx(p.s_xreq_qpn, r.qpn as u128);
        m.set_idx(p.s_xreq_pd, r.pd as u128);
        m.set_idx(p.s_xreq_key, r.key as u128);
        m.set_idx(p.s_xreq_va, r.va as u128);
        m.set_idx(p.s_xreq_len, r.len as u128);
        m.set_idx(p.s_xreq_rqpn, x.rqpn as u128);
        m.set_idx(p.s_xreq_psn, x.psn as u128);
        m.set_idx(p.s_xreq_msn, x.msn as u128);
        m.set_idx(p.s_xreq_msg_len, x.msg_len as u128);
        m.set_idx(p.m_xrsp_ready, inp.rsp_ready as u128);
        m.set_idx(p.s_done_valid, inp.done.is_some() as u128);
        m.set_idx(p.s_done_epoch, inp.done.unwrap_or(0) as u128);
        m.set_idx(p.m_nak_ready, !inp.nak_stall as u128);
        m.set_idx(p.m_wake_ready, !inp.wake_stall as u128);
        let lite = inp.lite;
        m.set_idx(p.s_axil_awvalid, lite.aw.is_some() as u128);
        m.set_idx(p.s_axil_awaddr, lite.aw.unwrap_or(0) as u128);
        m.set_idx(p.s_axil_wvalid, lite.w.is_some() as u128);
        m.set_idx(p.s_axil_wdata, lite.w.unwrap_or(0) as u128);
        m.set_idx(p.s_axil_wstrb, 0xf);
        m.set_idx(p.s_axil_bready, 1);
        m.set_idx(p.s_axil_arvalid, lite.ar.is_some() as u128);
        m.set_idx(p.s_axil_araddr, lite.ar.unwrap_or(0) as u128);
        m.set_idx(p.s_axil_rready, 1);
        let s: SlaveOut = self.mem.outputs();
        m.set_idx(p.m_axi_arready, s.arready as u128);
        m.set_idx(p.m_axi_rvalid, s.r.is_some() as u128);
        m.set_idx(p.m_axi_rid, s.r.map_or(0, |b| b.id) as u128);
        m.set_idx(p.m_axi_rdata, s.r.map_or(0, |b| b.data) as u128);
        m.set_idx(p.m_axi_rresp, s.r.map_or(0, |b| b.resp) as u128);
        m.set_idx(p.m_axi_rlast, s.r.map_or(0, |b| b.last as u8) as u128);
        m.set_idx(p.m_axi_awready, s.awready as u128);
        m.set_idx(p.m_axi_wready, s.wready as u128);
        m.set_idx(p.m_axi_bvalid, s.b.is_some() as u128);
        m.set_idx(p.m_axi_bid, s.b.map_or(0, |b| b.id) as u128);
        m.set_idx(p.m_axi_bresp, s.b.map_or(0, |b| b.resp) as u128);
        m.eval();
        let clock = self.clock;
        let nak = (m.get_idx(p.m_nak_valid) == 1)
            .then(|| (m.get_idx(p.m_nak_qpn) as u32, m.get_idx(p.m_nak_hdr)));
        if let Some(held) = self.nak_held {
            assert_eq!(
                nak,
                Some(held),
                "clock {clock}: a NAK on offer left or changed before it was taken"
            );
        }
        self.nak_held = None;
        if let Some((qpn, hdr)) = nak {
            if inp.nak_stall {
                self.nak_held = Some((qpn, hdr));
            } else {
                self.naks.push_back((clock, qpn, hdr));
            }
        }
        if m.get_idx(p.m_wake_valid) == 1 && !inp.wake_stall {
            self.wakes
                .push_back((clock, m.get_idx(p.m_wake_qpn) as u32));
        }
        self.irq = m.get_idx(p.irq) == 1;
        let accepted = inp.req.is_some() && m.get_idx(p.s_xreq_ready) == 1;
        let offered = (m.get_idx(p.m_xrsp_valid) == 1).then(|| {
            (
                m.get_idx(p.m_xrsp_tag) as u8,
                m.get_idx(p.m_xrsp_status) as u8,
                m.get_idx(p.m_xrsp_pa) as u64,
                m.get_idx(p.m_xrsp_seg_len) as u64,
                m.get_idx(p.m_xrsp_last) == 1,
            )
        });
        let out = Out {
            accepted,
            offered,
            beat: offered.filter(|_| inp.rsp_ready),
            epoch: m.get_idx(p.m_xrsp_epoch) as u8,
            lite: LiteOut {
                awready: lite.aw.is_some() && m.get_idx(p.s_axil_awready) == 1,
                wready: lite.w.is_some() && m.get_idx(p.s_axil_wready) == 1,
                b: (m.get_idx(p.s_axil_bvalid) == 1).then(|| m.get_idx(p.s_axil_bresp) as u8),
                arready: lite.ar.is_some() && m.get_idx(p.s_axil_arready) == 1,
                r: (m.get_idx(p.s_axil_rvalid) == 1).then(|| {
                    (
                        m.get_idx(p.s_axil_rdata) as u32,
                        m.get_idx(p.s_axil_rresp) as u8,
                    )
                }),
            },
        };
        let ar = (m.get_idx(p.m_axi_arvalid) == 1).then(|| Addr {
            id: m.get_idx(p.m_axi_arid) as u8,
            addr: m.get_idx(p.m_axi_araddr) as u64,
            len: m.get_idx(p.m_axi_arlen) as u8,
            size: m.get_idx(p.m_axi_arsize) as u8,
            burst: m.get_idx(p.m_axi_arburst) as u8,
        });
        let aw = (m.get_idx(p.m_axi_awvalid) == 1).then(|| Addr {
            id: m.get_idx(p.m_axi_awid) as u8,
            addr: m.get_idx(p.m_axi_awaddr) as u64,
            len: m.get_idx(p.m_axi_awlen) as u8,
            size: m.get_idx(p.m_axi_awsize) as u8,
            burst: m.get_idx(p.m_axi_awburst) as u8,
        });
        let w = (m.get_idx(p.m_axi_wvalid) == 1).then(|| WBeat {
            data: m.get_idx(p.m_axi_wdata) as u64,
            strb: m.get_idx(p.m_axi_wstrb) as u8,
            last: m.get_idx(p.m_axi_wlast) == 1,
        });
        let mo = MasterOut {
            ar,
            rready: m.get_idx(p.m_axi_rready) == 1,
            aw,
            w,
            bready: m.get_idx(p.m_axi_bready) == 1,
        };
        self.walk_reads += (ar.is_some() && s.arready) as u64;
        self.event_writes += (aw.is_some() && s.awready) as u64;
        if s.r.is_some() && mo.rready {
            self.last_read_data = self.clock;
        }
        if mo.w.is_some_and(|w| w.last) && s.wready {
            self.last_write_data = self.clock;
        }
        if out.lite.awready {
            self.last_lite_write = self.clock;
        }
        self.mon.check(&mo, &s);
        self.mem.edge(&mo);
        self.m.tick_idx(p.clk);
        self.clock += 1;
        out
    }
}

impl LiteCycle for VerilatedTop {
    fn lite_cycle(&mut self, lite: LiteIn) -> LiteOut {
        let clock = self.clock;
        let o = self.cycle(&Inputs {
            rsp_ready: self.lite_rsp_ready,
            lite,
            ..Default::default()
        });
        if let (true, Some(b)) = (self.keep_lite_beats, o.beat) {
            self.lite_beats.push_back((clock, b));
        }
        o.lite
    }
}

impl WordMemory for VerilatedTop {
    fn load64(&mut self, addr: u64) -> u64 {
        self.mem.read64(addr)
    }
    fn store64(&mut self, addr: u64, value: u64) {
        self.mem.write64(addr, value)
    }
}

impl Bus for VerilatedTop {
    fn write32(&mut self, addr: u16, data: u32) -> Result<(), u8> {
        write32(self, addr, data)
    }
    fn read32(&mut self, addr: u16) -> u32 {
        read32(self, addr)
    }
}

/// Drives the `s_xreq` bundle of a rust-hdl model: `offer` is the tag and
/// request to present (valid high), or `None` for an idle clock (valid low,
/// the other fields left as they were). The RC context (`rqpn`, `psn`,
/// `msn`, `msg_len`) is not part of [`Req`] and is left to the caller.
pub fn drive_xreq(port: &mut odp_mmu::common::interfaces::XReqIn, offer: Option<(u8, &Req)>) {
    port.valid.next = offer.is_some();
    if let Some((tag, r)) = offer {
        port.tag.next = (tag as u64).into();
        port.op.next = (r.op as u64).into();
        port.qpn.next = (r.qpn as u64).into();
        port.pd.next = (r.pd as u64).into();
        port.key.next = (r.key as u64).into();
        port.va.next = r.va.into();
        port.len.next = (r.len as u64).into();
    }
}
