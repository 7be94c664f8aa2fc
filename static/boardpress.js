/* boardpress.js — the page script: a board switcher for each compare, the
 * mini-board toggle and the playable levels, all over numbers measured at
 * build time and embedded in the page (no server, no dependencies).
 *
 * Without this script every page still reads: all boards are shown, and each
 * widget shows its starting state. The generator marks the controls that only
 * work with the script `hidden`; this script un-hides them.
 *
 * State lives in the URL fragment, one token per widget the reader touched,
 * joined with '&', in page order:
 *   board-ID            a compare shows the board whose figure has this id
 *   level-ID=I.J.K      a level's chosen option per choice (0-based; for a
 *                       live level's slider, its step from the min)
 * so "#board-key-checked" or "#level-safe-consumer=1.0.1" links to a state.
 * The script rewrites the fragment with history.replaceState (no history
 * entries, no scrolling) and follows it again on hashchange. */
(function () {
  'use strict';

  var widgets = [];

  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  function setPressed(button, on) {
    button.setAttribute('aria-pressed', on ? 'true' : 'false');
  }

  /* ------------------------------------------------------------ fragment */

  function fragmentTokens() {
    var h = location.hash.replace(/^#/, '');
    if (!h) return [];
    try {
      h = decodeURIComponent(h);
    } catch (e) {
      /* a malformed escape: read it as written */
    }
    return h.split('&');
  }

  /* A level's state in a token "ID=I.J.K" (one position per choice, each
   * below its choice's count in counts): the positions, or null when the
   * token is not one of this level's. Live levels read theirs with it too
   * (bp-live.js). */
  function parseState(t, id, counts) {
    var eq = t.lastIndexOf('=');
    if (eq < 0 || t.slice(0, eq) !== id) return null;
    var parts = t.slice(eq + 1).split('.');
    if (parts.length !== counts.length) return null;
    var out = [];
    for (var i = 0; i < parts.length; i++) {
      if (!/^\d+$/.test(parts[i])) return null;
      var k = Number(parts[i]);
      if (k >= counts[i]) return null;
      out.push(k);
    }
    return out;
  }

  /* Writes the tokens of every touched widget, in page order. */
  function saveFragment() {
    var tokens = [];
    widgets.forEach(function (w) {
      var t = w.token();
      if (t) tokens.push(t);
    });
    var url = location.href.replace(/#.*$/, '') + (tokens.length ? '#' + tokens.join('&') : '');
    if (url === location.href) return;
    try {
      history.replaceState(history.state, '', url);
    } catch (e) {
      /* some file:// set-ups refuse; the page still works */
    }
  }

  /* Applies every token a widget claims; returns the first widget that took
   * one (the page scrolls to it on load when the browser did not). */
  function applyFragment() {
    var first = null;
    fragmentTokens().forEach(function (t) {
      for (var i = 0; i < widgets.length; i++) {
        if (widgets[i].restore(t)) {
          if (!first) first = widgets[i];
          return;
        }
      }
    });
    return first;
  }

  /* ------------------------------------------------------------ switcher */

  /* A compare: buttons pick which board's figure is shown; the table column
   * of that board is highlighted. Figures stay stacked in one grid cell, so
   * switching never moves what follows. */
  function Compare(section) {
    var switcher = section.querySelector('.bp-switcher');
    var buttons = all(switcher, 'button.bp-switch[data-board]');
    var figures = all(section, '.bp-compare-boards > figure.bp-board[data-board]');
    var cells = all(section, 'table th[data-board], table td[data-board]');
    var current = null;
    var start = null;
    var touched = false;

    function figureOf(board) {
      for (var i = 0; i < figures.length; i++)
        if (figures[i].getAttribute('data-board') === board) return figures[i];
      return null;
    }

    function show(board) {
      if (!figureOf(board)) return false;
      current = board;
      buttons.forEach(function (b) {
        setPressed(b, b.getAttribute('data-board') === board);
      });
      figures.forEach(function (f) {
        var on = f.getAttribute('data-board') === board;
        f.classList.toggle('bp-off', !on);
      });
      cells.forEach(function (c) {
        c.classList.toggle('bp-col-on', c.getAttribute('data-board') === board);
      });
      return true;
    }

    buttons.forEach(function (b, i) {
      var fig = figureOf(b.getAttribute('data-board'));
      if (fig && fig.id) b.setAttribute('aria-controls', fig.id);
      if (b.getAttribute('aria-pressed') === 'true' && start === null)
        start = b.getAttribute('data-board');
      b.addEventListener('click', function () {
        touched = true;
        show(b.getAttribute('data-board'));
        saveFragment();
      });
      /* Arrow keys, Home and End move between the buttons; Enter or Space
       * (native button keys) selects. */
      b.addEventListener('keydown', function (ev) {
        var to = -1;
        if (ev.key === 'ArrowRight' || ev.key === 'ArrowDown') to = (i + 1) % buttons.length;
        else if (ev.key === 'ArrowLeft' || ev.key === 'ArrowUp')
          to = (i - 1 + buttons.length) % buttons.length;
        else if (ev.key === 'Home') to = 0;
        else if (ev.key === 'End') to = buttons.length - 1;
        if (to < 0) return;
        ev.preventDefault();
        buttons[to].focus();
      });
    });
    if (start === null && buttons.length) start = buttons[0].getAttribute('data-board');

    show(start);
    section.classList.add('bp-live');
    switcher.hidden = false;

    return {
      token: function () {
        if (!touched) return null;
        var f = figureOf(current);
        return f && f.id ? f.id : null;
      },
      restore: function (t) {
        for (var i = 0; i < figures.length; i++) {
          if (figures[i].id === t) {
            touched = true;
            show(figures[i].getAttribute('data-board'));
            return true;
          }
        }
        return false;
      },
      element: section
    };
  }

  /* ------------------------------------------------------------ levels */

  /* A level's diagram comes as a <picture> (generator/render/figure.c):
   * three <source>s (wide dark, wide, narrow dark) and the <img> (narrow).
   * Each combination in the page data names its files and sizes in that
   * order: "svg", "w", "h" for the <img>, "sources" and "sizes" for the
   * sources. Its timelines are in the page, one figure per combination
   * (data-combo), all but the starting one in a <template>
   * (generator/render/levels.c). */
  function sourcesOf(img) {
    var pic = img && img.parentNode;
    if (!pic || pic.nodeName !== 'PICTURE') return [];
    return all(pic, 'source');
  }

  /* The largest of each rendering of the combinations' diagrams, so its
   * box can be reserved and swapping pictures never moves what follows. */
  function largest(combos) {
    var out = { w: 0, h: 0, sources: [] };
    combos.forEach(function (c) {
      if (!c.svg) return;
      if (c.w > out.w) out.w = c.w;
      if (c.h > out.h) out.h = c.h;
      (c.sizes || []).forEach(function (wh, i) {
        var s = out.sources[i] || (out.sources[i] = { w: 0, h: 0 });
        if (wh[0] > s.w) s.w = wh[0];
        if (wh[1] > s.h) s.h = wh[1];
      });
    });
    return out.w > 0 && out.h > 0 ? out : null;
  }

  /* Which rendering the browser shows: the index of its <source>, or the
   * number of sources for the <img>'s own file. */
  function shownVariant(img) {
    var file = (img.currentSrc || '').split('/').pop();
    var sources = sourcesOf(img);
    for (var i = 0; i < sources.length; i++)
      if (file && sources[i].getAttribute('srcset') === file) return i;
    return sources.length;
  }

  /* Every rendering's box is its largest over the combinations; the shown
   * one's proportions hold the box while a loaded picture (whose own are
   * smaller) sits in it, and again whenever the browser switches
   * rendering (a resize, the theme). */
  function reserve(img, size) {
    if (!img || !size) return;
    img.setAttribute('width', String(size.w));
    img.setAttribute('height', String(size.h));
    var sources = sourcesOf(img);
    sources.forEach(function (s, i) {
      var wh = size.sources[i];
      if (!wh) return;
      s.setAttribute('width', String(wh.w));
      s.setAttribute('height', String(wh.h));
    });
    function fit() {
      var i = shownVariant(img);
      var wh = i < sources.length ? size.sources[i] : size;
      if (wh) img.style.aspectRatio = wh.w + ' / ' + wh.h;
    }
    fit();
    img.addEventListener('load', fit);
    img.classList.add('bp-reserved');
  }

  function swap(img, src, sources, alt) {
    if (!img || !src) return;
    sourcesOf(img).forEach(function (s, i) {
      if (sources && sources[i] && s.getAttribute('srcset') !== sources[i])
        s.setAttribute('srcset', sources[i]);
    });
    if (img.getAttribute('src') !== src) img.setAttribute('src', src);
    img.setAttribute('alt', alt || '');
  }

  /* A level's page data (its <script class="bp-data">), or null when it
   * has none that parses. Live levels get theirs from here too. */
  function pageData(section) {
    var el = section.querySelector('script.bp-data');
    if (!el) return null;
    try {
      return JSON.parse(el.textContent);
    } catch (e) {
      return null;
    }
  }

  /* A level, or (class bp-toggle) a mini board with one on/off choice. The
   * page data holds every combination; combination index = options read as
   * a mixed-radix number, the first choice most significant. */
  function Level(section) {
    var data = pageData(section);
    if (!data) return null;
    var choices = data.choices || [];
    var combos = data.combos || [];
    if (!choices.length || !combos.length) return null;
    var id = section.id;
    var opts = comboOptions(data.start);
    var touched = false;

    var counts = section.querySelector('.bp-counts');
    var diagram = section.querySelector('img.bp-level-diagram');
    var timelines = section.querySelector('.bp-level-timelines');
    var status = section.querySelector('.bp-level-status');
    var goalsBody = section.querySelector('table.bp-goals tbody');
    var reset = section.querySelector('button.bp-reset');
    var form = section.querySelector('form.bp-choices');
    var startNote = section.querySelector('.bp-level-start');
    var toggleBtn = section.querySelector('button.bp-toggle-btn');
    var toggleValue = section.querySelector('.bp-toggle-value');

    function comboOptions(c) {
      var o = [];
      for (var i = choices.length - 1; i >= 0; i--) {
        var n = choices[i].options.length;
        o[i] = c % n;
        c = Math.floor(c / n);
      }
      return o;
    }

    function comboIndex(o) {
      var c = 0;
      for (var i = 0; i < choices.length; i++) c = c * choices[i].options.length + o[i];
      return c;
    }

    function render() {
      var combo = combos[comboIndex(opts)];
      if (!combo) return;
      if (counts && combo.counts !== undefined) counts.textContent = combo.counts;
      swap(diagram, combo.svg, combo.sources, combo.alt);
      if (timelines) showTimeline(comboIndex(opts));
      if (goalsBody && combo.goals) {
        combo.goals.forEach(function (g) {
          var row = goalsBody.querySelector('tr[data-measure="' + g.measure + '"]');
          if (!row) return;
          var num = row.querySelector('.bp-num');
          if (num) num.textContent = g.value;
          var verdict = row.querySelector('.bp-pass, .bp-fail');
          if (verdict) {
            verdict.className = g.pass ? 'bp-pass' : 'bp-fail';
            verdict.textContent = g.pass ? 'Pass' : 'Fail';
          }
        });
      }
      if (status && combo.status !== undefined) status.textContent = combo.status;
      section.classList.toggle('bp-complete', !!combo.win);
      if (toggleBtn) setPressed(toggleBtn, opts[0] === 1);
      if (toggleValue) toggleValue.textContent = choices[0].options[opts[0]];
      if (form) {
        choices.forEach(function (ch, i) {
          all(form, 'input[type="radio"][name="' + data.id + '-' + i + '"]').forEach(function (r) {
            r.checked = Number(r.value) === opts[i];
          });
        });
      }
    }

    /* The timelines share one grid cell (boardpress.css), so switching
     * never moves what follows: the chosen one shown, the others hidden
     * and out of reach (a stepper playing there stops: bp-hide). */
    function showTimeline(c) {
      all(timelines, 'figure.bp-timeline[data-combo]').forEach(function (f) {
        var on = Number(f.getAttribute('data-combo')) === c;
        if (!on && !f.classList.contains('bp-off')) f.dispatchEvent(new CustomEvent('bp-hide'));
        f.classList.toggle('bp-off', !on);
        f.inert = !on;
      });
    }

    function choose(o, fromReader) {
      opts = o;
      if (fromReader) touched = true;
      render();
      saveFragment();
    }

    if (toggleBtn) {
      toggleBtn.addEventListener('click', function () {
        var o = opts.slice();
        o[0] = o[0] === 1 ? 0 : 1;
        choose(o, true);
      });
      toggleBtn.hidden = false;
    }
    if (form) {
      form.addEventListener('change', function (ev) {
        var t = ev.target;
        if (!t || t.type !== 'radio') return;
        var m = /-(\d+)$/.exec(t.name);
        if (!m) return;
        var o = opts.slice();
        o[Number(m[1])] = Number(t.value);
        choose(o, true);
      });
      form.addEventListener('submit', function (ev) {
        ev.preventDefault();
      });
      form.hidden = false;
      if (startNote) startNote.hidden = true;
    }
    if (reset) {
      reset.addEventListener('click', function () {
        touched = false;
        choose(comboOptions(data.start), false);
      });
      reset.hidden = false;
    }

    /* The verdict is as tall as the tallest it can say (one line where
     * every one fits on one), so a switch never moves what follows. */
    function fitStatus() {
      if (!status) return;
      var text = status.textContent, won = section.classList.contains('bp-complete'), most = 0;
      status.style.minHeight = '';
      combos.forEach(function (c) {
        if (c.status === undefined) return;
        status.textContent = c.status;
        section.classList.toggle('bp-complete', !!c.win);
        most = Math.max(most, status.offsetHeight);
      });
      status.textContent = text;
      section.classList.toggle('bp-complete', won);
      status.style.minHeight = most + 'px';
    }

    reserve(diagram, largest(combos));
    if (timelines) {
      all(timelines, 'template[data-combo]').forEach(function (t) {
        timelines.replaceChild(document.importNode(t.content, true), t);
      });
    }
    section.classList.add('bp-live');
    render();
    fitStatus();
    window.addEventListener('resize', fitStatus);

    return {
      token: function () {
        return touched && id ? id + '=' + opts.join('.') : null;
      },
      restore: function (t) {
        var o = parseState(t, id, choices.map(function (c) { return c.options.length; }));
        if (!o) return false;
        touched = true;
        opts = o;
        render();
        return true;
      },
      element: section
    };
  }

  /* ------------------------------------------------------------ timelines */

  /* A timeline to step through. The figure carries its rows' words
   * (data-rows, '|' between: "20 ms: payment 1") and its drawings one
   * element per row (rect[data-row=N], with the lanes it is on,
   * data-lanes) and per lane header (rect[data-lane=N]); repeated rows
   * sit in a <details class="bp-fold" data-span="FIRST END"> each
   * (generator/render/figure.c). activate marks row i and its lanes
   * data-active in every rendering, opens the fold that hides it and
   * brings it into view; -1 clears. bp-replay.js uses it too. */
  function visibleLook(fig) {
    var looks = all(fig, '.bp-v');
    for (var k = 0; k < looks.length; k++) if (looks[k].offsetParent !== null) return looks[k];
    return null;
  }

  function reveal(fig, i) {
    var look = visibleLook(fig);
    var band = look && look.querySelector('rect[data-row="' + i + '"]');
    if (!band) return;
    var y = parseFloat(band.getAttribute('y')), h = parseFloat(band.getAttribute('height'));
    var pieces = all(look, 'svg[viewBox]').filter(function (svg) { return svg.parentNode === look ||
      svg.parentNode.open; });
    for (var k = 0; k < pieces.length; k++) {
      var vb = pieces[k].getAttribute('viewBox').split(' ').map(Number);
      if (y + h / 2 < vb[1] || y + h / 2 >= vb[1] + vb[3]) continue;
      var r = pieces[k].getBoundingClientRect(), scale = r.height / vb[3];
      var top = r.top + (y - vb[1]) * scale, bottom = top + h * scale;
      var room = window.innerHeight - 96; /* the step controls stick to the bottom */
      if (top < 8) window.scrollBy(0, top - 8);
      else if (bottom > room) window.scrollBy(0, bottom - room);
      return;
    }
  }

  /* The mark is painted by attributes, not only by the stylesheet: the
   * pieces of a folded drawing are copies (<use>) that take the
   * element's attributes but not the page's rules. */
  function mark(el, on, ink) {
    if (on) {
      el.setAttribute('data-active', '');
      el.setAttribute('fill', ink);
      el.setAttribute('fill-opacity', '0.16');
      el.setAttribute('stroke', ink);
      el.setAttribute('stroke-width', '2');
    } else if (el.hasAttribute('data-active')) {
      el.removeAttribute('data-active');
      el.setAttribute('fill', 'none');
      ['fill-opacity', 'stroke', 'stroke-width'].forEach(function (a) { el.removeAttribute(a); });
    }
  }

  function activate(fig, i) {
    var lanes = [], ink = getComputedStyle(fig).getPropertyValue('--accent').trim() || '#1a5aa6';
    all(fig, 'rect[data-row]').forEach(function (el) {
      var on = Number(el.getAttribute('data-row')) === i;
      if (on) lanes = el.getAttribute('data-lanes').split(' ');
      mark(el, on, ink);
    });
    all(fig, 'rect[data-lane]').forEach(function (el) {
      mark(el, lanes.indexOf(el.getAttribute('data-lane')) >= 0, ink);
    });
    all(fig, 'details.bp-fold').forEach(function (d) {
      var span = d.getAttribute('data-span').split(' ').map(Number);
      if (i >= span[0] && i < span[1]) d.open = true;
    });
    if (i >= 0) reveal(fig, i);
  }

  window.BpTimeline = {activate: activate};

  function button(text, step) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.setAttribute('data-step', step);
    return b;
  }

  /* Buttons under the drawing: the previous event, the next, and play
   * (one event a second until the last, or pause). */
  function Timeline(fig) {
    var rows = (fig.getAttribute('data-rows') || '').split('|');
    var where = fig.querySelector('.bp-variants');
    if (!rows[0] || !where || fig.querySelector('.bp-step')) return;
    var box = document.createElement('div'), now = document.createElement('p');
    var back = button('Previous', 'back'), next = button('Next event', 'next');
    var play = button('Play', 'play');
    box.className = 'bp-step';
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', 'Step through the timeline');
    now.className = 'bp-step-now';
    now.setAttribute('aria-live', 'polite');
    now.textContent = rows.length + ' events: step through them one at a time.';
    setPressed(play, false);
    [back, next, play, now].forEach(function (el) { box.appendChild(el); });
    where.parentNode.insertBefore(box, where.nextSibling);
    var at = -1, timer = null;
    function show(i) {
      at = Math.max(0, Math.min(rows.length - 1, i));
      activate(fig, at);
      now.textContent = 'Event ' + (at + 1) + ' of ' + rows.length + ': ' + rows[at];
      back.disabled = at === 0;
    }
    function stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      play.textContent = 'Play';
      setPressed(play, false);
    }
    function tick() {
      if (at + 1 >= rows.length) return stop();
      show(at + 1);
      timer = setTimeout(tick, 1000);
    }
    back.disabled = true;
    fig.addEventListener('bp-hide', stop);
    back.addEventListener('click', function () { stop(); show(at - 1); });
    next.addEventListener('click', function () { stop(); show(at + 1 < rows.length ? at + 1 : 0); });
    play.addEventListener('click', function () {
      if (timer) return stop();
      if (at + 1 >= rows.length) at = -1;
      play.textContent = 'Pause';
      setPressed(play, true);
      tick();
    });
  }

  /* A level's verdict (or live line) is sticky to the viewport's edges;
   * a timeline's step buttons in the level are sticky to its bottom too.
   * The level keeps the verdict's height in --bp-status-h, which the
   * stylesheet puts under the buttons, so the verdict never covers them. */
  function StatusHeight(section) {
    var bar = section.querySelector('.bp-level-now') || section.querySelector('.bp-level-status');
    if (!bar || !section.querySelector('figure.bp-timeline[data-rows]')) return;
    function keep() { section.style.setProperty('--bp-status-h', bar.offsetHeight + 'px'); }
    keep();
    if (window.ResizeObserver) new ResizeObserver(keep).observe(bar);
    else window.addEventListener('resize', keep);
  }

  /* ------------------------------------------------------------ start */

  function init() {
    all(document, 'section.bp-compare, section.bp-level').forEach(function (s) {
      var w = null;
      /* a live level re-simulates in the browser: bp-live.js, loaded before
       * this script on the pages that have one */
      if (s.classList.contains('bp-live-level')) w = window.BpLive ? BpLive.widget(s, pageData(s), saveFragment, parseState) : null;
      else if (s.classList.contains('bp-level')) w = Level(s);
      else if (s.querySelector('.bp-switcher')) w = Compare(s);
      if (w) widgets.push(w);
    });
    all(document, 'figure.bp-timeline[data-rows]').forEach(Timeline);
    all(document, 'section.bp-level').forEach(StatusHeight);
    document.documentElement.classList.add('bp-js');
    var first = applyFragment();
    /* A level token names no element, so the browser did not scroll. */
    if (first && !document.getElementById(location.hash.replace(/^#/, '')))
      first.element.scrollIntoView();
    /* A link to a state was followed; other fragments (a heading's anchor)
     * leave the widgets as the reader set them. */
    window.addEventListener('hashchange', applyFragment);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
