//! Slack at every endpoint of a routed design, from nextpnr's SDF.
//!
//! nextpnr reports one critical path per clock pair; closing timing on a
//! large block needs every failing endpoint, grouped, to see which
//! structures fail and how many flip-flops each one costs. The SDF that
//! nextpnr writes after routing (`--sdf`) holds every routed net delay
//! (`INTERCONNECT`), every cell delay (`IOPATH`) and every setup check
//! (`SETUPHOLD`); [`endpoint_slacks`] runs a static timing analysis over
//! them: the latest arrival at every cell input, from clock-to-output
//! delays (a flip-flop's `CLK -> Q`, a block RAM's `CLKA -> DOA`, ...)
//! through the combinational cell paths, checked against each setup at the
//! period asked. The clock net is ideal (nextpnr's global clock network
//! writes zero delays), as in nextpnr's own report, whose worst path this
//! analysis reproduces to the picosecond.

use std::collections::{BTreeMap, HashMap, VecDeque};

/// An endpoint (a cell input with a setup check) and its slack.
#[derive(Clone, Debug, PartialEq)]
pub struct Endpoint {
    /// Cell instance.
    pub cell: String,
    /// Input port (`DI`, `CE`, `LSR`, `M`, a block RAM's address, ...).
    pub port: String,
    /// Period minus the latest arrival minus the setup time.
    pub slack_ps: f64,
    /// The cell the latest path to this endpoint starts at.
    pub start: String,
}

/// The analysis of one design.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Slacks {
    /// Endpoints checked (with at least one timed path).
    pub endpoints: usize,
    /// Endpoints with negative slack, worst first.
    pub failing: Vec<Endpoint>,
}

/// The slow-corner value of an SDF delay triple.
fn max_of_triple(t: &str) -> Option<f64> {
    // "(a:b:c)" -> c (the slow corner nextpnr times with).
    let t = t.trim_start_matches('(').trim_end_matches(')');
    t.rsplit(':').next()?.parse().ok()
}

fn unescape(s: &str) -> String {
    s.replace('\\', "")
}

/// Splits `cell/port` at the last `/`.
fn split_pin(s: &str) -> (String, String) {
    let s = unescape(s);
    match s.rsplit_once('/') {
        Some((c, p)) => (c.to_string(), p.to_string()),
        None => (s, String::new()),
    }
}

const CLOCK_PORTS: [&str; 4] = ["CLK", "CLKA", "CLKB", "WCK"];

