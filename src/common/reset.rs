//! A registered copy of a synchronous reset, one per group of loads.
//!
//! A reset that comes straight from one flip-flop reaches every register
//! of a block, and on a large block such a net spans the chip: its route
//! from one end to the other takes most of a 125 MHz clock before any
//! logic. A block that registers its reset into a copy per group of loads
//! (a sub-block, a pipeline, its outputs' logic) lets the placer put each
//! copy beside its group; the cost is one clock of reset latency, which
//! the owner documents ("`rst` is registered: the block acts on it one
//! clock later").
//!
//! Synthesis merges flip-flops whose inputs are the same signals, which
//! would fold every copy back into one register. A [`ResetCopy`] therefore
//! loads `rst` only when it differs from the copy's own value: the same
//! sequence as loading it every clock, but each copy's enable depends on
//! its own output, so no two copies have the same inputs and each stays
//! a register of its own (in Yosys and in any tool without sequential
//! equivalence merging).

use rust_hdl::prelude::*;

/// `q` is `rst` one clock later; see the module documentation for why it
/// is a block. Its power-up value is 0 (not in reset).
#[derive(LogicBlock, Default)]
pub struct ResetCopy {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The reset to copy.
    pub rst: Signal<In, Bit>,
    /// `rst` of the clock before.
    pub q: Signal<Out, Bit>,
    r: DFF<Bit>,
}

impl Logic for ResetCopy {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r);
        if self.rst.val() ^ self.r.q.val() {
            self.r.d.next = self.rst.val();
        }
        self.q.next = self.r.q.val();
    }
}
