"""Runs plot.py on a small committed CSV and checks the charts exist and are valid images.

Run: python3 -m unittest discover -s plot-scripts (needs matplotlib: pip install -r plot-scripts/requirements.txt)
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "testdata", "results.csv")
sys.path.insert(0, HERE)
import plot  # noqa: E402


_sample_render = None


def sample_render():
    """plot.py run once on the committed sample, for every test that reads its charts or messages:
    (the folder of charts, the finished process)."""
    global _sample_render
    if _sample_render is None:
        out = tempfile.mkdtemp()
        result = subprocess.run([sys.executable, os.path.join(HERE, "plot.py"), SAMPLE, "--out", out], capture_output=True, text=True)
        _sample_render = (out, result)
    return _sample_render


def tearDownModule():
    if _sample_render is not None:
        shutil.rmtree(_sample_render[0], ignore_errors=True)


def write_sample(folder, rows):
    """Writes results.csv into folder: the sample's header and rows(the sample's rows)."""
    with open(SAMPLE, newline="") as source, open(os.path.join(folder, "results.csv"), "w", newline="") as target:
        reader = csv.DictReader(source)
        writer = csv.DictWriter(target, fieldnames=reader.fieldnames)
        writer.writeheader()
        writer.writerows(rows(reader))


class PlotTests(unittest.TestCase):
    def run_plot(self, *arguments):
        return subprocess.run([sys.executable, os.path.join(HERE, "plot.py"), *arguments], capture_output=True, text=True)

    def test_every_chart_is_a_valid_png_and_svg(self):
        out, result = sample_render()
        self.assertEqual(result.returncode, 0, result.stderr)
        for name in ("latency", "scaling", "memory", "hops", "consistency", "store-isolation", "pool"):
            with open(os.path.join(out, f"{name}.png"), "rb") as png:
                self.assertEqual(png.read(8), b"\x89PNG\r\n\x1a\n", name)
            with open(os.path.join(out, f"{name}.svg")) as svg:
                self.assertIn("<svg", svg.read(2000), name)

    def test_a_suite_not_in_the_run_is_skipped_not_failed(self):
        with tempfile.TemporaryDirectory() as folder:
            write_sample(folder, lambda rows: (row for row in rows if row["suite"] == "latency"))
            result = self.run_plot(folder)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("skipped memory", result.stderr)
            self.assertTrue(os.path.exists(os.path.join(folder, "plots", "latency.png")))

    def test_a_strategy_or_suite_plot_py_does_not_know_is_drawn_or_named(self):
        # A store of one's own (Examples/CustomStore) and a suite added without a chart yet.
        with tempfile.TemporaryDirectory() as folder:
            def extended(rows):
                for row in rows:
                    yield row
                    if row["suite"] == "latency" and row["strategy"] == "observable":
                        yield dict(row, strategy="my-store")
                        yield dict(row, suite="new-suite")
            write_sample(folder, extended)
            with open(os.path.join(folder, "run.json"), "w") as handle:
                json.dump({"strategies": ["plain", "my-store", "observable", "grdb-queue"]}, handle)
            result = self.run_plot(folder)
            self.assertEqual(result.returncode, 0, result.stderr)
            # A suite plot.py has no function for gets its latency rows as bars.
            with open(os.path.join(folder, "plots", "new-suite.svg")) as svg:
                self.assertIn("<svg", svg.read(2000))
            with open(os.path.join(folder, "plots", "latency.svg")) as svg:
                self.assertIn("my-store", svg.read())

    def test_a_suite_with_nothing_to_chart_is_named(self):
        with tempfile.TemporaryDirectory() as folder:
            write_sample(folder, lambda rows: (dict(row, suite="counts-suite") for row in rows if row["suite"] == "memory"))
            result = self.run_plot(folder)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("no chart for suite counts-suite: counts-suite: no latency rows to chart", result.stderr)

    def test_a_missing_column_or_file_is_named(self):
        with tempfile.TemporaryDirectory() as folder:
            broken = os.path.join(folder, "results.csv")
            with open(broken, "w") as handle:
                handle.write("run_id,suite,workload\nr,latency,w\n")
            result = self.run_plot(broken)
            self.assertEqual(result.returncode, 1)
            self.assertIn("missing column(s)", result.stderr)
            result = self.run_plot(os.path.join(folder, "absent"))
            self.assertEqual(result.returncode, 1)
            self.assertIn("no such file", result.stderr)


def latency_row(workload, strategy, median, p10, objects=1000, metric="latency", unit="ns/op"):
    """A results.csv row of the latency suite, as csv.DictReader gives it (every field text)."""
    with open(SAMPLE, newline="") as source:
        row = dict(next(csv.DictReader(source)))
    row.update(suite="latency", workload=workload, strategy=strategy, objects=str(objects), metric=metric, unit=unit,
               median=str(median), p10=str(p10), ci95_low=str(median * 0.9), ci95_high=str(median * 1.1))
    return row


# The shape of a full run's latency suite: operations in ns, the concrete loops (two of which the
# optimiser reduced to nothing: p10 0), and scans in ms at two N.
LATENCY_ROWS = [
    latency_row("read-untracked", "plain", 3.8, 3.5),
    latency_row("read-untracked", "observable", 27.1, 24.1),
    latency_row("write-unobserved-concrete", "plain", 0.00198, 0),
    latency_row("write-unobserved-concrete", "plain", 1.62, 1.62, metric="loop_overhead"),
    latency_row("write-unobserved-concrete", "observable", 42.9, 41.7),
    latency_row("read-ignored-concrete", "observable", 0.0019, -0.5),
    latency_row("scan-all", "plain", 27396.0, 27224.5, objects=10000),
    latency_row("scan-all", "observable", 231461.8, 228577.4, objects=10000),
    latency_row("scan-all", "plain", 286136.3, 275419.8, objects=100000),
    latency_row("scan-all", "observable", 2396119.3, 2361201.8, objects=100000),
]


def write_rows(folder, rows):
    with open(SAMPLE, newline="") as source:
        fieldnames = csv.DictReader(source).fieldnames
    with open(os.path.join(folder, "results.csv"), "w", newline="") as target:
        writer = csv.DictWriter(target, fieldnames=fieldnames)
        writer.writeheader()
        writer.writerows(rows)


class WhiskerTests(unittest.TestCase):
    """A bar's whisker is the range of its worker processes' medians (rounds.csv), not an interval
    of samples pooled inside them; a bar from one process has none."""

    def test_whiskers_span_the_processes_and_one_process_has_none(self):
        pooled = latency_row("read-untracked", "observable", 10.0, 9.0)
        lone = latency_row("read-untracked", "plain", 3.0, 2.0)
        with tempfile.TemporaryDirectory() as folder:
            write_rows(folder, [pooled, lone])
            # observable's three processes gave 8, 10 and 15 ns; plain's one process 3 ns.
            rounds = [dict(pooled, median=str(value)) for value in (8.0, 10.0, 15.0)] + [dict(lone)]
            with open(SAMPLE, newline="") as source:
                fieldnames = csv.DictReader(source).fieldnames
            with open(os.path.join(folder, "rounds.csv"), "w", newline="") as target:
                writer = csv.DictWriter(target, fieldnames=fieldnames)
                writer.writeheader()
                writer.writerows(rounds)
            _, parsed = plot.read_rows(folder)
        by_strategy = {row["strategy"]: row for row in parsed}
        self.assertEqual(by_strategy["observable"]["processes"], 3)
        self.assertEqual(plot.whisker(by_strategy["observable"]), (2.0, 5.0))
        self.assertEqual(by_strategy["plain"]["processes"], 1)
        self.assertEqual(plot.whisker(by_strategy["plain"]), (0.0, 0.0))


class EmptyLoopTests(unittest.TestCase):
    """A timing not distinguishable from the empty loop (latency, ns/op, p10 <= 0, median under
    0.05 ns) gets no bar."""

    def test_the_rule_is_a_latency_row_whose_p10_is_at_most_zero_and_median_under_a_twentieth_ns(self):
        rule = plot.indistinguishable_from_empty_loop
        self.assertTrue(rule(latency_row("write-unobserved-concrete", "plain", 0.00198, 0)))
        self.assertTrue(rule(latency_row("write-unobserved-concrete", "plain", 0.00198, "0")))
        self.assertTrue(rule(latency_row("read-ignored-concrete", "observable", 0.002, -0.5)))
        self.assertTrue(rule(dict(latency_row("x", "plain", 0.0, 0), p10=0.0)))  # as read_rows parses it
        # A tenth of the samples slower than the empty loop: a timing, however small its median.
        self.assertFalse(rule(latency_row("read-in-view", "plain", 0.003, 0.0001)))
        self.assertFalse(rule(latency_row("read-untracked", "plain", 3.8, 3.5)))
        # Noisy but real (read-in-view: one operation per sample, a tenth of them at zero, median 70 ns).
        self.assertFalse(rule(latency_row("read-in-view", "observable", 70.0, 0)))
        # Only latency rows in ns/op: not the empty loop's own row, not another unit, nor a row without p10.
        self.assertFalse(rule(latency_row("x", "plain", 1.6, 0, metric="loop_overhead")))
        self.assertFalse(rule(latency_row("x", "plain", 0.0, 0, unit="Ir/op")))
        self.assertFalse(rule(latency_row("x", "plain", 0.0, 0, metric="instructions", unit="Ir/op")))
        self.assertFalse(rule(dict(latency_row("x", "plain", 0.0, 0), p10="")))
        row = latency_row("x", "plain", 0.0, 0)
        del row["p10"]
        self.assertFalse(rule(row))

    def bar_data(self, rows):
        with tempfile.TemporaryDirectory() as folder:
            write_rows(folder, rows)
            csv_path, parsed = plot.read_rows(folder)
        plot.STRATEGY_ORDER[:] = plot.strategy_order(csv_path, parsed)
        return parsed, plot.latency_bar_data(parsed, "latency")

    def test_such_a_row_gets_no_bar_and_its_neighbours_do(self):
        _, panels = self.bar_data(LATENCY_ROWS)
        slots = {(label.split("\n")[0], slot["strategy"]): slot for groups in panels.values() for label, group in groups for slot in group}
        self.assertIsNone(slots[("write-unobserved-concrete", "plain")]["median"])
        self.assertIsNone(slots[("read-ignored-concrete", "observable")]["median"])
        self.assertEqual(slots[("write-unobserved-concrete", "observable")]["median"], 42.9)
        self.assertEqual(slots[("read-untracked", "plain")]["median"], 3.8)

    def test_operations_and_scans_get_panels_of_their_own_and_scans_their_unit(self):
        _, panels = self.bar_data(LATENCY_ROWS)
        self.assertEqual(list(panels), ["operations", "concrete", "scans"])
        self.assertEqual([label for label, _ in panels["scans"]], ["scan-all\nN = 10,000", "scan-all\nN = 100,000"])
        self.assertEqual([label for label, _ in panels["operations"]], ["read-untracked"])
        # The unit from the data's median: the reference run's scans (16 µs to 14 ms) read in ms.
        self.assertEqual(plot.time_unit([27396.0, 1305116.0, 13083252.5])[0], "ms")
        self.assertEqual(plot.time_unit([27396.0, 231461.8, 286136.3, 2396119.3])[0], "µs")
        self.assertEqual(plot.time_unit([120.0, 640.0])[0], "ns")

    def test_the_chart_draws_no_bar_for_it_and_says_why(self):
        parsed, _ = self.bar_data(LATENCY_ROWS)
        figures = []
        original = plot.save
        plot.save = lambda figure, out, name, written: figures.append(figure)
        try:
            plot.latency_chart(parsed, None, [])
        finally:
            plot.save = original
        figure = figures[0]
        concrete = next(axis for axis in figure.axes if axis.get_title().startswith(plot.PANEL_TITLES["concrete"]))
        # Two concrete rows are timings (observable's write) or not (plain's write, observable's read):
        # one bar, two markers.
        self.assertEqual(len(concrete.patches), 1)
        self.assertAlmostEqual(concrete.patches[0].get_height(), 42.9)
        self.assertEqual([text.get_text() for text in concrete.texts], [plot.EMPTY_LOOP_TEXT] * 2)
        everything = [text.get_text() for axis in figure.axes for text in axis.texts] + [text.get_text() for text in figure.texts]
        self.assertTrue(any(text.startswith(plot.EMPTY_LOOP_TEXT + ": not distinguishable") for text in everything))
        no_bar_under_0_05_ns = [p for axis in figure.axes for p in axis.patches if 0 < p.get_height() < 0.05]
        self.assertEqual(no_bar_under_0_05_ns, [])
        self.assertEqual(plot.overlapping_texts(figure), [])
        plot.plt.close(figure)

    def test_charts_have_no_overlapping_labels(self):
        with tempfile.TemporaryDirectory() as folder:
            write_rows(folder, LATENCY_ROWS)
            result = subprocess.run([sys.executable, os.path.join(HERE, "plot.py"), folder], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertNotIn("overlap", result.stderr)
        _, result = sample_render()
        self.assertNotIn("overlap", result.stderr)

    def test_the_overlap_check_sees_an_overlap(self):
        figure, axis = plot.plt.subplots(figsize=(1.2, 3))
        axis.set_xticks([0, 1], ["write-unobserved-concrete", "scan-all"])
        self.assertEqual(plot.overlapping_texts(figure), [("write-unobserved-concrete", "scan-all")])
        plot.plt.close(figure)


def derived_row(workload, strategy, metric, median, unit=None):
    """A results.csv row of the derived suite, as csv.DictReader gives it (every field text)."""
    units = {"latency": "ns/op", "instructions": "Ir/op", "reruns_per_write": "count", "avoidable_reruns_per_write": "count"}
    row = latency_row(workload, strategy, median, median * 0.95, metric=metric, unit=unit or units.get(metric, "count"))
    row.update(suite="derived")
    return row


def derived_rows(metric="latency"):
    """A small derived run: observable in two styles and plain; plain's membership write not
    measurable (no value), observable+cached's query write an error row."""
    rows = []
    for strategy, style, scale in (("plain", "", 0.1), ("observable", "", 1.0), ("observable", "+cached", 1.5)):
        for index, write in enumerate(["membership", "order", "unread-field", "same-value", "query"]):
            workload = f"filtered-sorted-{write}{style}"
            if strategy == "plain" and write == "membership":
                rows.append(dict(derived_row(workload, strategy, "reruns_per_write", 1), median="", ci95_low="", ci95_high="", p10=""))
                continue
            if style == "+cached" and write == "query":
                rows.append(dict(derived_row(workload, strategy, "error", 1), median=""))
                continue
            rows.append(derived_row(workload, strategy, metric, 40_000 * scale * (index + 1)))
            reruns = 0 if write == "unread-field" else 179
            rows.append(derived_row(workload, strategy, "reruns_per_write", reruns))
            rows.append(derived_row(workload, strategy, "avoidable_reruns_per_write", 178 if reruns else 0))
        if strategy == "plain":
            continue
        for family, sizes in (("chain", (1, 4, 16)), ("fan-out", (10, 100, 1000))):
            for size in sizes:
                rows.append(derived_row(f"{family}-{size}{style}", strategy, metric, 500 * scale * size))
    rows.append(derived_row("diamond-concrete", "observable", metric, 300))
    return rows


