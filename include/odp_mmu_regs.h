/* odp_mmu register map.
 *
 * Generated from src/control/regmap.rs by odp_mmu::control::regmap::c_header(); do not edit.
 * Refresh with `ODP_BLESS=1 cargo test --release --test csr`.
 * Offsets are byte offsets on the AXI4-Lite slave (32-bit registers).
 * A field X of register R has R_X_SHIFT and R_X_MASK (mask in place).
 */
#ifndef ODP_MMU_REGS_H
#define ODP_MMU_REGS_H

/* ID (ro, built): Identifies the core: 0x4F44504D, ASCII ODPM. */
#define ODP_MMU_ID 0x0000u
#define ODP_MMU_ID_RESET 0x4F44504Du

/* VERSION (ro, built): Register map version: major [31:16], minor [15:0]. */
#define ODP_MMU_VERSION 0x0004u
#define ODP_MMU_VERSION_RESET 0x00010000u

/* CAP_MRS (ro, built): MR table entries. */
#define ODP_MMU_CAP_MRS 0x0008u
#define ODP_MMU_CAP_MRS_RESET 0x00000000u

/* CAP_QPS (ro, built): Queue pairs; QPNs at or above this answer ACCESS_ERR. */
#define ODP_MMU_CAP_QPS 0x000Cu
#define ODP_MMU_CAP_QPS_RESET 0x00000000u

/* CAP_TLB (ro, built): TLB geometry. */
#define ODP_MMU_CAP_TLB 0x0010u
#define ODP_MMU_CAP_TLB_RESET 0x00000000u
#define ODP_MMU_CAP_TLB_SETS_SHIFT 0u
#define ODP_MMU_CAP_TLB_SETS_MASK 0x0000FFFFu
#define ODP_MMU_CAP_TLB_HUGE_SHIFT 16u
#define ODP_MMU_CAP_TLB_HUGE_MASK 0x00FF0000u
#define ODP_MMU_CAP_TLB_WAYS_SHIFT 24u
#define ODP_MMU_CAP_TLB_WAYS_MASK 0xFF000000u

/* CAP_QUEUES (ro, built): Queue depths. */
#define ODP_MMU_CAP_QUEUES 0x0014u
#define ODP_MMU_CAP_QUEUES_RESET 0x00000000u
#define ODP_MMU_CAP_QUEUES_WALKS_SHIFT 0u
#define ODP_MMU_CAP_QUEUES_WALKS_MASK 0x000000FFu
#define ODP_MMU_CAP_QUEUES_PENDING_SHIFT 8u
#define ODP_MMU_CAP_QUEUES_PENDING_MASK 0x0000FF00u
#define ODP_MMU_CAP_QUEUES_OUTSTANDING_SHIFT 16u
#define ODP_MMU_CAP_QUEUES_OUTSTANDING_MASK 0xFFFF0000u

/* CTRL (rw, built): Core control. */
#define ODP_MMU_CTRL 0x0020u
#define ODP_MMU_CTRL_RESET 0x00000000u
#define ODP_MMU_CTRL_IRQ_EN_SHIFT 0u
#define ODP_MMU_CTRL_IRQ_EN_MASK 0x00000001u
#define ODP_MMU_CTRL_ADAPTIVE_RNR_SHIFT 1u
#define ODP_MMU_CTRL_ADAPTIVE_RNR_MASK 0x00000002u

/* STATUS (ro, built): Core status. */
#define ODP_MMU_STATUS 0x0024u
#define ODP_MMU_STATUS_RESET 0x00000000u
#define ODP_MMU_STATUS_READY_SHIFT 0u
#define ODP_MMU_STATUS_READY_MASK 0x00000001u
#define ODP_MMU_STATUS_CMD_BUSY_SHIFT 1u
#define ODP_MMU_STATUS_CMD_BUSY_MASK 0x00000002u

