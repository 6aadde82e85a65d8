//! Reference model of the fault queue (`odp_mmu::fault::fault_queue`): the
//! pending-fault table, its wait lists, the prefetch hint, the page-fault
//! record, the RESUME check and the notes it sends, in plain Rust, from the
//! rules of `docs/fault_queue.md` (SPEC sections 1, 4 and 5.3). No timing:
//! the testbench applies each fault, record and RESUME in the order the
//! block takes them and checks the clocks itself; it also tells the model
//! when a resumed slot's lists have been read ([`FaultQueueRef::finish_drain`]),
//! since `rst` in the middle of that read moves the slot's generation once,
//! and after it twice.

use std::collections::BTreeSet;

use super::events_ref::Record;

/// A slot's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum State {
    #[default]
    Free,
    /// Recorded, its record not yet taken on `m_ev`.
    New,
    /// Its record was taken; waits for its RESUME.
    Posted,
    /// RESUME accepted: its wait lists are being read. Not pending; FREE
    /// (generation + 1) once read.
    Drain,
}

/// One fault as the block takes it on `s_flt`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fault {
    /// MR index (8 bits).
    pub mr: u8,
    /// 4 KiB page number (52 bits).
    pub vpn: u64,
    /// Local QP (24 bits).
    pub qpn: u32,
    /// Request op (`spec::op`); bit 1 set: a local op.
    pub op: u8,
    /// The request's first byte and length.
    pub va: u64,
    pub msg_len: u32,
    /// The MR's bounds: base VA and base VA + length.
    pub mr_lo: u64,
    pub mr_hi: u64,
}

impl Fault {
    /// A local op (`op[1]` set): its QP stalls rather than getting RNR.
    pub fn local(&self) -> bool {
        self.op & 2 != 0
    }
}

/// What a fault did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Recorded in a new slot (`cnt_new`).
    New(usize),
    /// Coalesced into the pending slot holding its page (`cnt_coalesced`).
    Coalesced(usize),
    /// Not recorded: every slot busy (`cnt_overflow`).
    Overflow,
}

/// One note on `m_note`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Note {
    pub qpn: u32,
    /// Send the QP one `m_wake`.
    pub wake: bool,
    /// Put the QP in error (SET_ERROR).
    pub err: bool,
}

/// Why a RESUME was stale (the block only pulses `res_stale`; the kind is
/// for the testbench's coverage). Checked in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stale {
    /// Bits `[31:16]` of the token are not zero.
    HighBits,
    /// Bits `[7:0]` name no slot of this table.
    NoSlot,
    /// The slot is FREE.
    Free,
    /// The slot is NEW: its record was not taken yet.
    New,
    /// The slot is POSTED under another generation.
    WrongGen,
}

/// One slot of the table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    pub state: State,
    pub mr: u8,
    pub vpn: u64,
    /// Uses of the slot, mod 256: + 1 when freed and on every `rst`.
    pub gen: u8,
    /// The first fault's QPN and op, and the prefetch hint (bytes before
    /// and after the page).
    pub qpn: u32,
    pub op: u8,
    pub before: u32,
    pub after: u32,
    /// Wait lists: QPs that got STALL / RNR on the slot.
    pub stall: BTreeSet<u32>,
    pub rnr: BTreeSet<u32>,
}

impl Slot {
    /// NEW or POSTED: answers lookups and takes coalescing faults.
    pub fn pending(&self) -> bool {
        matches!(self.state, State::New | State::Posted)
    }
}

/// The token of `slot` under generation `gen`: `[7:0]` the slot, `[15:8]`
/// the generation, `[31:16]` zero.
pub fn token(slot: usize, gen: u8) -> u32 {
    slot as u32 | (gen as u32) << 8
}

/// The prefetch hint of a fault, `(before, after)` in bytes, per
/// `docs/fault_queue.md`: with `p = vpn << 12`,
/// `after = max(0, min(va + msg_len, mr_hi) - (p + 4096))` and
/// `before = max(0, p - max(va, mr_lo))`, each then clamped to `cap`; no
/// wrap-around anywhere (the sums are exact).
pub fn hint(va: u64, msg_len: u32, vpn: u64, mr_lo: u64, mr_hi: u64, cap: u32) -> (u32, u32) {
    let p = (vpn as u128) << 12;
    let end = (va as u128 + msg_len as u128).min(mr_hi as u128);
    let after = end.saturating_sub(p + 4096).min(cap as u128);
    let before = p
        .saturating_sub((va as u128).max(mr_lo as u128))
        .min(cap as u128);
    (before as u32, after as u32)
}

