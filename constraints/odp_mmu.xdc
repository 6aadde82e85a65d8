# Timing constraint for the odp_mmu core in Vivado: 125 MHz on its clock.
# The core has a single clock domain; every other port is synchronous to clk,
# so I/O delays belong to the integrating design, not to this file.
create_clock -period 8.000 -name clk [get_ports clk]
