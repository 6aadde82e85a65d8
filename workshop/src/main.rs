//! `odp-mmu`: command-line front end of the core's build flow.
//!
//! - `verilog`: writes `build/odp_mmu.v` (needs nothing but cargo);
//! - `synth`: Yosys synthesis for ECP5 and UltraScale+, prints LUT/FF/BRAM;
//! - `pnr`: nextpnr-ecp5 place and route, prints Fmax, writes a bitstream;
//! - `depth`: the `pnr` synthesis alone, then the logic levels of the
//!   deepest paths per block, in a few minutes instead of a routing run;
//! - `bench`: performance of the translation path in simulation clocks, on
//!   the translator and on the Verilated whole core;
//! - `bitstream`: the ECP5-5G Versa board design (`odp_mmu::board`) through
//!   Yosys, nextpnr-ecp5 and ecppack into `build/odp_mmu_versa5g.bit`;
//! - `board`: drives that design on a board over its serial bridge with the
//!   driver library (`docs/fpga.md`).
//!
//! `synth`, `pnr`, `depth` and `bench` (Verilator) use the tools that `synth/install-tools.sh` installs in
//! `.tools/`; a missing tool is a one-line error naming that command.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use odp_mmu::board::bridge::UartBridge;
use odp_mmu::board::memory::BoardMemory;
use odp_mmu::control::command::CommandUnit;
use odp_mmu::control::inval::InvalUnit;
use odp_mmu::control::mr_waiters::MrWaiters;
use odp_mmu::control::prefetch::Prefetcher;
use odp_mmu::control::{CsrCaps, CsrRegs};
use odp_mmu::fault::events::EventRing;
use odp_mmu::fault::fault_queue::DefaultFaultQueue;
use odp_mmu::fault::responder::QpResponder;
use odp_mmu::fault::rnr_timer::RnrTimer;
use odp_mmu::translate::mr_table::DefaultMrTable;
use odp_mmu::translate::tlb::DefaultTlb;
use odp_mmu::translate::walker::DefaultWalker;
use odp_mmu::translate::DefaultTranslator;
use odp_mmu::{DefaultOdpMmu, Params, Preset, SmallOdpMmu};
use odp_mmu_workshop::harness::rhdl::ports;
use odp_mmu_workshop::harness::verilated::Port;
use rust_hdl::prelude::*;

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

/// Core parameters (SPEC section 6). A flag the chosen design does not
/// honour is refused with a one-line error, never ignored.
#[derive(Args, Clone)]
struct ParamArgs {
    /// Named configuration of odp_mmu (each preset is a type; the size flags
    /// below must then match it or be left out) [default: default]
    #[arg(long, value_enum)]
    preset: Option<PresetArg>,
    /// MR table entries (power of two, 4..=1024) [default: 256]
    #[arg(long)]
    mr_entries: Option<usize>,
    /// Queue pairs (1..=2^24) [default: 1024]
    #[arg(long)]
    qps: Option<usize>,
    /// 4 KiB TLB sets (power of two, 4..=4096) [default: 256]
    #[arg(long)]
    tlb_sets: Option<usize>,
    /// Huge-page TLB entries (power of two, 2..=64) [default: 32]
    #[arg(long)]
    huge_entries: Option<usize>,
    /// Concurrent page-table walks (1..=8) [default: 8]
    #[arg(long)]
    walks: Option<usize>,
    /// Pending-fault table entries (1..=256) [default: 32]
    #[arg(long)]
    pending_faults: Option<usize>,
    /// Outstanding requests (1..=256) [default: 64]
    #[arg(long)]
    outstanding: Option<usize>,
}

/// The presets of odp_mmu, as `--help` lists them.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PresetArg {
    /// SPEC section 6: 256 MRs, 256x4 TLB, 32 huge, 8 walks, 32 pending faults, 64 outstanding (DefaultOdpMmu)
    Default,
    /// 8 MRs, 4x4 TLB, 4 huge, 2 walks, 4 pending faults, 8 outstanding (SmallOdpMmu)
    Small,
}

