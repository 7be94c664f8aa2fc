/* compare.js — tests/run-wasm.sh's judge: runs every board in DIR through
 * the WebAssembly module with generator/web/bp-sim.js (the browser's code) and
 * compares the results with the native build's, bit for bit.
 *
 *   node tests/wasm/compare.js SIMCORE.wasm DIR
 *
 * DIR holds variants.tsv (tests/wasm/variants.py) and, for line N, the
 * native program's N.wire (`boardpress sim --wire`), N.res (--wire-result)
 * and N.json (its JSON). Checks, per board: every measure's mean, min, max
 * and ci95, every goal's worst value and verdict, the flags and the trace
 * are the same bits in the module as natively; the native binary results
 * say what the JSON says; a second run of a board needs no more memory and
 * frees what it took. Also: the module has no imports and fits in 20 KB
 * gzipped, hostile bytes are refused with the right error, and the
 * comparison itself notices a one-ulp difference. And each proof's
 * counterexample in replays.tsv (board R.pwire, R.pres, R.pjson from
 * `boardpress prove --wire`, `--wire-result` and its JSON): the module
 * given the choices (bp-replay.js) returns the native results bytes, whose
 * events are the JSON's. Exit 1 on any failure. */
'use strict';

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const BpSim = require(path.join(__dirname, '..', '..', 'generator', 'web', 'bp-sim.js'));
const BpReplay = require(path.join(__dirname, '..', '..', 'generator', 'web', 'bp-replay.js'));

const MAX_GZIP = 20000; /* bytes: the "at most 20 KB gzipped" */
const EXPORTS = ['memory', 'bp_alloc', 'bp_free', 'bp_run', 'bp_result_len', 'bp_error',
  'bp_error_code', 'bp_wire_version', 'bp_result_version', 'bp_heap_in_use'];
/* results.c's JSON keys, in BpSim.MEASURES order */
const JSON_KEYS = ['jobs', 'deliveries', 'effects', 'duplicates', 'charged_twice', 'lost_writes',
  'errors', 'error_rate', 'completion_time_s', 'latency_p50_s', 'latency_p99_s',
  'monthly_cost_usd', 'events', 'lost_events', 'ghost_events', 'downstream_deliveries',
  'downstream_effects', 'downstream_duplicates', 'downstream_lost_writes', 'downstream_errors',
  'dead_lettered', 'dead_letter_time_s'];

let failures = 0;
function fail(msg) {
  failures++;
  if (failures <= 40) console.log('wasm: FAIL ' + msg);
}

function bits(x) {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(x);
  return b.readBigUInt64LE().toString(16).padStart(16, '0');
}

function show(x) {
  return x.toPrecision(17) + ' (0x' + bits(x) + ')';
}

/* Every difference between two decoded results, as sentences. */
function differences(want, got) {
  const out = [];
  const same = (a, b) => bits(a) === bits(b);
  for (const k of ['replications', 'allGoalsPass', 'expectOk', 'traceTruncated', 'deterministic',
    'untilMet', 'latencySamples'])
    if (want[k] !== got[k]) out.push(k + ': native ' + want[k] + ', wasm ' + got[k]);
  for (const m of BpSim.MEASURES)
    for (const s of ['mean', 'min', 'max', 'ci95'])
      if (!same(want.measures[m][s], got.measures[m][s]))
        out.push(m + '.' + s + ': native ' + show(want.measures[m][s]) + ', wasm ' +
          show(got.measures[m][s]));
  const goals = new Set(Object.keys(want.goals).concat(Object.keys(got.goals)));
  for (const m of goals) {
    const a = want.goals[m], b = got.goals[m];
    if (!a || !b) out.push('goal ' + m + ': only ' + (a ? 'native' : 'wasm') + ' has it');
    else if (!same(a.worst, b.worst) || a.pass !== b.pass)
      out.push('goal ' + m + ': native ' + show(a.worst) + ' ' + a.pass + ', wasm ' +
        show(b.worst) + ' ' + b.pass);
  }
  if (want.trace.length !== got.trace.length)
    out.push('trace: native ' + want.trace.length + ' entries, wasm ' + got.trace.length);
  else
    for (let i = 0; i < want.trace.length; i++)
      if (JSON.stringify(want.trace[i]) !== JSON.stringify(got.trace[i])) {
        out.push('trace entry ' + i + ': native ' + JSON.stringify(want.trace[i]) + ', wasm ' +
          JSON.stringify(got.trace[i]));
        break;
      }
  return out;
}

