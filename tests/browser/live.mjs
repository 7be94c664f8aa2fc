// live.mjs — live levels in Debian's Chromium (playwright-core): the
// reader's browser re-simulates the board and every number agrees with the
// native build. Run by tests/run-live-browser.sh, which builds the sites.
//
// usage: node live.mjs BOARDPRESS SCREENSHOT_DIR SITE_DIR:CONTENT_DIR ...
//
// For every live level of every site: the numbers before any change are
// `boardpress sim LEVEL --display`'s (measured at build time, and said so);
// each slider moves to three positions (its min, middle and max) and each
// option list to every option, one after the other, and after each move
// every element with data-measure in the level reads as `boardpress sim
// LEVEL --set PATH=VALUE ... --display` formats it, every verdict is the
// native run's, every setting written on the diagrams is the slider's
// label, the diagram of the chosen options is the one shown, and the level
// says the numbers were measured in the browser. Then: the URL fragment
// opens the same state in a fresh page, Reset brings the start back, the
// arrow keys move a slider, the page without JavaScript shows the build's
// numbers, a page that cannot fetch the module says so; on the fixture's
// sandbox a large setting runs in a Web Worker and one past the cap does
// not run and says why; a number to drag in prose ({{ scrub }}) moves its
// level and the numbers in prose ({{ live }}) read as the native run; a
// sweep is redrawn when another choice changes (one run a point, then the
// level's replications, its points the native runs') and Reset brings the
// build's back; without JavaScript both and the sweep show the build's; every run is in the worker, and where a browser
// has none, a small run is on the page's thread. No console errors, no outside requests, no
// sideways scrolling on a phone. Screenshots at 375 and 1280 px, light and
// dark, go to SCREENSHOT_DIR. Exits 1 at the first failed check.

import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { serve } from './serve.mjs';

const { liveLevels } = createRequire(import.meta.url)('../live/levels.js');

const [BP, shotsArg, ...siteArgs] = process.argv.slice(2);
if (!BP || !shotsArg || !siteArgs.length) {
  console.error('usage: node live.mjs BOARDPRESS SCREENSHOT_DIR SITE_DIR:CONTENT_DIR ...');
  process.exit(2);
}
const SHOTS = path.resolve(shotsArg);
const CHROMIUM = process.env.BP_CHROMIUM || '/usr/bin/chromium';
const MAX_JOB_RUNS = 500000; // generator/web/bp-live.js

