//! The register map of `odp_mmu`, described once.
//!
//! Every register the driver sees through `s_axil_*` (32-bit data, 16-bit
//! byte addresses, every register 4-byte aligned) is a row of [`REGS`]: its
//! name, offset, access, fields (lsb, width, reset, where the hardware side
//! of the field lives) and description, and whether the block behind it is
//! built now or planned. The driver commands rung through `CMD_DOORBELL` are
//! the rows of [`OPS`]. Everything else is generated from these two tables
//! (OpenTitan's regtool discipline):
//!
//! | generator | checked-in file |
//! |---|---|
//! | [`registers_md`] | `docs/registers.md` |
//! | [`c_header`] | `include/odp_mmu_regs.h` |
//! | [`systemrdl`] | `include/odp_mmu.rdl` |
//! | [`csr_block_source`] | `src/control/csr_regs.rs` (the CSR block, [`crate::control::CsrRegs`]) |
//!
//! The `csr` test target regenerates each file and fails when a checked-in
//! copy differs; `ODP_BLESS=1 cargo test --release --test csr` rewrites them.
//!
//! The constants below (`regmap::PKEY`, `regmap::op::MR_WRITE`, field
//! positions) are the ones the table itself is built from, so the top level
//! and the driver library use the same numbers as the generated files.

mod block;
mod docs;

pub use block::csr_block_source;
pub use docs::{c_header, registers_md, systemrdl};

/// Software access of a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read only; a write answers SLVERR and changes nothing.
    Ro,
    /// Read and write; writes honour `wstrb`, bits outside every field read 0.
    Rw,
    /// Write only; reads return 0.
    Wo,
    /// Read, and write 1 to clear; set by the hardware.
    Rw1c,
    /// A write is an action (a doorbell); reads return 0.
    Command,
}

impl Access {
    /// The lower-case name used in the documentation (`ro`, `rw1c`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Access::Ro => "ro",
            Access::Rw => "rw",
            Access::Wo => "wo",
            Access::Rw1c => "rw1c",
            Access::Command => "command",
        }
    }
}

/// Whether the block that gives a register its meaning exists yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    /// Built: the CSR block and the core both implement it.
    Built,
    /// The CSR block implements the register, but the block behind it is
    /// planned (`"fault path"` or `"command unit"`): a setting has no effect
    /// yet, an input reads its tie-off, a command is refused by the core.
    Planned(&'static str),
}

/// The fault queue, event-ring writer and per-QP responder.
pub const FAULT_PATH: Block = Block::Planned("fault path");

impl Block {
    /// `built` or `planned: <block>`.
    pub fn label(self) -> String {
        match self {
            Block::Built => "built".to_string(),
            Block::Planned(b) => format!("planned: {b}"),
        }
    }
}

/// Where the hardware side of a field lives (the CSR block's ports).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hw {
    /// A constant: the field always reads its reset value.
    Const,
    /// A constructor argument of the CSR block ([`crate::control::CsrCaps`]).
    Param,
    /// Input port of that name, read as is.
    Input(&'static str),
    /// Input port `port`, captured when the one-clock input `strobe` is high.
    Capture {
        port: &'static str,
        strobe: &'static str,
    },
    /// Produced inside the CSR block by its command logic.
    Internal,
    /// A setting: the stored value drives the output port of that name.
    Out(&'static str),
    /// A sticky bit set by the one-clock input port of that name.
    Set(&'static str),
    /// A sticky bit set inside the CSR block (a rejected doorbell).
    SetInternal,
}

/// One field of a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub lsb: u32,
    pub width: u32,
    /// Value after `rst` (of a `Const` field: its value).
    pub reset: u32,
    pub hw: Hw,
    pub desc: &'static str,
}

impl Field {
    /// The field's bits in place.
    pub const fn mask(&self) -> u32 {
        mask(self.lsb, self.width)
    }
}

const fn mask(lsb: u32, width: u32) -> u32 {
    if width >= 32 {
        u32::MAX
    } else {
        ((1u32 << width) - 1) << lsb
    }
}

/// How a 64-bit counter follows its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterKind {
    /// `+1` per clock its one-clock input `ctr_<name>_inc` is high.
    Count,
    /// Keeps the maximum of its 32-bit input `ctr_<name>_value`.
    Max,
    /// Adds its 32-bit input `ctr_<name>_value` when `ctr_<name>_valid` is high.
    Sum,
    /// Follows its 32-bit input `ctr_<name>_value` (a level, never cleared).
    Gauge,
}

impl CounterKind {
    pub fn name(self) -> &'static str {
        match self {
            CounterKind::Count => "count",
            CounterKind::Max => "max",
            CounterKind::Sum => "sum",
            CounterKind::Gauge => "gauge",
        }
    }
}

/// The half of a 64-bit counter a register reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterHalf {
    /// Position of the counter in [`COUNTERS`].
    pub index: usize,
    /// `false`: bits 31:0 (reading it latches the high word); `true`: 63:32.
    pub hi: bool,
}

/// One register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reg {
    pub name: &'static str,
    /// Byte offset, a multiple of 4.
    pub offset: u16,
    pub access: Access,
    pub fields: &'static [Field],
    pub desc: &'static str,
    pub block: Block,
    /// Set for the two registers of each 64-bit counter.
    pub counter: Option<CounterHalf>,
}

impl Reg {
    /// The register's value after `rst`.
    pub fn reset(&self) -> u32 {
        self.fields.iter().fold(0, |v, f| v | (f.reset << f.lsb))
    }

