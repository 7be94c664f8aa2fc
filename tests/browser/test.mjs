// test.mjs — end-to-end test of the page script (static/boardpress.js) and
// stylesheet in Debian's Chromium, driven by playwright-core. Run by
// tests/run-browser.sh, which builds the fixture site (tests/browser/site).
//
// usage: node test.mjs SITE_DIR SCREENSHOT_DIR
//
// Serves SITE_DIR on 127.0.0.1 (a random port), then at 320 px and 1280 px:
// the compare switcher, the mini-board toggle and a level by mouse and by
// keyboard, every visible number against the page's results.json, state in
// and out of the URL fragment, no layout shift, no horizontal scrolling, no
// console errors, no failed or outside requests; also the page without
// JavaScript, the dark theme and the print sheet. Screenshots go to
// SCREENSHOT_DIR. Exits 1 at the first failed check, naming it.

import { chromium } from 'playwright-core';
import { check, checks, CheckFailed, eq } from './check.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { serve } from './serve.mjs';

const [siteArg, shotsArg] = process.argv.slice(2);
if (!siteArg || !shotsArg) {
  console.error('usage: node test.mjs SITE_DIR SCREENSHOT_DIR');
  process.exit(2);
}
const SITE = path.resolve(siteArg);
const SHOTS = path.resolve(shotsArg);
const PAGE = 'playground/';
// The fixture's mini board counts these (tests/browser/site/levels/mini.yaml).
const MINI_COUNTS = ['deliveries', 'effects', 'charged_twice'];
const CHROMIUM = process.env.BP_CHROMIUM || '/usr/bin/chromium';


// ------------------------------------------------------------ page helpers

const results = JSON.parse(fs.readFileSync(path.join(SITE, PAGE, 'results.json'), 'utf8')).results;

function result(key) {
  const r = results[key];
  check(r !== undefined, `results.json has '${key}'`);
  return r;
}

// A goal's pass in results.json; goal keys carry the unit (completion_time_s).
function goalPass(r, measure) {
  const key = Object.keys(r.goals).find(
    (k) => k === measure || k === `${measure}_s` || k === `${measure}_usd`,
  );
  check(key !== undefined, `results.json goal for '${measure}' in ${r.board}`);
  return r.goals[key].pass;
}

async function levelData(page, id) {
  return page.$eval(`#${id} script.bp-data`, (s) => JSON.parse(s.textContent));
}

function comboOptions(data, c) {
  const o = [];
  for (let i = data.choices.length - 1; i >= 0; i--) {
    const n = data.choices[i].options.length;
    o[i] = c % n;
    c = Math.floor(c / n);
  }
  return o;
}

// Page y of the element right after a widget: must not move when it changes.
async function yAfter(page, sel) {
  return page.$eval(sel, (el) => {
    const next = el.nextElementSibling;
    return next.getBoundingClientRect().top + window.scrollY;
  });
}

async function noShift(page, sel, before, what) {
  const after = await yAfter(page, sel);
  check(Math.abs(after - before) < 0.5, `${what}: what follows ${sel} moved from y=${before} to y=${after}`);
}

async function hash(page) {
  return decodeURIComponent(await page.evaluate(() => location.hash));
}

async function imagesLoaded(page, sel) {
  await page.waitForFunction(
    (s) => [...document.querySelectorAll(s)].every((i) => i.complete && i.naturalWidth > 0),
    sel,
    { timeout: 5000 },
  );
}

async function tabTo(page, sel, what, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, sel)) return;
  }
  check(false, `${what}: Tab never reached ${sel}`);
}

async function focused(page, sel) {
  return page.evaluate((s) => document.activeElement?.matches(s) ?? false, sel);
}

// ------------------------------------------------------------ assertions