impl PresetArg {
    fn preset(self) -> Preset {
        match self {
            PresetArg::Default => Preset::Default,
            PresetArg::Small => Preset::Small,
        }
    }
}

impl ParamArgs {
    /// The size flags given, by their command-line names.
    fn given(&self) -> Vec<&'static str> {
        let given = [
            self.preset.is_some(),
            self.mr_entries.is_some(),
            self.qps.is_some(),
            self.tlb_sets.is_some(),
            self.huge_entries.is_some(),
            self.walks.is_some(),
            self.pending_faults.is_some(),
            self.outstanding.is_some(),
        ];
        ALL_FLAGS
            .into_iter()
            .zip(given)
            .filter_map(|(name, given)| given.then_some(name))
            .collect()
    }

    /// The parameters: the preset's (default if none), overridden by every
    /// size flag given, validated.
    fn params(&self) -> Result<Params, String> {
        let base = self
            .preset
            .map_or(Preset::Default, PresetArg::preset)
            .params();
        let p = Params {
            mr_entries: self.mr_entries.unwrap_or(base.mr_entries),
            qps: self.qps.unwrap_or(base.qps),
            tlb_sets: self.tlb_sets.unwrap_or(base.tlb_sets),
            tlb_ways: base.tlb_ways,
            huge_entries: self.huge_entries.unwrap_or(base.huge_entries),
            walks: self.walks.unwrap_or(base.walks),
            pending_faults: self.pending_faults.unwrap_or(base.pending_faults),
            outstanding: self.outstanding.unwrap_or(base.outstanding),
        };
        p.validate().map_err(|e| e.to_string())?;
        Ok(p)
    }

    /// The parameters for `design`, refusing every flag it does not honour.
    fn for_design(&self, design: Design) -> Result<Params, String> {
        let honoured = design.honours();
        if let Some(flag) = self.given().into_iter().find(|f| !honoured.contains(f)) {
            return Err(format!(
                "{flag} does not apply to --design {}: {}",
                design.name(),
                design.sizes()
            ));
        }
        self.params()
    }
}

/// Which design the flow commands build.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Design {
    /// The top level `odp_mmu` (every flag applies; sizes must match a preset)
    OdpMmu,
    /// The translation path alone (`translator`; only `--qps` applies)
    Translator,
    /// The MR table alone (`mr_table`, 256 entries; no flag applies)
    MrTable,
    /// The TLB alone (`tlb`, 256 sets x 4 ways + 32 huge entries; no flag applies)
    Tlb,
    /// The page-table walker alone (`walker`, 8 walks; no flag applies)
    Walker,
    /// The CSR block alone (`csr_regs`; every flag sets its parameter registers)
    Csr,
    /// The command unit alone (`command_unit`, 256 MRs; no flag applies)
    CommandUnit,
    /// The invalidation unit alone (`inval_unit`, 256 MRs; no flag applies)
    Inval,
    /// The MR waiters alone (`mr_waiters`, 1024 QPs; no flag applies)
    MrWaiters,
    /// The prefetch unit alone (`prefetch_unit`, 4 lookups in flight; no flag applies)
    Prefetch,
    /// The per-QP responder alone (`qp_responder`, 1024 QPs; no flag applies)
    Responder,
    /// The event-ring writer alone (`event_ring`; no flag applies)
    Events,
    /// The fault queue alone (`fault_queue`, 32 slots, 1024 QPs; no flag applies)
    FaultQueue,
    /// The adaptive RNR timer alone (`rnr_timer`; no flag applies)
    RnrTimer,
    /// The board design's serial bridge alone (`uart_bridge`, 115200 baud at 50 MHz, 32 KiB memory; no flag applies)
    UartBridge,
    /// The board design's block RAM host memory alone (`board_memory`, 32 KiB; no flag applies)
    BoardMemory,
}

