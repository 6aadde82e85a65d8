//! The command unit (`CommandUnit`) against its reference model.
//!
//! Every clock the bench compares every output (`cmd_ready`, the result
//! stream, the MR table write ports) with a cycle model of the unit built
//! on the plain-Rust command reference (`odp_mmu_workshop::models::command_ref`).
//! Directed tests name each command and each bad-command answer; the random
//! runs drive random commands (good and bad fields, every op code) with
//! random `cmd_valid` gaps, `ready` drops and resets, on the Verilated
//! Verilog (long) and on the rust-hdl model in lockstep with it (short).

use odp_mmu_workshop::harness;

use harness::dut::Dut;
use harness::lockstep::Lockstep;
use harness::seed;
use harness::verilated::Verilated;
use odp_mmu::control::command::*;
use odp_mmu::control::regmap::op;
use odp_mmu_workshop::models::command_ref::{execute, Command, Effect};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;

/// 8 MRs; the default core has 256 (`CommandUnit<8>`).
type Small = CommandUnit<3>;
type Full = CommandUnit<8>;

fn verilog_of<B: Block>(mut uut: B, name: &str) -> String {
    uut.connect_all();
    odp_mmu::verilog::generate(&uut, name)
}

/// One clock's inputs.
#[derive(Clone, Copy, Debug, Default)]
struct Ins {
    rst: bool,
    ready: bool,
    cmd: Option<Command>,
}

/// One clock's outputs, as compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Outs {
    cmd_ready: bool,
    /// `(op, tag, code)` of a `res_valid` clock.
    res: Option<(u8, u8, u8)>,
    /// The full write: every field, when `mr_wr_valid`.
    wr: Option<Effect>,
    /// The state write `(index, state)`, when `mr_st_valid`.
    st: Option<(u32, u8)>,
}

odp_mmu_workshop::port_map!(SmallPorts for Small {
    clock: clock,
    inputs: [rst, ready, cmd_valid, cmd_op, cmd_tag, cmd_arg0, cmd_arg1, cmd_arg2, cmd_arg3, cmd_arg4, cmd_arg5, cmd_arg6, cmd_arg7, cmd_arg8],
    outputs: [cmd_ready, res_valid, res_op, res_tag, res_code],
    bundles: [mr_wr, mr_st],
});

/// The Verilated Verilog of `uut`, as module `name`.
fn ver<B: Block>(mut uut: B, name: &str) -> Verilated {
    Verilated::of_block(&mut uut, name)
}

const ARGS: [&str; 9] = [
    "cmd_arg0", "cmd_arg1", "cmd_arg2", "cmd_arg3", "cmd_arg4", "cmd_arg5", "cmd_arg6", "cmd_arg7",
    "cmd_arg8",
];

/// Applies `i`, settles, returns the outputs before the edge.
fn settle(d: &mut dyn Dut, i: &Ins) -> Outs {
    d.set("rst", i.rst as u128);
    d.set("ready", i.ready as u128);
    let c = i.cmd.unwrap_or_default();
    d.set("cmd_valid", i.cmd.is_some() as u128);
    d.set("cmd_op", c.op as u128);
    d.set("cmd_tag", c.tag as u128);
    for (n, a) in ARGS.iter().zip(c.args) {
        d.set(n, a as u128);
    }
    d.settle();
    Outs {
        cmd_ready: d.is("cmd_ready"),
        res: d.is("res_valid").then(|| {
            (
                d.get("res_op") as u8,
                d.get("res_tag") as u8,
                d.get("res_code") as u8,
            )
        }),
        wr: d.is("mr_wr_valid").then(|| Effect {
            index: d.get("mr_wr_index") as u32,
            tag: d.get("mr_wr_tag") as u8,
            pd: d.get("mr_wr_pd") as u16,
            base_va: d.get("mr_wr_base_va") as u64,
            length: d.get("mr_wr_length") as u64,
            access: d.get("mr_wr_access") as u8,
            root: d.get("mr_wr_root") as u64,
            levels_m1: d.get("mr_wr_levels_m1") as u8,
            state: d.get("mr_wr_state") as u8,
        }),
        st: d
            .is("mr_st_valid")
            .then(|| (d.get("mr_st_index") as u32, d.get("mr_st_state") as u8)),
    }
}

/// Cycle model of the unit: Idle -> Check -> Issue, on the reference.
struct Model {
    mr_bits: u32,
    /// The command taken and the clocks since (1 Check, 2 Issue).
    held: Option<(Command, u8)>,
}

impl Model {
    fn outs(&self, i: &Ins) -> Outs {
        let mut o = Outs::default();
        if let Some((c, 2)) = self.held {
            o.cmd_ready = true;
            let (code, effect) = execute(&c, self.mr_bits);
            if !i.rst {
                o.res = Some((c.op, c.tag, code));
            }
            match effect {
                Some(e) if c.op == op::MR_WRITE => o.wr = Some(e),
                Some(e) => o.st = Some((e.index, e.state)),
                None => {}
            }
        }
        o
    }

