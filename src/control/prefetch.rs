//! The prefetch unit: PREFETCH walks a range ahead of use.
#![doc = include_str!("../../docs/prefetch.md")]

use rust_hdl::prelude::*;

/// The largest `max_out` a [`Prefetcher`] takes: its outstanding count is
/// four bits.
pub const MAX_OUT_LIMIT: usize = 15;

/// In the core, clocks a page offered by the prefetch unit waits for the
/// translator's request port while requests keep coming on `s_xreq`,
/// before it takes the port for a clock (`docs/prefetch.md`).
pub const PF_WAIT_MAX: u64 = 7;

/// The prefetch unit. It takes one PREFETCH at a time from the command
/// unit and turns it into one lookup per 4 KiB page of the range, sent
/// into the translator beside the request port; it counts the answers and
/// posts a "prefetch done" record for the event ring.
///
/// # Ports
///
/// - `s_*` (in stream; `s_ready` out): the PREFETCH: MR index, first byte
///   `s_lo`, end `s_hi` (exclusive; all ones stands for 2^64), flags
///   `s_write` and `s_nofault`, the doorbell's tag. The command unit
///   refuses an empty or wrapping range and an MR out of range before it
///   offers one. `s_ready` is high while no PREFETCH runs.
/// - `busy` (out): a PREFETCH runs (taken, its record not yet taken).
/// - `m_rq_*` (out stream): the page lookups, in address order: MR, VA
///   (the range's first byte for the first page, the page's first byte
///   for the others), the flags, and `m_rq_msg_len`, the bytes from the
///   VA to the range's end (saturated at 2^32 - 1), which the fault queue
///   turns into the fault's prefetch hint. At most `max_out` are
///   unanswered at any time; after each handshake the next is offered two
///   clocks later at the earliest.
/// - `a_valid`, `a_status` (in, no backpressure): the translator's answer
///   to one page (`m_pf_*`), in any order: OK counts as filled; RNR or
///   STALL (missing, pending or in a suspended MR) as faulted; anything
///   else (ACCESS_ERR: out of the MR, no right, MR invalid) as refused.
/// - `m_ev_*` (out stream): the "prefetch done" record, words 0 to 2
///   (`docs/events.md`), offered once every page is answered.
/// - `cnt_done` (out, pulse): the record was taken; the PREFETCH is over.
#[derive(LogicBlock)]
pub struct Prefetcher {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,

    pub s_valid: Signal<In, Bit>,
    pub s_ready: Signal<Out, Bit>,
    pub s_mr: Signal<In, Bits<8>>,
    pub s_lo: Signal<In, Bits<64>>,
    pub s_hi: Signal<In, Bits<64>>,
    pub s_write: Signal<In, Bit>,
    pub s_nofault: Signal<In, Bit>,
    pub s_tag: Signal<In, Bits<8>>,
    pub busy: Signal<Out, Bit>,

    pub m_rq_valid: Signal<Out, Bit>,
    pub m_rq_ready: Signal<In, Bit>,
    pub m_rq_mr: Signal<Out, Bits<8>>,
    pub m_rq_va: Signal<Out, Bits<64>>,
    pub m_rq_write: Signal<Out, Bit>,
    pub m_rq_nofault: Signal<Out, Bit>,
    pub m_rq_msg_len: Signal<Out, Bits<32>>,

    pub a_valid: Signal<In, Bit>,
    pub a_status: Signal<In, Bits<3>>,

    pub m_ev_valid: Signal<Out, Bit>,
    pub m_ev_ready: Signal<In, Bit>,
    pub m_ev_w0: Signal<Out, Bits<64>>,
    pub m_ev_w1: Signal<Out, Bits<64>>,
    pub m_ev_w2: Signal<Out, Bits<64>>,
    pub cnt_done: Signal<Out, Bit>,

