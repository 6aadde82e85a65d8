//! Adaptive RNR timer: estimates the core's fault service time from the
//! fault queue's samples and picks the RNR timer code of the RNR NAKs.
#![doc = include_str!("../../docs/rnr_nak.md")]

use crate::spec::rnr_timer;
use rust_hdl::prelude::*;

/// Fraction bits of the estimator's fixed point: `srtt` and `rttvar` are
/// kept in units of 1/256 clock.
pub const FRAC_BITS: u32 = 8;
// The update writes the shifts by FRAC_BITS as the literal 8.
const _: () = assert!(FRAC_BITS == 8);
/// Bits of `srtt` and `rttvar`: 32 integer bits and [`FRAC_BITS`].
pub const EST_BITS: u32 = 32 + FRAC_BITS;
/// Bits of the unsaturated target in clocks (`ceil((srtt + 4 rttvar) /
/// 2^FRAC_BITS)` is below 5 * 2^32).
pub const TARGET_BITS: u32 = 35;
/// Clocks from a taken `svc_valid` (clock t) to the first clock whose
/// `est_clocks` and `samples` include the sample (t + 8).
pub const EST_LATENCY_CLOCKS: u64 = 8;
/// Clocks from a taken `svc_valid` to the first clock in which the code scan
/// can snapshot the new target (t + 7).
pub const TARGET_LATENCY_CLOCKS: u64 = 7;
/// Clocks per scan: one code of 1..=31 is compared each clock, and a new
/// scan starts every this many clocks.
pub const SCAN_CLOCKS: u64 = 31;
/// Fewest clocks from a taken `svc_valid` to the first clock whose `code`
/// reflects it (the scan snapshots the target the first clock it exists).
pub const CODE_LATENCY_MIN: u64 = TARGET_LATENCY_CLOCKS + SCAN_CLOCKS + 2;
/// Most clocks from a taken `svc_valid` to the first clock whose `code`
/// reflects it (the scan started one clock before the target existed).
pub const CODE_LATENCY_MAX: u64 = CODE_LATENCY_MIN + SCAN_CLOCKS - 1;

/// Adaptive RNR timer. See the module page (`docs/rnr_nak.md`) for the
/// estimator, the code choice, the latencies and the degenerate inputs.
///
/// # Invariants
///
/// - With `adaptive` high, `code` is never 0 (from the first clock edge).
/// - With `adaptive` low, `code` is `global_code` of the clock before.
/// - A sample is taken in every clock with `svc_valid` except the clock
///   right after a taken one; `samples` counts the samples taken.
#[derive(LogicBlock)]
pub struct RnrTimer {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous active-high reset: clears the estimator, `samples`,
    /// `est_clocks` and the last scan's result, and restarts the scan.
    pub rst: Signal<In, Bit>,
    /// One-clock pulse: a fault's service time is on `svc_clocks`.
    pub svc_valid: Signal<In, Bit>,
    /// Service time of a fault, in clocks (fault event written to RESUME
    /// accepted).
    pub svc_clocks: Signal<In, Bits<32>>,
    /// Core clocks per microsecond (CSR `CLOCKS_PER_US`, 125 at 125 MHz).
    pub clocks_per_us: Signal<In, Bits<16>>,
    /// Global RNR timer code (CSR `RNR_TIMER`).
    pub global_code: Signal<In, Bits<5>>,
    /// Adaptive mode (CSR `CTRL.ADAPTIVE_RNR`).
    pub adaptive: Signal<In, Bit>,
    /// The RNR timer code for the per-QP responder's `rnr_timer` input
    /// (registered).
    pub code: Signal<Out, Bits<5>>,
    /// The current target `srtt + 4 rttvar` in clocks, rounded up,
    /// saturating at 2^32 - 1; 0 until the first sample (registered).
    pub est_clocks: Signal<Out, Bits<32>>,
    /// Samples taken since `rst`, wrapping (registered).
    pub samples: Signal<Out, Bits<32>>,

