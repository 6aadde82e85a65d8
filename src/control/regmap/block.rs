//! Generator of the CSR block's rust-hdl source (`src/control/csr_regs.rs`).
//!
//! The block is written out register by register from [`REGS`] and
//! [`COUNTERS`]: one port per setting field, hardware input and counter
//! input, one `case` arm per register in the write decode and in the read
//! mux. The command interface (`CMD_DOORBELL`, `CMD_STATUS`, the argument
//! snapshot) and `COUNTER_CLEAR` have fixed logic here, keyed by name, and a
//! field of an unknown internal role stops the generator with a message.
//!
//! The emitted code follows the rust-hdl rules of `docs/verification.md`:
//! every mix of operators is parenthesised, widening is explicit
//! (`bit_cast`), literals carry a `u64` suffix, every `Local` and output is
//! assigned before any branch.

use std::fmt::Write;

use super::*;

/// `Bit` or `Bits<N>`.
/// Prefix of the ports that form the AXI4-Lite bundle `s_axil`.
const AXIL: &str = "s_axil_";

/// The struct field that holds port `name`: a member of the `s_axil`
/// bundle, or a field of its own.
fn field(name: &str) -> String {
    match name.strip_prefix(AXIL) {
        Some(member) => format!("s_axil.{member}"),
        None => name.to_string(),
    }
}

fn ty(width: u32) -> String {
    if width == 1 {
        "Bit".to_string()
    } else {
        format!("Bits<{width}>")
    }
}

/// One top-level port of the generated block.
struct Port {
    name: String,
    input: bool,
    width: u32,
    doc: String,
}

fn lower(s: &str) -> String {
    s.to_lowercase()
}

/// Registers that keep a stored 32-bit word `r_<name>`.
fn stored(r: &Reg) -> bool {
    matches!(r.access, Access::Rw | Access::Wo | Access::Rw1c)
        || r.fields.iter().any(|f| matches!(f.hw, Hw::Capture { .. }))
        || r.name == "CMD_STATUS"
}

/// The 32-word groups of the read mux that hold a readable register.
fn read_groups(readable: &[&Reg]) -> Vec<usize> {
    let mut g: Vec<usize> = REGS
        .iter()
        .filter(|r| r.counter.is_some() || readable.iter().any(|q| q.name == r.name))
        .map(|r| r.word() >> 5)
        .collect();
    g.dedup();
    g
}

/// Registers a write can change (everything but read-only ones).
fn writable(r: &Reg) -> bool {
    r.counter.is_none() && r.access != Access::Ro
}

/// Internal fields whose value is the held-command flag.
fn busy_field(r: &Reg, f: &Field) -> bool {
    matches!(
        (r.name, f.name),
        ("STATUS", "CMD_BUSY") | ("CMD_STATUS", "BUSY")
    )
}

/// Checks that every internal field has a role the generator implements.
fn check_internal(r: &Reg, f: &Field) {
    let known = busy_field(r, f)
        || matches!(
            (r.name, f.name),
            ("CMD_STATUS", "LAST_ACCEPTED")
                | ("CMD_STATUS", "LAST_REJECTED")
                | ("CMD_STATUS", "OP")
                | ("CMD_DOORBELL", "OP")
                | ("CMD_DOORBELL", "TAG")
                | ("COUNTER_CLEAR", "ALL")
                | ("ERROR", "CMD_REJECTED")
        )
        || r.counter.is_some()
        || (r.access == Access::Rw && r.name.starts_with("CMD_ARG"));
    assert!(
        known,
        "csr_block_source: internal field {}.{} has no logic in the generator",
        r.name, f.name
    );
}

