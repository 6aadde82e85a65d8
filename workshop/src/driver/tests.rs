//! The driver's event ring, RESUME_FAULT, fault loop and QP commands against
//! a fake core: registers, a command unit that knows which tokens are posted
//! and how many QPs its responder has, and a ring writer that puts records
//! into host memory the way `docs/events.md` says (the reference model's
//! encoders and slot / owner rules), with word 3 last.

use std::collections::{HashMap, HashSet};

use super::*;
use crate::models::events_ref::{self, Record};
use crate::models::host_memory::{HostMemory, MemConfig};
use crate::models::page_table::{walk, Outcome};
use odp_mmu::control::command::{self, RES_NOT_BUILT, RES_OK};
use odp_mmu::fault::{EVENT_OWNER_BIT, EVENT_RECORD_BYTES};
use odp_mmu::spec::op as req_op;

/// A fake core: just enough of the register file, the command unit and the
/// event-ring writer.
struct FakeCore {
    mem: HostMemory,
    regs: HashMap<u16, u32>,
    /// Every register write, in order.
    writes: Vec<(u16, u32)>,
    /// Every doorbell: op and the argument words it copied.
    commands: Vec<(u8, Vec<u32>)>,
    args: [u32; regmap::CMD_ARGS],
    result: u8,
    /// Tokens of posted faults (written into the ring, not yet resumed).
    posted: HashSet<u32>,
    /// A result code for RESUME_FAULT in place of the token check.
    resume_code: Option<u8>,
    /// QPs the responder keeps state for: a QP command naming one at or
    /// beyond finishes QP_RANGE.
    qp_table: u32,
    /// A result code for QP commands in place of the QPN check.
    qp_code: Option<u8>,
    /// Writes to this register answer SLVERR.
    slverr_at: Option<u16>,
    /// The writer's producer index (`EQ_PROD`).
    prod: u32,
    /// A record whose last beat (word 3) has not landed: address and word.
    half: Option<(u64, u64)>,
}

impl FakeCore {
    fn new() -> Self {
        Self {
            mem: HostMemory::new(MemConfig::fixed(1)),
            regs: HashMap::new(),
            writes: Vec::new(),
            commands: Vec::new(),
            args: [0; regmap::CMD_ARGS],
            result: 0,
            posted: HashSet::new(),
            resume_code: None,
            qp_table: 16,
            qp_code: None,
            slverr_at: None,
            prod: 0,
            half: None,
        }
    }

    fn reg(&self, addr: u16) -> u32 {
        self.regs.get(&addr).copied().unwrap_or(0)
    }

    /// The writes to the `EQ_*` registers and `CTRL`, in order.
    fn ring_writes(&self) -> Vec<(u16, u32)> {
        let ring_regs = [
            regmap::EQ_BASE_LO,
            regmap::EQ_BASE_HI,
            regmap::EQ_LOG2_SIZE,
            regmap::EQ_CONS,
            regmap::CTRL,
        ];
        self.writes
            .iter()
            .copied()
            .filter(|(a, _)| ring_regs.contains(a))
            .collect()
    }

    /// The values written to `EQ_CONS`, in order.
    fn cons_writes(&self) -> Vec<u32> {
        self.writes
            .iter()
            .filter(|(a, _)| *a == regmap::EQ_CONS)
            .map(|(_, v)| *v)
            .collect()
    }

    /// The ring writer takes `rec` if the ring is enabled and has room, and
    /// writes words 0 to 2 of it; word 3 (with the owner bit) lands only when
    /// `land` is set, else at [`FakeCore::land_last_beat`].
    fn take(&mut self, rec: &Record, land: bool) -> bool {
        assert!(self.half.is_none(), "one record in flight at a time");
        let log2 = self.reg(regmap::EQ_LOG2_SIZE);
        let cons = self.reg(regmap::EQ_CONS);
        if !events_ref::size_legal(log2) || !events_ref::has_room(self.prod, cons, log2) {
            return false;
        }
        let base =
            self.reg(regmap::EQ_BASE_LO) as u64 | (self.reg(regmap::EQ_BASE_HI) as u64) << 32;
        let addr = events_ref::slot_addr(base, log2, self.prod);
        let words = rec.in_ring(self.prod, log2);
        for (k, w) in words.iter().enumerate().take(3) {
            self.mem.write64(addr + 8 * k as u64, *w);
        }
        self.half = Some((addr + 24, words[3]));
        if let Event::PageFault(f) = Event::decode(&words) {
            self.posted.insert(f.token);
        }
        self.prod = self.prod.wrapping_add(1);
        if land {
            self.land_last_beat();
        }
        true
    }