/// Runs the analysis on the text of an SDF nextpnr wrote, at `period_ps`.
pub fn endpoint_slacks(sdf: &str, period_ps: f64) -> Result<Slacks, String> {
    let mut ids: HashMap<(String, String), usize> = HashMap::new();
    let mut names: Vec<(String, String)> = Vec::new();
    let mut id = |pin: (String, String)| -> usize {
        if let Some(&i) = ids.get(&pin) {
            return i;
        }
        names.push(pin.clone());
        ids.insert(pin, names.len() - 1);
        names.len() - 1
    };
    let mut edges: Vec<(usize, usize, f64)> = Vec::new();
    let mut launch: HashMap<usize, f64> = HashMap::new();
    let mut setup: HashMap<usize, f64> = HashMap::new();
    let mut instance = String::new();
    for (n, line) in sdf.lines().enumerate() {
        let line = line.trim();
        let bad = || format!("SDF line {}: cannot read `{line}`", n + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("(INTERCONNECT") => {
                let (Some(a), Some(b), Some(t)) = (words.get(1), words.get(2), words.get(3)) else {
                    return Err(bad());
                };
                let d = max_of_triple(t).ok_or_else(bad)?;
                let (a, b) = (id(split_pin(a)), id(split_pin(b)));
                edges.push((a, b, d));
            }
            Some("(INSTANCE") | Some("(INSTANCE)") => {
                instance = unescape(line.trim_start_matches("(INSTANCE").trim_end_matches(')'))
                    .trim()
                    .to_string();
            }
            Some("(IOPATH") => {
                let (Some(i), Some(o), Some(t)) = (words.get(1), words.get(2), words.get(3)) else {
                    return Err(bad());
                };
                let d = max_of_triple(t).ok_or_else(bad)?;
                let out = id((instance.clone(), o.to_string()));
                if CLOCK_PORTS.contains(i) {
                    let a = launch.entry(out).or_insert(0.0);
                    *a = a.max(d);
                } else {
                    let input = id((instance.clone(), i.to_string()));
                    edges.push((input, out, d));
                }
            }
            Some("(SETUPHOLD") => {
                // (SETUPHOLD (posedge P) (posedge CLK) (setup) (hold))
                let (Some(p), Some(t)) = (words.get(2), words.get(5)) else {
                    return Err(bad());
                };
                let p = p.trim_end_matches(')');
                let d = max_of_triple(t).ok_or_else(bad)?;
                let pin = id((instance.clone(), p.to_string()));
                let s = setup.entry(pin).or_insert(0.0);
                *s = s.max(d);
            }
            _ => {}
        }
    }

    // Latest arrival, in topological order (Kahn); a pin on a loop is
    // never reached and keeps no arrival.
    let n = names.len();
    let mut succ: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    let mut indeg = vec![0usize; n];
    for &(a, b, d) in &edges {
        succ[a].push((b, d));
        indeg[b] += 1;
    }
    let mut arrival: Vec<Option<f64>> = (0..n).map(|i| launch.get(&i).copied()).collect();
    let mut origin: Vec<usize> = (0..n).collect();
    let mut queue: VecDeque<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
    while let Some(v) = queue.pop_front() {
        for &(w, d) in &succ[v] {
            if let Some(a) = arrival[v] {
                if !launch.contains_key(&w) && arrival[w].is_none_or(|x| a + d > x) {
                    arrival[w] = Some(a + d);
                    origin[w] = origin[v];
                }
            }
            indeg[w] -= 1;
            if indeg[w] == 0 {
                queue.push_back(w);
            }
        }
    }

    let mut slacks = Slacks::default();
    for (&pin, &su) in &setup {
        let Some(a) = arrival[pin] else { continue };
        slacks.endpoints += 1;
        let slack = period_ps - a - su;
        if slack < 0.0 {
            slacks.failing.push(Endpoint {
                cell: names[pin].0.clone(),
                port: names[pin].1.clone(),
                slack_ps: slack,
                start: names[origin[pin]].0.clone(),
            });
        }
    }
    slacks
        .failing
        .sort_by(|a, b| a.slack_ps.total_cmp(&b.slack_ps).then(a.cell.cmp(&b.cell)));
    Ok(slacks)
}

/// The register a flip-flop cell belongs to: its name without Yosys's
/// `_TRELLIS_FF_Q<n>` suffix (`core.tlb.s1_mh$q_TRELLIS_FF_Q_8` ->
/// `core.tlb.s1_mh$q`), with the elements of a rust-hdl array of
/// registers taken together (`core.sl_state$12.q` -> `core.sl_state$*.q`):
/// a structure repeated per slot fails in every slot at once.
pub fn register_of(cell: &str) -> String {
    let name = match cell.find("_TRELLIS_FF_Q") {
        Some(i) => &cell[..i],
        None => cell,
    };
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            out.push('*');
        }
    }
    out
}

