//! A serial port as a [`Link`], with no library beyond std: the tty is set
//! up with `stty` (raw, 8N1, no flow control, reads that return after at
//! most 0.1 s) and then read and written as a file.
//!
//! A serial-port crate would need `libudev` headers on Linux for its
//! default features; `stty` is in every Linux and macOS base system
//! (`stty -F` on Linux, `stty -f` on macOS and the BSDs).

use std::fs::File;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

use super::protocol::Link;

/// A tty opened for the bridge.
pub struct SerialLink {
    file: File,
    port: String,
    /// How long a `recv` waits for the bytes it asks for.
    pub timeout: Duration,
}

impl SerialLink {
    /// Sets up `port` (e.g. `/dev/ttyUSB1`) at `baud`, 8N1, raw, and opens
    /// it; drains bytes already waiting.
    pub fn open(port: &str, baud: u32) -> Result<Self, String> {
        let device_flag = if cfg!(any(target_os = "macos", target_os = "freebsd")) {
            "-f"
        } else {
            "-F"
        };
        let mut settings = vec![baud.to_string()];
        settings.extend(
            [
                "cs8", "-cstopb", "-parenb", "-crtscts", "-ixon", "-ixoff", "raw", "-echo", "min",
                "0", "time", "1",
            ]
            .map(str::to_string),
        );
        let out = std::process::Command::new("stty")
            .arg(device_flag)
            .arg(port)
            .args(&settings)
            .output()
            .map_err(|e| format!("cannot run stty: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "stty {device_flag} {port} {} failed: {}",
                settings.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(port)
            .map_err(|e| format!("cannot open {port}: {e}"))?;
        let mut link = Self {
            file,
            port: port.to_string(),
            timeout: Duration::from_secs(2),
        };
        link.drain();
        Ok(link)
    }

    /// Reads and drops whatever is waiting (a half answer of an earlier
    /// run).
    fn drain(&mut self) {
        let mut buf = [0u8; 256];
        while matches!(self.file.read(&mut buf), Ok(n) if n > 0) {}
    }
}

impl Link for SerialLink {
    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.file
            .write_all(bytes)
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("{}: {e}", self.port))
    }

    fn recv(&mut self, n: usize) -> Result<Vec<u8>, String> {
        let mut out = vec![0u8; n];
        let mut got = 0;
        let start = Instant::now();
        while got < n {
            match self.file.read(&mut out[got..]) {
                Ok(k) => got += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("{}: {e}", self.port)),
            }
            if got < n && start.elapsed() > self.timeout {
                return Err(format!(
                    "{}: {got} of {n} bytes within {:?} (is the bitstream loaded, the baud rate right?)",
                    self.port, self.timeout
                ));
            }
        }
        Ok(out)
    }
}
