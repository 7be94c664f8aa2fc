// search.mjs — the header's search (static/bp-search.js with the site's
// search-index.js) in Debian's Chromium, on the fixture site opened from
// file:// and served by `boardpress serve`: a word and a measured number
// with its unit each find their section, the keyboard opens it at its
// heading, the combobox and listbox say what they show, nothing is fetched
// outside the site, and without JavaScript the header links to the
// contents instead. Screenshots at 375 and 1280 px, light and dark.
//
// usage: node search.mjs BOARDPRESS BUILT_SITE SERVE_SITE_DIR SCREENSHOT_DIR
//   BUILT_SITE: the fixture built by `boardpress build` (read from file://)
//   SERVE_SITE_DIR: a folder with content/, templates/, static/ for serve

import { chromium } from 'playwright-core';
import { check, checks, eq, until } from './check.mjs';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [bpArg, builtArg, siteArg, shotsArg] = process.argv.slice(2);
if (!shotsArg) {
  console.error('usage: node search.mjs BOARDPRESS BUILT_SITE SERVE_SITE_DIR SCREENSHOT_DIR');
  process.exit(2);
}
const BP = path.resolve(bpArg);
const BUILT = path.resolve(builtArg);
const SITE = path.resolve(siteArg);
const SHOTS = path.resolve(shotsArg);
const CHROMIUM = process.env.BP_CHROMIUM || '/usr/bin/chromium';

// What the combobox shows: its state and each option's page and section.
function state(page) {
  return page.evaluate(() => {
    const input = document.getElementById('bp-search-input');
    const list = document.getElementById('bp-search-results');
    const active = input.getAttribute('aria-activedescendant');
    return {
      expanded: input.getAttribute('aria-expanded'),
      controls: input.getAttribute('aria-controls'),
      role: input.getAttribute('role'),
      label: input.labels && input.labels[0] ? input.labels[0].textContent : '',
      listRole: list.getAttribute('role'),
      hidden: list.hidden,
      active,
      activeSelected: active ? document.getElementById(active).getAttribute('aria-selected') : null,
      options: [...list.querySelectorAll('[role=option]')].map((li) => ({
        page: li.querySelector('.bp-search-page').textContent,
        section: (li.querySelector('.bp-search-section') || { textContent: '' }).textContent,
        href: li.getAttribute('data-href'),
      })),
      status: document.querySelector('.bp-search-status').textContent,
    };
  });
}

async function search(page, query) {
  const input = page.locator('#bp-search-input');
  await input.fill('');
  await input.focus();
  await input.pressSequentially(query);
  await until(`results for '${query}'`, async () => {
    const s = await state(page);
    return s.options.length > 0 || s.status === 'No results';
  });
  return state(page);
}