// Every inline and compare-table number equals results.json's display string,
// and each compare Pass/Fail equals its goal's pass.
async function checkNumbers(page, what) {
  const nums = await page.$$eval('.bp-num[data-board][data-measure]:not([data-filter])', (els) =>
    els.map((e) => ({ board: e.dataset.board, measure: e.dataset.measure, text: e.textContent })),
  );
  // a mean with its interval starts with the mean
  const cis = await page.$$eval('.bp-num[data-board][data-measure][data-filter="ci"]', (els) =>
    els.map((e) => ({ board: e.dataset.board, measure: e.dataset.measure, text: e.textContent })),
  );
  for (const n of cis) {
    const d = result(n.board).display[n.measure];
    check(n.text === d || n.text.startsWith(`${d} `), `${what}: ${n.board}.${n.measure} | ci: got ${JSON.stringify(n.text)}, want ${JSON.stringify(d)} and its interval`);
  }
  // a rare count reads as its rate: the count and the jobs it came from
  const rates = await page.$$eval('.bp-num[data-board][data-measure][data-filter="rate"]', (els) =>
    els.map((e) => ({ board: e.dataset.board, measure: e.dataset.measure, text: e.textContent })),
  );
  check(nums.length + cis.length + rates.length >= 10, `${what}: the page shows measured numbers (found ${nums.length + cis.length + rates.length})`);
  for (const n of nums) eq(n.text, result(n.board).display[n.measure], `${what}: ${n.board}.${n.measure}`);
  for (const n of rates) {
    const rt = result(n.board).rates[n.measure];
    check(rt !== undefined, `${what}: results.json has the rate of ${n.board}.${n.measure}`);
    const lead = `${rt.count.toLocaleString('en-US')} in ${rt.jobs.toLocaleString('en-US')} jobs (`;
    check(n.text.startsWith(lead), `${what}: ${n.board}.${n.measure} | rate: got ${JSON.stringify(n.text)}, want it to start ${JSON.stringify(lead)}`);
  }
  const verdicts = await page.$$eval('.bp-compare-table td[data-board]', (tds) =>
    tds
      .filter((td) => td.querySelector('.bp-pass, .bp-fail'))
      .map((td) => ({
        board: td.dataset.board,
        measure: td.parentElement.dataset.measure,
        text: td.querySelector('.bp-pass, .bp-fail').textContent,
      })),
  );
  check(verdicts.length > 0, `${what}: the compare table shows Pass/Fail`);
  for (const v of verdicts)
    eq(v.text, goalPass(result(v.board), v.measure) ? 'Pass' : 'Fail', `${what}: ${v.board} ${v.measure} verdict`);
}

async function checkCompare(page, board, what) {
  const s = await page.$eval('section.bp-compare', (sec) => ({
    pressed: [...sec.querySelectorAll('.bp-switch')].map((b) => [b.dataset.board, b.getAttribute('aria-pressed')]),
    figures: [...sec.querySelectorAll('.bp-compare-boards > figure')].map((f) => [
      f.dataset.board,
      getComputedStyle(f).visibility,
    ]),
    cols: [...sec.querySelectorAll('table .bp-col-on')].map((c) => c.dataset.board),
    
    rows: sec.querySelectorAll('table tr').length,
  }));
  for (const [b, p] of s.pressed) eq(p, b === board ? 'true' : 'false', `${what}: aria-pressed of ${b}`);
  for (const [b, v] of s.figures) eq(v, b === board ? 'visible' : 'hidden', `${what}: figure ${b}`);
  check(s.cols.length === s.rows && s.cols.every((b) => b === board),
    `${what}: the highlighted column is ${board}'s, one cell per row (got ${JSON.stringify(s.cols)})`);
}

async function checkToggle(page, data, c, what) {
  const s = await page.$eval('#level-mini', (sec) => ({
    pressed: sec.querySelector('.bp-toggle-btn').getAttribute('aria-pressed'),
    value: sec.querySelector('.bp-toggle-value').textContent,
    counts: sec.querySelector('.bp-counts').textContent,
    src: sec.querySelector('img.bp-level-diagram').getAttribute('src'),
    alt: sec.querySelector('img.bp-level-diagram').getAttribute('alt'),
  }));
  eq(s.pressed, c === 1 ? 'true' : 'false', `${what}: toggle aria-pressed`);
  eq(s.value, data.choices[0].options[c], `${what}: toggle state text`);
  eq(s.counts, data.combos[c].counts, `${what}: counts line against the page data`);
  // the counts line's numbers are the measured ones
  const r = result(`level:mini:${c}`);
  // each part has one number, wherever its words put it ("7 deliveries", "charged 7 times")
  const numbers = s.counts.split(' · ').map((part) => part.split(' ').find((w) => /^[0-9]/.test(w)));
  eq(numbers.length, MINI_COUNTS.length, `${what}: counts line parts`);
  MINI_COUNTS.forEach((m, i) => eq(numbers[i], r.display[m], `${what}: counts line ${m} against results.json`));
  eq(s.src, data.combos[c].svg, `${what}: mini board diagram`);
  eq(s.alt, data.combos[c].alt, `${what}: mini board diagram alt`);
  // its timelines, one per combination: the chosen one's alone shown
  const shown = await page.$$eval('#level-mini .bp-level-timelines > figure[data-combo]', (fs) =>
    fs.filter((f) => getComputedStyle(f).visibility === 'visible').map((f) => f.dataset.combo));
  eq(JSON.stringify(shown), JSON.stringify([String(c)]), `${what}: mini board timeline shown`);
  await imagesLoaded(page, '#level-mini img');
}

