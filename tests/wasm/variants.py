#!/usr/bin/python3
"""variants.py CONTENT: the boards tests/run-wasm.sh runs natively and in the
WebAssembly module, one per line: a name, the board file and the
`boardpress sim` arguments, tab-separated. Every board of CONTENT/boards as
it is; with another seed and 3 replications; cut to 30 jobs with a trace;
every combination of every level's choices (a range's low end, a middle
step and high end); every point of every chart."""
import glob
import itertools
import os
import re
import sys

import yaml


def sets(pairs):
    return [arg for path, value in pairs for arg in ("--set", "%s=%s" % (path, value))]


def range_values(r):
    """A range's low end, a step near its middle and its high end, each
    written as the level writes its bounds (a number and its unit)."""
    def split(v):
        m = re.fullmatch(r"\s*(-?[0-9.]+)\s*(.*?)\s*", str(v))
        return float(m.group(1)), m.group(2)
    (lo, unit), (hi, _), (step, _) = split(r["min"]), split(r["max"]), split(r["step"])
    mid = lo + round((hi - lo) / step / 2) * step
    sep = "" if unit in ("", "%") else " "
    return ["%s%s%s" % (("%.10g" % x), sep, unit) for x in (lo, mid, hi)]


def options(c):
    if "range" in c:
        return [(c["set"], v) for v in range_values(c["range"])]
    return [(c["set"], str(o["value"] if isinstance(o, dict) else o)) for o in c["options"]]


def main(content):
    out = []
    for board in sorted(glob.glob(os.path.join(content, "boards", "*.yaml"))):
        name = os.path.splitext(os.path.basename(board))[0]
        out.append(("board:" + name, board, []))
        out.append(("seed:" + name, board, ["--seed", "4242", "--replications", "3"]))
        out.append(("trace:" + name, board,
                    ["--set", "traffic.jobs=30", "--replications", "1", "--trace"]))
    for level in sorted(glob.glob(os.path.join(content, "levels", "*.yaml"))):
        with open(level) as f:
            doc = yaml.safe_load(f)
        board = os.path.join(content, doc["board"])
        choices = [options(c) for c in doc["choices"]]
        for i, combo in enumerate(itertools.product(*choices)):
            out.append(("level:%s.%d" % (doc["id"], i), board, sets(combo)))
    for chart in sorted(glob.glob(os.path.join(content, "charts", "*.yaml"))):
        with open(chart) as f:
            doc = yaml.safe_load(f)
        board = os.path.join(content, doc["board"])
        xs = [(doc["x"]["set"], str(v)) for v in doc["x"]["values"]]
        series = doc.get("series")
        ss = [(series["set"], str(s["value"])) for s in series["values"]] if series else [None]
        for i, (x, s) in enumerate(itertools.product(xs, ss)):
            out.append(("chart:%s.%d" % (doc["id"], i), board, sets([x] + ([s] if s else []))))
    for name, board, args in out:
        print("\t".join([name, board] + args))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "content")
