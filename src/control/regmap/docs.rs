//! Generators of the register documentation, the C header and SystemRDL.

use std::fmt::Write;

use super::*;

fn bits(lsb: u32, width: u32) -> String {
    if width == 1 {
        format!("[{lsb}]")
    } else {
        format!("[{}:{lsb}]", lsb + width - 1)
    }
}

fn hw_text(f: &Field) -> String {
    match f.hw {
        Hw::Const => "constant".to_string(),
        Hw::Param => "build parameter".to_string(),
        Hw::Input(p) => format!("input `{p}`"),
        Hw::Capture { port, strobe } => format!("input `{port}` on `{strobe}`"),
        Hw::Internal => "CSR block".to_string(),
        Hw::Out(p) => format!("output `{p}`"),
        Hw::Set(p) => format!("set by `{p}`"),
        Hw::SetInternal => "set by the CSR block".to_string(),
    }
}

/// `docs/registers.md`.
pub fn registers_md() -> String {
    let mut s = String::new();
    let w = &mut s;
    writeln!(w, "# odp_mmu register map").unwrap();
    writeln!(w).unwrap();
    writeln!(
        w,
        "Generated from `src/control/regmap.rs` by `odp_mmu::control::regmap::registers_md()`; do not edit.\n\
         Refresh with `ODP_BLESS=1 cargo test --release --test csr`.\n\n\
         AXI4-Lite slave `s_axil_*`: 32-bit data, 16-bit byte addresses, every register\n\
         4-byte aligned (address bits 1:0 are ignored). Writes honour `wstrb`.\n\
         Reads of undefined offsets return 0 with OKAY; writes to undefined offsets and to\n\
         read-only registers answer SLVERR and change nothing. Bits outside every field\n\
         read 0 and ignore writes. The CSR block itself is described in `docs/csr.md`.\n\n\
         A register marked *planned* is implemented by the CSR block, but the block that\n\
         gives it its meaning is not built yet: a setting has no effect, a status reads\n\
         its tie-off (0), a counter stays 0, and a planned command is refused by the core\n\
         (ERROR.BAD_CMD)."
    )
    .unwrap();
    writeln!(w).unwrap();
    writeln!(w, "## Summary\n").unwrap();
    writeln!(
        w,
        "| offset | name | access | reset | block | description |"
    )
    .unwrap();
    writeln!(w, "|---|---|---|---|---|---|").unwrap();
    for r in REGS {
        writeln!(
            w,
            "| 0x{:04X} | {} | {} | 0x{:08X} | {} | {} |",
            r.offset,
            r.name,
            r.access.name(),
            r.reset(),
            r.block.label(),
            r.desc
        )
        .unwrap();
    }
    writeln!(w, "\nParameter registers (`CAP_*`) read the core's build parameters; their reset column shows 0.\n").unwrap();
    writeln!(w, "## Registers\n").unwrap();
    for r in REGS.iter().filter(|r| r.counter.is_none()) {
        writeln!(
            w,
            "### 0x{:04X} {} ({}, {})\n",
            r.offset,
            r.name,
            r.access.name(),
            r.block.label()
        )
        .unwrap();
        writeln!(w, "{}\n", r.desc).unwrap();
        writeln!(w, "| bits | field | reset | hardware | description |").unwrap();
        writeln!(w, "|---|---|---|---|---|").unwrap();
        for f in r.fields {
            writeln!(
                w,
                "| {} | {} | 0x{:X} | {} | {} |",
                bits(f.lsb, f.width),
                f.name,
                f.reset,
                hw_text(f),
                f.desc
            )
            .unwrap();
        }
        writeln!(w).unwrap();
    }
    writeln!(w, "## Counters\n").unwrap();
    writeln!(
        w,
        "64-bit, from 0x{:04X}: counter *i* has its low word at 0x{:04X} + 8*i and its high\n\
         word 4 bytes above. Reading the low word latches the high word into a shadow\n\
         register; the next read of that counter's high word returns the latched value, so\n\
         a low-then-high read pair is one consistent 64-bit value even while the counter\n\
         moves. Kinds: *count* adds 1 per clock its `ctr_<name>_inc` input is high; *max*\n\
         keeps the largest `ctr_<name>_value` seen; *sum* adds `ctr_<name>_value` when\n\
         `ctr_<name>_valid` is high; *gauge* follows `ctr_<name>_value`. Inputs are\n\
         registered: an event shows in the counter two clocks later. Writing 1 to\n\
         COUNTER_CLEAR.ALL clears every count, max and sum counter (gauges follow their\n\
         input); a clear wins over an event in the same clock.\n",
        COUNTER_BASE, COUNTER_BASE
    )
    .unwrap();
    writeln!(
        w,
        "| low word | high word | name | kind | block | description |"
    )
    .unwrap();
    writeln!(w, "|---|---|---|---|---|---|").unwrap();
    for (i, c) in COUNTERS.iter().enumerate() {
        writeln!(
            w,
            "| 0x{:04X} | 0x{:04X} | {} | {} | {} | {} |",
            counter_lo(i),
            counter_hi(i),
            c.name,
            c.kind.name(),
            c.block.label(),
            c.desc
        )
        .unwrap();
    }
    writeln!(w, "\n## Commands\n").unwrap();
    writeln!(
        w,
        "Write the arguments to CMD_ARG0..CMD_ARG{}, then write CMD_DOORBELL with the op\n\
         code in bits 7:0 and a tag in bits 15:8. The doorbell copies every argument into\n\
         the command it hands to the core, so the arguments of the next command may be\n\
         written at once. While a command is held (CMD_STATUS.BUSY, not yet taken by the\n\
         core) a doorbell answers SLVERR, sets ERROR.CMD_REJECTED and\n\
         CMD_STATUS.LAST_REJECTED and changes nothing else: poll BUSY before ringing.\n\
         The core reports each command's result code in CMD_STATUS.RESULT (0: done) and a\n\
         refused command in ERROR.BAD_CMD and ERROR_INFO. Argument words not listed are\n\
         ignored.\n",
        CMD_ARGS - 1
    )
    .unwrap();
    writeln!(w, "| op | name | block | description |").unwrap();
    writeln!(w, "|---|---|---|---|").unwrap();
    for o in OPS {
        writeln!(
            w,
            "| 0x{:02X} | {} | {} | {} |",
            o.code,
            o.name,
            o.block.label(),
            o.desc
        )
        .unwrap();
    }
    for o in OPS {
        writeln!(
            w,
            "\n### 0x{:02X} {} ({})\n",
            o.code,
            o.name,
            o.block.label()
        )
        .unwrap();
        writeln!(w, "{}\n", o.desc).unwrap();
        writeln!(w, "| argument | bits | name | description |").unwrap();
        writeln!(w, "|---|---|---|---|").unwrap();
        for a in o.args {
            if a.fields.is_empty() {
                writeln!(
                    w,
                    "| CMD_ARG{} | [31:0] | {} | {} |",
                    a.index, a.name, a.desc
                )
                .unwrap();
            } else {
                for f in a.fields {
                    writeln!(
                        w,
                        "| CMD_ARG{} | {} | {}.{} | {} |",
                        a.index,
                        bits(f.lsb, f.width),
                        a.name,
                        f.name,
                        f.desc
                    )
                    .unwrap();
                }
            }
        }
        if o.name == "INVALIDATE" {
            writeln!(w, "| CMD_DOORBELL | [15:8] | TAG | Invalidation tag, returned in the invalidation-done event. |").unwrap();
        }
    }
    s
}

