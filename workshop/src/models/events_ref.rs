//! Reference model of the event-ring writer (`odp_mmu::fault::events`):
//! the record layout of every event kind, the owner-bit rule, where each
//! record lands in host memory and what the writer reports, in plain Rust,
//! from `docs/events.md` (SPEC section 4). No timing: the testbench compares
//! the bursts on the bus, the completions and the ring in host memory in
//! order, and checks the registered outputs against the indices.

use std::collections::VecDeque;

use odp_mmu::fault::*;
use odp_mmu::spec::event;

/// One event record as a producer hands it to the writer: four 64-bit
/// words; bit 63 of word 3 (the owner) is the writer's and ignored here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub w: [u64; EVENT_RECORD_WORDS],
}

fn w0(kind: u64, code: u8, mr: u16, token: u32) -> u64 {
    (kind << EVENT_W0_KIND_SHIFT)
        | ((code as u64) << EVENT_W0_CODE_SHIFT)
        | ((mr as u64) << EVENT_W0_MR_SHIFT)
        | ((token as u64) << EVENT_W0_TOKEN_SHIFT)
}

impl Record {
    /// A page fault: `op` (`OP_*`), MR index, token, the faulting page's VA
    /// (4 KiB aligned), the prefetch hint in bytes before and after the
    /// page, and the QPN.
    pub fn page_fault(
        op: u8,
        mr: u16,
        token: u32,
        va: u64,
        before: u32,
        after: u32,
        qpn: u32,
    ) -> Self {
        assert_eq!(va & 0xfff, 0, "page fault VA {va:#x} is not 4 KiB aligned");
        Self {
            w: [
                w0(event::PAGE_FAULT, op, mr, token),
                va,
                before as u64 | ((after as u64) << 32),
                qpn as u64 & EVENT_W3_QPN_MASK,
            ],
        }
    }

    /// An invalidation is done: MR index and the command's tag.
    pub fn inv_done(mr: u16, tag: u32) -> Self {
        Self {
            w: [w0(event::INV_DONE, 0, mr, tag), 0, 0, 0],
        }
    }

    /// A prefetch is done: MR index, tag, pages filled, faulted and refused.
    pub fn prefetch_done(mr: u16, tag: u32, filled: u32, faulted: u32, refused: u32) -> Self {
        Self {
            w: [
                w0(event::PREFETCH_DONE, 0, mr, tag),
                filled as u64 | ((faulted as u64) << 32),
                refused as u64,
                0,
            ],
        }
    }

    /// An MR is suspended.
    pub fn mr_suspended(mr: u16) -> Self {
        Self {
            w: [w0(event::MR_SUSPENDED, 0, mr, 0), 0, 0, 0],
        }
    }

    /// An error: error code, MR index, detail word.
    pub fn error(code: u8, mr: u16, detail: u64) -> Self {
        Self {
            w: [w0(event::ERROR, code, mr, 0), detail, 0, 0],
        }
    }

    /// The kind field of word 0.
    pub fn kind(&self) -> u64 {
        (self.w[0] >> EVENT_W0_KIND_SHIFT) & 0xff
    }

    /// Word 3 as the producer gives it (63 bits; the owner bit cleared).
    pub fn w3_in(&self) -> u64 {
        self.w[3] & !(1 << EVENT_OWNER_BIT)
    }

    /// The four words as the writer puts them in host memory at free-running
    /// producer index `p` of a ring of `2^log2` entries.
    pub fn in_ring(&self, p: u32, log2: u32) -> [u64; EVENT_RECORD_WORDS] {
        let mut w = self.w;
        w[3] = self.w3_in() | ((owner(p, log2) as u64) << EVENT_OWNER_BIT);
        w
    }
}

/// The owner bit of the record at free-running index `p` (producer or
/// consumer) of a ring of `2^log2` entries: `1 - ((p >> log2) & 1)`. The
/// first lap over a zeroed ring writes 1.
pub fn owner(p: u32, log2: u32) -> bool {
    (p >> log2) & 1 == 0
}

/// Whether `log2` is a legal `EQ_LOG2_SIZE`.
pub fn size_legal(log2: u32) -> bool {
    (EQ_MIN_LOG2_SIZE..=EQ_MAX_LOG2_SIZE).contains(&(log2 as u64))
}

/// Byte address of the record at free-running index `p` (`base`'s low 5
/// bits are ignored).
pub fn slot_addr(base: u64, log2: u32, p: u32) -> u64 {
    let slot = p as u64 & ((1u64 << log2) - 1);
    (base & !(EVENT_RECORD_BYTES - 1)).wrapping_add(EVENT_RECORD_BYTES * slot)
}

/// The driver's test: the record with word 3 `w3` at its consumer index `c`
/// is new when its owner bit equals `owner(c, log2)`.
pub fn is_new(w3: u64, c: u32, log2: u32) -> bool {
    ((w3 >> EVENT_OWNER_BIT) & 1 == 1) == owner(c, log2)
}

/// A consumer index is bad when it is ahead of the producer index or more
/// than `2^log2` behind it (32-bit arithmetic): the ring is then treated
/// as full.
pub fn cons_bad(prod: u32, cons: u32, log2: u32) -> bool {
    prod.wrapping_sub(cons) as u64 > 1u64 << log2
}

