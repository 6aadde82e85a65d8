//! The `odp_mmu` top level: its port contract, synthesizability, lockstep
//! equivalence of its Verilog, and its behaviour with an empty MR table.

#[path = "harness/mod.rs"]
mod harness;

use harness::seed;

use harness::lockstep::Lockstep;
use harness::monitor::StreamMonitor;
use harness::verilated::{parse_ports, Dir, Verilated};
use odp_mmu::top::status;
use odp_mmu::{Params, SmallOdpMmu};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

fn small() -> Params {
    Params::small()
}

/// SPEC section 2, port by port: name, width, direction.
const CONTRACT: &[(&str, usize, Dir)] = &[
    ("clk", 1, Dir::In),
    ("rst", 1, Dir::In),
    ("s_xreq_valid", 1, Dir::In),
    ("s_xreq_ready", 1, Dir::Out),
    ("s_xreq_tag", 8, Dir::In),
    ("s_xreq_op", 2, Dir::In),
    ("s_xreq_qpn", 24, Dir::In),
    ("s_xreq_rqpn", 24, Dir::In),
    ("s_xreq_psn", 24, Dir::In),
    ("s_xreq_msn", 24, Dir::In),
    ("s_xreq_pd", 16, Dir::In),
    ("s_xreq_key", 32, Dir::In),
    ("s_xreq_va", 64, Dir::In),
    ("s_xreq_len", 13, Dir::In),
    ("s_xreq_msg_len", 32, Dir::In),
    ("m_xrsp_valid", 1, Dir::Out),
    ("m_xrsp_ready", 1, Dir::In),
    ("m_xrsp_tag", 8, Dir::Out),
    ("m_xrsp_status", 3, Dir::Out),
    ("m_xrsp_pa", 64, Dir::Out),
    ("m_xrsp_seg_len", 13, Dir::Out),
    ("m_xrsp_last", 1, Dir::Out),
    ("m_xrsp_epoch", 8, Dir::Out),
    ("m_nak_valid", 1, Dir::Out),
    ("m_nak_ready", 1, Dir::In),
    ("m_nak_qpn", 24, Dir::Out),
    ("m_nak_hdr", 128, Dir::Out),
    ("m_wake_valid", 1, Dir::Out),
    ("m_wake_ready", 1, Dir::In),
    ("m_wake_qpn", 24, Dir::Out),
    ("s_done_valid", 1, Dir::In),
    ("s_done_epoch", 8, Dir::In),
    ("m_axi_araddr", 64, Dir::Out),
    ("m_axi_arid", 4, Dir::Out),
    ("m_axi_arlen", 8, Dir::Out),
    ("m_axi_arvalid", 1, Dir::Out),
    ("m_axi_arready", 1, Dir::In),
    ("m_axi_rdata", 64, Dir::In),
    ("m_axi_rid", 4, Dir::In),
    ("m_axi_rresp", 2, Dir::In),
    ("m_axi_rready", 1, Dir::Out),
    ("m_axi_awaddr", 64, Dir::Out),
    ("m_axi_wdata", 64, Dir::Out),
    ("m_axi_wstrb", 8, Dir::Out),
    ("m_axi_bresp", 2, Dir::In),
    ("s_axil_awaddr", 16, Dir::In),
    ("s_axil_wdata", 32, Dir::In),
    ("s_axil_araddr", 16, Dir::In),
    ("s_axil_rdata", 32, Dir::Out),
    ("s_axil_rresp", 2, Dir::Out),
    ("irq", 1, Dir::Out),
];

