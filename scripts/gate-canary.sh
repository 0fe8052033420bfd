#!/usr/bin/env bash
# Canary check of the regression gate: one baseline quick latency run, then N runs in which one
# strategy's timed writes do a known amount of extra work (OBSBENCH_CANARY=STRATEGY:PERCENT, +25%
# then +10%), each gated against the baseline with the default policy (5% threshold, Mann-Whitney
# across rounds, Bonferroni over the run's timings). A sound gate flags the +25% canary every time
# and nothing else.
#
# Usage: scripts/gate-canary.sh [N=5] [STRATEGY=observable]   (needs a release build: it builds one)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
strategy="${2:-observable}"
swift build -c release >/dev/null
bin="$(swift build -c release --show-bin-path)/obsbench"
out="$(mktemp -d)"
echo "canary: baseline and $runs runs per size in $out" >&2
"$bin" --suite latency --quick --output "$out/base" >/dev/null 2>&1
key="latency/write-unobserved/$strategy/latency"
for percent in 25 10; do
    flagged=0; others=0
    for i in $(seq 1 "$runs"); do
        OBSBENCH_CANARY="$strategy:$percent" "$bin" --suite latency --quick --output "$out/canary-$percent-$i" >/dev/null 2>&1
        set +e
        "$bin" compare "$out/base/latest" "$out/canary-$percent-$i/latest" --async-counts report > "$out/gate-$percent-$i.txt" 2>/dev/null
        set -e
        line="$(grep " $key " "$out/gate-$percent-$i.txt" | head -1)"
        if [[ "$line" == regression* ]]; then flagged=$((flagged + 1)); fi
        extra=$(grep '^regression' "$out/gate-$percent-$i.txt" | grep -vc " $key " || true)
        others=$((others + extra))
        echo "+$percent% run $i: $(echo "$line" | tr -s ' ' | cut -c1-200)"
    done
    echo "+$percent% on $strategy's write: flagged in $flagged of $runs runs; other (false) regressions: $others"
done
