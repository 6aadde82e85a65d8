//! The bench command: performance of the translation path, measured in
//! simulation clocks on the rust-hdl model (no external tool needed).
//!
//! Every number comes from a scenario run here, clock by clock, against the
//! host-memory model of [`crate::sim::host_memory`] with a fixed latency:
//!
//! | key | scenario |
//! |---|---|
//! | `hit_requests_per_clock` | 10,000 requests to 64 TLB-resident pages, response always ready: requests / clocks from first accept to last response |
//! | `hit_latency_clocks` | one request to a resident page on an idle core: clocks from the accepting edge to `m_xrsp_valid` |
//! | `hit_under_miss_requests_per_clock` | 10,000 requests, 200-clock memory: hot QPs hit resident pages while cold QPs (other QPs) stream 512-byte accesses through pages not in the TLB; `hit_under_miss_miss_fraction` is the measured share of requests that missed (parked) |
//! | `walk_overhead_clocks` | walker alone, 200-clock memory, one walk per `levels` 1..4: walk latency minus `levels` x 200, worst level |
//! | `walks_in_flight_max` | most page-table reads outstanding at once in the random-miss run with 8 walkers |
//! | `miss_throughput_ratio_8_vs_1_walker` | 128 requests, each to its own random page and QP, 200-clock memory: clocks with 1 walker / clocks with 8 walkers |

use rust_hdl::prelude::*;

use crate::sim::host_memory::{Addr, HostMemory, MasterOut, MemConfig};
use crate::sim::mr_check::{MrEntry, STATE_VALID};
use crate::sim::page_table::{PageSize, PageTableBuilder};
use crate::sim::translate_ref::Req;
use crate::translate::Translator;
use crate::walker::Walker;

/// Drives a block's AXI4 read-master inputs (`m_axi_arready`, `m_axi_r*`)
/// from the memory model's outputs of this clock.
macro_rules! drive_axi_read_slave {
    ($u:expr, $s:expr) => {
        $u.m_axi_arready.next = $s.arready;
        $u.m_axi_rvalid.next = $s.r.is_some();
        if let Some(b) = $s.r {
            $u.m_axi_rid.next = (b.id as u64).into();
            $u.m_axi_rdata.next = b.data.into();
            $u.m_axi_rresp.next = (b.resp as u64).into();
            $u.m_axi_rlast.next = b.last;
        }
    };
}

/// A block's settled AXI4 read-master outputs as the memory model's
/// `MasterOut` (no writes).
macro_rules! axi_read_master_out {
    ($u:expr) => {
        MasterOut {
            ar: $u.m_axi_arvalid.val().then(|| Addr {
                id: $u.m_axi_arid.val().index() as u8,
                addr: $u.m_axi_araddr.val().to_u64(),
                len: $u.m_axi_arlen.val().index() as u8,
                size: $u.m_axi_arsize.val().index() as u8,
                burst: $u.m_axi_arburst.val().index() as u8,
            }),
            rready: $u.m_axi_rready.val(),
            aw: None,
            w: None,
            bready: true,
        }
    };
}

/// Memory latency of the miss scenarios, in clocks.
pub const MEMORY_LATENCY: u64 = 200;

/// The measured numbers (see the module table).
#[derive(Clone, Debug, Default)]
pub struct Numbers {
    pub hit_requests_per_clock: f64,
    pub hit_latency_clocks: u64,
    pub hit_under_miss_requests_per_clock: f64,
    pub hit_under_miss_miss_fraction: f64,
    pub walk_overhead_clocks: u64,
    pub walk_overhead_by_levels: [u64; 4],
    pub walks_in_flight_max: usize,
    pub miss_clocks_8_walkers: u64,
    pub miss_clocks_1_walker: u64,
    pub miss_throughput_ratio_8_vs_1_walker: f64,
}

