//! The fault path: what happens to a translation that did not end in OK.
//!
//! Built: the RNR NAK generator ([`nak::NakGen`]), the RC responder
//! discipline per QP on the translator's response stream, and the event-ring
//! writer ([`events::EventRing`]), which writes finished event records to the
//! ring in host memory. To come: the fault queue (pending faults, RESUME,
//! wakes).
//!
//! The SPEC tables this path uses (response status, ops, AETH syndromes,
//! QP commands, RNR timer codes, event kinds and the event record layout)
//! are defined here once; the blocks, their reference models and their
//! testbenches all take them from here.

pub mod events;
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

/// Event kind: a page fault (token, MR, QPN, op, page VA, prefetch hint).
pub const EVENT_PAGE_FAULT: u64 = 1;
/// Event kind: an invalidation is done (tag).
pub const EVENT_INV_DONE: u64 = 2;
/// Event kind: a prefetch is done (tag, pages filled, pages faulted).
pub const EVENT_PREFETCH_DONE: u64 = 3;
/// Event kind: an MR is suspended (MR index).
pub const EVENT_MR_SUSPENDED: u64 = 4;
/// Event kind: an error (error code, MR index, detail word).
pub const EVENT_ERROR: u64 = 5;

/// Bytes of one event record in the ring: four little-endian 64-bit words.
pub const EVENT_RECORD_BYTES: u64 = 32;
/// 64-bit words of one event record (one AXI4 INCR burst of this many
/// 8-byte beats).
pub const EVENT_RECORD_WORDS: usize = 4;
/// Word 0 `[7:0]`: the kind (`EVENT_*`).
pub const EVENT_W0_KIND_SHIFT: u32 = 0;
/// Word 0 `[15:8]`: the op (page fault) or the error code (error).
pub const EVENT_W0_CODE_SHIFT: u32 = 8;
/// Word 0 `[31:16]`: the MR index.
pub const EVENT_W0_MR_SHIFT: u32 = 16;
/// Word 0 `[63:32]`: the token (page fault) or the tag (invalidation done,
/// prefetch done).
pub const EVENT_W0_TOKEN_SHIFT: u32 = 32;
/// Word 3 `[23:0]`: the QPN (page fault); `[62:24]` are zero.
pub const EVENT_W3_QPN_MASK: u64 = 0xff_ffff;
/// Word 3 bit 63: the owner (phase) bit, set by the ring writer: 1 on the
/// first lap over a zeroed ring, 0 on the second, and so on.
pub const EVENT_OWNER_BIT: u32 = 63;
/// Smallest legal `EQ_LOG2_SIZE` (a ring of 2 records).
pub const EQ_MIN_LOG2_SIZE: u64 = 1;
/// Largest legal `EQ_LOG2_SIZE` (a ring of 65536 records, 2 MiB).
pub const EQ_MAX_LOG2_SIZE: u64 = 16;
/// AXI ID of every event-ring write burst. The ring writer is the core's
/// only AXI writer; the value lies outside the walker's read IDs (0..=7) so
/// that an interconnect sharing one ID space between the channels can tell
/// them apart.
pub const EVENT_AXI_ID: u64 = 8;
