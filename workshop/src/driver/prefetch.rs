//! PREFETCH: the driver's side of `ibv_advise_mr` (`docs/prefetch.md`).
//!
//! [`Driver::prefetch`] asks the core to walk every page of a range and
//! fill its TLB; it returns the doorbell tag at once, and the core posts
//! [`Event::PrefetchDone`](super::Event::PrefetchDone) with that tag and
//! the page counts when the walks are over. Missing pages become page
//! faults (QPN `0xFFFFF8` to `0xFFFFFF`), serviced like any other, unless
//! [`PrefetchFlags::no_fault`].

use super::{Bus, Driver, Error, Mr, Result};
use odp_mmu::control::command;
use odp_mmu::control::regmap::op;

/// The PREFETCH result while another PREFETCH runs:
/// [`command::RES_PF_BUSY`].
pub const RES_PF_BUSY: u8 = command::RES_PF_BUSY as u8;

/// PREFETCH flags (`CMD_ARG1`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrefetchFlags {
    /// Prefetch for writing: a page counts as filled only if writable.
    pub write: bool,
    /// A missing page raises no page fault (it is only counted).
    pub no_fault: bool,
}

impl PrefetchFlags {
    fn word(self) -> u32 {
        (self.write as u32 * command::PF_FLAG_WRITE)
            | (self.no_fault as u32 * command::PF_FLAG_NO_FAULT)
    }
}

impl<B: Bus> Driver<B> {
    /// PREFETCH of `[va, va + len)` in `mr`. Returns the doorbell tag of
    /// the "prefetch done" event to come. An empty range sends nothing and
    /// is [`Error::BadArgument`]; a PREFETCH while another one runs is
    /// [`Error::Command`] with [`RES_PF_BUSY`] (the core also sets
    /// `ERROR.BAD_CMD`): issue it again after the running one's event.
    pub fn prefetch(&mut self, mr: &Mr, va: u64, len: u64, flags: PrefetchFlags) -> Result<u8> {
        if len == 0 {
            return Err(Error::BadArgument {
                what: "empty prefetch range",
            });
        }
        let tag = self.next_tag;
        self.next_tag = self.next_tag.wrapping_add(1);
        let args = [
            mr.index,
            flags.word(),
            va as u32,
            (va >> 32) as u32,
            len as u32,
            (len >> 32) as u32,
        ];
        self.command_tagged(op::PREFETCH, tag, &args)?;
        Ok(tag)
    }
}
