//! Tree pseudo-LRU replacement state for a power-of-two number of entries.
//!
//! The tree is kept as a heap-ordered bit vector: node 1 is the root, node
//! `n` has children `2n` and `2n+1`, and entry `i` is leaf `N + i`. A node's
//! bit points at the half that holds the victim: 0 the lower half (child
//! `2n`), 1 the upper half (child `2n+1`). Bit 0 is not a node and passes
//! through unchanged. Touching an entry flips every node on its path to
//! point away from it, so the victim is always outside the most recently
//! touched entry's subtree at every level, as in the CVA6 and Ibex caches.
//!
//! [`TreePlru`] is purely combinational: the owner keeps the state in
//! flip-flops or block RAM and decides when to store `touched`. `victim`
//! depends on `state` only, so `touch` may be driven from `victim`.

use rust_hdl::prelude::*;

/// Combinational tree pseudo-LRU: victim selection and touch update.
///
/// Parameter: `N` entries, a power of two in 2..=128 (asserted by
/// [`TreePlru::new`]). Entry indices travel as 8-bit values; only the low
/// `log2(N)` bits of `touch` are used.
#[derive(LogicBlock)]
pub struct TreePlru<const N: usize> {
    /// Current tree state (bit `n` is node `n`, 1 <= n < N; bit 0 unused).
    pub state: Signal<In, Bits<N>>,
    /// Entry to mark most recently used.
    pub touch: Signal<In, Bits<8>>,
    /// Entry the tree designates for replacement under `state`.
    pub victim: Signal<Out, Bits<8>>,
    /// `state` with `touch` made most recently used.
    pub touched: Signal<Out, Bits<N>>,
    node: Signal<Local, Bits<8>>,
    parent: Signal<Local, Bits<8>>,
    away: Signal<Local, Bit>,
    leaf_base: Constant<Bits<8>>,
    index_mask: Constant<Bits<8>>,
}

impl<const N: usize> TreePlru<N> {
    /// Tree depth: log2(N).
    pub const LEVELS: usize = N.trailing_zeros() as usize;

    /// A tree over `N` entries.
    pub fn new() -> Self {
        assert!(
            N.is_power_of_two() && (2..=128).contains(&N),
            "TreePlru: N must be a power of two in 2..=128, got {N}"
        );
        Self {
            state: Default::default(),
            touch: Default::default(),
            victim: Default::default(),
            touched: Default::default(),
            node: Default::default(),
            parent: Default::default(),
            away: Default::default(),
            leaf_base: Constant::new((N as u64).into()),
            index_mask: Constant::new(((N - 1) as u64).into()),
        }
    }
}

impl<const N: usize> Default for TreePlru<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Logic for TreePlru<N> {
    #[hdl_gen]
    fn update(&mut self) {
        // Victim: walk from the root, following each node's pointer.
        self.node.next = 1.into();
        for _level in 0..Self::LEVELS {
            if self.state.val().get_bit(self.node.val().index()) {
                self.node.next = (self.node.val() << 1) | 1;
            } else {
                self.node.next = self.node.val() << 1;
            }
        }
        self.victim.next = self.node.val() & self.index_mask.val();
        // Touch: walk from the leaf up, pointing every ancestor away from it.
        self.touched.next = self.state.val();
        self.node.next = (self.touch.val() & self.index_mask.val()) | self.leaf_base.val();
        for _level in 0..Self::LEVELS {
            self.parent.next = self.node.val() >> 1;
            // A one-bit Local: Verilog widens an inline `~x[0]` to the
            // shift's context width before inverting it.
            self.away.next = !self.node.val().get_bit(0);
            self.touched.next = self
                .touched
                .val()
                .replace_bit(self.parent.val().index(), self.away.val());
            self.node.next = self.parent.val();
        }
    }
}
