// reload.js — the page script of `boardpress serve` (generator/preview/), put
// into every page as served (never into the files in --out) and built into
// the program. It listens to the server's event stream (/__boardpress/events)
// and after each build:
//   - a failed build: shows its errors over the page (the last good one),
//     each as the terminal prints it, with the source line and a caret;
//   - a good build: removes them; when only the page's own bytes changed,
//     fetches it and swaps the parts that differ into the page as it is
//     (the rest, a level's state, the scroll position, stay untouched);
//     reloads it when that is not safe (see swapIn) or a file it uses (an
//     image, a script) changed, keeping the scroll position and the URL
//     fragment (a level's chosen options); swaps a changed stylesheet in
//     place, without a reload.
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
  let etag = script && script.dataset.etag ? `"${script.dataset.etag}"` : null;
  const SCROLL_KEY = 'bp-reload-scroll';
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

  // Every file this page uses, as a file path: what it loaded (the page,
  // swapped in place again and again, keeps its list of loads: room for a
  // long session), and what its elements name (a <picture>'s sources too).
  try {
    performance.setResourceTimingBufferSize(20000);
  } catch {
    // an older browser: its own size (the elements below still count)
  }
  const used = () => {
    const files = new Set();
    for (const e of performance.getEntriesByType('resource')) files.add(fileOf(e.name));
    for (const el of document.querySelectorAll('img, script[src], source[src], object[data]'))
      files.add(fileOf(el.currentSrc || el.src || el.data));
    for (const el of document.querySelectorAll('img[srcset], source[srcset]'))
      for (const c of el.srcset.split(','))
        if (c.trim()) files.add(fileOf(c.trim().split(/\s+/)[0]));
    return files;
  };

  const swapSheet = (link, gen) => {
    const url = new URL(link.href);
    url.searchParams.set('bp-reload', gen);
    const next = link.cloneNode();
    next.href = url.href;
    next.addEventListener('load', () => link.remove(), { once: true });
    next.addEventListener('error', () => next.remove(), { once: true });
    link.after(next);
  };

  // ---------------------------------------------------------- a page swapped in place
  // The page as it was parsed, before any script changed it (a copy in a
  // document of its own, which loads nothing), and for each of its nodes
  // the node of the page shown. A new version of the page is compared with
  // the copy, not with the page shown: scripts change the page shown (a
  // level un-hides its controls), the copy tells what they changed.
  const isSelf = (n) =>
    n.nodeName === 'SCRIPT' && n.getAttribute('src') === script.getAttribute('src');
  const inert = document.implementation.createHTMLDocument('');
  const shownOf = new WeakMap();
  const pair = (copy, shown) => {
    shownOf.set(copy, shown);
    let s = shown.firstChild;
    for (let c = copy.firstChild; c && s; c = c.nextSibling, s = s.nextSibling) pair(c, s);
  };
  const copyOf = (el) => {
    const copy = inert.importNode(el, true);
    pair(copy, el);
    return copy;
  };
  // (this script runs as the parser reaches it, at the end of the body: the
  // page is whole, and no deferred script has run yet)
  const attrsOf = (el) => [...el.attributes].map((a) => `${a.name}=${a.value}`).join(' ');
  const parsed = script && {
    html: attrsOf(document.documentElement),
    head: copyOf(document.head),
    body: copyOf(document.body),
  };

  // Elements whose children are compared one by one, when all they hold
  // besides elements is blank (which does not show between blocks): the
  // page's frame always, other blocks only when no script changed them and
  // they hold none (a level or a compare, whose script holds on to its
  // parts, is replaced whole or not at all). Any other element is replaced
  // whole when it differs.
  const FRAME = new Set(['BODY', 'MAIN', 'ARTICLE', 'HEADER', 'FOOTER', 'NAV', 'ASIDE']);
  const BLOCKS = new Set(
    'SECTION DIV UL OL DL TABLE THEAD TBODY TFOOT TR BLOCKQUOTE FIGURE DETAILS'.split(' '),
  );
  const kids = (el) => [...el.children].filter((c) => !isSelf(c));
  const blankOnly = (el) =>
    ![...el.childNodes].some((c) => c.nodeType === Node.TEXT_NODE && c.data.trim() !== '');
  const descend = (old, next) => {
    if (attrsOf(old) !== attrsOf(next) || !blankOnly(old) || !blankOnly(next)) return false;
    if (FRAME.has(old.nodeName)) return true;
    const shown = shownOf.get(old);
    return BLOCKS.has(old.nodeName) && shown && !hasScript(old) && shown.isEqualNode(old);
  };
  const hasScript = (el) => el.nodeName === 'SCRIPT' || el.querySelector('script') !== null;
  class Unsafe extends Error {}
  // The page shown's node for copy, when nothing changed it since it was
  // parsed and it holds no script (a script's state, or data a script
  // read, would be lost with it).
  const replaceable = (copy) => {
    const shown = shownOf.get(copy);
    if (!shown || !shown.isConnected || hasScript(copy) || !shown.isEqualNode(copy))
      throw new Unsafe();
    return shown;
  };
  const fresh = (el) => {
    if (hasScript(el)) throw new Unsafe(); // a new script, or new data for one: a reload runs it
    return el;
  };

  // Plan the changes that turn the copy's el into next's (same name), as
  // steps to run once the whole plan is known to be safe.
  const plan = (old, next, steps) => {
    if (old.isEqualNode(next)) return;
    if (!descend(old, next)) {
      const shown = [replaceable(old)];
      steps.push({ parent: old.parentNode, olds: [old], nexts: [fresh(next)], shown });
      return;
    }
    const a = kids(old);
    const b = kids(next);
    let head = 0;
    while (head < a.length && head < b.length && a[head].isEqualNode(b[head])) head++;
    let tail = 0;
    const same = (k) => a[a.length - 1 - k].isEqualNode(b[b.length - 1 - k]);
    while (tail < a.length - head && tail < b.length - head && same(tail)) tail++;
    const olds = a.slice(head, a.length - tail);
    const nexts = b.slice(head, b.length - tail);
    if (olds.length === nexts.length && olds.every((o, i) => o.nodeName === nexts[i].nodeName)) {
      olds.forEach((o, i) => plan(o, nexts[i], steps));
      return;
    }
    // a run of blocks came, went or changed kind: the run is replaced
    const parent = shownOf.get(old);
    const after = head > 0 ? a[head - 1] : null;
    const before = tail > 0 ? a[a.length - tail] : null;
    for (const anchor of [after, before])
      if (anchor && shownOf.get(anchor)?.parentNode !== parent) throw new Unsafe();
    if (!parent || !parent.isConnected) throw new Unsafe();
    const shown = olds.map(replaceable);
    steps.push({ parent: old, olds, nexts: nexts.map(fresh), shown, after, before });
  };

  // Run a step: the page shown gets imported copies of the new nodes where
  // the old ones were, and the copy of the page the new nodes themselves.
  const run = (s) => {
    const parentShown = shownOf.get(s.parent);
    const imported = s.nexts.map((n) => {
      const el = document.importNode(n, true);
      pair(n, el);
      return el;
    });
    const at = s.shown.length ? s.shown[0] : null;
    if (at) at.before(...imported);
    else if (s.before) shownOf.get(s.before).before(...imported);
    else if (s.after) shownOf.get(s.after).after(...imported);
    else parentShown.append(...imported);
    for (const el of s.shown) el.remove();
    const copyAt = s.olds.length ? s.olds[0] : null;
    if (copyAt) copyAt.before(...s.nexts);
    else if (s.before) s.before.before(...s.nexts);
    else if (s.after) s.after.after(...s.nexts);
    else s.parent.append(...s.nexts);
    for (const o of s.olds) o.remove();
  };

  // The head: the same scripts, stylesheets and the rest, in order; the
  // title and a <meta>'s content may differ (the description, the share
  // card's og: and twitter: words): they are set as they are.
  const metaKey = (el) => {
    const c = el.cloneNode(false);
    c.removeAttribute('content');
    return attrsOf(c);
  };
  const textual = (o, n) =>
    o.nodeName === n.nodeName &&
    (o.nodeName === 'TITLE' || (o.nodeName === 'META' && metaKey(o) === metaKey(n)));
  const headSteps = (old, next) => {
    const a = kids(old);
    const b = kids(next);
    if (a.length !== b.length) throw new Unsafe();
    const steps = [];
    a.forEach((o, i) => {
      if (o.isEqualNode(b[i])) return;
      if (!textual(o, b[i])) throw new Unsafe();
      steps.push(() => {
        const shown = shownOf.get(o);
        if (o.nodeName === 'TITLE') document.title = b[i].textContent;
        else if (shown) shown.setAttribute('content', b[i].getAttribute('content') || '');
        o.replaceWith(b[i]);
        if (shown && shown.isConnected) pair(b[i], shown);
      });
    });
    return steps;
  };

  // Swap the page as the server has it now into the page shown: only the
  // parts that differ, each whole. Resolves true when it did (or nothing
  // differed), false when it cannot safely: a different <head> (another
  // script or stylesheet), or a part to replace that a script changed or
  // holds a script (a level, a compare, data a script reads), or a new
  // script. Known limit: a listener a script put on an element it did not
  // otherwise change goes with that element.
  const swapIn = async () => {
    if (!parsed || etag === null) return false; // the server's "not found" page: the page is new
    const r = await fetch(location.href.split('#')[0], { cache: 'no-store' });
    if (!r.ok) return false;
    const doc = new DOMParser().parseFromString(await r.text(), 'text/html');
    if (attrsOf(doc.documentElement) !== parsed.html) return false;
    try {
      const head = headSteps(parsed.head, doc.head);
      const steps = [];
      plan(parsed.body, doc.body, steps);
      for (const s of head) s();
      for (const s of steps) run(s);
    } catch (e) {
      if (e instanceof Unsafe) return false;
      throw e;
    }
    const tag = doc.querySelector('script[data-etag]');
    const got = r.headers.get('ETag');
    etag = got || (tag ? `"${tag.dataset.etag}"` : etag);
    return true;
  };

  let swaps = Promise.resolve(); // one at a time, in the order of the builds
  const swapOrReload = () => {
    swaps = swaps.then(swapIn).then(
      (done) => done || reload(),
      () => reload(),
    );
  };

  const apply = (d) => {
    if (d.changed === 'all') return reload();
    const changed = new Set(d.changed);
    const sheets = [...document.querySelectorAll('link[rel~="stylesheet"][href]')].filter((l) =>
      changed.has(fileOf(l.href)),
    );
    const sheetFiles = new Set(sheets.map((l) => fileOf(l.href)));
    // data a page script loads on use and can load again (a script marked
    // data-refetch: the search index): the script is told, and drops it
    const refetch = new Set();
    for (const el of document.querySelectorAll('script[data-refetch][src]')) {
      const f = fileOf(el.src);
      if (!changed.has(f)) continue;
      refetch.add(f);
      el.dispatchEvent(new CustomEvent('bp-refetch', { bubbles: true }));
    }
    // a file the page uses that is not its own and not a stylesheet (an
    // image, a script): what a swap would not fetch again
    for (const f of used())
      if (changed.has(f) && f !== own && !sheetFiles.has(f) && !refetch.has(f)) return reload();
    for (const l of sheets) swapSheet(l, d.gen);
    if (changed.has(own)) swapOrReload();
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
  // number and a caret under the column, then the hint if the message does
  // not already say it.
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
    // the hint on its own line, unless the message already ends with it
    // ("...; did you mean 'jobs'?"), as the terminal prints it once
    if (e.hint && !e.text.endsWith(e.hint))
      pre.append('\n', el('span', { class: 'hint' }, 'hint: '), e.hint);
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
      host = el('div', { id: 'bp-reload-errors' });
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
          'aria-labelledby': 'bp-reload-title',
          'aria-describedby': 'bp-reload-about',
          tabindex: '-1',
        },
        el('h2', { id: 'bp-reload-title' }, title),
        el(
          'p',
          { id: 'bp-reload-about' },
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
