//! Host memory behind an AXI4 slave (64-bit data, 64-bit address), for the
//! walker's and the whole core's testbenches.
//!
//! - Storage: sparse 64-bit words (`HashMap`), zero where never written.
//! - Read side: any number of outstanding reads; each transaction gets a
//!   random latency in `read_latency` (clocks from its AR handshake to its
//!   first R handshake at the earliest); beats of one ID return in order (as
//!   AXI requires), transactions of different IDs in any order; random
//!   `arready` and random `rvalid` gaps. INCR bursts of 8-byte beats.
//! - Write side: AW and W accepted independently with random ready; a burst
//!   is written (with `wstrb`) when its last W beat arrives; B after a random
//!   latency, in order.
//! - Error injection: address ranges that answer SLVERR or DECERR (reads
//!   return zero data; writes are not performed).
//! - [`AxiMonitor`]: checks both sides of the handshakes every clock and
//!   panics on a violation.
//!
//! The model is two-phase per clock: [`HostMemory::outputs`] gives the
//! slave's outputs for the coming edge (they depend on nothing the master
//! drives in that clock, as a registered slave's would), then
//! [`HostMemory::edge`] takes the master's settled outputs and performs the
//! handshakes of that rising edge.

use std::collections::{HashMap, VecDeque};
use std::ops::Range;

use odp_mmu::common::interfaces::AxiReadMaster;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// AXI response codes.
pub const RESP_OKAY: u8 = 0;
pub const RESP_EXOKAY: u8 = 1;
pub const RESP_SLVERR: u8 = 2;
pub const RESP_DECERR: u8 = 3;

/// An AR (or AW) channel payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addr {
    pub id: u8,
    pub addr: u64,
    /// Beats - 1.
    pub len: u8,
    /// log2(bytes per beat); the model supports 3 (8 bytes) only.
    pub size: u8,
    /// 1 = INCR (the only burst type the model supports).
    pub burst: u8,
}

/// An R beat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RBeat {
    pub id: u8,
    pub data: u64,
    pub resp: u8,
    pub last: bool,
}

/// A W beat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WBeat {
    pub data: u64,
    pub strb: u8,
    pub last: bool,
}

/// A B response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BResp {
    pub id: u8,
    pub resp: u8,
}

/// What the master drives in one clock (valid = `Some`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MasterOut {
    pub ar: Option<Addr>,
    pub rready: bool,
    pub aw: Option<Addr>,
    pub w: Option<WBeat>,
    pub bready: bool,
}

/// What the slave drives in one clock (valid = `Some`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlaveOut {
    pub arready: bool,
    pub r: Option<RBeat>,
    pub awready: bool,
    pub wready: bool,
    pub b: Option<BResp>,
}

/// Drives a rust-hdl AXI4 read master's inputs (`arready`, `r*`) from the
/// memory model's outputs of this clock.
pub fn drive_read_slave(m: &mut AxiReadMaster, s: &SlaveOut) {
    m.arready.next = s.arready;
    m.rvalid.next = s.r.is_some();
    if let Some(b) = s.r {
        m.rid.next = (b.id as u64).into();
        m.rdata.next = b.data.into();
        m.rresp.next = (b.resp as u64).into();
        m.rlast.next = b.last;
    }
}

/// A rust-hdl AXI4 read master's settled outputs as the memory model's
/// `MasterOut` (no writes).
pub fn read_master_out(m: &AxiReadMaster) -> MasterOut {
    MasterOut {
        ar: m.arvalid.val().then(|| Addr {
            id: m.arid.val().index() as u8,
            addr: m.araddr.val().to_u64(),
            len: m.arlen.val().index() as u8,
            size: m.arsize.val().index() as u8,
            burst: m.arburst.val().index() as u8,
        }),
        rready: m.rready.val(),
        aw: None,
        w: None,
        bready: true,
    }
}