    // --- constants ---
    /// RESET_CODE (12), the adaptive mode's answer for a global code of 0.
    reset_code: Constant<Bits<5>>,
    /// Bits 40:38 set: the sign extension of a 41-bit value shifted right by 3.
    sext3: Constant<Bits<41>>,
    /// Bits 40:39 set: the sign extension of a 41-bit value shifted right by 2.
    sext2: Constant<Bits<41>>,
    /// 2^FRAC_BITS - 1: added before the shift that rounds the target up.
    round: Constant<Bits<43>>,
    /// 1, for the two's complement negation.
    one41: Constant<Bits<41>>,
    /// 2^32 - 1, the saturated `est_clocks`.
    est_max: Constant<Bits<32>>,

    // --- stage A: the sample taken ---
    take: Signal<Local, Bit>,
    a_v: DFF<Bit>,
    a_s: DFF<Bits<32>>,
    seen: DFF<Bit>,
    s_fx: Signal<Local, Bits<41>>,
    err_l: Signal<Local, Bits<41>>,
    // --- stage B: err = s - srtt (41-bit two's complement) ---
    b_v: DFF<Bit>,
    b_first: DFF<Bit>,
    b_err: DFF<Bits<41>>,
    sh3: Signal<Local, Bits<41>>,
    srtt_l: Signal<Local, Bits<41>>,
    neg_l: Signal<Local, Bits<41>>,
    // --- stage C: srtt updated, |err| ---
    srtt: DFF<Bits<40>>,
    c_v: DFF<Bit>,
    c_first: DFF<Bit>,
    c_abs: DFF<Bits<40>>,
    dif_l: Signal<Local, Bits<41>>,
    // --- stage D: |err| - rttvar ---
    d_v: DFF<Bit>,
    d_first: DFF<Bit>,
    d_dif: DFF<Bits<41>>,
    d_srtt: DFF<Bits<40>>,
    sh2: Signal<Local, Bits<41>>,
    rv_l: Signal<Local, Bits<41>>,
    // --- stage E: rttvar updated ---
    rttvar: DFF<Bits<40>>,
    e_v: DFF<Bit>,
    e_srtt: DFF<Bits<40>>,
    rv4_l: Signal<Local, Bits<43>>,
    sum_l: Signal<Local, Bits<43>>,
    // --- stage F: srtt + 4 rttvar ---
    f_v: DFF<Bit>,
    sum_r: DFF<Bits<43>>,
    ceil_l: Signal<Local, Bits<43>>,
    // --- stage G: the target, rounded up ---
    g_v: DFF<Bit>,
    g_have: DFF<Bit>,
    tgt: DFF<Bits<35>>,
    // --- stage H: outputs ---
    est_r: DFF<Bits<32>>,
    samples_r: DFF<Bits<32>>,

    // --- code thresholds from clocks_per_us ---
    cpu_r: DFF<Bits<16>>,
    cpu20: Signal<Local, Bits<20>>,
    cpu21: Signal<Local, Bits<21>>,
    b1_l: Signal<Local, Bits<20>>,
    b3_l: Signal<Local, Bits<21>>,
    b1: DFF<Bits<20>>,
    b3: DFF<Bits<21>>,
    cz: DFF<Bit>,
    // --- the scan ---
    sc: DFF<Bits<5>>,
    t_s: DFF<Bits<36>>,
    thr_x: DFF<Bits<36>>,
    thr_y: DFF<Bits<36>>,
    have_s: DFF<Bit>,
    zero_s: DFF<Bit>,
    found: DFF<Bit>,
    best: DFF<Bits<5>>,
    ge: Signal<Local, Bit>,
    start: Signal<Local, Bit>,
    res_code: DFF<Bits<5>>,
    res_ok: DFF<Bit>,
    // --- output ---
    code_r: DFF<Bits<5>>,
}

impl Default for RnrTimer {
    fn default() -> Self {
        Self::new()
    }
}