    /// The bits that belong to a field.
    pub fn mask(&self) -> u32 {
        self.fields.iter().fold(0, |v, f| v | f.mask())
    }

    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Word index on the bus (offset / 4).
    pub fn word(&self) -> usize {
        self.offset as usize / 4
    }
}

/// One 64-bit counter: registers `<name>_LO` and `<name>_HI`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter {
    pub name: &'static str,
    pub kind: CounterKind,
    pub desc: &'static str,
    pub block: Block,
}

impl Counter {
    /// Byte offset of the low word; the high word follows at `+4`.
    pub fn offset(&self) -> u16 {
        let index = COUNTERS.iter().position(|c| c.name == self.name).unwrap();
        counter_lo(index)
    }

    /// Base name of the counter's input ports (`ctr_lookups`).
    pub fn port(&self) -> String {
        format!("ctr_{}", self.name.to_lowercase())
    }
}

/// One field of a command argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgField {
    pub name: &'static str,
    pub lsb: u32,
    pub width: u32,
    pub desc: &'static str,
}

impl ArgField {
    pub const fn mask(&self) -> u32 {
        mask(self.lsb, self.width)
    }
}

/// One argument register (`CMD_ARG<index>`) as a command reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arg {
    pub index: usize,
    pub name: &'static str,
    /// Sub-fields; empty when the whole word is one value.
    pub fields: &'static [ArgField],
    pub desc: &'static str,
}

/// One driver command (`CMD_DOORBELL.OP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    pub name: &'static str,
    pub code: u8,
    pub desc: &'static str,
    pub args: &'static [Arg],
    pub block: Block,
}

// ------------------------------------------------------------ offsets

/// `"ODPM"`: identifies the core.
pub const ID: u16 = 0x0000;
pub const VERSION: u16 = 0x0004;
pub const CAP_MRS: u16 = 0x0008;
pub const CAP_QPS: u16 = 0x000C;
pub const CAP_TLB: u16 = 0x0010;
pub const CAP_QUEUES: u16 = 0x0014;
pub const CTRL: u16 = 0x0020;
pub const STATUS: u16 = 0x0024;
pub const ERROR: u16 = 0x0028;
pub const ERROR_INFO: u16 = 0x002C;
pub const RNR_TIMER: u16 = 0x0040;
pub const PKEY: u16 = 0x0044;
pub const CLOCKS_PER_US: u16 = 0x0048;
pub const PREFETCH_CAP: u16 = 0x004C;
pub const EQ_BASE_LO: u16 = 0x0050;
pub const EQ_BASE_HI: u16 = 0x0054;
pub const EQ_LOG2_SIZE: u16 = 0x0058;
pub const EQ_CONS: u16 = 0x005C;
pub const EQ_PROD: u16 = 0x0060;
pub const INV_ISSUED: u16 = 0x0064;
pub const INV_DONE: u16 = 0x0068;
/// `CMD_ARG0`; `CMD_ARG<n>` is at `CMD_ARG0 + 4 * n`, n = 0..=11.
pub const CMD_ARG0: u16 = 0x0100;
/// Number of command argument registers.
pub const CMD_ARGS: usize = 12;
pub const CMD_DOORBELL: u16 = 0x0140;
pub const CMD_STATUS: u16 = 0x0144;
pub const COUNTER_CLEAR: u16 = 0x01F0;
/// Low word of the first 64-bit counter; counter `i` is at `COUNTER_BASE + 8 * i`.
pub const COUNTER_BASE: u16 = 0x0200;

/// Offset of `CMD_ARG<n>`.
pub const fn cmd_arg(n: usize) -> u16 {
    CMD_ARG0 + 4 * n as u16
}

/// Offset of the low word of counter `index` (see [`COUNTERS`], [`ctr`]).
pub const fn counter_lo(index: usize) -> u16 {
    COUNTER_BASE + 8 * index as u16
}

/// Offset of the high word of counter `index`.
pub const fn counter_hi(index: usize) -> u16 {
    counter_lo(index) + 4
}

/// Value of `ID`.
pub const ID_VALUE: u32 = 0x4F44_504D;
/// Value of `VERSION`: major in bits 31:16, minor in bits 15:0.
pub const VERSION_VALUE: u32 = 0x0001_0000;

// ------------------------------------------------------------ field positions

pub const CAP_TLB_SETS_LSB: u32 = 0;
pub const CAP_TLB_HUGE_LSB: u32 = 16;
pub const CAP_TLB_WAYS_LSB: u32 = 24;
pub const CAP_QUEUES_WALKS_LSB: u32 = 0;
pub const CAP_QUEUES_PENDING_LSB: u32 = 8;
pub const CAP_QUEUES_OUTSTANDING_LSB: u32 = 16;
pub const CTRL_IRQ_EN: u32 = 0;
pub const CTRL_ADAPTIVE_RNR: u32 = 1;
pub const STATUS_READY: u32 = 0;
pub const STATUS_CMD_BUSY: u32 = 1;
pub const ERROR_BAD_CMD: u32 = 0;
pub const ERROR_CMD_REJECTED: u32 = 1;
pub const ERROR_WALK_FATAL: u32 = 2;
pub const ERROR_EVENT_WRITE_ERR: u32 = 3;
pub const ERROR_RESUME_STALE: u32 = 4;
pub const ERROR_EQ_CONS_BAD: u32 = 5;
pub const ERROR_EQ_SIZE_BAD: u32 = 6;
pub const ERROR_DONE_BAD: u32 = 7;
pub const ERROR_INFO_OP_LSB: u32 = 0;
pub const ERROR_INFO_CODE_LSB: u32 = 8;
pub const CMD_DOORBELL_OP_LSB: u32 = 0;
pub const CMD_DOORBELL_TAG_LSB: u32 = 8;
pub const CMD_STATUS_BUSY: u32 = 0;
pub const CMD_STATUS_LAST_ACCEPTED: u32 = 1;
pub const CMD_STATUS_LAST_REJECTED: u32 = 2;
pub const CMD_STATUS_OP_LSB: u32 = 8;
pub const CMD_STATUS_RESULT_LSB: u32 = 16;
pub const COUNTER_CLEAR_ALL: u32 = 0;

