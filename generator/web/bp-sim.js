/* bp-sim.js — the simulator in the reader's browser: loads simcore.wasm
 * (sim-core compiled to WebAssembly, no imports), runs a board given as its
 * wire bytes (sim-core/WIRE.md; the generator writes them) and decodes the
 * results. The same sim-core the build runs, so the numbers are the same
 * bits as the page's build-time numbers.
 *
 *   BpSim.load(source)        -> Promise of a simulator; source is the URL
 *                                of simcore.wasm, its bytes, or a compiled
 *                                WebAssembly.Module
 *   simulator.simulate(wire)  -> results (below); throws a BpSimError
 *   simulator.simulateRaw(wire) -> the results encoding, a Uint8Array
 *   BpSim.decodeResult(bytes) -> results, from the results encoding
 *
 * Results: {replications, allGoalsPass, expectOk, traceTruncated,
 *   deterministic (no random number was drawn), untilMet (replications:
 *   {until} reached its precision), latencySamples (the fewest succeeded
 *   jobs a replication's latency percentiles came from: below 100, p99 is
 *   the largest),
 *   measures: {NAME: {mean, min, max, ci95}} for every measure name,
 *   goals: {NAME: {worst, pass}} for the measures the board has goals on,
 *   trace: [{t_us, kind, job, part, peer, detail}] (part indices; empty
 *   unless the wire asked for a trace)}.
 *
 * A classic script: in a page it defines window.BpSim, in a worker
 * self.BpSim (importScripts), in Node module.exports. No dependencies. */
