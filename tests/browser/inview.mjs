// inview.mjs — results in view: a reader who moves a control of a level
// sees what the move changed without scrolling. Run by tests/run-inview.sh
// on the real site (content/), in Debian's Chromium (playwright-core).
//
// usage: node inview.mjs SITE_DIR
//
// At 1280×800 and at 375×667, on every page with a level:
//   - every control of every live level (each slider, each handle on a
//     drawing, each draggable number in prose that moves it) is brought
//     into view as a reader would have it and moved by the keyboard, three
//     times (one step, to its end, back to its start); once the browser has
//     measured the new state, every element with data-measure (in the
//     level or elsewhere on the page) whose text changed, of those the
//     page draws at all, has at least one element of the same measure
//     inside the viewport, shown;
//   - at 1280×800, each slider of a live level and the numbers on its
//     board fit in one view (from the higher's top to the lower's bottom);
//   - at 375 px, each option of every level (a radio, a toggle's button) is
//     chosen in turn, and the level's verdict (.bp-level-status) is then
//     inside the viewport (a toggle's level, which has none, its counts
//     line);
//   - a level with its own verdict (not a live one): after an option is
//     chosen (each in turn at 375 px, one at 1280 px) the verdict is as tall
//     as its lines and padding, the level as tall as before, and its Reset,
//     scrolled to the top of the viewport, is not under the verdict;
//   - the site has at least one handle on a drawing, one draggable number
//     in prose and one sweep among the controls moved.
// Exits 1 after listing every failed check.

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { serve } from './serve.mjs';

const [siteArg] = process.argv.slice(2);
if (!siteArg) {
  console.error('usage: node inview.mjs SITE_DIR');
  process.exit(2);
}
const SITE = path.resolve(siteArg);
const CHROMIUM = process.env.BP_CHROMIUM || '/usr/bin/chromium';
const VIEWS = [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
];

const failures = [];
let checks = 0, moves = 0;
const kinds = { h: 0, s: 0, sweep: 0 }; // handles, scrubs and sweeps met
function check(ok, what) {
  checks++;
  if (!ok) failures.push(what);
}

function pagesWithLevels(root) {
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(root, e.name, 'index.html')))
    .map((e) => e.name)
    .filter((n) => fs.readFileSync(path.join(root, n, 'index.html'), 'utf8').includes('class="bp-level'))
    .sort();
}

// In the page: every data-measure's text, in document order, and a marker
// on each so the same element is found again.
function snapshot(page) {
  return page.evaluate(() => {
    const out = [];
    document.querySelectorAll('[data-measure]').forEach((el, i) => {
      if (!el.hasAttribute('data-inview-id')) el.setAttribute('data-inview-id', 'm' + i + '-' + Math.random());
      out.push([el.getAttribute('data-inview-id'), el.getAttribute('data-measure'), el.textContent]);
    });
    return out;
  });
}

// The measures whose text changed between two snapshots, and for each
// whether one of its elements is shown inside the viewport.
function changedInView(page, before) {
  return page.evaluate((before) => {
    const was = new Map(before.map(([id, , text]) => [id, text]));
    // drawn at all (a drawing of other options, the other theme's, is not)
    const rendered = (el) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return false;
      for (let e = el; e && e.nodeType === 1; e = e.parentNode) {
        const cs = getComputedStyle(e);
        if (cs.display === 'none' || cs.visibility === 'hidden' || Number(cs.opacity) === 0) return false;
      }
      return true;
    };
    const shown = (el) => {
      const r = el.getBoundingClientRect();
      if (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) return false;
      return rendered(el);
    };
    const changed = new Set();
    document.querySelectorAll('[data-measure]').forEach((el) => {
      const id = el.getAttribute('data-inview-id');
      if (id && was.has(id) && was.get(id) !== el.textContent && rendered(el))
        changed.add(el.getAttribute('data-measure'));
    });
    const out = {};
    for (const name of changed)
      out[name] = [...document.querySelectorAll(`[data-measure="${name}"]`)].some(shown);
    return out;
  }, before);
}

// Waits until the level has measured a state other than `state` in the
// browser (or said it cannot: stale).
async function measured(page, levelId, state) {
  await page.waitForFunction(
    ([id, state]) => {
      const s = document.getElementById(id);
      const m = s.getAttribute('data-measured');
      return s.getAttribute('data-state') !== state && (m === 'browser' || m === 'stale') &&
        !s.hasAttribute('aria-busy');
    },
    [levelId, state],
    { timeout: 60000 },
  );
}