impl Numbers {
    /// The numbers as a JSON object (flat, one key per number).
    pub fn to_json(&self) -> String {
        let l = self.walk_overhead_by_levels;
        format!(
            "{{\n  \"hit_requests_per_clock\": {:.4},\n  \"hit_latency_clocks\": {},\n  \
             \"hit_under_miss_requests_per_clock\": {:.4},\n  \"hit_under_miss_miss_fraction\": {:.4},\n  \
             \"walk_overhead_clocks\": {},\n  \"walk_overhead_clocks_by_levels\": [{}, {}, {}, {}],\n  \
             \"walks_in_flight_max\": {},\n  \"miss_clocks_8_walkers\": {},\n  \"miss_clocks_1_walker\": {},\n  \
             \"miss_throughput_ratio_8_vs_1_walker\": {:.3},\n  \"memory_latency_clocks\": {}\n}}\n",
            self.hit_requests_per_clock,
            self.hit_latency_clocks,
            self.hit_under_miss_requests_per_clock,
            self.hit_under_miss_miss_fraction,
            self.walk_overhead_clocks,
            l[0],
            l[1],
            l[2],
            l[3],
            self.walks_in_flight_max,
            self.miss_clocks_8_walkers,
            self.miss_clocks_1_walker,
            self.miss_throughput_ratio_8_vs_1_walker,
            MEMORY_LATENCY
        )
    }

    /// The numbers as a table with their targets (SPEC section 7).
    pub fn table(&self) -> String {
        let rows = [
            (
                "hit_requests_per_clock",
                format!("{:.3}", self.hit_requests_per_clock),
                ">= 0.98",
            ),
            (
                "hit_latency_clocks",
                self.hit_latency_clocks.to_string(),
                "<= 6",
            ),
            (
                "hit_under_miss_requests_per_clock",
                format!("{:.3}", self.hit_under_miss_requests_per_clock),
                ">= 0.8",
            ),
            (
                "hit_under_miss_miss_fraction",
                format!("{:.3}", self.hit_under_miss_miss_fraction),
                "~0.125",
            ),
            (
                "walk_overhead_clocks",
                self.walk_overhead_clocks.to_string(),
                "<= 8",
            ),
            (
                "walks_in_flight_max",
                self.walks_in_flight_max.to_string(),
                "8",
            ),
            (
                "miss_throughput_ratio_8_vs_1_walker",
                format!("{:.2}", self.miss_throughput_ratio_8_vs_1_walker),
                ">= 5",
            ),
        ];
        let mut s = format!("{:<36} {:>10} {:>9}\n", "metric", "measured", "target");
        for (k, v, t) in rows {
            s.push_str(&format!("{k:<36} {v:>10} {t:>9}\n"));
        }
        s
    }
}

/// The bench's translator: SPEC section 6 parameters, `WALKS` walkers.
type BenchTranslator<const WALKS: usize> = Translator<8, 8, 32, 64, 6, 7, WALKS>;

/// A response beat: tag, status, pa, seg_len, last.
type Beat = (u8, u8, u64, u64, bool);

/// The rust-hdl translator driven clock by clock against host memory.
struct Sim<const WALKS: usize> {
    uut: Box<BenchTranslator<WALKS>>,
    mem: HostMemory,
    clock: u64,
    parks: u64,
    parked: u64,
}

fn settle<B: Block>(uut: &mut B) {
    assert!(simulate(uut, 10_000), "the design does not settle");
}

impl<const WALKS: usize> Sim<WALKS> {
    fn new(mem: HostMemory) -> Self {
        let mut uut = Box::new(BenchTranslator::<WALKS>::new(1024));
        uut.connect_all();
        let mut sim = Self {
            uut,
            mem,
            clock: 0,
            parks: 0,
            parked: 0,
        };
        sim.uut.rst.next = true;
        sim.cycle(None, true);
        sim.cycle(None, true);
        sim.uut.rst.next = false;
        while !sim.uut.ready.val() {
            sim.cycle(None, true);
        }
        sim
    }

