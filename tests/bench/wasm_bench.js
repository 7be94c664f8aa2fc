/* wasm_bench.js — the WebAssembly side of make bench (tests/bench/run.py):
 *
 *   node tests/bench/wasm_bench.js SIMCORE.wasm BOARD.wire NATIVE.res RUNS
 *
 * times compiling the module from its bytes, instantiating the compiled
 * module, the first run of the board after a fresh load (V8 compiles
 * lazily, so it pays for compiling the functions it calls), and RUNS runs
 * through generator/web/bp-sim.js after three to warm up, and checks
 * each run's results are NATIVE.res byte for byte. One JSON line. */
'use strict';

const fs = require('fs');
const path = require('path');
const BpSim = require(path.join(__dirname, '..', '..', 'generator', 'web', 'bp-sim.js'));

function ms(t0) {
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function main() {
  const [wasmPath, wirePath, nativePath, runsArg] = process.argv.slice(2);
  const bytes = fs.readFileSync(wasmPath), wire = fs.readFileSync(wirePath);
  const native = fs.readFileSync(nativePath), runs = Number(runsArg);
  const compile = [], instantiate = [];
  let module;
  for (let i = 0; i < 10; i++) {
    let t0 = process.hrtime.bigint();
    module = await WebAssembly.compile(bytes);
    compile.push(ms(t0));
    t0 = process.hrtime.bigint();
    await BpSim.load(module);
    instantiate.push(ms(t0));
  }
  const first = [];
  for (let i = 0; i < 5; i++) {
    const fresh = await BpSim.load(await WebAssembly.compile(bytes));
    const t0 = process.hrtime.bigint();
    fresh.simulateRaw(wire);
    first.push(ms(t0));
  }
  const sim = await BpSim.load(module);
  const run = [];
  let same = true;
  for (let i = 0; i < runs + 3; i++) {
    const t0 = process.hrtime.bigint();
    const raw = sim.simulateRaw(wire);
    const t = ms(t0);
    if (i >= 3) run.push(t);
    if (Buffer.compare(Buffer.from(raw), native) !== 0) same = false;
  }
  console.log(JSON.stringify({compile_ms: compile, instantiate_ms: instantiate, first_ms: first,
    run_ms: run,
    same_as_native: same, node: process.version}));
}

main().catch((e) => {
  console.error(e.stack || e);
  process.exit(1);
});
