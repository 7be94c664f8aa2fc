#!/usr/bin/python3
"""make bench: every speed claim of issues 9 and 16, measured side by side in one run.

Each measurement is the median of BENCH_RUNS runs (default 5, at least 5
unless overridden), printed next to the median of its reference, their ratio
and peak RSS (from wait4's rusage). Synthetic inputs are generated under
tests/bench/out/ (git-ignored). Exits non-zero only when a run fails or two
outputs that must be identical differ; a slow machine only gives slow
numbers.

Environment: BUILD (build folder, default build), BENCH_RUNS, BENCH_TMP (where
the build-vs-Hugo outputs go; default /dev/shm when writable), BENCH_ONLY
(some of the sections sim prove wasm live builds real serve files search embed,
space-separated;
all when unset)."""
import gzip
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"))
BP = os.path.join(BUILD, "boardpress")
TOOLS = os.path.join(BUILD, "bench")
OUT = os.path.join(HERE, "out")
RUNS = max(1, int(os.environ.get("BENCH_RUNS", "5")))
PY = "/usr/bin/python3"  # Debian's python3, where python3-simpy3 lives
CATALOG = os.path.join(ROOT, "content", "catalog.yaml")
BOARD = os.path.join(HERE, "million.yaml")

failures = []
TMP_RSS = os.path.join(OUT, ".rss")


def log(msg):
    print("bench: " + msg, file=sys.stderr, flush=True)


class Run:
    def __init__(self, wall, rss_kb, cpu, out, err):
        self.wall, self.rss_kb, self.cpu, self.out, self.err = wall, rss_kb, cpu, out, err

    def json(self):
        return json.loads(self.out.strip().splitlines()[-1])


def run(cmd, cwd=None, env=None, check=True):
    """Run cmd under /usr/bin/time: wall time, and the peak RSS of that one
    program. (A child of this Python process would count Python's own pages:
    Linux keeps the high-water mark of the memory a process had before exec;
    GNU time's child starts from time's own few hundred KB.)"""
    e = dict(os.environ)
    e.update(env or {})
    rss_file = os.path.join(TMP_RSS, "rss")
    t0 = time.perf_counter()
    p = subprocess.Popen(["/usr/bin/time", "-f", "%M %U %S", "-o", rss_file] + list(cmd),
                         cwd=cwd, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate()
    wall = time.perf_counter() - t0
    rss, cpu = 0, 0.0
    try:
        with open(rss_file) as f:
            fields = f.read().split()[-3:]
        rss, cpu = int(fields[0]), float(fields[1]) + float(fields[2])
    except (OSError, ValueError, IndexError):
        pass
    r = Run(wall, rss, cpu, out.decode(), err.decode())
    if check and p.returncode != 0:
        failures.append("%s: exit %d: %s" % (" ".join(cmd), p.returncode, r.err.strip()[-400:]))
        log("FAILED: %s (exit %d)\n%s" % (" ".join(cmd), p.returncode, r.err[-2000:]))
    return r


def rmtree(path):
    if os.path.lexists(path):
        shutil.rmtree(path)


def med(xs):
    return statistics.median(xs)


def tmpfs_root():
    want = os.environ.get("BENCH_TMP")
    if not want:
        want = "/dev/shm" if os.access("/dev/shm", os.W_OK) else OUT
    path = os.path.join(want, "boardpress-bench-%d" % os.getpid())
    os.makedirs(path, exist_ok=True)
    return path


def fs_type(path):
    try:
        out = subprocess.run(["df", "-T", path], capture_output=True, text=True).stdout
        return out.splitlines()[1].split()[1]
    except Exception:
        return "?"


# ------------------------------------------------------------------ table

rows = []  # dicts: section, what, value, ref, ref_what, ratio, rss, target, ok


def row(section, what, value, ref_what="", ref="", ratio="", rss="", target="", ok=None):
    rows.append(dict(section=section, what=what, value=value, ref_what=ref_what, ref=ref,
                     ratio=ratio, rss=rss, target=target, ok=ok))
    log("%-58s %s" % (what, value))


def fmt_s(s):
    return "%.3f s" % s if s < 10 else "%.1f s" % s


def fmt_mib(kb):
    return "%.1f MiB" % (kb / 1024.0)


def fmt_rate(r):
    return "%.1f M/s" % (r / 1e6) if r >= 1e6 else "%.2f M/s" % (r / 1e6)


def verdict(ok):
    return "" if ok is None else ("met" if ok else "**not met**")


def table():
    lines = ["| measurement | boardpress | reference | ratio | peak RSS | target |",
             "|---|---|---|---|---|---|"]
    section = None
    for r in rows:
        if r["section"] != section:
            section = r["section"]
            lines.append("| **%s** | | | | | |" % section)
        ref = r["ref"] if not r["ref_what"] else "%s: %s" % (r["ref_what"], r["ref"])
        target = r["target"]
        if r["ok"] is not None:
            target = "%s (%s)" % (target, verdict(r["ok"]))
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            r["what"], r["value"], ref, r["ratio"], r["rss"], target))
    return "\n".join(lines)


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            mem = "%.0f GiB" % (int(f.readline().split()[1]) / 1024 / 1024)
    except OSError:
        pass
    hugo = []  # a section run alone (BENCH_ONLY=search) needs no hugo; `make bench` installs it
    if shutil.which("hugo"):
        hugo = subprocess.run(["hugo", "version"], capture_output=True, text=True).stdout.split()
    simpy = subprocess.run([PY, "-c", "import simpy; print(simpy.__version__)"],
                           capture_output=True, text=True).stdout.strip()
    return ("%d cores (`nproc`), %s, %s RAM, Linux %s; inputs and outputs on %s "
            "(tests/bench/out), tmpfs outputs in %s; hugo %s, SimPy %s (Debian python3 %s)" % (
                os.cpu_count(), cpu, mem, platform.release(), fs_type(OUT), os.path.dirname(TMP),
                hugo[1] if len(hugo) > 1 else "?", simpy, platform.python_version()))


# ------------------------------------------------------------------ simulator

