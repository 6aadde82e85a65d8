//! Utilisation and Fmax of the CSR block alone (default parameters):
//! Yosys for ECP5 and UltraScale+, then nextpnr-ecp5 on LFE5U-85F-8 through
//! the project's Fmax wrapper, once per seed.
//!
//!     nice -n 10 cargo run --release --example csr_fmax -- 1 2 3
//!
//! Needs the tools of `bash synth/install-tools.sh`. Files go to `build/`.

use odp_mmu::control::{generate_verilog, CsrCaps};

fn main() -> Result<(), String> {
    let seeds: Vec<u64> = std::env::args()
        .skip(1)
        .map(|s| s.parse().map_err(|_| format!("seed {s:?} is not a number")))
        .collect::<Result<_, _>>()?;
    let seeds = if seeds.is_empty() { vec![1] } else { seeds };
    let caps = CsrCaps::from_params(&odp_mmu::Params::default());
    let path = odp_mmu::tools::build_dir().join("csr_regs.v");
    odp_mmu::tools::write_if_changed(&path, &generate_verilog(&caps, "csr_regs"))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    for u in odp_mmu::flow::synth(&path, "csr_regs")? {
        println!(
            "synth {}: LUT {} FF {} BRAM {} DSP {}",
            u.target, u.luts, u.ffs, u.brams, u.dsps
        );
    }
    for seed in seeds {
        let r = odp_mmu::flow::pnr(&path, "csr_regs", "clk", seed)?;
        println!(
            "seed {seed}: Fmax {:.1} MHz (target {:.1}); {}",
            r.fmax_mhz, r.target_mhz, r.utilisation
        );
        println!("seed {seed}: critical path: {}", r.critical_path);
    }
    Ok(())
}