async function checkLevel(page, id, data, c, what) {
  const r = result(`level:${data.id}:${c}`);
  const s = await page.$eval(`#${id}`, (sec) => ({
    rows: [...sec.querySelectorAll('table.bp-goals tbody tr')].map((tr) => ({
      measure: tr.dataset.measure,
      value: tr.querySelector('.bp-num').textContent,
      verdict: tr.querySelector('.bp-pass, .bp-fail').textContent,
      verdictClass: tr.querySelector('.bp-pass, .bp-fail').className,
    })),
    status: sec.querySelector('.bp-level-status').textContent,
    complete: sec.classList.contains('bp-complete'),
    src: sec.querySelector('img.bp-level-diagram').getAttribute('src'),
    alt: sec.querySelector('img.bp-level-diagram').getAttribute('alt'),
    checked: [...sec.querySelectorAll('input[type=radio]:checked')].map((i) => [i.name, i.value]),
  }));
  eq(s.rows.length, Object.keys(r.goals).length, `${what}: one goal row per goal`);
  for (const row of s.rows) {
    eq(row.value, r.display[row.measure], `${what}: combination ${c}, ${row.measure} against results.json`);
    const pass = goalPass(r, row.measure);
    eq(row.verdict, pass ? 'Pass' : 'Fail', `${what}: combination ${c}, ${row.measure} verdict`);
    eq(row.verdictClass, pass ? 'bp-pass' : 'bp-fail', `${what}: combination ${c}, ${row.measure} verdict style`);
  }
  eq(s.status, data.combos[c].status, `${what}: combination ${c}, status line`);
  eq(s.complete, r.all_goals_pass, `${what}: combination ${c}, level-complete state`);
  eq(s.status.startsWith('Level complete'), r.all_goals_pass, `${what}: combination ${c}, status says complete`);
  eq(s.src, data.combos[c].svg, `${what}: combination ${c}, diagram`);
  eq(s.alt, data.combos[c].alt, `${what}: combination ${c}, diagram alt`);
  const opts = comboOptions(data, c);
  eq(JSON.stringify(s.checked), JSON.stringify(opts.map((o, i) => [`${data.id}-${i}`, String(o)])),
    `${what}: combination ${c}, checked options`);
  await imagesLoaded(page, `#${id} img`);
}

// ------------------------------------------------------------ scenarios

async function openPage(context, url, problems) {
  const page = await context.newPage();
  page.setDefaultTimeout(5000);
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(url, { waitUntil: 'load' });
  return page;
}

// Loads url afresh in the same tab (a URL differing only in its fragment
// would otherwise not reload the page).
async function reopen(page, url) {
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'load' });
  return page;
}

