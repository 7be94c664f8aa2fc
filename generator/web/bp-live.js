/* bp-live.js — live levels: the reader moves a slider (or picks an option)
 * and the page runs the board again, in the browser, on the same sim-core
 * the build ran (simcore.wasm through bp-sim.js), then rewrites every
 * number the level shows: its tables, the numbers drawn on the diagram,
 * the settings written on it, the goals' verdicts.
 *
 * The board travels as wire bytes (sim-core/WIRE.md), put together here
 * from what the generator embeds (generator/render/live.c): the starting
 * state's encoding, and for each choice the slot its setting takes in it
 * and, per value, the bytes that go there. So the bytes are exactly those
 * `boardpress sim LEVEL --set PATH=VALUE --wire` writes (tests/live/wire.js
 * proves it for every value of every slider), and the numbers are the bits
 * the build would measure.
 *
 * Every run goes to a Web Worker (bp-live-worker.js), one at a time, the
 * latest state next, so a drag never blocks the page (even the site's
 * smallest runs take 10-40 ms, two or more frames); only where there is
 * no Worker does a run of up to MAIN_THREAD_JOB_RUNS jobs × replications
 * (1,000 × 20) run on the page's thread, in the change's own event. Past
 * MAX_JOB_RUNS nothing runs and the level says so. Moves are coalesced:
 * one run per frame at most, and while the worker runs, only the latest
 * state waits.
 *
 * The fragment keeps the state as boardpress.js keeps a level's:
 * level-ID=I.J.K, one position per choice (a slider's step from its min).
 *
 * Without WebAssembly (or when the module cannot be fetched, as from
 * file://) the level stays as the build wrote it, and says why.
 *
 * A classic script: window.BpLive in a page, module.exports in Node (the
 * wire functions, for tests). No dependencies beyond bp-sim.js and
 * bp-fmt.js. */
