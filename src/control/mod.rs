#![doc = include_str!("../../docs/csr.md")]

#[rustfmt::skip] // generated: compared byte for byte with the generator's output
mod csr_regs;

pub use csr_regs::{CsrCaps, CsrRegs};

use crate::params::Params;

impl CsrCaps {
    /// The parameter registers of a core built with `p`.
    ///
    /// `CAP_QUEUES.PENDING` is eight bits wide and `p.pending_faults` may be
    /// 256: it holds the count modulo 256, so 0 reads as 256.
    pub fn from_params(p: &Params) -> Self {
        Self {
            cap_mrs: p.mr_entries as u32,
            cap_qps: p.qps as u32,
            cap_tlb: ((p.tlb_sets as u32) << regmap::CAP_TLB_SETS_LSB)
                | ((p.huge_entries as u32) << regmap::CAP_TLB_HUGE_LSB)
                | ((p.tlb_ways as u32) << regmap::CAP_TLB_WAYS_LSB),
            cap_queues: ((p.walks as u32) << regmap::CAP_QUEUES_WALKS_LSB)
                | (((p.pending_faults as u32) & 0xFF) << regmap::CAP_QUEUES_PENDING_LSB)
                | ((p.outstanding as u32) << regmap::CAP_QUEUES_OUTSTANDING_LSB),
        }
    }
}

/// Generates the Verilog of the CSR block for `caps`, top module `name`.
pub fn generate_verilog(caps: &CsrCaps, name: &str) -> String {
    use rust_hdl::prelude::*;
    let mut uut = CsrRegs::new(caps);
    uut.connect_all();
    crate::verilog::generate(&uut, name)
}
pub mod command;
pub mod inval;
pub mod mr_waiters;
pub mod prefetch;
pub mod regmap;