// full: also every level combination, the keyboard and the fragment checks
// (they do not depend on the width).
async function scriptedRun(browser, origin, width, full, problems) {
  const what = `${width}px`;
  const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
  await guard(context, origin, problems);
  const page = await openPage(context, `${origin}/${PAGE}`, problems);
  await page.waitForSelector('section.bp-compare.bp-live');

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, `${what}: the page scrolls sideways by ${overflow}px`);
  await checkNumbers(page, what);

  // Without a fragment nothing is touched and the URL stays clean.
  eq(await hash(page), '', `${what}: fragment on load`);

  // ---- switcher, by mouse
  check(await page.isVisible('.bp-switcher'), `${what}: the switcher is shown`);
  const boards = await page.$$eval('.bp-switch', (bs) => bs.map((b) => b.dataset.board));
  check(boards.length >= 2, `${what}: the switcher has a button per board`);
  await checkCompare(page, boards[0], `${what}: switcher at start`);
  let y = await yAfter(page, 'section.bp-compare');
  await page.click(`.bp-switch[data-board="${boards[1]}"]`);
  await checkCompare(page, boards[1], `${what}: switcher after a click`);
  eq(await hash(page), `#board-${boards[1]}`, `${what}: fragment after the switcher`);
  await noShift(page, 'section.bp-compare', y, `${what}: switcher`);
  await page.click(`.bp-switch[data-board="${boards[0]}"]`);
  await checkCompare(page, boards[0], `${what}: switcher clicked back`);

  // ---- mini board, by mouse
  const mini = await levelData(page, 'level-mini');
  check(await page.isVisible('#level-mini .bp-toggle-btn'), `${what}: the toggle is shown`);
  await checkToggle(page, mini, mini.start, `${what}: mini board at start`);
  y = await yAfter(page, '#level-mini');
  await page.click('#level-mini .bp-toggle-btn');
  await checkToggle(page, mini, 1 - mini.start, `${what}: mini board toggled`);
  await noShift(page, '#level-mini', y, `${what}: mini board toggle`);
  eq(await hash(page), `#level-mini=${1 - mini.start}&board-${boards[0]}`, `${what}: fragment after the toggle`);
  await page.click('#level-mini .bp-toggle-btn');
  await checkToggle(page, mini, mini.start, `${what}: mini board toggled back`);

  // ---- level, by mouse: one option click at a time, through every
  // combination (full) or straight to the first that wins
  const lv = await levelData(page, 'level-safe-consumer');
  check(await page.isVisible('#level-safe-consumer form.bp-choices'), `${what}: the level's choices are shown`);
  check(!(await page.isVisible('#level-safe-consumer .bp-level-start')), `${what}: the no-script start note is hidden`);
  check(await page.isVisible('#level-safe-consumer .bp-reset'), `${what}: Reset is shown`);
  await checkLevel(page, 'level-safe-consumer', lv, lv.start, `${what}: level at start`);
  y = await yAfter(page, '#level-safe-consumer');
  let cur = comboOptions(lv, lv.start);
  const win = lv.combos.findIndex((_, c) => result(`level:${lv.id}:${c}`).all_goals_pass);
  check(win >= 0, `${what}: the level can be won`);
  for (const c of full ? lv.combos.keys() : [win]) {
    const want = comboOptions(lv, c);
    for (let i = 0; i < want.length; i++) {
      if (want[i] === cur[i]) continue;
      await page.click(`#level-safe-consumer label:has(> input[name="${lv.id}-${i}"][value="${want[i]}"])`);
      cur[i] = want[i];
      const now = cur.reduce((acc, o, k) => acc * lv.choices[k].options.length + o, 0);
      await checkLevel(page, 'level-safe-consumer', lv, now, `${what}: level by mouse`);
      eq(await hash(page), `#level-mini=${mini.start}&board-${boards[0]}&level-safe-consumer=${cur.join('.')}`,
        `${what}: fragment after picking`);
      await noShift(page, '#level-safe-consumer', y, `${what}: level, combination ${now}`);
    }
  }
  // Reset, then win it and leave it complete for the screenshot.
  await page.click('#level-safe-consumer .bp-reset');
  await checkLevel(page, 'level-safe-consumer', lv, lv.start, `${what}: level after Reset`);
  eq(await hash(page), `#level-mini=${mini.start}&board-${boards[0]}`, `${what}: fragment after Reset`);
  const winOpts = comboOptions(lv, win);
  for (let i = 0; i < winOpts.length; i++)
    await page.check(`#level-safe-consumer input[name="${lv.id}-${i}"][value="${winOpts[i]}"]`);
  await checkLevel(page, 'level-safe-consumer', lv, win, `${what}: level won`);
  check(await page.isVisible('#level-safe-consumer.bp-complete .bp-level-status'), `${what}: level complete shown`);

  await page.screenshot({ path: path.join(SHOTS, `playground-${width}.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check(bg !== 'rgb(251, 251, 249)', `${what}: the dark theme changes the background (${bg})`);
  await page.screenshot({ path: path.join(SHOTS, `playground-${width}-dark.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  if (!full) {
    const home = await reopen(page, `${origin}/`);
    const homeOverflow = await home.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(homeOverflow <= 0, `${what}: the home page scrolls sideways by ${homeOverflow}px`);
    await home.screenshot({ path: path.join(SHOTS, `home-${width}.png`), fullPage: true });
    await context.close();
    return;
  }

  // ---- keyboard only, on a fresh page
  const kb = await reopen(page, `${origin}/${PAGE}`);
  await kb.waitForSelector('section.bp-compare.bp-live');
  await kb.keyboard.press('Tab');
  check(await focused(kb, 'a.bp-skip'), `${what}: the first Tab reaches the skip link`);
  const skip = await kb.$eval('a.bp-skip', (a) => a.getBoundingClientRect().top);
  check(skip >= 0, `${what}: the focused skip link is on screen`);
  await tabTo(kb, '#level-mini .bp-toggle-btn', `${what}: keyboard`);
  await kb.keyboard.press('Space');
  await checkToggle(kb, mini, 1 - mini.start, `${what}: mini board toggled with Space`);
  await kb.keyboard.press('Enter');
  await checkToggle(kb, mini, mini.start, `${what}: mini board toggled back with Enter`);
  await tabTo(kb, `.bp-switch[data-board="${boards[0]}"]`, `${what}: keyboard`);
  await kb.keyboard.press('ArrowRight');
  check(await focused(kb, `.bp-switch[data-board="${boards[1]}"]`), `${what}: ArrowRight moves along the switcher`);
  await checkCompare(kb, boards[0], `${what}: arrow keys only move focus`);
  await kb.keyboard.press('Enter');
  await checkCompare(kb, boards[1], `${what}: switcher by Enter`);
  await kb.keyboard.press('ArrowLeft');
  await kb.keyboard.press('Space');
  await checkCompare(kb, boards[0], `${what}: switcher by ArrowLeft and Space`);
  // the level: Tab into each radio group, arrow keys pick the option
  await tabTo(kb, `#level-safe-consumer input[name="${lv.id}-0"]`, `${what}: keyboard`);
  cur = comboOptions(lv, lv.start);
  for (let i = 0; i < winOpts.length; i++) {
    if (i > 0) {
      await kb.keyboard.press('Tab');
      check(await focused(kb, `#level-safe-consumer input[name="${lv.id}-${i}"]`), `${what}: Tab reaches choice ${i}`);
    }
    while (cur[i] !== winOpts[i]) {
      await kb.keyboard.press('ArrowRight');
      cur[i] = (cur[i] + 1) % lv.choices[i].options.length;
      const now = cur.reduce((acc, o, k) => acc * lv.choices[k].options.length + o, 0);
      await checkLevel(kb, 'level-safe-consumer', lv, now, `${what}: level by keyboard`);
    }
  }
  await checkLevel(kb, 'level-safe-consumer', lv, win, `${what}: level won by keyboard`);
  await tabTo(kb, '#level-safe-consumer .bp-reset', `${what}: keyboard`, 10);
  await kb.keyboard.press('Enter');
  await checkLevel(kb, 'level-safe-consumer', lv, lv.start, `${what}: Reset by keyboard`);
  check(await focused(kb, '#level-safe-consumer .bp-reset'), `${what}: focus stays on Reset`);

  // ---- state from the URL fragment
  const target = comboOptions(lv, win);
  const frag = `#level-mini=${1 - mini.start}&board-${boards[1]}&level-safe-consumer=${target.join('.')}`;
  const fr = await reopen(page, `${origin}/${PAGE}${frag}`);
  await fr.waitForSelector('section.bp-compare.bp-live');
  await checkCompare(fr, boards[1], `${what}: switcher from the fragment`);
  await checkToggle(fr, mini, 1 - mini.start, `${what}: mini board from the fragment`);
  await checkLevel(fr, 'level-safe-consumer', lv, win, `${what}: level from the fragment`);
  eq(await hash(fr), frag, `${what}: the fragment is kept`);
  // a link to a state, followed on the page (hashchange)
  await fr.evaluate((b) => { location.hash = `#board-${b}`; }, boards[0]);
  await fr.waitForFunction((b) => document.querySelector(`.bp-switch[data-board="${b}"]`).getAttribute('aria-pressed') === 'true', boards[0]);
  await checkCompare(fr, boards[0], `${what}: switcher follows a followed link`);
  await checkLevel(fr, 'level-safe-consumer', lv, win, `${what}: other widgets keep their state`);
  // a malformed state changes nothing
  await fr.evaluate(() => { location.hash = '#level-safe-consumer=9.9.9'; });
  await fr.waitForTimeout(50);
  await checkLevel(fr, 'level-safe-consumer', lv, win, `${what}: a bad fragment is ignored`);

  // ---- a link to one board from the address bar
  const one = await reopen(page, `${origin}/${PAGE}#board-${boards[1]}`);
  await one.waitForSelector('section.bp-compare.bp-live');
  await checkCompare(one, boards[1], `${what}: #board-${boards[1]}`);
  const inView = await one.$eval(`#board-${boards[1]}`, (f) => {
    const r = f.getBoundingClientRect();
    return r.top < window.innerHeight && r.bottom > 0;
  });
  check(inView, `${what}: #board-${boards[1]} scrolls its board into view`);

  // ---- the print sheet shows every board, whichever is picked
  await one.emulateMedia({ media: 'print' });
  for (const f of await one.$$('section.bp-compare figure.bp-board'))
    check(await f.isVisible(), 'print: every board of the compare is shown');
  check(!(await one.isVisible('.bp-switcher')), 'print: the switcher is not printed');
  await one.screenshot({ path: path.join(SHOTS, 'playground-print.png'), fullPage: true });
  await context.close();
}

// Without JavaScript every board, table and starting state is on the page.
async function noScriptRun(browser, origin, problems) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
  await guard(context, origin, problems);
  const page = await openPage(context, `${origin}/${PAGE}`, problems);
  const what = 'without JavaScript';
  await checkNumbers(page, what);
  for (const sel of ['.bp-switcher', '.bp-toggle-btn', 'form.bp-choices', '.bp-reset'])
    check(!(await page.isVisible(sel)), `${what}: ${sel} is hidden`);
  const figs = await page.$$('section.bp-compare figure.bp-board');
  check(figs.length >= 2, `${what}: every board of the compare is on the page`);
  for (const f of figs) check(await f.isVisible(), `${what}: each board is shown`);
  check(await page.isVisible('#level-safe-consumer .bp-level-start'), `${what}: the level's start is described`);
  const lv = await page.$eval('#level-safe-consumer script.bp-data', (s) => JSON.parse(s.textContent));
  await checkLevel(page, 'level-safe-consumer', lv, lv.start, what);
  await imagesLoaded(page, 'img');
  await page.screenshot({ path: path.join(SHOTS, 'playground-1280-nojs.png'), fullPage: true });
  await context.close();
}

// Only the site's own files may load: every other request is recorded (the
// test server is the only one listening, so nothing leaves the machine).
async function guard(context, origin, problems) {
  context.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(origin + '/') && !url.startsWith('data:')) problems.push(`request outside the site: ${url}`);
  });
  context.on('requestfailed', (r) => {
    // Chromium fetches the favicon on its own schedule and aborts that fetch
    // when the test navigates or closes the page first: not the site's fault
    // (a missing favicon still shows as an HTTP error below).
    // The same for a drawing: a <picture> drops the fetch of a rendering it
    // no longer wants when the theme or width changes, and the page script
    // drops one it has replaced (a missing drawing is an HTTP error below).
    const aborted = r.failure()?.errorText === 'net::ERR_ABORTED';
    if (aborted && r.url().endsWith('.svg')) return;
    problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  context.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
}

// ------------------------------------------------------------ main

const started = Date.now();
fs.mkdirSync(SHOTS, { recursive: true });
const server = await serve(SITE);
const origin = `http://127.0.0.1:${server.address().port}`;
let browser;
let status = 0;
const problems = [];
try {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  await scriptedRun(browser, origin, 320, false, problems);
  await scriptedRun(browser, origin, 1280, true, problems);
  await noScriptRun(browser, origin, problems);
  check(problems.length === 0, `no console errors and no failed requests:\n  ${problems.join('\n  ')}`);
  const shots = fs.readdirSync(SHOTS).filter((f) => f.endsWith('.png')).sort();
  console.log(`browser test: ${checks} checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
    `screenshots in ${path.relative(process.cwd(), SHOTS) || '.'}: ${shots.join(', ')}`);
} catch (e) {
  status = 1;
  if (e instanceof CheckFailed) console.error(`browser test FAILED: ${e.message}`);
  else console.error(`browser test FAILED: ${e.stack || e}`);
  if (problems.length && !(e instanceof CheckFailed && e.message.startsWith('no console')))
    console.error(`also seen:\n  ${problems.join('\n  ')}`);
} finally {
  if (browser) await browser.close();
  server.close();
}
process.exit(status);