/// The failing endpoints grouped by register, worst group first, at most
/// `n` lines: `count worst-slack register <- the start of its worst path`.
pub fn failing_by_register(slacks: &Slacks, n: usize) -> Vec<String> {
    // failing is sorted worst first, so the first of a group is its worst.
    let mut groups: BTreeMap<String, (usize, &Endpoint)> = BTreeMap::new();
    for e in &slacks.failing {
        groups.entry(register_of(&e.cell)).or_insert((0, e)).0 += 1;
    }
    let mut rows: Vec<(String, usize, &Endpoint)> =
        groups.into_iter().map(|(r, (c, e))| (r, c, e)).collect();
    rows.sort_by(|a, b| a.2.slack_ps.total_cmp(&b.2.slack_ps));
    rows.into_iter()
        .take(n)
        .map(|(r, c, e)| {
            format!(
                "{c:5} endpoint(s), worst {:6.0} ps: {r} <- {}",
                e.slack_ps,
                register_of(&e.start)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two flip-flops through a LUT, and a second path that meets timing.
    const SDF: &str = r#"(DELAYFILE
  (CELL
    (CELLTYPE "top")
    (INSTANCE )
    (DELAY
      (ABSOLUTE
        (INTERCONNECT a\$q_TRELLIS_FF_Q/Q lut/A (100:200:300) (100:200:300))
        (INTERCONNECT b_TRELLIS_FF_Q_3/Q lut/B (100:200:1300) (100:200:1300))
        (INTERCONNECT lut/F c\$q_TRELLIS_FF_Q_1/DI (0:0:500) (0:0:500))
        (INTERCONNECT a\$q_TRELLIS_FF_Q/Q d_TRELLIS_FF_Q/DI (0:0:100) (0:0:100))
      )
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE a\$q_TRELLIS_FF_Q)
    (DELAY
      (ABSOLUTE
        (IOPATH CLK Q (329:362:395) (329:362:395))
      )
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE b_TRELLIS_FF_Q_3)
    (DELAY
      (ABSOLUTE
        (IOPATH CLK Q (329:362:400) (329:362:400))
      )
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_COMB")
    (INSTANCE lut)
    (DELAY
      (ABSOLUTE
        (IOPATH A F (153:166:180) (153:166:180))
        (IOPATH B F (153:166:180) (153:166:180))
      )
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE c\$q_TRELLIS_FF_Q_1)
    (TIMINGCHECK
      (SETUPHOLD (posedge DI) (posedge CLK) (0:0:20) (213:222:232))
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE d_TRELLIS_FF_Q)
    (TIMINGCHECK
      (SETUPHOLD (posedge DI) (posedge CLK) (0:0:20) (213:222:232))
    )
  )
)
"#;

    #[test]
    fn the_latest_path_sets_the_slack_and_names_its_start() {
        // Through b: 400 + 1300 + 180 + 500 = 2380, setup 20.
        let s = endpoint_slacks(SDF, 2000.0).unwrap();
        assert_eq!(s.endpoints, 2);
        assert_eq!(
            s.failing,
            vec![Endpoint {
                cell: "c$q_TRELLIS_FF_Q_1".into(),
                port: "DI".into(),
                slack_ps: -400.0,
                start: "b_TRELLIS_FF_Q_3".into(),
            }]
        );
        assert_eq!(
            failing_by_register(&s, 5),
            vec!["    1 endpoint(s), worst   -400 ps: c$q <- b".to_string()]
        );
        // At a longer period nothing fails; d's path (395 + 100 + 20) is
        // checked too.
        let s = endpoint_slacks(SDF, 2400.0).unwrap();
        assert!(s.failing.is_empty());
        let s = endpoint_slacks(SDF, 500.0).unwrap();
        assert_eq!(s.failing.len(), 2);
        assert_eq!(s.failing[1].cell, "d_TRELLIS_FF_Q");
        assert_eq!(s.failing[1].slack_ps, -15.0);
    }

    #[test]
    fn array_elements_group_as_one_register() {
        assert_eq!(
            register_of("core.sl_state$12.q_TRELLIS_FF_Q_1"),
            "core.sl_state$*.q"
        );
        assert_eq!(
            register_of("core.tlb.s1_mh$q_TRELLIS_FF_Q"),
            "core.tlb.s1_mh$q"
        );
        assert_eq!(register_of("core.a$3$q"), "core.a$*$q");
    }

    #[test]
    fn an_unreadable_delay_is_an_error_with_its_line() {
        let err = endpoint_slacks("(INTERCONNECT a/Q b/D (x:y:z))\n", 1000.0).unwrap_err();
        assert!(err.contains("line 1"), "{err}");
    }
}
