//! Block RAM standing in for host memory on a board: an AXI4 slave for the
//! core's master (page-table reads, event-record writes) and a word port
//! for the serial bridge (the host's view: page tables written, the event
//! ring read).

use rust_hdl::prelude::*;

use crate::board::interfaces::{AxiSlave, MemPortIn};

/// AXI `rresp` / `bresp`: OKAY.
pub const RESP_OKAY: u64 = 0;
/// AXI `rresp` / `bresp`: SLVERR, for a burst this slave does not serve
/// (not INCR, or beats other than 8 bytes), or a write whose `wlast` is on
/// the wrong beat.
pub const RESP_SLVERR: u64 = 2;
/// AXI `rresp` / `bresp`: DECERR, for a beat beyond the memory.
pub const RESP_DECERR: u64 = 3;

/// Where the read side is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum ReadState {
    /// Takes an AR, or a read of the word port (the word port first).
    Idle,
    /// The block RAM reads the beat's word; it is registered at the end.
    Fetch,
    /// The beat is on R until `rready`.
    Beat,
    /// The block RAM reads the word port's word; `rvalid` next clock.
    Host,
    /// The word port's word is on `rdata` (one clock).
    HostData,
}

/// Where the write side is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum WriteState {
    /// Takes an AW, or a write of the word port (the word port first).
    Idle,
    /// Takes the burst's W beats, writing each.
    Data,
    /// The burst's B response until `bready`.
    Resp,
}

/// Board memory: 2^`WORD_BITS` words of 64 bits (8 << `WORD_BITS` bytes)
/// at physical address 0, in eight byte-wide block RAMs (one per byte lane,
/// so `wstrb` is honoured).
///
/// # Ports
///
/// - `s_axi_*`: AXI4 slave, 64-bit address and data, 4-bit IDs. One burst
///   at a time per direction; INCR bursts of 8-byte beats (`arsize` /
///   `awsize` 3), any length. A read beat takes 2 clocks to fetch and then
///   waits on `rready`; a write beat is taken every clock once its AW is
///   in, and B follows the last beat.
/// - `host_*`: the word port ([`MemPortIn`]): one 64-bit word per request,
///   whole words written; a read's word comes on `host_rdata` with
///   `host_rvalid` two clocks after the request was taken. The word port
///   is served between bursts and wins over an AR or AW offered in the same
///   clock. Its address wraps at the memory's size (the bridge checks it).
/// - `err` (out): one clock per error answer (SLVERR or DECERR beat taken
///   on R, or B taken).
///
/// # Bad input
///
/// Answers, never a hang: a beat beyond the memory reads zero with DECERR
/// and is not written (its burst's B is DECERR); a burst that is not INCR
/// or has beats other than 8 bytes reads zero with SLVERR on every beat,
/// or writes nothing and answers SLVERR; a write whose `wlast` comes on
/// another beat than `awlen` says still takes `awlen + 1` beats and answers
/// SLVERR. Read bursts that cross a 4 KiB boundary (illegal in AXI) simply
/// go on.
///
/// `rst` (synchronous) abandons a burst in flight: use it only with the
/// master reset too.
#[derive(LogicBlock)]
pub struct BoardMemory<const WORD_BITS: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub rst: Signal<In, Bit>,
    /// AXI4 slave (the core's host-memory master).
    pub s_axi: AxiSlave,
    /// The word port (the serial bridge).
    pub host: MemPortIn,
    /// One clock per error answer on R or B.
    pub err: Signal<Out, Bit>,
    lanes: [RAM<Bits<8>, WORD_BITS>; 8],
    /// Address bits above the memory (a beat there answers DECERR).
    beyond: Constant<Bits<64>>,
    rstate: DFF<ReadState>,
    r_id: DFF<Bits<4>>,
    r_addr: DFF<Bits<64>>,
    /// Beats left after this one.
    r_left: DFF<Bits<8>>,
    /// The burst is INCR with 8-byte beats.
    r_ok: DFF<Bit>,
    r_word: DFF<Bits<64>>,
    wstate: DFF<WriteState>,
    w_id: DFF<Bits<4>>,
    w_addr: DFF<Bits<64>>,
    w_left: DFF<Bits<8>>,
    w_ok: DFF<Bit>,
    w_resp: DFF<Bits<2>>,
    /// The word port's request is taken this clock (read / write).
    host_rd: Signal<Local, Bit>,
    host_wr: Signal<Local, Bit>,
    /// The word being read (block RAM output, lanes joined).
    ram_word: Signal<Local, Bits<64>>,
    read_index: Signal<Local, Bits<WORD_BITS>>,
    write_index: Signal<Local, Bits<WORD_BITS>>,
    write_data: Signal<Local, Bits<64>>,
    write_lanes: Signal<Local, Bits<8>>,
    /// The next read beat's address.
    r_next: Signal<Local, Bits<64>>,
    /// The read / write beat lies beyond the memory.
    r_out: Signal<Local, Bit>,
    w_out: Signal<Local, Bit>,
    /// This clock's R beat's response.
    r_resp: Signal<Local, Bits<2>>,
}