    fn edge(&mut self, i: &Ins) {
        if let Some((c, _)) = self.held {
            assert_eq!(i.cmd, Some(c), "the bench holds a command until taken");
        }
        self.held = match self.held {
            _ if i.rst => None,
            None => i.cmd.filter(|_| i.ready).map(|c| (c, 1)),
            Some((c, 1)) => Some((c, 2)),
            Some(_) => None,
        };
    }
}

/// Runs `cmds` through `dut` one after the other (each offered until taken),
/// checking every clock against the model; returns the results seen.
fn run_directed(dut: &mut impl Dut, mr_bits: u32, cmds: &[Command]) -> Vec<(u8, u8, u8)> {
    let mut model = Model {
        mr_bits,
        held: None,
    };
    let mut results = Vec::new();
    let mut next = 0;
    for clock in 0..20 * (cmds.len() as u64 + 2) {
        let i = Ins {
            rst: clock == 0,
            ready: clock > 1,
            cmd: cmds.get(next).copied().filter(|_| clock > 1),
        };
        let o = settle(dut, &i);
        assert_eq!(o, model.outs(&i), "clock {clock}, inputs {i:x?}");
        if o.cmd_ready && i.cmd.is_some() {
            next += 1;
        }
        results.extend(o.res);
        model.edge(&i);
        dut.tick();
        if next == cmds.len() && model.held.is_none() && clock > 4 {
            break;
        }
    }
    assert_eq!(results.len(), cmds.len(), "every command answers once");
    results
}

fn mr_write(index: u32, word1: u32, base_va: u64, length: u64, root_pa: u64) -> Command {
    Command {
        op: op::MR_WRITE,
        tag: index as u8 ^ 0x5a,
        args: [
            index,
            word1,
            0xbeef,
            base_va as u32,
            (base_va >> 32) as u32,
            length as u32,
            (length >> 32) as u32,
            root_pa as u32,
            (root_pa >> 32) as u32,
        ],
    }
}

fn cmd(op: u8, arg0: u32, arg1: u32) -> Command {
    Command {
        op,
        tag: op.wrapping_mul(3),
        args: [arg0, arg1, 0, 0, 0, 0, 0, 0, 0],
    }
}

#[test]
fn command_unit_writes_an_mr_with_every_field_and_sets_states() {
    let mut dut = ver(Small::new(), "command_small");
    // tag 0xa7, access 5, levels-1 3, state 1 (valid).
    let word1 = 0xa7 | (5 << 8) | (3 << 12) | (1 << 16);
    let cmds = [
        mr_write(7, word1, 0xffff_f000_0000_1234, 0x2000, 0x12_3456_7000),
        cmd(op::MR_SET_STATE, 7, 2),
        // An MR that ends exactly at 2^64 is legal.
        mr_write(0, word1, u64::MAX - 0xfff, 0x1000, 0x1000),
    ];
    let res = run_directed(&mut dut, 3, &cmds);
    assert_eq!(
        res,
        vec![
            (op::MR_WRITE, 7 ^ 0x5a, RES_OK as u8),
            (op::MR_SET_STATE, 6, RES_OK as u8),
            (op::MR_WRITE, 0x5a, RES_OK as u8),
        ]
    );
}

#[test]
fn command_unit_refuses_every_bad_command_and_writes_nothing() {
    let mut dut = ver(Small::new(), "command_small");
    let good1 = 0x11 | (1 << 16);
    let cmds = [
        mr_write(8, good1, 0, 0x1000, 0x1000),
        mr_write(1 << 20, good1, 0, 0x1000, 0x1000),
        mr_write(1, 0x11 | (3 << 16), 0, 0x1000, 0x1000),
        mr_write(1, good1, u64::MAX - 0xfff, 0x1001, 0x1000),
        mr_write(1, good1, 0, 0x1000, 0x1008),
        cmd(op::MR_SET_STATE, 9, 1),
        cmd(op::MR_SET_STATE, 1, 3),
        cmd(0x00, 0, 0),
        cmd(0x0a, 0, 0),
        cmd(0xff, 0, 0),
    ];
    let mut want: Vec<u8> = vec![
        RES_MR_RANGE,
        RES_MR_RANGE,
        RES_BAD_FIELD,
        RES_RANGE_WRAPS,
        RES_ROOT_UNALIGNED,
        RES_MR_RANGE,
        RES_BAD_FIELD,
        RES_UNKNOWN_OP,
        RES_UNKNOWN_OP,
        RES_UNKNOWN_OP,
    ]
    .into_iter()
    .map(|c| c as u8)
    .collect();
    let mut all = cmds.to_vec();
    for op in OPS_PLANNED {
        all.push(cmd(op, 0, 0));
        want.push(RES_NOT_BUILT as u8);
    }
    // The model comparison in run_directed already checks that no write
    // port rises; the codes name each refusal.
    let codes: Vec<u8> = run_directed(&mut dut, 3, &all)
        .into_iter()
        .map(|r| r.2)
        .collect();
    assert_eq!(codes, want);
}