impl RnrTimer {
    /// A timer with an empty estimator: it passes `global_code` until its
    /// first sample has been scanned.
    pub fn new() -> Self {
        let top = |n: u32| -> u64 { ((1u64 << n) - 1) << (41 - n) };
        Self {
            clock: Default::default(),
            rst: Default::default(),
            svc_valid: Default::default(),
            svc_clocks: Default::default(),
            clocks_per_us: Default::default(),
            global_code: Default::default(),
            adaptive: Default::default(),
            code: Default::default(),
            est_clocks: Default::default(),
            samples: Default::default(),
            reset_code: Constant::new(rnr_timer::RESET_CODE.into()),
            sext3: Constant::new(top(3).into()),
            sext2: Constant::new(top(2).into()),
            round: Constant::new(((1u64 << FRAC_BITS) - 1).into()),
            one41: Constant::new(1u64.into()),
            est_max: Constant::new((u32::MAX as u64).into()),
            take: Default::default(),
            a_v: Default::default(),
            a_s: Default::default(),
            seen: Default::default(),
            s_fx: Default::default(),
            err_l: Default::default(),
            b_v: Default::default(),
            b_first: Default::default(),
            b_err: Default::default(),
            sh3: Default::default(),
            srtt_l: Default::default(),
            neg_l: Default::default(),
            srtt: Default::default(),
            c_v: Default::default(),
            c_first: Default::default(),
            c_abs: Default::default(),
            dif_l: Default::default(),
            d_v: Default::default(),
            d_first: Default::default(),
            d_dif: Default::default(),
            d_srtt: Default::default(),
            sh2: Default::default(),
            rv_l: Default::default(),
            rttvar: Default::default(),
            e_v: Default::default(),
            e_srtt: Default::default(),
            rv4_l: Default::default(),
            sum_l: Default::default(),
            f_v: Default::default(),
            sum_r: Default::default(),
            ceil_l: Default::default(),
            g_v: Default::default(),
            g_have: Default::default(),
            tgt: Default::default(),
            est_r: Default::default(),
            samples_r: Default::default(),
            cpu_r: Default::default(),
            cpu20: Default::default(),
            cpu21: Default::default(),
            b1_l: Default::default(),
            b3_l: Default::default(),
            b1: Default::default(),
            b3: Default::default(),
            cz: Default::default(),
            sc: Default::default(),
            t_s: Default::default(),
            thr_x: Default::default(),
            thr_y: Default::default(),
            have_s: Default::default(),
            zero_s: Default::default(),
            found: Default::default(),
            best: Default::default(),
            ge: Default::default(),
            start: Default::default(),
            res_code: Default::default(),
            res_ok: Default::default(),
            code_r: Default::default(),
        }
    }
}