impl<const WORD_BITS: usize> BoardMemory<WORD_BITS> {
    /// A memory of 2^`WORD_BITS` 64-bit words (6..=16: 512 bytes to
    /// 512 KiB).
    pub fn new() -> Self {
        assert!(
            (6..=16).contains(&WORD_BITS),
            "BoardMemory: WORD_BITS must be in 6..=16, got {WORD_BITS}"
        );
        Self {
            clock: Default::default(),
            rst: Default::default(),
            s_axi: Default::default(),
            host: Default::default(),
            err: Default::default(),
            lanes: std::array::from_fn(|_| Default::default()),
            beyond: Constant::new((!((8u64 << WORD_BITS) - 1)).into()),
            rstate: Default::default(),
            r_id: Default::default(),
            r_addr: Default::default(),
            r_left: Default::default(),
            r_ok: Default::default(),
            r_word: Default::default(),
            wstate: Default::default(),
            w_id: Default::default(),
            w_addr: Default::default(),
            w_left: Default::default(),
            w_ok: Default::default(),
            w_resp: Default::default(),
            host_rd: Default::default(),
            host_wr: Default::default(),
            ram_word: Default::default(),
            read_index: Default::default(),
            write_index: Default::default(),
            write_data: Default::default(),
            write_lanes: Default::default(),
            r_next: Default::default(),
            r_out: Default::default(),
            w_out: Default::default(),
            r_resp: Default::default(),
        }
    }

    /// Bytes of memory.
    pub fn bytes() -> u64 {
        8 << WORD_BITS
    }
}

