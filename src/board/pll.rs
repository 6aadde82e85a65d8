//! The ECP5 PLL (`EHXPLLL`) as a rust-hdl block: one output clock from
//! the board's oscillator.
//!
//! The block is a wrapper: its Verilog instantiates the `EHXPLLL` primitive
//! (Yosys's `synth_ecp5` knows it, nextpnr places it and derives the output
//! clock's frequency from the dividers). In rust-hdl's own simulation the
//! output clock is the input clock and `lock` is high. Verilator has no
//! model of the primitive: [`pll_blackbox`] is the declaration the
//! generated Verilog carries, and a simulation swaps it for a model of its
//! own.

use rust_hdl::prelude::*;

/// The divider settings of an `EHXPLLL` with its feedback from `CLKOP`:
/// `f_out = f_in * clkfb_div / clki_div`, with the VCO at
/// `f_out * clkop_div`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PllConfig {
    /// Input clock, MHz.
    pub in_mhz: u32,
    /// Reference divider (`CLKI_DIV`, 1..=128).
    pub clki_div: u32,
    /// Feedback divider (`CLKFB_DIV`, 1..=128).
    pub clkfb_div: u32,
    /// Output divider (`CLKOP_DIV`, 1..=128).
    pub clkop_div: u32,
    /// Coarse phase of the output in VCO cycles (`CLKOP_CPHASE`), as
    /// `ecppll` sets it for a 0 degree output.
    pub clkop_cphase: u32,
}

/// The PLL of the Versa board: 100 MHz in, 50 MHz out (VCO 600 MHz), the
/// dividers `yowasp-ecppll -i 100 -o 50` chooses.
pub const VERSA_50MHZ: PllConfig = PllConfig {
    in_mhz: 100,
    clki_div: 2,
    clkfb_div: 1,
    clkop_div: 12,
    clkop_cphase: 5,
};

impl PllConfig {
    /// The output clock, MHz.
    pub fn out_mhz(&self) -> f64 {
        self.in_mhz as f64 * self.clkfb_div as f64 / self.clki_div as f64
    }

    /// The VCO frequency, MHz.
    pub fn vco_mhz(&self) -> f64 {
        self.out_mhz() * self.clkop_div as f64
    }

    /// The phase-detector frequency, MHz.
    pub fn pfd_mhz(&self) -> f64 {
        self.in_mhz as f64 / self.clki_div as f64
    }

    /// Checks the ECP5 data sheet's ranges: dividers 1..=128, VCO 400 to
    /// 800 MHz, phase detector 3.125 to 400 MHz, output 3.125 to 400 MHz.
    pub fn check(&self) -> Result<(), String> {
        for (name, v) in [
            ("CLKI_DIV", self.clki_div),
            ("CLKFB_DIV", self.clkfb_div),
            ("CLKOP_DIV", self.clkop_div),
        ] {
            if !(1..=128).contains(&v) {
                return Err(format!("{name} must be in 1..=128, got {v}"));
            }
        }
        if self.clkop_cphase >= self.clkop_div {
            return Err(format!(
                "CLKOP_CPHASE must be below CLKOP_DIV ({}), got {}",
                self.clkop_div, self.clkop_cphase
            ));
        }
        let ranges = [
            ("VCO", self.vco_mhz(), 400.0, 800.0),
            ("phase detector", self.pfd_mhz(), 3.125, 400.0),
            ("output", self.out_mhz(), 3.125, 400.0),
        ];
        for (name, f, lo, hi) in ranges {
            if !(lo..=hi).contains(&f) {
                return Err(format!(
                    "{name} frequency {f} MHz is outside {lo}..={hi} MHz"
                ));
            }
        }
        Ok(())
    }
}

/// The `EHXPLLL` module header: its ports as the ECP5 primitive has them,
/// in the one order every declaration of it here writes them
/// ([`pll_blackbox`], and the simulation model of the workshop).
pub const PLL_PORTS: &str = "module EHXPLLL(
    input CLKI, input CLKFB, input PHASESEL1, input PHASESEL0, input PHASEDIR,
    input PHASESTEP, input PHASELOADREG, input STDBY, input PLLWAKESYNC,
    input RST, input ENCLKOP, input ENCLKOS, input ENCLKOS2, input ENCLKOS3,
    output CLKOP, output CLKOS, output CLKOS2, output CLKOS3, output LOCK,
    output INTLOCK, output REFCLK, output CLKINTFB
);
";

