//! `odp-mmu board`, the binary, against the Verilated Versa top through a
//! pseudo-terminal: the command sets the tty up with `stty` and runs the
//! board scenario as it would on a board's USB serial port.
//!
//! A small Python relay (the interpreter of `.tools/venv`, the standard
//! `pty` module) opens the pseudo-terminal, prints the name of its tty and
//! copies bytes between the pseudo-terminal and its standard input and
//! output; the test clocks the Verilated board top and moves those bytes
//! to and from its UART pins.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;

use odp_mmu_workshop::board::sim::{self, SimBoard};
use odp_mmu_workshop::harness;

/// The relay: prints the tty's name, then copies bytes both ways until its
/// standard input closes.
const RELAY: &str = r#"
import os, pty, select, sys
master, slave = pty.openpty()
print(os.ttyname(slave), flush=True)
inp, out = sys.stdin.fileno(), sys.stdout.fileno()
while True:
    ready, _, _ = select.select([master, inp], [], [])
    if master in ready:
        data = os.read(master, 4096)
        if not data:
            break
        os.write(out, data)
    if inp in ready:
        data = os.read(inp, 4096)
        if not data:
            break
        os.write(master, data)
"#;

/// Clocks per bit on the simulated line.
const DIV: u16 = 4;

struct Relay {
    child: Child,
    tty: String,
    from_tty: mpsc::Receiver<Vec<u8>>,
}

fn relay() -> Relay {
    let python = odp_mmu_workshop::tools::tool("python3").unwrap_or_else(|e| panic!("{e}"));
    let mut child = Command::new(python)
        .args(["-u", "-c", RELAY])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the pty relay");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut tty = String::new();
    stdout.read_line(&mut tty).expect("the relay names its tty");
    let (tx, from_tty) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    Relay {
        child,
        tty: tty.trim().to_string(),
        from_tty,
    }
}

/// Runs `odp-mmu board --port <tty> <args>` while clocking the board and
/// moving bytes; its standard output, after checking it succeeded.
fn board_command(board: &mut SimBoard, relay: &mut Relay, args: &[&str]) -> String {
    let mut cli = Command::new(env!("CARGO_BIN_EXE_odp-mmu"))
        .args(["board", "--port", &relay.tty])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run odp-mmu board");
    let to_tty = relay.child.stdin.as_mut().unwrap();
    let started = std::time::Instant::now();
    loop {
        while let Ok(bytes) = relay.from_tty.try_recv() {
            for b in bytes {
                board.uart.queue_byte(b);
            }
        }
        board.run(200);
        let n = board.uart.pending();
        if n > 0 {
            to_tty.write_all(&board.uart.take(n)).unwrap();
            to_tty.flush().unwrap();
        }
        if cli.try_wait().unwrap().is_some() {
            break;
        }
        assert!(
            started.elapsed().as_secs() < 600,
            "odp-mmu board did not finish in 10 minutes"
        );
    }
    let out = cli.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "odp-mmu board {args:?} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn board_command_runs_the_scenario_through_a_serial_tty() {
    harness::big_stack(|| {
        let mut board = sim::sim_board(DIV);
        let mut relay = relay();
        let status = board_command(&mut board, &mut relay, &["--status"]);
        println!("{status}");
        assert!(status.contains("bridge: protocol version 1"), "{status}");
        assert!(status.contains("ID       0x4f44504d"), "{status}");
        let out = board_command(&mut board, &mut relay, &[]);
        println!("{out}");
        for line in [
            "remote read, page 0: tag 1 OK pa 0x100040",
            "remote write, page 1: tag 2 RNR",
            "opcode 0x11 (RC Acknowledge), P_Key 0xffff, DestQP 0xa0b0c, PSN 0x101, MSN 0x7: RNR NAK, timer code 12 (0.640 ms)",
            "retransmission: tag 3 OK pa 0x101040",
            "wake: QP 5",
            "counter FAULTS: 2",
            "done: every step answered as expected",
        ] {
            assert!(out.contains(line), "the output lacks `{line}`:\n{out}");
        }
        drop(relay.child.stdin.take());
        let _ = relay.child.wait();
    });
}
