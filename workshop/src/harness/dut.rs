//! The one contract between a testbench and the block under test.
//!
//! A testbench drives and reads its block through [`Dut`], by the port names
//! of the generated Verilog (`s_rsp_valid`, `m_axi_arready`), and writes the
//! mapping from its stimulus to those names once. Three backends run it:
//!
//! - [`Verilated`]: the generated Verilog in Verilator, for long randomized
//!   runs against a plain-Rust reference model;
//! - [`Rhdl`]: the rust-hdl model alone;
//! - [`Locked`] (from [`Lockstep::of`]): both on the same stimulus, every output compared every
//!   clock (a difference panics with the clock, the port and both values).
//!
//! The rust-hdl backends reach the block's fields by name through
//! [`PortMap`], which the [`port_map!`](crate::port_map) macro writes from one
//! list of the block's ports. Groups of ports that share a prefix (an AXI4
//! master, `m_axi_*`) are mapped once here ([`AxiPorts`]) instead of in every
//! testbench.
//!
//! ```text
//!   testbench ── Ins ──▶ drive(dut, &ins) ──▶ dut.set("s_rsp_valid", 1) ...
//!                         read(dut)      ◀── dut.get("m_nak_hdr") ...
//!                              │
//!             ┌────────────────┼────────────────┐
//!         Verilated          Rhdl<B>        Lockstep<B>
//! ```
//!
//! A clock is: `set` the inputs, [`Dut::settle`], `get` the outputs (the
//! values a handshake takes at the coming edge), [`Dut::tick`].

use rust_hdl::prelude::*;

use super::lockstep::Lockstep;
use super::rhdl::top_ports;
use super::verilated::{Dir, Verilated};
use crate::models::host_memory::{Addr, BResp, MasterOut, RBeat, SlaveOut, WBeat};

/// A block under test, driven and read by port name (up to 128 bits).
pub trait Dut {
    /// Drives input `port` to `value`; it holds until set again.
    fn set(&mut self, port: &str, value: u128);
    /// Reads `port` (an output, or an input's driven value) as settled.
    fn get(&mut self, port: &str) -> u128;
    /// Propagates the inputs set since the last settle through the
    /// combinational logic (the lockstep backend compares every output here).
    fn settle(&mut self);
    /// One clock: rising edge, then falling edge.
    fn tick(&mut self);

    /// `get(port) != 0`.
    fn is(&mut self, port: &str) -> bool {
        self.get(port) != 0
    }
}

impl Dut for Verilated {
    fn set(&mut self, port: &str, value: u128) {
        Verilated::set(self, port, value)
    }
    fn get(&mut self, port: &str) -> u128 {
        Verilated::get(self, port)
    }
    fn settle(&mut self) {
        self.eval()
    }
    fn tick(&mut self) {
        let clk = self
            .clock_port()
            .expect("the model has no `clock` or `clk` input");
        self.tick_idx(clk)
    }
}

/// Access to a rust-hdl block's top-level ports by name, as a type of its
/// own (a testbench cannot implement a harness trait on an IP type). Write
/// it with [`port_map!`](crate::port_map), never by hand.
pub trait PortMap {
    /// The block whose ports this maps.
    type Block: Block;
    /// Drives input `port` (its `.next`).
    fn set_port(uut: &mut Self::Block, port: &str, value: u128);
    /// Reads `port`'s current value.
    fn get_port(uut: &Self::Block, port: &str) -> u128;
    /// Drives the clock input.
    fn set_clock(uut: &mut Self::Block, level: bool);
    /// Every port the map knows, clock excluded: (name, is an input).
    fn port_names(uut: &Self::Block) -> Vec<(String, bool)>;
}

/// A rust-hdl signal a [`PortMap`] can drive from a `u128`.
pub trait DriveFrom {
    fn drive_from(&mut self, value: u128);
}

impl DriveFrom for Signal<In, Bit> {
    fn drive_from(&mut self, value: u128) {
        assert!(value <= 1, "value {value:#x} does not fit a 1-bit port");
        self.next = value != 0;
    }
}

impl<const N: usize> DriveFrom for Signal<In, Bits<N>> {
    fn drive_from(&mut self, value: u128) {
        assert!(
            N >= 128 || value >> N == 0,
            "value {value:#x} does not fit a {N}-bit port"
        );
        self.next = if N <= 64 {
            (value as u64).into()
        } else {
            Bits::<N>::from(num_bigint::BigUint::from(value))
        };
    }
}