/// `MR_WRITE` `CMD_ARG1` fields.
pub const MR_ARG1_TAG_LSB: u32 = 0;
pub const MR_ARG1_ACCESS_LSB: u32 = 8;
pub const MR_ARG1_LEVELS_M1_LSB: u32 = 12;
pub const MR_ARG1_STATE_LSB: u32 = 16;

/// Command op codes (`CMD_DOORBELL.OP`).
pub mod op {
    pub const MR_WRITE: u8 = 0x01;
    pub const MR_SET_STATE: u8 = 0x02;
    pub const MR_SUSPEND: u8 = 0x03;
    pub const MR_RESUME: u8 = 0x04;
    pub const INVALIDATE: u8 = 0x05;
    pub const PREFETCH: u8 = 0x06;
    pub const RESUME_FAULT: u8 = 0x07;
    pub const QP_RESET: u8 = 0x08;
    pub const QP_RNR_TIMER: u8 = 0x09;
}

/// Counter indices in [`COUNTERS`] (`counter_lo(ctr::LOOKUPS)`).
pub mod ctr {
    pub const LOOKUPS: usize = 0;
    pub const TLB_HITS: usize = 1;
    pub const TLB_MISSES: usize = 2;
    pub const WALKS: usize = 3;
    pub const WALK_READS: usize = 4;
    pub const FAULTS: usize = 5;
    pub const FAULTS_COALESCED: usize = 6;
    pub const RNR_NAKS_FAULT: usize = 7;
    pub const RNR_NAKS_SUSPENDED: usize = 8;
    pub const DROPS: usize = 9;
    pub const STALLS: usize = 10;
    pub const WAKES: usize = 11;
    pub const ACCESS_ERRORS: usize = 12;
    pub const FATALS: usize = 13;
    pub const INVALIDATIONS: usize = 14;
    pub const PREFETCHES: usize = 15;
    pub const MAX_PENDING_FAULTS: usize = 16;
    pub const MAX_EVENT_RING: usize = 17;
    pub const FAULT_SERVICE_SUM: usize = 18;
    pub const FAULT_SERVICE_MAX: usize = 19;
    pub const QPS_STALLED_NOW: usize = 20;
}

// ------------------------------------------------------------ the table

const fn f(
    name: &'static str,
    lsb: u32,
    width: u32,
    reset: u32,
    hw: Hw,
    desc: &'static str,
) -> Field {
    Field {
        name,
        lsb,
        width,
        reset,
        hw,
        desc,
    }
}

const fn reg(
    name: &'static str,
    offset: u16,
    access: Access,
    fields: &'static [Field],
    desc: &'static str,
    block: Block,
) -> Reg {
    Reg {
        name,
        offset,
        access,
        fields,
        desc,
        block,
        counter: None,
    }
}

/// A register that is one 32-bit field of the same name.
macro_rules! word {
    ($name:literal, $offset:expr, $access:expr, $reset:expr, $hw:expr, $desc:literal, $block:expr) => {
        reg(
            $name,
            $offset,
            $access,
            &[f($name, 0, 32, $reset, $hw, $desc)],
            $desc,
            $block,
        )
    };
}

/// A 32-bit command argument register.
macro_rules! arg {
    ($n:literal, $name:literal) => {
        reg(
            $name,
            cmd_arg($n),
            Access::Rw,
            &[f($name, 0, 32, 0, Hw::Internal, "Argument word of the next command.")],
            "Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held.",
            Block::Built,
        )
    };
}

const VALUE_LO: &[Field] = &[f(
    "VALUE",
    0,
    32,
    0,
    Hw::Internal,
    "Bits 31:0 of the counter.",
)];
const VALUE_HI: &[Field] = &[f(
    "VALUE",
    0,
    32,
    0,
    Hw::Internal,
    "Bits 63:32 of the counter.",
)];

/// The two registers of counter `index`.
macro_rules! counter {
    ($index:expr, $name:literal) => {
        [
            Reg {
                name: concat!($name, "_LO"),
                offset: counter_lo($index),
                access: Access::Ro,
                fields: VALUE_LO,
                desc: "Low word; reading it latches the high word for the next read of the _HI register.",
                block: COUNTERS[$index].block,
                counter: Some(CounterHalf {
                    index: $index,
                    hi: false,
                }),
            },
            Reg {
                name: concat!($name, "_HI"),
                offset: counter_hi($index),
                access: Access::Ro,
                fields: VALUE_HI,
                desc: "High word, as latched by the last read of the _LO register of this counter (the live high word when another counter was read last).",
                block: COUNTERS[$index].block,
                counter: Some(CounterHalf {
                    index: $index,
                    hi: true,
                }),
            },
        ]
    };
}

const fn c(name: &'static str, kind: CounterKind, desc: &'static str, block: Block) -> Counter {
    Counter {
        name,
        kind,
        desc,
        block,
    }
}

use CounterKind::{Count, Gauge, Max, Sum};

