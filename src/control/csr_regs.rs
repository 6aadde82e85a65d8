//! The CSR block: the AXI4-Lite register file of `odp_mmu`.
//!
//! GENERATED from the register map by `odp_mmu::control::regmap::csr_block_source()`;
//! do not edit. After changing `src/control/regmap.rs`, refresh every generated file
//! with `ODP_BLESS=1 cargo test --release --test csr`. The datasheet is
//! `docs/csr.md` (the `control` module's documentation).

use rust_hdl::prelude::*;

use crate::common::interfaces::AxiLiteSlave;

/// Values of the parameter registers, fixed when the block is built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CsrCaps {
    /// `CAP_MRS` (offset 0x0008): MR table entries.
    pub cap_mrs: u32,
    /// `CAP_QPS` (offset 0x000C): Queue pairs; QPNs at or above this answer ACCESS_ERR.
    pub cap_qps: u32,
    /// `CAP_TLB` (offset 0x0010): TLB geometry.
    pub cap_tlb: u32,
    /// `CAP_QUEUES` (offset 0x0014): Queue depths.
    pub cap_queues: u32,
}

/// The CSR block (see the `control` module documentation and `docs/csr.md`).
#[derive(LogicBlock)]
pub struct CsrRegs {
    /// Core clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous active-high reset: every register to its reset value.
    pub rst: Signal<In, Bit>,
    /// AXI4-Lite slave: the register file's bus (`s_axil_*`).
    pub s_axil: AxiLiteSlave,
    /// CTRL.IRQ_EN: Interrupt enable: irq is high while events are unconsumed and this bit is set.
    pub ctrl_irq_en: Signal<Out, Bit>,
    /// CTRL.ADAPTIVE_RNR: Choose the RNR timer code per fault from the expected service time instead of RNR_TIMER.
    pub ctrl_adaptive_rnr: Signal<Out, Bit>,
    /// STATUS.READY: The reset sweep is done: the core accepts requests and commands.
    pub st_ready: Signal<In, Bit>,
    /// One-clock pulse: sets ERROR.BAD_CMD (The core refused a command (unknown or planned op, bad argument); see ERROR_INFO.)
    pub err_bad_cmd: Signal<In, Bit>,
    /// One-clock pulse: sets ERROR.WALK_FATAL (A request was answered FATAL: its page-table walk got an AXI error response or read a reserved PTE.)
    pub err_walk_fatal: Signal<In, Bit>,
    /// One-clock pulse: sets ERROR.EVENT_WRITE_ERR (An event-ring write got an AXI error response: that record did not land (docs/events.md, Errors).)
    pub err_event_write_err: Signal<In, Bit>,
    /// One-clock pulse: sets ERROR.RESUME_STALE (A RESUME_FAULT named no fault awaiting its RESUME (the fault queue found the token stale: no such slot, a slot not yet posted or already resolved, an old generation, or bits 31:16 set); the command changed nothing and finished with result STALE_TOKEN (7).)
    pub err_resume_stale: Signal<In, Bit>,
    /// One-clock pulse: sets ERROR.EQ_CONS_BAD (EQ_CONS was ahead of EQ_PROD or more than the ring size behind it: the ring was treated as full until it was legal again; nothing was overwritten.)
    pub err_eq_cons_bad: Signal<In, Bit>,
    /// One-clock pulse: sets ERROR.EQ_SIZE_BAD (EQ_LOG2_SIZE was written with 17 to 31: the ring is disabled as for 0.)
    pub err_eq_size_bad: Signal<In, Bit>,
    /// One-clock pulse: sets ERROR.DONE_BAD (An s_done pulse named an epoch with no OK response outstanding (or epoch bits 7:4 set), and was ignored; or an epoch counted more than 65535 OK responses not yet returned (docs/invalidation.md).)
    pub err_done_bad: Signal<In, Bit>,
    /// ERROR_INFO.OP, captured when err_bad_cmd is high: Op of the last refused command.
    pub err_bad_cmd_op: Signal<In, Bits<8>>,
    /// ERROR_INFO.CODE, captured when err_bad_cmd is high: Why the core refused it (the core's result code).
    pub err_bad_cmd_code: Signal<In, Bits<8>>,
    /// RNR_TIMER.RNR_TIMER: IBTA RNR timer code sent in RNR NAKs; 12 is 0.64 ms (0 would be 655.36 ms).
    pub rnr_timer: Signal<Out, Bits<5>>,
    /// PKEY.PKEY: P_Key written into the BTH of every NAK.
    pub pkey: Signal<Out, Bits<16>>,
    /// CLOCKS_PER_US.CLOCKS_PER_US: Core clocks per microsecond (125 at 125 MHz).
    pub clocks_per_us: Signal<Out, Bits<16>>,
    /// PREFETCH_CAP.PREFETCH_CAP: Largest prefetch range hint in a fault event, bytes.
    pub prefetch_cap: Signal<Out, Bits<32>>,
    /// EQ_BASE_LO.EQ_BASE_LO: Event ring base address in host memory, bits 31:0.
    pub eq_base_lo: Signal<Out, Bits<32>>,
    /// EQ_BASE_HI.EQ_BASE_HI: Event ring base address, bits 63:32.
    pub eq_base_hi: Signal<Out, Bits<32>>,
    /// EQ_LOG2_SIZE.EQ_LOG2_SIZE: log2 of the number of event-ring entries: 1 to 16; 0 disables and resets the ring; 17 to 31 disable it and set ERROR.EQ_SIZE_BAD.
    pub eq_log2_size: Signal<Out, Bits<5>>,
    /// EQ_CONS.EQ_CONS: Event ring consumer index, written by the driver.
    pub eq_cons: Signal<Out, Bits<32>>,
    /// EQ_PROD.EQ_PROD: Event ring producer index.
    pub eq_prod: Signal<In, Bits<32>>,
    /// INV_ISSUED.INV_ISSUED: INVALIDATE and MR_SUSPEND commands accepted since reset (free-running): read after a command's OK result, it is that command's sequence number.
    pub inv_issued: Signal<In, Bits<32>>,
    /// INV_DONE.INV_DONE: INVALIDATE and MR_SUSPEND commands done since reset (free-running; they finish in order): the command numbered n is done once INV_DONE - n, as a signed 32-bit difference, is at least 0. Its event is then handed to the event ring.
    pub inv_done: Signal<In, Bits<32>>,
    /// One-clock strobe: captures CMD_STATUS.RESULT and the fields captured with it.
    pub cmd_result_valid: Signal<In, Bit>,
    /// CMD_STATUS.RESULT, captured when cmd_result_valid is high: Result code of the last command the core finished (0: done).
    pub cmd_result_code: Signal<In, Bits<8>>,
    /// A command is held (CMD_STATUS.BUSY); op, tag and args hold until cmd_ready.
    pub cmd_valid: Signal<Out, Bit>,
    /// The core takes the held command this clock.
    pub cmd_ready: Signal<In, Bit>,
    /// Op code of the held command.
    pub cmd_op: Signal<Out, Bits<8>>,
    /// Tag of the held command.
    pub cmd_tag: Signal<Out, Bits<8>>,
    /// CMD_ARG0 as it was when the doorbell was written.
    pub cmd_arg0: Signal<Out, Bits<32>>,
    /// CMD_ARG1 as it was when the doorbell was written.
    pub cmd_arg1: Signal<Out, Bits<32>>,
    /// CMD_ARG2 as it was when the doorbell was written.
    pub cmd_arg2: Signal<Out, Bits<32>>,
    /// CMD_ARG3 as it was when the doorbell was written.
    pub cmd_arg3: Signal<Out, Bits<32>>,
    /// CMD_ARG4 as it was when the doorbell was written.
    pub cmd_arg4: Signal<Out, Bits<32>>,
    /// CMD_ARG5 as it was when the doorbell was written.
    pub cmd_arg5: Signal<Out, Bits<32>>,
    /// CMD_ARG6 as it was when the doorbell was written.
    pub cmd_arg6: Signal<Out, Bits<32>>,
    /// CMD_ARG7 as it was when the doorbell was written.
    pub cmd_arg7: Signal<Out, Bits<32>>,
    /// CMD_ARG8 as it was when the doorbell was written.
    pub cmd_arg8: Signal<Out, Bits<32>>,
    /// CMD_ARG9 as it was when the doorbell was written.
    pub cmd_arg9: Signal<Out, Bits<32>>,
    /// CMD_ARG10 as it was when the doorbell was written.
    pub cmd_arg10: Signal<Out, Bits<32>>,
    /// CMD_ARG11 as it was when the doorbell was written.
    pub cmd_arg11: Signal<Out, Bits<32>>,
    /// LOOKUPS: one-clock increment. Translation requests accepted.
    pub ctr_lookups_inc: Signal<In, Bit>,
    /// TLB_HITS: one-clock increment. Requests answered from the TLB.
    pub ctr_tlb_hits_inc: Signal<In, Bit>,
    /// TLB_MISSES: one-clock increment. TLB lookups that missed.
    pub ctr_tlb_misses_inc: Signal<In, Bit>,
    /// WALKS: one-clock increment. Page-table walks started.
    pub ctr_walks_inc: Signal<In, Bit>,
    /// WALK_READS: one-clock increment. Page-table entry reads issued on AXI4.
    pub ctr_walk_reads_inc: Signal<In, Bit>,
    /// FAULTS: one-clock increment. Page faults raised (fault events written).
    pub ctr_faults_inc: Signal<In, Bit>,
    /// FAULTS_COALESCED: one-clock increment. Faults coalesced into a pending one.
    pub ctr_faults_coalesced_inc: Signal<In, Bit>,
    /// RNR_NAKS_FAULT: one-clock increment. RNR NAKs sent for a missing page.
    pub ctr_rnr_naks_fault_inc: Signal<In, Bit>,
    /// RNR_NAKS_SUSPENDED: one-clock increment. RNR NAKs sent for a suspended MR.
    pub ctr_rnr_naks_suspended_inc: Signal<In, Bit>,
    /// DROPS: one-clock increment. Requests answered DROP.
    pub ctr_drops_inc: Signal<In, Bit>,
    /// STALLS: one-clock increment. Requests answered STALL.
    pub ctr_stalls_inc: Signal<In, Bit>,
    /// WAKES: one-clock increment. Wakes sent on m_wake.
    pub ctr_wakes_inc: Signal<In, Bit>,
    /// ACCESS_ERRORS: one-clock increment. Requests answered ACCESS_ERR.
    pub ctr_access_errors_inc: Signal<In, Bit>,
    /// FATALS: one-clock increment. Requests answered FATAL.
    pub ctr_fatals_inc: Signal<In, Bit>,
    /// INVALIDATIONS: one-clock increment. INVALIDATE commands done (their invalidation-done event handed to the event ring).
    pub ctr_invalidations_inc: Signal<In, Bit>,
    /// PREFETCHES: one-clock increment. Prefetch commands completed (their "prefetch done" record taken for the event ring).
    pub ctr_prefetches_inc: Signal<In, Bit>,
    /// MAX_PENDING_FAULTS (max): Most pending faults at once.
    pub ctr_max_pending_faults_value: Signal<In, Bits<32>>,
    /// MAX_EVENT_RING (max): Most unconsumed event-ring entries at once.
    pub ctr_max_event_ring_value: Signal<In, Bits<32>>,
    /// FAULT_SERVICE_SUM (sum): value added when ctr_fault_service_sum_valid is high. Sum of fault service times (fault raised to RESUME), clocks.
    pub ctr_fault_service_sum_value: Signal<In, Bits<32>>,
    /// FAULT_SERVICE_SUM: add ctr_fault_service_sum_value this clock.
    pub ctr_fault_service_sum_valid: Signal<In, Bit>,
    /// FAULT_SERVICE_MAX (max): Longest fault service time, clocks.
    pub ctr_fault_service_max_value: Signal<In, Bits<32>>,
    /// QPS_STALLED_NOW (gauge): Local QPs waiting for a wake now: joined a fault's (or the overflow) wait list on a STALL, not yet woken on m_wake (a QP waiting on two faults counts twice).
    pub ctr_qps_stalled_now_value: Signal<In, Bits<32>>,
    // Parameter registers.
    cap_mrs: Constant<Bits<32>>,
    cap_qps: Constant<Bits<32>>,
    cap_tlb: Constant<Bits<32>>,
    cap_queues: Constant<Bits<32>>,
    // Registers.
    aw_full: DFF<Bit>,
    aw_ok: DFF<Bit>,
    w_full: DFF<Bit>,
    w_bits: DFF<Bits<32>>,
    w_mask: DFF<Bits<32>>,
    b_valid: DFF<Bit>,
    b_resp: DFF<Bits<2>>,
    ar_full: DFF<Bit>,
    ar_addr: DFF<Bits<14>>,
    r_valid: DFF<Bit>,
    r_data: DFF<Bits<32>>,
    cmd_pending: DFF<Bit>,
    cmd_op_q: DFF<Bits<8>>,
    cmd_tag_q: DFF<Bits<8>>,
    cmd_arg0_q: DFF<Bits<32>>,
    cmd_arg1_q: DFF<Bits<32>>,
    cmd_arg2_q: DFF<Bits<32>>,
    cmd_arg3_q: DFF<Bits<32>>,
    cmd_arg4_q: DFF<Bits<32>>,
    cmd_arg5_q: DFF<Bits<32>>,
    cmd_arg6_q: DFF<Bits<32>>,
    cmd_arg7_q: DFF<Bits<32>>,
    cmd_arg8_q: DFF<Bits<32>>,
    cmd_arg9_q: DFF<Bits<32>>,
    cmd_arg10_q: DFF<Bits<32>>,
    cmd_arg11_q: DFF<Bits<32>>,
    aw_sel_ctrl: DFF<Bit>,
    aw_sel_error: DFF<Bit>,
    aw_sel_rnr_timer: DFF<Bit>,
    aw_sel_pkey: DFF<Bit>,
    aw_sel_clocks_per_us: DFF<Bit>,
    aw_sel_prefetch_cap: DFF<Bit>,
    aw_sel_eq_base_lo: DFF<Bit>,
    aw_sel_eq_base_hi: DFF<Bit>,
    aw_sel_eq_log2_size: DFF<Bit>,
    aw_sel_eq_cons: DFF<Bit>,
    aw_sel_cmd_arg0: DFF<Bit>,
    aw_sel_cmd_arg1: DFF<Bit>,
    aw_sel_cmd_arg2: DFF<Bit>,
    aw_sel_cmd_arg3: DFF<Bit>,
    aw_sel_cmd_arg4: DFF<Bit>,
    aw_sel_cmd_arg5: DFF<Bit>,
    aw_sel_cmd_arg6: DFF<Bit>,
    aw_sel_cmd_arg7: DFF<Bit>,
    aw_sel_cmd_arg8: DFF<Bit>,
    aw_sel_cmd_arg9: DFF<Bit>,
    aw_sel_cmd_arg10: DFF<Bit>,
    aw_sel_cmd_arg11: DFF<Bit>,
    aw_sel_cmd_doorbell: DFF<Bit>,
    aw_sel_counter_clear: DFF<Bit>,
    r_ctrl: DFF<Bits<32>>,
    r_error: DFF<Bits<32>>,
    r_error_info: DFF<Bits<32>>,
    r_rnr_timer: DFF<Bits<32>>,
    r_pkey: DFF<Bits<32>>,
    r_clocks_per_us: DFF<Bits<32>>,
    r_prefetch_cap: DFF<Bits<32>>,
    r_eq_base_lo: DFF<Bits<32>>,
    r_eq_base_hi: DFF<Bits<32>>,
    r_eq_log2_size: DFF<Bits<32>>,
    r_eq_cons: DFF<Bits<32>>,
    r_cmd_arg0: DFF<Bits<32>>,
    r_cmd_arg1: DFF<Bits<32>>,
    r_cmd_arg2: DFF<Bits<32>>,
    r_cmd_arg3: DFF<Bits<32>>,
    r_cmd_arg4: DFF<Bits<32>>,
    r_cmd_arg5: DFF<Bits<32>>,
    r_cmd_arg6: DFF<Bits<32>>,
    r_cmd_arg7: DFF<Bits<32>>,
    r_cmd_arg8: DFF<Bits<32>>,
    r_cmd_arg9: DFF<Bits<32>>,
    r_cmd_arg10: DFF<Bits<32>>,
    r_cmd_arg11: DFF<Bits<32>>,
    r_cmd_status: DFF<Bits<32>>,
    c_lookups: DFF<Bits<64>>,
    i_lookups_inc: DFF<Bit>,
    c_tlb_hits: DFF<Bits<64>>,
    i_tlb_hits_inc: DFF<Bit>,
    c_tlb_misses: DFF<Bits<64>>,
    i_tlb_misses_inc: DFF<Bit>,
    c_walks: DFF<Bits<64>>,
    i_walks_inc: DFF<Bit>,
    c_walk_reads: DFF<Bits<64>>,
    i_walk_reads_inc: DFF<Bit>,
    c_faults: DFF<Bits<64>>,
    i_faults_inc: DFF<Bit>,
    c_faults_coalesced: DFF<Bits<64>>,
    i_faults_coalesced_inc: DFF<Bit>,
    c_rnr_naks_fault: DFF<Bits<64>>,
    i_rnr_naks_fault_inc: DFF<Bit>,
    c_rnr_naks_suspended: DFF<Bits<64>>,
    i_rnr_naks_suspended_inc: DFF<Bit>,
    c_drops: DFF<Bits<64>>,
    i_drops_inc: DFF<Bit>,
    c_stalls: DFF<Bits<64>>,
    i_stalls_inc: DFF<Bit>,
    c_wakes: DFF<Bits<64>>,
    i_wakes_inc: DFF<Bit>,
    c_access_errors: DFF<Bits<64>>,
    i_access_errors_inc: DFF<Bit>,
    c_fatals: DFF<Bits<64>>,
    i_fatals_inc: DFF<Bit>,
    c_invalidations: DFF<Bits<64>>,
    i_invalidations_inc: DFF<Bit>,
    c_prefetches: DFF<Bits<64>>,
    i_prefetches_inc: DFF<Bit>,
    c_max_pending_faults: DFF<Bits<64>>,
    i_max_pending_faults_value: DFF<Bits<32>>,
    c_max_event_ring: DFF<Bits<64>>,
    i_max_event_ring_value: DFF<Bits<32>>,
    c_fault_service_sum: DFF<Bits<64>>,
    i_fault_service_sum_value: DFF<Bits<32>>,
    i_fault_service_sum_valid: DFF<Bit>,
    c_fault_service_max: DFF<Bits<64>>,
    i_fault_service_max_value: DFF<Bits<32>>,
    c_qps_stalled_now: DFF<Bits<64>>,
    i_qps_stalled_now_value: DFF<Bits<32>>,
    s1_g0: DFF<Bits<32>>,
    s1_g2: DFF<Bits<32>>,
    s1_g4: DFF<Bits<32>>,
    s1_g5: DFF<Bits<32>>,
    s1_full: DFF<Bit>,
    s1_grp: DFF<Bits<9>>,
    shadow_hi: DFF<Bits<32>>,
    shadow_sel: DFF<Bits<5>>,
    // Combinational values inside one clock.
    wstrb_mask: Signal<Local, Bits<32>>,
    aw_word: Signal<Local, Bits<14>>,
    wr_go: Signal<Local, Bit>,
    wr_ok: Signal<Local, Bit>,
    rd_go: Signal<Local, Bit>,
    rd_word: Signal<Local, Bits<32>>,
    sh_load: Signal<Local, Bit>,
    sh_val: Signal<Local, Bits<32>>,
    sh_sel: Signal<Local, Bits<5>>,
    db_accept: Signal<Local, Bit>,
    db_reject: Signal<Local, Bit>,
    clear_go: Signal<Local, Bit>,
    n_ctrl: Signal<Local, Bits<32>>,
    n_error: Signal<Local, Bits<32>>,
    n_error_info: Signal<Local, Bits<32>>,
    n_rnr_timer: Signal<Local, Bits<32>>,
    n_pkey: Signal<Local, Bits<32>>,
    n_clocks_per_us: Signal<Local, Bits<32>>,
    n_prefetch_cap: Signal<Local, Bits<32>>,
    n_eq_base_lo: Signal<Local, Bits<32>>,
    n_eq_base_hi: Signal<Local, Bits<32>>,
    n_eq_log2_size: Signal<Local, Bits<32>>,
    n_eq_cons: Signal<Local, Bits<32>>,
    n_cmd_arg0: Signal<Local, Bits<32>>,
    n_cmd_arg1: Signal<Local, Bits<32>>,
    n_cmd_arg2: Signal<Local, Bits<32>>,
    n_cmd_arg3: Signal<Local, Bits<32>>,
    n_cmd_arg4: Signal<Local, Bits<32>>,
    n_cmd_arg5: Signal<Local, Bits<32>>,
    n_cmd_arg6: Signal<Local, Bits<32>>,
    n_cmd_arg7: Signal<Local, Bits<32>>,
    n_cmd_arg8: Signal<Local, Bits<32>>,
    n_cmd_arg9: Signal<Local, Bits<32>>,
    n_cmd_arg10: Signal<Local, Bits<32>>,
    n_cmd_arg11: Signal<Local, Bits<32>>,
    n_cmd_status: Signal<Local, Bits<32>>,
    v_id: Signal<Local, Bits<32>>,
    v_version: Signal<Local, Bits<32>>,
    v_cap_mrs: Signal<Local, Bits<32>>,
    v_cap_qps: Signal<Local, Bits<32>>,
    v_cap_tlb: Signal<Local, Bits<32>>,
    v_cap_queues: Signal<Local, Bits<32>>,
    v_ctrl: Signal<Local, Bits<32>>,
    v_status: Signal<Local, Bits<32>>,
    v_error: Signal<Local, Bits<32>>,
    v_error_info: Signal<Local, Bits<32>>,
    v_rnr_timer: Signal<Local, Bits<32>>,
    v_pkey: Signal<Local, Bits<32>>,
    v_clocks_per_us: Signal<Local, Bits<32>>,
    v_prefetch_cap: Signal<Local, Bits<32>>,
    v_eq_base_lo: Signal<Local, Bits<32>>,
    v_eq_base_hi: Signal<Local, Bits<32>>,
    v_eq_log2_size: Signal<Local, Bits<32>>,
    v_eq_cons: Signal<Local, Bits<32>>,
    v_eq_prod: Signal<Local, Bits<32>>,
    v_inv_issued: Signal<Local, Bits<32>>,
    v_inv_done: Signal<Local, Bits<32>>,
    v_cmd_arg0: Signal<Local, Bits<32>>,
    v_cmd_arg1: Signal<Local, Bits<32>>,
    v_cmd_arg2: Signal<Local, Bits<32>>,
    v_cmd_arg3: Signal<Local, Bits<32>>,
    v_cmd_arg4: Signal<Local, Bits<32>>,
    v_cmd_arg5: Signal<Local, Bits<32>>,
    v_cmd_arg6: Signal<Local, Bits<32>>,
    v_cmd_arg7: Signal<Local, Bits<32>>,
    v_cmd_arg8: Signal<Local, Bits<32>>,
    v_cmd_arg9: Signal<Local, Bits<32>>,
    v_cmd_arg10: Signal<Local, Bits<32>>,
    v_cmd_arg11: Signal<Local, Bits<32>>,
    v_cmd_status: Signal<Local, Bits<32>>,
    rd_g0: Signal<Local, Bits<32>>,
    rd_g2: Signal<Local, Bits<32>>,
    rd_g4: Signal<Local, Bits<32>>,
    rd_g5: Signal<Local, Bits<32>>,
    wide_max_pending_faults: Signal<Local, Bits<64>>,
    wide_max_event_ring: Signal<Local, Bits<64>>,
    wide_fault_service_sum: Signal<Local, Bits<64>>,
    wide_fault_service_max: Signal<Local, Bits<64>>,
}

