//! The lockstep harness checks itself: it agrees on a correctly written block,
//! it reports the first differing clock and port on blocks that hit the two
//! known rust-hdl simulation/Verilog mismatch classes, and the Verilated
//! backend runs a million clocks against a plain-Rust model.

use odp_mmu_workshop::harness;

use harness::seed;

use harness::lockstep::Lockstep;
use harness::verilated::{Dir, Verilated};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

/// Written the safe way: every mix of `&` and `==` parenthesised, every
/// widening result computed at its final width.
#[derive(LogicBlock, Default)]
struct Careful {
    clock: Signal<In, Clock>,
    a: Signal<In, Bits<8>>,
    b: Signal<In, Bits<8>>,
    c: Signal<In, Bits<8>>,
    wide_in: Signal<In, Bits<128>>,
    eq: Signal<Out, Bit>,
    sum9: Signal<Out, Bits<9>>,
    acc: Signal<Out, Bits<64>>,
    wide_q: Signal<Out, Bits<128>>,
    acc_r: DFF<Bits<64>>,
    wide_r: DFF<Bits<128>>,
}

impl Logic for Careful {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, acc_r, wide_r);
        self.eq.next = (self.a.val() & self.b.val()) == self.c.val();
        self.sum9.next = bit_cast::<9, 8>(self.a.val()) + bit_cast::<9, 8>(self.b.val());
        self.acc_r.d.next = self.acc_r.q.val() + bit_cast::<64, 8>(self.a.val());
        self.wide_r.d.next = self.wide_in.val() ^ bit_cast::<128, 64>(self.acc_r.q.val());
        self.acc.next = self.acc_r.q.val();
        self.wide_q.next = self.wide_r.q.val();
    }
}

/// `a & b == c`: `(a & b) == c` in Rust, `a & (b == c)` in Verilog.
#[derive(LogicBlock, Default)]
struct PrecedenceSlip {
    clock: Signal<In, Clock>,
    a: Signal<In, Bits<8>>,
    b: Signal<In, Bits<8>>,
    c: Signal<In, Bits<8>>,
    eq: Signal<Out, Bit>,
}

impl Logic for PrecedenceSlip {
    #[hdl_gen]
    fn update(&mut self) {
        self.eq.next = self.a.val() & self.b.val() == self.c.val();
    }
}

/// A widening add written inline: Rust wraps `a + b` to 8 bits, Verilog
/// evaluates it at the 9-bit width of the assignment and keeps the carry.
#[derive(LogicBlock, Default)]
struct WidthSlip {
    clock: Signal<In, Clock>,
    a: Signal<In, Bits<8>>,
    b: Signal<In, Bits<8>>,
    sum9: Signal<Out, Bits<9>>,
}

impl Logic for WidthSlip {
    #[hdl_gen]
    fn update(&mut self) {
        self.sum9.next = bit_cast::<9, 8>(self.a.val() + self.b.val());
    }
}

fn bits128(v: u128) -> Bits<128> {
    (Bits::<128>::from((v >> 64) as u64) << 64) | Bits::<128>::from(v as u64)
}

#[test]
fn lockstep_agrees_on_random_stimulus_to_a_correctly_written_block() {
    let mut ls = Lockstep::new(Careful::default(), "careful", |u, h| {
        u.clock.next = h.into()
    });
    let mut rng = StdRng::seed_from_u64(seed());
    let mut checked = 0u64;
    ls.run(
        5_000,
        |_, u| {
            u.a.next = (rng.gen::<u8>() as u64).into();
            u.b.next = (rng.gen::<u8>() as u64).into();
            u.c.next = (rng.gen::<u8>() as u64).into();
            u.wide_in.next = bits128(rng.gen::<u128>());
        },
        |_, _| checked += 1,
    )
    .unwrap_or_else(|m| panic!("{m}"));
    assert_eq!(checked, 5_000);
}

#[test]
fn lockstep_reports_the_precedence_slip_with_port_and_clock() {
    let mut ls = Lockstep::new(PrecedenceSlip::default(), "precedence_slip", |u, h| {
        u.clock.next = h.into()
    });
    // a = b = c = 0x02: Rust reads (2 & 2) == 2, which is 1; Verilog reads
    // 2 & (2 == 2), which is 2 & 1 = 0. Before clock 7 both readings agree.
    let mismatch = ls
        .run(
            10,
            |clock, u| {
                let late = clock >= 7;
                u.a.next = (if late { 0x02 } else { 0x00 }).into();
                u.b.next = 0x02.into();
                u.c.next = (if late { 0x02 } else { 0x01 }).into();
            },
            |_, _| {},
        )
        .expect_err("the harness must catch `a & b == c`");
    assert_eq!(mismatch.clock, 7);
    assert_eq!(mismatch.port, "eq");
    assert_eq!(
        (mismatch.rust.as_str(), mismatch.verilog.as_str()),
        ("1", "0")
    );
    let text = mismatch.to_string();
    assert!(
        text.contains("clock 7") && text.contains("port eq"),
        "{text}"
    );
}

