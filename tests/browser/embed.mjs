// embed.mjs — a figure's embed page (SLUG/embed/ID/, render/embed.c)
// inside an <iframe> of a page on another origin, in Debian's Chromium:
// the live fixture's level is served on one origin and framed by a page
// of a second; its slider moves and the simulator measures again in the
// frame, its link back opens the figure on its page in the top window,
// and no request leaves the two origins' own files (the frame asks only
// its own site). Screenshots at 375 and 1280 px, light and dark.
//
// usage: node embed.mjs BUILT_SITE SCREENSHOT_DIR

import { chromium } from 'playwright-core';
import { check, checks, eq, until } from './check.mjs';
import { serve } from './serve.mjs';
import http from 'node:http';
import path from 'node:path';

const [builtArg, shotsArg] = process.argv.slice(2);
if (!shotsArg) {
  console.error('usage: node embed.mjs BUILT_SITE SCREENSHOT_DIR');
  process.exit(2);
}
const CHROMIUM = process.env.BP_CHROMIUM || '/usr/bin/chromium';
const LEVEL = 'safe';

const site = await serve(path.resolve(builtArg));
const siteOrigin = `http://127.0.0.1:${site.address().port}`;
const embedUrl = `${siteOrigin}/live/embed/${LEVEL}/`;
// the other site: one page that frames the embed (localhost: another origin)
const host = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>Another site</title></head><body>
<h1>Another site</h1>
<iframe src="${embedUrl}" width="100%" height="900" style="border:0" title="Live level"></iframe>
</body></html>`);
});
await new Promise((r) => host.listen(0, '127.0.0.1', r));
const hostOrigin = `http://localhost:${host.address().port}`;

let browser;
try {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  for (const scheme of ['light', 'dark']) {
    for (const width of [1280, 375]) {
      const what = `${width} px ${scheme}`;
      const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
      const page = await ctx.newPage();
      const requests = [];
      page.on('request', (r) => requests.push({ url: r.url(), frame: r.frame() === page.mainFrame() ? 'top' : 'frame' }));
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(hostOrigin + '/');
      const frame = await until(`${what}: the embed's frame`, () => page.frames().find((f) => f.url() === embedUrl));
      check(new URL(frame.url()).origin !== new URL(page.url()).origin, `${what}: the frame is on another origin`);
      const level = frame.locator(`#level-${LEVEL}`);
      await level.waitFor();
      // the level alone: no site header or nav, its own link back
      eq(await frame.locator('.bp-site-header').count(), 0, `${what}: the embed has no site header`);
      eq(await frame.locator('section.bp-level').count(), 1, `${what}: the embed shows one level`);
      const back = frame.locator('.bp-embed-back a');
      eq(await back.getAttribute('target'), '_top', `${what}: the link back opens in the top window`);
      eq(await back.evaluate((a) => a.href), `${siteOrigin}/live/index.html#level-${LEVEL}`, `${what}: the link back names the figure`);
      // the slider: the simulator in the frame measures the new setting
      const slider = frame.locator(`#level-${LEVEL}-1`);
      await until(`${what}: the sliders shown`, () => slider.isVisible());
      const before = await level.getAttribute('data-state');
      const numbers = () => level.evaluate((s) => [...s.querySelectorAll('[data-measure]')].map((e) => e.textContent).join('|'));
      const shownBefore = await numbers();
      await slider.fill('0');
      await until(`${what}: the frame measured the new setting`, async () =>
        (await level.getAttribute('data-measured')) === 'browser' && (await level.getAttribute('data-state')) !== before);
      check((await numbers()) !== shownBefore, `${what}: the numbers changed with the slider`);
      await page.screenshot({ path: path.join(shotsArg, `embed-${width}-${scheme}.png`) });
      const outside = requests.filter((r) => !(r.frame === 'top' ? r.url.startsWith(hostOrigin + '/') : r.url.startsWith(siteOrigin + '/')));
      eq(outside.length, 0, `${what}: requests outside each one's own site: ${JSON.stringify(outside)}`);
      check(requests.some((r) => r.url.endsWith('/static/simcore.wasm')), `${what}: the frame loaded the simulator from its site`);
      eq(errors.length, 0, `${what}: no script errors: ${errors.join(' | ')}`);
      if (width === 1280 && scheme === 'light') {
        await Promise.all([page.waitForURL(`${siteOrigin}/live/index.html#level-${LEVEL}`), back.click()]);
      }
      await ctx.close();
    }
  }
  console.log(`embed browser test: ok (${checks} checks)`);
} catch (e) {
  console.error(`embed browser test: FAIL: ${e.message}`);
  process.exitCode = 1;
} finally {
  if (browser) await browser.close();
  site.close();
  host.close();
}
