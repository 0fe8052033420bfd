#!/usr/bin/env bash
# A/A check of the instruction gate: N quick instruction runs (latency + hops, every strategy) of
# ONE build, two at a time so that each runs while the other core is busy, each gated against the
# first. Prints every run's gate verdict and, per row, the spread of its value across all runs.
# Usage: scripts/instructions-aa.sh N [OUT]   (N even; OUT default /tmp/obsbench-instructions-aa)
set -euo pipefail
n="${1:-10}"
out="${2:-/tmp/obsbench-instructions-aa}"
cd "$(dirname "$0")/.."
swift build -c release --product obsbench-tool > /dev/null
mkdir -p "$out"
bin="$out/obsbench"
cp "$(swift build -c release --show-bin-path)/obsbench-tool" "$bin"  # the tool itself: a copied launcher has no tool beside it
for ((i = 1; i <= n; i += 2)); do
    for j in "$i" "$((i + 1))"; do
        "$bin" --suite latency --suite hops --measure instructions --quick --output "$out/run-$j" > "$out/run-$j.txt" 2>&1 &
    done
    wait
    echo "runs $i and $((i + 1)) done"
done
for ((j = 2; j <= n; j++)); do
    status=0
    "$bin" gate --baseline "$out/run-1/latest" --current "$out/run-$j/latest" > "$out/gate-$j.txt" 2>&1 || status=$?
    echo "run $j against run 1: exit $status; $(grep -c '^regression' "$out/gate-$j.txt" || true) regressions, $(grep -c '^improvement' "$out/gate-$j.txt" || true) improvements"
done
python3 - "$out" "$n" <<'PY'
import csv, sys, collections
out, n = sys.argv[1], int(sys.argv[2])
values = collections.defaultdict(list)
for j in range(1, n + 1):
    for row in csv.DictReader(open(f"{out}/run-{j}/latest/results.csv")):
        if row["metric"] == "instructions":
            values[(row["workload"], row["strategy"])].append(float(row["median"]))
print("row, min, max, spread (max-min)/min across runs")
for key, vs in sorted(values.items(), key=lambda kv: -(max(kv[1]) - min(kv[1])) / abs(min(kv[1]))):
    print(f"{key[0]} {key[1]}: {min(vs):.1f} {max(vs):.1f} {100 * (max(vs) - min(vs)) / abs(min(vs)):.3f}% ({len(vs)} runs)")
PY