fn c_comment(text: &str) -> String {
    text.replace("*/", "* /")
}

/// `include/odp_mmu_regs.h`.
pub fn c_header() -> String {
    let mut s = String::new();
    let w = &mut s;
    writeln!(
        w,
        "/* odp_mmu register map.\n\
         \x20*\n\
         \x20* Generated from src/control/regmap.rs by odp_mmu::control::regmap::c_header(); do not edit.\n\
         \x20* Refresh with `ODP_BLESS=1 cargo test --release --test csr`.\n\
         \x20* Offsets are byte offsets on the AXI4-Lite slave (32-bit registers).\n\
         \x20* A field X of register R has R_X_SHIFT and R_X_MASK (mask in place).\n\
         \x20*/\n\
         #ifndef ODP_MMU_REGS_H\n\
         #define ODP_MMU_REGS_H\n"
    )
    .unwrap();
    for r in REGS.iter().filter(|r| r.counter.is_none()) {
        writeln!(
            w,
            "/* {} ({}, {}): {} */",
            r.name,
            r.access.name(),
            r.block.label(),
            c_comment(r.desc)
        )
        .unwrap();
        writeln!(w, "#define ODP_MMU_{} 0x{:04X}u", r.name, r.offset).unwrap();
        writeln!(w, "#define ODP_MMU_{}_RESET 0x{:08X}u", r.name, r.reset()).unwrap();
        let single = r.fields.len() == 1 && r.fields[0].name == r.name;
        for f in r.fields {
            if single && f.width == 32 {
                continue;
            }
            let n = if f.name == r.name {
                r.name.to_string()
            } else {
                format!("{}_{}", r.name, f.name)
            };
            writeln!(w, "#define ODP_MMU_{n}_SHIFT {}u", f.lsb).unwrap();
            writeln!(w, "#define ODP_MMU_{n}_MASK 0x{:08X}u", f.mask()).unwrap();
        }
        writeln!(w).unwrap();
    }
    writeln!(
        w,
        "/* CMD_ARG<n> is at ODP_MMU_CMD_ARG0 + 4 * n, n = 0..{}. */",
        CMD_ARGS - 1
    )
    .unwrap();
    writeln!(w, "#define ODP_MMU_CMD_ARGS {CMD_ARGS}u\n").unwrap();
    writeln!(
        w,
        "/* 64-bit counters: low word at ODP_MMU_COUNTER_BASE + 8 * index, high word\n\
         \x20* 4 bytes above. Read the low word first: it latches the high word. */\n\
         #define ODP_MMU_COUNTER_BASE 0x{COUNTER_BASE:04X}u\n\
         #define ODP_MMU_COUNTERS {}u",
        COUNTERS.len()
    )
    .unwrap();
    for (i, c) in COUNTERS.iter().enumerate() {
        writeln!(
            w,
            "/* {} ({}, {}): {} */",
            c.name,
            c.kind.name(),
            c.block.label(),
            c_comment(c.desc)
        )
        .unwrap();
        writeln!(w, "#define ODP_MMU_CTR_{} {i}u", c.name).unwrap();
        writeln!(w, "#define ODP_MMU_{}_LO 0x{:04X}u", c.name, counter_lo(i)).unwrap();
        writeln!(w, "#define ODP_MMU_{}_HI 0x{:04X}u", c.name, counter_hi(i)).unwrap();
    }
    writeln!(
        w,
        "\n/* Command op codes (CMD_DOORBELL.OP) and their argument fields. */"
    )
    .unwrap();
    for o in OPS {
        writeln!(
            w,
            "/* {} ({}): {} */",
            o.name,
            o.block.label(),
            c_comment(o.desc)
        )
        .unwrap();
        writeln!(w, "#define ODP_MMU_OP_{} 0x{:02X}u", o.name, o.code).unwrap();
        for a in o.args {
            writeln!(
                w,
                "/*   CMD_ARG{}: {}: {} */",
                a.index,
                a.name,
                c_comment(a.desc)
            )
            .unwrap();
            for f in a.fields {
                let n = format!("ODP_MMU_{}_ARG{}_{}", o.name, a.index, f.name);
                writeln!(w, "#define {n}_SHIFT {}u", f.lsb).unwrap();
                writeln!(w, "#define {n}_MASK 0x{:08X}u", f.mask()).unwrap();
            }
        }
    }
    writeln!(w, "\n#endif /* ODP_MMU_REGS_H */").unwrap();
    s
}

