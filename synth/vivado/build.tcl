# Out-of-context synthesis and implementation of the odp_mmu core in Vivado
# (non-project flow), with utilisation and timing reports.
#
#   cargo run --release -- verilog            # writes build/odp_mmu.v
#   vivado -mode batch -source synth/vivado/build.tcl [-tclargs PART]
#
# PART defaults to the AMD Alveo U55C's xcu55c-fsvh2892-2L-e; the clock
# target, 250 MHz, is in constraints/odp_mmu_ooc.xdc. Reports and the routed
# checkpoint go to build/vivado/. Out of context, no I/O buffers are
# inserted and the core's ports stay free, as when an integrator places it
# inside a NIC shell.
set root [file normalize [file join [file dirname [info script]] .. ..]]
set part xcu55c-fsvh2892-2L-e
if {$argc >= 1} {
    set part [lindex $argv 0]
}
set out [file join $root build vivado]
file mkdir $out

read_verilog [file join $root build odp_mmu.v]
read_xdc -mode out_of_context [file join $root constraints odp_mmu_ooc.xdc]

synth_design -top odp_mmu -part $part -mode out_of_context
report_utilization -file [file join $out synth_utilization.rpt]
report_timing_summary -file [file join $out synth_timing.rpt]

opt_design
place_design
phys_opt_design
route_design

report_utilization -file [file join $out utilization.rpt]
report_utilization -hierarchical -file [file join $out utilization_hier.rpt]
report_timing_summary -max_paths 20 -file [file join $out timing.rpt]
write_checkpoint -force [file join $out odp_mmu_routed.dcp]