/// Timing and backpressure of the model. Percentages are per clock.
#[derive(Clone, Debug)]
pub struct MemConfig {
    /// Inclusive range of clocks from AR handshake to the earliest R handshake (>= 1).
    pub read_latency: (u64, u64),
    /// Inclusive range of clocks from the last W beat to the earliest B handshake (>= 1).
    pub write_latency: (u64, u64),
    pub arready_pct: u32,
    /// Chance of presenting an R beat when one is due (an idle gap otherwise).
    pub rvalid_pct: u32,
    pub awready_pct: u32,
    pub wready_pct: u32,
    pub bvalid_pct: u32,
    /// Pick among due transactions of different IDs at random (else oldest first).
    pub reorder: bool,
    /// Rare latency tails: `(per_million, clocks)`: a read's or write's
    /// latency is `clocks` instead, with chance `per_million` / 10^6 (a page
    /// swapped in behind an IOMMU, a congested root complex).
    pub tail: (u32, u64),
    pub seed: u64,
}

impl MemConfig {
    /// Fixed latency, no backpressure, in order: for latency measurements.
    pub fn fixed(latency: u64) -> Self {
        Self {
            read_latency: (latency, latency),
            write_latency: (latency, latency),
            arready_pct: 100,
            rvalid_pct: 100,
            awready_pct: 100,
            wready_pct: 100,
            bvalid_pct: 100,
            reorder: false,
            tail: (0, 0),
            seed: 0,
        }
    }

    /// Random latency in `lo..=hi`, out-of-order data and random backpressure
    /// on every channel.
    pub fn random(lo: u64, hi: u64, seed: u64) -> Self {
        Self {
            read_latency: (lo, hi),
            write_latency: (lo, hi),
            arready_pct: 60,
            rvalid_pct: 70,
            awready_pct: 60,
            wready_pct: 60,
            bvalid_pct: 70,
            reorder: true,
            tail: (0, 0),
            seed,
        }
    }
}

struct ReadTxn {
    id: u8,
    /// Data and response of every beat, captured at the AR handshake.
    beats: VecDeque<(u64, u8)>,
    due: u64,
    seq: u64,
}

struct WriteTxn {
    aw: Addr,
    beats: Vec<WBeat>,
}

/// Sparse host memory with an AXI4 slave port.
pub struct HostMemory {
    words: HashMap<u64, u64>,
    errors: Vec<(Range<u64>, u8)>,
    pub cfg: MemConfig,
    rng: StdRng,
    now: u64,
    seq: u64,
    reads: Vec<ReadTxn>,
    /// The transaction whose beat is being presented (must hold until rready).
    r_current: Option<usize>,
    r_present: Option<RBeat>,
    arready: bool,
    aws: VecDeque<Addr>,
    ws: VecDeque<WBeat>,
    awready: bool,
    wready: bool,
    bs: VecDeque<(BResp, u64)>,
    b_present: Option<BResp>,
    /// Every AR handshake: (clock, payload).
    pub ar_log: Vec<(u64, Addr)>,
    /// Every R handshake: (clock, beat).
    pub r_log: Vec<(u64, RBeat)>,
    /// Most read transactions outstanding at once (AR accepted, last R not yet).
    pub max_outstanding_reads: usize,
    /// Keep `ar_log`/`r_log` (off for long runs).
    pub logging: bool,
}

impl HostMemory {
    pub fn new(cfg: MemConfig) -> Self {
        assert!(cfg.read_latency.0 >= 1 && cfg.read_latency.0 <= cfg.read_latency.1);
        assert!(cfg.write_latency.0 >= 1 && cfg.write_latency.0 <= cfg.write_latency.1);
        let rng = StdRng::seed_from_u64(cfg.seed);
        Self {
            words: HashMap::new(),
            errors: Vec::new(),
            cfg,
            rng,
            now: 0,
            seq: 0,
            reads: Vec::new(),
            r_current: None,
            r_present: None,
            arready: false,
            aws: VecDeque::new(),
            ws: VecDeque::new(),
            awready: false,
            wready: false,
            bs: VecDeque::new(),
            b_present: None,
            ar_log: Vec::new(),
            r_log: Vec::new(),
            max_outstanding_reads: 0,
            logging: true,
        }
    }

