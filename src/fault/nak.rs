//! RNR NAK generator: the RC responder discipline per QP on the
//! translator's response stream, and the RC Acknowledge (BTH + AETH) headers
//! of the NAKs it sends.
#![doc = include_str!("../../docs/nak.md")]

use crate::common::interfaces::NakOut;
use crate::common::reg_fifo::RegFifo;
use crate::spec::aeth;
use rust_hdl::prelude::*;

/// Smallest legal `QP_BITS`.
pub const MIN_QP_BITS: usize = 2;
/// Largest legal `QP_BITS` (4096 QPs, 8 DP16KD).
pub const MAX_QP_BITS: usize = 12;
/// Entries of each output FIFO.
pub const OUT_FIFO_DEPTH: usize = 8;
/// Clocks from the edge a response beat is taken to the first clock its
/// answer (and its NAK) can be valid on `m_rsp` / `m_nak`.
pub const LATENCY_CLOCKS: u64 = 4;

/// The generator for the default 1024 QPs (SPEC section 6).
pub type DefaultNakGen = NakGen<10>;

/// Bits of a packed `m_rsp` FIFO word.
const RSP_BITS: usize = 123;
/// Bits of a packed `m_nak` FIFO word.
const NAK_BITS: usize = 120;

/// RNR NAK generator for 2^`QP_BITS` QPs. See the module page (`docs/nak.md`)
/// for the rules, the timing and the order of a response and its NAK.
///
/// # Parameters
///
/// `QP_BITS`: log2 of the number of QPs with state, `2..=12` (checked at
/// construction); the default core has 10 (1024 QPs).
///
/// # Per-QP state (block RAM, 32 bits)
///
/// `[23:0]` expected PSN, `[24]` waiting, `[25]` error, `[26]` timer
/// override valid, `[31:27]` timer override code.
#[derive(LogicBlock)]
pub struct NakGen<const QP_BITS: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous active-high reset: drops everything in flight, empties
    /// both output FIFOs and starts the sweep that clears every QP's state.
    pub rst: Signal<In, Bit>,
    /// High once the sweep after reset or power-up is done (2^`QP_BITS`
    /// clocks); nothing is taken before.
    pub ready: Signal<Out, Bit>,
    /// P_Key of every NAK (CSR register), sampled with the response.
    pub pkey: Signal<In, Bits<16>>,
    /// Global RNR timer code (CSR register), sampled with the response.
    pub rnr_timer: Signal<In, Bits<5>>,

    /// Response beat valid.
    pub s_rsp_valid: Signal<In, Bit>,
    /// Response beat taken (from registers and `rst`).
    pub s_rsp_ready: Signal<Out, Bit>,
    /// Request tag.
    pub s_rsp_tag: Signal<In, Bits<8>>,
    /// Status ([`crate::spec::status`]).
    pub s_rsp_status: Signal<In, Bits<3>>,
    /// Physical address of the beat.
    pub s_rsp_pa: Signal<In, Bits<64>>,
    /// Bytes of the beat.
    pub s_rsp_seg_len: Signal<In, Bits<13>>,
    /// Last beat of the response.
    pub s_rsp_last: Signal<In, Bit>,
    /// Invalidation epoch of the response.
    pub s_rsp_epoch: Signal<In, Bits<8>>,
    /// Op of the request ([`crate::spec::op`]).
    pub s_rsp_op: Signal<In, Bits<2>>,
    /// Local QP number of the request (24 bits; see "Out-of-range QPNs").
    pub s_rsp_qpn: Signal<In, Bits<24>>,
    /// Remote QP number: DestQP of a NAK.
    pub s_rsp_rqpn: Signal<In, Bits<24>>,
    /// PSN of the request.
    pub s_rsp_psn: Signal<In, Bits<24>>,
    /// MSN of the request: MSN of a NAK.
    pub s_rsp_msn: Signal<In, Bits<24>>,

    /// Answer beat valid.
    pub m_rsp_valid: Signal<Out, Bit>,
    /// Answer beat taken.
    pub m_rsp_ready: Signal<In, Bit>,
    /// Request tag.
    pub m_rsp_tag: Signal<Out, Bits<8>>,
    /// Status, possibly changed to DROP or FATAL.
    pub m_rsp_status: Signal<Out, Bits<3>>,
    /// Physical address (0 on a beat changed to DROP or FATAL).
    pub m_rsp_pa: Signal<Out, Bits<64>>,
    /// Bytes (0 on a beat changed to DROP or FATAL).
    pub m_rsp_seg_len: Signal<Out, Bits<13>>,
    /// Last beat of the answer.
    pub m_rsp_last: Signal<Out, Bit>,
    /// Invalidation epoch.
    pub m_rsp_epoch: Signal<Out, Bits<8>>,
    /// Op of the request.
    pub m_rsp_op: Signal<Out, Bits<2>>,
    /// Local QP number.
    pub m_rsp_qpn: Signal<Out, Bits<24>>,

    /// NAKs (`m_nak_*`): the local QP and the BTH + AETH header.
    pub m_nak: NakOut,

    /// QP command valid.
    pub s_qpcmd_valid: Signal<In, Bit>,
    /// QP command taken (from registers and `rst`).
    pub s_qpcmd_ready: Signal<Out, Bit>,
    /// Kind ([`crate::spec::qp_cmd`]).
    pub s_qpcmd_kind: Signal<In, Bits<2>>,
    /// QP number (24 bits); one at or beyond 2^`QP_BITS` is refused.
    pub s_qpcmd_qpn: Signal<In, Bits<24>>,
    /// Timer code of SET_TIMER.
    pub s_qpcmd_timer: Signal<In, Bits<5>>,
    /// One clock, the clock after a command was taken: it named a QP beyond
    /// the table and changed nothing.
    pub qpcmd_refused: Signal<Out, Bit>,

    /// One clock per RNR NAK queued.
    pub nak_rnr: Signal<Out, Bit>,
    /// One clock per error NAK (0x62 or 0x63) queued.
    pub nak_err: Signal<Out, Bit>,
    /// One clock per response changed to DROP.
    pub drop: Signal<Out, Bit>,

    // --- storage and reset sweep ---
    qp_state: RAM<Bits<32>, QP_BITS>,
    ready_r: DFF<Bit>,
    sweep: DFF<Bits<QP_BITS>>,
    // --- command holding register ---
    cmd_held: DFF<Bit>,
    cmd_kind: DFF<Bits<2>>,
    cmd_qpn: DFF<Bits<24>>,
    cmd_timer: DFF<Bits<5>>,
    cmd_refused: DFF<Bit>,
    // --- constants ---
    qpn_hi_mask: Constant<Bits<24>>,
    bth_opcode: Constant<Bits<128>>,
    synd_rnr: Constant<Bits<8>>,
    synd_access: Constant<Bits<8>>,
    synd_operr: Constant<Bits<8>>,
    // --- stage 0: the slot of this clock (a beat taken, or the held command) ---
    take_rsp: Signal<Local, Bit>,
    take_cmd: Signal<Local, Bit>,
    slot_qpn: Signal<Local, Bits<24>>,
    rd_idx: Signal<Local, Bits<QP_BITS>>,
    // --- stage 1: the state word is being read ---
    v_s1: DFF<Bit>,
    cmd_s1: DFF<Bit>,
    inr_s1: DFF<Bit>,
    idx_s1: DFF<Bits<QP_BITS>>,
    kind_s1: DFF<Bits<2>>,
    ctimer_s1: DFF<Bits<5>>,
    tag_s1: DFF<Bits<8>>,
    status_s1: DFF<Bits<3>>,
    pa_s1: DFF<Bits<64>>,
    seg_s1: DFF<Bits<13>>,
    last_s1: DFF<Bit>,
    epoch_s1: DFF<Bits<8>>,
    op_s1: DFF<Bits<2>>,
    qpn_s1: DFF<Bits<24>>,
    rqpn_s1: DFF<Bits<24>>,
    psn_s1: DFF<Bits<24>>,
    msn_s1: DFF<Bits<24>>,
    pkey_s1: DFF<Bits<16>>,
    rtimer_s1: DFF<Bits<5>>,
    // --- stage 2: decide, write the state back ---
    v_s2: DFF<Bit>,
    cmd_s2: DFF<Bit>,
    inr_s2: DFF<Bit>,
    idx_s2: DFF<Bits<QP_BITS>>,
    kind_s2: DFF<Bits<2>>,
    ctimer_s2: DFF<Bits<5>>,
    tag_s2: DFF<Bits<8>>,
    status_s2: DFF<Bits<3>>,
    pa_s2: DFF<Bits<64>>,
    seg_s2: DFF<Bits<13>>,
    last_s2: DFF<Bit>,
    epoch_s2: DFF<Bits<8>>,
    op_s2: DFF<Bits<2>>,
    qpn_s2: DFF<Bits<24>>,
    rqpn_s2: DFF<Bits<24>>,
    psn_s2: DFF<Bits<24>>,
    msn_s2: DFF<Bits<24>>,
    pkey_s2: DFF<Bits<16>>,
    rtimer_s2: DFF<Bits<5>>,
    ram_s2: DFF<Bits<32>>,
    fwd1_s2: DFF<Bit>,
    fwd2_s2: DFF<Bit>,
    // --- the last two state writes, for forwarding ---
    l1_v: DFF<Bit>,
    l1_idx: DFF<Bits<QP_BITS>>,
    l1_st: DFF<Bits<32>>,
    l2_st: DFF<Bits<32>>,
    // --- beat framing ---
    mid: DFF<Bit>,
    swallow: DFF<Bit>,
    // --- stage 2 decision ---
    st: Signal<Local, Bits<32>>,
    psn_eq: Signal<Local, Bit>,
    s_wait: Signal<Local, Bit>,
    s_err: Signal<Local, Bit>,
    code: Signal<Local, Bits<5>>,
    n_psn: Signal<Local, Bits<24>>,
    n_wait: Signal<Local, Bits<1>>,
    n_err: Signal<Local, Bits<1>>,
    n_tv: Signal<Local, Bits<1>>,
    n_tc: Signal<Local, Bits<5>>,
    new_st: Signal<Local, Bits<32>>,
    emit: Signal<Local, Bit>,
    conv: Signal<Local, Bit>,
    o_status: Signal<Local, Bits<3>>,
    o_pa: Signal<Local, Bits<64>>,
    o_seg: Signal<Local, Bits<13>>,
    o_last: Signal<Local, Bits<1>>,
    nak: Signal<Local, Bit>,
    synd: Signal<Local, Bits<8>>,
    c_rnr: Signal<Local, Bit>,
    c_err: Signal<Local, Bit>,
    c_drop: Signal<Local, Bit>,
    w_en: Signal<Local, Bit>,
    // --- stage 3: into the output FIFOs ---
    rv_s3: DFF<Bit>,
    rsp_s3: DFF<Bits<RSP_BITS>>,
    nv_s3: DFF<Bit>,
    nak_s3: DFF<Bits<NAK_BITS>>,
    rnr_s3: DFF<Bit>,
    err_s3: DFF<Bit>,
    drop_s3: DFF<Bit>,
    rsp_fifo: RegFifo<Bits<RSP_BITS>, 8, 3, 4>,
    nak_fifo: RegFifo<Bits<NAK_BITS>, 8, 3, 4>,
    nak_word: Signal<Local, Bits<NAK_BITS>>,
}