/// The ring has room for one more record.
pub fn has_room(prod: u32, cons: u32, log2: u32) -> bool {
    (prod.wrapping_sub(cons) as u64) < 1u64 << log2
}

/// One write burst the writer must issue: AW address and the four W beats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Burst {
    /// Producer index of the record.
    pub index: u32,
    pub addr: u64,
    pub words: [u64; EVENT_RECORD_WORDS],
}

/// The writer's state: producer index, the bursts it owes the bus, the
/// completions it owes the producer.
#[derive(Debug, Default)]
pub struct EventRingRef {
    /// Free-running producer index (`EQ_PROD`).
    pub prod: u32,
    /// Records answered on B since the indices were last zeroed.
    pub written: u32,
    /// A ring reset or rst is waiting for the writer to drain: the next
    /// record taken has index 0.
    pub zero_pending: bool,
    /// Bursts whose AW has not been seen yet.
    pub aw_due: VecDeque<Burst>,
    /// Bursts whose W beats have not all been seen yet.
    pub w_due: VecDeque<Burst>,
    /// W beats of the front of `w_due` already seen.
    pub w_beat: usize,
    /// Bursts waiting for their B, oldest first.
    pub b_due: VecDeque<Burst>,
    /// Completions (error flag) owed on `m_done`, oldest first.
    pub done_due: VecDeque<bool>,
    /// Records taken, by index since the last zeroing, with their B result
    /// once known (`Some(true)` = error).
    pub log: Vec<(Record, Option<bool>)>,
    /// B responses that were errors.
    pub write_errors: u64,
}

impl EventRingRef {
    pub fn new() -> Self {
        Self::default()
    }

    /// Bursts taken and not answered on B.
    pub fn outstanding(&self) -> usize {
        self.b_due.len()
    }

    /// A record is taken with ring base `base` and size `2^log2` in force.
    pub fn take(&mut self, rec: &Record, base: u64, log2: u32) -> Burst {
        if self.zero_pending {
            assert_eq!(self.outstanding(), 0, "a record taken while draining");
            self.zero();
        }
        let p = self.prod;
        let b = Burst {
            index: p,
            addr: slot_addr(base, log2, p),
            words: rec.in_ring(p, log2),
        };
        self.prod = p.wrapping_add(1);
        self.aw_due.push_back(b);
        self.w_due.push_back(b);
        self.b_due.push_back(b);
        self.log.push((*rec, None));
        b
    }

    /// `ring_reset` pulsed, or `rst`: indices go to 0 once nothing is in
    /// flight.
    pub fn reset_indices(&mut self) {
        self.zero_pending = true;
    }

    /// The writer zeroed its indices (seen on `eq_prod`).
    pub fn zero(&mut self) {
        self.zero_pending = false;
        self.prod = 0;
        self.written = 0;
        self.log.clear();
    }

    /// An AW handshake: must be the oldest burst whose AW is due.
    pub fn aw(&mut self, addr: u64) -> Result<(), String> {
        let b = self
            .aw_due
            .pop_front()
            .ok_or_else(|| format!("AW {addr:#x} with no record taken"))?;
        if b.addr != addr {
            return Err(format!(
                "AW of record {}: address {addr:#x}, want {:#x}",
                b.index, b.addr
            ));
        }
        Ok(())
    }

    /// A W handshake.
    pub fn w(&mut self, data: u64, strb: u8, last: bool) -> Result<(), String> {
        let b = *self
            .w_due
            .front()
            .ok_or_else(|| format!("W beat {data:#x} with no record taken"))?;
        let k = self.w_beat;
        if data != b.words[k] || strb != 0xff || last != (k == EVENT_RECORD_WORDS - 1) {
            return Err(format!(
                "W beat {k} of record {}: data {data:#018x} strb {strb:#x} last {last}, \
                 want {:#018x} 0xff {}",
                b.index,
                b.words[k],
                k == EVENT_RECORD_WORDS - 1
            ));
        }
        self.w_beat += 1;
        if self.w_beat == EVENT_RECORD_WORDS {
            self.w_beat = 0;
            self.w_due.pop_front();
        }
        Ok(())
    }

    /// A B handshake with response `resp`: completes the oldest burst.
    pub fn b(&mut self, resp: u8) -> Result<Burst, String> {
        let b = self
            .b_due
            .pop_front()
            .ok_or_else(|| "B with nothing outstanding".to_string())?;
        let err = resp != 0;
        self.done_due.push_back(err);
        self.write_errors += err as u64;
        // Nothing is in flight when the indices are zeroed: every B
        // belongs to a record of the current log.
        if let Some(e) = self.log.get_mut(b.index as usize) {
            e.1 = Some(err);
        }
        self.written = self.written.wrapping_add(1);
        Ok(b)
    }

    /// A pulse on `m_done_valid` with `m_done_err`.
    pub fn done(&mut self, err: bool) -> Result<(), String> {
        match self.done_due.pop_front() {
            Some(want) if want == err => Ok(()),
            Some(want) => Err(format!("m_done_err {err}, want {want}")),
            None => Err("m_done_valid with no B response".to_string()),
        }
    }
}
