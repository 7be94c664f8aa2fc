/* bp-live-worker.js — the simulator in a Web Worker, for live levels whose
 * runs are too large for an animation frame (bp-live.js). The page posts
 * the compiled module once ({module}), then boards as wire bytes ({id,
 * wire}); each comes back as its results encoding ({id, bytes, ms}) or an
 * error ({id, error}), in order. */
/* global importScripts, BpSim */
'use strict';
importScripts('bp-sim.js');

var sim = null;

self.onmessage = function (ev) {
  var m = ev.data;
  if (m.module) {
    sim = BpSim.load(m.module);
    return;
  }
  sim.then(function (s) {
    var t0 = performance.now();
    var bytes = s.simulateRaw(m.wire);
    self.postMessage({id: m.id, bytes: bytes.buffer, ms: performance.now() - t0}, [bytes.buffer]);
  }).catch(function (e) {
    self.postMessage({id: m.id, error: String(e && e.message ? e.message : e)});
  });
};