    fn land_last_beat(&mut self) {
        let (addr, w3) = self.half.take().expect("a record in flight");
        self.mem.write64(addr, w3);
    }

    fn doorbell(&mut self, bell: u32) {
        let op = (bell >> regmap::CMD_DOORBELL_OP_LSB) as u8;
        self.commands.push((op, self.args.to_vec()));
        self.result = match op {
            op::MR_WRITE | op::MR_SET_STATE => RES_OK as u8,
            op::RESUME_FAULT => match self.resume_code {
                Some(code) => code,
                None if self.posted.remove(&self.args[0]) => RES_OK as u8,
                None => RES_STALE_TOKEN,
            },
            op::QP_RESET | op::QP_RNR_TIMER => match self.qp_code {
                Some(code) => code,
                None if self.args[0] & command::QPN_RESERVED_MASK != 0 => {
                    command::RES_BAD_FIELD as u8
                }
                None if self.args[0] >= self.qp_table => RES_QP_RANGE,
                None => RES_OK as u8,
            },
            _ => RES_NOT_BUILT as u8,
        };
    }
}

impl WordMemory for FakeCore {
    fn load64(&mut self, addr: u64) -> u64 {
        self.mem.read64(addr)
    }
    fn store64(&mut self, addr: u64, value: u64) {
        self.mem.write64(addr, value)
    }
}

impl Bus for FakeCore {
    fn read32(&mut self, addr: u16) -> u32 {
        match addr {
            regmap::EQ_PROD => self.prod,
            // Never busy: every command finishes at its doorbell.
            regmap::CMD_STATUS => (self.result as u32) << regmap::CMD_STATUS_RESULT_LSB,
            _ => self.reg(addr),
        }
    }

    fn write32(&mut self, addr: u16, data: u32) -> std::result::Result<(), u8> {
        if self.slverr_at == Some(addr) {
            return Err(2);
        }
        self.writes.push((addr, data));
        match addr {
            regmap::CMD_DOORBELL => self.doorbell(data),
            a if (regmap::CMD_ARG0..regmap::cmd_arg(regmap::CMD_ARGS)).contains(&a) => {
                self.args[(a - regmap::CMD_ARG0) as usize / 4] = data;
            }
            _ => {
                self.regs.insert(addr, data);
            }
        }
        Ok(())
    }
}

/// Ring base with bits set above bit 31 (so `EQ_BASE_HI` matters).
const BASE: u64 = 0x1_2345_6780;
/// log2 of the ring of the lap tests: 4 entries.
const LOG2: u32 = 2;

fn driver() -> Driver<FakeCore> {
    Driver::new(FakeCore::new(), 0x1000..0x1100, true)
}

/// The `i`-th record of a stream that cycles through every kind and an
/// unknown one, with values that differ per record.
fn record(i: u32) -> Record {
    let mr = 0x100 + i as u16;
    match i % 6 {
        0 => Record::page_fault(
            (i % 4) as u8,
            mr,
            0x0100 | (i & 0xff),
            0x7f00_0000_0000 + ((i as u64) << 12),
            8 * i,
            4096 * i + 1,
            0xab_c000 + i,
        ),
        1 => Record::inv_done(mr, 0xdead_0000 + i),
        2 => Record::prefetch_done(mr, 0x7a60 + i, 3 * i, i, 5 * i),
        3 => Record::mr_suspended(mr),
        4 => Record::error(0x40 + i as u8, mr, 0x1234_5678_9abc_0000 + i as u64),
        _ => Record {
            w: [0x99 | (i as u64) << 40, i as u64, !(i as u64), 0x55],
        },
    }
}