impl Logic for RnrTimer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, a_v, a_s, seen, b_v, b_first, b_err, srtt, c_v, c_first, c_abs, d_v,
            d_first, d_dif, d_srtt, rttvar, e_v, e_srtt, f_v, sum_r, g_v, g_have, tgt, est_r,
            samples_r, cpu_r, b1, b3, cz, sc, t_s, thr_x, thr_y, have_s, zero_s, found, best,
            res_code, res_ok, code_r
        );

        // ---- Stage A: take a sample, unless one was taken last clock (the
        // estimator reads srtt one clock before it writes it back).
        self.take.next = self.svc_valid.val() & (!self.a_v.q.val()) & (!self.rst.val());
        self.a_v.d.next = self.take.val();
        if self.take.val() {
            self.a_s.d.next = self.svc_clocks.val();
        }

        // ---- Stage B: err = s * 2^8 - srtt. The first sample since rst
        // initialises the estimator instead (srtt = s, rttvar = s / 2): srtt
        // and rttvar are 0 until it does (rst and power-up clear them), so
        // its err is s * 2^8 and its |err| - rttvar is too.
        self.s_fx.next = bit_cast::<41, 32>(self.a_s.q.val()) << 8;
        self.err_l.next = self.s_fx.val() - bit_cast::<41, 40>(self.srtt.q.val());
        self.b_v.d.next = self.a_v.q.val();
        if self.a_v.q.val() {
            self.b_first.d.next = !self.seen.q.val();
            self.b_err.d.next = self.err_l.val();
            self.seen.d.next = true;
        }

        // ---- Stage C: srtt += err / 8 (arithmetic shift: floor), |err|.
        self.sh3.next = self.b_err.q.val() >> 3;
        if self.b_err.q.val().get_bit(40) {
            self.sh3.next = (self.b_err.q.val() >> 3) | self.sext3.val();
        }
        self.srtt_l.next = bit_cast::<41, 40>(self.srtt.q.val()) + self.sh3.val();
        self.neg_l.next = (!self.b_err.q.val()) + self.one41.val();
        self.c_v.d.next = self.b_v.q.val();
        if self.b_v.q.val() {
            self.c_first.d.next = self.b_first.q.val();
            self.c_abs.d.next = bit_cast::<40, 41>(self.b_err.q.val());
            if self.b_err.q.val().get_bit(40) {
                self.c_abs.d.next = bit_cast::<40, 41>(self.neg_l.val());
            }
            self.srtt.d.next = bit_cast::<40, 41>(self.srtt_l.val());
            if self.b_first.q.val() {
                self.srtt.d.next = bit_cast::<40, 41>(self.b_err.q.val());
            }
        }

        // ---- Stage D: |err| - rttvar (rttvar is read here, written in E).
        self.dif_l.next =
            bit_cast::<41, 40>(self.c_abs.q.val()) - bit_cast::<41, 40>(self.rttvar.q.val());
        self.d_v.d.next = self.c_v.q.val();
        if self.c_v.q.val() {
            self.d_first.d.next = self.c_first.q.val();
            self.d_dif.d.next = self.dif_l.val();
            self.d_srtt.d.next = self.srtt.q.val();
        }

        // ---- Stage E: rttvar += (|err| - rttvar) / 4 (floor).
        self.sh2.next = self.d_dif.q.val() >> 2;
        if self.d_dif.q.val().get_bit(40) {
            self.sh2.next = (self.d_dif.q.val() >> 2) | self.sext2.val();
        }
        self.rv_l.next = bit_cast::<41, 40>(self.rttvar.q.val()) + self.sh2.val();
        self.e_v.d.next = self.d_v.q.val();
        if self.d_v.q.val() {
            self.e_srtt.d.next = self.d_srtt.q.val();
            self.rttvar.d.next = bit_cast::<40, 41>(self.rv_l.val());
            if self.d_first.q.val() {
                self.rttvar.d.next = bit_cast::<40, 41>(self.d_dif.q.val() >> 1);
            }
        }

        // ---- Stage F: srtt + 4 rttvar, both of this sample.
        self.rv4_l.next = bit_cast::<43, 40>(self.rttvar.q.val()) << 2;
        self.sum_l.next = bit_cast::<43, 40>(self.e_srtt.q.val()) + self.rv4_l.val();
        self.f_v.d.next = self.e_v.q.val();
        if self.e_v.q.val() {
            self.sum_r.d.next = self.sum_l.val();
        }

        // ---- Stage G: the target in clocks, rounded up.
        self.ceil_l.next = self.sum_r.q.val() + self.round.val();
        self.tgt.d.next = bit_cast::<35, 43>(self.ceil_l.val() >> 8);
        self.g_v.d.next = self.f_v.q.val();
        if self.f_v.q.val() {
            self.g_have.d.next = true;
        }

        // ---- Stage H: est_clocks saturates at 2^32 - 1; samples counts.
        self.est_r.d.next = self.tgt.q.val().get_bits::<32>(0);
        if self.tgt.q.val().get_bits::<3>(32).any() {
            self.est_r.d.next = self.est_max.val();
        }
        if self.g_v.q.val() {
            self.samples_r.d.next = self.samples_r.q.val() + 1;
        }

        if self.rst.val() {
            self.a_v.d.next = false;
            self.seen.d.next = false;
            self.b_v.d.next = false;
            self.c_v.d.next = false;
            self.d_v.d.next = false;
            self.e_v.d.next = false;
            self.f_v.d.next = false;
            self.g_v.d.next = false;
            self.g_have.d.next = false;
            self.srtt.d.next = 0.into();
            self.rttvar.d.next = 0.into();
            self.sum_r.d.next = 0.into();
            self.tgt.d.next = 0.into();
            self.est_r.d.next = 0.into();
            self.samples_r.d.next = 0.into();
        }
        self.est_clocks.next = self.est_r.q.val();
        self.samples.next = self.samples_r.q.val();

        // ---- Thresholds: code c's time in clocks is US[c] * clocks_per_us
        // = 10 * cpu * 2^j (c = 1 and even c) or 30 * cpu * 2^j (odd c >= 3).
        self.cpu_r.d.next = self.clocks_per_us.val();
        self.cpu20.next = bit_cast::<20, 16>(self.cpu_r.q.val());
        self.cpu21.next = bit_cast::<21, 16>(self.cpu_r.q.val());
        self.b1_l.next = (self.cpu20.val() << 3) + (self.cpu20.val() << 1);
        self.b3_l.next = (self.cpu21.val() << 5) - (self.cpu21.val() << 1);
        self.b1.d.next = self.b1_l.val();
        self.b3.d.next = self.b3_l.val();
        self.cz.d.next = self.cpu_r.q.val() == 0;

        // ---- The scan: code sc = 1..=31, one a clock, against the target
        // snapshot t_s; thr_x is code sc's time in clocks, thr_y the next
        // one of the other chain. The first code whose time reaches the
        // target is the answer, 31 if none does.
        self.ge.next = self.thr_x.q.val() >= self.t_s.q.val();
        self.sc.d.next = self.sc.q.val() + 1;
        if (!self.found.q.val()) & self.ge.val() {
            self.found.d.next = true;
            self.best.d.next = self.sc.q.val();
        }
        if self.sc.q.val() == 1 {
            self.thr_x.d.next = self.thr_x.q.val() << 1;
        } else {
            self.thr_x.d.next = self.thr_y.q.val();
            self.thr_y.d.next = self.thr_x.q.val() << 1;
        }
        if self.sc.q.val() == 31 {
            self.res_code.d.next = 31.into();
            if self.found.q.val() {
                self.res_code.d.next = self.best.q.val();
            }
            self.res_ok.d.next = self.have_s.q.val() & (!self.zero_s.q.val());
        }
        // A new scan after code 31, after rst and at power-up (sc = 0).
        self.start.next = (self.sc.q.val() == 31) | (self.sc.q.val() == 0) | self.rst.val();
        if self.start.val() {
            self.sc.d.next = 1.into();
            self.t_s.d.next = bit_cast::<36, 35>(self.tgt.q.val());
            self.thr_x.d.next = bit_cast::<36, 20>(self.b1.q.val());
            self.thr_y.d.next = bit_cast::<36, 21>(self.b3.q.val());
            self.have_s.d.next = self.g_have.q.val() & (!self.rst.val());
            self.zero_s.d.next = self.cz.q.val();
            self.found.d.next = false;
        }
        if self.rst.val() {
            self.res_ok.d.next = false;
        }

        // ---- Output: global_code when not adaptive; the last scan's code
        // once it has an estimate and a time base; otherwise global_code,
        // with 0 replaced by RESET_CODE (adaptive mode never sends 0).
        self.code_r.d.next = self.global_code.val();
        if self.adaptive.val() {
            if self.res_ok.q.val() & (!self.rst.val()) {
                self.code_r.d.next = self.res_code.q.val();
            } else if self.global_code.val() == 0 {
                self.code_r.d.next = self.reset_code.val();
            }
        }
        self.code.next = self.code_r.q.val();
    }
}
