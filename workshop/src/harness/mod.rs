//! Shared testbench infrastructure: the Verilated-model loader, the lockstep
//! runner, rust-hdl port access, the synthesizability checks, the RoCE v2
//! framing of the core's NAKs and their decoding by scapy ([`roce`]), and
//! the seed and stop rules of every random test; [`dut`] is the one contract
//! every testbench drives its block through.
#![allow(dead_code)] // each test target uses a different part of the harness

pub mod bundles;
pub mod checks;
pub mod dut;
pub mod lockstep;
pub mod monitor;
pub mod rhdl;
pub mod roce;
pub mod top;
pub mod verilated;

/// The seed of a random test.
///
/// `ODP_SEED=<n>` runs seed `n` (a replay, or one seed of a soak run).
/// Without it the seed is fixed: the 64-bit FNV-1a hash of the test's name
/// (the name of the thread the test runner gives the test), so the test
/// command gives the same verdict on every run and every machine. The seed
/// is printed, and the runner shows it with the output of a failing test.
///
/// Every test that calls this has `random` in its name: that is how
/// `testbench/soak.sh` finds the tests to run over fresh seeds, and this
/// function refuses to serve a test that breaks the rule.
pub fn seed() -> u64 {
    let name = std::thread::current()
        .name()
        .unwrap_or_default()
        .to_string();
    assert!(
        name.contains("random"),
        "test `{name}` draws a seed but has no `random` in its name (soak finds random tests by name)"
    );
    seed_for(&name)
}

/// The seed of the test `name` as [`seed`] draws it (`ODP_SEED`, else
/// [`fixed_seed`] of `name`), printed with its replay line, without the
/// naming rule: for a short seeded run that soak need not find, such as a
/// lockstep comparison of a block's two simulators.
pub fn seed_for(name: &str) -> u64 {
    let seed = match std::env::var("ODP_SEED") {
        Ok(s) => s
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("ODP_SEED must be an unsigned 64-bit number, got {s:?}")),
        Err(_) => fixed_seed(name),
    };
    println!("seed {seed} (replay with ODP_SEED={seed})");
    seed
}

/// Runs `f` on a thread with a large stack, named like the calling test's
/// thread (so [`seed`] sees the test's name), and passes its panic on.
/// rust-hdl models of the full-size core are large values: building and
/// moving them overflows the test runner's default 2 MiB stack.
pub fn big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let name = std::thread::current()
        .name()
        .unwrap_or_default()
        .to_string();
    std::thread::Builder::new()
        .name(name)
        .stack_size(1 << 30)
        .spawn(f)
        .expect("spawn a test thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// Checks that the checked-in file `path` (from the project root) is `want`,
/// the text `source` generates: panics naming the first differing line and
/// the command `refresh`; under `ODP_BLESS=1` rewrites the file instead.
pub fn assert_fresh(path: &str, want: &str, source: &str, refresh: &str) {
    let full = crate::tools::project_root().join(path);
    let have = std::fs::read_to_string(&full).unwrap_or_default();
    if have == want {
        return;
    }
    if std::env::var("ODP_BLESS").as_deref() == Ok("1") {
        crate::tools::write_if_changed(&full, want).unwrap();
        println!("refreshed {path}");
        return;
    }
    let line = have
        .lines()
        .zip(want.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| have.lines().count().min(want.lines().count()));
    panic!(
        "{path} is out of date with {source} (first difference at line {}):\n  checked in: {:?}\n  generated:  {:?}\nrefresh the generated files with: {refresh}",
        line + 1,
        have.lines().nth(line).unwrap_or("<end of file>"),
        want.lines().nth(line).unwrap_or("<end of file>"),
    );
}

/// The fixed seed of a test: FNV-1a (64-bit) of its name.
pub fn fixed_seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Coverage bins of a random run: `(name, reached, wanted)`.
pub type Bins = Vec<(&'static str, u64, u64)>;

/// `ODP_SCALE` (default 1): the factor `done` applies to the length of
/// every random run; soak runs set it for runs of 10^7 clocks and more.
pub fn scale() -> u64 {
    static SCALE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SCALE.get_or_init(|| match std::env::var("ODP_SCALE") {
        Ok(s) => s
            .trim()
            .parse()
            .ok()
            .filter(|&k| k >= 1)
            .unwrap_or_else(|| panic!("ODP_SCALE must be a whole number >= 1, got {s:?}")),
        Err(_) => 1,
    })
}

/// The stop rule of every random run: at least `clocks` clocks, then on
/// until every bin has reached its count, so that no verdict depends on
/// whether a seed happened to exercise a mechanism. Past `cap` clocks the
/// run fails, naming the bins still short. `bins` is evaluated only once
/// `clock >= clocks`, every 64 clocks. Both lengths are multiplied by
/// `scale()`.
pub fn done(clock: u64, clocks: u64, cap: u64, bins: impl FnOnce() -> Bins) -> bool {
    let (clocks, cap) = (clocks * scale(), cap * scale());
    if clock < clocks || !clock.is_multiple_of(64) {
        return false;
    }
    let short: Vec<String> = bins()
        .into_iter()
        .filter(|&(_, got, want)| got < want)
        .map(|(name, got, want)| format!("{name}: {got} of {want}"))
        .collect();
    assert!(
        short.is_empty() || clock < cap,
        "coverage not reached after {clock} clocks (weak stimulus): {}",
        short.join(", ")
    );
    short.is_empty()
}