let checks = 0;
class CheckFailed extends Error {}
function check(ok, what) {
  checks++;
  if (!ok) throw new CheckFailed(what);
}
function eq(got, want, what) {
  check(got === want, `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// ------------------------------------------------------------ the native numbers

const simCache = new Map();

// `boardpress sim LEVEL --set ... --display` for a state (positions per choice).
function expected(level, positions) {
  const args = ['sim', path.join(level.content, level.data.file), '--display'];
  level.data.choices.forEach((c, i) => {
    if (positions[i] !== level.data.start[i]) args.push('--set', `${c.set}=${c.values[positions[i]].value}`);
  });
  const key = args.join('\n');
  if (!simCache.has(key)) simCache.set(key, JSON.parse(execFileSync(BP, args, { maxBuffer: 1 << 26 })));
  return simCache.get(key);
}

function work(data, positions) {
  let jobs = data.jobs, reps = data.replications;
  data.choices.forEach((c, i) => {
    const v = c.values[positions[i]];
    if (v.jobs !== undefined) jobs = v.jobs;
    if (v.replications !== undefined) reps = v.replications;
  });
  return jobs * reps;
}

// A goal's pass in the JSON; goal keys carry the unit (completion_time_s).
function goalPass(r, measure) {
  const key = Object.keys(r.goals).find((k) => k === measure || k === `${measure}_s` || k === `${measure}_usd`);
  check(key !== undefined, `sim has a goal for '${measure}' in ${r.board}`);
  return r.goals[key].pass;
}

// ------------------------------------------------------------ a level in the page

// What the level shows: every data-measure text, every verdict, the
// settings on the diagrams, the shown diagram, the controls.
async function shown(page, id) {
  return page.$eval(`#${id}`, (sec) => {
    const svgNS = 'http://www.w3.org/2000/svg';
    // what a reader sees: not the diagrams of the options not chosen
    const seen = (e) => !e.closest('.bp-live-drawing[hidden]');
    return {
      measures: [...sec.querySelectorAll('[data-measure]')].filter(seen).map((e) => [e.getAttribute('data-measure'), e.textContent]),
      goals: [...sec.querySelectorAll('[data-goal]')].filter(seen).map((e) => ({
        name: e.getAttribute('data-goal'),
        svg: e.namespaceURI === svgNS,
        text: e.namespaceURI === svgNS ? e.querySelector('[data-mark]').textContent : e.textContent,
        cls: e.getAttribute('class'),
        fill: e.getAttribute('fill'),
        pass: e.getAttribute('data-fill-pass'),
        failFill: e.getAttribute('data-fill-fail'),
      })),
      sets: [...sec.querySelectorAll('svg [data-set]')].filter(seen).map((e) => [e.getAttribute('data-set'), e.textContent]),
      drawings: [...sec.querySelectorAll('.bp-live-drawing')].map((d) => [d.getAttribute('data-options'), d.hidden]),
      sliders: [...sec.querySelectorAll('input[type="range"]')].map((s) => ({
        set: s.getAttribute('data-set'),
        value: s.value,
        dataValue: s.getAttribute('data-value'),
        valuetext: s.getAttribute('aria-valuetext'),
        output: sec.querySelector(`output[for="${s.id}"]`).textContent,
      })),
      where: sec.querySelector('.bp-live-where').textContent,
      measured: sec.getAttribute('data-measured'),
      state: sec.getAttribute('data-state'),
      status: sec.querySelector('.bp-level-status') ? sec.querySelector('.bp-level-status').textContent : null,
    };
  });
}

// Everything the level shows agrees with the native run of this state.
function agrees(level, s, positions, what) {
  const data = level.data, r = expected(level, positions);
  check(s.measures.length > 0, `${what}: the level shows numbers`);
  for (const [name, text] of s.measures) {
    check(r.display[name] !== undefined, `${what}: sim --display has '${name}'`);
    eq(text, r.display[name], `${what}: ${name}`);
  }
  let missed = 0;
  for (const name of data.goals) if (!goalPass(r, name)) missed++;
  for (const g of s.goals) {
    const pass = goalPass(r, g.name);
    if (g.svg) {
      eq(g.text, pass ? '\u2713 ' : '\u2717 ', `${what}: the diagram's mark for ${g.name}`);
      eq(g.fill, pass ? g.pass : g.failFill, `${what}: the diagram's colour for ${g.name}`);
    } else {
      eq(g.text, pass ? 'Pass' : 'Fail', `${what}: the verdict on ${g.name}`);
      eq(g.cls, pass ? 'bp-pass' : 'bp-fail', `${what}: the verdict's class on ${g.name}`);
    }
  }
  if (data.goals.length) {
    eq(s.status, missed === 0 ? 'Level complete: every goal is met.'
      : `Not yet: ${missed} of ${data.goals.length} goal${data.goals.length === 1 ? '' : 's'} missed.`, `${what}: status`);
  }
  for (const [set, text] of s.sets) {
    const i = data.choices.findIndex((c) => c.set === set);
    check(i >= 0, `${what}: the diagram's setting ${set} is a choice's`);
    const v = data.choices[i].values[positions[i]];
    // a phrase where the page gives one ("the same wait each try"), else the label
    eq(text, v.drawn !== undefined ? v.drawn : v.label, `${what}: the diagram's ${set}`);
  }
  const key = data.choices.map((c, i) => (c.range ? null : positions[i])).filter((x) => x !== null).join('.');
  const visible = s.drawings.filter(([, hidden]) => !hidden).map(([k]) => k);
  eq(JSON.stringify(visible), JSON.stringify([key]), `${what}: the diagram shown`);
  for (const sl of s.sliders) {
    const i = data.choices.findIndex((c) => c.set === sl.set);
    const v = data.choices[i].values[positions[i]];
    eq(sl.value, String(positions[i]), `${what}: slider ${sl.set}`);
    eq(sl.dataValue, v.value, `${what}: slider ${sl.set} data-value`);
    eq(sl.valuetext, v.label, `${what}: slider ${sl.set} aria-valuetext`);
    eq(sl.output, v.label, `${what}: slider ${sl.set} value text`);
  }
}

