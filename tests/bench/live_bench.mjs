// live_bench.mjs — the Chromium side of make bench (tests/bench/run.py):
//
//   node tests/bench/live_bench.mjs SITE_DIR WIRE_DIR
//
// serves the built site SITE_DIR on 127.0.0.1, opens in Debian's Chromium
// (playwright-core) the page of its largest live level with a slider (the
// most jobs × replications at its starting state, then the most events
// there, as the module counts them in Node: the same every run, where a
// timing could pick another of two close levels), and times:
// compiling simcore.wasm from its bytes and instantiating it through
// bp-sim.js (10 times each), and every slider move of a sweep of each
// slider over a dozen of its positions and back to its start, as a reader
// makes it (the slider's value set, an input event): the simulation
// itself (bp-live.js's own timing, in the bp-live-result event) and the
// time from the input event to the numbers rewritten; then a 2-second drag of
// each slider by the mouse, there and back, and the page's long tasks
// (PerformanceObserver 'longtask') during it; then, on the heaviest live
// level with a sweep and another slider, a 2-second drag of each of its
// other sliders to the end away from its start and the
// times from the drag's end (its last input event that changed the
// slider's value: the mouse rests on the last value a while before the
// release) to the sweep's first pass and its refinement drawn (bp-live.js's
// bp-sweep events). Each move's wire bytes go to
// WIRE_DIR/move-N.wire (put together by bp-live.js as the page does), so
// the bench can time the same boards natively (simdrv wire). One JSON
// line on stdout.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { serve } from '../browser/serve.mjs';

const require = createRequire(import.meta.url);
// playwright-core as tests/browser/package-lock.json pins it (tests/browser/ready.sh)
const HERE = path.dirname(fileURLToPath(import.meta.url));
const { chromium } = createRequire(path.join(HERE, '..', 'browser', 'package.json'))('playwright-core');
const [siteArg, wireDir] = process.argv.slice(2);
if (!siteArg || !wireDir) {
  console.error('usage: node live_bench.mjs SITE_DIR WIRE_DIR');
  process.exit(2);
}
const SITE = path.resolve(siteArg);
const BpLive = require(path.join(SITE, 'static', 'bp-live.js'));
const { liveLevels } = require('../live/levels.js');
const STOPS = 12;

// A 2-second drag of the slider sel by the mouse, as a reader makes it,
// with the page's long tasks (PerformanceObserver 'longtask', over 50 ms)
// gathered from the press on into window.__longtasks (the caller
// disconnects window.__obs when it has what it waits for). where(u) is the
// thumb's place along the track (0 to 1) at u of the 2 seconds. Returns
// the mouse moves made and the page's clock (performance.now) at the
// release.
async function drag(page, sel, where) {
  await page.locator(sel).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = await page.locator(sel).boundingBox();
  await page.evaluate(() => {
    window.__longtasks = [];
    window.__obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longtasks.push(e.duration);
    });
    window.__obs.observe({ type: 'longtask', buffered: false });
  });
  const y = box.y + box.height / 2, x0 = box.x + 4, x1 = box.x + box.width - 4;
  const t0 = Date.now();
  await page.mouse.move(x0, y);
  await page.mouse.down();
  let moves = 0;
  while (Date.now() - t0 < 2000) {
    await page.mouse.move(x0 + (x1 - x0) * where((Date.now() - t0) / 2000), y);
    moves++;
    await page.waitForTimeout(16);
  }
  const up = await page.evaluate(() => performance.now());
  await page.mouse.up();
  return { moves, up };
}