fn rdl_str(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `(sw, hw, extra properties)` of a field in SystemRDL.
fn rdl_access(r: &Reg, f: &Field) -> (&'static str, &'static str, &'static str) {
    match (r.access, f.hw) {
        (_, Hw::Const) => ("r", "na", ""),
        (Access::Rw | Access::Wo, _) => (if r.access == Access::Rw { "rw" } else { "w" }, "r", ""),
        (Access::Rw1c, _) => ("rw", "r", " onwrite = woclr; hwset = true;"),
        (Access::Command, _) => ("w", "r", " swmod = true;"),
        (Access::Ro, _) => ("r", "w", ""),
    }
}

/// `include/odp_mmu.rdl` (SystemRDL 2.0).
pub fn systemrdl() -> String {
    let mut s = String::new();
    let w = &mut s;
    writeln!(
        w,
        "// odp_mmu register map in SystemRDL 2.0.\n\
         // Generated from src/control/regmap.rs by odp_mmu::control::regmap::systemrdl(); do not edit.\n\
         // Refresh with `ODP_BLESS=1 cargo test --release --test csr`.\n\
         // Counters are pairs of 32-bit registers, low word first: reading the low\n\
         // word latches the high word. Registers whose block is planned say so in\n\
         // their description.\n\n\
         addrmap odp_mmu {{\n\
         \x20   name = \"odp_mmu\";\n\
         \x20   desc = \"On-demand-paging MMU for RDMA NICs: control and status registers.\";\n\
         \x20   default regwidth = 32;\n\
         \x20   default accesswidth = 32;\n"
    )
    .unwrap();
    for r in REGS {
        let planned = match r.block {
            Block::Built => String::new(),
            Block::Planned(b) => format!(" (planned: {b})"),
        };
        let desc = match r.counter {
            Some(h) => format!(
                "{} {}: {}{planned}",
                COUNTERS[h.index].name,
                COUNTERS[h.index].kind.name(),
                r.desc
            ),
            None => format!("{}{planned}", r.desc),
        };
        writeln!(w, "\n    reg {{").unwrap();
        writeln!(w, "        name = \"{}\";", r.name).unwrap();
        writeln!(w, "        desc = \"{}\";", rdl_str(&desc)).unwrap();
        for f in r.fields {
            let (sw, hw, extra) = rdl_access(r, f);
            let reset = if hw == "w" && !matches!(f.hw, Hw::Capture { .. }) {
                String::new()
            } else {
                format!(" = 0x{:X}", f.reset)
            };
            writeln!(
                w,
                "        field {{ desc = \"{}\"; sw = {sw}; hw = {hw};{extra} }} {}[{}:{}]{reset};",
                rdl_str(f.desc),
                f.name,
                f.lsb + f.width - 1,
                f.lsb
            )
            .unwrap();
        }
        writeln!(w, "    }} {} @ 0x{:04X};", r.name, r.offset).unwrap();
    }
    writeln!(w, "}};").unwrap();
    s
}
