// live.js — the page script of `boardpress serve` (generator/preview/), put
// into every page as served (never into the files in --out) and built into
// the program. It listens to the server's event stream (/__boardpress/events)
// and after each build:
//   - a failed build: shows its errors over the page (the last good one),
//     each as the terminal prints it, with the source line and a caret;
//   - a good build: removes them; reloads the page when its own bytes or a
//     file it uses (an image, a script) changed, keeping the scroll position
//     and the URL fragment (a level's chosen options); swaps a changed
//     stylesheet in place, without a reload.
// Every tab of a browser shares one stream through a SharedWorker (this same
// file, run as the worker): a browser opens at most six connections to one
// server, and a stream per tab would leave the seventh tab loading forever.
// Without SharedWorker (Chrome on Android), each tab opens its own stream.
'use strict';

const EVENTS = '/__boardpress/events';

if (typeof document === 'undefined') {
  // ---------------------------------------------------------- the shared worker
  const ports = new Set();
  let hello = null; // the state as the last event left it, for a tab that connects
  const source = new EventSource(EVENTS);
  const relay = (kind) => (e) => {
    const data = JSON.parse(e.data);
    hello = { kind: 'hello', data: { gen: data.gen, ok: data.ok, errors: data.errors } };
    for (const port of ports) port.postMessage({ kind, data });
  };
  source.addEventListener('hello', relay('hello'));
  source.addEventListener('build', relay('build'));
  self.onconnect = (e) => {
    const port = e.ports[0];
    ports.add(port);
    port.onmessage = (m) => {
      if (m.data === 'bye') ports.delete(port); // the tab went away (or into the back-forward cache)
      if (m.data === 'hi') ports.add(port); // ... and came back
    };
    port.start();
    if (hello) port.postMessage(hello);
  };
} else {
  // ---------------------------------------------------------- the page
  const script = document.currentScript;
  const etag = script && script.dataset.etag ? `"${script.dataset.etag}"` : null;
  const SCROLL_KEY = 'bp-live-scroll';
  let lastGen = null;

  const decode = (p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  };
  // An URL as the paths of the events name files: "/slug/index.html".
  const fileOf = (href) => {
    const url = new URL(href, location.href);
    if (url.origin !== location.origin) return null;
    const p = decode(url.pathname);
    return p.endsWith('/') ? p + 'index.html' : p;
  };
  const own = fileOf(location.href);

  // The scroll position a reload of this page saved, put back.
  try {
    const saved = JSON.parse(sessionStorage.getItem(SCROLL_KEY) || 'null');
    sessionStorage.removeItem(SCROLL_KEY);
    if (saved && saved.path === own && Date.now() - saved.at < 30000) {
      const put = () => window.scrollTo(saved.x, saved.y);
      put();
      if (document.readyState !== 'complete') window.addEventListener('load', put, { once: true });
    }
  } catch {
    // no sessionStorage (a privacy setting): the browser's own restoring
  }

  const reload = () => {
    try {
      history.scrollRestoration = 'manual';
      sessionStorage.setItem(
        SCROLL_KEY,
        JSON.stringify({ path: own, x: window.scrollX, y: window.scrollY, at: Date.now() }),
      );
    } catch {
      // as above
    }
    location.reload(); // the URL stays, its fragment too
  };

  // Whether this page as the server has it now is still the one shown
  // (after a reconnect, or builds this page did not hear of). The server's
  // "not found" page has no ETag: asking would only log a 404; it reloads
  // when it missed something.
  const checkSelf = (first) => {
    if (etag === null) {
      if (!first) reload();
      return;
    }
    fetch(location.href.split('#')[0], { method: 'HEAD', cache: 'no-store' })
      .then((r) => {
        const now = r.ok ? r.headers.get('ETag') : null;
        if (now !== etag) reload();
      })
      .catch(() => {});
  };

  // Every file this page uses, as a file path.
  const used = () => {
    const files = new Set();
    for (const e of performance.getEntriesByType('resource')) files.add(fileOf(e.name));
    for (const el of document.querySelectorAll('img[src], script[src], source[src], object[data]'))
      files.add(fileOf(el.src || el.data));
    return files;
  };

  const swapSheet = (link, gen) => {
    const url = new URL(link.href);
    url.searchParams.set('bp-live', gen);
    const next = link.cloneNode();
    next.href = url.href;
    next.addEventListener('load', () => link.remove(), { once: true });
    next.addEventListener('error', () => next.remove(), { once: true });
    link.after(next);
  };

  const apply = (d) => {
    if (d.changed === 'all') return reload();
    const changed = new Set(d.changed);
    if (changed.has(own)) return reload();
    const sheets = [...document.querySelectorAll('link[rel~="stylesheet"][href]')].filter((l) =>
      changed.has(fileOf(l.href)),
    );
    const sheetFiles = new Set(sheets.map((l) => fileOf(l.href)));
    for (const f of used()) if (changed.has(f) && !sheetFiles.has(f)) return reload();
    for (const l of sheets) swapSheet(l, d.gen);
  };

  // ---------------------------------------------------------- the errors overlay
  const CSS = `
:host { all: initial; }
.backdrop { position: fixed; inset: 0; z-index: 2147483646; background: rgb(0 0 0 / 0.45); }
section { position: fixed; z-index: 2147483647; inset: 2rem 1rem auto; max-width: 60rem;
  max-height: calc(100vh - 4rem); overflow: auto; margin: 0 auto; box-sizing: border-box;
  padding: 1.25rem 1.5rem; border-radius: 0.5rem; border-top: 0.4rem solid #c62828;
  background: #fff; color: #1b1b1b; font: 1rem/1.45 system-ui, sans-serif;
  box-shadow: 0 0.5rem 2rem rgb(0 0 0 / 0.35); }
section:focus { outline: 3px solid #1565c0; outline-offset: 2px; }
h2 { margin: 0 0 0.5rem; font-size: 1.2rem; color: #b71c1c; }
p { margin: 0 0 1rem; }
ol { margin: 0 0 1rem; padding: 0; list-style: none; }
li { margin: 0 0 0.75rem; }
pre { margin: 0; padding: 0.75rem; overflow-x: auto; border-radius: 0.3rem; tab-size: 8;
  background: #f6f6f6; font: 0.875rem/1.5 ui-monospace, "DejaVu Sans Mono", monospace;
  white-space: pre; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.where { color: #555; }
.caret, .hint { color: #b71c1c; font-weight: bold; }
button { font: inherit; padding: 0.35rem 0.9rem; border-radius: 0.3rem;
  border: 1px solid #777; background: #eee; color: inherit; cursor: pointer; }
button:focus-visible { outline: 3px solid #1565c0; outline-offset: 2px; }
.badge { position: fixed; z-index: 2147483647; right: 1rem; bottom: 1rem;
  border-color: #c62828; background: #c62828; color: #fff; font-weight: bold; }
@media (prefers-color-scheme: dark) {
  section { background: #1f1f1f; color: #eee; }
  h2, .caret, .hint { color: #ff8a80; }
  pre { background: #2b2b2b; }
  .where { color: #aaa; }
  button { background: #333; border-color: #888; }
  .badge { background: #b71c1c; }
}`;

  let host = null; // the overlay's element, in the page while a build has failed
  let dismissed = null; // the generation whose errors Escape hid
  let before = null; // what had the focus before the overlay took it

  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    e.append(...kids);
    return e;
  };

  // One error as the terminal prints it, then its source line with the line
  // number and a caret under the column, then the hint.
  const errorItem = (e) => {
    const pre = el('pre', {}, el('span', { class: 'text' }, e.text));
    if (e.source !== null && e.line > 0) {
      const num = String(e.line);
      const gutter = ' '.repeat(Math.max(0, 5 - num.length)) + num + ' | ';
      pre.append('\n', el('span', { class: 'where' }, gutter), e.source);
      if (e.caret !== null)
        pre.append(
          '\n',
          el('span', { class: 'where' }, ' '.repeat(gutter.length - 2) + '| '),
          el('span', { class: 'caret' }, e.caret),
        );
    }
    if (e.hint) pre.append('\n', el('span', { class: 'hint' }, 'hint: '), e.hint);
    return el('li', {}, pre);
  };

  const parts = () => host && host.shadowRoot;

  const show = () => {
    const root = parts();
    root.querySelector('.backdrop').hidden = false;
    root.querySelector('section').hidden = false;
    root.querySelector('.badge').hidden = true;
    if (!before || !before.isConnected) before = document.activeElement;
    root.querySelector('section').focus();
  };

  const hide = () => {
    const root = parts();
    if (!root || root.querySelector('section').hidden) return;
    root.querySelector('.backdrop').hidden = true;
    root.querySelector('section').hidden = true;
    root.querySelector('.badge').hidden = false;
    dismissed = lastGen;
    if (before && before.isConnected && before.focus) before.focus();
    before = null;
  };

  const clearErrors = () => {
    if (!host) return;
    host.remove();
    host = null;
    dismissed = null;
    if (before && before.isConnected && before.focus) before.focus();
    before = null;
  };

  const showErrors = (errors, gen) => {
    const n = errors.length;
    const title = `The rebuild failed: ${n} error${n === 1 ? '' : 's'}`;
    if (!host) {
      host = el('div', { id: 'bp-live-errors' });
      host.attachShadow({ mode: 'open' });
      document.body.append(host);
    }
    const root = host.shadowRoot;
    root.replaceChildren(
      el('style', {}, CSS),
      el('div', { class: 'backdrop' }),
      el(
        'section',
        {
          role: 'alertdialog',
          'aria-modal': 'true',
          'aria-labelledby': 'bp-live-title',
          'aria-describedby': 'bp-live-about',
          tabindex: '-1',
        },
        el('h2', { id: 'bp-live-title' }, title),
        el(
          'p',
          { id: 'bp-live-about' },
          'The page below is the last good build. Fix the source and save: this goes away ' +
            'by itself after the next good build. Escape hides it.',
        ),
        el('ol', {}, ...errors.map(errorItem)),
        el('button', { type: 'button', class: 'close' }, 'Hide (Esc)'),
      ),
      el('button', { type: 'button', class: 'badge', hidden: '' }, title),
    );
    root.querySelector('.close').addEventListener('click', hide);
    root.querySelector('.badge').addEventListener('click', show);
    if (dismissed === gen) {
      root.querySelector('.backdrop').hidden = true;
      root.querySelector('section').hidden = true;
      root.querySelector('.badge').hidden = false;
    } else {
      show();
    }
  };

  document.addEventListener(
    'keydown',
    (e) => {
      const root = parts();
      if (!root || root.querySelector('section').hidden) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        hide();
      } else if (e.key === 'Tab') {
        // the dialog is modal: the focus stays between it and its button
        e.preventDefault();
        const section = root.querySelector('section');
        const close = root.querySelector('.close');
        (root.activeElement === close ? section : close).focus();
      }
    },
    true,
  );

  // ---------------------------------------------------------- the events
  const onEvent = (kind, d) => {
    const missed = lastGen !== null && d.gen !== lastGen + (kind === 'build' ? 1 : 0);
    const first = lastGen === null;
    lastGen = d.gen;
    if (!d.ok) {
      showErrors(d.errors, d.gen);
      if (first || missed) checkSelf(first);
      return;
    }
    clearErrors();
    if (kind === 'build' && !missed) apply(d);
    else if (first || missed) checkSelf(first);
  };

  let worker = null;
  try {
    worker = typeof SharedWorker === 'function' ? new SharedWorker(script.src) : null;
  } catch {
    worker = null;
  }
  if (worker) {
    worker.port.onmessage = (m) => onEvent(m.data.kind, m.data.data);
    worker.port.start();
    window.addEventListener('pagehide', () => worker.port.postMessage('bye'));
    window.addEventListener('pageshow', (e) => {
      if (!e.persisted) return;
      worker.port.postMessage('hi');
      checkSelf(false);
    });
  } else {
    const source = new EventSource(EVENTS);
    source.addEventListener('hello', (e) => onEvent('hello', JSON.parse(e.data)));
    source.addEventListener('build', (e) => onEvent('build', JSON.parse(e.data)));
  }
}
