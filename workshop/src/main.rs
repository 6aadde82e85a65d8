//! `odp-mmu`: command-line front end of the core's build flow.
//!
//! - `verilog`: writes `build/odp_mmu.v` (needs nothing but cargo);
//! - `synth`: Yosys synthesis for ECP5 and UltraScale+, prints LUT/FF/BRAM;
//! - `pnr`: nextpnr-ecp5 place and route, prints Fmax, writes a bitstream;
//! - `depth`: the `pnr` synthesis alone, then the logic levels of the
//!   deepest paths per block, in a few minutes instead of a routing run;
//! - `bench`: performance of the translation path in simulation clocks, on
//!   the translator and on the Verilated whole core.
//!
//! `synth`, `pnr`, `depth` and `bench` (Verilator) use the tools that `synth/install-tools.sh` installs in
//! `.tools/`; a missing tool is a one-line error naming that command.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use odp_mmu::Params;

#[derive(Parser)]
#[command(
    name = "odp-mmu",
    version,
    about = "odp-mmu core: Verilog generation, synthesis, place and route"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Core parameters (SPEC section 6); defaults are the SPEC configuration.
#[derive(Args, Clone)]
struct ParamArgs {
    /// MR table entries (power of two, 4..=1024)
    #[arg(long, default_value_t = Params::default().mr_entries)]
    mr_entries: usize,
    /// Queue pairs (1..=2^24)
    #[arg(long, default_value_t = Params::default().qps)]
    qps: usize,
    /// 4 KiB TLB sets (power of two, 4..=4096)
    #[arg(long, default_value_t = Params::default().tlb_sets)]
    tlb_sets: usize,
    /// Huge-page TLB entries (power of two, 2..=64)
    #[arg(long, default_value_t = Params::default().huge_entries)]
    huge_entries: usize,
    /// Concurrent page-table walks (1..=8)
    #[arg(long, default_value_t = Params::default().walks)]
    walks: usize,
    /// Pending-fault table entries (1..=256)
    #[arg(long, default_value_t = Params::default().pending_faults)]
    pending_faults: usize,
    /// Outstanding requests (1..=256)
    #[arg(long, default_value_t = Params::default().outstanding)]
    outstanding: usize,
}

impl ParamArgs {
    fn params(&self) -> Result<Params, String> {
        let p = Params {
            mr_entries: self.mr_entries,
            qps: self.qps,
            tlb_sets: self.tlb_sets,
            tlb_ways: 4,
            huge_entries: self.huge_entries,
            walks: self.walks,
            pending_faults: self.pending_faults,
            outstanding: self.outstanding,
        };
        p.validate().map_err(|e| e.to_string())?;
        Ok(p)
    }
}

/// Which design the flow commands build.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Design {
    /// The top level `odp_mmu`
    OdpMmu,
    /// The translation path alone (`translator`, SPEC section 6 sizes; only
    /// `--qps` applies)
    Translator,
    /// The MR table alone (`mr_table`, 256 entries; no parameter applies)
    MrTable,
    /// The TLB alone (`tlb`, 256 sets x 4 ways + 32 huge entries; no
    /// parameter applies)
    Tlb,
    /// The page-table walker alone (`walker`, 8 walks; no parameter applies)
    Walker,
}

impl Design {
    fn top(self) -> &'static str {
        match self {
            Design::OdpMmu => "odp_mmu",
            Design::Translator => "translator",
            Design::MrTable => "mr_table",
            Design::Tlb => "tlb",
            Design::Walker => "walker",
        }
    }

    /// The design's clock port (rust-hdl blocks call it `clock`).
    fn clock(self) -> &'static str {
        match self {
            Design::OdpMmu => "clk",
            _ => "clock",
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Write the core's Verilog (top module `odp_mmu`)
    Verilog {
        #[command(flatten)]
        params: ParamArgs,
        /// Design to generate
        #[arg(long, value_enum, default_value_t = Design::OdpMmu)]
        design: Design,
        /// Output file
        #[arg(long, default_value = "build/odp_mmu.v")]
        out: PathBuf,
    },
    /// Synthesize with Yosys for ECP5 and UltraScale+ and print LUT/FF/BRAM/DSP
    Synth {
        #[command(flatten)]
        params: ParamArgs,
        /// Design to synthesize
        #[arg(long, value_enum, default_value_t = Design::OdpMmu)]
        design: Design,
    },
    /// Place and route on ECP5 LFE5U-85F (speed 8) and print Fmax; writes a bitstream
    Pnr {
        #[command(flatten)]
        params: ParamArgs,
        /// Design to place and route
        #[arg(long, value_enum, default_value_t = Design::OdpMmu)]
        design: Design,
        /// nextpnr placement seed (Fmax varies by about 10% between seeds)
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Place only (nextpnr --no-route): a quick, pessimistic Fmax
        /// estimate and its critical paths, no bitstream
        #[arg(long)]
        no_route: bool,
    },
    /// Synthesize as pnr does and report the logic levels of the deepest paths per block; writes build/depth/<top>.json
    Depth {
        #[command(flatten)]
        params: ParamArgs,
        /// Design to synthesize and analyse
        #[arg(long, value_enum, default_value_t = Design::OdpMmu)]
        design: Design,
        /// How many of the deepest endpoint groups to print
        #[arg(long, default_value_t = 30)]
        top: usize,
        /// Analyse this Yosys JSON netlist (e.g. build/pnr/<top>/<top>_fmax_wrap.json
        /// of an earlier run) instead of synthesizing; the parameter flags
        /// then do not apply and are refused
        #[arg(long, conflicts_with_all = ["mr_entries", "qps", "tlb_sets", "huge_entries", "walks", "pending_faults", "outstanding"])]
        netlist: Option<PathBuf>,
    },
    /// Measure the translation path in simulation clocks (translator and whole core); writes build/bench.json
    Bench {
        /// Output file
        #[arg(long, default_value = "build/bench.json")]
        out: PathBuf,
    },
}

