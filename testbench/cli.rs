//! The `odp-mmu` command line: every flag either changes the generated
//! design or is refused with a one-line error naming it, and the presets are
//! what `--help` says they are.
//!
//! A test target of the workshop package (the package of the `odp-mmu`
//! binary); it runs the binary in the project root and writes to
//! `build/cli-test/`.

use std::path::PathBuf;
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
const DESIGNS: [&str; 11] = [
    "odp-mmu",
    "translator",
    "mr-table",
    "tlb",
    "walker",
    "csr",
    "command-unit",
    "nak",
    "events",
    "fault-queue",
    "rnr-timer",
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
        xdc.contains("[get_ports clk]") && has_input_clk,
        "the constraint's clock port is not the core's input `clk`"
    );
}
