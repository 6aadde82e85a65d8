//! Lowest (or highest) set bit of a vector, as an index, by a balanced tree.
//!
//! A carry-chain priority encoder (`v & (!v + 1)`, then the OR of the one
//! bit's index) costs a carry chain as long as the vector plus a reduction
//! tree; this block merges neighbouring halves level by level instead: a
//! node is set when either half is, and its index is the left half's when
//! that is set, else the right half's with the level's bit set. With LUT4s
//! that is about one logic level per two tree levels, 3 to 4 levels for 64
//! bits.

use rust_hdl::prelude::*;

/// Index of the lowest set bit of `vec`, or with `high` of the highest (`N`
/// = 2^`B` bits, `B` in 1..=8).
///
/// Purely combinational: `found` is the OR of `vec`; `idx` is the lowest
/// (highest) set bit's index, 0 when `found` is low.
#[derive(LogicBlock)]
pub struct LowestSet<const N: usize, const B: usize> {
    /// The vector searched.
    pub vec: Signal<In, Bits<N>>,
    /// Search for the highest set bit instead (tie it to a constant).
    pub high: Signal<In, Bit>,
    /// Some bit of `vec` is set.
    pub found: Signal<Out, Bit>,
    /// Index of the lowest set bit.
    pub idx: Signal<Out, Bits<B>>,
    // lv[l]: bit j * 2^l is set when node j of level l (bits j * 2^l up
    // to (j + 1) * 2^l - 1 of vec) has a set bit; a node sits at its first
    // bit, so its halves at level l - 1 are bits p and p | 2^(l - 1).
    lv: [Signal<Local, Bits<N>>; 9],
    // li[l * 8 + b]: at a node's bit, bit b of its lowest set index,
    // relative to the node's first bit.
    li: [Signal<Local, Bits<N>>; 72],
    // The root's index bits 0..8.
    idx8: Signal<Local, Bits<8>>,
    // Per level: at a node's bit, the half its index comes from is the left.
    pk: Signal<Local, Bits<N>>,
}

impl<const N: usize, const B: usize> Default for LowestSet<N, B> {
    fn default() -> Self {
        assert!(
            (1..=8).contains(&B) && N == 1 << B,
            "LowestSet: N must be 2^B with B in 1..=8, got N = {N}, B = {B}"
        );
        Self {
            vec: Default::default(),
            high: Default::default(),
            found: Default::default(),
            idx: Default::default(),
            lv: std::array::from_fn(|_| Default::default()),
            li: std::array::from_fn(|_| Default::default()),
            idx8: Default::default(),
            pk: Default::default(),
        }
    }
}

impl<const N: usize, const B: usize> Logic for LowestSet<N, B> {
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..9 {
            self.lv[k].next = 0.into();
        }
        for k in 0..72 {
            self.li[k].next = 0.into();
        }
        self.found.next = false;
        self.pk.next = 0.into();
        self.lv[0].next = self.vec.val();
        self.idx8.next = 0.into();
        // Level l + 1 from level l, as whole-vector operations: the right
        // half of the node at bit p is at bit p + 2^l. The index bits are
        // written out for b = 0..8 (`hdl_gen` takes a const generic as the
        // bound of an outer loop only); bits past a level's width and bits
        // that are not a node's first bit are never read by the output.
        for l in 0..B {
            self.lv[l + 1].next = self.lv[l].val() | (self.lv[l].val() >> (1 << l));
            // Take the left half (lower indices) when it is set, or with
            // `high` when the right half is empty.
            self.pk.next = self.lv[l].val();
            if self.high.val() {
                self.pk.next = !(self.lv[l].val() >> (1 << l));
            }
            self.li[(l + 1) * 8].next = (self.pk.val() & self.li[l * 8].val())
                | ((!self.pk.val()) & (self.li[l * 8].val() >> (1 << l)));
            self.li[(l + 1) * 8 + 1].next = (self.pk.val() & self.li[l * 8 + 1].val())
                | ((!self.pk.val()) & (self.li[l * 8 + 1].val() >> (1 << l)));
            self.li[(l + 1) * 8 + 2].next = (self.pk.val() & self.li[l * 8 + 2].val())
                | ((!self.pk.val()) & (self.li[l * 8 + 2].val() >> (1 << l)));
            self.li[(l + 1) * 8 + 3].next = (self.pk.val() & self.li[l * 8 + 3].val())
                | ((!self.pk.val()) & (self.li[l * 8 + 3].val() >> (1 << l)));
            self.li[(l + 1) * 8 + 4].next = (self.pk.val() & self.li[l * 8 + 4].val())
                | ((!self.pk.val()) & (self.li[l * 8 + 4].val() >> (1 << l)));
            self.li[(l + 1) * 8 + 5].next = (self.pk.val() & self.li[l * 8 + 5].val())
                | ((!self.pk.val()) & (self.li[l * 8 + 5].val() >> (1 << l)));
            self.li[(l + 1) * 8 + 6].next = (self.pk.val() & self.li[l * 8 + 6].val())
                | ((!self.pk.val()) & (self.li[l * 8 + 6].val() >> (1 << l)));
            self.li[(l + 1) * 8 + 7].next = (self.pk.val() & self.li[l * 8 + 7].val())
                | ((!self.pk.val()) & (self.li[l * 8 + 7].val() >> (1 << l)));
            self.li[(l + 1) * 8 + l].next = !self.pk.val();
            // The root is level B's node 0: each level's assignment is
            // replaced by the next one's (an index by the const B is not
            // resolved by the Verilog generator).
            self.found.next = self.lv[l + 1].val().get_bit(0);
            self.idx8.next = 0.into();
            self.idx8.next = self
                .idx8
                .val()
                .replace_bit(0, self.li[(l + 1) * 8].val().get_bit(0));
            self.idx8.next = self
                .idx8
                .val()
                .replace_bit(1, self.li[(l + 1) * 8 + 1].val().get_bit(0));
            self.idx8.next = self
                .idx8
                .val()
                .replace_bit(2, self.li[(l + 1) * 8 + 2].val().get_bit(0));
            self.idx8.next = self
                .idx8
                .val()
                .replace_bit(3, self.li[(l + 1) * 8 + 3].val().get_bit(0));
            self.idx8.next = self
                .idx8
                .val()
                .replace_bit(4, self.li[(l + 1) * 8 + 4].val().get_bit(0));
            self.idx8.next = self
                .idx8
                .val()
                .replace_bit(5, self.li[(l + 1) * 8 + 5].val().get_bit(0));
            self.idx8.next = self
                .idx8
                .val()
                .replace_bit(6, self.li[(l + 1) * 8 + 6].val().get_bit(0));
            self.idx8.next = self
                .idx8
                .val()
                .replace_bit(7, self.li[(l + 1) * 8 + 7].val().get_bit(0));
        }
        self.idx.next = 0.into();
        if self.found.val() {
            self.idx.next = self.idx8.val().get_bits::<B>(0);
        }
    }
}
