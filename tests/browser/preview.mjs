// preview.mjs — `boardpress serve` in Debian's Chromium, driven by
// playwright-core. Run by tests/run-serve-browser.sh, which copies the
// fixture site (tests/serve/site) with the real templates and static files
// into a folder of its own.
//
// usage: node preview.mjs BOARDPRESS SITE_DIR SCREENSHOT_DIR
//
// Starts `boardpress serve --port 0` in SITE_DIR and, in one browser:
// edits a page's Markdown and sees the new text without a manual reload,
// swapped into the page without a navigation, at the same scroll position
// (a new paragraph and a new title too); breaks a placeholder and sees the overlay
// with the terminal's PATH:LINE:COL line, the source line and a caret
// (focused, Escape hides it, a button brings it back); fixes it and sees it
// go without a reload; a contradicted `expect:` shows the measured values;
// a stylesheet edit is swapped in without a reload; a board edit
// re-simulates that board alone and reloads the pages that show its
// drawings (keeping the URL fragment), swaps its new numbers into a page
// that shows only those, and touches no other; a prose edit beside a
// board's drawing and a level, and one above a live level's slider, swap
// in place: the drawing still shows, the level keeps its state and still
// plays, the slider keeps its value and still re-simulates; nine tabs
// share one event stream (a browser opens at most six connections to a
// server) and all take an edit; a page that does not
// exist yet appears when it is written; the published folder holds no
// reload script; Ctrl-C stops the server cleanly. Exits 1 at the
// first failed check, naming it.

import { chromium } from 'playwright-core';
import { check, checks, CheckFailed, eq } from './check.mjs';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [bpArg, siteArg, shotsArg] = process.argv.slice(2);
if (!bpArg || !siteArg || !shotsArg) {
  console.error('usage: node preview.mjs BOARDPRESS SITE_DIR SCREENSHOT_DIR');
  process.exit(2);
}
const BP = path.resolve(bpArg);
const SITE = path.resolve(siteArg);
const SHOTS = path.resolve(shotsArg);
const CHROMIUM = process.env.BP_CHROMIUM || '/usr/bin/chromium';
const WAIT = 15000; // ms for anything the server or browser should do


// ------------------------------------------------------------ the server

let stderr = '';
let exited = null;
const server = spawn(BP, ['serve', '--port', '0'], {
  cwd: SITE,
  stdio: ['ignore', 'inherit', 'pipe'],
});
server.stderr.on('data', (d) => {
  stderr += d.toString();
});
server.on('exit', (code, signal) => {
  exited = { code, signal };
});

