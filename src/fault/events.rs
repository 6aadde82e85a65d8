//! Event-ring writer: writes finished event records to the ring in host
//! memory with AXI4 write bursts, one 32-byte record per burst, owner bit
//! last.
#![doc = include_str!("../../docs/events.md")]

use rust_hdl::prelude::*;

use crate::common::interfaces::AxiWriteMaster;

/// Bursts (records) the writer keeps in flight at most: accepted and not
/// yet answered on B.
pub const MAX_OUTSTANDING: usize = 4;
/// Clocks from the edge a record is taken on `s_ev` to the first clock its
/// AW (and its first W beat) is valid, with both channels idle.
pub const AW_LATENCY_CLOCKS: u64 = 2;

/// Event-ring writer. See the module page (`docs/events.md`) for the
/// record layout, the ring protocol, reset and the error answers.
///
/// # Invariants
///
/// - A record is taken only when its slot is free (`prod - cons < 2^n`
///   with the consumer index sampled a clock earlier, which only
///   underestimates the room): an unconsumed entry is never overwritten.
/// - At most [`MAX_OUTSTANDING`] bursts in flight; they complete (B, then
///   `m_done_valid`) in acceptance order.
/// - A burst whose AW or W was started always completes on the bus, `rst`
///   included.
#[derive(LogicBlock)]
pub struct EventRing {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous active-high reset: takes no record from this clock on,
    /// lets every burst in flight complete on the bus, then zeroes the
    /// producer index and raises `ready` again.
    pub rst: Signal<In, Bit>,
    /// High when the writer takes records: not draining after `rst`.
    pub ready: Signal<Out, Bit>,

    /// Ring base address (CSR `EQ_BASE_HI:EQ_BASE_LO`); bits 4:0 are ignored.
    /// Sampled at the edge a record is taken.
    pub eq_base: Signal<In, Bits<64>>,
    /// log2 of the ring's entries (CSR `EQ_LOG2_SIZE`), legal 1..=16; 0 (the
    /// reset value) disables the ring, 17..=31 too and pulse `err_size`.
    pub eq_log2_size: Signal<In, Bits<5>>,
    /// The driver's free-running consumer index (CSR `EQ_CONS`).
    pub eq_cons: Signal<In, Bits<32>>,
    /// Interrupt enable.
    pub irq_en: Signal<In, Bit>,
    /// One-clock pulse: back to producer index 0 once nothing is in flight
    /// (the driver reprograms the ring).
    pub ring_reset: Signal<In, Bit>,

    /// Free-running producer index: records taken (CSR `EQ_PROD`).
    pub eq_prod: Signal<Out, Bits<32>>,
    /// `eq_prod - eq_cons` (32-bit), a clock late: for the "most unconsumed
    /// entries" counter.
    pub occupancy: Signal<Out, Bits<32>>,
    /// Level interrupt: `irq_en` and a record in host memory that the driver
    /// has not consumed (written index != `eq_cons`), a clock late.
    pub irq: Signal<Out, Bit>,
    /// One clock per B response that is not OKAY.
    pub err_write: Signal<Out, Bit>,
    /// One clock when `eq_cons` becomes bad: ahead of the producer index or
    /// more than 2^n behind it. While bad, the ring is treated as full.
    pub err_cons: Signal<Out, Bit>,
    /// One clock when `eq_log2_size` becomes an illegal value (17..=31).
    pub err_size: Signal<Out, Bit>,

    /// Record valid.
    pub s_ev_valid: Signal<In, Bit>,
    /// Record taken (from registers and `rst`).
    pub s_ev_ready: Signal<Out, Bit>,
    /// Record word 0 (kind, op / error code, MR, token / tag).
    pub s_ev_w0: Signal<In, Bits<64>>,
    /// Record word 1.
    pub s_ev_w1: Signal<In, Bits<64>>,
    /// Record word 2.
    pub s_ev_w2: Signal<In, Bits<64>>,
    /// Record word 3, bits 62:0; bit 63 (owner) is the writer's.
    pub s_ev_w3: Signal<In, Bits<63>>,

    /// One clock per record whose B response arrived, in acceptance order.
    pub m_done_valid: Signal<Out, Bit>,
    /// With `m_done_valid`: the B response was not OKAY.
    pub m_done_err: Signal<Out, Bit>,

