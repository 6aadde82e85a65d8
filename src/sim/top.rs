//! The Verilated `odp_mmu` (SPEC section 6 preset) against the host-memory
//! model, clock by clock, through its flat ports only.
//!
//! [`VerilatedTop::cycle`] runs one clock with a request offered on
//! `s_xreq`, `m_xrsp_ready` and the AXI4-Lite master's inputs given; the
//! AXI4 read master is served by [`HostMemory`] and the write channels are
//! held ready (nothing writes yet). [`VerilatedTop`] is a driver
//! [`Bus`]: every register access is an AXI4-Lite handshake of whole clocks
//! (address and data offered together, `bready` / `rready` high), the way
//! the system testbench drives it, so `Driver::register_mr` and friends run
//! on it unchanged; page tables are built straight into `mem`.

use crate::driver::Bus;
use crate::sim::host_memory::{Addr, HostMemory, MasterOut, MemConfig};
use crate::sim::page_table::WordMemory;
use crate::sim::translate_ref::Req;
use crate::sim::verilated::Verilated;
use crate::Params;

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

/// What the core did in one clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct Out {
    /// The offered request was taken.
    pub accepted: bool,
    /// The response beat taken (valid with `m_xrsp_ready` high).
    pub beat: Option<Beat>,
    pub awready: bool,
    pub wready: bool,
    /// `bresp` of a write response this clock.
    pub b: Option<u8>,
    pub arready: bool,
    /// `(rdata, rresp)` of a read response this clock.
    pub r: Option<(u32, u8)>,
}

/// The Verilated default `odp_mmu` with host memory behind its AXI4 master.
pub struct VerilatedTop {
    m: Verilated,
    p: Ports,
    /// Host memory: page tables live here.
    pub mem: HostMemory,
    /// Clocks run since construction (reset included).
    pub clock: u64,
    /// AXI4-Lite handshakes answered `rresp != 0` (reads never fail on a
    /// defined register).
    pub read_errors: u64,
}

impl VerilatedTop {
    /// Builds (or finds in `build/verilator`) and loads the Verilated
    /// default `odp_mmu`, then holds reset for two clocks. Memory answers
    /// after `mem` (page tables are placed by the driver). Panics with the
    /// install command when Verilator is missing.
    pub fn new(mem: MemConfig) -> Self {
        let v = crate::top::generate_verilog(&Params::default()).expect("default preset");
        let m = Verilated::new(&v, "odp_mmu");
        let p = Ports::of(&m);
        let mut mem = HostMemory::new(mem);
        mem.logging = false;
        let mut top = Self {
            m,
            p,
            mem,
            clock: 0,
            read_errors: 0,
        };
        top.m.set_idx(top.p.rst, 1);
        top.cycle(None, true, LiteIn::default());
        top.cycle(None, true, LiteIn::default());
        top.m.set_idx(top.p.rst, 0);
        top
    }