/// The 64-bit counters, in address order from [`COUNTER_BASE`].
pub static COUNTERS: &[Counter] = &[
    c(
        "LOOKUPS",
        Count,
        "Translation requests accepted.",
        Block::Built,
    ),
    c(
        "TLB_HITS",
        Count,
        "Requests answered from the TLB.",
        Block::Built,
    ),
    c(
        "TLB_MISSES",
        Count,
        "TLB lookups that missed.",
        Block::Built,
    ),
    c("WALKS", Count, "Page-table walks started.", Block::Built),
    c(
        "WALK_READS",
        Count,
        "Page-table entry reads issued on AXI4.",
        Block::Built,
    ),
    c(
        "FAULTS",
        Count,
        "Page faults raised (fault events written).",
        Block::Built,
    ),
    c(
        "FAULTS_COALESCED",
        Count,
        "Faults coalesced into a pending one.",
        Block::Built,
    ),
    c(
        "RNR_NAKS_FAULT",
        Count,
        "RNR NAKs sent for a missing page.",
        Block::Built,
    ),
    c(
        "RNR_NAKS_SUSPENDED",
        Count,
        "RNR NAKs sent for a suspended MR.",
        Block::Built,
    ),
    c("DROPS", Count, "Requests answered DROP.", Block::Built),
    c("STALLS", Count, "Requests answered STALL.", Block::Built),
    c("WAKES", Count, "Wakes sent on m_wake.", Block::Built),
    c(
        "ACCESS_ERRORS",
        Count,
        "Requests answered ACCESS_ERR.",
        Block::Built,
    ),
    c("FATALS", Count, "Requests answered FATAL.", Block::Built),
    c(
        "INVALIDATIONS",
        Count,
        "INVALIDATE commands done (their invalidation-done event handed to the event ring).",
        Block::Built,
    ),
    c(
        "PREFETCHES",
        Count,
        "Prefetch commands completed (their \"prefetch done\" record taken for the event ring).",
        Block::Built,
    ),
    c(
        "MAX_PENDING_FAULTS",
        Max,
        "Most pending faults at once.",
        Block::Built,
    ),
    c(
        "MAX_EVENT_RING",
        Max,
        "Most unconsumed event-ring entries at once.",
        Block::Built,
    ),
    c(
        "FAULT_SERVICE_SUM",
        Sum,
        "Sum of fault service times (fault raised to RESUME), clocks.",
        Block::Built,
    ),
    c(
        "FAULT_SERVICE_MAX",
        Max,
        "Longest fault service time, clocks.",
        Block::Built,
    ),
    c(
        "QPS_STALLED_NOW",
        Gauge,
        "Local QPs waiting for a wake now: joined a fault's (or the overflow) wait list on a STALL, not yet woken on m_wake (a QP waiting on two faults counts twice).",
        Block::Built,
    ),
];

const CTRL_FIELDS: &[Field] = &[
    f(
        "IRQ_EN",
        CTRL_IRQ_EN,
        1,
        0,
        Hw::Out("ctrl_irq_en"),
        "Interrupt enable: irq is high while events are unconsumed and this bit is set.",
    ),
    f(
        "ADAPTIVE_RNR",
        CTRL_ADAPTIVE_RNR,
        1,
        0,
        Hw::Out("ctrl_adaptive_rnr"),
        "Choose the RNR timer code per fault from the expected service time instead of RNR_TIMER.",
    ),
];

const STATUS_FIELDS: &[Field] = &[
    f(
        "READY",
        STATUS_READY,
        1,
        0,
        Hw::Input("st_ready"),
        "The reset sweep is done: the core accepts requests and commands.",
    ),
    f(
        "CMD_BUSY",
        STATUS_CMD_BUSY,
        1,
        0,
        Hw::Internal,
        "A command is held, not yet taken by the core (same as CMD_STATUS.BUSY).",
    ),
];

const ERROR_FIELDS: &[Field] = &[
    f(
        "BAD_CMD",
        ERROR_BAD_CMD,
        1,
        0,
        Hw::Set("err_bad_cmd"),
        "The core refused a command (unknown or planned op, bad argument); see ERROR_INFO.",
    ),
    f(
        "CMD_REJECTED",
        ERROR_CMD_REJECTED,
        1,
        0,
        Hw::SetInternal,
        "A doorbell was written while a command was held; it answered SLVERR and was ignored.",
    ),
    f(
        "WALK_FATAL",
        ERROR_WALK_FATAL,
        1,
        0,
        Hw::Set("err_walk_fatal"),
        "A request was answered FATAL: its page-table walk got an AXI error response or read a reserved PTE.",
    ),
    f(
        "EVENT_WRITE_ERR",
        ERROR_EVENT_WRITE_ERR,
        1,
        0,
        Hw::Set("err_event_write_err"),
        "An event-ring write got an AXI error response: that record did not land (docs/events.md, Errors).",
    ),
    f(
        "RESUME_STALE",
        ERROR_RESUME_STALE,
        1,
        0,
        Hw::Set("err_resume_stale"),
        "A RESUME_FAULT named no fault awaiting its RESUME (the fault queue found the token stale: no such slot, a slot not yet posted or already resolved, an old generation, or bits 31:16 set); the command changed nothing and finished with result STALE_TOKEN (7).",
    ),
    f(
        "EQ_CONS_BAD",
        ERROR_EQ_CONS_BAD,
        1,
        0,
        Hw::Set("err_eq_cons_bad"),
        "EQ_CONS was ahead of EQ_PROD or more than the ring size behind it: the ring was treated as full until it was legal again; nothing was overwritten.",
    ),
    f(
        "EQ_SIZE_BAD",
        ERROR_EQ_SIZE_BAD,
        1,
        0,
        Hw::Set("err_eq_size_bad"),
        "EQ_LOG2_SIZE was written with 17 to 31: the ring is disabled as for 0.",
    ),
    f(
        "DONE_BAD",
        ERROR_DONE_BAD,
        1,
        0,
        Hw::Set("err_done_bad"),
        "An s_done pulse named an epoch with no OK response outstanding (or epoch bits 7:4 set), and was ignored; or an epoch counted more than 65535 OK responses not yet returned (docs/invalidation.md).",
    ),
];