async function waitState(page, id, positions, measured) {
  await page.waitForFunction(([id, state, measured]) => {
    const s = document.getElementById(id);
    return s && s.getAttribute('data-state') === state && measured.includes(s.getAttribute('data-measured'));
  }, [id, positions.join('.'), measured], { timeout: 20000 });
}

// Move choice i of the level to position k, as a reader does.
async function move(page, id, data, i, k) {
  if (data.choices[i].range) await page.locator(`#${id}-${i}`).fill(String(k));
  else await page.locator(`#${id} input[type="radio"][name="${data.id}-${i}"][value="${k}"]`).check();
}

// ------------------------------------------------------------ the checks

async function watch(page, origin) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('request', (r) => {
    if (!r.url().startsWith(origin)) problems.push(`outside request: ${r.url()}`);
  });
  await page.addInitScript(() => {
    window.__bpLive = [];
    document.addEventListener('bp-live-result', (e) => window.__bpLive.push(e.detail), true);
  });
  return problems;
}

async function levelChecks(browser, origin, level) {
  const { id, data } = level;
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  const problems = await watch(page, origin);
  await page.goto(origin + '/' + level.url);
  await waitState(page, id, data.start, ['build']);
  let s = await shown(page, id);
  agrees(level, s, data.start, `${id} as built`);
  check(s.where.includes('when the page was built'), `${id}: says its first numbers were measured at build time`);

  // every slider to its min, middle and max; every option list to each option
  const positions = data.start.slice();
  const times = [];
  for (let i = 0; i < data.choices.length; i++) {
    const n = data.choices[i].values.length;
    const stops = data.choices[i].range ? [0, Math.floor((n - 1) / 2), n - 1] : [...Array(n).keys()];
    for (const k of stops) {
      if (k === positions[i]) continue; // no move, no run
      const before = await shown(page, id);
      positions[i] = k;
      await move(page, id, data, i, k);
      const capped = work(data, positions) > MAX_JOB_RUNS;
      await waitState(page, id, positions, capped ? ['stale'] : ['browser']);
      s = await shown(page, id);
      const what = `${id} at ${positions.join('.')}`;
      if (capped) {
        check(s.where.includes('Not measured') && s.where.includes('500,000'), `${what}: says it is past the cap (${s.where})`);
        eq(JSON.stringify(s.measures), JSON.stringify(before.measures), `${what}: past the cap the numbers stay`);
        positions[i] = Number(before.state.split('.')[i]);
        await move(page, id, data, i, positions[i]);
        await waitState(page, id, positions, ['browser']);
        continue;
      }
      agrees(level, s, positions, what);
      check(s.where.includes('in your browser'), `${what}: says the numbers were measured in the browser`);
      const d = await page.evaluate(() => window.__bpLive[window.__bpLive.length - 1]);
      eq(d.place, 'worker', `${what}: where it ran`);
      times.push(d.ms);
    }
  }

  // the fragment opens the same state in a fresh page
  const url = page.url();
  check(url.includes(`#${id}=${positions.join('.')}`), `${id}: the fragment holds the state (${url})`);
  const again = await ctx.newPage();
  const problems2 = await watch(again, origin);
  await again.goto(url);
  await waitState(again, id, positions, ['browser']);
  agrees(level, await shown(again, id), positions, `${id} from the fragment`);
  await again.close();

  // the arrow keys move a slider
  const slider = data.choices.findIndex((c) => c.range && c.values.length > 1);
  if (slider >= 0) {
    await page.locator(`#${id}-${slider}`).focus();
    const key = positions[slider] > 0 ? 'ArrowLeft' : 'ArrowRight';
    positions[slider] += key === 'ArrowLeft' ? -1 : 1;
    await page.keyboard.press(key);
    await waitState(page, id, positions, ['browser', 'stale']);
    if (work(data, positions) <= MAX_JOB_RUNS) agrees(level, await shown(page, id), positions, `${id} by keyboard`);
  }

  // Reset: the start again, measured again in the browser, out of the fragment
  await page.locator(`#${id} button.bp-reset`).click();
  await waitState(page, id, data.start, ['browser']);
  agrees(level, await shown(page, id), data.start, `${id} after Reset`);
  check(!page.url().includes(`#${id}=`), `${id}: Reset takes the level out of the fragment`);

  check(problems.length === 0 && problems2.length === 0, `${id}: ${problems.concat(problems2).join('; ')}`);
  await ctx.close();
  return times;
}

