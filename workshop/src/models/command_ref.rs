//! Reference model of the command unit: what one command does, in plain
//! Rust, from the register-map fields (`docs/commands.md`). A RESUME_FAULT
//! that passes its checks is handed to the fault queue, whose answer names
//! its result ([`Outcome::Resume`], [`resume_result`]); a QP_RESET or
//! QP_RNR_TIMER that passes them is handed to the per-QP responder, whose
//! refusal or not names its result ([`Outcome::Qp`], [`qp_result`]).

use odp_mmu::control::command::*;
use odp_mmu::control::regmap::op;
use odp_mmu::spec::{mr_state, qp_cmd};

/// A command as the CSR block hands it over: op code, tag, argument words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Command {
    /// Op code (`regmap::op`).
    pub op: u8,
    /// Driver's tag.
    pub tag: u8,
    /// `CMD_ARG0..8`.
    pub args: [u32; 9],
}

/// The MR table write a good MR command makes. For MR_SET_STATE only
/// `index` and `state` mean anything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    pub index: u32,
    pub tag: u8,
    pub pd: u16,
    pub base_va: u64,
    pub length: u64,
    pub access: u8,
    /// Root table physical address bits 63:12.
    pub root: u64,
    pub levels_m1: u8,
    pub state: u8,
}

/// The RESUME a good RESUME_FAULT hands to the fault queue (`s_res_token`,
/// `s_res_err`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resume {
    /// `CMD_ARG0`, passed as is: the fault queue checks it.
    pub token: u32,
    /// `CMD_ARG1` bit 0: the driver could not map the page.
    pub err: bool,
}

/// The QP command a good QP_RESET / QP_RNR_TIMER hands to the responder
/// (`qp_kind`, `qp_qpn`, `qp_timer`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QpCmd {
    /// `odp_mmu::spec::qp_cmd`: RESET, SET_TIMER or CLEAR_TIMER.
    pub kind: u8,
    /// `CMD_ARG0[23:0]`.
    pub qpn: u32,
    /// SET_TIMER: `CMD_ARG1[4:0]`; 0 with the other kinds.
    pub timer: u8,
}

/// The invalidation or suspend a good INVALIDATE / MR_SUSPEND hands to the
/// invalidation unit (`iv_kind`, `iv_mr`, `iv_va_lo`, `iv_va_hi`); the
/// offsets (`iv_off_*`) follow from the MR's base ([`inv_offsets`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inv {
    /// `odp_mmu::control::inval::IV_*`.
    pub kind: u8,
    /// `CMD_ARG0[7:0]`.
    pub mr: u8,
    /// `CMD_ARG3:CMD_ARG2`.
    pub va_lo: u64,
    /// `va_lo + CMD_ARG5:CMD_ARG4`, all ones when that reaches 2^64.
    pub va_hi: u64,
}

/// `[va_lo, va_hi)` in the page-table offsets of an MR based at `base_va`:
/// `va - (base_va & !0xFFF)`, 0 for addresses at or below the base page.
pub fn inv_offsets(va_lo: u64, va_hi: u64, base_va: u64) -> (u64, u64) {
    let base = base_va & !0xfff;
    (va_lo.saturating_sub(base), va_hi.saturating_sub(base))
}

/// The PREFETCH a good PREFETCH hands to the prefetch unit: the MR, the
/// range as [`Inv`]'s (`va_lo`, `va_hi`) and the flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pf {
    /// `CMD_ARG0[7:0]`.
    pub mr: u8,
    pub va_lo: u64,
    pub va_hi: u64,
    /// `CMD_ARG1` bits 0 and 1.
    pub write: bool,
    pub nofault: bool,
}

/// What a command does once checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Finished by the unit: the result code and the MR table write, if any.
    Done(u8, Option<Effect>),
    /// A good RESUME_FAULT: handed to the fault queue; its answer gives the
    /// result ([`resume_result`]).
    Resume(Resume),
    /// A good QP_RESET / QP_RNR_TIMER: handed to the responder; whether it
    /// refuses the QPN gives the result ([`qp_result`]).
    Qp(QpCmd),
    /// A good INVALIDATE / MR_SUSPEND: handed to the invalidation unit,
    /// which takes it (result OK; MR_SUSPEND sets the MR's state to
    /// suspended in that clock).
    Inv(Inv),
    /// A good MR_RESUME of this MR index: handed to the MR waiters, which
    /// take it (the MR's state is written valid in that clock) and report
    /// done once its wakes are out (result OK).
    MrResume(u32),
    /// A good PREFETCH: handed to the prefetch unit, which takes it
    /// (result OK).
    Prefetch(Pf),
}

/// Result code of a QP command the responder took: `qp_refused` (`refused`,
/// the QPN is beyond its table) or not.
pub fn qp_result(refused: bool) -> u8 {
    if refused {
        RES_QP_RANGE as u8
    } else {
        RES_OK as u8
    }
}

/// Result code of a RESUME_FAULT the fault queue answered: `res_stale`
/// (`stale`) or `res_done`.
pub fn resume_result(stale: bool) -> u8 {
    if stale {
        RES_STALE_TOKEN as u8
    } else {
        RES_OK as u8
    }
}

fn word64(lo: u32, hi: u32) -> u64 {
    lo as u64 | (hi as u64) << 32
}

/// What `c` does on a table of 2^`mr_bits` MRs with room in the
/// invalidation unit and no PREFETCH running: [`execute_with`] with
/// `inv_full` and `pf_busy` false.
pub fn execute(c: &Command, mr_bits: u32) -> Outcome {
    execute_with(c, mr_bits, false, false)
}

