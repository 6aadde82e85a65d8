//! The product's code tables, each defined once.
//!
//! Every number the product specification fixes for the core's ports, the
//! page tables in host memory and the packets it sends is declared here, and
//! every block, reference model, driver and testbench takes it from here.
//!
//! | table | module | SPEC | used by |
//! |---|---|---|---|
//! | response status on `m_xrsp_status` | [`status`] | 2 | translator, per-QP responder, `odp_mmu` counters, translation and responder models, testbenches |
//! | request op on `s_xreq_op` | [`op`] | 2 | MR table, translator, MR check and environment models |
//! | MR state | [`mr_state`] | 1, 4 | MR table, command unit, MR check model, driver, testbenches |
//! | MR access rights | [`access`] | 1, 5.1 | MR table, MR check model, driver, testbenches |
//! | PTE bits and fields | [`pte`] | 3 | walker, page-table builder and reference walk |
//! | page sizes (codes, shifts) | [`page_size`], [`PageSize`] | 1, 3 | walker, TLB, translator, page-table and TLB models, driver |
//! | BTH opcode and AETH syndromes | [`aeth`] | 2 | per-QP responder, responder model |
//! | RNR timer codes (IBTA) | [`rnr_timer`] | 2, 4 | adaptive RNR timer, CSR reset value, responder model |
//! | QP command kinds | [`qp_cmd`] | 4 | per-QP responder, command unit, responder model |
//! | event kinds | [`event`] | 4 | event-ring writer, event model, driver |
//!
//! Each table is a module of `u64` constants: the RTL uses them as they are
//! (`Constant::new(aeth::RNR_NAK.into())`, in comparisons of its own
//! source, see below), the models and tests through the typed forms derived
//! from those same constants: an enum with `code` / `from_code` where the
//! table is a closed set (`Status`, `Op`, `MrState`, `PageSize`), and, where
//! a model field is a byte, the table's `byte` module (`status::byte::OK` is
//! `status::OK as u8`), which match patterns can use.
//!
//! Not here, because the specification leaves them to the project: the
//! register map and the command opcodes (`control::regmap`, the one source of
//! the registers, their C header and `docs/registers.md`), the command
//! result codes (`control::command`), the event record layout and the event
//! ring's limits (`fault`), and each block's internal codes (the walker's
//! completion status, the TLB's invalidation kinds, the MR table's verdict),
//! which stay with their block, named.
//!
//! # Literals in the RTL
//!
//! rust-hdl's `#[hdl_gen]` writes a path such as `status::FATAL` into the
//! Verilog as a signal name, and a `Constant` field becomes a `localparam`;
//! so a code compared or assigned inside an `update` stays a literal, and the
//! line names the constant it stands for in a trailing comment:
//! `self.o_status.next = 5.into(); // = status::FATAL`. A unit test of this
//! module reads every RTL source and fails if such a literal differs from
//! the constant its comment names, or if a line's count of named literals
//! and names differ.

/// Response status, `m_xrsp_status[2:0]` (SPEC section 2).
pub mod status {
    /// Translated: `pa` / `seg_len` are good.
    pub const OK: u64 = 0;
    /// Remote op, page not present or MR suspended: an RNR NAK was emitted.
    pub const RNR: u64 = 1;
    /// Local op, same causes as RNR: wait for `m_wake`.
    pub const STALL: u64 = 2;
    /// Remote op on a QP that awaits the retransmission of an earlier NAK'd
    /// PSN: discard silently.
    pub const DROP: u64 = 3;
    /// Bad key index or tag, PD mismatch, out of MR bounds, missing access
    /// right, MR invalid, or bad request fields (`len` 0 or > 4096, `qpn` out
    /// of range); remote ops also get a NAK with syndrome
    /// [`aeth::REMOTE_ACCESS_ERR`](super::aeth::REMOTE_ACCESS_ERR).
    pub const ACCESS_ERR: u64 = 4;
    /// Host memory error during a walk, or the driver resolved the fault with
    /// an error; remote ops get a NAK with syndrome
    /// [`aeth::REMOTE_OP_ERR`](super::aeth::REMOTE_OP_ERR).
    pub const FATAL: u64 = 5;
    /// Bits of the status field.
    pub const BITS: usize = 3;

