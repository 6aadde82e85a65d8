//! The host driver library: everything a driver does to the core, over a
//! small bus trait.
//!
//! A [`Bus`] is what the driver needs from the machine it runs on: 32-bit
//! reads and writes of the core's AXI4-Lite registers and 64-bit access to the
//! host memory the core's AXI4 master reads and writes (page tables; the
//! event ring). The system testbench implements it on the simulated
//! core (every register access clocks the whole simulated system, so traffic
//! keeps flowing while the driver works); a board front end implements it over
//! a serial bridge. Everything above the bus is shared: the testbench drives
//! the core only through this library.
//!
//! What it does today: bring-up ([`Driver::bring_up`]), MR registration with
//! page-table building ([`Driver::register_mr`], [`Driver::map`],
//! [`Driver::unmap`]), MR state changes, any command through the doorbell
//! ([`Driver::command`]), errors and counters, and the fault loop: the event
//! ring ([`Driver::setup_event_ring`], [`Driver::poll_events`], decoded into
//! [`Event`]s), RESUME_FAULT ([`Driver::resume_fault`], with
//! [`Error::StaleToken`] for a stale token) and one pass of the whole loop
//! for testbenches ([`Driver::service_faults`]); the QP commands
//! ([`Driver::qp_reset`], [`Driver::set_qp_rnr_timer`], with
//! [`Error::QpRange`] for a QPN the core has no state for). The invalidation and
//! prefetch calls arrive with the blocks that execute them. The register
//! offsets and fields come from [`odp_mmu::control::regmap`], the one description of the
//! register map. `docs/driver.md` is the driver author's guide.

use crate::models::mr_check::MrEntry;
use crate::models::page_table::{MrTables, PageTableBuilder, WordMemory};
use odp_mmu::control::regmap::{self, op};
use odp_mmu::spec::{mr_state, PageSize};

mod events;
pub use events::{
    Event, EventRing, FaultAnswer, FaultService, PageFaultEvent, RESUME_FLAGS_ERROR,
    RES_STALE_TOKEN,
};

mod inval;
pub use inval::{InvScope, InvTicket, RES_INV_BUSY};

mod prefetch;
pub use prefetch::{PrefetchFlags, RES_PF_BUSY};

mod qp;
pub use qp::{QPN_MAX, QP_TIMER_ENABLE, RES_QP_RANGE};

#[cfg(test)]
mod tests;

/// The machine the driver runs on: the core's registers and host memory.
pub trait Bus: WordMemory {
    /// Reads the 32-bit register at byte offset `addr`.
    fn read32(&mut self, addr: u16) -> u32;
    /// Writes the 32-bit register at byte offset `addr` (all byte lanes);
    /// `Err(bresp)` when the core answers SLVERR.
    fn write32(&mut self, addr: u16, data: u32) -> std::result::Result<(), u8>;
}