impl CsrRegs {
    /// Builds the block with the parameter registers set from `caps`.
    pub fn new(caps: &CsrCaps) -> Self {
        Self {
            s_axil: Default::default(),
            clk: Default::default(),
            rst: Default::default(),
            ctrl_irq_en: Default::default(),
            ctrl_adaptive_rnr: Default::default(),
            st_ready: Default::default(),
            err_bad_cmd: Default::default(),
            err_walk_fatal: Default::default(),
            err_event_write_err: Default::default(),
            err_resume_stale: Default::default(),
            err_eq_cons_bad: Default::default(),
            err_eq_size_bad: Default::default(),
            err_done_bad: Default::default(),
            err_bad_cmd_op: Default::default(),
            err_bad_cmd_code: Default::default(),
            rnr_timer: Default::default(),
            pkey: Default::default(),
            clocks_per_us: Default::default(),
            prefetch_cap: Default::default(),
            eq_base_lo: Default::default(),
            eq_base_hi: Default::default(),
            eq_log2_size: Default::default(),
            eq_cons: Default::default(),
            eq_prod: Default::default(),
            inv_issued: Default::default(),
            inv_done: Default::default(),
            cmd_result_valid: Default::default(),
            cmd_result_code: Default::default(),
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
            cmd_arg9: Default::default(),
            cmd_arg10: Default::default(),
            cmd_arg11: Default::default(),
            ctr_lookups_inc: Default::default(),
            ctr_tlb_hits_inc: Default::default(),
            ctr_tlb_misses_inc: Default::default(),
            ctr_walks_inc: Default::default(),
            ctr_walk_reads_inc: Default::default(),
            ctr_faults_inc: Default::default(),
            ctr_faults_coalesced_inc: Default::default(),
            ctr_rnr_naks_fault_inc: Default::default(),
            ctr_rnr_naks_suspended_inc: Default::default(),
            ctr_drops_inc: Default::default(),
            ctr_stalls_inc: Default::default(),
            ctr_wakes_inc: Default::default(),
            ctr_access_errors_inc: Default::default(),
            ctr_fatals_inc: Default::default(),
            ctr_invalidations_inc: Default::default(),
            ctr_prefetches_inc: Default::default(),
            ctr_max_pending_faults_value: Default::default(),
            ctr_max_event_ring_value: Default::default(),
            ctr_fault_service_sum_value: Default::default(),
            ctr_fault_service_sum_valid: Default::default(),
            ctr_fault_service_max_value: Default::default(),
            ctr_qps_stalled_now_value: Default::default(),
            cap_mrs: Constant::new((caps.cap_mrs as u64).into()),
            cap_qps: Constant::new((caps.cap_qps as u64).into()),
            cap_tlb: Constant::new((caps.cap_tlb as u64).into()),
            cap_queues: Constant::new((caps.cap_queues as u64).into()),
            aw_full: Default::default(),
            aw_ok: Default::default(),
            w_full: Default::default(),
            w_bits: Default::default(),
            w_mask: Default::default(),
            b_valid: Default::default(),
            b_resp: Default::default(),
            ar_full: Default::default(),
            ar_addr: Default::default(),
            r_valid: Default::default(),
            r_data: Default::default(),
            cmd_pending: Default::default(),
            cmd_op_q: Default::default(),
            cmd_tag_q: Default::default(),
            cmd_arg0_q: Default::default(),
            cmd_arg1_q: Default::default(),
            cmd_arg2_q: Default::default(),
            cmd_arg3_q: Default::default(),
            cmd_arg4_q: Default::default(),
            cmd_arg5_q: Default::default(),
            cmd_arg6_q: Default::default(),
            cmd_arg7_q: Default::default(),
            cmd_arg8_q: Default::default(),
            cmd_arg9_q: Default::default(),
            cmd_arg10_q: Default::default(),
            cmd_arg11_q: Default::default(),
            aw_sel_ctrl: Default::default(),
            aw_sel_error: Default::default(),
            aw_sel_rnr_timer: Default::default(),
            aw_sel_pkey: Default::default(),
            aw_sel_clocks_per_us: Default::default(),
            aw_sel_prefetch_cap: Default::default(),
            aw_sel_eq_base_lo: Default::default(),
            aw_sel_eq_base_hi: Default::default(),
            aw_sel_eq_log2_size: Default::default(),
            aw_sel_eq_cons: Default::default(),
            aw_sel_cmd_arg0: Default::default(),
            aw_sel_cmd_arg1: Default::default(),
            aw_sel_cmd_arg2: Default::default(),
            aw_sel_cmd_arg3: Default::default(),
            aw_sel_cmd_arg4: Default::default(),
            aw_sel_cmd_arg5: Default::default(),
            aw_sel_cmd_arg6: Default::default(),
            aw_sel_cmd_arg7: Default::default(),
            aw_sel_cmd_arg8: Default::default(),
            aw_sel_cmd_arg9: Default::default(),
            aw_sel_cmd_arg10: Default::default(),
            aw_sel_cmd_arg11: Default::default(),
            aw_sel_cmd_doorbell: Default::default(),
            aw_sel_counter_clear: Default::default(),
            r_ctrl: Default::default(),
            r_error: Default::default(),
            r_error_info: Default::default(),
            r_rnr_timer: Default::default(),
            r_pkey: Default::default(),
            r_clocks_per_us: Default::default(),
            r_prefetch_cap: Default::default(),
            r_eq_base_lo: Default::default(),
            r_eq_base_hi: Default::default(),
            r_eq_log2_size: Default::default(),
            r_eq_cons: Default::default(),
            r_cmd_arg0: Default::default(),
            r_cmd_arg1: Default::default(),
            r_cmd_arg2: Default::default(),
            r_cmd_arg3: Default::default(),
            r_cmd_arg4: Default::default(),
            r_cmd_arg5: Default::default(),
            r_cmd_arg6: Default::default(),
            r_cmd_arg7: Default::default(),
            r_cmd_arg8: Default::default(),
            r_cmd_arg9: Default::default(),
            r_cmd_arg10: Default::default(),
            r_cmd_arg11: Default::default(),
            r_cmd_status: Default::default(),
            c_lookups: Default::default(),
            i_lookups_inc: Default::default(),
            c_tlb_hits: Default::default(),
            i_tlb_hits_inc: Default::default(),
            c_tlb_misses: Default::default(),
            i_tlb_misses_inc: Default::default(),
            c_walks: Default::default(),
            i_walks_inc: Default::default(),
            c_walk_reads: Default::default(),
            i_walk_reads_inc: Default::default(),
            c_faults: Default::default(),
            i_faults_inc: Default::default(),
            c_faults_coalesced: Default::default(),
            i_faults_coalesced_inc: Default::default(),
            c_rnr_naks_fault: Default::default(),
            i_rnr_naks_fault_inc: Default::default(),
            c_rnr_naks_suspended: Default::default(),
            i_rnr_naks_suspended_inc: Default::default(),
            c_drops: Default::default(),
            i_drops_inc: Default::default(),
            c_stalls: Default::default(),
            i_stalls_inc: Default::default(),
            c_wakes: Default::default(),
            i_wakes_inc: Default::default(),
            c_access_errors: Default::default(),
            i_access_errors_inc: Default::default(),
            c_fatals: Default::default(),
            i_fatals_inc: Default::default(),
            c_invalidations: Default::default(),
            i_invalidations_inc: Default::default(),
            c_prefetches: Default::default(),
            i_prefetches_inc: Default::default(),
            c_max_pending_faults: Default::default(),
            i_max_pending_faults_value: Default::default(),
            c_max_event_ring: Default::default(),
            i_max_event_ring_value: Default::default(),
            c_fault_service_sum: Default::default(),
            i_fault_service_sum_value: Default::default(),
            i_fault_service_sum_valid: Default::default(),
            c_fault_service_max: Default::default(),
            i_fault_service_max_value: Default::default(),
            c_qps_stalled_now: Default::default(),
            i_qps_stalled_now_value: Default::default(),
            s1_g0: Default::default(),
            s1_g2: Default::default(),
            s1_g4: Default::default(),
            s1_g5: Default::default(),
            s1_full: Default::default(),
            s1_grp: Default::default(),
            shadow_hi: Default::default(),
            shadow_sel: Default::default(),
            wstrb_mask: Default::default(),
            aw_word: Default::default(),
            wr_go: Default::default(),
            wr_ok: Default::default(),
            rd_go: Default::default(),
            rd_word: Default::default(),
            sh_load: Default::default(),
            sh_val: Default::default(),
            sh_sel: Default::default(),
            db_accept: Default::default(),
            db_reject: Default::default(),
            clear_go: Default::default(),
            n_ctrl: Default::default(),
            n_error: Default::default(),
            n_error_info: Default::default(),
            n_rnr_timer: Default::default(),
            n_pkey: Default::default(),
            n_clocks_per_us: Default::default(),
            n_prefetch_cap: Default::default(),
            n_eq_base_lo: Default::default(),
            n_eq_base_hi: Default::default(),
            n_eq_log2_size: Default::default(),
            n_eq_cons: Default::default(),
            n_cmd_arg0: Default::default(),
            n_cmd_arg1: Default::default(),
            n_cmd_arg2: Default::default(),
            n_cmd_arg3: Default::default(),
            n_cmd_arg4: Default::default(),
            n_cmd_arg5: Default::default(),
            n_cmd_arg6: Default::default(),
            n_cmd_arg7: Default::default(),
            n_cmd_arg8: Default::default(),
            n_cmd_arg9: Default::default(),
            n_cmd_arg10: Default::default(),
            n_cmd_arg11: Default::default(),
            n_cmd_status: Default::default(),
            v_id: Default::default(),
            v_version: Default::default(),
            v_cap_mrs: Default::default(),
            v_cap_qps: Default::default(),
            v_cap_tlb: Default::default(),
            v_cap_queues: Default::default(),
            v_ctrl: Default::default(),
            v_status: Default::default(),
            v_error: Default::default(),
            v_error_info: Default::default(),
            v_rnr_timer: Default::default(),
            v_pkey: Default::default(),
            v_clocks_per_us: Default::default(),
            v_prefetch_cap: Default::default(),
            v_eq_base_lo: Default::default(),
            v_eq_base_hi: Default::default(),
            v_eq_log2_size: Default::default(),
            v_eq_cons: Default::default(),
            v_eq_prod: Default::default(),
            v_inv_issued: Default::default(),
            v_inv_done: Default::default(),
            v_cmd_arg0: Default::default(),
            v_cmd_arg1: Default::default(),
            v_cmd_arg2: Default::default(),
            v_cmd_arg3: Default::default(),
            v_cmd_arg4: Default::default(),
            v_cmd_arg5: Default::default(),
            v_cmd_arg6: Default::default(),
            v_cmd_arg7: Default::default(),
            v_cmd_arg8: Default::default(),
            v_cmd_arg9: Default::default(),
            v_cmd_arg10: Default::default(),
            v_cmd_arg11: Default::default(),
            v_cmd_status: Default::default(),
            rd_g0: Default::default(),
            rd_g2: Default::default(),
            rd_g4: Default::default(),
            rd_g5: Default::default(),
            wide_max_pending_faults: Default::default(),
            wide_max_event_ring: Default::default(),
            wide_fault_service_sum: Default::default(),
            wide_fault_service_max: Default::default(),
        }
    }