    /// The table as bytes, for models whose status is a `u8`.
    pub mod byte {
        /// [`OK`](super::OK).
        pub const OK: u8 = super::OK as u8;
        /// [`RNR`](super::RNR).
        pub const RNR: u8 = super::RNR as u8;
        /// [`STALL`](super::STALL).
        pub const STALL: u8 = super::STALL as u8;
        /// [`DROP`](super::DROP).
        pub const DROP: u8 = super::DROP as u8;
        /// [`ACCESS_ERR`](super::ACCESS_ERR).
        pub const ACCESS_ERR: u8 = super::ACCESS_ERR as u8;
        /// [`FATAL`](super::FATAL).
        pub const FATAL: u8 = super::FATAL as u8;
    }
}

/// The response status as a type (SPEC section 2); codes from [`status`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Status {
    /// [`status::OK`].
    Ok = status::byte::OK,
    /// [`status::RNR`].
    Rnr = status::byte::RNR,
    /// [`status::STALL`].
    Stall = status::byte::STALL,
    /// [`status::DROP`].
    Drop = status::byte::DROP,
    /// [`status::ACCESS_ERR`].
    AccessErr = status::byte::ACCESS_ERR,
    /// [`status::FATAL`].
    Fatal = status::byte::FATAL,
}

impl Status {
    /// Every status, in code order.
    pub const ALL: [Status; 6] = [
        Status::Ok,
        Status::Rnr,
        Status::Stall,
        Status::Drop,
        Status::AccessErr,
        Status::Fatal,
    ];
    /// The code on `m_xrsp_status`.
    pub const fn code(self) -> u64 {
        self as u64
    }
    /// The status a code stands for; `None` for 6 and 7.
    pub fn from_code(code: u64) -> Option<Status> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }
    /// The SPEC's name (`"ACCESS_ERR"`).
    pub const fn name(self) -> &'static str {
        match self {
            Status::Ok => "OK",
            Status::Rnr => "RNR",
            Status::Stall => "STALL",
            Status::Drop => "DROP",
            Status::AccessErr => "ACCESS_ERR",
            Status::Fatal => "FATAL",
        }
    }
}

/// Request op, `s_xreq_op[1:0]` (SPEC section 2), and the access right each
/// needs (SPEC section 5.1).
pub mod op {
    /// RDMA WRITE landing here; needs
    /// [`access::REMOTE_WRITE`](super::access::REMOTE_WRITE) and a W PTE.
    pub const REMOTE_WRITE: u64 = 0;
    /// RDMA READ served from here; needs
    /// [`access::REMOTE_READ`](super::access::REMOTE_READ).
    pub const REMOTE_READ: u64 = 1;
    /// Local DMA read; always allowed on a live MR.
    pub const LOCAL_READ: u64 = 2;
    /// Local DMA write; needs
    /// [`access::LOCAL_WRITE`](super::access::LOCAL_WRITE) and a W PTE.
    pub const LOCAL_WRITE: u64 = 3;

    /// The table as bytes, for models whose op is a `u8`.
    pub mod byte {
        /// [`REMOTE_WRITE`](super::REMOTE_WRITE).
        pub const REMOTE_WRITE: u8 = super::REMOTE_WRITE as u8;
        /// [`REMOTE_READ`](super::REMOTE_READ).
        pub const REMOTE_READ: u8 = super::REMOTE_READ as u8;
        /// [`LOCAL_READ`](super::LOCAL_READ).
        pub const LOCAL_READ: u8 = super::LOCAL_READ as u8;
        /// [`LOCAL_WRITE`](super::LOCAL_WRITE).
        pub const LOCAL_WRITE: u8 = super::LOCAL_WRITE as u8;
    }
}

/// The request op as a type (SPEC section 2); codes from [`op`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Op {
    /// [`op::REMOTE_WRITE`].
    RemoteWrite = op::byte::REMOTE_WRITE,
    /// [`op::REMOTE_READ`].
    RemoteRead = op::byte::REMOTE_READ,
    /// [`op::LOCAL_READ`].
    LocalRead = op::byte::LOCAL_READ,
    /// [`op::LOCAL_WRITE`].
    LocalWrite = op::byte::LOCAL_WRITE,
}

