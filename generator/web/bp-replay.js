/* bp-replay.js — a proof's shortest counterexample run again in the
 * reader's browser: the figure of {{ counterexample ID }} carries the
 * proof's board as wire bytes (data-wire, base64) and the run's choices
 * (data-choices, one digit each); the module (simcore.wasm, through
 * bp-sim.js) replays them and gives the same events as the build drew,
 * which the timeline's step buttons then walk through. Without JavaScript
 * the build's timeline is the whole figure.
 *
 *   BpReplay.run(simulator, wire, choices) -> the results encoding
 *     (Uint8Array; BpSim.decodeResult reads it) of the board in wire run
 *     with its random choices taken from choices (bytes) instead
 *   BpReplay.rowsOf(events, figure) -> the timeline rows the events
 *     reach, in order (the figure's data-events), or null
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

  /* The replayed run's events as the build's timeline rows: the figure
   * carries each row's words (data-rows, '|' between: "20 ms: payment 1")
   * and per trace entry the row that shows it (data-events, -1 for an
   * entry no row shows, like a receive). rowsOf(events, fig) gives the
   * rows in the order the events reach them (each once), or null when the
   * replay's events are not the ones the build drew. */
  function rowsOf(events, fig) {
    var map = (fig.getAttribute('data-events') || '').split(' ').map(Number);
    if (map.length !== events.length) return null;
    var out = [], seen = {};
    for (var i = 0; i < map.length; i++)
      if (map[i] >= 0 && !seen[map[i]]) {
        seen[map[i]] = true;
        out.push(map[i]);
      }
    return out;
  }

  /* Under the timeline's step buttons (static/boardpress.js): a button
   * that replays the run in the module and, when its events are the ones
   * the build drew, says so and steps to the first of them with those
   * buttons (each in the timeline's own words, marked on the drawing).
   * Without the step buttons, the rows are listed. */
  function attach(fig, wasmUrl) {
    var box = document.createElement('div'), btn = document.createElement('button');
    var note = document.createElement('p');
    var words = (fig.getAttribute('data-rows') || '').split('|');
    var steps = fig.querySelector('.bp-step');
    box.className = 'bp-replay';
    btn.type = 'button';
    btn.textContent = 'Replay this run in your browser';
    note.setAttribute('aria-live', 'polite');
    box.appendChild(btn);
    box.appendChild(note);
    if (steps) steps.parentNode.insertBefore(box, steps.nextSibling);
    else fig.appendChild(box);
    btn.addEventListener('click', function () {
      btn.disabled = true;
      BpSim.load(wasmUrl).then(function (sim) {
        var r = BpSim.decodeResult(run(sim, bytesOf(fig.getAttribute('data-wire')),
          Uint8Array.from(fig.getAttribute('data-choices'), Number)));
        var rows = rowsOf(r.trace, fig);
        if (!rows) {
          note.textContent = 'The replay gave ' + r.trace.length +
            ' events, not the ones the build drew above.';
          return;
        }
        note.textContent = 'Replayed in your browser: the same ' + rows.length +
          ' events the build drew' + (steps ? '; step through them with the buttons above.' : ':');
        var next = steps && steps.querySelector('button[data-step="next"]');
        if (next) {
          next.click();
          next.focus();
          return;
        }
        var list = document.createElement('ol');
        rows.forEach(function (i) {
          var li = document.createElement('li');
          li.textContent = words[i] || '';
          list.appendChild(li);
        });
        box.appendChild(list);
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

  return {run: run, rowsOf: rowsOf};
});
