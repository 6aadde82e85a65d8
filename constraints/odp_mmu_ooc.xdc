# Out-of-context clock for the odp_mmu core in Vivado (synth/vivado/build.tcl):
# 250 MHz on its one clock. Every other port is synchronous to clk; I/O
# delays belong to the design that instantiates the core.
create_clock -period 4.000 -name clk [get_ports clk]
