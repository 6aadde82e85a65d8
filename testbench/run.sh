#!/usr/bin/env bash
# The project's one test command: installs every tool into .tools/ (if absent),
# checks formatting, lints, builds the docs and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash synth/install-tools.sh
cargo fmt --check
cargo clippy --release --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --release --no-deps --quiet
cargo test --release
