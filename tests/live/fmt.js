/* fmt.js — generator/web/bp-fmt.js formats every number exactly as the
 * generator does (generator/base/fmt.c, through tests/live/fmt_dump.c):
 * integers, means of 20 runs, halves and other exact decimal ties, values
 * one ulp either side of every power of ten and of each duration unit's
 * edge, random doubles over 30 orders of magnitude, negative numbers,
 * -0, subnormals, infinities and NaN; for each formatting function and for
 * every measure (its unit). Among them are ties that toFixed rounds
 * the other way, so a careless port fails. Usage: node fmt.js FMT_DUMP */
'use strict';
const { execFileSync } = require('child_process');
const path = require('path');
const BpFmt = require(path.join(__dirname, '..', '..', 'generator', 'web', 'bp-fmt.js'));
const BpSim = require(path.join(__dirname, '..', '..', 'generator', 'web', 'bp-sim.js'));

const tool = process.argv[2];
if (!tool) {
  console.error('usage: node fmt.js FMT_DUMP');
  process.exit(2);
}

/* A fixed-seed generator (xorshift), so a failure can be repeated. */
let state = 0x9e3779b97f4a7c15n;
function rand64() {
  state ^= state << 13n & 0xffffffffffffffffn;
  state ^= state >> 7n;
  state ^= state << 17n & 0xffffffffffffffffn;
  return state;
}
function rand() {
  return Number(rand64() >> 11n) / 2 ** 53;
}

const view = new DataView(new ArrayBuffer(8));
function hex(x) {
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
}
function fromBits(b) {
  view.setBigUint64(0, b);
  return view.getFloat64(0);
}
/* x moved by k ulps (k may be negative). */
function ulps(x, k) {
  view.setFloat64(0, x);
  return fromBits(view.getBigUint64(0) + BigInt(k));
}

const values = [0, -0, 1, -1, 0.5, 1.5, 2.5, -2.5, 0.05, 0.15, 0.25, 0.35, 1e15, 1e15 - 1, 1e15 + 2,
  NaN, Infinity, -Infinity, 5e-324, -5e-324, 2.2250738585072014e-308, Number.MAX_VALUE,
  0.1 + 0.2, 1 / 3, 2 / 3, 123456.789, 0.000149775, 1e-9, 1e-10, 999999999.95];
for (let i = 0; i <= 2000; i++) {
  values.push(i, i / 20, i / 8, i / 3, i + 0.5, i + 0.05, i + 0.95, i / 1000, i / 1e6);
}
/* powers of ten and one or two ulps around them */
for (let k = -12; k <= 17; k++) {
  const p = Number('1e' + k);
  for (let j = -2; j <= 2; j++) values.push(ulps(p, j), -ulps(p, j), ulps(p * 5, j), ulps(p * 9.5, j));
}
/* the edges of the duration units (999.5 µs, 59.95 s, 47.95 h ...) */
for (const edge of [9.5e-6, 9.95e-6, 999.5e-6, 9.5e-3, 9.95e-3, 0.9995, 9.95, 59.95, 599.5, 3599.5,
  59.95 * 60, 47.95 * 3600, 48 * 3600, 86400 * 9.95]) {
  for (let j = -3; j <= 3; j++) values.push(ulps(edge, j));
}
/* exact decimal ties at one, two and nine decimals: n/2^k */
for (let k = 1; k <= 12; k++) for (let n = 1; n < 64; n += 2) values.push(n / 2 ** k, 100 + n / 2 ** k);
/* random doubles, log-uniform over 1e-15 .. 1e16, either sign */
for (let i = 0; i < 20000; i++) {
  const x = Math.pow(10, rand() * 31 - 15);
  values.push(rand() < 0.1 ? -x : x);
}
/* random bit patterns: anything a double can be */
for (let i = 0; i < 2000; i++) values.push(fromBits(rand64()));

const kinds = ['number', 'seconds', 'ratio', 'usd_month'];
const ours = {number: BpFmt.number, seconds: BpFmt.seconds, ratio: BpFmt.ratio,
  usd_month: BpFmt.usdMonth};

function run(lines) {
  const out = execFileSync(tool, { input: lines.join('\n') + '\n', maxBuffer: 1 << 28 });
  return out.toString('utf8').split('\n').slice(0, lines.length);
}

const lines = [], expect = [];
for (const k of kinds) {
  for (const x of values) {
    lines.push(k + ' ' + hex(x));
    expect.push(ours[k](x));
  }
}
/* every measure, on the values a page can show (finite, not negative) */
for (const m of BpSim.MEASURES) {
  for (let i = 0; i < values.length; i += 7) {
    const x = Math.abs(values[i]);
    if (!isFinite(x)) continue;
    lines.push(m + ' ' + hex(x));
    expect.push(BpFmt.measure(m, x));
  }
}

const got = run(lines);
let bad = 0;
for (let i = 0; i < lines.length; i++) {
  if (got[i] !== expect[i]) {
    if (bad < 20) console.error(`fmt: ${lines[i]} (${fromBits(BigInt('0x' + lines[i].split(' ')[1]))}): C "${got[i]}", JS "${expect[i]}"`);
    bad++;
  }
}
if (bad) {
  console.error(`fmt: ${bad} of ${lines.length} values formatted differently`);
  process.exit(1);
}

/* The values tell a careless port apart: C rounds the tie 5.25 to "5.2",
 * toFixed to "5.3", and 5.25 is among them. */
const probe = run(['number ' + hex(5.25)])[0];
if (probe !== '5.2' || (5.25).toFixed(1) !== '5.3' || !values.includes(5.25)) {
  console.error(`fmt: the probe failed: C wrote "${probe}" for 5.25`);
  process.exit(1);
}
console.log(`fmt: ${lines.length} values formatted alike by fmt.c and bp-fmt.js`);