impl Op {
    /// Every op, in code order.
    pub const ALL: [Op; 4] = [
        Op::RemoteWrite,
        Op::RemoteRead,
        Op::LocalRead,
        Op::LocalWrite,
    ];
    /// The code on `s_xreq_op`.
    pub const fn code(self) -> u64 {
        self as u64
    }
    /// The op a 2-bit code stands for.
    pub fn from_code(code: u64) -> Option<Op> {
        Self::ALL.into_iter().find(|o| o.code() == code)
    }
    /// A remote op: a fault answers RNR and sends a NAK (a local one
    /// answers STALL).
    pub const fn is_remote(self) -> bool {
        matches!(self, Op::RemoteWrite | Op::RemoteRead)
    }
    /// A write: needs a writable (W) leaf PTE.
    pub const fn is_write(self) -> bool {
        matches!(self, Op::RemoteWrite | Op::LocalWrite)
    }
}

/// MR state, the `STATE` field of an MR (SPEC sections 1 and 4: MR write,
/// suspend / resume).
pub mod mr_state {
    /// Unused entry: every lookup gets ACCESS_ERR.
    pub const INVALID: u64 = 0;
    /// Live: translations proceed.
    pub const VALID: u64 = 1;
    /// Suspended by the driver: lookups that pass every check get RNR (remote)
    /// or STALL (local) until it is resumed.
    pub const SUSPENDED: u64 = 2;
    /// Reserved; behaves as INVALID.
    pub const RESERVED: u64 = 3;

    /// The table as bytes, for models whose state is a `u8`.
    pub mod byte {
        /// [`INVALID`](super::INVALID).
        pub const INVALID: u8 = super::INVALID as u8;
        /// [`VALID`](super::VALID).
        pub const VALID: u8 = super::VALID as u8;
        /// [`SUSPENDED`](super::SUSPENDED).
        pub const SUSPENDED: u8 = super::SUSPENDED as u8;
        /// [`RESERVED`](super::RESERVED).
        pub const RESERVED: u8 = super::RESERVED as u8;
    }
}

/// The MR state as a type; codes from [`mr_state`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MrState {
    /// [`mr_state::INVALID`].
    Invalid = mr_state::byte::INVALID,
    /// [`mr_state::VALID`].
    Valid = mr_state::byte::VALID,
    /// [`mr_state::SUSPENDED`].
    Suspended = mr_state::byte::SUSPENDED,
    /// [`mr_state::RESERVED`].
    Reserved = mr_state::byte::RESERVED,
}

impl MrState {
    /// Every state, in code order.
    pub const ALL: [MrState; 4] = [
        MrState::Invalid,
        MrState::Valid,
        MrState::Suspended,
        MrState::Reserved,
    ];
    /// The 2-bit code.
    pub const fn code(self) -> u64 {
        self as u64
    }
    /// The state a 2-bit code stands for.
    pub fn from_code(code: u64) -> Option<MrState> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }
    /// VALID or SUSPENDED: the MR's checks apply (otherwise ACCESS_ERR).
    pub const fn is_live(self) -> bool {
        matches!(self, MrState::Valid | MrState::Suspended)
    }
}

/// MR access rights, the `ACCESS` bits of an MR (SPEC sections 1 and 5.1;
/// the order of ibverbs' `IBV_ACCESS_*`).
pub mod access {
    /// Bit 0, `IBV_ACCESS_LOCAL_WRITE`: LOCAL_WRITE ops allowed.
    pub const LOCAL_WRITE: u64 = 1 << 0;
    /// Bit 1, `IBV_ACCESS_REMOTE_WRITE`: REMOTE_WRITE ops allowed.
    pub const REMOTE_WRITE: u64 = 1 << 1;
    /// Bit 2, `IBV_ACCESS_REMOTE_READ`: REMOTE_READ ops allowed.
    pub const REMOTE_READ: u64 = 1 << 2;
    /// Bits of the field.
    pub const BITS: usize = 3;

    /// The bits as bytes, for models whose access field is a `u8`.
    pub mod byte {
        /// [`LOCAL_WRITE`](super::LOCAL_WRITE).
        pub const LOCAL_WRITE: u8 = super::LOCAL_WRITE as u8;
        /// [`REMOTE_WRITE`](super::REMOTE_WRITE).
        pub const REMOTE_WRITE: u8 = super::REMOTE_WRITE as u8;
        /// [`REMOTE_READ`](super::REMOTE_READ).
        pub const REMOTE_READ: u8 = super::REMOTE_READ as u8;
    }
}

