#!/usr/bin/env python3
"""check_state.py — every field of the model's state is in a proof's
fingerprint of it, or left out for a reason written down (MODEL.md
"Proofs": a proof counts the runs from a state it has met before, so a
field that matters for the rest of a run but is not hashed makes two
different states one, and the proof counts wrong).

sim-core/model_state.c holds the list, in the comment that starts "The
fields of the state". Each entry is

    [STRUCT] KIND: FIELD FIELD ... . WHY

over as many lines as it needs (the first "." ends the fields), KIND one of
  hashed    in the fingerprint (each such field must be read there, as
            ->FIELD or .FIELD, outside comments),
  board     set from the board before the runs: the same in every run,
  room      an array's capacity,
  left out  not hashed, WHY saying why no later event, fault count or
            measure depends on it.
It fails (exit 1, one line per problem) when a field of one of the structs
in STRUCTS (read from their headers) is in no entry or in two, when an entry
names a field its struct does not have, or when WHY is missing for "left
out".
Usage: check_state.py [--root DIR]
"""
import argparse
import os
import re
import sys

# The structs of a model's state, and the header that declares each.
STRUCTS = {
    "sim_model": "sim-core/model.h",
    "sim_hop": "sim-core/model.h",
    "slot": "sim-core/model.h",
    "ring": "sim-core/model.h",
    "pending": "sim-core/model.h",
    "sim_queue": "sim-core/queue.h",
    "queue_lane": "sim-core/queue.h",
    "sim_event": "sim-core/queue.h",
    "sim_counts": "sim-core/sim_internal.h",
}
KINDS = ("hashed", "board", "room", "left out")
LIST = "sim-core/model_state.c"
IDENT = re.compile(r"[A-Za-z_]\w*")


def strip_comments(text):
    """Comments become spaces, newlines kept (line numbers stay)."""
    return re.sub(r"/\*.*?\*/|//[^\n]*",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def struct_fields(text, name):
    """The fields of struct NAME (typedef struct {...} NAME; or struct
    NAME {...};) in text without comments, each with its line, or None."""
    m = (re.search(r"typedef\s+struct\s*\{([^{}]*)\}\s*" + name + r"\s*;", text) or
         re.search(r"\bstruct\s+" + name + r"\s*\{([^{}]*)\}\s*;", text))
    if not m:
        return None
    fields = {}
    at = m.start(1)
    for decl in m.group(1).split(";"):
        line = text[:at + len(decl) - len(decl.lstrip())].count("\n") + 1
        at += len(decl) + 1
        decl = re.sub(r"^\s*#.*$", "", decl, flags=re.M)  # #if lines
        decl = re.sub(r"\[[^\]]*\]", "", decl).strip()
        if not decl:
            continue
        parts = decl.split(",")
        fields[IDENT.findall(parts[0])[-1]] = line  # the type comes first
        for p in parts[1:]:
            fields[IDENT.findall(p)[-1]] = line
    return fields


def list_entries(text):
    """The entries of the list: (line, struct, kind, fields, why)."""
    m = re.search(r"/\*\s*The fields of the state(.*?)\*/", text, re.S)
    if not m:
        return None
    first = text[:m.start()].count("\n") + 1
    entries = []
    head = re.compile(r"\[(\w+)\]\s+(" + "|".join(KINDS) + r"):")
    lines = [re.sub(r"^\s*\*\s?", "", l) for l in m.group(1).split("\n")]
    cur = None
    for i, l in enumerate(lines):
        h = head.match(l.strip())
        if h:
            cur = [first + i, h.group(1), h.group(2), l.strip()[h.end():]]
            entries.append(cur)
        elif cur is not None and l.strip():
            cur[3] += " " + l.strip()
        else:
            cur = None
    out = []
    for line, struct, kind, rest in entries:
        names, _, why = rest.partition(".")
        out.append((line, struct, kind, IDENT.findall(names), why.strip()))
    return out


def check(root):
    problems = []
    decl = {}
    for struct, header in STRUCTS.items():
        path = os.path.join(root, header)
        fields = struct_fields(strip_comments(open(path, encoding="utf-8").read()), struct)
        if fields is None:
            problems.append("%s: error: no struct %s" % (header, struct))
        else:
            decl[struct] = fields
    source = open(os.path.join(root, LIST), encoding="utf-8").read()
    entries = list_entries(source)
    if entries is None:
        return problems + ["%s: error: no comment 'The fields of the state'" % LIST]
    code = strip_comments(source)
    named = {}
    for line, struct, kind, fields, why in entries:
        where = "%s:%d:1" % (LIST, line)
        if struct not in decl:
            problems.append("%s: error: [%s] is none of the state's structs (%s)"
                            % (where, struct, ", ".join(sorted(STRUCTS))))
            continue
        if kind == "left out" and not why:
            problems.append("%s: error: [%s] left out: %s without a reason"
                            % (where, struct, " ".join(fields)))
        for f in fields:
            if f not in decl[struct]:
                problems.append("%s: error: %s has no field %s" % (where, struct, f))
            elif (struct, f) in named:
                problems.append("%s: error: %s.%s is listed twice (line %d too)"
                                % (where, struct, f, named[(struct, f)]))
            else:
                named[(struct, f)] = line
            if kind == "hashed" and not re.search(r"(->|\.)" + f + r"\b", code):
                problems.append("%s: error: %s.%s is listed as hashed but %s never reads it"
                                % (where, struct, f, LIST))
    for struct, fields in decl.items():
        for f, line in fields.items():
            if (struct, f) not in named:
                problems.append("%s:%d:1: error: %s.%s is not in the fingerprint's list of "
                                "fields (%s): hash it there, or list it with why it is left out"
                                % (STRUCTS[struct], line, struct, f, LIST))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    args = ap.parse_args()
    problems = check(args.root)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