// Every control that moves a live level: its sliders, its handles, the
// draggable numbers anywhere on the page that name one of its choices.
async function controlsOf(page, levelId) {
  return page.evaluate((id) => {
    const s = document.getElementById(id);
    const sets = [...s.querySelectorAll('input[type="range"][data-set]')].map((el) => el.getAttribute('data-set'));
    const sel = [];
    s.querySelectorAll('input[type="range"]').forEach((el) => sel.push('#' + el.id));
    let n = 0;
    const mark = (el, kind) => {
      const cs = getComputedStyle(el);
      if (el.getClientRects().length === 0 || cs.visibility === 'hidden') return;
      el.setAttribute('data-inview-control', id + '-' + kind + n);
      sel.push(`[data-inview-control="${id}-${kind}${n++}"]`);
    };
    s.querySelectorAll('[data-handle]').forEach((el) => mark(el, 'h'));
    document.querySelectorAll('[data-scrub]').forEach((el) => {
      // a scrub names its level (data-level); one without moves the slider of its setting
      if (el.hasAttribute('data-level') ? el.getAttribute('data-level') === s.getAttribute('data-level')
        : sets.includes(el.getAttribute('data-scrub')))
        mark(el, 's');
    });
    return sel;
  }, levelId);
}

async function moveAndCheck(page, levelId, selector, key, where) {
  if (process.env.INVIEW_DEBUG) console.error(where, levelId, selector, key);
  const ctl = page.locator(selector).first();
  await ctl.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'nearest' }));
  await ctl.focus();
  const state = await page.evaluate((id) => document.getElementById(id).getAttribute('data-state'), levelId);
  const valueOf = (el) => (el.matches('input') ? el.value : el.getAttribute('aria-valuenow'));
  const was = await ctl.evaluate(valueOf);
  const before = await snapshot(page);
  await page.keyboard.press(key);
  if ((await ctl.evaluate(valueOf)) === was) {
    // that key did not move it (already at that end): nothing to see
    return;
  }
  moves++;
  await measured(page, levelId, state);
  const seen = await changedInView(page, before);
  for (const [name, ok] of Object.entries(seen))
    check(ok, `${where}: after ${key} on ${selector}, no '${name}' is inside the viewport`);
}

// A level's own verdict (p.bp-level-status, sticky to the viewport's
// bottom) after an option was chosen: as tall as its words and padding
// (at these widths every verdict fits on one line, so more is an empty
// band over the board), and, scrolled to the level's end, it leaves its
// Reset button uncovered.
async function verdictFits(page, id, where) {
  const v = await page.evaluate((id) => {
    const bar = document.querySelector(`#${id} > .bp-level-status`);
    if (!bar) return null;
    const cs = getComputedStyle(bar);
    const r = document.createRange();
    r.selectNodeContents(bar);
    const tops = new Set([...r.getClientRects()].map((q) => Math.round(q.top)));
    const lh = parseFloat(cs.lineHeight);
    return { h: bar.getBoundingClientRect().height, lines: tops.size, lh,
      pad: parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom) };
  }, id);
  if (!v) return;
  check(v.h <= v.lines * v.lh + v.pad + 2,
    `${where}: ${id}'s verdict is ${Math.round(v.h)} px tall for ${v.lines} line(s) of ${v.lh} px and ${v.pad} px of padding`);
  const reset = page.locator(`#${id} > button.bp-reset`);
  if ((await reset.count()) === 0 || !(await reset.isVisible())) return;
  const covered = await reset.evaluate((b) => {
    window.scrollTo(0, b.getBoundingClientRect().top + scrollY - 4);
    const r = b.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return at && b.contains(at) ? null : (at ? at.className || at.tagName : 'nothing');
  });
  check(covered === null, `${where}: ${id}'s Reset, at the top of the viewport, is under ${covered}`);
}

