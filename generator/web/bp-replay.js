/* bp-replay.js — a proof's shortest counterexample run again in the
 * reader's browser: the figure of {{ counterexample ID }} carries the
 * proof's board as wire bytes (data-wire, base64) and the run's choices
 * (data-choices, one digit each); the module (simcore.wasm, through
 * bp-sim.js) replays them and gives the same events as the build drew, one
 * step at a time under the figure. Without JavaScript the build's timeline
 * is the whole figure.
 *
 *   BpReplay.run(simulator, wire, choices) -> the results encoding
 *     (Uint8Array; BpSim.decodeResult reads it) of the board in wire run
 *     with its random choices taken from choices (bytes) instead
 *
 * A classic script: in a page it defines window.BpReplay and loads
 * bp-sim.js beside it when the page has not; in Node module.exports. */
(function (root, factory) {
  'use strict';
  var api = factory();
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.BpReplay = api;
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  /* Copy bytes into the module's memory; the address (free with bp_free). */
  function put(sim, bytes) {
    var at = sim.exports.bp_alloc(bytes.length) >>> 0;
    if (!at) throw new Error('not enough memory for the replay');
    new Uint8Array(sim.memory.buffer, at, bytes.length).set(bytes);
    return at;
  }

  function run(sim, wire, choices) {
    var x = sim.exports, w = put(sim, wire), c = put(sim, choices);
    var res = x.bp_run(w, wire.length, c, choices.length) >>> 0;
    x.bp_free(w);
    x.bp_free(c);
    if (!res) throw new Error(sim.error());
    return new Uint8Array(sim.memory.buffer, res, x.bp_result_len() >>> 0).slice();
  }

  function bytesOf(b64) {
    var s = atob(b64), out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }

  /* One event in words: "0.046 s: payment 1, arrive (Users)". */
  function words(e, fig) {
    var parts = (fig.getAttribute('data-parts') || '').split('|');
    var part = parts[e.part] || '', peer = e.peer >= 0 ? parts[e.peer] || '' : '';
    return (e.t_us / 1e6).toFixed(3) + ' s: ' + (fig.getAttribute('data-noun') || 'job') + ' ' +
      e.job + ', ' + e.kind + ' (' + part + (peer ? ' → ' + peer : '') +
      ')';
  }

  /* The stepper under one figure: a button that replays the run, then
   * shows its events one by one. */
  function attach(fig, wasmUrl) {
    var box = document.createElement('div'), btn = document.createElement('button');
    var list = document.createElement('ol'), note = document.createElement('p');
    box.className = 'bp-replay';
    btn.type = 'button';
    btn.textContent = 'Replay this run in your browser';
    note.setAttribute('aria-live', 'polite');
    box.appendChild(btn);
    box.appendChild(note);
    box.appendChild(list);
    fig.appendChild(box);
    var events = null, shown = 0;
    btn.addEventListener('click', function () {
      if (events) {
        if (shown < events.length) {
          var li = document.createElement('li');
          li.textContent = words(events[shown++], fig);
          list.appendChild(li);
        }
        note.textContent = 'Event ' + shown + ' of ' + events.length +
          (shown === events.length ? ': the same events the build drew above.' : '');
        btn.disabled = shown === events.length;
        return;
      }
      btn.disabled = true;
      BpSim.load(wasmUrl).then(function (sim) {
        var r = BpSim.decodeResult(run(sim, bytesOf(fig.getAttribute('data-wire')),
          Uint8Array.from(fig.getAttribute('data-choices'), Number)));
        events = r.trace;
        btn.textContent = 'Next event';
        btn.disabled = false;
        btn.click();
      }).catch(function (e) {
        note.textContent = 'The replay did not run here (' + e.message + ').';
      });
    });
  }

  if (typeof document !== 'undefined') {
    var me = document.currentScript, base = me ? me.src.replace(/[^/]*$/, '') : '';
    var start = function () {
      var figs = document.querySelectorAll('figure.bp-counterexample[data-wire]');
      for (var i = 0; i < figs.length; i++) attach(figs[i], base + 'simcore.wasm');
    };
    var ready = function () {
      if (typeof BpSim !== 'undefined') return start();
      var s = document.createElement('script');
      s.src = base + 'bp-sim.js';
      s.onload = start;
      document.head.appendChild(s);
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready);
    else ready();
  }

  return {run: run};
});
