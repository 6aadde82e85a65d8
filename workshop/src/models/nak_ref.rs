//! Reference model of the RNR NAK generator (`odp_mmu::fault::nak`): what
//! each response beat and each QP command does, in plain Rust, from the
//! rules of `docs/nak.md` (SPEC sections 2 and 5.5). No timing: the
//! testbench compares the order of what comes out of each output stream.

use odp_mmu::spec::{aeth, op, qp_cmd, status};

/// One response beat as the translator gives it, with its request context.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RspBeat {
    pub tag: u8,
    pub status: u8,
    pub pa: u64,
    pub seg_len: u16,
    pub last: bool,
    pub epoch: u8,
    pub op: u8,
    /// Local QP (24 bits).
    pub qpn: u32,
    pub rqpn: u32,
    pub psn: u32,
    pub msn: u32,
}

/// One answer beat on `m_rsp`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutBeat {
    pub tag: u8,
    pub status: u8,
    pub pa: u64,
    pub seg_len: u16,
    pub last: bool,
    pub epoch: u8,
    pub op: u8,
    pub qpn: u32,
}

/// One NAK on `m_nak`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Nak {
    pub qpn: u32,
    /// BTH + AETH, byte 0 in bits 127:120.
    pub hdr: u128,
}

/// What one beat did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// The answer beat, or `None` when the beat was swallowed.
    pub rsp: Option<OutBeat>,
    pub nak: Option<Nak>,
    /// The beat was the first of a response whose QP waited for its PSN
    /// (a retransmission that ended the wait).
    pub retransmit: bool,
    /// An RNR NAK used the QP's timer override.
    pub override_used: bool,
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

/// The generator for 2^`qp_bits` QPs.
#[derive(Clone, Debug)]
pub struct NakRef {
    qp_bits: u32,
    qps: Vec<QpState>,
    /// The last beat taken was not `last`.
    mid: bool,
    /// The later beats of the current response are swallowed.
    swallow: bool,
    pub rnr_naks: u64,
    pub err_naks: u64,
    pub drops: u64,
    pub swallowed: u64,
    pub refused: u64,
}

impl NakRef {
    pub fn new(qp_bits: u32) -> Self {
        Self {
            qp_bits,
            qps: vec![QpState::default(); 1 << qp_bits],
            mid: false,
            swallow: false,
            rnr_naks: 0,
            err_naks: 0,
            drops: 0,
            swallowed: 0,
            refused: 0,
        }
    }

    /// The state after `rst`: every QP clear, no response in progress.
    /// Counters are kept.
    pub fn reset(&mut self) {
        self.qps.iter_mut().for_each(|q| *q = QpState::default());
        self.mid = false;
        self.swallow = false;
    }

    /// State of QP `qpn`, `None` beyond the table.
    pub fn qp(&self, qpn: u32) -> Option<&QpState> {
        self.qps.get(qpn as usize)
    }

    fn in_range(&self, qpn: u32) -> bool {
        (qpn as u64) < 1 << self.qp_bits
    }

    /// One response beat, with the `pkey` and `rnr_timer` of its clock.
    pub fn beat(&mut self, b: &RspBeat, pkey: u16, rnr_timer: u8) -> Step {
        let mut out = OutBeat {
            tag: b.tag,
            status: b.status,
            pa: b.pa,
            seg_len: b.seg_len,
            last: b.last,
            epoch: b.epoch,
            op: b.op,
            qpn: b.qpn,
        };
        let mut step = Step::default();
        if self.mid {
            // A later beat: follows its first beat.
            if b.last {
                self.mid = false;
            }
            if self.swallow {
                self.swallowed += 1;
                if b.last {
                    self.swallow = false;
                }
                return step;
            }
            step.rsp = Some(out);
            return step;
        }
        self.mid = !b.last;
        self.swallow = false;
        let remote = (b.op as u64) < op::LOCAL_READ;
        let mut fresh = QpState::default();
        let in_range = self.in_range(b.qpn);
        let q = if in_range {
            &mut self.qps[b.qpn as usize]
        } else {
            &mut fresh
        };
        let mut syndrome = None;
        // Rules 1 and 2 replace the whole response by one beat.
        let mut converted = false;
        if remote {
            if q.error {
                converted = true;
                out.status = status::FATAL as u8;
                syndrome = Some(aeth::REMOTE_OP_ERR as u8);
            } else if q.waiting && q.psn != b.psn & 0xff_ffff {
                converted = true;
                out.status = status::DROP as u8;
                self.drops += 1;
            } else {
                step.retransmit = q.waiting;
                q.waiting = false;
                match b.status as u64 {
                    status::RNR => {
                        step.override_used = q.timer.is_some();
                        let code = q.timer.unwrap_or(rnr_timer) & 0x1f;
                        syndrome = Some(aeth::RNR_NAK as u8 | code);
                        q.waiting = true;
                        q.psn = b.psn & 0xff_ffff;
                    }
                    status::ACCESS_ERR => syndrome = Some(aeth::REMOTE_ACCESS_ERR as u8),
                    status::FATAL => syndrome = Some(aeth::REMOTE_OP_ERR as u8),
                    _ => {}
                }
            }
        }
        if converted {
            out.pa = 0;
            out.seg_len = 0;
            out.last = true;
            self.swallow = !b.last;
        }
        if let Some(s) = syndrome {
            if s & 0xe0 == aeth::RNR_NAK as u8 {
                self.rnr_naks += 1;
            } else {
                self.err_naks += 1;
            }
            step.nak = Some(Nak {
                qpn: b.qpn,
                hdr: nak_header(pkey, b.rqpn, b.psn & 0xff_ffff, s, b.msn & 0xff_ffff),
            });
        }
        step.rsp = Some(out);
        step
    }

    /// One QP command (`QPCMD_*`); false when `qpn` is beyond the table
    /// (refused, nothing changes).
    pub fn command(&mut self, kind: u8, qpn: u32, timer: u8) -> bool {
        if !self.in_range(qpn) {
            self.refused += 1;
            return false;
        }
        let q = &mut self.qps[qpn as usize];
        match kind as u64 {
            qp_cmd::RESET => *q = QpState::default(),
            qp_cmd::SET_ERROR => q.error = true,
            qp_cmd::SET_TIMER => q.timer = Some(timer & 0x1f),
            _ => q.timer = None,
        }
        true
    }
}