    /// Every port but `clk`: (name, width, is_input), in declaration order.
    pub const PORTS: &'static [(&'static str, usize, bool)] = &[
        ("rst", 1, true),
        ("s_axil_awaddr", 16, true),
        ("s_axil_awprot", 3, true),
        ("s_axil_awvalid", 1, true),
        ("s_axil_awready", 1, false),
        ("s_axil_wdata", 32, true),
        ("s_axil_wstrb", 4, true),
        ("s_axil_wvalid", 1, true),
        ("s_axil_wready", 1, false),
        ("s_axil_bresp", 2, false),
        ("s_axil_bvalid", 1, false),
        ("s_axil_bready", 1, true),
        ("s_axil_araddr", 16, true),
        ("s_axil_arprot", 3, true),
        ("s_axil_arvalid", 1, true),
        ("s_axil_arready", 1, false),
        ("s_axil_rdata", 32, false),
        ("s_axil_rresp", 2, false),
        ("s_axil_rvalid", 1, false),
        ("s_axil_rready", 1, true),
        ("ctrl_irq_en", 1, false),
        ("ctrl_adaptive_rnr", 1, false),
        ("st_ready", 1, true),
        ("err_bad_cmd", 1, true),
        ("err_walk_fatal", 1, true),
        ("err_event_write_err", 1, true),
        ("err_resume_stale", 1, true),
        ("err_eq_cons_bad", 1, true),
        ("err_eq_size_bad", 1, true),
        ("err_done_bad", 1, true),
        ("err_bad_cmd_op", 8, true),
        ("err_bad_cmd_code", 8, true),
        ("rnr_timer", 5, false),
        ("pkey", 16, false),
        ("clocks_per_us", 16, false),
        ("prefetch_cap", 32, false),
        ("eq_base_lo", 32, false),
        ("eq_base_hi", 32, false),
        ("eq_log2_size", 5, false),
        ("eq_cons", 32, false),
        ("eq_prod", 32, true),
        ("inv_issued", 32, true),
        ("inv_done", 32, true),
        ("cmd_result_valid", 1, true),
        ("cmd_result_code", 8, true),
        ("cmd_valid", 1, false),
        ("cmd_ready", 1, true),
        ("cmd_op", 8, false),
        ("cmd_tag", 8, false),
        ("cmd_arg0", 32, false),
        ("cmd_arg1", 32, false),
        ("cmd_arg2", 32, false),
        ("cmd_arg3", 32, false),
        ("cmd_arg4", 32, false),
        ("cmd_arg5", 32, false),
        ("cmd_arg6", 32, false),
        ("cmd_arg7", 32, false),
        ("cmd_arg8", 32, false),
        ("cmd_arg9", 32, false),
        ("cmd_arg10", 32, false),
        ("cmd_arg11", 32, false),
        ("ctr_lookups_inc", 1, true),
        ("ctr_tlb_hits_inc", 1, true),
        ("ctr_tlb_misses_inc", 1, true),
        ("ctr_walks_inc", 1, true),
        ("ctr_walk_reads_inc", 1, true),
        ("ctr_faults_inc", 1, true),
        ("ctr_faults_coalesced_inc", 1, true),
        ("ctr_rnr_naks_fault_inc", 1, true),
        ("ctr_rnr_naks_suspended_inc", 1, true),
        ("ctr_drops_inc", 1, true),
        ("ctr_stalls_inc", 1, true),
        ("ctr_wakes_inc", 1, true),
        ("ctr_access_errors_inc", 1, true),
        ("ctr_fatals_inc", 1, true),
        ("ctr_invalidations_inc", 1, true),
        ("ctr_prefetches_inc", 1, true),
        ("ctr_max_pending_faults_value", 32, true),
        ("ctr_max_event_ring_value", 32, true),
        ("ctr_fault_service_sum_value", 32, true),
        ("ctr_fault_service_sum_valid", 1, true),
        ("ctr_fault_service_max_value", 32, true),
        ("ctr_qps_stalled_now_value", 32, true),
    ];

    /// Sets input `name` to `value` (masked to its width) in simulation;
    /// `false` when there is no such input.
    pub fn set_input(&mut self, name: &str, value: u64) -> bool {
        match name {
            "rst" => self.rst.next = (value & 1) != 0,
            "s_axil_awaddr" => self.s_axil.awaddr.next = (value & 0xFFFF).into(),
            "s_axil_awprot" => self.s_axil.awprot.next = (value & 0x7).into(),
            "s_axil_awvalid" => self.s_axil.awvalid.next = (value & 1) != 0,
            "s_axil_wdata" => self.s_axil.wdata.next = (value & 0xFFFFFFFF).into(),
            "s_axil_wstrb" => self.s_axil.wstrb.next = (value & 0xF).into(),
            "s_axil_wvalid" => self.s_axil.wvalid.next = (value & 1) != 0,
            "s_axil_bready" => self.s_axil.bready.next = (value & 1) != 0,
            "s_axil_araddr" => self.s_axil.araddr.next = (value & 0xFFFF).into(),
            "s_axil_arprot" => self.s_axil.arprot.next = (value & 0x7).into(),
            "s_axil_arvalid" => self.s_axil.arvalid.next = (value & 1) != 0,
            "s_axil_rready" => self.s_axil.rready.next = (value & 1) != 0,
            "st_ready" => self.st_ready.next = (value & 1) != 0,
            "err_bad_cmd" => self.err_bad_cmd.next = (value & 1) != 0,
            "err_walk_fatal" => self.err_walk_fatal.next = (value & 1) != 0,
            "err_event_write_err" => self.err_event_write_err.next = (value & 1) != 0,
            "err_resume_stale" => self.err_resume_stale.next = (value & 1) != 0,
            "err_eq_cons_bad" => self.err_eq_cons_bad.next = (value & 1) != 0,
            "err_eq_size_bad" => self.err_eq_size_bad.next = (value & 1) != 0,
            "err_done_bad" => self.err_done_bad.next = (value & 1) != 0,
            "err_bad_cmd_op" => self.err_bad_cmd_op.next = (value & 0xFF).into(),
            "err_bad_cmd_code" => self.err_bad_cmd_code.next = (value & 0xFF).into(),
            "eq_prod" => self.eq_prod.next = (value & 0xFFFFFFFF).into(),
            "inv_issued" => self.inv_issued.next = (value & 0xFFFFFFFF).into(),
            "inv_done" => self.inv_done.next = (value & 0xFFFFFFFF).into(),
            "cmd_result_valid" => self.cmd_result_valid.next = (value & 1) != 0,
            "cmd_result_code" => self.cmd_result_code.next = (value & 0xFF).into(),
            "cmd_ready" => self.cmd_ready.next = (value & 1) != 0,
            "ctr_lookups_inc" => self.ctr_lookups_inc.next = (value & 1) != 0,
            "ctr_tlb_hits_inc" => self.ctr_tlb_hits_inc.next = (value & 1) != 0,
            "ctr_tlb_misses_inc" => self.ctr_tlb_misses_inc.next = (value & 1) != 0,
            "ctr_walks_inc" => self.ctr_walks_inc.next = (value & 1) != 0,
            "ctr_walk_reads_inc" => self.ctr_walk_reads_inc.next = (value & 1) != 0,
            "ctr_faults_inc" => self.ctr_faults_inc.next = (value & 1) != 0,
            "ctr_faults_coalesced_inc" => self.ctr_faults_coalesced_inc.next = (value & 1) != 0,
            "ctr_rnr_naks_fault_inc" => self.ctr_rnr_naks_fault_inc.next = (value & 1) != 0,
            "ctr_rnr_naks_suspended_inc" => self.ctr_rnr_naks_suspended_inc.next = (value & 1) != 0,
            "ctr_drops_inc" => self.ctr_drops_inc.next = (value & 1) != 0,
            "ctr_stalls_inc" => self.ctr_stalls_inc.next = (value & 1) != 0,
            "ctr_wakes_inc" => self.ctr_wakes_inc.next = (value & 1) != 0,
            "ctr_access_errors_inc" => self.ctr_access_errors_inc.next = (value & 1) != 0,
            "ctr_fatals_inc" => self.ctr_fatals_inc.next = (value & 1) != 0,
            "ctr_invalidations_inc" => self.ctr_invalidations_inc.next = (value & 1) != 0,
            "ctr_prefetches_inc" => self.ctr_prefetches_inc.next = (value & 1) != 0,
            "ctr_max_pending_faults_value" => self.ctr_max_pending_faults_value.next = (value & 0xFFFFFFFF).into(),
            "ctr_max_event_ring_value" => self.ctr_max_event_ring_value.next = (value & 0xFFFFFFFF).into(),
            "ctr_fault_service_sum_value" => self.ctr_fault_service_sum_value.next = (value & 0xFFFFFFFF).into(),
            "ctr_fault_service_sum_valid" => self.ctr_fault_service_sum_valid.next = (value & 1) != 0,
            "ctr_fault_service_max_value" => self.ctr_fault_service_max_value.next = (value & 0xFFFFFFFF).into(),
            "ctr_qps_stalled_now_value" => self.ctr_qps_stalled_now_value.next = (value & 0xFFFFFFFF).into(),
            _ => return false,
        }
        true
    }

    /// The current value of output `name` in simulation.
    pub fn output(&self, name: &str) -> Option<u64> {
        Some(match name {
            "s_axil_awready" => self.s_axil.awready.val() as u64,
            "s_axil_wready" => self.s_axil.wready.val() as u64,
            "s_axil_bresp" => self.s_axil.bresp.val().into(),
            "s_axil_bvalid" => self.s_axil.bvalid.val() as u64,
            "s_axil_arready" => self.s_axil.arready.val() as u64,
            "s_axil_rdata" => self.s_axil.rdata.val().into(),
            "s_axil_rresp" => self.s_axil.rresp.val().into(),
            "s_axil_rvalid" => self.s_axil.rvalid.val() as u64,
            "ctrl_irq_en" => self.ctrl_irq_en.val() as u64,
            "ctrl_adaptive_rnr" => self.ctrl_adaptive_rnr.val() as u64,
            "rnr_timer" => self.rnr_timer.val().into(),
            "pkey" => self.pkey.val().into(),
            "clocks_per_us" => self.clocks_per_us.val().into(),
            "prefetch_cap" => self.prefetch_cap.val().into(),
            "eq_base_lo" => self.eq_base_lo.val().into(),
            "eq_base_hi" => self.eq_base_hi.val().into(),
            "eq_log2_size" => self.eq_log2_size.val().into(),
            "eq_cons" => self.eq_cons.val().into(),
            "cmd_valid" => self.cmd_valid.val() as u64,
            "cmd_op" => self.cmd_op.val().into(),
            "cmd_tag" => self.cmd_tag.val().into(),
            "cmd_arg0" => self.cmd_arg0.val().into(),
            "cmd_arg1" => self.cmd_arg1.val().into(),
            "cmd_arg2" => self.cmd_arg2.val().into(),
            "cmd_arg3" => self.cmd_arg3.val().into(),
            "cmd_arg4" => self.cmd_arg4.val().into(),
            "cmd_arg5" => self.cmd_arg5.val().into(),
            "cmd_arg6" => self.cmd_arg6.val().into(),
            "cmd_arg7" => self.cmd_arg7.val().into(),
            "cmd_arg8" => self.cmd_arg8.val().into(),
            "cmd_arg9" => self.cmd_arg9.val().into(),
            "cmd_arg10" => self.cmd_arg10.val().into(),
            "cmd_arg11" => self.cmd_arg11.val().into(),
            _ => return None,
        })
    }
}