/// Every size flag, in the order of [`ParamArgs`]'s fields.
const ALL_FLAGS: [&str; 8] = [
    "--preset",
    "--mr-entries",
    "--qps",
    "--tlb-sets",
    "--huge-entries",
    "--walks",
    "--pending-faults",
    "--outstanding",
];

impl Design {
    /// The design's top module.
    fn top(self) -> &'static str {
        match self {
            Design::OdpMmu => "odp_mmu",
            Design::Translator => "translator",
            Design::MrTable => "mr_table",
            Design::Tlb => "tlb",
            Design::Walker => "walker",
            Design::Csr => "csr_regs",
            Design::CommandUnit => "command_unit",
            Design::Inval => "inval_unit",
            Design::MrWaiters => "mr_waiters",
            Design::Prefetch => "prefetch_unit",
            Design::Responder => "qp_responder",
            Design::Events => "event_ring",
            Design::FaultQueue => "fault_queue",
            Design::RnrTimer => "rnr_timer",
            Design::UartBridge => "uart_bridge",
            Design::BoardMemory => "board_memory",
        }
    }

    /// Its `--design` value.
    fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }

    /// The size flags that change it.
    fn honours(self) -> &'static [&'static str] {
        match self {
            Design::OdpMmu | Design::Csr => &ALL_FLAGS,
            Design::Translator => &["--qps"],
            _ => &[],
        }
    }

    /// Why a flag does not apply: the sizes it is built at.
    fn sizes(self) -> &'static str {
        match self {
            Design::OdpMmu | Design::Csr => "",
            Design::Translator => "it is built at the default sizes, only its QP range is free",
            Design::MrTable => "it is built with 256 entries",
            Design::Tlb => "it is built with 256 sets x 4 ways and 32 huge entries",
            Design::Walker => "it is built with 8 walks",
            Design::CommandUnit => "it is built for 256 MRs",
            Design::Inval => "it is built for 256 MRs",
            Design::MrWaiters => "it is built for 1024 QPs",
            Design::Prefetch => "it is built with 4 lookups in flight (half the default walks)",
            Design::Responder => "it is built for 1024 QPs",
            Design::Events => "it has no size parameter",
            Design::FaultQueue => "it is built with 32 slots for 1024 QPs",
            Design::RnrTimer => "it has no size parameter",
            Design::UartBridge => "it is built for the Versa board design",
            Design::BoardMemory => "it is built with 32 KiB",
        }
    }

    /// The design's clock port (rust-hdl blocks call it `clock`).
    fn clock(self) -> &'static str {
        match self {
            Design::OdpMmu | Design::Csr => "clk",
            _ => "clock",
        }
    }

    /// Its Verilog for `params`, and its ports, both from the rust-hdl
    /// block: the flow's Fmax wrapper takes the ports from here, not from
    /// the Verilog text.
    fn generate(self, params: &Params) -> Result<(String, Vec<Port>), String> {
        fn block<B: Block>(mut uut: B, top: &str) -> (String, Vec<Port>) {
            uut.connect_all();
            (odp_mmu::verilog::generate(&uut, top), ports(&uut))
        }
        let top = self.top();
        Ok(match self {
            Design::OdpMmu => match Preset::of(params) {
                Some(Preset::Default) => block(DefaultOdpMmu::new(params), top),
                Some(Preset::Small) => block(SmallOdpMmu::new(params), top),
                // Sizes of no preset: the IP's message names the presets.
                None => {
                    return Err(odp_mmu::top::generate_verilog(params).err().map_or_else(
                        || format!("{} is not a preset", params.sizes()),
                        |e| e.to_string(),
                    ))
                }
            },
            Design::Translator => block(DefaultTranslator::new(params.qps), top),
            Design::MrTable => block(DefaultMrTable::new(), top),
            Design::Tlb => block(DefaultTlb::new(), top),
            Design::Walker => block(DefaultWalker::new(), top),
            Design::Csr => block(CsrRegs::new(&CsrCaps::from_params(params)), top),
            Design::CommandUnit => block(CommandUnit::<8>::new(), top),
            Design::Inval => block(InvalUnit::<8>::new(), top),
            Design::MrWaiters => block(MrWaiters::<10>::new(), top),
            Design::Prefetch => block(Prefetcher::new(4), top),
            Design::Responder => block(QpResponder::<10>::new(), top),
            Design::Events => block(EventRing::new(), top),
            Design::FaultQueue => block(DefaultFaultQueue::new(), top),
            Design::RnrTimer => block(RnrTimer::new(), top),
            Design::UartBridge => block(
                UartBridge::new(
                    odp_mmu::board::versa::UART_DIVISOR,
                    odp_mmu::board::core::MEM_BYTES,
                ),
                top,
            ),
            Design::BoardMemory => block(
                BoardMemory::<{ odp_mmu::board::core::MEM_WORD_BITS }>::new(),
                top,
            ),
        })
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
    /// Synthesize with Yosys for ECP5 and UltraScale+ and print LUT/FF/BRAM/DSP; records them in build/synth.json
    Synth {
        #[command(flatten)]
        params: ParamArgs,
        /// Design to synthesize
        #[arg(long, value_enum, default_value_t = Design::OdpMmu)]
        design: Design,
    },
    /// Place and route on ECP5 LFE5U-85F (speed 8) and print Fmax; writes a bitstream; records Fmax and utilisation in build/pnr.json
    Pnr {
        #[command(flatten)]
        params: ParamArgs,
        /// Design to place and route
        #[arg(long, value_enum, default_value_t = Design::OdpMmu)]
        design: Design,
        /// nextpnr placement seeds, one run each (Fmax varies by about 10%
        /// between seeds; closure means every seed of 1 2 3 meets the target)
        #[arg(long, num_args = 1.., default_values_t = [1])]
        seed: Vec<u64>,
        /// Place only (nextpnr --no-route): a quick, pessimistic Fmax
        /// estimate and the nets that reach farthest across the chip
        /// (nextpnr reports no path before routing), no bitstream
        #[arg(long)]
        no_route: bool,
        /// nextpnr runs at once (each is single-threaded); by default one
        /// per core, at most one per seed. The design is synthesized once
        /// for all seeds; with several seeds each writes build/pnr/<top>/seed<N>/
        #[arg(long)]
        jobs: Option<usize>,
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
        #[arg(long, conflicts_with_all = ["preset", "mr_entries", "qps", "tlb_sets", "huge_entries", "walks", "pending_faults", "outstanding"])]
        netlist: Option<PathBuf>,
    },
    /// Measure the translation path in simulation clocks (translator and whole core); writes build/bench.json
    Bench {
        /// Output file
        #[arg(long, default_value = "build/bench.json")]
        out: PathBuf,
    },
    /// Build the ECP5-5G Versa board design (odp_mmu small preset, block RAM host memory, serial bridge) into a bitstream; fails if timing is not met
    Bitstream {
        /// nextpnr placement seed
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output bitstream (an SVF for JTAG players is written beside it in build/bitstream/)
        #[arg(long, default_value = "build/odp_mmu_versa5g.bit")]
        out: PathBuf,
    },
    /// Drive the board design over its serial bridge: register an MR, write page tables, send requests, show responses, NAKs and events, run the fault loop
    Board {
        /// The board's serial port (the FT2232H's second channel, usually /dev/ttyUSB1)
        #[arg(long)]
        port: String,
        /// Baud rate (the bitstream's bridge runs at 115200)
        #[arg(long, default_value_t = odp_mmu::board::versa::BAUD)]
        baud: u32,
        /// Only show the bridge's status and the core's ID, VERSION and STATUS registers
        #[arg(long)]
        status: bool,
    },
}

