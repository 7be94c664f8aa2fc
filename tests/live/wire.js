/* wire.js — a live level's page data gives the native encoder's bytes: for
 * every live level of the built sites, generator/web/bp-live.js puts the
 * board's wire bytes together for every value of every choice (the others
 * at their start) and for random states of all choices at once, and each
 * must equal `boardpress sim LEVEL --set PATH=VALUE ... --wire` byte for
 * byte (only the choices that differ from the start are given, so the
 * level's own start is what the rest reads); some of the random states also
 * run in the WebAssembly module and must give `--wire-result`'s bytes.
 * Proves first that it notices one wrong byte.
 *
 * usage: node wire.js BOARDPRESS WASM SITE_DIR:CONTENT_DIR ... */
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const web = path.join(__dirname, '..', '..', 'generator', 'web');
const BpLive = require(path.join(web, 'bp-live.js'));
const BpSim = require(path.join(web, 'bp-sim.js'));
const { liveLevels } = require('./levels.js');

const [bp, wasm, ...sites] = process.argv.slice(2);
if (!bp || !wasm || !sites.length) {
  console.error('usage: node wire.js BOARDPRESS WASM SITE_DIR:CONTENT_DIR ...');
  process.exit(2);
}

function fail(msg) {
  console.error('wire: ' + msg);
  process.exit(1);
}

/* xorshift with a fixed seed: the same states every run */
let seed = 0x2545f491;
function rand(n) {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
}

function simArgs(level, positions, extra) {
  const args = ['sim', path.join(level.content, level.data.file)];
  level.data.choices.forEach((c, i) => {
    if (positions[i] !== level.data.start[i]) args.push('--set', c.set + '=' + c.values[positions[i]].value);
  });
  return args.concat(extra);
}

function native(level, positions, extra) {
  return new Uint8Array(execFileSync(bp, simArgs(level, positions, extra), { maxBuffer: 1 << 26 }));
}

function same(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function main() {
  const levels = [];
  for (const s of sites) {
    const [site, content] = s.split(':');
    levels.push(...liveLevels(site, content));
  }
  if (!levels.length) fail('no live level in ' + sites.join(', '));
  const sim = await BpSim.load(fs.readFileSync(wasm));
  let compared = 0, ran = 0;
  for (const level of levels) {
    const { data } = level;
    const prep = BpLive.prepare(data);
    const check = (positions) => {
      const ours = BpLive.assemble(prep, positions);
      const theirs = native(level, positions, ['--wire']);
      if (!same(ours, theirs)) {
        let at = 0;
        while (at < ours.length && ours[at] === theirs[at]) at++;
        fail(`${data.file} state ${positions.join('.')} (${simArgs(level, positions, []).slice(2).join(' ')}): ` +
          `the page's bytes differ from --wire at byte ${at} (${ours.length} against ${theirs.length} bytes)`);
      }
      compared++;
      return ours;
    };
    /* every value of every choice, the others at their start */
    data.choices.forEach((c, i) => {
      c.values.forEach((v, k) => {
        const positions = data.start.slice();
        positions[i] = k;
        check(positions);
      });
    });
    /* a sweep's first pass: random states with one replication, as
     * `--set replications=1` writes them, and one of them run */
    if (data.wire.one) {
      for (let r = 0; r < 4; r++) {
        const positions = r ? data.choices.map((c) => rand(c.values.length)) : data.start.slice();
        const ours = BpLive.assemble(prep, positions, true);
        const theirs = native(level, positions, ['--set', 'replications=1', '--wire']);
        if (!same(ours, theirs))
          fail(`${data.file} state ${positions.join('.')} with one replication: the page's bytes differ from --wire`);
        compared++;
        if (r === 1 && !same(sim.simulateRaw(ours), native(level, positions, ['--set', 'replications=1', '--wire-result'])))
          fail(`${data.file} state ${positions.join('.')} with one replication: the module's results differ`);
      }
    }
    /* random states of every choice at once; a few of them run */
    for (let r = 0; r < 12; r++) {
      const positions = data.choices.map((c) => rand(c.values.length));
      const bytes = check(positions);
      if (r < 3 && BpLive.work(data, positions) <= BpLive.MAX_JOB_RUNS) {
        const got = sim.simulateRaw(bytes), want = native(level, positions, ['--wire-result']);
        if (!same(got, want))
          fail(`${data.file} state ${positions.join('.')}: the module's results differ from --wire-result`);
        ran++;
      }
    }
  }
  /* the comparison notices one byte: the start's bytes with one changed */
  const level = levels[0], prep = BpLive.prepare(level.data);
  const bytes = BpLive.assemble(prep, level.data.start);
  bytes[bytes.length - 1] ^= 1;
  if (same(bytes, native(level, level.data.start, ['--wire'])))
    fail('a changed byte went unnoticed');
  console.log(`wire: ${levels.length} live levels, ${compared} states put together as --wire writes them, ` +
    `${ran} run in the module as --wire-result`);
}

main().catch((e) => fail(e.stack || String(e)));