def bench_sim():
    sec = "Simulator"
    log("simulator: pending-event count of the 1,000,000-job board")
    pend = run([os.path.join(TOOLS, "simdrv"), "pending", BOARD, CATALOG, "1000000",
                "10000 s"]).json()
    pending = int(pend["pending_mean"])
    log("simulator: %d runs of 1M and 100k jobs, bare heap at %d pending" % (RUNS, pending))
    big, small, heap = [], [], []
    for _ in range(RUNS):
        big.append(run([os.path.join(TOOLS, "simdrv"), "run", BOARD, CATALOG, "1000000",
                        "10000 s"]))
        # 100,000 jobs ten times over: as many events as the big run, so the
        # two differ only in how many jobs the model holds
        small.append(run([os.path.join(TOOLS, "simdrv"), "run", BOARD, CATALOG, "100000",
                          "1000 s", "10"]))
        heap.append(run([os.path.join(TOOLS, "heap"), str(pending), "10000000"]))
    bj = [r.json() for r in big]
    sj = [r.json() for r in small]
    rate = med([j["events_per_s"] for j in bj])
    href = med([r.json()["events_per_s"] for r in heap])
    rss_big = med([r.rss_kb for r in big])
    rss_small = med([r.rss_kb for r in small])
    events = bj[0]["events"]
    row(sec, "events/s, 1,000,000 jobs, 20%% acks lost, ID check in transaction (%.1f M events)"
        % (events / 1e6), fmt_rate(rate), "bare binary-heap loop in C, %d pending" % pending,
        fmt_rate(href), "%.2f×" % (rate / href), fmt_mib(rss_big),
        "≥ 10 M/s, ≥ 1/3 of the bare loop", rate >= 10e6 and rate >= href / 3)

    log("simulator: SimPy model, %d runs of 100k jobs" % RUNS)
    simpy = [run([PY, os.path.join(HERE, "simpy_model.py"), "100000", "1000"]) for _ in range(RUNS)]
    spj = [r.json() for r in simpy]
    srate = med([j["events_per_s"] for j in spj])
    bp_jobs = med([j["jobs"] / j["seconds"] for j in bj])
    sp_jobs = med([j["jobs"] / j["seconds"] for j in spj])
    row(sec, "same board in SimPy, 100,000 jobs (deliveries, errors: SimPy %d, %d; boardpress "
        "%.0f, %.0f)" % (spj[0]["deliveries"], spj[0]["errors"], sj[0]["deliveries"],
                         sj[0]["errors"]),
        "%.2f M jobs/s" % (bp_jobs / 1e6), "SimPy 3 (its own events: %s)" % fmt_rate(srate),
        "%.3f M jobs/s" % (sp_jobs / 1e6), "%.0f× (jobs/s); %.0f× (events/s)" % (
            bp_jobs / sp_jobs, rate / srate), fmt_mib(med([r.rss_kb for r in simpy])),
        "print the ratio")
    per_job = (rss_big - rss_small) * 1024.0 / 900000
    row(sec, "memory per job: (peak RSS at 1,000,000 − at 100,000 jobs) ÷ 900,000", "%.1f B" % per_job,
        "", "", "", "%s / %s" % (fmt_mib(rss_big), fmt_mib(rss_small)), "< 64 B", per_job < 64)
    t_big = med([j["seconds"] / j["events"] for j in bj])
    t_small = med([j["seconds"] / j["events"] for j in sj])
    row(sec, "linearity: time per event, 1,000,000 jobs ÷ 100,000 jobs (× 10 runs)",
        "%.1f ns ÷ %.1f ns" % (t_big * 1e9, t_small * 1e9), "", "", "%.2f" % (t_big / t_small),
        "", "≈ 1 (linear in jobs)", t_big / t_small < 1.5)


# ------------------------------------------------------------------ proofs

def bench_prove():
    """boardpress prove (issue 31): the mini board exhaustive (every timing of
    its 6 jobs with up to 2 faults), and a 3-job race board with 2 faults
    (tests/bench/race-faults.yaml: racing copies, crashes, lost acks), each
    beside the brute-force enumeration of the same board, which runs every
    fault combination whatever the bound (the bound is the pruning) and
    must reach the same answer with the same runs within the bound."""
    sec = "Proofs (boardpress prove)"
    cases = [("mini board, 6 jobs, up to 2 faults, exhaustive",
              os.path.join(ROOT, "content", "boards", "mini.yaml"), "6", 1.0),
             ("3-job race board, up to 2 faults (racing copies, crashes, lost acks)",
              os.path.join(HERE, "race-faults.yaml"), "3", 10.0)]
    for what, board, jobs, target in cases:
        log("prove: %s, %d runs" % (what, RUNS))
        args = [BP, "prove", board, "--catalog", CATALOG, "--jobs", jobs, "--faults", "2"]
        ours = [run(args) for _ in range(RUNS)]
        brute = [run(args + ["--brute-force"]) for _ in range(RUNS)]
        oj, bj = ours[0].json(), brute[0].json()
        if (oj["holds"], oj["runs"]) != (bj["holds"], bj["runs"]) or (
                oj.get("counterexample", {}).get("faults") !=
                bj.get("counterexample", {}).get("faults")):
            failures.append("prove %s: brute force disagrees (%s / %s runs)" % (
                board, oj["runs"], bj["runs"]))
        t = med([r.wall for r in ours])
        tb = med([r.wall for r in brute])
        rate = oj["runs"] / t
        brate = bj["executions"] / tb
        row(sec, "%s: %s, %d runs" % (what, "holds" if oj["holds"] else "counterexample with %d "
                                      "faults" % oj["counterexample"]["faults"], oj["runs"]),
            "%s (%.0f runs/s)" % (fmt_s(t), rate),
            "brute force, %d runs (%.0f runs/s)" % (bj["executions"], brate), fmt_s(tb),
            "%.2f×" % (tb / t), fmt_mib(med([r.rss_kb for r in ours])),
            "< %g s" % target, t < target)


# ------------------------------------------------------------------ WebAssembly

WASM = os.path.join(BUILD, "wasm", "simcore.wasm")
WASM_RUNS = 20


def fmt_ms(x):
    return "%.2f ms" % x


