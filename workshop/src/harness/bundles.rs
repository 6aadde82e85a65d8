//! The interface bundles of `odp_mmu::common::interfaces` (and the board
//! memory's AXI4 slave) by member name, so that a
//! [`port_map!`](crate::port_map) maps a whole bundle by its prefix:
//! `bundles: [m_axi]` maps `m_axi_arvalid`, `m_axi_rdata`, ... of an
//! [`AxiReadMaster`] port named `m_axi`.

use odp_mmu::board::interfaces::{AxiReadSlave, AxiSlave, AxiWriteSlave};
use odp_mmu::common::interfaces::*;

use super::dut::{DriveFrom, ReadAs};

/// An interface bundle's members, by name. Written once per bundle type by
/// `bundle_ports!` below; a bundle port of a block under test is then mapped
/// by its prefix alone.
pub trait BundlePorts {
    /// Every member: (name, is an input of the block that owns the bundle).
    fn members() -> Vec<(&'static str, bool)>;
    /// Drives input member `member`; panics naming it if it is not one.
    fn set_member(&mut self, member: &str, value: u128);
    /// Reads member `member` (input or output), or `None` if there is none.
    fn get_member(&self, member: &str) -> Option<u128>;
}

macro_rules! bundle_ports {
    ($ty:ident $(<$g:ident>)? { inputs: [$($i:ident),* $(,)?], outputs: [$($o:ident),* $(,)?] $(,)? }) => {
        impl$(<const $g: usize>)? BundlePorts for $ty$(<$g>)? {
            fn members() -> Vec<(&'static str, bool)> {
                vec![$((stringify!($i), true),)* $((stringify!($o), false),)*]
            }
            #[allow(unused_variables)]
            fn set_member(&mut self, member: &str, value: u128) {
                match member {
                    $(stringify!($i) => self.$i.drive_from(value),)*
                    _ => panic!("{} has no input {member}", stringify!($ty)),
                }
            }
            fn get_member(&self, member: &str) -> Option<u128> {
                match member {
                    $(stringify!($i) => Some(self.$i.read_as()),)*
                    $(stringify!($o) => Some(self.$o.read_as()),)*
                    _ => None,
                }
            }
        }
    };
}

bundle_ports!(XReqIn {
    inputs: [valid, tag, op, qpn, rqpn, psn, msn, pd, key, va, len, msg_len],
    outputs: [ready],
});
bundle_ports!(XRspOut {
    inputs: [ready],
    outputs: [valid, tag, status, pa, seg_len, last, epoch],
});
bundle_ports!(NakOut {
    inputs: [ready],
    outputs: [valid, qpn, hdr]
});
bundle_ports!(WakeOut {
    inputs: [ready],
    outputs: [valid, qpn]
});
bundle_ports!(DoneIn {
    inputs: [valid, epoch],
    outputs: []
});
bundle_ports!(AxiReadMaster {
    inputs: [arready, rid, rdata, rresp, rlast, rvalid],
    outputs: [arid, araddr, arlen, arsize, arburst, arlock, arcache, arprot, arvalid, rready],
});
bundle_ports!(AxiWriteMaster {
    inputs: [awready, wready, bid, bresp, bvalid],
    outputs: [
        awid, awaddr, awlen, awsize, awburst, awlock, awcache, awprot, awvalid, wdata, wstrb,
        wlast, wvalid, bready,
    ],
});
bundle_ports!(AxiLiteSlave {
    inputs: [
        awaddr, awprot, awvalid, wdata, wstrb, wvalid, bready, araddr, arprot, arvalid, rready
    ],
    outputs: [awready, wready, bresp, bvalid, arready, rdata, rresp, rvalid],
});
bundle_ports!(MrWriteIn<B> {
    inputs: [valid, index, tag, pd, base_va, length, access, root, levels_m1, state],
    outputs: [],
});
bundle_ports!(MrWriteOut<B> {
    inputs: [],
    outputs: [valid, index, tag, pd, base_va, length, access, root, levels_m1, state],
});
bundle_ports!(MrStateIn<B> { inputs: [valid, index, state], outputs: [] });
bundle_ports!(MrStateOut<B> { inputs: [], outputs: [valid, index, state] });
bundle_ports!(InvalidateIn<B> {
    inputs: [valid, kind, mr, va_lo, va_hi, off_lo, off_hi],
    outputs: [ready, done],
});
bundle_ports!(AxiReadSlave {
    inputs: [arid, araddr, arlen, arsize, arburst, arlock, arcache, arprot, arvalid, rready],
    outputs: [arready, rid, rdata, rresp, rlast, rvalid],
});
bundle_ports!(AxiWriteSlave {
    inputs: [
        awid, awaddr, awlen, awsize, awburst, awlock, awcache, awprot, awvalid, wdata, wstrb,
        wlast, wvalid, bready,
    ],
    outputs: [awready, wready, bid, bresp, bvalid],
});

/// The read and write bundles under the one prefix of their port: a nested
/// bundle adds no name (`s_axi.rd.arvalid` is `s_axi_arvalid`).
impl BundlePorts for AxiSlave {
    fn members() -> Vec<(&'static str, bool)> {
        let mut members = AxiReadSlave::members();
        members.extend(AxiWriteSlave::members());
        members
    }
    fn set_member(&mut self, member: &str, value: u128) {
        if AxiReadSlave::members().iter().any(|&(m, _)| m == member) {
            self.rd.set_member(member, value)
        } else {
            self.wr.set_member(member, value)
        }
    }
    fn get_member(&self, member: &str) -> Option<u128> {
        self.rd
            .get_member(member)
            .or_else(|| self.wr.get_member(member))
    }
}

/// The (name, is input) ports of bundle port `prefix` (the bundle `_` only
/// gives its type), named as in the Verilog: `<prefix>_<member>`.
pub fn bundle_port_names<B: BundlePorts>(_: &B, prefix: &str) -> Vec<(String, bool)> {
    B::members()
        .into_iter()
        .map(|(m, i)| (format!("{prefix}_{m}"), i))
        .collect()
}