impl Logic for CsrRegs {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, aw_full, aw_ok, w_full, w_bits, w_mask, b_valid, b_resp, ar_full, ar_addr, r_valid, r_data, cmd_pending, cmd_op_q, cmd_tag_q, cmd_arg0_q, cmd_arg1_q, cmd_arg2_q, cmd_arg3_q, cmd_arg4_q, cmd_arg5_q, cmd_arg6_q, cmd_arg7_q, cmd_arg8_q, cmd_arg9_q, cmd_arg10_q, cmd_arg11_q, aw_sel_ctrl, aw_sel_error, aw_sel_rnr_timer, aw_sel_pkey, aw_sel_clocks_per_us, aw_sel_prefetch_cap, aw_sel_eq_base_lo, aw_sel_eq_base_hi, aw_sel_eq_log2_size, aw_sel_eq_cons, aw_sel_cmd_arg0, aw_sel_cmd_arg1, aw_sel_cmd_arg2, aw_sel_cmd_arg3, aw_sel_cmd_arg4, aw_sel_cmd_arg5, aw_sel_cmd_arg6, aw_sel_cmd_arg7, aw_sel_cmd_arg8, aw_sel_cmd_arg9, aw_sel_cmd_arg10, aw_sel_cmd_arg11, aw_sel_cmd_doorbell, aw_sel_counter_clear, r_ctrl, r_error, r_error_info, r_rnr_timer, r_pkey, r_clocks_per_us, r_prefetch_cap, r_eq_base_lo, r_eq_base_hi, r_eq_log2_size, r_eq_cons, r_cmd_arg0, r_cmd_arg1, r_cmd_arg2, r_cmd_arg3, r_cmd_arg4, r_cmd_arg5, r_cmd_arg6, r_cmd_arg7, r_cmd_arg8, r_cmd_arg9, r_cmd_arg10, r_cmd_arg11, r_cmd_status, c_lookups, i_lookups_inc, c_tlb_hits, i_tlb_hits_inc, c_tlb_misses, i_tlb_misses_inc, c_walks, i_walks_inc, c_walk_reads, i_walk_reads_inc, c_faults, i_faults_inc, c_faults_coalesced, i_faults_coalesced_inc, c_rnr_naks_fault, i_rnr_naks_fault_inc, c_rnr_naks_suspended, i_rnr_naks_suspended_inc, c_drops, i_drops_inc, c_stalls, i_stalls_inc, c_wakes, i_wakes_inc, c_access_errors, i_access_errors_inc, c_fatals, i_fatals_inc, c_invalidations, i_invalidations_inc, c_prefetches, i_prefetches_inc, c_max_pending_faults, i_max_pending_faults_value, c_max_event_ring, i_max_event_ring_value, c_fault_service_sum, i_fault_service_sum_value, i_fault_service_sum_valid, c_fault_service_max, i_fault_service_max_value, c_qps_stalled_now, i_qps_stalled_now_value, s1_g0, s1_g2, s1_g4, s1_g5, s1_full, s1_grp, shadow_hi, shadow_sel);

        // Write channels: address and data are each held in one register until both
        // are there and no response is pending; either may come first.
        self.s_axil.awready.next = !self.aw_full.q.val();
        self.s_axil.wready.next = !self.w_full.q.val();
        self.s_axil.bvalid.next = self.b_valid.q.val();
        self.s_axil.bresp.next = self.b_resp.q.val();
        self.aw_word.next = self.s_axil.awaddr.val().get_bits::<14>(2);
        if self.s_axil.awvalid.val() & (!self.aw_full.q.val()) {
            self.aw_full.d.next = true;
            self.aw_ok.d.next = (self.aw_word.val() == 8_u64) | (self.aw_word.val() == 10_u64) | (self.aw_word.val() == 16_u64) | (self.aw_word.val() == 17_u64) | (self.aw_word.val() == 18_u64) | (self.aw_word.val() == 19_u64) | (self.aw_word.val() == 20_u64) | (self.aw_word.val() == 21_u64) | (self.aw_word.val() == 22_u64) | (self.aw_word.val() == 23_u64) | (self.aw_word.val() == 64_u64) | (self.aw_word.val() == 65_u64) | (self.aw_word.val() == 66_u64) | (self.aw_word.val() == 67_u64) | (self.aw_word.val() == 68_u64) | (self.aw_word.val() == 69_u64) | (self.aw_word.val() == 70_u64) | (self.aw_word.val() == 71_u64) | (self.aw_word.val() == 72_u64) | (self.aw_word.val() == 73_u64) | (self.aw_word.val() == 74_u64) | (self.aw_word.val() == 75_u64) | (self.aw_word.val() == 124_u64);
            self.aw_sel_ctrl.d.next = self.aw_word.val() == 8_u64;
            self.aw_sel_error.d.next = self.aw_word.val() == 10_u64;
            self.aw_sel_rnr_timer.d.next = self.aw_word.val() == 16_u64;
            self.aw_sel_pkey.d.next = self.aw_word.val() == 17_u64;
            self.aw_sel_clocks_per_us.d.next = self.aw_word.val() == 18_u64;
            self.aw_sel_prefetch_cap.d.next = self.aw_word.val() == 19_u64;
            self.aw_sel_eq_base_lo.d.next = self.aw_word.val() == 20_u64;
            self.aw_sel_eq_base_hi.d.next = self.aw_word.val() == 21_u64;
            self.aw_sel_eq_log2_size.d.next = self.aw_word.val() == 22_u64;
            self.aw_sel_eq_cons.d.next = self.aw_word.val() == 23_u64;
            self.aw_sel_cmd_arg0.d.next = self.aw_word.val() == 64_u64;
            self.aw_sel_cmd_arg1.d.next = self.aw_word.val() == 65_u64;
            self.aw_sel_cmd_arg2.d.next = self.aw_word.val() == 66_u64;
            self.aw_sel_cmd_arg3.d.next = self.aw_word.val() == 67_u64;
            self.aw_sel_cmd_arg4.d.next = self.aw_word.val() == 68_u64;
            self.aw_sel_cmd_arg5.d.next = self.aw_word.val() == 69_u64;
            self.aw_sel_cmd_arg6.d.next = self.aw_word.val() == 70_u64;
            self.aw_sel_cmd_arg7.d.next = self.aw_word.val() == 71_u64;
            self.aw_sel_cmd_arg8.d.next = self.aw_word.val() == 72_u64;
            self.aw_sel_cmd_arg9.d.next = self.aw_word.val() == 73_u64;
            self.aw_sel_cmd_arg10.d.next = self.aw_word.val() == 74_u64;
            self.aw_sel_cmd_arg11.d.next = self.aw_word.val() == 75_u64;
            self.aw_sel_cmd_doorbell.d.next = self.aw_word.val() == 80_u64;
            self.aw_sel_counter_clear.d.next = self.aw_word.val() == 124_u64;
        }
        self.wstrb_mask.next = 0.into();
        if self.s_axil.wstrb.val().get_bit(0) {
            self.wstrb_mask.next = self.wstrb_mask.val() | 0xFF_u64;
        }
        if self.s_axil.wstrb.val().get_bit(1) {
            self.wstrb_mask.next = self.wstrb_mask.val() | 0xFF00_u64;
        }
        if self.s_axil.wstrb.val().get_bit(2) {
            self.wstrb_mask.next = self.wstrb_mask.val() | 0xFF_0000_u64;
        }
        if self.s_axil.wstrb.val().get_bit(3) {
            self.wstrb_mask.next = self.wstrb_mask.val() | 0xFF00_0000_u64;
        }
        if self.s_axil.wvalid.val() & (!self.w_full.q.val()) {
            self.w_full.d.next = true;
            self.w_bits.d.next = self.s_axil.wdata.val() & self.wstrb_mask.val();
            self.w_mask.d.next = self.wstrb_mask.val();
        }
        if self.s_axil.bready.val() {
            self.b_valid.d.next = false;
        }
        self.wr_go.next = self.aw_full.q.val() & self.w_full.q.val() & (!self.b_valid.q.val());
        self.wr_ok.next = false;
        self.db_accept.next = false;
        self.db_reject.next = false;
        self.clear_go.next = false;

        // Read channels: the address is held one clock, then the registered read mux
        // fills the read data register.
        self.s_axil.arready.next = !self.ar_full.q.val();
        self.s_axil.rvalid.next = self.r_valid.q.val();
        self.s_axil.rdata.next = self.r_data.q.val();
        self.s_axil.rresp.next = 0.into();
        if self.s_axil.arvalid.val() & (!self.ar_full.q.val()) {
            self.ar_full.d.next = true;
            self.ar_addr.d.next = self.s_axil.araddr.val().get_bits::<14>(2);
        }
        if self.s_axil.rready.val() {
            self.r_valid.d.next = false;
        }
        self.rd_go.next = self.ar_full.q.val() & (!self.s1_full.q.val()) & (!self.r_valid.q.val());

        // Next values of the stored registers start from their current values.
        self.n_ctrl.next = self.r_ctrl.q.val();
        self.n_error.next = self.r_error.q.val();
        self.n_error_info.next = self.r_error_info.q.val();
        self.n_rnr_timer.next = self.r_rnr_timer.q.val();
        self.n_pkey.next = self.r_pkey.q.val();
        self.n_clocks_per_us.next = self.r_clocks_per_us.q.val();
        self.n_prefetch_cap.next = self.r_prefetch_cap.q.val();
        self.n_eq_base_lo.next = self.r_eq_base_lo.q.val();
        self.n_eq_base_hi.next = self.r_eq_base_hi.q.val();
        self.n_eq_log2_size.next = self.r_eq_log2_size.q.val();
        self.n_eq_cons.next = self.r_eq_cons.q.val();
        self.n_cmd_arg0.next = self.r_cmd_arg0.q.val();
        self.n_cmd_arg1.next = self.r_cmd_arg1.q.val();
        self.n_cmd_arg2.next = self.r_cmd_arg2.q.val();
        self.n_cmd_arg3.next = self.r_cmd_arg3.q.val();
        self.n_cmd_arg4.next = self.r_cmd_arg4.q.val();
        self.n_cmd_arg5.next = self.r_cmd_arg5.q.val();
        self.n_cmd_arg6.next = self.r_cmd_arg6.q.val();
        self.n_cmd_arg7.next = self.r_cmd_arg7.q.val();
        self.n_cmd_arg8.next = self.r_cmd_arg8.q.val();
        self.n_cmd_arg9.next = self.r_cmd_arg9.q.val();
        self.n_cmd_arg10.next = self.r_cmd_arg10.q.val();
        self.n_cmd_arg11.next = self.r_cmd_arg11.q.val();
        self.n_cmd_status.next = self.r_cmd_status.q.val();

        // Write decode: one select flip-flop per writable register, set when
        // the address is taken, so no address compare sits on a write path.
        self.wr_ok.next = self.aw_ok.q.val() | (self.aw_sel_cmd_doorbell.q.val() & (!self.cmd_pending.q.val()));
        if self.aw_sel_ctrl.q.val() & self.wr_go.val() {
            // CTRL (rw)
            self.n_ctrl.next = (self.r_ctrl.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0x3_u64);
        }
        if self.aw_sel_error.q.val() & self.wr_go.val() {
            // ERROR (rw1c)
            self.n_error.next = self.r_error.q.val() & (!(self.w_bits.q.val() & 0xFF_u64));
        }
        if self.aw_sel_rnr_timer.q.val() & self.wr_go.val() {
            // RNR_TIMER (rw)
            self.n_rnr_timer.next = (self.r_rnr_timer.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0x1F_u64);
        }
        if self.aw_sel_pkey.q.val() & self.wr_go.val() {
            // PKEY (rw)
            self.n_pkey.next = (self.r_pkey.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFF_u64);
        }
        if self.aw_sel_clocks_per_us.q.val() & self.wr_go.val() {
            // CLOCKS_PER_US (rw)
            self.n_clocks_per_us.next = (self.r_clocks_per_us.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFF_u64);
        }
        if self.aw_sel_prefetch_cap.q.val() & self.wr_go.val() {
            // PREFETCH_CAP (rw)
            self.n_prefetch_cap.next = (self.r_prefetch_cap.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_eq_base_lo.q.val() & self.wr_go.val() {
            // EQ_BASE_LO (rw)
            self.n_eq_base_lo.next = (self.r_eq_base_lo.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_eq_base_hi.q.val() & self.wr_go.val() {
            // EQ_BASE_HI (rw)
            self.n_eq_base_hi.next = (self.r_eq_base_hi.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_eq_log2_size.q.val() & self.wr_go.val() {
            // EQ_LOG2_SIZE (rw)
            self.n_eq_log2_size.next = (self.r_eq_log2_size.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0x1F_u64);
        }
        if self.aw_sel_eq_cons.q.val() & self.wr_go.val() {
            // EQ_CONS (rw)
            self.n_eq_cons.next = (self.r_eq_cons.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_arg0.q.val() & self.wr_go.val() {
            // CMD_ARG0 (rw)
            self.n_cmd_arg0.next = (self.r_cmd_arg0.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_arg1.q.val() & self.wr_go.val() {
            // CMD_ARG1 (rw)
            self.n_cmd_arg1.next = (self.r_cmd_arg1.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_arg2.q.val() & self.wr_go.val() {
            // CMD_ARG2 (rw)
            self.n_cmd_arg2.next = (self.r_cmd_arg2.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_arg3.q.val() & self.wr_go.val() {
            // CMD_ARG3 (rw)
            self.n_cmd_arg3.next = (self.r_cmd_arg3.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_arg4.q.val() & self.wr_go.val() {
            // CMD_ARG4 (rw)
            self.n_cmd_arg4.next = (self.r_cmd_arg4.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_arg5.q.val() & self.wr_go.val() {
            // CMD_ARG5 (rw)
            self.n_cmd_arg5.next = (self.r_cmd_arg5.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_arg6.q.val() & self.wr_go.val() {
            // CMD_ARG6 (rw)
            self.n_cmd_arg6.next = (self.r_cmd_arg6.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_arg7.q.val() & self.wr_go.val() {
            // CMD_ARG7 (rw)
            self.n_cmd_arg7.next = (self.r_cmd_arg7.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_arg8.q.val() & self.wr_go.val() {
            // CMD_ARG8 (rw)
            self.n_cmd_arg8.next = (self.r_cmd_arg8.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_arg9.q.val() & self.wr_go.val() {
            // CMD_ARG9 (rw)
            self.n_cmd_arg9.next = (self.r_cmd_arg9.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_arg10.q.val() & self.wr_go.val() {
            // CMD_ARG10 (rw)
            self.n_cmd_arg10.next = (self.r_cmd_arg10.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_arg11.q.val() & self.wr_go.val() {
            // CMD_ARG11 (rw)
            self.n_cmd_arg11.next = (self.r_cmd_arg11.q.val() & (!self.w_mask.q.val())) | (self.w_bits.q.val() & 0xFFFFFFFF_u64);
        }
        if self.aw_sel_cmd_doorbell.q.val() & self.wr_go.val() {
            // CMD_DOORBELL: refused (SLVERR) while a command is held; rings
            // when the op byte is written.
            if self.cmd_pending.q.val() {
                self.db_reject.next = true;
            } else if self.w_mask.q.val().get_bit(0) {
                self.db_accept.next = true;
            }
        }
        if self.aw_sel_counter_clear.q.val() & self.wr_go.val() {
            // COUNTER_CLEAR
            if self.w_bits.q.val().get_bit(0) {
                self.clear_go.next = true;
            }
        }
        if self.wr_go.val() {
            self.aw_full.d.next = false;
            self.w_full.d.next = false;
            self.b_valid.d.next = true;
            if self.wr_ok.val() {
                self.b_resp.d.next = 0.into();
            } else {
                self.b_resp.d.next = 2.into();
            }
        }

        // Hardware sets and captures (a set wins over a clear in the same clock).
        if self.err_bad_cmd.val() {
            self.n_error.next = self.n_error.val() | 0x1_u64;
        }
        if self.db_reject.val() {
            self.n_error.next = self.n_error.val() | 0x2_u64;
        }
        if self.err_walk_fatal.val() {
            self.n_error.next = self.n_error.val() | 0x4_u64;
        }
        if self.err_event_write_err.val() {
            self.n_error.next = self.n_error.val() | 0x8_u64;
        }
        if self.err_resume_stale.val() {
            self.n_error.next = self.n_error.val() | 0x10_u64;
        }
        if self.err_eq_cons_bad.val() {
            self.n_error.next = self.n_error.val() | 0x20_u64;
        }
        if self.err_eq_size_bad.val() {
            self.n_error.next = self.n_error.val() | 0x40_u64;
        }
        if self.err_done_bad.val() {
            self.n_error.next = self.n_error.val() | 0x80_u64;
        }
        if self.err_bad_cmd.val() {
            self.n_error_info.next = (self.n_error_info.val() & 0xFFFFFF00_u64) | bit_cast::<32, 8>(self.err_bad_cmd_op.val());
        }
        if self.err_bad_cmd.val() {
            self.n_error_info.next = (self.n_error_info.val() & 0xFFFF00FF_u64) | (bit_cast::<32, 8>(self.err_bad_cmd_code.val()) << 8_u64);
        }
        if self.cmd_result_valid.val() {
            self.n_cmd_status.next = (self.n_cmd_status.val() & 0xFF00FFFF_u64) | (bit_cast::<32, 8>(self.cmd_result_code.val()) << 16_u64);
        }

        // The command interface: a doorbell copies op, tag and every argument into
        // the held command, which stays until the core takes it.
        if self.db_accept.val() {
            self.n_cmd_status.next = (self.n_cmd_status.val() & 0xFFFF00F9_u64) | 0x2_u64 | (bit_cast::<32, 8>(self.w_bits.q.val().get_bits::<8>(0)) << 8_u64);
        }
        if self.db_reject.val() {
            self.n_cmd_status.next = (self.n_cmd_status.val() & 0xFFFFFFF9_u64) | 0x4_u64;
        }
        if self.cmd_pending.q.val() & self.cmd_ready.val() {
            self.cmd_pending.d.next = false;
        }
        if self.db_accept.val() {
            self.cmd_pending.d.next = true;
            self.cmd_op_q.d.next = self.w_bits.q.val().get_bits::<8>(0);
            self.cmd_tag_q.d.next = self.w_bits.q.val().get_bits::<8>(8);
            self.cmd_arg0_q.d.next = self.r_cmd_arg0.q.val();
            self.cmd_arg1_q.d.next = self.r_cmd_arg1.q.val();
            self.cmd_arg2_q.d.next = self.r_cmd_arg2.q.val();
            self.cmd_arg3_q.d.next = self.r_cmd_arg3.q.val();
            self.cmd_arg4_q.d.next = self.r_cmd_arg4.q.val();
            self.cmd_arg5_q.d.next = self.r_cmd_arg5.q.val();
            self.cmd_arg6_q.d.next = self.r_cmd_arg6.q.val();
            self.cmd_arg7_q.d.next = self.r_cmd_arg7.q.val();
            self.cmd_arg8_q.d.next = self.r_cmd_arg8.q.val();
            self.cmd_arg9_q.d.next = self.r_cmd_arg9.q.val();
            self.cmd_arg10_q.d.next = self.r_cmd_arg10.q.val();
            self.cmd_arg11_q.d.next = self.r_cmd_arg11.q.val();
        }
        self.cmd_valid.next = self.cmd_pending.q.val();
        self.cmd_op.next = self.cmd_op_q.q.val();
        self.cmd_tag.next = self.cmd_tag_q.q.val();
        self.cmd_arg0.next = self.cmd_arg0_q.q.val();
        self.cmd_arg1.next = self.cmd_arg1_q.q.val();
        self.cmd_arg2.next = self.cmd_arg2_q.q.val();
        self.cmd_arg3.next = self.cmd_arg3_q.q.val();
        self.cmd_arg4.next = self.cmd_arg4_q.q.val();
        self.cmd_arg5.next = self.cmd_arg5_q.q.val();
        self.cmd_arg6.next = self.cmd_arg6_q.q.val();
        self.cmd_arg7.next = self.cmd_arg7_q.q.val();
        self.cmd_arg8.next = self.cmd_arg8_q.q.val();
        self.cmd_arg9.next = self.cmd_arg9_q.q.val();
        self.cmd_arg10.next = self.cmd_arg10_q.q.val();
        self.cmd_arg11.next = self.cmd_arg11_q.q.val();

        self.r_ctrl.d.next = self.n_ctrl.val();
        self.r_error.d.next = self.n_error.val();
        self.r_error_info.d.next = self.n_error_info.val();
        self.r_rnr_timer.d.next = self.n_rnr_timer.val();
        self.r_pkey.d.next = self.n_pkey.val();
        self.r_clocks_per_us.d.next = self.n_clocks_per_us.val();
        self.r_prefetch_cap.d.next = self.n_prefetch_cap.val();
        self.r_eq_base_lo.d.next = self.n_eq_base_lo.val();
        self.r_eq_base_hi.d.next = self.n_eq_base_hi.val();
        self.r_eq_log2_size.d.next = self.n_eq_log2_size.val();
        self.r_eq_cons.d.next = self.n_eq_cons.val();
        self.r_cmd_arg0.d.next = self.n_cmd_arg0.val();
        self.r_cmd_arg1.d.next = self.n_cmd_arg1.val();
        self.r_cmd_arg2.d.next = self.n_cmd_arg2.val();
        self.r_cmd_arg3.d.next = self.n_cmd_arg3.val();
        self.r_cmd_arg4.d.next = self.n_cmd_arg4.val();
        self.r_cmd_arg5.d.next = self.n_cmd_arg5.val();
        self.r_cmd_arg6.d.next = self.n_cmd_arg6.val();
        self.r_cmd_arg7.d.next = self.n_cmd_arg7.val();
        self.r_cmd_arg8.d.next = self.n_cmd_arg8.val();
        self.r_cmd_arg9.d.next = self.n_cmd_arg9.val();
        self.r_cmd_arg10.d.next = self.n_cmd_arg10.val();
        self.r_cmd_arg11.d.next = self.n_cmd_arg11.val();
        self.r_cmd_status.d.next = self.n_cmd_status.val();

        // Settings.
        self.ctrl_irq_en.next = self.r_ctrl.q.val().get_bit(0);
        self.ctrl_adaptive_rnr.next = self.r_ctrl.q.val().get_bit(1);
        self.rnr_timer.next = self.r_rnr_timer.q.val().get_bits::<5>(0);
        self.pkey.next = self.r_pkey.q.val().get_bits::<16>(0);
        self.clocks_per_us.next = self.r_clocks_per_us.q.val().get_bits::<16>(0);
        self.prefetch_cap.next = self.r_prefetch_cap.q.val();
        self.eq_base_lo.next = self.r_eq_base_lo.q.val();
        self.eq_base_hi.next = self.r_eq_base_hi.q.val();
        self.eq_log2_size.next = self.r_eq_log2_size.q.val().get_bits::<5>(0);
        self.eq_cons.next = self.r_eq_cons.q.val();

        // Counters: inputs are registered, then counted; a clear wins over an
        // event in the same clock.
        self.i_lookups_inc.d.next = self.ctr_lookups_inc.val();
        if self.i_lookups_inc.q.val() {
            self.c_lookups.d.next = self.c_lookups.q.val() + 1_u64;
        }
        self.i_tlb_hits_inc.d.next = self.ctr_tlb_hits_inc.val();
        if self.i_tlb_hits_inc.q.val() {
            self.c_tlb_hits.d.next = self.c_tlb_hits.q.val() + 1_u64;
        }
        self.i_tlb_misses_inc.d.next = self.ctr_tlb_misses_inc.val();
        if self.i_tlb_misses_inc.q.val() {
            self.c_tlb_misses.d.next = self.c_tlb_misses.q.val() + 1_u64;
        }
        self.i_walks_inc.d.next = self.ctr_walks_inc.val();
        if self.i_walks_inc.q.val() {
            self.c_walks.d.next = self.c_walks.q.val() + 1_u64;
        }
        self.i_walk_reads_inc.d.next = self.ctr_walk_reads_inc.val();
        if self.i_walk_reads_inc.q.val() {
            self.c_walk_reads.d.next = self.c_walk_reads.q.val() + 1_u64;
        }
        self.i_faults_inc.d.next = self.ctr_faults_inc.val();
        if self.i_faults_inc.q.val() {
            self.c_faults.d.next = self.c_faults.q.val() + 1_u64;
        }
        self.i_faults_coalesced_inc.d.next = self.ctr_faults_coalesced_inc.val();
        if self.i_faults_coalesced_inc.q.val() {
            self.c_faults_coalesced.d.next = self.c_faults_coalesced.q.val() + 1_u64;
        }
        self.i_rnr_naks_fault_inc.d.next = self.ctr_rnr_naks_fault_inc.val();
        if self.i_rnr_naks_fault_inc.q.val() {
            self.c_rnr_naks_fault.d.next = self.c_rnr_naks_fault.q.val() + 1_u64;
        }
        self.i_rnr_naks_suspended_inc.d.next = self.ctr_rnr_naks_suspended_inc.val();
        if self.i_rnr_naks_suspended_inc.q.val() {
            self.c_rnr_naks_suspended.d.next = self.c_rnr_naks_suspended.q.val() + 1_u64;
        }
        self.i_drops_inc.d.next = self.ctr_drops_inc.val();
        if self.i_drops_inc.q.val() {
            self.c_drops.d.next = self.c_drops.q.val() + 1_u64;
        }
        self.i_stalls_inc.d.next = self.ctr_stalls_inc.val();
        if self.i_stalls_inc.q.val() {
            self.c_stalls.d.next = self.c_stalls.q.val() + 1_u64;
        }
        self.i_wakes_inc.d.next = self.ctr_wakes_inc.val();
        if self.i_wakes_inc.q.val() {
            self.c_wakes.d.next = self.c_wakes.q.val() + 1_u64;
        }
        self.i_access_errors_inc.d.next = self.ctr_access_errors_inc.val();
        if self.i_access_errors_inc.q.val() {
            self.c_access_errors.d.next = self.c_access_errors.q.val() + 1_u64;
        }
        self.i_fatals_inc.d.next = self.ctr_fatals_inc.val();
        if self.i_fatals_inc.q.val() {
            self.c_fatals.d.next = self.c_fatals.q.val() + 1_u64;
        }
        self.i_invalidations_inc.d.next = self.ctr_invalidations_inc.val();
        if self.i_invalidations_inc.q.val() {
            self.c_invalidations.d.next = self.c_invalidations.q.val() + 1_u64;
        }
        self.i_prefetches_inc.d.next = self.ctr_prefetches_inc.val();
        if self.i_prefetches_inc.q.val() {
            self.c_prefetches.d.next = self.c_prefetches.q.val() + 1_u64;
        }
        self.i_max_pending_faults_value.d.next = self.ctr_max_pending_faults_value.val();
        self.wide_max_pending_faults.next = bit_cast::<64, 32>(self.i_max_pending_faults_value.q.val());
        if self.wide_max_pending_faults.val() > self.c_max_pending_faults.q.val() {
            self.c_max_pending_faults.d.next = self.wide_max_pending_faults.val();
        }
        self.i_max_event_ring_value.d.next = self.ctr_max_event_ring_value.val();
        self.wide_max_event_ring.next = bit_cast::<64, 32>(self.i_max_event_ring_value.q.val());
        if self.wide_max_event_ring.val() > self.c_max_event_ring.q.val() {
            self.c_max_event_ring.d.next = self.wide_max_event_ring.val();
        }
        self.i_fault_service_sum_value.d.next = self.ctr_fault_service_sum_value.val();
        self.i_fault_service_sum_valid.d.next = self.ctr_fault_service_sum_valid.val();
        self.wide_fault_service_sum.next = bit_cast::<64, 32>(self.i_fault_service_sum_value.q.val());
        if self.i_fault_service_sum_valid.q.val() {
            self.c_fault_service_sum.d.next = self.c_fault_service_sum.q.val() + self.wide_fault_service_sum.val();
        }
        self.i_fault_service_max_value.d.next = self.ctr_fault_service_max_value.val();
        self.wide_fault_service_max.next = bit_cast::<64, 32>(self.i_fault_service_max_value.q.val());
        if self.wide_fault_service_max.val() > self.c_fault_service_max.q.val() {
            self.c_fault_service_max.d.next = self.wide_fault_service_max.val();
        }
        self.i_qps_stalled_now_value.d.next = self.ctr_qps_stalled_now_value.val();
        self.c_qps_stalled_now.d.next = bit_cast::<64, 32>(self.i_qps_stalled_now_value.q.val());
        if self.clear_go.val() {
            self.c_lookups.d.next = 0.into();
            self.c_tlb_hits.d.next = 0.into();
            self.c_tlb_misses.d.next = 0.into();
            self.c_walks.d.next = 0.into();
            self.c_walk_reads.d.next = 0.into();
            self.c_faults.d.next = 0.into();
            self.c_faults_coalesced.d.next = 0.into();
            self.c_rnr_naks_fault.d.next = 0.into();
            self.c_rnr_naks_suspended.d.next = 0.into();
            self.c_drops.d.next = 0.into();
            self.c_stalls.d.next = 0.into();
            self.c_wakes.d.next = 0.into();
            self.c_access_errors.d.next = 0.into();
            self.c_fatals.d.next = 0.into();
            self.c_invalidations.d.next = 0.into();
            self.c_prefetches.d.next = 0.into();
            self.c_max_pending_faults.d.next = 0.into();
            self.c_max_event_ring.d.next = 0.into();
            self.c_fault_service_sum.d.next = 0.into();
            self.c_fault_service_max.d.next = 0.into();
        }

        // Read values of the registers.
        self.v_id.next = 0x4F44504D_u64.into();
        self.v_version.next = 0x10000_u64.into();
        self.v_cap_mrs.next = self.cap_mrs.val();
        self.v_cap_qps.next = self.cap_qps.val();
        self.v_cap_tlb.next = self.cap_tlb.val();
        self.v_cap_queues.next = self.cap_queues.val();
        self.v_ctrl.next = self.r_ctrl.q.val();
        self.v_status.next = 0x0_u64.into();
        if self.st_ready.val() {
            self.v_status.next = self.v_status.val() | 0x1_u64;
        }
        if self.cmd_pending.q.val() {
            self.v_status.next = self.v_status.val() | 0x2_u64;
        }
        self.v_error.next = self.r_error.q.val();
        self.v_error_info.next = self.r_error_info.q.val();
        self.v_rnr_timer.next = self.r_rnr_timer.q.val();
        self.v_pkey.next = self.r_pkey.q.val();
        self.v_clocks_per_us.next = self.r_clocks_per_us.q.val();
        self.v_prefetch_cap.next = self.r_prefetch_cap.q.val();
        self.v_eq_base_lo.next = self.r_eq_base_lo.q.val();
        self.v_eq_base_hi.next = self.r_eq_base_hi.q.val();
        self.v_eq_log2_size.next = self.r_eq_log2_size.q.val();
        self.v_eq_cons.next = self.r_eq_cons.q.val();
        self.v_eq_prod.next = 0x0_u64.into();
        self.v_eq_prod.next = self.v_eq_prod.val() | self.eq_prod.val();
        self.v_inv_issued.next = 0x0_u64.into();
        self.v_inv_issued.next = self.v_inv_issued.val() | self.inv_issued.val();
        self.v_inv_done.next = 0x0_u64.into();
        self.v_inv_done.next = self.v_inv_done.val() | self.inv_done.val();
        self.v_cmd_arg0.next = self.r_cmd_arg0.q.val();
        self.v_cmd_arg1.next = self.r_cmd_arg1.q.val();
        self.v_cmd_arg2.next = self.r_cmd_arg2.q.val();
        self.v_cmd_arg3.next = self.r_cmd_arg3.q.val();
        self.v_cmd_arg4.next = self.r_cmd_arg4.q.val();
        self.v_cmd_arg5.next = self.r_cmd_arg5.q.val();
        self.v_cmd_arg6.next = self.r_cmd_arg6.q.val();
        self.v_cmd_arg7.next = self.r_cmd_arg7.q.val();
        self.v_cmd_arg8.next = self.r_cmd_arg8.q.val();
        self.v_cmd_arg9.next = self.r_cmd_arg9.q.val();
        self.v_cmd_arg10.next = self.r_cmd_arg10.q.val();
        self.v_cmd_arg11.next = self.r_cmd_arg11.q.val();
        self.v_cmd_status.next = self.r_cmd_status.q.val();
        if self.cmd_pending.q.val() {
            self.v_cmd_status.next = self.v_cmd_status.val() | 0x1_u64;
        }

        // Read mux, stage 1 (the clock after the address is taken): one mux per
        // group of 32 words on the low five address bits. Reading a counter's low
        // word latches its high word into the shadow, which its high-word read
        // returns.
        self.sh_load.next = false;
        self.sh_val.next = 0.into();
        self.sh_sel.next = 0.into();
        self.rd_g0.next = 0.into();
        match self.ar_addr.q.val().get_bits::<5>(0).index() {
            0 => {
                // ID
                self.rd_g0.next = self.v_id.val();
            }
            1 => {
                // VERSION
                self.rd_g0.next = self.v_version.val();
            }
            2 => {
                // CAP_MRS
                self.rd_g0.next = self.v_cap_mrs.val();
            }
            3 => {
                // CAP_QPS
                self.rd_g0.next = self.v_cap_qps.val();
            }
            4 => {
                // CAP_TLB
                self.rd_g0.next = self.v_cap_tlb.val();
            }
            5 => {
                // CAP_QUEUES
                self.rd_g0.next = self.v_cap_queues.val();
            }
            8 => {
                // CTRL
                self.rd_g0.next = self.v_ctrl.val();
            }
            9 => {
                // STATUS
                self.rd_g0.next = self.v_status.val();
            }
            10 => {
                // ERROR
                self.rd_g0.next = self.v_error.val();
            }
            11 => {
                // ERROR_INFO
                self.rd_g0.next = self.v_error_info.val();
            }
            16 => {
                // RNR_TIMER
                self.rd_g0.next = self.v_rnr_timer.val();
            }
            17 => {
                // PKEY
                self.rd_g0.next = self.v_pkey.val();
            }
            18 => {
                // CLOCKS_PER_US
                self.rd_g0.next = self.v_clocks_per_us.val();
            }
            19 => {
                // PREFETCH_CAP
                self.rd_g0.next = self.v_prefetch_cap.val();
            }
            20 => {
                // EQ_BASE_LO
                self.rd_g0.next = self.v_eq_base_lo.val();
            }
            21 => {
                // EQ_BASE_HI
                self.rd_g0.next = self.v_eq_base_hi.val();
            }
            22 => {
                // EQ_LOG2_SIZE
                self.rd_g0.next = self.v_eq_log2_size.val();
            }
            23 => {
                // EQ_CONS
                self.rd_g0.next = self.v_eq_cons.val();
            }
            24 => {
                // EQ_PROD
                self.rd_g0.next = self.v_eq_prod.val();
            }
            25 => {
                // INV_ISSUED
                self.rd_g0.next = self.v_inv_issued.val();
            }
            26 => {
                // INV_DONE
                self.rd_g0.next = self.v_inv_done.val();
            }
            _ => {}
        }
        self.rd_g2.next = 0.into();
        match self.ar_addr.q.val().get_bits::<5>(0).index() {
            0 => {
                // CMD_ARG0
                self.rd_g2.next = self.v_cmd_arg0.val();
            }
            1 => {
                // CMD_ARG1
                self.rd_g2.next = self.v_cmd_arg1.val();
            }
            2 => {
                // CMD_ARG2
                self.rd_g2.next = self.v_cmd_arg2.val();
            }
            3 => {
                // CMD_ARG3
                self.rd_g2.next = self.v_cmd_arg3.val();
            }
            4 => {
                // CMD_ARG4
                self.rd_g2.next = self.v_cmd_arg4.val();
            }
            5 => {
                // CMD_ARG5
                self.rd_g2.next = self.v_cmd_arg5.val();
            }
            6 => {
                // CMD_ARG6
                self.rd_g2.next = self.v_cmd_arg6.val();
            }
            7 => {
                // CMD_ARG7
                self.rd_g2.next = self.v_cmd_arg7.val();
            }
            8 => {
                // CMD_ARG8
                self.rd_g2.next = self.v_cmd_arg8.val();
            }
            9 => {
                // CMD_ARG9
                self.rd_g2.next = self.v_cmd_arg9.val();
            }
            10 => {
                // CMD_ARG10
                self.rd_g2.next = self.v_cmd_arg10.val();
            }
            11 => {
                // CMD_ARG11
                self.rd_g2.next = self.v_cmd_arg11.val();
            }
            17 => {
                // CMD_STATUS
                self.rd_g2.next = self.v_cmd_status.val();
            }
            _ => {}
        }
        self.rd_g4.next = 0.into();
        match self.ar_addr.q.val().get_bits::<5>(0).index() {
            0 => {
                // LOOKUPS_LO
                self.rd_g4.next = self.c_lookups.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_lookups.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 0_u64.into();
                }
            }
            1 => {
                // LOOKUPS_HI
                if self.shadow_sel.q.val() == 0_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_lookups.q.val().get_bits::<32>(32);
                }
            }
            2 => {
                // TLB_HITS_LO
                self.rd_g4.next = self.c_tlb_hits.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_tlb_hits.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 1_u64.into();
                }
            }
            3 => {
                // TLB_HITS_HI
                if self.shadow_sel.q.val() == 1_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_tlb_hits.q.val().get_bits::<32>(32);
                }
            }
            4 => {
                // TLB_MISSES_LO
                self.rd_g4.next = self.c_tlb_misses.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_tlb_misses.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 2_u64.into();
                }
            }
            5 => {
                // TLB_MISSES_HI
                if self.shadow_sel.q.val() == 2_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_tlb_misses.q.val().get_bits::<32>(32);
                }
            }
            6 => {
                // WALKS_LO
                self.rd_g4.next = self.c_walks.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_walks.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 3_u64.into();
                }
            }
            7 => {
                // WALKS_HI
                if self.shadow_sel.q.val() == 3_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_walks.q.val().get_bits::<32>(32);
                }
            }
            8 => {
                // WALK_READS_LO
                self.rd_g4.next = self.c_walk_reads.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_walk_reads.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 4_u64.into();
                }
            }
            9 => {
                // WALK_READS_HI
                if self.shadow_sel.q.val() == 4_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_walk_reads.q.val().get_bits::<32>(32);
                }
            }
            10 => {
                // FAULTS_LO
                self.rd_g4.next = self.c_faults.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_faults.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 5_u64.into();
                }
            }
            11 => {
                // FAULTS_HI
                if self.shadow_sel.q.val() == 5_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_faults.q.val().get_bits::<32>(32);
                }
            }
            12 => {
                // FAULTS_COALESCED_LO
                self.rd_g4.next = self.c_faults_coalesced.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_faults_coalesced.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 6_u64.into();
                }
            }
            13 => {
                // FAULTS_COALESCED_HI
                if self.shadow_sel.q.val() == 6_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_faults_coalesced.q.val().get_bits::<32>(32);
                }
            }
            14 => {
                // RNR_NAKS_FAULT_LO
                self.rd_g4.next = self.c_rnr_naks_fault.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_rnr_naks_fault.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 7_u64.into();
                }
            }
            15 => {
                // RNR_NAKS_FAULT_HI
                if self.shadow_sel.q.val() == 7_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_rnr_naks_fault.q.val().get_bits::<32>(32);
                }
            }
            16 => {
                // RNR_NAKS_SUSPENDED_LO
                self.rd_g4.next = self.c_rnr_naks_suspended.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_rnr_naks_suspended.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 8_u64.into();
                }
            }
            17 => {
                // RNR_NAKS_SUSPENDED_HI
                if self.shadow_sel.q.val() == 8_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_rnr_naks_suspended.q.val().get_bits::<32>(32);
                }
            }
            18 => {
                // DROPS_LO
                self.rd_g4.next = self.c_drops.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_drops.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 9_u64.into();
                }
            }
            19 => {
                // DROPS_HI
                if self.shadow_sel.q.val() == 9_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_drops.q.val().get_bits::<32>(32);
                }
            }
            20 => {
                // STALLS_LO
                self.rd_g4.next = self.c_stalls.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_stalls.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 10_u64.into();
                }
            }
            21 => {
                // STALLS_HI
                if self.shadow_sel.q.val() == 10_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_stalls.q.val().get_bits::<32>(32);
                }
            }
            22 => {
                // WAKES_LO
                self.rd_g4.next = self.c_wakes.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_wakes.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 11_u64.into();
                }
            }
            23 => {
                // WAKES_HI
                if self.shadow_sel.q.val() == 11_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_wakes.q.val().get_bits::<32>(32);
                }
            }
            24 => {
                // ACCESS_ERRORS_LO
                self.rd_g4.next = self.c_access_errors.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_access_errors.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 12_u64.into();
                }
            }
            25 => {
                // ACCESS_ERRORS_HI
                if self.shadow_sel.q.val() == 12_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_access_errors.q.val().get_bits::<32>(32);
                }
            }
            26 => {
                // FATALS_LO
                self.rd_g4.next = self.c_fatals.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_fatals.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 13_u64.into();
                }
            }
            27 => {
                // FATALS_HI
                if self.shadow_sel.q.val() == 13_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_fatals.q.val().get_bits::<32>(32);
                }
            }
            28 => {
                // INVALIDATIONS_LO
                self.rd_g4.next = self.c_invalidations.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_invalidations.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 14_u64.into();
                }
            }
            29 => {
                // INVALIDATIONS_HI
                if self.shadow_sel.q.val() == 14_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_invalidations.q.val().get_bits::<32>(32);
                }
            }
            30 => {
                // PREFETCHES_LO
                self.rd_g4.next = self.c_prefetches.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 4_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_prefetches.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 15_u64.into();
                }
            }
            31 => {
                // PREFETCHES_HI
                if self.shadow_sel.q.val() == 15_u64 {
                    self.rd_g4.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g4.next = self.c_prefetches.q.val().get_bits::<32>(32);
                }
            }
            _ => {}
        }
        self.rd_g5.next = 0.into();
        match self.ar_addr.q.val().get_bits::<5>(0).index() {
            0 => {
                // MAX_PENDING_FAULTS_LO
                self.rd_g5.next = self.c_max_pending_faults.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 5_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_max_pending_faults.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 16_u64.into();
                }
            }
            1 => {
                // MAX_PENDING_FAULTS_HI
                if self.shadow_sel.q.val() == 16_u64 {
                    self.rd_g5.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g5.next = self.c_max_pending_faults.q.val().get_bits::<32>(32);
                }
            }
            2 => {
                // MAX_EVENT_RING_LO
                self.rd_g5.next = self.c_max_event_ring.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 5_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_max_event_ring.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 17_u64.into();
                }
            }
            3 => {
                // MAX_EVENT_RING_HI
                if self.shadow_sel.q.val() == 17_u64 {
                    self.rd_g5.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g5.next = self.c_max_event_ring.q.val().get_bits::<32>(32);
                }
            }
            4 => {
                // FAULT_SERVICE_SUM_LO
                self.rd_g5.next = self.c_fault_service_sum.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 5_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_fault_service_sum.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 18_u64.into();
                }
            }
            5 => {
                // FAULT_SERVICE_SUM_HI
                if self.shadow_sel.q.val() == 18_u64 {
                    self.rd_g5.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g5.next = self.c_fault_service_sum.q.val().get_bits::<32>(32);
                }
            }
            6 => {
                // FAULT_SERVICE_MAX_LO
                self.rd_g5.next = self.c_fault_service_max.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 5_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_fault_service_max.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 19_u64.into();
                }
            }
            7 => {
                // FAULT_SERVICE_MAX_HI
                if self.shadow_sel.q.val() == 19_u64 {
                    self.rd_g5.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g5.next = self.c_fault_service_max.q.val().get_bits::<32>(32);
                }
            }
            8 => {
                // QPS_STALLED_NOW_LO
                self.rd_g5.next = self.c_qps_stalled_now.q.val().get_bits::<32>(0);
                if self.ar_addr.q.val().get_bits::<9>(5) == 5_u64 {
                    self.sh_load.next = true;
                    self.sh_val.next = self.c_qps_stalled_now.q.val().get_bits::<32>(32);
                    self.sh_sel.next = 20_u64.into();
                }
            }
            9 => {
                // QPS_STALLED_NOW_HI
                if self.shadow_sel.q.val() == 20_u64 {
                    self.rd_g5.next = self.shadow_hi.q.val();
                } else {
                    self.rd_g5.next = self.c_qps_stalled_now.q.val().get_bits::<32>(32);
                }
            }
            _ => {}
        }
        self.s1_full.d.next = false;
        if self.rd_go.val() {
            self.ar_full.d.next = false;
            self.s1_full.d.next = true;
            self.s1_grp.d.next = self.ar_addr.q.val().get_bits::<9>(5);
            self.s1_g0.d.next = self.rd_g0.val();
            self.s1_g2.d.next = self.rd_g2.val();
            self.s1_g4.d.next = self.rd_g4.val();
            self.s1_g5.d.next = self.rd_g5.val();
            if self.sh_load.val() {
                self.shadow_hi.d.next = self.sh_val.val();
                self.shadow_sel.d.next = self.sh_sel.val();
            }
        }

        // Read mux, stage 2: the group; undefined groups read 0.
        self.rd_word.next = 0.into();
        if self.s1_grp.q.val() == 0_u64 {
            self.rd_word.next = self.s1_g0.q.val();
        }
        if self.s1_grp.q.val() == 2_u64 {
            self.rd_word.next = self.s1_g2.q.val();
        }
        if self.s1_grp.q.val() == 4_u64 {
            self.rd_word.next = self.s1_g4.q.val();
        }
        if self.s1_grp.q.val() == 5_u64 {
            self.rd_word.next = self.s1_g5.q.val();
        }
        if self.s1_full.q.val() {
            self.r_valid.d.next = true;
            self.r_data.d.next = self.rd_word.val();
        }

        // Synchronous reset: every register to its reset value.
        if self.rst.val() {
            self.aw_full.d.next = false;
            self.w_full.d.next = false;
            self.w_bits.d.next = 0.into();
            self.w_mask.d.next = 0.into();
            self.aw_ok.d.next = false;
            self.b_valid.d.next = false;
            self.b_resp.d.next = 0.into();
            self.ar_full.d.next = false;
            self.ar_addr.d.next = 0.into();
            self.r_valid.d.next = false;
            self.r_data.d.next = 0.into();
            self.s1_full.d.next = false;
            self.s1_grp.d.next = 0.into();
            self.cmd_pending.d.next = false;
            self.cmd_op_q.d.next = 0.into();
            self.cmd_tag_q.d.next = 0.into();
            self.cmd_arg0_q.d.next = 0.into();
            self.cmd_arg1_q.d.next = 0.into();
            self.cmd_arg2_q.d.next = 0.into();
            self.cmd_arg3_q.d.next = 0.into();
            self.cmd_arg4_q.d.next = 0.into();
            self.cmd_arg5_q.d.next = 0.into();
            self.cmd_arg6_q.d.next = 0.into();
            self.cmd_arg7_q.d.next = 0.into();
            self.cmd_arg8_q.d.next = 0.into();
            self.cmd_arg9_q.d.next = 0.into();
            self.cmd_arg10_q.d.next = 0.into();
            self.cmd_arg11_q.d.next = 0.into();
            self.aw_sel_ctrl.d.next = false;
            self.aw_sel_error.d.next = false;
            self.aw_sel_rnr_timer.d.next = false;
            self.aw_sel_pkey.d.next = false;
            self.aw_sel_clocks_per_us.d.next = false;
            self.aw_sel_prefetch_cap.d.next = false;
            self.aw_sel_eq_base_lo.d.next = false;
            self.aw_sel_eq_base_hi.d.next = false;
            self.aw_sel_eq_log2_size.d.next = false;
            self.aw_sel_eq_cons.d.next = false;
            self.aw_sel_cmd_arg0.d.next = false;
            self.aw_sel_cmd_arg1.d.next = false;
            self.aw_sel_cmd_arg2.d.next = false;
            self.aw_sel_cmd_arg3.d.next = false;
            self.aw_sel_cmd_arg4.d.next = false;
            self.aw_sel_cmd_arg5.d.next = false;
            self.aw_sel_cmd_arg6.d.next = false;
            self.aw_sel_cmd_arg7.d.next = false;
            self.aw_sel_cmd_arg8.d.next = false;
            self.aw_sel_cmd_arg9.d.next = false;
            self.aw_sel_cmd_arg10.d.next = false;
            self.aw_sel_cmd_arg11.d.next = false;
            self.aw_sel_cmd_doorbell.d.next = false;
            self.aw_sel_counter_clear.d.next = false;
            self.r_ctrl.d.next = 0x0_u64.into();
            self.r_error.d.next = 0x0_u64.into();
            self.r_error_info.d.next = 0x0_u64.into();
            self.r_rnr_timer.d.next = 0xC_u64.into();
            self.r_pkey.d.next = 0xFFFF_u64.into();
            self.r_clocks_per_us.d.next = 0x7D_u64.into();
            self.r_prefetch_cap.d.next = 0x400000_u64.into();
            self.r_eq_base_lo.d.next = 0x0_u64.into();
            self.r_eq_base_hi.d.next = 0x0_u64.into();
            self.r_eq_log2_size.d.next = 0x0_u64.into();
            self.r_eq_cons.d.next = 0x0_u64.into();
            self.r_cmd_arg0.d.next = 0x0_u64.into();
            self.r_cmd_arg1.d.next = 0x0_u64.into();
            self.r_cmd_arg2.d.next = 0x0_u64.into();
            self.r_cmd_arg3.d.next = 0x0_u64.into();
            self.r_cmd_arg4.d.next = 0x0_u64.into();
            self.r_cmd_arg5.d.next = 0x0_u64.into();
            self.r_cmd_arg6.d.next = 0x0_u64.into();
            self.r_cmd_arg7.d.next = 0x0_u64.into();
            self.r_cmd_arg8.d.next = 0x0_u64.into();
            self.r_cmd_arg9.d.next = 0x0_u64.into();
            self.r_cmd_arg10.d.next = 0x0_u64.into();
            self.r_cmd_arg11.d.next = 0x0_u64.into();
            self.r_cmd_status.d.next = 0x0_u64.into();
            self.c_lookups.d.next = 0.into();
            self.i_lookups_inc.d.next = false;
            self.c_tlb_hits.d.next = 0.into();
            self.i_tlb_hits_inc.d.next = false;
            self.c_tlb_misses.d.next = 0.into();
            self.i_tlb_misses_inc.d.next = false;
            self.c_walks.d.next = 0.into();
            self.i_walks_inc.d.next = false;
            self.c_walk_reads.d.next = 0.into();
            self.i_walk_reads_inc.d.next = false;
            self.c_faults.d.next = 0.into();
            self.i_faults_inc.d.next = false;
            self.c_faults_coalesced.d.next = 0.into();
            self.i_faults_coalesced_inc.d.next = false;
            self.c_rnr_naks_fault.d.next = 0.into();
            self.i_rnr_naks_fault_inc.d.next = false;
            self.c_rnr_naks_suspended.d.next = 0.into();
            self.i_rnr_naks_suspended_inc.d.next = false;
            self.c_drops.d.next = 0.into();
            self.i_drops_inc.d.next = false;
            self.c_stalls.d.next = 0.into();
            self.i_stalls_inc.d.next = false;
            self.c_wakes.d.next = 0.into();
            self.i_wakes_inc.d.next = false;
            self.c_access_errors.d.next = 0.into();
            self.i_access_errors_inc.d.next = false;
            self.c_fatals.d.next = 0.into();
            self.i_fatals_inc.d.next = false;
            self.c_invalidations.d.next = 0.into();
            self.i_invalidations_inc.d.next = false;
            self.c_prefetches.d.next = 0.into();
            self.i_prefetches_inc.d.next = false;
            self.c_max_pending_faults.d.next = 0.into();
            self.i_max_pending_faults_value.d.next = 0.into();
            self.c_max_event_ring.d.next = 0.into();
            self.i_max_event_ring_value.d.next = 0.into();
            self.c_fault_service_sum.d.next = 0.into();
            self.i_fault_service_sum_value.d.next = 0.into();
            self.i_fault_service_sum_valid.d.next = false;
            self.c_fault_service_max.d.next = 0.into();
            self.i_fault_service_max_value.d.next = 0.into();
            self.c_qps_stalled_now.d.next = 0.into();
            self.i_qps_stalled_now_value.d.next = 0.into();
            self.shadow_hi.d.next = 0.into();
            self.shadow_sel.d.next = 31_u64.into();
        }
    }
}
