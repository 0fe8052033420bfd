#!/usr/bin/env python3
"""Charts from an obsbench run: python3 plot-scripts/plot.py results/latest [--out DIR]

Reads results.csv by column name (the header contract in the README) and writes PNG and SVG
charts into <run>/plots/ (or --out), each named after its suite: latency per strategy with 95% CI whiskers, subscriber
scaling on log-log axes (one panel per topology), memory per object split into the record and
the observation machinery, hop latency per isolation kind and caller count, torn
observations per 1,000 transactions, the store-isolation suite's operations per store, and the
pool suite's probe latencies per compute placement and busy task count. A chart whose suite is not in the run is skipped with a
message, never an error. Exit status: 0 charts written (or skipped), 1 unreadable input.
"""
import argparse
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

REQUIRED = ["suite", "workload", "strategy", "executor", "objects", "subscribers", "concurrency",
            "metric", "unit", "samples", "median", "ci95_low", "ci95_high"]
# Strategy order for legends and axes: the run's own (run.json's "strategies", which is the
# order obsbench lists them in), else the order rows first name them. Set by main().
STRATEGY_ORDER = []


def read_rows(path):
    """Rows of results.csv as dicts, numbers parsed; exits 1 naming the file or column at fault."""
    csv_path = os.path.join(path, "results.csv") if os.path.isdir(path) else path
    if not os.path.exists(csv_path):
        sys.exit(f"plot.py: {csv_path}: no such file (pass a run folder or its results.csv)")
    with open(csv_path, newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [column for column in REQUIRED if column not in (reader.fieldnames or [])]
        if missing:
            sys.exit(f"plot.py: {csv_path}: missing column(s) {', '.join(missing)}")
        rows = []
        for line, row in enumerate(reader, start=2):
            if row["metric"] == "error" or row["median"] == "":
                continue
            try:
                for key in ("median", "ci95_low", "ci95_high"):
                    row[key] = float(row[key])
                for key in ("objects", "subscribers", "concurrency"):
                    row[key] = int(row[key])
            except ValueError as error:
                sys.exit(f"plot.py: {csv_path}:{line}: {error}")
            rows.append(row)
    return csv_path, rows


def strategy_order(csv_path, rows):
    """The run's strategies in obsbench's order: run.json beside results.csv, else first appearance."""
    order = []
    metadata = os.path.join(os.path.dirname(os.path.abspath(csv_path)), "run.json")
    if os.path.exists(metadata):
        try:
            with open(metadata) as handle:
                order = list(json.load(handle).get("strategies", []))
        except (OSError, ValueError):
            order = []
    for row in rows:
        if row["strategy"] not in order:
            order.append(row["strategy"])
    return order


def ordered(names):
    known = [name for name in STRATEGY_ORDER if name in names]
    return known + sorted(name for name in names if name not in STRATEGY_ORDER)


def save(figure, out, name, written):
    for extension in ("png", "svg"):
        target = os.path.join(out, f"{name}.{extension}")
        figure.savefig(target, dpi=120, bbox_inches="tight")
        written.append(target)
    plt.close(figure)


def latency_chart(rows, out, written):
    return latency_bars(rows, "latency", "Latency per operation", out, written)


def latency_bars(rows, suite, title, out, written):
    """Median latency per workload and strategy, with 95% CI whiskers, as plots/<suite>: the
    latency suite's chart, and any suite's without a chart function of its own."""
    latency = [r for r in rows if r["suite"] == suite and r["metric"] == "latency"]
    if not latency:
        return f"{suite}: suite not in this run" if not any(r["suite"] == suite for r in rows) else f"{suite}: no latency rows to chart"
    workloads = list(dict.fromkeys(r["workload"] for r in latency))
    strategies = ordered({r["strategy"] for r in latency})
    figure, axis = plt.subplots(figsize=(11, 5))
    width = 0.8 / len(strategies)
    for index, strategy in enumerate(strategies):
        xs, ys, low, high = [], [], [], []
        for position, workload in enumerate(workloads):
            match = [r for r in latency if r["strategy"] == strategy and r["workload"] == workload]
            if match:
                row = match[0]
                xs.append(position + index * width)
                ys.append(row["median"])
                low.append(max(row["median"] - row["ci95_low"], 0))
                high.append(max(row["ci95_high"] - row["median"], 0))
        axis.bar(xs, ys, width, yerr=[low, high], capsize=2, label=strategy)
    axis.set_yscale("log")
    axis.set_xticks([p + 0.4 - width / 2 for p in range(len(workloads))], workloads, rotation=15)
    axis.set_ylabel("ns per operation (median, 95% CI)")
    axis.set_title(title)
    axis.legend(fontsize=8, ncol=4)
    save(figure, out, suite, written)


def scaling_chart(rows, out, written):
    scaling = [r for r in rows if r["suite"] == "scaling" and r["metric"] == "latency"]
    if not scaling:
        return "scaling: suite not in this run"
    topologies = list(dict.fromkeys(r["workload"] for r in scaling))
    figure, axes = plt.subplots(1, len(topologies), figsize=(4 * len(topologies), 4), sharey=True, squeeze=False)
    for axis, topology in zip(axes[0], topologies):
        for strategy in ordered({r["strategy"] for r in scaling}):
            points = sorted((r["subscribers"], r["median"]) for r in scaling if r["workload"] == topology and r["strategy"] == strategy and r["median"] > 0)
            if points:
                axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=strategy)
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_title(topology)
        axis.set_xlabel("subscribed views S")
    axes[0][0].set_ylabel("ns per write, to quiescence")
    axes[0][-1].legend(fontsize=7)
    save(figure, out, "scaling", written)


