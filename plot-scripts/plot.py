#!/usr/bin/env python3
"""Charts from an obsbench run: python3 plot-scripts/plot.py results/latest [--out DIR]

Reads results.csv by column name (the header contract in the README) and writes PNG and SVG
charts into <run>/plots/ (or --out), each named after its suite: latency per strategy with process-range
whiskers (operations in ns and scans in µs or ms on axes of their own), subscriber
scaling on log-log axes (one panel per topology), memory per object split into the record and
the observation machinery, hop latency per isolation kind and caller count, torn
observations per 1,000 transactions, the store-isolation suite's operations per store, and the
pool suite's probe latencies per compute placement and busy task count, and the derived suite's
filtered-sorted writes (cost and re-runs, avoidable ones hatched, per strategy and derivation
style) over its growth in chain depth D and fan-out width W. A chart whose suite is not in the run
is skipped with a message, never an error. Exit status: 0 charts written (or skipped), 1 unreadable input.

A timing not distinguishable from the empty loop (see indistinguishable_from_empty_loop: the rule
obsbench's tables use) gets no bar or point: its place says "≈ empty loop", explained on the chart.
"""
import argparse
import csv
import json
import math
import os
import sys
import textwrap

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.transforms import blended_transform_factory  # noqa: E402

REQUIRED = ["suite", "workload", "strategy", "executor", "objects", "subscribers", "concurrency",
            "metric", "unit", "samples", "median", "ci95_low", "ci95_high"]
# Strategy order for legends and axes: the run's own (run.json's "strategies", which is the
# order obsbench lists them in), else the order rows first name them. Set by main().
STRATEGY_ORDER = []

# A timing not distinguishable from the empty loop: what stands in its place on a chart (no bar,
# no point), and the footnote that explains it on every chart that has one.
EMPTY_LOOP_TEXT = "≈ empty loop"
EMPTY_LOOP_WHY = ("not distinguishable from the empty loop: at least a tenth of the samples were no slower than the "
                  "empty loop (p10 ≤ 0; the harness clamps each sample's net time at 0) and the median is under 0.05 ns.")
EMPTY_LOOP_NOTE = f"{EMPTY_LOOP_TEXT}: {EMPTY_LOOP_WHY} No bar is drawn for it, and no ratio is taken against it."
EMPTY_LOOP_POINT_NOTE = f"× on a panel's foot: {EMPTY_LOOP_WHY} No point is drawn for it, and no ratio is taken against it."


# The median (ns/op) under which a timing with p10 <= 0 does not differ from the empty loop: a
# sixth of one clock cycle at 3 GHz. The same rule as ResultRow.isIndistinguishableFromEmptyLoop.
INDISTINGUISHABLE_BELOW_NS = 0.05


def indistinguishable_from_empty_loop(row):
    """Whether a row is a timing not distinguishable from the empty loop: a latency row (metric
    `latency`, unit `ns/op`) whose p10 is <= 0 (at least a tenth of its samples were no slower
    than the empty loop; the harness clamps each sample's net time at 0) and whose median is below
    INDISTINGUISHABLE_BELOW_NS. The rule is ResultRow.isIndistinguishableFromEmptyLoop's. Such a
    row is drawn as EMPTY_LOOP_TEXT, never as a bar, a point or a ratio. A row without p10 or
    median (a results.csv older than the column) is never one."""
    if row.get("metric") != "latency" or row.get("unit") != "ns/op":
        return False
    try:
        return float(row["p10"]) <= 0 and float(row["median"]) < INDISTINGUISHABLE_BELOW_NS
    except (KeyError, TypeError, ValueError):
        return False


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
                row["p10"] = float(row["p10"]) if row.get("p10") not in (None, "") else None
                for key in ("objects", "subscribers", "concurrency"):
                    row[key] = int(row[key])
            except ValueError as error:
                sys.exit(f"plot.py: {csv_path}:{line}: {error}")
            rows.append(row)
    attach_processes(csv_path, rows)
    return csv_path, rows


ROW_KEY = ("suite", "workload", "strategy", "executor", "objects", "subscribers", "concurrency", "metric")

# What a whisker is, on every chart that draws one, and what a bar without one means.
WHISKER_LABEL = "median; whiskers: range of the\nworker processes' medians"
ONE_PROCESS_NOTE = "A bar without a whisker comes from one worker process: nothing shows how far another would land."


def attach_processes(csv_path, rows):
    """Sets each row's `processes` (how many worker processes gave it a value) and `process_low`,
    `process_high` (the least and greatest of their values: each process's median, or a count's
    value), from rounds.csv beside results.csv, each process's own rows. Without rounds.csv a
    row counts as one process: its whisker would be an interval inside one process."""
    rounds_path = os.path.join(os.path.dirname(os.path.abspath(csv_path)), "rounds.csv")
    values = {}
    if os.path.exists(rounds_path):
        with open(rounds_path, newline="") as handle:
            for record in csv.DictReader(handle):
                if record.get("metric") == "error" or record.get("median", "") == "":
                    continue
                try:
                    key = tuple(str(record[column]) for column in ROW_KEY)
                    values.setdefault(key, []).append(float(record["median"]))
                except (KeyError, ValueError):
                    continue
    for row in rows:
        own = values.get(tuple(str(row[column]) for column in ROW_KEY), [])
        row["processes"] = len(own) if own else 1
        row["process_low"] = min(own) if own else row["median"]
        row["process_high"] = max(own) if own else row["median"]


