#!/usr/bin/env bash
# Checks the instruction gate between real builds (docs/gate.md, "Layouts"):
#  - A/A: five builds of HEAD, each with an unrelated change (none; a public function added to
#    ObsBenchKit; a file renamed; three comment lines at the top of observable's strategy; a public
#    function added to ObservationStrategies), compared in all 10 pairs: every synchronous latency
#    row's mean should agree within 0.5%, and the gate should flag nothing;
#  - canaries: OBSBENCH_BUILD_CANARY=observable-write (+1% on observable's write) and
#    published-write-observed (+2% on published's write with a view), each built twice (on HEAD and
#    with the first unrelated change), each build compared with the five A/A builds: 10 comparisons
#    each, in which the canary's row should be flagged and nothing else.
# Every build is counted once (latency and hops, every strategy, --quick, the default layouts):
# synchronous counts are deterministic, so a pair is judged by comparing the two runs, with this
# tree's gate and its default settings.
# The builds are made in a git worktree of HEAD with its own scratch path; your tree is untouched.
# About 10 minutes of builds and 55 of counting on the 2-core development machine.
# Usage: scripts/gate-builds-check.sh [OUT]   (OUT/bin, OUT/runs, OUT/summary.txt)
#        scripts/gate-builds-check.sh --judge RUNS [OUT]
#   --judge: build and count nothing; judge the counts already in RUNS (RUNS/NAME/ or
#   RUNS/NAME/latest/ for each of v0-v4, cobs-a/b, cpub-a/b, e.g. a committed
#   results/reference/gate-builds-*/) with this tree's gate. Counts of a binary repeat, so a new
#   gate is checked on an old check's counts in a minute.
set -euo pipefail
judge_only=""
if [ "${1:-}" = "--judge" ]; then
    judge_only="$(cd "$2" && pwd)"
    shift 2
fi
out="${1:-/tmp/obsbench-gate-builds}"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out/bin" "$out/runs"
out="$(cd "$out" && pwd)"
runs="${judge_only:-$out/runs}"
aa="v0 v1 v2 v3 v4"
if [ -z "$judge_only" ]; then
tree="$out/tree"
[ -d "$tree" ] || git -C "$root" worktree add --detach "$tree" HEAD > /dev/null

change() { # an unrelated change, by name, to the worktree
    case "$1" in
        v0) ;;
        v1) printf '\n/// Unused: an unrelated change for the A/A check.\npublic func aaUnrelatedHelper(_ values: [Int]) -> Int { values.reduce(0, &+) &* 3 }\n' \
            >> Sources/ObsBenchKit/Export/TrackerExport.swift ;;
        v2) git mv Sources/ObsBenchKit/Report/Claims.swift Sources/ObsBenchKit/Report/ClaimsCheck.swift ;;
        v3) sed -i '1i // An unrelated comment for the A/A check.\n// It moves every line of this file down by three.\n//' \
            Sources/ObservationStrategies/Observable/ObservableStrategy.swift ;;
        v4) printf '\n/// Unused: an unrelated change for the A/A check.\npublic func aaUnrelatedIndex(_ id: Int, _ count: Int) -> Int? { (1...max(count, 1)).contains(id) ? id &- 1 : nil }\n' \
            >> Sources/ObservationStrategies/Support/RecordIndex.swift ;;
    esac
}
build() { # name change canary
    [ -x "$out/bin/$1" ] && return
    (
        cd "$tree"
        git reset -q --hard HEAD
        change "$2"
        OBSBENCH_BUILD_CANARY="$3" swift build -c release --product obsbench-tool --scratch-path "$out/.build" > "$out/build-$1.txt" 2>&1
        cp "$out/.build/release/obsbench-tool" "$out/bin/$1"  # the tool itself: a copied launcher has no tool beside it
        git reset -q --hard HEAD
    )
    echo "built $1 (change $2${3:+, canary $3})"
}
for v in $aa; do build "$v" "$v" ""; done
build cobs-a v0 observable-write
build cobs-b v1 observable-write
build cpub-a v0 published-write-observed
build cpub-b v1 published-write-observed

for name in $aa cobs-a cobs-b cpub-a cpub-b; do
    [ -e "$out/runs/$name/latest/results.csv" ] && continue
    start=$(date +%s)
    "$out/bin/$name" --suite latency --suite hops --measure instructions --quick --output "$out/runs/$name" > "$out/runs/$name.txt" 2>&1
    echo "counted $name in $(($(date +%s) - start)) s"
done
fi

# The judge: this tree's own gate (the builds above only count).
(cd "$root" && swift build -c release --product obsbench-tool > /dev/null)
judge="$(cd "$root" && swift build -c release --show-bin-path)/obsbench-tool"
folder() { # name: its run folder in RUNS
    if [ -e "$runs/$1/latest/results.csv" ]; then echo "$runs/$1/latest"; else echo "$runs/$1"; fi
}
gate() { # base current: the gate's verdict lines, into OUT/gate-base-current.txt
    local status=0
    "$judge" gate --baseline "$(folder "$1")" --current "$(folder "$2")" > "$out/gate-$1-$2.txt" 2>&1 || status=$?
    echo "$status"
}
{
    # Every ordered pair: a row's allowance comes from the baseline's layouts alone, so A against
    # B is not B against A.
    echo "A/A: 20 ordered pairs of builds (baseline vs current)${judge_only:+, judging the counts in $judge_only}"
    quiet=0
    for a in $aa; do
        for b in $aa; do
            [ "$a" = "$b" ] && continue
            status=$(gate "$a" "$b")
            [ "$status" -eq 0 ] && quiet=$((quiet + 1))
            echo "  $a vs $b: exit $status; $(sed -n 3p "$out/gate-$a-$b.txt")"
        done
    done
    echo "A/A: $quiet of 20 pairs quiet"
    python3 "$root/scripts/gate-builds-agreement.py" "$runs" $aa
    for canary in cobs:latency/write-unobserved/observable/instructions cpub:latency/write-observed/published/instructions; do
        prefix="${canary%%:*}"; row="${canary#*:}"; caught=0; others=0
        for c in "$prefix-a" "$prefix-b"; do
            for v in $aa; do
                status=$(gate "$v" "$c")
                line=$(grep -F "$row" "$out/gate-$v-$c.txt" | head -1 | tr -s ' ')
                case "$line" in regression*) caught=$((caught + 1)) ;; esac
                n=$(grep -E '^(regression|spread|improvement)' "$out/gate-$v-$c.txt" | grep -vcF "$row" || true)
                others=$((others + n))
                echo "  $v vs $c: exit $status; $(echo "$line" | cut -c1-110); others flagged: $n"
            done
        done
        echo "canary $prefix ($row): flagged in $caught of 10 comparisons; $others other rows flagged"
    done
} | tee "$out/summary.txt"
