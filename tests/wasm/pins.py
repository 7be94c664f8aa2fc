#!/usr/bin/env python3
"""pins.py — the simulator's results, pinned (tests/run-wasm.sh).

    python3 tests/wasm/pins.py DIR [--write]

DIR holds variants.tsv and, for line N, N.wire and N.res (as run-wasm.sh
writes them). tests/wasm/pins.tsv maps the SHA-256 of a board's wire bytes
(the board exactly as the simulator receives it: catalog, overrides,
limits) to the SHA-256 of its binary results. A board whose wire bytes have
a pin must give the pinned results: a change to how the simulator computes
(a faster queue, draws taken ahead) must change no bit. A board without a
pin (new or edited since) is only counted. --write (make regen) rewrites
the pins from DIR, after an intended change to the model. Exit 1 when a
pinned board gives other results."""
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PINS = os.path.join(HERE, 'pins.tsv')


def digest(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    args = sys.argv[1:]
    write = '--write' in args
    args = [a for a in args if a != '--write']
    if len(args) != 1:
        print('usage: pins.py DIR [--write]', file=sys.stderr)
        return 2
    d = args[0]
    with open(os.path.join(d, 'variants.tsv'), encoding='utf-8') as f:
        names = [line.split('\t', 1)[0] for line in f if line.strip()]
    seen = []
    for n, name in enumerate(names):
        seen.append((digest(os.path.join(d, f'{n}.wire')), digest(os.path.join(d, f'{n}.res')), name))
    if write:
        with open(PINS + '.tmp', 'w', encoding='utf-8') as f:
            f.write('# wire sha256\tresults sha256\tboard (tests/wasm/pins.py; make regen rewrites)\n')
            for w, r, name in sorted(set(seen)):
                f.write(f'{w}\t{r}\t{name}\n')
        os.replace(PINS + '.tmp', PINS)
        print(f'pins: {len(set(seen))} boards pinned in tests/wasm/pins.tsv')
        return 0
    pins = {}
    if os.path.exists(PINS):
        with open(PINS, encoding='utf-8') as f:
            for line in f:
                if line.startswith('#') or not line.strip():
                    continue
                w, r, name = line.rstrip('\n').split('\t')
                pins[w] = (r, name)
    bad, pinned = [], 0
    for w, r, name in seen:
        if w not in pins:
            continue
        pinned += 1
        if pins[w][0] != r:
            bad.append(name)
    for name in bad:
        print(f'pins: {name}: the simulator gives other results than pinned (tests/wasm/pins.tsv; '
              'make regen after an intended change to the model)')
    print(f'pins: {pinned} of {len(seen)} boards pinned, {pinned - len(bad)} give the pinned bits'
          + ('' if pinned == len(seen) else f' ({len(seen) - pinned} new or edited since the pins)'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
