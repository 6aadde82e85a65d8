//! Reference model of the adaptive RNR timer (`odp_mmu::fault::rnr_timer`),
//! in plain Rust, from `docs/rnr_nak.md`: the estimator in the block's
//! fixed point (bit-exact), the code choice by multiplication with the IBTA
//! table (`spec::rnr_timer::US`, where the block uses shifts of
//! `10 * clocks_per_us` and `30 * clocks_per_us`), the output rule, and the
//! documented timing (a sample's target 7 clocks later, `est_clocks` and
//! `samples` 8 clocks later, a scan of 31 clocks that starts after `rst`
//! and every 31 clocks, a registered `code`), so a testbench can compare
//! every output every clock.

use std::collections::VecDeque;

use odp_mmu::fault::rnr_timer::{
    EST_LATENCY_CLOCKS, FRAC_BITS, SCAN_CLOCKS, TARGET_LATENCY_CLOCKS,
};
use odp_mmu::spec::rnr_timer::{RESET_CODE, US};

/// The Jacobson/Karels estimator in the block's fixed point: `srtt` and
/// `rttvar` in units of 2^-[`FRAC_BITS`] clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Estimator {
    pub srtt: u64,
    pub rttvar: u64,
    /// A sample has been taken since reset.
    pub seen: bool,
}

impl Estimator {
    /// Takes one service time `s` in clocks. The first sample sets
    /// `srtt = s`, `rttvar = s / 2`; every later one `rttvar += (|err| -
    /// rttvar) / 4` and `srtt += err / 8` with `err = s - srtt` (the old
    /// `srtt` in both, RFC 6298), each division a floor (arithmetic shift).
    pub fn update(&mut self, s: u32) {
        let sfx = (s as u64) << FRAC_BITS;
        if !self.seen {
            self.srtt = sfx;
            self.rttvar = sfx >> 1;
            self.seen = true;
            return;
        }
        let err = sfx as i64 - self.srtt as i64;
        let rttvar = self.rttvar as i64 + ((err.abs() - self.rttvar as i64) >> 2);
        let srtt = self.srtt as i64 + (err >> 3);
        assert!((0..1 << 40).contains(&srtt) && (0..1 << 40).contains(&rttvar));
        self.srtt = srtt as u64;
        self.rttvar = rttvar as u64;
    }

    /// The target in clocks: `srtt + 4 rttvar`, rounded up (0 before the
    /// first sample).
    pub fn target(&self) -> u64 {
        (self.srtt + 4 * self.rttvar + (1 << FRAC_BITS) - 1) >> FRAC_BITS
    }
}

/// `est_clocks` for a target: saturated at 2^32 - 1.
pub fn saturate(target: u64) -> u32 {
    target.min(u32::MAX as u64) as u32
}

/// Code `c`'s time in clocks at `clocks_per_us`.
pub fn code_clocks(c: u8, clocks_per_us: u16) -> u64 {
    US[c as usize] as u64 * clocks_per_us as u64
}

/// The smallest code of 1..=31 whose time in clocks reaches `target`; 31
/// when none does. Never 0.
pub fn code_for(target: u64, clocks_per_us: u16) -> u8 {
    (1..=31u8)
        .find(|&c| code_clocks(c, clocks_per_us) >= target)
        .unwrap_or(31)
}

/// The code the block outputs: `global` when not adaptive; the scanned code
/// (`Some`: an estimate and a time base) when adaptive; otherwise `global`,
/// 0 replaced by [`RESET_CODE`].
pub fn output_code(adaptive: bool, global: u8, scanned: Option<u8>) -> u8 {
    match (adaptive, scanned) {
        (false, _) => global,
        (true, Some(c)) => c,
        (true, None) if global == 0 => RESET_CODE as u8,
        (true, None) => global,
    }
}

/// RFC 6298's estimator in floating point, for comparison: `(srtt,
/// rttvar)` in clocks after the samples.
pub fn float_estimate(samples: &[f64]) -> (f64, f64) {
    let mut it = samples.iter();
    let Some(&first) = it.next() else {
        return (0.0, 0.0);
    };
    let (mut srtt, mut rttvar) = (first, first / 2.0);
    for &s in it {
        rttvar = 0.75 * rttvar + 0.25 * (srtt - s).abs();
        srtt = 0.875 * srtt + 0.125 * s;
    }
    (srtt, rttvar)
}

/// One clock's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ins {
    pub rst: bool,
    /// `Some(svc_clocks)` when `svc_valid` is high.
    pub svc: Option<u32>,
    pub clocks_per_us: u16,
    pub global_code: u8,
    pub adaptive: bool,
}

/// One clock's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outs {
    pub code: u8,
    pub est_clocks: u32,
    pub samples: u32,
}

