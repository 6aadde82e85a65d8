//! The fault path: what happens to a translation that did not end in OK.
//!
//! Built: the RNR NAK generator ([`nak::NakGen`]), the RC responder
//! discipline per QP on the translator's response stream. To come: the
//! fault queue (pending faults, event ring, RESUME, wakes).
//!
//! The SPEC tables this path uses (response status, ops, AETH syndromes,
//! QP commands, RNR timer codes) are defined here once; the block, its
//! reference model and its testbench all take them from here.

pub mod nak;

/// Response status: translated, `pa` / `seg_len` are good (SPEC section 2).
pub const STATUS_OK: u64 = 0;
/// Response status: remote op, page not present or MR suspended; an RNR NAK
/// was emitted.
pub const STATUS_RNR: u64 = 1;
/// Response status: local op, same causes as RNR: wait for `m_wake`.
pub const STATUS_STALL: u64 = 2;
/// Response status: remote op on a QP that awaits the retransmission of a
/// NAK'd PSN: discard silently.
pub const STATUS_DROP: u64 = 3;
/// Response status: protection check failed (remote ops get NAK 0x62).
pub const STATUS_ACCESS_ERR: u64 = 4;
/// Response status: host memory error, or the QP is in the error state
/// (remote ops get NAK 0x63).
pub const STATUS_FATAL: u64 = 5;

/// Op: RDMA WRITE landing here.
pub const OP_REMOTE_WRITE: u64 = 0;
/// Op: RDMA READ served from here.
pub const OP_REMOTE_READ: u64 = 1;
/// Op: local DMA read.
pub const OP_LOCAL_READ: u64 = 2;
/// Op: local DMA write.
pub const OP_LOCAL_WRITE: u64 = 3;

/// BTH opcode of an RC Acknowledge, the packet that carries every NAK.
pub const BTH_OPCODE_RC_ACK: u64 = 0x11;
/// AETH syndrome of an RNR NAK; the low five bits carry the timer code.
pub const SYND_RNR_NAK: u64 = 0x20;
/// AETH syndrome of a NAK "remote access error".
pub const SYND_REMOTE_ACCESS_ERR: u64 = 0x62;
/// AETH syndrome of a NAK "remote operational error".
pub const SYND_REMOTE_OP_ERR: u64 = 0x63;

/// QP command: clear every per-QP state (not waiting, not in error, no
/// timer override).
pub const QPCMD_RESET: u64 = 0;
/// QP command: put the QP into the error state (the driver resolved a fault
/// of it with an error).
pub const QPCMD_SET_ERROR: u64 = 1;
/// QP command: set the QP's RNR timer override to `timer`.
pub const QPCMD_SET_TIMER: u64 = 2;
/// QP command: remove the QP's RNR timer override.
pub const QPCMD_CLEAR_TIMER: u64 = 3;

/// Reset value of the global RNR timer code (CSR block): 12 = 0.64 ms.
/// Never 0, which means 655.36 ms.
pub const RNR_TIMER_RESET_CODE: u64 = 12;

/// IBTA RNR timer codes in microseconds, indexed by code (SPEC section 2).
pub const RNR_TIMER_US: [u32; 32] = [
    655_360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1_280, 1_920, 2_560, 3_840,
    5_120, 7_680, 10_240, 15_360, 20_480, 30_720, 40_960, 61_440, 81_920, 122_880, 163_840,
    245_760, 327_680, 491_520,
];
