// timeline.mjs — timelines to step through, in Debian's Chromium
// (playwright-core), on the real site (content/). Run by
// tests/run-timeline-browser.sh.
//
// usage: node timeline.mjs SITE_DIR SHOTS_DIR
//
// At 375×667 and 1280×800, light and dark, on every page with a timeline
// (figure.bp-timeline[data-rows]):
//   - without JavaScript, the shown drawing has every row (rect[data-row],
//     one per data-rows entry) and each fold (details.bp-fold) opens when
//     its line is clicked, showing its piece of the drawing; at 1280 px
//     the wide drawing is at most DRAW_WIDE_MAX px and is the one shown;
//   - with it, the step buttons (button[data-step]) move data-active
//     through the rows in order, by Enter and Space on "Next event": after
//     the k-th press exactly row k-1 is active (in the shown drawing), the
//     lane headers active are the row's lanes (data-lanes), a fold that
//     hides the row is open, and the words under the drawing say "Event k
//     of N"; "Previous" steps back one; "Play" moves on by itself; half
//     way, the buttons in view are not covered (a level's sticky verdict
//     stays above them);
//   - at 375 px, the "ten deliveries" timeline (replay-transfer) is at most
//     60% as tall folded as open;
//   - a level's timelines (one figure per combination, data-combo, in
//     .bp-level-timelines): each is stepped through as above after the
//     level is set to its combination by its toggle or options, as a reader
//     does; then it is the one shown, the others hidden, the level as tall
//     as before the switch, and a timeline playing when the level switches
//     away from it stops;
//   - no page shows a timeline as a picture (every one can be stepped).
// Screenshots of each timeline mid-way go to SHOTS_DIR. Exits 1 after
// listing every failed check.

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { serve } from './serve.mjs';

const [siteArg, shotsArg] = process.argv.slice(2);
if (!siteArg || !shotsArg) {
  console.error('usage: node timeline.mjs SITE_DIR SHOTS_DIR');
  process.exit(2);
}
const SITE = path.resolve(siteArg);
const SHOTS = path.resolve(shotsArg);
const CHROMIUM = process.env.BP_CHROMIUM || '/usr/bin/chromium';
const VIEWS = [{ width: 375, height: 667 }, { width: 1280, height: 800 }];
const THEMES = ['light', 'dark'];
const DRAW_WIDE_MAX = 912; // draw.h: a wide drawing's most

const failures = [];
let checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) failures.push(what);
}

function pagesWithTimelines(root) {
  const pages = fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(root, e.name, 'index.html')))
    .map((e) => e.name);
  for (const n of pages) {
    const pictures = fs.readFileSync(path.join(root, n, 'index.html'), 'utf8')
      .match(/<img[^>]*(bp-level-timeline|src="[^"]*-timeline[-.])[^>]*>/g) || [];
    check(pictures.length === 0, `/${n}/ shows a timeline as a picture: ${pictures[0]}`);
  }
  return pages
    .filter((n) => /<figure class="bp-figure bp-timeline[^"]*"[^>]*data-rows=/.test(
      fs.readFileSync(path.join(root, n, 'index.html'), 'utf8')))
    .sort();
}

// A level's timeline figure id: the level set to its combination as a
// reader sets it (the toggle, or each choice's option), checked to show
// that timeline alone without moving what follows. Returns false when
// the figure is no level's.
async function chooseCombo(page, id, where) {
  const lv = await page.evaluate((id) => {
    const fig = document.getElementById(id), sec = fig.closest('section.bp-level');
    if (!sec || !fig.hasAttribute('data-combo')) return null;
    return { sec: sec.id, combo: Number(fig.getAttribute('data-combo')), shown: !fig.classList.contains('bp-off'),
      data: JSON.parse(sec.querySelector('script.bp-data').textContent), height: sec.getBoundingClientRect().height };
  }, id);
  if (!lv) return false;
  if (!lv.shown) {
    const opts = [];
    for (let i = lv.data.choices.length - 1, c = lv.combo; i >= 0; i--) {
      opts[i] = c % lv.data.choices[i].options.length;
      c = Math.floor(c / lv.data.choices[i].options.length);
    }
    if (lv.data.toggle) {
      const btn = page.locator(`#${lv.sec} .bp-toggle-btn`);
      if ((await btn.getAttribute('aria-pressed')) !== String(opts[0] === 1)) await btn.click();
    } else {
      for (let i = 0; i < opts.length; i++)
        await page.locator(`#${lv.sec} input[name="${lv.data.id}-${i}"][value="${opts[i]}"]`).check();
    }
  }
  const s = await page.evaluate(([id, sec]) => {
    const figs = [...document.querySelectorAll(`#${sec} .bp-level-timelines > figure[data-combo]`)];
    return { shown: figs.filter((f) => getComputedStyle(f).visibility === 'visible').map((f) => f.id),
      all: figs.length, height: document.getElementById(sec).getBoundingClientRect().height };
  }, [id, lv.sec]);
  check(s.all === lv.data.combos.length, `${where}: ${s.all} timelines for ${lv.data.combos.length} combinations`);
  check(s.shown.length === 1 && s.shown[0] === id, `${where}: the level set to its combination shows ${JSON.stringify(s.shown)}`);
  check(Math.abs(s.height - lv.height) < 1, `${where}: switching the level moved what follows (${lv.height} px to ${s.height} px tall)`);
  return true;
}