// A sweep's points (min, middle, max) read as the native runs of state
// positions with the slider at each, and the one marked current is the slider's.
async function sweepAgrees(page, level, i, positions, what) {
  const data = level.data, sw = data.choices[i].sweep;
  const pts = await page.$$eval(`#${level.id} figure.bp-sweep[data-sweep="${data.choices[i].set}"] .bp-sweep-point`,
    (els) => els.map((e) => [e.getAttribute('data-x'), e.getAttribute('data-y'), e.hasAttribute('data-current')]));
  const n = data.choices[i].values.length;
  eq(pts.length, n, `${what}: the sweep has a point per value`);
  for (const k of [0, Math.floor((n - 1) / 2), n - 1]) {
    const p = positions.slice();
    p[i] = k;
    eq(pts[k][0], data.choices[i].values[k].label, `${what}: sweep point ${k}'s x`);
    eq(pts[k][1], expected(level, p).display[sw.measure], `${what}: sweep point ${k}'s ${sw.measure}`);
  }
  eq(pts.findIndex((x) => x[2]), positions[i], `${what}: the sweep's current point`);
}

// Numbers in prose ({{ scrub }}, {{ live }}) and sweeps: a scrub moves the
// level by the keyboard and every live number reads as the native run; a
// change of another choice redraws the sweep, first with one replication
// a point, then with the level's own, which read as the native runs;
// Reset brings back the build's points.
async function proseAndSweeps(browser, origin, level) {
  const { id, data } = level;
  const sweeps = data.choices.map((c, i) => (c.sweep ? i : -1)).filter((i) => i >= 0);
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  const problems = await watch(page, origin);
  await page.addInitScript(() => {
    window.__bpSweep = [];
    document.addEventListener('bp-sweep', (e) => window.__bpSweep.push(e.detail), true);
  });
  await page.goto(origin + '/' + level.url);
  await waitState(page, id, data.start, ['build']);
  const scrubs = await page.$$eval(`[data-scrub][data-level="${data.id}"]`, (els) => els.length);
  const lives = async () => page.$$eval(`.bp-live-num[data-level="${data.id}"]`, (els) => els.map((e) => [e.getAttribute('data-measure'), e.textContent]));
  for (const [name, text] of await lives()) eq(text, expected(level, data.start).display[name], `${id}: the sentence's ${name} as built`);
  for (const i of sweeps) await sweepAgrees(page, level, i, data.start, `${id} as built`);
  const positions = data.start.slice();
  for (let s = 0; s < scrubs; s++) {
    const el = page.locator(`[data-scrub][data-level="${data.id}"]`).nth(s);
    const set = await el.getAttribute('data-scrub');
    const i = data.choices.findIndex((c) => c.set === set && c.range);
    check(i >= 0, `${id}: scrub ${set} is a slider's`);
    eq(await el.getAttribute('role'), 'slider', `${id}: scrub ${set}'s role`);
    await el.focus();
    const key = positions[i] + 1 < data.choices[i].values.length ? 'ArrowRight' : 'ArrowLeft';
    positions[i] += key === 'ArrowRight' ? 1 : -1;
    await page.keyboard.press(key);
    await waitState(page, id, positions, ['browser']);
    eq(await el.textContent(), data.choices[i].values[positions[i]].label, `${id}: scrub ${set}'s text`);
    eq(await el.getAttribute('aria-valuenow'), String(positions[i]), `${id}: scrub ${set}'s aria-valuenow`);
    agrees(level, await shown(page, id), positions, `${id} after a scrub`);
    for (const [name, text] of await lives()) eq(text, expected(level, positions).display[name], `${id}: the sentence's ${name} after a scrub`);
  }
  if (sweeps.length) {
    // another choice than the first sweep's, moved by one
    // (a level whose only choice is its sweep has nothing else to move: its
    // sweep never redraws, and is checked as the build drew it)
    const j = data.choices.findIndex((c, k) => k !== sweeps[0] && c.values.length > 1);
    if (j >= 0) {
      positions[j] = positions[j] + 1 < data.choices[j].values.length ? positions[j] + 1 : positions[j] - 1;
      await page.evaluate(() => { window.__bpSweep.length = 0; });
      await move(page, id, data, j, positions[j]);
      await page.waitForFunction((id) => [...document.querySelectorAll(`#${id} figure.bp-sweep`)]
        .every((f) => f.getAttribute('data-pass') === 'full'), id, { timeout: 120000 });
      const passes = await page.evaluate(() => window.__bpSweep.map((d) => d.pass));
      check(passes.includes('first') && passes.indexOf('first') < passes.indexOf('full'),
        `${id}: the sweep is drawn first with one run a point, then refined (${passes.join(', ')})`);
    }
    for (const i of sweeps) await sweepAgrees(page, level, i, positions, `${id} swept at ${positions.join('.')}`);
    await page.locator(`#${id} button.bp-reset`).click();
    await waitState(page, id, data.start, ['browser']);
    for (const i of sweeps) {
      eq(await page.getAttribute(`#${id} figure.bp-sweep[data-sweep="${data.choices[i].set}"]`, 'data-pass'), 'build', `${id}: Reset shows the build's sweep`);
      await sweepAgrees(page, level, i, data.start, `${id} after Reset`);
    }
  }
  check(problems.length === 0, `${id} (prose, sweeps): ${problems.join('; ')}`);
  await ctx.close();
  return scrubs + sweeps.length > 0;
}