    /// One clock. Returns whether `req` was accepted and the beat taken.
    fn cycle(&mut self, req: Option<(u8, &Req)>, rsp_ready: bool) -> (bool, Option<Beat>) {
        let u = &mut *self.uut;
        let s = self.mem.outputs();
        drive_axi_read_slave!(u, s);
        u.s_xreq_valid.next = req.is_some();
        if let Some((tag, r)) = req {
            u.s_xreq_tag.next = (tag as u64).into();
            u.s_xreq_op.next = (r.op as u64).into();
            u.s_xreq_qpn.next = (r.qpn as u64).into();
            u.s_xreq_pd.next = (r.pd as u64).into();
            u.s_xreq_key.next = (r.key as u64).into();
            u.s_xreq_va.next = r.va.into();
            u.s_xreq_len.next = (r.len as u64).into();
        }
        u.m_xrsp_ready.next = rsp_ready;
        settle(u);
        let accepted = req.is_some() && u.s_xreq_ready.val();
        let beat = (u.m_xrsp_valid.val() && rsp_ready).then(|| {
            (
                u.m_xrsp_tag.val().index() as u8,
                u.m_xrsp_status.val().index() as u8,
                u.m_xrsp_pa.val().to_u64(),
                u.m_xrsp_seg_len.val().index() as u64,
                u.m_xrsp_last.val(),
            )
        });
        let parked = u.mon_parked.val().index() as u64;
        if parked > self.parked {
            self.parks += parked - self.parked;
        }
        self.parked = parked;
        let m = axi_read_master_out!(u);
        self.mem.edge(&m);
        u.clock.next = true.into();
        settle(u);
        u.clock.next = false.into();
        settle(u);
        self.clock += 1;
        (accepted, beat)
    }

    fn write_mr(&mut self, index: u64, e: &MrEntry) {
        let u = &mut *self.uut;
        u.mr_wr_valid.next = true;
        u.mr_wr_index.next = index.into();
        u.mr_wr_tag.next = (e.tag as u64).into();
        u.mr_wr_pd.next = (e.pd as u64).into();
        u.mr_wr_base_va.next = e.base_va.into();
        u.mr_wr_length.next = e.length.into();
        u.mr_wr_access.next = (e.access as u64).into();
        u.mr_wr_root.next = e.root.into();
        u.mr_wr_levels_m1.next = (e.levels_m1 as u64).into();
        u.mr_wr_state.next = (e.state as u64).into();
        self.cycle(None, true);
        self.uut.mr_wr_valid.next = false;
    }

    /// Sends `reqs` in order as fast as they are accepted (tags cycle;
    /// at most 200 outstanding) and returns (clock of the first accept,
    /// clock of the last response's last beat, clock each request was
    /// accepted).
    fn stream(&mut self, reqs: &[Req]) -> (u64, u64, Vec<u64>) {
        let mut next = 0;
        let mut outstanding = 0usize;
        let mut answered = 0;
        let (mut first, mut last) = (None, 0);
        let mut accepted_at = Vec::with_capacity(reqs.len());
        let limit = self.clock + 2_000_000;
        while answered < reqs.len() {
            assert!(
                self.clock < limit,
                "bench: the translator stopped answering"
            );
            let req = (next < reqs.len() && outstanding < 200).then(|| (next as u8, &reqs[next]));
            let (acc, beat) = self.cycle(req, true);

            if acc {
                first.get_or_insert(self.clock - 1);
                accepted_at.push(self.clock - 1);
                next += 1;
                outstanding += 1;
            }
            if let Some((_, _, _, _, true)) = beat {
                answered += 1;
                outstanding -= 1;
                last = self.clock - 1;
            }
        }
        (first.unwrap_or(0), last, accepted_at)
    }
}

