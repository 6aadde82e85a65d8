#![doc = include_str!("../../docs/commands.md")]

use rust_hdl::prelude::*;

use crate::common::interfaces::{MrStateOut, MrWriteOut};

/// Op codes (the register map's [`op`](crate::control::regmap::op)) of commands whose blocks are not
/// built yet, answered [`RES_NOT_BUILT`]: none; every command of the
/// register map is built. INVALIDATE and MR_SUSPEND go to the invalidation
/// unit's `s_iv_*` port, MR_RESUME to the MR waiters' `r_*` port,
/// PREFETCH to the prefetch unit's `s_*` port, RESUME_FAULT to the fault
/// queue's RESUME port and QP_RESET / QP_RNR_TIMER to the per-QP
/// responder's command port.
pub const OPS_PLANNED: &[u8] = &[];

/// PREFETCH `CMD_ARG1` bit 0: prefetch for writing (the pages must be
/// writable to count as filled).
pub const PF_FLAG_WRITE: u32 = 1;
/// PREFETCH `CMD_ARG1` bit 1: a missing page raises no page fault.
pub const PF_FLAG_NO_FAULT: u32 = 2;
/// PREFETCH `CMD_ARG1` bits that no flag names: a set one is
/// [`RES_BAD_FIELD`].
pub const PF_FLAGS_RESERVED: u32 = !3;

/// INVALIDATE `CMD_ARG1` bit 0: every MR, every address (MR and range
/// ignored).
pub const INV_FLAG_ALL: u32 = 1;
/// INVALIDATE `CMD_ARG1` bit 1: every address of MR `CMD_ARG0` (range
/// ignored).
pub const INV_FLAG_MR: u32 = 2;
/// INVALIDATE `CMD_ARG1` bits that no flag names: a set one is
/// [`RES_BAD_FIELD`].
pub const INV_FLAGS_RESERVED: u32 = !3;

/// QP_RESET / QP_RNR_TIMER `CMD_ARG0` bits above the 24-bit QPN: a set one
/// makes the command [`RES_BAD_FIELD`] (it never reaches the responder).
pub const QPN_RESERVED_MASK: u32 = 0xff00_0000;
/// QP_RNR_TIMER `CMD_ARG1`: the timer code, bits 4:0.
pub const QP_TIMER_CODE_MASK: u32 = 0x1f;
/// QP_RNR_TIMER `CMD_ARG1`: the override enable, bit 8 (1: SET_TIMER with
/// the code; 0: CLEAR_TIMER).
pub const QP_TIMER_ENABLE_BIT: u32 = 8;

/// Result: the command was carried out.
pub const RES_OK: u64 = 0;
/// Result: no command has this op code.
pub const RES_UNKNOWN_OP: u64 = 1;
/// Result: the command belongs to a block not built yet.
pub const RES_NOT_BUILT: u64 = 2;
/// Result: the MR index is not below the number of MRs.
pub const RES_MR_RANGE: u64 = 3;
/// Result: a field holds a reserved value (MR state 3).
pub const RES_BAD_FIELD: u64 = 4;
/// Result: `base_va + length` lies beyond 2^64.
pub const RES_RANGE_WRAPS: u64 = 5;
/// Result: the root table address is not 4 KiB aligned.
pub const RES_ROOT_UNALIGNED: u64 = 6;
/// Result: RESUME_FAULT's token names no fault awaiting its RESUME (the
/// fault queue answered `res_stale`: no such slot, a slot not POSTED, an
/// old generation, or token bits 31:16 set); nothing changed. Also sets
/// `ERROR.RESUME_STALE` (output `err_resume_stale`).
pub const RES_STALE_TOKEN: u64 = 7;
/// Result: QP_RESET / QP_RNR_TIMER named a QPN at or beyond the core's QPs
/// (the responder answered `qp_refused`); nothing changed. Sets only what
/// every non-zero result sets (`ERROR.BAD_CMD`, `ERROR_INFO`).
pub const RES_QP_RANGE: u64 = 8;
/// Result: INVALIDATE of a range of length 0.
pub const RES_EMPTY_RANGE: u64 = 9;
/// Result: INVALIDATE / MR_SUSPEND while
/// [`crate::control::inval::MAX_IN_PROGRESS`] are in progress; nothing
/// changed, issue it again once one is done.
pub const RES_INV_BUSY: u64 = 10;
/// Result: PREFETCH while another PREFETCH runs (one at a time); nothing
/// changed, issue it again once its "prefetch done" event is posted.
pub const RES_PF_BUSY: u64 = 11;