const ERROR_INFO_FIELDS: &[Field] = &[
    f(
        "OP",
        ERROR_INFO_OP_LSB,
        8,
        0,
        Hw::Capture {
            port: "err_bad_cmd_op",
            strobe: "err_bad_cmd",
        },
        "Op of the last refused command.",
    ),
    f(
        "CODE",
        ERROR_INFO_CODE_LSB,
        8,
        0,
        Hw::Capture {
            port: "err_bad_cmd_code",
            strobe: "err_bad_cmd",
        },
        "Why the core refused it (the core's result code).",
    ),
];

const CMD_DOORBELL_FIELDS: &[Field] = &[
    f(
        "OP",
        CMD_DOORBELL_OP_LSB,
        8,
        0,
        Hw::Internal,
        "Op code of the command (see the op table).",
    ),
    f(
        "TAG",
        CMD_DOORBELL_TAG_LSB,
        8,
        0,
        Hw::Internal,
        "Tag carried with the command (INVALIDATE: the invalidation tag of its done event).",
    ),
];

const CMD_STATUS_FIELDS: &[Field] = &[
    f(
        "BUSY",
        CMD_STATUS_BUSY,
        1,
        0,
        Hw::Internal,
        "A command is held, not yet taken by the core; a doorbell now is rejected.",
    ),
    f(
        "LAST_ACCEPTED",
        CMD_STATUS_LAST_ACCEPTED,
        1,
        0,
        Hw::Internal,
        "The last doorbell was accepted.",
    ),
    f(
        "LAST_REJECTED",
        CMD_STATUS_LAST_REJECTED,
        1,
        0,
        Hw::Internal,
        "The last doorbell was rejected (written while BUSY).",
    ),
    f(
        "OP",
        CMD_STATUS_OP_LSB,
        8,
        0,
        Hw::Internal,
        "Op of the last accepted command.",
    ),
    f(
        "RESULT",
        CMD_STATUS_RESULT_LSB,
        8,
        0,
        Hw::Capture {
            port: "cmd_result_code",
            strobe: "cmd_result_valid",
        },
        "Result code of the last command the core finished (0: done).",
    ),
];

const CAP_TLB_FIELDS: &[Field] = &[
    f(
        "SETS",
        CAP_TLB_SETS_LSB,
        16,
        0,
        Hw::Param,
        "Sets of 4 KiB TLB entries.",
    ),
    f(
        "HUGE",
        CAP_TLB_HUGE_LSB,
        8,
        0,
        Hw::Param,
        "Huge-page (2 MiB / 1 GiB) TLB entries.",
    ),
    f(
        "WAYS",
        CAP_TLB_WAYS_LSB,
        8,
        0,
        Hw::Param,
        "Ways per set of 4 KiB entries.",
    ),
];

const CAP_QUEUES_FIELDS: &[Field] = &[
    f(
        "WALKS",
        CAP_QUEUES_WALKS_LSB,
        8,
        0,
        Hw::Param,
        "Concurrent page-table walks.",
    ),
    f(
        "PENDING",
        CAP_QUEUES_PENDING_LSB,
        8,
        0,
        Hw::Param,
        "Pending-fault table entries, modulo 256 (0 means 256).",
    ),
    f(
        "OUTSTANDING",
        CAP_QUEUES_OUTSTANDING_LSB,
        16,
        0,
        Hw::Param,
        "Outstanding translation requests.",
    ),
];

const COUNTER_CLEAR_FIELDS: &[Field] = &[f(
    "ALL",
    COUNTER_CLEAR_ALL,
    1,
    0,
    Hw::Internal,
    "Write 1: every count, max and sum counter reads 0 from the next clock (gauges follow their input).",
)];