(function (root, factory) {
  'use strict';
  var api = factory();
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.BpSim = api;
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  var RESULT_VERSION = 4;

  /* The measures' names, in simcore.h's order (sim_measure). */
  var MEASURES = ['jobs', 'deliveries', 'effects', 'duplicates', 'charged_twice',
    'lost_writes', 'errors', 'error_rate', 'completion_time', 'latency_p50',
    'latency_p99', 'monthly_cost', 'events', 'lost_events', 'ghost_events',
    'downstream_deliveries', 'downstream_effects', 'downstream_duplicates',
    'downstream_lost_writes', 'downstream_errors', 'dead_lettered',
    'dead_letter_time'];

  /* Trace kinds, in simcore.h's order (sim_trace_kind); names as in
   * `boardpress sim --trace`. */
  var TRACE_KINDS = ['arrive', 'send', 'lost-request', 'receive', 'skip', 'call',
    'call-lost', 'call-failed', 'effect', 'provider-skip', 'rollback', 'crash',
    'restart', 'record-key', 'reply', 'lost-reply', 'acked', 'timeout', 'give-up',
    'dropped', 'publish', 'accept', 'dedup', 'confirm', 'claim', 'held', 'outbox',
    'failed', 'dead-letter'];

  /* What went wrong, by the module's error codes. */
  var ERRORS = {1: 'bad-bytes', 2: 'bad-board', 3: 'run-failed'};

  function BpSimError(code, message) {
    this.name = 'BpSimError';
    this.code = ERRORS[code] || 'unknown';
    this.message = message;
  }
  BpSimError.prototype = Object.create(Error.prototype);
  BpSimError.prototype.constructor = BpSimError;

  /* ------------------------------------------------------------ results */

  var HEAD = 32, MEASURE_BYTES = 32, GOAL_BYTES = 16, ENTRY_BYTES = 40;

  /* A little-endian int64 as a Number (exact below 2^53). */
  function int64(view, at) {
    return view.getInt32(at + 4, true) * 4294967296 + view.getUint32(at, true);
  }

  function decodeResult(bytes) {
    var view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    function fail(why) {
      throw new BpSimError(0, 'bad results bytes: ' + why);
    }
    if (bytes.byteLength < HEAD ||
        String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) !== 'BPSR')
      fail('they do not start with "BPSR"');
    var version = view.getUint32(4, true), count = view.getUint32(8, true);
    if (version !== RESULT_VERSION)
      fail('version ' + version + '; this script reads version ' + RESULT_VERSION);
    if (count !== MEASURES.length)
      fail(count + ' measures; this script knows ' + MEASURES.length);
    var flags = view.getUint32(16, true), nTrace = view.getUint32(20, true);
    var goalsAt = HEAD + count * MEASURE_BYTES, traceAt = goalsAt + count * GOAL_BYTES;
    if (bytes.byteLength !== traceAt + nTrace * ENTRY_BYTES)
      fail(bytes.byteLength + ' bytes for ' + nTrace + ' trace entries');
    var r = {
      replications: view.getInt32(12, true),
      allGoalsPass: (flags & 1) !== 0,
      expectOk: (flags & 2) !== 0,
      traceTruncated: (flags & 4) !== 0,
      deterministic: (flags & 8) !== 0,
      untilMet: (flags & 16) !== 0,
      latencySamples: int64(view, 24),
      measures: {},
      goals: {},
      trace: []
    };
    for (var m = 0; m < count; m++) {
      var s = HEAD + m * MEASURE_BYTES;
      r.measures[MEASURES[m]] = {
        mean: view.getFloat64(s, true),
        min: view.getFloat64(s + 8, true),
        max: view.getFloat64(s + 16, true),
        ci95: view.getFloat64(s + 24, true)
      };
      var g = goalsAt + m * GOAL_BYTES, gf = view.getUint32(g + 8, true);
      if (gf & 1)
        r.goals[MEASURES[m]] = {worst: view.getFloat64(g, true), pass: (gf & 2) !== 0};
    }
    for (var i = 0; i < nTrace; i++) {
      var e = traceAt + i * ENTRY_BYTES;
      r.trace.push({
        t_us: int64(view, e),
        kind: TRACE_KINDS[view.getInt32(e + 24, true)] || 'unknown',
        job: int64(view, e + 8),
        part: view.getInt32(e + 28, true),
        peer: view.getInt32(e + 32, true),
        detail: int64(view, e + 16),
        copy: view.getInt32(e + 36, true)
      });
    }
    return r;
  }

  /* ------------------------------------------------------------ the module */

  function Simulator(instance) {
    this.exports = instance.exports;
    this.memory = instance.exports.memory;
  }

  /* Copy wire into the module, run it; the module's bytes of the results
   * (valid until the next run). */
  Simulator.prototype.run = function (wire) {
    var x = this.exports;
    var bytes = wire instanceof Uint8Array ? wire : new Uint8Array(wire);
    var at = x.bp_alloc(bytes.length) >>> 0;
    if (!at) throw new BpSimError(3, 'not enough memory for the board bytes');
    new Uint8Array(this.memory.buffer, at, bytes.length).set(bytes);
    var res = x.bp_run(at, bytes.length) >>> 0;
    x.bp_free(at);
    if (!res) throw new BpSimError(x.bp_error_code(), this.error());
    /* memory.buffer is read again: the run may have grown the memory */
    return new Uint8Array(this.memory.buffer, res, x.bp_result_len() >>> 0);
  };

  Simulator.prototype.error = function () {
    var mem = new Uint8Array(this.memory.buffer), at = this.exports.bp_error() >>> 0, end = at;
    while (mem[end]) end++;
    return new TextDecoder().decode(mem.subarray(at, end)); /* UTF-8: part ids */
  };

  Simulator.prototype.simulateRaw = function (wire) {
    return this.run(wire).slice();
  };

  Simulator.prototype.simulate = function (wire) {
    return decodeResult(this.run(wire));
  };

  /* Bytes the module holds for callers: the same after every run of a board
   * once the first has run (tests use it to find leaks). */
  Simulator.prototype.heapInUse = function () {
    return this.exports.bp_heap_in_use() >>> 0;
  };

  function instantiate(module) {
    return WebAssembly.instantiate(module, {}).then(function (instance) {
      /* instantiate(bytes) resolves to {module, instance} */
      return new Simulator(instance.instance || instance);
    });
  }

  function load(source) {
    if (typeof source === 'string')
      return fetch(source).then(function (res) {
        if (!res.ok) throw new Error(source + ': HTTP ' + res.status);
        return res.arrayBuffer();
      }).then(instantiate);
    return instantiate(source);
  }

  return {
    load: load,
    decodeResult: decodeResult,
    BpSimError: BpSimError,
    MEASURES: MEASURES,
    TRACE_KINDS: TRACE_KINDS,
    RESULT_VERSION: RESULT_VERSION
  };
});
