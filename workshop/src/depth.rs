//! Logic depth of a synthesized netlist: the deepest combinational cones,
//! grouped by block, in seconds instead of a place-and-route run.
//!
//! The `depth` command synthesizes a design exactly as `pnr` does (the same
//! Fmax wrapper, Yosys script and `build/pnr/<top>/` netlist, see
//! [`flow::synth_wrapped`]) and reads the ECP5 netlist Yosys wrote
//! (`<top>_fmax_wrap.json`). Every path starts at a flip-flop output, a
//! block-RAM output or a module input and ends at a flip-flop input (`DI`,
//! `CE`, `LSR`, `M`), a block-RAM input (every pin but the clocks) or a
//! distributed-RAM write input (`DI`, `WAD`, `WRE`). Its
//! length is counted in logic levels:
//!
//! | cell | arc | levels |
//! |---|---|---|
//! | `LUT4` | any input to `Z` | 1 |
//! | `PFUMX` | `ALUT`, `BLUT` (data) to `Z` | 0.3 |
//! | `PFUMX` | `C0` (select) to `Z` | 1 |
//! | `L6MUX21` | `D0`, `D1` (data) to `Z` | 0.3 |
//! | `L6MUX21` | `SD` (select) to `Z` | 1 |
//! | `CCU2C` | `CIN` to `COUT` | 0.1 |
//! | `CCU2C` | any other input to an output (`S0` from the low half and `CIN` only) | 1 |
//! | `DP16KD` | clock to output (a start point) | 4 |
//! | `TRELLIS_DPR16X4` | read address `RAD` to `DO` (distributed RAM reads asynchronously) | 1 |
//! | `TRELLIS_FF`, other cells, module inputs | start points | 0 |
//!
//! One level is about 1 ns on ECP5 speed 8 with routing included; the
//! relation to routed Fmax is in `docs/synthesis.md`. Levels are kept in
//! tenths internally, so sums are exact.
//!
//! The traversal is iterative (an explicit stack), so chains of any depth
//! (a carry chain of tens of thousands of cells) cannot overflow the stack.
//! A combinational loop, which a synthesized netlist should not have, is cut
//! where the walk meets it again: that signal counts as a start point, and
//! the cut is counted in [`DepthReport::loops`].

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::harness::verilated::Port;
use crate::{flow, tools};

/// Tenths of a level in one level.
pub const TENTHS_PER_LEVEL: u32 = 10;

/// Deepest endpoint (in levels) that still meets 125 MHz on LFE5U-85F-8 in
/// this project's routed results: the count of endpoints above it is the
/// number to drive to zero.
pub const LIMIT_LEVELS: u32 = 7;

/// `LUT4`, a mux select, a `CCU2C` data input: one level (in tenths).
const LEVEL: u32 = 10;
/// A `PFUMX` / `L6MUX21` data input.
const MUX_DATA: u32 = 3;
/// `CCU2C` carry-in to carry-out.
const CARRY: u32 = 1;
/// `DP16KD` clock to output.
const RAM_OUTPUT: u32 = 40;

/// The cell types the delay model knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Lut4,
    Pfumx,
    L6mux21,
    Ccu2c,
    Ff,
    Ram,
    /// Distributed RAM: a LUT read asynchronously, written on the clock.
    Dpr16x4,
    /// Anything else: a start point at level 0.
    Other,
}

impl Kind {
    fn of(cell_type: &str) -> Kind {
        match cell_type {
            "LUT4" => Kind::Lut4,
            "PFUMX" => Kind::Pfumx,
            "L6MUX21" => Kind::L6mux21,
            "CCU2C" => Kind::Ccu2c,
            "TRELLIS_FF" => Kind::Ff,
            "DP16KD" => Kind::Ram,
            "TRELLIS_DPR16X4" => Kind::Dpr16x4,
            _ => Kind::Other,
        }
    }
}

const LUT4_ARCS: [(&str, u32); 4] = [("A", LEVEL), ("B", LEVEL), ("C", LEVEL), ("D", LEVEL)];
const PFUMX_ARCS: [(&str, u32); 3] = [("ALUT", MUX_DATA), ("BLUT", MUX_DATA), ("C0", LEVEL)];
const L6MUX21_ARCS: [(&str, u32); 3] = [("D0", MUX_DATA), ("D1", MUX_DATA), ("SD", LEVEL)];
const CCU2C_COUT_ARCS: [(&str, u32); 9] = [
    ("A0", LEVEL),
    ("B0", LEVEL),
    ("C0", LEVEL),
    ("D0", LEVEL),
    ("A1", LEVEL),
    ("B1", LEVEL),
    ("C1", LEVEL),
    ("D1", LEVEL),
    ("CIN", CARRY),
];
const CCU2C_S0_ARCS: [(&str, u32); 5] = [
    ("A0", LEVEL),
    ("B0", LEVEL),
    ("C0", LEVEL),
    ("D0", LEVEL),
    ("CIN", LEVEL),
];
const CCU2C_S1_ARCS: [(&str, u32); 9] = [
    ("A0", LEVEL),
    ("B0", LEVEL),
    ("C0", LEVEL),
    ("D0", LEVEL),
    ("A1", LEVEL),
    ("B1", LEVEL),
    ("C1", LEVEL),
    ("D1", LEVEL),
    ("CIN", LEVEL),
];

/// A distributed-RAM read: the read address through the slice's LUTs.
const DPR16X4_READ_ARCS: [(&str, u32); 1] = [("RAD", LEVEL)];

/// Input pins and their delays to output pin `out` of a combinational
/// cell; `None` for a start point (sequential or unknown cell).
fn arcs(kind: Kind, out: &str) -> Option<&'static [(&'static str, u32)]> {
    match (kind, out) {
        (Kind::Lut4, _) => Some(&LUT4_ARCS),
        (Kind::Pfumx, _) => Some(&PFUMX_ARCS),
        (Kind::L6mux21, _) => Some(&L6MUX21_ARCS),
        (Kind::Ccu2c, "COUT") => Some(&CCU2C_COUT_ARCS),
        (Kind::Ccu2c, "S0") => Some(&CCU2C_S0_ARCS),
        (Kind::Ccu2c, "S1") => Some(&CCU2C_S1_ARCS),
        (Kind::Dpr16x4, "DO") => Some(&DPR16X4_READ_ARCS),
        _ => None,
    }
}

/// Clock pins: never endpoints.
const CLOCK_PINS: [&str; 4] = ["CLK", "CLKA", "CLKB", "WCK"];

struct Pin {
    name: String,
    input: bool,
    /// Dense signal indices; `None` for a constant (`"0"`, `"1"`, `"x"`).
    bits: Vec<Option<usize>>,
}