/* ERROR (rw1c, built): Sticky error flags; write 1 to clear. A set and a clear of one bit in the same clock leave it set. */
#define ODP_MMU_ERROR 0x0028u
#define ODP_MMU_ERROR_RESET 0x00000000u
#define ODP_MMU_ERROR_BAD_CMD_SHIFT 0u
#define ODP_MMU_ERROR_BAD_CMD_MASK 0x00000001u
#define ODP_MMU_ERROR_CMD_REJECTED_SHIFT 1u
#define ODP_MMU_ERROR_CMD_REJECTED_MASK 0x00000002u
#define ODP_MMU_ERROR_WALK_FATAL_SHIFT 2u
#define ODP_MMU_ERROR_WALK_FATAL_MASK 0x00000004u
#define ODP_MMU_ERROR_EVENT_WRITE_ERR_SHIFT 3u
#define ODP_MMU_ERROR_EVENT_WRITE_ERR_MASK 0x00000008u
#define ODP_MMU_ERROR_RESUME_STALE_SHIFT 4u
#define ODP_MMU_ERROR_RESUME_STALE_MASK 0x00000010u
#define ODP_MMU_ERROR_EQ_CONS_BAD_SHIFT 5u
#define ODP_MMU_ERROR_EQ_CONS_BAD_MASK 0x00000020u
#define ODP_MMU_ERROR_EQ_SIZE_BAD_SHIFT 6u
#define ODP_MMU_ERROR_EQ_SIZE_BAD_MASK 0x00000040u
#define ODP_MMU_ERROR_DONE_BAD_SHIFT 7u
#define ODP_MMU_ERROR_DONE_BAD_MASK 0x00000080u

/* ERROR_INFO (ro, built): The last command the core refused. */
#define ODP_MMU_ERROR_INFO 0x002Cu
#define ODP_MMU_ERROR_INFO_RESET 0x00000000u
#define ODP_MMU_ERROR_INFO_OP_SHIFT 0u
#define ODP_MMU_ERROR_INFO_OP_MASK 0x000000FFu
#define ODP_MMU_ERROR_INFO_CODE_SHIFT 8u
#define ODP_MMU_ERROR_INFO_CODE_MASK 0x0000FF00u

/* RNR_TIMER (rw, built): RNR timer code of RNR NAKs. */
#define ODP_MMU_RNR_TIMER 0x0040u
#define ODP_MMU_RNR_TIMER_RESET 0x0000000Cu
#define ODP_MMU_RNR_TIMER_SHIFT 0u
#define ODP_MMU_RNR_TIMER_MASK 0x0000001Fu

/* PKEY (rw, built): P_Key of NAK headers. */
#define ODP_MMU_PKEY 0x0044u
#define ODP_MMU_PKEY_RESET 0x0000FFFFu
#define ODP_MMU_PKEY_SHIFT 0u
#define ODP_MMU_PKEY_MASK 0x0000FFFFu

/* CLOCKS_PER_US (rw, built): Core clock rate, for timers. */
#define ODP_MMU_CLOCKS_PER_US 0x0048u
#define ODP_MMU_CLOCKS_PER_US_RESET 0x0000007Du
#define ODP_MMU_CLOCKS_PER_US_SHIFT 0u
#define ODP_MMU_CLOCKS_PER_US_MASK 0x0000FFFFu

/* PREFETCH_CAP (rw, built): Largest prefetch range hint in a fault event, bytes. */
#define ODP_MMU_PREFETCH_CAP 0x004Cu
#define ODP_MMU_PREFETCH_CAP_RESET 0x00400000u

/* EQ_BASE_LO (rw, built): Event ring base address in host memory, bits 31:0. */
#define ODP_MMU_EQ_BASE_LO 0x0050u
#define ODP_MMU_EQ_BASE_LO_RESET 0x00000000u

/* EQ_BASE_HI (rw, built): Event ring base address, bits 63:32. */
#define ODP_MMU_EQ_BASE_HI 0x0054u
#define ODP_MMU_EQ_BASE_HI_RESET 0x00000000u

/* EQ_LOG2_SIZE (rw, built): Event ring size. 0 (the reset value) is the ring reset: no record is taken, EQ_PROD returns to 0 once the writes in flight complete, irq is low, and every fault still awaiting its RESUME is announced again in the next ring (docs/events.md). */
#define ODP_MMU_EQ_LOG2_SIZE 0x0058u
#define ODP_MMU_EQ_LOG2_SIZE_RESET 0x00000000u
#define ODP_MMU_EQ_LOG2_SIZE_SHIFT 0u
#define ODP_MMU_EQ_LOG2_SIZE_MASK 0x0000001Fu

