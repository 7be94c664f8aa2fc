#!/usr/bin/env python3
"""check_words.py — a built site speaks the reader's words, not the simulator's.

usage: check_words.py SITE_DIR

Reads what a reader sees: every page's text (not its scripts or styles), its
alt, title and aria-label text, and the <text> of every drawing (.svg). Fails
on:
  - "job" or "jobs": the simulator's unit of work; a page names the
    traffic's own thing (a payment, a transfer, an order, a reading);
  - "none" as a goal ("Goal: none" reads as "no goal"; "at most 0" or
    "none allowed" says what it means), and "for forever";
  - a measure that counts more than its name says ("501.4 charged twice"
    counts payments charged two or more times);
  - a thing other than a payment "charged" ("order 2 charged": the
    operation's verb, not the board's traffic.verb);
  - the outbox crash settings in bookkeeping words ("crashes after 0.5% of
    commits");
  - the build's bookkeeping: "variants" (a chart's points are boards);
  - a back-off factor of 1 as a multiplication ("then ×1 each try": say
    "the same wait each try");
  - one event named two ways in one place: a lost answer to the same
    message called an ack on the board and a confirm on its timeline.
Prints PATH:LINE:COL: error: MESSAGE per problem and exits 1 when there is
any. Stdlib only.
"""
import html.parser
import os
import re
import sys

SKIP = ("script", "style")
TEXT_ATTRS = ("alt", "title", "aria-label")

JOB = re.compile(r"\bjobs?\b", re.I)
GOAL_NONE = re.compile(r"\bgoals?(\s+of|\s+is|:)?\s+none\b(?!\s+allowed)", re.I)
FOREVER = re.compile(r"\bfor\s+forever\b", re.I)
COUNT_TWICE = re.compile(r"(^|[·:(]\s*)[\d.,]+\s+charged twice\b|^charged twice$", re.I)
# only a payment is charged: an order is saved, a transfer applied (the
# board's traffic.verb), "order 2 charged" is the operation's word leaking
CHARGED = re.compile(r"\b(orders?|transfers?|readings?|updates?|events?)\b[^.;·]{0,24}?"
                     r"\bcharged\b", re.I)
CRASH_OF = re.compile(r"\bcrash(es)?\s+(after|before)\s+[\d.,]+\s*%\s+of\s+(effects|commits)\b",
                      re.I)
VARIANTS = re.compile(r"\bvariants?\b", re.I)
TIMES_ONE = re.compile(r"×\s*1(?![\d.,])\s+each\b", re.I)
# a lost answer, numbered: "ack of payment 2 lost", "confirm 2 lost",
# "response for transfer 3 lost"
ANSWER = r"(acks?|confirms?|responses?|repl(?:y|ies))"
LOST_ANSWER = re.compile(ANSWER + r"\s+(?:(?:of|for)\s+[a-z]+\s+)?(\d+)\s+lost\b", re.I)
NO_ANSWER = re.compile(r"\bno\s+" + ANSWER + r"\s+for\s+[a-z]+\s+(\d+)\b", re.I)

# (pattern, message): {m} is the match, {text} the text it is in
RULES = (
    (JOB, "'{m}' in “{text}”: name the traffic's own thing (a payment, a transfer, an "
     "order, a reading)"),
    (GOAL_NONE, "“{m}” reads as “no goal”: write “none allowed” or “at most 0”"),
    (FOREVER, "“{m}” in “{text}”: say “forever” alone"),
    (COUNT_TWICE, "“{text}”: the count is of payments charged two or more times; call it "
     "“charged more than once”"),
    (CHARGED, "“{m}” in “{text}”: only a payment is charged; say what happens to it in the "
     "board's words (traffic.verb: saved, applied)"),
    (CRASH_OF, "“{m}”: say where the crash falls (“crashes after the commit”) in the "
     "prose's words"),
    (VARIANTS, "'{m}' in “{text}”: the build's word; a chart's points are boards"),
    (TIMES_ONE, "“{m}” in “{text}”: a factor of 1 is no back-off; say “the same wait each try”"),
)


def word(w):
    w = w.lower()
    for stem in ("ack", "confirm", "response", "repl"):
        if w.startswith(stem):
            return stem.replace("repl", "reply")
    return w


