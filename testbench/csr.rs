//! The register map and the CSR block generated from it.
//!
//! - Freshness: every generated file (`docs/registers.md`,
//!   `include/odp_mmu_regs.h`, `include/odp_mmu.rdl`,
//!   `src/control/csr_regs.rs`) equals what the generator writes today;
//!   `ODP_BLESS=1 cargo test --release --test csr` refreshes them. The
//!   SystemRDL file is compiled and elaborated by `systemrdl-compiler`.
//! - The block: synthesizability, directed tests of every access kind, the
//!   channel orders, SLVERR cases, the counter latch, the doorbell rule;
//!   seeded random runs against a plain-Rust model of the register file
//!   interpreted from `regmap::REGS` (every output compared every clock),
//!   with AXI4-Lite handshake monitors, on the Verilated Verilog and in
//!   lockstep with the rust-hdl model.

use odp_mmu_workshop::harness;

use std::collections::{HashMap, VecDeque};
use std::sync::OnceLock;

use harness::dut::{Dut, Locked, PortMap};
use harness::lockstep::Lockstep;
use harness::monitor::StreamMonitor;
use harness::verilated::Verilated;
use odp_mmu::control::regmap::{self, Access, CounterKind, Hw, Reg, COUNTERS, REGS};
use odp_mmu::control::{generate_verilog, CsrCaps, CsrRegs};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

// ------------------------------------------------------------ generated files

const BLESS: &str = "ODP_BLESS=1 cargo test --release --test csr";

/// Fails when the checked-in `path` differs from `want`, naming the first
/// differing line and the refresh command; rewrites it under `ODP_BLESS=1`.
fn check_fresh(path: &str, want: &str) {
    harness::assert_fresh(path, want, "src/control/regmap.rs", BLESS);
}

#[test]
fn registers_md_is_generated_from_the_map() {
    check_fresh("docs/registers.md", &regmap::registers_md());
}

#[test]
fn c_header_is_generated_from_the_map() {
    check_fresh("include/odp_mmu_regs.h", &regmap::c_header());
}

#[test]
fn systemrdl_is_generated_from_the_map() {
    check_fresh("include/odp_mmu.rdl", &regmap::systemrdl());
}

#[test]
fn csr_block_source_is_generated_from_the_map() {
    check_fresh("src/control/csr_regs.rs", &regmap::csr_block_source());
}

#[test]
fn systemrdl_compiles_and_elaborates_with_systemrdl_compiler() {
    let python = odp_mmu_workshop::tools::tool("python3").unwrap_or_else(|e| panic!("{e}"));
    let out = std::process::Command::new(python)
        .current_dir(odp_mmu_workshop::tools::project_root())
        .args([
            "-c",
            "from systemrdl import RDLCompiler; c=RDLCompiler(); c.compile_file('include/odp_mmu.rdl'); c.elaborate()",
        ])
        .output()
        .expect("cannot run python3");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("No module named 'systemrdl'"),
        "systemrdl-compiler is not installed: run `{}` from the project root",
        odp_mmu_workshop::tools::INSTALL_COMMAND
    );
    assert!(
        out.status.success() && !stderr.contains("warning"),
        "systemrdl-compiler rejected include/odp_mmu.rdl:\n{stderr}"
    );
}

#[test]
fn c_header_names_every_register_op_and_counter() {
    let h = regmap::c_header();
    for r in REGS {
        assert!(
            h.contains(&format!("#define ODP_MMU_{} 0x{:04X}u", r.name, r.offset)),
            "{}",
            r.name
        );
    }
    for o in regmap::OPS {
        assert!(h.contains(&format!("#define ODP_MMU_OP_{} 0x{:02X}u", o.name, o.code)));
    }
    assert!(h.contains("#define ODP_MMU_MR_WRITE_ARG1_STATE_SHIFT 16u"));
    assert!(h.contains("#define ODP_MMU_CMD_STATUS_RESULT_MASK 0x00FF0000u"));
}

// ------------------------------------------------------------ ports

fn caps() -> CsrCaps {
    CsrCaps::from_params(&odp_mmu::Params::default())
}

/// Position of port `name` in `CsrRegs::PORTS`.
fn ix(name: &str) -> usize {
    static IDX: OnceLock<HashMap<&'static str, usize>> = OnceLock::new();
    *IDX.get_or_init(|| {
        CsrRegs::PORTS
            .iter()
            .enumerate()
            .map(|(i, p)| (p.0, i))
            .collect()
    })
    .get(name)
    .unwrap_or_else(|| panic!("the CSR block has no port {name}"))
}

