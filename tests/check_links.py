#!/usr/bin/env python3
"""check_links.py — every internal link and #anchor of a built site resolves.

usage: check_links.py SITE_DIR

Reads every .html file under SITE_DIR and checks each href and src that is
not external (no scheme, not protocol-relative): the file it names exists
inside SITE_DIR (a folder means its index.html), and a #fragment names an id
in the target page. A fragment may also be a page-script state link
(boardpress.js): tokens joined with '&', each an id or ID=STATE, where ID must
exist. Also checks that no page repeats an id. Prints one line per problem,
PATH:LINE:COL: error: MESSAGE, and exits 1 when there is any. Stdlib only.
"""
import html.parser
import os
import sys
import urllib.parse

LINK_ATTRS = {
    "a": ("href",),
    "area": ("href",),
    "link": ("href",),
    "img": ("src",),
    "script": ("src",),
    "source": ("src",),
    "iframe": ("src",),
    "audio": ("src",),
    "video": ("src", "poster"),
    "form": ("action",),
}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = {}  # id -> (line, col) of its first use
        self.dups = []  # (id, line, col)
        self.links = []  # (url, line, col)
        self.base = None  # <base href>: what relative links are read from

    def handle_starttag(self, tag, attrs):
        line, col = self.getpos()
        a = dict(attrs)
        if tag == "base" and a.get("href") is not None and self.base is None:
            self.base = a["href"]
        for key in ("id",) + (("name",) if tag == "a" else ()):
            v = a.get(key)
            if v is None:
                continue
            if key == "id" and v in self.ids:
                self.dups.append((v, line, col + 1))
            self.ids.setdefault(v, (line, col + 1))
        for attr in LINK_ATTRS.get(tag, ()):
            v = a.get(attr)
            if v is not None:
                self.links.append((v, line, col + 1))
        if tag in ("img", "source") and a.get("srcset"):
            for part in a["srcset"].split(","):
                url = part.strip().split(" ")[0]
                if url:
                    self.links.append((url, line, col + 1))

    handle_startendtag = handle_starttag


def load(path, cache):
    if path not in cache:
        p = Page()
        with open(path, encoding="utf-8") as f:
            p.feed(f.read())
        p.close()
        cache[path] = p
    return cache[path]


def main(argv):
    if len(argv) != 2:
        print("usage: check_links.py SITE_DIR", file=sys.stderr)
        return 2
    root = os.path.realpath(argv[1])
    pages = []
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".html"):
                pages.append(os.path.join(d, f))
    pages.sort()
    if not pages:
        print(f"{argv[1]}: error: no .html files", file=sys.stderr)
        return 1
    cache = {}
    problems = []
    checked = 0
    for page in pages:
        rel = os.path.relpath(page, root)
        doc = load(page, cache)
        for ident, line, col in doc.dups:
            problems.append(f"{rel}:{line}:{col}: error: id '{ident}' is used twice")
        # a page's <base href> (an embed page's "../../") moves where its
        # relative links start, as in a browser
        here = os.path.dirname(page)
        if doc.base:
            here = os.path.normpath(os.path.join(here, doc.base))
        for url, line, col in doc.links:
            where = f"{rel}:{line}:{col}"
            u = urllib.parse.urlsplit(url)
            if u.scheme or u.netloc or url.startswith("//"):
                continue  # external: not ours to check
            checked += 1
            if not u.path and not u.fragment:
                problems.append(f"{where}: error: empty link")
                continue
            if u.path:
                target = os.path.normpath(
                    os.path.join(here, urllib.parse.unquote(u.path))
                )
                if u.path.startswith("/"):
                    problems.append(
                        f"{where}: error: '{url}' is absolute; links must be relative "
                        "so the site works from any folder"
                    )
                    continue
                if os.path.commonpath([root, os.path.realpath(target)]) != root:
                    problems.append(f"{where}: error: '{url}' points outside the site")
                    continue
                if os.path.isdir(target):
                    if not u.path.endswith("/"):
                        problems.append(f"{where}: error: '{url}' names a folder without '/'")
                        continue
                    target = os.path.join(target, "index.html")
                if not os.path.isfile(target):
                    problems.append(f"{where}: error: '{url}': no such file")
                    continue
            else:
                target = os.path.join(here, "index.html") if doc.base else page
            if not u.fragment:
                continue
            if not target.endswith(".html"):
                problems.append(f"{where}: error: '{url}': a fragment on a file that is not a page")
                continue
            ids = load(target, cache).ids
            for token in urllib.parse.unquote(u.fragment).split("&"):
                ident = token.split("=", 1)[0] if "=" in token else token
                if ident not in ids:
                    problems.append(
                        f"{where}: error: '{url}': no id '{ident}' in "
                        f"{os.path.relpath(target, root)}"
                    )
    for p in problems:
        print(p)
    if problems:
        print(f"check_links: {len(problems)} problem(s) in {len(pages)} page(s)", file=sys.stderr)
        return 1
    print(f"check_links: {len(pages)} pages, {checked} internal links, all resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