/* EQ_CONS (rw, built): Event ring consumer index, written by the driver. */
#define ODP_MMU_EQ_CONS 0x005Cu
#define ODP_MMU_EQ_CONS_RESET 0x00000000u

/* EQ_PROD (ro, built): Event ring producer index. */
#define ODP_MMU_EQ_PROD 0x0060u
#define ODP_MMU_EQ_PROD_RESET 0x00000000u

/* INV_ISSUED (ro, built): INVALIDATE and MR_SUSPEND commands accepted since reset (free-running): read after a command's OK result, it is that command's sequence number. */
#define ODP_MMU_INV_ISSUED 0x0064u
#define ODP_MMU_INV_ISSUED_RESET 0x00000000u

/* INV_DONE (ro, built): INVALIDATE and MR_SUSPEND commands done since reset (free-running; they finish in order): the command numbered n is done once INV_DONE - n, as a signed 32-bit difference, is at least 0. Its event is then handed to the event ring. */
#define ODP_MMU_INV_DONE 0x0068u
#define ODP_MMU_INV_DONE_RESET 0x00000000u

/* CMD_ARG0 (rw, built): Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held. */
#define ODP_MMU_CMD_ARG0 0x0100u
#define ODP_MMU_CMD_ARG0_RESET 0x00000000u

/* CMD_ARG1 (rw, built): Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held. */
#define ODP_MMU_CMD_ARG1 0x0104u
#define ODP_MMU_CMD_ARG1_RESET 0x00000000u

/* CMD_ARG2 (rw, built): Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held. */
#define ODP_MMU_CMD_ARG2 0x0108u
#define ODP_MMU_CMD_ARG2_RESET 0x00000000u

/* CMD_ARG3 (rw, built): Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held. */
#define ODP_MMU_CMD_ARG3 0x010Cu
#define ODP_MMU_CMD_ARG3_RESET 0x00000000u

/* CMD_ARG4 (rw, built): Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held. */
#define ODP_MMU_CMD_ARG4 0x0110u
#define ODP_MMU_CMD_ARG4_RESET 0x00000000u

/* CMD_ARG5 (rw, built): Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held. */
#define ODP_MMU_CMD_ARG5 0x0114u
#define ODP_MMU_CMD_ARG5_RESET 0x00000000u

/* CMD_ARG6 (rw, built): Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held. */
#define ODP_MMU_CMD_ARG6 0x0118u
#define ODP_MMU_CMD_ARG6_RESET 0x00000000u

/* CMD_ARG7 (rw, built): Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held. */
#define ODP_MMU_CMD_ARG7 0x011Cu
#define ODP_MMU_CMD_ARG7_RESET 0x00000000u

/* CMD_ARG8 (rw, built): Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held. */
#define ODP_MMU_CMD_ARG8 0x0120u
#define ODP_MMU_CMD_ARG8_RESET 0x00000000u

/* CMD_ARG9 (rw, built): Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held. */
#define ODP_MMU_CMD_ARG9 0x0124u
#define ODP_MMU_CMD_ARG9_RESET 0x00000000u

/* CMD_ARG10 (rw, built): Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held. */
#define ODP_MMU_CMD_ARG10 0x0128u
#define ODP_MMU_CMD_ARG10_RESET 0x00000000u

/* CMD_ARG11 (rw, built): Argument word of the next command (see the op table for its meaning). The doorbell copies every argument into the command it issues, so the driver may prepare the next command while one is held. */
#define ODP_MMU_CMD_ARG11 0x012Cu
#define ODP_MMU_CMD_ARG11_RESET 0x00000000u