/// What went wrong, with what the core said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// `ID` did not read `regmap::ID_VALUE`: no odp-mmu core at this bus.
    NotOdpMmu { id: u32 },
    /// The core's major version is not the one this library speaks.
    Version { found: u32 },
    /// A register write answered SLVERR.
    Bus { addr: u16, bresp: u8 },
    /// A command finished with a non-zero result code (`docs/commands.md`).
    Command { op: u8, code: u8 },
    /// RESUME_FAULT answered STALE_TOKEN ([`RES_STALE_TOKEN`]): `token`
    /// names no posted fault (already resumed, from before a reset, or never
    /// written).
    StaleToken { token: u32 },
    /// QP_RESET or QP_RNR_TIMER answered QP_RANGE ([`RES_QP_RANGE`]):
    /// `qpn` is at or beyond the core's QPs; nothing changed.
    QpRange { qpn: u32 },
    /// The event ring cannot be set up: with the ring reset
    /// (`EQ_LOG2_SIZE` = 0), `EQ_PROD` still reads `prod`, not 0, after the
    /// poll bound: the writer's bursts in flight never completed.
    RingNotReset { prod: u32 },
    /// A poll did not see the awaited state within its bound.
    Timeout { what: &'static str },
    /// An argument the core would refuse, caught before it is sent.
    BadArgument { what: &'static str },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::NotOdpMmu { id } => write!(f, "ID reads {id:#010x}: not an odp-mmu core"),
            Error::Version { found } => write!(f, "core version {found:#010x} not supported"),
            Error::Bus { addr, bresp } => write!(f, "write to {addr:#06x} answered BRESP {bresp}"),
            Error::Command { op, code } => {
                write!(f, "command {op:#04x} finished with result {code}")
            }
            Error::StaleToken { token } => {
                write!(f, "RESUME_FAULT token {token:#010x} is stale")
            }
            Error::QpRange { qpn } => {
                write!(f, "QPN {qpn:#x} is beyond the core's QPs")
            }
            Error::RingNotReset { prod } => {
                write!(
                    f,
                    "EQ_PROD reads {prod}, not 0: the event ring did not drain"
                )
            }
            Error::Timeout { what } => write!(f, "timed out waiting for {what}"),
            Error::BadArgument { what } => write!(f, "bad argument: {what}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// Sizes read from the `CAP_*` registers at bring-up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caps {
    pub mrs: u32,
    pub qps: u32,
    pub tlb_sets: u32,
    pub tlb_ways: u32,
    pub tlb_huge: u32,
    pub walks: u32,
    pub pending_faults: u32,
    pub outstanding: u32,
}

/// Where and how an MR is registered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MrSpec {
    /// The key's tag (bits 7:0 of the lkey / rkey).
    pub tag: u8,
    pub pd: u16,
    pub base_va: u64,
    pub length: u64,
    /// Bit 0 local write, bit 1 remote write, bit 2 remote read.
    pub access: u8,
    /// Page-table levels, 1..=4 (4 KiB tables of 512 entries: 2 MiB, 1 GiB,
    /// 512 GiB or 256 TiB of reach from the MR's first page).
    pub levels: u8,
}

/// A registered MR: its index, key and page tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mr {
    pub index: u32,
    pub spec: MrSpec,
    pub tables: MrTables,
    /// The state last written by the driver.
    pub state: u8,
}

impl Mr {
    /// The lkey / rkey requests carry: index in bits 31:8, tag in 7:0.
    pub fn key(&self) -> u32 {
        self.index << 8 | self.spec.tag as u32
    }

    /// The MR table entry as the core holds it.
    pub fn entry(&self) -> MrEntry {
        MrEntry {
            tag: self.spec.tag,
            pd: self.spec.pd,
            base_va: self.spec.base_va,
            length: self.spec.length,
            access: self.spec.access,
            root: self.tables.root,
            levels_m1: self.tables.levels_m1,
            state: self.state,
        }
    }

    /// The page-table offset of `va` (SPEC section 3: from the MR's first
    /// page).
    pub fn offset(&self, va: u64) -> u64 {
        va.wrapping_sub(self.spec.base_va & !0xfff)
    }
}

/// Register polls give up after this many reads.
pub const POLL_LIMIT: u32 = 1_000_000;

/// The driver: a bus, the page-table frame allocator and the event ring.
pub struct Driver<B: Bus> {
    pub bus: B,
    tables: PageTableBuilder,
    caps: Caps,
    next_tag: u8,
    ring: Option<EventRing>,
}

impl<B: Bus> Driver<B> {
    /// A driver on `bus` that places page tables in the 4 KiB host frames
    /// `table_frames` (frame numbers: physical address >> 12). The frames are
    /// zeroed as they are taken, unless `memory_is_zero` says the memory
    /// already reads zero there (a fresh simulation model).
    pub fn new(bus: B, table_frames: std::ops::Range<u64>, memory_is_zero: bool) -> Self {
        let mut tables = PageTableBuilder::new(table_frames.start, table_frames.end);
        tables.zero_tables = !memory_is_zero;
        Self {
            bus,
            tables,
            caps: Caps::default(),
            next_tag: 0,
            ring: None,
        }
    }

    /// The sizes read at bring-up.
    pub fn caps(&self) -> Caps {
        self.caps
    }

    fn write(&mut self, addr: u16, data: u32) -> Result<()> {
        self.bus
            .write32(addr, data)
            .map_err(|bresp| Error::Bus { addr, bresp })
    }

    fn poll(&mut self, addr: u16, what: &'static str, done: impl Fn(u32) -> bool) -> Result<u32> {
        for _ in 0..POLL_LIMIT {
            let v = self.bus.read32(addr);
            if done(v) {
                return Ok(v);
            }
        }
        Err(Error::Timeout { what })
    }