/// The fault queue with `2^slot_bits` slots and wait-list bits for
/// `2^qp_bits` QPs.
#[derive(Clone, Debug)]
pub struct FaultQueueRef {
    pub slot_bits: u32,
    pub qp_bits: u32,
    pub slots: Vec<Slot>,
    /// Local QPs that faulted while every slot was busy.
    pub overflow: BTreeSet<u32>,
    /// The slot whose lists are being read, if any.
    pub draining: Option<usize>,
    // Counts, kept over `reset`.
    pub new: u64,
    pub coalesced: u64,
    pub overflowed: u64,
    pub posted: u64,
    pub resumed: u64,
    pub resumed_err: u64,
    /// Stale RESUMEs by kind, in the order of [`Stale`].
    pub stale: [u64; 5],
    /// Notes sent, and those of them from the overflow list.
    pub notes: u64,
    pub overflow_wakes: u64,
    pub resets: u64,
    /// Local QPs that joined a stall or overflow list they were not on
    /// (`cnt_waiting`): each is owed one wake.
    pub waiting_joins: u64,
    /// Re-announces ([`FaultQueueRef::repost`]) and the slots they moved.
    pub reposts: u64,
    pub reposted_slots: u64,
}

impl FaultQueueRef {
    /// The table as it is after the power-up sweep: every slot FREE at
    /// generation 0, every list empty.
    pub fn new(slot_bits: u32, qp_bits: u32) -> Self {
        assert!((1..=6).contains(&slot_bits) && (5..=12).contains(&qp_bits));
        Self {
            slot_bits,
            qp_bits,
            slots: vec![Slot::default(); 1 << slot_bits],
            overflow: BTreeSet::new(),
            draining: None,
            new: 0,
            coalesced: 0,
            overflowed: 0,
            posted: 0,
            resumed: 0,
            resumed_err: 0,
            stale: [0; 5],
            notes: 0,
            overflow_wakes: 0,
            resets: 0,
            waiting_joins: 0,
            reposts: 0,
            reposted_slots: 0,
        }
    }

    /// `rst`: every slot FREE and its generation + 1, every list empty (a
    /// slot whose lists were being read gets this one increment only).
    pub fn reset(&mut self) {
        self.draining = None;
        for s in &mut self.slots {
            let gen = s.gen.wrapping_add(1);
            *s = Slot {
                gen,
                ..Slot::default()
            };
        }
        self.overflow.clear();
        self.resets += 1;
    }

    /// Whether `qpn` has wait-list bits.
    pub fn has_list(&self, qpn: u32) -> bool {
        (qpn as u64) < 1u64 << self.qp_bits
    }

