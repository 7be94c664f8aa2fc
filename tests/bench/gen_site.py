#!/usr/bin/env python3
"""Generate a synthetic site of N Markdown pages (~4 KB each: headings, a GFM
table, lists, inline markup; no boards) twice over the same files: a
boardpress site (content/, minimal templates) and a minimal Hugo site whose
content/ holds hard links to the very same .md files.

usage: gen_site.py N OUTDIR
Deterministic: the same N gives the same bytes."""
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

WORDS = ("broker consumer delivery message retry acknowledgment payment provider "
         "charge effect duplicate key record transaction outbox timeout queue "
         "handler service request response latency percentile window retention "
         "idempotent operation business order customer invoice ledger account "
         "network partition replica commit rollback crash restart budget").split()


def sentence(r, n=None):
    n = n or r.randint(8, 18)
    w = [r.choice(WORDS) for _ in range(n)]
    i = r.randrange(n)
    style = r.randrange(5)
    if style == 0:
        w[i] = "*" + w[i] + "*"
    elif style == 1:
        w[i] = "**" + w[i] + "**"
    elif style == 2:
        w[i] = "`" + w[i] + "`"
    elif style == 3:
        w[i] = "[" + w[i] + "](https://example.com/" + w[i] + ")"
    s = " ".join(w)
    return s[0].upper() + s[1:] + "."


def paragraph(r):
    return " ".join(sentence(r) for _ in range(r.randint(3, 5)))


def page(r, k, n):
    title = "Page %d: %s %s" % (k, r.choice(WORDS), r.choice(WORDS))
    out = ["---",
           "title: \"%s\"" % title,
           "summary: \"%s\"" % sentence(r, 10)[:-1],
           "order: %d" % k,
           "---",
           paragraph(r), ""]
    out += ["## %s and %s" % (r.choice(WORDS).capitalize(), r.choice(WORDS)), "",
            paragraph(r), ""]
    for _ in range(r.randint(4, 6)):
        out.append("- " + sentence(r))
    out.append("")
    out += ["### %s" % r.choice(WORDS).capitalize(), "", paragraph(r), ""]
    cols = r.randint(3, 5)
    out.append("| " + " | ".join(r.choice(WORDS).capitalize() for _ in range(cols)) + " |")
    out.append("|" + "---|" * cols)
    for _ in range(r.randint(5, 7)):
        out.append("| " + " | ".join(
            str(r.randint(1, 9999)) if c else r.choice(WORDS) for c in range(cols)) + " |")
    out.append("")
    out += ["## %s" % r.choice(WORDS).capitalize(), "", paragraph(r), ""]
    for i in range(r.randint(3, 5)):
        out.append("%d. %s" % (i + 1, sentence(r)))
    out.append("")
    out += [paragraph(r), "", "### %s" % r.choice(WORDS).capitalize(), "", paragraph(r), ""]
    return "\n".join(out) + "\n"


def main():
    n = int(sys.argv[1])
    dest = sys.argv[2]
    stamp = os.path.join(dest, ".complete")
    if os.path.exists(stamp):
        with open(stamp) as f:
            if f.read() == "%d\n" % n:
                return  # already generated
    shutil.rmtree(dest, ignore_errors=True)
    bp = os.path.join(dest, "bp")
    content = os.path.join(bp, "content")
    os.makedirs(content)
    os.makedirs(os.path.join(bp, "static"))
    shutil.copytree(os.path.join(HERE, "templates"), os.path.join(bp, "templates"))
    shutil.copy(os.path.join(ROOT, "content", "catalog.yaml"), content)
    with open(os.path.join(content, "site.yaml"), "w") as f:
        f.write("title: Synthetic bench site\ndescription: %d generated pages\n" % n)
    hugo = os.path.join(dest, "hugo")
    os.makedirs(os.path.join(hugo, "content"))
    shutil.copytree(os.path.join(HERE, "hugo", "layouts"), os.path.join(hugo, "layouts"))
    shutil.copy(os.path.join(HERE, "hugo", "config.toml"), hugo)
    r = random.Random(n)
    total = 0
    for k in range(1, n + 1):
        text = page(r, k, n)
        total += len(text)
        name = "page-%05d.md" % k
        path = os.path.join(content, name)
        with open(path, "w") as f:
            f.write(text)
        os.link(path, os.path.join(hugo, "content", name))
    with open(stamp, "w") as f:
        f.write("%d\n" % n)
    print("gen_site: %d pages, %.1f KB each on average, in %s" % (n, total / n / 1024, dest))


if __name__ == "__main__":
    main()