/// The module name of the board design's top.
const BOARD_TOP: &str = "odp_mmu_versa5g";

/// Prints one seed's place-and-route report.
fn print_pnr(r: &odp_mmu_workshop::flow::PnrReport, no_route: bool) {
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
    if !r.long_nets.is_empty() {
        println!("longest nets after placement (farthest sink from the driver, in tiles):");
        for line in &r.long_nets {
            println!("  {line}");
        }
    }
    if !no_route {
        println!(
            "endpoints below the target: {} of {}",
            r.failing_endpoints, r.endpoints
        );
        for line in &r.failing_by_register {
            println!("  {line}");
        }
        println!("bitstream: {}", r.bitstream.display());
    }
}

/// The first keys of a design's entry in `build/synth.json` and
/// `build/pnr.json`: its top module and its sizes (the parameters for the
/// designs that take them, else what it is built with).
fn design_json(
    params: &ParamArgs,
    design: Design,
) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    let mut entry = serde_json::Map::new();
    entry.insert("top".into(), design.top().into());
    if design.honours().is_empty() {
        entry.insert("sizes".into(), design.sizes().into());
    } else {
        let p = params.for_design(design)?;
        entry.insert(
            "params".into(),
            serde_json::json!({
                "mr_entries": p.mr_entries,
                "qps": p.qps,
                "tlb_sets": p.tlb_sets,
                "tlb_ways": p.tlb_ways,
                "huge_entries": p.huge_entries,
                "walks": p.walks,
                "pending_faults": p.pending_faults,
                "outstanding": p.outstanding,
            }),
        );
    }
    Ok(entry)
}

