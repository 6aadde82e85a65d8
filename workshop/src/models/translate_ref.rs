//! Reference model of the translation semantics (SPEC sections 2, 3, 5):
//! what the answer to one request must be, given the MR table and the page
//! tables in host memory. Timing-free: the hardware may cache, coalesce and
//! reorder across QPs, but each answer must equal this one.

use super::host_memory::HostMemory;
use super::mr_check::{self, MrEntry, MrReq};
use super::page_table::{walk, Outcome};

use odp_mmu::spec::status::byte::{ACCESS_ERR, FATAL, OK, RNR, STALL};

/// One translation request (the fields translation depends on).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Req {
    pub op: u8,
    pub qpn: u32,
    pub pd: u16,
    pub key: u32,
    pub va: u64,
    pub len: u16,
}

/// The answer: a status and, for OK, one `(pa, seg_len)` per page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub status: u8,
    pub beats: Vec<(u64, u64)>,
    /// For RNR / STALL of a missing page (not of a suspended MR): the VA of
    /// the 4 KiB page that faulted, which the translator reports to the
    /// fault queue with the answer.
    pub fault_page: Option<u64>,
}

impl Answer {
    fn status(status: u8) -> Self {
        Self {
            status,
            beats: Vec::new(),
            fault_page: None,
        }
    }

    fn fault(status: u8, page_va: u64) -> Self {
        Self {
            status,
            beats: Vec::new(),
            fault_page: (status != FATAL).then_some(page_va & !0xFFF),
        }
    }
}

/// A page lookup's result: `Ok((pa, bytes to the end of the page))` or the
/// failing status.
fn page(mem: &HostMemory, e: &MrEntry, off: u64, write: bool, fault: u8) -> Result<(u64, u64), u8> {
    match walk(mem, e.root, e.levels_m1, off) {
        Outcome::NotPresent => Err(fault),
        Outcome::Fatal => Err(FATAL),
        Outcome::Ok {
            ppn,
            size,
            writable,
        } => {
            if write && !writable {
                return Err(fault);
            }
            let within = off & (size.bytes() - 1);
            Ok(((ppn << 12).wrapping_add(within), size.bytes() - within))
        }
    }
}

/// The MR's end as the MR table reports it with a verdict:
/// `min(base_va + length, 2^64 - 1)`.
pub fn mr_end(e: &MrEntry) -> u64 {
    e.base_va.saturating_add(e.length)
}

/// The answer to `req` for a table of `2^idx_bits` entries `mrs` and `qps`
/// queue pairs.
pub fn translate(mrs: &[MrEntry], idx_bits: u32, qps: u32, mem: &HostMemory, req: &Req) -> Answer {
    let index = mr_check::mr_index(req.key, idx_bits);
    let verdict = mr_check::check(
        &mrs[index],
        &MrReq {
            key: req.key,
            pd: req.pd,
            va: req.va,
            len: req.len,
            op: req.op,
        },
        idx_bits,
    );
    if verdict.status == ACCESS_ERR || req.qpn >= qps {
        return Answer::status(ACCESS_ERR);
    }
    let remote = req.op <= 1;
    let write = req.op == 0 || req.op == 3;
    let fault = if remote { RNR } else { STALL };
    if verdict.status == mr_check::SUSPENDED {
        return Answer::status(fault);
    }
    let e = &mrs[index];
    let len = req.len as u64;
    let (pa_a, rem_a) = match page(mem, e, verdict.off, write, fault) {
        Ok(p) => p,
        Err(s) => return Answer::fault(s, req.va),
    };
    if len <= rem_a {
        return Answer {
            status: OK,
            beats: vec![(pa_a, len)],
            fault_page: None,
        };
    }
    let (pa_b, _) = match page(mem, e, verdict.off.wrapping_add(rem_a), write, fault) {
        Ok(p) => p,
        Err(s) => return Answer::fault(s, req.va.wrapping_add(rem_a)),
    };
    Answer {
        status: OK,
        beats: vec![(pa_a, rem_a), (pa_b, len - rem_a)],
        fault_page: None,
    }
}