// Without JavaScript: the build's numbers, the starting choices in words.
async function noScript(browser, origin, level) {
  const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(origin + '/' + level.url);
  const s = await shown(page, level.id);
  const r = expected(level, level.data.start);
  for (const [name, text] of s.measures) eq(text, r.display[name], `${level.id} without JavaScript: ${name}`);
  const prose = await page.$$eval(`[data-level="${level.data.id}"]`, (els) => els.map((e) => [e.getAttribute('data-measure'), e.getAttribute('data-scrub'), e.textContent]));
  for (const [measure, set, text] of prose) {
    if (measure) eq(text, r.display[measure], `${level.id} without JavaScript: the sentence's ${measure}`);
    if (set) {
      const i = level.data.choices.findIndex((c) => c.set === set);
      eq(text, level.data.choices[i].values[level.data.start[i]].label, `${level.id} without JavaScript: scrub ${set}`);
    }
  }
  for (const [i, c] of level.data.choices.entries())
    if (c.sweep) await sweepAgrees(page, level, i, level.data.start, `${level.id} without JavaScript`);
  check(s.where.includes('when the page was built'), `${level.id} without JavaScript: says the numbers were measured at build time`);
  check(!(await page.locator(`#${level.id} form`).isVisible()), `${level.id} without JavaScript: the sliders are hidden`);
  check(await page.locator(`#${level.id} .bp-level-start`).isVisible(), `${level.id} without JavaScript: the start is said in words`);
  await ctx.close();
}