/// What `c` does on a table of 2^`mr_bits` MRs: its result code and MR
/// table write, or what it hands to the fault queue, the responder or the
/// invalidation unit; `inv_full`: the invalidation unit has
/// `MAX_IN_PROGRESS` in progress; `pf_busy`: a PREFETCH runs.
pub fn execute_with(c: &Command, mr_bits: u32, inv_full: bool, pf_busy: bool) -> Outcome {
    let a = &c.args;
    let index_ok = (a[0] as u64) < 1 << mr_bits;
    let va = word64(a[2], a[3]);
    let end = va as u128 + word64(a[4], a[5]) as u128;
    let inv = |kind: u64| Inv {
        kind: kind as u8,
        mr: a[0] as u8,
        va_lo: va,
        va_hi: end.min(u64::MAX as u128) as u64,
    };
    let code = if c.op == op::MR_WRITE {
        let base_va = word64(a[3], a[4]);
        let length = word64(a[5], a[6]);
        let root_pa = word64(a[7], a[8]);
        if !index_ok {
            RES_MR_RANGE
        } else if u64::from((a[1] >> 16) & 3) == mr_state::RESERVED {
            RES_BAD_FIELD
        } else if base_va as u128 + length as u128 > 1 << 64 {
            RES_RANGE_WRAPS
        } else if root_pa & 0xfff != 0 {
            RES_ROOT_UNALIGNED
        } else {
            let e = Effect {
                index: a[0],
                tag: a[1] as u8,
                pd: a[2] as u16,
                base_va,
                length,
                access: (a[1] >> 8) as u8 & 7,
                root: root_pa >> 12,
                levels_m1: (a[1] >> 12) as u8 & 3,
                state: (a[1] >> 16) as u8 & 3,
            };
            return Outcome::Done(RES_OK as u8, Some(e));
        }
    } else if c.op == op::MR_SET_STATE {
        if !index_ok {
            RES_MR_RANGE
        } else if u64::from(a[1] & 3) == mr_state::RESERVED {
            RES_BAD_FIELD
        } else {
            let e = Effect {
                index: a[0],
                state: a[1] as u8 & 3,
                ..Effect::default()
            };
            return Outcome::Done(RES_OK as u8, Some(e));
        }
    } else if c.op == op::RESUME_FAULT {
        // Bit 0 is the error flag; the others are reserved.
        if a[1] & !1 != 0 {
            RES_BAD_FIELD
        } else {
            return Outcome::Resume(Resume {
                token: a[0],
                err: a[1] & 1 != 0,
            });
        }
    } else if c.op == op::QP_RESET || c.op == op::QP_RNR_TIMER {
        // A QPN is 24 bits; its range is the responder's to check. ARG1
        // bits other than the code and the enable are ignored.
        if a[0] & QPN_RESERVED_MASK != 0 {
            RES_BAD_FIELD
        } else {
            let enable = a[1] >> QP_TIMER_ENABLE_BIT & 1 != 0;
            let (kind, timer) = if c.op == op::QP_RESET {
                (qp_cmd::RESET, 0)
            } else if enable {
                (qp_cmd::SET_TIMER, (a[1] & QP_TIMER_CODE_MASK) as u8)
            } else {
                (qp_cmd::CLEAR_TIMER, 0)
            };
            return Outcome::Qp(QpCmd {
                kind: kind as u8,
                qpn: a[0],
                timer,
            });
        }
    } else if c.op == op::INVALIDATE {
        let (all, whole) = (a[1] & INV_FLAG_ALL != 0, a[1] & INV_FLAG_MR != 0);
        let range = !all && !whole;
        if !all && !index_ok {
            RES_MR_RANGE
        } else if a[1] & INV_FLAGS_RESERVED != 0 {
            RES_BAD_FIELD
        } else if range && word64(a[4], a[5]) == 0 {
            RES_EMPTY_RANGE
        } else if range && end > 1 << 64 {
            RES_RANGE_WRAPS
        } else if inv_full {
            RES_INV_BUSY
        } else {
            use odp_mmu::control::inval::{IV_ALL, IV_MR, IV_RANGE};
            let kind = if all {
                IV_ALL
            } else if whole {
                IV_MR
            } else {
                IV_RANGE
            };
            return Outcome::Inv(inv(kind));
        }
    } else if c.op == op::MR_SUSPEND {
        if !index_ok {
            RES_MR_RANGE
        } else if inv_full {
            RES_INV_BUSY
        } else {
            return Outcome::Inv(inv(odp_mmu::control::inval::IV_SUSPEND));
        }
    } else if c.op == op::MR_RESUME {
        if !index_ok {
            RES_MR_RANGE
        } else {
            return Outcome::MrResume(a[0]);
        }
    } else if c.op == op::PREFETCH {
        if !index_ok {
            RES_MR_RANGE
        } else if a[1] & PF_FLAGS_RESERVED != 0 {
            RES_BAD_FIELD
        } else if word64(a[4], a[5]) == 0 {
            RES_EMPTY_RANGE
        } else if end > 1 << 64 {
            RES_RANGE_WRAPS
        } else if pf_busy {
            RES_PF_BUSY
        } else {
            let v = inv(0);
            return Outcome::Prefetch(Pf {
                mr: a[0] as u8,
                va_lo: v.va_lo,
                va_hi: v.va_hi,
                write: a[1] & PF_FLAG_WRITE != 0,
                nofault: a[1] & PF_FLAG_NO_FAULT != 0,
            });
        }
    } else if OPS_PLANNED.contains(&c.op) {
        RES_NOT_BUILT
    } else {
        RES_UNKNOWN_OP
    };
    Outcome::Done(code as u8, None)
}
