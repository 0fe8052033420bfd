#!/usr/bin/env bash
# Canary check of the regression gate. For each size (+25%, then +10%), N pairs of quick latency
# runs back to back: one plain run, then one in which one strategy's timed writes do a known amount
# of extra work (OBSBENCH_CANARY=STRATEGY:PERCENT); each canary run is gated against the run just
# before it with the default policy (5% threshold, exact Mann-Whitney on round medians, Holm over
# the run's timings). A sound gate flags the +25% canary every time and nothing else.
#
# Usage: scripts/gate-canary.sh [N=5] [STRATEGY=observable]   (needs a release build: it builds one)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
strategy="${2:-observable}"
swift build -c release >/dev/null
bin="$(swift build -c release --show-bin-path)/obsbench"
out="$(mktemp -d)"
echo "canary: $runs pairs per size in $out" >&2
key="latency/write-unobserved/$strategy/latency"
for percent in 25 10; do
    flagged=0; others=0
    for i in $(seq 1 "$runs"); do
        "$bin" --suite latency --quick --output "$out/base-$percent-$i" >/dev/null 2>&1
        OBSBENCH_CANARY="$strategy:$percent" "$bin" --suite latency --quick --output "$out/canary-$percent-$i" >/dev/null 2>&1
        set +e
        "$bin" compare "$out/base-$percent-$i/latest" "$out/canary-$percent-$i/latest" --async-counts report > "$out/gate-$percent-$i.txt" 2>/dev/null
        set -e
        line="$(grep " $key " "$out/gate-$percent-$i.txt" | head -1)"
        if [[ "$line" == regression* ]]; then flagged=$((flagged + 1)); fi
        extra=$(grep '^regression' "$out/gate-$percent-$i.txt" | grep -vc " $key " || true)
        others=$((others + extra))
        echo "+$percent% pair $i: $(echo "$line" | tr -s ' ' | cut -c1-230); other regressions: $extra"
    done
    echo "+$percent% on $strategy's write: flagged in $flagged of $runs pairs; other (false) regressions: $others"
done