/// Where a command is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum CmdState {
    /// Waits for a command (`cmd_ready` high once the datapath is ready).
    Idle,
    /// Holds the command's words; the checks run into `code`.
    Check,
    /// A good RESUME_FAULT: offers it on `fq_res` until the fault queue
    /// takes it.
    Resume,
    /// The fault queue took the RESUME: waits for its answer (`fq_res_done`
    /// or `fq_res_stale`), which names the result.
    ResumeWait,
    /// A good MR_RESUME: offers it on `mw_*` until the MR waiters take it
    /// (the MR's state is written valid in that clock).
    MrRes,
    /// The MR waiters took it: waits for `mw_done` (every QP stalled on
    /// the MR woken).
    MrResWait,
    /// A good QP_RESET / QP_RNR_TIMER: offers it on `qp_*` until the
    /// responder takes it.
    Qp,
    /// The responder took the QP command: this clock `qp_refused` says
    /// whether it refused the QPN ([`RES_QP_RANGE`]) or carried it out.
    QpWait,
    /// A good INVALIDATE / MR_SUSPEND: the MR's base from the shadow
    /// table is on the RAM's output; the range's offsets are computed.
    InvPrep,
    /// Offers it on `iv_*` until the invalidation unit takes it (an
    /// MR_SUSPEND writes the MR's state in that clock).
    Inv,
    /// A good PREFETCH: offers it on `pf_*` until the prefetch unit takes
    /// it.
    Pf,
    /// Writes the MR table (if the command is good) and reports the result.
    Issue,
}

