#!/usr/bin/env python3
"""How far apart builds of the same code put each instruction row's mean over layouts.

Usage: gate-builds-agreement.py RUNS NAME...   (RUNS/NAME/latest/results.csv or RUNS/NAME/results.csv, one per build)

For every synchronous strategy's latency row, and separately for asynchronous strategies and hops,
prints the largest difference between any two builds' means (as a share of the smaller), and the
rows beyond 0.5% (synchronous) or 3% (the others), with each build's mean. Part of
scripts/gate-builds-check.sh; docs/gate.md ("Layouts") has what it showed.
"""
import csv
import itertools
import json
import os
import sys

runs, names = sys.argv[1], sys.argv[2:]
means, asynchronous = {}, set()
for name in names:
    folder = f"{runs}/{name}/latest" if os.path.exists(f"{runs}/{name}/latest/results.csv") else f"{runs}/{name}"
    details = json.load(open(f"{folder}/run.json")).get("strategy_details", [])
    asynchronous |= {d["name"] for d in details if d.get("capabilities", {}).get("delivery") == "asynchronous"}
    for row in csv.DictReader(open(f"{folder}/results.csv")):
        if row["metric"] != "instructions" or not row["mean"]:
            continue
        key = (row["suite"], row["workload"], row["strategy"], row["subscribers"])
        means.setdefault(key, {})[name] = float(row["mean"])


def widest(values):
    pairs = itertools.combinations(values, 2)
    return max((abs(a - b) / min(a, b) for a, b in pairs if min(a, b) > 0), default=0.0)


for label, limit, selected in [
    ("synchronous latency rows", 0.005, lambda k: k[0] == "latency" and k[2] not in asynchronous),
    ("asynchronous strategies' rows and hops", 0.03, lambda k: k[0] == "hops" or k[2] in asynchronous),
]:
    rows = {k: v for k, v in means.items() if selected(k) and len(v) == len(names)}
    spread = {k: widest(list(v.values())) for k, v in rows.items()}
    beyond = sorted((k for k in rows if spread[k] > limit), key=lambda k: -spread[k])
    print(f"{label}: {len(rows)} rows; means of {len(names)} builds agree within {limit:.1%} in {len(rows) - len(beyond)}; "
          f"widest {max(spread.values(), default=0):.2%}")
    for k in beyond:
        print(f"  {'/'.join(k[:3])} S={k[3]}: {spread[k]:.2%} apart; means " + " ".join(f"{rows[k][n]:.0f}" for n in names))