def bench_wasm():
    """The simulator compiled to WebAssembly (issue 16) beside the native
    build, in the same run: module size, compile and instantiate time in
    Node, and one run of the largest content board (most events over all
    replications) in the module and natively. The results must be the
    same bytes. Chromium timings per slider move: bench_live."""
    sec = "Simulator in the browser (WebAssembly, Node %s)" % subprocess.run(
        ["node", "--version"], capture_output=True, text=True).stdout.strip()
    raw = os.path.getsize(WASM)
    with open(WASM, "rb") as f:
        gz = len(gzip.compress(f.read(), 9))
    row(sec, "module size, raw / gzip -9 (no imports)", "%d B / %d B" % (raw, gz), "", "", "", "",
        "≤ 20,000 B gzipped", gz <= 20000)
    boards = sorted(glob_boards())
    largest, most = None, -1
    for b in boards:
        j = run([BP, "sim", b]).json()
        events = j["measures"]["events"] * j["replications"]
        if events > most:
            largest, most, reps, jobs = b, events, j["replications"], j["measures"]["jobs"]
    name = os.path.splitext(os.path.basename(largest))[0]
    wire, res = os.path.join(OUT, "largest.wire"), os.path.join(OUT, "largest.res")
    with open(wire, "wb") as f:
        f.write(subprocess.run([BP, "sim", largest, "--wire"], capture_output=True,
                               check=True).stdout)
    with open(res, "wb") as f:
        f.write(subprocess.run([BP, "sim", largest, "--wire-result"], capture_output=True,
                               check=True).stdout)
    log("wasm: %d runs of %s in Node and natively" % (WASM_RUNS * RUNS, name))
    node, native = [], []
    for _ in range(RUNS):
        node.append(run(["node", os.path.join(HERE, "wasm_bench.js"), WASM, wire, res,
                         str(WASM_RUNS)]).json())
        native.append(run([os.path.join(TOOLS, "simdrv"), "time", largest, CATALOG,
                           str(WASM_RUNS)]).json())
    if not all(n["same_as_native"] for n in node):
        failures.append("wasm: results of %s differ from the native build" % name)
    comp = med([x for n in node for x in n["compile_ms"]])
    inst = med([x for n in node for x in n["instantiate_ms"]])
    first = med([x for n in node for x in n["first_ms"]])
    row(sec, "load: compile from bytes + instantiate (bp-sim.js), median", "%s + %s" % (
        fmt_ms(comp), fmt_ms(inst)), "", "", "", "", "print")
    runs = [x for n in node for x in n["run_ms"]]
    row(sec, "first run of %s after a fresh load (V8 compiles functions as they are first "
        "called)" % name, fmt_ms(first), "warm run, median", fmt_ms(med(runs)),
        "%.2f×" % (first / med(runs)), "", "print")
    nat = [x * 1e3 for n in native for x in n["seconds"]]
    row(sec, "one run of %s (%d jobs × %d replications, %.0f events), median / worst of %d" % (
        name, jobs, reps, most, len(runs)),
        "%s / %s" % (fmt_ms(med(runs)), fmt_ms(max(runs))), "native sim_run, same board",
        "%s / %s" % (fmt_ms(med(nat)), fmt_ms(max(nat))), "%.2f× (median)" % (med(runs) / med(nat)),
        "", "same bytes as native (Chromium per slider move: the live rows)",
        all(n["same_as_native"] for n in node))


def bench_live():
    """Live levels in Debian's Chromium (issue 16): the real site built by
    the release build, the page of its largest live level with a slider
    (the most jobs x replications at its start, then the most events there:
    live_bench.mjs), and per run a fresh
    browser: compile and instantiate the module, then every slider swept
    over a dozen positions and back (tests/bench/live_bench.mjs). Beside
    them the native build on the very same boards (the wire bytes each move
    put together, simdrv wire, 3 runs each)."""
    chrome = subprocess.run(["tests/browser/ready.sh"], cwd=ROOT, capture_output=True, text=True)
    if chrome.returncode != 0:
        failures.append("live: cannot drive Chromium: %s" % chrome.stderr.strip()[-400:])
        return
    site, wires = os.path.join(OUT, "live-site"), os.path.join(OUT, "live-wires")
    rmtree(site)
    rmtree(os.path.join(OUT, "live-cache"))
    run([BP, "build", "-q", "--out", site, "--cache", os.path.join(OUT, "live-cache")], cwd=ROOT)
    log("live: %d fresh Chromium pages, each slider swept" % RUNS)
    got = []
    for k in range(RUNS):
        rmtree(wires)
        j = run(["node", os.path.join(HERE, "live_bench.mjs"), site, wires]).json()
        nat = run([os.path.join(TOOLS, "simdrv"), "wire", "3"] +
                  [m["wire"] for m in j["moves"]]).json()["seconds"]
        got.append((j, nat))
    j0 = got[0][0]
    sec = "Live levels in Chromium %s (%s on %s, %d jobs × %d replications)" % (
        j0["chromium"], j0["level"][len("level-"):], j0["page"].rstrip("/"), j0["jobs"],
        j0["replications"])
    comp = med([x for j, _ in got for x in j["compile_ms"]])
    inst = med([x for j, _ in got for x in j["instantiate_ms"]])
    row(sec, "load: compile %d B from bytes + instantiate (bp-sim.js), median" %
        j0["module_bytes"], "%s + %s" % (fmt_ms(comp), fmt_ms(inst)), "", "", "", "", "print")
    moves = [m for j, _ in got for m in j["moves"]]
    sim = [m["sim_ms"] for m in moves]
    shown = [m["shown_ms"] for m in moves]
    nat = [x * 1e3 for _, n in got for x in n]
    main_thread = sum(1 for m in moves if m["place"] == "main")
    row(sec, "re-simulation per slider move, median / worst of %d moves (%d on the main thread)" % (
        len(moves), main_thread), "%s / %s" % (fmt_ms(med(sim)), fmt_ms(max(sim))),
        "native sim_run, same boards", "%s / %s" % (fmt_ms(med(nat)), fmt_ms(max(nat))),
        "%.2f× (median)" % (med(sim) / med(nat)), "", "median ≤ 16 ms", med(sim) <= 16)
    row(sec, "slider move to every number rewritten, median / worst",
        "%s / %s" % (fmt_ms(med(shown)), fmt_ms(max(shown))), "", "", "", "", "print")
    drags = [d for j, _ in got for d in j["drags"]]
    long = [t for d in drags for t in d["longtasks"]]
    row(sec, "2-second mouse drag of each slider (%d drags): main-thread long tasks over 50 ms, "
        "count / longest" % len(drags), "%d / %s" % (len(long), fmt_ms(max(long)) if long else "-"),
        "", "", "", "", "none", not long)
    sweeps = [w for j, _ in got for w in j.get("sweeps", [])]
    if sweeps:
        w0 = sweeps[0]
        what = "sweep of %s (%d points, %s)" % (w0["sweep"].split(".")[-1], w0["points"],
                                                 w0["level"][len("level-"):])
        first = [w["first_ms"] for w in sweeps]
        full = [w["full_ms"] for w in sweeps]
        long = [t for w in sweeps for t in w["longtasks"]]
        rest = med([w["release_ms"] for w in sweeps])
        row(sec, "%s after a 2-second drag of another slider (%d drags): first pass, one "
            "replication a point, from the drag's last change of value (the mouse rested "
            "there %s, median, before its release), median / worst" % (
                what, len(sweeps), fmt_ms(rest)),
            "%s / %s" % (fmt_ms(med(first)), fmt_ms(max(first))), "", "", "", "",
            "≤ 150 ms", med(first) <= 150)
        row(sec, "%s: refined to %d replications a point, from the drag's last change of value, "
            "median / worst" % (
            what, w0["replications"]), "%s / %s" % (fmt_ms(med(full)), fmt_ms(max(full))),
            "", "", "", "", "≤ 1.5 s", med(full) <= 1500)
        row(sec, "%s: main-thread long tasks over 50 ms during those drags, count / longest" % what,
            "%d / %s" % (len(long), fmt_ms(max(long)) if long else "-"), "", "", "", "", "none",
            not long)
    rmtree(wires)