/* CMD_DOORBELL (command, built): Writing OP (wstrb[0] set) issues the command with the current CMD_ARG words. While CMD_STATUS.BUSY the write answers SLVERR, sets ERROR.CMD_REJECTED and CMD_STATUS.LAST_REJECTED and changes nothing else. */
#define ODP_MMU_CMD_DOORBELL 0x0140u
#define ODP_MMU_CMD_DOORBELL_RESET 0x00000000u
#define ODP_MMU_CMD_DOORBELL_OP_SHIFT 0u
#define ODP_MMU_CMD_DOORBELL_OP_MASK 0x000000FFu
#define ODP_MMU_CMD_DOORBELL_TAG_SHIFT 8u
#define ODP_MMU_CMD_DOORBELL_TAG_MASK 0x0000FF00u

/* CMD_STATUS (ro, built): Command interface status. */
#define ODP_MMU_CMD_STATUS 0x0144u
#define ODP_MMU_CMD_STATUS_RESET 0x00000000u
#define ODP_MMU_CMD_STATUS_BUSY_SHIFT 0u
#define ODP_MMU_CMD_STATUS_BUSY_MASK 0x00000001u
#define ODP_MMU_CMD_STATUS_LAST_ACCEPTED_SHIFT 1u
#define ODP_MMU_CMD_STATUS_LAST_ACCEPTED_MASK 0x00000002u
#define ODP_MMU_CMD_STATUS_LAST_REJECTED_SHIFT 2u
#define ODP_MMU_CMD_STATUS_LAST_REJECTED_MASK 0x00000004u
#define ODP_MMU_CMD_STATUS_OP_SHIFT 8u
#define ODP_MMU_CMD_STATUS_OP_MASK 0x0000FF00u
#define ODP_MMU_CMD_STATUS_RESULT_SHIFT 16u
#define ODP_MMU_CMD_STATUS_RESULT_MASK 0x00FF0000u

/* COUNTER_CLEAR (command, built): Clears the counters. */
#define ODP_MMU_COUNTER_CLEAR 0x01F0u
#define ODP_MMU_COUNTER_CLEAR_RESET 0x00000000u
#define ODP_MMU_COUNTER_CLEAR_ALL_SHIFT 0u
#define ODP_MMU_COUNTER_CLEAR_ALL_MASK 0x00000001u

/* CMD_ARG<n> is at ODP_MMU_CMD_ARG0 + 4 * n, n = 0..11. */
#define ODP_MMU_CMD_ARGS 12u

/* 64-bit counters: low word at ODP_MMU_COUNTER_BASE + 8 * index, high word
 * 4 bytes above. Read the low word first: it latches the high word. */