class Text(html.parser.HTMLParser):
    """Collects (line, col, text) of what a reader sees; rows of a table
    joined, so a label cell and its value read as one ("keeps keys for
    forever"), and the text of cells labelled Goal."""

    def __init__(self, svg):
        super().__init__(convert_charrefs=True)
        self.svg = svg
        self.skip = 0
        self.in_text = 0
        self.out = []
        self.row = None
        self.goal = None
        self.figures = []  # ids of the <figure>s the parser is in
        self.in_svg = 0
        self.places = []  # (line, col, figure id) of text in a drawing in the page

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        line, col = self.getpos()
        if tag in SKIP:
            self.skip += 1
        if tag == "text":
            self.in_text += 1
        # a drawing in the page (figure.c's inline form) is a place of its
        # own, as its .svg file would be: the figure it is in
        if tag == "figure":
            self.figures.append(a.get("id") or f"{line}")
        if tag == "svg":
            self.in_svg += 1
        for k in TEXT_ATTRS:
            if a.get(k):
                self.out.append((line, col + 1, a[k]))
        if tag == "tr":
            self.row = (line, col + 1, [])
        if tag in ("td", "th") and a.get("data-label") == "Goal":
            self.goal = (line, col + 1, [])

    def handle_endtag(self, tag):
        if tag in SKIP:
            self.skip = max(0, self.skip - 1)
        if tag == "text":
            self.in_text = max(0, self.in_text - 1)
        if tag == "figure" and self.figures:
            self.figures.pop()
        if tag == "svg":
            self.in_svg = max(0, self.in_svg - 1)
        if tag == "tr" and self.row:
            line, col, parts = self.row
            self.out.append((line, col, " ".join(parts)))
            self.row = None
        if tag in ("td", "th") and self.goal:
            line, col, parts = self.goal
            if " ".join(parts).strip().lower() == "none":
                self.out.append((line, col, "goal: none"))
            self.goal = None

    def handle_data(self, data):
        if self.skip or (self.svg and not self.in_text) or not data.strip():
            return
        line, col = self.getpos()
        text = " ".join(data.split())
        self.out.append((line, col + 1, text))
        if self.in_svg and self.figures:
            self.places.append((line, col + 1, self.figures[-1]))
        if self.row:
            self.row[2].append(text)
        if self.goal:
            self.goal[2].append(text)


def check_file(path, rel, problems, answers):
    svg = path.endswith(".svg")
    p = Text(svg)
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    p.close()

    def bad(line, col, msg):
        problems.append(f"{rel}:{line}:{col}: error: {msg}")

    # the drawings of one board (light, dark, narrow) and its timeline are
    # one place; a page's own text is another
    if svg:
        stem = re.sub(r"(-narrow)?(-dark)?\.svg$", "", os.path.basename(path))
        stem = re.sub(r"-timeline$", "", stem)
        place = os.path.join(os.path.dirname(rel), stem)
    else:
        place = rel
    inline = {(line, col): fig for line, col, fig in p.places}
    for line, col, text in p.out:
        here = place if (line, col) not in inline else f"{place}#{inline[(line, col)]}"
        for rx, msg in RULES:
            m = rx.search(text)
            if m:
                bad(line, col, msg.format(m=m.group(0), text=text[:90]))
        for rx in (LOST_ANSWER, NO_ANSWER):
            for m in rx.finditer(text):
                key = (here, m.group(2))
                answers.setdefault(key, {}).setdefault(word(m.group(1)), (rel, line, col,
                                                                          m.group(0)))


def main():
    if len(sys.argv) != 2:
        print("usage: check_words.py SITE_DIR", file=sys.stderr)
        return 2
    site = sys.argv[1]
    problems, answers = [], {}
    for root, dirs, files in os.walk(site):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".html", ".svg")):
                path = os.path.join(root, name)
                check_file(path, os.path.relpath(path, site), problems, answers)
    for (place, n), words in sorted(answers.items()):
        if len(words) > 1:
            seen = sorted(words.items())
            rel, line, col, _ = seen[1][1]
            names = " and ".join(f"“{v[3]}” ({v[0]}:{v[1]})" for _, v in seen)
            problems.append(f"{rel}:{line}:{col}: error: one lost answer to message {n} is "
                            f"named two ways in {place}: {names}; use one name")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