#[test]
fn top_module_is_odp_mmu_with_the_spec_port_names() {
    let v = odp_mmu::top::generate_verilog(&Params::default()).unwrap();
    let ports = parse_ports(&v, "odp_mmu");
    for (name, width, dir) in CONTRACT {
        let p = ports
            .iter()
            .find(|p| p.name == *name)
            .unwrap_or_else(|| panic!("odp_mmu has no port {name}"));
        assert_eq!((p.width, p.dir), (*width, *dir), "port {name}");
    }
    assert!(
        ports.iter().all(|p| !p.name.contains('$')),
        "ports must be flat"
    );
    assert!(
        !v.contains("module top"),
        "rust-hdl's `top` must be renamed"
    );
}

#[test]
fn cli_verilog_writes_build_odp_mmu_v() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_odp-mmu"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["verilog", "--out", "build/cli-test/odp_mmu.v"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = std::fs::read_to_string("build/cli-test/odp_mmu.v").unwrap();
    assert!(v.contains("module odp_mmu("));
}

#[test]
fn cli_refuses_an_out_of_range_parameter_naming_it() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_odp-mmu"))
        .args(["verilog", "--out", "/dev/null", "--walks", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("walks must be in 1..=8, got 0"), "{err}");
}

#[test]
fn cli_refuses_sizes_that_no_preset_has() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_odp-mmu"))
        .args(["verilog", "--out", "/dev/null", "--tlb-sets", "64"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("two presets"), "{err}");
}

#[test]
fn generated_verilog_passes_yosys_and_verilator_lint_default_and_small() {
    for p in [Params::default(), small()] {
        let v = odp_mmu::top::generate_verilog(&p).unwrap();
        harness::checks::assert_synthesizable(&v, "odp_mmu");
    }
}

fn set_clock(u: &mut SmallOdpMmu, high: bool) {
    u.clk.next = high.into();
}

#[test]
fn top_verilog_matches_the_rust_hdl_model_on_random_stimulus_in_lockstep() {
    let mut ls = Lockstep::new(SmallOdpMmu::new(&small()), "odp_mmu", set_clock);
    let mut rng = StdRng::seed_from_u64(seed());
    ls.run(
        3_000,
        |clock, u| {
            u.rst.next = clock < 2 || rng.gen_ratio(1, 500);
            u.s_xreq_valid.next = rng.gen();
            u.s_xreq_tag.next = (rng.gen::<u8>() as u64).into();
            u.s_xreq_va.next = rng.gen::<u64>().into();
            u.s_xreq_key.next = (rng.gen::<u32>() as u64).into();
            u.m_xrsp_ready.next = rng.gen();
            // Writes to registers of every kind, the doorbell included, so
            // commands (random op codes and arguments) run too.
            u.s_axil_awvalid.next = rng.gen();
            u.s_axil_awaddr.next = (random_csr(&mut rng) as u64).into();
            u.s_axil_wvalid.next = rng.gen();
            u.s_axil_wdata.next = (rng.gen::<u32>() as u64).into();
            u.s_axil_wstrb.next = (rng.gen::<u8>() as u64 & 0xf).into();
            u.s_axil_bready.next = rng.gen();
            u.s_axil_arvalid.next = rng.gen();
            u.s_axil_rready.next = rng.gen();
            u.s_axil_araddr.next = (random_csr(&mut rng) as u64).into();
        },
        |_, _| {},
    )
    .unwrap_or_else(|m| panic!("{m}"));
}

/// A CSR address: a defined register most of the time, else any address.
fn random_csr(rng: &mut StdRng) -> u16 {
    if rng.gen_ratio(3, 4) {
        odp_mmu::regmap::REGS[rng.gen_range(0..odp_mmu::regmap::REGS.len())].offset
    } else {
        rng.gen()
    }
}