/// What `record(i)` decodes to, written out field by field.
fn expected(i: u32, log2: u32) -> Event {
    let mr = 0x100 + i as u16;
    match i % 6 {
        0 => Event::PageFault(PageFaultEvent {
            token: 0x0100 | (i & 0xff),
            mr,
            qpn: 0xab_c000 + i,
            op: (i % 4) as u8,
            page_va: 0x7f00_0000_0000 + ((i as u64) << 12),
            hint_before: 8 * i,
            hint_after: 4096 * i + 1,
        }),
        1 => Event::InvalidationDone {
            mr,
            tag: 0xdead_0000 + i,
        },
        2 => Event::PrefetchDone {
            mr,
            tag: 0x7a60 + i,
            filled: 3 * i,
            faulted: i,
            refused: 5 * i,
        },
        3 => Event::MrSuspended { mr },
        4 => Event::Error {
            code: 0x40 + i as u8,
            mr,
            detail: 0x1234_5678_9abc_0000 + i as u64,
            more: false,
        },
        // Unknown keeps the words as read, owner bit included.
        _ => Event::Unknown {
            words: [
                0x99 | (i as u64) << 40,
                i as u64,
                !(i as u64),
                0x55 | (events_ref::owner(i, log2) as u64) << EVENT_OWNER_BIT,
            ],
        },
    }
}

#[test]
fn driver_event_decode_reads_every_field_of_every_kind() {
    for i in 0..12 {
        let words = record(i).in_ring(i, LOG2);
        assert_eq!(Event::decode(&words), expected(i, LOG2), "record {i}");
    }
    // Reserved bits of word 3 and the owner bit are not part of the QPN.
    let mut w = Record::page_fault(
        req_op::LOCAL_WRITE as u8,
        7,
        0x0203,
        0x5000,
        0,
        0,
        0xff_ffff,
    )
    .w;
    w[3] |= 0xffu64 << 24 | 1 << EVENT_OWNER_BIT;
    match Event::decode(&w) {
        Event::PageFault(f) => {
            assert_eq!((f.qpn, f.op, f.token, f.mr), (0xff_ffff, 3, 0x0203, 7));
        }
        e => panic!("{e:?}"),
    }
}

#[test]
fn driver_page_fault_prefetch_range_covers_the_hint() {
    let f = PageFaultEvent {
        token: 0,
        mr: 0,
        qpn: 0,
        op: 0,
        page_va: 0x10_0000,
        hint_before: 0x800,
        hint_after: 0x3000,
    };
    assert_eq!(f.prefetch_range(), 0xf_f800..0x10_4000);
    let none = PageFaultEvent {
        hint_before: 0,
        hint_after: 0,
        ..f
    };
    assert_eq!(none.prefetch_range(), 0x10_0000..0x10_1000);
}

#[test]
fn driver_setup_event_ring_disables_checks_zeroes_then_enables_in_order() {
    let mut drv = driver();
    let bytes = EVENT_RECORD_BYTES << LOG2;
    // Old contents in the ring (owner bits set) and a word just past it.
    for k in 0..bytes / 8 + 1 {
        drv.bus.mem.write64(BASE + 8 * k, u64::MAX);
    }
    // ADAPTIVE_RNR set: the read-modify-write of CTRL keeps it.
    drv.bus
        .regs
        .insert(regmap::CTRL, 1 << regmap::CTRL_ADAPTIVE_RNR);
    let ring = drv.setup_event_ring(BASE, LOG2, true).unwrap();
    assert_eq!(
        ring,
        EventRing {
            base: BASE,
            log2_size: LOG2,
            cons: 0
        }
    );
    assert_eq!((ring.entries(), ring.bytes()), (4, 128));
    assert_eq!(drv.event_ring(), Some(ring));
    assert_eq!(
        drv.bus.ring_writes(),
        vec![
            (regmap::EQ_LOG2_SIZE, 0),
            (regmap::EQ_BASE_LO, 0x2345_6780),
            (regmap::EQ_BASE_HI, 1),
            (regmap::EQ_CONS, 0),
            (regmap::EQ_LOG2_SIZE, LOG2),
            (
                regmap::CTRL,
                1 << regmap::CTRL_ADAPTIVE_RNR | 1 << regmap::CTRL_IRQ_EN
            ),
        ]
    );
    for k in 0..bytes / 8 {
        assert_eq!(drv.bus.mem.read64(BASE + 8 * k), 0, "ring word {k}");
    }
    assert_eq!(drv.bus.mem.read64(BASE + bytes), u64::MAX, "past the ring");

    // irq false clears IRQ_EN and keeps the rest.
    let mut drv = driver();
    drv.bus.regs.insert(regmap::CTRL, 0b11);
    drv.setup_event_ring(BASE, 16, false).unwrap();
    assert_eq!(drv.bus.reg(regmap::CTRL), 1 << regmap::CTRL_ADAPTIVE_RNR);
    assert_eq!(drv.bus.reg(regmap::EQ_LOG2_SIZE), 16);
}