    /// A latency drawn from `lo..=hi`, or the tail.
    fn latency(&mut self, lo: u64, hi: u64) -> u64 {
        let (per_million, tail) = self.cfg.tail;
        if per_million > 0 && self.rng.gen_range(0..1_000_000) < per_million {
            tail
        } else {
            self.rng.gen_range(lo..=hi)
        }
    }

    /// Clocks (rising edges) so far.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// The 64-bit word at `addr` (8-byte aligned).
    pub fn read64(&self, addr: u64) -> u64 {
        assert_eq!(addr % 8, 0, "unaligned read64 at {addr:#x}");
        self.words.get(&(addr >> 3)).copied().unwrap_or(0)
    }

    /// Writes the 64-bit word at `addr` (8-byte aligned).
    pub fn write64(&mut self, addr: u64, value: u64) {
        assert_eq!(addr % 8, 0, "unaligned write64 at {addr:#x}");
        if value == 0 {
            self.words.remove(&(addr >> 3));
        } else {
            self.words.insert(addr >> 3, value);
        }
    }

    /// Writes the bytes of `value` selected by `strb` into the word at `addr`.
    pub fn write_strb(&mut self, addr: u64, value: u64, strb: u8) {
        let mut mask = 0u64;
        for b in 0..8 {
            if strb & (1 << b) != 0 {
                mask |= 0xff << (8 * b);
            }
        }
        let old = self.read64(addr);
        self.write64(addr, (old & !mask) | (value & mask));
    }

    /// Accesses to `range` answer `resp` (SLVERR or DECERR) from now on.
    pub fn inject_error(&mut self, range: Range<u64>, resp: u8) {
        assert!(resp == RESP_SLVERR || resp == RESP_DECERR);
        self.errors.push((range, resp));
    }

    /// Removes every error range.
    pub fn clear_errors(&mut self) {
        self.errors.clear();
    }

    /// The response an access to `addr` gets.
    pub fn resp_at(&self, addr: u64) -> u8 {
        self.errors
            .iter()
            .find(|(r, _)| r.contains(&addr))
            .map_or(RESP_OKAY, |(_, resp)| *resp)
    }

    /// Read transactions accepted and not yet completed.
    pub fn outstanding_reads(&self) -> usize {
        self.reads.len()
    }

    /// Outstanding write bursts (address or data accepted, B not yet taken).
    pub fn outstanding_writes(&self) -> usize {
        self.aws.len() + self.bs.len() + self.b_present.is_some() as usize
    }

    fn pct(&mut self, p: u32) -> bool {
        p >= 100 || self.rng.gen_range(0..100) < p
    }

    /// The slave's outputs for the clock before the next rising edge.
    /// Call once per clock, before [`HostMemory::edge`].
    pub fn outputs(&mut self) -> SlaveOut {
        self.arready = self.pct(self.cfg.arready_pct);
        self.awready = self.pct(self.cfg.awready_pct);
        self.wready = self.pct(self.cfg.wready_pct);
        if self.r_present.is_none() && self.pct(self.cfg.rvalid_pct) {
            // Eligible: due, and the oldest outstanding transaction of its ID.
            let mut eligible: Vec<usize> = Vec::new();
            for (k, t) in self.reads.iter().enumerate() {
                let older_same_id = self.reads.iter().any(|o| o.id == t.id && o.seq < t.seq);
                if t.due <= self.now && !older_same_id {
                    eligible.push(k);
                }
            }
            if !eligible.is_empty() {
                let pick = if self.cfg.reorder {
                    eligible[self.rng.gen_range(0..eligible.len())]
                } else {
                    *eligible.iter().min_by_key(|&&k| self.reads[k].seq).unwrap()
                };
                let t = &self.reads[pick];
                let (data, resp) = t.beats[0];
                self.r_current = Some(pick);
                self.r_present = Some(RBeat {
                    id: t.id,
                    data,
                    resp,
                    last: t.beats.len() == 1,
                });
            }
        }
        if self.b_present.is_none() && self.pct(self.cfg.bvalid_pct) {
            if let Some(&(b, due)) = self.bs.front() {
                if due <= self.now {
                    self.bs.pop_front();
                    self.b_present = Some(b);
                }
            }
        }
        SlaveOut {
            arready: self.arready,
            r: self.r_present,
            awready: self.awready,
            wready: self.wready,
            b: self.b_present,
        }
    }