struct Cell {
    name: String,
    kind: Kind,
    pins: Vec<Pin>,
}

/// One module of a Yosys JSON netlist, as a graph of signal bits.
pub struct Netlist {
    module: String,
    cells: Vec<Cell>,
    /// Net names, indexed by `names`.
    netnames: Vec<String>,
    /// Per signal: (index in `netnames`, bit of that net).
    names: Vec<Option<(usize, usize)>>,
    /// Per signal: (cell, pin) driving it.
    drivers: Vec<Option<(usize, usize)>>,
}

impl Netlist {
    /// Reads module `module` of a Yosys JSON netlist (`write_json`), or the
    /// module with the most cells when `module` is `None` (the flattened
    /// top of a synthesized design).
    pub fn from_json(text: &str, module: Option<&str>) -> Result<Netlist, String> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| format!("not a JSON netlist: {e}"))?;
        Netlist::from_value(&value, module)
    }

    /// [`Netlist::from_json`] on a parsed document.
    pub fn from_value(value: &Value, module: Option<&str>) -> Result<Netlist, String> {
        let modules = value
            .get("modules")
            .and_then(Value::as_object)
            .ok_or("netlist has no \"modules\" object")?;
        let cell_count = |m: &Value| {
            m.get("cells")
                .and_then(Value::as_object)
                .map_or(0, |c| c.len())
        };
        let (name, m) = match module {
            Some(name) => (
                name,
                modules
                    .get(name)
                    .ok_or_else(|| format!("netlist has no module {name}"))?,
            ),
            None => modules
                .iter()
                .max_by_key(|(_, m)| cell_count(m))
                .map(|(n, m)| (n.as_str(), m))
                .ok_or("netlist has no module")?,
        };
        let mut ids: HashMap<u64, usize> = HashMap::new();
        let mut intern = |b: &Value| -> Option<usize> {
            let b = b.as_u64()?;
            let next = ids.len();
            Some(*ids.entry(b).or_insert(next))
        };
        let mut cells = Vec::new();
        if let Some(map) = m.get("cells").and_then(Value::as_object) {
            for (cell_name, c) in map {
                let kind = Kind::of(c.get("type").and_then(Value::as_str).unwrap_or(""));
                let directions = c.get("port_directions").and_then(Value::as_object);
                let mut pins = Vec::new();
                if let Some(conns) = c.get("connections").and_then(Value::as_object) {
                    for (pin, bits) in conns {
                        let direction = directions
                            .and_then(|d| d.get(pin))
                            .and_then(Value::as_str)
                            .unwrap_or("");
                        let bits: Vec<Option<usize>> = bits
                            .as_array()
                            .map(|a| a.iter().map(&mut intern).collect())
                            .unwrap_or_default();
                        pins.push((pin.clone(), direction.to_string(), bits));
                    }
                }
                cells.push((cell_name.clone(), kind, pins));
            }
        }
        let mut netnames = Vec::new();
        let mut named: Vec<(usize, usize, usize)> = Vec::new();
        if let Some(map) = m.get("netnames").and_then(Value::as_object) {
            for (net, d) in map {
                let index = netnames.len();
                netnames.push(net.clone());
                if let Some(bits) = d.get("bits").and_then(Value::as_array) {
                    for (i, b) in bits.iter().enumerate() {
                        if let Some(id) = intern(b) {
                            named.push((id, index, i));
                        }
                    }
                }
            }
        }
        let signals = ids.len();
        // A signal is shown by its first name (in name order), or by the
        // first name Yosys did not generate (`$...`) if it has one.
        let mut names: Vec<Option<(usize, usize)>> = vec![None; signals];
        for (id, index, i) in named {
            let replace = match names[id] {
                None => true,
                Some((old, _)) => {
                    netnames[old].starts_with('$') && !netnames[index].starts_with('$')
                }
            };
            if replace {
                names[id] = Some((index, i));
            }
        }
        let mut drivers = vec![None; signals];
        let cells: Vec<Cell> = cells
            .into_iter()
            .enumerate()
            .map(|(ci, (name, kind, pins))| {
                let pins = pins
                    .into_iter()
                    .enumerate()
                    .map(|(pi, (pin, direction, bits))| {
                        if direction == "output" {
                            for b in bits.iter().flatten() {
                                drivers[*b] = Some((ci, pi));
                            }
                        }
                        Pin {
                            name: pin,
                            input: direction == "input",
                            bits,
                        }
                    })
                    .collect();
                Cell { name, kind, pins }
            })
            .collect();
        Ok(Netlist {
            module: name.to_string(),
            cells,
            netnames,
            names,
            drivers,
        })
    }

    /// `net[bit]` of a signal, or `None` if no net names it.
    fn name(&self, signal: usize) -> Option<String> {
        self.names[signal].map(|(n, i)| format!("{}[{i}]", self.netnames[n]))
    }
}

/// Arrival of one signal, while the walk runs.
#[derive(Clone, Copy)]
enum Arrival {
    Unseen,
    /// On the walk's stack: meeting it again is a combinational loop.
    Open,
    /// Levels in tenths, and the input signal the deepest path came from.
    Done(u32, Option<usize>),
}

/// A signal being resolved: its inputs (signal, delay) and the best so far.
struct Frame {
    signal: usize,
    inputs: Vec<(usize, u32)>,
    next: usize,
    best: u32,
    from: Option<usize>,
}

/// Longest-path arrivals, computed on demand with memoisation.
struct Walker<'a> {
    net: &'a Netlist,
    arrival: Vec<Arrival>,
    loops: usize,
}