    /// AXI4 write master (`m_axi_aw*`, `m_axi_w*`, `m_axi_b*`): one INCR
    /// burst of 4 beats of 8 bytes per record (AW ID `EVENT_AXI_ID`, byte
    /// address 32-byte aligned, strobes all set, `wlast` on word 3); `bready`
    /// is always high, and every B is this writer's.
    pub m_axi: AxiWriteMaster,

    // --- constants ---
    axi_id: Constant<Bits<4>>,
    one32: Constant<Bits<32>>,
    // --- reset, ring reset ---
    ready_r: DFF<Bit>,
    drain: DFF<Bit>,
    rr_pend: DFF<Bit>,
    hold: DFF<Bit>,
    // --- configuration, sampled ---
    base_r: DFF<Bits<59>>,
    size_ok_r: DFF<Bit>,
    size_bad_r: DFF<Bit>,
    size_r: DFF<Bits<32>>,
    mask_r: DFF<Bits<32>>,
    err_size_r: DFF<Bit>,
    size_l: Signal<Local, Bits<32>>,
    // --- indices and ring state ---
    prod: DFF<Bits<32>>,
    written: DFF<Bits<32>>,
    full_r: DFF<Bit>,
    occ_r: DFF<Bits<32>>,
    irq_r: DFF<Bit>,
    bad_cons_r: DFF<Bit>,
    err_cons_r: DFF<Bit>,
    occ_now: Signal<Local, Bits<32>>,
    occ_hi: Signal<Local, Bits<32>>,
    occ_lo: Signal<Local, Bits<32>>,
    bad_now: Signal<Local, Bit>,
    // --- record buffer: MAX_OUTSTANDING entries ---
    e_w0: [DFF<Bits<64>>; MAX_OUTSTANDING],
    e_w1: [DFF<Bits<64>>; MAX_OUTSTANDING],
    e_w2: [DFF<Bits<64>>; MAX_OUTSTANDING],
    e_w3: [DFF<Bits<64>>; MAX_OUTSTANDING],
    e_addr: [DFF<Bits<59>>; MAX_OUTSTANDING],
    wr_p: DFF<Bits<3>>,
    aw_p: DFF<Bits<3>>,
    w_p: DFF<Bits<3>>,
    b_p: DFF<Bits<3>>,
    beat: DFF<Bits<2>>,
    outstanding: Signal<Local, Bits<3>>,
    take: Signal<Local, Bit>,
    slot: Signal<Local, Bits<16>>,
    slot_addr: Signal<Local, Bits<59>>,
    owner: Signal<Local, Bits<1>>,
    w3_word: Signal<Local, Bits<64>>,
    // --- AW, W and B channels ---
    awvalid_r: DFF<Bit>,
    awaddr_r: DFF<Bits<59>>,
    wvalid_r: DFF<Bit>,
    wdata_r: DFF<Bits<64>>,
    wlast_r: DFF<Bit>,
    aw_next: Signal<Local, Bits<59>>,
    wsel0: Signal<Local, Bits<64>>,
    wsel1: Signal<Local, Bits<64>>,
    wsel2: Signal<Local, Bits<64>>,
    wsel3: Signal<Local, Bits<64>>,
    done_r: DFF<Bit>,
    done_err_r: DFF<Bit>,
}