def whisker(row):
    """A bar's whisker lengths below and above its median: the range of its worker processes'
    values, or none (0, 0) for a row of one process."""
    if row.get("processes", 1) < 2:
        return 0.0, 0.0
    return max(row["median"] - row["process_low"], 0.0), max(row["process_high"] - row["median"], 0.0)


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


def colors_for(names):
    """A colour per name, in order (tab10, tab20 past ten names), so a strategy keeps its colour
    across a chart's panels."""
    palette = plt.get_cmap("tab10" if len(names) <= 10 else "tab20").colors
    return {name: palette[index % len(palette)] for index, name in enumerate(names)}


def overlapping_texts(figure, among=None):
    """Pairs of texts drawn on the figure (tick labels in view, titles, axis labels, legends,
    notes) that overlap: the check save() makes on every chart; with among, only the pairs with
    one of those texts in them. Texts slanted alike are compared as the parallel strips they are,
    any others by their boxes."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    texts = list(figure.texts)
    for axis in figure.axes:
        if not axis.axison:  # a key's box: its legend and notes only
            texts += list(axis.texts) + (list(axis.get_legend().get_texts()) if axis.get_legend() else [])
            continue
        low, high = sorted(axis.get_xlim())
        texts += [t for t in axis.get_xticklabels(which="both") if low - 1e-9 <= t.get_position()[0] <= high + 1e-9]
        low, high = sorted(axis.get_ylim())
        texts += [t for t in axis.get_yticklabels(which="both") if low * (1 - 1e-9) <= t.get_position()[1] <= high * (1 + 1e-9)]
        texts += [axis.title, axis.xaxis.label, axis.yaxis.label] + list(axis.texts)
        if axis.get_legend() is not None:
            texts += list(axis.get_legend().get_texts())
    for legend in figure.legends:
        texts += list(legend.get_texts())
    for attribute in ("_suptitle", "_supxlabel", "_supylabel"):
        if getattr(figure, attribute, None) is not None:
            texts.append(getattr(figure, attribute))
    unique = list({id(text): text for text in texts if text.get_visible() and text.get_text().strip()}.values())
    boxes = [(text, text.get_window_extent(renderer)) for text in unique]
    pairs = []
    wanted = None if among is None else {id(text) for text in among}
    for index, (text, box) in enumerate(boxes):
        for other, other_box in boxes[index + 1:]:
            if wanted is not None and id(text) not in wanted and id(other) not in wanted:
                continue
            if not (box.overlaps(other_box) and box.width > 0 and other_box.width > 0):
                continue
            angle = text.get_rotation()
            if angle % 90 and angle == other.get_rotation():
                # Parallel slanted labels: apart when their strips are a line's height apart.
                (x1, y1), (x2, y2) = (t.get_transform().transform(t.get_position()) for t in (text, other))
                theta = math.radians(angle)
                apart = abs(-math.sin(theta) * (x2 - x1) + math.cos(theta) * (y2 - y1))
                lines = max(text.get_text().count("\n"), other.get_text().count("\n")) + 1
                if apart >= lines * max(text.get_fontsize(), other.get_fontsize()) * figure.dpi / 72 * 1.15:
                    continue
            pairs.append((text.get_text(), other.get_text()))
    return pairs


def save(figure, out, name, written):
    for first, second in overlapping_texts(figure):
        print(f"plot.py: {name}: labels overlap: {first!r} and {second!r}", file=sys.stderr)
    for extension in ("png", "svg"):
        target = os.path.join(out, f"{name}.{extension}")
        figure.savefig(target, dpi=120, bbox_inches="tight")
        written.append(target)
    plt.close(figure)


def mark_empty_loop(axis, x, color, fontsize=8):
    """EMPTY_LOOP_TEXT upright at x, from the panel's foot, where a bar would stand."""
    axis.text(x, 0.02, EMPTY_LOOP_TEXT, transform=blended_transform_factory(axis.transData, axis.transAxes),
              rotation=90, ha="center", va="bottom", fontsize=fontsize, color=color, fontweight="bold")


def mark_empty_loop_point(axis, x, color):
    """A × at x on the panel's foot, where a line chart's point would be."""
    axis.plot([x], [0.03], transform=blended_transform_factory(axis.transData, axis.transAxes),
              marker="x", markersize=7, markeredgewidth=2, color=color, linestyle="none", clip_on=False)


def add_note(figure, text, width_inches=None):
    """A footnote under the figure's panels, wrapped to the figure's width."""
    width = width_inches or figure.get_figwidth()
    wrapped = textwrap.fill(text, width=max(40, int(width * 14)))
    figure.text(0.01, -0.01, wrapped, ha="left", va="top", fontsize=8, transform=figure.transFigure)


KEY_FONT = 9