/// Page-table entry bits and fields (SPEC section 3): little-endian 64-bit
/// entries, 512 to a 4 KiB table.
pub mod pte {
    /// Bit 0 `P`: present; a clear P at any level is a page fault.
    pub const P: u64 = 1 << 0;
    /// Bit 1 `W`: writable; a write op to a leaf with W clear is a (write)
    /// page fault.
    pub const W: u64 = 1 << 1;
    /// Bit 7 `H`: at level 1 a 2 MiB leaf, at level 2 a 1 GiB leaf, ignored
    /// at level 0, reserved (FATAL) at level 3.
    pub const H: u64 = 1 << 7;
    /// Bits 51:12: the physical address of the next table or of the frame.
    pub const ADDR_MASK: u64 = ((1u64 << 52) - 1) & !0xfff;
    /// Entries of one table (a 9-bit index per level).
    pub const ENTRIES: u64 = 512;
    /// Bytes of one entry.
    pub const BYTES: u64 = 8;
    /// Bits of `off` each level indexes.
    pub const INDEX_BITS: u32 = 9;
    /// Most levels a tree has (`levels` is 1..=4).
    pub const MAX_LEVELS: u32 = 4;
}

/// Leaf page sizes: the 2-bit size code the walker reports and the TLB
/// stores (the level of the leaf, SPEC sections 1 and 3), and each size's
/// shift.
pub mod page_size {
    /// Code of a 4 KiB page (a level-0 leaf).
    pub const SIZE_4K: u64 = 0;
    /// Code of a 2 MiB page (an H leaf at level 1).
    pub const SIZE_2M: u64 = 1;
    /// Code of a 1 GiB page (an H leaf at level 2).
    pub const SIZE_1G: u64 = 2;
    /// log2 of 4 KiB, the base page and table size.
    pub const SHIFT_4K: u32 = 12;
    /// log2 of 2 MiB.
    pub const SHIFT_2M: u32 = SHIFT_4K + super::pte::INDEX_BITS;
    /// log2 of 1 GiB.
    pub const SHIFT_1G: u32 = SHIFT_2M + super::pte::INDEX_BITS;
}

/// A leaf page size as a type; codes and shifts from [`page_size`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PageSize {
    /// 4 KiB ([`page_size::SIZE_4K`]).
    Size4K,
    /// 2 MiB ([`page_size::SIZE_2M`]).
    Size2M,
    /// 1 GiB ([`page_size::SIZE_1G`]).
    Size1G,
}

impl PageSize {
    /// Every size, smallest first.
    pub const ALL: [PageSize; 3] = [PageSize::Size4K, PageSize::Size2M, PageSize::Size1G];
    /// The size code (walker `done_size`, TLB `res_size`).
    pub const fn code(self) -> u64 {
        match self {
            PageSize::Size4K => page_size::SIZE_4K,
            PageSize::Size2M => page_size::SIZE_2M,
            PageSize::Size1G => page_size::SIZE_1G,
        }
    }
    /// The size a code stands for; `None` for 3.
    pub fn from_code(code: u64) -> Option<PageSize> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }
    /// The level the leaf sits at (0, 1 or 2).
    pub const fn level(self) -> u8 {
        self.code() as u8
    }
    /// log2 of the size in bytes.
    pub const fn shift(self) -> u32 {
        match self {
            PageSize::Size4K => page_size::SHIFT_4K,
            PageSize::Size2M => page_size::SHIFT_2M,
            PageSize::Size1G => page_size::SHIFT_1G,
        }
    }
    /// The size in bytes.
    pub const fn bytes(self) -> u64 {
        1 << self.shift()
    }
}

