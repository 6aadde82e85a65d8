//! Reference model of the per-QP responder (`odp_mmu::fault::responder`):
//! for each lookup the translator decides, the overrides it must read
//! (`ov_fatal`, `ov_drop`), and what its answer and the QP commands do to
//! the QP's state, the NAKs and the counter pulses, in plain Rust, from
//! `docs/responder.md` (SPEC sections 2 and 5.5). No timing: the testbench
//! calls it in decision order (answers and commands in the order they
//! reach the translator's c5).
//!
//! It also covers the early RNR NAK path: the NAK of an early NAK
//! ([`ResponderRef::early_nak`], which changes no state), the QP's timer
//! override as the block shows it at c5 ([`Overrides::timer`]), and the
//! RNR answer whose NAK already went out ([`ResponderRef::decide_with`]
//! with `nak_sent`: the state changes as for any RNR, no NAK, no pulse).
//!
//! The NAK headers come from [`nak_header`], which writes the IBTA fields
//! byte by byte, independently of the block's bit packing.

use odp_mmu::spec::{aeth, qp_cmd, status};

/// A lookup as the translator presents it at c2 (`lk_*`).
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
    /// The QP's own RNR timer code (SET_TIMER), `ov_tmr_valid` /
    /// `ov_tmr_code`; `None` without one and for a QPN beyond the table.
    pub timer: Option<u8>,
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

/// One NAK on `m_nak`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Nak {
    /// The local QP.
    pub qpn: u32,
    /// BTH + AETH, byte 0 in bits 127:120.
    pub hdr: u128,
}

/// An early RNR NAK as offered on the block's `en_*` port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EarlyNak {
    /// Local QPN (24 bits; any value, the block does not check it).
    pub qpn: u32,
    /// Remote QPN (DestQP).
    pub rqpn: u32,
    /// PSN.
    pub psn: u32,
    /// MSN.
    pub msn: u32,
    /// The QP's own timer code is valid (`en_tmr_valid`).
    pub tmr_valid: bool,
    /// That code (`en_tmr_code`; ignored without `tmr_valid`).
    pub tmr_code: u8,
}

/// A QP's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QpState {
    /// Waiting for the retransmission of `psn`.
    pub waiting: bool,
    pub psn: u32,
    pub error: bool,
    /// RNR timer override code.
    pub timer: Option<u8>,
}

/// BTH (RC Acknowledge) + AETH in network byte order, as a 128-bit word with
/// byte 0 in bits 127:120.
pub fn nak_header(pkey: u16, dest_qp: u32, psn: u32, syndrome: u8, msn: u32) -> u128 {
    let mut b = [0u8; 16];
    b[0] = aeth::BTH_OPCODE_RC_ACK as u8;
    b[1] = 0; // SE, M, PadCnt, TVer
    b[2..4].copy_from_slice(&pkey.to_be_bytes());
    b[4] = 0; // FECN, BECN, resv6a
    b[5..8].copy_from_slice(&dest_qp.to_be_bytes()[1..]);
    b[8] = 0; // AckReq, resv7
    b[9..12].copy_from_slice(&psn.to_be_bytes()[1..]);
    b[12] = syndrome;
    b[13..16].copy_from_slice(&msn.to_be_bytes()[1..]);
    u128::from_be_bytes(b)
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
    /// An RNR answer whose NAK went out early: the state changed, no NAK.
    pub nak_sent: bool,
}

/// The responder for 2^`qp_bits` QPs.
#[derive(Clone, Debug)]
pub struct ResponderRef {
    qp_bits: u32,
    qps: Vec<QpState>,
    pub rnr_naks: u64,
    pub rnr_susp_naks: u64,
    pub err_naks: u64,
    pub drops: u64,
    /// Local ops answered FATAL because their QP is in error.
    pub local_fatals: u64,
    /// Commands refused (QPN beyond the table).
    pub refused: u64,
    /// Early NAKs queued.
    pub early_naks: u64,
    /// RNR answers whose NAK went out early.
    pub rnr_sent: u64,
}

impl ResponderRef {
    pub fn new(qp_bits: u32) -> Self {
        Self {
            qp_bits,
            qps: vec![QpState::default(); 1 << qp_bits],
            rnr_naks: 0,
            rnr_susp_naks: 0,
            err_naks: 0,
            drops: 0,
            local_fatals: 0,
            refused: 0,
            early_naks: 0,
            rnr_sent: 0,
        }
    }

    /// The state after `rst`: every QP clear. Counters are kept.
    pub fn reset(&mut self) {
        self.qps.iter_mut().for_each(|q| *q = QpState::default());
    }

    /// `qpn` has state (is below 2^`qp_bits`).
    pub fn in_range(&self, qpn: u32) -> bool {
        (qpn as u64) < 1 << self.qp_bits
    }

    /// State of QP `qpn`, `None` beyond the table.
    pub fn qp(&self, qpn: u32) -> Option<&QpState> {
        self.qps.get(qpn as usize)
    }

    /// The overrides for `lk` deciding now.
    pub fn overrides(&self, lk: &Lookup) -> Overrides {
        let q = self.qp(lk.qpn).copied().unwrap_or_default();
        Overrides {
            fatal: q.error,
            drop: lk.remote && !q.error && q.waiting && q.psn != lk.psn & 0xff_ffff,
            timer: q.timer,
        }
    }