def key_height(labels, columns, note):
    """Inches a key row needs: its legend's rows, and its note's lines."""
    return 0.22 * -(-labels // columns) + (0.17 * (note.count("\n") + 1) + 0.05 if note else 0)


def add_key(figure, cell, handles, labels, columns, note=""):
    """A row of its own at the figure's foot (inside the constrained layout, so nothing overlaps
    it or is cropped): the legend, and under it a note."""
    key = figure.add_subplot(cell)
    key.axis("off")
    key.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 1.0), ncol=columns, fontsize=KEY_FONT,
               frameon=False, borderaxespad=0)
    if note:
        key.text(0.0, 0.0, note, transform=key.transAxes, ha="left", va="bottom", fontsize=KEY_FONT)
    return key


def latency_chart(rows, out, written):
    return latency_bars(rows, "latency", "Latency per operation", out, written)


def subscription_chart(rows, out, written):
    return latency_bars(rows, "subscription", "Subscribe one view (first run included), settle, unsubscribe", out, written)


# The panels of a latency bar chart: a workload's name says which it belongs to.
PANEL_TITLES = {
    "operations": "Operations",
    "concrete": "Concrete-type loops",
    "scans": "One scan of N records",
}


def panel_of(workload):
    """operations (ns), concrete (ns: the same loops on the strategy's own type) or scans (µs or ms)."""
    if workload.startswith("scan"):
        return "scans"
    if workload.endswith("-concrete"):
        return "concrete"
    return "operations"