/// The command unit for an MR table of 2^`MR_BITS` entries.
///
/// # Ports
///
/// - `ready` (in): the datapath finished its reset sweep; no command is
///   taken before.
/// - `cmd_*`: the command stream from the CSR block. `cmd_arg0..8` are the
///   argument words the op defines (`docs/commands.md`).
/// - `mr_wr_*`, `mr_st_*`: the MR table's full and state-only write ports
///   (one clock each, no backpressure).
/// - `fq_res_*` (out, stream; `fq_res_ready` in): RESUME_FAULT handed to
///   the fault queue's `s_res_*`: `fq_res_token` is `CMD_ARG0`,
///   `fq_res_err` is `CMD_ARG1` bit 0. `fq_res_valid` does not wait for
///   `fq_res_ready`, and token and flag hold until the handshake.
/// - `fq_res_done`, `fq_res_stale` (in, pulses): the fault queue's answer
///   to the RESUME it took (its `res_done` / `res_stale`, one of the two, 3
///   clocks after the handshake). Read only while a RESUME waits for its
///   answer; a pulse at any other clock is ignored.
/// - `qp_*` (out, stream; `qp_ready` in): QP_RESET and QP_RNR_TIMER handed
///   to the per-QP responder's command port (`QpResponder`'s `s_qpcmd_*`):
///   `qp_kind` a [`crate::spec::qp_cmd`] kind (QP_RESET:
///   RESET; QP_RNR_TIMER: SET_TIMER with ARG1 bit 8 set, else
///   CLEAR_TIMER), `qp_qpn` `CMD_ARG0[23:0]`, `qp_timer` `CMD_ARG1[4:0]`
///   with SET_TIMER and 0 with the other kinds. `qp_valid` does not wait
///   for `qp_ready`, and the payload holds until the handshake.
/// - `qp_refused` (in, pulse): the responder's answer, the clock after the
///   handshake: the QPN is beyond its table and it changed nothing. Read
///   only in that clock; a pulse at any other clock is ignored.
/// - `res_*`: one clock per command: its op, tag and result code.
/// - `err_resume_stale` (out, pulse): with `res_valid` of a RESUME_FAULT
///   answered [`RES_STALE_TOKEN`]; the top routes it to the CSR block's
///   `err_resume_stale` (`ERROR.RESUME_STALE`).
///
/// # Timing
///
/// The unit copies a command at the first edge `e` where `cmd_valid` and
/// `ready` are high (the source holds it, valid and stable, as a stream
/// source must), checks it in the clock after `e`, and in the clock after
/// that takes it (`cmd_ready` high, the handshake), writes the MR table if
/// it is good and pulses `res_valid`. So a command costs three clocks, the
/// handshake and the result are the same clock (a source that no longer
/// holds a command knows its result is posted), and a lookup presented
/// after `res_valid` sees the new entry.
///
/// A good RESUME_FAULT instead raises `fq_res_valid` in the clock after the
/// check (`e + 2`) and holds it until the fault queue takes it, in clock
/// `h`; the answer comes at `h + 3`, and the command is taken with its
/// result at `h + 4`. With `fq_res_ready` already high that is seven
/// clocks from `e` to the result, plus one for each clock `fq_res_ready`
/// stays low; the fault queue raises it one clock after it sees the valid
/// at the earliest, and only between faults.
///
/// A good QP_RESET / QP_RNR_TIMER raises `qp_valid` in the clock after
/// the check (`e + 2`) and holds it until the responder takes it, in clock
/// `h`; `qp_refused` is read at `h + 1`, and the command is taken with its
/// result at `h + 2`. With `qp_ready` already high that is five clocks
/// from `e` to the result, plus one for each clock `qp_ready` stays low.
///
/// `cmd_ready` depends on the state register only, and every output comes
/// from registers through at most a few gates. `rst` drops a command in
/// flight (it is not taken, and reports nothing), one waiting on the fault
/// queue too: `fq_res_valid` falls with `rst`, so a RESUME not yet taken
/// is never handed over, while one already taken is the fault queue's to
/// finish (its answer is ignored); in the core `rst` resets the fault queue
/// as well, which drops a RESUME it is still checking. The QP port alike:
/// `qp_valid` falls with `rst`, and a QP command already taken is the
/// responder's (its `qp_refused` is ignored).
#[derive(LogicBlock)]
pub struct CommandUnit<const MR_BITS: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous active-high reset.
    pub rst: Signal<In, Bit>,
    /// The datapath is out of its reset sweep.
    pub ready: Signal<In, Bit>,

    /// Command valid.
    pub cmd_valid: Signal<In, Bit>,
    /// Command ready: the command is taken (with its result, see Timing).
    pub cmd_ready: Signal<Out, Bit>,
    /// Op code (`OP_*`).
    pub cmd_op: Signal<In, Bits<8>>,
    /// Driver's tag, echoed in the result.
    pub cmd_tag: Signal<In, Bits<8>>,
    /// Argument word 0: the MR index; the token (RESUME_FAULT); the QPN
    /// `[23:0]` (QP_RESET, QP_RNR_TIMER).
    pub cmd_arg0: Signal<In, Bits<32>>,
    /// Argument word 1: key tag `[7:0]`, access `[10:8]`, levels-1 `[13:12]`,
    /// state `[17:16]` (MR_WRITE); state `[1:0]` (MR_SET_STATE); flags
    /// (RESUME_FAULT); timer code `[4:0]`, enable `[8]` (QP_RNR_TIMER).
    pub cmd_arg1: Signal<In, Bits<32>>,
    /// Argument word 2: PD `[15:0]`.
    pub cmd_arg2: Signal<In, Bits<32>>,
    /// Argument word 3: base VA bits 31:0.
    pub cmd_arg3: Signal<In, Bits<32>>,
    /// Argument word 4: base VA bits 63:32.
    pub cmd_arg4: Signal<In, Bits<32>>,
    /// Argument word 5: length bits 31:0.
    pub cmd_arg5: Signal<In, Bits<32>>,
    /// Argument word 6: length bits 63:32.
    pub cmd_arg6: Signal<In, Bits<32>>,
    /// Argument word 7: root table physical address bits 31:0.
    pub cmd_arg7: Signal<In, Bits<32>>,
    /// Argument word 8: root table physical address bits 63:32.
    pub cmd_arg8: Signal<In, Bits<32>>,

    /// MR table full write (MR_WRITE).
    pub mr_wr: MrWriteOut<MR_BITS>,
    /// MR table state-only write (MR_SET_STATE).
    pub mr_st: MrStateOut<MR_BITS>,

    /// One clock per command taken: its result.
    pub res_valid: Signal<Out, Bit>,
    /// The command's op code.
    pub res_op: Signal<Out, Bits<8>>,
    /// The command's tag.
    pub res_tag: Signal<Out, Bits<8>>,
    /// Result code (`RES_*`).
    pub res_code: Signal<Out, Bits<8>>,
    /// With `res_valid`: a RESUME_FAULT was answered stale
    /// ([`RES_STALE_TOKEN`]); sets `ERROR.RESUME_STALE`.
    pub err_resume_stale: Signal<Out, Bit>,

    /// RESUME valid, to the fault queue's `s_res_valid`.
    pub fq_res_valid: Signal<Out, Bit>,
    /// The fault queue's `s_res_ready`: the RESUME is taken.
    pub fq_res_ready: Signal<In, Bit>,
    /// The token (`CMD_ARG0`): slot `[7:0]`, generation `[15:8]`, `[31:16]`
    /// zero, as the fault's event record gives it.
    pub fq_res_token: Signal<Out, Bits<32>>,
    /// `CMD_ARG1` bit 0: the driver could not map the page.
    pub fq_res_err: Signal<Out, Bit>,
    /// The fault queue's `res_done`: the RESUME it took named a pending
    /// fault, which it now resolves.
    pub fq_res_done: Signal<In, Bit>,
    /// The fault queue's `res_stale`: the RESUME it took named no pending
    /// fault and changed nothing.
    pub fq_res_stale: Signal<In, Bit>,

    /// QP command valid, to the responder's `s_qpcmd_valid`.
    pub qp_valid: Signal<Out, Bit>,
    /// The responder's `s_qpcmd_ready`: the QP command is taken.
    pub qp_ready: Signal<In, Bit>,
    /// Kind ([`crate::spec::qp_cmd`]): RESET, SET_TIMER or CLEAR_TIMER.
    pub qp_kind: Signal<Out, Bits<2>>,
    /// The QPN: `CMD_ARG0[23:0]`.
    pub qp_qpn: Signal<Out, Bits<24>>,
    /// SET_TIMER's code, `CMD_ARG1[4:0]`; 0 with the other kinds.
    pub qp_timer: Signal<Out, Bits<5>>,
    /// The responder's `qpcmd_refused`: the clock after it took a QP
    /// command, that command's QPN is beyond its table (nothing changed).
    pub qp_refused: Signal<In, Bit>,

    /// INVALIDATE / MR_SUSPEND valid, to the invalidation unit's
    /// `s_iv_valid`.
    pub iv_valid: Signal<Out, Bit>,
    /// The invalidation unit's `s_iv_ready`: taken.
    pub iv_ready: Signal<In, Bit>,
    /// The invalidation unit's `full`: the command is refused
    /// ([`RES_INV_BUSY`]).
    pub iv_full: Signal<In, Bit>,
    /// `crate::control::inval::IV_*`: 0 range, 1 whole MR, 2 all, 3 suspend.
    pub iv_kind: Signal<Out, Bits<2>>,
    /// MR index, `CMD_ARG0[7:0]`.
    pub iv_mr: Signal<Out, Bits<8>>,
    /// Range start: `CMD_ARG3:CMD_ARG2`.
    pub iv_va_lo: Signal<Out, Bits<64>>,
    /// Range end (exclusive): start + `CMD_ARG5:CMD_ARG4`, all ones when
    /// that is 2^64.
    pub iv_va_hi: Signal<Out, Bits<64>>,
    /// Range start in the MR's page-table offsets (`va - (base_va &
    /// !0xFFF)`, 0 below the base).
    pub iv_off_lo: Signal<Out, Bits<64>>,
    /// Range end in offsets (0 at or below the base).
    pub iv_off_hi: Signal<Out, Bits<64>>,
    /// MR_RESUME valid, to the MR waiters' `r_valid`.
    pub mw_valid: Signal<Out, Bit>,
    /// The MR waiters' `r_ready`.
    pub mw_ready: Signal<In, Bit>,
    /// With `mw_valid`: the MR index.
    pub mw_mr: Signal<Out, Bits<8>>,
    /// The MR waiters' `r_done`: the resume's wakes are all taken.
    pub mw_done: Signal<In, Bit>,
    /// PREFETCH valid, to the prefetch unit's `s_valid`; MR `CMD_ARG0[7:0]`
    /// on `iv_mr`, range on `iv_va_lo` / `iv_va_hi`, tag on `res_tag`.
    pub pf_valid: Signal<Out, Bit>,
    /// The prefetch unit's `s_ready`: taken.
    pub pf_ready: Signal<In, Bit>,
    /// The prefetch unit's `busy`: the command is refused
    /// ([`RES_PF_BUSY`]).
    pub pf_busy: Signal<In, Bit>,
    /// `CMD_ARG1` bit 0 and bit 1: WRITE and NO_FAULT.
    pub pf_write: Signal<Out, Bit>,
    pub pf_nofault: Signal<Out, Bit>,

    state: DFF<CmdState>,
    op: DFF<Bits<8>>,
    tag: DFF<Bits<8>>,
    arg0: DFF<Bits<32>>,
    arg1: DFF<Bits<32>>,
    arg2: DFF<Bits<32>>,
    base_va: DFF<Bits<64>>,
    length: DFF<Bits<64>>,
    root_pa: DFF<Bits<64>>,
    code: DFF<Bits<8>>,
    iv_kind_r: DFF<Bits<2>>,
    iv_lo: DFF<Bits<64>>,
    iv_hi: DFF<Bits<64>>,
    off_lo: DFF<Bits<64>>,
    off_hi: DFF<Bits<64>>,
    /// Each MR's base page (`base_va >> 12`), written by MR_WRITE: the
    /// offsets of an INVALIDATE range.
    base_mem: RAM<Bits<52>, MR_BITS>,
    inv_va: Signal<Local, Bits<64>>,
    inv_len: Signal<Local, Bits<64>>,
    inv_end: Signal<Local, Bits<65>>,
    base_page: Signal<Local, Bits<64>>,
    /// The base page of the held MR, registered in `Check` from the RAM
    /// (read at the doorbell's MR index while `Idle` copies the command):
    /// no block RAM output feeds the offsets' subtracts.
    base_r: DFF<Bits<64>>,
    d_lo: Signal<Local, Bits<65>>,
    d_hi: Signal<Local, Bits<65>>,
    /// Bits of `arg0` at and above `MR_BITS`: a set one is out of range.
    index_high_mask: Constant<Bits<32>>,
    /// The range checks, computed from the doorbell's words while `Idle`
    /// copies them and registered, so that `Check` decides from flags: an
    /// INVALIDATE / PREFETCH length of 0, its `va + length` beyond 2^64,
    /// MR_WRITE's `base_va + length` beyond 2^64.
    len0_r: DFF<Bit>,
    rwrap_r: DFF<Bit>,
    mwrap_r: DFF<Bit>,
    c_len: Signal<Local, Bits<64>>,
    c_end: Signal<Local, Bits<65>>,
    c_mend: Signal<Local, Bits<65>>,
}