/// The `EHXPLLL` parameters with their defaults (a Verilog literal each),
/// in the primitive's order; the flag is set on those the instance of
/// [`Ecp5Pll`] overrides, which any model of the primitive must declare.
pub const PLL_PARAMS: [(&str, &str, bool); 36] = [
    ("CLKI_DIV", "1", true),
    ("CLKFB_DIV", "1", true),
    ("CLKOP_DIV", "8", true),
    ("CLKOS_DIV", "8", false),
    ("CLKOS2_DIV", "8", false),
    ("CLKOS3_DIV", "8", false),
    ("CLKOP_ENABLE", "\"ENABLED\"", true),
    ("CLKOS_ENABLE", "\"DISABLED\"", false),
    ("CLKOS2_ENABLE", "\"DISABLED\"", false),
    ("CLKOS3_ENABLE", "\"DISABLED\"", false),
    ("CLKOP_CPHASE", "0", true),
    ("CLKOS_CPHASE", "0", false),
    ("CLKOS2_CPHASE", "0", false),
    ("CLKOS3_CPHASE", "0", false),
    ("CLKOP_FPHASE", "0", true),
    ("CLKOS_FPHASE", "0", false),
    ("CLKOS2_FPHASE", "0", false),
    ("CLKOS3_FPHASE", "0", false),
    ("FEEDBK_PATH", "\"CLKOP\"", true),
    ("CLKOP_TRIM_POL", "\"RISING\"", false),
    ("CLKOP_TRIM_DELAY", "0", false),
    ("CLKOS_TRIM_POL", "\"RISING\"", false),
    ("CLKOS_TRIM_DELAY", "0", false),
    ("OUTDIVIDER_MUXA", "\"DIVA\"", true),
    ("OUTDIVIDER_MUXB", "\"DIVB\"", true),
    ("OUTDIVIDER_MUXC", "\"DIVC\"", true),
    ("OUTDIVIDER_MUXD", "\"DIVD\"", true),
    ("PLL_LOCK_MODE", "0", false),
    ("PLL_LOCK_DELAY", "200", false),
    ("STDBY_ENABLE", "\"DISABLED\"", true),
    ("REFIN_RESET", "\"DISABLED\"", false),
    ("SYNC_ENABLE", "\"DISABLED\"", false),
    ("INT_LOCK_STICKY", "\"ENABLED\"", false),
    ("PLLRST_ENA", "\"DISABLED\"", true),
    ("INTFB_WAKE", "\"DISABLED\"", true),
    ("DPHASE_SOURCE", "\"DISABLED\"", true),
];

/// `parameter <name> = <default>;` lines of the [`PLL_PARAMS`] that
/// `keep` selects, in their order.
fn pll_parameters(keep: impl Fn(bool) -> bool) -> String {
    PLL_PARAMS
        .iter()
        .filter(|&&(_, _, set)| keep(set))
        .map(|(name, default, _)| format!("parameter {name} = {default};\n"))
        .collect()
}

/// The `EHXPLLL` declaration the generated Verilog carries: a black box
/// for Yosys (which replaces it with its own cell), to be swapped for a
/// behavioural model by a Verilog simulation. [`PLL_PORTS`] and every
/// parameter of [`PLL_PARAMS`].
pub fn pll_blackbox() -> String {
    format!(
        "(* blackbox *)\n{PLL_PORTS}{}endmodule\n",
        pll_parameters(|_| true)
    )
}

/// The head of a behavioural `EHXPLLL` model: [`PLL_PORTS`] and the
/// parameters the instance of [`Ecp5Pll`] overrides, so that the instance
/// elaborates against it; the model adds its body and `endmodule`.
pub fn pll_model_head() -> String {
    format!("{PLL_PORTS}{}", pll_parameters(|set| set))
}

/// An `EHXPLLL` with one output, `clkop`, fed back to itself.
///
/// - `clki` (in): the reference clock (the board's oscillator);
/// - `clkop` (out): the output clock, [`PllConfig::out_mhz`];
/// - `lock` (out): high while the PLL is locked (asynchronous to both
///   clocks: synchronize it before use).
///
/// The dividers are fixed at construction.
#[derive(LogicBlock)]
pub struct Ecp5Pll {
    /// Reference clock.
    pub clki: Signal<In, Clock>,
    /// Output clock.
    pub clkop: Signal<Out, Clock>,
    /// Locked.
    pub lock: Signal<Out, Bit>,
    _config: PllConfig,
}