/// Writes the Verilog of `design` to `out`; returns that path and the
/// design's ports.
fn write_verilog(
    params: &ParamArgs,
    design: Design,
    out: &PathBuf,
) -> Result<(PathBuf, Vec<Port>), String> {
    let (verilog, ports) = design.generate(&params.for_design(design)?)?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(out, verilog).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok((out.clone(), ports))
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Verilog {
            params,
            design,
            out,
        } => {
            let (path, _) = write_verilog(&params, design, &out)?;
            println!("wrote {}", path.display());
        }
        Command::Synth { params, design } => {
            let out = PathBuf::from(format!("build/{}.v", design.top()));
            let (path, _) = write_verilog(&params, design, &out)?;
            let reports = odp_mmu_workshop::flow::synth(&path, design.top())?;
            println!(
                "{:<6} {:>8} {:>8} {:>6} {:>5}",
                "target", "LUT", "FF", "BRAM", "DSP"
            );
            for u in &reports {
                println!(
                    "{:<6} {:>8} {:>8} {:>6} {:>5}",
                    u.target, u.luts, u.ffs, u.brams, u.dsps
                );
            }
            let mut entry = design_json(&params, design)?;
            entry.insert(
                "targets".into(),
                serde_json::to_value(&reports).map_err(|e| e.to_string())?,
            );
            let json = PathBuf::from("build/synth.json");
            odp_mmu_workshop::flow::record_json(&json, design.top(), entry.into())?;
            println!(
                "logs and full statistics in build/synth/; numbers in {}",
                json.display()
            );
        }
        Command::Pnr {
            params,
            design,
            seed,
            no_route,
            jobs,
        } => {
            let out = PathBuf::from(format!("build/{}.v", design.top()));
            let (path, ports) = write_verilog(&params, design, &out)?;
            let jobs = jobs.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
            });
            let (top, clock) = (design.top(), design.clock());
            let entry = design_json(&params, design)?;
            let runs = std::sync::Mutex::new(Vec::<odp_mmu_workshop::flow::PnrReport>::new());
            // Printed and recorded as each seed finishes: a long run stopped
            // half-way keeps the seeds it finished.
            let on_done = |r: &odp_mmu_workshop::flow::PnrReport| -> Result<(), String> {
                let mut runs = runs.lock().unwrap_or_else(|e| e.into_inner());
                print_pnr(r, no_route);
                runs.push(r.clone());
                runs.sort_by_key(|r| r.seed);
                let mut entry = entry.clone();
                let worst = runs
                    .iter()
                    .map(|r| r.fmax_mhz)
                    .fold(f64::INFINITY, f64::min);
                entry.insert("device".into(), "LFE5U-85F-8 CABGA381".into());
                entry.insert("routed".into(), (!no_route).into());
                entry.insert("fmax_mhz".into(), worst.into());
                entry.insert("target_mhz".into(), runs[0].target_mhz.into());
                entry.insert(
                    "runs".into(),
                    serde_json::to_value(&*runs).map_err(|e| e.to_string())?,
                );
                let json = PathBuf::from("build/pnr.json");
                odp_mmu_workshop::flow::record_json(&json, top, entry.into())?;
                println!(
                    "recorded in {} (fmax_mhz: the lowest of the seeds finished)",
                    json.display()
                );
                Ok(())
            };
            let reports = if no_route {
                odp_mmu_workshop::flow::pnr_placed(
                    &path, top, &ports, clock, &seed, jobs, &on_done,
                )?
            } else {
                odp_mmu_workshop::flow::pnr(&path, top, &ports, clock, &seed, jobs, &on_done)?
            };
            if reports.len() > 1 {
                let each: Vec<String> = reports
                    .iter()
                    .map(|r| format!("seed {}: {:.1} MHz", r.seed, r.fmax_mhz))
                    .collect();
                println!("Fmax per seed: {}", each.join(", "));
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
                    let (path, ports) = write_verilog(&params, design, &out)?;
                    odp_mmu_workshop::depth::run(&path, design.top(), &ports, design.clock())?
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
        Command::Bitstream { seed, out } => {
            use odp_mmu::board::versa::{Versa, CORE_MHZ};
            let mut uut = Versa::board();
            uut.connect_all();
            let verilog = odp_mmu::verilog::generate(&uut, BOARD_TOP);
            let path = PathBuf::from(format!("build/{BOARD_TOP}.v"));
            std::fs::create_dir_all("build").map_err(|e| format!("build: {e}"))?;
            std::fs::write(&path, verilog).map_err(|e| format!("{}: {e}", path.display()))?;
            let r = odp_mmu_workshop::flow::bitstream(&path, BOARD_TOP, seed, CORE_MHZ, &out)?;
            println!("{BOARD_TOP} on LFE5UM5G-45F-8 CABGA381 (ECP5-5G Versa), seed {seed}");
            for (net, achieved, constraint) in &r.clocks {
                println!("clock {net}: Fmax {achieved:.1} MHz (constraint {constraint:.1} MHz)");
            }
            println!("utilisation (nextpnr): {}", r.utilisation);
            let synth: Vec<String> = r
                .synth_cells
                .iter()
                .map(|(c, n)| format!("{c} {n}"))
                .collect();
            println!("cells (yosys): {}", synth.join(", "));
            println!("critical path: {}", r.critical_path);
            println!(
                "bitstream: {} ({} bytes), SVF: {}; {:.0} s",
                r.bitstream.display(),
                r.bit_bytes,
                r.svf.display(),
                r.seconds
            );
        }
        Command::Board { port, baud, status } => {
            use odp_mmu_workshop::board::{demo, protocol::Bridge, serial::SerialLink};
            let link = SerialLink::open(&port, baud)?;
            let mut bridge = Bridge::new(link);
            if status {
                let s = bridge.status().map_err(|e| e.to_string())?;
                println!(
                    "bridge: protocol version {}, flags {:#04x}, responses {}, NAKs {}, wakes {} waiting",
                    s.version, s.flags, s.responses, s.naks, s.wakes
                );
                use odp_mmu::control::regmap;
                for (name, addr) in [
                    ("ID", regmap::ID),
                    ("VERSION", regmap::VERSION),
                    ("STATUS", regmap::STATUS),
                    ("ERROR", regmap::ERROR),
                ] {
                    let v = bridge.csr_read(addr).map_err(|e| e.to_string())?;
                    println!("{name:<8} {v:#010x}");
                }
            } else {
                demo::run(bridge, &mut |line| println!("{line}"))?;
                println!("done: every step answered as expected");
            }
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
