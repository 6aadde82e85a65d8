//! Invalidation and MR suspend / resume: the driver's side of INVALIDATE,
//! MR_SUSPEND (`docs/invalidation.md`) and MR_RESUME
//! (`docs/mr_waiters.md`).
//!
//! [`Driver::invalidate_range`] is what an MMU notifier calls between
//! clearing (or rewriting) the PTEs of a range and letting the kernel reuse
//! the old frames: it returns once the core says no DMA can still use the
//! old translations. The split form ([`Driver::invalidate_start`],
//! [`Driver::invalidation_done`], [`Driver::wait_invalidation`]) lets a
//! driver keep up to eight in flight. A command refused because eight are
//! already in progress (INV_BUSY) is issued again once the oldest is done.

use super::{Bus, Driver, Error, Mr, Result};
use odp_mmu::control::command;
use odp_mmu::control::regmap::{self, op};
use odp_mmu::spec::mr_state;

/// The INVALIDATE / MR_SUSPEND result while the core has eight in
/// progress: [`command::RES_INV_BUSY`].
pub const RES_INV_BUSY: u8 = command::RES_INV_BUSY as u8;

/// What an INVALIDATE covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvScope {
    /// The bytes `[va, va + len)` of the MR (every page they touch).
    Range { va: u64, len: u64 },
    /// Every address of the MR.
    WholeMr,
    /// Every MR.
    All,
}

/// An INVALIDATE or MR_SUSPEND the core accepted: its sequence number
/// (`INV_ISSUED` after its result).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvTicket {
    pub seq: u32,
    /// The doorbell tag (the "invalidation done" event's tag).
    pub tag: u8,
}

impl<B: Bus> Driver<B> {
    /// Issues `op` with `args`; on INV_BUSY waits for one in progress to
    /// finish and issues it again. Returns its ticket.
    fn inv_command(&mut self, op: u8, args: &[u32]) -> Result<InvTicket> {
        loop {
            let tag = self.next_tag;
            self.next_tag = self.next_tag.wrapping_add(1);
            match self.command_tagged(op, tag, args) {
                Ok(()) => {
                    let seq = self.bus.read32(regmap::INV_ISSUED);
                    return Ok(InvTicket { seq, tag });
                }
                Err(Error::Command {
                    code: RES_INV_BUSY, ..
                }) => {
                    // The refusal set ERROR.BAD_CMD; it is expected here.
                    self.clear_errors(1 << regmap::ERROR_BAD_CMD)?;
                    let done = self.bus.read32(regmap::INV_DONE);
                    self.poll(regmap::INV_DONE, "an invalidation to finish", |d| d != done)?;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// INVALIDATE of `scope` in `mr`: the core removes the cached
    /// translations and starts draining. Returns at once with the ticket.
    /// An empty range sends nothing and is [`Error::BadArgument`].
    pub fn invalidate_start(&mut self, mr: &Mr, scope: InvScope) -> Result<InvTicket> {
        let (flags, va, len) = match scope {
            InvScope::Range { va, len } => {
                if len == 0 {
                    return Err(Error::BadArgument {
                        what: "empty invalidation range",
                    });
                }
                (0, va, len)
            }
            InvScope::WholeMr => (command::INV_FLAG_MR, 0, 0),
            InvScope::All => (command::INV_FLAG_ALL, 0, 0),
        };
        let args = [
            mr.index,
            flags,
            va as u32,
            (va >> 32) as u32,
            len as u32,
            (len >> 32) as u32,
        ];
        self.inv_command(op::INVALIDATE, &args)
    }

    /// Whether the INVALIDATE / MR_SUSPEND of `t` is done (`INV_DONE` has
    /// passed its sequence number; they finish in order).
    pub fn invalidation_done(&mut self, t: &InvTicket) -> bool {
        let done = self.bus.read32(regmap::INV_DONE);
        done.wrapping_sub(t.seq) as i32 >= 0
    }

    /// Polls until `t` is done.
    pub fn wait_invalidation(&mut self, t: &InvTicket) -> Result<()> {
        let seq = t.seq;
        self.poll(regmap::INV_DONE, "invalidation done", |d| {
            d.wrapping_sub(seq) as i32 >= 0
        })?;
        Ok(())
    }

    /// The MMU-notifier call: invalidates `[va, va + len)` of `mr` and
    /// returns once no DMA can still use a translation of it made before
    /// the call. The caller has already cleared or rewritten the PTEs.
    pub fn invalidate_range(&mut self, mr: &Mr, va: u64, len: u64) -> Result<()> {
        let t = self.invalidate_start(mr, InvScope::Range { va, len })?;
        self.wait_invalidation(&t)
    }

    /// MR_SUSPEND: requests to `mr` get RNR / STALL from now on; returns the
    /// ticket, done (and the "MR suspended" event posted) once every OK
    /// response issued before is back.
    pub fn suspend_mr(&mut self, mr: &mut Mr) -> Result<InvTicket> {
        let t = self.inv_command(op::MR_SUSPEND, &[mr.index])?;
        mr.state = mr_state::byte::SUSPENDED;
        Ok(t)
    }

    /// MR_RESUME: `mr` translates again, and every QP that got STALL while
    /// it was suspended is woken (`m_wake`) once. Returns when the core has
    /// handed out every wake (`docs/mr_waiters.md`: about 2^QP_BITS clocks).
    pub fn resume_mr(&mut self, mr: &mut Mr) -> Result<()> {
        self.command(op::MR_RESUME, &[mr.index])?;
        mr.state = mr_state::byte::VALID;
        Ok(())
    }
}
