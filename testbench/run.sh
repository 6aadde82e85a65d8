#!/usr/bin/env bash
# The project's one test command: installs every tool into .tools/ (if absent),
# checks formatting, lints, builds the docs and runs every test target, each
# timed. Every step runs even when an earlier one fails; the command fails at
# the end if any did, after a table of every step's wall time and result.
# Random tests use fixed seeds (see docs/verification.md), so the verdict is
# the same on every run; exploring fresh seeds is testbench/soak.sh's job.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
log=build/test-run.log
: >"$log"
start=$(date +%s)
steps=()
failed=0
failed_steps=()

# step NAME CMD...: runs CMD, output to the console and the log, and records
# its wall time and verdict.
step() {
    local name=$1
    shift
    local t0 ds verdict
    t0=$(date +%s%N)
    echo "=== $name: $*" | tee -a "$log"
    if "$@" 2>&1 | tee -a "$log"; then
        verdict=ok
    else
        verdict=FAILED
        failed=1
        failed_steps+=("$name")
    fi
    ds=$((($(date +%s%N) - t0) / 100000000))
    steps+=("$(printf '%-28s %6d.%d s  %s' "$name" $((ds / 10)) $((ds % 10)) "$verdict")")
}

step install-tools bash synth/install-tools.sh
step fmt cargo fmt --check
step clippy cargo clippy --release --all-targets -- -D warnings
step doc env RUSTDOCFLAGS="-D warnings" cargo doc --release --no-deps --quiet
step build-tests cargo test --release --no-run
step "test lib" cargo test --release --lib
step "test bin" cargo test --release --bins
step "test doc" cargo test --release --doc
# Every test target of both packages (the IP's testbench/ targets and the
# workshop's command-line test), one step each.
for target in $(sed -sn '/^\[\[test\]\]/,/^$/s/^name = "\(.*\)"/\1/p' Cargo.toml workshop/Cargo.toml); do
    step "test $target" cargo test --release --test "$target"
done

read -r passed fails < <(awk '/^test result:/ { for (i = 1; i < NF; i++) { if ($(i + 1) ~ /^passed/) p += $i; if ($(i + 1) ~ /^failed/) f += $i } } END { print p + 0, f + 0 }' "$log")
echo
echo "=== wall time per step"
printf '%s\n' "${steps[@]}"
printf '%-28s %6d   s\n' total $(($(date +%s) - start))
echo "tests: $passed passed, $fails failed"
# A target that crashes (a stack overflow, an abort) prints no counts: name
# every failed step so that a crash never reads as "0 failed".
if ((${#failed_steps[@]})); then
    echo "failed steps: $(printf '%s, ' "${failed_steps[@]}" | sed 's/, $//')"
fi
exit $failed