// In the page: the state of timeline figure f (its index among them).
function state(page, f) {
  return page.evaluate((f) => {
    const fig = document.querySelectorAll('figure.bp-timeline[data-rows]')[f];
    const look = [...fig.querySelectorAll('.bp-v')].find((v) => v.offsetParent !== null);
    const active = [...look.querySelectorAll('rect[data-row][data-active]')].map((r) => r.getAttribute('data-row'));
    const band = active.length ? look.querySelector(`rect[data-row="${active[0]}"]`) : null;
    const lanes = [...look.querySelectorAll('rect[data-lane][data-active]')].map((r) => r.getAttribute('data-lane')).sort();
    const hidden = [...look.querySelectorAll('details.bp-fold')].filter((d) => {
      const [a, b] = d.getAttribute('data-span').split(' ').map(Number);
      return active.length && Number(active[0]) >= a && Number(active[0]) < b && !d.open;
    }).length;
    const now = fig.querySelector('.bp-step-now');
    return {
      rows: fig.getAttribute('data-rows').split('|').length,
      drawn: look.querySelectorAll('rect[data-row]').length,
      active,
      wantLanes: band ? [...new Set(band.getAttribute('data-lanes').split(' '))].sort() : [],
      lanes,
      hidden,
      now: now ? now.textContent : '',
      folds: look.querySelectorAll('details.bp-fold').length,
      height: look.getBoundingClientRect().height,
      id: fig.id,
    };
  }, f);
}