class DerivedChartTests(unittest.TestCase):
    """The derived suite's chart: filtered-sorted's five writes per strategy and style, cost beside
    re-runs with the avoidable ones hatched, and the growth over D and W."""

    def data(self, rows):
        with tempfile.TemporaryDirectory() as folder:
            write_rows(folder, rows)
            csv_path, parsed = plot.read_rows(folder)
        plot.STRATEGY_ORDER[:] = ["plain", "observable"]
        return parsed, plot.derived_chart_data(parsed)

    def test_each_strategy_and_style_gets_its_writes_and_its_growth(self):
        _, data = self.data(derived_rows())
        self.assertEqual(data["labels"], ["plain", "observable", "observable+cached"])
        self.assertEqual(data["metric"], "latency")
        self.assertEqual(data["unit"], "µs")
        entry = data["writes"][("observable+cached", "order")]
        self.assertAlmostEqual(entry["cost"], 120.0)
        self.assertEqual((entry["reruns"], entry["avoidable"]), (179, 178))
        self.assertEqual(data["writes"][("observable", "unread-field")]["reruns"], 0)
        # Not measurable (no value) and an error row: nothing to draw.
        self.assertNotIn(("plain", "membership"), data["writes"])
        self.assertNotIn(("observable+cached", "query"), data["writes"])
        self.assertEqual(data["growth"]["chain"]["observable"], [(1, 0.5), (4, 2.0), (16, 8.0)])
        self.assertEqual([p[0] for p in data["growth"]["fan-out"]["observable+cached"]], [10, 100, 1000])
        self.assertNotIn("plain", data["growth"]["chain"])
        # A concrete loop's row is no style of its strategy's.
        self.assertIsNone(plot.derived_label("diamond-concrete", "diamond"))

    def test_an_instruction_run_is_drawn_in_ir(self):
        _, data = self.data(derived_rows(metric="instructions"))
        self.assertEqual(data["metric"], "instructions")
        self.assertEqual(data["writes"][("observable", "order")]["cost"], 80_000)

    def test_the_chart_marks_avoidable_reruns_and_missing_rows_without_overlaps(self):
        parsed, data = self.data(derived_rows())
        figures = []
        original = plot.save
        plot.save = lambda figure, out, name, written: figures.append((figure, name))
        try:
            plot.derived_chart(parsed, None, [])
        finally:
            plot.save = original
        figure, name = figures[0]
        self.assertEqual(name, "derived")
        reruns = next(axis for axis in figure.axes if axis.get_title().startswith("filtered-sorted: re-runs"))
        hatched = [p for p in reruns.patches if p.get_hatch()]
        with_avoidable = [e for e in data["writes"].values() if e["avoidable"]]
        self.assertEqual(len(hatched), len(with_avoidable))
        self.assertEqual(sorted(p.get_width() for p in hatched), sorted(e["avoidable"] for e in with_avoidable))
        self.assertIn("0", [text.get_text() for text in reruns.texts])
        notes = " ".join(text.get_text() for text in figure.texts)
        self.assertIn("no number for that write", notes)
        self.assertEqual([axis.get_title() for axis in figure.axes if axis.get_xscale() == "log" and axis.get_yscale() == "log"],
                         ["chain-D: cost per write", "fan-out-W: cost per write"])
        self.assertEqual(plot.overlapping_texts(figure), [])
        plot.plt.close(figure)

    def test_the_chart_is_written_as_png_and_svg(self):
        with tempfile.TemporaryDirectory() as folder:
            write_rows(folder, derived_rows())
            result = subprocess.run([sys.executable, os.path.join(HERE, "plot.py"), folder], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertNotIn("overlap", result.stderr)
            with open(os.path.join(folder, "plots", "derived.png"), "rb") as png:
                self.assertEqual(png.read(8), b"\x89PNG\r\n\x1a\n")
            with open(os.path.join(folder, "plots", "derived.svg")) as svg:
                self.assertIn("<svg", svg.read(2000))


if __name__ == "__main__":
    unittest.main()