(function (root, factory) {
  'use strict';
  var api = factory();
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.BpLive = api;
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  var MAIN_THREAD_JOB_RUNS = 20000;
  var MAX_JOB_RUNS = 500000;

  /* ------------------------------------------------------------ wire bytes */

  function fromBase64(s) {
    if (typeof atob === 'function') {
      var bin = atob(s), out = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
      return out;
    }
    return new Uint8Array(Buffer.from(s, 'base64'));
  }

  /* The level's page data decoded once: the start's bytes, the slots in
   * order and each choice's values' bytes. */
  function prepare(data) {
    return {
      start: fromBase64(data.wire.start),
      slots: data.wire.slots,
      values: data.choices.map(function (c) {
        return c.values.map(function (v) {
          return fromBase64(v.wire);
        });
      }),
      /* a sweep's first pass: the slot that makes a run one replication */
      one: data.wire.one ? {at: data.wire.one.at, end: data.wire.one.end,
        bytes: fromBase64(data.wire.one.wire)} : null
    };
  }

  /* The wire bytes of the state `positions` (one per choice): the start's
   * bytes with each slot replaced by its choice's value; with once, also
   * the replications' slot by one replication (a sweep's first pass). */
  function assemble(prep, positions, once) {
    var parts = prep.slots.map(function (sl) {
      return {at: sl.at, end: sl.end, bytes: prep.values[sl.choice][positions[sl.choice]]};
    });
    if (once && prep.one) {
      parts.push(prep.one);
      parts.sort(function (a, b) { return a.at - b.at; });
    }
    var n = prep.start.length, k;
    for (k = 0; k < parts.length; k++) n += parts[k].bytes.length - (parts[k].end - parts[k].at);
    var out = new Uint8Array(n), at = 0, o = 0;
    for (k = 0; k < parts.length; k++) {
      var slot = parts[k], v = slot.bytes;
      out.set(prep.start.subarray(at, slot.at), o);
      o += slot.at - at;
      out.set(v, o);
      o += v.length;
      at = slot.end;
    }
    out.set(prep.start.subarray(at), o);
    return out;
  }

  /* Jobs × replications (the most a run may take) of a state. */
  function work(data, positions) {
    var jobs = data.jobs, reps = data.replications;
    data.choices.forEach(function (c, i) {
      var v = c.values[positions[i]];
      if (v.jobs !== undefined) jobs = v.jobs;
      if (v.replications !== undefined) reps = v.replications;
    });
    return jobs * reps;
  }

  /* ------------------------------------------------------------ the simulator */

  var loads = {};

  /* The compiled module and a simulator on it, once per page. */
  function loadModule(staticUrl) {
    if (!loads[staticUrl]) {
      loads[staticUrl] = fetch(staticUrl + 'simcore.wasm').then(function (res) {
        if (!res.ok) throw new Error('HTTP ' + res.status);
        return res.arrayBuffer();
      }).then(function (bytes) {
        return WebAssembly.compile(bytes);
      }).then(function (module) {
        return self.BpSim.load(module).then(function (sim) {
          return {module: module, sim: sim, workers: {}};
        });
      });
    }
    return loads[staticUrl];
  }

  /* Runs in a Web Worker, one at a time: run(wire) resolves to the results.
   * One worker per job (which): the level's runs ('level') and its sweeps'
   * points ('sweep'), so a sweep never holds up the run of a move. */
  function workerOf(staticUrl, loaded, which) {
    which = which || 'level';
    if (loaded.workers[which]) return loaded.workers[which];
    var w = new Worker(staticUrl + 'bp-live-worker.js');
    var waiting = {}, next = 1;
    w.onmessage = function (ev) {
      var m = ev.data, p = waiting[m.id];
      delete waiting[m.id];
      if (!p) return;
      if (m.error) p.reject(new Error(m.error));
      else p.resolve({result: self.BpSim.decodeResult(new Uint8Array(m.bytes)), ms: m.ms});
    };
    /* a worker that cannot start (its script missing) fails what waits */
    w.onerror = function (ev) {
      var ids = Object.keys(waiting);
      ids.forEach(function (id) {
        var p = waiting[id];
        delete waiting[id];
        p.reject(new Error(ev.message || 'the Web Worker stopped'));
      });
    };
    w.postMessage({module: loaded.module});
    loaded.workers[which] = {
      run: function (wire) {
        var id = next++;
        return new Promise(function (resolve, reject) {
          waiting[id] = {resolve: resolve, reject: reject};
          w.postMessage({id: id, wire: wire}, [wire.buffer]);
        });
      }
    };
    return loaded.workers[which];
  }

  /* ------------------------------------------------------------ the widget */

  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  function plural(n, one, many) {
    return n === 1 ? one : many;
  }

  function thousands(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  }

  /* A live level: section is its <section class="bp-live-level">, data
   * its page data, save writes the page's fragment and parseState reads a
   * level's state from a token of it (all from boardpress.js). Returns the
   * widget for the fragment ({token, restore, element}), or null when it
   * cannot run (no page data). */
  function widget(section, data, save, parseState) {
    if (!data) return null;
    var where = section.querySelector('.bp-live-where');
    var how = section.querySelector('.bp-live-how');
    var runsEl = section.querySelector('.bp-live-runs');
    function say(text) {
      if (where) where.textContent = text;
    }
    if (typeof WebAssembly !== 'object' || typeof BigInt !== 'function' || !self.BpSim ||
        !self.BpFmt) {
      say('These numbers were measured when the page was built; this browser cannot run the ' +
        'simulator (it needs WebAssembly)');
      if (how) how.hidden = true;
      return null;
    }
    var prep = prepare(data);
    var choices = data.choices;
    var positions = data.start.slice();
    var touched = false, loaded = null;
    var dirty = false, framed = false, running = false;
    var form = section.querySelector('form.bp-live-choices');
    var startNote = section.querySelector('.bp-level-start');
    var reset = section.querySelector('button.bp-reset');
    var status = section.querySelector('.bp-level-status');
    var changed = section.querySelector('.bp-live-changed');
    var last = null; /* the results shown */
    var drawings = all(section, '.bp-live-drawing');
    var setEls = all(section, 'svg [data-set]'); /* the settings written on the diagrams */
    var handles = []; /* made once the simulator is loaded */
    var levelId = section.getAttribute('data-level');
    /* the page's prose: numbers to drag ({{ scrub }}) and numbers the
     * level measures ({{ live }}), wherever they are */
    function ofLevel(el) {
      return el.getAttribute('data-level') === levelId && !section.contains(el);
    }
    var scrubs = all(document, '[data-scrub]').filter(ofLevel);
    var prose = all(document, '.bp-live-num[data-measure]').filter(ofLevel);

    /* The diagram as the control: each slider's setting written on a
     * drawing ("10% of acks lost") becomes a handle on it, its text line
     * a slider (data-handle=PATH, role=slider, focusable): the arrow keys,
     * Home, End, Page Up/Down, or a drag sideways move it as the slider
     * does. A drawing with handles is a group, not an image, so they are
     * reachable. */
    /* A slider's control away from the slider: role, focus, its range. */
    function asSlider(el, i) {
      el.setAttribute('role', 'slider');
      el.setAttribute('tabindex', '0');
      el.setAttribute('aria-label', choices[i].label);
      el.setAttribute('aria-valuemin', '0');
      el.setAttribute('aria-valuemax', String(choices[i].values.length - 1));
      el.setAttribute('class', ((el.getAttribute('class') || '') + ' bp-handle').trim());
    }

    function choiceOfSet(path) {
      for (var k = 0; k < choices.length; k++)
        if (choices[k].set === path && choices[k].range) return k;
      return -1;
    }

    function makeHandles() {
      var out = [];
      scrubs.forEach(function (el) {
        var i = choiceOfSet(el.getAttribute('data-scrub'));
        if (i < 0) return;
        asSlider(el, i);
        el.addEventListener('keydown', onKey);
        el.addEventListener('pointerdown', onDown);
        out.push({el: el, choice: i});
      });
      setEls.forEach(function (el) {
        var path = el.getAttribute('data-set'), i = -1;
        for (var k = 0; k < choices.length; k++)
          if (choices[k].set === path && choices[k].range) i = k;
        var line = el.parentNode;
        if (i < 0 || !line || line.nodeName !== 'text' || line.hasAttribute('data-handle')) return;
        line.setAttribute('data-handle', path);
        asSlider(line, i);
        var svg = line.closest('svg');
        if (svg && svg.getAttribute('role') === 'img') svg.setAttribute('role', 'group');
        out.push({el: line, choice: i});
      });
      return out;
    }

    function handleOf(el) {
      var line = el && el.closest ? el.closest('[data-handle], [data-scrub]') : null;
      for (var k = 0; k < handles.length; k++) if (handles[k].el === line) return handles[k];
      return null;
    }

    function nudge(i, to) {
      var n = choices[i].values.length;
      to = Math.max(0, Math.min(n - 1, to));
      if (to !== positions[i]) change(i, to, true);
    }

    function onKey(ev) {
      var h = handleOf(ev.target);
      if (!h || !loaded) return;
      var i = h.choice, n = choices[i].values.length, page = Math.max(1, Math.round(n / 10));
      var to = {ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: page,
        PageDown: -page}[ev.key];
      if (to !== undefined) nudge(i, positions[i] + to);
      else if (ev.key === 'Home') nudge(i, 0);
      else if (ev.key === 'End') nudge(i, n - 1);
      else if (ev.key === 'Enter') nudge(i, positions[i] + 1 < n ? positions[i] + 1 : 0);
      else return;
      ev.preventDefault();
    }
    section.addEventListener('keydown', onKey);

    /* a drag sideways: one step per 6 px (a whole range in at most a few
     * hundred px) */
    function onDown(ev) {
      var h = handleOf(ev.target);
      if (!h || !loaded) return;
      var i = h.choice, from = positions[i], x0 = ev.clientX;
      var n = choices[i].values.length, px = Math.max(2, Math.min(12, 300 / n));
      ev.preventDefault();
      h.el.focus();
      try {
        h.el.setPointerCapture(ev.pointerId);
      } catch (e) {
        /* fine: moves outside the line are then missed */
      }
      function move(e) {
        var to = Math.max(0, Math.min(n - 1, from + Math.round((e.clientX - x0) / px)));
        if (to !== positions[i]) change(i, to, false);
      }
      function up() {
        h.el.removeEventListener('pointermove', move);
        h.el.removeEventListener('pointerup', up);
        h.el.removeEventListener('pointercancel', up);
        save();
      }
      h.el.addEventListener('pointermove', move);
      h.el.addEventListener('pointerup', up);
      h.el.addEventListener('pointercancel', up);
    }
    section.addEventListener('pointerdown', onDown);
    var sliders = form ? all(form, 'input[type="range"]') : [];

    function choiceIndex(el) {
      var m = /-(\d+)$/.exec(el.name || '');
      return m ? Number(m[1]) : -1;
    }

    /* The controls and the settings written on the diagrams, from positions. */
    function showSettings() {
      sliders.forEach(function (s) {
        var i = choiceIndex(s), v = choices[i].values[positions[i]];
        s.value = String(positions[i]);
        s.setAttribute('data-value', v.value);
        s.setAttribute('aria-valuetext', v.label);
        var out = form.querySelector('output[for="' + s.id + '"]');
        if (out) out.textContent = v.label;
      });
      if (form) {
        all(form, 'input[type="radio"]').forEach(function (r) {
          r.checked = Number(r.value) === positions[choiceIndex(r)];
        });
      }
      var key = [];
      choices.forEach(function (c, i) {
        if (!c.range) key.push(positions[i]);
      });
      key = key.join('.');
      drawings.forEach(function (d) {
        var was = d.hidden;
        d.hidden = d.getAttribute('data-options') !== key;
        if (was && !d.hidden && last) paint(last, d);
      });
      handles.forEach(function (h) {
        var i = h.choice, v = choices[i].values[positions[i]];
        h.el.setAttribute('aria-valuenow', String(positions[i]));
        h.el.setAttribute('aria-valuetext', v.label);
        if (h.el.hasAttribute('data-scrub')) h.el.textContent = v.label;
      });
      sweeps.forEach(function (sw) {
        sw.points.forEach(function (pt, k) {
          var cur = k === positions[sw.choice];
          if (cur === pt.hasAttribute('data-current')) return;
          if (cur) pt.setAttribute('data-current', '');
          else pt.removeAttribute('data-current');
          pt.setAttribute('r', cur ? '4.5' : '2');
        });
      });
      setEls.filter(drawn).forEach(function (el) {
        var path = el.getAttribute('data-set');
        for (var i = 0; i < choices.length; i++)
          if (choices[i].set === path) {
            var v = choices[i].values[positions[i]];
            el.textContent = v.drawn !== undefined ? v.drawn : v.label; /* a phrase: "the same wait each try" */
          }
      });
    }

    /* The text each measure shows now, by name (its first element outside
     * the diagrams of other options). */
    function shownMeasures() {
      var seen = {};
      all(section, '[data-measure]').forEach(function (el) {
        var name = el.getAttribute('data-measure');
        if (name in seen || (changed && changed.contains(el))) return;
        if (drawn(el)) seen[name] = el.textContent;
      });
      return seen;
    }

    /* The line of what a run changed, under the controls: each measure
     * whose text changed, old and new ("duplicates 110.3 → 147.2"); the
     * new value is a data-measure like every other number. */
    function showChanged(before, after) {
      if (!changed) return;
      var parts = [];
      Object.keys(after).forEach(function (name) {
        if (before[name] === undefined || before[name] === after[name]) return;
        var words = (data.labels && data.labels[name]) || name;
        parts.push({name: name, words: words.charAt(0).toLowerCase() + words.slice(1),
          was: before[name], now: after[name]});
      });
      if (!parts.length) return;
      while (changed.firstChild) changed.removeChild(changed.firstChild);
      /* the level's numbers are means of its runs: say so before them */
      if (data.replications > 1) changed.appendChild(document.createTextNode('Per run, on average: '));
      parts.forEach(function (p) {
        var span = document.createElement('span'), num = document.createElement('span');
        var was = document.createElement('span');
        span.className = 'bp-change';
        was.className = 'bp-was';
        was.textContent = p.was + ' \u2192 ';
        num.className = 'bp-num';
        num.setAttribute('data-measure', p.name);
        num.textContent = p.now;
        span.appendChild(document.createTextNode(p.words + ' '));
        span.appendChild(was);
        span.appendChild(num);
        changed.appendChild(span);
      });
      changed.hidden = false;
    }

    /* Not in a diagram of options not chosen: those are rewritten when
     * they are shown (a drag then lays out one drawing, not sixteen). */
    function drawn(el) {
      var d = el.closest('.bp-live-drawing');
      return !d || !d.hidden;
    }

    /* A run's numbers and verdicts into the elements under root. */
    function paint(r, root) {
      all(root, '[data-measure]').filter(drawn).forEach(function (el) {
        var m = r.measures[el.getAttribute('data-measure')];
        if (m) el.textContent = self.BpFmt.measure(el.getAttribute('data-measure'), m.mean);
      });
      all(root, '[data-goal]').filter(drawn).forEach(function (el) {
        var g = r.goals[el.getAttribute('data-goal')];
        if (!g) return;
        if (el.namespaceURI === 'http://www.w3.org/2000/svg') {
          el.setAttribute('fill', el.getAttribute(g.pass ? 'data-fill-pass' : 'data-fill-fail'));
          var mark = el.querySelector('[data-mark]');
          if (mark) mark.textContent = g.pass ? '\u2713 ' : '\u2717 ';
        } else {
          el.className = g.pass ? 'bp-pass' : 'bp-fail';
          el.textContent = g.pass ? 'Pass' : 'Fail';
        }
      });
    }

    /* Every number from a run's results. */
    function showResult(r, pos, ms, place) {
      var before = shownMeasures();
      last = r;
      paint(r, section);
      prose.forEach(function (el) {
        var m = r.measures[el.getAttribute('data-measure')];
        if (m) el.textContent = self.BpFmt.measure(el.getAttribute('data-measure'), m.mean);
      });
      var missed = 0, total = 0;
      Object.keys(r.goals).forEach(function (name) {
        total++;
        if (!r.goals[name].pass) missed++;
      });
      if (status) {
        status.textContent = missed === 0 ? 'Level complete: every goal is met.'
          : 'Not yet: ' + missed + ' of ' + total + ' goal' + plural(total, '', 's') + ' missed.';
      }
      if (!data.sandbox) section.classList.toggle('bp-complete', missed === 0);
      showChanged(before, shownMeasures());
      if (runsEl) runsEl.textContent = r.replications + plural(r.replications, ' run', ' runs');
      say('These numbers were measured in your browser just now' +
        (place === 'worker' ? ', in the background' : '') + ', by the same simulator, in ' +
        (ms < 10 ? ms.toFixed(1) : Math.round(ms)) + ' ms');
      section.classList.remove('bp-stale');
      section.setAttribute('data-measured', 'browser');
      section.setAttribute('data-state', pos.join('.'));
      section.dispatchEvent(new CustomEvent('bp-live-result',
        {detail: {ms: ms, place: place, state: pos.join('.')}}));
    }

    function stale(text, pos) {
      say(text);
      section.classList.add('bp-stale');
      section.setAttribute('data-measured', 'stale');
      section.setAttribute('data-state', pos.join('.'));
      section.dispatchEvent(new CustomEvent('bp-live-result',
        {detail: {ms: 0, place: 'none', state: pos.join('.')}}));
      idle();
    }

    function run() {
      if (!dirty || running || !loaded) return;
      dirty = false;
      var pos = positions.slice(), jobRuns = work(data, pos);
      if (jobRuns > MAX_JOB_RUNS) {
        stale('Not measured: this setting asks for ' + thousands(jobRuns) + ' simulated jobs ' +
          '(jobs \u00d7 runs), more than this page runs in your browser at once (' +
          thousands(MAX_JOB_RUNS) + '); the numbers below are from the last setting measured', pos);
        return;
      }
      var wire = assemble(prep, pos);
      var w = null;
      try {
        w = workerOf(data.static, loaded);
      } catch (e) {
        w = null;
      }
      if (!w) {
        /* no Web Worker here: small runs on the page's thread */
        if (jobRuns > MAIN_THREAD_JOB_RUNS) {
          stale('Not measured: this setting asks for ' + thousands(jobRuns) + ' simulated jobs, ' +
            'and without a Web Worker this page runs at most ' + thousands(MAIN_THREAD_JOB_RUNS) +
            ' at once', pos);
          return;
        }
        var t0 = performance.now(), r;
        try {
          r = loaded.sim.simulate(wire);
        } catch (e) {
          stale('Not measured: the simulator refused this setting (' + e.message + ')', pos);
          return;
        }
        showResult(r, pos, performance.now() - t0, 'main');
        return;
      }
      running = true;
      section.setAttribute('aria-busy', 'true');
      w.run(wire).then(function (out) {
        running = false;
        section.removeAttribute('aria-busy');
        showResult(out.result, pos, out.ms, 'worker');
        if (dirty) schedule();
        else idle();
      }, function (e) {
        running = false;
        section.removeAttribute('aria-busy');
        stale('Not measured: the simulator refused this setting (' + e.message + ')', pos);
        if (dirty) schedule();
        else idle();
      });
    }

    /* What waits for the level's own run: a sweep's next point is sent
     * only while no move is being measured, so on a machine with few
     * cores a drag's runs never share them with a sweep's. */
    var waiters = [];
    function whenIdle(fn) {
      if (!running && !dirty) fn();
      else waiters.push(fn);
    }
    function idle() {
      if (running || dirty) return;
      var now = waiters;
      waiters = [];
      now.forEach(function (fn) { fn(); });
    }

    /* One run per animation frame at most, of the latest state: the first
     * change of a frame runs at once, the later ones of that frame wait for
     * the next (a busy worker, or a module still loading, runs the latest
     * state when it is done). */
    function schedule() {
      dirty = true;
      if (framed) return;
      framed = true;
      run();
      requestAnimationFrame(function () {
        framed = false;
        if (dirty && !running && loaded) schedule();
      });
    }

    /* A move: the settings shown at once, a run scheduled. The fragment
     * is written when the move settles (a slider's change event, at the
     * end of a drag): history.replaceState on every input event costs the
     * page's thread and browsers throttle it. */
    function change(i, k, settled) {
      positions[i] = k;
      touched = true;
      showSettings();
      schedule();
      resweep();
      if (settled) save();
    }

    /* ---------------------------------------------------------- sweeps */

    /* A slider's sweep (live.c's chart): the measure at every value of the
     * slider, the other choices as they are. The build drew it for the
     * start; when the reader changes another choice, the sweep worker runs
     * every point once (one replication: the first pass, drawn at once),
     * then again with the level's replications (the refinement, drawn as
     * it comes). A change during a pass starts over with the latest
     * settings: what is under way is dropped. Every run is in the worker;
     * without one the chart stays the build's and says so. */
    var svgNS = 'http://www.w3.org/2000/svg';
    var sweeps = all(section, 'figure.bp-sweep').map(function (fig) {
      var i = choiceOfSet(fig.getAttribute('data-sweep'));
      var svg = fig.querySelector('svg'), plot = svg.getAttribute('data-plot').split(' ').map(Number);
      return {choice: i, fig: fig, svg: svg, plot: plot, measure: choices[i].sweep.measure,
        points: all(svg, '.bp-sweep-point'), line: svg.querySelector('.bp-sweep-line'),
        top: svg.querySelector('.bp-sweep-top'), where: fig.querySelector('.bp-sweep-where'),
        what: (fig.querySelector('.bp-sweep-what') || {textContent: ''}).textContent,
        key: others(data.start, i), gen: 0};
    });

    function others(pos, i) {
      return pos.filter(function (_, k) { return k !== i; }).join('.');
    }

    function drawSweep(sw, ys) {
      var p = sw.plot, top = 0;
      ys.forEach(function (y) { if (y > top) top = y; });
      var pts = [];
      sw.points.forEach(function (pt, k) {
        var y = p[3] - (top > 0 ? ys[k] / top : 0) * (p[3] - p[1]);
        pt.setAttribute('cy', y.toFixed(1));
        pt.setAttribute('data-y', self.BpFmt.measure(sw.measure, ys[k]));
        pts.push(pt.getAttribute('cx') + ',' + y.toFixed(1));
      });
      sw.line.setAttribute('points', pts.join(' '));
      sw.top.textContent = sw.what + (top > 0 ? ': highest ' + self.BpFmt.measure(sw.measure, top)
        : ': 0 at every value');
    }

    /* What each point is: the mean of the level's runs, or one run. */
    function perPoint(n) {
      return n > 1 ? 'the mean of ' + n + ' runs a point.' : 'one run a point.';
    }

    function sweepSays(sw, pass, text) {
      sw.fig.setAttribute('data-pass', pass);
      if (sw.where) sw.where.textContent = text;
      section.dispatchEvent(new CustomEvent('bp-sweep', {detail: {set: choices[sw.choice].set,
        pass: pass, at: performance.now()}}));
    }

    function resweep() {
      sweeps.forEach(function (sw) {
        var key = others(positions, sw.choice);
        if (key === sw.key || !loaded) return;
        sw.key = key;
        var gen = ++sw.gen;
        if (key === others(data.start, sw.choice)) { /* the build's points */
          drawSweep(sw, choices[sw.choice].sweep.y);
          sweepSays(sw, 'build', 'Measured when the page was built, ' + perPoint(data.replications));
          return;
        }
        var w = null;
        try {
          w = workerOf(data.static, loaded, 'sweep');
        } catch (e) {
          w = null;
        }
        if (!w || !prep.one) {
          sweepSays(sw, 'stale', 'Not redrawn for these settings: this browser has no Web ' +
            'Worker to measure it in.');
          return;
        }
        var pos = positions.slice(), n = choices[sw.choice].values.length, ys = [];
        var full = true, pass = 1, k = 0, framed = false;
        for (var j = 0; j < n; j++) {
          var p = pos.slice();
          p[sw.choice] = j;
          if (work(data, p) > MAX_JOB_RUNS) full = false;
        }
        sw.fig.setAttribute('data-pass', 'running');
        function draw() {
          framed = false;
          if (gen === sw.gen) drawSweep(sw, ys);
        }
        function next() {
          if (gen !== sw.gen) return;
          if (k === n) {
            drawSweep(sw, ys);
            if (pass === 2 || !full) {
              sweepSays(sw, 'full', 'Measured in your browser just now, ' +
                (full ? perPoint(data.replications) : 'one run a point (more would ' +
                  'take too long here).'));
              return;
            }
            sweepSays(sw, 'first', 'Measured in your browser just now, one run a point; ' +
              'measuring ' + data.replications + ' runs a point\u2026');
            pass = 2;
            k = 0;
          }
          var at = pos.slice();
          at[sw.choice] = k;
          whenIdle(function () {
            if (gen === sw.gen) w.run(assemble(prep, at, pass === 1)).then(got, failed);
          });
        }
        function got(out) {
          if (gen !== sw.gen) return;
          ys[k] = out.result.measures[sw.measure].mean;
          k++;
          if (pass === 2 && !framed) {
            framed = true;
            requestAnimationFrame(draw);
          }
          next();
        }
        function failed(e) {
          if (gen === sw.gen) sweepSays(sw, 'stale', 'Not redrawn: ' + e.message + '.');
        }
        next();
      });
    }

    if (form) {
      form.addEventListener('input', function (ev) {
        var t = ev.target, i = choiceIndex(t);
        if (i < 0 || !choices[i]) return;
        if (t.type === 'range') change(i, Number(t.value), false);
      });
      form.addEventListener('change', function (ev) {
        var t = ev.target, i = choiceIndex(t);
        if (i < 0 || !choices[i]) return;
        if (t.type === 'radio' && t.checked) change(i, Number(t.value), true);
        else if (t.type === 'range') save(); /* its input events made the move */
      });
      form.addEventListener('submit', function (ev) {
        ev.preventDefault();
      });
    }
    if (reset) {
      reset.addEventListener('click', function () {
        positions = data.start.slice();
        touched = false;
        showSettings();
        schedule();
        resweep();
        save();
      });
    }

    say('These numbers were measured when the page was built; the simulator is loading');
    loadModule(data.static).then(function (l) {
      loaded = l;
      handles = makeHandles();
      showSettings();
      try {
        workerOf(data.static, loaded); /* started now: the first move waits for no script */
      } catch (e) {
        /* none: runs stay on the page's thread */
      }
      if (form) form.hidden = false;
      if (startNote) startNote.hidden = true;
      if (reset) reset.hidden = false;
      if (how) how.hidden = true;
      section.classList.add('bp-live');
      section.setAttribute('data-measured', touched ? 'pending' : 'build');
      section.setAttribute('data-state', positions.join('.'));
      resweep();
      if (touched) schedule();
      else say('These numbers were measured when the page was built; move a setting and ' +
        'your browser measures them again');
    }, function (e) {
      say('These numbers were measured when the page was built; the simulator could not be ' +
        'loaded here (' + e.message + ')');
      if (how) how.hidden = true;
      section.setAttribute('data-measured', 'build');
    });

    return {
      token: function () {
        return touched ? section.id + '=' + positions.join('.') : null;
      },
      restore: function (t) {
        var pos = parseState(t, section.id, choices.map(function (c) { return c.values.length; }));
        if (!pos) return false;
        positions = pos;
        touched = true;
        showSettings();
        if (loaded) {
          schedule();
          resweep();
        }
        return true;
      },
      element: section
    };
  }

  return {
    prepare: prepare,
    assemble: assemble,
    work: work,
    widget: widget,
    MAIN_THREAD_JOB_RUNS: MAIN_THREAD_JOB_RUNS,
    MAX_JOB_RUNS: MAX_JOB_RUNS
  };
});