#define ODP_MMU_COUNTER_BASE 0x0200u
#define ODP_MMU_COUNTERS 21u
/* LOOKUPS (count, built): Translation requests accepted. */
#define ODP_MMU_CTR_LOOKUPS 0u
#define ODP_MMU_LOOKUPS_LO 0x0200u
#define ODP_MMU_LOOKUPS_HI 0x0204u
/* TLB_HITS (count, built): Requests answered from the TLB. */
#define ODP_MMU_CTR_TLB_HITS 1u
#define ODP_MMU_TLB_HITS_LO 0x0208u
#define ODP_MMU_TLB_HITS_HI 0x020Cu
/* TLB_MISSES (count, built): TLB lookups that missed. */
#define ODP_MMU_CTR_TLB_MISSES 2u
#define ODP_MMU_TLB_MISSES_LO 0x0210u
#define ODP_MMU_TLB_MISSES_HI 0x0214u
/* WALKS (count, built): Page-table walks started. */
#define ODP_MMU_CTR_WALKS 3u
#define ODP_MMU_WALKS_LO 0x0218u
#define ODP_MMU_WALKS_HI 0x021Cu
/* WALK_READS (count, built): Page-table entry reads issued on AXI4. */
#define ODP_MMU_CTR_WALK_READS 4u
#define ODP_MMU_WALK_READS_LO 0x0220u
#define ODP_MMU_WALK_READS_HI 0x0224u
/* FAULTS (count, built): Page faults raised (fault events written). */
#define ODP_MMU_CTR_FAULTS 5u
#define ODP_MMU_FAULTS_LO 0x0228u
#define ODP_MMU_FAULTS_HI 0x022Cu
/* FAULTS_COALESCED (count, built): Faults coalesced into a pending one. */
#define ODP_MMU_CTR_FAULTS_COALESCED 6u
#define ODP_MMU_FAULTS_COALESCED_LO 0x0230u
#define ODP_MMU_FAULTS_COALESCED_HI 0x0234u
/* RNR_NAKS_FAULT (count, built): RNR NAKs sent for a missing page. */
#define ODP_MMU_CTR_RNR_NAKS_FAULT 7u
#define ODP_MMU_RNR_NAKS_FAULT_LO 0x0238u
#define ODP_MMU_RNR_NAKS_FAULT_HI 0x023Cu
/* RNR_NAKS_SUSPENDED (count, built): RNR NAKs sent for a suspended MR. */
#define ODP_MMU_CTR_RNR_NAKS_SUSPENDED 8u
#define ODP_MMU_RNR_NAKS_SUSPENDED_LO 0x0240u
#define ODP_MMU_RNR_NAKS_SUSPENDED_HI 0x0244u
/* DROPS (count, built): Requests answered DROP. */
#define ODP_MMU_CTR_DROPS 9u
#define ODP_MMU_DROPS_LO 0x0248u
#define ODP_MMU_DROPS_HI 0x024Cu
/* STALLS (count, built): Requests answered STALL. */
#define ODP_MMU_CTR_STALLS 10u
#define ODP_MMU_STALLS_LO 0x0250u
#define ODP_MMU_STALLS_HI 0x0254u
/* WAKES (count, built): Wakes sent on m_wake. */
#define ODP_MMU_CTR_WAKES 11u
#define ODP_MMU_WAKES_LO 0x0258u
#define ODP_MMU_WAKES_HI 0x025Cu
/* ACCESS_ERRORS (count, built): Requests answered ACCESS_ERR. */
#define ODP_MMU_CTR_ACCESS_ERRORS 12u
#define ODP_MMU_ACCESS_ERRORS_LO 0x0260u
#define ODP_MMU_ACCESS_ERRORS_HI 0x0264u
/* FATALS (count, built): Requests answered FATAL. */
#define ODP_MMU_CTR_FATALS 13u
#define ODP_MMU_FATALS_LO 0x0268u
#define ODP_MMU_FATALS_HI 0x026Cu
/* INVALIDATIONS (count, built): INVALIDATE commands done (their invalidation-done event handed to the event ring). */
#define ODP_MMU_CTR_INVALIDATIONS 14u
#define ODP_MMU_INVALIDATIONS_LO 0x0270u
#define ODP_MMU_INVALIDATIONS_HI 0x0274u
/* PREFETCHES (count, built): Prefetch commands completed (their "prefetch done" record taken for the event ring). */
#define ODP_MMU_CTR_PREFETCHES 15u
#define ODP_MMU_PREFETCHES_LO 0x0278u
#define ODP_MMU_PREFETCHES_HI 0x027Cu
/* MAX_PENDING_FAULTS (max, built): Most pending faults at once. */
#define ODP_MMU_CTR_MAX_PENDING_FAULTS 16u
#define ODP_MMU_MAX_PENDING_FAULTS_LO 0x0280u
#define ODP_MMU_MAX_PENDING_FAULTS_HI 0x0284u
/* MAX_EVENT_RING (max, built): Most unconsumed event-ring entries at once. */
#define ODP_MMU_CTR_MAX_EVENT_RING 17u
#define ODP_MMU_MAX_EVENT_RING_LO 0x0288u
#define ODP_MMU_MAX_EVENT_RING_HI 0x028Cu
/* FAULT_SERVICE_SUM (sum, built): Sum of fault service times (fault raised to RESUME), clocks. */
#define ODP_MMU_CTR_FAULT_SERVICE_SUM 18u
#define ODP_MMU_FAULT_SERVICE_SUM_LO 0x0290u
#define ODP_MMU_FAULT_SERVICE_SUM_HI 0x0294u
/* FAULT_SERVICE_MAX (max, built): Longest fault service time, clocks. */
#define ODP_MMU_CTR_FAULT_SERVICE_MAX 19u
#define ODP_MMU_FAULT_SERVICE_MAX_LO 0x0298u
#define ODP_MMU_FAULT_SERVICE_MAX_HI 0x029Cu
/* QPS_STALLED_NOW (gauge, built): Local QPs waiting for a wake now: joined a fault's (or the overflow) wait list on a STALL, not yet woken on m_wake (a QP waiting on two faults counts twice). */
#define ODP_MMU_CTR_QPS_STALLED_NOW 20u
#define ODP_MMU_QPS_STALLED_NOW_LO 0x02A0u
#define ODP_MMU_QPS_STALLED_NOW_HI 0x02A4u

