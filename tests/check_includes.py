#!/usr/bin/env python3
"""check_includes.py — the include graph of generator/ and sim-core/ keeps
the shape docs/architecture.md describes. It fails (exit 1, one line per
problem) when

  1. files include each other, directly or through a chain (a cycle);
  2. a file includes one of a later stage. The stages, earliest first:

       sim-core < base < model < load < run < draw < render < write
                < preview < top

     (generator/STAGE/ is the stage STAGE; generator/*.c, *.h are "top":
     main.c and the orchestrator build.c). A stage may include its own
     files and those of earlier stages. On top of the order, write/ is a
     service that knows only base/, and preview/ only base/ and the model:
     neither sees a board or a page;
  3. a generator file includes a sim-core header other than its public
     ones (simcore.h, wire.h, proof.h, schema.h);
  4. libyaml, cmark-gfm, cairo (with fontconfig) or libmicrohttpd is
     included by more than one file, or by a header: each is used from
     exactly one .c file;
  5. a .c file has more than MAX_LINES (800) lines: split it by job first.

#include "..." lines are resolved as the compiler does: the including
file's folder first, then the -I folders, in order; by default those the
Makefile gives (every -I and -isystem in it), else --include-dir.
Usage: check_includes.py [--root DIR] [--include-dir DIR ...]
"""
import argparse
import os
import re
import sys

ORDER = ["sim-core", "base", "model", "load", "run", "draw", "render", "write", "preview", "top"]
ONLY = {"write": {"base", "write"}, "preview": {"base", "model", "preview"}}
SIM_PUBLIC = {"sim-core/simcore.h", "sim-core/wire.h", "sim-core/proof.h", "sim-core/schema.h"}
LIBRARIES = {
    "libyaml": re.compile(r"^yaml\.h$"),
    "cmark-gfm": re.compile(r"^cmark"),
    "cairo": re.compile(r"^(cairo|fontconfig/)"),
    "libmicrohttpd": re.compile(r"^microhttpd\.h$"),
}
MAX_LINES = 800
QUOTE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
ANGLE = re.compile(r"^\s*#\s*include\s*<([^>]+)>")


def makefile_dirs(root):
    """The -I and -isystem folders of the Makefile, in the order it gives them."""
    path = os.path.join(root, "Makefile")
    dirs = []
    if not os.path.exists(path):
        return dirs
    text = "\n".join(l for l in open(path, encoding="utf-8").read().split("\n")
                     if not l.lstrip().startswith("#"))
    for m in re.finditer(r"(?:-I\s*|-isystem\s+)([^\s$()]+)", text):
        if m.group(1) not in dirs:
            dirs.append(m.group(1))
    return dirs


def stage_of(rel):
    parts = rel.split("/")
    if parts[0] == "sim-core":
        return "sim-core"
    if len(parts) == 2:
        return "top"
    return parts[1] if parts[1] in ORDER else None


def sources(root):
    out = []
    for top in ("generator", "sim-core"):
        for d, subdirs, files in os.walk(os.path.join(root, top)):
            subdirs.sort()
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/"))
    return out


def resolve(root, rel, name, inc_dirs):
    for d in [os.path.dirname(rel)] + inc_dirs:
        cand = os.path.normpath(os.path.join(d, name)).replace(os.sep, "/")
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None


def find_cycles(graph):
    """Strongly connected components of more than one file (or a file that
    includes itself), each as one cycle through it (Tarjan, iterative)."""
    index, low, on, stack, comps = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1 or v in graph.get(v, ()):
                    comps.append(sorted(comp))
    cycles = []
    for comp in comps:
        members = set(comp)
        # a shortest way back to the first file, inside the component
        first = comp[0]
        prev, frontier, found = {first: None}, [first], None
        while frontier and found is None:
            nxt = []
            for v in frontier:
                for w in sorted(graph.get(v, ())):
                    if w == first:
                        found = v
                        break
                    if w in members and w not in prev:
                        prev[w] = v
                        nxt.append(w)
                if found is not None:
                    break
            frontier = nxt
        path, v = [], found
        while v is not None:
            path.append(v)
            v = prev[v]
        cycles.append(list(reversed(path)) + [first])
    return cycles


def check(root, inc_dirs):
    problems = []
    graph = {}
    lib_users = {lib: [] for lib in LIBRARIES}
    for rel in sources(root):
        graph.setdefault(rel, set())
        stage = stage_of(rel)
        if stage is None:
            problems.append(f"{rel}: in no stage folder (stages: {', '.join(ORDER[1:-1])})")
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.split("\n")
        n_lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if rel.endswith(".c") and n_lines > MAX_LINES:
            problems.append(f"{rel}: {n_lines} lines, more than {MAX_LINES}; split it by job")
        for n, line in enumerate(lines, 1):
            m = QUOTE.match(line)
            if m:
                target = resolve(root, rel, m.group(1), inc_dirs)
                if target is None:
                    problems.append(f'{rel}:{n}: #include "{m.group(1)}" names no file '
                                    f"(looked beside it and in {', '.join(inc_dirs) or 'no -I folder'})")
                    continue
                graph[rel].add(target)
                to = stage_of(target)
                if to is None:
                    continue  # outside generator/ and sim-core/ (the wasm shim's libc)
                if ORDER.index(to) > ORDER.index(stage):
                    problems.append(f"{rel}:{n}: {stage}/ includes {target} of a later stage "
                                    f"({to}/; order: {' < '.join(ORDER)})")
                elif stage in ONLY and to not in ONLY[stage]:
                    problems.append(f"{rel}:{n}: {stage}/ includes {target}, but {stage}/ may use "
                                    f"only {', '.join(sorted(ONLY[stage] - {stage}))}")
                elif (stage != "sim-core" and to == "sim-core" and target not in SIM_PUBLIC):
                    problems.append(f"{rel}:{n}: includes {target}, one of sim-core's own "
                                    f"headers; the generator uses {', '.join(sorted(SIM_PUBLIC))}")
                continue
            m = ANGLE.match(line)
            if m:
                for lib, pat in LIBRARIES.items():
                    if pat.search(m.group(1)):
                        lib_users[lib].append((rel, n, m.group(1)))
    for lib, uses in lib_users.items():
        files = sorted({u[0] for u in uses})
        for rel, n, name in uses:
            if rel.endswith(".h"):
                problems.append(f"{rel}:{n}: a header includes <{name}> ({lib}): every file "
                                f"that includes it would use {lib}")
        if len(files) > 1:
            problems.append(f"{lib} is included by {len(files)} files ({', '.join(files)}); "
                            f"one file uses it, the rest see our own types")
    for cyc in find_cycles(graph):
        problems.append("include cycle: " + " -> ".join(cyc))
    return problems, graph


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--include-dir", action="append", default=None,
                    help="a -I folder, relative to the root (default: the Makefile's)")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    inc_dirs = args.include_dir if args.include_dir is not None else makefile_dirs(root)
    problems, graph = check(root, inc_dirs)
    for p in problems:
        print(f"check_includes: {p}")
    if problems:
        print(f"check_includes: {len(problems)} problem(s) in {len(graph)} files")
        return 1
    edges = sum(len(v) for v in graph.values())
    print(f"check_includes: {len(graph)} files, {edges} includes: no cycle, stages in order "
          f"({' < '.join(ORDER)}), each library in one file, no .c file over {MAX_LINES} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
