//! Reading the top-level ports of a rust-hdl block by name.
//!
//! rust-hdl has no reflective setter, but its `Probe` visitor reaches every
//! atom with its current value. The lockstep harness uses it to copy the
//! inputs a testbench drove into the Verilated model and to read every output
//! for comparison, without knowing the block's type. The same visitor lists
//! a block's ports for its Verilated model and its Fmax wrapper ([`ports`]).

use rust_hdl::core::ast::VerilogLiteral;
use rust_hdl::core::atom::{Atom, AtomKind};
use rust_hdl::prelude::*;

use super::verilated::{Dir, Port};

/// A top-level port of a rust-hdl block and its current value.
#[derive(Clone, Debug)]
pub struct PortValue {
    /// The Verilog name: an interface bundle's member is `<bundle>_<member>`,
    /// as `odp_mmu::verilog` writes it.
    pub name: String,
    pub dir: Dir,
    pub width: usize,
    /// True for `Signal<In, Clock>` ports, which the harness drives itself.
    pub is_clock: bool,
    /// Little-endian 32-bit words.
    pub words: Vec<u32>,
}

struct TopPorts {
    /// Read each port's value (else `words` stays empty).
    values: bool,
    depth: usize,
    namespace: Vec<String>,
    ports: Vec<PortValue>,
}

impl Probe for TopPorts {
    fn visit_start_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth += 1;
    }
    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth -= 1;
    }
    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        if self.depth == 1 {
            self.namespace.push(name.to_string());
        }
    }
    fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
        if self.depth == 1 {
            self.namespace.pop();
        }
    }
    fn visit_atom(&mut self, name: &str, atom: &dyn Atom) {
        if self.depth != 1 {
            return;
        }
        let dir = match atom.kind() {
            AtomKind::InputParameter => Dir::In,
            AtomKind::OutputParameter | AtomKind::OutputPassthrough => Dir::Out,
            _ => return,
        };
        // As `odp_mmu::verilog::flat_port_name` writes it: the outer bundle's
        // name, then the member's.
        let mut full = match self.namespace.first() {
            Some(bundle) => format!("{bundle}_"),
            None => String::new(),
        };
        full.push_str(name);
        self.ports.push(PortValue {
            name: full,
            dir,
            width: atom.bits(),
            is_clock: atom.descriptor().name == "clock",
            words: if self.values {
                literal_words(&atom.verilog(), atom.bits())
            } else {
                Vec::new()
            },
        });
    }
}

/// The words of a literal, parsed from its `N'h...` rendering (its value
/// field is private).
fn literal_words(lit: &VerilogLiteral, width: usize) -> Vec<u32> {
    let text = format!("{lit:x}");
    let hex = text.split("'h").nth(1).expect("hex literal");
    assert!(
        !hex.starts_with('-'),
        "signed top-level ports are not supported"
    );
    let mut words = vec![0u32; width.div_ceil(32)];
    for (i, c) in hex.bytes().rev().enumerate() {
        let nibble = (c as char).to_digit(16).expect("hex digit");
        if let Some(w) = words.get_mut(i / 8) {
            *w |= nibble << (4 * (i % 8));
        }
    }
    words
}

/// Every top-level port of `uut` with its current value.
pub fn top_ports<B: Block>(uut: &B) -> Vec<PortValue> {
    probe_ports(uut, true)
}

fn probe_ports<B: Block>(uut: &B, values: bool) -> Vec<PortValue> {
    let mut probe = TopPorts {
        values,
        depth: 0,
        namespace: Vec::new(),
        ports: Vec::new(),
    };
    uut.accept("top", &mut probe);
    probe.ports
}

/// The top-level ports of `uut` (name, width, direction), in the order of
/// the module header rust-hdl writes for it: the port list of its Verilog,
/// read from the block instead of parsed from the text.
pub fn ports<B: Block>(uut: &B) -> Vec<Port> {
    probe_ports(uut, false)
        .into_iter()
        .map(|p| Port {
            name: p.name,
            width: p.width,
            dir: p.dir,
        })
        .collect()
}