    /// Unanswered lookups allowed.
    max_out: Constant<Bits<4>>,
    /// A PREFETCH is taken and its record not yet taken.
    run: DFF<Bit>,
    /// Pages are left to send.
    issuing: DFF<Bit>,
    mr: DFF<Bits<8>>,
    write: DFF<Bit>,
    nofault: DFF<Bit>,
    tag: DFF<Bits<8>>,
    /// The VA of the next lookup.
    cur: DFF<Bits<64>>,
    /// The page number of the range's last byte.
    last: DFF<Bits<52>>,
    hi: DFF<Bits<64>>,
    /// `m_rq_msg_len` for `cur`, valid with `ml_ok`: computed the clock
    /// after `cur` moves, so no subtract sits before the request port.
    ml: DFF<Bits<32>>,
    ml_ok: DFF<Bit>,
    /// Lookups sent and not answered.
    out: DFF<Bits<4>>,
    filled: DFF<Bits<32>>,
    faulted: DFF<Bits<32>>,
    refused: DFF<Bits<32>>,
    /// The record is offered.
    ev: DFF<Bit>,
    take: Signal<Local, Bit>,
    send: Signal<Local, Bit>,
    rem: Signal<Local, Bits<64>>,
    last_byte: Signal<Local, Bits<64>>,
}

impl Prefetcher {
    /// A prefetch unit that keeps at most `max_out` lookups unanswered
    /// (1..=[`MAX_OUT_LIMIT`]); the core gives it half its walks, so
    /// translation traffic keeps the other half.
    pub fn new(max_out: usize) -> Self {
        assert!(
            (1..=MAX_OUT_LIMIT).contains(&max_out),
            "Prefetcher: max_out must be in 1..={MAX_OUT_LIMIT}, got {max_out}"
        );
        Self {
            clock: Default::default(),
            rst: Default::default(),
            s_valid: Default::default(),
            s_ready: Default::default(),
            s_mr: Default::default(),
            s_lo: Default::default(),
            s_hi: Default::default(),
            s_write: Default::default(),
            s_nofault: Default::default(),
            s_tag: Default::default(),
            busy: Default::default(),
            m_rq_valid: Default::default(),
            m_rq_ready: Default::default(),
            m_rq_mr: Default::default(),
            m_rq_va: Default::default(),
            m_rq_write: Default::default(),
            m_rq_nofault: Default::default(),
            m_rq_msg_len: Default::default(),
            a_valid: Default::default(),
            a_status: Default::default(),
            m_ev_valid: Default::default(),
            m_ev_ready: Default::default(),
            m_ev_w0: Default::default(),
            m_ev_w1: Default::default(),
            m_ev_w2: Default::default(),
            cnt_done: Default::default(),
            max_out: Constant::new((max_out as u64).into()),
            run: Default::default(),
            issuing: Default::default(),
            mr: Default::default(),
            write: Default::default(),
            nofault: Default::default(),
            tag: Default::default(),
            cur: Default::default(),
            last: Default::default(),
            hi: Default::default(),
            ml: Default::default(),
            ml_ok: Default::default(),
            out: Default::default(),
            filled: Default::default(),
            faulted: Default::default(),
            refused: Default::default(),
            ev: Default::default(),
            take: Default::default(),
            send: Default::default(),
            rem: Default::default(),
            last_byte: Default::default(),
        }
    }
}

impl Default for Prefetcher {
    fn default() -> Self {
        Self::new(4)
    }
}