/// With no valid MR, every request is answered by one ACCESS_ERR beat, in
/// order, under random backpressure and idle gaps; undefined CSRs read 0.
#[test]
fn empty_core_answers_every_random_request_access_err_in_order() {
    let v = odp_mmu::top::generate_verilog(&Params::default()).unwrap();
    let mut m = Verilated::new(&v, "odp_mmu");
    let mut rng = StdRng::seed_from_u64(seed());
    let clk = m.port("clk");
    let mut xreq = StreamMonitor::new("s_xreq");
    let mut xrsp = StreamMonitor::new("m_xrsp");
    let mut axil_r = StreamMonitor::new("s_axil_r");
    let mut expect: VecDeque<u128> = VecDeque::new();
    let (mut tag, mut sent, mut reads) = (0u8, 0u64, 0u64);
    m.set("rst", 1);
    m.tick_idx(clk);
    m.set("rst", 0);
    let (mut valid, mut ar_valid) = (false, false);
    let mut clock = 0u64;
    while !harness::done(clock, 200_000, 2_000_000, || {
        vec![
            ("requests sent", sent, 50_000),
            ("CSR reads", reads, 10_000),
        ]
    }) {
        // A source may raise valid at will but holds it until ready.
        valid |= rng.gen_ratio(3, 4);
        if !ar_valid {
            ar_valid = rng.gen();
            let mut a: u16 = rng.gen();
            while odp_mmu::regmap::by_offset(a & !3).is_some() {
                a = rng.gen();
            }
            m.set("s_axil_araddr", a as u128);
        }
        m.set("s_xreq_valid", valid as u128);
        m.set("s_xreq_tag", tag as u128);
        m.set("m_xrsp_ready", rng.gen_ratio(2, 3) as u128);
        m.set("s_axil_arvalid", ar_valid as u128);
        m.set("s_axil_rready", rng.gen::<bool>() as u128);
        m.eval();
        let (rv, rr) = (m.get("s_xreq_valid") == 1, m.get("s_xreq_ready") == 1);
        if xreq.observe(clock, rv, rr, tag).is_some() {
            expect.push_back(tag as u128);
            tag = tag.wrapping_add(1);
            sent += 1;
            valid = false;
        }
        if m.get("s_axil_arready") == 1 {
            ar_valid = false;
        }
        let beat = (
            m.get("m_xrsp_tag"),
            m.get("m_xrsp_status"),
            m.get("m_xrsp_last"),
            m.get("m_xrsp_pa"),
        );
        let (ov, or) = (m.get("m_xrsp_valid") == 1, m.get("m_xrsp_ready") == 1);
        if let Some((t, s, last, pa)) = xrsp.observe(clock, ov, or, beat) {
            assert_eq!(
                Some(t),
                expect.pop_front(),
                "response order at clock {clock}"
            );
            assert_eq!((s, last, pa), (status::ACCESS_ERR as u128, 1, 0));
        }
        let r = (m.get("s_axil_rdata"), m.get("s_axil_rresp"));
        let (arv, arr) = (m.get("s_axil_rvalid") == 1, m.get("s_axil_rready") == 1);
        if axil_r.observe(clock, arv, arr, r).is_some() {
            assert_eq!(r, (0, 0), "undefined CSR read at clock {clock}");
            reads += 1;
        }
        assert_eq!(
            m.get("m_axi_arvalid") + m.get("m_axi_awvalid") + m.get("m_nak_valid"),
            0
        );
        m.tick_idx(clk);
        clock += 1;
    }
    // Drain: the request on offer may still be taken; then every one sent
    // must be answered.
    let end = clock + 1_000;
    while !expect.is_empty() || m.get("m_xrsp_valid") == 1 {
        assert!(clock < end, "responses lost: {} unanswered", expect.len());
        m.set("s_xreq_valid", 0);
        m.set("m_xrsp_ready", 1);
        m.eval();
        if m.get("m_xrsp_valid") == 1 {
            assert_eq!(Some(m.get("m_xrsp_tag")), expect.pop_front(), "drain order");
            assert_eq!(m.get("m_xrsp_status"), status::ACCESS_ERR as u128);
        }
        m.tick_idx(clk);
        clock += 1;
    }
    println!("{clock} clocks: sent {sent}, CSR reads {reads}");
}