def glob_boards():
    d = os.path.join(ROOT, "content", "boards")
    return [os.path.join(d, f) for f in os.listdir(d) if f.endswith(".yaml")]


# ------------------------------------------------------------------ builds

def gen_sites():
    for n in (1000, 10000):
        run([PY, os.path.join(HERE, "gen_site.py"), str(n), os.path.join(OUT, "site-%d" % n)])


def build_bp(site, out, jobs=None, extra=(), cache=None):
    cmd = [BP, "build", "-q", "--out", out] + list(extra)
    cmd += ["--cache", cache] if cache else ["--no-cache"]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    return run(cmd, cwd=os.path.join(site, "bp"))


def build_hugo(site, out):
    return run(["hugo", "--quiet", "-s", os.path.join(site, "hugo"), "-d", out])


REAL_TEMPLATES = ["--templates", os.path.join(ROOT, "templates"),
                  "--static", os.path.join(ROOT, "static")]


def bytes_per_page(out, n):
    """Every byte a build wrote under out, divided by its n pages."""
    total = 0
    for d, _, files in os.walk(out):
        total += sum(os.lstat(os.path.join(d, f)).st_size for f in files)
    return total / n


def cold(builder, site, out, runs=RUNS, **kw):
    res = []
    for _ in range(runs):
        rmtree(out)
        res.append(builder(site, out, **kw))
    return res


def bench_builds():
    sec = "Builds: generated sites, no boards (~4 KB pages: headings, a table, lists)"
    rss = {}
    real_bpp = {}
    for n in (1000, 10000):
        site = os.path.join(OUT, "site-%d" % n)
        log("builds: %d pages, %d cold runs each of boardpress, hugo, bare cmark-gfm" % (n, RUNS))
        bp = cold(build_bp, site, os.path.join(TMP, "bp-%d" % n))
        hg = cold(build_hugo, site, os.path.join(TMP, "hugo-%d" % n))
        cm = []
        for _ in range(RUNS):
            rmtree(os.path.join(TMP, "cm-%d" % n))
            cm.append(run([os.path.join(TOOLS, "cmarkref"), os.path.join(site, "bp", "content"),
                           os.path.join(TMP, "cm-%d" % n)]))
        tb, th, tc = med([r.wall for r in bp]), med([r.wall for r in hg]), med([r.wall for r in cm])
        rb, rh = med([r.rss_kb for r in bp]), med([r.rss_kb for r in hg])
        rss[n] = (rb, rh)
        row(sec, "build %s pages, cold (output on tmpfs)" % format(n, ","), fmt_s(tb), "hugo",
            fmt_s(th), "%.2f×" % (tb / th), "%s (hugo %s)" % (fmt_mib(rb), fmt_mib(rh)),
            "≤ 0.4× hugo", tb <= 0.4 * th)
        row(sec, "… the same pages with a bare cmark-gfm loop in C (no templates, no checks)",
            "", "cmark-gfm", fmt_s(tc), "%.2f×" % (tb / tc), fmt_mib(med([r.rss_kb for r in cm])),
            "")
        # what users run: the shipped templates (nav, pager, head, footer)
        # and static files, beside the minimal ones
        minimal_bpp = bytes_per_page(os.path.join(TMP, "bp-%d" % n), n)
        out = os.path.join(TMP, "bp-real-%d" % n)
        real = cold(build_bp, site, out, extra=REAL_TEMPLATES)
        tr = med([r.wall for r in real])
        real_bpp[n] = bytes_per_page(out, n)
        row(sec, "… with the real templates/ and static/ (bytes written per page)",
            "%s, %.1f KB/page" % (fmt_s(tr), real_bpp[n] / 1000), "minimal templates",
            "%s, %.1f KB/page" % (fmt_s(tb), minimal_bpp / 1000), "%.2f×" % (tr / tb),
            fmt_mib(med([r.rss_kb for r in real])), "")
    row(sec, "bytes written per page with the real templates, 10,000 pages ÷ 1,000 pages",
        "%.2f" % (real_bpp[10000] / real_bpp[1000]), "", "", "", "",
        "≤ 1.1 (output linear in pages)", real_bpp[10000] <= 1.1 * real_bpp[1000])
    per_page = (rss[10000][0] - rss[1000][0]) * 1024.0 / 9000
    hugo_page = (rss[10000][1] - rss[1000][1]) * 1024.0 / 9000
    row(sec, "peak RSS, 10,000 pages ÷ 1,000 pages (what each extra page keeps)",
        "%.2f× (+%.0f B/page)" % (rss[10000][0] / rss[1000][0], per_page), "hugo",
        "%.2f× (+%.0f KB/page)" % (rss[10000][1] / rss[1000][1], hugo_page / 1024), "", "",
        "pages streamed: < 1 KB kept per page (front matter)", per_page < 1024)
    # the same 1,000 pages onto the disk the sources are on
    site = os.path.join(OUT, "site-1000")
    log("builds: 1000 pages onto %s, %d cold runs each" % (fs_type(OUT), RUNS))
    disk = os.path.join(OUT, "disk")
    os.makedirs(disk, exist_ok=True)
    bp = cold(build_bp, site, os.path.join(disk, "bp"))
    hg = cold(build_hugo, site, os.path.join(disk, "hugo"))
    tb, th = med([r.wall for r in bp]), med([r.wall for r in hg])
    row(sec, "build 1,000 pages, cold (output on %s)" % fs_type(OUT), fmt_s(tb), "hugo", fmt_s(th),
        "%.2f×" % (tb / th), "%s (hugo %s)" % (fmt_mib(med([r.rss_kb for r in bp])),
                                              fmt_mib(med([r.rss_kb for r in hg]))),
        "≤ 0.4× hugo", tb <= 0.4 * th)
    rmtree(os.path.join(disk, "hugo"))


