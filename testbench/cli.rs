//! The `odp-mmu` command line: every flag either changes the generated
//! design or is refused with a one-line error, and the presets are what
//! `--help` says they are.
//!
//! A test target of the workshop package (the package of the `odp-mmu`
//! binary); it runs the binary in the project root.

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

#[test]
fn cli_verilog_writes_build_odp_mmu_v() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_odp-mmu"))
        .current_dir(root())
        .args(["verilog", "--out", "build/cli-test/odp_mmu.v"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = std::fs::read_to_string(root().join("build/cli-test/odp_mmu.v")).unwrap();
    assert!(v.contains("module odp_mmu("));
}

#[test]
fn cli_refuses_an_out_of_range_parameter_naming_it() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_odp-mmu"))
        .args(["verilog", "--out", "/dev/null", "--walks", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("walks must be in 1..=8, got 0"), "{err}");
}

#[test]
fn cli_refuses_sizes_that_no_preset_has() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_odp-mmu"))
        .args(["verilog", "--out", "/dev/null", "--tlb-sets", "64"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("two presets"), "{err}");
}
