#!/usr/bin/env python3
"""check_feed.py — a built site's feed.xml is an Atom feed readers accept.

usage: check_feed.py FEED.xml EXPECT.tsv

Checks, with the standard library's XML parser, every element RFC 4287
requires (feed: id, title, updated, an author or one in every entry, at
most one alternate link per type; entry: id, title, updated, a summary
since there is no content, an alternate link), ids as absolute IRIs, dates
as RFC 3339, no id twice; then parses the feed with feedparser (Debian's
python3-feedparser) and compares its entries with EXPECT.tsv, one line per
page in feed order: title, link, updated, published ("-" for none).
Prints one line per problem and exits 1 when there is any.
"""
import re
import sys
import xml.etree.ElementTree as ET

import feedparser

A = "{http://www.w3.org/2005/Atom}"
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
IRI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")


def main(feed_path, expect_path):
    problems = []
    root = ET.parse(feed_path).getroot()
    if root.tag != A + "feed":
        problems.append(f"root element is {root.tag}, not Atom's feed")

    def one(el, name, where):
        found = el.findall(A + name)
        if len(found) != 1:
            problems.append(f"{where}: {len(found)} <{name}> elements, RFC 4287 wants exactly one")
            return None
        return found[0]

    def check_common(el, where):
        i = one(el, "id", where)
        if i is not None and not IRI.match(i.text or ""):
            problems.append(f"{where}: id '{i.text}' is not an absolute IRI")
        t = one(el, "title", where)
        if t is not None and not (t.text or "").strip():
            problems.append(f"{where}: empty title")
        u = one(el, "updated", where)
        if u is not None and not RFC3339.match(u.text or ""):
            problems.append(f"{where}: updated '{u.text}' is not an RFC 3339 date")
        alts = {}
        for link in el.findall(A + "link"):
            if not link.get("href"):
                problems.append(f"{where}: a link without href")
            if link.get("rel", "alternate") == "alternate":
                key = (link.get("type"), link.get("hreflang"))
                alts[key] = alts.get(key, 0) + 1
        if any(n > 1 for n in alts.values()):
            problems.append(f"{where}: two alternate links of one type and language")
        return i.text if i is not None else None, alts

    feed_id, _ = check_common(root, "feed")
    entries = root.findall(A + "entry")
    ids = [feed_id]
    every_entry_author = True
    for k, e in enumerate(entries):
        where = f"entry {k + 1}"
        eid, alts = check_common(e, where)
        ids.append(eid)
        if e.find(A + "content") is None:
            if not alts:
                problems.append(f"{where}: no content and no alternate link")
            s = one(e, "summary", where)
            if s is not None and not (s.text or "").strip():
                problems.append(f"{where}: empty summary")
        p = e.find(A + "published")
        if p is not None and not RFC3339.match(p.text or ""):
            problems.append(f"{where}: published '{p.text}' is not an RFC 3339 date")
        if e.find(A + "author") is None:
            every_entry_author = False
    if root.find(A + "author") is None and not (entries and every_entry_author):
        problems.append("feed: no author, and not every entry has one")
    for a in root.iter(A + "author"):
        n = a.find(A + "name")
        if n is None or not (n.text or "").strip():
            problems.append("an author without a name")
    if len(set(ids)) != len(ids):
        problems.append("an id is used twice")

    parsed = feedparser.parse(feed_path)
    if parsed.bozo:
        problems.append(f"feedparser: {parsed.bozo_exception}")
    if parsed.version != "atom10":
        problems.append(f"feedparser reads it as '{parsed.version}', not Atom 1.0")
    want = [line.rstrip("\n").split("\t") for line in open(expect_path) if line.strip()]
    got = [[e.get(k, "-") for k in ("title", "link", "updated", "published")] for e in parsed.entries]
    if got != want:
        problems.append("feedparser's entries differ from the expected ones:")
        for g in got:
            problems.append("  got  " + "\t".join(g))
        for w in want:
            problems.append("  want " + "\t".join(w))
    for p in problems:
        print(f"{feed_path}: error: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