def memory_chart(rows, out, written):
    fresh = [r for r in rows if r["suite"] == "memory" and r["metric"] == "fresh_bytes_per_object"]
    if not fresh:
        return "memory: suite not in this run"
    largest = max(r["objects"] for r in fresh)
    at = {r["strategy"]: r["median"] for r in fresh if r["objects"] == largest}
    if "plain" not in at:
        return "memory: plain not in this run (the record's share is plain's bytes per object)"
    strategies = ordered(set(at))
    record = [min(at[s], at["plain"]) for s in strategies]
    machinery = [max(at[s] - at["plain"], 0) for s in strategies]
    figure, axis = plt.subplots(figsize=(9, 4))
    axis.bar(strategies, record, label="record (plain's bytes, or less)")
    axis.bar(strategies, machinery, bottom=record, label="observation machinery (over plain)")
    axis.set_ylabel(f"bytes per object, N = {largest}")
    axis.set_title("Memory per object")
    axis.tick_params(axis="x", rotation=20)
    axis.legend(fontsize=8)
    save(figure, out, "memory", written)


def hops_chart(rows, out, written):
    hops = [r for r in rows if r["suite"] == "hops" and r["metric"] == "latency" and r["workload"].startswith("hop-")]
    if not hops:
        return "hops: suite not in this run"
    figure, axis = plt.subplots(figsize=(8, 4.5))
    for executor in dict.fromkeys(r["executor"] for r in hops):
        points = sorted((r["concurrency"], r["median"]) for r in hops if r["executor"] == executor and r["median"] > 0)
        if points:
            axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=executor)
    axis.set_xscale("log", base=2)
    axis.set_yscale("log")
    axis.set_xlabel("concurrent callers")
    axis.set_ylabel("ns per round trip, per caller")
    axis.set_title("Actor hops")
    axis.legend(fontsize=7)
    save(figure, out, "hops", written)


def grouped_bars(axis, groups, series, value, labels=None, **tick_options):
    """One bar per (group, series) pair, the series side by side within each group on the x axis;
    value(group, one_series) gives a bar's height (0 where nothing was measured)."""
    width = 0.8 / len(series)
    for index, one in enumerate(series):
        axis.bar([p + index * width for p in range(len(groups))], [value(g, one) for g in groups], width, label=str(one))
    axis.set_xticks([p + 0.4 - width / 2 for p in range(len(groups))], labels or groups, **tick_options)
    axis.legend(fontsize=8)


