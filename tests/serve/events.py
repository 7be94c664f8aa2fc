#!/usr/bin/env python3
"""events.py — the event stream of a running `boardpress serve`
(/__boardpress/events), read as a page's script reads it, while this script
edits the site. Run by tests/run-serve.sh.

usage: events.py PORT SITE_DIR STDERR_FILE

  - the first event is "hello", the state of the last build;
  - a prose edit: one "build" event, ok, changed = the page's file alone;
  - a broken placeholder: ok false, nothing changed, and the error taken
    apart: the line exactly as the terminal printed it (STDERR_FILE), its
    path, line, column, message, hint, the source line and a caret under
    the column;
  - the fix: ok again, and nothing changed (the bytes are the last good
    ones), so no page reloads;
  - a board edit: the pages that use the board and their files changed,
    and no other page.
Exits 1 after listing every failed check."""
import json
import os
import re
import socket
import sys
import time

PORT, SITE, STDERR = int(sys.argv[1]), sys.argv[2], sys.argv[3]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


class Stream:
    def __init__(self):
        self.s = socket.create_connection(("127.0.0.1", PORT), timeout=20)
        self.s.sendall(b"GET /__boardpress/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % PORT)
        self.data = b""
        while b"\r\n\r\n" not in self.data:
            self.data += self.s.recv(4096)
        head, _, self.data = self.data.partition(b"\r\n\r\n")
        check(b"200 OK" in head and b"text/event-stream" in head, "the stream's headers: %r" % head)
        check(b"chunked" in head.lower(), "the stream is chunked")
        self.text = ""

    def _more(self):
        # de-chunk what has come; wait for more only when no chunk is whole
        got = False
        while True:
            m = re.match(rb"([0-9a-fA-F]+)\r\n", self.data)
            if m and len(self.data) >= m.end() + int(m.group(1), 16) + 2:
                n = int(m.group(1), 16)
                self.text += self.data[m.end():m.end() + n].decode()
                self.data = self.data[m.end() + n + 2:]
                got = True
                continue
            if got:
                return
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError("the stream ended")
            self.data += chunk
            return

    def next_event(self):
        while True:
            while "\n\n" in self.text:
                block, _, self.text = self.text.partition("\n\n")
                fields = dict(l.split(": ", 1) for l in block.split("\n") if ": " in l and not l.startswith(":"))
                if "event" in fields:
                    return fields["event"], json.loads(fields["data"])
            self._more()


def save(rel, text):
    path = os.path.join(SITE, rel)
    with open(path + ".tmp~", "w") as f:
        f.write(text)
    os.rename(path + ".tmp~", path)


def edit(rel, old, new):
    text = open(os.path.join(SITE, rel)).read()
    check(old in text, "%s holds %r" % (rel, old))
    save(rel, text.replace(old, new))


st = Stream()
kind, hello = st.next_event()
check(kind == "hello" and hello["ok"] is True and hello["errors"] == [], "hello: %s %s" % (kind, hello))
gen = hello["gen"]

edit("content/prose.md", "MARKER-0", "MARKER-1")
kind, ev = st.next_event()
check(kind == "build" and ev["gen"] == gen + 1 and ev["ok"] is True, "the prose edit's event: %s %s" % (kind, ev))
# its page, and the site's search index, which holds the page's words
check(ev.get("changed") == ["/prose/index.html", "/search-index.js"],
      "a prose edit changes its page and the search index alone: %s" % ev.get("changed"))

edit("content/prose.md", "{{ shop.jobs }}", "{{ shop.jobz }}")
kind, ev = st.next_event()
check(kind == "build" and ev["ok"] is False and ev["changed"] == [], "the broken build's event: %s" % ev)
time.sleep(0.2)
term = [l for l in open(STDERR).read().split("\n") if l.startswith("content/prose.md:")]
check(len(term) == 1, "the terminal printed one error: %s" % term)
lines = open(os.path.join(SITE, "content/prose.md")).read().split("\n")
line_no = next(i + 1 for i, l in enumerate(lines) if "shop.jobz" in l)
col = lines[line_no - 1].index("jobz") + 1
want = {
    "text": term[0] if term else None,
    "path": "content/prose.md",
    "line": line_no,
    "col": col,
    "message": "unknown measure 'jobz'; did you mean 'jobs'?",
    "hint": "did you mean 'jobs'?",
    "source": lines[line_no - 1],
    "caret": " " * (col - 1) + "^",
}
check(ev["errors"] == [want], "the error taken apart:\n  got  %s\n  want %s" % (ev["errors"], [want]))

# a newly connected page hears of the failure at once
st2 = Stream()
kind, h2 = st2.next_event()
check(kind == "hello" and h2["ok"] is False and h2["errors"] == ev["errors"], "hello while broken: %s" % h2)

edit("content/prose.md", "{{ shop.jobz }}", "{{ shop.jobs }}")
kind, ev = st.next_event()
check(ev["ok"] is True and ev["errors"] == [] and ev["changed"] == [],
      "the fix: ok, and no page changed (the last good bytes): %s" % ev)
kind2, ev2 = st2.next_event()
check(ev2 == ev, "every stream gets the same event")

edit("content/boards/shop.yaml", "seed: 3", "seed: 4")
kind, ev = st.next_event()
changed = ev.get("changed", [])
check(ev["ok"] and "/prose/index.html" in changed and "/board/index.html" in changed,
      "a board edit changes the pages that use it: %s" % changed)
check("/index.html" not in changed and not any(c.startswith("/static/") for c in changed),
      "... and no other: %s" % changed)
check("/search-index.js" in changed, "... and the search index, which holds their numbers: %s" % changed)
check(all(c.startswith(("/prose/", "/board/")) or c == "/search-index.js" for c in changed),
      "... nor other files: %s" % changed)
edit("content/boards/shop.yaml", "seed: 4", "seed: 3")
kind, ev = st.next_event()

if failures:
    for f in failures:
        print("events: FAIL: " + f)
    sys.exit(1)
print("events: hello, a prose edit, a broken and a fixed placeholder, a board edit: as expected")