/// The NAK header's BTH opcode and AETH syndromes (SPEC section 2; IBTA
/// vol. 1, 9.7.5.1 and table 44).
pub mod aeth {
    /// BTH opcode of an RC Acknowledge, the packet that carries every NAK.
    pub const BTH_OPCODE_RC_ACK: u64 = 0x11;
    /// Syndrome of an RNR NAK; the low five bits carry the RNR timer code
    /// ([`rnr_timer`](super::rnr_timer)).
    pub const RNR_NAK: u64 = 0x20;
    /// Syndrome of a NAK "remote access error" (status ACCESS_ERR).
    pub const REMOTE_ACCESS_ERR: u64 = 0x62;
    /// Syndrome of a NAK "remote operational error" (status FATAL).
    pub const REMOTE_OP_ERR: u64 = 0x63;
    /// Bits of the RNR timer code in an RNR NAK syndrome.
    pub const TIMER_MASK: u64 = 0x1f;
}

/// IBTA RNR timer codes (SPEC sections 2 and 4).
pub mod rnr_timer {
    /// The time each 5-bit code stands for, in microseconds, indexed by code:
    /// 0 = 655.36 ms, 1 = 0.01 ms, ..., 31 = 491.52 ms.
    pub const US: [u32; 32] = [
        655_360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1_280, 1_920, 2_560,
        3_840, 5_120, 7_680, 10_240, 15_360, 20_480, 30_720, 40_960, 61_440, 81_920, 122_880,
        163_840, 245_760, 327_680, 491_520,
    ];
    /// Reset value of the global RNR timer code: 12 = 0.64 ms. Never 0, which
    /// means 655.36 ms: a sender told that stops for more than half a second
    /// per fault.
    pub const RESET_CODE: u64 = 12;
}

/// QP commands (SPEC section 4: QP reset, per-QP state), the `kind` of the
/// per-QP responder's command port.
pub mod qp_cmd {
    /// Clear every per-QP state: not waiting, not in error, no timer
    /// override.
    pub const RESET: u64 = 0;
    /// Put the QP into the error state (the driver resolved a fault of it
    /// with an error): its later requests get FATAL.
    pub const SET_ERROR: u64 = 1;
    /// Set the QP's RNR timer override to the command's `timer`.
    pub const SET_TIMER: u64 = 2;
    /// Remove the QP's RNR timer override.
    pub const CLEAR_TIMER: u64 = 3;
}

/// Event kinds (SPEC section 4), word 0 `[7:0]` of an event record (the
/// record's layout: `fault`).
pub mod event {
    /// A page fault (token, MR, QPN, op, page VA, prefetch hint).
    pub const PAGE_FAULT: u64 = 1;
    /// An invalidation is done (tag).
    pub const INV_DONE: u64 = 2;
    /// A prefetch is done (tag, pages filled, pages faulted).
    pub const PREFETCH_DONE: u64 = 3;
    /// An MR is suspended (MR index).
    pub const MR_SUSPENDED: u64 = 4;
    /// An error (error code, MR index, detail word).
    pub const ERROR: u64 = 5;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_forms_round_trip_their_codes() {
        for s in Status::ALL {
            assert_eq!(Status::from_code(s.code()), Some(s));
        }
        assert_eq!(Status::from_code(6), None);
        for o in Op::ALL {
            assert_eq!(Op::from_code(o.code()), Some(o));
        }
        for m in MrState::ALL {
            assert_eq!(MrState::from_code(m.code()), Some(m));
        }
        for p in PageSize::ALL {
            assert_eq!(PageSize::from_code(p.code()), Some(p));
            assert_eq!(p.bytes(), 1 << (12 + 9 * p.level() as u64));
        }
        assert_eq!(PageSize::from_code(3), None);
        assert_eq!(rnr_timer::US[rnr_timer::RESET_CODE as usize], 640);
    }

    /// The SPEC constants a `// = NAME` comment in the RTL may name.
    fn spec_value(name: &str) -> Option<u64> {
        Some(match name {
            "status::OK" => status::OK,
            "status::RNR" => status::RNR,
            "status::STALL" => status::STALL,
            "status::DROP" => status::DROP,
            "status::ACCESS_ERR" => status::ACCESS_ERR,
            "status::FATAL" => status::FATAL,
            "op::REMOTE_WRITE" => op::REMOTE_WRITE,
            "op::REMOTE_READ" => op::REMOTE_READ,
            "op::LOCAL_READ" => op::LOCAL_READ,
            "op::LOCAL_WRITE" => op::LOCAL_WRITE,
            "mr_state::INVALID" => mr_state::INVALID,
            "mr_state::VALID" => mr_state::VALID,
            "mr_state::SUSPENDED" => mr_state::SUSPENDED,
            "mr_state::RESERVED" => mr_state::RESERVED,
            "page_size::SIZE_4K" => page_size::SIZE_4K,
            "page_size::SIZE_2M" => page_size::SIZE_2M,
            "page_size::SIZE_1G" => page_size::SIZE_1G,
            "qp_cmd::RESET" => qp_cmd::RESET,
            "qp_cmd::SET_ERROR" => qp_cmd::SET_ERROR,
            "qp_cmd::SET_TIMER" => qp_cmd::SET_TIMER,
            "qp_cmd::CLEAR_TIMER" => qp_cmd::CLEAR_TIMER,
            _ => return None,
        })
    }