async function noScript(browser, origin, rel, view, theme) {
  const context = await browser.newContext({ viewport: view, colorScheme: theme, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${origin}/${rel}/`, { waitUntil: 'load' });
  const n = await page.locator('figure.bp-timeline[data-rows]').count();
  for (let f = 0; f < n; f++) {
    const where = `/${rel}/ timeline ${f + 1} at ${view.width} px, ${theme}, no script`;
    const s = await state(page, f);
    check(s.drawn === s.rows, `${where}: the drawing shown has ${s.drawn} rows, the timeline ${s.rows}`);
    check((await page.locator(`#${s.id} button[data-step]`).count()) === 0, `${where}: step buttons without the script`);
    if (view.width === 1280) {
      // a desktop column (960 px, 918 in a level) holds every wide timeline:
      // laid out to at most DRAW_WIDE_MAX, and the wide one is what shows
      const w = await page.evaluate((id) => {
        const fig = document.getElementById(id);
        const svg = fig.querySelector('.bp-v-wide svg');
        return { wide: parseFloat(svg.getAttribute('viewBox').split(/[\s,]+/)[2]),
          box: fig.querySelector('.bp-variants').getBoundingClientRect().width,
          shown: [...fig.querySelectorAll('.bp-v')].filter((v) => v.offsetParent !== null).map((v) => v.className) };
      }, s.id);
      check(w.wide <= DRAW_WIDE_MAX, `${where}: the wide drawing is ${w.wide} px, wider than ${DRAW_WIDE_MAX}`);
      check(w.shown.length > 0 && w.shown.every((c) => /bp-v-wide/.test(c)),
        `${where}: a ${w.box} px box shows ${JSON.stringify(w.shown)} (its wide drawing is ${w.wide} px)`);
    }
    const summary = page.locator(`#${s.id} .bp-v:visible details.bp-fold > summary`);
    for (let k = 0; k < (await summary.count()); k++) {
      await summary.nth(k).click();
      const open = await summary.nth(k).evaluate((el) => el.parentNode.open &&
        el.parentNode.querySelector('svg').getBoundingClientRect().height > 0);
      check(open, `${where}: fold ${k + 1} did not open when its line was clicked`);
    }
  }
  await context.close();
}

async function stepping(browser, origin, rel, view, theme) {
  const context = await browser.newContext({ viewport: view, colorScheme: theme });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${origin}/${rel}/`, { waitUntil: 'load' });
  await page.evaluate(() => document.fonts.ready);
  const n = await page.locator('figure.bp-timeline[data-rows]').count();
  for (let f = 0; f < n; f++) {
    let s = await state(page, f);
    const where = `/${rel}/ #${s.id} at ${view.width} px, ${theme}`;
    const inLevel = await chooseCombo(page, s.id, where);
    if (inLevel) s = await state(page, f);
    const closed = s.height;
    const next = page.locator(`#${s.id} button[data-step="next"]`);
    const back = page.locator(`#${s.id} button[data-step="back"]`);
    check((await next.count()) === 1 && (await back.count()) === 1, `${where}: no step buttons`);
    if ((await next.count()) !== 1) continue;
    await next.focus();
    let inOrder = true;
    for (let k = 0; k < s.rows; k++) {
      await page.keyboard.press(k % 2 ? ' ' : 'Enter');
      s = await state(page, f);
      const ok = s.active.length === 1 && s.active[0] === String(k) &&
        JSON.stringify(s.lanes) === JSON.stringify(s.wantLanes) && s.hidden === 0 &&
        s.now.startsWith(`Event ${k + 1} of ${s.rows}`);
      if (!ok && inOrder) {
        inOrder = false;
        check(false, `${where}: after ${k + 1} presses of Next event: active rows ${JSON.stringify(s.active)}, ` +
          `lanes ${JSON.stringify(s.lanes)} (the row's ${JSON.stringify(s.wantLanes)}), ${s.hidden} folds hiding it, “${s.now}”`);
      }
      if (k === Math.floor(s.rows / 2)) {
        // the step buttons, in view, are not covered (by the level's sticky verdict)
        const covered = await page.evaluate((id) => {
          const out = [];
          for (const b of document.querySelectorAll(`#${id} button[data-step]`)) {
            const r = b.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            if (y < 0 || y >= innerHeight || x < 0 || x >= innerWidth) continue;
            const at = document.elementFromPoint(x, y);
            if (!at || !b.contains(at)) out.push(`${b.dataset.step} under ${at ? at.className || at.tagName : 'nothing'}`);
          }
          return out;
        }, s.id);
        check(covered.length === 0, `${where}: step buttons covered mid-way: ${covered.join(', ')}`);
        if (view.width === 375)
          await page.screenshot({ path: path.join(SHOTS, `timeline-${rel}-${f}-${theme}.png`) });
      }
    }
    if (inOrder) check(true, '');
    await back.focus();
    await page.keyboard.press('Enter');
    s = await state(page, f);
    check(s.active.length === 1 && s.active[0] === String(s.rows - 2), `${where}: Previous from the last row gave ${JSON.stringify(s.active)}`);
    if (rel === 'idempotent-messages' && view.width === 375) {
      check(s.folds > 0, `${where}: the ten deliveries fold no rows`);
      check(closed <= 0.6 * s.height, `${where}: folded ${Math.round(closed)} px, open ${Math.round(s.height)} px (want at most 60%)`);
    }
    // Play moves on by itself: wait for the row after the current one
    const at = Number(s.active[0]);
    await page.locator(`#${s.id} button[data-step="play"]`).click();
    await page.waitForFunction(([id, at]) => {
      const r = document.querySelector(`#${id} .bp-v rect[data-row][data-active]`);
      return r && Number(r.getAttribute('data-row')) > at;
    }, [s.id, at], { timeout: 10000 }).then(() => check(true, ''), () => check(false, `${where}: Play did not move on`));
    await page.locator(`#${s.id} button[data-step="play"]`).click();
    if (inLevel) {
      // playing, then the level switched away: that timeline stops
      const play = page.locator(`#${s.id} button[data-step="play"]`);
      await back.click();
      await play.click();
      const other = await page.evaluate((id) => {
        const fig = document.getElementById(id);
        const o = [...fig.parentNode.querySelectorAll('figure[data-combo]')].find((g) => g !== fig);
        return o ? o.id : null;
      }, s.id);
      if (other) {
        await chooseCombo(page, other, `${where}, switched away while playing`);
        check((await play.getAttribute('aria-pressed')) === 'false', `${where}: still playing once the level shows another timeline`);
      }
    }
  }
  check(errors.length === 0, `/${rel}/ at ${view.width} px, ${theme}: script errors: ${errors.join('; ')}`);
  await context.close();
}

async function run() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const server = await serve(SITE);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const list = pagesWithTimelines(SITE);
  check(list.includes('idempotent-messages'), 'no timeline to step through on /idempotent-messages/');
  check(list.includes('idempotent-consumer') && /class="bp-level-timelines"/.test(
    fs.readFileSync(path.join(SITE, 'idempotent-consumer', 'index.html'), 'utf8')),
  'no level timeline to step through on /idempotent-consumer/');
  try {
    for (const rel of list)
      for (const view of VIEWS)
        for (const theme of THEMES) {
          await noScript(browser, origin, rel, view, theme);
          await stepping(browser, origin, rel, view, theme);
        }
  } finally {
    await browser.close();
    server.close();
  }
  if (failures.length) {
    console.log(failures.join('\n'));
    console.log(`timeline: ${failures.length} of ${checks} checks failed`);
    process.exit(1);
  }
  console.log(`timeline: ok (${list.length} pages, ${checks} checks)`);
}

run().catch((e) => {
  console.error(e);
  process.exit(1);
});
