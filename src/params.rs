//! Core parameters (SPEC section 6) and their legal ranges.

use std::fmt;

/// Size parameters of the core. `Params::default()` is the SPEC section 6
/// configuration; every field is checked by [`Params::validate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Memory regions (MR table entries); a power of two, 4..=1024.
    pub mr_entries: usize,
    /// Queue pairs; QPNs at or above this answer ACCESS_ERR. 1..=2^24.
    pub qps: usize,
    /// Sets of 4 KiB TLB entries; a power of two, 4..=4096.
    pub tlb_sets: usize,
    /// Ways per set of 4 KiB TLB entries; fixed at 4.
    pub tlb_ways: usize,
    /// Huge-page (2 MiB / 1 GiB) TLB entries; a power of two, 2..=64.
    pub huge_entries: usize,
    /// Concurrent page-table walks; 1..=8.
    pub walks: usize,
    /// Pending-fault table entries; 1..=256.
    pub pending_faults: usize,
    /// Outstanding requests (waiting on a walk or ordered behind one); 1..=256.
    pub outstanding: usize,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            mr_entries: 256,
            qps: 1024,
            tlb_sets: 256,
            tlb_ways: 4,
            huge_entries: 32,
            walks: 8,
            pending_faults: 32,
            outstanding: 64,
        }
    }
}

impl Params {
    /// The small preset: 8 MRs, 16 QPs, 4 TLB sets, 4 huge entries, 2
    /// walks, 4 pending faults, 8 outstanding requests. Fast to simulate;
    /// the system tests run it beside the default.
    pub fn small() -> Self {
        Self {
            mr_entries: 8,
            qps: 16,
            tlb_sets: 4,
            huge_entries: 4,
            walks: 2,
            pending_faults: 4,
            outstanding: 8,
            ..Self::default()
        }
    }
}

/// A named configuration of the whole core. Each preset is a type
/// ([`crate::DefaultOdpMmu`], [`crate::SmallOdpMmu`]): rust-hdl sizes
/// memories and vectors by const generics, so `odp_mmu` is built in these
/// sizes only (`qps` is free in every preset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// SPEC section 6: 256 MRs, 256 x 4 TLB entries, 32 huge entries, 8
    /// walks, 32 pending faults, 64 outstanding requests.
    Default,
    /// 8 MRs, 4 x 4 TLB entries, 4 huge entries, 2 walks, 4 pending faults, 8
    /// outstanding requests: quick to simulate; the system tests run it
    /// beside the default.
    Small,
}

impl Preset {
    /// Every preset, in the order `--help` lists them.
    pub const ALL: [Preset; 2] = [Preset::Default, Preset::Small];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Default => "default",
            Preset::Small => "small",
        }
    }

    /// Its parameters (the small preset has 16 QPs, the default 1024).
    pub fn params(self) -> Params {
        match self {
            Preset::Default => Params::default(),
            Preset::Small => Params::small(),
        }
    }

    /// The preset whose sizes `p` has (every field but `qps`), if any.
    pub fn of(p: &Params) -> Option<Preset> {
        Preset::ALL.into_iter().find(|preset| {
            Params {
                qps: p.qps,
                ..preset.params()
            } == *p
        })
    }
}

/// A parameter outside its legal range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError(pub String);

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParamError {}

fn check(ok: bool, msg: impl FnOnce() -> String) -> Result<(), ParamError> {
    if ok {
        Ok(())
    } else {
        Err(ParamError(msg()))
    }
}

fn pow2_in(name: &str, v: usize, lo: usize, hi: usize) -> Result<(), ParamError> {
    check(v.is_power_of_two() && (lo..=hi).contains(&v), || {
        format!("{name} must be a power of two in {lo}..={hi}, got {v}")
    })
}

fn in_range(name: &str, v: usize, lo: usize, hi: usize) -> Result<(), ParamError> {
    check((lo..=hi).contains(&v), || {
        format!("{name} must be in {lo}..={hi}, got {v}")
    })
}

impl Params {
    /// The sizes of `self` (every field but `qps`) as the command line
    /// spells them.
    pub fn sizes(&self) -> String {
        format!(
            "mr_entries {}, tlb_sets {}, huge_entries {}, walks {}, pending_faults {}, outstanding {}",
            self.mr_entries, self.tlb_sets, self.huge_entries, self.walks, self.pending_faults, self.outstanding
        )
    }
}

impl Params {
    /// Checks every parameter against its legal range.
    pub fn validate(&self) -> Result<(), ParamError> {
        pow2_in("mr_entries", self.mr_entries, 4, 1024)?;
        in_range("qps", self.qps, 1, 1 << 24)?;
        pow2_in("tlb_sets", self.tlb_sets, 4, 4096)?;
        check(self.tlb_ways == 4, || {
            format!("tlb_ways is fixed at 4, got {}", self.tlb_ways)
        })?;
        pow2_in("huge_entries", self.huge_entries, 2, 64)?;
        in_range("walks", self.walks, 1, 8)?;
        in_range("pending_faults", self.pending_faults, 1, 256)?;
        in_range("outstanding", self.outstanding, 1, 256)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_spec_configuration_and_valid() {
        let p = Params::default();
        assert_eq!(
            (p.mr_entries, p.qps, p.tlb_sets * p.tlb_ways, p.huge_entries),
            (256, 1024, 1024, 32)
        );
        assert_eq!((p.walks, p.pending_faults, p.outstanding), (8, 32, 64));
        assert_eq!(p.validate(), Ok(()));
    }

    #[test]
    fn out_of_range_parameters_are_refused_with_their_name() {
        let bad = [
            Params {
                mr_entries: 100,
                ..Params::default()
            },
            Params {
                qps: 0,
                ..Params::default()
            },
            Params {
                tlb_ways: 2,
                ..Params::default()
            },
            Params {
                walks: 9,
                ..Params::default()
            },
        ];
        let names = ["mr_entries", "qps", "tlb_ways", "walks"];
        for (p, name) in bad.iter().zip(names) {
            let err = p.validate().unwrap_err().0;
            assert!(err.starts_with(name), "{err}");
        }
    }
}
