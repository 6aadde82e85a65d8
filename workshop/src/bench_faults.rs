//! The bench command's fault-path scenarios on the whole core (Verilated
//! default `odp_mmu`, fixed 200-clock memory): a page fault from the walk
//! that finds the page missing to the RNR NAK, the event record in host
//! memory, the RESUME and the retried request; the wake of a stalled local
//! QP; and a cold 4 MiB RDMA WRITE with and without the prefetch hint.
//!
//! | key | scenario |
//! |---|---|
//! | `fault_to_nak_clocks` | one REMOTE_WRITE to a missing page on an idle core: clocks from the read-data beat that brings the non-present PTE to the walker to the first clock its NAK is valid on `m_nak` |
//! | `fault_event_clocks` | the same fault: from that beat to the last write-data beat of its event record taken on the AXI4 master (the record is in host memory) |
//! | `resume_to_ok_clocks` | the driver maps the page and RESUMEs; the retransmission is offered the clock the driver call returns: clocks from the RESUME doorbell (the AXI4-Lite write address taken) to the retransmission's OK answer, the driver's `CMD_STATUS` polls and the retransmission's walk (2 levels of 200-clock reads: the RESUME does not fill the TLB) included |
//! | `fault_hw_overhead_clocks` | `fault_event_clocks` + `resume_to_ok_clocks`: the core's share of a fault, the driver's time between event and RESUME excluded |
//! | `wake_after_resume_clocks` | one LOCAL_WRITE to a missing page, answered STALL: from its RESUME doorbell to its `m_wake` |
//! | `cold_4mib_write_rnr_round_trips_with_hint`, `..._without_hint` | an RDMA WRITE of 4 MiB (1024 packets of 4096 bytes) into an MR whose pages are all missing, one packet in flight, the RNR timer left out: the RNR NAKs the requester gets. The driver maps the event's prefetch range (with hint) or only the faulting page (without) |

use crate::driver::{Driver, Event, Mr, MrSpec, PageFaultEvent};
use crate::harness::top::{Inputs, VerilatedTop, XReq};
use crate::models::host_memory::MemConfig;
use crate::models::translate_ref::Req;
use odp_mmu::spec::{op::byte as op, status::byte as status, PageSize};

/// The fault-path numbers (see the module table).
#[derive(Clone, Debug, Default)]
pub struct FaultNumbers {
    pub fault_to_nak_clocks: u64,
    pub fault_event_clocks: u64,
    pub resume_to_ok_clocks: u64,
    pub fault_hw_overhead_clocks: u64,
    pub wake_after_resume_clocks: u64,
    pub cold_4mib_write_rnr_round_trips_with_hint: u64,
    pub cold_4mib_write_rnr_round_trips_without_hint: u64,
}

/// The MR of every scenario: 4096 pages (16 MiB, two table levels), none
/// mapped.
pub const BASE: u64 = 0x5000_0000;
const PAGES: u64 = 4096;
/// Event ring: 64 records, above every table and frame.
const RING: u64 = 0x7_0000_0000;
/// Frames of the mapped pages.
const FRAME: u64 = 0x80_0000;

/// A core of `params` with the fault scenarios' MR (4096 pages from
/// [`BASE`], none mapped, key 0x5a, PD 1, every right) and an event ring
/// of 64 records, interrupts off.
pub fn core_with(params: &odp_mmu::Params) -> (Driver<VerilatedTop>, Mr) {
    let top = VerilatedTop::new(params, MemConfig::fixed(crate::bench::MEMORY_LATENCY));
    let mut drv = Driver::new(top, 0x100..0x1000, true);
    drv.bring_up()
        .unwrap_or_else(|e| panic!("bench: bring-up: {e}"));
    let mr = drv
        .register_mr(
            0,
            MrSpec {
                tag: 0x5a,
                pd: 1,
                base_va: BASE,
                length: PAGES << 12,
                access: 7,
                levels: 2,
            },
        )
        .unwrap_or_else(|e| panic!("bench: register_mr: {e}"));
    drv.setup_event_ring(RING, 6, false)
        .unwrap_or_else(|e| panic!("bench: event ring: {e}"));
    (drv, mr)
}

fn core() -> (Driver<VerilatedTop>, Mr) {
    core_with(&odp_mmu::Params::default())
}

fn req(op: u8, va: u64, len: u16) -> Req {
    Req {
        op,
        qpn: 3,
        pd: 1,
        key: 0x5a,
        va,
        len,
    }
}

/// Offers `r` (remote QP 0x42, MSN 1) until taken, then runs until its
/// answer; returns the status and the clock its (last) beat was valid.
pub fn one(drv: &mut Driver<VerilatedTop>, r: &Req, psn: u32, msg_len: u32) -> (u8, u64) {
    let x = XReq {
        tag: 7,
        req: *r,
        rqpn: 0x42,
        psn,
        msn: 1,
        msg_len,
    };
    let limit = drv.bus.clock + 100_000;
    let mut offered = true;
    loop {
        assert!(drv.bus.clock < limit, "bench: no answer to {r:x?}");
        let now = drv.bus.clock;
        let o = drv.bus.cycle(&Inputs {
            req: offered.then_some(x),
            rsp_ready: true,
            ..Default::default()
        });
        offered &= !o.accepted;
        if let Some((_, st, _, _, true)) = o.beat {
            return (st, now);
        }
    }
}