    /// The rising edge: handshakes between `m` (the master's settled
    /// outputs) and the slave outputs of this clock.
    pub fn edge(&mut self, m: &MasterOut) {
        let now = self.now;
        // R beat.
        if let (Some(beat), true) = (self.r_present, m.rready) {
            let k = self.r_current.take().unwrap();
            self.reads[k].beats.pop_front();
            if self.reads[k].beats.is_empty() {
                self.reads.remove(k);
            }
            self.r_present = None;
            if self.logging {
                self.r_log.push((now, beat));
            }
        }
        // AR.
        if let (Some(ar), true) = (m.ar, self.arready) {
            assert_eq!(ar.size, 3, "host memory: only 8-byte beats (arsize 3)");
            assert_eq!(ar.burst, 1, "host memory: only INCR bursts");
            assert_eq!(ar.addr % 8, 0, "host memory: unaligned read {:#x}", ar.addr);
            let (lo, hi) = self.cfg.read_latency;
            let latency = self.latency(lo, hi);
            let beats = (0..=ar.len as u64)
                .map(|k| {
                    let a = ar.addr + 8 * k;
                    let resp = self.resp_at(a);
                    let data = if resp == RESP_OKAY { self.read64(a) } else { 0 };
                    (data, resp)
                })
                .collect();
            self.reads.push(ReadTxn {
                id: ar.id,
                beats,
                due: now + latency,
                seq: self.seq,
            });
            self.seq += 1;
            // r_current indexes `reads`; pushing at the end keeps it valid.
            self.max_outstanding_reads = self.max_outstanding_reads.max(self.reads.len());
            if self.logging {
                self.ar_log.push((now, ar));
            }
        }
        // B.
        if self.b_present.is_some() && m.bready {
            self.b_present = None;
        }
        // AW and W.
        if let (Some(aw), true) = (m.aw, self.awready) {
            assert_eq!(aw.size, 3, "host memory: only 8-byte beats (awsize 3)");
            assert_eq!(aw.burst, 1, "host memory: only INCR bursts");
            self.aws.push_back(aw);
        }
        if let (Some(w), true) = (m.w, self.wready) {
            self.ws.push_back(w);
        }
        // A burst completes when its address and all its data are in.
        while let Some(&aw) = self.aws.front() {
            let n = aw.len as usize + 1;
            if self.ws.len() < n {
                break;
            }
            let beats: Vec<WBeat> = self.ws.drain(..n).collect();
            for (k, w) in beats.iter().enumerate() {
                assert_eq!(w.last, k + 1 == n, "host memory: wlast on the wrong beat");
            }
            let txn = WriteTxn { aw, beats };
            self.aws.pop_front();
            let mut resp = RESP_OKAY;
            for k in 0..n as u64 {
                let r = self.resp_at(txn.aw.addr + 8 * k);
                if r != RESP_OKAY {
                    resp = r;
                }
            }
            if resp == RESP_OKAY {
                for (k, w) in txn.beats.iter().enumerate() {
                    self.write_strb(txn.aw.addr + 8 * k as u64, w.data, w.strb);
                }
            }
            let (lo, hi) = self.cfg.write_latency;
            let due = now + self.latency(lo, hi);
            self.bs.push_back((
                BResp {
                    id: txn.aw.id,
                    resp,
                },
                due,
            ));
        }
        self.now += 1;
    }
}

