#!/usr/bin/env bash
# Canary check of the instruction gate: does it catch a known regression, and only it?
# One clean quick instruction run of the latency suite for plain and STRATEGY, then N runs with
# OBSBENCH_CANARY=STRATEGY:PERCENT (STRATEGY's write-unobserved does PERCENT% more work, sized on
# its own instruction count), two at a time, each gated against the clean run. Prints, per run,
# whether the canary's row was flagged, its measured change, and anything else flagged.
# Usage: scripts/instructions-canary.sh N STRATEGY PERCENT [OUT]
set -euo pipefail
n="${1:-10}"; strategy="${2:-observable}"; percent="${3:-1}"
out="${4:-/tmp/obsbench-instructions-canary-$strategy-$percent}"
cd "$(dirname "$0")/.."
swift build -c release --product obsbench-tool > /dev/null
mkdir -p "$out"
bin="$out/obsbench"
cp "$(swift build -c release --show-bin-path)/obsbench-tool" "$bin"  # the tool itself: a copied launcher has no tool beside it
run() { "$bin" --suite latency --strategy plain --strategy "$strategy" --measure instructions --quick --output "$out/$1" > "$out/$1.txt" 2>&1; }
run clean
for ((i = 1; i <= n; i += 2)); do
    for j in "$i" "$((i + 1))"; do
        [ "$j" -le "$n" ] && OBSBENCH_CANARY="$strategy:$percent" run "canary-$j" &
    done
    wait
done
caught=0; false=0
for ((j = 1; j <= n; j++)); do
    status=0
    "$bin" gate --baseline "$out/clean/latest" --current "$out/canary-$j/latest" > "$out/gate-$j.txt" 2>&1 || status=$?
    row=$(grep "latency/write-unobserved/$strategy/instructions" "$out/gate-$j.txt" || true)
    others=$(grep '^regression' "$out/gate-$j.txt" | grep -vc "latency/write-unobserved/$strategy/instructions" || true)
    case "$row" in regression*) caught=$((caught + 1)) ;; esac
    false=$((false + others))
    echo "canary run $j: exit $status; $(echo "$row" | tr -s ' ' | cut -c1-150); other regressions: $others"
done
echo "+$percent% canary on $strategy: flagged in $caught of $n comparisons; $false other regressions"
