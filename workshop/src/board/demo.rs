//! The board scenario: what `odp-mmu board` does on a board, and what the
//! `board` simulation test runs on the Verilated board top, through the
//! same [`Bridge`] client and driver library.
//!
//! 1. the bridge's status; the core reset; the table pool and event ring
//!    zeroed; `Driver::bring_up`; the event ring set up (interrupts on);
//! 2. an MR registered (2-level page table), its first page mapped;
//! 3. a remote read on the mapped page: answered OK;
//! 4. a remote write on the second page, not mapped: RNR, an RNR NAK on
//!    `m_nak`, a page-fault event in the ring; the page mapped and the
//!    fault resumed; the retransmission answered OK;
//! 5. a local read on the third page, not mapped: STALL and its event;
//!    mapped, resumed; a wake on `m_wake` for its QP; the retry answered
//!    OK;
//! 6. the counters.
//!
//! Each step checks what it gets (status, the NAK's opcode and PSN, the
//! event's page, the wake's QP) and stops with an error naming what
//! differs; [`DemoReport`] keeps everything for a caller that checks more.

use odp_mmu::board::core::MEM_BYTES;
use odp_mmu::spec::{aeth, op, status, PageSize};

use super::protocol::{Bridge, BridgeStatus, Link, Nak, XRsp};
use crate::driver::{Caps, Driver, Event, Mr, MrSpec, PageFaultEvent};
use crate::harness::top::XReq;
use crate::models::translate_ref::Req;

/// Page-table frames (4 KiB frame numbers) the driver takes tables from:
/// 0x1000 to 0x3FFF of the board memory.
pub const TABLE_FRAMES: std::ops::Range<u64> = 1..4;
/// The event ring: 16 records of 32 bytes at 0x4000.
pub const RING_BASE: u64 = 0x4000;
/// log2 of the event ring's records.
pub const RING_LOG2: u32 = 4;
/// The MR's first byte.
pub const MR_BASE_VA: u64 = 0x1000_0000;
/// The MR's length: 16 pages.
pub const MR_LENGTH: u64 = 16 * 4096;
/// The MR's protection domain.
pub const MR_PD: u16 = 1;
/// The host frame the MR's page `k` is mapped to: `DATA_FRAME + k`
/// (beyond the board memory: the core translates to it and never reads
/// it).
pub const DATA_FRAME: u64 = 0x100;
/// Remote QP of every request (the NAK's DestQP).
pub const RQPN: u32 = 0x0a0b0c;
/// Local QP of the remote requests.
pub const REMOTE_QPN: u32 = 3;
/// Local QP of the local request.
pub const LOCAL_QPN: u32 = 5;
/// PSN of the remote write that faults.
pub const FAULT_PSN: u32 = 0x000101;
/// MSN of the remote requests.
pub const MSN: u32 = 7;
/// Pops of an empty FIFO, and event-ring polls, before a step gives up.
pub const POLLS: usize = 200;