impl Logic for Prefetcher {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, run, issuing, mr, write, nofault, tag, cur, last, hi, ml, ml_ok, out,
            filled, faulted, refused, ev
        );
        self.s_ready.next = (!self.run.q.val()) & (!self.rst.val());
        self.take.next = self.s_valid.val() & self.s_ready.val();
        self.busy.next = self.run.q.val();

        // ---- Lookups: one page at a time, `max_out` unanswered at most.
        self.m_rq_valid.next = self.issuing.q.val()
            & self.ml_ok.q.val()
            & (self.out.q.val() < self.max_out.val())
            & (!self.rst.val());
        self.m_rq_mr.next = self.mr.q.val();
        self.m_rq_va.next = self.cur.q.val();
        self.m_rq_write.next = self.write.q.val();
        self.m_rq_nofault.next = self.nofault.q.val();
        self.m_rq_msg_len.next = self.ml.q.val();
        self.send.next = self.m_rq_valid.val() & self.m_rq_ready.val();

        // The message length of `cur`, a clock after it moved: at least 1
        // (a range ending at 2^64 - 1 is held as one byte short of it).
        self.rem.next = self.hi.q.val() - self.cur.q.val();
        if !self.ml_ok.q.val() {
            self.ml.d.next = self.rem.val().get_bits::<32>(0);
            if self.rem.val().get_bits::<32>(32).any() {
                self.ml.d.next = 0xFFFF_FFFF_u64.into();
            }
            if !self.rem.val().any() {
                self.ml.d.next = 1.into();
            }
            self.ml_ok.d.next = true;
        }
        if self.send.val() {
            self.cur.d.next = (self.cur.q.val() & 0xFFFF_FFFF_FFFF_F000_u64) + 0x1000_u64;
            self.ml_ok.d.next = false;
            if self.cur.q.val().get_bits::<52>(12) == self.last.q.val() {
                self.issuing.d.next = false;
            }
        }

        // ---- Answers.
        if self.send.val() & (!self.a_valid.val()) {
            self.out.d.next = self.out.q.val() + 1;
        }
        if self.a_valid.val() & (!self.send.val()) {
            self.out.d.next = self.out.q.val() - 1;
        }
        if self.a_valid.val() {
            if self.a_status.val() == 0 {
                // = status::OK
                self.filled.d.next = self.filled.q.val() + 1;
            } else if (self.a_status.val() == 1) | (self.a_status.val() == 2) {
                // = status::RNR, status::STALL
                self.faulted.d.next = self.faulted.q.val() + 1;
            } else {
                self.refused.d.next = self.refused.q.val() + 1;
            }
        }

        // ---- The record, once every page is answered.
        if self.run.q.val() & (!self.issuing.q.val()) & (!self.out.q.val().any()) {
            self.ev.d.next = true;
        }
        self.cnt_done.next = self.ev.q.val() & self.m_ev_ready.val() & (!self.rst.val());
        if self.cnt_done.val() {
            self.ev.d.next = false;
            self.run.d.next = false;
        }
        self.m_ev_valid.next = self.ev.q.val();
        self.m_ev_w0.next = (bit_cast::<64, 8>(self.mr.q.val()) << 16)
            | (bit_cast::<64, 8>(self.tag.q.val()) << 32)
            | 3_u64; // = event::PREFETCH_DONE
        self.m_ev_w1.next = bit_cast::<64, 32>(self.filled.q.val())
            | (bit_cast::<64, 32>(self.faulted.q.val()) << 32);
        self.m_ev_w2.next = bit_cast::<64, 32>(self.refused.q.val());

        // ---- A new PREFETCH.
        self.last_byte.next = self.s_hi.val() - 1_u64;
        if self.take.val() {
            self.run.d.next = true;
            self.issuing.d.next = true;
            self.mr.d.next = self.s_mr.val();
            self.write.d.next = self.s_write.val();
            self.nofault.d.next = self.s_nofault.val();
            self.tag.d.next = self.s_tag.val();
            self.cur.d.next = self.s_lo.val();
            self.hi.d.next = self.s_hi.val();
            self.last.d.next = self.last_byte.val().get_bits::<52>(12);
            self.ml_ok.d.next = false;
            self.out.d.next = 0.into();
            self.filled.d.next = 0.into();
            self.faulted.d.next = 0.into();
            self.refused.d.next = 0.into();
        }
        if self.rst.val() {
            self.run.d.next = false;
            self.issuing.d.next = false;
            self.ml_ok.d.next = false;
            self.out.d.next = 0.into();
            self.ev.d.next = false;
        }
    }
}

/// Generates the Verilog of a prefetch unit with `max_out` = 4 (the
/// default core's), top module `name`.
pub fn generate_verilog(name: &str) -> String {
    let mut uut = Prefetcher::new(4);
    uut.connect_all();
    crate::verilog::generate(&uut, name)
}