fn write_verilog(params: &ParamArgs, design: Design, out: &PathBuf) -> Result<PathBuf, String> {
    let params = params.params()?;
    let verilog = match design {
        Design::OdpMmu => odp_mmu::top::generate_verilog(&params).map_err(|e| e.to_string())?,
        Design::Translator => odp_mmu::translate::generate_verilog(params.qps),
        Design::MrTable => odp_mmu::translate::mr_table::generate_verilog(),
        Design::Tlb => odp_mmu::translate::tlb::generate_verilog(),
        Design::Walker => odp_mmu::translate::walker::generate_verilog(),
    };
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(out, verilog).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(out.clone())
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Verilog {
            params,
            design,
            out,
        } => {
            let path = write_verilog(&params, design, &out)?;
            println!("wrote {}", path.display());
        }
        Command::Synth { params, design } => {
            let out = PathBuf::from(format!("build/{}.v", design.top()));
            let path = write_verilog(&params, design, &out)?;
            let reports = odp_mmu_workshop::flow::synth(&path, design.top())?;
            println!(
                "{:<6} {:>8} {:>8} {:>6} {:>5}",
                "target", "LUT", "FF", "BRAM", "DSP"
            );
            for u in reports {
                println!(
                    "{:<6} {:>8} {:>8} {:>6} {:>5}",
                    u.target, u.luts, u.ffs, u.brams, u.dsps
                );
            }
            println!("logs and full statistics in build/synth/");
        }
        Command::Pnr {
            params,
            design,
            seed,
            no_route,
        } => {
            let out = PathBuf::from(format!("build/{}.v", design.top()));
            let path = write_verilog(&params, design, &out)?;
            let r = if no_route {
                odp_mmu_workshop::flow::pnr_placed(&path, design.top(), design.clock(), seed)?
            } else {
                odp_mmu_workshop::flow::pnr(&path, design.top(), design.clock(), seed)?
            };
            println!(
                "Fmax {:.1} MHz{} (target {:.1} MHz, seed {}) on LFE5U-85F-8 CABGA381",
                r.fmax_mhz,
                if no_route {
                    ", placement estimate, not routed"
                } else {
                    ""
                },
                r.target_mhz,
                r.seed
            );
            println!("utilisation: {}", r.utilisation);
            println!("critical path: {}", r.critical_path);
            if !r.paths_by_block.is_empty() {
                println!("critical paths by block (start block -> end block):");
                for line in &r.paths_by_block {
                    println!("  {line}");
                }
            }
            if !no_route {
                println!("bitstream: {}", r.bitstream.display());
            }
        }
        Command::Depth {
            params,
            design,
            top,
            netlist,
        } => {
            let (report, json) = match netlist {
                Some(netlist) => {
                    let report =
                        odp_mmu_workshop::depth::analyse_file(&netlist, None, design.top())?;
                    let json = odp_mmu_workshop::depth::report_path(design.top());
                    odp_mmu_workshop::depth::write_json(&report, &json)?;
                    (report, json)
                }
                None => {
                    let out = PathBuf::from(format!("build/{}.v", design.top()));
                    let path = write_verilog(&params, design, &out)?;
                    odp_mmu_workshop::depth::run(&path, design.top(), design.clock())?
                }
            };
            print!("{}", report.text(top));
            println!("wrote {}", json.display());
        }
        Command::Bench { out } => {
            let start = std::time::Instant::now();
            let numbers = odp_mmu_workshop::bench::run(&mut |what| {
                eprintln!("[{:6.1} s] {what}", start.elapsed().as_secs_f64())
            })?;
            print!("{}", numbers.table());
            if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            std::fs::write(&out, numbers.to_json())
                .map_err(|e| format!("{}: {e}", out.display()))?;
            println!("wrote {}", out.display());
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("odp-mmu: {e}");
            ExitCode::FAILURE
        }
    }
}