impl<const MR_BITS: usize> CommandUnit<MR_BITS> {
    /// A command unit for 2^`MR_BITS` MRs; panics unless `2 <= MR_BITS <= 10`
    /// (the MR table's range).
    pub fn new() -> Self {
        assert!(
            (2..=10).contains(&MR_BITS),
            "CommandUnit: MR_BITS must be in 2..=10, got {MR_BITS}"
        );
        Self {
            clock: Default::default(),
            rst: Default::default(),
            ready: Default::default(),
            cmd_valid: Default::default(),
            cmd_ready: Default::default(),
            cmd_op: Default::default(),
            cmd_tag: Default::default(),
            cmd_arg0: Default::default(),
            cmd_arg1: Default::default(),
            cmd_arg2: Default::default(),
            cmd_arg3: Default::default(),
            cmd_arg4: Default::default(),
            cmd_arg5: Default::default(),
            cmd_arg6: Default::default(),
            cmd_arg7: Default::default(),
            cmd_arg8: Default::default(),
            mr_wr: Default::default(),
            mr_st: Default::default(),
            res_valid: Default::default(),
            res_op: Default::default(),
            res_tag: Default::default(),
            res_code: Default::default(),
            err_resume_stale: Default::default(),
            fq_res_valid: Default::default(),
            fq_res_ready: Default::default(),
            fq_res_token: Default::default(),
            fq_res_err: Default::default(),
            fq_res_done: Default::default(),
            fq_res_stale: Default::default(),
            qp_valid: Default::default(),
            qp_ready: Default::default(),
            qp_kind: Default::default(),
            qp_qpn: Default::default(),
            qp_timer: Default::default(),
            qp_refused: Default::default(),
            iv_valid: Default::default(),
            iv_ready: Default::default(),
            iv_full: Default::default(),
            iv_kind: Default::default(),
            iv_mr: Default::default(),
            iv_va_lo: Default::default(),
            iv_va_hi: Default::default(),
            iv_off_lo: Default::default(),
            iv_off_hi: Default::default(),
            mw_valid: Default::default(),
            mw_ready: Default::default(),
            mw_mr: Default::default(),
            mw_done: Default::default(),
            pf_valid: Default::default(),
            pf_ready: Default::default(),
            pf_busy: Default::default(),
            pf_write: Default::default(),
            pf_nofault: Default::default(),
            state: Default::default(),
            op: Default::default(),
            tag: Default::default(),
            arg0: Default::default(),
            arg1: Default::default(),
            arg2: Default::default(),
            base_va: Default::default(),
            length: Default::default(),
            root_pa: Default::default(),
            code: Default::default(),
            iv_kind_r: Default::default(),
            iv_lo: Default::default(),
            iv_hi: Default::default(),
            off_lo: Default::default(),
            off_hi: Default::default(),
            base_mem: Default::default(),
            inv_va: Default::default(),
            inv_len: Default::default(),
            inv_end: Default::default(),
            base_page: Default::default(),
            base_r: Default::default(),
            d_lo: Default::default(),
            d_hi: Default::default(),
            index_high_mask: Constant::new((u32::MAX as u64 & !((1u64 << MR_BITS) - 1)).into()),
            len0_r: Default::default(),
            rwrap_r: Default::default(),
            mwrap_r: Default::default(),
            c_len: Default::default(),
            c_end: Default::default(),
            c_mend: Default::default(),
        }
    }
}