    /// Brings the core up after reset: checks `ID` and `VERSION`, waits for
    /// `STATUS.READY` (the core clears its memories after reset), reads the
    /// capabilities, clears `ERROR` and the counters.
    pub fn bring_up(&mut self) -> Result<Caps> {
        let id = self.bus.read32(regmap::ID);
        if id != regmap::ID_VALUE {
            return Err(Error::NotOdpMmu { id });
        }
        let version = self.bus.read32(regmap::VERSION);
        if version >> 16 != regmap::VERSION_VALUE >> 16 {
            return Err(Error::Version { found: version });
        }
        self.poll(regmap::STATUS, "STATUS.READY", |s| {
            s >> regmap::STATUS_READY & 1 == 1
        })?;
        let tlb = self.bus.read32(regmap::CAP_TLB);
        let queues = self.bus.read32(regmap::CAP_QUEUES);
        self.caps = Caps {
            mrs: self.bus.read32(regmap::CAP_MRS),
            qps: self.bus.read32(regmap::CAP_QPS),
            tlb_sets: tlb >> regmap::CAP_TLB_SETS_LSB & 0xffff,
            tlb_huge: tlb >> regmap::CAP_TLB_HUGE_LSB & 0xff,
            tlb_ways: tlb >> regmap::CAP_TLB_WAYS_LSB & 0xff,
            walks: queues >> regmap::CAP_QUEUES_WALKS_LSB & 0xff,
            pending_faults: queues >> regmap::CAP_QUEUES_PENDING_LSB & 0xff,
            outstanding: queues >> regmap::CAP_QUEUES_OUTSTANDING_LSB & 0xff,
        };
        let err = self.bus.read32(regmap::ERROR);
        self.write(regmap::ERROR, err)?;
        self.clear_counters()?;
        Ok(self.caps)
    }

    /// Issues one command the way the doorbell rule asks (`docs/registers.md`):
    /// waits for `CMD_STATUS.BUSY` to clear, writes the arguments, rings the
    /// doorbell with `op` and a rolling tag, waits for the core to take and
    /// finish it, and returns the result: `Ok` for code 0, else
    /// [`Error::Command`] with the code (the core also records it in
    /// `ERROR.BAD_CMD` / `ERROR_INFO`).
    pub fn command(&mut self, op: u8, args: &[u32]) -> Result<()> {
        let tag = self.next_tag;
        self.next_tag = self.next_tag.wrapping_add(1);
        self.command_tagged(op, tag, args)
    }

    /// [`Driver::command`] with the doorbell tag given (INVALIDATE reports
    /// its tag in its done event).
    pub fn command_tagged(&mut self, op: u8, tag: u8, args: &[u32]) -> Result<()> {
        if args.len() > regmap::CMD_ARGS {
            return Err(Error::BadArgument {
                what: "more arguments than CMD_ARG registers",
            });
        }
        let idle = |s: u32| s >> regmap::CMD_STATUS_BUSY & 1 == 0;
        self.poll(regmap::CMD_STATUS, "CMD_STATUS.BUSY clear", idle)?;
        for (k, a) in args.iter().enumerate() {
            self.write(regmap::cmd_arg(k), *a)?;
        }
        let bell = (op as u32) << regmap::CMD_DOORBELL_OP_LSB
            | (tag as u32) << regmap::CMD_DOORBELL_TAG_LSB;
        self.write(regmap::CMD_DOORBELL, bell)?;
        let st = self.poll(regmap::CMD_STATUS, "command finished", idle)?;
        match (st >> regmap::CMD_STATUS_RESULT_LSB & 0xff) as u8 {
            0 => Ok(()),
            code => Err(Error::Command { op, code }),
        }
    }

    /// Writes every field of MR table entry `index` (MR_WRITE).
    pub fn write_mr(&mut self, index: u32, e: &MrEntry) -> Result<()> {
        let word1 = (e.tag as u32) << regmap::MR_ARG1_TAG_LSB
            | (e.access as u32) << regmap::MR_ARG1_ACCESS_LSB
            | (e.levels_m1 as u32) << regmap::MR_ARG1_LEVELS_M1_LSB
            | (e.state as u32) << regmap::MR_ARG1_STATE_LSB;
        let root_pa = e.root << 12;
        self.command(
            op::MR_WRITE,
            &[
                index,
                word1,
                e.pd as u32,
                e.base_va as u32,
                (e.base_va >> 32) as u32,
                e.length as u32,
                (e.length >> 32) as u32,
                root_pa as u32,
                (root_pa >> 32) as u32,
            ],
        )
    }