/* Command op codes (CMD_DOORBELL.OP) and their argument fields. */
/* MR_WRITE (built): Writes every field of one MR table entry. */
#define ODP_MMU_OP_MR_WRITE 0x01u
/*   CMD_ARG0: INDEX: MR index (the key's bits 31:8). */
/*   CMD_ARG1: ATTR: Key tag, access rights, page-table levels, state. */
#define ODP_MMU_MR_WRITE_ARG1_TAG_SHIFT 0u
#define ODP_MMU_MR_WRITE_ARG1_TAG_MASK 0x000000FFu
#define ODP_MMU_MR_WRITE_ARG1_ACCESS_SHIFT 8u
#define ODP_MMU_MR_WRITE_ARG1_ACCESS_MASK 0x00000700u
#define ODP_MMU_MR_WRITE_ARG1_LEVELS_M1_SHIFT 12u
#define ODP_MMU_MR_WRITE_ARG1_LEVELS_M1_MASK 0x00003000u
#define ODP_MMU_MR_WRITE_ARG1_STATE_SHIFT 16u
#define ODP_MMU_MR_WRITE_ARG1_STATE_MASK 0x00030000u
/*   CMD_ARG2: PD: Protection domain, bits 15:0. */
/*   CMD_ARG3: BASE_VA_LO: Base virtual address, bits 31:0. */
/*   CMD_ARG4: BASE_VA_HI: Base virtual address, bits 63:32. */
/*   CMD_ARG5: LENGTH_LO: Length in bytes, bits 31:0. */
/*   CMD_ARG6: LENGTH_HI: Length in bytes, bits 63:32. */
/*   CMD_ARG7: ROOT_LO: Physical address of the root page table, bits 31:0 (4 KiB aligned). */
/*   CMD_ARG8: ROOT_HI: Physical address of the root page table, bits 63:32. */
/* MR_SET_STATE (built): Changes the state of one MR only. */
#define ODP_MMU_OP_MR_SET_STATE 0x02u
/*   CMD_ARG0: INDEX: MR index. */
/*   CMD_ARG1: STATE: New state. */
#define ODP_MMU_MR_SET_STATE_ARG1_STATE_SHIFT 0u
#define ODP_MMU_MR_SET_STATE_ARG1_STATE_MASK 0x00000003u
/* MR_SUSPEND (built): Suspends an MR: requests to it get RNR / STALL from the result on; once every OK response issued before has been returned on s_done, an MR-suspended event is posted. Result INV_BUSY (10) while 8 invalidations / suspends are in progress. */
#define ODP_MMU_OP_MR_SUSPEND 0x03u
/*   CMD_ARG0: INDEX: MR index. */
/* MR_RESUME (built): Makes an MR valid (whatever its state) and wakes, once, every QP answered STALL while it was suspended; the result comes when every wake has been taken (about 2^QP_BITS clocks). Result MR_RANGE (3) for an index beyond the table. */
#define ODP_MMU_OP_MR_RESUME 0x04u
/*   CMD_ARG0: INDEX: MR index. */
/* INVALIDATE (built): Invalidates cached translations of an MR range (or a whole MR, or all) and posts invalidation done with the doorbell's tag once no DMA can use them (INV_DONE counts it). Results: EMPTY_RANGE (9) for length 0, RANGE_WRAPS (5) past 2^64, INV_BUSY (10) while 8 are in progress. */
#define ODP_MMU_OP_INVALIDATE 0x05u
/*   CMD_ARG0: INDEX: MR index. */
/*   CMD_ARG1: FLAGS: Flags. */
#define ODP_MMU_INVALIDATE_ARG1_ALL_SHIFT 0u
#define ODP_MMU_INVALIDATE_ARG1_ALL_MASK 0x00000001u
#define ODP_MMU_INVALIDATE_ARG1_WHOLE_MR_SHIFT 1u
#define ODP_MMU_INVALIDATE_ARG1_WHOLE_MR_MASK 0x00000002u
/*   CMD_ARG2: VA_LO: Start virtual address, bits 31:0. */
/*   CMD_ARG3: VA_HI: Start virtual address, bits 63:32. */
/*   CMD_ARG4: LENGTH_LO: Length in bytes, bits 31:0. */
/*   CMD_ARG5: LENGTH_HI: Length in bytes, bits 63:32. */
/* PREFETCH (built): Walks and caches a range ahead of use, in the style of ibv_advise_mr: one lookup per 4 KiB page, at most half the walks; a "prefetch done" event counts the pages filled, faulted and refused. One at a time: another while one runs finishes PF_BUSY. */
#define ODP_MMU_OP_PREFETCH 0x06u
/*   CMD_ARG0: INDEX: MR index. */
/*   CMD_ARG1: FLAGS: Flags. */
#define ODP_MMU_PREFETCH_ARG1_WRITE_SHIFT 0u
#define ODP_MMU_PREFETCH_ARG1_WRITE_MASK 0x00000001u
#define ODP_MMU_PREFETCH_ARG1_NO_FAULT_SHIFT 1u
#define ODP_MMU_PREFETCH_ARG1_NO_FAULT_MASK 0x00000002u
/*   CMD_ARG2: VA_LO: Start virtual address, bits 31:0. */
/*   CMD_ARG3: VA_HI: Start virtual address, bits 63:32. */
/*   CMD_ARG4: LENGTH_LO: Length in bytes, bits 31:0. */
/*   CMD_ARG5: LENGTH_HI: Length in bytes, bits 63:32. */
/* RESUME_FAULT (built): Resolves a pending fault: its requesters retry (or get FATAL). A token that names no pending fault finishes with result STALE_TOKEN and sets ERROR.RESUME_STALE. */
#define ODP_MMU_OP_RESUME_FAULT 0x07u
/*   CMD_ARG0: TOKEN: Token of the fault event: slot in bits 7:0, generation in bits 15:8, bits 31:16 zero. */
/*   CMD_ARG1: FLAGS: Flags; bits 31:1 are reserved and must be 0 (else result BAD_FIELD). */
#define ODP_MMU_RESUME_FAULT_ARG1_ERROR_SHIFT 0u
#define ODP_MMU_RESUME_FAULT_ARG1_ERROR_MASK 0x00000001u
/* QP_RESET (built): Clears one QP's responder state (NAK'd PSN, stalls, error state, RNR timer override). A QPN at or beyond the core's QPs (the QP table of its responder) finishes with result QP_RANGE and changes nothing. */
#define ODP_MMU_OP_QP_RESET 0x08u
/*   CMD_ARG0: QPN: Local QP number in bits 23:0; bits 31:24 must be 0 (else result BAD_FIELD). */
/* QP_RNR_TIMER (built): Sets one QP's RNR timer code, overriding RNR_TIMER, or removes the override. A QPN at or beyond the core's QPs (the QP table of its responder) finishes with result QP_RANGE and changes nothing. */
#define ODP_MMU_OP_QP_RNR_TIMER 0x09u
/*   CMD_ARG0: QPN: Local QP number in bits 23:0; bits 31:24 must be 0 (else result BAD_FIELD). */
/*   CMD_ARG1: TIMER: Timer code and override enable; the other bits are ignored. */
#define ODP_MMU_QP_RNR_TIMER_ARG1_CODE_SHIFT 0u
#define ODP_MMU_QP_RNR_TIMER_ARG1_CODE_MASK 0x0000001Fu
#define ODP_MMU_QP_RNR_TIMER_ARG1_ENABLE_SHIFT 8u
#define ODP_MMU_QP_RNR_TIMER_ARG1_ENABLE_MASK 0x00000100u

#endif /* ODP_MMU_REGS_H */