#[test]
fn driver_setup_event_ring_refuses_bad_sizes_bases_and_a_ring_not_reset() {
    let mut drv = driver();
    for (base, log2) in [(BASE, 0), (BASE, 17), (BASE, 31), (BASE + 8, LOG2)] {
        assert!(
            matches!(
                drv.setup_event_ring(base, log2, true),
                Err(Error::BadArgument { .. })
            ),
            "base {base:#x} log2 {log2}"
        );
    }
    assert!(drv.bus.writes.is_empty(), "refused before any write");

    // The writer has taken records since reset: the ring is disabled and
    // left so, and the driver has no ring.
    drv.bus.prod = 5;
    drv.bus.regs.insert(regmap::EQ_LOG2_SIZE, 3);
    assert_eq!(
        drv.setup_event_ring(BASE, LOG2, true),
        Err(Error::RingNotReset { prod: 5 })
    );
    assert_eq!(drv.bus.ring_writes(), vec![(regmap::EQ_LOG2_SIZE, 0)]);
    assert_eq!(drv.event_ring(), None);
    assert!(matches!(drv.poll_events(), Err(Error::BadArgument { .. })));
}

#[test]
fn driver_poll_events_follows_the_owner_bit_over_four_laps() {
    let mut drv = driver();
    drv.setup_event_ring(BASE, LOG2, true).unwrap();
    let mut next = 0u32; // records produced
    let mut cons_writes = vec![0];
    // Batch sizes up to the ring's 4 entries; 18 records are four and a
    // half laps of the ring, so the owner bit flips four times.
    for batch in [3, 1, 4, 2, 4, 3, 1] {
        for _ in 0..batch {
            assert!(drv.bus.take(&record(next), true), "record {next} taken");
            next += 1;
        }
        let first = next - batch;
        let want: Vec<Event> = (first..next).map(|i| expected(i, LOG2)).collect();
        assert_eq!(drv.poll_events().unwrap(), want, "records {first}..{next}");
        assert_eq!(drv.event_ring().unwrap().cons, next);
        cons_writes.push(next);
        assert_eq!(
            drv.bus.cons_writes(),
            cons_writes,
            "one EQ_CONS write a batch"
        );
        // Nothing new: no record and no write.
        assert_eq!(drv.poll_events().unwrap(), vec![]);
        assert_eq!(drv.bus.cons_writes(), cons_writes);
    }
    assert_eq!(next, 18);
}

#[test]
fn driver_poll_events_takes_a_full_ring_in_one_batch_and_frees_it() {
    let mut drv = driver();
    drv.setup_event_ring(BASE, LOG2, false).unwrap();
    for lap in 0..3u32 {
        for k in 0..4 {
            assert!(drv.bus.take(&record(4 * lap + k), true));
        }
        // Full: the writer takes nothing until EQ_CONS moves.
        assert!(!drv.bus.take(&record(99), true));
        let got = drv.poll_events().unwrap();
        assert_eq!(got.len(), 4, "lap {lap}");
        assert_eq!(got[0], expected(4 * lap, LOG2));
        assert_eq!(drv.bus.reg(regmap::EQ_CONS), 4 * (lap + 1));
    }
    assert_eq!(drv.bus.cons_writes(), vec![0, 4, 8, 12]);
}

#[test]
fn driver_poll_events_stops_at_a_record_whose_owner_bit_has_not_landed() {
    let mut drv = driver();
    drv.setup_event_ring(BASE, LOG2, true).unwrap();
    let mut next = 0u32;
    let mut want_cons = vec![0];
    // Half-written records at index 2 (lap 0: the slot is zero), 5 (lap 1:
    // the slot holds record 1, owner 1) and 9 (lap 2: record 5, owner 0).
    for (whole_before, half_at) in [(2, 2), (2, 5), (3, 9)] {
        for _ in 0..whole_before {
            assert!(drv.bus.take(&record(next), true));
            next += 1;
        }
        assert_eq!(next, half_at);
        assert!(drv.bus.take(&record(next), false), "record {next} taken");
        let got = drv.poll_events().unwrap();
        assert_eq!(got.len(), whole_before as usize, "stops before {half_at}");
        assert_eq!(drv.event_ring().unwrap().cons, half_at);
        want_cons.push(half_at);
        // Words 0 to 2 are there, word 3 is not: still nothing new.
        assert_eq!(drv.poll_events().unwrap(), vec![]);
        assert_eq!(drv.bus.cons_writes(), want_cons);
        drv.bus.land_last_beat();
        assert_eq!(drv.poll_events().unwrap(), vec![expected(half_at, LOG2)]);
        next += 1;
        want_cons.push(next);
        assert_eq!(drv.bus.cons_writes(), want_cons);
    }
}

