#!/usr/bin/python3
"""spans.py FILE [N]: what a build's timeline (BOARDPRESS_SPANS=FILE
boardpress build ...) says: each stage's wall time and, for the stages that
run jobs on threads, each thread's jobs, busy time and when it went idle
(a core idle before its stage ends is time the build waits on the other);
then the time each kind of job took in all, and the N longest jobs
(default 10). make bench prints the real site's stages beside its cold
build (tests/bench/run.py)."""
import collections
import sys


def read(path):
    """(stages, jobs): stages as (start, end, name) in ms, jobs as (thread,
    start, end, kind, name)."""
    stages, jobs = [], []
    with open(path) as f:
        for line in f:
            t, a, b, kind, name = line.rstrip("\n").split("\t", 4)
            if kind == "stage":
                stages.append((float(a), float(b), name))
            else:
                jobs.append((int(t), float(a), float(b), kind, name))
    return stages, jobs


def stage_threads(stages, jobs):
    """For each stage: (name, wall ms, {thread: (jobs, busy ms, idle ms
    before the stage ends)})."""
    out = []
    for a, b, name in stages:
        per = {}
        for t, s, e, _, _ in jobs:
            if s >= a and e <= b + 0.01:
                n, busy, last = per.get(t, (0, 0.0, a))
                per[t] = (n + 1, busy + e - s, max(last, e))
        out.append((name, b - a, {t: (n, busy, b - last) for t, (n, busy, last) in per.items()}))
    return out


def main():
    stages, jobs = read(sys.argv[1])
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    for name, wall, per in stage_threads(stages, jobs):
        line = "%-9s %8.1f ms" % (name, wall)
        for t in sorted(per):
            n, busy, idle = per[t]
            line += "   thread %d: %d jobs, %.1f ms busy, idle the last %.1f ms" % (t, n, busy, idle)
        print(line)
    total = collections.defaultdict(float)
    for _, s, e, kind, _ in jobs:
        total[kind] += e - s
    print("jobs in all: " + ", ".join("%s %.1f ms" % kv for kv in sorted(total.items())))
    for t, s, e, kind, name in sorted(jobs, key=lambda j: j[1] - j[2])[:top]:
        print("  %7.1f ms  thread %d at %7.1f ms  %s %s" % (e - s, t, s, kind, name))


if __name__ == "__main__":
    main()