impl EventRing {
    /// A writer with an empty ring (producer index 0), `ready` from the
    /// clock after power-up.
    pub fn new() -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            ready: Default::default(),
            eq_base: Default::default(),
            eq_log2_size: Default::default(),
            eq_cons: Default::default(),
            irq_en: Default::default(),
            ring_reset: Default::default(),
            eq_prod: Default::default(),
            occupancy: Default::default(),
            irq: Default::default(),
            err_write: Default::default(),
            err_cons: Default::default(),
            err_size: Default::default(),
            s_ev_valid: Default::default(),
            s_ev_ready: Default::default(),
            s_ev_w0: Default::default(),
            s_ev_w1: Default::default(),
            s_ev_w2: Default::default(),
            s_ev_w3: Default::default(),
            m_done_valid: Default::default(),
            m_done_err: Default::default(),
            m_axi: Default::default(),
            axi_id: Constant::new(super::EVENT_AXI_ID.into()),
            one32: Constant::new(1u64.into()),
            ready_r: Default::default(),
            drain: Default::default(),
            rr_pend: Default::default(),
            hold: Default::default(),
            base_r: Default::default(),
            size_ok_r: Default::default(),
            size_bad_r: Default::default(),
            size_r: Default::default(),
            mask_r: Default::default(),
            err_size_r: Default::default(),
            size_l: Default::default(),
            prod: Default::default(),
            written: Default::default(),
            full_r: Default::default(),
            occ_r: Default::default(),
            irq_r: Default::default(),
            bad_cons_r: Default::default(),
            err_cons_r: Default::default(),
            occ_now: Default::default(),
            occ_hi: Default::default(),
            occ_lo: Default::default(),
            bad_now: Default::default(),
            e_w0: Default::default(),
            e_w1: Default::default(),
            e_w2: Default::default(),
            e_w3: Default::default(),
            e_addr: Default::default(),
            wr_p: Default::default(),
            aw_p: Default::default(),
            w_p: Default::default(),
            b_p: Default::default(),
            beat: Default::default(),
            outstanding: Default::default(),
            take: Default::default(),
            slot: Default::default(),
            slot_addr: Default::default(),
            owner: Default::default(),
            w3_word: Default::default(),
            awvalid_r: Default::default(),
            awaddr_r: Default::default(),
            wvalid_r: Default::default(),
            wdata_r: Default::default(),
            wlast_r: Default::default(),
            aw_next: Default::default(),
            wsel0: Default::default(),
            wsel1: Default::default(),
            wsel2: Default::default(),
            wsel3: Default::default(),
            done_r: Default::default(),
            done_err_r: Default::default(),
        }
    }
}

impl Default for EventRing {
    fn default() -> Self {
        Self::new()
    }
}