#[test]
fn driver_poll_events_keeps_its_index_when_the_eq_cons_write_fails() {
    let mut drv = driver();
    drv.setup_event_ring(BASE, LOG2, true).unwrap();
    for i in 0..3 {
        assert!(drv.bus.take(&record(i), true));
    }
    drv.bus.slverr_at = Some(regmap::EQ_CONS);
    assert_eq!(
        drv.poll_events(),
        Err(Error::Bus {
            addr: regmap::EQ_CONS,
            bresp: 2
        })
    );
    assert_eq!(drv.event_ring().unwrap().cons, 0);
    drv.bus.slverr_at = None;
    let want: Vec<Event> = (0..3).map(|i| expected(i, LOG2)).collect();
    assert_eq!(drv.poll_events().unwrap(), want, "the same records again");
    assert_eq!(drv.bus.cons_writes(), vec![0, 3]);
}

#[test]
fn driver_resume_fault_sends_token_and_flag_and_tells_a_stale_token_apart() {
    let mut drv = driver();
    drv.bus.posted.extend([0x0105, 0x0207]);
    drv.resume_fault(0x0105, false).unwrap();
    drv.resume_fault(0x0207, true).unwrap();
    assert_eq!(
        drv.resume_fault(0x0105, false),
        Err(Error::StaleToken { token: 0x0105 })
    );
    let sent: Vec<(u8, u32, u32)> = drv
        .bus
        .commands
        .iter()
        .map(|(o, a)| (*o, a[0], a[1]))
        .collect();
    assert_eq!(
        sent,
        vec![
            (op::RESUME_FAULT, 0x0105, 0),
            (op::RESUME_FAULT, 0x0207, 1),
            (op::RESUME_FAULT, 0x0105, 0),
        ]
    );
    // Any other refusal stays a command error with its code.
    drv.bus.resume_code = Some(RES_NOT_BUILT as u8);
    assert_eq!(
        drv.resume_fault(0x0300, false),
        Err(Error::Command {
            op: op::RESUME_FAULT,
            code: RES_NOT_BUILT as u8
        })
    );
    // The flag is the register map's RESUME_FAULT FLAGS.ERROR.
    let flags = regmap::op_by_code(op::RESUME_FAULT).unwrap().args[1].fields[0];
    assert_eq!(flags.name, "ERROR");
    assert_eq!(RESUME_FLAGS_ERROR, 1 << flags.lsb);
    assert_eq!(flags.width, 1);
}