/// The block, clock by clock.
#[derive(Clone, Debug, Default)]
pub struct RnrTimerRef {
    /// Clocks stepped.
    pub clock: u64,
    /// The estimator with every sample taken so far.
    pub est: Estimator,
    took_last: bool,
    /// Targets not yet visible to the scan: (clock visible, target).
    tgt_due: VecDeque<(u64, u64)>,
    /// Estimates not yet on the outputs: (clock visible, est_clocks).
    out_due: VecDeque<(u64, u32)>,
    /// The target the scan would snapshot this clock, and whether any.
    tgt: u64,
    have: bool,
    est_clocks: u32,
    samples: u32,
    /// `clocks_per_us` of the clock before, and of the clock before that
    /// (what the scan's thresholds are made of).
    cpu1: u16,
    cpu2: u16,
    /// Code under test this clock; 0 only at power-up.
    pos: u8,
    /// The running scan's snapshot: target, an estimate, clocks_per_us.
    snap: (u64, bool, u16),
    /// The last finished scan's code, when it had an estimate and a time
    /// base.
    scanned: Option<u8>,
    code: u8,
    /// Samples taken, and `svc_valid` pulses not taken (the clock after a
    /// taken one).
    pub taken: u64,
    pub ignored: u64,
    /// Clocks in which a scan finished.
    pub scans: u64,
    /// Scans whose target was exactly the time of the code they chose (a
    /// compare at equality).
    pub exact: u64,
}

impl RnrTimerRef {
    pub fn new() -> Self {
        Self::default()
    }

    /// The outputs of this clock (registered: they do not depend on `i`),
    /// then the clock edge with inputs `i`.
    pub fn step(&mut self, i: &Ins) -> Outs {
        let out = Outs {
            code: self.code,
            est_clocks: self.est_clocks,
            samples: self.samples,
        };
        let now = self.clock;
        let take = i.svc.is_some() && !self.took_last && !i.rst;
        self.ignored += (i.svc.is_some() && self.took_last && !i.rst) as u64;
        // Output register.
        self.code = output_code(
            i.adaptive,
            i.global_code,
            if i.rst { None } else { self.scanned },
        );
        // The scan.
        if self.pos as u64 == SCAN_CLOCKS {
            let (t, have, cpu) = self.snap;
            self.scanned = (have && cpu != 0).then(|| code_for(t, cpu));
            self.scans += 1;
            self.exact += self.scanned.is_some_and(|c| code_clocks(c, cpu) == t) as u64;
        }
        if i.rst {
            self.scanned = None;
        }
        if self.pos as u64 == SCAN_CLOCKS || self.pos == 0 || i.rst {
            self.snap = (self.tgt, self.have && !i.rst, self.cpu2);
            self.pos = 1;
        } else {
            self.pos += 1;
        }
        self.cpu2 = self.cpu1;
        self.cpu1 = i.clocks_per_us;
        // The estimator.
        if let Some(s) = i.svc.filter(|_| take) {
            self.est.update(s);
            let t = self.est.target();
            self.tgt_due.push_back((now + TARGET_LATENCY_CLOCKS, t));
            self.out_due
                .push_back((now + EST_LATENCY_CLOCKS, saturate(t)));
            self.taken += 1;
        }
        while let Some(&(due, t)) = self.tgt_due.front() {
            if due != now + 1 {
                break;
            }
            self.tgt = t;
            self.have = true;
            self.tgt_due.pop_front();
        }
        while let Some(&(due, e)) = self.out_due.front() {
            if due != now + 1 {
                break;
            }
            self.est_clocks = e;
            self.samples = self.samples.wrapping_add(1);
            self.out_due.pop_front();
        }
        if i.rst {
            self.est = Estimator::default();
            self.tgt_due.clear();
            self.out_due.clear();
            self.tgt = 0;
            self.have = false;
            self.est_clocks = 0;
            self.samples = 0;
        }
        self.took_last = take;
        self.clock += 1;
        out
    }