/// An MR of `pages` 4 KiB pages, all mapped and writable, at `base_va`.
fn mapped_mr(
    mem: &mut HostMemory,
    tables: &mut PageTableBuilder,
    base_va: u64,
    pages: u64,
    levels: u8,
    first_frame: u64,
) -> MrEntry {
    let t = tables.new_mr(levels);
    for p in 0..pages {
        tables.map(mem, t, p << 12, PageSize::Size4K, first_frame + p, true);
    }
    MrEntry {
        tag: 0x5a,
        pd: 1,
        base_va,
        length: pages << 12,
        access: 7,
        root: t.root,
        levels_m1: t.levels_m1,
        state: STATE_VALID,
    }
}

fn read_req(qpn: u32, mr: u32, va: u64, len: u16) -> Req {
    Req {
        op: 2,
        qpn,
        pd: 1,
        key: (mr << 8) | 0x5a,
        va,
        len,
    }
}

const HOT_BASE: u64 = 0x7f00_0000_0000;
const COLD_BASE: u64 = 0x7e00_0000_0000;

/// Hit throughput and latency; hit-under-miss throughput.
fn hits(numbers: &mut Numbers, progress: &mut dyn FnMut(&str)) {
    let mut mem = HostMemory::new(MemConfig::fixed(MEMORY_LATENCY));
    mem.logging = false;
    let mut tables = PageTableBuilder::new(0x100, 0x1000);
    let hot = mapped_mr(&mut mem, &mut tables, HOT_BASE, 64, 1, 0x10_0000);
    let cold = mapped_mr(&mut mem, &mut tables, COLD_BASE, 512, 1, 0x20_0000);
    let mut sim = Sim::<8>::new(mem);
    sim.write_mr(0, &hot);
    sim.write_mr(1, &cold);
    let warm: Vec<Req> = (0..64)
        .map(|p| read_req(0, 0, HOT_BASE + (p << 12), 64))
        .collect();
    sim.stream(&warm);

    progress("hit throughput");
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let reqs: Vec<Req> = (0..10_000)
        .map(|_| {
            let r = rand();
            read_req(
                (r % 16) as u32,
                0,
                HOT_BASE + (((r >> 8) % 64) << 12) + ((r >> 20) % 64) * 64,
                64,
            )
        })
        .collect();
    let (first, last, _) = sim.stream(&reqs);
    numbers.hit_requests_per_clock = reqs.len() as f64 / (last - first + 1) as f64;

    progress("hit latency");
    for _ in 0..10 {
        sim.cycle(None, true);
    }
    let r = read_req(1, 0, HOT_BASE + 0x3000, 8);
    let (acc, _) = sim.cycle(Some((0, &r)), true);
    assert!(acc, "bench: an idle translator must accept a request");
    let start = sim.clock - 1;
    loop {
        let (_, beat) = sim.cycle(None, true);
        if beat.is_some() {
            numbers.hit_latency_clocks = sim.clock - 1 - start;
            break;
        }
    }

    progress("hit under miss");
    // Three in four requests: hot QPs 0..7 on resident pages. One in four:
    // cold QPs 100..115, each streaming 512-byte reads through its own 32
    // pages of the cold MR, which are not in the TLB.
    let mut cold_pos = [0u64; 16];
    let reqs: Vec<Req> = (0..10_000u64)
        .map(|k| {
            let r = rand();
            if k % 4 == 3 {
                let q = ((k / 4) % 16) as usize;
                let va = COLD_BASE + ((q as u64 * 32) << 12) + cold_pos[q] * 512;
                cold_pos[q] += 1;
                read_req(100 + q as u32, 1, va, 512)
            } else {
                read_req((r % 8) as u32, 0, HOT_BASE + (((r >> 8) % 64) << 12), 64)
            }
        })
        .collect();
    let parks = sim.parks;
    let (first, last, _) = sim.stream(&reqs);
    numbers.hit_under_miss_requests_per_clock = reqs.len() as f64 / (last - first + 1) as f64;
    numbers.hit_under_miss_miss_fraction = (sim.parks - parks) as f64 / reqs.len() as f64;
}