fn ports() -> Vec<Port> {
    let mut p = Vec::new();
    let mut add = |name: &str, input: bool, width: u32, doc: &str| {
        if let Some(existing) = p.iter().find(|q: &&Port| q.name == name) {
            assert_eq!(
                existing.width, width,
                "port {name} declared with two widths"
            );
            return;
        }
        p.push(Port {
            name: name.to_string(),
            input,
            width,
            doc: doc.to_string(),
        });
    };
    add("clk", true, 0, "Core clock.");
    add(
        "rst",
        true,
        1,
        "Synchronous active-high reset: every register to its reset value.",
    );
    for (name, input, width, doc) in [
        (
            "s_axil_awaddr",
            true,
            16,
            "AXI4-Lite write address (byte address; bits 1:0 ignored).",
        ),
        (
            "s_axil_awprot",
            true,
            3,
            "AXI4-Lite write protection (ignored).",
        ),
        ("s_axil_awvalid", true, 1, "AXI4-Lite write address valid."),
        (
            "s_axil_awready",
            false,
            1,
            "AXI4-Lite write address ready (high while no address is held).",
        ),
        ("s_axil_wdata", true, 32, "AXI4-Lite write data."),
        ("s_axil_wstrb", true, 4, "AXI4-Lite write byte strobes."),
        ("s_axil_wvalid", true, 1, "AXI4-Lite write data valid."),
        (
            "s_axil_wready",
            false,
            1,
            "AXI4-Lite write data ready (high while no data is held).",
        ),
        (
            "s_axil_bresp",
            false,
            2,
            "AXI4-Lite write response: 0 OKAY, 2 SLVERR.",
        ),
        ("s_axil_bvalid", false, 1, "AXI4-Lite write response valid."),
        ("s_axil_bready", true, 1, "AXI4-Lite write response ready."),
        (
            "s_axil_araddr",
            true,
            16,
            "AXI4-Lite read address (byte address; bits 1:0 ignored).",
        ),
        (
            "s_axil_arprot",
            true,
            3,
            "AXI4-Lite read protection (ignored).",
        ),
        ("s_axil_arvalid", true, 1, "AXI4-Lite read address valid."),
        (
            "s_axil_arready",
            false,
            1,
            "AXI4-Lite read address ready (high while no address is held).",
        ),
        ("s_axil_rdata", false, 32, "AXI4-Lite read data."),
        (
            "s_axil_rresp",
            false,
            2,
            "AXI4-Lite read response: always 0 OKAY.",
        ),
        ("s_axil_rvalid", false, 1, "AXI4-Lite read data valid."),
        ("s_axil_rready", true, 1, "AXI4-Lite read data ready."),
    ] {
        add(name, input, width, doc);
    }
    for r in REGS {
        for f in r.fields {
            match f.hw {
                Hw::Out(port) => add(
                    port,
                    false,
                    f.width,
                    &format!("{}.{}: {}", r.name, f.name, f.desc),
                ),
                Hw::Input(port) => add(
                    port,
                    true,
                    f.width,
                    &format!("{}.{}: {}", r.name, f.name, f.desc),
                ),
                Hw::Set(port) => add(
                    port,
                    true,
                    1,
                    &format!("One-clock pulse: sets {}.{} ({})", r.name, f.name, f.desc),
                ),
                Hw::Capture { port, strobe } => {
                    add(
                        strobe,
                        true,
                        1,
                        &format!(
                            "One-clock strobe: captures {}.{} and the fields captured with it.",
                            r.name, f.name
                        ),
                    );
                    add(
                        port,
                        true,
                        f.width,
                        &format!(
                            "{}.{}, captured when {strobe} is high: {}",
                            r.name, f.name, f.desc
                        ),
                    );
                }
                Hw::Const | Hw::Param | Hw::SetInternal | Hw::Internal => {}
            }
        }
    }
    add(
        "cmd_valid",
        false,
        1,
        "A command is held (CMD_STATUS.BUSY); op, tag and args hold until cmd_ready.",
    );
    add(
        "cmd_ready",
        true,
        1,
        "The core takes the held command this clock.",
    );
    add("cmd_op", false, 8, "Op code of the held command.");
    add("cmd_tag", false, 8, "Tag of the held command.");
    for n in 0..CMD_ARGS {
        add(
            &format!("cmd_arg{n}"),
            false,
            32,
            &format!("CMD_ARG{n} as it was when the doorbell was written."),
        );
    }
    for c in COUNTERS {
        let base = c.port();
        match c.kind {
            CounterKind::Count => add(
                &format!("{base}_inc"),
                true,
                1,
                &format!("{}: one-clock increment. {}", c.name, c.desc),
            ),
            CounterKind::Max | CounterKind::Gauge => add(
                &format!("{base}_value"),
                true,
                32,
                &format!("{} ({}): {}", c.name, c.kind.name(), c.desc),
            ),
            CounterKind::Sum => {
                add(
                    &format!("{base}_value"),
                    true,
                    32,
                    &format!(
                        "{} (sum): value added when {base}_valid is high. {}",
                        c.name, c.desc
                    ),
                );
                add(
                    &format!("{base}_valid"),
                    true,
                    1,
                    &format!("{}: add {base}_value this clock.", c.name),
                );
            }
        }
    }
    p
}

/// `name.val()` of an input as a 32-bit value placed at `lsb`.
fn placed(expr: &str, width: u32, lsb: u32) -> String {
    if width == 32 {
        expr.to_string()
    } else if lsb == 0 {
        format!("bit_cast::<32, {width}>({expr})")
    } else {
        format!("(bit_cast::<32, {width}>({expr}) << {lsb}_u64)")
    }
}