    /// Registers an MR at `index` with an empty page table (every page not
    /// present) and state VALID. Map its pages with [`Driver::map`], before
    /// or after: a request to a page not yet mapped gets RNR / STALL.
    pub fn register_mr(&mut self, index: u32, spec: MrSpec) -> Result<Mr> {
        if !(1..=4).contains(&spec.levels) {
            return Err(Error::BadArgument {
                what: "levels must be 1..=4",
            });
        }
        if self.caps.mrs != 0 && index >= self.caps.mrs {
            return Err(Error::BadArgument {
                what: "MR index beyond CAP_MRS",
            });
        }
        let tables = self.tables.new_mr(spec.levels);
        if self.tables.zero_tables {
            for k in 0..512 {
                self.bus.store64((tables.root << 12) + 8 * k, 0);
            }
        }
        let mr = Mr {
            index,
            spec,
            tables,
            state: mr_state::byte::VALID,
        };
        self.write_mr(index, &mr.entry())?;
        Ok(mr)
    }

    /// Maps the `size` page of `mr` holding `va` to host frame `frame`
    /// (physical address >> 12, aligned to `size`), writable or not, building
    /// the tables on the way. Mapping a page that is not present needs no
    /// command: the core never caches a missing page. Changing a present
    /// mapping needs an invalidation (the command unit's INVALIDATE).
    pub fn map(&mut self, mr: &Mr, va: u64, size: PageSize, frame: u64, writable: bool) {
        let off = mr.offset(va);
        self.tables
            .map(&mut self.bus, mr.tables, off, size, frame, writable);
    }

    /// Clears the leaf PTE of the `size` page of `mr` holding `va`. The core
    /// may still hold the old translation until an invalidation covering it
    /// completes.
    pub fn unmap(&mut self, mr: &Mr, va: u64, size: PageSize) {
        let off = mr.offset(va);
        self.tables
            .set_pte(&mut self.bus, mr.tables, off, size.level(), 0);
    }

    /// Changes the state of `mr` only (MR_SET_STATE): `odp_mmu::spec::mr_state`.
    pub fn set_mr_state(&mut self, mr: &mut Mr, state: u8) -> Result<()> {
        self.command(op::MR_SET_STATE, &[mr.index, state as u32])?;
        mr.state = state;
        Ok(())
    }

    /// `ERROR` and `ERROR_INFO`.
    pub fn errors(&mut self) -> (u32, u32) {
        (
            self.bus.read32(regmap::ERROR),
            self.bus.read32(regmap::ERROR_INFO),
        )
    }

    /// Clears the `ERROR` bits set in `mask` (rw1c).
    pub fn clear_errors(&mut self, mask: u32) -> Result<()> {
        self.write(regmap::ERROR, mask)
    }

    /// The 64-bit counter `name` (`docs/registers.md`, Counters), read low
    /// word first so the pair is consistent.
    pub fn counter(&mut self, name: &str) -> Result<u64> {
        let c = regmap::COUNTERS
            .iter()
            .find(|c| c.name == name)
            .ok_or(Error::BadArgument {
                what: "no counter of that name",
            })?;
        let lo = self.bus.read32(c.offset()) as u64;
        let hi = self.bus.read32(c.offset() + 4) as u64;
        Ok(lo | hi << 32)
    }

    /// Every counter, in register order.
    pub fn counters(&mut self) -> Vec<(&'static str, u64)> {
        regmap::COUNTERS
            .iter()
            .map(|c| {
                let lo = self.bus.read32(c.offset()) as u64;
                let hi = self.bus.read32(c.offset() + 4) as u64;
                (c.name, lo | hi << 32)
            })
            .collect()
    }

    /// Clears every count, max and sum counter.
    pub fn clear_counters(&mut self) -> Result<()> {
        self.write(regmap::COUNTER_CLEAR, 1 << regmap::COUNTER_CLEAR_ALL)
    }
}