/// 128 requests, each to its own page and QP: clocks until all answered.
fn random_misses<const WALKS: usize>() -> (u64, usize) {
    let mut mem = HostMemory::new(MemConfig::fixed(MEMORY_LATENCY));
    mem.logging = false;
    let mut tables = PageTableBuilder::new(0x100, 0x1000);
    let mr = mapped_mr(&mut mem, &mut tables, COLD_BASE, 512, 1, 0x20_0000);
    let mut sim = Sim::<WALKS>::new(mem);
    sim.write_mr(0, &mr);
    let reqs: Vec<Req> = (0..128u64)
        .map(|k| read_req(k as u32, 0, COLD_BASE + (((k * 197) % 512) << 12), 64))
        .collect();
    let (first, last, _) = sim.stream(&reqs);
    (last - first + 1, sim.mem.max_outstanding_reads)
}

/// Walk latency minus levels x memory latency, per `levels`, on the walker
/// alone.
fn walk_overhead() -> [u64; 4] {
    let mut out = [0; 4];
    for levels in 1..=4u8 {
        let mut mem = HostMemory::new(MemConfig::fixed(MEMORY_LATENCY));
        let mut tables = PageTableBuilder::new(0x100, 0x1000);
        let t = tables.new_mr(levels);
        tables.map(&mut mem, t, 0x5000, PageSize::Size4K, 0x12345, true);
        let mut w = Box::new(Walker::<8>::new());
        w.connect_all();
        w.rst.next = true;
        let mut clock = 0u64;
        let mut start = None;
        loop {
            let s = mem.outputs();
            drive_axi_read_slave!(w, s);
            if clock == 2 {
                w.rst.next = false;
            }
            w.req_valid.next = clock >= 4 && start.is_none();
            w.req_mr.next = 0.into();
            w.req_off.next = 0x5000.into();
            w.req_root.next = t.root.into();
            w.req_levels_m1.next = (t.levels_m1 as u64).into();
            w.done_ready.next = true;
            settle(&mut *w);
            if w.req_valid.val() && w.req_ready.val() {
                start = Some(clock);
            }
            if w.done_valid.val() {
                let walk = clock - start.expect("completion before request");
                out[levels as usize - 1] = walk.saturating_sub(levels as u64 * MEMORY_LATENCY);
                break;
            }
            let m = axi_read_master_out!(w);
            mem.edge(&m);
            w.clock.next = true.into();
            settle(&mut *w);
            w.clock.next = false.into();
            settle(&mut *w);
            clock += 1;
            assert!(clock < 10_000, "bench: walk did not complete");
        }
    }
    out
}

/// Runs every scenario; `progress` is told which one starts.
pub fn run(progress: &mut dyn FnMut(&str)) -> Numbers {
    let mut n = Numbers::default();
    hits(&mut n, progress);
    progress("walk overhead");
    n.walk_overhead_by_levels = walk_overhead();
    n.walk_overhead_clocks = *n.walk_overhead_by_levels.iter().max().unwrap();
    progress("random misses, 8 walkers");
    let (c8, inflight) = random_misses::<8>();
    progress("random misses, 1 walker");
    let (c1, _) = random_misses::<1>();
    n.walks_in_flight_max = inflight;
    n.miss_clocks_8_walkers = c8;
    n.miss_clocks_1_walker = c1;
    n.miss_throughput_ratio_8_vs_1_walker = c1 as f64 / c8 as f64;
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_json_carries_every_key_the_issue_names() {
        let json = Numbers::default().to_json();
        for key in [
            "hit_requests_per_clock",
            "hit_latency_clocks",
            "hit_under_miss_requests_per_clock",
            "walk_overhead_clocks",
            "walks_in_flight_max",
            "miss_throughput_ratio_8_vs_1_walker",
        ] {
            assert!(
                json.contains(&format!("\"{key}\": ")),
                "{key} missing from {json}"
            );
        }
    }
}
