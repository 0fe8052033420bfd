#!/usr/bin/env python3
"""Call graphs from an obsbench instruction run: python3 plot-scripts/callgraph.py results/latest [--out DIR]

An instruction run (obsbench --measure instructions) writes each counted row's profile into
<run>/profiles/ in Callgrind's format, in Ir per 1,000 operations (the long loop minus the short
loop, the empty loop removed). This draws the call graph of each strategy's read and write
(latency read-untracked and write-unobserved, or --workload) with gprof2dot and Graphviz's dot,
into <run>/plots/callgraph-<workload>-<strategy>.svg. Boxes are functions, with their share of the
operation's instructions, inclusive and (in parentheses) their own; edges are calls.

Needs gprof2dot (PyPI: pip install gprof2dot) and dot (Debian: apt-get install graphviz).
Exit status: 0 graphs drawn, 1 unreadable input or no profiles, 2 a tool missing.
"""
import argparse
import os
import shutil
import subprocess
import sys

DEFAULT_WORKLOADS = ["read-untracked", "write-unobserved"]


def gprof2dot_command():
    """gprof2dot as a command, else as a module of this Python; None when neither is there."""
    if shutil.which("gprof2dot"):
        return ["gprof2dot"]
    try:
        import gprof2dot  # noqa: F401
        return [sys.executable, "-m", "gprof2dot"]
    except ImportError:
        return None


def profiles(folder, workloads):
    """(workload, strategy, path) of each latency profile of the given workloads, in name order."""
    found = []
    for name in sorted(os.listdir(folder)):
        parts = name.split(".")
        # latency.<workload>.<strategy>.n<objects>.callgrind
        if len(parts) >= 4 and parts[0] == "latency" and parts[1] in workloads and parts[-1] == "callgrind":
            found.append((parts[1], parts[2], os.path.join(folder, name)))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", help="a run folder made with --measure instructions")
    parser.add_argument("--out", help="where to write the SVGs (default: <run>/plots)")
    parser.add_argument("--workload", action="append", help="latency workloads to draw (default: read-untracked, write-unobserved)")
    args = parser.parse_args()
    folder = os.path.join(args.run, "profiles")
    if not os.path.isdir(folder):
        sys.exit(f"callgraph.py: {folder}: no such folder (only a run made with --measure instructions has profiles)")
    found = profiles(folder, args.workload or DEFAULT_WORKLOADS)
    if not found:
        sys.exit(f"callgraph.py: {folder}: no profile of {', '.join(args.workload or DEFAULT_WORKLOADS)}")
    command = gprof2dot_command()
    if command is None or not shutil.which("dot"):
        print("callgraph.py: needs gprof2dot (pip install gprof2dot) and Graphviz's dot (apt-get install graphviz)", file=sys.stderr)
        sys.exit(2)
    out = args.out or os.path.join(args.run, "plots")
    os.makedirs(out, exist_ok=True)
    for workload, strategy, path in found:
        # Nodes under 1% of the operation and edges under 0.5% are left out; names lose their
        # argument lists (--strip), which profile.csv keeps whole.
        graph = subprocess.run(command + ["--format=callgrind", "--node-thres=1", "--edge-thres=0.5", "--strip", path],
                               capture_output=True, text=True)
        if graph.returncode != 0:
            sys.exit(f"callgraph.py: gprof2dot failed on {path}: {graph.stderr.strip()}")
        target = os.path.join(out, f"callgraph-{workload}-{strategy}.svg")
        drawn = subprocess.run(["dot", "-Tsvg", "-o", target], input=graph.stdout, capture_output=True, text=True)
        if drawn.returncode != 0:
            sys.exit(f"callgraph.py: dot failed on {path}: {drawn.stderr.strip()}")
        print(target)


if __name__ == "__main__":
    main()
