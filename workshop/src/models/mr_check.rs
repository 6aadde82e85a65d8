//! Reference model of the MR protection check (SPEC sections 1, 2 and 5.1),
//! in plain Rust with no hardware structure: 128-bit arithmetic where the
//! hardware uses carry chains, no pipelining, no storage layout.
//!
//! The MR table's testbench checks every lookup against [`check`]; the
//! whole-core reference model reuses it.
//!
//! The codes (status, MR state, access bits, ops) are the SPEC tables of
//! `odp_mmu::spec`, as bytes.

use odp_mmu::spec::{access::byte as access, mr_state::byte as mr_state};
use odp_mmu::spec::{op::byte as op, status::byte as status};

/// The verdict besides the SPEC's OK and ACCESS_ERR: all checks pass, the MR
/// is suspended (the MR table's `STATUS_SUSPENDED`, as a byte).
pub const SUSPENDED: u8 = odp_mmu::translate::mr_table::STATUS_SUSPENDED as u8;

/// One MR table entry. `Default` is the cleared entry (INVALID, all zero).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MrEntry {
    pub tag: u8,
    pub pd: u16,
    pub base_va: u64,
    pub length: u64,
    /// Bit 0 LOCAL_WRITE, bit 1 REMOTE_WRITE, bit 2 REMOTE_READ.
    pub access: u8,
    /// Physical address bits 63:12 of the root table.
    pub root: u64,
    /// Page-table levels minus one (0..=3).
    pub levels_m1: u8,
    /// 0 INVALID, 1 VALID, 2 SUSPENDED, 3 reserved (= INVALID).
    pub state: u8,
}

/// The fields of a translation request the MR check reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MrReq {
    /// lkey / rkey: index in bits 31:8, tag in bits 7:0.
    pub key: u32,
    pub pd: u16,
    pub va: u64,
    /// Bytes, 13-bit field (legal 1..=4096).
    pub len: u16,
    /// 0 REMOTE_WRITE, 1 REMOTE_READ, 2 LOCAL_READ, 3 LOCAL_WRITE.
    pub op: u8,
}

/// The verdict on one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MrVerdict {
    /// `status::OK`, [`SUSPENDED`] or `status::ACCESS_ERR`.
    pub status: u8,
    /// `va - (base_va & !0xFFF)`, wrapping; meaningful unless ACCESS_ERR.
    pub off: u64,
    /// The access crosses a 4 KiB boundary: `(va & 0xFFF) + len > 4096`.
    pub cross: bool,
}

/// Table index named by `key` in a table of `2^idx_bits` entries (the key's
/// index bits above the table are dropped here; [`check`] refuses them).
pub fn mr_index(key: u32, idx_bits: u32) -> usize {
    ((key >> 8) & ((1u32 << idx_bits) - 1)) as usize
}

/// Checks `req` against `entry`, the entry at `mr_index(req.key, idx_bits)`
/// of a table with `2^idx_bits` entries.
pub fn check(entry: &MrEntry, req: &MrReq, idx_bits: u32) -> MrVerdict {
    let index_in_range = (req.key as u64) >> (8 + idx_bits) == 0;
    let tag_ok = (req.key & 0xFF) as u8 == entry.tag;
    let live = entry.state == mr_state::VALID || entry.state == mr_state::SUSPENDED;
    let pd_ok = req.pd == entry.pd;
    let len_ok = (1..=4096).contains(&req.len);
    let start = req.va as u128;
    let end = start + req.len as u128;
    let mr_start = entry.base_va as u128;
    // An MR ending beyond 2^64 ends at 2^64: nothing wraps around.
    let mr_end = (mr_start + entry.length as u128).min(1 << 64);
    let bounds_ok = start >= mr_start && end <= mr_end;
    let right = match req.op {
        op::REMOTE_WRITE => entry.access & access::REMOTE_WRITE != 0,
        op::REMOTE_READ => entry.access & access::REMOTE_READ != 0,
        op::LOCAL_READ => true,
        op::LOCAL_WRITE => entry.access & access::LOCAL_WRITE != 0,
        _ => false,
    };
    let status = if index_in_range && tag_ok && live && pd_ok && len_ok && bounds_ok && right {
        if entry.state == mr_state::SUSPENDED {
            SUSPENDED
        } else {
            status::OK
        }
    } else {
        status::ACCESS_ERR
    };
    MrVerdict {
        status,
        off: req.va.wrapping_sub(entry.base_va & !0xFFF),
        cross: (req.va & 0xFFF) + req.len as u64 > 4096,
    }
}