/// A rust-hdl signal a [`PortMap`] reads as a `u128`.
pub trait ReadAs {
    fn read_as(&self) -> u128;
}

macro_rules! read_as {
    ($dir:ty) => {
        impl ReadAs for Signal<$dir, Bit> {
            fn read_as(&self) -> u128 {
                self.val() as u128
            }
        }

        impl<const N: usize> ReadAs for Signal<$dir, Bits<N>> {
            fn read_as(&self) -> u128 {
                self.val().to_u128()
            }
        }
    };
}
read_as!(In);
read_as!(Out);

/// Defines a [`PortMap`] type for a rust-hdl block from the list of its
/// ports:
///
/// ```text
/// odp_mmu_workshop::port_map!(SmallPorts for QpResponder<4> {
///     clock: clock,
///     inputs: [rst, pkey, lk_valid, ..., m_nak.ready],
///     outputs: [ready, ov_fatal, hold, m_nak.hdr, ...],
/// });
/// let dut = Lockstep::of::<SmallPorts>(QpResponder::<4>::new(), "responder_small");
/// ```
///
/// A member of an interface bundle is written as a path, `m_nak.valid`,
/// and named as in the Verilog, `m_nak_valid`; a whole bundle is mapped by
/// its prefix with `bundles: [m_nak]` after the outputs (its type needs a
/// [`BundlePorts`](crate::harness::bundles::BundlePorts) implementation).
///
/// Both backends check at construction that the lists name every port of
/// the block exactly once, with its direction.
///
/// A block generic over constants gets one map for all its sizes:
/// `port_map!(TlbPorts<const S: usize, const M: usize> for Tlb<S, M> { ... })`,
/// used as `Lockstep::of::<TlbPorts<2, 3>>(...)`.
#[macro_export]
macro_rules! port_map {
    ($name:ident for $ty:ty { clock: $clock:ident, inputs: [$($i:ident $(. $is:ident)*),* $(,)?], outputs: [$($o:ident $(. $os:ident)*),* $(,)?] $(, bundles: [$($b:ident),* $(,)?])? $(,)? }) => {
        /// The ports of the block under test, by name.
        struct $name;

        impl $crate::harness::dut::PortMap for $name {
            $crate::port_map!(@fns $ty, $clock, [$($i $(. $is)*),*], [$($o $(. $os)*),*], [$($($b),*)?]);
        }
    };
    ($name:ident<$(const $g:ident: $gt:ty),+ $(,)?> for $ty:ty { clock: $clock:ident, inputs: [$($i:ident $(. $is:ident)*),* $(,)?], outputs: [$($o:ident $(. $os:ident)*),* $(,)?] $(, bundles: [$($b:ident),* $(,)?])? $(,)? }) => {
        /// The ports of the block under test, by name, for every size.
        struct $name<$(const $g: $gt),+>;

        impl<$(const $g: $gt),+> $crate::harness::dut::PortMap for $name<$($g),+> {
            $crate::port_map!(@fns $ty, $clock, [$($i $(. $is)*),*], [$($o $(. $os)*),*], [$($($b),*)?]);
        }
    };
    // The trait's items, shared by both forms.
    (@fns $ty:ty, $clock:ident, [$($i:ident $(. $is:ident)*),*], [$($o:ident $(. $os:ident)*),*], [$($b:ident),*]) => {
        type Block = $ty;
        fn set_port(uut: &mut $ty, port: &str, value: u128) {
            match port {
                $(concat!(stringify!($i) $(, "_", stringify!($is))*) => $crate::harness::dut::DriveFrom::drive_from(&mut uut.$i $(.$is)*, value),)*
                _ => {
                    $(if let Some(m) = port.strip_prefix(concat!(stringify!($b), "_")) {
                        return $crate::harness::bundles::BundlePorts::set_member(&mut uut.$b, m, value);
                    })*
                    panic!("{} has no input port {port}", stringify!($ty))
                }
            }
        }
        fn get_port(uut: &$ty, port: &str) -> u128 {
            match port {
                $(concat!(stringify!($o) $(, "_", stringify!($os))*) => $crate::harness::dut::ReadAs::read_as(&uut.$o $(.$os)*),)*
                $(concat!(stringify!($i) $(, "_", stringify!($is))*) => $crate::harness::dut::ReadAs::read_as(&uut.$i $(.$is)*),)*
                _ => {
                    $(if let Some(v) = port
                        .strip_prefix(concat!(stringify!($b), "_"))
                        .and_then(|m| $crate::harness::bundles::BundlePorts::get_member(&uut.$b, m))
                    {
                        return v;
                    })*
                    panic!("{} has no port {port}", stringify!($ty))
                }
            }
        }
        fn set_clock(uut: &mut $ty, level: bool) {
            uut.$clock.next = level.into();
        }
        #[allow(unused_mut)]
        fn port_names(uut: &$ty) -> Vec<(String, bool)> {
            let _ = uut;
            let mut names: Vec<(String, bool)> = vec![
                $((concat!(stringify!($i) $(, "_", stringify!($is))*).to_string(), true),)*
                $((concat!(stringify!($o) $(, "_", stringify!($os))*).to_string(), false),)*
            ];
            $(names.extend($crate::harness::bundles::bundle_port_names(&uut.$b, stringify!($b)));)*
            names
        }
    };
}

