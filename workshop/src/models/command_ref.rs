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

/// What `c` does on a table of 2^`mr_bits` MRs: its result code and MR
/// table write, or the RESUME it hands to the fault queue.
pub fn execute(c: &Command, mr_bits: u32) -> Outcome {
    let a = &c.args;
    let index_ok = (a[0] as u64) < 1 << mr_bits;
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
    } else if OPS_PLANNED.contains(&c.op) {
        RES_NOT_BUILT
    } else {
        RES_UNKNOWN_OP
    };
    Outcome::Done(code as u8, None)
}
