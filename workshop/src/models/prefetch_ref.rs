//! Reference model of the prefetch unit (`docs/prefetch.md`): the page
//! lookups a PREFETCH sends and the "prefetch done" record it posts, from
//! the range and the answers alone.

use super::events_ref::Record;
use odp_mmu::spec::status::byte as status;

/// One page lookup of a PREFETCH.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lookup {
    /// The range's first byte for the first page, the page's first byte
    /// for the others.
    pub va: u64,
    /// Bytes from `va` to the range's end, at least 1, saturated at
    /// 2^32 - 1.
    pub msg_len: u32,
}

/// The pages of `[lo, hi)` (`hi` all ones stands for 2^64; the command
/// unit never hands over an empty range): how many lookups it sends.
pub fn pages(lo: u64, hi: u64) -> u64 {
    ((hi - 1) >> 12) - (lo >> 12) + 1
}

/// The `k`-th lookup of `[lo, hi)`, `k < pages(lo, hi)`.
pub fn lookup(lo: u64, hi: u64, k: u64) -> Lookup {
    assert!(
        k < pages(lo, hi),
        "lookup {k} of a {}-page range",
        pages(lo, hi)
    );
    let va = if k == 0 {
        lo
    } else {
        (lo & !0xfff) + (k << 12)
    };
    let msg_len = (hi - va).clamp(1, u32::MAX as u64) as u32;
    Lookup { va, msg_len }
}

/// The page counts of a PREFETCH: filled, faulted, refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub filled: u32,
    pub faulted: u32,
    pub refused: u32,
}

impl Counts {
    /// Counts one answer of the translator (`status::byte`).
    pub fn count(&mut self, st: u8) {
        match st {
            status::OK => self.filled = self.filled.wrapping_add(1),
            status::RNR | status::STALL => self.faulted = self.faulted.wrapping_add(1),
            _ => self.refused = self.refused.wrapping_add(1),
        }
    }

    /// The "prefetch done" record of MR `mr` with doorbell tag `tag`.
    pub fn record(&self, mr: u8, tag: u8) -> Record {
        Record::prefetch_done(
            mr as u16,
            tag as u32,
            self.filled,
            self.faulted,
            self.refused,
        )
    }
}
