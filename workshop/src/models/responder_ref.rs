//! Reference model of the per-QP responder (`odp_mmu::fault::responder`):
//! for each lookup the translator decides, the overrides it must read
//! (`ov_fatal`, `ov_drop`), and what its answer and the QP commands do to
//! the QP's state, the NAKs and the counter pulses, in plain Rust, from
//! `docs/responder.md`.
//!
//! The rules are the NAK generator's (`docs/nak.md`): the model runs
//! [`NakRef`] on every answered remote op and on every command, so the two
//! blocks share one statement of the RNR discipline, and adds what differs
//! here: a QP in error overrides its local ops to FATAL too (no NAK for a
//! local op, no state change), and a parked lookup (no answer) changes
//! nothing. No timing: the testbench calls it in decision order (answers
//! and commands in the order they reach the translator's c5).

use super::nak_ref::{Nak, NakRef, QpState, RspBeat};
use odp_mmu::spec::{aeth, op, status};

/// A lookup as the translator presents it at c3 (`lk_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lookup {
    /// Local QPN (24 bits).
    pub qpn: u32,
    /// PSN (24 bits).
    pub psn: u32,
    /// A remote op (REMOTE_WRITE / REMOTE_READ).
    pub remote: bool,
}

/// The responder's overrides for a lookup deciding at c5.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// The QP is in error: answer FATAL (any op).
    pub fatal: bool,
    /// A remote op of a QP waiting for another PSN: answer DROP.
    pub drop: bool,
}

/// The translator's answer at c5 (`cm_*`), its overrides applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// [`status`] code.
    pub status: u8,
    /// An RNR for a suspended MR.
    pub susp: bool,
    /// The request's remote QPN (DestQP of a NAK).
    pub rqpn: u32,
    /// The request's MSN.
    pub msn: u32,
}

/// The counter pulses one decision causes (one clock after it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pulses {
    /// An RNR NAK of a missing page.
    pub rnr: bool,
    /// An RNR NAK of a suspended MR.
    pub rnr_susp: bool,
    /// An error NAK (0x62 / 0x63).
    pub err: bool,
    /// A DROP answer.
    pub drop: bool,
}

/// What one decision did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    pub nak: Option<Nak>,
    pub pulses: Pulses,
    /// A remote op of a waiting QP with the waited-for PSN ended the wait
    /// (or faulted again).
    pub retransmit: bool,
    /// An RNR NAK used the QP's timer override.
    pub override_used: bool,
}

/// The responder for 2^`qp_bits` QPs.
#[derive(Clone, Debug)]
pub struct ResponderRef {
    qp_bits: u32,
    rules: NakRef,
    pub rnr_naks: u64,
    pub rnr_susp_naks: u64,
    pub err_naks: u64,
    pub drops: u64,
    /// Local ops answered FATAL because their QP is in error.
    pub local_fatals: u64,
}

impl ResponderRef {
    pub fn new(qp_bits: u32) -> Self {
        Self {
            qp_bits,
            rules: NakRef::new(qp_bits),
            rnr_naks: 0,
            rnr_susp_naks: 0,
            err_naks: 0,
            drops: 0,
            local_fatals: 0,
        }
    }

    /// The state after `rst`: every QP clear. Counters are kept.
    pub fn reset(&mut self) {
        self.rules.reset();
    }

    /// `qpn` has state (is below 2^`qp_bits`).
    pub fn in_range(&self, qpn: u32) -> bool {
        (qpn as u64) < 1 << self.qp_bits
    }

    /// State of QP `qpn`, `None` beyond the table.
    pub fn qp(&self, qpn: u32) -> Option<&QpState> {
        self.rules.qp(qpn)
    }

    /// The overrides for `lk` deciding now.
    pub fn overrides(&self, lk: &Lookup) -> Overrides {
        let q = self.qp(lk.qpn).copied().unwrap_or_default();
        Overrides {
            fatal: q.error,
            drop: lk.remote && !q.error && q.waiting && q.psn != lk.psn & 0xff_ffff,
        }
    }

