//! QP commands: the driver's side of QP_RESET and QP_RNR_TIMER
//! (`docs/commands.md`), which the core hands to its per-QP responder.
//!
//! A QPN the responder keeps no state for finishes QP_RANGE and changes
//! nothing ([`Error::QpRange`]); the core also sets `ERROR.BAD_CMD` and
//! `ERROR_INFO`, as for every non-zero result. Arguments the core could not
//! be told (a QPN beyond 24 bits, a timer code beyond 31) or that are
//! beyond `CAP_QPS` once it is read are refused before anything is sent
//! ([`Error::BadArgument`]).

use super::{Bus, Driver, Error, Result};
use odp_mmu::control::command;
use odp_mmu::control::regmap::op;

/// The QP_RESET / QP_RNR_TIMER result code for a QPN at or beyond the
/// core's QPs (the responder refused it; nothing changed): the command
/// unit's [`command::RES_QP_RANGE`].
pub const RES_QP_RANGE: u8 = command::RES_QP_RANGE as u8;

/// The largest QPN (24 bits); `CMD_ARG0` bits 31:24 set make a QP command
/// BAD_FIELD.
pub const QPN_MAX: u32 = !command::QPN_RESERVED_MASK;

/// QP_RNR_TIMER `CMD_ARG1` bit 8 (`TIMER.ENABLE`): use the code in bits
/// 4:0 (`TIMER.CODE`) for this QP; clear, the QP goes back to `RNR_TIMER`.
pub const QP_TIMER_ENABLE: u32 = 1 << command::QP_TIMER_ENABLE_BIT;

impl<B: Bus> Driver<B> {
    /// The QPN checks both QP commands make before sending anything.
    fn check_qpn(&self, qpn: u32) -> Result<()> {
        if qpn > QPN_MAX {
            return Err(Error::BadArgument {
                what: "QPN beyond 24 bits",
            });
        }
        if self.caps.qps != 0 && qpn >= self.caps.qps {
            return Err(Error::BadArgument {
                what: "QPN beyond CAP_QPS",
            });
        }
        Ok(())
    }

    /// A QP command, with QP_RANGE as [`Error::QpRange`].
    fn qp_command(&mut self, op: u8, qpn: u32, args: &[u32]) -> Result<()> {
        match self.command(op, args) {
            Err(Error::Command {
                code: RES_QP_RANGE, ..
            }) => Err(Error::QpRange { qpn }),
            r => r,
        }
    }

    /// QP_RESET: clears the responder state of QP `qpn` (not waiting, not
    /// in error, no RNR timer override). Use it when the QP is created or
    /// reset by the verbs layer.
    ///
    /// A QPN the core keeps no state for is [`Error::QpRange`] (the core
    /// then also sets `ERROR.BAD_CMD`, which stays set until the caller
    /// clears it); one beyond 24 bits, or beyond `CAP_QPS` after
    /// [`Driver::bring_up`], is [`Error::BadArgument`] and sends nothing.
    /// Any other refusal is [`Error::Command`] (NOT_BUILT on a core without
    /// the QP commands).
    pub fn qp_reset(&mut self, qpn: u32) -> Result<()> {
        self.check_qpn(qpn)?;
        self.qp_command(op::QP_RESET, qpn, &[qpn])
    }

    /// QP_RNR_TIMER: `Some(code)` makes QP `qpn`'s RNR NAKs carry the IBTA
    /// timer code `code` (0..=31; see `docs/driver.md` for the codes)
    /// instead of `RNR_TIMER`; `None` removes the override. Errors as
    /// [`Driver::qp_reset`]'s, and a code beyond 31 is
    /// [`Error::BadArgument`].
    pub fn set_qp_rnr_timer(&mut self, qpn: u32, code: Option<u8>) -> Result<()> {
        self.check_qpn(qpn)?;
        let word1 = match code {
            Some(c) if c as u32 > command::QP_TIMER_CODE_MASK => {
                return Err(Error::BadArgument {
                    what: "RNR timer code beyond 31",
                })
            }
            Some(c) => QP_TIMER_ENABLE | c as u32,
            None => 0,
        };
        self.qp_command(op::QP_RNR_TIMER, qpn, &[qpn, word1])
    }
}