# ------------------------------------------------------------------ real site

def copy_site(dst):
    rmtree(dst)
    os.makedirs(dst)
    for d in ("content", "templates", "static"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(dst, d))


def bp_real(cwd, out, *extra, cache=True):
    cmd = [BP, "build", "--out", out] + list(extra)
    if not cache:
        cmd.append("--no-cache")
    return run(cmd, cwd=cwd, env={"SOURCE_DATE_EPOCH": "1700000000"})


def summary(r):
    m = re.search(r"\((\d+) simulated, (\d+) from the cache", r.err)
    return (int(m.group(1)), int(m.group(2))) if m else (None, None)


def largest_page(content):
    best, size = None, -1
    for name in sorted(os.listdir(content)):
        p = os.path.join(content, name)
        if name.endswith(".md") and name != "index.md" and os.path.getsize(p) > size:
            best, size = p, os.path.getsize(p)
    return best


def bench_real():
    sec = "The real site (content/, every level and replication)"
    site = os.path.join(OUT, "real")
    copy_site(site)
    out = os.path.join(site, "public")
    log("real site: %d cold builds (no cache, no previous output)" % RUNS)
    colds = []
    for _ in range(RUNS):
        rmtree(out)
        colds.append(bp_real(site, out, cache=False))
    tc = med([r.wall for r in colds])
    sims = summary(colds[0])[0]
    row(sec, "cold build: no cache, no previous output (%s runs simulated; CPU beside the wall)"
        % sims, "%s (CPU %s)" % (fmt_s(tc), fmt_s(med([r.cpu for r in colds]))), "", "", "",
        fmt_mib(med([r.rss_kb for r in colds])), "< 1 s", tc < 1.0)
    # the same build with its output on tmpfs: on ext4 each new file's inode
    # is searched for past those the previous cold build's deletion freed
    # moments before (the kernel's recently_deleted), which the bench's
    # back-to-back cold builds pay file by file
    tout = os.path.join(TMP, "real-public")
    ctmp = []
    for _ in range(RUNS):
        rmtree(tout)
        ctmp.append(bp_real(site, tout, cache=False))
    rmtree(tout)
    tt = med([r.wall for r in ctmp])
    row(sec, "… the same cold build with its output on tmpfs (%s)" % os.path.dirname(TMP),
        "%s (CPU %s)" % (fmt_s(tt), fmt_s(med([r.cpu for r in ctmp]))), "output on ext4",
        fmt_s(tc), "%.2f" % (tt / tc), fmt_mib(med([r.rss_kb for r in ctmp])), "< 1 s", tt < 1.0)
    bench_real_stages(site, out)
    # warm the cache and the output, then edit one page's prose per run
    page = largest_page(os.path.join(site, "content"))
    with open(page) as f:
        text = f.read()
    bp_real(site, out)
    bp_real(site, out)
    log("real site: %d rebuilds after editing the prose of %s" % (RUNS, os.path.basename(page)))
    edits = []
    for k in range(RUNS):
        with open(page, "w") as f:
            f.write(text + "\nAn extra sentence for the bench, version %d.\n" % k)
        edits.append(bp_real(site, out))
    with open(page, "w") as f:
        f.write(text)
    te = med([r.wall for r in edits])
    resim = max(summary(r)[0] or 0 for r in edits)
    written = re.search(r"(\d+) files written, (\d+) unchanged", edits[-1].err)
    row(sec, "rebuild after editing one page's prose (%s re-simulated, %s files written, "
        "%s unchanged)" % (resim, written.group(1) if written else "?",
                           written.group(2) if written else "?"),
        fmt_s(te), "cold build", fmt_s(tc), "%.3f" % (te / tc),
        fmt_mib(med([r.rss_kb for r in edits])), "0 re-simulated, < 0.10 of cold",
        resim == 0 and te / tc < 0.10)
    return site, tc


def bench_real_stages(site, out):
    """One more cold build with BOARDPRESS_SPANS: each stage's wall time
    and, in the stages with jobs on threads, each thread's time outside a
    job (tests/bench/spans.py)."""
    sys.path.insert(0, HERE)
    import spans
    path = os.path.join(OUT, "real-spans.tsv")
    rmtree(out)
    r = run([BP, "build", "--out", out, "--no-cache"], cwd=site,
            env={"SOURCE_DATE_EPOCH": "1700000000", "BOARDPRESS_SPANS": path})
    if not os.path.exists(path):
        return
    stages, jobs = spans.read(path)
    parts = []
    for name, wall, per in spans.stage_threads(stages, jobs):
        if wall < 5:
            continue
        text = "%s %.0f ms" % (name, wall)
        if per:
            text += " (outside a job: %s ms)" % " / ".join(
                "%.0f" % (wall - per.get(t, (0, 0.0, 0))[1]) for t in range(max(2, len(per))))
        parts.append(text)
    row("The real site (content/, every level and replication)",
        "… one cold build's stages (BOARDPRESS_SPANS, threads 0 / 1): " + ", ".join(parts),
        fmt_s(r.wall), "", "", "", "", "print")