impl Ecp5Pll {
    /// A PLL with the dividers of `config`; panics naming the range a
    /// setting breaks.
    pub fn new(config: PllConfig) -> Self {
        if let Err(e) = config.check() {
            panic!("Ecp5Pll: {e}");
        }
        Self {
            clki: Default::default(),
            clkop: Default::default(),
            lock: Default::default(),
            _config: config,
        }
    }

    /// The dividers.
    pub fn config(&self) -> PllConfig {
        self._config
    }
}

impl Logic for Ecp5Pll {
    fn update(&mut self) {
        self.clkop.next = self.clki.val();
        self.lock.next = true;
    }

    fn connect(&mut self) {
        self.clkop.connect();
        self.lock.connect();
    }

    fn hdl(&self) -> Verilog {
        let c = self._config;
        Verilog::Wrapper(Wrapper {
            code: format!(
                "// The outputs this design does not use.
wire clkos_nc, clkos2_nc, clkos3_nc, intlock_nc, refclk_nc, clkintfb_nc;
(* FREQUENCY_PIN_CLKI=\"{fin}\" *)
(* FREQUENCY_PIN_CLKOP=\"{fout}\" *)
(* ICP_CURRENT=\"12\" *) (* LPF_RESISTOR=\"8\" *) (* MFG_ENABLE_FILTEROPAMP=\"1\" *) (* MFG_GMCREF_SEL=\"2\" *)
EHXPLLL #(
    .PLLRST_ENA(\"DISABLED\"),
    .INTFB_WAKE(\"DISABLED\"),
    .STDBY_ENABLE(\"DISABLED\"),
    .DPHASE_SOURCE(\"DISABLED\"),
    .OUTDIVIDER_MUXA(\"DIVA\"),
    .OUTDIVIDER_MUXB(\"DIVB\"),
    .OUTDIVIDER_MUXC(\"DIVC\"),
    .OUTDIVIDER_MUXD(\"DIVD\"),
    .CLKI_DIV({clki}),
    .CLKOP_ENABLE(\"ENABLED\"),
    .CLKOP_DIV({clkop}),
    .CLKOP_CPHASE({cphase}),
    .CLKOP_FPHASE(0),
    .FEEDBK_PATH(\"CLKOP\"),
    .CLKFB_DIV({clkfb})
) pll_i (
    .RST(1'b0),
    .STDBY(1'b0),
    .CLKI(clki),
    .CLKOP(clkop),
    .CLKFB(clkop),
    .CLKINTFB(clkintfb_nc),
    .CLKOS(clkos_nc),
    .CLKOS2(clkos2_nc),
    .CLKOS3(clkos3_nc),
    .INTLOCK(intlock_nc),
    .REFCLK(refclk_nc),
    .ENCLKOS(1'b0),
    .ENCLKOS2(1'b0),
    .ENCLKOS3(1'b0),
    .PHASESEL0(1'b0),
    .PHASESEL1(1'b0),
    .PHASEDIR(1'b1),
    .PHASESTEP(1'b1),
    .PHASELOADREG(1'b1),
    .PLLWAKESYNC(1'b0),
    .ENCLKOP(1'b0),
    .LOCK(lock)
);
",
                fin = c.in_mhz,
                fout = c.out_mhz(),
                clki = c.clki_div,
                clkop = c.clkop_div,
                cphase = c.clkop_cphase,
                clkfb = c.clkfb_div,
            ),
            cores: pll_blackbox(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parameters flagged in [`PLL_PARAMS`] are exactly those the
    /// instance overrides: a model declaring them elaborates the instance.
    #[test]
    fn flagged_parameters_are_those_the_instance_sets() {
        let Verilog::Wrapper(w) = Ecp5Pll::new(VERSA_50MHZ).hdl() else {
            panic!("Ecp5Pll is a wrapper");
        };
        let overrides = w.code.split("EHXPLLL #(").nth(1).unwrap();
        let overrides = overrides.split(") pll_i (").next().unwrap();
        let mut set: Vec<&str> = overrides
            .lines()
            .filter_map(|l| l.trim().strip_prefix('.')?.split('(').next())
            .collect();
        let mut flagged: Vec<&str> = PLL_PARAMS.iter().filter(|p| p.2).map(|p| p.0).collect();
        set.sort_unstable();
        flagged.sort_unstable();
        assert_eq!(set, flagged);
    }
}