impl<'a> Walker<'a> {
    fn new(net: &'a Netlist) -> Walker<'a> {
        Walker {
            net,
            arrival: vec![Arrival::Unseen; net.drivers.len()],
            loops: 0,
        }
    }

    fn frame(&self, signal: usize) -> Frame {
        let mut frame = Frame {
            signal,
            inputs: Vec::new(),
            next: 0,
            best: 0,
            from: None,
        };
        let Some((ci, pi)) = self.net.drivers[signal] else {
            return frame; // a module input: level 0
        };
        let cell = &self.net.cells[ci];
        match arcs(cell.kind, &cell.pins[pi].name) {
            None => {
                if cell.kind == Kind::Ram {
                    frame.best = RAM_OUTPUT;
                }
            }
            Some(arcs) => {
                for (pin, delay) in arcs {
                    if let Some(p) = cell.pins.iter().find(|p| p.name == *pin) {
                        frame
                            .inputs
                            .extend(p.bits.iter().flatten().map(|&b| (b, *delay)));
                    }
                }
            }
        }
        frame
    }

    /// (tenths, previous signal) of `signal`.
    fn resolve(&mut self, signal: usize) -> (u32, Option<usize>) {
        if let Arrival::Done(t, from) = self.arrival[signal] {
            return (t, from);
        }
        self.arrival[signal] = Arrival::Open;
        let mut stack = vec![self.frame(signal)];
        while let Some(top) = stack.last_mut() {
            if let Some(&(input, delay)) = top.inputs.get(top.next) {
                let at = match self.arrival[input] {
                    Arrival::Done(t, _) => t,
                    Arrival::Open => {
                        self.loops += 1;
                        0
                    }
                    Arrival::Unseen => {
                        self.arrival[input] = Arrival::Open;
                        let child = self.frame(input);
                        stack.push(child);
                        continue;
                    }
                };
                // Strictly deeper: on a tie the first input listed wins.
                if at + delay > top.best {
                    top.best = at + delay;
                    top.from = Some(input);
                }
                top.next += 1;
            } else {
                self.arrival[top.signal] = Arrival::Done(top.best, top.from);
                stack.pop();
            }
        }
        match self.arrival[signal] {
            Arrival::Done(t, from) => (t, from),
            _ => unreachable!("the walk resolves its root"),
        }
    }

    /// The signals of the deepest path into `signal`, start first.
    fn path(&mut self, signal: usize) -> Vec<usize> {
        let mut path = vec![signal];
        let mut seen = std::collections::HashSet::from([signal]);
        let mut at = signal;
        while let (_, Some(from)) = self.resolve(at) {
            // A loop cut can leave the back pointers in a ring.
            if !seen.insert(from) {
                break;
            }
            path.push(from);
            at = from;
        }
        path.reverse();
        path
    }
}

/// Cuts `name` at the first of `patterns` (a trailing `#` in a pattern
/// stands for one decimal digit).
fn cut_at<'a>(name: &'a str, patterns: &[&str]) -> &'a str {
    let bytes = name.as_bytes();
    for i in 0..bytes.len() {
        for p in patterns {
            let (literal, digit) = match p.strip_suffix('#') {
                Some(l) => (l, true),
                None => (*p, false),
            };
            let rest = &bytes[i..];
            if rest.starts_with(literal.as_bytes())
                && (!digit || rest.get(literal.len()).is_some_and(|c| c.is_ascii_digit()))
            {
                return &name[..i];
            }
        }
    }
    name
}

/// The register a flip-flop or RAM cell belongs to: Yosys names the cells of
/// a register vector `<reg>$q_TRELLIS_FF_Q_<n>` or `<reg>.q_TRELLIS_FF_Q_<n>`
/// and the RAM outputs `..._DOA<n>`, so a vector counts once.
pub fn register_of(cell: &str) -> &str {
    cut_at(cell, &["_TRELLIS", "$q", ".q_", "_DOA", "_DOB"])
}

/// The endpoint group of a flip-flop or RAM cell: its register
/// ([`register_of`]) with the index of an array element (`$<n>`, the
/// registers rust-hdl makes of an array of `DFF`s) replaced by `$*`, so
/// the 64 slots of one table count once.
pub fn group_of(cell: &str) -> String {
    let register = register_of(cell);
    let mut out = String::with_capacity(register.len());
    let mut rest = register;
    while let Some(at) = rest.find('$') {
        out += &rest[..=at];
        rest = &rest[at + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let ends = matches!(rest.as_bytes().get(digits), None | Some(b'.') | Some(b'$'));
        if digits > 0 && ends {
            out.push('*');
            rest = &rest[digits..];
        }
    }
    out + rest
}

/// The memory a block-RAM cell is a tile of: Yosys names the tiles of
/// memory `m` `m.<row>.<column>`.
pub fn memory_of(cell: &str) -> &str {
    let mut name = cell;
    for _ in 0..2 {
        match name.rsplit_once('.') {
            Some((head, tail)) if !tail.is_empty() && tail.bytes().all(|c| c.is_ascii_digit()) => {
                name = head
            }
            _ => break,
        }
    }
    name
}

/// The memory of tile name `<memory>.<row>.<column>`.
fn memory_tile(name: &str) -> Option<&str> {
    let number = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    let (head, column) = name.rsplit_once('.')?;
    let (memory, row) = head.rsplit_once('.')?;
    (number(column) && number(row)).then_some(memory)
}

/// A register Yosys added at a block-RAM tile (named after the tile's
/// input it drives, `<memory>.<row>.<column>_<PIN>`, or after the tile):
/// (memory, the tile pin).
pub fn memory_register(register: &str) -> Option<(&str, Option<&str>)> {
    let is_pin = |p: &str| {
        p.starts_with(|c: char| c.is_ascii_uppercase())
            && p.bytes()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    };
    if let Some((tile, pin)) = register.rsplit_once('_') {
        if let Some(memory) = memory_tile(tile).filter(|_| is_pin(pin)) {
            return Some((memory, Some(pin)));
        }
    }
    memory_tile(register).map(|m| (m, None))
}

/// Block of memory `memory` (`core.<instances>.<ram>.mem`): rust-hdl makes
/// each `RAM` an instance holding the array `mem`, and a RAM belongs to the
/// block that holds it, as a register does.
fn memory_block(memory: &str, core_top: &str) -> String {
    let Some(rest) = memory.trim_start_matches('\\').strip_prefix("core.") else {
        return "wrapper".to_string();
    };
    let path: Vec<&str> = rest.split('.').collect();
    match path.len() {
        0..=2 => core_top.to_string(),
        _ => path[0].split('$').next().unwrap_or(path[0]).to_string(),
    }
}

/// A net or cell name without the suffixes Yosys and ABC append when they
/// map logic (`_LUT4_Z_...`, `_PFUMX_...`, `$q_TRELLIS_FF_Q_DI`, ...).
pub fn short_name(name: &str) -> &str {
    cut_at(
        name,
        &[
            "_TRELLIS", "_LUT4", "_PFUMX", "_L6MUX", "_CCU2C", "_DOA#", "_DOB#", "$q", ".q_",
        ],
    )
}

/// One endpoint group: a register (vector) or RAM input pin.
#[derive(Clone, Debug, PartialEq)]
pub struct Endpoint {
    /// Levels of its deepest bit, in tenths.
    pub tenths: u32,
    /// `<register>.<pin>` of its deepest bit, e.g. `core.tlb.s2_hit.DI`, with
    /// `$*` for the elements of a register array ([`group_of`]).
    pub name: String,
    /// The core's submodule instance it lies in (`tlb`, `mr`, `walker`,
    /// ...), the core's own logic (the core's module name), or `wrapper`.
    /// A capture flip-flop of the Fmax wrapper is placed in the block of the
    /// core logic that feeds it.
    pub block: String,
    /// Named registers and nets of its deepest path, start to end.
    pub chain: Vec<String>,
    /// Endpoint bits of the group (every input pin of every bit of the
    /// register, or of every element of the array).
    pub bits: usize,
    /// Of those, how many are above [`LIMIT_LEVELS`].
    pub bits_above_limit: usize,
}

impl Endpoint {
    /// Levels of the deepest bit.
    pub fn levels(&self) -> f64 {
        f64::from(self.tenths) / f64::from(TENTHS_PER_LEVEL)
    }
}

/// The depth report of one netlist.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthReport {
    /// The netlist module analysed (`<top>_fmax_wrap`).
    pub module: String,
    /// Whole levels (rounded down) -> endpoint bits.
    pub histogram: BTreeMap<u32, usize>,
    /// Endpoint bits in all.
    pub endpoint_bits: usize,
    /// Endpoint groups, deepest first.
    pub endpoints: Vec<Endpoint>,
    /// Combinational loop edges cut by the walk (0 in a sound netlist).
    pub loops: usize,
}