/* The native binary results against the native JSON (six decimals). */
function jsonDifferences(res, json) {
  const out = [];
  const near = (a, b) => b !== null && Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a));
  BpSim.MEASURES.forEach((m, i) => {
    const k = JSON_KEYS[i], s = res.measures[m];
    if (!(k in json.measures)) { /* a second-hop measure of a one-hop board: JSON leaves it out */
      if (s.mean !== 0 || s.max !== 0) out.push(k + ': ' + s.mean + ' but JSON leaves it out');
      return;
    }
    if (!near(s.mean, json.measures[k])) out.push(k + ': ' + s.mean + ' vs JSON ' + json.measures[k]);
    if (res.replications > 1)
      for (const f of ['min', 'max', 'ci95'])
        if (!near(s[f], json.spread[k][f]))
          out.push(k + '.' + f + ': ' + s[f] + ' vs JSON ' + json.spread[k][f]);
    const g = res.goals[m], jg = json.goals[k];
    if (!!g !== !!jg) out.push('goal ' + k + ' in one of them only');
    else if (g && (!near(g.worst, jg.worst) || g.pass !== jg.pass))
      out.push('goal ' + k + ': ' + JSON.stringify(g) + ' vs JSON ' + JSON.stringify(jg));
  });
  if (res.replications !== json.replications) out.push('replications differ');
  if (res.allGoalsPass !== json.all_goals_pass) out.push('all_goals_pass differs');
  if (res.deterministic !== json.deterministic) out.push('deterministic differs');
  if (res.latencySamples !== json.latency.samples) out.push('latency.samples differs');
  if (json.until && res.untilMet !== json.until.met) out.push('until.met differs');
  if (json.trace) {
    if (json.trace.length !== res.trace.length) out.push('trace lengths differ');
    else
      json.trace.forEach((e, i) => {
        const r = res.trace[i];
        if (e.kind !== r.kind || e.job !== r.job || e.detail !== r.detail ||
            !near(r.t_us / 1e6, e.t_s))
          out.push('trace entry ' + i + ': ' + JSON.stringify(r) + ' vs ' + JSON.stringify(e));
      });
    if (json.trace_truncated !== res.traceTruncated) out.push('trace_truncated differs');
  }
  return out;
}

/* The wire bytes with the n-th varint after the header (the magic, then the
 * version's varint, as long as schema.h's rows make it; then the limits:
 * max_jobs, max_events, ...) replaced by the zigzag encoding of a small v. */
function withLimit(wire, n, v) {
  let at = 4;
  for (let i = 0; i <= n; i++) {
    while (wire[at] & 0x80) at++;
    at++;
  }
  let end = at;
  while (wire[end] & 0x80) end++;
  return Buffer.concat([wire.subarray(0, at), Buffer.from([v * 2]), wire.subarray(end + 1)]);
}

function expectError(sim, wire, code, message, what) {
  try {
    sim.simulate(wire);
    fail(what + ': the module ran it');
  } catch (e) {
    if (!(e instanceof BpSim.BpSimError) || e.code !== code ||
        (message instanceof RegExp ? !message.test(e.message)
          : message !== null && e.message !== message))
      fail(what + ': got ' + e.code + ' "' + e.message + '", expected ' + code + ' "' + message +
        '"');
  }
}