    /// One clock: drives the inputs, reads the settled outputs, then the
    /// rising edge (host memory moves on the same edge).
    pub fn cycle(&mut self, req: Option<(u8, &Req)>, rsp_ready: bool, lite: LiteIn) -> Out {
        let (m, p) = (&mut self.m, self.p);
        m.set_idx(p.s_xreq_valid, req.is_some() as u128);
        if let Some((tag, r)) = req {
            m.set_idx(p.s_xreq_tag, tag as u128);
            m.set_idx(p.s_xreq_op, r.op as u128);
            m.set_idx(p.s_xreq_qpn, r.qpn as u128);
            m.set_idx(p.s_xreq_pd, r.pd as u128);
            m.set_idx(p.s_xreq_key, r.key as u128);
            m.set_idx(p.s_xreq_va, r.va as u128);
            m.set_idx(p.s_xreq_len, r.len as u128);
        }
        m.set_idx(p.m_xrsp_ready, rsp_ready as u128);
        m.set_idx(p.m_nak_ready, 1);
        m.set_idx(p.m_wake_ready, 1);
        m.set_idx(p.s_axil_awvalid, lite.aw.is_some() as u128);
        m.set_idx(p.s_axil_awaddr, lite.aw.unwrap_or(0) as u128);
        m.set_idx(p.s_axil_wvalid, lite.w.is_some() as u128);
        m.set_idx(p.s_axil_wdata, lite.w.unwrap_or(0) as u128);
        m.set_idx(p.s_axil_wstrb, 0xf);
        m.set_idx(p.s_axil_bready, 1);
        m.set_idx(p.s_axil_arvalid, lite.ar.is_some() as u128);
        m.set_idx(p.s_axil_araddr, lite.ar.unwrap_or(0) as u128);
        m.set_idx(p.s_axil_rready, 1);
        let s = self.mem.outputs();
        m.set_idx(p.m_axi_arready, s.arready as u128);
        m.set_idx(p.m_axi_rvalid, s.r.is_some() as u128);
        m.set_idx(p.m_axi_rid, s.r.map_or(0, |b| b.id) as u128);
        m.set_idx(p.m_axi_rdata, s.r.map_or(0, |b| b.data) as u128);
        m.set_idx(p.m_axi_rresp, s.r.map_or(0, |b| b.resp) as u128);
        m.set_idx(p.m_axi_rlast, s.r.map_or(0, |b| b.last as u8) as u128);
        m.set_idx(p.m_axi_awready, 1);
        m.set_idx(p.m_axi_wready, 1);
        m.eval();
        let accepted = req.is_some() && m.get_idx(p.s_xreq_ready) == 1;
        let beat = (rsp_ready && m.get_idx(p.m_xrsp_valid) == 1).then(|| {
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
            beat,
            awready: m.get_idx(p.s_axil_awready) == 1,
            wready: m.get_idx(p.s_axil_wready) == 1,
            b: (m.get_idx(p.s_axil_bvalid) == 1).then(|| m.get_idx(p.s_axil_bresp) as u8),
            arready: m.get_idx(p.s_axil_arready) == 1,
            r: (m.get_idx(p.s_axil_rvalid) == 1).then(|| {
                (
                    m.get_idx(p.s_axil_rdata) as u32,
                    m.get_idx(p.s_axil_rresp) as u8,
                )
            }),
        };
        let ar = (m.get_idx(p.m_axi_arvalid) == 1).then(|| Addr {
            id: m.get_idx(p.m_axi_arid) as u8,
            addr: m.get_idx(p.m_axi_araddr) as u64,
            len: m.get_idx(p.m_axi_arlen) as u8,
            size: m.get_idx(p.m_axi_arsize) as u8,
            burst: m.get_idx(p.m_axi_arburst) as u8,
        });
        let mo = MasterOut {
            ar,
            rready: m.get_idx(p.m_axi_rready) == 1,
            aw: None,
            w: None,
            bready: true,
        };
        self.mem.edge(&mo);
        self.m.tick_idx(p.clk);
        self.clock += 1;
        out
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
    /// An AXI4-Lite write, address and data offered together (each taken
    /// when its ready is high), answered within 100 clocks.
    fn write32(&mut self, addr: u16, data: u32) -> Result<(), u8> {
        let (mut aw, mut w) = (true, true);
        for _ in 0..100 {
            let lite = LiteIn {
                aw: aw.then_some(addr),
                w: w.then_some(data),
                ar: None,
            };
            let o = self.cycle(None, true, lite);
            aw &= !o.awready;
            w &= !o.wready;
            if let Some(resp) = o.b {
                return if resp == 0 { Ok(()) } else { Err(resp) };
            }
        }
        panic!("AXI4-Lite write to {addr:#x} not answered");
    }

    fn read32(&mut self, addr: u16) -> u32 {
        let mut ar = true;
        for _ in 0..100 {
            let lite = LiteIn {
                ar: ar.then_some(addr),
                ..Default::default()
            };
            let o = self.cycle(None, true, lite);
            ar &= !o.arready;
            if let Some((data, resp)) = o.r {
                self.read_errors += (resp != 0) as u64;
                return data;
            }
        }
        panic!("AXI4-Lite read of {addr:#x} not answered");
    }
}