impl DepthReport {
    /// (endpoint bits, endpoint groups) above [`LIMIT_LEVELS`].
    pub fn above_limit(&self) -> (usize, usize) {
        let bits = self.endpoints.iter().map(|e| e.bits_above_limit).sum();
        let groups = self
            .endpoints
            .iter()
            .filter(|e| e.tenths > LIMIT_LEVELS * TENTHS_PER_LEVEL)
            .count();
        (bits, groups)
    }

    /// Levels of the deepest endpoint.
    pub fn max_levels(&self) -> f64 {
        self.endpoints.first().map_or(0.0, Endpoint::levels)
    }

    /// The console report: histogram, count above the limit, the `top`
    /// deepest endpoint groups.
    pub fn text(&self, top: usize) -> String {
        let mut out = format!(
            "logic depth of {} (LUT4 1 level, PFUMX/L6MUX21 data 0.3, CCU2C carry 0.1, DP16KD output 4, distributed-RAM read 1)\n",
            self.module
        );
        out += "levels  endpoint bits\n";
        for (levels, count) in self.histogram.iter().rev() {
            out += &format!("{levels:>6}  {count:>13}\n");
        }
        let (bits, groups) = self.above_limit();
        out += &format!(
            "above {LIMIT_LEVELS} levels: {bits} endpoint bits in {groups} groups (about 1 ns a level: 125 MHz wants at most {LIMIT_LEVELS})\n"
        );
        if self.loops > 0 {
            out += &format!(
                "warning: {} combinational loop edges cut (the looping signal counts as a start)\n",
                self.loops
            );
        }
        out += &format!(
            "deepest {} of {} endpoint groups (levels [block] endpoint (bits): path start -> end):\n",
            top.min(self.endpoints.len()),
            self.endpoints.len()
        );
        for e in self.endpoints.iter().take(top) {
            out += &format!(
                "{:5.1} [{}] {} ({}): {}\n",
                e.levels(),
                e.block,
                e.name,
                e.bits,
                e.chain.join(" -> ")
            );
        }
        out
    }

    /// The JSON report (`build/depth/<top>.json`).
    pub fn to_json(&self) -> Value {
        let (bits, groups) = self.above_limit();
        json!({
            "module": self.module,
            "delay_model": {
                "LUT4": 1.0,
                "PFUMX/L6MUX21 data": 0.3,
                "PFUMX/L6MUX21 select": 1.0,
                "CCU2C CIN to COUT": 0.1,
                "CCU2C other": 1.0,
                "DP16KD output": 4.0,
                "TRELLIS_DPR16X4 read address to output": 1.0,
            },
            "limit_levels": LIMIT_LEVELS,
            "endpoint_bits": self.endpoint_bits,
            "above_limit": { "bits": bits, "groups": groups },
            "combinational_loops_cut": self.loops,
            "histogram": self
                .histogram
                .iter()
                .rev()
                .map(|(levels, count)| json!({ "levels": levels, "endpoint_bits": count }))
                .collect::<Vec<_>>(),
            "endpoints": self
                .endpoints
                .iter()
                .map(|e| json!({
                    "levels": e.levels(),
                    "endpoint": e.name,
                    "block": e.block,
                    "bits": e.bits,
                    "bits_above_limit": e.bits_above_limit,
                    "chain": e.chain,
                }))
                .collect::<Vec<_>>(),
        })
    }
}

/// Block of a cell or net name of the wrapped netlist of core `core_top`
/// (see [`Endpoint::block`]); `None` for a name Yosys generated.
fn block(name: &str, core_top: &str) -> Option<String> {
    flow::block_of(name, core_top)
}

/// Analyses `net`, whose core (the module inside the Fmax wrapper, named
/// `core.` in the netlist) is `core_top`.
pub fn analyse(net: &Netlist, core_top: &str) -> DepthReport {
    let mut walker = Walker::new(net);
    // (tenths, signal, cell, pin) of every endpoint bit.
    let mut ends: Vec<(u32, usize, usize, usize)> = Vec::new();
    for (ci, cell) in net.cells.iter().enumerate() {
        if !matches!(cell.kind, Kind::Ff | Kind::Ram | Kind::Dpr16x4) {
            continue;
        }
        for (pi, pin) in cell.pins.iter().enumerate() {
            let name = pin.name.as_str();
            // A distributed RAM's read address is combinational (an arc).
            let read = cell.kind == Kind::Dpr16x4 && name == "RAD";
            if !pin.input || CLOCK_PINS.contains(&name) || read {
                continue;
            }
            for &b in pin.bits.iter().flatten() {
                let (t, _) = walker.resolve(b);
                ends.push((t, b, ci, pi));
            }
        }
    }
    // Deepest first; a stable sort keeps netlist order among equals.
    ends.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut histogram = BTreeMap::new();
    for (t, ..) in &ends {
        *histogram.entry(t / TENTHS_PER_LEVEL).or_insert(0) += 1;
    }
    let mut groups: HashMap<String, usize> = HashMap::new();
    let mut endpoints: Vec<Endpoint> = Vec::new();
    for &(t, b, ci, pi) in &ends {
        let cell = &net.cells[ci];
        let pin = cell.pins[pi].name.as_str();
        let above = usize::from(t > LIMIT_LEVELS * TENTHS_PER_LEVEL);
        // (group, is a memory, pin shown): a RAM's tiles, and the registers
        // Yosys put at its inputs, are one memory.
        let (group, memory, shown) = match cell.kind {
            Kind::Ram | Kind::Dpr16x4 => (memory_of(&cell.name).to_string(), true, pin),
            _ => match memory_register(register_of(&cell.name)) {
                Some((m, tile_pin)) => (m.to_string(), true, tile_pin.unwrap_or(pin)),
                None => (group_of(&cell.name), false, pin),
            },
        };
        if let Some(&g) = groups.get(&group) {
            endpoints[g].bits += 1;
            endpoints[g].bits_above_limit += above;
            continue;
        }
        groups.insert(group.clone(), endpoints.len());
        let mut chain: Vec<String> = Vec::new();
        for s in walker.path(b) {
            let Some(name) = net.name(s) else { continue };
            let short = short_name(&name);
            if short.starts_with('$') || chain.last().is_some_and(|l| l == short) {
                continue;
            }
            chain.push(short.to_string());
        }
        let own = if memory {
            Some(memory_block(&group, core_top))
        } else {
            block(&cell.name, core_top)
        };
        let block = match own.as_deref() {
            Some(b) if b != "wrapper" => b.to_string(),
            _ => chain
                .iter()
                .rev()
                .filter_map(|n| block(n, core_top))
                .find(|b| b != "wrapper")
                .or(own)
                .unwrap_or_else(|| "wrapper".to_string()),
        };
        endpoints.push(Endpoint {
            tenths: t,
            name: format!("{}.{shown}", short_name(&group)),
            block,
            chain,
            bits: 1,
            bits_above_limit: above,
        });
    }
    DepthReport {
        module: net.module.clone(),
        histogram,
        endpoint_bits: ends.len(),
        endpoints,
        loops: walker.loops,
    }
}