// On one site (base: the URL of its folder), from its Playground page.
async function run(browser, base, where) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const outside = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(base)) outside.push(r.url());
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const start = base + (where === 'file' ? 'about/index.html' : 'about/');
  await page.goto(start);
  eq(await page.locator('a.bp-search-link').count(), 0, `${where}: the script replaced the contents link`);

  // a word: the heading of its section weighs most
  let s = await search(page, 'mini');
  eq(s.role, 'combobox', `${where}: the input is a combobox`);
  eq(s.listRole, 'listbox', `${where}: the results are a listbox`);
  eq(s.controls, 'bp-search-results', `${where}: the combobox names its listbox`);
  eq(s.label, 'Search', `${where}: the input has its label`);
  eq(s.expanded, 'true', `${where}: the combobox is expanded with results`);
  eq(s.options[0].page, 'Playground', `${where}: 'mini' is found on the Playground page`);
  eq(s.options[0].section, 'Mini board', `${where}: 'mini' is found in its section`);

  // a measured number with its unit ("21.6 s", the completion time the
  // compare table measured), opened with the keyboard
  s = await search(page, '21.6 s');
  eq(s.options.length, 1, `${where}: '21.6 s' is in one section: ${JSON.stringify(s.options)}`);
  eq(s.options[0].section, 'See it on the board', `${where}: '21.6 s' is in its section`);
  await page.keyboard.press('ArrowDown');
  s = await state(page);
  eq(s.active, 'bp-search-result-0', `${where}: ArrowDown makes the first result active`);
  eq(s.activeSelected, 'true', `${where}: the active result is selected`);
  await Promise.all([page.waitForURL(/see-it-on-the-board$/), page.keyboard.press('Enter')]);
  const want = base + (where === 'file' ? 'playground/index.html' : 'playground/') + '#see-it-on-the-board';
  eq(page.url(), want, `${where}: Enter opens the section`);
  await until(`${where}: the heading in view`, () =>
    page.evaluate(() => {
      const r = document.getElementById('see-it-on-the-board').getBoundingClientRect();
      return r.top > -2 && r.top < 200; // scrolled to it (to a fraction of a pixel)
    }),
  );

  // the number as the reader rounds it, and a number with a unit being typed
  s = await search(page, '65 jo');
  eq(s.options[0] && s.options[0].page, 'Playground', `${where}: '65 jo' finds 65.8 jobs`);
  eq(s.options[0].section, '', `${where}: 65.8 jobs is at the page's top`);
  s = await search(page, 'zzzz');
  eq(s.status, 'No results', `${where}: a word the site lacks says so`);
  eq(s.expanded, 'false', `${where}: no results, the combobox is collapsed`);
  await page.keyboard.press('Escape');
  eq(await page.inputValue('#bp-search-input'), '', `${where}: Escape clears the box`);

  // "/" goes to the box; the home page's results lead back to the page
  await page.locator('h1').click();
  await page.keyboard.press('/');
  eq(await page.evaluate(() => document.activeElement.id), 'bp-search-input', `${where}: '/' focuses search`);
  s = await search(page, 'play level');
  eq(s.options[0].section, 'Play a level', `${where}: two words find their section`);
  await Promise.all([page.waitForURL(/#play-a-level$/), page.locator('[role=option]').first().click()]);

  eq(outside.length, 0, `${where}: nothing fetched outside the site: ${outside.join(' ')}`);
  eq(errors.length, 0, `${where}: no script errors: ${errors.join(' | ')}`);
  await context.close();
}

let server;
let browser;
let stderr = '';
try {
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  await run(browser, pathToFileURL(BUILT).href + '/', 'file');

  server = spawn(BP, ['serve', '--port', '0'], { cwd: SITE, stdio: ['ignore', 'inherit', 'pipe'] });
  server.stderr.on('data', (d) => (stderr += d.toString()));
  const url = await until('the server to say where it serves', () => {
    const m = /boardpress: serving \S+ on (http:\/\/127\.0\.0\.1:\d+\/) \(Ctrl-C stops\)/.exec(stderr);
    return m && m[1];
  });
  await run(browser, url, 'serve');

  // without JavaScript: the link to the contents, no box
  const off = await browser.newContext({ javaScriptEnabled: false });
  const p = await off.newPage();
  await p.goto(url + 'playground/');
  eq(await p.locator('a.bp-search-link').getAttribute('href'), '../#contents', 'without JavaScript the header links to the list of pages');
  eq(await p.locator('#bp-search-input').count(), 0, 'without JavaScript there is no search box');
  await off.close();

  // how it looks: results open at a phone's and a desktop's width, light and dark
  for (const scheme of ['light', 'dark']) {
    for (const width of [375, 1280]) {
      const ctx = await browser.newContext({ viewport: { width, height: 700 }, colorScheme: scheme });
      const pg = await ctx.newPage();
      await pg.goto(url + 'playground/');
      await search(pg, width < 600 ? 'board' : '21 s');
      await pg.keyboard.press('ArrowDown');
      await pg.screenshot({ path: path.join(SHOTS, `search-${width}-${scheme}.png`) });
      const box = await pg.evaluate(() => {
        const r = document.getElementById('bp-search-results').getBoundingClientRect();
        return { left: r.left, right: r.right };
      });
      check(box.left >= 0 && box.right <= width, `the results fit the ${width} px viewport: ${JSON.stringify(box)}`);
      await ctx.close();
    }
  }
  console.log(`search browser test: ok (${checks} checks)`);
} catch (e) {
  console.error(`search browser test: FAIL: ${e.message}`);
  if (stderr) console.error(stderr.split('\n').slice(-5).join('\n'));
  process.exitCode = 1;
} finally {
  if (browser) await browser.close();
  if (server) {
    server.kill('SIGINT');
    await new Promise((r) => server.once('exit', r));
  }
}