impl Logic for EventRing {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, ready_r, drain, rr_pend, hold, base_r, size_ok_r, size_bad_r, size_r,
            mask_r, err_size_r, prod, written, full_r, occ_r, irq_r, bad_cons_r, err_cons_r, wr_p,
            aw_p, w_p, b_p, beat, awvalid_r, awaddr_r, wvalid_r, wdata_r, wlast_r, done_r,
            done_err_r
        );
        for i in 0..MAX_OUTSTANDING {
            self.e_w0[i].clock.next = self.clock.val();
            self.e_w1[i].clock.next = self.clock.val();
            self.e_w2[i].clock.next = self.clock.val();
            self.e_w3[i].clock.next = self.clock.val();
            self.e_addr[i].clock.next = self.clock.val();
            self.e_w0[i].d.next = self.e_w0[i].q.val();
            self.e_w1[i].d.next = self.e_w1[i].q.val();
            self.e_w2[i].d.next = self.e_w2[i].q.val();
            self.e_w3[i].d.next = self.e_w3[i].q.val();
            self.e_addr[i].d.next = self.e_addr[i].q.val();
        }

        // ---- Configuration, sampled every clock. Size 0 (the reset value)
        // disables the ring quietly; 17..=31 disable it and pulse err_size
        // on the clock after the illegal value first appears.
        self.base_r.d.next = self.eq_base.val().get_bits::<59>(5);
        self.size_ok_r.d.next = (self.eq_log2_size.val() != 0) & (self.eq_log2_size.val() <= 16);
        self.size_bad_r.d.next = self.eq_log2_size.val() > 16;
        self.err_size_r.d.next = (self.eq_log2_size.val() > 16) & (!self.size_bad_r.q.val());
        self.size_l.next = self.one32.val() << self.eq_log2_size.val();
        self.size_r.d.next = self.size_l.val();
        self.mask_r.d.next = self.size_l.val() - 1;
        self.err_size.next = self.err_size_r.q.val();

        // ---- Records in flight: accepted and not yet answered on B. The
        // 3-bit pointers run modulo 8 over 4 entries, so equal pointers mean
        // empty and a difference of 4 means all entries busy.
        self.outstanding.next = self.wr_p.q.val() - self.b_p.q.val();

        // ---- Taking a record: from registers (and rst) only.
        self.s_ev_ready.next = self.ready_r.q.val()
            & (!self.rst.val())
            & (!self.rr_pend.q.val())
            & (!self.hold.q.val())
            & self.size_ok_r.q.val()
            & (!self.full_r.q.val())
            & (self.outstanding.val() != 4);
        self.take.next = self.s_ev_valid.val() & self.s_ev_ready.val();

        // The slot of producer index p is p mod 2^n; its owner bit is
        // 1 - ((p >> n) & 1).
        self.slot.next =
            self.prod.q.val().get_bits::<16>(0) & self.mask_r.q.val().get_bits::<16>(0);
        self.slot_addr.next = self.base_r.q.val() + bit_cast::<59, 16>(self.slot.val());
        self.owner.next = 0.into();
        if (self.prod.q.val() & self.size_r.q.val()) == 0 {
            self.owner.next = 1.into();
        }
        self.w3_word.next =
            bit_cast::<64, 63>(self.s_ev_w3.val()) | (bit_cast::<64, 1>(self.owner.val()) << 63);
        for i in 0..MAX_OUTSTANDING {
            if self.take.val() & (self.wr_p.q.val().get_bits::<2>(0).index() == i) {
                self.e_w0[i].d.next = self.s_ev_w0.val();
                self.e_w1[i].d.next = self.s_ev_w1.val();
                self.e_w2[i].d.next = self.s_ev_w2.val();
                self.e_w3[i].d.next = self.w3_word.val();
                self.e_addr[i].d.next = self.slot_addr.val();
            }
        }
        if self.take.val() {
            self.wr_p.d.next = self.wr_p.q.val() + 1;
            self.prod.d.next = self.prod.q.val() + 1;
        }

        // ---- Room in the ring for the next clock. occ = prod - cons; with
        // n = log2 size, occ >= 2^n (full, or a bad consumer index) is
        // "some bit at or above n is set", and occ + 1 >= 2^n (full after
        // this clock's take) adds "the low n bits are all ones": no
        // comparator, and both cases side by side before the take's mux.
        self.occ_now.next = self.prod.q.val() - self.eq_cons.val();
        self.occ_hi.next = self.occ_now.val() & (!self.mask_r.q.val());
        self.occ_lo.next = self.occ_now.val() & self.mask_r.q.val();
        self.full_r.d.next = self.occ_hi.val() != 0;
        if self.take.val() {
            self.full_r.d.next =
                (self.occ_hi.val() != 0) | (self.occ_lo.val() == self.mask_r.q.val());
        }
        // Bad consumer index: occ > 2^n (ahead of the producer wraps to a
        // large occ). Pulse when it becomes bad.
        self.bad_now.next = self.size_ok_r.q.val()
            & (self.occ_hi.val() != 0)
            & ((self.occ_hi.val() != self.size_r.q.val()) | (self.occ_lo.val() != 0));
        self.bad_cons_r.d.next = self.bad_now.val();
        self.err_cons_r.d.next = self.bad_now.val() & (!self.bad_cons_r.q.val());
        self.occ_r.d.next = self.occ_now.val();
        self.irq_r.d.next = self.irq_en.val() & (self.written.q.val() != self.eq_cons.val());
        self.eq_prod.next = self.prod.q.val();
        self.occupancy.next = self.occ_r.q.val();
        self.irq.next = self.irq_r.q.val();
        self.err_cons.next = self.err_cons_r.q.val();

        // ---- AW: one address register, loaded from the oldest entry whose
        // AW has not been issued, whenever it is empty or taken.
        self.aw_next.next = self.e_addr[0].q.val();
        for i in 0..MAX_OUTSTANDING {
            if self.aw_p.q.val().get_bits::<2>(0).index() == i {
                self.aw_next.next = self.e_addr[i].q.val();
            }
        }
        if self.awvalid_r.q.val() & self.m_axi.awready.val() {
            self.awvalid_r.d.next = false;
        }
        if ((!self.awvalid_r.q.val()) | self.m_axi.awready.val())
            & (self.aw_p.q.val() != self.wr_p.q.val())
        {
            self.awvalid_r.d.next = true;
            self.awaddr_r.d.next = self.aw_next.val();
            self.aw_p.d.next = self.aw_p.q.val() + 1;
        }
        self.m_axi.awvalid.next = self.awvalid_r.q.val();
        self.m_axi.awid.next = self.axi_id.val();
        self.m_axi.awaddr.next = bit_cast::<64, 59>(self.awaddr_r.q.val()) << 5;
        self.m_axi.awlen.next = 3.into();
        self.m_axi.awsize.next = 3.into();
        self.m_axi.awburst.next = 1.into();
        self.m_axi.awlock.next = false;
        self.m_axi.awcache.next = 3.into(); // normal non-cacheable bufferable
        self.m_axi.awprot.next = 0.into();

        // ---- W: one data register, loaded with the next beat (words 0 to
        // 3 of the oldest entry whose data has not gone) whenever it is
        // empty or taken. Independent of AW.
        self.wsel0.next = self.e_w0[0].q.val();
        self.wsel1.next = self.e_w1[0].q.val();
        self.wsel2.next = self.e_w2[0].q.val();
        self.wsel3.next = self.e_w3[0].q.val();
        for i in 0..MAX_OUTSTANDING {
            if self.w_p.q.val().get_bits::<2>(0).index() == i {
                self.wsel0.next = self.e_w0[i].q.val();
                self.wsel1.next = self.e_w1[i].q.val();
                self.wsel2.next = self.e_w2[i].q.val();
                self.wsel3.next = self.e_w3[i].q.val();
            }
        }
        if self.wvalid_r.q.val() & self.m_axi.wready.val() {
            self.wvalid_r.d.next = false;
        }
        if ((!self.wvalid_r.q.val()) | self.m_axi.wready.val())
            & (self.w_p.q.val() != self.wr_p.q.val())
        {
            self.wvalid_r.d.next = true;
            self.beat.d.next = self.beat.q.val() + 1;
            self.wlast_r.d.next = false;
            if self.beat.q.val() == 0 {
                self.wdata_r.d.next = self.wsel0.val();
            } else if self.beat.q.val() == 1 {
                self.wdata_r.d.next = self.wsel1.val();
            } else if self.beat.q.val() == 2 {
                self.wdata_r.d.next = self.wsel2.val();
            } else {
                self.wdata_r.d.next = self.wsel3.val();
                self.wlast_r.d.next = true;
                self.w_p.d.next = self.w_p.q.val() + 1;
            }
        }
        self.m_axi.wvalid.next = self.wvalid_r.q.val();
        self.m_axi.wdata.next = self.wdata_r.q.val();
        self.m_axi.wstrb.next = 0xff.into();
        self.m_axi.wlast.next = self.wlast_r.q.val();

        // ---- B: always taken; completes the oldest record in flight.
        self.m_axi.bready.next = true;
        self.done_r.d.next = self.m_axi.bvalid.val();
        self.done_err_r.d.next = self.m_axi.bvalid.val() & (self.m_axi.bresp.val() != 0);
        if self.m_axi.bvalid.val() {
            self.b_p.d.next = self.b_p.q.val() + 1;
            self.written.d.next = self.written.q.val() + 1;
        }
        self.m_done_valid.next = self.done_r.q.val();
        self.m_done_err.next = self.done_err_r.q.val();
        self.err_write.next = self.done_err_r.q.val();

        // ---- Reset and ring reset. Neither touches a burst in flight: both
        // stop taking records, wait until nothing is outstanding, then zero
        // the indices; `hold` keeps the input closed one more clock, so the
        // room check sees the zeroed producer index first. rst also lowers
        // `ready` until then (and at power-up).
        if self.ring_reset.val() {
            self.rr_pend.d.next = true;
        }
        self.hold.d.next = false;
        if (self.rr_pend.q.val() | self.drain.q.val() | (!self.ready_r.q.val()))
            & (self.outstanding.val() == 0)
        {
            self.prod.d.next = 0.into();
            self.written.d.next = 0.into();
            self.rr_pend.d.next = false;
            self.drain.d.next = false;
            self.ready_r.d.next = true;
            self.hold.d.next = true;
        }
        if self.rst.val() {
            self.drain.d.next = true;
            self.ready_r.d.next = false;
            self.size_bad_r.d.next = false;
            self.err_size_r.d.next = false;
            self.bad_cons_r.d.next = false;
            self.err_cons_r.d.next = false;
        }
        self.ready.next = self.ready_r.q.val();
    }
}