/// Every register, in address order.
pub static REGS: &[Reg] = &{
    const PLAIN: [Reg; 36] = [
        word!("ID", ID, Access::Ro, ID_VALUE, Hw::Const, "Identifies the core: 0x4F44504D, ASCII ODPM.", Block::Built),
        word!("VERSION", VERSION, Access::Ro, VERSION_VALUE, Hw::Const, "Register map version: major [31:16], minor [15:0].", Block::Built),
        word!("CAP_MRS", CAP_MRS, Access::Ro, 0, Hw::Param, "MR table entries.", Block::Built),
        word!("CAP_QPS", CAP_QPS, Access::Ro, 0, Hw::Param, "Queue pairs; QPNs at or above this answer ACCESS_ERR.", Block::Built),
        reg("CAP_TLB", CAP_TLB, Access::Ro, CAP_TLB_FIELDS, "TLB geometry.", Block::Built),
        reg("CAP_QUEUES", CAP_QUEUES, Access::Ro, CAP_QUEUES_FIELDS, "Queue depths.", Block::Built),
        reg("CTRL", CTRL, Access::Rw, CTRL_FIELDS, "Core control.", Block::Built),
        reg("STATUS", STATUS, Access::Ro, STATUS_FIELDS, "Core status.", Block::Built),
        reg("ERROR", ERROR, Access::Rw1c, ERROR_FIELDS, "Sticky error flags; write 1 to clear. A set and a clear of one bit in the same clock leave it set.", Block::Built),
        reg("ERROR_INFO", ERROR_INFO, Access::Ro, ERROR_INFO_FIELDS, "The last command the core refused.", Block::Built),
        reg("RNR_TIMER", RNR_TIMER, Access::Rw, &[f("RNR_TIMER", 0, 5, crate::spec::rnr_timer::RESET_CODE as u32, Hw::Out("rnr_timer"), "IBTA RNR timer code sent in RNR NAKs; 12 is 0.64 ms (0 would be 655.36 ms).")], "RNR timer code of RNR NAKs.", Block::Built),
        reg("PKEY", PKEY, Access::Rw, &[f("PKEY", 0, 16, 0xFFFF, Hw::Out("pkey"), "P_Key written into the BTH of every NAK.")], "P_Key of NAK headers.", Block::Built),
        reg("CLOCKS_PER_US", CLOCKS_PER_US, Access::Rw, &[f("CLOCKS_PER_US", 0, 16, 125, Hw::Out("clocks_per_us"), "Core clocks per microsecond (125 at 125 MHz).")], "Core clock rate, for timers.", Block::Built),
        word!("PREFETCH_CAP", PREFETCH_CAP, Access::Rw, 0x0040_0000, Hw::Out("prefetch_cap"), "Largest prefetch range hint in a fault event, bytes.", Block::Built),
        word!("EQ_BASE_LO", EQ_BASE_LO, Access::Rw, 0, Hw::Out("eq_base_lo"), "Event ring base address in host memory, bits 31:0.", Block::Built),
        word!("EQ_BASE_HI", EQ_BASE_HI, Access::Rw, 0, Hw::Out("eq_base_hi"), "Event ring base address, bits 63:32.", Block::Built),
        reg("EQ_LOG2_SIZE", EQ_LOG2_SIZE, Access::Rw, &[f("EQ_LOG2_SIZE", 0, 5, 0, Hw::Out("eq_log2_size"), "log2 of the number of event-ring entries: 1 to 16; 0 disables and resets the ring; 17 to 31 disable it and set ERROR.EQ_SIZE_BAD.")], "Event ring size. 0 (the reset value) is the ring reset: no record is taken, EQ_PROD returns to 0 once the writes in flight complete, irq is low, and every fault still awaiting its RESUME is announced again in the next ring (docs/events.md).", Block::Built),
        word!("EQ_CONS", EQ_CONS, Access::Rw, 0, Hw::Out("eq_cons"), "Event ring consumer index, written by the driver.", Block::Built),
        word!("EQ_PROD", EQ_PROD, Access::Ro, 0, Hw::Input("eq_prod"), "Event ring producer index.", Block::Built),
        word!("INV_ISSUED", INV_ISSUED, Access::Ro, 0, Hw::Input("inv_issued"), "INVALIDATE and MR_SUSPEND commands accepted since reset (free-running): read after a command's OK result, it is that command's sequence number.", Block::Built),
        word!("INV_DONE", INV_DONE, Access::Ro, 0, Hw::Input("inv_done"), "INVALIDATE and MR_SUSPEND commands done since reset (free-running; they finish in order): the command numbered n is done once INV_DONE - n, as a signed 32-bit difference, is at least 0. Its event is then handed to the event ring.", Block::Built),
        arg!(0, "CMD_ARG0"),
        arg!(1, "CMD_ARG1"),
        arg!(2, "CMD_ARG2"),
        arg!(3, "CMD_ARG3"),
        arg!(4, "CMD_ARG4"),
        arg!(5, "CMD_ARG5"),
        arg!(6, "CMD_ARG6"),
        arg!(7, "CMD_ARG7"),
        arg!(8, "CMD_ARG8"),
        arg!(9, "CMD_ARG9"),
        arg!(10, "CMD_ARG10"),
        arg!(11, "CMD_ARG11"),
        reg("CMD_DOORBELL", CMD_DOORBELL, Access::Command, CMD_DOORBELL_FIELDS, "Writing OP (wstrb[0] set) issues the command with the current CMD_ARG words. While CMD_STATUS.BUSY the write answers SLVERR, sets ERROR.CMD_REJECTED and CMD_STATUS.LAST_REJECTED and changes nothing else.", Block::Built),
        reg("CMD_STATUS", CMD_STATUS, Access::Ro, CMD_STATUS_FIELDS, "Command interface status.", Block::Built),
        reg("COUNTER_CLEAR", COUNTER_CLEAR, Access::Command, COUNTER_CLEAR_FIELDS, "Clears the counters.", Block::Built),
    ];
    const N: usize = 36 + 2 * 21;
    let mut out = [PLAIN[0]; N];
    let mut i = 0;
    while i < 36 {
        out[i] = PLAIN[i];
        i += 1;
    }
    let counters: [[Reg; 2]; 21] = [
        counter!(0, "LOOKUPS"),
        counter!(1, "TLB_HITS"),
        counter!(2, "TLB_MISSES"),
        counter!(3, "WALKS"),
        counter!(4, "WALK_READS"),
        counter!(5, "FAULTS"),
        counter!(6, "FAULTS_COALESCED"),
        counter!(7, "RNR_NAKS_FAULT"),
        counter!(8, "RNR_NAKS_SUSPENDED"),
        counter!(9, "DROPS"),
        counter!(10, "STALLS"),
        counter!(11, "WAKES"),
        counter!(12, "ACCESS_ERRORS"),
        counter!(13, "FATALS"),
        counter!(14, "INVALIDATIONS"),
        counter!(15, "PREFETCHES"),
        counter!(16, "MAX_PENDING_FAULTS"),
        counter!(17, "MAX_EVENT_RING"),
        counter!(18, "FAULT_SERVICE_SUM"),
        counter!(19, "FAULT_SERVICE_MAX"),
        counter!(20, "QPS_STALLED_NOW"),
    ];
    let mut k = 0;
    while k < 21 {
        out[36 + 2 * k] = counters[k][0];
        out[37 + 2 * k] = counters[k][1];
        k += 1;
    }
    out
};