    /// The block-internal constants each RTL file's comments may name.
    fn block_value(file: &str, name: &str) -> Option<u64> {
        use crate::control::{command, regmap};
        use crate::translate::{mr_table, tlb, walker};
        Some(match (file, name) {
            ("translate/walker.rs", "STATUS_OK") => walker::STATUS_OK,
            ("translate/walker.rs", "STATUS_NOT_PRESENT") => walker::STATUS_NOT_PRESENT,
            ("translate/walker.rs", "STATUS_FATAL") => walker::STATUS_FATAL,
            ("translate/mod.rs", "walker::STATUS_OK") => walker::STATUS_OK,
            ("translate/mod.rs", "walker::STATUS_NOT_PRESENT") => walker::STATUS_NOT_PRESENT,
            ("translate/mod.rs", "mr_table::STATUS_SUSPENDED") => mr_table::STATUS_SUSPENDED,
            ("translate/tlb.rs", "INV_ALL") => tlb::INV_ALL,
            ("translate/tlb.rs", "INV_BY_MR") => tlb::INV_BY_MR,
            ("translate/tlb.rs", "INV_BY_MR_RANGE") => tlb::INV_BY_MR_RANGE,
            ("translate/tlb.rs", "INV_RESERVED") => tlb::INV_RESERVED,
            ("fault/responder.rs", "ROOM_LIMIT") => crate::fault::responder::ROOM_LIMIT,
            ("control/command.rs", "RES_OK") => command::RES_OK,
            ("control/command.rs", "RES_UNKNOWN_OP") => command::RES_UNKNOWN_OP,
            ("control/command.rs", "RES_NOT_BUILT") => command::RES_NOT_BUILT,
            ("control/command.rs", "RES_MR_RANGE") => command::RES_MR_RANGE,
            ("control/command.rs", "RES_BAD_FIELD") => command::RES_BAD_FIELD,
            ("control/command.rs", "RES_RANGE_WRAPS") => command::RES_RANGE_WRAPS,
            ("control/command.rs", "RES_ROOT_UNALIGNED") => command::RES_ROOT_UNALIGNED,
            ("control/command.rs", "RES_STALE_TOKEN") => command::RES_STALE_TOKEN,
            ("control/command.rs", "RES_QP_RANGE") => command::RES_QP_RANGE,
            // In the command unit, `op::` is the register map's opcodes.
            ("control/command.rs", "op::MR_WRITE") => regmap::op::MR_WRITE.into(),
            ("control/command.rs", "op::MR_SET_STATE") => regmap::op::MR_SET_STATE.into(),
            ("control/command.rs", "op::MR_SUSPEND") => regmap::op::MR_SUSPEND.into(),
            ("control/command.rs", "op::PREFETCH") => regmap::op::PREFETCH.into(),
            ("control/command.rs", "op::MR_RESUME") => regmap::op::MR_RESUME.into(),
            ("control/command.rs", "op::INVALIDATE") => regmap::op::INVALIDATE.into(),
            ("control/command.rs", "RES_EMPTY_RANGE") => command::RES_EMPTY_RANGE,
            ("control/command.rs", "RES_INV_BUSY") => command::RES_INV_BUSY,
            ("control/command.rs", "RES_PF_BUSY") => command::RES_PF_BUSY,
            ("control/command.rs", "IV_RANGE") => crate::control::inval::IV_RANGE,
            ("control/command.rs", "IV_MR") => crate::control::inval::IV_MR,
            ("control/command.rs", "IV_ALL") => crate::control::inval::IV_ALL,
            ("control/command.rs", "IV_SUSPEND") => crate::control::inval::IV_SUSPEND,
            ("control/command.rs", "op::RESUME_FAULT") => regmap::op::RESUME_FAULT.into(),
            ("control/command.rs", "op::QP_RESET") => regmap::op::QP_RESET.into(),
            ("control/command.rs", "op::QP_RNR_TIMER") => regmap::op::QP_RNR_TIMER.into(),
            ("control/mr_waiters.rs", "SETTLE_CLOCKS") => crate::control::mr_waiters::SETTLE_CLOCKS,
            ("top.rs", "prefetch::PF_WAIT_MAX") => crate::control::prefetch::PF_WAIT_MAX,
            (_, _) => return spec_value(name),
        })
    }