impl<const QP_BITS: usize> NakGen<QP_BITS> {
    /// Number of QPs with state, 2^`QP_BITS`.
    pub const QPS: usize = 1 << QP_BITS;

    /// A generator whose every QP is clear once its power-up sweep is done.
    /// Panics unless `2 <= QP_BITS <= 12`.
    pub fn new() -> Self {
        assert!(
            (MIN_QP_BITS..=MAX_QP_BITS).contains(&QP_BITS),
            "NakGen: QP_BITS must be in {MIN_QP_BITS}..={MAX_QP_BITS}, got {QP_BITS}"
        );
        let hi = 0xff_ffff & !((1u64 << QP_BITS) - 1);
        Self {
            clock: Default::default(),
            rst: Default::default(),
            ready: Default::default(),
            pkey: Default::default(),
            rnr_timer: Default::default(),
            s_rsp_valid: Default::default(),
            s_rsp_ready: Default::default(),
            s_rsp_tag: Default::default(),
            s_rsp_status: Default::default(),
            s_rsp_pa: Default::default(),
            s_rsp_seg_len: Default::default(),
            s_rsp_last: Default::default(),
            s_rsp_epoch: Default::default(),
            s_rsp_op: Default::default(),
            s_rsp_qpn: Default::default(),
            s_rsp_rqpn: Default::default(),
            s_rsp_psn: Default::default(),
            s_rsp_msn: Default::default(),
            m_rsp_valid: Default::default(),
            m_rsp_ready: Default::default(),
            m_rsp_tag: Default::default(),
            m_rsp_status: Default::default(),
            m_rsp_pa: Default::default(),
            m_rsp_seg_len: Default::default(),
            m_rsp_last: Default::default(),
            m_rsp_epoch: Default::default(),
            m_rsp_op: Default::default(),
            m_rsp_qpn: Default::default(),
            m_nak: Default::default(),
            s_qpcmd_valid: Default::default(),
            s_qpcmd_ready: Default::default(),
            s_qpcmd_kind: Default::default(),
            s_qpcmd_qpn: Default::default(),
            s_qpcmd_timer: Default::default(),
            qpcmd_refused: Default::default(),
            nak_rnr: Default::default(),
            nak_err: Default::default(),
            drop: Default::default(),
            qp_state: Default::default(),
            ready_r: Default::default(),
            sweep: Default::default(),
            cmd_held: Default::default(),
            cmd_kind: Default::default(),
            cmd_qpn: Default::default(),
            cmd_timer: Default::default(),
            cmd_refused: Default::default(),
            qpn_hi_mask: Constant::new(hi.into()),
            bth_opcode: Constant::new((0..8).fold(Bits::<128>::default(), |w, k| {
                w.replace_bit(120 + k, (aeth::BTH_OPCODE_RC_ACK >> k) & 1 == 1)
            })),
            synd_rnr: Constant::new(aeth::RNR_NAK.into()),
            synd_access: Constant::new(aeth::REMOTE_ACCESS_ERR.into()),
            synd_operr: Constant::new(aeth::REMOTE_OP_ERR.into()),
            take_rsp: Default::default(),
            take_cmd: Default::default(),
            slot_qpn: Default::default(),
            rd_idx: Default::default(),
            v_s1: Default::default(),
            cmd_s1: Default::default(),
            inr_s1: Default::default(),
            idx_s1: Default::default(),
            kind_s1: Default::default(),
            ctimer_s1: Default::default(),
            tag_s1: Default::default(),
            status_s1: Default::default(),
            pa_s1: Default::default(),
            seg_s1: Default::default(),
            last_s1: Default::default(),
            epoch_s1: Default::default(),
            op_s1: Default::default(),
            qpn_s1: Default::default(),
            rqpn_s1: Default::default(),
            psn_s1: Default::default(),
            msn_s1: Default::default(),
            pkey_s1: Default::default(),
            rtimer_s1: Default::default(),
            v_s2: Default::default(),
            cmd_s2: Default::default(),
            inr_s2: Default::default(),
            idx_s2: Default::default(),
            kind_s2: Default::default(),
            ctimer_s2: Default::default(),
            tag_s2: Default::default(),
            status_s2: Default::default(),
            pa_s2: Default::default(),
            seg_s2: Default::default(),
            last_s2: Default::default(),
            epoch_s2: Default::default(),
            op_s2: Default::default(),
            qpn_s2: Default::default(),
            rqpn_s2: Default::default(),
            psn_s2: Default::default(),
            msn_s2: Default::default(),
            pkey_s2: Default::default(),
            rtimer_s2: Default::default(),
            ram_s2: Default::default(),
            fwd1_s2: Default::default(),
            fwd2_s2: Default::default(),
            l1_v: Default::default(),
            l1_idx: Default::default(),
            l1_st: Default::default(),
            l2_st: Default::default(),
            mid: Default::default(),
            swallow: Default::default(),
            st: Default::default(),
            psn_eq: Default::default(),
            s_wait: Default::default(),
            s_err: Default::default(),
            code: Default::default(),
            n_psn: Default::default(),
            n_wait: Default::default(),
            n_err: Default::default(),
            n_tv: Default::default(),
            n_tc: Default::default(),
            new_st: Default::default(),
            emit: Default::default(),
            conv: Default::default(),
            o_status: Default::default(),
            o_pa: Default::default(),
            o_seg: Default::default(),
            o_last: Default::default(),
            nak: Default::default(),
            synd: Default::default(),
            c_rnr: Default::default(),
            c_err: Default::default(),
            c_drop: Default::default(),
            w_en: Default::default(),
            rv_s3: Default::default(),
            rsp_s3: Default::default(),
            nv_s3: Default::default(),
            nak_s3: Default::default(),
            rnr_s3: Default::default(),
            err_s3: Default::default(),
            drop_s3: Default::default(),
            rsp_fifo: Default::default(),
            nak_fifo: Default::default(),
            nak_word: Default::default(),
        }
    }
}

