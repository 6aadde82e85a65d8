# Timing constraint for the odp_mmu core in Vivado: 125 MHz on its clock.
# The core has a single clock domain; every other port is synchronous to clk,
# so I/O delays belong to the integrating design, not to this file. Read it
# out of context (read_xdc -mode out_of_context): in a run of the whole
# design its last three lines would set that design's bitstream.
#
# Generated, not edited: rust-hdl's generate_xdc writes what follows from a
# 125 MHz periodic timing constraint on the clk port of odp_mmu
# (odp_mmu::xdc::clock_xdc, src/xdc.rs). Refresh with
#   ODP_BLESS=1 cargo test --release --test cli -- xdc
# generate_xdc always appends the last three lines (CFGBVS, CONFIG_VOLTAGE,
# BITSTREAM.GENERAL.COMPRESS): settings of a device's bitstream, which an
# out-of-context run ignores (it writes no bitstream).
create_clock -name clk -period 8 [get_ports { clk }]
set_property CFGBVS VCCO [current_design]
set_property CONFIG_VOLTAGE 3.3 [current_design]
set_property BITSTREAM.GENERAL.COMPRESS True [current_design]
    