async function until(what, fn, ms = WAIT) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new CheckFailed(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Lines of the server's stderr that report a rebuild.
const rebuilds = () => stderr.split('\n').filter((l) => / changed; (rebuilt in|the rebuild failed)/.test(l));

// Write a file as an editor saves it: a new file renamed over the old.
function save(rel, text) {
  const file = path.join(SITE, rel);
  fs.writeFileSync(file + '.tmp~', text);
  fs.renameSync(file + '.tmp~', file);
}
function edit(rel, from, to) {
  const text = fs.readFileSync(path.join(SITE, rel), 'utf8');
  check(text.includes(from), `${rel} holds '${from}'`);
  save(rel, text.replace(from, to));
}

// Edit, then wait for the rebuild's line on stderr; returns it.
async function editAndBuild(rel, from, to) {
  const before = rebuilds().length;
  edit(rel, from, to);
  await until(`a rebuild after editing ${rel}`, () => rebuilds().length > before);
  return rebuilds()[before];
}

// ------------------------------------------------------------ page helpers

const MARK = '__bpNotReloaded';
const mark = (page) => page.evaluate((m) => (window[m] = true), MARK);
const marked = (page) => page.evaluate((m) => window[m] === true, MARK);

// The overlay, as seen through its open shadow root.
function overlay(page) {
  return page.evaluate(() => {
    const host = document.getElementById('bp-reload-errors');
    if (!host) return null;
    const root = host.shadowRoot;
    const section = root.querySelector('section');
    return {
      shown: !section.hidden,
      role: section.getAttribute('role'),
      modal: section.getAttribute('aria-modal'),
      label: root.getElementById(section.getAttribute('aria-labelledby'))?.textContent,
      focused: document.activeElement === host && root.activeElement === section,
      items: [...root.querySelectorAll('li pre')].map((p) => p.textContent),
      badge: !root.querySelector('.badge').hidden,
    };
  });
}

const errors = [];
function watchConsole(page, name) {
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${name}: console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
}

// The error line the terminal printed for path (the last one).
function terminalError(rel) {
  const lines = stderr.split('\n').filter((l) => l.startsWith(`${rel}:`) && l.includes(': error: '));
  check(lines.length > 0, `the terminal shows an error for ${rel}`);
  return lines[lines.length - 1];
}

// The line and column (1-based, in characters) of needle in a file.
function position(rel, needle) {
  const lines = fs.readFileSync(path.join(SITE, rel), 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  check(i >= 0, `${rel} holds '${needle}'`);
  return { line: i + 1, col: [...lines[i].slice(0, lines[i].indexOf(needle))].length + 1, text: lines[i] };
}

// ------------------------------------------------------------ the run

let browser;
try {
  const url = await until('the server to say where it serves', () => {
    const m = /boardpress: serving \S+ on (http:\/\/127\.0\.0\.1:\d+\/) \(Ctrl-C stops\)/.exec(stderr);
    return m && m[1];
  });
  await until('watching', () => stderr.includes('boardpress: watching'));
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 900, height: 600 } });

  // 1. A page as served carries the script; after a prose edit the new
  // text shows without a manual reload, at the same scroll position.
  const prose = await context.newPage();
  watchConsole(prose, 'prose');
  await prose.goto(url + 'prose/');
  eq(await prose.locator('script[src="/__boardpress/reload.js"]').count(), 1, 'the served page loads the script');
  await prose.evaluate(() => window.scrollTo(0, 1500));
  await until('the page to scroll', async () => (await prose.evaluate(() => window.scrollY)) === 1500);
  await mark(prose);
  const line1 = await editAndBuild('content/prose.md', 'MARKER-0', 'MARKER-1');
  // its page and the search index, which holds the page's words
  check(/\(0 simulated, 1 page and 1 other file changed\)$/.test(line1), `a prose edit simulates nothing: ${line1}`);
  await until('the new text', async () => (await prose.textContent('body').catch(() => '')).includes('MARKER-1'));
  check(await marked(prose), 'the new text was swapped in, without a reload');
  eq(await prose.evaluate(() => window.scrollY), 1500, 'the scroll position after the swap');
  // a paragraph more (the blocks after it move down one) and a new title
  const longText = fs.readFileSync(path.join(SITE, 'content/prose.md'), 'utf8');
  save(
    'content/prose.md',
    longText
      .replace('title: A long page', 'title: A longer page')
      .replace('The last words of the page:', 'A paragraph of its own: NEW-PARAGRAPH.\n\nThe last words of the page:'),
  );
  await until('the new paragraph', async () =>
    prose.evaluate(() => [...document.querySelectorAll('article p')].some((p) => p.textContent === 'A paragraph of its own: NEW-PARAGRAPH.')),
  );
  await until('the new title', async () => (await prose.title()).startsWith('A longer page'));
  eq(await prose.textContent('h1'), 'A longer page', 'the heading after the swap');
  check(await marked(prose), 'the new paragraph and title were swapped in, without a reload');
  eq(await prose.evaluate(() => window.scrollY), 1500, 'the scroll position after the second swap');
  console.log('serve-browser: a prose edit shows without a manual reload or a navigation, scrolled where it was');

  // 1b. With the search index loaded (the reader used the search box), a
  // prose edit still swaps in: the search script drops the old index and
  // loads the new one, which finds the new word.
  await prose.focus('#bp-search-input');
  await until('the search index', async () => (await prose.locator('[data-ready]').count()) > 0);
  await mark(prose);
  await editAndBuild('content/prose.md', 'NEW-PARAGRAPH', 'Searchable zanzibarword');
  await until('the edited paragraph', async () => (await prose.textContent('body').catch(() => '')).includes('zanzibarword'));
  check(await marked(prose), 'with the search index loaded, the edit was swapped in, without a reload');
  await prose.fill('#bp-search-input', 'zanzibarword');
  await until('a search result for the new word', async () =>
    (await prose.locator('[role="option"]').count()) > 0,
  );
  console.log('serve-browser: with the search index loaded, a prose edit swaps in and the new index finds the new word');

  // 2. A broken placeholder: the overlay, over the last good page, with the
  // error as the terminal printed it, the source line and the caret.
  await mark(prose);
  const line2 = await editAndBuild('content/prose.md', '{{ shop.jobs }}', '{{ shop.jobz }}');
  check(line2.includes('the rebuild failed'), `the rebuild failed: ${line2}`);
  const term = terminalError('content/prose.md');
  const m = /^content\/prose\.md:(\d+):(\d+): error: (.*)$/.exec(term);
  check(m, `the terminal's line is PATH:LINE:COL: error: MESSAGE: ${term}`);
  const at = position('content/prose.md', 'jobz');
  eq(Number(m[1]), at.line, 'the error names the line of the misspelt measure');
  eq(Number(m[2]), at.col, 'the error names the column of the misspelt measure');
  const o = await until('the overlay', async () => {
    const v = await overlay(prose);
    return v && v.shown && v.items.length ? v : null;
  });
  eq(o.role, 'alertdialog', 'the overlay is an alert dialog');
  eq(o.modal, 'true', 'the overlay is modal');
  eq(o.label, 'The rebuild failed: 1 error', 'the overlay says what happened');
  check(o.focused, 'the overlay has the focus');
  const item = o.items[0].split('\n');
  eq(item[0], term, 'the overlay shows the error as the terminal printed it');
  eq(item[1], `${String(at.line).padStart(5)} | ${at.text}`, 'then the source line');
  eq(item[2], `      | ${' '.repeat(Number(m[2]) - 1)}^`, 'then a caret under the column');
  check(term.endsWith("did you mean 'jobs'?"), `the message ends with its hint: ${term}`);
  eq(item.length, 3, `and the hint is not said twice: ${o.items[0]}`);
  check(await marked(prose), 'the failed build did not reload the page');
  check((await prose.textContent('body')).includes('MARKER-1'), 'the last good page stays behind the overlay');
  await prose.screenshot({ path: path.join(SHOTS, 'serve-overlay.png') });
  await prose.keyboard.press('Escape');
  const hidden = await overlay(prose);
  check(!hidden.shown && hidden.badge, 'Escape hides the overlay and leaves a button');
  await prose.evaluate(() => document.getElementById('bp-reload-errors').shadowRoot.querySelector('.badge').click());
  check((await overlay(prose)).shown, 'the button shows the overlay again');
  await prose.keyboard.press('Escape');

  // 3. Fixed: the overlay goes; the page's bytes are the last good ones, so
  // it does not reload.
  await editAndBuild('content/prose.md', '{{ shop.jobz }}', '{{ shop.jobs }}');
  await until('the overlay to go', async () => (await overlay(prose)) === null);
  check(await marked(prose), 'the fix brought back the same bytes: no reload');
  console.log('serve-browser: a broken placeholder shows the overlay with file:line:col; the fix removes it');

  // 4. A contradicted expect: the overlay shows the measured values.
  await editAndBuild('content/boards/shop.yaml', 'expect: fail', 'expect: pass');
  const exp = terminalError('content/boards/shop.yaml');
  check(/the simulator measured that it misses a goal: duplicates \d+ \(fail\)$/.test(exp), `the expect message: ${exp}`);
  const oe = await until('the expect overlay', async () => {
    const v = await overlay(prose);
    return v && v.items.length && v.items[0].startsWith('content/boards/shop.yaml') ? v : null;
  });
  eq(oe.items[0].split('\n')[0], exp, 'the overlay shows the whole expect message');
  await editAndBuild('content/boards/shop.yaml', 'expect: pass', 'expect: fail');
  await until('the overlay to go', async () => (await overlay(prose)) === null);
  console.log('serve-browser: a contradicted expect shows the measured values');

  // 5. A stylesheet edit is swapped in, without a reload.
  await mark(prose);
  const css = fs.readFileSync(path.join(SITE, 'static/boardpress.css'), 'utf8');
  save('static/boardpress.css', css + '\nh1 { outline: 3px solid rgb(1, 2, 3); }\n');
  await until('the new stylesheet', async () =>
    (await prose.evaluate(() => getComputedStyle(document.querySelector('h1')).outlineColor)) === 'rgb(1, 2, 3)',
  );
  check(await marked(prose), 'the stylesheet was swapped without a reload');
  check(
    (await prose.evaluate(() => document.querySelector('link[rel~="stylesheet"]').href)).includes('bp-reload='),
    'the swapped stylesheet carries a cache-busting query',
  );
  console.log('serve-browser: a stylesheet edit is swapped in without a reload');

  // 6. A board edit re-simulates that board alone, and reloads the pages
  // that use it (the fragment, a level's state, kept) and no other.
  const board = await context.newPage();
  watchConsole(board, 'board');
  await board.goto(url + 'board/#level-check=1');
  const home = await context.newPage();
  watchConsole(home, 'home');
  await home.goto(url);
  const levelText = () => board.evaluate(() => document.querySelector('#level-check')?.textContent);
  await board.waitForLoadState('load');
  const before = await until('the level to read its fragment', async () => {
    const t = await levelText();
    return t && t.includes('ID check: On') ? t : null;
  });
  await Promise.all([mark(prose), mark(board), mark(home)]);
  const seeds = () => prose.evaluate(() => [...document.querySelectorAll('td[data-label="Seed"]')].map((t) => t.textContent).join());
  eq(await seeds(), '3', "the long page's table of runs names the board's seed");
  const line6 = await editAndBuild('content/boards/shop.yaml', 'seed: 3', 'seed: 4');
  // the two pages that use it and the board's embed page (SLUG/embed/ID/)
  check(/\(1 simulated, 3 pages[ )]/.test(line6), `a board edit simulates that board alone, 3 pages change: ${line6}`);
  await until('the board page to reload', async () => !(await marked(board).catch(() => true)));
  await until('the new seed on the long page', async () => (await seeds()) === '4');
  check(await marked(prose), 'the long page, which shows no drawing of the board, took its new numbers in place');
  eq(new URL(board.url()).hash, '#level-check=1', 'the fragment survives the reload');
  check(before.includes('ID check: On'), `the fragment chose the level's option: ${before}`);
  await until("the level's state from the fragment after the reload", async () => (await levelText().catch(() => '')) === before);
  check(await marked(home), 'a page that does not use the board did not reload');
  console.log('serve-browser: a board edit re-simulates it alone and reloads only the pages that show it, keeping the fragment');

  // 6b. Prose beside a board's drawing and a level: swapped in; the
  // drawing still shows, the level keeps its state and still plays.
  await board.waitForLoadState('load');
  await mark(board);
  await editAndBuild('content/board.md', 'ran twice.', 'ran twice. BOARD-PROSE-1.');
  await until('the new text beside the board', async () => (await board.textContent('main').catch(() => '')).includes('BOARD-PROSE-1'));
  check(await marked(board), 'the prose beside the board was swapped in, without a reload');
  eq(await levelText(), before, "the level's state after the swap");
  eq(new URL(board.url()).hash, '#level-check=1', 'the fragment after the swap');
  const images = await board.evaluate(() =>
    [...document.images].map((i) => ({ src: i.currentSrc, ok: i.complete && i.naturalWidth > 0 })),
  );
  check(images.length > 0 && images.every((i) => i.ok), `every drawing shows after the swap: ${JSON.stringify(images)}`);
  await board.click('#level-check button.bp-toggle-btn');
  await until('the level to play after the swap', async () => (await levelText()).includes('ID check: Off'));
  await until('the fragment to follow the level', async () => new URL(board.url()).hash === '#level-check=0');
  console.log("serve-browser: prose beside a drawing and a level swaps in; the drawing shows, the level keeps its state and plays");

  // 6c. Prose above a live level's slider: swapped in; the slider keeps
  // its value and still re-simulates in the browser.
  const live = await context.newPage();
  watchConsole(live, 'live');
  await live.goto(url + 'live/');
  const liveState = () => live.evaluate(() => {
    const s = document.getElementById('level-jobs');
    const m = s.querySelector('[data-measure="jobs"]');
    return { state: s.getAttribute('data-state'), jobs: m && m.textContent, value: s.querySelector('input[type="range"]').value };
  });
  await live.locator('#level-jobs-0').waitFor({ state: 'visible' });
  await live.locator('#level-jobs-0').fill('2');
  await until('the slider to re-simulate', async () => {
    const v = await liveState();
    return v.state === '2' && v.jobs === '30';
  });
  await mark(live);
  await editAndBuild('content/live.md', 'SLIDER-PROSE-0', 'SLIDER-PROSE-1');
  await until('the new text above the slider', async () => (await live.textContent('main').catch(() => '')).includes('SLIDER-PROSE-1'));
  check(await marked(live), 'the prose above the slider was swapped in, without a reload');
  const kept = await liveState();
  check(kept.state === '2' && kept.jobs === '30' && kept.value === '2', `the slider's state after the swap: ${JSON.stringify(kept)}`);
  await live.locator('#level-jobs-0').fill('0');
  await until('the slider to re-simulate after the swap', async () => {
    const v = await liveState();
    return v.state === '0' && v.jobs === '10';
  });
  await live.close();
  console.log("serve-browser: prose above a live level's slider swaps in; the slider keeps its value and re-simulates");

  // 7. Nine tabs on one server: every one loads, and every one reloads.
  const tabs = [];
  for (let i = 0; i < 9; i++) {
    const t = await context.newPage();
    watchConsole(t, `tab ${i}`);
    await t.goto(url, { timeout: WAIT });
    await mark(t);
    tabs.push(t);
  }
  await editAndBuild('content/index.md', 'Two pages', 'Two pages, both');
  for (const t of tabs) await until('every tab to show the edit', async () => (await t.textContent('main').catch(() => '')).includes('Two pages, both'));
  for (const t of tabs) check(await marked(t), 'every tab took the edit in place');
  for (const t of tabs) await t.close();
  console.log('serve-browser: nine tabs load and take an edit (one event stream between them)');

  // 8. A page that does not exist yet: a 404 that becomes the page.
  const fresh = await context.newPage();
  watchConsole(fresh, 'fresh');
  const r = await fresh.goto(url + 'fresh/');
  eq(r.status(), 404, 'a page that is not there is a 404');
  save('content/fresh.md', '---\ntitle: A fresh page\n---\nJust written.\n');
  await until('the new page', async () => (await fresh.textContent('h1').catch(() => '')) === 'A fresh page');
  console.log('serve-browser: a 404 page reloads into the page once it is written');

  // 9. The published site holds no reload script.
  const leaks = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      // the preview's reload.js
      else if (/__boardpress|(?<![\w-])reload\.js/.test(fs.readFileSync(p, 'latin1'))) leaks.push(p);
    }
  };
  walk(path.join(SITE, 'public'));
  eq(leaks.join(', '), '', 'files in public/ that name the reload script');
  // (the 404 of the page not written yet is the one error to be logged)
  const unexpected = errors.filter((e) => !/^fresh: console: .* status of 404 /.test(e));
  check(unexpected.length === 0, `no console errors: ${unexpected.join('; ')}`);
  console.log('serve-browser: public/ holds no reload script; no console errors');
  await browser.close();
  browser = null;

  // 10. Ctrl-C: the server stops, exit 0, nothing left beside public/.
  server.kill('SIGINT');
  await until('the server to stop', () => exited !== null, 10000);
  eq(exited.code, 0, 'exit status after Ctrl-C');
  check(stderr.includes('boardpress: stopped'), 'it says it stopped');
  const beside = fs.readdirSync(SITE).filter((n) => n.startsWith('public.'));
  eq(beside.join(', '), '', 'folders left beside public/');
  console.log(`serve-browser: Ctrl-C stops it cleanly; ${checks} checks passed`);
} catch (e) {
  console.error(`serve-browser: FAIL: ${e instanceof CheckFailed ? e.message : e.stack}`);
  console.error('server stderr:\n' + stderr.replace(/^/gm, '  | '));
  if (browser) await browser.close().catch(() => {});
  if (exited === null) server.kill('SIGKILL');
  process.exit(1);
}