/// The register called `name` (`"PKEY"`, `"LOOKUPS_LO"`).
pub fn by_name(name: &str) -> Option<&'static Reg> {
    REGS.iter().find(|r| r.name == name)
}

/// The register at byte offset `offset` (a multiple of 4).
pub fn by_offset(offset: u16) -> Option<&'static Reg> {
    REGS.iter().find(|r| r.offset == offset)
}

/// The register of `CMD_ARG<n>`'s index `n` of op arguments.
const fn a(index: usize, name: &'static str, desc: &'static str) -> Arg {
    Arg {
        index,
        name,
        fields: &[],
        desc,
    }
}

const fn af(name: &'static str, lsb: u32, width: u32, desc: &'static str) -> ArgField {
    ArgField {
        name,
        lsb,
        width,
        desc,
    }
}

/// Every driver command.
pub static OPS: &[Op] = &[
    Op {
        name: "MR_WRITE",
        code: op::MR_WRITE,
        desc: "Writes every field of one MR table entry.",
        block: Block::Built,
        args: &[
            a(0, "INDEX", "MR index (the key's bits 31:8)."),
            Arg {
                index: 1,
                name: "ATTR",
                desc: "Key tag, access rights, page-table levels, state.",
                fields: &[
                    af("TAG", MR_ARG1_TAG_LSB, 8, "Key tag (the key's bits 7:0)."),
                    af("ACCESS", MR_ARG1_ACCESS_LSB, 3, "Access rights: bit 0 local write, bit 1 remote write, bit 2 remote read."),
                    af("LEVELS_M1", MR_ARG1_LEVELS_M1_LSB, 2, "Page-table levels minus one (0..3)."),
                    af("STATE", MR_ARG1_STATE_LSB, 2, "0 invalid, 1 valid, 2 suspended."),
                ],
            },
            a(2, "PD", "Protection domain, bits 15:0."),
            a(3, "BASE_VA_LO", "Base virtual address, bits 31:0."),
            a(4, "BASE_VA_HI", "Base virtual address, bits 63:32."),
            a(5, "LENGTH_LO", "Length in bytes, bits 31:0."),
            a(6, "LENGTH_HI", "Length in bytes, bits 63:32."),
            a(7, "ROOT_LO", "Physical address of the root page table, bits 31:0 (4 KiB aligned)."),
            a(8, "ROOT_HI", "Physical address of the root page table, bits 63:32."),
        ],
    },
    Op {
        name: "MR_SET_STATE",
        code: op::MR_SET_STATE,
        desc: "Changes the state of one MR only.",
        block: Block::Built,
        args: &[
            a(0, "INDEX", "MR index."),
            Arg {
                index: 1,
                name: "STATE",
                desc: "New state.",
                fields: &[af("STATE", 0, 2, "0 invalid, 1 valid, 2 suspended.")],
            },
        ],
    },
    Op {
        name: "MR_SUSPEND",
        code: op::MR_SUSPEND,
        desc: "Suspends an MR: requests to it get RNR / STALL from the result on; once every OK response issued before has been returned on s_done, an MR-suspended event is posted. Result INV_BUSY (10) while 8 invalidations / suspends are in progress.",
        block: Block::Built,
        args: &[a(0, "INDEX", "MR index.")],
    },
    Op {
        name: "MR_RESUME",
        code: op::MR_RESUME,
        desc: "Makes an MR valid (whatever its state) and wakes, once, every QP answered STALL while it was suspended; the result comes when every wake has been taken (about 2^QP_BITS clocks). Result MR_RANGE (3) for an index beyond the table.",
        block: Block::Built,
        args: &[a(0, "INDEX", "MR index.")],
    },
    Op {
        name: "INVALIDATE",
        code: op::INVALIDATE,
        desc: "Invalidates cached translations of an MR range (or a whole MR, or all) and posts invalidation done with the doorbell's tag once no DMA can use them (INV_DONE counts it). Results: EMPTY_RANGE (9) for length 0, RANGE_WRAPS (5) past 2^64, INV_BUSY (10) while 8 are in progress.",
        block: Block::Built,
        args: &[
            a(0, "INDEX", "MR index."),
            Arg {
                index: 1,
                name: "FLAGS",
                desc: "Flags.",
                fields: &[
                    af("ALL", 0, 1, "Invalidate everything (every MR, every range; INDEX and the range are ignored)."),
                    af("WHOLE_MR", 1, 1, "Invalidate every address of MR INDEX (the range is ignored)."),
                ],
            },
            a(2, "VA_LO", "Start virtual address, bits 31:0."),
            a(3, "VA_HI", "Start virtual address, bits 63:32."),
            a(4, "LENGTH_LO", "Length in bytes, bits 31:0."),
            a(5, "LENGTH_HI", "Length in bytes, bits 63:32."),
        ],
    },
    Op {
        name: "PREFETCH",
        code: op::PREFETCH,
        desc: "Walks and caches a range ahead of use, in the style of ibv_advise_mr: one lookup per 4 KiB page, at most half the walks; a \"prefetch done\" event counts the pages filled, faulted and refused. One at a time: another while one runs finishes PF_BUSY.",
        block: Block::Built,
        args: &[
            a(0, "INDEX", "MR index."),
            Arg {
                index: 1,
                name: "FLAGS",
                desc: "Flags.",
                fields: &[
                    af("WRITE", 0, 1, "Prefetch for writing (needs W in the PTEs)."),
                    af("NO_FAULT", 1, 1, "Do not raise faults for missing pages."),
                ],
            },
            a(2, "VA_LO", "Start virtual address, bits 31:0."),
            a(3, "VA_HI", "Start virtual address, bits 63:32."),
            a(4, "LENGTH_LO", "Length in bytes, bits 31:0."),
            a(5, "LENGTH_HI", "Length in bytes, bits 63:32."),
        ],
    },
    Op {
        name: "RESUME_FAULT",
        code: op::RESUME_FAULT,
        desc: "Resolves a pending fault: its requesters retry (or get FATAL). A token that names no pending fault finishes with result STALE_TOKEN and sets ERROR.RESUME_STALE.",
        block: Block::Built,
        args: &[
            a(0, "TOKEN", "Token of the fault event: slot in bits 7:0, generation in bits 15:8, bits 31:16 zero."),
            Arg {
                index: 1,
                name: "FLAGS",
                desc: "Flags; bits 31:1 are reserved and must be 0 (else result BAD_FIELD).",
                fields: &[af("ERROR", 0, 1, "The driver could not map the page: the requests get FATAL.")],
            },
        ],
    },
    Op {
        name: "QP_RESET",
        code: op::QP_RESET,
        desc: "Clears one QP's responder state (NAK'd PSN, stalls, error state, RNR timer override). A QPN at or beyond the core's QPs (the QP table of its responder) finishes with result QP_RANGE and changes nothing.",
        block: Block::Built,
        args: &[a(0, "QPN", "Local QP number in bits 23:0; bits 31:24 must be 0 (else result BAD_FIELD).")],
    },
    Op {
        name: "QP_RNR_TIMER",
        code: op::QP_RNR_TIMER,
        desc: "Sets one QP's RNR timer code, overriding RNR_TIMER, or removes the override. A QPN at or beyond the core's QPs (the QP table of its responder) finishes with result QP_RANGE and changes nothing.",
        block: Block::Built,
        args: &[
            a(0, "QPN", "Local QP number in bits 23:0; bits 31:24 must be 0 (else result BAD_FIELD)."),
            Arg {
                index: 1,
                name: "TIMER",
                desc: "Timer code and override enable; the other bits are ignored.",
                fields: &[
                    af("CODE", 0, 5, "IBTA RNR timer code (ignored when ENABLE is 0)."),
                    af("ENABLE", 8, 1, "1: use CODE for this QP; 0: back to RNR_TIMER."),
                ],
            },
        ],
    },
];