async function main() {
  const server = await serve(SITE);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    for (const view of VIEWS) {
      const ctx = await browser.newContext({ viewport: view });
      for (const slug of pagesWithLevels(SITE)) {
        const page = await ctx.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(base + slug + '/');
        const where = `${slug} at ${view.width}x${view.height}`;
        const live = await page.$$eval('section.bp-live-level', (ss) => ss.map((s) => s.id));
        for (const id of live) {
          await page.waitForFunction((id) => document.getElementById(id).classList.contains('bp-live'), id, {
            timeout: 60000,
          });
          if (view.width === 1280) {
            // each slider and the board's numbers it moves fit one view
            const far = await page.evaluate((id) => {
              const s = document.getElementById(id);
              const nums = [...s.querySelectorAll('.bp-live-board svg [data-measure]')]
                .map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0);
              if (!nums.length) return [];
              const lo = Math.min(...nums.map((r) => r.top)), hi = Math.max(...nums.map((r) => r.bottom));
              return [...s.querySelectorAll('.bp-slider')].map((el) => {
                const r = el.getBoundingClientRect();
                return [(el.querySelector('label') || el).textContent.trim(), Math.max(hi, r.bottom) - Math.min(lo, r.top)];
              }).filter(([, span]) => span > innerHeight);
            }, id);
            for (const [slider, span] of far)
              check(false, `${where}: ${id}'s slider “${slider}” and the board's numbers span ${Math.round(span)} px, more than the window`);
            if (!far.length) check(true, '');
          }
          kinds.sweep += await page.locator(`#${id} figure.bp-sweep`).count();
          for (const sel of await controlsOf(page, id)) {
            const kind = /-([hs])\d+"\]$/.exec(sel);
            if (kind) kinds[kind[1]]++;
            for (const key of ['ArrowRight', 'End', 'Home']) await moveAndCheck(page, id, sel, key, where);
          }
        }
        if (view.width === 1280) {
          // one option of each level with its own verdict, then the verdict
          for (const id of await page.$$eval('section.bp-level', (ss) => ss.map((s) => s.id))) {
            if (live.includes(id)) continue;
            const opt = page.locator(`#${id} input[type="radio"]:not(:checked)`).first();
            if ((await opt.count()) === 0) continue;
            await opt.scrollIntoViewIfNeeded();
            await opt.click();
            await verdictFits(page, id, where);
          }
        }
        if (view.width === 375) {
          const levels = await page.$$eval('section.bp-level', (ss) => ss.map((s) => s.id));
          const heights = new Map(); // a level's height: the same after every option
          for (const id of levels) {
            const isLive = live.includes(id);
            const opts = await page.$$eval(`#${id} input[type="radio"], #${id} button.bp-toggle-btn`, (els) =>
              els.map((_, i) => i),
            );
            for (const i of opts) {
              const opt = page.locator(`#${id} input[type="radio"], #${id} button.bp-toggle-btn`).nth(i);
              const state = await page.evaluate((id) => document.getElementById(id).getAttribute('data-state'), id);
              await opt.scrollIntoViewIfNeeded();
              await opt.click();
              if (isLive) {
                const now = await page.evaluate((id) => document.getElementById(id).getAttribute('data-state'), id);
                if (now !== state) await measured(page, id, state);
              }
              let status = page.locator(`#${id} .bp-level-status`);
              if ((await status.count()) === 0) status = page.locator(`#${id} .bp-counts`);
              if ((await status.count()) === 0) continue;
              const inView = await status.evaluate((el) => {
                const r = el.getBoundingClientRect();
                return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
              });
              check(inView, `${where}: after option ${i + 1} of ${id}, its verdict is not inside the viewport`);
              if (!isLive) {
                const h = await page.evaluate((id) => document.getElementById(id).getBoundingClientRect().height, id);
                if (heights.has(id))
                  check(Math.abs(h - heights.get(id)) < 1,
                    `${where}: option ${i + 1} of ${id} made the level ${h} px tall (was ${heights.get(id)})`);
                heights.set(id, h);
                await verdictFits(page, id, where);
              }
            }
          }
        }
        check(errors.length === 0, `${where}: page errors: ${errors.join('; ')}`);
        await page.close();
      }
      await ctx.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  check(kinds.h > 0, 'no live level has a handle on its drawing');
  check(kinds.s > 0, 'no page has a draggable number in prose');
  check(kinds.sweep > 0, 'no live level has a sweep');
  if (failures.length) {
    for (const f of failures) console.error('FAIL: ' + f);
    process.exit(1);
  }
  console.log(`inview: ${checks} checks passed, ${moves} moves (${kinds.h} handles, ${kinds.s} draggable ` +
    `numbers, ${kinds.sweep} sweeps)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