// A page whose module cannot be fetched keeps the build's numbers and says why.
async function noModule(browser, origin, level) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.route('**/simcore.wasm', (route) => route.abort());
  await page.goto(origin + '/' + level.url);
  await page.waitForFunction((id) => document.getElementById(id).getAttribute('data-measured') === 'build', level.id);
  const s = await shown(page, level.id);
  check(s.where.includes('could not be loaded'), `${level.id} without the module: says so (${s.where})`);
  check(!(await page.locator(`#${level.id} form`).isVisible()), `${level.id} without the module: the sliders stay hidden`);
  await ctx.close();
}

// Where a browser has no Web Worker, a small run goes on the page's thread.
async function noWorker(browser, origin, level) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.addInitScript(() => {
    delete window.Worker;
    window.__bpLive = [];
    document.addEventListener('bp-live-result', (e) => window.__bpLive.push(e.detail), true);
  });
  await page.goto(origin + '/' + level.url);
  await waitState(page, level.id, level.data.start, ['build']);
  const data = level.data, i = data.choices.findIndex((c) => c.range);
  const positions = data.start.slice();
  positions[i] = positions[i] > 0 ? positions[i] - 1 : 1;
  await move(page, level.id, data, i, positions[i]);
  await waitState(page, level.id, positions, work(data, positions) <= 20000 ? ['browser'] : ['stale']);
  const d = await page.evaluate(() => window.__bpLive[window.__bpLive.length - 1]);
  eq(d.place, work(data, positions) <= 20000 ? 'main' : 'none', `${level.id} without a Web Worker: where it ran`);
  await ctx.close();
}

async function screenshots(browser, origin, level) {
  for (const [w, h] of [[375, 800], [1280, 900]]) {
    for (const scheme of ['light', 'dark']) {
      const ctx = await browser.newContext({ viewport: { width: w, height: h }, colorScheme: scheme });
      const page = await ctx.newPage();
      await page.goto(origin + '/' + level.url);
      await waitState(page, level.id, level.data.start, ['build']);
      const sw = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      check(sw <= 0, `${level.id} at ${w} px: no sideways scrolling (${sw} px too wide)`);
      await page.locator(`#${level.id}`).screenshot({ path: path.join(SHOTS, `live-${level.id}-${w}-${scheme}.png`) });
      await ctx.close();
    }
  }
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  let levels = 0, sliders = 0, worker = false, capped = false, prose = 0;
  const times = [];
  try {
    for (const arg of siteArgs) {
      const [site, content] = arg.split(':');
      const server = await serve(path.resolve(site));
      const origin = `http://127.0.0.1:${server.address().port}`;
      const found = liveLevels(path.resolve(site), content);
      check(found.length > 0, `${site} has live levels`);
      for (const level of found) {
        times.push(...(await levelChecks(browser, origin, level)));
        prose += (await proseAndSweeps(browser, origin, level)) ? 1 : 0;
        await noScript(browser, origin, level);
        levels++;
        sliders += level.data.choices.filter((c) => c.range).length;
        const runs = level.data.choices.flatMap((c, i) => c.values.map((v, k) => {
          const p = level.data.start.slice();
          p[i] = k;
          return work(level.data, p);
        }));
        worker ||= runs.some((r) => r > 20000 && r <= MAX_JOB_RUNS);
        capped ||= runs.some((r) => r > MAX_JOB_RUNS);
      }
      await noModule(browser, origin, found[0]);
      await noWorker(browser, origin, found[0]);
      const sandbox = found.find((l) => l.data.sandbox) || found[0];
      await screenshots(browser, origin, sandbox);
      server.close();
    }
    check(worker, 'some setting ran in a Web Worker');
    check(capped, 'some setting was past the cap');
    check(prose > 0, 'some live level has a scrub or a sweep');
  } catch (e) {
    await browser.close();
    if (e instanceof CheckFailed) {
      console.error(`live-browser: FAILED: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  await browser.close();
  times.sort((a, b) => a - b);
  const median = times.length ? times[Math.floor(times.length / 2)].toFixed(1) : '-';
  console.log(`live-browser: ${checks} checks passed: ${levels} live levels (${prose} with scrubs or sweeps), ${sliders} sliders, ` +
    `${simCache.size} native runs compared; runs in the worker ${times.length}, median ${median} ms (bench: make bench)`);
}

main();
