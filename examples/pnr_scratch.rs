use rust_hdl::prelude::*;
fn main() {
    let seed: u64 = std::env::args().nth(1).unwrap().parse().unwrap();
    let mut u = odp_mmu::control::command::CommandUnit::<8>::new();
    u.connect_all();
    let v = odp_mmu::verilog::generate(&u, "command_unit");
    std::fs::create_dir_all("build/scratch").unwrap();
    let p = std::path::PathBuf::from(format!("build/scratch/command_unit_{seed}.v"));
    std::fs::write(&p, v).unwrap();
    let r = odp_mmu::flow::pnr(&p, "command_unit", "clock", seed);
    println!("{r:?}");
}
