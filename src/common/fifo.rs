//! A small first-word-fall-through FIFO: entries in LUT RAM, pointers and
//! count in registers.
//!
//! rust-hdl's `SynchronousFIFO` reads through a block RAM and shows a written
//! word two clocks later; response paths with a latency budget need the word
//! on the output the clock after it is written. The entries live in
//! distributed RAM ([`LutRam`]): one write port, so a push drives the write
//! data, the write pointer and one enable, not an enable for every entry bit,
//! and the output is the RAM's asynchronous read at the read pointer, a LUT's
//! delay, not a multiplexer over `DEPTH` words of flip-flops. `DEPTH` is
//! 2..=16 (one ECP5 `TRELLIS_DPR16X4` is 16 deep).

use rust_hdl::prelude::*;

use crate::common::lut_ram::LutRam;

/// FWFT FIFO of `DEPTH` = 2^`PTR_BITS` entries of `D`.
///
/// - `push` with `data_in` writes when not `full` (a push while full is
///   ignored and raises `overflow` for one clock, also when a pop frees a
///   slot in the same clock: a caller bug a testbench monitors);
/// - `data_out` is the oldest entry while `!empty`; `pop` removes it;
/// - `count` is the number of entries (registered);
/// - a push and a pop in the same clock are both honoured unless the FIFO
///   is full. The write enable does not depend on `pop`, so a consumer's
///   `ready` (which decides `pop`) reaches only the read pointer and the
///   count, not the RAM's write port.
///
/// Latency: a word pushed at a rising edge is on `data_out` after that edge.
/// `rst` (synchronous) empties the FIFO.
#[derive(LogicBlock)]
pub struct SmallFifo<D: Synth, const DEPTH: usize, const PTR_BITS: usize, const CNT_BITS: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the FIFO.
    pub rst: Signal<In, Bit>,
    /// Write strobe.
    pub push: Signal<In, Bit>,
    /// Word to write.
    pub data_in: Signal<In, D>,
    /// Read strobe: removes `data_out`.
    pub pop: Signal<In, Bit>,
    /// Oldest word, valid while `!empty`.
    pub data_out: Signal<Out, D>,
    /// No entry.
    pub empty: Signal<Out, Bit>,
    /// `DEPTH` entries.
    pub full: Signal<Out, Bit>,
    /// Number of entries.
    pub count: Signal<Out, Bits<CNT_BITS>>,
    /// A push was refused because the FIFO was full.
    pub overflow: Signal<Out, Bit>,
    /// Slot `data_out` is read from: for a caller that keeps state of its
    /// own per queued word in registers, indexed like the FIFO's slots.
    pub rd_ptr: Signal<Out, Bits<PTR_BITS>>,
    /// Slot the next push writes (see `rd_ptr`).
    pub wr_ptr: Signal<Out, Bits<PTR_BITS>>,
    slots: LutRam<D, PTR_BITS>,
    rd: DFF<Bits<PTR_BITS>>,
    wr: DFF<Bits<PTR_BITS>>,
    cnt: DFF<Bits<CNT_BITS>>,
    depth: Constant<Bits<CNT_BITS>>,
    do_push: Signal<Local, Bit>,
    do_pop: Signal<Local, Bit>,
}

impl<D: Synth, const DEPTH: usize, const PTR_BITS: usize, const CNT_BITS: usize> Default
    for SmallFifo<D, DEPTH, PTR_BITS, CNT_BITS>
{
    fn default() -> Self {
        assert!(
            DEPTH.is_power_of_two() && (2..=16).contains(&DEPTH),
            "SmallFifo: DEPTH must be a power of two in 2..=16, got {DEPTH}"
        );
        assert_eq!(
            1 << PTR_BITS,
            DEPTH,
            "SmallFifo: PTR_BITS must be log2(DEPTH)"
        );
        assert_eq!(
            CNT_BITS,
            PTR_BITS + 1,
            "SmallFifo: CNT_BITS must be PTR_BITS + 1"
        );
        Self {
            clock: Default::default(),
            rst: Default::default(),
            push: Default::default(),
            data_in: Default::default(),
            pop: Default::default(),
            data_out: Default::default(),
            empty: Default::default(),
            full: Default::default(),
            count: Default::default(),
            overflow: Default::default(),
            rd_ptr: Default::default(),
            wr_ptr: Default::default(),
            slots: Default::default(),
            rd: Default::default(),
            wr: Default::default(),
            cnt: Default::default(),
            depth: Constant::new((DEPTH as u64).into()),
            do_push: Default::default(),
            do_pop: Default::default(),
        }
    }
}

impl<D: Synth, const DEPTH: usize, const PTR_BITS: usize, const CNT_BITS: usize> Logic
    for SmallFifo<D, DEPTH, PTR_BITS, CNT_BITS>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rd, wr, cnt);
        self.slots.clock.next = self.clock.val();
        self.empty.next = self.cnt.q.val() == 0;
        self.full.next = self.cnt.q.val() == self.depth.val();
        self.count.next = self.cnt.q.val();
        self.rd_ptr.next = self.rd.q.val();
        self.wr_ptr.next = self.wr.q.val();
        self.do_pop.next = self.pop.val() & (self.cnt.q.val() != 0);
        self.do_push.next = self.push.val() & (self.cnt.q.val() != self.depth.val());
        self.overflow.next = self.push.val() & (!self.do_push.val());
        self.slots.read_address.next = self.rd.q.val();
        self.data_out.next = self.slots.read_data.val();
        self.slots.write_address.next = self.wr.q.val();
        self.slots.write_data.next = self.data_in.val();
        self.slots.write_enable.next = self.do_push.val();
        if self.do_push.val() {
            self.wr.d.next = self.wr.q.val() + 1;
        }
        if self.do_pop.val() {
            self.rd.d.next = self.rd.q.val() + 1;
        }
        if self.do_push.val() & (!self.do_pop.val()) {
            self.cnt.d.next = self.cnt.q.val() + 1;
        }
        if self.do_pop.val() & (!self.do_push.val()) {
            self.cnt.d.next = self.cnt.q.val() - 1;
        }
        if self.rst.val() {
            self.rd.d.next = 0.into();
            self.wr.d.next = 0.into();
            self.cnt.d.next = 0.into();
        }
    }
}