/// The op with code `code`.
pub fn op_by_code(code: u8) -> Option<&'static Op> {
    OPS.iter().find(|o| o.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_aligned_unique_and_in_address_order() {
        for w in REGS.windows(2) {
            assert!(
                w[0].offset < w[1].offset,
                "{} before {}",
                w[0].name,
                w[1].name
            );
        }
        for r in REGS {
            assert_eq!(r.offset % 4, 0, "{} is not 4-byte aligned", r.name);
        }
    }

    #[test]
    fn fields_fit_in_32_bits_do_not_overlap_and_resets_fit() {
        for r in REGS {
            let mut seen = 0u32;
            for f in r.fields {
                assert!(
                    f.width >= 1 && f.lsb + f.width <= 32,
                    "{}.{}",
                    r.name,
                    f.name
                );
                assert_eq!(seen & f.mask(), 0, "{}.{} overlaps", r.name, f.name);
                seen |= f.mask();
                assert!(
                    f.width == 32 || f.reset < (1 << f.width),
                    "{}.{} reset does not fit",
                    r.name,
                    f.name
                );
            }
        }
    }

    #[test]
    fn named_constants_agree_with_the_table() {
        assert_eq!(by_name("PKEY").unwrap().offset, PKEY);
        assert_eq!(by_name("PKEY").unwrap().reset(), 0xFFFF);
        assert_eq!(by_name("RNR_TIMER").unwrap().reset(), 12);
        assert_eq!(by_name("ID").unwrap().reset(), 0x4F44_504D);
        assert_eq!(by_name("CMD_ARG11").unwrap().offset, 0x012C);
        assert_eq!(by_name("LOOKUPS_LO").unwrap().offset, 0x0200);
        assert_eq!(
            by_name("QPS_STALLED_NOW_HI").unwrap().offset,
            counter_hi(ctr::QPS_STALLED_NOW)
        );
        assert_eq!(COUNTERS[ctr::FAULT_SERVICE_SUM].name, "FAULT_SERVICE_SUM");
        assert_eq!(
            by_name("CMD_STATUS").unwrap().field("RESULT").unwrap().lsb,
            16
        );
        assert_eq!(op_by_code(op::QP_RNR_TIMER).unwrap().name, "QP_RNR_TIMER");
        assert!(by_name("NOPE").is_none());
        for (i, c) in COUNTERS.iter().enumerate() {
            assert_eq!(
                by_name(&format!("{}_LO", c.name)).unwrap().offset,
                counter_lo(i)
            );
            assert_eq!(c.offset(), counter_lo(i));
        }
    }

    #[test]
    fn every_op_code_is_unique_and_args_exist() {
        for (i, o) in OPS.iter().enumerate() {
            assert!(OPS[i + 1..].iter().all(|p| p.code != o.code), "{}", o.name);
            for a in o.args {
                assert!(a.index < CMD_ARGS, "{} arg {}", o.name, a.index);
            }
        }
    }
}