#[test]
fn driver_qp_commands_send_qpn_kind_and_timer_and_tell_a_qpn_out_of_range_apart() {
    let mut drv = driver();
    drv.qp_reset(5).unwrap();
    drv.set_qp_rnr_timer(7, Some(14)).unwrap();
    drv.set_qp_rnr_timer(7, None).unwrap();
    drv.set_qp_rnr_timer(15, Some(31)).unwrap();
    drv.set_qp_rnr_timer(0, Some(0)).unwrap();
    // The fake responder has 16 QPs.
    assert_eq!(drv.qp_reset(16), Err(Error::QpRange { qpn: 16 }));
    assert_eq!(
        drv.set_qp_rnr_timer(0x00ff_ffff, None),
        Err(Error::QpRange { qpn: 0x00ff_ffff })
    );
    // The argument words each op reads: QP_RESET ARG0, QP_RNR_TIMER ARG0
    // and ARG1.
    let sent: Vec<(u8, Vec<u32>)> = drv
        .bus
        .commands
        .iter()
        .map(|(o, a)| (*o, a[..if *o == op::QP_RESET { 1 } else { 2 }].to_vec()))
        .collect();
    assert_eq!(
        sent,
        vec![
            (op::QP_RESET, vec![5]),
            (op::QP_RNR_TIMER, vec![7, 0x100 | 14]),
            (op::QP_RNR_TIMER, vec![7, 0]),
            (op::QP_RNR_TIMER, vec![15, 0x100 | 31]),
            (op::QP_RNR_TIMER, vec![0, 0x100]),
            (op::QP_RESET, vec![16]),
            (op::QP_RNR_TIMER, vec![0x00ff_ffff, 0]),
        ]
    );
    // Any other refusal stays a command error with its code.
    drv.bus.qp_code = Some(RES_NOT_BUILT as u8);
    assert_eq!(
        drv.qp_reset(3),
        Err(Error::Command {
            op: op::QP_RESET,
            code: RES_NOT_BUILT as u8
        })
    );
    assert_eq!(
        drv.set_qp_rnr_timer(3, Some(1)),
        Err(Error::Command {
            op: op::QP_RNR_TIMER,
            code: RES_NOT_BUILT as u8
        })
    );
    // The ENABLE bit and the CODE field are the register map's
    // QP_RNR_TIMER TIMER fields.
    let fields = regmap::op_by_code(op::QP_RNR_TIMER).unwrap().args[1].fields;
    let (code, enable) = (fields[0], fields[1]);
    assert_eq!((code.name, enable.name), ("CODE", "ENABLE"));
    assert_eq!(QP_TIMER_ENABLE, 1 << enable.lsb);
    assert_eq!(enable.width, 1);
    assert_eq!(command::QP_TIMER_CODE_MASK, code.mask());
    assert_eq!(QPN_MAX, 0x00ff_ffff);
}

#[test]
fn driver_qp_commands_refuse_what_the_core_would_and_send_nothing() {
    let mut drv = driver();
    let bad = |what| Err(Error::BadArgument { what });
    assert_eq!(drv.qp_reset(1 << 24), bad("QPN beyond 24 bits"));
    assert_eq!(drv.qp_reset(u32::MAX), bad("QPN beyond 24 bits"));
    assert_eq!(
        drv.set_qp_rnr_timer(0x0100_0003, Some(3)),
        bad("QPN beyond 24 bits")
    );
    assert_eq!(
        drv.set_qp_rnr_timer(3, Some(32)),
        bad("RNR timer code beyond 31")
    );
    assert_eq!(
        drv.set_qp_rnr_timer(3, Some(0xff)),
        bad("RNR timer code beyond 31")
    );
    // Once CAP_QPS is known, a QPN at or beyond it is refused here.
    drv.caps.qps = 8;
    assert_eq!(drv.qp_reset(8), bad("QPN beyond CAP_QPS"));
    assert_eq!(drv.set_qp_rnr_timer(9, None), bad("QPN beyond CAP_QPS"));
    assert!(drv.bus.commands.is_empty(), "nothing was sent");
    drv.qp_reset(7).unwrap();
    assert_eq!(drv.bus.commands.len(), 1);
}