/// Checks AXI4 handshake rules on both sides, every clock.
///
/// Panics (naming the clock and the rule) when: a valid drops before its
/// ready; a payload changes while `valid && !ready`; an R beat or B response
/// carries an ID with nothing outstanding; `rlast` is wrong for the burst
/// length.
#[derive(Default)]
pub struct AxiMonitor {
    clock: u64,
    prev: Option<(MasterOut, SlaveOut)>,
    /// Outstanding reads per ID: remaining beats of each, in order.
    reads: HashMap<u8, VecDeque<u32>>,
    writes: HashMap<u8, u32>,
    /// Handshakes seen.
    pub ar_count: u64,
    pub r_count: u64,
}

impl AxiMonitor {
    pub fn new() -> Self {
        Self::default()
    }

    /// Outstanding read transactions (all IDs).
    pub fn outstanding_reads(&self) -> usize {
        self.reads.values().map(VecDeque::len).sum()
    }

    /// Outstanding reads of `id`.
    pub fn outstanding_reads_of(&self, id: u8) -> usize {
        self.reads.get(&id).map_or(0, VecDeque::len)
    }

    /// Checks this clock's settled values, then records its handshakes.
    pub fn check(&mut self, m: &MasterOut, s: &SlaveOut) {
        let c = self.clock;
        if let Some((pm, ps)) = &self.prev {
            if let Some(ar) = pm.ar {
                if !ps.arready {
                    assert_eq!(
                        m.ar,
                        Some(ar),
                        "AXI clock {c}: AR dropped or changed before arready"
                    );
                }
            }
            if let Some(aw) = pm.aw {
                if !ps.awready {
                    assert_eq!(
                        m.aw,
                        Some(aw),
                        "AXI clock {c}: AW dropped or changed before awready"
                    );
                }
            }
            if let Some(w) = pm.w {
                if !ps.wready {
                    assert_eq!(
                        m.w,
                        Some(w),
                        "AXI clock {c}: W dropped or changed before wready"
                    );
                }
            }
            if let Some(r) = ps.r {
                if !pm.rready {
                    assert_eq!(
                        s.r,
                        Some(r),
                        "AXI clock {c}: R dropped or changed before rready"
                    );
                }
            }
            if let Some(b) = ps.b {
                if !pm.bready {
                    assert_eq!(
                        s.b,
                        Some(b),
                        "AXI clock {c}: B dropped or changed before bready"
                    );
                }
            }
        }
        if let Some(r) = s.r {
            let q = self.reads.get(&r.id);
            assert!(
                q.is_some_and(|q| !q.is_empty()),
                "AXI clock {c}: R beat with ID {} and no read outstanding",
                r.id
            );
            let left = q.unwrap()[0];
            assert_eq!(
                r.last,
                left == 1,
                "AXI clock {c}: rlast wrong for ID {}",
                r.id
            );
        }
        if let Some(b) = s.b {
            assert!(
                self.writes.get(&b.id).is_some_and(|&n| n > 0),
                "AXI clock {c}: B with ID {} and no write outstanding",
                b.id
            );
        }
        // Handshakes of the coming edge.
        if let (Some(r), true) = (s.r, m.rready) {
            let q = self.reads.get_mut(&r.id).unwrap();
            q[0] -= 1;
            if q[0] == 0 {
                q.pop_front();
            }
            self.r_count += 1;
        }
        if let (Some(ar), true) = (m.ar, s.arready) {
            self.reads
                .entry(ar.id)
                .or_default()
                .push_back(ar.len as u32 + 1);
            self.ar_count += 1;
        }
        if let (Some(aw), true) = (m.aw, s.awready) {
            *self.writes.entry(aw.id).or_default() += 1;
        }
        if let (Some(b), true) = (s.b, m.bready) {
            *self.writes.get_mut(&b.id).unwrap() -= 1;
        }
        self.prev = Some((*m, *s));
        self.clock += 1;
    }
}