async function main() {
  const [wasmPath, dir] = process.argv.slice(2);
  const bytes = fs.readFileSync(wasmPath);
  const gz = zlib.gzipSync(bytes, {level: 9}).length;
  const module = await WebAssembly.compile(bytes);
  const imports = WebAssembly.Module.imports(module);
  if (imports.length !== 0)
    fail('the module imports ' + imports.map((i) => i.module + '.' + i.name).join(', '));
  const exported = WebAssembly.Module.exports(module).map((e) => e.name);
  for (const name of EXPORTS)
    if (!exported.includes(name)) fail('the module does not export ' + name);
  if (gz > MAX_GZIP) fail('the module is ' + gz + ' bytes gzipped; at most ' + MAX_GZIP);

  const t0 = process.hrtime.bigint();
  const sim = await BpSim.load(module);
  const instantiateMs = Number(process.hrtime.bigint() - t0) / 1e6;

  const lines = fs.readFileSync(path.join(dir, 'variants.tsv'), 'utf8').trim().split('\n');
  const kinds = {};
  let traces = 0;
  lines.forEach((line, n) => {
    const name = line.split('\t')[0];
    const wire = fs.readFileSync(path.join(dir, n + '.wire'));
    const native = fs.readFileSync(path.join(dir, n + '.res'));
    const json = JSON.parse(fs.readFileSync(path.join(dir, n + '.json'), 'utf8'));
    let raw;
    try {
      raw = sim.simulateRaw(wire);
    } catch (e) {
      fail(name + ': the module failed: ' + e.message);
      return;
    }
    const want = BpSim.decodeResult(native), got = BpSim.decodeResult(raw);
    const diff = differences(want, got);
    if (diff.length) fail(name + ': ' + diff.slice(0, 5).join('; '));
    else if (Buffer.compare(Buffer.from(raw), native) !== 0)
      fail(name + ': the results bytes differ where no decoded value does');
    const jd = jsonDifferences(want, json);
    if (jd.length) fail(name + ': native binary results and JSON disagree: ' + jd.slice(0, 3).join('; '));
    /* a second run: same bits, no more memory, the same bytes held */
    const heap = sim.heapInUse(), pages = sim.memory.buffer.byteLength;
    const again = sim.simulateRaw(wire);
    if (Buffer.compare(Buffer.from(again), Buffer.from(raw)) !== 0) fail(name + ': a second run differs');
    if (sim.heapInUse() !== heap) fail(name + ': heap in use ' + heap + ' then ' + sim.heapInUse());
    if (sim.memory.buffer.byteLength !== pages) fail(name + ': a second run grew the memory');
    const kind = name.split(':')[0];
    kinds[kind] = (kinds[kind] || 0) + 1;
    if (want.trace.length) traces++;
  });

  /* Proofs' counterexamples, replayed from their choices. */
  const replays = fs.existsSync(path.join(dir, 'replays.tsv'))
    ? fs.readFileSync(path.join(dir, 'replays.tsv'), 'utf8').trim().split('\n') : [];
  let replayed = 0;
  replays.forEach((name, n) => {
    const wire = fs.readFileSync(path.join(dir, n + '.pwire'));
    const native = fs.readFileSync(path.join(dir, n + '.pres'));
    const json = JSON.parse(fs.readFileSync(path.join(dir, n + '.pjson'), 'utf8'));
    const cx = json.counterexample || json.witness;
    const choices = Uint8Array.from(cx.choices, Number);
    let raw;
    try {
      raw = BpReplay.run(sim, wire, choices);
    } catch (e) {
      fail('replay ' + name + ': the module failed: ' + e.message);
      return;
    }
    const heap = sim.heapInUse();
    if (Buffer.compare(Buffer.from(BpReplay.run(sim, wire, choices)), Buffer.from(raw)) !== 0 ||
        sim.heapInUse() !== heap)
      fail('replay ' + name + ': a second replay differs or holds more memory');
    const want = BpSim.decodeResult(native), got = BpSim.decodeResult(raw);
    const diff = differences(want, got);
    if (diff.length) fail('replay ' + name + ': ' + diff.slice(0, 5).join('; '));
    else if (Buffer.compare(Buffer.from(raw), native) !== 0)
      fail('replay ' + name + ': the results bytes differ where no decoded value does');
    if (got.trace.length !== cx.events.length)
      fail('replay ' + name + ': ' + got.trace.length + ' events, the proof ' + cx.events.length);
    else
      got.trace.forEach((e, i) => {
        const j = cx.events[i];
        if (e.kind !== j.kind || e.job !== j.job || Math.abs(e.t_us / 1e6 - j.t_s) > 1e-6)
          fail('replay ' + name + ' event ' + i + ': ' + JSON.stringify(e) + ' vs ' + JSON.stringify(j));
      });
    if (got.measures[json.measure].mean !== cx.value)
      fail('replay ' + name + ': ' + json.measure + ' ' + got.measures[json.measure].mean +
        ', the proof ' + cx.value);
    /* the same choices sampled are another run: the list is what decides */
    const sampled = BpSim.decodeResult(sim.simulateRaw(wire));
    if (!differences(want, sampled).length)
      fail('replay ' + name + ': the sampled run is the counterexample too (the test proves nothing)');
    if (!choices.length) fail('replay ' + name + ': no choices');
    replayed++;
  });
  /* The comparison can fail: one ulp in one measure, one flipped verdict
   * (the results header is 32 bytes, WIRE.md). */
  const native = fs.readFileSync(path.join(dir, '0.res'));
  const want = BpSim.decodeResult(native);
  const ulp = Buffer.from(native);
  const meanAt = 32 + 32 * BpSim.MEASURES.indexOf('completion_time');
  ulp.writeBigUInt64LE(ulp.readBigUInt64LE(meanAt) ^ 1n, meanAt);
  const d1 = differences(want, BpSim.decodeResult(ulp));
  if (d1.length !== 1 || !d1[0].startsWith('completion_time.mean: '))
    fail('self-check: one ulp in completion_time.mean gave ' + JSON.stringify(d1));
  const goalAt = 32 + 32 * BpSim.MEASURES.length;
  const firstGoal = Object.keys(want.goals)[0];
  if (firstGoal) {
    const flip = Buffer.from(native), g = goalAt + 16 * BpSim.MEASURES.indexOf(firstGoal) + 8;
    flip.writeUInt32LE(flip.readUInt32LE(g) ^ 2, g);
    const d2 = differences(want, BpSim.decodeResult(flip));
    if (d2.length < 1 || !d2.some((s) => s.startsWith('goal ' + firstGoal)))
      fail('self-check: a flipped verdict on ' + firstGoal + ' gave ' + JSON.stringify(d2));
  } else {
    fail('self-check: the first board has no goals');
  }
  try {
    BpSim.decodeResult(native.subarray(0, native.length - 1));
    fail('self-check: cut results bytes decoded');
  } catch (e) {
    if (!(e instanceof BpSim.BpSimError)) throw e;
  }

  /* Hostile and impossible boards: refused, with the module's sentence. */
  const wire = fs.readFileSync(path.join(dir, '0.wire'));
  expectError(sim, wire.subarray(0, wire.length - 1), 'bad-bytes', null, 'cut board bytes');
  expectError(sim, Buffer.from('BPSX'), 'bad-bytes',
    'bad board bytes at byte 0 (header): not a boardpress board encoding (it starts with "BPSW")',
    'bad magic');
  /* the module names the check by its line (SIM_TERSE_CHECKS); the build
   * wrote the sentence (traffic.jobs must be at most 1) */
  expectError(sim, withLimit(wire, 0, 1), 'bad-board',
    /^this setting cannot be simulated \(sim-core\/check\.c:\d+\)$/, 'max_jobs 1');
  expectError(sim, withLimit(wire, 1, 10), 'run-failed',
    'the board needs more than 10 events in one run; lower jobs or tries', 'max_events 10');
  /* a failed run holds nothing, not even the previous result */
  if (sim.heapInUse() !== 0) fail('after a failed run the module holds ' + sim.heapInUse() + ' bytes');

  const summary = Object.keys(kinds).sort().map((k) => kinds[k] + ' ' + k).join(', ');
  console.log('wasm: ' + lines.length + ' runs (' + summary + '; ' + traces + ' with a trace) and ' +
    replayed + ' counterexamples replayed ' +
    (failures ? 'compared' : 'give the native bits') + ' in ' + path.basename(wasmPath) + ' (' +
    bytes.length + ' bytes, ' + gz + ' gzipped, ' + imports.length + ' imports, instantiated in ' +
    instantiateMs.toFixed(1) + ' ms)');
  if (failures) {
    console.log('wasm: ' + failures + ' failure(s)');
    process.exit(1);
  }
}

main().catch((e) => {
  console.log('wasm: FAIL ' + (e.stack || e));
  process.exit(1);
});