def consistency_chart(rows, out, written):
    torn = [r for r in rows if r["suite"] == "consistency" and r["metric"] in ("torn_per_1000_transactions", "combined_torn_per_1000_transactions")]
    if not torn:
        return "consistency: suite not in this run"
    workloads = list(dict.fromkeys(r["workload"] for r in torn))
    strategies = ordered({r["strategy"] for r in torn})
    figure, axis = plt.subplots(figsize=(9, 4))
    grouped_bars(axis, strategies, workloads,
                 lambda s, w: next((r["median"] for r in torn if r["strategy"] == s and r["workload"] == w), 0), rotation=20)
    axis.set_ylabel("torn observations per 1,000 transactions")
    axis.set_title("Consistency")
    save(figure, out, "consistency", written)


def store_isolation_chart(rows, out, written):
    cells = [r for r in rows if r["suite"] == "store-isolation" and r["metric"] == "latency"]
    if not cells:
        return "store-isolation: suite not in this run"
    workloads = list(dict.fromkeys(r["workload"] for r in cells))
    stores = list(dict.fromkeys(r["executor"] for r in cells))
    figure, axis = plt.subplots(figsize=(8, 4))
    grouped_bars(axis, workloads, stores,
                 lambda w, store: next((r["median"] / 1000 for r in cells if r["executor"] == store and r["workload"] == w), 0), rotation=10)
    axis.set_yscale("log")
    axis.set_ylabel("µs per operation (median)")
    axis.set_title("Store isolation: GCD queue, @MainActor and actor stores")
    save(figure, out, "store-isolation", written)


def pool_chart(rows, out, written):
    cells = [r for r in rows if r["suite"] == "pool" and r["metric"] == "latency" and r["workload"].startswith("saturation-")]
    if not cells:
        return "pool: suite not in this run"
    def probe(r):
        return (r["workload"].removeprefix("saturation-"), r["executor"])
    probes = list(dict.fromkeys(probe(r) for r in cells))
    counts = sorted({r["concurrency"] for r in cells})
    figure, axis = plt.subplots(figsize=(11, 5))
    grouped_bars(axis, probes, [f"{count} busy tasks" for count in counts],
                 lambda p, label: next((r["median"] / 1000 for r in cells if probe(r) == p and f"{r['concurrency']} busy tasks" == label), 0),
                 labels=[f"{a} · {b}" for a, b in probes], rotation=30, ha="right", fontsize=7)
    axis.set_yscale("log")
    axis.set_ylabel("µs for one probe (median)")
    axis.set_title("Cooperative pool under CPU-bound load: compute placement · probe")
    save(figure, out, "pool", written)


# Each suite's chart function, by suite name; it writes plots/<suite>.png and .svg, the name
# `obsbench list --format json` gives as the suite's "chart".
CHARTS = {
    "latency": latency_chart,
    "scaling": scaling_chart,
    "memory": memory_chart,
    "hops": hops_chart,
    "consistency": consistency_chart,
    "store-isolation": store_isolation_chart,
    "pool": pool_chart,
}


def main(argv=None):
    parser = argparse.ArgumentParser(description="Charts from an obsbench run (PNG and SVG).")
    parser.add_argument("run", help="a run folder (e.g. results/latest) or its results.csv")
    parser.add_argument("--out", help="where to write the charts (default: <run>/plots)")
    arguments = parser.parse_args(argv)
    csv_path, rows = read_rows(arguments.run)
    out = arguments.out or os.path.join(os.path.dirname(os.path.abspath(csv_path)), "plots")
    os.makedirs(out, exist_ok=True)
    STRATEGY_ORDER[:] = strategy_order(csv_path, rows)
    written = []
    for chart in CHARTS.values():
        skipped = chart(rows, out, written)
        if skipped:
            print(f"skipped {skipped}", file=sys.stderr)
    # A suite without a chart of its own (a new one) gets its latency rows as bars.
    for suite in sorted({r["suite"] for r in rows} - set(CHARTS)):
        skipped = latency_bars(rows, suite, f"{suite}: latency per operation (no chart of its own in plot.py's CHARTS)", out, written)
        if skipped:
            print(f"no chart for suite {suite}: {skipped} (add a function to plot.py's CHARTS, named after the suite)", file=sys.stderr)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