#[test]
fn lockstep_reports_the_width_slip_with_port_and_clock() {
    let mut ls = Lockstep::new(WidthSlip::default(), "width_slip", |u, h| {
        u.clock.next = h.into()
    });
    let mismatch = ls
        .run(
            10,
            |clock, u| {
                u.a.next = (if clock >= 4 { 0xf0 } else { 0x10 }).into();
                u.b.next = 0x20.into();
            },
            |_, _| {},
        )
        .expect_err("the harness must catch the dropped carry");
    assert_eq!(mismatch.clock, 4);
    assert_eq!(mismatch.port, "sum9");
    assert_eq!(
        (mismatch.rust.as_str(), mismatch.verilog.as_str()),
        ("10", "110")
    );
}

#[test]
fn careful_block_passes_yosys_and_verilator_lint() {
    let mut uut = Careful::default();
    uut.connect_all();
    let v = odp_mmu::verilog::generate(&uut, "careful");
    harness::checks::assert_synthesizable(&v, "careful");
}

/// The Verilated model and the Fmax wrapper take a block's ports from the
/// block: they must be the ports, widths and order of its Verilog header.
#[test]
fn block_ports_are_the_ports_of_its_verilog_module() {
    let mut uut = Careful::default();
    uut.connect_all();
    let v = odp_mmu::verilog::generate(&uut, "careful");
    let got: Vec<_> = harness::rhdl::ports(&uut)
        .into_iter()
        .map(|p| (p.name, p.width, p.dir))
        .collect();
    let port = |name: &str, width, dir| (name.to_string(), width, dir);
    assert_eq!(
        got,
        vec![
            port("clock", 1, Dir::In),
            port("a", 8, Dir::In),
            port("b", 8, Dir::In),
            port("c", 8, Dir::In),
            port("wide_in", 128, Dir::In),
            port("eq", 1, Dir::Out),
            port("sum9", 9, Dir::Out),
            port("acc", 64, Dir::Out),
            port("wide_q", 128, Dir::Out),
        ]
    );
    assert!(
        v.contains("module careful(clock,a,b,c,wide_in,eq,sum9,acc,wide_q);"),
        "{v}"
    );
    assert!(v.contains("input wire  [127:0] wide_in;"), "{v}");
    assert!(v.contains("output reg  [8:0] sum9;"), "{v}");
}

/// The fast backend: the Verilated model alone, checked every clock against
/// a plain-Rust model of `Careful`, for a million clocks.
#[test]
fn verilated_backend_runs_a_million_random_clocks_against_a_reference() {
    let mut m = Verilated::of_block(&mut Careful::default(), "careful");
    let (clk, a, b, c, wide) = (
        m.port("clock"),
        m.port("a"),
        m.port("b"),
        m.port("c"),
        m.port("wide_in"),
    );
    let (eq, sum9, acc_p, wide_q) = (
        m.port("eq"),
        m.port("sum9"),
        m.port("acc"),
        m.port("wide_q"),
    );
    let mut rng = StdRng::seed_from_u64(seed());
    let (mut acc, mut wide_r) = (0u64, 0u128);
    let start = std::time::Instant::now();
    for clock in 0..1_000_000u64 {
        let (va, vb, vc, vw) = (
            rng.gen::<u8>(),
            rng.gen::<u8>(),
            rng.gen::<u8>(),
            rng.gen::<u128>(),
        );
        m.set_idx(a, va as u128);
        m.set_idx(b, vb as u128);
        m.set_idx(c, vc as u128);
        m.set_idx(wide, vw);
        m.eval();
        let expect = [
            ((va & vb) == vc) as u128,
            va as u128 + vb as u128,
            acc as u128,
            wide_r,
        ];
        let got = [
            m.get_idx(eq),
            m.get_idx(sum9),
            m.get_idx(acc_p),
            m.get_idx(wide_q),
        ];
        assert_eq!(got, expect, "clock {clock}");
        wide_r = vw ^ acc as u128;
        acc = acc.wrapping_add(va as u64);
        m.tick_idx(clk);
    }
    println!("1,000,000 clocks in {:.2} s", start.elapsed().as_secs_f64());
}