/// Reads the netlist file `path` (module `module`, or the largest) and
/// analyses it for core `core_top`.
pub fn analyse_file(
    path: &Path,
    module: Option<&str>,
    core_top: &str,
) -> Result<DepthReport, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let net = Netlist::from_json(&text, module).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(analyse(&net, core_top))
}

/// Writes [`DepthReport::to_json`] to `path`.
pub fn write_json(report: &DepthReport, path: &Path) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(&report.to_json())
        .map_err(|e| format!("cannot format the depth report: {e}"))?;
    std::fs::write(path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Where `depth` writes the report of core `top`: `build/depth/<top>.json`.
pub fn report_path(top: &str) -> PathBuf {
    tools::build_dir().join("depth").join(format!("{top}.json"))
}

/// The `depth` command: synthesizes `top` from `verilog` as `pnr` does
/// ([`flow::synth_wrapped`], in `build/pnr/<top>/`), analyses the netlist and
/// writes the report to [`report_path`]. `ports` are those of `top`, from
/// its rust-hdl block ([`crate::harness::rhdl::ports`]). Returns the report
/// and that path.
pub fn run(
    verilog: &Path,
    top: &str,
    ports: &[Port],
    clock_port: &str,
) -> Result<(DepthReport, PathBuf), String> {
    run_in(
        verilog,
        top,
        ports,
        clock_port,
        &tools::build_dir().join("pnr").join(top),
        &report_path(top),
    )
}

/// [`run`] with the synthesis in `dir` and the report written to `out`.
fn run_in(
    verilog: &Path,
    top: &str,
    ports: &[Port],
    clock_port: &str,
    dir: &Path,
    out: &Path,
) -> Result<(DepthReport, PathBuf), String> {
    let json = flow::synth_wrapped_in(verilog, top, ports, clock_port, dir)?;
    let report = analyse_file(&json, Some(&format!("{top}_fmax_wrap")), top)?;
    write_json(&report, out)?;
    Ok((report, out.to_path_buf()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-written netlist: module `t` of `"t"`'s cells and nets.
    #[derive(Default)]
    struct Builder {
        cells: serde_json::Map<String, Value>,
        nets: serde_json::Map<String, Value>,
    }

    fn bits(signals: &[u64]) -> Value {
        Value::from(signals.to_vec())
    }

    impl Builder {
        /// Cell `name` of `ty`; `pins` are (pin, is output, bits).
        fn cell(&mut self, name: &str, ty: &str, pins: &[(&str, bool, Value)]) {
            let mut directions = serde_json::Map::new();
            let mut connections = serde_json::Map::new();
            for (pin, output, b) in pins {
                let d = if *output { "output" } else { "input" };
                directions.insert(pin.to_string(), Value::from(d));
                connections.insert(pin.to_string(), b.clone());
            }
            self.cells.insert(
                name.to_string(),
                json!({ "type": ty, "port_directions": directions, "connections": connections }),
            );
        }

        /// A flip-flop `name` (clock on signal 1) from `d` to `q`.
        fn ff(&mut self, name: &str, d: u64, q: u64) {
            self.cell(
                name,
                "TRELLIS_FF",
                &[
                    ("CLK", false, bits(&[1])),
                    ("DI", false, bits(&[d])),
                    ("LSR", false, json!(["0"])),
                    ("Q", true, bits(&[q])),
                ],
            );
        }

        /// A LUT4 `name` with inputs `ins` (unused ones tied to 0) and output `z`.
        fn lut(&mut self, name: &str, ins: &[u64], z: u64) {
            let mut pins: Vec<(&str, bool, Value)> = Vec::new();
            for (i, pin) in ["A", "B", "C", "D"].into_iter().enumerate() {
                let b = ins.get(i).map_or(json!(["0"]), |&s| bits(&[s]));
                pins.push((pin, false, b));
            }
            pins.push(("Z", true, bits(&[z])));
            self.cell(name, "LUT4", &pins);
        }

        fn net(&mut self, name: &str, signals: &[u64]) {
            self.nets
                .insert(name.to_string(), json!({ "hide_name": 0, "bits": signals }));
        }

        fn report(self, core_top: &str) -> DepthReport {
            let doc = json!({ "modules": { "t": {
                "ports": {}, "cells": self.cells, "netnames": self.nets } } });
            let net = Netlist::from_json(&doc.to_string(), None).unwrap();
            analyse(&net, core_top)
        }
    }

    fn endpoint<'a>(r: &'a DepthReport, name: &str) -> &'a Endpoint {
        r.endpoints
            .iter()
            .find(|e| e.name == name)
            .unwrap_or_else(|| panic!("no endpoint {name} in {:#?}", r.endpoints))
    }

    #[test]
    fn lut_chain_counts_one_level_per_lut_and_names_its_registers() {
        let mut b = Builder::default();
        b.ff("core.a$q_TRELLIS_FF_Q", 100, 2);
        b.lut("core.n1_LUT4_Z", &[2], 3);
        b.lut("core.n2_LUT4_Z", &[3], 4);
        b.lut("core.n3_LUT4_Z", &[4], 5);
        b.ff("core.b$q_TRELLIS_FF_Q", 5, 6);
        b.net("core.a$q", &[2]);
        b.net("core.n1", &[3]);
        b.net("core.n2_LUT4_Z_A", &[4]);
        b.net("$abc$42$new_n7", &[5]);
        b.net("core.b$q_TRELLIS_FF_Q_DI", &[5]);
        let r = b.report("t");
        let e = endpoint(&r, "core.b.DI");
        assert_eq!(e.tenths, 30);
        assert_eq!(e.levels(), 3.0);
        assert_eq!(e.chain, ["core.a", "core.n1[0]", "core.n2", "core.b"]);
        assert_eq!(e.block, "t");
        // core.a's input (signal 100) comes from no cell: a module input.
        assert_eq!(endpoint(&r, "core.a.DI").tenths, 0);
        assert_eq!(r.loops, 0);
    }

    #[test]
    fn mux_data_inputs_count_0_3_and_selects_1() {
        let mut b = Builder::default();
        b.ff("core.s$q_TRELLIS_FF_Q", 100, 2);
        b.lut("core.l1_LUT4_Z", &[2], 3);
        b.lut("core.l2_LUT4_Z", &[3], 4);
        // Data from 2 levels, select from a register: 2 + 0.3.
        b.cell(
            "core.m1_PFUMX_Z",
            "PFUMX",
            &[
                ("ALUT", false, bits(&[4])),
                ("BLUT", false, bits(&[2])),
                ("C0", false, bits(&[2])),
                ("Z", true, bits(&[5])),
            ],
        );
        b.ff("core.x$q_TRELLIS_FF_Q", 5, 6);
        // Select from 2 levels, data from a register: 2 + 1.
        b.cell(
            "core.m2_L6MUX21_Z",
            "L6MUX21",
            &[
                ("D0", false, bits(&[2])),
                ("D1", false, bits(&[2])),
                ("SD", false, bits(&[4])),
                ("Z", true, bits(&[7])),
            ],
        );
        b.ff("core.y$q_TRELLIS_FF_Q", 7, 8);
        // Mux into mux: 2 + 0.3 + 0.3.
        b.cell(
            "core.m3_L6MUX21_Z",
            "L6MUX21",
            &[
                ("D0", false, bits(&[5])),
                ("D1", false, bits(&[2])),
                ("SD", false, bits(&[2])),
                ("Z", true, bits(&[9])),
            ],
        );
        b.ff("core.z$q_TRELLIS_FF_Q", 9, 10);
        let r = b.report("t");
        assert_eq!(endpoint(&r, "core.x.DI").tenths, 23);
        assert_eq!(endpoint(&r, "core.y.DI").tenths, 30);
        assert_eq!(endpoint(&r, "core.z.DI").tenths, 26);
    }

    #[test]
    fn carry_chain_counts_0_1_per_cell_and_1_to_a_sum() {
        let mut b = Builder::default();
        b.ff("core.a$q_TRELLIS_FF_Q", 100, 2);
        b.lut("core.cin_LUT4_Z", &[2], 3);
        // Ten CCU2C cells, CIN of each from COUT of the one before (signals
        // 10.., COUT k on 10 + k), operands straight from the register.
        for k in 0..10u64 {
            let cin = if k == 0 { 3 } else { 10 + k - 1 };
            b.cell(
                &format!("core.sum_CCU2C_{k}"),
                "CCU2C",
                &[
                    ("A0", false, bits(&[2])),
                    ("B0", false, json!(["1"])),
                    ("A1", false, bits(&[2])),
                    ("CIN", false, bits(&[cin])),
                    ("COUT", true, bits(&[10 + k])),
                    ("S0", true, bits(&[40 + k])),
                    ("S1", true, bits(&[60 + k])),
                ],
            );
        }
        b.ff("core.carry$q_TRELLIS_FF_Q", 19, 20);
        b.ff("core.lo$q_TRELLIS_FF_Q", 49, 21);
        b.ff("core.hi$q_TRELLIS_FF_Q", 69, 22);
        b.ff("core.first$q_TRELLIS_FF_Q", 40, 23);
        let r = b.report("t");
        // LUT 1, then 0.1 per carry hop: COUT 9 = 1 + 10 x 0.1.
        assert_eq!(endpoint(&r, "core.carry.DI").tenths, 20);
        // A sum is 1 after its CIN (COUT 8 = 1.9).
        assert_eq!(endpoint(&r, "core.lo.DI").tenths, 29);
        assert_eq!(endpoint(&r, "core.hi.DI").tenths, 29);
        assert_eq!(endpoint(&r, "core.first.DI").tenths, 20);
    }

    #[test]
    fn a_carry_chain_fifty_thousand_cells_deep_does_not_overflow_the_stack() {
        const CELLS: u64 = 50_000;
        let mut b = Builder::default();
        for k in 0..CELLS {
            let cin = if k == 0 {
                json!(["0"])
            } else {
                bits(&[10 + k - 1])
            };
            b.cell(
                &format!("core.c_CCU2C_{k}"),
                "CCU2C",
                &[
                    ("A0", false, bits(&[2])),
                    ("CIN", false, cin),
                    ("COUT", true, bits(&[10 + k])),
                ],
            );
        }
        b.lut("core.l_LUT4_Z", &[], 2);
        b.ff("core.end$q_TRELLIS_FF_Q", 10 + CELLS - 1, 3);
        b.net("core.end_CCU2C_COUT", &[10 + CELLS - 1]);
        // The test thread's stack is 2 MiB: a recursive walk would need
        // far more for a path of 50 000 signals.
        let r = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || b.report("t"))
            .unwrap()
            .join()
            .unwrap();
        let e = endpoint(&r, "core.end.DI");
        // The first cell's A0 (a LUT with no inputs: level 0) + 1, then
        // 0.1 for each of the other 49 999 hops.
        assert_eq!(e.tenths, 10 + (CELLS as u32 - 1));
        assert_eq!(e.chain, ["core.end"]);
    }

    #[test]
    fn block_ram_output_starts_at_4_and_its_inputs_are_endpoints() {
        let mut b = Builder::default();
        b.cell(
            "core.tlb.tags.mem.0.0",
            "DP16KD",
            &[
                ("CLKA", false, bits(&[1])),
                ("ADA0", false, bits(&[3])),
                ("DIA0", false, bits(&[2])),
                ("DOA0", true, bits(&[4])),
            ],
        );
        b.cell(
            "core.tlb.tags.mem.0.1",
            "DP16KD",
            &[
                ("CLKA", false, bits(&[1])),
                ("ADA0", false, bits(&[2])),
                ("DOA0", true, bits(&[7])),
            ],
        );
        b.ff("core.tlb.a$q_TRELLIS_FF_Q", 100, 2);
        b.lut("core.tlb.addr_LUT4_Z", &[2], 3);
        b.lut("core.tlb.hit_LUT4_Z", &[4], 5);
        b.ff("core.tlb.hit$q_TRELLIS_FF_Q", 5, 6);
        // A register Yosys put at a tile's input is part of the memory.
        b.lut("core.tlb.wd_LUT4_Z", &[3], 30);
        b.ff("core.tlb.tags.mem.0.1_DIA3_TRELLIS_FF_Q", 30, 31);
        b.net("core.tlb.tags.mem.0.0_DOA0", &[4]);
        b.net("core.tlb.hit$q_TRELLIS_FF_Q_DI", &[5]);
        let r = b.report("translator");
        assert_eq!(endpoint(&r, "core.tlb.hit.DI").tenths, 50);
        assert_eq!(
            endpoint(&r, "core.tlb.hit.DI").chain,
            ["core.tlb.tags.mem.0.0", "core.tlb.hit"]
        );
        // Both tiles and the register at DIA3 of tile 1 are one memory; its
        // deepest input is that register's (two LUTs); the clocks are no
        // endpoints: 4 input bits in all.
        let ram = endpoint(&r, "core.tlb.tags.mem.DIA3");
        assert_eq!(ram.tenths, 20);
        assert_eq!(ram.bits, 4);
        // A RAM belongs to the block holding the rust-hdl RAM instance.
        assert_eq!(ram.block, "tlb");
        assert_eq!(memory_block("core.payload.mem", "translator"), "translator");
    }

    #[test]
    fn distributed_ram_reads_through_its_address_and_is_written_on_the_clock() {
        let mut b = Builder::default();
        b.ff("core.mr.idx$q_TRELLIS_FF_Q", 100, 2);
        b.lut("core.mr.addr_LUT4_Z", &[2], 3);
        b.cell(
            "core.mr.base.mem.0.0",
            "TRELLIS_DPR16X4",
            &[
                ("DI", false, bits(&[2, 2, 2, 2])),
                ("RAD", false, bits(&[3, 2, 2, 2])),
                ("WAD", false, bits(&[3, 3, 3, 3])),
                ("WCK", false, bits(&[1])),
                ("WRE", false, bits(&[2])),
                ("DO", true, bits(&[4, 5, 6, 7])),
            ],
        );
        b.lut("core.mr.sel_LUT4_Z", &[7], 8);
        b.ff("core.mr.out$q_TRELLIS_FF_Q", 8, 9);
        let r = b.report("translator");
        // Register, LUT, RAM read, LUT.
        assert_eq!(endpoint(&r, "core.mr.out.DI").tenths, 30);
        let write = endpoint(&r, "core.mr.base.mem.WAD");
        // DI, WAD and WRE are endpoints, the write clock is not.
        assert_eq!((write.tenths, write.bits), (10, 9));
        assert_eq!(write.block, "mr");
    }

    #[test]
    fn reconvergent_fan_in_takes_the_longer_branch() {
        let mut b = Builder::default();
        b.ff("core.a$q_TRELLIS_FF_Q", 100, 2);
        b.lut("core.x_LUT4_Z", &[2], 3);
        // Short branch first, so the long one must win on depth, not order.
        b.lut("core.y1_LUT4_Z", &[3], 4);
        b.lut("core.y2_LUT4_Z", &[4], 5);
        b.lut("core.z_LUT4_Z", &[3, 5, 3, 2], 6);
        b.lut("core.w_LUT4_Z", &[6, 3, 6, 4], 7);
        b.ff("core.z$q_TRELLIS_FF_Q", 6, 8);
        b.ff("core.w$q_TRELLIS_FF_Q", 7, 9);
        for (name, s) in [
            ("core.x", 3),
            ("core.y1", 4),
            ("core.y2", 5),
            ("core.zz", 6),
        ] {
            b.net(name, &[s]);
        }
        let r = b.report("t");
        let z = endpoint(&r, "core.z.DI");
        assert_eq!(z.tenths, 40);
        assert_eq!(
            z.chain,
            ["core.x[0]", "core.y1[0]", "core.y2[0]", "core.zz[0]"]
        );
        assert_eq!(endpoint(&r, "core.w.DI").tenths, 50);
        assert_eq!(r.loops, 0);
    }

    #[test]
    fn a_combinational_loop_is_cut_and_counted() {
        let mut b = Builder::default();
        b.ff("core.a$q_TRELLIS_FF_Q", 100, 2);
        b.lut("core.p_LUT4_Z", &[2, 4], 3);
        b.lut("core.q_LUT4_Z", &[3], 4);
        b.ff("core.b$q_TRELLIS_FF_Q", 4, 5);
        let r = b.report("t");
        assert!(r.loops > 0);
        assert_eq!(endpoint(&r, "core.b.DI").tenths, 20);
    }

    #[test]
    fn histogram_counts_bits_by_whole_levels_and_the_limit_is_strict() {
        let mut b = Builder::default();
        b.ff("core.s$q_TRELLIS_FF_Q", 100, 2);
        // A chain of 8 LUTs on signals 2 -> 3 -> ... -> 10.
        for k in 0..8u64 {
            b.lut(&format!("core.c{k}_LUT4_Z"), &[2 + k], 3 + k);
        }
        // Endpoints at 0, 1, 1, 7, 8 levels and 2.3 (a mux after 2).
        b.ff("core.e0$q_TRELLIS_FF_Q", 2, 20);
        b.ff("core.e1$q_TRELLIS_FF_Q", 3, 21);
        b.ff("core.e1b$q_TRELLIS_FF_Q", 3, 22);
        b.ff("core.e7$q_TRELLIS_FF_Q", 9, 23);
        b.ff("core.e8$q_TRELLIS_FF_Q", 10, 24);
        b.cell(
            "core.m_PFUMX_Z",
            "PFUMX",
            &[("ALUT", false, bits(&[4])), ("Z", true, bits(&[30]))],
        );
        b.ff("core.e2$q_TRELLIS_FF_Q", 30, 25);
        let r = b.report("t");
        // core.s.DI (a module input) is at 0 too.
        let expected: BTreeMap<u32, usize> = [(0, 2), (1, 2), (2, 1), (7, 1), (8, 1)].into();
        assert_eq!(r.histogram, expected);
        assert_eq!(r.endpoint_bits, 7);
        // Exactly 7 levels is within the limit.
        assert_eq!(r.above_limit(), (1, 1));
        assert_eq!(r.max_levels(), 8.0);
        let text = r.text(3);
        assert!(
            text.contains("above 7 levels: 1 endpoint bits in 1 groups"),
            "{text}"
        );
        assert!(text.contains("  8.0 [t] core.e8.DI (1): "), "{text}");
        let json = r.to_json();
        assert_eq!(
            json["histogram"][0],
            json!({ "levels": 8, "endpoint_bits": 1 })
        );
        assert_eq!(json["above_limit"], json!({ "bits": 1, "groups": 1 }));
        assert_eq!(json["endpoints"][0]["endpoint"], "core.e8.DI");
    }

    #[test]
    fn a_register_vector_or_array_is_one_group_in_its_block() {
        let mut b = Builder::default();
        b.ff("core.tlb.src$q_TRELLIS_FF_Q", 100, 2);
        b.lut("core.tlb.l1_LUT4_Z", &[2], 3);
        b.lut("core.tlb.l2_LUT4_Z", &[3], 4);
        // One vector, three bits at 0, 1 and 2 levels.
        b.ff("core.tlb.r$q_TRELLIS_FF_Q", 2, 10);
        b.ff("core.tlb.r$q_TRELLIS_FF_Q_1", 4, 11);
        b.ff("core.tlb.r$q_TRELLIS_FF_Q_2", 3, 12);
        // Two elements of an array of DFF instances.
        b.ff("core.walker.state$0.q_TRELLIS_FF_Q", 3, 13);
        b.ff("core.walker.state$1.q_TRELLIS_FF_Q_3", 4, 14);
        // The core's own register, and a wrapper capture fed by the TLB.
        b.ff("core.s2.q_TRELLIS_FF_Q", 3, 15);
        b.ff("out_cap_TRELLIS_FF_Q_7", 4, 16);
        b.ff("in_sr_TRELLIS_FF_Q", 100, 17);
        b.net("core.tlb.src$q", &[2]);
        b.net("core.tlb.l2", &[4]);
        let r = b.report("translator");
        let vector = endpoint(&r, "core.tlb.r.DI");
        assert_eq!((vector.tenths, vector.bits), (20, 3));
        assert_eq!(vector.block, "tlb");
        let array = endpoint(&r, "core.walker.state$*.DI");
        assert_eq!((array.tenths, array.bits), (20, 2));
        assert_eq!(array.block, "walker");
        assert_eq!(endpoint(&r, "core.s2.DI").block, "translator");
        let capture = endpoint(&r, "out_cap.DI");
        assert_eq!(capture.block, "tlb");
        assert_eq!(capture.chain, ["core.tlb.src", "core.tlb.l2[0]"]);
        assert_eq!(endpoint(&r, "in_sr.DI").block, "wrapper");
        // src, r, state, s2, out_cap, in_sr.
        assert_eq!(r.endpoints.len(), 6);
        assert_eq!(r.endpoints[0].tenths, 20);
    }

    #[test]
    fn names_lose_the_suffixes_yosys_adds() {
        assert_eq!(
            register_of("core.h_entry$11.q_TRELLIS_FF_Q_5"),
            "core.h_entry$11"
        );
        assert_eq!(register_of("core.lk_va_TRELLIS_FF_Q_63"), "core.lk_va");
        assert_eq!(
            register_of("core.x_way$0$q_TRELLIS_FF_Q_19"),
            "core.x_way$0"
        );
        assert_eq!(group_of("core.x_way$0$q_TRELLIS_FF_Q_19"), "core.x_way$*");
        assert_eq!(
            group_of("core.h_entry$11.q_TRELLIS_FF_Q_5"),
            "core.h_entry$*"
        );
        assert_eq!(group_of("core.a$b12c_TRELLIS_FF_Q"), "core.a$b12c");
        assert_eq!(
            short_name("core.s2_same.q_LUT4_A_Z_PFUMX_ALUT_Z[1]"),
            "core.s2_same"
        );
        assert_eq!(short_name("core.s1_vpn$q[8]"), "core.s1_vpn");
        assert_eq!(short_name("core.hi_pn0[0]"), "core.hi_pn0[0]");
        assert_eq!(short_name("core.m.mem.0.0_DOA12[0]"), "core.m.mem.0.0");
        assert_eq!(short_name("core.x_DOAB"), "core.x_DOAB");
        assert_eq!(memory_of("core.payload.mem.0.4"), "core.payload.mem");
        assert_eq!(memory_of("core.m"), "core.m");
        assert_eq!(
            memory_register("core.wi_off.mem.0.1_DIA10"),
            Some(("core.wi_off.mem", Some("DIA10")))
        );
        assert_eq!(
            memory_register("core.payload.mem.0.4"),
            Some(("core.payload.mem", None))
        );
        assert_eq!(memory_register("core.sl_state$3"), None);
        assert_eq!(memory_register("core.a.b_DI"), None);
    }

    #[test]
    fn a_missing_module_or_a_broken_file_is_an_error() {
        let err = Netlist::from_json("{\"modules\": {}}", Some("x_fmax_wrap")).err();
        assert_eq!(err.as_deref(), Some("netlist has no module x_fmax_wrap"));
        let err = Netlist::from_json("{\"modules\": ", None).err().unwrap();
        assert!(err.starts_with("not a JSON netlist"), "{err}");
    }

    /// Needs the tools of `synth/install-tools.sh`; fails without them.
    /// Runs the `depth` command's path (synthesis as `pnr` does it, then the
    /// analysis and the JSON report) on the MR table, the quickest block to
    /// synthesize (about 10 s; the walker takes 15).
    #[test]
    fn depth_of_the_mr_table_names_a_block_for_every_endpoint() {
        let dir = tools::build_dir().join("test-depth");
        std::fs::create_dir_all(&dir).unwrap();
        let verilog = dir.join("mr_table.v");
        use rust_hdl::prelude::Block;
        let mut uut = odp_mmu::translate::mr_table::DefaultMrTable::new();
        uut.connect_all();
        std::fs::write(&verilog, odp_mmu::verilog::generate(&uut, "mr_table")).unwrap();
        let ports = crate::harness::rhdl::ports(&uut);
        let out = dir.join("mr_table.json");
        let _ = std::fs::remove_file(&out);
        let (r, path) = run_in(
            &verilog,
            "mr_table",
            &ports,
            "clock",
            &dir.join("pnr"),
            &out,
        )
        .unwrap();
        assert_eq!(path, out);
        assert_eq!(r.module, "mr_table_fmax_wrap");
        assert_eq!(r.loops, 0);
        assert!(r.max_levels() > 0.0, "{}", r.text(10));
        assert!(r.endpoints.len() > 10, "{}", r.text(10));
        assert_eq!(r.endpoint_bits, r.histogram.values().sum::<usize>());
        assert_eq!(
            r.endpoint_bits,
            r.endpoints.iter().map(|e| e.bits).sum::<usize>()
        );
        for e in &r.endpoints {
            assert!(
                !e.block.is_empty() && e.block != "?",
                "{} has no block",
                e.name
            );
            assert!(!e.chain.is_empty(), "{} has no path", e.name);
        }
        // The table's own registers are in the report as block `mr_table`,
        // past its distributed-RAM reads.
        assert!(r
            .endpoints
            .iter()
            .any(|e| e.block == "mr_table" && e.tenths >= 30));
        let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(written, r.to_json());
        assert!(!written["histogram"].as_array().unwrap().is_empty());
    }
}
