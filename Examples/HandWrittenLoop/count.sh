#!/usr/bin/env bash
# Counts the hand-written loops under Callgrind as obsbench counts its own (deterministic hashing,
# no address randomisation, a copy stripped of debug info): Ir per operation is the difference of
# two runs of 100,000 and 300,000 operations, divided by 200,000, so start-up cancels.
# Usage: Examples/HandWrittenLoop/count.sh   (needs valgrind; prints Ir/op, and net of plain)
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release >/dev/null
binary="$(mktemp)"
trap 'rm -f "$binary" "$binary".out' EXIT
cp "$(swift build -c release --show-bin-path)/handloop" "$binary"
chmod +x "$binary"
strip --strip-debug "$binary"
count() { # OPERATION ITERATIONS: the process's Ir
    SWIFT_DETERMINISTIC_HASHING=1 setarch -R valgrind --tool=callgrind --callgrind-out-file="$binary.out" "$binary" "$1" "$2" 2>&1 |
        grep -o "Collected : [0-9]*" | awk '{print $3}'
}
per_op() { echo $((($(count "$1" 300000) - $(count "$1" 100000)) * 10 / 200000)); } # tenths of an Ir
for operation in write read; do
    plain=$(per_op "plain-$operation")
    for strategy in observable published; do
        value=$(per_op "$strategy-$operation")
        printf '%-10s %-5s %6s Ir/op, net of plain %6s\n' "$strategy" "$operation" \
            "$((value / 10)).$((value % 10))" "$(((value - plain) / 10)).$(((value - plain) % 10))"
    done
done