fn width_mask(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

fn verilog() -> String {
    generate_verilog(&caps(), "csr_regs")
}

/// The CSR block's ports by name, through the accessors generated with it
/// (`CsrRegs::PORTS`, `set_input`, `output`), so that the list follows the
/// register map instead of being copied here.
struct CsrPorts;

impl PortMap for CsrPorts {
    type Block = CsrRegs;
    fn set_port(uut: &mut CsrRegs, port: &str, value: u128) {
        assert!(
            uut.set_input(port, value as u64),
            "the CSR block has no input {port}"
        );
    }
    /// Outputs only: the bench keeps the inputs it drives.
    fn get_port(uut: &CsrRegs, port: &str) -> u128 {
        uut.output(port)
            .unwrap_or_else(|| panic!("the CSR block has no output {port}")) as u128
    }
    fn set_clock(uut: &mut CsrRegs, level: bool) {
        uut.clk.next = level.into();
    }
    fn port_names(_: &CsrRegs) -> Vec<(String, bool)> {
        CsrRegs::PORTS
            .iter()
            .map(|p| (p.0.to_string(), p.2))
            .collect()
    }
}

fn verilated_dut() -> Verilated {
    Verilated::of_block(&mut CsrRegs::new(&caps()), "csr_regs")
}

fn lockstep_dut() -> Locked<CsrPorts> {
    Lockstep::of::<CsrPorts>(CsrRegs::new(&caps()), "csr_regs")
}

/// One clock of the device: inputs taken from `vals`, outputs (sampled
/// before the rising edge) written back into `vals`, then the edge.
fn clock(d: &mut dyn Dut, vals: &mut [u64]) {
    for (i, p) in CsrRegs::PORTS.iter().enumerate() {
        if p.2 {
            d.set(p.0, vals[i] as u128);
        }
    }
    d.settle();
    for (i, p) in CsrRegs::PORTS.iter().enumerate() {
        if !p.2 {
            vals[i] = d.get(p.0) as u64;
        }
    }
    d.tick();
}

// ------------------------------------------------------------ reference model

const WORDS: usize = 1 << 14;
const NO_SHADOW: u32 = 31;

fn stored(r: &Reg) -> bool {
    matches!(r.access, Access::Rw | Access::Wo | Access::Rw1c)
        || r.fields.iter().any(|f| matches!(f.hw, Hw::Capture { .. }))
        || r.name == "CMD_STATUS"
}

fn busy_field(r: &Reg, f: &regmap::Field) -> bool {
    matches!(
        (r.name, f.name),
        ("STATUS", "CMD_BUSY") | ("CMD_STATUS", "BUSY")
    )
}

/// The register file as the register map describes it, clock by clock,
/// interpreted from `REGS` (independent of the generated block).
struct Model {
    caps: CsrCaps,
    reg_at: Vec<Option<&'static Reg>>,
    word: Vec<u32>,
    aw: Option<usize>,
    w: Option<(u32, u32)>,
    b_valid: bool,
    b_resp: u64,
    ar: Option<usize>,
    r_valid: bool,
    r_data: u32,
    /// Stage 1 of the read mux: the value sampled, shown next clock.
    s1: Option<u32>,
    pending: bool,
    cmd_op: u8,
    cmd_tag: u8,
    cmd_args: [u32; regmap::CMD_ARGS],
    ctr: Vec<u64>,
    ctr_inc: Vec<bool>,
    ctr_val: Vec<u32>,
    ctr_vld: Vec<bool>,
    shadow_hi: u32,
    shadow_sel: u32,
    /// Break the model on purpose (tests of the tests): HI reads ignore the latch.
    no_latch: bool,
}

/// What a clock of the model did (for coverage).
#[derive(Default)]
struct Events {
    write: Option<(usize, bool)>,
    read: Option<usize>,
    accepted: bool,
    rejected: bool,
    cleared: bool,
    latched_hi: bool,
}

impl Model {
    fn new() -> Self {
        let mut reg_at = vec![None; WORDS];
        for r in REGS {
            reg_at[r.word()] = Some(r);
        }
        let n = COUNTERS.len();
        Self {
            caps: caps(),
            reg_at,
            word: vec![0; WORDS],
            aw: None,
            w: None,
            b_valid: false,
            b_resp: 0,
            ar: None,
            r_valid: false,
            r_data: 0,
            s1: None,
            pending: false,
            cmd_op: 0,
            cmd_tag: 0,
            cmd_args: [0; regmap::CMD_ARGS],
            ctr: vec![0; n],
            ctr_inc: vec![false; n],
            ctr_val: vec![0; n],
            ctr_vld: vec![false; n],
            shadow_hi: 0,
            shadow_sel: 0,
            no_latch: false,
        }
    }

    fn param(&self, r: &Reg) -> u32 {
        match r.name {
            "CAP_MRS" => self.caps.cap_mrs,
            "CAP_QPS" => self.caps.cap_qps,
            "CAP_TLB" => self.caps.cap_tlb,
            "CAP_QUEUES" => self.caps.cap_queues,
            other => panic!("no parameter register {other}"),
        }
    }

    /// Read value of word `w` before the edge (`vals`: this clock's inputs).
    fn read(&self, w: usize, vals: &[u64]) -> u32 {
        let Some(r) = self.reg_at[w] else { return 0 };
        if let Some(h) = r.counter {
            let c = self.ctr[h.index];
            return if !h.hi {
                c as u32
            } else if self.shadow_sel == h.index as u32 && !self.no_latch {
                self.shadow_hi
            } else {
                (c >> 32) as u32
            };
        }
        if matches!(r.access, Access::Wo | Access::Command) {
            return 0;
        }
        let mut v = if stored(r) { self.word[w] } else { 0 };
        for f in r.fields {
            v |= match f.hw {
                Hw::Const => f.reset << f.lsb,
                Hw::Param => self.param(r) & f.mask(),
                Hw::Input(p) => ((vals[ix(p)] as u32) & (f.mask() >> f.lsb)) << f.lsb,
                Hw::Internal if busy_field(r, f) => (self.pending as u32) << f.lsb,
                _ => 0,
            };
        }
        v
    }

    fn reset(&mut self) {
        let no_latch = self.no_latch;
        *self = Self::new();
        self.no_latch = no_latch;
        for r in REGS.iter().filter(|r| r.counter.is_none()) {
            if stored(r) {
                self.word[r.word()] = r.reset();
            }
        }
        self.shadow_sel = NO_SHADOW;
    }

    /// Outputs of the current state into `vals`.
    fn outputs(&self, vals: &mut [u64]) {
        vals[ix("s_axil_awready")] = self.aw.is_none() as u64;
        vals[ix("s_axil_wready")] = self.w.is_none() as u64;
        vals[ix("s_axil_bvalid")] = self.b_valid as u64;
        vals[ix("s_axil_bresp")] = self.b_resp;
        vals[ix("s_axil_arready")] = self.ar.is_none() as u64;
        vals[ix("s_axil_rvalid")] = self.r_valid as u64;
        vals[ix("s_axil_rdata")] = self.r_data as u64;
        vals[ix("s_axil_rresp")] = 0;
        vals[ix("cmd_valid")] = self.pending as u64;
        vals[ix("cmd_op")] = self.cmd_op as u64;
        vals[ix("cmd_tag")] = self.cmd_tag as u64;
        for k in 0..regmap::CMD_ARGS {
            vals[ix(&format!("cmd_arg{k}"))] = self.cmd_args[k] as u64;
        }
        for r in REGS {
            for f in r.fields {
                if let Hw::Out(p) = f.hw {
                    vals[ix(p)] = ((self.word[r.word()] & f.mask()) >> f.lsb) as u64;
                }
            }
        }
    }

    /// The rising edge with this clock's inputs.
    fn step(&mut self, vals: &[u64]) -> Events {
        let mut ev = Events::default();
        let inp = |name: &str| vals[ix(name)];
        if inp("rst") & 1 == 1 {
            self.reset();
            return ev;
        }
        // Read channel: the mux samples the register file the clock after
        // the address is taken (stage 1), the data shows a clock later.
        let b_go = self.s1.is_some();
        let rd_go = self.ar.is_some() && !b_go && !self.r_valid;
        let mut new_shadow = None;
        if b_go {
            self.r_data = self.s1.take().unwrap();
        }
        if rd_go {
            let w = self.ar.unwrap();
            ev.read = Some(w);
            self.s1 = Some(self.read(w, vals));
            if let Some(h) = self.reg_at[w].and_then(|r| r.counter) {
                if !h.hi {
                    new_shadow = Some(((self.ctr[h.index] >> 32) as u32, h.index as u32));
                } else if self.shadow_sel == h.index as u32 {
                    ev.latched_hi = true;
                }
            }
        }
        let r_valid = b_go || (self.r_valid && inp("s_axil_rready") == 0);
        if rd_go {
            self.ar = None;
        } else if self.ar.is_none() && inp("s_axil_arvalid") == 1 {
            self.ar = Some((inp("s_axil_araddr") >> 2) as usize);
        }
        self.r_valid = r_valid;
        if let Some((hi, sel)) = new_shadow {
            self.shadow_hi = hi;
            self.shadow_sel = sel;
        }

        // Write channel.
        let wr_go = self.aw.is_some() && self.w.is_some() && !self.b_valid;
        let mut clr = (0usize, 0u32);
        let mut accept = None;
        let mut reject = false;
        let mut clear = false;
        let pre_args: Vec<u32> = (0..regmap::CMD_ARGS)
            .map(|k| self.word[regmap::cmd_arg(k) as usize / 4])
            .collect();
        if wr_go {
            let w = self.aw.unwrap();
            let (bits, mask) = self.w.unwrap();
            let ok = match self.reg_at[w] {
                Some(r) if r.counter.is_none() => match r.access {
                    Access::Rw | Access::Wo => {
                        self.word[w] = (self.word[w] & !mask) | (bits & r.mask());
                        true
                    }
                    Access::Rw1c => {
                        clr = (w, bits & r.mask());
                        true
                    }
                    Access::Command if r.name == "CMD_DOORBELL" => {
                        if self.pending {
                            reject = true;
                            false
                        } else {
                            if mask & 1 != 0 {
                                accept = Some(((bits & 0xFF) as u8, ((bits >> 8) & 0xFF) as u8));
                            }
                            true
                        }
                    }
                    Access::Command => {
                        clear = bits & 1 != 0;
                        true
                    }
                    Access::Ro => false,
                },
                _ => false,
            };
            ev.write = Some((w, ok));
            self.b_resp = if ok { 0 } else { 2 };
            self.aw = None;
            self.w = None;
        } else {
            if self.aw.is_none() && inp("s_axil_awvalid") == 1 {
                self.aw = Some((inp("s_axil_awaddr") >> 2) as usize);
            }
            if self.w.is_none() && inp("s_axil_wvalid") == 1 {
                let strb = inp("s_axil_wstrb");
                let mask = (0..4)
                    .filter(|k| strb >> k & 1 == 1)
                    .fold(0u32, |m, k| m | (0xFF << (8 * k)));
                self.w = Some((inp("s_axil_wdata") as u32 & mask, mask));
            }
        }
        self.b_valid = (self.b_valid && inp("s_axil_bready") == 0) || wr_go;

        // Hardware sets and captures.
        for r in REGS.iter().filter(|r| r.counter.is_none() && stored(r)) {
            let w = r.word();
            if r.access == Access::Rw1c && clr.0 == w {
                self.word[w] &= !clr.1;
            }
            for f in r.fields {
                match f.hw {
                    Hw::Set(p) if inp(p) == 1 => self.word[w] |= f.mask(),
                    Hw::SetInternal if reject => self.word[w] |= f.mask(),
                    Hw::Capture { port, strobe } if inp(strobe) == 1 => {
                        self.word[w] =
                            (self.word[w] & !f.mask()) | (((inp(port) as u32) << f.lsb) & f.mask());
                    }
                    _ => {}
                }
            }
        }
        let cs = regmap::CMD_STATUS as usize / 4;
        let (acc, rej) = (
            1 << regmap::CMD_STATUS_LAST_ACCEPTED,
            1 << regmap::CMD_STATUS_LAST_REJECTED,
        );
        if self.pending && inp("cmd_ready") == 1 {
            self.pending = false;
        }
        if let Some((op, tag)) = accept {
            ev.accepted = true;
            self.word[cs] = (self.word[cs] & !(acc | rej | 0xFF00)) | acc | ((op as u32) << 8);
            self.pending = true;
            self.cmd_op = op;
            self.cmd_tag = tag;
            self.cmd_args.copy_from_slice(&pre_args);
        }
        if reject {
            ev.rejected = true;
            self.word[cs] = (self.word[cs] & !(acc | rej)) | rej;
        }

        // Counters (inputs registered first).
        for (i, c) in COUNTERS.iter().enumerate() {
            let p = c.port();
            match c.kind {
                CounterKind::Count => {
                    self.ctr[i] = self.ctr[i].wrapping_add(self.ctr_inc[i] as u64);
                    self.ctr_inc[i] = inp(&format!("{p}_inc")) == 1;
                }
                CounterKind::Max => {
                    self.ctr[i] = self.ctr[i].max(self.ctr_val[i] as u64);
                    self.ctr_val[i] = inp(&format!("{p}_value")) as u32;
                }
                CounterKind::Sum => {
                    if self.ctr_vld[i] {
                        self.ctr[i] = self.ctr[i].wrapping_add(self.ctr_val[i] as u64);
                    }
                    self.ctr_val[i] = inp(&format!("{p}_value")) as u32;
                    self.ctr_vld[i] = inp(&format!("{p}_valid")) == 1;
                }
                CounterKind::Gauge => {
                    self.ctr[i] = self.ctr_val[i] as u64;
                    self.ctr_val[i] = inp(&format!("{p}_value")) as u32;
                }
            }
            if clear && c.kind != CounterKind::Gauge {
                self.ctr[i] = 0;
            }
        }
        ev.cleared = clear;
        ev
    }
}

// ------------------------------------------------------------ testbench

/// A DUT and the model, every output compared every clock.
struct Tb {
    dut: Box<dyn Dut>,
    model: Model,
    vals: Vec<u64>,
    clock: u64,
    seed: Option<u64>,
}

impl Tb {
    fn with(dut: Box<dyn Dut>) -> Self {
        let mut tb = Self {
            dut,
            model: Model::new(),
            vals: vec![0; CsrRegs::PORTS.len()],
            clock: 0,
            seed: None,
        };
        tb.bready_rready(true);
        tb.set("rst", 1);
        tb.step();
        tb.set("rst", 0);
        tb
    }

    fn verilated() -> Self {
        Self::with(Box::new(verilated_dut()))
    }

    fn bready_rready(&mut self, on: bool) {
        self.set("s_axil_bready", on as u64);
        self.set("s_axil_rready", on as u64);
    }

    fn set(&mut self, name: &str, v: u64) {
        let i = ix(name);
        assert!(CsrRegs::PORTS[i].2, "{name} is an output");
        self.vals[i] = v & width_mask(CsrRegs::PORTS[i].1);
    }

    /// Output `name` as sampled in the last clock.
    fn out(&self, name: &str) -> u64 {
        self.vals[ix(name)]
    }

    /// One clock; returns what the model saw happen.
    fn step(&mut self) -> Events {
        clock(&mut *self.dut, &mut self.vals);
        let mut want = self.vals.clone();
        self.model.outputs(&mut want);
        for (i, p) in CsrRegs::PORTS.iter().enumerate() {
            if !p.2 && want[i] != self.vals[i] {
                let seed = self
                    .seed
                    .map(|s| format!(" (seed {s})"))
                    .unwrap_or_default();
                panic!(
                    "clock {}{seed}: output {} is 0x{:x}, the register-map model says 0x{:x}",
                    self.clock, p.0, self.vals[i], want[i]
                );
            }
        }
        let ev = self.model.step(&self.vals);
        self.clock += 1;
        ev
    }

    fn idle(&mut self, n: usize) {
        for _ in 0..n {
            self.step();
        }
    }

    fn pulse(&mut self, name: &str) {
        self.set(name, 1);
        self.step();
        self.set(name, 0);
    }

    /// A write; `aw_lead` clocks of address before data (negative: data
    /// first). Returns `bresp`.
    fn write_ordered(&mut self, addr: u16, data: u32, strb: u8, aw_lead: i32) -> u64 {
        self.set("s_axil_wdata", data as u64);
        self.set("s_axil_wstrb", strb as u64);
        self.set("s_axil_awaddr", addr as u64);
        let (mut aw_done, mut w_done) = (false, false);
        let mut t = 0i32;
        let mut guard = 0;
        while !(aw_done && w_done) {
            let aw_on = !aw_done && t >= (-aw_lead).max(0);
            let w_on = !w_done && t >= aw_lead.max(0);
            self.set("s_axil_awvalid", aw_on as u64);
            self.set("s_axil_wvalid", w_on as u64);
            self.step();
            aw_done |= aw_on && self.out("s_axil_awready") == 1;
            w_done |= w_on && self.out("s_axil_wready") == 1;
            t += 1;
            guard += 1;
            assert!(guard < 100, "write to 0x{addr:04x} never accepted");
        }
        self.set("s_axil_awvalid", 0);
        self.set("s_axil_wvalid", 0);
        loop {
            self.step();
            if self.out("s_axil_bvalid") == 1 && self.vals[ix("s_axil_bready")] == 1 {
                return self.out("s_axil_bresp");
            }
            guard += 1;
            assert!(guard < 200, "no write response for 0x{addr:04x}");
        }
    }

    fn write(&mut self, addr: u16, data: u32) -> u64 {
        self.write_ordered(addr, data, 0xF, 0)
    }

    fn write_ok(&mut self, addr: u16, data: u32) {
        assert_eq!(
            self.write(addr, data),
            0,
            "write 0x{data:x} to 0x{addr:04x}"
        );
    }

    /// A read: `(rdata, rresp)`.
    fn read_resp(&mut self, addr: u16) -> (u32, u64) {
        self.set("s_axil_araddr", addr as u64);
        self.set("s_axil_arvalid", 1);
        let mut guard = 0;
        loop {
            self.step();
            guard += 1;
            assert!(guard < 100, "read of 0x{addr:04x} never accepted");
            if self.out("s_axil_arready") == 1 {
                break;
            }
        }
        self.set("s_axil_arvalid", 0);
        loop {
            self.step();
            if self.out("s_axil_rvalid") == 1 && self.vals[ix("s_axil_rready")] == 1 {
                return (self.out("s_axil_rdata") as u32, self.out("s_axil_rresp"));
            }
            guard += 1;
            assert!(guard < 200, "no read data for 0x{addr:04x}");
        }
    }

    fn read(&mut self, addr: u16) -> u32 {
        let (d, resp) = self.read_resp(addr);
        assert_eq!(resp, 0, "rresp of 0x{addr:04x}");
        d
    }

    fn read64(&mut self, index: usize) -> u64 {
        let lo = self.read(regmap::counter_lo(index)) as u64;
        let hi = self.read(regmap::counter_hi(index)) as u64;
        (hi << 32) | lo
    }
}

// ------------------------------------------------------------ directed tests

#[test]
fn csr_block_is_synthesizable() {
    harness::checks::assert_synthesizable(&verilog(), "csr_regs");
}

#[test]
fn every_register_reads_its_reset_value_and_caps_read_the_build_parameters() {
    let mut tb = Tb::verilated();
    let c = caps();
    for r in REGS {
        let want = match r.name {
            "CAP_MRS" => c.cap_mrs,
            "CAP_QPS" => c.cap_qps,
            "CAP_TLB" => c.cap_tlb,
            "CAP_QUEUES" => c.cap_queues,
            _ if matches!(r.access, Access::Command | Access::Wo) => 0,
            _ => r.reset(),
        };
        assert_eq!(tb.read(r.offset), want, "{}", r.name);
    }
    assert_eq!(tb.read(regmap::ID), 0x4F44_504D);
    assert_eq!(tb.read(regmap::CAP_MRS), 256);
    assert_eq!(tb.read(regmap::CAP_TLB), 256 | (32 << 16) | (4 << 24));
    assert_eq!(tb.read(regmap::CAP_QUEUES), 8 | (32 << 8) | (64 << 16));
    assert_eq!(tb.out("pkey"), 0xFFFF);
    assert_eq!(tb.out("rnr_timer"), 12);
    assert_eq!(tb.out("clocks_per_us"), 125);
    assert_eq!(tb.out("prefetch_cap"), 0x0040_0000);
    assert_eq!(tb.out("cmd_valid"), 0);
}

#[test]
fn reset_restores_every_setting_and_drops_a_held_command() {
    let mut tb = Tb::verilated();
    tb.write_ok(regmap::PKEY, 0x1234);
    tb.write_ok(regmap::CTRL, 3);
    tb.write_ok(regmap::CMD_DOORBELL, 0x0201);
    tb.pulse("err_walk_fatal");
    tb.set("ctr_lookups_inc", 1);
    tb.idle(5);
    tb.set("ctr_lookups_inc", 0);
    tb.idle(2);
    assert_eq!(tb.out("cmd_valid"), 1);
    assert_ne!(tb.read64(regmap::ctr::LOOKUPS), 0);
    tb.pulse("rst");
    tb.idle(1);
    assert_eq!(tb.out("pkey"), 0xFFFF);
    assert_eq!(tb.out("ctrl_irq_en"), 0);
    assert_eq!(tb.out("cmd_valid"), 0);
    assert_eq!(tb.read(regmap::ERROR), 0);
    assert_eq!(tb.read(regmap::CMD_STATUS), 0);
    assert_eq!(tb.read64(regmap::ctr::LOOKUPS), 0);
}

#[test]
fn rw_settings_keep_only_their_field_bits_and_honour_wstrb() {
    let mut tb = Tb::verilated();
    tb.write_ok(regmap::RNR_TIMER, 0xFFFF_FFE7);
    assert_eq!(tb.read(regmap::RNR_TIMER), 0x07);
    assert_eq!(tb.out("rnr_timer"), 0x07);
    tb.write_ok(regmap::PREFETCH_CAP, 0x1122_3344);
    assert_eq!(
        tb.write_ordered(regmap::PREFETCH_CAP, 0xAABB_CCDD, 0b0101, 0),
        0
    );
    assert_eq!(tb.read(regmap::PREFETCH_CAP), 0x11BB_33DD);
    assert_eq!(tb.write_ordered(regmap::PREFETCH_CAP, 0xFFFF_FFFF, 0, 0), 0);
    assert_eq!(tb.read(regmap::PREFETCH_CAP), 0x11BB_33DD);
    assert_eq!(tb.out("prefetch_cap"), 0x11BB_33DD);
    tb.write_ok(regmap::CTRL, 0xFFFF_FFFF);
    assert_eq!(tb.read(regmap::CTRL), 3);
    assert_eq!((tb.out("ctrl_irq_en"), tb.out("ctrl_adaptive_rnr")), (1, 1));
    tb.write_ok(regmap::EQ_BASE_HI, 0xDEAD_BEEF);
    assert_eq!(tb.out("eq_base_hi"), 0xDEAD_BEEF);
    for k in 0..regmap::CMD_ARGS {
        tb.write_ok(regmap::cmd_arg(k), 0x100 + k as u32);
    }
    for k in 0..regmap::CMD_ARGS {
        assert_eq!(tb.read(regmap::cmd_arg(k)), 0x100 + k as u32);
    }
}

#[test]
fn write_channels_accept_address_and_data_in_any_order() {
    let mut tb = Tb::verilated();
    for (lead, value) in [(3, 0x11), (1, 0x22), (0, 0x33), (-1, 0x44), (-4, 0x55)] {
        assert_eq!(
            tb.write_ordered(regmap::PKEY, value, 0xF, lead),
            0,
            "lead {lead}"
        );
        assert_eq!(tb.read(regmap::PKEY), value, "lead {lead}");
    }
    // Data held while the response waits: the next write completes after bready.
    tb.set("s_axil_bready", 0);
    tb.set("s_axil_awaddr", regmap::EQ_CONS as u64);
    tb.set("s_axil_wdata", 7);
    tb.set("s_axil_wstrb", 0xF);
    tb.set("s_axil_awvalid", 1);
    tb.set("s_axil_wvalid", 1);
    tb.step();
    tb.set("s_axil_awvalid", 0);
    tb.set("s_axil_wvalid", 0);
    tb.idle(5);
    assert_eq!(tb.out("s_axil_bvalid"), 1);
    assert_eq!(tb.out("eq_cons"), 7);
    tb.set("s_axil_bready", 1);
    tb.idle(2);
    assert_eq!(tb.out("s_axil_bvalid"), 0);
}

#[test]
fn writes_to_read_only_and_undefined_offsets_answer_slverr_and_change_nothing() {
    let mut tb = Tb::verilated();
    tb.write_ok(regmap::PKEY, 0x0042);
    let before: Vec<u32> = REGS
        .iter()
        .filter(|r| r.access != Access::Command)
        .map(|r| tb.read(r.offset))
        .collect();
    for r in REGS.iter().filter(|r| r.access == Access::Ro) {
        assert_eq!(tb.write(r.offset, 0xFFFF_FFFF), 2, "{}", r.name);
    }
    for addr in [
        0x0018u16, 0x0030, 0x006C, 0x0130, 0x0148, 0x01EC, 0x02A8, 0x1000, 0xFFFC,
    ] {
        assert!(regmap::by_offset(addr).is_none());
        assert_eq!(tb.write(addr, 0xFFFF_FFFF), 2, "0x{addr:04x}");
    }
    let after: Vec<u32> = REGS
        .iter()
        .filter(|r| r.access != Access::Command)
        .map(|r| tb.read(r.offset))
        .collect();
    assert_eq!(before, after);
    assert_eq!(tb.out("pkey"), 0x42);
    assert_eq!(tb.out("cmd_valid"), 0);
}

#[test]
fn undefined_offsets_and_command_registers_read_zero_with_okay() {
    let mut tb = Tb::verilated();
    for addr in [0x0018u16, 0x006C, 0x0148, 0x02A8, 0x8000, 0xFFFC] {
        assert_eq!(tb.read_resp(addr), (0, 0), "0x{addr:04x}");
    }
    assert_eq!(tb.read_resp(regmap::CMD_DOORBELL), (0, 0));
    assert_eq!(tb.read_resp(regmap::COUNTER_CLEAR), (0, 0));
}

#[test]
fn error_bits_are_set_by_pulses_and_cleared_by_writing_one() {
    let mut tb = Tb::verilated();
    tb.pulse("err_walk_fatal");
    tb.pulse("err_resume_stale");
    tb.set("err_bad_cmd_op", 0x07);
    tb.set("err_bad_cmd_code", 0x03);
    tb.pulse("err_bad_cmd");
    tb.set("err_bad_cmd_op", 0x55);
    tb.idle(1);
    assert_eq!(tb.read(regmap::ERROR), 0b10101);
    assert_eq!(tb.read(regmap::ERROR_INFO), 0x0307);
    tb.write_ok(regmap::ERROR, 0b00100);
    assert_eq!(tb.read(regmap::ERROR), 0b10001);
    tb.write_ok(regmap::ERROR, 0);
    assert_eq!(tb.read(regmap::ERROR), 0b10001);
    tb.write_ok(regmap::ERROR, 0xFFFF_FFFF);
    assert_eq!(tb.read(regmap::ERROR), 0);
    assert_eq!(tb.read(regmap::ERROR_INFO), 0x0307);
}

#[test]
fn status_reads_the_ready_input_and_eq_prod_reads_its_input() {
    let mut tb = Tb::verilated();
    assert_eq!(tb.read(regmap::STATUS), 0);
    tb.set("st_ready", 1);
    tb.set("eq_prod", 0x1234_5678);
    assert_eq!(tb.read(regmap::STATUS), 1);
    assert_eq!(tb.read(regmap::EQ_PROD), 0x1234_5678);
}

#[test]
fn doorbell_issues_op_tag_and_a_snapshot_of_the_args_held_until_taken() {
    let mut tb = Tb::verilated();
    for k in 0..regmap::CMD_ARGS {
        tb.write_ok(regmap::cmd_arg(k), 0xA000 + k as u32);
    }
    tb.write_ok(regmap::CMD_DOORBELL, 0x5A01);
    assert_eq!(tb.out("cmd_valid"), 1);
    assert_eq!((tb.out("cmd_op"), tb.out("cmd_tag")), (0x01, 0x5A));
    // Arguments of the next command may be written while one is held.
    tb.write_ok(regmap::cmd_arg(3), 0xFFFF);
    for k in 0..regmap::CMD_ARGS {
        assert_eq!(tb.out(&format!("cmd_arg{k}")), 0xA000 + k as u64, "arg {k}");
    }
    let s = tb.read(regmap::CMD_STATUS);
    assert_eq!(s & 0xFFFF, 0x0103, "BUSY, LAST_ACCEPTED, op 1");
    assert_eq!(tb.read(regmap::STATUS) & 2, 2);
    tb.idle(20);
    assert_eq!(tb.out("cmd_valid"), 1);
    tb.set("cmd_ready", 1);
    tb.step();
    tb.set("cmd_ready", 0);
    tb.step();
    assert_eq!(tb.out("cmd_valid"), 0);
    tb.set("cmd_result_code", 0x00);
    tb.pulse("cmd_result_valid");
    assert_eq!(tb.read(regmap::CMD_STATUS), 0x0000_0102);
    tb.set("cmd_result_code", 0x09);
    tb.pulse("cmd_result_valid");
    assert_eq!(tb.read(regmap::CMD_STATUS) >> 16, 0x09);
    // The next doorbell takes the new argument.
    tb.write_ok(regmap::CMD_DOORBELL, 0x0002);
    assert_eq!(tb.out("cmd_arg3"), 0xFFFF);
    assert_eq!(tb.out("cmd_op"), 2);
}

#[test]
fn doorbell_while_busy_is_rejected_with_slverr_and_nothing_is_lost() {
    let mut tb = Tb::verilated();
    tb.write_ok(regmap::cmd_arg(0), 0x11);
    tb.write_ok(regmap::CMD_DOORBELL, 0x0701);
    tb.write_ok(regmap::cmd_arg(0), 0x22);
    assert_eq!(tb.write(regmap::CMD_DOORBELL, 0x0802), 2, "SLVERR");
    assert_eq!(tb.out("cmd_valid"), 1);
    assert_eq!(
        (tb.out("cmd_op"), tb.out("cmd_tag"), tb.out("cmd_arg0")),
        (1, 7, 0x11)
    );
    assert_eq!(tb.read(regmap::ERROR), 1 << regmap::ERROR_CMD_REJECTED);
    let s = tb.read(regmap::CMD_STATUS);
    assert_eq!(s & 0x7, 0b101, "BUSY and LAST_REJECTED, not LAST_ACCEPTED");
    assert_eq!((s >> 8) & 0xFF, 1, "op of the last accepted command");
    tb.set("cmd_ready", 1);
    tb.step();
    tb.set("cmd_ready", 0);
    assert_eq!(tb.write(regmap::CMD_DOORBELL, 0x0802), 0);
    assert_eq!(
        (tb.out("cmd_op"), tb.out("cmd_tag"), tb.out("cmd_arg0")),
        (2, 8, 0x22)
    );
    assert_eq!(tb.read(regmap::CMD_STATUS) & 0xFF07, 0x0203);
}

#[test]
fn doorbell_without_the_op_byte_strobe_issues_nothing() {
    let mut tb = Tb::verilated();
    assert_eq!(tb.write_ordered(regmap::CMD_DOORBELL, 0x0101, 0b0010, 0), 0);
    tb.idle(2);
    assert_eq!(tb.out("cmd_valid"), 0);
    assert_eq!(tb.read(regmap::CMD_STATUS), 0);
}

#[test]
fn counters_count_keep_the_maximum_sum_and_follow_a_gauge() {
    let mut tb = Tb::verilated();
    tb.set("ctr_tlb_hits_inc", 1);
    tb.idle(10);
    tb.set("ctr_tlb_hits_inc", 0);
    for v in [5u64, 90, 30] {
        tb.set("ctr_max_pending_faults_value", v);
        tb.step();
    }
    tb.set("ctr_max_pending_faults_value", 0);
    tb.set("ctr_fault_service_sum_value", 1000);
    tb.set("ctr_fault_service_sum_valid", 1);
    tb.idle(3);
    tb.set("ctr_fault_service_sum_valid", 0);
    tb.set("ctr_qps_stalled_now_value", 17);
    tb.idle(3);
    assert_eq!(tb.read64(regmap::ctr::TLB_HITS), 10);
    assert_eq!(tb.read64(regmap::ctr::MAX_PENDING_FAULTS), 90);
    assert_eq!(tb.read64(regmap::ctr::FAULT_SERVICE_SUM), 3000);
    assert_eq!(tb.read64(regmap::ctr::QPS_STALLED_NOW), 17);
    assert_eq!(tb.read64(regmap::ctr::LOOKUPS), 0);
}

#[test]
fn counter_high_word_is_latched_by_the_low_word_read() {
    let mut tb = Tb::verilated();
    let sum = regmap::ctr::FAULT_SERVICE_SUM;
    // 0xFFFF_FFF0 + 3 * 0xFFFF_FFFF: the high word moves on every add.
    tb.set("ctr_fault_service_sum_value", 0xFFFF_FFF0);
    tb.pulse("ctr_fault_service_sum_valid");
    tb.idle(2);
    let lo = tb.read(regmap::counter_lo(sum)) as u64;
    // The counter carries into its high word between the two reads.
    tb.set("ctr_fault_service_sum_value", 0xFFFF_FFFF);
    tb.set("ctr_fault_service_sum_valid", 1);
    tb.idle(3);
    tb.set("ctr_fault_service_sum_valid", 0);
    tb.idle(2);
    let hi = tb.read(regmap::counter_hi(sum)) as u64;
    assert_eq!((hi << 32) | lo, 0xFFFF_FFF0, "the pair read one value");
    let now = tb.read64(sum);
    assert_eq!(now, 0xFFFF_FFF0 + 3 * 0xFFFF_FFFF);
    // Another counter's low-word read leaves this one's high word live.
    tb.read(regmap::counter_lo(regmap::ctr::LOOKUPS));
    assert_eq!(tb.read(regmap::counter_hi(sum)) as u64, now >> 32);
}

#[test]
fn counter_clear_zeroes_every_counter_but_gauges() {
    let mut tb = Tb::verilated();
    for c in COUNTERS {
        let p = c.port();
        match c.kind {
            CounterKind::Count => tb.set(&format!("{p}_inc"), 1),
            CounterKind::Sum => {
                tb.set(&format!("{p}_value"), 7);
                tb.set(&format!("{p}_valid"), 1);
            }
            _ => tb.set(&format!("{p}_value"), 9),
        }
    }
    tb.idle(4);
    for c in COUNTERS {
        let p = c.port();
        match c.kind {
            CounterKind::Count => tb.set(&format!("{p}_inc"), 0),
            CounterKind::Sum => tb.set(&format!("{p}_valid"), 0),
            CounterKind::Max => tb.set(&format!("{p}_value"), 0),
            CounterKind::Gauge => {}
        }
    }
    tb.idle(2);
    for (i, c) in COUNTERS.iter().enumerate() {
        assert_ne!(tb.read64(i), 0, "{}", c.name);
    }
    assert_eq!(tb.write(regmap::COUNTER_CLEAR, 0), 0);
    assert_ne!(tb.read64(0), 0, "bit 0 clear: nothing happens");
    tb.write_ok(regmap::COUNTER_CLEAR, 1);
    for (i, c) in COUNTERS.iter().enumerate() {
        let want = if c.kind == CounterKind::Gauge { 9 } else { 0 };
        assert_eq!(tb.read64(i), want, "{}", c.name);
    }
}

// ------------------------------------------------------------ random traffic

/// One AXI4-Lite channel the testbench drives: items wait in a queue, each
/// is presented after a random idle gap and held until taken.
struct Source<T: Clone> {
    queue: VecDeque<T>,
    shown: Option<T>,
    gap: u32,
}

impl<T: Clone> Source<T> {
    fn new() -> Self {
        Self {
            queue: VecDeque::new(),
            shown: None,
            gap: 0,
        }
    }

    fn present(&mut self, rng: &mut StdRng) -> Option<T> {
        if self.shown.is_none() && !self.queue.is_empty() {
            if self.gap == 0 {
                self.shown = self.queue.pop_front();
                self.gap = if rng.gen_bool(0.5) {
                    0
                } else {
                    rng.gen_range(1..4)
                };
            } else {
                self.gap -= 1;
            }
        }
        self.shown.clone()
    }

    fn clear(&mut self) {
        self.queue.clear();
        self.shown = None;
    }
}

#[derive(Default)]
struct Cover {
    write_ok: u64,
    write_slverr: u64,
    reads: u64,
    accepted: u64,
    rejected: u64,
    taken: u64,
    cleared: u64,
    rw1c: u64,
    latched_hi: u64,
    aw_first: u64,
    w_first: u64,
    together: u64,
    resets: u64,
}

impl Cover {
    fn bins(&self, k: u64) -> harness::Bins {
        vec![
            ("OKAY writes", self.write_ok, 50 * k),
            ("SLVERR writes", self.write_slverr, 10 * k),
            ("reads", self.reads, 50 * k),
            ("doorbells accepted", self.accepted, 5 * k),
            ("doorbells rejected", self.rejected, 3 * k),
            ("commands taken", self.taken, 5 * k),
            ("counter clears", self.cleared, 2 * k),
            ("ERROR clears", self.rw1c, 2 * k),
            ("latched high-word reads", self.latched_hi, 5 * k),
            ("address before data", self.aw_first, 5 * k),
            ("data before address", self.w_first, 5 * k),
            ("address and data together", self.together, 5 * k),
            ("resets", self.resets, 2),
        ]
    }
}

fn random_addr(rng: &mut StdRng) -> u16 {
    match rng.gen_range(0..100) {
        0..=49 => REGS[rng.gen_range(0..REGS.len())].offset,
        50..=64 => regmap::CMD_DOORBELL,
        65..=69 => regmap::COUNTER_CLEAR,
        70..=79 => regmap::ERROR,
        80..=84 => rng.gen::<u16>() & !3,
        85..=89 => rng.gen::<u16>(),
        _ => regmap::cmd_arg(rng.gen_range(0..regmap::CMD_ARGS)),
    }
}

/// Random AXI4-Lite traffic, backpressure on every channel and random
/// hardware inputs, `clocks` clocks at least (see `harness::done`).
fn random_run(mut tb: Tb, seed: u64, clocks: u64, k: u64) -> Cover {
    let mut rng = StdRng::seed_from_u64(seed);
    tb.seed = Some(seed);
    let mut aw: Source<u16> = Source::new();
    let mut w: Source<(u32, u8)> = Source::new();
    let mut ar: Source<u16> = Source::new();
    let new_monitors = || {
        (
            StreamMonitor::<u16>::new("aw"),
            StreamMonitor::<(u32, u8)>::new("w"),
            StreamMonitor::<u64>::new("b"),
            StreamMonitor::<u16>::new("ar"),
            StreamMonitor::<(u64, u64)>::new("r"),
            StreamMonitor::<Vec<u64>>::new("cmd"),
        )
    };
    let mut mon = new_monitors();
    let mut cov = Cover::default();
    // Handshake clocks of the address and data of each write, in order.
    let mut aw_at: VecDeque<u64> = VecDeque::new();
    let mut w_at: VecDeque<u64> = VecDeque::new();
    let cmd_ports: Vec<usize> = ["cmd_op", "cmd_tag"]
        .iter()
        .map(|n| ix(n))
        .chain((0..regmap::CMD_ARGS).map(|k| ix(&format!("cmd_arg{k}"))))
        .collect();
    let mut busy_bias = 0.3;
    let mut clock = 0u64;
    while !harness::done(clock, clocks, clocks * 10, || cov.bins(k)) {
        if clock.is_multiple_of(2000) {
            busy_bias = [0.05, 0.3, 0.9][rng.gen_range(0..3)];
        }
        // New transactions.
        if aw.queue.len() + (aw.shown.is_some() as usize) < 2 && rng.gen_bool(0.3) {
            let addr = random_addr(&mut rng);
            let strb = if rng.gen_bool(0.8) {
                0xF
            } else {
                rng.gen_range(0..16)
            };
            let data = match addr {
                regmap::COUNTER_CLEAR if rng.gen_bool(0.7) => 0,
                regmap::ERROR => rng.gen::<u32>() & 0x1F,
                _ => rng.gen(),
            };
            aw.queue.push_back(addr);
            w.queue.push_back((data, strb));
        }
        if ar.queue.len() + (ar.shown.is_some() as usize) < 2 && rng.gen_bool(0.3) {
            if rng.gen_bool(0.3) {
                let i = rng.gen_range(0..COUNTERS.len());
                ar.queue.push_back(regmap::counter_lo(i));
                ar.queue.push_back(regmap::counter_hi(i));
            } else {
                ar.queue.push_back(random_addr(&mut rng));
            }
        }
        let rst = rng.gen_range(0..4000) == 0;
        if rst {
            aw.clear();
            w.clear();
            ar.clear();
            aw_at.clear();
            w_at.clear();
        }
        let a = aw.present(&mut rng);
        let d = w.present(&mut rng);
        let r = ar.present(&mut rng);
        tb.set("rst", rst as u64);
        tb.set("s_axil_awvalid", a.is_some() as u64);
        tb.set("s_axil_awaddr", a.unwrap_or_else(|| rng.gen()) as u64);
        tb.set("s_axil_awprot", rng.gen_range(0..8));
        tb.set("s_axil_wvalid", d.is_some() as u64);
        let (wd, ws) = d.unwrap_or_else(|| (rng.gen(), rng.gen_range(0..16)));
        tb.set("s_axil_wdata", wd as u64);
        tb.set("s_axil_wstrb", ws as u64);
        tb.set("s_axil_arvalid", r.is_some() as u64);
        tb.set("s_axil_araddr", r.unwrap_or_else(|| rng.gen()) as u64);
        tb.set("s_axil_arprot", rng.gen_range(0..8));
        tb.set("s_axil_bready", rng.gen_bool(0.7) as u64);
        tb.set("s_axil_rready", rng.gen_bool(0.7) as u64);
        tb.set("cmd_ready", rng.gen_bool(1.0 - busy_bias) as u64);
        tb.set("cmd_result_valid", rng.gen_bool(0.05) as u64);
        tb.set(
            "cmd_result_code",
            if rng.gen_bool(0.5) { 0 } else { rng.gen() },
        );
        for p in [
            "err_walk_fatal",
            "err_event_write_err",
            "err_resume_stale",
            "err_bad_cmd",
        ] {
            tb.set(p, rng.gen_bool(0.01) as u64);
        }
        tb.set("err_bad_cmd_op", rng.gen());
        tb.set("err_bad_cmd_code", rng.gen());
        if rng.gen_bool(0.01) {
            let v = tb.vals[ix("st_ready")] ^ 1;
            tb.set("st_ready", v);
        }
        if rng.gen_bool(0.1) {
            tb.set("eq_prod", rng.gen());
        }
        for c in COUNTERS {
            let p = c.port();
            match c.kind {
                CounterKind::Count => tb.set(&format!("{p}_inc"), rng.gen_bool(0.5) as u64),
                CounterKind::Sum => {
                    tb.set(&format!("{p}_value"), rng.gen());
                    tb.set(&format!("{p}_valid"), rng.gen_bool(0.3) as u64);
                }
                _ => tb.set(
                    &format!("{p}_value"),
                    (rng.gen::<u32>() >> rng.gen_range(0..32)) as u64,
                ),
            }
        }

        let ev = tb.step();
        let o = |n: &str| tb.vals[ix(n)];
        if rst {
            cov.resets += 1;
            mon = new_monitors();
            clock += 1;
            continue;
        }
        if mon
            .0
            .observe(clock, a.is_some(), o("s_axil_awready") == 1, a.unwrap_or(0))
            .is_some()
        {
            aw.shown = None;
            aw_at.push_back(clock);
        }
        if mon
            .1
            .observe(
                clock,
                d.is_some(),
                o("s_axil_wready") == 1,
                d.unwrap_or((0, 0)),
            )
            .is_some()
        {
            w.shown = None;
            w_at.push_back(clock);
        }
        while let (Some(&ta), Some(&td)) = (aw_at.front(), w_at.front()) {
            match ta.cmp(&td) {
                std::cmp::Ordering::Less => cov.aw_first += 1,
                std::cmp::Ordering::Greater => cov.w_first += 1,
                std::cmp::Ordering::Equal => cov.together += 1,
            }
            aw_at.pop_front();
            w_at.pop_front();
        }
        if mon
            .3
            .observe(clock, r.is_some(), o("s_axil_arready") == 1, r.unwrap_or(0))
            .is_some()
        {
            ar.shown = None;
        }
        mon.2.observe(
            clock,
            o("s_axil_bvalid") == 1,
            o("s_axil_bready") == 1,
            o("s_axil_bresp"),
        );
        mon.4.observe(
            clock,
            o("s_axil_rvalid") == 1,
            o("s_axil_rready") == 1,
            (o("s_axil_rdata"), o("s_axil_rresp")),
        );
        let payload: Vec<u64> = cmd_ports.iter().map(|&i| tb.vals[i]).collect();
        if mon
            .5
            .observe(clock, o("cmd_valid") == 1, o("cmd_ready") == 1, payload)
            .is_some()
        {
            cov.taken += 1;
        }
        match ev.write {
            Some((_, true)) => cov.write_ok += 1,
            Some((_, false)) => cov.write_slverr += 1,
            None => {}
        }
        if ev
            .write
            .is_some_and(|(wd, ok)| ok && wd == regmap::ERROR as usize / 4)
        {
            cov.rw1c += 1;
        }
        cov.reads += ev.read.is_some() as u64;
        cov.accepted += ev.accepted as u64;
        cov.rejected += ev.rejected as u64;
        cov.cleared += ev.cleared as u64;
        cov.latched_hi += ev.latched_hi as u64;
        clock += 1;
    }
    println!(
        "{clock} clocks: {} OKAY / {} SLVERR writes, {} reads, {} / {} doorbells accepted / rejected, {} taken, {} clears, {} latched high reads",
        cov.write_ok, cov.write_slverr, cov.reads, cov.accepted, cov.rejected, cov.taken, cov.cleared, cov.latched_hi
    );
    cov
}

#[test]
fn random_axi_traffic_on_verilog_matches_the_register_map_model() {
    let seed = harness::seed();
    random_run(Tb::verilated(), seed, 200_000, 20);
}

#[test]
fn lockstep_random_traffic_matches_verilog_and_the_register_map_model() {
    let seed = harness::seed();
    random_run(Tb::with(Box::new(lockstep_dut())), seed, 3_000, 1);
}

#[test]
fn random_run_catches_a_model_that_ignores_the_high_word_latch() {
    // The test of the test: with the latch removed from the reference, the
    // random run must fail on a latched high-word read.
    let seed = harness::seed();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut tb = Tb::verilated();
        tb.model.no_latch = true;
        random_run(tb, seed, 20_000, 1);
    }));
    let err = result.expect_err("a model without the latch agreed with the block");
    let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        msg.contains("s_axil_rdata"),
        "failed for another reason: {msg}"
    );
}