impl<const WORD_BITS: usize> Default for BoardMemory<WORD_BITS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const WORD_BITS: usize> Logic for BoardMemory<WORD_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, rstate, r_id, r_addr, r_left, r_ok, r_word, wstate, w_id, w_addr, w_left,
            w_ok, w_resp
        );
        self.lanes[0].read_clock.next = self.clock.val();
        self.lanes[1].read_clock.next = self.clock.val();
        self.lanes[2].read_clock.next = self.clock.val();
        self.lanes[3].read_clock.next = self.clock.val();
        self.lanes[4].read_clock.next = self.clock.val();
        self.lanes[5].read_clock.next = self.clock.val();
        self.lanes[6].read_clock.next = self.clock.val();
        self.lanes[7].read_clock.next = self.clock.val();
        self.lanes[0].write_clock.next = self.clock.val();
        self.lanes[1].write_clock.next = self.clock.val();
        self.lanes[2].write_clock.next = self.clock.val();
        self.lanes[3].write_clock.next = self.clock.val();
        self.lanes[4].write_clock.next = self.clock.val();
        self.lanes[5].write_clock.next = self.clock.val();
        self.lanes[6].write_clock.next = self.clock.val();
        self.lanes[7].write_clock.next = self.clock.val();
        self.ram_word.next = bit_cast::<64, 8>(self.lanes[0].read_data.val())
            | (bit_cast::<64, 8>(self.lanes[1].read_data.val()) << 8)
            | (bit_cast::<64, 8>(self.lanes[2].read_data.val()) << 16)
            | (bit_cast::<64, 8>(self.lanes[3].read_data.val()) << 24)
            | (bit_cast::<64, 8>(self.lanes[4].read_data.val()) << 32)
            | (bit_cast::<64, 8>(self.lanes[5].read_data.val()) << 40)
            | (bit_cast::<64, 8>(self.lanes[6].read_data.val()) << 48)
            | (bit_cast::<64, 8>(self.lanes[7].read_data.val()) << 56);
        self.r_out.next = (self.r_addr.q.val() & self.beyond.val()).any();
        self.r_next.next = self.r_addr.q.val() + 8;
        self.w_out.next = (self.w_addr.q.val() & self.beyond.val()).any();

        // ---- Read side. The word port first, between bursts.
        self.host_rd.next = (self.rstate.q.val() == ReadState::Idle)
            & self.host.valid.val()
            & !self.host.write.val();
        self.s_axi.rd.arready.next = (self.rstate.q.val() == ReadState::Idle) & !self.host_rd.val();
        self.read_index.next = self.r_addr.q.val().get_bits::<WORD_BITS>(3);
        if self.host_rd.val() {
            self.read_index.next = self.host.addr.val().get_bits::<WORD_BITS>(3);
        }
        self.r_resp.next = 0.into(); // = RESP_OKAY
        if !self.r_ok.q.val() {
            self.r_resp.next = 2.into(); // = RESP_SLVERR
        } else if self.r_out.val() {
            self.r_resp.next = 3.into(); // = RESP_DECERR
        }
        match self.rstate.q.val() {
            ReadState::Idle => {
                if self.host_rd.val() {
                    self.rstate.d.next = ReadState::Host;
                } else if self.s_axi.rd.arvalid.val() {
                    // The first beat's word goes to the block RAM now.
                    self.read_index.next = self.s_axi.rd.araddr.val().get_bits::<WORD_BITS>(3);
                    self.r_id.d.next = self.s_axi.rd.arid.val();
                    self.r_addr.d.next = self.s_axi.rd.araddr.val();
                    self.r_left.d.next = self.s_axi.rd.arlen.val();
                    self.r_ok.d.next =
                        (self.s_axi.rd.arburst.val() == 1) & (self.s_axi.rd.arsize.val() == 3);
                    self.rstate.d.next = ReadState::Fetch;
                }
            }
            ReadState::Fetch => {
                // The address went to the block RAM at the edge that left
                // Idle or Beat; its word is out now and is held for R.
                self.r_word.d.next = self.ram_word.val();
                self.rstate.d.next = ReadState::Beat;
            }
            ReadState::Beat => {
                if self.s_axi.rd.rready.val() {
                    if self.r_left.q.val() == 0 {
                        self.rstate.d.next = ReadState::Idle;
                    } else {
                        self.r_addr.d.next = self.r_next.val();
                        self.r_left.d.next = self.r_left.q.val() - 1;
                        self.rstate.d.next = ReadState::Fetch;
                        // The next word's address goes to the block RAM now.
                        self.read_index.next = self.r_next.val().get_bits::<WORD_BITS>(3);
                    }
                }
            }
            ReadState::Host => {
                self.rstate.d.next = ReadState::HostData;
            }
            ReadState::HostData => {
                self.rstate.d.next = ReadState::Idle;
            }
            _ => {
                self.rstate.d.next = ReadState::Idle;
            }
        }
        self.s_axi.rd.rvalid.next = self.rstate.q.val() == ReadState::Beat;
        self.s_axi.rd.rid.next = self.r_id.q.val();
        self.s_axi.rd.rlast.next = self.r_left.q.val() == 0;
        self.s_axi.rd.rresp.next = self.r_resp.val();
        self.s_axi.rd.rdata.next = 0.into();
        if self.r_resp.val() == 0 {
            self.s_axi.rd.rdata.next = self.r_word.q.val();
        }
        // The word port's read: the block RAM's output of the word taken
        // two edges ago, for one clock.
        self.host.rvalid.next = self.rstate.q.val() == ReadState::HostData;
        self.host.rdata.next = self.r_word.q.val();
        if self.rstate.q.val() == ReadState::Host {
            self.r_word.d.next = self.ram_word.val();
        }

        // ---- Write side.
        self.host_wr.next = (self.wstate.q.val() == WriteState::Idle)
            & self.host.valid.val()
            & self.host.write.val();
        self.host.ready.next = self.host_rd.val() | self.host_wr.val();
        self.s_axi.wr.awready.next =
            (self.wstate.q.val() == WriteState::Idle) & !self.host_wr.val();
        self.s_axi.wr.wready.next = self.wstate.q.val() == WriteState::Data;
        self.write_index.next = self.w_addr.q.val().get_bits::<WORD_BITS>(3);
        self.write_data.next = self.s_axi.wr.wdata.val();
        self.write_lanes.next = 0.into();
        match self.wstate.q.val() {
            WriteState::Idle => {
                if self.host_wr.val() {
                    self.write_index.next = self.host.addr.val().get_bits::<WORD_BITS>(3);
                    self.write_data.next = self.host.wdata.val();
                    self.write_lanes.next = 0xff.into();
                } else if self.s_axi.wr.awvalid.val() {
                    self.w_id.d.next = self.s_axi.wr.awid.val();
                    self.w_addr.d.next = self.s_axi.wr.awaddr.val();
                    self.w_left.d.next = self.s_axi.wr.awlen.val();
                    self.w_ok.d.next =
                        (self.s_axi.wr.awburst.val() == 1) & (self.s_axi.wr.awsize.val() == 3);
                    self.w_resp.d.next = 0.into(); // = RESP_OKAY
                    if (self.s_axi.wr.awburst.val() != 1) | (self.s_axi.wr.awsize.val() != 3) {
                        self.w_resp.d.next = 2.into(); // = RESP_SLVERR
                    }
                    self.wstate.d.next = WriteState::Data;
                }
            }
            WriteState::Data => {
                if self.s_axi.wr.wvalid.val() {
                    if self.w_ok.q.val() & !self.w_out.val() {
                        self.write_lanes.next = self.s_axi.wr.wstrb.val();
                    }
                    // The first error of the burst names its response;
                    // SLVERR wins over DECERR.
                    if self.w_ok.q.val() & self.w_out.val() & (self.w_resp.q.val() == 0) {
                        self.w_resp.d.next = 3.into(); // = RESP_DECERR
                    }
                    if self.s_axi.wr.wlast.val() != (self.w_left.q.val() == 0) {
                        self.w_resp.d.next = 2.into(); // = RESP_SLVERR
                    }
                    self.w_addr.d.next = self.w_addr.q.val() + 8;
                    self.w_left.d.next = self.w_left.q.val() - 1;
                    if self.w_left.q.val() == 0 {
                        self.wstate.d.next = WriteState::Resp;
                    }
                }
            }
            WriteState::Resp => {
                if self.s_axi.wr.bready.val() {
                    self.wstate.d.next = WriteState::Idle;
                }
            }
            _ => {
                self.wstate.d.next = WriteState::Idle;
            }
        }
        self.s_axi.wr.bvalid.next = self.wstate.q.val() == WriteState::Resp;
        self.s_axi.wr.bid.next = self.w_id.q.val();
        self.s_axi.wr.bresp.next = self.w_resp.q.val();

        self.lanes[0].read_address.next = self.read_index.val();
        self.lanes[1].read_address.next = self.read_index.val();
        self.lanes[2].read_address.next = self.read_index.val();
        self.lanes[3].read_address.next = self.read_index.val();
        self.lanes[4].read_address.next = self.read_index.val();
        self.lanes[5].read_address.next = self.read_index.val();
        self.lanes[6].read_address.next = self.read_index.val();
        self.lanes[7].read_address.next = self.read_index.val();
        self.lanes[0].write_address.next = self.write_index.val();
        self.lanes[1].write_address.next = self.write_index.val();
        self.lanes[2].write_address.next = self.write_index.val();
        self.lanes[3].write_address.next = self.write_index.val();
        self.lanes[4].write_address.next = self.write_index.val();
        self.lanes[5].write_address.next = self.write_index.val();
        self.lanes[6].write_address.next = self.write_index.val();
        self.lanes[7].write_address.next = self.write_index.val();
        self.lanes[0].write_data.next = self.write_data.val().get_bits::<8>(0);
        self.lanes[1].write_data.next = self.write_data.val().get_bits::<8>(8);
        self.lanes[2].write_data.next = self.write_data.val().get_bits::<8>(16);
        self.lanes[3].write_data.next = self.write_data.val().get_bits::<8>(24);
        self.lanes[4].write_data.next = self.write_data.val().get_bits::<8>(32);
        self.lanes[5].write_data.next = self.write_data.val().get_bits::<8>(40);
        self.lanes[6].write_data.next = self.write_data.val().get_bits::<8>(48);
        self.lanes[7].write_data.next = self.write_data.val().get_bits::<8>(56);
        self.lanes[0].write_enable.next = self.write_lanes.val().get_bit(0);
        self.lanes[1].write_enable.next = self.write_lanes.val().get_bit(1);
        self.lanes[2].write_enable.next = self.write_lanes.val().get_bit(2);
        self.lanes[3].write_enable.next = self.write_lanes.val().get_bit(3);
        self.lanes[4].write_enable.next = self.write_lanes.val().get_bit(4);
        self.lanes[5].write_enable.next = self.write_lanes.val().get_bit(5);
        self.lanes[6].write_enable.next = self.write_lanes.val().get_bit(6);
        self.lanes[7].write_enable.next = self.write_lanes.val().get_bit(7);

        self.err.next =
            (self.s_axi.rd.rvalid.val() & self.s_axi.rd.rready.val() & (self.r_resp.val() != 0))
                | (self.s_axi.wr.bvalid.val()
                    & self.s_axi.wr.bready.val()
                    & (self.w_resp.q.val() != 0));

        if self.rst.val() {
            self.rstate.d.next = ReadState::Idle;
            self.wstate.d.next = WriteState::Idle;
        }
    }
}