/// Checks that `M` names every top-level port of `uut` with its direction
/// (a port left out would never be driven or compared).
pub fn check_port_map<M: PortMap>(uut: &M::Block) {
    // (name, is an input)
    let mut mapped = M::port_names(uut);
    mapped.sort();
    let mapped: Vec<(&str, bool)> = mapped.iter().map(|(n, i)| (n.as_str(), *i)).collect();
    let mut actual: Vec<(String, bool)> = top_ports(uut)
        .into_iter()
        .filter(|p| !p.is_clock)
        .map(|p| (p.name, p.dir == Dir::In))
        .collect();
    actual.sort();
    let actual: Vec<(&str, bool)> = actual.iter().map(|(n, i)| (n.as_str(), *i)).collect();
    assert_eq!(
        mapped, actual,
        "port_map! does not list the block's ports as (name, is input)"
    );
}

/// The rust-hdl model alone.
pub struct Rhdl<M: PortMap> {
    pub uut: M::Block,
}

impl<M: PortMap> Rhdl<M> {
    /// Connects `uut` and settles it with the clock low.
    pub fn new(mut uut: M::Block) -> Self {
        uut.connect_all();
        check_port_map::<M>(&uut);
        M::set_clock(&mut uut, false);
        assert!(simulate(&mut uut, 10_000), "rust-hdl model does not settle");
        Self { uut }
    }
}

impl<M: PortMap> Dut for Rhdl<M> {
    fn set(&mut self, port: &str, value: u128) {
        M::set_port(&mut self.uut, port, value)
    }
    fn get(&mut self, port: &str) -> u128 {
        M::get_port(&self.uut, port)
    }
    fn settle(&mut self) {
        assert!(
            simulate(&mut self.uut, 10_000),
            "rust-hdl model does not settle"
        );
    }
    fn tick(&mut self) {
        for level in [true, false] {
            M::set_clock(&mut self.uut, level);
            self.settle();
        }
    }
}

/// The lockstep backend: the rust-hdl model and its Verilated Verilog on
/// the same inputs; outputs read from the rust-hdl model after both agreed.
pub struct Locked<M: PortMap> {
    pub ls: Lockstep<M::Block>,
}

impl<B: Block> Lockstep<B> {
    /// The lockstep backend of [`Dut`] for `uut` through the port map `M`:
    /// connects `uut`, generates its Verilog as module `name`, builds the
    /// Verilated model.
    pub fn of<M: PortMap<Block = B>>(uut: B, name: &str) -> Locked<M> {
        let ls = Lockstep::new(uut, name, M::set_clock);
        check_port_map::<M>(&ls.uut);
        Locked { ls }
    }
}

impl<M: PortMap> Locked<M> {
    /// Clocks run so far.
    pub fn clock(&self) -> u64 {
        self.ls.clock()
    }
}

impl<M: PortMap> Dut for Locked<M> {
    fn set(&mut self, port: &str, value: u128) {
        M::set_port(&mut self.ls.uut, port, value)
    }
    fn get(&mut self, port: &str) -> u128 {
        M::get_port(&self.ls.uut, port)
    }
    fn settle(&mut self) {
        if let Err(m) = self.ls.settle(|_, _| {}) {
            panic!("{m}");
        }
    }
    fn tick(&mut self) {
        self.ls.edge()
    }
}

/// The ports of an AXI4 master named `<prefix>_<signal>` (`m_axi_arvalid`),
/// mapped once for every testbench: read its outputs as the host-memory
/// model's [`MasterOut`], drive its inputs from the model's [`SlaveOut`].
pub struct AxiPorts {
    /// `<prefix>_<signal>`, indexed by [`Sig`].
    names: Vec<String>,
    read: bool,
    write: bool,
}