/// What the scenario saw.
#[derive(Clone, Debug)]
pub struct DemoReport {
    pub status: BridgeStatus,
    pub caps: Caps,
    pub mr: Mr,
    /// Step 3: the beats of the remote read.
    pub hit: Vec<XRsp>,
    /// Step 4: the beats of the faulting write, its NAK, its event, and
    /// the beats of the retransmission.
    pub fault_rsp: Vec<XRsp>,
    pub nak: Nak,
    pub fault: PageFaultEvent,
    pub retry: Vec<XRsp>,
    /// Step 5: the beats of the local read, its event, the wake's QP, the
    /// beats of the retry.
    pub stall_rsp: Vec<XRsp>,
    pub stall_fault: PageFaultEvent,
    pub wake: u32,
    pub stall_retry: Vec<XRsp>,
    /// Step 6: every counter.
    pub counters: Vec<(&'static str, u64)>,
}

/// A driver on a bridge.
pub type BoardDriver<L> = Driver<Bridge<L>>;

/// The driver call's result, or the bridge's fault that spoilt it.
fn check<L: Link, T>(
    d: &mut BoardDriver<L>,
    r: Result<T, crate::driver::Error>,
) -> Result<T, String> {
    if let Some(f) = d.bus.take_fault() {
        return Err(f.to_string());
    }
    r.map_err(|e| e.to_string())
}

/// Pops response beats until the last of a request.
fn response<L: Link>(d: &mut BoardDriver<L>, what: &str) -> Result<Vec<XRsp>, String> {
    let mut beats = Vec::new();
    for _ in 0..POLLS {
        match d.bus.pop_response().map_err(|e| e.to_string())? {
            Some(b) => {
                beats.push(b);
                if b.last {
                    return Ok(beats);
                }
            }
            None => continue,
        }
    }
    Err(format!(
        "no (complete) response to {what} after {POLLS} pops"
    ))
}

/// Pushes `x`, retrying while the bridge answers BUSY.
fn push<L: Link>(d: &mut BoardDriver<L>, x: &XReq) -> Result<(), String> {
    for _ in 0..POLLS {
        if d.bus.push(x).map_err(|e| e.to_string())? {
            return Ok(());
        }
    }
    Err(format!(
        "request tag {} not taken after {POLLS} pushes",
        x.tag
    ))
}

/// Polls the event ring until a page fault comes.
fn page_fault<L: Link>(
    d: &mut BoardDriver<L>,
    log: &mut dyn FnMut(String),
) -> Result<PageFaultEvent, String> {
    for _ in 0..POLLS {
        let events = d.poll_events();
        for e in check(d, events)? {
            log(format!("  event: {}", describe_event(&e)));
            if let Event::PageFault(f) = e {
                return Ok(f);
            }
        }
    }
    Err(format!("no page-fault event after {POLLS} polls"))
}

/// An event record in words.
pub fn describe_event(e: &Event) -> String {
    match e {
        Event::PageFault(f) => {
            let op = odp_mmu::spec::Op::ALL
                .iter()
                .find(|o| o.code() == f.op as u64)
                .map_or("?".to_string(), |o| format!("{o:?}"));
            format!(
                "page fault, token {:#x}, MR {}, QP {}, op {op}, page VA {:#x}, prefetch hint {} bytes before / {} after",
                f.token, f.mr, f.qpn, f.page_va, f.hint_before, f.hint_after
            )
        }
        other => format!("{other:?}"),
    }
}

fn expect_status(beats: &[XRsp], want: u8, what: &str) -> Result<(), String> {
    match beats {
        [b] if b.status == want => Ok(()),
        _ => Err(format!(
            "{what}: expected one beat of status {want}, got {beats:?}"
        )),
    }
}

fn show(b: &XRsp) -> String {
    let name = odp_mmu::spec::Status::ALL
        .iter()
        .find(|s| s.code() == b.status as u64)
        .map_or("?", |s| s.name());
    format!(
        "tag {} {name} pa {:#x} seg_len {} last {}",
        b.tag, b.pa, b.seg_len, b.last
    )
}

/// Runs the scenario on `bridge`; `log` gets a line per step.
pub fn run<L: Link>(
    bridge: Bridge<L>,
    log: &mut dyn FnMut(String),
) -> Result<(DemoReport, BoardDriver<L>), String> {
    let mut bridge = bridge;
    let status = bridge.status().map_err(|e| e.to_string())?;
    log(format!(
        "bridge: protocol version {}, flags {:#04x}, waiting: {} responses, {} NAKs, {} wakes",
        status.version, status.flags, status.responses, status.naks, status.wakes
    ));
    if status.version != odp_mmu::board::bridge::VERSION {
        return Err(format!(
            "the bridge speaks protocol version {}, this program {}",
            status.version,
            odp_mmu::board::bridge::VERSION
        ));
    }
    bridge.reset_core().map_err(|e| e.to_string())?;
    let pool_end = TABLE_FRAMES.end << 12;
    let ring_end = RING_BASE + (32 << RING_LOG2);
    assert!(TABLE_FRAMES.start << 12 < pool_end && pool_end <= RING_BASE);
    assert!(ring_end <= MEM_BYTES as u64);
    bridge
        .mem_zero(
            (TABLE_FRAMES.start << 12) as u32,
            (ring_end - (TABLE_FRAMES.start << 12)) as u32,
        )
        .map_err(|e| e.to_string())?;

    // 1. Bring-up and the event ring.
    let mut d = Driver::new(bridge, TABLE_FRAMES, true);
    let caps = d.bring_up();
    let caps = check(&mut d, caps)?;
    log(format!("core: {caps:?}"));
    let ring = d.setup_event_ring(RING_BASE, RING_LOG2, true);
    check(&mut d, ring)?;
    log(format!(
        "event ring: {} records at {RING_BASE:#x}, interrupts on",
        1 << RING_LOG2
    ));

    // 2. The MR and its first page.
    let spec = MrSpec {
        tag: 0x5a,
        pd: MR_PD,
        base_va: MR_BASE_VA,
        length: MR_LENGTH,
        access: 0b111,
        levels: 2,
    };
    let mr = d.register_mr(0, spec);
    let mr = check(&mut d, mr)?;
    d.map(&mr, MR_BASE_VA, PageSize::Size4K, DATA_FRAME, true);
    check(&mut d, Ok(()))?;
    log(format!(
        "MR 0: key {:#x}, VA {MR_BASE_VA:#x} + {MR_LENGTH:#x}, root table {:#x}; page 0 -> frame {DATA_FRAME:#x}",
        mr.key(),
        mr.tables.root << 12
    ));

    let req = |tag: u8, op: u8, qpn: u32, page: u64, len: u16, psn: u32| XReq {
        tag,
        req: Req {
            op,
            qpn,
            pd: MR_PD,
            key: mr.key(),
            va: MR_BASE_VA + page * 4096 + 0x40,
            len,
        },
        rqpn: RQPN,
        psn,
        msn: MSN,
        msg_len: len as u32,
    };

    // 3. A hit.
    push(
        &mut d,
        &req(1, op::byte::REMOTE_READ, REMOTE_QPN, 0, 64, 0x100),
    )?;
    let hit = response(&mut d, "the remote read of page 0")?;
    for b in &hit {
        log(format!("remote read, page 0: {}", show(b)));
    }
    expect_status(&hit, status::byte::OK, "remote read of a mapped page")?;

    // 4. A fault on a remote write: RNR, NAK, event; map, resume, retry.
    let write = req(2, op::byte::REMOTE_WRITE, REMOTE_QPN, 1, 128, FAULT_PSN);
    push(&mut d, &write)?;
    let fault_rsp = response(&mut d, "the remote write of page 1")?;
    for b in &fault_rsp {
        log(format!("remote write, page 1: {}", show(b)));
    }
    expect_status(
        &fault_rsp,
        status::byte::RNR,
        "remote write of a missing page",
    )?;
    let mut nak = None;
    for _ in 0..POLLS {
        if let Some(n) = d.bus.pop_nak().map_err(|e| e.to_string())? {
            nak = Some(n);
            break;
        }
    }
    let nak = nak.ok_or(format!("no NAK after {POLLS} pops"))?;
    let h = nak.header();
    log(format!("NAK for local QP {}: {h}", nak.qpn));
    if h.opcode as u64 != aeth::BTH_OPCODE_RC_ACK || h.psn != FAULT_PSN || h.rnr_timer().is_none() {
        return Err(format!(
            "expected an RNR NAK (opcode 0x11) for PSN {FAULT_PSN:#x}, got {h}"
        ));
    }
    let fault = page_fault(&mut d, log)?;
    if fault.page_va != MR_BASE_VA + 4096 {
        return Err(format!(
            "the fault names page {:#x}, not page 1",
            fault.page_va
        ));
    }
    d.map(&mr, fault.page_va, PageSize::Size4K, DATA_FRAME + 1, true);
    let resumed = d.resume_fault(fault.token, false);
    check(&mut d, resumed)?;
    log(format!(
        "page 1 mapped to frame {:#x}, fault token {:#x} resumed",
        DATA_FRAME + 1,
        fault.token
    ));
    push(&mut d, &XReq { tag: 3, ..write })?;
    let retry = response(&mut d, "the retransmitted write")?;
    for b in &retry {
        log(format!("retransmission: {}", show(b)));
    }
    expect_status(&retry, status::byte::OK, "the retransmission")?;

    // 5. A stall on a local read: STALL, event; map, resume; wake; retry.
    let local = req(4, op::byte::LOCAL_READ, LOCAL_QPN, 2, 256, 0);
    push(&mut d, &local)?;
    let stall_rsp = response(&mut d, "the local read of page 2")?;
    for b in &stall_rsp {
        log(format!("local read, page 2: {}", show(b)));
    }
    expect_status(
        &stall_rsp,
        status::byte::STALL,
        "local read of a missing page",
    )?;
    let stall_fault = page_fault(&mut d, log)?;
    d.map(
        &mr,
        stall_fault.page_va,
        PageSize::Size4K,
        DATA_FRAME + 2,
        true,
    );
    let resumed = d.resume_fault(stall_fault.token, false);
    check(&mut d, resumed)?;
    let mut wake = None;
    for _ in 0..POLLS {
        if let Some(q) = d.bus.pop_wake().map_err(|e| e.to_string())? {
            wake = Some(q);
            break;
        }
    }
    let wake = wake.ok_or(format!("no wake after {POLLS} pops"))?;
    log(format!("wake: QP {wake}"));
    if wake != LOCAL_QPN {
        return Err(format!("the wake names QP {wake}, not {LOCAL_QPN}"));
    }
    push(&mut d, &XReq { tag: 5, ..local })?;
    let stall_retry = response(&mut d, "the local read's retry")?;
    for b in &stall_retry {
        log(format!("local read retried: {}", show(b)));
    }
    expect_status(&stall_retry, status::byte::OK, "the local read's retry")?;

    // 6. Counters.
    let counters = d.counters();
    let counters = check(&mut d, Ok(counters))?;
    for (name, v) in counters.iter().filter(|(_, v)| *v != 0) {
        log(format!("counter {name}: {v}"));
    }
    Ok((
        DemoReport {
            status,
            caps,
            mr,
            hit,
            fault_rsp,
            nak,
            fault,
            retry,
            stall_rsp,
            stall_fault,
            wake,
            stall_retry,
            counters,
        },
        d,
    ))
}