impl<const MR_BITS: usize> Default for CommandUnit<MR_BITS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const MR_BITS: usize> Logic for CommandUnit<MR_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, op, tag, arg0, arg1, arg2, base_va, length, root_pa, code,
            iv_kind_r, iv_lo, iv_hi, off_lo, off_hi, base_r, len0_r, rwrap_r, mwrap_r
        );
        self.base_mem.read_clock.next = self.clock.val();
        self.base_mem.write_clock.next = self.clock.val();
        // The shadow base is read at the doorbell's MR index while Idle
        // copies the command, so it is on the RAM output in Check.
        self.base_mem.read_address.next = self.arg0.q.val().get_bits::<MR_BITS>(0);
        if self.state.q.val() == CmdState::Idle {
            self.base_mem.read_address.next = self.cmd_arg0.val().get_bits::<MR_BITS>(0);
        }

        // INVALIDATE's range: VA in ARG3:ARG2, length in ARG5:ARG4 (held
        // in the words MR_WRITE names base_va and length).
        self.inv_va.next = bit_cast::<64, 32>(self.arg2.q.val())
            | (bit_cast::<64, 32>(self.base_va.q.val().get_bits::<32>(0)) << 32);
        self.inv_len.next = bit_cast::<64, 32>(self.base_va.q.val().get_bits::<32>(32))
            | (bit_cast::<64, 32>(self.length.q.val().get_bits::<32>(0)) << 32);
        self.inv_end.next =
            bit_cast::<65, 64>(self.inv_va.val()) + bit_cast::<65, 64>(self.inv_len.val());
        self.base_page.next = bit_cast::<64, 52>(self.base_mem.read_data.val()) << 12;

        // The range checks on the doorbell's words (ARG2..5: INVALIDATE and
        // PREFETCH; ARG3..6: MR_WRITE), 65 bits: a range may end exactly at
        // 2^64 but not beyond.
        self.c_len.next = bit_cast::<64, 32>(self.cmd_arg4.val())
            | (bit_cast::<64, 32>(self.cmd_arg5.val()) << 32);
        self.c_end.next = (bit_cast::<65, 32>(self.cmd_arg2.val())
            | (bit_cast::<65, 32>(self.cmd_arg3.val()) << 32))
            + bit_cast::<65, 64>(self.c_len.val());
        self.c_mend.next = (bit_cast::<65, 32>(self.cmd_arg3.val())
            | (bit_cast::<65, 32>(self.cmd_arg4.val()) << 32))
            + (bit_cast::<65, 32>(self.cmd_arg5.val())
                | (bit_cast::<65, 32>(self.cmd_arg6.val()) << 32));

        // InvPrep's offsets: the held range less the held base page.
        self.d_lo.next =
            bit_cast::<65, 64>(self.iv_lo.q.val()) - bit_cast::<65, 64>(self.base_r.q.val());
        self.d_hi.next =
            bit_cast::<65, 64>(self.iv_hi.q.val()) - bit_cast::<65, 64>(self.base_r.q.val());

        self.cmd_ready.next = false;
        match self.state.q.val() {
            CmdState::Idle => {
                // Copy a command once the datapath is out of reset; the CSR
                // block holds it (valid, payload stable) until Issue takes it.
                if self.cmd_valid.val() & self.ready.val() {
                    self.op.d.next = self.cmd_op.val();
                    self.tag.d.next = self.cmd_tag.val();
                    self.arg0.d.next = self.cmd_arg0.val();
                    self.arg1.d.next = self.cmd_arg1.val();
                    self.arg2.d.next = self.cmd_arg2.val();
                    self.base_va.d.next = bit_cast::<64, 32>(self.cmd_arg3.val())
                        | (bit_cast::<64, 32>(self.cmd_arg4.val()) << 32);
                    self.length.d.next = bit_cast::<64, 32>(self.cmd_arg5.val())
                        | (bit_cast::<64, 32>(self.cmd_arg6.val()) << 32);
                    self.root_pa.d.next = bit_cast::<64, 32>(self.cmd_arg7.val())
                        | (bit_cast::<64, 32>(self.cmd_arg8.val()) << 32);
                    self.len0_r.d.next = !self.c_len.val().any();
                    self.rwrap_r.d.next =
                        self.c_end.val().get_bit(64) & self.c_end.val().get_bits::<64>(0).any();
                    self.mwrap_r.d.next =
                        self.c_mend.val().get_bit(64) & self.c_mend.val().get_bits::<64>(0).any();
                    self.state.d.next = CmdState::Check;
                }
            }
            CmdState::Check => {
                self.base_r.d.next = self.base_page.val();
                // The first failing check names the result.
                self.code.d.next = 0.into(); // = RES_OK
                                             // INVALIDATE's range, held for every op (the port shows it).
                self.iv_lo.d.next = self.inv_va.val();
                self.iv_hi.d.next = self.inv_end.val().get_bits::<64>(0);
                if self.inv_end.val().get_bit(64) {
                    self.iv_hi.d.next = 0xFFFF_FFFF_FFFF_FFFF_u64.into();
                }
                self.state.d.next = CmdState::Issue;
                if self.op.q.val() == 1 {
                    // = op::MR_WRITE
                    if (self.arg0.q.val() & self.index_high_mask.val()).any() {
                        self.code.d.next = 3.into(); // = RES_MR_RANGE
                    } else if self.arg1.q.val().get_bits::<2>(16) == 3 {
                        // = mr_state::RESERVED
                        self.code.d.next = 4.into(); // = RES_BAD_FIELD
                    } else if self.mwrap_r.q.val() {
                        self.code.d.next = 5.into(); // = RES_RANGE_WRAPS
                    } else if self.root_pa.q.val().get_bits::<12>(0).any() {
                        self.code.d.next = 6.into(); // = RES_ROOT_UNALIGNED
                    }
                } else if self.op.q.val() == 2 {
                    // = op::MR_SET_STATE
                    if (self.arg0.q.val() & self.index_high_mask.val()).any() {
                        self.code.d.next = 3.into(); // = RES_MR_RANGE
                    } else if self.arg1.q.val().get_bits::<2>(0) == 3 {
                        // = mr_state::RESERVED
                        self.code.d.next = 4.into(); // = RES_BAD_FIELD
                    }
                } else if self.op.q.val() == 7 {
                    // = op::RESUME_FAULT
                    // The token is the fault queue's to check: only the
                    // flags word is ours. A refused one never reaches it.
                    if self.arg1.q.val().get_bits::<31>(1).any() {
                        self.code.d.next = 4.into(); // = RES_BAD_FIELD
                    } else {
                        self.state.d.next = CmdState::Resume;
                    }
                } else if (self.op.q.val() == 8) | (self.op.q.val() == 9) {
                    // = op::QP_RESET, op::QP_RNR_TIMER
                    // The QPN's range is the responder's to check (it knows
                    // its table); bits 31:24 are no QPN at all. ARG1 bits
                    // other than the code and enable are ignored.
                    if self.arg0.q.val().get_bits::<8>(24).any() {
                        self.code.d.next = 4.into(); // = RES_BAD_FIELD
                    } else {
                        self.state.d.next = CmdState::Qp;
                    }
                } else if self.op.q.val() == 5 {
                    // = op::INVALIDATE
                    self.iv_kind_r.d.next = 0.into(); // = IV_RANGE
                    if self.arg1.q.val().get_bit(1) {
                        self.iv_kind_r.d.next = 1.into(); // = IV_MR
                    }
                    if self.arg1.q.val().get_bit(0) {
                        self.iv_kind_r.d.next = 2.into(); // = IV_ALL
                    }
                    if (!self.arg1.q.val().get_bit(0))
                        & (self.arg0.q.val() & self.index_high_mask.val()).any()
                    {
                        self.code.d.next = 3.into(); // = RES_MR_RANGE
                    } else if self.arg1.q.val().get_bits::<30>(2).any() {
                        self.code.d.next = 4.into(); // = RES_BAD_FIELD
                    } else if (!self.arg1.q.val().get_bits::<2>(0).any()) & self.len0_r.q.val() {
                        self.code.d.next = 9.into(); // = RES_EMPTY_RANGE
                    } else if (!self.arg1.q.val().get_bits::<2>(0).any()) & self.rwrap_r.q.val() {
                        self.code.d.next = 5.into(); // = RES_RANGE_WRAPS
                    } else if self.iv_full.val() {
                        self.code.d.next = 10.into(); // = RES_INV_BUSY
                    } else {
                        self.state.d.next = CmdState::InvPrep;
                    }
                } else if self.op.q.val() == 3 {
                    // = op::MR_SUSPEND
                    self.iv_kind_r.d.next = 3.into(); // = IV_SUSPEND
                    if (self.arg0.q.val() & self.index_high_mask.val()).any() {
                        self.code.d.next = 3.into(); // = RES_MR_RANGE
                    } else if self.iv_full.val() {
                        self.code.d.next = 10.into(); // = RES_INV_BUSY
                    } else {
                        self.state.d.next = CmdState::InvPrep;
                    }
                } else if self.op.q.val() == 4 {
                    // = op::MR_RESUME
                    if (self.arg0.q.val() & self.index_high_mask.val()).any() {
                        self.code.d.next = 3.into(); // = RES_MR_RANGE
                    } else {
                        self.state.d.next = CmdState::MrRes;
                    }
                } else if self.op.q.val() == 6 {
                    // = op::PREFETCH
                    // The range as INVALIDATE's; one PREFETCH at a time.
                    if (self.arg0.q.val() & self.index_high_mask.val()).any() {
                        self.code.d.next = 3.into(); // = RES_MR_RANGE
                    } else if self.arg1.q.val().get_bits::<30>(2).any() {
                        self.code.d.next = 4.into(); // = RES_BAD_FIELD
                    } else if self.len0_r.q.val() {
                        self.code.d.next = 9.into(); // = RES_EMPTY_RANGE
                    } else if self.rwrap_r.q.val() {
                        self.code.d.next = 5.into(); // = RES_RANGE_WRAPS
                    } else if self.pf_busy.val() {
                        self.code.d.next = 11.into(); // = RES_PF_BUSY
                    } else {
                        self.state.d.next = CmdState::Pf;
                    }
                } else {
                    self.code.d.next = 1.into(); // = RES_UNKNOWN_OP
                }
            }
            CmdState::Resume => {
                // `fq_res_valid` (below) is this state: up without waiting
                // for `fq_res_ready`, token and flag from the held words.
                if self.fq_res_ready.val() {
                    self.state.d.next = CmdState::ResumeWait;
                }
            }
            CmdState::ResumeWait => {
                // Exactly one answer comes per RESUME taken; `code` still
                // holds RES_OK from the check.
                if self.fq_res_stale.val() {
                    self.code.d.next = 7.into(); // = RES_STALE_TOKEN
                    self.state.d.next = CmdState::Issue;
                } else if self.fq_res_done.val() {
                    self.state.d.next = CmdState::Issue;
                }
            }
            CmdState::MrRes => {
                // `mw_valid` (below) is this state, like `fq_res_valid`.
                if self.mw_ready.val() {
                    self.state.d.next = CmdState::MrResWait;
                }
            }
            CmdState::MrResWait => {
                if self.mw_done.val() {
                    self.state.d.next = CmdState::Issue;
                }
            }
            CmdState::Qp => {
                // `qp_valid` (below) is this state, like `fq_res_valid`.
                if self.qp_ready.val() {
                    self.state.d.next = CmdState::QpWait;
                }
            }
            CmdState::QpWait => {
                // The responder refuses in the clock after the handshake or
                // not at all; `code` still holds RES_OK from the check.
                if self.qp_refused.val() {
                    self.code.d.next = 8.into(); // = RES_QP_RANGE
                }
                self.state.d.next = CmdState::Issue;
            }
            CmdState::InvPrep => {
                // The range in MR offsets from registers, 0-clamped below
                // the base: one 65-bit subtract each, whose borrow is the
                // clamp (at the base itself the offset is 0 either way).
                self.off_lo.d.next = self.d_lo.val().get_bits::<64>(0);
                if self.d_lo.val().get_bit(64) {
                    self.off_lo.d.next = 0.into();
                }
                self.off_hi.d.next = self.d_hi.val().get_bits::<64>(0);
                if self.d_hi.val().get_bit(64) {
                    self.off_hi.d.next = 0.into();
                }
                self.state.d.next = CmdState::Inv;
            }
            CmdState::Inv => {
                // `iv_valid` (below) is this state, like `qp_valid`.
                if self.iv_ready.val() {
                    self.state.d.next = CmdState::Issue;
                }
            }
            CmdState::Pf => {
                // `pf_valid` (below) is this state, like `iv_valid`.
                if self.pf_ready.val() {
                    self.state.d.next = CmdState::Issue;
                }
            }
            CmdState::Issue => {
                // Take the command: the handshake and the result come
                // together, so a command the CSR block no longer holds has
                // its result posted.
                self.cmd_ready.next = true;
                self.state.d.next = CmdState::Idle;
            }
            _ => {
                self.state.d.next = CmdState::Idle;
            }
        }
        if self.rst.val() {
            self.state.d.next = CmdState::Idle;
        }

        // The MR table ports, from the held words.
        self.mr_wr.valid.next = (self.state.q.val() == CmdState::Issue)
            & (self.code.q.val() == 0) // = RES_OK
            & (self.op.q.val() == 1); // = op::MR_WRITE
        self.mr_wr.index.next = self.arg0.q.val().get_bits::<MR_BITS>(0);
        self.mr_wr.tag.next = self.arg1.q.val().get_bits::<8>(0);
        self.mr_wr.access.next = self.arg1.q.val().get_bits::<3>(8);
        self.mr_wr.levels_m1.next = self.arg1.q.val().get_bits::<2>(12);
        self.mr_wr.state.next = self.arg1.q.val().get_bits::<2>(16);
        self.mr_wr.pd.next = self.arg2.q.val().get_bits::<16>(0);
        self.mr_wr.base_va.next = self.base_va.q.val();
        self.mr_wr.length.next = self.length.q.val();
        self.mr_wr.root.next = self.root_pa.q.val().get_bits::<52>(12);
        self.mr_st.valid.next = (self.state.q.val() == CmdState::Issue)
            & (self.code.q.val() == 0) // = RES_OK
            & (self.op.q.val() == 2); // = op::MR_SET_STATE
        self.mr_st.index.next = self.arg0.q.val().get_bits::<MR_BITS>(0);
        self.mr_st.state.next = self.arg1.q.val().get_bits::<2>(0);
        // MR_SUSPEND sets the state in the clock the invalidation unit
        // takes it: its epoch changes at the next edge.
        if (self.state.q.val() == CmdState::Inv) & (self.op.q.val() == 3) {
            // = op::MR_SUSPEND
            self.mr_st.valid.next = self.iv_ready.val() & (!self.rst.val());
            self.mr_st.state.next = 2.into(); // = mr_state::SUSPENDED
        }
        // MR_RESUME makes the MR valid in the clock the MR waiters take it:
        // their settle time counts from there.
        if self.state.q.val() == CmdState::MrRes {
            self.mr_st.valid.next = self.mw_ready.val() & (!self.rst.val());
            self.mr_st.state.next = 1.into(); // = mr_state::VALID
        }
        // The shadow of every MR's base page, for INVALIDATE's offsets.
        self.base_mem.write_enable.next = self.mr_wr.valid.val();
        self.base_mem.write_address.next = self.arg0.q.val().get_bits::<MR_BITS>(0);
        self.base_mem.write_data.next = self.base_va.q.val().get_bits::<52>(12);

        // The invalidation unit's port.
        self.iv_valid.next = (self.state.q.val() == CmdState::Inv) & !self.rst.val();
        self.iv_kind.next = self.iv_kind_r.q.val();
        self.iv_mr.next = self.arg0.q.val().get_bits::<8>(0);
        self.iv_va_lo.next = self.iv_lo.q.val();
        self.iv_va_hi.next = self.iv_hi.q.val();
        self.iv_off_lo.next = self.off_lo.q.val();
        self.iv_off_hi.next = self.off_hi.q.val();
        // The prefetch unit's port: MR and range on the iv_* words.
        self.pf_valid.next = (self.state.q.val() == CmdState::Pf) & !self.rst.val();
        self.pf_write.next = self.arg1.q.val().get_bit(0);
        self.pf_nofault.next = self.arg1.q.val().get_bit(1);

        self.res_valid.next = (self.state.q.val() == CmdState::Issue) & !self.rst.val();
        self.res_op.next = self.op.q.val();
        self.res_tag.next = self.tag.q.val();
        self.res_code.next = self.code.q.val();
        // Only a RESUME_FAULT answered stale holds this code.
        self.err_resume_stale.next = (self.code.q.val() == 7) // = RES_STALE_TOKEN
            & (self.state.q.val() == CmdState::Issue)
            & !self.rst.val();

        // The MR waiters' port.
        self.mw_valid.next = (self.state.q.val() == CmdState::MrRes) & !self.rst.val();
        self.mw_mr.next = self.arg0.q.val().get_bits::<8>(0);

        // The RESUME port: with `rst` low, so that a RESUME dropped by
        // `rst` is never half handed over.
        self.fq_res_valid.next = (self.state.q.val() == CmdState::Resume) & !self.rst.val();
        self.fq_res_token.next = self.arg0.q.val();
        self.fq_res_err.next = self.arg1.q.val().get_bit(0);

        // The QP port, alike; only QP_RESET and QP_RNR_TIMER reach `Qp`.
        self.qp_valid.next = (self.state.q.val() == CmdState::Qp) & !self.rst.val();
        self.qp_qpn.next = self.arg0.q.val().get_bits::<24>(0);
        self.qp_timer.next = 0.into();
        if self.op.q.val() == 8 {
            // = op::QP_RESET
            self.qp_kind.next = 0.into(); // = qp_cmd::RESET
        } else if self.arg1.q.val().get_bit(8) {
            self.qp_kind.next = 2.into(); // = qp_cmd::SET_TIMER
            self.qp_timer.next = self.arg1.q.val().get_bits::<5>(0);
        } else {
            self.qp_kind.next = 3.into(); // = qp_cmd::CLEAR_TIMER
        }
    }
}