    /// The code the last finished scan chose (adaptive mode, with an
    /// estimate and a time base).
    pub fn scanned(&self) -> Option<u8> {
        self.scanned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn first_sample_sets_srtt_and_half_of_it_as_rttvar() {
        let mut e = Estimator::default();
        assert_eq!(e.target(), 0);
        e.update(1000);
        assert_eq!((e.srtt, e.rttvar), (1000 << 8, 500 << 8));
        assert_eq!(e.target(), 3000);
        let mut e = Estimator::default();
        e.update(1);
        assert_eq!(e.target(), 3);
        let mut e = Estimator::default();
        e.update(0);
        assert_eq!(e.target(), 0);
    }

    #[test]
    fn second_sample_follows_rfc_6298_exactly_when_nothing_is_rounded() {
        // 800 then 1600 clocks: rttvar = 3/4 * 400 + 1/4 * 800 = 500,
        // srtt = 7/8 * 800 + 1/8 * 1600 = 900; target 900 + 2000.
        let mut e = Estimator::default();
        e.update(800);
        e.update(1600);
        assert_eq!((e.srtt >> 8, e.rttvar >> 8), (900, 500));
        assert_eq!(e.target(), 2900);
        assert_eq!(float_estimate(&[800.0, 1600.0]), (900.0, 500.0));
    }

    #[test]
    fn fixed_point_stays_within_a_clock_of_floating_point() {
        let mut rng = StdRng::seed_from_u64(7);
        for run in 0..200 {
            let scale: f64 = [10.0, 1e3, 1e5, 1e7, 4e9][run % 5];
            let xs: Vec<u32> = (0..300)
                .map(|_| (rng.gen::<f64>() * scale).min(u32::MAX as f64) as u32)
                .collect();
            let mut e = Estimator::default();
            for &x in &xs {
                e.update(x);
            }
            let (s, v) = float_estimate(&xs.iter().map(|&x| x as f64).collect::<Vec<_>>());
            let fs = e.srtt as f64 / 256.0;
            let fv = e.rttvar as f64 / 256.0;
            // Each floor loses under one unit of 1/256 clock; the errors
            // decay geometrically (7/8 and 3/4 a sample), so they stay below
            // 8 and 4 units (plus the 4 x rttvar error in the target).
            assert!((fs - s).abs() < 8.0 / 256.0 + 1e-9 * s, "srtt {fs} vs {s}");
            assert!(
                (fv - v).abs() < 12.0 / 256.0 + 1e-9 * v,
                "rttvar {fv} vs {v}"
            );
            let t = e.target() as f64;
            assert!(
                t >= s + 4.0 * v - 1.0 && t <= s + 4.0 * v + 1.0,
                "target {t}"
            );
        }
    }

    #[test]
    fn constant_samples_converge_to_the_sample_exactly() {
        for s in [0u32, 1, 7, 1250, 80_000, 80_001, u32::MAX] {
            let mut e = Estimator::default();
            for _ in 0..200 {
                e.update(s);
            }
            assert_eq!((e.srtt, e.rttvar), ((s as u64) << 8, 0), "sample {s}");
            assert_eq!(e.target(), s as u64);
        }
    }

    #[test]
    fn codes_are_the_smallest_whose_time_reaches_the_target() {
        let cpu = 125u16;
        assert_eq!(code_for(0, cpu), 1);
        assert_eq!(code_for(1, cpu), 1);
        assert_eq!(code_for(1250, cpu), 1);
        assert_eq!(code_for(1251, cpu), 2);
        assert_eq!(code_for(640 * 125, cpu), 12);
        assert_eq!(code_for(640 * 125 + 1, cpu), 13);
        assert_eq!(code_for(491_520 * 125, cpu), 31);
        assert_eq!(code_for(491_520 * 125 + 1, cpu), 31);
        assert_eq!(code_for(u64::MAX, cpu), 31);
        for c in 1..=31u8 {
            assert_eq!(code_for(code_clocks(c, 7), 7), c);
            if c > 1 {
                assert_eq!(code_for(code_clocks(c - 1, 7) + 1, 7), c);
            }
        }
    }

    #[test]
    fn output_is_global_unless_adaptive_and_never_0_when_adaptive() {
        assert_eq!(output_code(false, 0, Some(5)), 0);
        assert_eq!(output_code(false, 9, Some(5)), 9);
        assert_eq!(output_code(true, 9, Some(5)), 5);
        assert_eq!(output_code(true, 9, None), 9);
        assert_eq!(output_code(true, 0, None), 12);
    }

    #[test]
    fn timing_of_a_sample_through_the_model() {
        let mut m = RnrTimerRef::new();
        let base = Ins {
            clocks_per_us: 125,
            global_code: 12,
            adaptive: true,
            ..Ins::default()
        };
        m.step(&Ins { rst: true, ..base });
        for _ in 0..5 {
            m.step(&base);
        }
        let t = m.clock;
        m.step(&Ins {
            svc: Some(1000),
            ..base
        });
        let mut est_at = None;
        let mut code_at = None;
        while code_at.is_none() {
            let c = m.clock;
            let o = m.step(&base);
            if o.est_clocks == 3000 && est_at.is_none() {
                est_at = Some(c - t);
                assert_eq!(o.samples, 1);
            }
            if o.code != 12 {
                code_at = Some(c - t);
                // 3000 clocks = 24 us: code 3 (30 us) at 125 clocks per us.
                assert_eq!(o.code, 3);
            }
            assert!(c - t < 200);
        }
        assert_eq!(est_at, Some(EST_LATENCY_CLOCKS));
        let l = code_at.unwrap();
        assert!(
            (odp_mmu::fault::rnr_timer::CODE_LATENCY_MIN
                ..=odp_mmu::fault::rnr_timer::CODE_LATENCY_MAX)
                .contains(&l),
            "{l}"
        );
    }
}
