"""Runs plot.py on a small committed CSV and checks the charts exist and are valid images.

Run: python3 -m unittest discover -s plot-scripts (needs matplotlib: pip install -r plot-scripts/requirements.txt)
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "testdata", "results.csv")


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
        with tempfile.TemporaryDirectory() as out:
            result = self.run_plot(SAMPLE, "--out", out)
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


if __name__ == "__main__":
    unittest.main()