    /// The decision of `lk`: `answer` is the translator's (`None`: parked,
    /// `cm_valid` low), with the `pkey` and `rnr_timer` of the decision's
    /// clock. Panics when the answer ignores the overrides (a bench bug).
    pub fn decide(
        &mut self,
        lk: &Lookup,
        answer: Option<&Answer>,
        pkey: u16,
        rnr_timer: u8,
    ) -> Decision {
        let ov = self.overrides(lk);
        let Some(a) = answer else {
            return Decision::default();
        };
        let want = if ov.fatal {
            Some(status::FATAL as u8)
        } else if ov.drop {
            Some(status::DROP as u8)
        } else {
            None
        };
        assert!(
            want.is_none_or(|w| w == a.status),
            "answer {} for {lk:?} whose overrides are {ov:?}",
            a.status
        );
        if !lk.remote {
            // Local ops: no state, no NAK; only the error override.
            self.local_fatals += ov.fatal as u64;
            return Decision::default();
        }
        let beat = RspBeat {
            status: a.status,
            last: true,
            op: op::REMOTE_WRITE as u8,
            qpn: lk.qpn,
            rqpn: a.rqpn,
            psn: lk.psn,
            msn: a.msn,
            ..RspBeat::default()
        };
        let s = self.rules.beat(&beat, pkey, rnr_timer);
        let out = s.rsp.expect("a one-beat response is never swallowed");
        assert_eq!(
            out.status, a.status,
            "the NAK generator's rules answer {lk:?} otherwise"
        );
        let mut p = Pulses {
            drop: out.status == status::DROP as u8,
            ..Pulses::default()
        };
        if let Some(n) = s.nak {
            let syndrome = (n.hdr >> 24) as u8;
            if syndrome & 0xe0 == aeth::RNR_NAK as u8 {
                p.rnr = !a.susp;
                p.rnr_susp = a.susp;
            } else {
                p.err = true;
            }
        }
        self.rnr_naks += p.rnr as u64;
        self.rnr_susp_naks += p.rnr_susp as u64;
        self.err_naks += p.err as u64;
        self.drops += p.drop as u64;
        Decision {
            nak: s.nak,
            pulses: p,
            retransmit: s.retransmit,
            override_used: s.override_used,
        }
    }

    /// One QP command ([`odp_mmu::spec::qp_cmd`]) reaching c5; false when
    /// `qpn` is beyond the table (refused, nothing changes).
    pub fn command(&mut self, kind: u8, qpn: u32, timer: u8) -> bool {
        self.rules.command(kind, qpn, timer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use odp_mmu::spec::qp_cmd;

    fn answer(status: u64) -> Answer {
        Answer {
            status: status as u8,
            ..Answer::default()
        }
    }

    #[test]
    fn error_overrides_local_ops_without_a_nak() {
        let mut r = ResponderRef::new(4);
        assert!(r.command(qp_cmd::SET_ERROR as u8, 3, 0));
        let local = Lookup {
            qpn: 3,
            psn: 1,
            remote: false,
        };
        let remote = Lookup {
            remote: true,
            ..local
        };
        assert!(r.overrides(&local).fatal && r.overrides(&remote).fatal);
        let d = r.decide(&local, Some(&answer(status::FATAL)), 0xffff, 12);
        assert_eq!(d, Decision::default());
        let d = r.decide(&remote, Some(&answer(status::FATAL)), 0xffff, 12);
        assert_eq!(d.nak.map(|n| (n.hdr >> 24) as u8), Some(0x63));
        assert_eq!((r.local_fatals, r.err_naks), (1, 1));
    }

    #[test]
    fn a_parked_lookup_changes_nothing() {
        let mut r = ResponderRef::new(4);
        let lk = Lookup {
            qpn: 2,
            psn: 7,
            remote: true,
        };
        r.decide(&lk, Some(&answer(status::RNR)), 0xffff, 12);
        let other = Lookup { psn: 8, ..lk };
        assert!(r.overrides(&other).drop);
        assert_eq!(r.decide(&other, None, 0xffff, 12), Decision::default());
        assert_eq!(r.drops, 0);
        assert!(r.qp(2).unwrap().waiting);
    }
}