impl<const QP_BITS: usize> Default for NakGen<QP_BITS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const QP_BITS: usize> Logic for NakGen<QP_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            ready_r,
            sweep,
            cmd_held,
            cmd_kind,
            cmd_qpn,
            cmd_timer,
            cmd_refused,
            v_s1,
            cmd_s1,
            inr_s1,
            idx_s1,
            kind_s1,
            ctimer_s1,
            tag_s1,
            status_s1,
            pa_s1,
            seg_s1,
            last_s1,
            epoch_s1,
            op_s1,
            qpn_s1,
            rqpn_s1,
            psn_s1,
            msn_s1,
            pkey_s1,
            rtimer_s1,
            v_s2,
            cmd_s2,
            inr_s2,
            idx_s2,
            kind_s2,
            ctimer_s2,
            tag_s2,
            status_s2,
            pa_s2,
            seg_s2,
            last_s2,
            epoch_s2,
            op_s2,
            qpn_s2,
            rqpn_s2,
            psn_s2,
            msn_s2,
            pkey_s2,
            rtimer_s2,
            ram_s2,
            fwd1_s2,
            fwd2_s2,
            l1_v,
            l1_idx,
            l1_st,
            l2_st,
            mid,
            swallow,
            rv_s3,
            rsp_s3,
            nv_s3,
            nak_s3,
            rnr_s3,
            err_s3,
            drop_s3
        );
        self.qp_state.read_clock.next = self.clock.val();
        self.qp_state.write_clock.next = self.clock.val();
        self.rsp_fifo.clock.next = self.clock.val();
        self.nak_fifo.clock.next = self.clock.val();
        self.rsp_fifo.rst.next = self.rst.val();
        self.nak_fifo.rst.next = self.rst.val();

        // ---- Reset sweep: after rst (or power-up) clear one QP per clock,
        // then raise ready. The sweep owns the RAM's write port.
        if !self.ready_r.q.val() {
            self.sweep.d.next = self.sweep.q.val() + 1;
            if self.sweep.q.val().all() {
                self.ready_r.d.next = true;
            }
        }
        if self.rst.val() {
            self.ready_r.d.next = false;
            self.sweep.d.next = 0.into();
        }
        self.ready.next = self.ready_r.q.val();

        // ---- Stage 0: one slot per clock, a response beat or the held
        // command. Both readies come from registers (and rst): a beat is
        // taken only when both output FIFOs have room for it and for every
        // beat ahead of it in stages 1 to 3 (count <= DEPTH - 4), so nothing
        // inside the pipeline ever waits.
        self.s_rsp_ready.next = self.ready_r.q.val()
            & (!self.cmd_held.q.val())
            & (!self.rst.val())
            & (self.rsp_fifo.count.val() <= 4)
            & (self.nak_fifo.count.val() <= 4);
        self.s_qpcmd_ready.next =
            self.ready_r.q.val() & (!self.cmd_held.q.val()) & (!self.rst.val());
        self.take_rsp.next = self.s_rsp_valid.val() & self.s_rsp_ready.val();
        self.take_cmd.next = self.s_qpcmd_valid.val() & self.s_qpcmd_ready.val();
        // A command is held for one clock and then takes the slot of the
        // next clock, in which no beat is taken.
        if self.take_cmd.val() {
            self.cmd_held.d.next = true;
            self.cmd_kind.d.next = self.s_qpcmd_kind.val();
            self.cmd_qpn.d.next = self.s_qpcmd_qpn.val();
            self.cmd_timer.d.next = self.s_qpcmd_timer.val();
        }
        if self.cmd_held.q.val() {
            self.cmd_held.d.next = false;
        }
        self.cmd_refused.d.next =
            self.take_cmd.val() & ((self.s_qpcmd_qpn.val() & self.qpn_hi_mask.val()) != 0);
        if self.rst.val() {
            self.cmd_held.d.next = false;
        }
        self.qpcmd_refused.next = self.cmd_refused.q.val();

        self.slot_qpn.next = self.s_rsp_qpn.val();
        if self.cmd_held.q.val() {
            self.slot_qpn.next = self.cmd_qpn.q.val();
        }
        self.rd_idx.next = self.slot_qpn.val().get_bits::<QP_BITS>(0);
        self.qp_state.read_address.next = self.rd_idx.val();

        self.v_s1.d.next = (self.take_rsp.val() | self.cmd_held.q.val()) & (!self.rst.val());
        self.cmd_s1.d.next = self.cmd_held.q.val();
        self.inr_s1.d.next = (self.slot_qpn.val() & self.qpn_hi_mask.val()) == 0;
        self.idx_s1.d.next = self.rd_idx.val();
        self.kind_s1.d.next = self.cmd_kind.q.val();
        self.ctimer_s1.d.next = self.cmd_timer.q.val();
        self.tag_s1.d.next = self.s_rsp_tag.val();
        self.status_s1.d.next = self.s_rsp_status.val();
        self.pa_s1.d.next = self.s_rsp_pa.val();
        self.seg_s1.d.next = self.s_rsp_seg_len.val();
        self.last_s1.d.next = self.s_rsp_last.val();
        self.epoch_s1.d.next = self.s_rsp_epoch.val();
        self.op_s1.d.next = self.s_rsp_op.val();
        self.qpn_s1.d.next = self.s_rsp_qpn.val();
        self.rqpn_s1.d.next = self.s_rsp_rqpn.val();
        self.psn_s1.d.next = self.s_rsp_psn.val();
        self.msn_s1.d.next = self.s_rsp_msn.val();
        self.pkey_s1.d.next = self.pkey.val();
        self.rtimer_s1.d.next = self.rnr_timer.val();

        // ---- Stage 1: the RAM reads the slot's state word. A word written
        // by the slot now in stage 2 (written at this clock's edge) or by the
        // one just before it (written at the edge this read happened) is not
        // in what the RAM returns: note which of them to forward instead.
        self.v_s2.d.next = self.v_s1.q.val() & (!self.rst.val());
        self.cmd_s2.d.next = self.cmd_s1.q.val();
        self.inr_s2.d.next = self.inr_s1.q.val();
        self.idx_s2.d.next = self.idx_s1.q.val();
        self.kind_s2.d.next = self.kind_s1.q.val();
        self.ctimer_s2.d.next = self.ctimer_s1.q.val();
        self.tag_s2.d.next = self.tag_s1.q.val();
        self.status_s2.d.next = self.status_s1.q.val();
        self.pa_s2.d.next = self.pa_s1.q.val();
        self.seg_s2.d.next = self.seg_s1.q.val();
        self.last_s2.d.next = self.last_s1.q.val();
        self.epoch_s2.d.next = self.epoch_s1.q.val();
        self.op_s2.d.next = self.op_s1.q.val();
        self.qpn_s2.d.next = self.qpn_s1.q.val();
        self.rqpn_s2.d.next = self.rqpn_s1.q.val();
        self.psn_s2.d.next = self.psn_s1.q.val();
        self.msn_s2.d.next = self.msn_s1.q.val();
        self.pkey_s2.d.next = self.pkey_s1.q.val();
        self.rtimer_s2.d.next = self.rtimer_s1.q.val();
        self.ram_s2.d.next = self.qp_state.read_data.val();
        self.fwd1_s2.d.next =
            self.v_s2.q.val() & self.inr_s2.q.val() & (self.idx_s2.q.val() == self.idx_s1.q.val());
        self.fwd2_s2.d.next = self.l1_v.q.val() & (self.l1_idx.q.val() == self.idx_s1.q.val());

        // ---- Stage 2: the QP's current state, then the rules of SPEC 5.5
        // (docs/nak.md): error state, waiting for a PSN, then the status.
        self.st.next = self.ram_s2.q.val();
        self.psn_eq.next = self.ram_s2.q.val().get_bits::<24>(0) == self.psn_s2.q.val();
        if self.fwd2_s2.q.val() {
            self.st.next = self.l2_st.q.val();
            self.psn_eq.next = self.l2_st.q.val().get_bits::<24>(0) == self.psn_s2.q.val();
        }
        if self.fwd1_s2.q.val() {
            self.st.next = self.l1_st.q.val();
            self.psn_eq.next = self.l1_st.q.val().get_bits::<24>(0) == self.psn_s2.q.val();
        }
        // A QPN beyond the table has no state: it is treated as a clear QP.
        if !self.inr_s2.q.val() {
            self.st.next = 0.into();
        }
        self.s_wait.next = self.st.val().get_bit(24);
        self.s_err.next = self.st.val().get_bit(25);
        self.code.next = self.rtimer_s2.q.val();
        if self.st.val().get_bit(26) {
            self.code.next = self.st.val().get_bits::<5>(27);
        }
        self.n_psn.next = self.st.val().get_bits::<24>(0);
        self.n_wait.next = self.st.val().get_bits::<1>(24);
        self.n_err.next = self.st.val().get_bits::<1>(25);
        self.n_tv.next = self.st.val().get_bits::<1>(26);
        self.n_tc.next = self.st.val().get_bits::<5>(27);

        self.emit.next = false;
        self.conv.next = false;
        self.o_status.next = self.status_s2.q.val();
        self.o_last.next = 0.into();
        if self.last_s2.q.val() {
            self.o_last.next = 1.into();
        }
        self.nak.next = false;
        self.synd.next = self.synd_operr.val();
        self.c_rnr.next = false;
        self.c_err.next = false;
        self.c_drop.next = false;

        if self.v_s2.q.val() & self.cmd_s2.q.val() {
            // A QP command.
            if self.kind_s2.q.val() == 0 {
                // = qp_cmd::RESET
                self.n_psn.next = 0.into();
                self.n_wait.next = 0.into();
                self.n_err.next = 0.into();
                self.n_tv.next = 0.into();
                self.n_tc.next = 0.into();
            } else if self.kind_s2.q.val() == 1 {
                // = qp_cmd::SET_ERROR
                self.n_err.next = 1.into();
            } else if self.kind_s2.q.val() == 2 {
                // = qp_cmd::SET_TIMER
                self.n_tv.next = 1.into();
                self.n_tc.next = self.ctimer_s2.q.val();
            } else {
                // qp_cmd::CLEAR_TIMER
                self.n_tv.next = 0.into();
                self.n_tc.next = 0.into();
            }
        } else if self.v_s2.q.val() & (!self.mid.q.val()) {
            // The first (or only) beat of a response.
            self.emit.next = true;
            if !self.op_s2.q.val().get_bit(1) {
                // Op bit 1 clear: op::REMOTE_WRITE or op::REMOTE_READ.
                // A remote op: the responder rules.
                if self.s_err.val() {
                    // Rule 1: QP in error.
                    self.conv.next = true;
                    self.o_status.next = 5.into(); // = status::FATAL
                    self.nak.next = true;
                    self.c_err.next = true;
                } else if self.s_wait.val() & (!self.psn_eq.val()) {
                    // Rule 2: not the PSN the QP waits for.
                    self.conv.next = true;
                    self.o_status.next = 3.into(); // = status::DROP
                    self.c_drop.next = true;
                } else {
                    // Rule 3 (a retransmission of the waited-for PSN ends the
                    // wait first).
                    self.n_wait.next = 0.into();
                    if self.status_s2.q.val() == 1 {
                        // = status::RNR: NAK, and wait for this PSN.
                        self.nak.next = true;
                        self.synd.next = self.synd_rnr.val() | bit_cast::<8, 5>(self.code.val());
                        self.c_rnr.next = true;
                        self.n_wait.next = 1.into();
                        self.n_psn.next = self.psn_s2.q.val();
                    } else if self.status_s2.q.val() == 4 {
                        // = status::ACCESS_ERR
                        self.nak.next = true;
                        self.synd.next = self.synd_access.val();
                        self.c_err.next = true;
                    } else if self.status_s2.q.val() == 5 {
                        // = status::FATAL
                        self.nak.next = true;
                        self.c_err.next = true;
                    }
                }
            }
            if self.conv.val() {
                self.o_last.next = 1.into();
            }
            self.mid.d.next = !self.last_s2.q.val();
            self.swallow.d.next = self.conv.val() & (!self.last_s2.q.val());
        } else if self.v_s2.q.val() {
            // A later beat of a multi-beat response: passes, or is
            // swallowed when its first beat became one DROP or FATAL beat.
            self.emit.next = !self.swallow.q.val();
            if self.last_s2.q.val() {
                self.mid.d.next = false;
                self.swallow.d.next = false;
            }
        }
        if self.rst.val() {
            self.mid.d.next = false;
            self.swallow.d.next = false;
        }
        self.o_pa.next = self.pa_s2.q.val();
        self.o_seg.next = self.seg_s2.q.val();
        if self.conv.val() {
            self.o_pa.next = 0.into();
            self.o_seg.next = 0.into();
        }

        // The state write (every slot of a QP in the table writes its word
        // back, changed or not), or the sweep.
        self.new_st.next = bit_cast::<32, 24>(self.n_psn.val())
            | (bit_cast::<32, 1>(self.n_wait.val()) << 24)
            | (bit_cast::<32, 1>(self.n_err.val()) << 25)
            | (bit_cast::<32, 1>(self.n_tv.val()) << 26)
            | (bit_cast::<32, 5>(self.n_tc.val()) << 27);
        self.w_en.next = self.v_s2.q.val() & self.inr_s2.q.val() & (!self.rst.val());
        self.qp_state.write_enable.next = self.w_en.val();
        self.qp_state.write_address.next = self.idx_s2.q.val();
        self.qp_state.write_data.next = self.new_st.val();
        if !self.ready_r.q.val() {
            self.qp_state.write_enable.next = true;
            self.qp_state.write_address.next = self.sweep.q.val();
            self.qp_state.write_data.next = 0.into();
        }
        self.l1_v.d.next = self.w_en.val();
        self.l1_idx.d.next = self.idx_s2.q.val();
        self.l1_st.d.next = self.new_st.val();
        self.l2_st.d.next = self.l1_st.q.val();

        // ---- Stage 3: the answer and the NAK of one response enter their
        // FIFOs at the same edge.
        self.rv_s3.d.next = self.emit.val() & (!self.rst.val());
        self.rsp_s3.d.next = bit_cast::<RSP_BITS, 8>(self.tag_s2.q.val())
            | (bit_cast::<RSP_BITS, 3>(self.o_status.val()) << 8)
            | (bit_cast::<RSP_BITS, 64>(self.o_pa.val()) << 11)
            | (bit_cast::<RSP_BITS, 13>(self.o_seg.val()) << 75)
            | (bit_cast::<RSP_BITS, 1>(self.o_last.val()) << 88)
            | (bit_cast::<RSP_BITS, 8>(self.epoch_s2.q.val()) << 89)
            | (bit_cast::<RSP_BITS, 2>(self.op_s2.q.val()) << 97)
            | (bit_cast::<RSP_BITS, 24>(self.qpn_s2.q.val()) << 99);
        self.nv_s3.d.next = self.nak.val() & (!self.rst.val());
        self.nak_s3.d.next = bit_cast::<NAK_BITS, 24>(self.qpn_s2.q.val())
            | (bit_cast::<NAK_BITS, 24>(self.rqpn_s2.q.val()) << 24)
            | (bit_cast::<NAK_BITS, 24>(self.psn_s2.q.val()) << 48)
            | (bit_cast::<NAK_BITS, 24>(self.msn_s2.q.val()) << 72)
            | (bit_cast::<NAK_BITS, 8>(self.synd.val()) << 96)
            | (bit_cast::<NAK_BITS, 16>(self.pkey_s2.q.val()) << 104);
        self.rnr_s3.d.next = self.c_rnr.val() & (!self.rst.val());
        self.err_s3.d.next = self.c_err.val() & (!self.rst.val());
        self.drop_s3.d.next = self.c_drop.val() & (!self.rst.val());
        self.rsp_fifo.push.next = self.rv_s3.q.val();
        self.rsp_fifo.data_in.next = self.rsp_s3.q.val();
        self.nak_fifo.push.next = self.nv_s3.q.val();
        self.nak_fifo.data_in.next = self.nak_s3.q.val();
        self.nak_rnr.next = self.rnr_s3.q.val();
        self.nak_err.next = self.err_s3.q.val();
        self.drop.next = self.drop_s3.q.val();

        // ---- Outputs: the FIFO heads.
        self.m_rsp_valid.next = !self.rsp_fifo.empty.val();
        self.rsp_fifo.pop.next = self.m_rsp_ready.val();
        self.m_rsp_tag.next = self.rsp_fifo.data_out.val().get_bits::<8>(0);
        self.m_rsp_status.next = self.rsp_fifo.data_out.val().get_bits::<3>(8);
        self.m_rsp_pa.next = self.rsp_fifo.data_out.val().get_bits::<64>(11);
        self.m_rsp_seg_len.next = self.rsp_fifo.data_out.val().get_bits::<13>(75);
        self.m_rsp_last.next = self.rsp_fifo.data_out.val().get_bit(88);
        self.m_rsp_epoch.next = self.rsp_fifo.data_out.val().get_bits::<8>(89);
        self.m_rsp_op.next = self.rsp_fifo.data_out.val().get_bits::<2>(97);
        self.m_rsp_qpn.next = self.rsp_fifo.data_out.val().get_bits::<24>(99);

        self.m_nak.valid.next = !self.nak_fifo.empty.val();
        self.nak_fifo.pop.next = self.m_nak.ready.val();
        self.nak_word.next = self.nak_fifo.data_out.val();
        self.m_nak.qpn.next = self.nak_word.val().get_bits::<24>(0);
        // BTH: opcode, SE/M/pad/TVer 0, P_Key, reserved 0, DestQP, AckReq /
        // reserved 0, PSN; AETH: syndrome, MSN.
        self.m_nak.hdr.next = self.bth_opcode.val()
            | (bit_cast::<128, 16>(self.nak_word.val().get_bits::<16>(104)) << 96)
            | (bit_cast::<128, 24>(self.nak_word.val().get_bits::<24>(24)) << 64)
            | (bit_cast::<128, 24>(self.nak_word.val().get_bits::<24>(48)) << 32)
            | (bit_cast::<128, 8>(self.nak_word.val().get_bits::<8>(96)) << 24)
            | bit_cast::<128, 24>(self.nak_word.val().get_bits::<24>(72));
    }
}
