#!/usr/bin/env bash
# Interrupts real runs with real signals and checks nothing measured is lost:
# SIGINT and SIGTERM, each sent once a worker has finished and while the next one runs.
# The run must stop its worker, keep every finished row (results.csv, rounds.csv, samples.csv),
# say "interrupted" in run.json, point latest at the run, and exit 130 (SIGINT) or 143 (SIGTERM).
# Usage: scripts/interrupt-test.sh [path/to/release/obsbench]   (.ci/run runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-$(swift build -c release --show-bin-path)/obsbench}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fail() { echo "interrupt test: $*" >&2; exit 1; }

for signal in INT TERM; do
    expected=$((128 + $(kill -l "$signal")))
    "$bin" --suite latency --quick --output "$out/$signal" > "$out/$signal.stdout" 2> "$out/$signal.stderr" &
    pid=$!
    # Wait until at least one worker's rows are on disk (the header is line 1).
    for _ in $(seq 1 600); do
        if [ "$(cat "$out/$signal"/*/rounds.csv 2>/dev/null | wc -l)" -gt 1 ]; then break; fi
        sleep 0.1
    done
    [ "$(cat "$out/$signal"/*/rounds.csv 2>/dev/null | wc -l)" -gt 1 ] || fail "no worker finished within 60 s"
    run_id="$(basename "$(dirname "$(ls "$out/$signal"/*/rounds.csv)")")"
    kill "-$signal" "$pid"
    status=0
    wait "$pid" || status=$?
    [ "$status" -eq "$expected" ] || { cat "$out/$signal.stderr" >&2; fail "SIG$signal: exit status $status, expected $expected"; }
    run="$out/$signal/$run_id"
    grep -q '"status" : "interrupted"' "$run/run.json" || fail "SIG$signal: run.json does not say interrupted"
    [ "$(readlink "$out/$signal/latest")" = "$run_id" ] || fail "SIG$signal: latest does not point at the run"
    rounds=$(($(wc -l < "$run/rounds.csv") - 1))
    results=$(($(wc -l < "$run/results.csv") - 1))
    samples=$(($(wc -l < "$run/samples.csv") - 1))
    [ "$results" -gt 0 ] && [ "$samples" -gt 0 ] || fail "SIG$signal: results.csv has $results rows, samples.csv $samples"
    # Every file reads back whole: the gate's reader refuses a torn row. The gate then refuses one
    # run on both sides (NO VERDICT (same-run)), which it says only once both sides were read.
    readback="$("$bin" compare "$run" "$run" --counts-only 2>&1 || true)"
    grep -q '^NO VERDICT (same-run)' <<< "$readback" || { echo "$readback" >&2; fail "SIG$signal: the interrupted run's files do not read back"; }
    sleep 1
    # No process of the run may be left (read from /proc: pgrep is not on every machine; matched
    # in bash, so no searching process carries the run id in its own command line).
    for cmdline in /proc/[0-9]*/cmdline; do
        command_line="$(tr '\0' ' ' < "$cmdline" 2>/dev/null || true)"
        if [[ "$command_line" == *"--run-id $run_id"* ]]; then fail "SIG$signal: a worker of the run is still running: $command_line"; fi
    done
    grep -q "interrupted by signal" "$out/$signal.stderr" || fail "SIG$signal: no message on standard error"
    echo "SIG$signal: exit $status; kept $rounds worker rows, $results pooled rows, $samples samples; run.json says interrupted; no worker left"
done