/// Clocks the core until the driver finds at least one event; returns them.
pub fn events(drv: &mut Driver<VerilatedTop>) -> Vec<PageFaultEvent> {
    for _ in 0..1000 {
        for _ in 0..20 {
            drv.bus.cycle(&Inputs {
                rsp_ready: true,
                ..Default::default()
            });
        }
        let ev = drv
            .poll_events()
            .unwrap_or_else(|e| panic!("bench: poll: {e}"));
        if !ev.is_empty() {
            return ev
                .into_iter()
                .map(|e| match e {
                    Event::PageFault(pf) => pf,
                    e => panic!("bench: unexpected event {e:x?}"),
                })
                .collect();
        }
    }
    panic!("bench: no event within 20,000 clocks");
}

/// Maps the 4 KiB page of `va` to its frame.
pub fn map(drv: &mut Driver<VerilatedTop>, mr: &Mr, va: u64) {
    let page = va & !0xfff;
    drv.map(
        mr,
        page,
        PageSize::Size4K,
        FRAME + ((page - BASE) >> 12),
        true,
    );
}

fn resume(drv: &mut Driver<VerilatedTop>, pf: &PageFaultEvent) -> u64 {
    drv.resume_fault(pf.token, false)
        .unwrap_or_else(|e| panic!("bench: RESUME: {e}"));
    drv.bus.last_lite_write
}

/// The fault, event, RESUME and wake numbers.
fn one_fault(n: &mut FaultNumbers) {
    let (mut drv, mr) = core();
    let va = BASE + 0x10_0000;
    let (st, _) = one(&mut drv, &req(op::REMOTE_WRITE, va, 64), 100, 64);
    assert_eq!(st, status::RNR, "bench: a missing page answers RNR");
    let seen = drv.bus.last_read_data;
    while drv.bus.naks.is_empty() {
        drv.bus.cycle(&Inputs::default());
    }
    let (nak_clock, _, hdr) = drv.bus.naks[0];
    assert_eq!(hdr.to_be_bytes()[12], 0x2c, "bench: RNR NAK, code 12");
    n.fault_to_nak_clocks = nak_clock - seen;
    let ev = events(&mut drv);
    assert_eq!(ev.len(), 1, "bench: one fault, one event");
    n.fault_event_clocks = drv.bus.last_write_data - seen;
    map(&mut drv, &mr, ev[0].page_va);
    let doorbell = resume(&mut drv, &ev[0]);
    let (st, ok) = one(&mut drv, &req(op::REMOTE_WRITE, va, 64), 100, 64);
    assert_eq!(st, status::OK, "bench: the retransmission after RESUME");
    n.resume_to_ok_clocks = ok - doorbell;
    n.fault_hw_overhead_clocks = n.fault_event_clocks + n.resume_to_ok_clocks;

    // A local op: STALL, then the wake.
    let va = BASE + 0x20_0000;
    let (st, _) = one(&mut drv, &req(op::LOCAL_WRITE, va, 64), 0, 64);
    assert_eq!(st, status::STALL, "bench: a missing page answers STALL");
    let ev = events(&mut drv);
    map(&mut drv, &mr, ev[0].page_va);
    drv.bus.wakes.clear();
    let doorbell = resume(&mut drv, &ev[0]);
    while drv.bus.wakes.is_empty() {
        assert!(drv.bus.clock < doorbell + 10_000, "bench: no wake");
        drv.bus.cycle(&Inputs::default());
    }
    n.wake_after_resume_clocks = drv.bus.wakes[0].0 - doorbell;
}

/// RNR NAKs of a cold 4 MiB RDMA WRITE, the driver mapping the prefetch
/// range (`hint`) or the faulting page alone.
pub fn cold_write_round_trips(hint: bool) -> u64 {
    let (mut drv, mr) = core();
    const MSG: u64 = 4 << 20;
    let start = BASE + 0x40_0000;
    let mut rnr = 0;
    for k in 0..MSG / 4096 {
        let va = start + k * 4096;
        let psn = k as u32;
        let msg_len = (MSG - k * 4096) as u32;
        loop {
            let (st, _) = one(&mut drv, &req(op::REMOTE_WRITE, va, 4096), psn, msg_len);
            if st == status::OK {
                break;
            }
            assert_eq!(st, status::RNR, "bench: packet {k}");
            rnr += 1;
            for pf in events(&mut drv) {
                let range = if hint {
                    pf.prefetch_range()
                } else {
                    pf.page_va..pf.page_va + 4096
                };
                for page in (range.start..range.end).step_by(4096) {
                    map(&mut drv, &mr, page);
                }
                resume(&mut drv, &pf);
            }
        }
    }
    rnr
}

/// Every fault-path number.
pub fn top_faults(progress: &mut dyn FnMut(&str)) -> FaultNumbers {
    let mut n = FaultNumbers::default();
    progress("odp_mmu: one fault, its NAK, event, RESUME and wake");
    one_fault(&mut n);
    progress("odp_mmu: cold 4 MiB RDMA WRITE with the prefetch hint");
    n.cold_4mib_write_rnr_round_trips_with_hint = cold_write_round_trips(true);
    progress("odp_mmu: cold 4 MiB RDMA WRITE without the hint");
    n.cold_4mib_write_rnr_round_trips_without_hint = cold_write_round_trips(false);
    n
}