#[test]
fn command_unit_takes_no_command_before_the_datapath_is_ready() {
    let mut dut = ver(Small::new(), "command_small");
    let c = mr_write(1, 1 << 16, 0, 0x1000, 0x1000);
    for _ in 0..5 {
        let o = settle(
            &mut dut,
            &Ins {
                rst: false,
                ready: false,
                cmd: Some(c),
            },
        );
        assert!(!o.cmd_ready && o.res.is_none() && o.wr.is_none());
        dut.tick();
    }
}

/// A random command: any op (the built ones most often), fields good and bad.
fn random_cmd(rng: &mut StdRng) -> Command {
    let op = match rng.gen_range(0..10) {
        0..=4 => op::MR_WRITE,
        5..=7 => op::MR_SET_STATE,
        _ => rng.gen(),
    };
    let index = match rng.gen_range(0..10) {
        0 => rng.gen(),
        1 => rng.gen_range(0..1024),
        _ => rng.gen_range(0..8),
    };
    let base: u64 = match rng.gen_range(0..4) {
        0 => u64::MAX - rng.gen_range(0..0x10_0000),
        _ => rng.gen(),
    };
    let length: u64 = match rng.gen_range(0..4) {
        0 => (!base).wrapping_add(rng.gen_range(0..3)),
        _ => rng.gen_range(0..1 << 40),
    };
    let root: u64 = if rng.gen_ratio(1, 8) {
        rng.gen()
    } else {
        rng.gen::<u64>() & !0xfff
    };
    let mut c = mr_write(index, rng.gen(), base, length, root);
    c.op = op;
    c.tag = rng.gen();
    if op == op::MR_SET_STATE {
        c.args[1] = rng.gen_range(0..4);
    }
    c
}

fn random_run(dut: &mut impl Dut, mr_bits: u32, clocks: u64, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut model = Model {
        mr_bits,
        held: None,
    };
    let mut offer: Option<Command> = None;
    let (mut taken, mut codes, mut resets) = (0u64, [0u64; 8], 0u64);
    let mut clock = 0;
    while !harness::done(clock, clocks, clocks * 10, || {
        let mut bins: harness::Bins = vec![("commands", taken, 100), ("resets", resets, 2)];
        for (k, name) in [
            "OK",
            "unknown op",
            "not built",
            "MR out of range",
            "bad field",
            "range wraps",
            "root unaligned",
        ]
        .into_iter()
        .enumerate()
        {
            bins.push((name, codes[k], 1));
        }
        bins
    }) {
        let rst = clock < 2 || rng.gen_ratio(1, 2000);
        if offer.is_none() && rng.gen_ratio(2, 3) {
            offer = Some(random_cmd(&mut rng));
        }
        let i = Ins {
            rst,
            ready: rng.gen_ratio(9, 10),
            cmd: offer,
        };
        let o = settle(dut, &i);
        assert_eq!(o, model.outs(&i), "clock {clock}, inputs {i:x?}");
        if o.cmd_ready && offer.is_some() {
            offer = None;
            taken += 1;
        }
        if let Some((_, _, code)) = o.res {
            codes[code as usize] += 1;
        }
        resets += (rst && clock >= 2) as u64;
        model.edge(&i);
        dut.tick();
        clock += 1;
    }
    println!("{clock} clocks: {taken} commands, result codes {codes:?}, {resets} resets");
}

#[test]
fn command_unit_matches_reference_on_verilog_random() {
    let seed = seed();
    random_run(&mut ver(Small::new(), "command_small"), 3, 200_000, seed);
    random_run(&mut ver(Full::new(), "command_full"), 8, 200_000, seed);
}

#[test]
fn command_unit_verilog_matches_rust_hdl_in_random_lockstep() {
    random_run(
        &mut Lockstep::of::<SmallPorts>(Small::new(), "command_small"),
        3,
        3_000,
        seed(),
    );
}

#[test]
fn command_unit_is_synthesizable_small_and_full() {
    harness::checks::assert_synthesizable(
        &verilog_of(Small::new(), "command_small"),
        "command_small",
    );
    harness::checks::assert_synthesizable(&verilog_of(Full::new(), "command_full"), "command_full");
}

#[test]
fn command_unit_refuses_an_out_of_range_mr_bits() {
    assert!(std::panic::catch_unwind(CommandUnit::<1>::new).is_err());
    assert!(std::panic::catch_unwind(CommandUnit::<11>::new).is_err());
}