#[test]
fn driver_service_faults_maps_resumes_and_returns_the_other_events() {
    let mut drv = driver();
    let spec = MrSpec {
        tag: 0x21,
        pd: 1,
        base_va: 0x7f00_0000_0000,
        length: 1 << 20,
        access: 0b111,
        levels: 2,
    };
    let mr = drv.register_mr(3, spec).unwrap();
    drv.setup_event_ring(BASE, LOG2, true).unwrap();
    let va = |page: u64| spec.base_va + (page << 12);
    let fault = |token: u32, page: u64| {
        Record::page_fault(req_op::REMOTE_WRITE as u8, 3, token, va(page), 0, 0, 0x42)
    };
    // Two laps: 6 records, 4 then 2.
    let stream = [
        fault(0x0001, 0),
        Record::inv_done(3, 9),
        fault(0x0102, 1),
        Record::mr_suspended(3),
    ];
    for r in &stream {
        assert!(drv.bus.take(r, true));
    }
    let mut seen = Vec::new();
    let mut handler = |d: &mut Driver<FakeCore>, f: &PageFaultEvent| {
        seen.push(f.token);
        if f.token & 0xff == 2 {
            return FaultAnswer::Failed;
        }
        d.map(
            &mr,
            f.page_va,
            PageSize::Size4K,
            0x4_0000 + (f.token as u64 & 0xff),
            true,
        );
        FaultAnswer::Mapped
    };
    let done = drv.service_faults(&mut handler).unwrap();
    let pf = |r: &Record| match Event::decode(&r.in_ring(0, LOG2)) {
        Event::PageFault(f) => f,
        e => panic!("{e:?}"),
    };
    assert_eq!(
        done,
        FaultService {
            resumed: vec![
                (pf(&stream[0]), FaultAnswer::Mapped),
                (pf(&stream[2]), FaultAnswer::Failed)
            ],
            failed: vec![],
            unhandled: vec![],
            others: vec![
                Event::InvalidationDone { mr: 3, tag: 9 },
                Event::MrSuspended { mr: 3 }
            ],
        }
    );
    // The handler's map is in the page table before its RESUME_FAULT.
    assert_eq!(
        walk(&drv.bus.mem, mr.tables.root, mr.tables.levels_m1, 0),
        Outcome::Ok {
            ppn: 0x4_0001,
            size: PageSize::Size4K,
            writable: true
        }
    );
    assert!(drv.bus.posted.is_empty());

    // Second lap: a stale token (its fault already resumed) and one more.
    drv.bus.posted.clear();
    let stale = fault(0x0001, 0);
    assert!(drv.bus.take(&stale, true));
    drv.bus.posted.remove(&0x0001); // resumed meanwhile
    assert!(drv.bus.take(&fault(0x0103, 2), true));
    let done = drv.service_faults(&mut handler).unwrap();
    assert_eq!(
        done.resumed,
        vec![(pf(&fault(0x0103, 2)), FaultAnswer::Mapped)]
    );
    assert_eq!(
        done.failed,
        vec![(pf(&stale), Error::StaleToken { token: 0x0001 })]
    );
    assert_eq!(seen, vec![0x0001, 0x0102, 0x0001, 0x0103]);
    assert_eq!(drv.bus.cons_writes(), vec![0, 4, 6]);
    let resumes: Vec<(u32, u32)> = drv
        .bus
        .commands
        .iter()
        .filter(|(o, _)| *o == op::RESUME_FAULT)
        .map(|(_, a)| (a[0], a[1]))
        .collect();
    assert_eq!(
        resumes,
        vec![(0x0001, 0), (0x0102, 1), (0x0001, 0), (0x0103, 0)]
    );
}

#[test]
fn driver_service_faults_stops_resuming_on_a_bus_error_and_drops_nothing() {
    let mut drv = driver();
    drv.setup_event_ring(BASE, LOG2, true).unwrap();
    let f = |token: u32| Record::page_fault(0, 1, token, (token as u64) << 12, 0, 0, 5);
    let stream = [f(1), f(2), Record::mr_suspended(1), f(3)];
    for r in &stream {
        assert!(drv.bus.take(r, true));
    }
    drv.bus.slverr_at = Some(regmap::CMD_DOORBELL);
    let mut calls = 0;
    let done = drv
        .service_faults(|_, _| {
            calls += 1;
            FaultAnswer::Mapped
        })
        .unwrap();
    let pf = |t: u32| match Event::decode(&f(t).w) {
        Event::PageFault(p) => p,
        e => panic!("{e:?}"),
    };
    assert_eq!(calls, 1, "no handler call once the core stops answering");
    assert_eq!(done.resumed, vec![]);
    assert_eq!(
        done.failed,
        vec![(
            pf(1),
            Error::Bus {
                addr: regmap::CMD_DOORBELL,
                bresp: 2
            }
        )]
    );
    assert_eq!(done.unhandled, vec![pf(2), pf(3)]);
    assert_eq!(done.others, vec![Event::MrSuspended { mr: 1 }]);
    assert_eq!(drv.event_ring().unwrap().cons, 4);
}

#[test]
fn driver_new_errors_display() {
    assert_eq!(
        Error::StaleToken { token: 0x102 }.to_string(),
        "RESUME_FAULT token 0x00000102 is stale"
    );
    assert!(Error::RingNotReset { prod: 3 }
        .to_string()
        .contains("EQ_PROD reads 3"));
    assert_eq!(
        Error::QpRange { qpn: 0x400 }.to_string(),
        "QPN 0x400 is beyond the core's QPs"
    );
}