def bench_jobs(real_site):
    sec = "--jobs N (simulations and pages on N threads; output must not change)"
    out1, out2 = os.path.join(TMP, "jobs1"), os.path.join(TMP, "jobs2")
    log("--jobs: real site cold, %d runs each of --jobs 1 and --jobs 2" % RUNS)
    t, busy = {}, {}
    for j, out in ((1, out1), (2, out2)):
        res = []
        for _ in range(RUNS):
            rmtree(out)
            res.append(bp_real(real_site, out, "--jobs", str(j), cache=False))
        t[j] = med([r.wall for r in res])
        busy[j] = med([r.cpu / r.wall for r in res])
    same = subprocess.run(["diff", "-r", out1, out2], capture_output=True).returncode == 0
    if not same:
        failures.append("--jobs 1 and --jobs 2 built different real sites")
    row(sec, "real site, cold: --jobs 2 vs --jobs 1", "%s vs %s" % (fmt_s(t[2]), fmt_s(t[1])), "",
        "", "%.2f× faster (CPU ÷ wall: %.2f vs %.2f)" % (t[1] / t[2], busy[2], busy[1]), "",
        "byte-identical: %s" % ("yes" if same else "NO"), same)
    site = os.path.join(OUT, "site-10000")
    log("--jobs: 10,000 pages, %d runs each of --jobs 1 and --jobs 2" % RUNS)
    for j, out in ((1, out1), (2, out2)):
        res = cold(build_bp, site, out, jobs=j)
        t[j] = med([r.wall for r in res])
        busy[j] = med([r.cpu / r.wall for r in res])
    same = subprocess.run(["diff", "-r", "-q", out1, out2], capture_output=True).returncode == 0
    if not same:
        failures.append("--jobs 1 and --jobs 2 built different 10,000-page sites")
    row(sec, "10,000 pages, cold: --jobs 2 vs --jobs 1", "%s vs %s" % (fmt_s(t[2]), fmt_s(t[1])),
        "", "", "%.2f× faster (CPU ÷ wall: %.2f vs %.2f)" % (t[1] / t[2], busy[2], busy[1]), "",
        "byte-identical: %s" % ("yes" if same else "NO"), same)
    rmtree(out1)
    rmtree(out2)


# ------------------------------------------------------------------ diagrams

def bench_draw(real_site):
    sec = "Diagrams (cairo SVG)"
    boards = sorted(os.path.join(ROOT, "content", "boards", b)
                    for b in os.listdir(os.path.join(ROOT, "content", "boards"))
                    if b.endswith(".yaml"))
    log("diagrams: %d runs over %d boards, and the cairo reference" % (RUNS, len(boards)))
    d, ref = [], []
    for _ in range(RUNS):
        d.append(run([os.path.join(TOOLS, "drawbench"), "boards", CATALOG, "5"] + boards).json())
        ref.append(run([os.path.join(TOOLS, "drawbench"), "ref", "200"]).json())
    ms, rms = med([x["ms_per_diagram"] for x in d]), med([x["ms_per_diagram"] for x in ref])
    row(sec, "ms per board diagram (%d real boards, layout + routing + SVG)" % len(boards),
        "%.2f ms" % ms, "three boxes on cairo's SVG surface", "%.2f ms" % rms, "%.1f×" % (ms / rms),
        "", "")
    b, rb = d[0]["bytes_per_diagram"], ref[0]["bytes_per_diagram"]
    row(sec, "bytes per board diagram", "%.1f KB" % (b / 1000), "three boxes, cairo's glyph text",
        "%.1f KB" % (rb / 1000), "%.2f×" % (b / rb), "", "compact")
    svgs = []
    for dirpath, _, files in os.walk(os.path.join(real_site, "public")):
        svgs += [os.path.join(dirpath, f) for f in files if f.endswith(".svg")]
    if svgs:
        raw = [os.path.getsize(p) for p in svgs]
        gz = []
        for p in svgs:
            with open(p, "rb") as f:
                gz.append(len(gzip.compress(f.read(), 9)))
        row(sec, "SVGs the real site writes (%d: boards, timelines, charts)" % len(svgs),
            "%.1f KB each, %.1f KB gzipped" % (statistics.mean(raw) / 1000,
                                               statistics.mean(gz) / 1000),
            "", "", "", "", "")


# ------------------------------------------------------------------ search

def bench_search():
    """The search index (search-index.js) of generated sites of 10 and 100
    pages built with the real templates: its bytes, raw and gzipped (at most
    150 KB gzipped at 100 pages), and the build time it adds, measured by
    tests/bench/searchbench.c doing the build's own search work (cutting the
    pages into sections, writing the index) alone on the pages built."""
    sec = "Search index (search-index.js; generated pages, real templates)"
    for n in (10, 100):
        site = os.path.join(OUT, "site-search-%d" % n)
        run([PY, os.path.join(HERE, "gen_site.py"), str(n), site])
        out = os.path.join(TMP, "search-%d" % n)
        builds = cold(build_bp, site, out, extra=REAL_TEMPLATES)
        with open(os.path.join(out, "search-index.js"), "rb") as f:
            data = f.read()
        gz = len(gzip.compress(data, 9))
        sb = [run([os.path.join(TOOLS, "searchbench"), "20", out]).json() for _ in range(RUNS)]
        ms = med([x["ms_per_build"] for x in sb])
        build_s = med([b.wall for b in builds])
        row(sec, "index bytes, %d pages" % n, "%.1f KB, %.1f KB gzipped" % (len(data) / 1000, gz / 1000),
            "", "", "", "", "≤ 150 KB gzipped at 100 pages" if n == 100 else "",
            gz <= 150 * 1000 if n == 100 else None)
        row(sec, "build time search adds, %d pages" % n, "%.1f ms" % ms,
            "the whole cold build", fmt_s(build_s), "%.1f %%" % (100 * ms / 1000 / build_s),
            "", "")
    real = os.path.join(OUT, "real", "public", "search-index.js")
    if os.path.exists(real):
        with open(real, "rb") as f:
            data = f.read()
        row(sec, "index bytes, the real site (content/, measured numbers)",
            "%.1f KB, %.1f KB gzipped" % (len(data) / 1000, len(gzip.compress(data, 9)) / 1000),
            "", "", "", "", "")


