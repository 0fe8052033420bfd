#!/usr/bin/env python3
"""Coefficient of variation of each headline median across several obsbench runs.

Usage: scripts/repeatability.py RUN_DIR [RUN_DIR ...]
Each RUN_DIR holds a results.csv. Prints, per (suite, workload, strategy, metric) present in
every run, the medians, their mean, and the CV (standard deviation / mean) across the runs.
Exit status 0; the table is the result. Standard library only.
"""
import csv
import statistics
import sys
from collections import defaultdict


def medians(run_dir):
    found = {}
    with open(f"{run_dir}/results.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            if row["metric"] in ("latency",) and row["median"]:
                key = (row["suite"], row["workload"], row["strategy"], row["subscribers"], row["metric"])
                found[key] = float(row["median"])
    return found


def main(dirs):
    if len(dirs) < 2:
        sys.exit("usage: repeatability.py RUN_DIR RUN_DIR [RUN_DIR ...]")
    runs = [medians(d) for d in dirs]
    keys = sorted(set.intersection(*(set(r) for r in runs)))
    worst = defaultdict(float)
    print(f"{'workload':22} {'strategy':14} {'medians (ns)':40} {'cv':>6}")
    for key in keys:
        values = [r[key] for r in runs]
        mean = statistics.fmean(values)
        cv = statistics.pstdev(values) / mean if mean else 0.0
        worst[key[2]] = max(worst[key[2]], cv)
        shown = " ".join(f"{v:9.1f}" for v in values)
        flag = "  <-- over 10%" if cv > 0.10 else ""
        print(f"{key[1]:22} {key[2]:14} {shown:40} {cv*100:5.1f}%{flag}")
    print()
    print("worst CV per strategy: " + ", ".join(f"{s} {c*100:.1f}%" for s, c in sorted(worst.items())))


if __name__ == "__main__":
    main(sys.argv[1:])