    /// The numbers a line of RTL compares with or assigns: `== N`, `>= N`,
    /// `<= N`, `N.into()`, in the order they appear.
    fn literals(code: &str) -> Vec<u64> {
        let b = code.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii_digit()
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            {
                let mut j = i;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                let tok = &code[i..j];
                let before = code[..i].trim_end();
                let compared =
                    before.ends_with("==") || before.ends_with(">=") || before.ends_with("<=");
                let assigned = code[j..].starts_with(".into()");
                if compared || assigned {
                    let t = tok.replace('_', "");
                    let v = match t.strip_prefix("0x") {
                        Some(h) => u64::from_str_radix(h, 16),
                        None => t.parse(),
                    };
                    if let Ok(v) = v {
                        out.push(v);
                    }
                }
                i = j;
            } else {
                i += 1;
            }
        }
        out
    }

    /// The constants a `// = A, B, ...` comment names (a name is a path
    /// such as `status::FATAL` or `SLOT_READY`; the first word that is not
    /// one ends the list).
    fn names(comment: &str) -> Vec<&str> {
        let mut out = Vec::new();
        for tok in comment.split(',') {
            let tok = tok.trim();
            let end = tok
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tok.len());
            let path = tok[..end].trim_end_matches(':');
            let last = path.rsplit("::").next().unwrap_or("");
            if last.is_empty()
                || !last
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            {
                break;
            }
            out.push(path);
        }
        out
    }

    /// Every literal a comment of the RTL names equals the constant named.
    #[test]
    fn named_literals_in_the_rtl_equal_their_constants() {
        let files: [(&str, &str); 8] = [
            ("fault/responder.rs", include_str!("fault/responder.rs")),
            ("top.rs", include_str!("top.rs")),
            ("translate/mod.rs", include_str!("translate/mod.rs")),
            (
                "translate/mr_table.rs",
                include_str!("translate/mr_table.rs"),
            ),
            ("translate/tlb.rs", include_str!("translate/tlb.rs")),
            ("translate/walker.rs", include_str!("translate/walker.rs")),
            ("control/command.rs", include_str!("control/command.rs")),
            (
                "control/mr_waiters.rs",
                include_str!("control/mr_waiters.rs"),
            ),
        ];
        for (file, text) in files {
            let mut checked = 0;
            let mut prev_code = "";
            for (n, line) in text.lines().enumerate() {
                let (code, comment) = match line.find("//") {
                    Some(k) => (&line[..k], &line[k + 2..]),
                    None => (line, ""),
                };
                let own_line = code.trim().is_empty();
                if let Some(named) = comment.trim_start().strip_prefix("= ") {
                    let subject = if own_line { prev_code } else { code };
                    let lits = literals(subject);
                    let names = names(named);
                    assert_eq!(
                        lits.len(),
                        names.len(),
                        "{file}:{}: {} literal(s) in `{}`, {} name(s) in `{}`",
                        n + 1,
                        lits.len(),
                        subject.trim(),
                        names.len(),
                        named
                    );
                    for (v, name) in lits.iter().zip(&names) {
                        let want = block_value(file, name)
                            .unwrap_or_else(|| panic!("{file}:{}: unknown constant {name}", n + 1));
                        assert_eq!(*v, want, "{file}:{}: {v} is not {name} ({want})", n + 1);
                        checked += 1;
                    }
                }
                if !own_line {
                    prev_code = code;
                }
            }
            assert!(checked > 0, "{file}: no named literal found");
        }
    }
}