def time_unit(values_ns):
    """The unit nanosecond values read best in, from their median: (name, nanoseconds per unit)."""
    if not values_ns:
        return "ns", 1.0
    middle = sorted(values_ns)[len(values_ns) // 2]
    if middle >= 1e6:
        return "ms", 1e6
    if middle >= 1e3:
        return "µs", 1e3
    return "ns", 1.0


# What else than the strategy a workload's rows can differ in, and how a group's label says it.
DIMENSIONS = [
    ("objects", lambda value: f"N = {value:,}"),
    ("executor", str),
    ("subscribers", lambda value: f"S = {value:,}"),
    ("concurrency", lambda value: f"{value:,} callers"),
]


def latency_bar_data(rows, suite):
    """The bars of a suite's latency chart, as {panel: [(label, slots)]}: panels in PANEL_TITLES
    order (only those with rows), a group per workload (and per N, executor, S or callers where
    the workload's rows differ in it), a slot per strategy that has a row. A slot is a dict:
    strategy, row, median (ns; None for a row not distinguishable from the empty loop: no bar),
    low and high (the whiskers' lengths, ns)."""
    latency = [r for r in rows if r["suite"] == suite and r["metric"] == "latency"]
    workloads = list(dict.fromkeys(r["workload"] for r in latency))
    varying = {w: [(key, say) for key, say in DIMENSIONS if len({r[key] for r in latency if r["workload"] == w}) > 1]
               for w in workloads}
    groups = {}
    for row in latency:
        key = (row["workload"],) + tuple(row[dimension] for dimension, _ in varying[row["workload"]])
        groups.setdefault(key, []).append(row)
    panels = {}
    for panel in PANEL_TITLES:
        keys = [key for key in groups if panel_of(key[0]) == panel]
        if panel == "scans":  # the same N side by side: N first, then the workload's order
            keys.sort(key=lambda k: (tuple(k[1:]), workloads.index(k[0])))
        if not keys:
            continue
        panels[panel] = []
        for key in keys:
            label = "\n".join([key[0]] + [say(value) for (_, say), value in zip(varying[key[0]], key[1:])])
            slots = []
            for strategy in ordered({r["strategy"] for r in groups[key]}):
                row = next(r for r in groups[key] if r["strategy"] == strategy)
                if indistinguishable_from_empty_loop(row):
                    slots.append(dict(strategy=strategy, row=row, median=None, low=0.0, high=0.0))
                else:
                    low, high = whisker(row)
                    slots.append(dict(strategy=strategy, row=row, median=row["median"], low=low, high=high))
            panels[panel].append((label, slots))
    return panels


GROUP_GAP = 1.2    # slots between groups
GROUP_MIN = 2.6    # slots a group takes at least, so a narrow group's label has room


def group_positions(groups):
    """Each group's slot x positions, its label's x, and the panel's width, in slots."""
    x, positions, centers = 0.0, [], []
    for _, slots in groups:
        span = max(len(slots), GROUP_MIN)
        first = x + (span - len(slots)) / 2 + 0.5
        positions.append([first + index for index in range(len(slots))])
        centers.append(x + span / 2)
        x += span + GROUP_GAP
    return positions, centers, x - GROUP_GAP


def fit_tick_labels(figure, axis, centers, labels):
    """Group labels as wide as they fit, once the figure is otherwise drawn: whole, then wrapped at
    hyphens ever narrower and smaller, then slanted (save() says if even that overlaps)."""
    def clash():
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        boxes = [t.get_window_extent(renderer) for t in axis.get_xticklabels()]
        return (any(a.x1 + 4 > b.x0 for a, b in zip(boxes, boxes[1:]))
                or bool(overlapping_texts(figure, among=axis.get_xticklabels())))
    for width, size in ((None, 9), (18, 9), (14, 9), (10, 9), (10, 8), (10, 7)):
        wrapped = [label if width is None else "\n".join(textwrap.fill(line, width=width, break_long_words=False)
                                                         for line in label.split("\n")) for label in labels]
        axis.set_xticks(centers, wrapped, fontsize=size)
        if not clash():
            return
    axis.set_xticks(centers, labels, fontsize=7, rotation=30, ha="right", rotation_mode="anchor")


def latency_bars(rows, suite, title, out, written):
    """Median latency per workload and strategy, whiskers spanning its processes' medians, as plots/<suite>: the
    latency suite's chart, the subscription suite's, and any suite's without a chart function of
    its own. Operations (ns) and scans (µs or ms) get y axes of their own; the same operations on
    a strategy's own record type (workloads named *-concrete) a panel beside the scans, on the
    operations' axis. A timing not distinguishable from the empty loop gets no bar: its slot says
    EMPTY_LOOP_TEXT, and a footnote says why."""
    latency = [r for r in rows if r["suite"] == suite and r["metric"] == "latency"]
    if not latency:
        return f"{suite}: suite not in this run" if not any(r["suite"] == suite for r in rows) else f"{suite}: no latency rows to chart"
    panels = latency_bar_data(rows, suite)
    strategies = ordered({r["strategy"] for r in latency})
    colors = colors_for(strategies)
    layout = {name: group_positions(groups) for name, groups in panels.items()}
    # Operations on a row of their own; the concrete loops and the scans side by side below; the
    # key (strategies' colours, and what "≈ empty loop" means) in a row of its own at the foot.
    top = [name for name in panels if name == "operations"]
    bottom = [name for name in panels if name != "operations"]
    lines = [line for line in (top, bottom) if line]
    slots_wide = max(sum(layout[name][2] for name in line) + 6 * (len(line) - 1) for line in lines)
    # About as wide as obsbench's report shows a chart (1,100 px), so its text is read at its size.
    width = min(max(0.16 * slots_wide + 1.8, 7), 12.5)
    columns = min(len(strategies), max(1, int(width // 1.6)))
    empty_loop = any(slot["median"] is None for groups in panels.values() for _, slots in groups for slot in slots)
    one_process = any(slot["median"] is not None and slot["row"].get("processes", 1) < 2
                      for groups in panels.values() for _, slots in groups for slot in slots)
    said = ([EMPTY_LOOP_NOTE] if empty_loop else []) + ([ONE_PROCESS_NOTE] if one_process else [])
    note = textwrap.fill(" ".join(said), width=int(width * 12.5)) if said else ""
    key = key_height(len(strategies), columns, note)
    figure = plt.figure(figsize=(width, 3.6 * len(lines) + key + 0.5), layout="constrained")
    grid = figure.add_gridspec(len(lines) + 1, 1, height_ratios=[3.6] * len(lines) + [key])
    axes = {}
    for index, line in enumerate(lines):
        cells = grid[index].subgridspec(1, len(line), width_ratios=[layout[name][2] + 4 for name in line], wspace=0.08)
        for column, name in enumerate(line):
            share = axes.get("operations") if name == "concrete" else None
            axes[name] = figure.add_subplot(cells[column], sharey=share)
    unit_of = {name: ("ns", 1.0) for name in panels}
    if "scans" in panels:
        unit_of["scans"] = time_unit([s["median"] for _, slots in panels["scans"] for s in slots if s["median"] is not None])
    for name, groups in panels.items():
        axis = axes[name]
        unit, scale = unit_of[name]
        positions, centers, extent = layout[name]
        for (label, slots), xs in zip(groups, positions):
            for slot, x in zip(slots, xs):
                color = colors[slot["strategy"]]
                if slot["median"] is None:
                    mark_empty_loop(axis, x, color)
                else:
                    axis.bar(x, slot["median"] / scale, 0.85, color=color,
                             yerr=[[slot["low"] / scale], [slot["high"] / scale]], capsize=2,
                             error_kw=dict(elinewidth=0.8, ecolor="black"))
        axis.set_yscale("log")
        axis.set_xlim(-0.4, extent + 0.4)
        axis.grid(axis="y", which="major", alpha=0.3)
        axis.set_axisbelow(True)
        what = "scan" if name == "scans" else "operation"
        axis.set_ylabel(f"{unit} per {what}\n({WHISKER_LABEL})", fontsize=8)
        if len(panels) > 1:
            axis.set_title(f"{PANEL_TITLES[name]} ({unit})", fontsize=11)
    # Each y axis from the decade under its lowest whisker (a labelled foot) to over its highest;
    # the operations and the concrete loops share theirs.
    for names in (["operations", "concrete"], ["scans"]):
        names = [name for name in names if name in panels]
        if not names:
            continue
        scale = unit_of[names[0]][1]
        ends = [((s["median"] - s["low"]) / scale, (s["median"] + s["high"]) / scale)
                for name in names for _, slots in panels[name] for s in slots if s["median"] is not None]
        if ends and min(low for low, _ in ends) > 0:
            axes[names[0]].set_ylim(10 ** math.floor(math.log10(min(low for low, _ in ends))), max(high for _, high in ends) * 1.6)
    add_key(figure, grid[-1], [plt.Rectangle((0, 0), 1, 1, color=colors[s]) for s in strategies], strategies, columns, note)
    figure.suptitle(title)
    for name, groups in panels.items():
        fit_tick_labels(figure, axes[name], layout[name][1], [label for label, _ in groups])
    save(figure, out, suite, written)


def line_points(rows, x_key):
    """A line's points (x, median) and the x of its rows not distinguishable from the empty loop
    (no point: a × on the panel's foot instead)."""
    points = sorted((r[x_key], r["median"]) for r in rows if not indistinguishable_from_empty_loop(r) and r["median"] > 0)
    empty = sorted(r[x_key] for r in rows if indistinguishable_from_empty_loop(r))
    return points, empty


def scaling_chart(rows, out, written):
    scaling = [r for r in rows if r["suite"] == "scaling" and r["metric"] == "latency"]
    if not scaling:
        return "scaling: suite not in this run"
    topologies = list(dict.fromkeys(r["workload"] for r in scaling))
    strategies = ordered({r["strategy"] for r in scaling})
    colors = colors_for(strategies)
    empty_loop = any(indistinguishable_from_empty_loop(r) for r in scaling)
    width = 3.1 * len(topologies) + 0.8
    columns = min(len(strategies), max(1, int(width // 1.9)))
    note = textwrap.fill(EMPTY_LOOP_POINT_NOTE, width=int(width * 12.5)) if empty_loop else ""
    key = key_height(len(strategies), columns, note)
    figure = plt.figure(figsize=(width, 3.6 + key + 0.3), layout="constrained")
    grid = figure.add_gridspec(2, len(topologies), height_ratios=[3.6, key])
    axes = []
    for index, topology in enumerate(topologies):
        axis = figure.add_subplot(grid[0, index], sharey=axes[0] if axes else None)
        axes.append(axis)
        for strategy in strategies:
            points, empty = line_points([r for r in scaling if r["workload"] == topology and r["strategy"] == strategy], "subscribers")
            if points:
                axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=4, color=colors[strategy], label=strategy)
            for x in empty:
                mark_empty_loop_point(axis, x, colors[strategy])
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_title(topology)
        axis.set_xlabel("subscribed views S")
        axis.grid(which="major", alpha=0.3)
        if index:
            axis.tick_params(labelleft=False)
    axes[0].set_ylabel("ns per write, to quiescence")
    handles = [plt.Line2D([], [], marker="o", markersize=4, color=colors[s]) for s in strategies]
    add_key(figure, grid[1, :], handles, strategies, columns, note)
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
    figure, axis = plt.subplots(figsize=(9, 4.2))
    axis.bar(strategies, record, label="record (plain's bytes, or less)")
    axis.bar(strategies, machinery, bottom=record, label="observation machinery (over plain)")
    axis.set_ylabel(f"bytes per object, N = {largest:,}")
    axis.set_title("Memory per object")
    axis.set_xticks(range(len(strategies)), strategies, rotation=30, ha="right", rotation_mode="anchor")
    axis.set_ylim(0, max(r + m for r, m in zip(record, machinery)) * 1.25)
    axis.legend(fontsize=8, loc="upper right")
    save(figure, out, "memory", written)


def hops_chart(rows, out, written):
    hops = [r for r in rows if r["suite"] == "hops" and r["metric"] == "latency" and r["workload"].startswith("hop-")]
    if not hops:
        return "hops: suite not in this run"
    executors = list(dict.fromkeys(r["executor"] for r in hops))
    colors = colors_for(executors)
    figure, axis = plt.subplots(figsize=(8, 4.5))
    empty_loop = False
    for executor in executors:
        points, empty = line_points([r for r in hops if r["executor"] == executor], "concurrency")
        if points:
            axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", color=colors[executor], label=executor)
        for x in empty:
            mark_empty_loop_point(axis, x, colors[executor])
            empty_loop = True
    axis.set_xscale("log", base=2)
    axis.set_yscale("log")
    axis.set_xlabel("concurrent callers")
    axis.set_ylabel("ns per round trip, per caller")
    axis.set_title("Actor hops")
    handles = [plt.Line2D([], [], marker="o", color=colors[e]) for e in executors]
    axis.legend(handles, executors, fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    if empty_loop:
        add_note(figure, EMPTY_LOOP_POINT_NOTE)
    save(figure, out, "hops", written)


def grouped_bars(axis, groups, series, row_of, value_of=lambda row: row["median"], labels=None, zero_labels=False,
                 legend=None, **tick_options):
    """One bar per (group, series) pair, the series side by side within each group on the x axis;
    row_of(group, one_series) gives the bar's row (None where nothing was measured: no bar) and
    value_of(row) its height. A row not distinguishable from the empty loop gets EMPTY_LOOP_TEXT
    instead of a bar; zero_labels writes 0 over a bar of height 0 (on a linear axis, else unseen).
    Returns whether any slot says EMPTY_LOOP_TEXT."""
    width = 0.8 / len(series)
    palette = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    empty_loop = False
    for index, one in enumerate(series):
        color = palette[index % len(palette)]
        xs, heights = [], []
        for position, group in enumerate(groups):
            x = position + index * width
            row = row_of(group, one)
            if row is None:
                continue
            if indistinguishable_from_empty_loop(row):
                mark_empty_loop(axis, x, color, fontsize=6)
                empty_loop = True
                continue
            xs.append(x)
            heights.append(value_of(row))
            if zero_labels and heights[-1] == 0:
                axis.text(x, 0, "0", ha="center", va="bottom", fontsize=6, color=color)
        axis.bar(xs, heights, width, color=color, label=str(one))
    axis.set_xticks([p + 0.4 - width / 2 for p in range(len(groups))], labels or groups, **tick_options)
    axis.legend(fontsize=8, **(legend or {}))
    return empty_loop


def row_finder(rows, group_of, series_of):
    """row_of for grouped_bars: the first row whose group and series are the ones asked for."""
    index = {}
    for row in rows:
        index.setdefault((group_of(row), series_of(row)), row)
    return lambda group, one: index.get((group, one))


SLANTED = dict(rotation=30, ha="right", rotation_mode="anchor")


def consistency_chart(rows, out, written):
    torn = [r for r in rows if r["suite"] == "consistency" and r["metric"] in ("torn_per_1000_transactions", "combined_torn_per_1000_transactions")]
    if not torn:
        return "consistency: suite not in this run"
    workloads = list(dict.fromkeys(r["workload"] for r in torn))
    strategies = ordered({r["strategy"] for r in torn})
    figure, axis = plt.subplots(figsize=(10, 4.5))
    grouped_bars(axis, strategies, workloads, row_finder(torn, lambda r: r["strategy"], lambda r: r["workload"]),
                 zero_labels=True, legend=dict(loc="upper left", bbox_to_anchor=(1.01, 1.0)), **SLANTED)
    axis.set_ylabel("torn observations per 1,000 transactions")
    axis.set_title("Consistency (a 0 is a bar of height 0: nothing torn)")
    save(figure, out, "consistency", written)


def store_isolation_chart(rows, out, written):
    cells = [r for r in rows if r["suite"] == "store-isolation" and r["metric"] == "latency"]
    if not cells:
        return "store-isolation: suite not in this run"
    workloads = list(dict.fromkeys(r["workload"] for r in cells))
    stores = list(dict.fromkeys(r["executor"] for r in cells))
    figure, axis = plt.subplots(figsize=(9, 4))
    empty_loop = grouped_bars(axis, workloads, stores, row_finder(cells, lambda r: r["workload"], lambda r: r["executor"]),
                              value_of=lambda row: row["median"] / 1000, legend=dict(loc="upper left", bbox_to_anchor=(1.01, 1.0)))
    axis.set_yscale("log")
    axis.set_ylabel("µs per operation (median)")
    axis.set_title("Store isolation: GCD queue, @MainActor and actor stores")
    if empty_loop:
        add_note(figure, EMPTY_LOOP_NOTE)
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
    empty_loop = grouped_bars(axis, probes, [f"{count} busy tasks" for count in counts],
                              row_finder(cells, probe, lambda r: f"{r['concurrency']} busy tasks"),
                              value_of=lambda row: row["median"] / 1000,
                              labels=[f"{a} · {b}" for a, b in probes], fontsize=7, **SLANTED)
    axis.set_yscale("log")
    axis.set_ylabel("µs for one probe (median)")
    axis.set_title("Cooperative pool under CPU-bound load: compute placement · probe")
    if empty_loop:
        add_note(figure, EMPTY_LOOP_NOTE)
    save(figure, out, "pool", written)


# The derived suite's filtered-sorted writes, in the suite's order, and their colours.
DERIVED_WRITES = ["membership", "order", "unread-field", "same-value", "query"]
DERIVED_WRITE_PREFIX = "filtered-sorted-"


def derived_label(workload, base):
    """The strategy's derivation style a derived row's workload names: "" for its usual one,
    "+cached" for another (workload "diamond+cached" of base "diamond"); None for another
    workload's row (or a concrete loop's, "diamond-concrete", "diamond+pipeline-concrete")."""
    if workload.endswith("-concrete"):
        return None
    if workload == base:
        return ""
    if workload.startswith(base + "+"):
        return workload[len(base):]
    return None


def derived_cost_metric(rows):
    """The derived rows' cost: (metric, unit label, per-unit scale, unit name): time when the run
    timed them, else instructions."""
    derived = [r for r in rows if r["suite"] == "derived"]
    if any(r["metric"] == "latency" for r in derived):
        unit, scale = time_unit([r["median"] for r in derived if r["metric"] == "latency"
                                 and r["workload"].startswith(DERIVED_WRITE_PREFIX)])
        return "latency", f"{unit} per write to quiescence\n({WHISKER_LABEL})", scale, unit
    return "instructions", "Ir per write to quiescence\n(median)", 1.0, "Ir"


def derived_chart_data(rows):
    """What the derived chart draws, from the derived suite's rows:
    labels: strategy+style in the run's strategy order ("observable", "observable+cached");
    writes: {(label, write): dict(cost, low, high, reruns, avoidable)} for filtered-sorted's five
    writes (a key missing: no row with a number); growth: {"chain": {label: [(D, cost)]},
    "fan-out": {label: [(W, cost)]}}; and the cost metric (derived_cost_metric)."""
    derived = [r for r in rows if r["suite"] == "derived"]
    metric, axis_label, scale, unit = derived_cost_metric(rows)
    by_key = {}
    for r in derived:
        by_key.setdefault((r["workload"], r["strategy"], r["metric"]), r)
    strategies = ordered({r["strategy"] for r in derived})
    labels = []
    for strategy in strategies:
        styles = []
        for r in derived:
            if r["strategy"] != strategy:
                continue
            for write in DERIVED_WRITES:
                style = derived_label(r["workload"], DERIVED_WRITE_PREFIX + write)
                if style is not None and style not in styles:
                    styles.append(style)
        for style in sorted(styles, key=lambda s: (s != "", s)):
            labels.append(strategy + style)
    writes = {}
    for label in labels:
        strategy = next(s for s in strategies if label == s or label.startswith(s + "+"))
        style = label[len(strategy):]
        for write in DERIVED_WRITES:
            workload = DERIVED_WRITE_PREFIX + write + style
            cost = by_key.get((workload, strategy, metric))
            reruns = by_key.get((workload, strategy, "reruns_per_write"))
            avoidable = by_key.get((workload, strategy, "avoidable_reruns_per_write"))
            if cost is None and reruns is None:
                continue
            entry = dict(cost=None, low=0.0, high=0.0, reruns=None, avoidable=None)
            if cost is not None and not indistinguishable_from_empty_loop(cost) and cost["median"] > 0:
                low, high = whisker(cost)
                entry.update(cost=cost["median"] / scale, low=low / scale, high=high / scale)
            if reruns is not None:
                entry["reruns"] = reruns["median"]
                entry["avoidable"] = avoidable["median"] if avoidable is not None else None
            writes[(label, write)] = entry
    growth = {"chain": {}, "fan-out": {}}
    growth_unit, growth_scale = unit, scale
    if metric == "latency":
        growth_unit, growth_scale = time_unit([r["median"] for r in derived if r["metric"] == "latency"
                                               and r["workload"].startswith(("chain-", "fan-out-"))])
    for label in labels:
        strategy = next(s for s in strategies if label == s or label.startswith(s + "+"))
        style = label[len(strategy):]
        for family in growth:
            points = []
            for r in derived:
                if r["strategy"] != strategy or r["metric"] != metric or not r["workload"].startswith(family + "-"):
                    continue
                size, _, rest = r["workload"][len(family) + 1:].partition("+")
                if not size.isdigit() or ("+" + rest if rest else "") != style:
                    continue
                if indistinguishable_from_empty_loop(r) or r["median"] <= 0:
                    continue
                points.append((int(size), r["median"] / growth_scale))
            if points:
                growth[family][label] = sorted(points)
    growth_label = f"{growth_unit} per write to quiescence" + (" (median)" if metric == "latency" else "")
    return dict(labels=labels, writes=writes, growth=growth, metric=metric, axis_label=axis_label, unit=unit, growth_label=growth_label)


def derived_chart(rows, out, written):
    """plots/derived: per strategy and derivation style, filtered-sorted's five writes: the cost
    per write (log axis) and, beside it, the view re-runs per write with the avoidable ones (views
    that showed what they showed before) hatched over them on the same axis; under them the growth
    of the cost over chain depth D and fan-out width W (log-log), a line per strategy and style."""
    if not any(r["suite"] == "derived" for r in rows):
        return "derived: suite not in this run"
    data = derived_chart_data(rows)
    labels, writes, growth = data["labels"], data["writes"], data["growth"]
    if not labels:
        return "derived: no filtered-sorted rows to chart"
    write_colors = dict(zip(DERIVED_WRITES, plt.get_cmap("tab10").colors))
    line_colors = colors_for(labels)
    # tab20 pairs neighbours in light and dark shades: a marker of its own tells them apart too.
    markers = {label: "osD^vPX"[index % 7] for index, label in enumerate(labels)}
    width = 12.5
    band = 0.13 * len(DERIVED_WRITES) + 0.2   # inches per strategy+style row
    top_height = band * len(labels) + 0.9
    growth_height = 3.4 if any(growth.values()) else 0
    columns = min(len(labels), 6)
    key = key_height(len(labels), columns, "") if growth_height else 0
    write_key = key_height(len(DERIVED_WRITES) + 1, len(DERIVED_WRITES) + 1, "")
    heights = [write_key, top_height] + ([growth_height, key] if growth_height else [])
    figure = plt.figure(figsize=(width, sum(heights) + 0.9), layout="constrained")
    grid = figure.add_gridspec(len(heights), 2, height_ratios=heights)
    cost_axis = figure.add_subplot(grid[1, 0])
    reruns_axis = figure.add_subplot(grid[1, 1], sharey=cost_axis)
    bar = 0.8 / len(DERIVED_WRITES)
    missing = False
    # An instruction run has no re-runs (the timing run counts them): no ×s for them.
    counts_reruns = any(r["suite"] == "derived" and r["metric"] == "reruns_per_write" for r in rows)
    for row_index, label in enumerate(labels):
        for write_index, write in enumerate(DERIVED_WRITES):
            y = row_index - 0.4 + bar * (write_index + 0.5)
            entry = writes.get((label, write))
            color = write_colors[write]
            if entry is None or entry["cost"] is None:
                missing = True
                cost_axis.plot([0.0], [y], transform=blended_transform_factory(cost_axis.transAxes, cost_axis.transData),
                               marker="x", markersize=4, color=color, linestyle="none", clip_on=False)
            else:
                cost_axis.barh(y, entry["cost"], bar * 0.92, color=color,
                               xerr=[[entry["low"]], [entry["high"]]], error_kw=dict(elinewidth=0.6, ecolor="black", capsize=1.5))
            if entry is None or entry["reruns"] is None:
                if counts_reruns:
                    reruns_axis.plot([0.0], [y], marker="x", markersize=4, color=color, linestyle="none", clip_on=False)
                    missing = True
                continue
            reruns_axis.barh(y, entry["reruns"], bar * 0.92, color=color)
            if entry["avoidable"]:
                reruns_axis.barh(y, entry["avoidable"], bar * 0.92, color="none", edgecolor="black", hatch="////", linewidth=0)
            if entry["reruns"] == 0:
                reruns_axis.text(0.15, y, "0", va="center", ha="left", fontsize=6, color=color)
    cost_axis.set_yticks(range(len(labels)), labels, fontsize=9)
    cost_axis.set_ylim(len(labels) - 0.5, -0.5)
    cost_axis.set_xscale("log")
    cost_axis.set_xlabel(data["axis_label"])
    cost_axis.set_title("filtered-sorted: cost per write", fontsize=11)
    cost_axis.grid(axis="x", which="major", alpha=0.3)
    cost_axis.set_axisbelow(True)
    reruns_axis.tick_params(labelleft=False)
    reruns_axis.set_xscale("symlog", linthresh=1)
    reruns_axis.set_xlim(left=0)
    reruns_axis.set_xlabel("view re-runs per write\n(hatched: of them avoidable, same axis)")
    reruns_axis.set_title("filtered-sorted: re-runs per write, avoidable hatched", fontsize=11)
    reruns_axis.grid(axis="x", which="major", alpha=0.3)
    reruns_axis.set_axisbelow(True)
    handles = [plt.Rectangle((0, 0), 1, 1, color=write_colors[w]) for w in DERIVED_WRITES]
    handles.append(plt.Rectangle((0, 0), 1, 1, facecolor="white", edgecolor="black", hatch="////", linewidth=0.5))
    names = [f"write: {w}" for w in DERIVED_WRITES] + ["avoidable re-runs"]
    add_key(figure, grid[0, :], handles, names, len(names))
    if not counts_reruns:
        reruns_axis.text(0.5, 0.5, "re-runs are counted by a timing run\n(this run counted instructions only)", transform=reruns_axis.transAxes,
                         ha="center", va="center", fontsize=9)
    notes = []
    if missing:
        notes.append("× at a panel's foot: no number for that write (an error row, or not measurable: "
                     "a store that observes nothing shows a stale value; the tables say which).")
    notes.append("Every view's output was checked against a from-scratch computation before a number was kept.")
    if any(r["suite"] == "derived" and r.get("processes", 1) < 2 for r in rows):
        notes.append(ONE_PROCESS_NOTE)
    if growth_height:
        for column, (family, symbol) in enumerate((("chain", "depth D"), ("fan-out", "width W"))):
            axis = figure.add_subplot(grid[2, column])
            for label, points in growth[family].items():
                axis.plot([p[0] for p in points], [p[1] for p in points], marker=markers[label], markersize=4, color=line_colors[label], label=label)
            axis.set_xscale("log")
            axis.set_yscale("log")
            axis.set_xlabel(f"{family} {symbol}")
            axis.set_title(f"{family}-{symbol.split()[1]}: cost per write", fontsize=11)
            axis.grid(which="major", alpha=0.3)
            xs = sorted({p[0] for points in growth[family].values() for p in points})
            if xs:
                axis.set_xticks(xs, [f"{x:,}" for x in xs])
                axis.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
            axis.set_ylabel(data["growth_label"])
        shown = [label for label in labels if any(label in growth[f] for f in growth)]
        add_key(figure, grid[3, :], [plt.Line2D([], [], marker=markers[l], markersize=4, color=line_colors[l]) for l in shown], shown,
                columns)
    figure.suptitle("Derived state: a searched, filtered, sorted list's five writes; chains and fan-outs")
    add_note(figure, " ".join(notes))
    save(figure, out, "derived", written)


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
    "subscription": subscription_chart,
    "derived": derived_chart,
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