    /// The NAK of an early NAK taken with the `pkey` and `rnr_timer` of its
    /// clock: syndrome `0x20 | code`, the offered code if `tmr_valid`, else
    /// `rnr_timer`. No QP's state changes.
    pub fn early_nak(&mut self, e: &EarlyNak, pkey: u16, rnr_timer: u8) -> Nak {
        self.early_naks += 1;
        let code = if e.tmr_valid { e.tmr_code } else { rnr_timer } & aeth::TIMER_MASK as u8;
        Nak {
            qpn: e.qpn & 0xff_ffff,
            hdr: nak_header(
                pkey,
                e.rqpn & 0xff_ffff,
                e.psn & 0xff_ffff,
                aeth::RNR_NAK as u8 | code,
                e.msn & 0xff_ffff,
            ),
        }
    }

    /// The decision of `lk`: `answer` is the translator's (`None`: parked,
    /// `cm_valid` low), with the `pkey` and `rnr_timer` of the decision's
    /// clock. Panics when the answer ignores the overrides, or is DROP
    /// without the DROP override (a bench bug: the translator answers DROP
    /// only for the responder).
    pub fn decide(
        &mut self,
        lk: &Lookup,
        answer: Option<&Answer>,
        pkey: u16,
        rnr_timer: u8,
    ) -> Decision {
        self.decide_with(lk, answer, false, pkey, rnr_timer)
    }

    /// As [`Self::decide`], with `cm_nak_sent`: when set, the answer is the
    /// RNR of a remote op whose NAK already went out through the early
    /// port. The translator answers such a request RNR whatever the
    /// overrides (its NAK said RNR); the QP's state changes exactly as for
    /// any RNR answer (it waits for this PSN; an error stays), and neither
    /// a NAK nor a counter pulse comes. Panics when `nak_sent` comes with
    /// anything but an RNR answer of a remote op (a bench bug).
    pub fn decide_with(
        &mut self,
        lk: &Lookup,
        answer: Option<&Answer>,
        nak_sent: bool,
        pkey: u16,
        rnr_timer: u8,
    ) -> Decision {
        let ov = self.overrides(lk);
        let Some(a) = answer else {
            // Parked: no answer, nothing changes.
            assert!(!nak_sent, "cm_nak_sent for the parked {lk:?}");
            return Decision::default();
        };
        if nak_sent {
            assert!(
                lk.remote && a.status == status::RNR as u8,
                "cm_nak_sent with answer {} for {lk:?}",
                a.status
            );
            self.rnr_sent += 1;
            let mut d = Decision {
                nak_sent: true,
                ..Decision::default()
            };
            if let Some(q) = self.qps.get_mut(lk.qpn as usize) {
                d.retransmit = q.waiting && q.psn == lk.psn & 0xff_ffff;
                q.waiting = true;
                q.psn = lk.psn & 0xff_ffff;
            }
            return d;
        }
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
        assert!(
            a.status != status::DROP as u8 || ov.drop,
            "answer DROP for {lk:?} without the DROP override"
        );
        if !lk.remote {
            // Local ops: no state, no NAK; only the error override.
            self.local_fatals += ov.fatal as u64;
            return Decision::default();
        }
        // A QPN beyond the table has no state: a clear QP, nothing kept.
        let mut fresh = QpState::default();
        let q = if self.in_range(lk.qpn) {
            &mut self.qps[lk.qpn as usize]
        } else {
            &mut fresh
        };
        let mut d = Decision::default();
        let mut syndrome = None;
        if ov.fatal {
            // 1. The QP is in error: FATAL, NAK 0x63.
            syndrome = Some(aeth::REMOTE_OP_ERR as u8);
        } else if ov.drop {
            // 2. Another PSN than the one the QP waits for: DROP, no NAK,
            // the QP keeps waiting.
            d.pulses.drop = true;
        } else {
            // 3. The answer: every answer but RNR ends a wait (the
            // retransmission of the waited-for PSN came); RNR (re)starts it.
            d.retransmit = q.waiting;
            q.waiting = false;
            match a.status as u64 {
                status::RNR => {
                    d.override_used = q.timer.is_some();
                    let code = q.timer.unwrap_or(rnr_timer) & aeth::TIMER_MASK as u8;
                    syndrome = Some(aeth::RNR_NAK as u8 | code);
                    q.waiting = true;
                    q.psn = lk.psn & 0xff_ffff;
                }
                status::ACCESS_ERR => syndrome = Some(aeth::REMOTE_ACCESS_ERR as u8),
                status::FATAL => syndrome = Some(aeth::REMOTE_OP_ERR as u8),
                _ => {}
            }
        }
        if let Some(s) = syndrome {
            if s & 0xe0 == aeth::RNR_NAK as u8 {
                d.pulses.rnr = !a.susp;
                d.pulses.rnr_susp = a.susp;
            } else {
                d.pulses.err = true;
            }
            d.nak = Some(Nak {
                qpn: lk.qpn,
                hdr: nak_header(
                    pkey,
                    a.rqpn & 0xff_ffff,
                    lk.psn & 0xff_ffff,
                    s,
                    a.msn & 0xff_ffff,
                ),
            });
        }
        self.rnr_naks += d.pulses.rnr as u64;
        self.rnr_susp_naks += d.pulses.rnr_susp as u64;
        self.err_naks += d.pulses.err as u64;
        self.drops += d.pulses.drop as u64;
        d
    }

    /// One QP command ([`odp_mmu::spec::qp_cmd`]) reaching c5; false when
    /// `qpn` is beyond the table (refused, nothing changes).
    pub fn command(&mut self, kind: u8, qpn: u32, timer: u8) -> bool {
        if !self.in_range(qpn) {
            self.refused += 1;
            return false;
        }
        let q = &mut self.qps[qpn as usize];
        match kind as u64 {
            qp_cmd::RESET => *q = QpState::default(),
            qp_cmd::SET_ERROR => q.error = true,
            qp_cmd::SET_TIMER => q.timer = Some(timer & aeth::TIMER_MASK as u8),
            _ => q.timer = None,
        }
        true
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
