//! The fault path: what happens to a translation that did not end in OK.
//!
//! Composed into `odp_mmu`:
//!
//! - the per-QP responder ([`responder::QpResponder`]): the RC responder
//!   discipline inside the translator's decision, and the NAK headers;
//! - the adaptive RNR timer ([`rnr_timer::RnrTimer`]): the timer code from
//!   the measured fault service time;
//! - the event-ring writer ([`events::EventRing`]): finished event records
//!   to the ring in host memory;
//! - the fault queue ([`fault_queue::FaultQueue`]): pending faults, their
//!   event records, RESUME and the wait lists that wake stalled QPs.
//!
//! The SPEC tables this path uses (response status, ops, AETH syndromes,
//! QP commands, RNR timer codes, event kinds) are in [`crate::spec`]; the
//! event record layout and the ring's limits, which are the project's own,
//! are defined here once, for the ring writer, its model and the driver.

pub mod events;
pub mod fault_queue;
pub mod responder;
pub mod rnr_timer;

/// Bytes of one event record in the ring: four little-endian 64-bit words.
pub const EVENT_RECORD_BYTES: u64 = 32;
/// 64-bit words of one event record (one AXI4 INCR burst of this many
/// 8-byte beats).
pub const EVENT_RECORD_WORDS: usize = 4;
/// Word 0 `[7:0]`: the kind ([`crate::spec::event`]).
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