/// Generates the Rust source of `src/control/csr_regs.rs`.
pub fn csr_block_source() -> String {
    let ports = ports();
    let stored_regs: Vec<&Reg> = REGS
        .iter()
        .filter(|r| r.counter.is_none() && stored(r))
        .collect();
    let params: Vec<&Reg> = REGS
        .iter()
        .filter(|r| r.fields.iter().any(|f| f.hw == Hw::Param))
        .collect();
    let readable: Vec<&Reg> = REGS
        .iter()
        .filter(|r| {
            r.counter.is_none() && matches!(r.access, Access::Ro | Access::Rw | Access::Rw1c)
        })
        .collect();
    for r in REGS {
        for f in r.fields {
            if matches!(f.hw, Hw::Internal | Hw::SetInternal) {
                check_internal(r, f);
            }
        }
        if r.fields.iter().any(|f| f.hw == Hw::Param) {
            assert!(
                r.fields.iter().all(|f| f.hw == Hw::Param),
                "{}: a parameter register holds parameter fields only",
                r.name
            );
        }
        if r.access == Access::Command {
            assert!(
                matches!(r.name, "CMD_DOORBELL" | "COUNTER_CLEAR"),
                "{}: the generator knows no command register of that name",
                r.name
            );
        }
    }
    assert!(
        COUNTERS.len() < 31,
        "the shadow selector holds 31 as 'none'"
    );

    let mut s = String::new();
    let w = &mut s;
    writeln!(
        w,
        "//! The CSR block: the AXI4-Lite register file of `odp_mmu`."
    )
    .unwrap();
    writeln!(w, "//!").unwrap();
    writeln!(
        w,
        "//! GENERATED from the register map by `odp_mmu::control::regmap::csr_block_source()`;"
    )
    .unwrap();
    writeln!(
        w,
        "//! do not edit. After changing `src/control/regmap.rs`, refresh every generated file"
    )
    .unwrap();
    writeln!(
        w,
        "//! with `ODP_BLESS=1 cargo test --release --test csr`. The datasheet is"
    )
    .unwrap();
    writeln!(
        w,
        "//! `docs/csr.md` (the `control` module's documentation)."
    )
    .unwrap();
    writeln!(w).unwrap();
    writeln!(w, "use rust_hdl::prelude::*;").unwrap();
    writeln!(w).unwrap();
    writeln!(w, "use crate::common::interfaces::AxiLiteSlave;").unwrap();
    writeln!(w).unwrap();

    // Parameters.
    writeln!(
        w,
        "/// Values of the parameter registers, fixed when the block is built."
    )
    .unwrap();
    writeln!(w, "#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]").unwrap();
    writeln!(w, "pub struct CsrCaps {{").unwrap();
    for r in &params {
        writeln!(
            w,
            "    /// `{}` (offset 0x{:04X}): {}",
            r.name, r.offset, r.desc
        )
        .unwrap();
        writeln!(w, "    pub {}: u32,", lower(r.name)).unwrap();
    }
    writeln!(w, "}}").unwrap();
    writeln!(w).unwrap();

    // Struct.
    writeln!(
        w,
        "/// The CSR block (see the `control` module documentation and `docs/csr.md`)."
    )
    .unwrap();
    writeln!(w, "#[derive(LogicBlock)]").unwrap();
    writeln!(w, "pub struct CsrRegs {{").unwrap();
    let mut bundle_declared = false;
    for p in &ports {
        if p.name.starts_with(AXIL) {
            if !bundle_declared {
                writeln!(
                    w,
                    "    /// AXI4-Lite slave: the register file's bus (`s_axil_*`)."
                )
                .unwrap();
                writeln!(w, "    pub s_axil: AxiLiteSlave,").unwrap();
                bundle_declared = true;
            }
            continue;
        }
        writeln!(w, "    /// {}", p.doc).unwrap();
        let t = if p.width == 0 {
            "Clock".to_string()
        } else {
            ty(p.width)
        };
        writeln!(
            w,
            "    pub {}: Signal<{}, {t}>,",
            p.name,
            if p.input { "In" } else { "Out" }
        )
        .unwrap();
    }
    writeln!(w, "    // Parameter registers.").unwrap();
    for r in &params {
        writeln!(w, "    {}: Constant<Bits<32>>,", lower(r.name)).unwrap();
    }
    let mut dffs: Vec<(String, String)> = vec![
        ("aw_full".into(), "Bit".into()),
        ("aw_ok".into(), "Bit".into()),
        ("w_full".into(), "Bit".into()),
        ("w_bits".into(), "Bits<32>".into()),
        ("w_mask".into(), "Bits<32>".into()),
        ("b_valid".into(), "Bit".into()),
        ("b_resp".into(), "Bits<2>".into()),
        ("ar_full".into(), "Bit".into()),
        ("ar_addr".into(), "Bits<14>".into()),
        ("r_valid".into(), "Bit".into()),
        ("r_data".into(), "Bits<32>".into()),
        ("cmd_pending".into(), "Bit".into()),
        ("cmd_op_q".into(), "Bits<8>".into()),
        ("cmd_tag_q".into(), "Bits<8>".into()),
    ];
    for n in 0..CMD_ARGS {
        dffs.push((format!("cmd_arg{n}_q"), "Bits<32>".into()));
    }
    for r in REGS.iter().filter(|r| writable(r)) {
        dffs.push((format!("aw_sel_{}", lower(r.name)), "Bit".into()));
    }
    for r in &stored_regs {
        dffs.push((format!("r_{}", lower(r.name)), "Bits<32>".into()));
    }
    for c in COUNTERS {
        let n = lower(c.name);
        dffs.push((format!("c_{n}"), "Bits<64>".into()));
        match c.kind {
            CounterKind::Count => dffs.push((format!("i_{n}_inc"), "Bit".into())),
            CounterKind::Max | CounterKind::Gauge => {
                dffs.push((format!("i_{n}_value"), "Bits<32>".into()))
            }
            CounterKind::Sum => {
                dffs.push((format!("i_{n}_value"), "Bits<32>".into()));
                dffs.push((format!("i_{n}_valid"), "Bit".into()));
            }
        }
    }
    for g in read_groups(&readable) {
        dffs.push((format!("s1_g{g}"), "Bits<32>".into()));
    }
    dffs.push(("s1_full".into(), "Bit".into()));
    dffs.push(("s1_grp".into(), "Bits<9>".into()));
    dffs.push(("shadow_hi".into(), "Bits<32>".into()));
    dffs.push(("shadow_sel".into(), "Bits<5>".into()));
    writeln!(w, "    // Registers.").unwrap();
    for (n, t) in &dffs {
        writeln!(w, "    {n}: DFF<{t}>,").unwrap();
    }
    let mut locals: Vec<(String, String)> = vec![
        ("wstrb_mask".into(), "Bits<32>".into()),
        ("aw_word".into(), "Bits<14>".into()),
        ("wr_go".into(), "Bit".into()),
        ("wr_ok".into(), "Bit".into()),
        ("rd_go".into(), "Bit".into()),
        ("rd_word".into(), "Bits<32>".into()),
        ("sh_load".into(), "Bit".into()),
        ("sh_val".into(), "Bits<32>".into()),
        ("sh_sel".into(), "Bits<5>".into()),
        ("db_accept".into(), "Bit".into()),
        ("db_reject".into(), "Bit".into()),
        ("clear_go".into(), "Bit".into()),
    ];
    for r in &stored_regs {
        locals.push((format!("n_{}", lower(r.name)), "Bits<32>".into()));
    }
    for r in &readable {
        locals.push((format!("v_{}", lower(r.name)), "Bits<32>".into()));
    }
    for g in read_groups(&readable) {
        locals.push((format!("rd_g{g}"), "Bits<32>".into()));
    }
    for c in COUNTERS {
        if matches!(c.kind, CounterKind::Max | CounterKind::Sum) {
            locals.push((format!("wide_{}", lower(c.name)), "Bits<64>".into()));
        }
    }
    writeln!(w, "    // Combinational values inside one clock.").unwrap();
    for (n, t) in &locals {
        writeln!(w, "    {n}: Signal<Local, {t}>,").unwrap();
    }
    writeln!(w, "}}").unwrap();
    writeln!(w).unwrap();

    // Constructor.
    writeln!(w, "impl CsrRegs {{").unwrap();
    writeln!(
        w,
        "    /// Builds the block with the parameter registers set from `caps`."
    )
    .unwrap();
    writeln!(w, "    pub fn new(caps: &CsrCaps) -> Self {{").unwrap();
    writeln!(w, "        Self {{").unwrap();
    writeln!(w, "            s_axil: Default::default(),").unwrap();
    for p in ports.iter().filter(|p| !p.name.starts_with(AXIL)) {
        writeln!(w, "            {}: Default::default(),", p.name).unwrap();
    }
    for r in &params {
        let n = lower(r.name);
        writeln!(
            w,
            "            {n}: Constant::new((caps.{n} as u64).into()),"
        )
        .unwrap();
    }
    for (n, _) in &dffs {
        writeln!(w, "            {n}: Default::default(),").unwrap();
    }
    for (n, _) in &locals {
        writeln!(w, "            {n}: Default::default(),").unwrap();
    }
    writeln!(w, "        }}").unwrap();
    writeln!(w, "    }}").unwrap();
    writeln!(w).unwrap();
    writeln!(
        w,
        "    /// Every port but `clk`: (name, width, is_input), in declaration order."
    )
    .unwrap();
    writeln!(
        w,
        "    pub const PORTS: &'static [(&'static str, usize, bool)] = &["
    )
    .unwrap();
    for p in ports.iter().filter(|p| p.width > 0) {
        writeln!(w, "        (\"{}\", {}, {}),", p.name, p.width, p.input).unwrap();
    }
    writeln!(w, "    ];").unwrap();
    writeln!(w).unwrap();
    writeln!(
        w,
        "    /// Sets input `name` to `value` (masked to its width) in simulation;"
    )
    .unwrap();
    writeln!(w, "    /// `false` when there is no such input.").unwrap();
    writeln!(
        w,
        "    pub fn set_input(&mut self, name: &str, value: u64) -> bool {{"
    )
    .unwrap();
    writeln!(w, "        match name {{").unwrap();
    for p in ports.iter().filter(|p| p.input && p.width > 0) {
        if p.width == 1 {
            writeln!(
                w,
                "            \"{}\" => self.{}.next = (value & 1) != 0,",
                p.name,
                field(&p.name)
            )
            .unwrap();
        } else {
            writeln!(
                w,
                "            \"{}\" => self.{}.next = (value & 0x{:X}).into(),",
                p.name,
                field(&p.name),
                (1u64 << p.width) - 1
            )
            .unwrap();
        }
    }
    writeln!(w, "            _ => return false,").unwrap();
    writeln!(w, "        }}").unwrap();
    writeln!(w, "        true").unwrap();
    writeln!(w, "    }}").unwrap();
    writeln!(w).unwrap();
    writeln!(
        w,
        "    /// The current value of output `name` in simulation."
    )
    .unwrap();
    writeln!(w, "    pub fn output(&self, name: &str) -> Option<u64> {{").unwrap();
    writeln!(w, "        Some(match name {{").unwrap();
    for p in ports.iter().filter(|p| !p.input) {
        if p.width == 1 {
            writeln!(
                w,
                "            \"{}\" => self.{}.val() as u64,",
                p.name,
                field(&p.name)
            )
            .unwrap();
        } else {
            writeln!(
                w,
                "            \"{}\" => self.{}.val().into(),",
                p.name,
                field(&p.name)
            )
            .unwrap();
        }
    }
    writeln!(w, "            _ => return None,").unwrap();
    writeln!(w, "        }})").unwrap();
    writeln!(w, "    }}").unwrap();
    writeln!(w, "}}").unwrap();
    writeln!(w).unwrap();

    // Logic.
    writeln!(w, "impl Logic for CsrRegs {{").unwrap();
    writeln!(w, "    #[hdl_gen]").unwrap();
    writeln!(w, "    fn update(&mut self) {{").unwrap();
    let names: Vec<&str> = dffs.iter().map(|(n, _)| n.as_str()).collect();
    writeln!(w, "        dff_setup!(self, clk, {});", names.join(", ")).unwrap();
    let b = &mut String::new();
    // AXI write channels.
    b.push_str(
        "
// Write channels: address and data are each held in one register until both
// are there and no response is pending; either may come first.
self.s_axil.awready.next = !self.aw_full.q.val();
self.s_axil.wready.next = !self.w_full.q.val();
self.s_axil.bvalid.next = self.b_valid.q.val();
self.s_axil.bresp.next = self.b_resp.q.val();
self.aw_word.next = self.s_axil.awaddr.val().get_bits::<14>(2);
if self.s_axil.awvalid.val() & (!self.aw_full.q.val()) {
    self.aw_full.d.next = true;
@AW_DECODE@}
self.wstrb_mask.next = 0.into();
if self.s_axil.wstrb.val().get_bit(0) {
    self.wstrb_mask.next = self.wstrb_mask.val() | 0xFF_u64;
}
if self.s_axil.wstrb.val().get_bit(1) {
    self.wstrb_mask.next = self.wstrb_mask.val() | 0xFF00_u64;
}
if self.s_axil.wstrb.val().get_bit(2) {
    self.wstrb_mask.next = self.wstrb_mask.val() | 0xFF_0000_u64;
}
if self.s_axil.wstrb.val().get_bit(3) {
    self.wstrb_mask.next = self.wstrb_mask.val() | 0xFF00_0000_u64;
}
if self.s_axil.wvalid.val() & (!self.w_full.q.val()) {
    self.w_full.d.next = true;
    self.w_bits.d.next = self.s_axil.wdata.val() & self.wstrb_mask.val();
    self.w_mask.d.next = self.wstrb_mask.val();
}
if self.s_axil.bready.val() {
    self.b_valid.d.next = false;
}
self.wr_go.next = self.aw_full.q.val() & self.w_full.q.val() & (!self.b_valid.q.val());
self.wr_ok.next = false;
self.db_accept.next = false;
self.db_reject.next = false;
self.clear_go.next = false;

// Read channels: the address is held one clock, then the registered read mux
// fills the read data register.
self.s_axil.arready.next = !self.ar_full.q.val();
self.s_axil.rvalid.next = self.r_valid.q.val();
self.s_axil.rdata.next = self.r_data.q.val();
self.s_axil.rresp.next = 0.into();
if self.s_axil.arvalid.val() & (!self.ar_full.q.val()) {
    self.ar_full.d.next = true;
    self.ar_addr.d.next = self.s_axil.araddr.val().get_bits::<14>(2);
}
if self.s_axil.rready.val() {
    self.r_valid.d.next = false;
}
self.rd_go.next = self.ar_full.q.val() & (!self.s1_full.q.val()) & (!self.r_valid.q.val());

// Next values of the stored registers start from their current values.
",
    );
    for r in &stored_regs {
        let n = lower(r.name);
        writeln!(b, "self.n_{n}.next = self.r_{n}.q.val();").unwrap();
    }
    b.push_str("\n// Write decode: one select flip-flop per writable register, set when\n// the address is taken, so no address compare sits on a write path.\n");
    writeln!(b, "self.wr_ok.next = self.aw_ok.q.val() | (self.aw_sel_cmd_doorbell.q.val() & (!self.cmd_pending.q.val()));").unwrap();
    for r in REGS.iter().filter(|r| writable(r)) {
        let n = lower(r.name);
        let m = r.mask();
        writeln!(b, "if self.aw_sel_{n}.q.val() & self.wr_go.val() {{").unwrap();
        match r.access {
            Access::Rw | Access::Wo => {
                writeln!(b, "    // {} ({})", r.name, r.access.name()).unwrap();
                writeln!(b, "    self.n_{n}.next = (self.r_{n}.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0x{m:X}_u64);").unwrap();
            }
            Access::Rw1c => {
                writeln!(b, "    // {} (rw1c)", r.name).unwrap();
                writeln!(b, "    self.n_{n}.next = self.r_{n}.q.val() & (!(self.w_bits.q.val() & 0x{m:X}_u64));").unwrap();
            }
            Access::Command if r.name == "CMD_DOORBELL" => {
                b.push_str(
                    "    // CMD_DOORBELL: refused (SLVERR) while a command is held; rings
    // when the op byte is written.
    if self.cmd_pending.q.val() {
        self.db_reject.next = true;
    } else if self.w_mask.q.val().get_bit(0) {
        self.db_accept.next = true;
    }
",
                );
            }
            Access::Command => {
                writeln!(b, "    // COUNTER_CLEAR").unwrap();
                writeln!(b, "    if self.w_bits.q.val().get_bit(0) {{\n        self.clear_go.next = true;\n    }}").unwrap();
            }
            Access::Ro => unreachable!(),
        }
        b.push_str("}\n");
    }
    b.push_str(
        "if self.wr_go.val() {
    self.aw_full.d.next = false;
    self.w_full.d.next = false;
    self.b_valid.d.next = true;
    if self.wr_ok.val() {
        self.b_resp.d.next = 0.into();
    } else {
        self.b_resp.d.next = 2.into();
    }
}

// Hardware sets and captures (a set wins over a clear in the same clock).
",
    );
    for r in &stored_regs {
        let n = lower(r.name);
        // Capture groups: all fields captured on one strobe update together.
        for f in r.fields {
            match f.hw {
                Hw::Set(port) => {
                    writeln!(b, "if self.{port}.val() {{\n    self.n_{n}.next = self.n_{n}.val() | 0x{:X}_u64;\n}}", f.mask()).unwrap();
                }
                Hw::SetInternal => {
                    writeln!(b, "if self.db_reject.val() {{\n    self.n_{n}.next = self.n_{n}.val() | 0x{:X}_u64;\n}}", f.mask()).unwrap();
                }
                Hw::Capture { port, strobe } => {
                    let keep = !f.mask();
                    let val = placed(&format!("self.{port}.val()"), f.width, f.lsb);
                    writeln!(b, "if self.{strobe}.val() {{\n    self.n_{n}.next = (self.n_{n}.val() & 0x{keep:X}_u64) | {val};\n}}").unwrap();
                }
                _ => {}
            }
        }
    }
    let cs = by_name("CMD_STATUS").unwrap();
    let acc = cs.field("LAST_ACCEPTED").unwrap().mask();
    let rej = cs.field("LAST_REJECTED").unwrap().mask();
    let op = cs.field("OP").unwrap();
    let db = by_name("CMD_DOORBELL").unwrap();
    let db_op = db.field("OP").unwrap();
    let db_tag = db.field("TAG").unwrap();
    writeln!(
        b,
        "
// The command interface: a doorbell copies op, tag and every argument into
// the held command, which stays until the core takes it.
if self.db_accept.val() {{
    self.n_cmd_status.next = (self.n_cmd_status.val() & 0x{keep:X}_u64) | 0x{acc:X}_u64 | {opv};
}}
if self.db_reject.val() {{
    self.n_cmd_status.next = (self.n_cmd_status.val() & 0x{keep2:X}_u64) | 0x{rej:X}_u64;
}}
if self.cmd_pending.q.val() & self.cmd_ready.val() {{
    self.cmd_pending.d.next = false;
}}
if self.db_accept.val() {{
    self.cmd_pending.d.next = true;
    self.cmd_op_q.d.next = self.w_bits.q.val().get_bits::<{dow}>({dol});
    self.cmd_tag_q.d.next = self.w_bits.q.val().get_bits::<{dtw}>({dtl});",
        keep = !(acc | rej | op.mask()),
        keep2 = !(acc | rej),
        opv = placed(
            &format!(
                "self.w_bits.q.val().get_bits::<{}>({})",
                db_op.width, db_op.lsb
            ),
            op.width,
            op.lsb
        ),
        dow = db_op.width,
        dol = db_op.lsb,
        dtw = db_tag.width,
        dtl = db_tag.lsb,
    )
    .unwrap();
    for k in 0..CMD_ARGS {
        writeln!(
            b,
            "    self.cmd_arg{k}_q.d.next = self.r_cmd_arg{k}.q.val();"
        )
        .unwrap();
    }
    b.push_str("}\nself.cmd_valid.next = self.cmd_pending.q.val();\nself.cmd_op.next = self.cmd_op_q.q.val();\nself.cmd_tag.next = self.cmd_tag_q.q.val();\n");
    for k in 0..CMD_ARGS {
        writeln!(b, "self.cmd_arg{k}.next = self.cmd_arg{k}_q.q.val();").unwrap();
    }
    b.push('\n');
    for r in &stored_regs {
        let n = lower(r.name);
        writeln!(b, "self.r_{n}.d.next = self.n_{n}.val();").unwrap();
    }
    b.push_str("\n// Settings.\n");
    for r in REGS {
        for f in r.fields {
            if let Hw::Out(port) = f.hw {
                let n = lower(r.name);
                let e = if f.width == 1 {
                    format!("self.r_{n}.q.val().get_bit({})", f.lsb)
                } else if f.width == 32 {
                    format!("self.r_{n}.q.val()")
                } else {
                    format!("self.r_{n}.q.val().get_bits::<{}>({})", f.width, f.lsb)
                };
                writeln!(b, "self.{port}.next = {e};").unwrap();
            }
        }
    }

    // Counters.
    b.push_str("\n// Counters: inputs are registered, then counted; a clear wins over an\n// event in the same clock.\n");
    for c in COUNTERS {
        let n = lower(c.name);
        let p = c.port();
        match c.kind {
            CounterKind::Count => {
                writeln!(b, "self.i_{n}_inc.d.next = self.{p}_inc.val();").unwrap();
                writeln!(b, "if self.i_{n}_inc.q.val() {{\n    self.c_{n}.d.next = self.c_{n}.q.val() + 1_u64;\n}}").unwrap();
            }
            CounterKind::Max => {
                writeln!(b, "self.i_{n}_value.d.next = self.{p}_value.val();").unwrap();
                writeln!(
                    b,
                    "self.wide_{n}.next = bit_cast::<64, 32>(self.i_{n}_value.q.val());"
                )
                .unwrap();
                writeln!(b, "if self.wide_{n}.val() > self.c_{n}.q.val() {{\n    self.c_{n}.d.next = self.wide_{n}.val();\n}}").unwrap();
            }
            CounterKind::Sum => {
                writeln!(b, "self.i_{n}_value.d.next = self.{p}_value.val();").unwrap();
                writeln!(b, "self.i_{n}_valid.d.next = self.{p}_valid.val();").unwrap();
                writeln!(
                    b,
                    "self.wide_{n}.next = bit_cast::<64, 32>(self.i_{n}_value.q.val());"
                )
                .unwrap();
                writeln!(b, "if self.i_{n}_valid.q.val() {{\n    self.c_{n}.d.next = self.c_{n}.q.val() + self.wide_{n}.val();\n}}").unwrap();
            }
            CounterKind::Gauge => {
                writeln!(b, "self.i_{n}_value.d.next = self.{p}_value.val();").unwrap();
                writeln!(
                    b,
                    "self.c_{n}.d.next = bit_cast::<64, 32>(self.i_{n}_value.q.val());"
                )
                .unwrap();
            }
        }
    }
    b.push_str("if self.clear_go.val() {\n");
    for c in COUNTERS {
        if c.kind != CounterKind::Gauge {
            writeln!(b, "    self.c_{}.d.next = 0.into();", lower(c.name)).unwrap();
        }
    }
    b.push_str("}\n");

    // Read values.
    b.push_str("\n// Read values of the registers.\n");
    for r in &readable {
        let n = lower(r.name);
        let base = if stored(r) {
            format!("self.r_{n}.q.val()")
        } else if r.fields.iter().any(|f| f.hw == Hw::Param) {
            format!("self.{n}.val()")
        } else {
            let k: u32 = r
                .fields
                .iter()
                .filter(|f| f.hw == Hw::Const)
                .fold(0, |v, f| v | (f.reset << f.lsb));
            format!("0x{k:X}_u64.into()")
        };
        writeln!(b, "self.v_{n}.next = {base};").unwrap();
        for f in r.fields {
            let add = match f.hw {
                Hw::Input(port) if f.width == 1 => Some((format!("self.{port}.val()"), None)),
                Hw::Input(port) => Some((
                    String::new(),
                    Some(placed(&format!("self.{port}.val()"), f.width, f.lsb)),
                )),
                Hw::Internal if busy_field(r, f) => {
                    Some(("self.cmd_pending.q.val()".to_string(), None))
                }
                _ => None,
            };
            match add {
                Some((cond, None)) => writeln!(
                    b,
                    "if {cond} {{\n    self.v_{n}.next = self.v_{n}.val() | 0x{:X}_u64;\n}}",
                    f.mask()
                )
                .unwrap(),
                Some((_, Some(v))) => {
                    writeln!(b, "self.v_{n}.next = self.v_{n}.val() | {v};").unwrap()
                }
                None => {}
            }
        }
    }
    // Groups of 32 words: stage 1 muxes each group on the low five address
    // bits, stage 2 picks the group.
    let groups = read_groups(&readable);
    writeln!(
        b,
        "
// Read mux, stage 1 (the clock after the address is taken): one mux per
// group of 32 words on the low five address bits. Reading a counter's low
// word latches its high word into the shadow, which its high-word read
// returns.
self.sh_load.next = false;
self.sh_val.next = 0.into();
self.sh_sel.next = 0.into();"
    )
    .unwrap();
    for g in &groups {
        writeln!(b, "self.rd_g{g}.next = 0.into();").unwrap();
        writeln!(b, "match self.ar_addr.q.val().get_bits::<5>(0).index() {{").unwrap();
        for r in REGS.iter().filter(|r| r.word() >> 5 == *g) {
            let k = r.word() & 31;
            if let Some(h) = r.counter {
                let n = lower(COUNTERS[h.index].name);
                if h.hi {
                    writeln!(b, "    {k} => {{\n        // {}", r.name).unwrap();
                    writeln!(b, "        if self.shadow_sel.q.val() == {}_u64 {{\n            self.rd_g{g}.next = self.shadow_hi.q.val();\n        }} else {{\n            self.rd_g{g}.next = self.c_{n}.q.val().get_bits::<32>(32);\n        }}\n    }}", h.index).unwrap();
                } else {
                    writeln!(b, "    {k} => {{\n        // {}", r.name).unwrap();
                    writeln!(
                        b,
                        "        self.rd_g{g}.next = self.c_{n}.q.val().get_bits::<32>(0);"
                    )
                    .unwrap();
                    writeln!(
                        b,
                        "        if self.ar_addr.q.val().get_bits::<9>(5) == {g}_u64 {{"
                    )
                    .unwrap();
                    writeln!(b, "            self.sh_load.next = true;").unwrap();
                    writeln!(
                        b,
                        "            self.sh_val.next = self.c_{n}.q.val().get_bits::<32>(32);"
                    )
                    .unwrap();
                    writeln!(
                        b,
                        "            self.sh_sel.next = {}_u64.into();\n        }}\n    }}",
                        h.index
                    )
                    .unwrap();
                }
            } else if readable.iter().any(|q| q.name == r.name) {
                writeln!(b, "    {k} => {{\n        // {}\n        self.rd_g{g}.next = self.v_{}.val();\n    }}", r.name, lower(r.name)).unwrap();
            }
        }
        writeln!(b, "    _ => {{}}\n}}").unwrap();
    }
    writeln!(b, "self.s1_full.d.next = false;").unwrap();
    writeln!(b, "if self.rd_go.val() {{").unwrap();
    writeln!(b, "    self.ar_full.d.next = false;").unwrap();
    writeln!(b, "    self.s1_full.d.next = true;").unwrap();
    writeln!(
        b,
        "    self.s1_grp.d.next = self.ar_addr.q.val().get_bits::<9>(5);"
    )
    .unwrap();
    for g in &groups {
        writeln!(b, "    self.s1_g{g}.d.next = self.rd_g{g}.val();").unwrap();
    }
    writeln!(b, "    if self.sh_load.val() {{").unwrap();
    writeln!(b, "        self.shadow_hi.d.next = self.sh_val.val();").unwrap();
    writeln!(b, "        self.shadow_sel.d.next = self.sh_sel.val();").unwrap();
    writeln!(b, "    }}\n}}").unwrap();
    writeln!(b, "\n// Read mux, stage 2: the group; undefined groups read 0.\nself.rd_word.next = 0.into();").unwrap();
    for g in &groups {
        writeln!(b, "if self.s1_grp.q.val() == {g}_u64 {{\n    self.rd_word.next = self.s1_g{g}.q.val();\n}}").unwrap();
    }
    writeln!(b, "if self.s1_full.q.val() {{\n    self.r_valid.d.next = true;\n    self.r_data.d.next = self.rd_word.val();\n}}").unwrap();
    b.push_str(
        "
// Synchronous reset: every register to its reset value.
if self.rst.val() {
    self.aw_full.d.next = false;
    self.w_full.d.next = false;
    self.w_bits.d.next = 0.into();
    self.w_mask.d.next = 0.into();
    self.aw_ok.d.next = false;
    self.b_valid.d.next = false;
    self.b_resp.d.next = 0.into();
    self.ar_full.d.next = false;
    self.ar_addr.d.next = 0.into();
    self.r_valid.d.next = false;
    self.r_data.d.next = 0.into();
    self.s1_full.d.next = false;
    self.s1_grp.d.next = 0.into();
    self.cmd_pending.d.next = false;
    self.cmd_op_q.d.next = 0.into();
    self.cmd_tag_q.d.next = 0.into();
",
    );
    for k in 0..CMD_ARGS {
        writeln!(b, "    self.cmd_arg{k}_q.d.next = 0.into();").unwrap();
    }
    for r in REGS.iter().filter(|r| writable(r)) {
        writeln!(b, "    self.aw_sel_{}.d.next = false;", lower(r.name)).unwrap();
    }
    for r in &stored_regs {
        writeln!(
            b,
            "    self.r_{}.d.next = 0x{:X}_u64.into();",
            lower(r.name),
            r.reset()
        )
        .unwrap();
    }
    for c in COUNTERS {
        let n = lower(c.name);
        writeln!(b, "    self.c_{n}.d.next = 0.into();").unwrap();
        match c.kind {
            CounterKind::Count => writeln!(b, "    self.i_{n}_inc.d.next = false;").unwrap(),
            CounterKind::Max | CounterKind::Gauge => {
                writeln!(b, "    self.i_{n}_value.d.next = 0.into();").unwrap()
            }
            CounterKind::Sum => {
                writeln!(b, "    self.i_{n}_value.d.next = 0.into();").unwrap();
                writeln!(b, "    self.i_{n}_valid.d.next = false;").unwrap();
            }
        }
    }
    b.push_str(
        "    self.shadow_hi.d.next = 0.into();\n    self.shadow_sel.d.next = 31_u64.into();\n}\n",
    );
    let mut decode = String::new();
    let ok_words: Vec<String> = REGS
        .iter()
        .filter(|r| writable(r) && r.name != "CMD_DOORBELL")
        .map(|r| format!("(self.aw_word.val() == {}_u64)", r.word()))
        .collect();
    writeln!(decode, "    self.aw_ok.d.next = {};", ok_words.join(" | ")).unwrap();
    for r in REGS.iter().filter(|r| writable(r)) {
        writeln!(
            decode,
            "    self.aw_sel_{}.d.next = self.aw_word.val() == {}_u64;",
            lower(r.name),
            r.word()
        )
        .unwrap();
    }
    let b = &mut b.replace("@AW_DECODE@", &decode);
    for line in b.lines() {
        if line.is_empty() {
            w.push('\n');
        } else {
            writeln!(w, "        {line}").unwrap();
        }
    }
    writeln!(w, "    }}").unwrap();
    writeln!(w, "}}").unwrap();
    s
}
