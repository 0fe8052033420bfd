#!/usr/bin/env bash
# A/A check of the regression gate: run the quick suites N times on the same build and gate every
# run against the first. A sound gate reports no regression for exact counts and (target) at most
# one run in ten with a timing "regression" that is only noise.
#
# Usage: scripts/gate-aa.sh [N=10] [extra obsbench run options...]
# Prints, per run, the gate's verdict line for: counts only (what .ci/run gates), and the default
# policy (timings too). Needs a release build: it builds one.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10}"; shift || true
swift build -c release >/dev/null
bin="$(swift build -c release --show-bin-path)/obsbench"
out="$(mktemp -d)"
echo "A/A: $runs quick runs in $out" >&2
for i in $(seq 1 "$runs"); do
    "$bin" --suite all --quick --output "$out/run-$i" "$@" >/dev/null 2>&1 || echo "run $i: obsbench exited $?" >&2
done
counts_false=0; timing_false=0
for i in $(seq 2 "$runs"); do
    set +e
    "$bin" gate --baseline "$out/run-1/latest" --current "$out/run-$i/latest" --counts-only --async-counts report > "$out/gate-counts-$i.txt" 2>/dev/null
    counts=$?
    "$bin" gate --baseline "$out/run-1/latest" --current "$out/run-$i/latest" --async-counts report > "$out/gate-all-$i.txt" 2>/dev/null
    all=$?
    set -e
    [ "$counts" -eq 2 ] && counts_false=$((counts_false + 1))
    [ "$all" -eq 2 ] && timing_false=$((timing_false + 1))
    echo "run $i vs run 1: counts only: $(sed -n 3p "$out/gate-counts-$i.txt") | with timings: $(sed -n 3p "$out/gate-all-$i.txt")"
done
echo "false regressions: counts only $counts_false of $((runs - 1)) runs; with timings $timing_false of $((runs - 1)) runs (reports in $out)"
