#!/usr/bin/env bash
# Soak: every random test over fresh seeds.
#
#   bash testbench/soak.sh [SEEDS] [TARGET...]
#
# Runs every test whose name contains `random` (the rule the harness's seed()
# enforces) in the named test targets (default: all) once per seed, SEEDS
# fresh seeds (default 10), SOAK_JOBS at a time (default: one per core). It
# keeps going after a failure, prints each failing run with the command that
# replays it, and ends with a pass/fail table per test. ODP_SCALE=<k>
# multiplies the length of every random run (ODP_SCALE=10 puts the long
# Verilated runs at 10^7 clocks and more). Logs: build/soak/<time>/.
# Needs the tools of synth/install-tools.sh (run by testbench/run.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-10}
shift || true
case $seeds in '' | *[!0-9]*)
    echo "usage: bash testbench/soak.sh [SEEDS] [TARGET...]" >&2
    exit 2
    ;;
esac
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(sed -sn '/^\[\[test\]\]/,/^$/s/^name = "\(.*\)"/\1/p' Cargo.toml workshop/Cargo.toml)
fi
jobs=${SOAK_JOBS:-$(nproc)}
dir=build/soak/$(date -u +%Y%m%dT%H%M%S)
mkdir -p "$dir"
start=$(date +%s)

# One line per run: target, binary, test, seed.
: >"$dir/runs"
list=()
for t in "${targets[@]}"; do
    exe=$(cargo test --release --test "$t" --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*\))$/\1/p' | tail -n 1)
    if [ -z "$exe" ] || [ ! -x "$exe" ]; then
        echo "soak: no test binary for target '$t'" >&2
        exit 2
    fi
    while read -r name; do
        list+=("$t $exe $name")
    done < <("$exe" --list 2>/dev/null | sed -n 's/^\(.*random.*\): test$/\1/p')
done
mapfile -t seed_list < <(for _ in $(seq "$seeds"); do od -An -N8 -tu8 /dev/urandom | tr -d ' '; done)
echo "soak: ${#list[@]} random tests x $seeds seeds, $jobs at a time, ODP_SCALE=${ODP_SCALE:-1}, logs in $dir"
echo "seeds: ${seed_list[*]}"
for s in "${seed_list[@]}"; do
    for l in "${list[@]}"; do
        echo "$l $s" >>"$dir/runs"
    done
done

# one TARGET EXE TEST SEED: runs it, appends "pass|fail TARGET TEST SEED".
one() {
    local log="$SOAK_DIR/$1.$3.$4.log"
    if ODP_SEED=$4 "$2" --exact "$3" --test-threads=1 >"$log" 2>&1; then
        echo "pass $1 $3 $4" >>"$SOAK_DIR/results"
        rm -f "$log"
    else
        echo "fail $1 $3 $4" >>"$SOAK_DIR/results"
        echo "FAIL $1 $3 seed $4: ODP_SEED=$4 cargo test --release --test $1 -- --exact $3 ($log)"
    fi
}
export -f one
export SOAK_DIR=$dir
: >"$dir/results"
xargs -P "$jobs" -L 1 bash -c 'one "$@"' _ <"$dir/runs"

echo
printf '%-20s %-72s %5s %5s  %s\n' target test pass fail "failing seeds"
awk '{ k = $2 " " $3; if ($1 == "pass") p[k]++; else { f[k]++; s[k] = s[k] " " $4 } ; all[k] = 1 }
     END { for (k in all) { split(k, a, " "); printf "%-20s %-72s %5d %5d %s\n", a[1], a[2], p[k], f[k], s[k] } }' \
    "$dir/results" | sort
total=$(wc -l <"$dir/results")
nfail=$(grep -c '^fail' "$dir/results")
echo "soak: $((total - nfail)) passed, $nfail failed in $(($(date +%s) - start)) s"
[ "$nfail" -eq 0 ]