async function main() {
  const levels = liveLevels(SITE, null);
  if (!levels.length) throw new Error(`${SITE} has no live level`);
  fs.mkdirSync(wireDir, { recursive: true });
  const BpSim = require(path.join(SITE, 'static', 'bp-sim.js'));
  const sim = await BpSim.load(fs.readFileSync(path.join(SITE, 'static', 'simcore.wasm')));
  // the heaviest of the levels that pass test (the first of two alike),
  // on their own pages (not an embed's)
  const sizes = new Map();
  const heaviest = (test) => {
    let best = null, most = null;
    for (const l of levels) {
      if (l.url.includes('/embed/') || !test(l)) continue;
      if (!sizes.has(l)) {
        const r = sim.simulate(BpLive.assemble(BpLive.prepare(l.data), l.data.start));
        sizes.set(l, [l.data.jobs * l.data.replications, r.measures.events.mean * r.replications]);
      }
      const size = sizes.get(l);
      if (!most || size[0] > most[0] || (size[0] === most[0] && size[1] > most[1])) [best, most] = [l, size];
    }
    return best;
  };
  const level = heaviest((l) => l.data.choices.some((c) => c.range));
  if (!level) throw new Error(`${SITE} has no live level with a slider`);
  const data = level.data, prep = BpLive.prepare(data);
  const sliders = data.choices.map((c, i) => (c.range ? i : -1)).filter((i) => i >= 0);

  const server = await serve(SITE);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: process.env.BP_CHROMIUM || '/usr/bin/chromium' });
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(origin + '/' + level.url);
  await page.waitForFunction((id) => {
    const s = document.getElementById(id);
    return s && s.classList.contains('bp-live') && s.getAttribute('data-measured') === 'build';
  }, level.id, { timeout: 30000 });

  // loading: compile from the bytes, instantiate through bp-sim.js
  const load = await page.evaluate(async (url) => {
    const bytes = await (await fetch(url)).arrayBuffer();
    const compile = [], instantiate = [];
    for (let i = 0; i < 10; i++) {
      let t0 = performance.now();
      const m = await WebAssembly.compile(bytes);
      compile.push(performance.now() - t0);
      t0 = performance.now();
      await self.BpSim.load(m);
      instantiate.push(performance.now() - t0);
    }
    return { compile, instantiate, bytes: bytes.byteLength };
  }, origin + '/static/simcore.wasm');

  // the moves: each slider over STOPS of its positions, then back
  const positions = data.start.slice(), moves = [];
  for (const i of sliders) {
    const n = data.choices[i].values.length, stops = [];
    for (let k = 0; k < STOPS; k++) stops.push(Math.round((k * (n - 1)) / (STOPS - 1)));
    stops.push(data.start[i]);
    for (const k of stops) {
      if (k === positions[i]) continue;
      positions[i] = k;
      const state = positions.join('.');
      const t = await page.evaluate(([id, i, k, state]) => new Promise((resolve, reject) => {
        const sec = document.getElementById(id), input = document.getElementById(`${id}-${i}`);
        const timer = setTimeout(() => reject(new Error(`no result for ${state}`)), 30000);
        sec.addEventListener('bp-live-result', function done(ev) {
          if (ev.detail.state !== state) return;
          sec.removeEventListener('bp-live-result', done);
          clearTimeout(timer);
          resolve({ sim: ev.detail.ms, shown: performance.now() - t0, place: ev.detail.place });
        });
        const t0 = performance.now();
        input.value = String(k);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }), [level.id, i, k, state]);
      if (t.place === 'none') throw new Error(`${level.id} at ${state} did not run`);
      const file = path.join(wireDir, `move-${moves.length}.wire`);
      fs.writeFileSync(file, BpLive.assemble(prep, positions));
      moves.push({ set: data.choices[i].set, state, sim_ms: t.sim, shown_ms: t.shown, place: t.place, wire: file });
    }
  }
  // a 2-second drag of each slider there and back: the page's long tasks
  // from the press to the last result shown
  const drags = [];
  for (const i of sliders) {
    const { moves } = await drag(page, `#${level.id}-${i}`, (u) => (u < 0.5 ? 2 * u : 2 - 2 * u));
    const end = await page.evaluate((id) => new Promise((resolve) => {
      // the drag's last state measured and shown
      const sec = document.getElementById(id);
      const done = () => !sec.hasAttribute('aria-busy') && sec.getAttribute('data-measured') !== 'pending';
      const poll = () => (done() ? requestAnimationFrame(() => resolve(true)) : setTimeout(poll, 10));
      poll();
    }), level.id);
    const long = await page.evaluate(() => {
      window.__obs.disconnect();
      return window.__longtasks;
    });
    drags.push({ set: data.choices[i].set, moves, shown: end, longtasks: long });
  }

  // a sweep (of the heaviest level with one and another slider to move):
  // a 2-second drag of
  // each of its other sliders, then the times from the drag's last
  // change of value to the sweep's first pass (one replication a point) and to its
  // refinement (the level's replications) drawn, and the long tasks
  const sweeps = [];
  const swept = heaviest((l) => l.data.choices.some((c) => c.sweep) &&
    l.data.choices.some((c) => c.range && !c.sweep));
  if (swept) {
    const sp = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    sp.on('pageerror', (e) => errors.push(e.message));
    await sp.addInitScript(() => {
      window.__sweep = [];
      document.addEventListener('bp-sweep', (e) => window.__sweep.push(e.detail), true);
      // the drag's end: the last input event that changed a slider's value
      // (the mouse may rest on the last value a while before its release,
      // and a pass done by then is not a pass that took no time)
      window.__changed = 0;
      document.addEventListener('input', (e) => {
        const t = e.target;
        if (!t || t.type !== 'range' || t.value === t.__bpLast) return;
        t.__bpLast = t.value;
        window.__changed = performance.now();
      }, true);
    });
    await sp.goto(origin + '/' + swept.url);
    await sp.waitForFunction((id) => document.getElementById(id).classList.contains('bp-live'), swept.id, { timeout: 30000 });
    const sd = swept.data, si = sd.choices.findIndex((c) => c.sweep);
    for (const [i, c] of sd.choices.entries()) {
      if (i === si || !c.range) continue;
      await sp.evaluate(() => { window.__sweep.length = 0; });
      // across once, to the end away from the start (a start at the
      // far end would leave the sweep the build's)
      const high = sd.start[i] * 2 >= c.values.length - 1;
      const { up } = await drag(sp, `#${swept.id}-${i}`, (u) => (high ? 1 - u : u));
      const t = await sp.evaluate(([id, up]) => new Promise((resolve, reject) => {
        const fig = document.querySelector(`#${id} figure.bp-sweep`);
        const timer = setTimeout(() => reject(new Error('no refined sweep')), 120000);
        const poll = () => {
          if (fig.getAttribute('data-pass') !== 'full') return setTimeout(poll, 20);
          clearTimeout(timer);
          // the passes of the last state: every pass of an earlier one
          // ended before its change (a change drops the pass under way)
          const end = window.__changed, ev = window.__sweep.filter((d) => d.at >= end);
          const first = ev.find((d) => d.pass === 'first'), full = ev.find((d) => d.pass === 'full');
          window.__obs.disconnect();
          if (!full) return reject(new Error('the refined sweep came before the last move'));
          // a level too heavy to refine draws one pass only, its 'full'
          resolve({ first_ms: (first || full).at - end, full_ms: full.at - end, release_ms: up - end,
            refined: !!first, points: fig.querySelectorAll('.bp-sweep-point').length,
            longtasks: window.__longtasks });
        };
        poll();
      }), [swept.id, up]);
      sweeps.push({ level: swept.id, set: c.set, sweep: sd.choices[si].set, replications: sd.replications, ...t });
    }
    await sp.close();
  }

  const chromeVersion = browser.version();
  await browser.close();
  server.close();
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  console.log(JSON.stringify({ level: level.id, page: level.url, jobs: data.jobs, replications: data.replications,
    chromium: chromeVersion, module_bytes: load.bytes, compile_ms: load.compile, instantiate_ms: load.instantiate, moves,
    drags, sweeps }));
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
