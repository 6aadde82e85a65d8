# Out-of-context clock for the odp_mmu core in Vivado (synth/vivado/build.tcl):
# 250 MHz on its one clock. Every other port is synchronous to clk; I/O
# delays belong to the design that instantiates the core.
#
# Generated, not edited: rust-hdl's generate_xdc writes what follows from a
# 250 MHz periodic timing constraint on the clk port of odp_mmu
# (odp_mmu::xdc::clock_xdc, src/xdc.rs). Refresh with
#   ODP_BLESS=1 cargo test --release --test cli -- xdc
# generate_xdc always appends the last three lines (CFGBVS, CONFIG_VOLTAGE,
# BITSTREAM.GENERAL.COMPRESS): settings of a device's bitstream, which an
# out-of-context run ignores (it writes no bitstream).
create_clock -name clk -period 4 [get_ports { clk }]
set_property CFGBVS VCCO [current_design]
set_property CONFIG_VOLTAGE 3.3 [current_design]
set_property BITSTREAM.GENERAL.COMPRESS True [current_design]
    