def bench_embed():
    """A static board's embed page (render/embed.c) on the real site: what a
    browser fetches for it, the page, the stylesheet and the largest of the
    board's four drawings (it loads one), raw and gzipped; at most 60 KB."""
    sec = "Embeds (SLUG/embed/ID/, the real site)"
    out = os.path.join(TMP, "embed-real")
    run([BP, "build", "-q", "--out", out, "--cache", os.path.join(OUT, "embed-cache")], cwd=ROOT)
    emb = os.path.join(out, "idempotent-messages", "embed", "ship-by-order", "index.html")
    svgs = [os.path.join(out, "idempotent-messages", "ship-by-order%s.svg" % s)
            for s in ("", "-dark", "-narrow", "-narrow-dark")]
    svg = max(svgs, key=os.path.getsize)
    files = [emb, os.path.join(out, "static", "boardpress.css"), svg]
    raw = gz = 0
    for f in files:
        with open(f, "rb") as h:
            data = h.read()
        raw += len(data)
        gz += len(gzip.compress(data, 9))
    row(sec, "a static board's embed page and all it loads (ship-by-order)",
        "%.1f KB, %.1f KB gzipped" % (raw / 1000, gz / 1000), "", "", "", "",
        "≤ 60 KB transferred", raw <= 60 * 1000)


# ------------------------------------------------------------------ file writing

def bench_files():
    sec = ("File writing: 1,000 pages on %s (atomic: the new tree is built beside --out and "
           "swapped in)" % fs_type(OUT))
    site = os.path.join(OUT, "site-1000")
    base = os.path.join(OUT, "files")
    rmtree(base)
    os.makedirs(base)
    out = os.path.join(base, "public")
    cache = os.path.join(base, "cache")  # where the previous tree is kept (no boards: only that)
    hugo_out = os.path.join(base, "hugo")
    log("files: %d runs each: fresh, rebuilds with and without the spare tree, deletion, "
        "hugo rebuild, C references" % RUNS)
    fresh, same, nospare, deletes, hugo = [], [], [], [], []
    ref_new, ref_over, ref_cmp = [], [], []
    build_hugo(site, hugo_out)
    for k in range(RUNS):
        rmtree(out)
        rmtree(cache)
        fresh.append(build_bp(site, out, cache=cache))    # no previous tree: all new
        nospare.append(build_bp(site, out, cache=cache))  # no spare yet: new folders, hard links
        same.append(build_bp(site, out, cache=cache))     # the spare recycled in place
        t0 = time.perf_counter()
        rmtree(cache)                        # the kept tree: what each build paid before
        deletes.append(time.perf_counter() - t0)
        hugo.append(build_hugo(site, hugo_out))  # hugo rewrites every file of its public/
        ref = os.path.join(base, "ref")
        rmtree(ref)
        fs = os.path.join(TOOLS, "fsref")
        ref_new.append(run([fs, "new", ref, "1000"]).json()["seconds"])
        ref_over.append(run([fs, "overwrite", ref, "1000"]).json()["seconds"])
        ref_cmp.append(run([fs, "compare", ref, "1000"]).json()["seconds"])
        rmtree(ref)
    tf, ts, tn = med([r.wall for r in fresh]), med([r.wall for r in same]), med([r.wall for r in nospare])
    th = med([r.wall for r in hugo])
    rn, ro, rc = med(ref_new), med(ref_over), med(ref_cmp)
    td = med(deletes)
    row(sec, "build into an empty place: 1,000 folders and files made", fmt_s(tf),
        "C: write 1,000 files into new folders", fmt_s(rn), "", fmt_mib(med([r.rss_kb for r in fresh])),
        "")
    row(sec, "rebuild, nothing changed: the spare tree recycled, files compared, none written",
        fmt_s(ts), "C: compare 1,000 files, skip", fmt_s(rc), "%.2f of the fresh build" % (ts / tf),
        "", "the fast path")
    row(sec, "rebuild, nothing changed, no spare tree: 1,000 folders made, files hard-linked",
        fmt_s(tn), "C: overwrite 1,000 files in place", fmt_s(ro), "%.2f of the fresh build" % (tn / tf),
        "", "")
    row(sec, "… plus deleting the previous tree after the swap (the cost the spare avoids)",
        fmt_s(td), "", "", "%.2f of the fresh build" % (td / tf), "", "")
    row(sec, "hugo rebuild, nothing changed (rewrites every file of its public/)", "",
        "hugo", fmt_s(th), "%.2f× (recycled rebuild ÷ hugo)" % (ts / th),
        fmt_mib(med([r.rss_kb for r in hugo])), "")
    rmtree(base)


# ------------------------------------------------------------------ the preview

CHROMIUM = os.environ.get("BP_CHROMIUM", "/usr/bin/chromium")
BROWSER_DIR = os.path.join(ROOT, "tests", "browser")


def front_matter(path):
    with open(path) as f:
        text = f.read()
    return text.split("\n---", 1)[0] if text.startswith("---") else ""


def page_url(md):
    m = re.search(r"^slug:\s*(\S+)", front_matter(md), re.M)
    return "/%s/" % (m.group(1) if m else os.path.basename(md)[:-3])


def lone_board(content):
    """(board file, the one page using it): the first board (by name) with
    a seed line that one page names and no level does, or (None, None)."""
    pages = [os.path.join(content, n) for n in sorted(os.listdir(content)) if n.endswith(".md")]
    levels = os.path.join(content, "levels")
    level_text = "".join(open(os.path.join(levels, n)).read() for n in sorted(os.listdir(levels))
                         ) if os.path.isdir(levels) else ""
    boards = os.path.join(content, "boards")
    for name in sorted(os.listdir(boards)):
        with open(os.path.join(boards, name)) as f:
            if not re.search(r"^seed:\s*\d+\s*$", f.read(), re.M):
                continue
        users = [p for p in pages if re.search(r"\b%s\b" % re.escape(name), front_matter(p))]
        if len(users) == 1 and name not in level_text:
            return os.path.join(boards, name), users[0]
    return None, None


