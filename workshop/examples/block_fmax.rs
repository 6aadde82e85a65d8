//! Utilisation and Fmax of one control block alone (default parameters):
//! Yosys for ECP5 and UltraScale+, then nextpnr-ecp5 on LFE5U-85F-8 through
//! the project's Fmax wrapper, once per seed.
//!
//!     nice -n 10 cargo run --release --example block_fmax -- csr 1 2 3
//!     nice -n 10 cargo run --release --example block_fmax -- command-unit 1 2 3
//!     nice -n 10 cargo run --release --example block_fmax -- nak 1 2 3
//!     nice -n 10 cargo run --release --example block_fmax -- events 1 2 3
//!
//! Needs the tools of `bash synth/install-tools.sh`. Files go to `build/`.

use odp_mmu::control::command::CommandUnit;
use odp_mmu::control::{generate_verilog, CsrCaps};
use odp_mmu::fault::events::EventRing;
use odp_mmu::fault::nak::DefaultNakGen;
use rust_hdl::prelude::*;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let block = args.next().unwrap_or_default();
    let seeds: Vec<u64> = args
        .map(|s| s.parse().map_err(|_| format!("seed {s:?} is not a number")))
        .collect::<Result<_, _>>()?;
    let seeds = if seeds.is_empty() { vec![1] } else { seeds };
    let params = odp_mmu::Params::default();
    let (top, clock, verilog) = match block.as_str() {
        "csr" => (
            "csr_regs",
            "clk",
            generate_verilog(&CsrCaps::from_params(&params), "csr_regs"),
        ),
        "command-unit" => {
            let mut u = CommandUnit::<8>::new();
            u.connect_all();
            (
                "command_unit",
                "clock",
                odp_mmu::verilog::generate(&u, "command_unit"),
            )
        }
        "nak" => {
            let mut u = DefaultNakGen::new();
            u.connect_all();
            (
                "nak_gen",
                "clock",
                odp_mmu::verilog::generate(&u, "nak_gen"),
            )
        }
        "events" => {
            let mut u = EventRing::new();
            u.connect_all();
            (
                "event_ring",
                "clock",
                odp_mmu::verilog::generate(&u, "event_ring"),
            )
        }
        other => {
            return Err(format!(
                "block must be csr, command-unit, nak or events, got {other:?}"
            ))
        }
    };
    let path = odp_mmu_workshop::tools::build_dir().join(format!("{top}.v"));
    odp_mmu_workshop::tools::write_if_changed(&path, &verilog)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    for u in odp_mmu_workshop::flow::synth(&path, top)? {
        println!(
            "synth {}: LUT {} FF {} BRAM {} DSP {}",
            u.target, u.luts, u.ffs, u.brams, u.dsps
        );
    }
    for seed in seeds {
        let r = odp_mmu_workshop::flow::pnr(&path, top, clock, seed)?;
        println!(
            "seed {seed}: Fmax {:.1} MHz (target {:.1}); {}",
            r.fmax_mhz, r.target_mhz, r.utilisation
        );
        println!("seed {seed}: critical path: {}", r.critical_path);
    }
    Ok(())
}
