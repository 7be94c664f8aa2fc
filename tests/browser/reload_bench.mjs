// reload_bench.mjs — how long `boardpress serve` takes from a saved edit to
// the new page in Debian's Chromium (make bench, tests/bench/run.py; the
// release build). Run in this folder, where playwright-core is installed.
//
// usage: node reload_bench.mjs SPEC.json
//
// SPEC: {"bp": BOARDPRESS, "site": SITE_DIR, "chromium": PATH,
//        "edits": [{"name", "url", "file", "runs": [{"text", "marker"}, ...]}, ...]}
// Starts `BOARDPRESS serve --port 0` in SITE_DIR; for each edit opens url
// (a path such as "/slug/") and, run after run, saves text into file (SITE_DIR
// relative) as an editor does (a new file renamed over the old one) and waits
// until the page shows it: a document loaded after the save whose text
// holds marker (or, when marker is null, any document loaded after the
// save), or the page shown all along once marker is in its text (the
// preview swaps a changed page in place). The time is from just before the
// save to the first frame after that document's DOMContentLoaded, or after
// the change that brought marker in, both on the machine's clock. Prints one
// JSON line: {"NAME": {"ms": [...], "lines": [the server's rebuild line of
// each run]}, ...}. Exits 1 when the server or a page fails.

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const WAIT = 30000; // ms: a run that takes longer has failed

let stderr = '';
let exited = false;
const server = spawn(spec.bp, ['serve', '--port', '0'], { cwd: spec.site, stdio: ['ignore', 'ignore', 'pipe'] });
server.stderr.on('data', (d) => (stderr += d.toString()));
server.on('exit', () => (exited = true));

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, fn) {
  const t0 = Date.now();
  for (;;) {
    if (exited) throw new Error(`the server ended while waiting for ${what}:\n${stderr}`);
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > WAIT) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}
const rebuilds = () => stderr.split('\n').filter((l) => / changed; (rebuilt in|the rebuild failed)/.test(l));

let browser;
try {
  const url = await until('the server to say where it serves', () => {
    const m = /serving \S+ on (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr);
    return m && m[1];
  });
  await until('watching', () => stderr.includes('boardpress: watching'));
  browser = await chromium.launch({ executablePath: spec.chromium, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // every document notes when it first painted after its DOM was parsed
  await context.addInitScript(() => {
    const shown = () =>
      requestAnimationFrame(() => (window.__bpShown = performance.timeOrigin + performance.now()));
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', shown);
    else shown();
    // a page changed in place: the first frame after window.__bpWant (set
    // before a save) came into its text
    new MutationObserver(() => {
      const want = window.__bpWant;
      if (!want || window.__bpSeen || !document.body || !document.body.textContent.includes(want)) return;
      window.__bpWant = null;
      requestAnimationFrame(() => (window.__bpSeen = performance.timeOrigin + performance.now()));
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  const result = {};
  for (const e of spec.edits) {
    const page = await context.newPage();
    await page.goto(url + e.url);
    await until(`${e.url} to load`, () => page.evaluate(() => window.__bpShown).catch(() => 0));
    const file = path.join(spec.site, e.file);
    const ms = [];
    const lines = [];
    for (const r of e.runs) {
      const before = rebuilds().length;
      await page.evaluate((marker) => {
        window.__bpWant = marker;
        window.__bpSeen = 0;
      }, r.marker);
      const t0 = now();
      fs.writeFileSync(file + '.bench~', r.text);
      fs.renameSync(file + '.bench~', file);
      const shown = await until(`${e.url} after editing ${e.file}`, () =>
        page
          .evaluate(
            ({ t0, marker }) =>
              performance.timeOrigin > t0 &&
              window.__bpShown &&
              (marker === null || document.body.textContent.includes(marker))
                ? window.__bpShown
                : performance.timeOrigin < t0 && window.__bpSeen > t0
                  ? window.__bpSeen
                  : 0,
            { t0, marker: r.marker },
          )
          .catch(() => 0),
      );
      ms.push(shown - t0);
      await until(`the rebuild line for ${e.file}`, () => rebuilds().length > before);
      lines.push(rebuilds()[before]);
      if (lines[lines.length - 1].includes('the rebuild failed')) throw new Error(`a rebuild failed:\n${stderr}`);
      await sleep(100); // the next save is a burst of its own
    }
    result[e.name] = { ms, lines };
    await page.close();
  }
  console.log(JSON.stringify(result));
  await browser.close();
  server.kill('SIGINT');
  for (let i = 0; i < 500 && !exited; i++) await sleep(10);
} catch (err) {
  console.error(`reload_bench: ${err.message || err}`);
  if (browser) await browser.close().catch(() => {});
  server.kill('SIGKILL');
  process.exit(1);
}