    /// The pending slot holding (`mr`, `vpn`), if any.
    pub fn lookup(&self, mr: u8, vpn: u64) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| s.pending() && s.mr == mr && s.vpn == vpn)
    }

    /// Slots NEW or POSTED (the `pending` output).
    pub fn pending(&self) -> usize {
        self.slots.iter().filter(|s| s.pending()).count()
    }

    /// The lowest NEW slot: the next record due on `m_ev`.
    pub fn lowest_new(&self) -> Option<usize> {
        self.slots.iter().position(|s| s.state == State::New)
    }

    /// The token the slot's record carries now.
    pub fn token(&self, slot: usize) -> u32 {
        token(slot, self.slots[slot].gen)
    }

    /// The draining slot's lists are read: it is FREE under its next
    /// generation. A fault or RESUME taken implies it.
    pub fn finish_drain(&mut self) {
        if let Some(k) = self.draining.take() {
            let s = &mut self.slots[k];
            s.state = State::Free;
            s.gen = s.gen.wrapping_add(1);
        }
    }

    /// A fault, with the `hint_cap` the block applies to it.
    pub fn fault(&mut self, f: &Fault, cap: u32) -> Outcome {
        self.finish_drain();
        let out = if let Some(k) = self.lookup(f.mr, f.vpn) {
            self.coalesced += 1;
            Outcome::Coalesced(k)
        } else if let Some(k) = self.slots.iter().position(|s| s.state == State::Free) {
            let (before, after) = hint(f.va, f.msg_len, f.vpn, f.mr_lo, f.mr_hi, cap);
            let s = &mut self.slots[k];
            let gen = s.gen;
            *s = Slot {
                state: State::New,
                mr: f.mr,
                vpn: f.vpn & ((1 << 52) - 1),
                gen,
                qpn: f.qpn & 0xff_ffff,
                op: f.op & 3,
                before,
                after,
                ..Slot::default()
            };
            self.new += 1;
            Outcome::New(k)
        } else {
            self.overflowed += 1;
            Outcome::Overflow
        };
        if self.has_list(f.qpn) {
            match out {
                Outcome::New(k) | Outcome::Coalesced(k) => {
                    let s = &mut self.slots[k];
                    if f.local() {
                        self.waiting_joins += s.stall.insert(f.qpn) as u64;
                    } else {
                        s.rnr.insert(f.qpn);
                    }
                }
                Outcome::Overflow => {
                    if f.local() {
                        self.waiting_joins += self.overflow.insert(f.qpn) as u64;
                    }
                }
            }
        }
        out
    }

    /// The page-fault record of `slot` (word 3 without the owner bit).
    pub fn record(&self, slot: usize) -> [u64; 4] {
        let s = &self.slots[slot];
        Record::page_fault(
            s.op,
            s.mr as u16,
            self.token(slot),
            s.vpn << 12,
            s.before,
            s.after,
            s.qpn,
        )
        .w
    }

    /// The record of `slot` was taken on `m_ev`: the slot is POSTED.
    pub fn post(&mut self, slot: usize) {
        let s = &mut self.slots[slot];
        assert_eq!(
            s.state,
            State::New,
            "slot {slot} posted while {:?}",
            s.state
        );
        s.state = State::Posted;
        self.posted += 1;
    }

    /// Why `token` names no POSTED slot, or the slot it names.
    pub fn check(&self, token: u32) -> Result<usize, Stale> {
        let k = (token & 0xff) as usize;
        if token >> 16 != 0 {
            Err(Stale::HighBits)
        } else if k >= self.slots.len() {
            Err(Stale::NoSlot)
        } else {
            let s = &self.slots[k];
            match s.state {
                State::Free | State::Drain => Err(Stale::Free),
                State::New => Err(Stale::New),
                State::Posted if s.gen as u32 != (token >> 8) & 0xff => Err(Stale::WrongGen),
                State::Posted => Ok(k),
            }
        }
    }

    /// Re-announce (`repost`, applied on a clock the block shows
    /// `reposting`): every POSTED slot is NEW again, with its token and
    /// lists unchanged, so its record is offered again. Returns the slots
    /// moved.
    pub fn repost(&mut self) -> Vec<usize> {
        let moved: Vec<usize> = (0..self.slots.len())
            .filter(|&k| self.slots[k].state == State::Posted)
            .collect();
        for &k in &moved {
            self.slots[k].state = State::New;
        }
        self.reposts += 1;
        self.reposted_slots += moved.len() as u64;
        moved
    }

    /// RESUME_FAULT(`token`, `err`): the notes it sends, in order (the
    /// slot's QPs in ascending order, then the overflow list's), the slot in
    /// DRAIN (FREE under its next generation after
    /// [`finish_drain`](Self::finish_drain)); or why it was stale (nothing
    /// changes).
    pub fn resume(&mut self, token: u32, err: bool) -> Result<Vec<Note>, Stale> {
        self.finish_drain();
        let k = self.check(token).inspect_err(|&e| {
            self.stale[e as usize] += 1;
        })?;
        let s = std::mem::take(&mut self.slots[k]);
        self.slots[k].gen = s.gen;
        self.slots[k].state = State::Drain;
        self.draining = Some(k);
        let mut notes: Vec<Note> = s
            .stall
            .union(&s.rnr)
            .filter_map(|&qpn| {
                let stalled = s.stall.contains(&qpn);
                match (err, stalled) {
                    (false, false) => None,
                    (false, true) => Some(Note {
                        qpn,
                        wake: true,
                        err: false,
                    }),
                    (true, _) => Some(Note {
                        qpn,
                        wake: stalled,
                        err: true,
                    }),
                }
            })
            .collect();
        let woken = std::mem::take(&mut self.overflow);
        self.overflow_wakes += woken.len() as u64;
        notes.extend(woken.into_iter().map(|qpn| Note {
            qpn,
            wake: true,
            err: false,
        }));
        self.resumed += 1;
        self.resumed_err += err as u64;
        self.notes += notes.len() as u64;
        Ok(notes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCAL: u8 = 3;
    const REMOTE: u8 = 0;

    fn fault(mr: u8, vpn: u64, qpn: u32, op: u8) -> Fault {
        Fault {
            mr,
            vpn,
            qpn,
            op,
            va: vpn << 12,
            msg_len: 64,
            mr_lo: 0,
            mr_hi: u64::MAX,
        }
    }

    fn note(qpn: u32, wake: bool, err: bool) -> Note {
        Note { qpn, wake, err }
    }

    #[test]
    fn hint_is_the_rest_of_the_message_clamped_to_cap_and_mr() {
        let p = 0x7f00_0000_0000u64;
        let vpn = p >> 12;
        // Inside the page: nothing either side.
        assert_eq!(hint(p + 8, 100, vpn, 0, u64::MAX, 1 << 22), (0, 0));
        // A 4 MiB write starting on the page: the rest after it.
        assert_eq!(
            hint(p, 4 << 20, vpn, 0, u64::MAX, 4 << 20),
            (0, (4 << 20) - 4096)
        );
        // Crossing: the second page of the request.
        assert_eq!(
            hint(p - 100, 200, vpn, 0, u64::MAX, 1 << 22),
            (100, 0),
            "before = p - va"
        );
        // The message larger than the cap, both sides.
        assert_eq!(
            hint(p - 0x10_0000, 0x30_0000, vpn, 0, u64::MAX, 0x8000),
            (0x8000, 0x8000)
        );
        // The MR ends before the message: after stops at mr_hi.
        assert_eq!(hint(p, 0x10_0000, vpn, 0, p + 0x3000, 1 << 22), (0, 0x2000));
        // The MR ends on the page: nothing after (no negative).
        assert_eq!(hint(p, 0x10_0000, vpn, 0, p + 0x800, 1 << 22), (0, 0));
        // The MR starts after va: before starts at mr_lo.
        assert_eq!(
            hint(p - 0x5000, 0x6000, vpn, p - 0x2000, u64::MAX, 1 << 22),
            (0x2000, 0)
        );
        // mr_lo past the page: nothing before.
        assert_eq!(
            hint(p - 0x5000, 0x6000, vpn, p + 8, u64::MAX, 1 << 22),
            (0, 0)
        );
        // Cap 0: nothing.
        assert_eq!(hint(p - 5, 0x6000, vpn, 0, u64::MAX, 0), (0, 0));
    }

    #[test]
    fn hint_at_the_top_of_the_address_space_does_not_wrap() {
        let vpn = (1u64 << 52) - 1;
        let p = vpn << 12;
        // p + 4096 = 2^64: nothing after, though va + msg_len wraps in 64 bits.
        assert_eq!(hint(p, u32::MAX, vpn, 0, u64::MAX, u32::MAX), (0, 0));
        assert_eq!(
            hint(p - 0x1000, u32::MAX, vpn, 0, u64::MAX, u32::MAX),
            (0x1000, 0)
        );
        // va + msg_len beyond 2^64 from the page below the top.
        let vpn2 = vpn - 1;
        assert_eq!(
            hint(vpn2 << 12, u32::MAX, vpn2, 0, u64::MAX, u32::MAX),
            (0, 0xfff),
            "after = 2^64 - 1 (mr_hi) - 2^64 + 4096"
        );
        // A huge before, clamped.
        assert_eq!(hint(0, 1, vpn, 0, u64::MAX, u32::MAX), (u32::MAX, 0));
    }

    #[test]
    fn faults_take_the_lowest_free_slot_and_coalesce_on_pending_pages() {
        let mut q = FaultQueueRef::new(2, 5);
        assert_eq!(q.fault(&fault(1, 10, 3, LOCAL), 0), Outcome::New(0));
        assert_eq!(q.fault(&fault(1, 11, 3, LOCAL), 0), Outcome::New(1));
        assert_eq!(q.fault(&fault(2, 10, 4, REMOTE), 0), Outcome::New(2));
        assert_eq!(q.fault(&fault(1, 10, 5, REMOTE), 0), Outcome::Coalesced(0));
        assert_eq!(q.fault(&fault(1, 10, 3, LOCAL), 0), Outcome::Coalesced(0));
        assert_eq!(q.pending(), 3);
        assert_eq!(q.lookup(2, 10), Some(2));
        assert_eq!(q.lookup(2, 11), None);
        // The first fault's QPN and op stay in the record.
        assert_eq!(q.slots[0].qpn, 3);
        assert_eq!(q.slots[0].op, LOCAL);
        assert_eq!(q.slots[0].stall.iter().copied().collect::<Vec<_>>(), [3]);
        assert_eq!(q.slots[0].rnr.iter().copied().collect::<Vec<_>>(), [5]);
        // Slot 1 resumed: the next new fault takes it, not slot 3.
        q.post(1);
        q.resume(token(1, 0), false).unwrap();
        assert_eq!(q.lookup(1, 11), None, "a freed slot no longer matches");
        assert_eq!(q.fault(&fault(1, 11, 3, LOCAL), 0), Outcome::New(1));
        assert_eq!(q.slots[1].gen, 1);
        assert_eq!((q.new, q.coalesced, q.overflowed), (4, 2, 0));
    }

    #[test]
    fn record_words_follow_the_page_fault_layout() {
        let mut q = FaultQueueRef::new(5, 10);
        q.reset();
        q.reset();
        let f = Fault {
            mr: 0xab,
            vpn: 0x7_f123_4567,
            qpn: 0x12_3456,
            op: 2,
            va: 0x7f12_3456_6ff0,
            msg_len: 0x3000,
            mr_lo: 0,
            mr_hi: u64::MAX,
        };
        assert_eq!(q.fault(&f, 1 << 22), Outcome::New(0));
        assert_eq!(
            q.record(0),
            [
                0x0000_0200_00ab_0201,
                0x7f12_3456_7000,
                (0x1ff0u64 << 32) | 0x10,
                0x12_3456
            ]
        );
    }

    #[test]
    fn ok_resume_wakes_stallers_once_and_leaves_rnr_qps_alone() {
        let mut q = FaultQueueRef::new(2, 5);
        q.fault(&fault(0, 1, 7, LOCAL), 0);
        for (qpn, op) in [
            (7, LOCAL),
            (2, REMOTE),
            (9, LOCAL),
            (2, LOCAL),
            (31, REMOTE),
        ] {
            assert_eq!(q.fault(&fault(0, 1, qpn, op), 0), Outcome::Coalesced(0));
        }
        q.post(0);
        assert_eq!(
            q.resume(token(0, 0), false),
            Ok(vec![
                note(2, true, false),
                note(7, true, false),
                note(9, true, false)
            ])
        );
        assert_eq!(q.slots[0].state, State::Drain);
        assert_eq!(q.pending(), 0, "a draining slot is not pending");
        assert_eq!(q.lookup(0, 1), None);
        assert!(q.slots[0].stall.is_empty() && q.slots[0].rnr.is_empty());
        q.finish_drain();
        assert_eq!((q.slots[0].state, q.slots[0].gen), (State::Free, 1));
    }

    #[test]
    fn error_resume_wakes_and_errors_stallers_and_errors_rnr_qps() {
        let mut q = FaultQueueRef::new(2, 5);
        q.fault(&fault(0, 1, 7, REMOTE), 0);
        q.fault(&fault(0, 1, 3, LOCAL), 0);
        q.fault(&fault(0, 1, 7, LOCAL), 0);
        q.fault(&fault(0, 1, 1, REMOTE), 0);
        q.post(0);
        assert_eq!(
            q.resume(token(0, 0), true),
            Ok(vec![
                note(1, false, true),
                note(3, true, true),
                note(7, true, true)
            ])
        );
        assert_eq!((q.resumed, q.resumed_err, q.notes), (1, 1, 3));
    }

    #[test]
    fn qpns_beyond_the_table_get_no_list() {
        let mut q = FaultQueueRef::new(1, 5);
        q.fault(&fault(0, 1, 32, LOCAL), 0);
        q.fault(&fault(0, 1, 0x80_0000, REMOTE), 0);
        q.fault(&fault(0, 2, 1, LOCAL), 0);
        assert_eq!(q.fault(&fault(0, 3, 32, LOCAL), 0), Outcome::Overflow);
        assert!(q.overflow.is_empty());
        assert_eq!(q.slots[0].qpn, 32, "the record keeps the QPN");
        q.post(0);
        assert_eq!(q.resume(token(0, 0), true), Ok(vec![]));
    }

    #[test]
    fn overflow_wakes_local_qps_after_the_next_resume_only() {
        let mut q = FaultQueueRef::new(1, 5);
        q.fault(&fault(0, 1, 1, LOCAL), 0);
        q.fault(&fault(0, 2, 2, REMOTE), 0);
        assert_eq!(q.fault(&fault(0, 3, 9, LOCAL), 0), Outcome::Overflow);
        assert_eq!(q.fault(&fault(0, 4, 4, REMOTE), 0), Outcome::Overflow);
        assert_eq!(q.fault(&fault(0, 5, 9, LOCAL), 0), Outcome::Overflow);
        assert_eq!(q.fault(&fault(0, 5, 1, LOCAL), 0), Outcome::Overflow);
        q.post(0);
        q.post(1);
        // Stale RESUMEs wake nobody.
        assert_eq!(q.resume(token(1, 1), false), Err(Stale::WrongGen));
        assert_eq!(
            q.resume(token(1, 0), false),
            Ok(vec![note(1, true, false), note(9, true, false)]),
            "slot 1 has no staller; the overflow list follows"
        );
        assert!(q.overflow.is_empty());
        assert_eq!(
            q.resume(token(0, 0), false),
            Ok(vec![note(1, true, false)]),
            "the overflow list was read: nothing more"
        );
        assert_eq!(q.overflow_wakes, 2);
    }

    #[test]
    fn stale_tokens_of_each_kind_change_nothing() {
        let mut q = FaultQueueRef::new(2, 5);
        q.fault(&fault(0, 1, 1, LOCAL), 0);
        q.fault(&fault(0, 2, 1, LOCAL), 0);
        q.post(0);
        let before = q.slots.clone();
        assert_eq!(q.resume(token(1, 0), false), Err(Stale::New));
        assert_eq!(q.resume(token(2, 0), false), Err(Stale::Free));
        assert_eq!(q.resume(token(0, 1), false), Err(Stale::WrongGen));
        assert_eq!(q.resume(token(0, 0) | 1 << 16, false), Err(Stale::HighBits));
        assert_eq!(q.resume(token(0, 0) | 1 << 31, false), Err(Stale::HighBits));
        assert_eq!(q.resume(4, false), Err(Stale::NoSlot));
        assert_eq!(q.resume(0xff, true), Err(Stale::NoSlot));
        assert_eq!(q.slots, before);
        assert_eq!(q.stale, [2, 2, 1, 1, 1]);
        // Accepted once, then stale: the generation moved on.
        assert!(q.resume(token(0, 0), false).is_ok());
        assert_eq!(q.resume(token(0, 0), false), Err(Stale::Free));
        q.fault(&fault(0, 3, 1, LOCAL), 0);
        q.post(0);
        assert_eq!(q.resume(token(0, 0), false), Err(Stale::WrongGen));
        assert_eq!(q.token(0), token(0, 1));
    }

    #[test]
    fn reset_frees_every_slot_and_moves_every_generation() {
        let mut q = FaultQueueRef::new(2, 5);
        q.fault(&fault(0, 1, 1, LOCAL), 0);
        q.post(0);
        q.fault(&fault(0, 2, 1, LOCAL), 0);
        q.slots[3].gen = 255;
        for k in 0..4 {
            q.fault(&fault(0, 10 + k, 2, LOCAL), 0);
        }
        assert!(!q.overflow.is_empty());
        q.reset();
        assert_eq!(q.pending(), 0);
        assert!(q.overflow.is_empty());
        assert_eq!(
            q.slots.iter().map(|s| s.gen).collect::<Vec<_>>(),
            [1, 1, 1, 0],
            "mod 256"
        );
        assert_eq!(q.resume(token(0, 0), false), Err(Stale::Free));
        assert_eq!(q.fault(&fault(0, 1, 1, LOCAL), 0), Outcome::New(0));
        q.post(0);
        assert_eq!(q.resume(token(0, 0), false), Err(Stale::WrongGen));
        assert!(q.resume(token(0, 1), false).is_ok());
        // rst while the lists are read: one increment, not two.
        q.reset();
        assert_eq!(q.slots[0].gen, 2);
        q.fault(&fault(0, 1, 1, LOCAL), 0);
        q.post(0);
        assert!(q.resume(token(0, 2), false).is_ok());
        q.finish_drain();
        q.reset();
        assert_eq!(q.slots[0].gen, 4, "freed, then rst");
    }
}
