//! Distributed (LUT) RAM with one write port and one asynchronous read
//! port.
//!
//! Small tables that a lookup reads in the same clock (the MR table's
//! per-MR words, the small FIFOs' entries) live here rather than in
//! flip-flops: one write port means the write data and a write enable reach
//! the RAM's cells, not an enable per entry bit, and the read is a LUT's
//! delay from the address rather than a wide multiplexer spread over the
//! chip.

use rust_hdl::prelude::*;

/// Distributed RAM: one write port (at the clock edge), one asynchronous
/// read port. Synthesis maps it to LUT RAM (`ram_style = "distributed"`:
/// ECP5 `TRELLIS_DPR16X4`, UltraScale+ `RAM64M8` / `RAM256X1D`), also when
/// the read address comes from a register, which would otherwise let Yosys
/// turn it into block RAM with the slow clock-to-out this block avoids.
/// A read of the entry being written shows the old value until the edge.
#[derive(LogicBlock)]
pub struct LutRam<D: Synth, const N: usize> {
    /// Clock of the write port.
    pub clock: Signal<In, Clock>,
    /// Entry read, asynchronously.
    pub read_address: Signal<In, Bits<N>>,
    /// The entry at `read_address`.
    pub read_data: Signal<Out, D>,
    /// Entry written at the clock edge while `write_enable`.
    pub write_address: Signal<In, Bits<N>>,
    /// Word written.
    pub write_data: Signal<In, D>,
    /// Write strobe.
    pub write_enable: Signal<In, Bit>,
    _mem: Vec<D>,
}

impl<D: Synth, const N: usize> Default for LutRam<D, N> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            _mem: vec![D::default(); 1 << N],
        }
    }
}

impl<D: Synth, const N: usize> Logic for LutRam<D, N> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.write_enable.val() {
            self._mem[self.write_address.val().index()] = self.write_data.val();
        }
        self.read_data.next = self._mem[self.read_address.val().index()];
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
(* ram_style = \"distributed\" *)
reg [{msb}:0] mem[0:{last}];

always @(posedge clock) begin
   if (write_enable) begin
      mem[write_address] <= write_data;
   end
end

always @(*) begin
   read_data = mem[read_address];
end
",
            msb = D::BITS - 1,
            last = (1usize << N) - 1
        ))
    }
}