def bench_serve(tc):
    """`boardpress serve` on a copy of the real site in Chromium: from a
    saved edit to the page showing it (tests/browser/reload_bench.mjs),
    beside the cold build of the same run."""
    sec = "Preview: boardpress serve, edit saved → page shown in Chromium (the real site)"
    site = os.path.join(OUT, "serve")
    copy_site(site)
    content = os.path.join(site, "content")
    page = largest_page(content)
    with open(page) as f:
        prose = f.read()
    board, board_page = lone_board(content)
    edits = [{"name": "prose", "url": page_url(page), "file": os.path.relpath(page, site),
              "runs": [{"text": prose + "\nA sentence the bench adds, version bench-%d-%d.\n" % (
                  os.getpid(), k), "marker": "bench-%d-%d" % (os.getpid(), k)}
                  for k in range(RUNS + 1)]}]
    if board:
        with open(board) as f:
            btext = f.read()
        seed = int(re.search(r"^seed:\s*(\d+)", btext, re.M).group(1))
        edits.append({"name": "board", "url": page_url(board_page),
                      "file": os.path.relpath(board, site),
                      "runs": [{"text": re.sub(r"^seed:\s*\d+", "seed: %d" % (seed + 1000 + k),
                                               btext, count=1, flags=re.M), "marker": None}
                               for k in range(RUNS + 1)]})
    spec = os.path.join(OUT, "serve-bench.json")
    with open(spec, "w") as f:
        json.dump({"bp": BP, "site": site, "chromium": CHROMIUM, "edits": edits}, f)
    log("preview: %d prose edits of %s%s in Chromium (the first of each not counted)" % (
        RUNS, os.path.basename(page),
        " and %d seed edits of %s" % (RUNS, os.path.basename(board)) if board else ""))
    r = run(["node", "reload_bench.mjs", spec], cwd=BROWSER_DIR)
    if not r.out.strip():
        return
    res = r.json()

    def rebuilt(lines):
        """(median seconds the server's rebuild took, most re-simulated, pages changed)"""
        got = [re.search(r"rebuilt in ([\d.]+) s \((\d+) simulated, (\d+) pages?", l) for l in lines]
        got = [g for g in got if g]
        if not got:
            return 0.0, "?", "?"
        return (med([float(g.group(1)) for g in got]), max(int(g.group(2)) for g in got),
                max(int(g.group(3)) for g in got))

    ms = res["prose"]["ms"][1:]
    rb, sims, pages = rebuilt(res["prose"]["lines"][1:])
    p = med(ms)
    row(sec, "prose edit of %s → the new text shown (server's rebuild %s; %s re-simulated, "
        "%s page%s changed); median, worst %s" % (
                                                    os.path.basename(page), fmt_ms(rb * 1000), sims,
                                                    pages, "" if pages == 1 else "s", fmt_ms(max(ms))),
        fmt_ms(p), "cold build", fmt_s(tc), "%.3f" % (p / 1000 / tc), "", "< 150 ms median",
        p < 150 and sims == 0)
    if "board" in res:
        ms = res["board"]["ms"][1:]
        rb, sims, pages = rebuilt(res["board"]["lines"][1:])
        b = med(ms)
        row(sec, "board edit (seed of %s, used by %s) → the page reloaded (server's rebuild %s; "
            "%s re-simulated, %s page%s changed); median, worst %s" % (
                os.path.basename(board), os.path.basename(board_page), fmt_ms(rb * 1000), sims,
                pages, "" if pages == 1 else "s", fmt_ms(max(ms))),
            fmt_ms(b), "cold build", fmt_s(tc), "%.3f" % (b / 1000 / tc), "",
            "that board alone re-simulated", sims == 1)


def build_tools():
    """The C helpers, built by make bench (Makefile, bench section)."""
    for t in ("heap", "fsref", "simdrv", "drawbench", "cmarkref", "searchbench"):
        if not os.access(os.path.join(TOOLS, t), os.X_OK):
            log("missing %s/%s: run make bench" % (TOOLS, t))
            sys.exit(3)
    if not os.path.exists(WASM):
        log("missing %s: run make bench" % WASM)
        sys.exit(3)


def main():
    global TMP
    os.makedirs(TMP_RSS, exist_ok=True)
    build_tools()
    TMP = tmpfs_root()
    load0 = os.getloadavg()
    t0 = time.time()
    only = set(os.environ.get("BENCH_ONLY", "").split())
    want = lambda name: not only or name in only
    try:
        if want("builds") or want("real") or want("serve") or want("files"):
            gen_sites()
        if want("sim"):
            bench_sim()
        if want("prove"):
            bench_prove()
        if want("wasm"):
            bench_wasm()
        if want("live"):
            bench_live()
        if want("builds"):
            bench_builds()
        if want("real") or want("serve"):
            real, cold_s = bench_real()
            if want("serve"):
                bench_serve(cold_s)
            if want("real"):
                bench_jobs(real)
                bench_draw(real)
        if want("files"):
            bench_files()
        if want("search"):
            bench_search()
        if want("embed"):
            bench_embed()
    finally:
        rmtree(TMP)
    load1 = os.getloadavg()
    head = ("boardpress bench, %s; median of %d runs each; load average %.1f at the start, "
            "%.1f at the end (other work on the machine slows every number, and takes the "
            "second core from --jobs 2); %.0f s in all" % (
                time.strftime("%Y-%m-%d"), RUNS, load0[0], load1[0], time.time() - t0))
    text = "%s\n\nMachine: %s\n\n%s\n" % (head, machine(), table())
    with open(os.path.join(OUT, "results.md"), "w") as f:
        f.write(text)
    print(text)
    if failures:
        print("bench: %d run(s) failed:\n  %s" % (len(failures), "\n  ".join(failures)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