/// The AXI4 signals the harness maps, read channels first; the order of
/// [`SIGNALS`].
#[derive(Clone, Copy)]
enum Sig {
    Arvalid,
    Arid,
    Araddr,
    Arlen,
    Arsize,
    Arburst,
    Rready,
    Arready,
    Rvalid,
    Rid,
    Rdata,
    Rresp,
    Rlast,
    Awvalid,
    Awid,
    Awaddr,
    Awlen,
    Awsize,
    Awburst,
    Wvalid,
    Wdata,
    Wstrb,
    Wlast,
    Bready,
    Awready,
    Wready,
    Bvalid,
    Bid,
    Bresp,
}

/// The signal names, indexed by [`Sig`].
const SIGNALS: [&str; 29] = [
    "arvalid", "arid", "araddr", "arlen", "arsize", "arburst", "rready", "arready", "rvalid",
    "rid", "rdata", "rresp", "rlast", "awvalid", "awid", "awaddr", "awlen", "awsize", "awburst",
    "wvalid", "wdata", "wstrb", "wlast", "bready", "awready", "wready", "bvalid", "bid", "bresp",
];

impl AxiPorts {
    /// A read-only master (AR and R channels).
    pub fn read(prefix: &str) -> Self {
        Self::with(prefix, true, false)
    }

    /// A master with both read and write channels (AW, W and B too).
    pub fn read_write(prefix: &str) -> Self {
        Self::with(prefix, true, true)
    }

    /// A write-only master (AW, W and B channels).
    pub fn write_only(prefix: &str) -> Self {
        Self::with(prefix, false, true)
    }

    fn with(prefix: &str, read: bool, write: bool) -> Self {
        let names = SIGNALS.iter().map(|s| format!("{prefix}_{s}")).collect();
        Self { names, read, write }
    }

    fn n(&self, signal: Sig) -> &str {
        &self.names[signal as usize]
    }

    /// The master's settled outputs of this clock.
    pub fn master_out(&self, d: &mut dyn Dut) -> MasterOut {
        let mut m = MasterOut {
            bready: true,
            ..MasterOut::default()
        };
        if self.read {
            m.ar = d.is(self.n(Sig::Arvalid)).then(|| Addr {
                id: d.get(self.n(Sig::Arid)) as u8,
                addr: d.get(self.n(Sig::Araddr)) as u64,
                len: d.get(self.n(Sig::Arlen)) as u8,
                size: d.get(self.n(Sig::Arsize)) as u8,
                burst: d.get(self.n(Sig::Arburst)) as u8,
            });
            m.rready = d.is(self.n(Sig::Rready));
        }
        if self.write {
            m.aw = d.is(self.n(Sig::Awvalid)).then(|| Addr {
                id: d.get(self.n(Sig::Awid)) as u8,
                addr: d.get(self.n(Sig::Awaddr)) as u64,
                len: d.get(self.n(Sig::Awlen)) as u8,
                size: d.get(self.n(Sig::Awsize)) as u8,
                burst: d.get(self.n(Sig::Awburst)) as u8,
            });
            m.w = d.is(self.n(Sig::Wvalid)).then(|| WBeat {
                data: d.get(self.n(Sig::Wdata)) as u64,
                strb: d.get(self.n(Sig::Wstrb)) as u8,
                last: d.is(self.n(Sig::Wlast)),
            });
            m.bready = d.is(self.n(Sig::Bready));
        }
        m
    }

    /// Drives the master's inputs from the slave's outputs of this clock.
    /// Payloads hold their last value while not valid.
    pub fn drive(&self, d: &mut dyn Dut, s: &SlaveOut) {
        if self.read {
            d.set(self.n(Sig::Arready), s.arready as u128);
            d.set(self.n(Sig::Rvalid), s.r.is_some() as u128);
            if let Some(RBeat {
                id,
                data,
                resp,
                last,
            }) = s.r
            {
                d.set(self.n(Sig::Rid), id as u128);
                d.set(self.n(Sig::Rdata), data as u128);
                d.set(self.n(Sig::Rresp), resp as u128);
                d.set(self.n(Sig::Rlast), last as u128);
            }
        }
        if self.write {
            d.set(self.n(Sig::Awready), s.awready as u128);
            d.set(self.n(Sig::Wready), s.wready as u128);
            d.set(self.n(Sig::Bvalid), s.b.is_some() as u128);
            if let Some(BResp { id, resp }) = s.b {
                d.set(self.n(Sig::Bid), id as u128);
                d.set(self.n(Sig::Bresp), resp as u128);
            }
        }
    }
}
