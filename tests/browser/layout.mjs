// layout.mjs — every page of a built site read as a reader would, in
// Debian's Chromium driven by playwright-core, at 320, 375, 768 and 1280 px,
// in the light and the dark theme. Run by tests/run-layout.sh on the real
// content (content/).
//
// usage: node layout.mjs SITE_DIR SCREENSHOT_DIR
//
// For each page, width and theme it checks that
//   - the page does not scroll sideways, and no figure, table or widget
//     reaches past the viewport or is clipped by its own box (its content
//     wider than the box that shows it);
//   - the smallest text in every drawing the browser shows renders at 11
//     CSS px or more (12 from 375 px up, where a narrow drawing fills its
//     column up to 360 px): each drawing's smallest SVG font-size (read from the
//     file the <picture> chose, or from an inline <svg>) times the scale it
//     is drawn at (its width on screen over its own width);
//   - the drawings match the theme: in the dark theme each shown drawing is
//     a "-dark" rendering and its pixels are dark on average (mean relative
//     luminance under 0.3, measured by painting it on a canvas), in the
//     light theme light (over 0.6); a drawing without a background of its
//     own (painting under half its box: a sweep chart, coloured by the
//     stylesheet) takes the page's colours and is not judged by this;
//   - no text in a drawing reaches past the drawing's edge (each <text>'s
//     box inside the drawing's);
//   - the boards of one switcher share a layout: a part both have sits in
//     the same place (PLACE_SLACK_X/Y) in the drawings shown at this width;
//   - a figure narrower than the text column sits in its middle;
//   - the site nav leaves no item alone on a line;
//   - a switcher's buttons never wrap under its label, and a label beside
//     wrapped rows of them is on the first row;
//   - on a phone (640 px or less) a compare's rows are compact: at most
//     COMPARE_ROW_MAX px each, the boards' values side by side, and a row
//     the same on every board folded into the line under the table;
//   - a compare's switcher, pressed button by button, stays in place, and
//     the boards' box ends with the board shown (no blank band under it);
//   - axe-core (pinned by package-lock.json) finds no violations.
// A full-page screenshot of each page, width and theme goes to
// SCREENSHOT_DIR (PAGE-WIDTH[-dark].png). Exits 1 after listing every
// failed check.

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { serve } from './serve.mjs';

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const [siteArg, shotsArg] = process.argv.slice(2);
if (!siteArg || !shotsArg) {
  console.error('usage: node layout.mjs SITE_DIR SCREENSHOT_DIR');
  process.exit(2);
}
const SITE = path.resolve(siteArg);
const SHOTS = path.resolve(shotsArg);
const CHROMIUM = process.env.BP_CHROMIUM || '/usr/bin/chromium';
const WIDTHS = [320, 375, 768, 1280];
const THEMES = ['light', 'dark'];
const BOARD_HOLE_MAX = 8; // px of a compare's box under the board it shows
const MIN_TEXT = 11; // CSS px (issue 17; draw.h DRAW_MIN_TEXT)
// on a phone from 375 px (to 640), where a narrow drawing is scaled to its column
// (draw.h DRAW_NARROW_SHOW_MAX), its smallest text is at least this
const MIN_TEXT_PHONE = 12;
const minTextAt = (width) => (width >= 375 && width <= 640 ? MIN_TEXT_PHONE : MIN_TEXT);
// a part both boards of a switcher have stays in its place: its row (its
// label at most PLACE_SLACK_Y px of the drawing lower or higher: a box
// above it a line taller) and its side of each other part (labels less
// than PLACE_SLACK_X apart stand in one column)
const PLACE_SLACK_X = 20;
const PLACE_SLACK_Y = 24;
const DARK_MAX = 0.3; // mean relative luminance of a dark drawing
const LIGHT_MIN = 0.6;
// The tallest a compare's row may be on a phone (CSS px): a measure's name
// and goal over its values side by side (about 150 px at 320 px); a row
// with one value per line, each under the board's full title, was twice it.
const COMPARE_ROW_MAX = 180;

// Every page of the site: each folder with an index.html, as a URL path;
// of the figures' embed pages (SLUG/embed/ID/) only the first of each kind
// (a live level, a compare, a static board), as they share one layout.
function pages(root) {
  const out = [];
  const embeds = [];
  const walk = (dir, rel) => {
    if (fs.existsSync(path.join(dir, 'index.html'))) (/(^|\/)embed\/[^/]+\/$/.test(rel) ? embeds : out).push(rel);
    for (const e of fs.readdirSync(dir, { withFileTypes: true }))
      if (e.isDirectory() && e.name !== 'static') walk(path.join(dir, e.name), rel + e.name + '/');
  };
  walk(root, '');
  const kinds = ['bp-live-level', 'bp-compare"', 'bp-figure bp-board"'];
  for (const kind of kinds) {
    const first = embeds.sort().find((rel) => fs.readFileSync(path.join(root, rel, 'index.html'), 'utf8').includes(kind));
    if (first && !out.includes(first)) out.push(first);
  }
  return out.sort();
}

// Runs in the page: every layout problem at this width and theme, as text.
async function inspect({ minText, darkMax, lightMin, dark, rowMax, slackX: PLACE_SLACK_X, slackY: PLACE_SLACK_Y }) {
  const problems = [];
  const vw = document.documentElement.clientWidth;
  const name = (el) => {
    const id = el.id || el.closest('[id]')?.id;
    return `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}${id ? ' in #' + id : ''}`;
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };

  const se = document.scrollingElement;
  if (se.scrollWidth > se.clientWidth + 1) problems.push(`the page scrolls sideways (${se.scrollWidth} px wide in ${se.clientWidth})`);

  // figures, tables and widgets: inside the viewport, nothing clipped
  const boxes = document.querySelectorAll(
    'main figure, main table, main .bp-table-wrap, main picture, main img, main svg, main .bp-level, ' +
      'main .bp-compare, main .bp-switcher, main .bp-toggle, main form, main pre, main details');
  for (const el of boxes) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.left < -1 || r.right > vw + 1)
      problems.push(`${name(el)} reaches past the viewport (${Math.round(r.left)}..${Math.round(r.right)} of ${vw} px)`);
    const cs = getComputedStyle(el);
    if (el.tagName !== 'svg' && el.tagName !== 'IMG' && cs.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1)
      problems.push(`${name(el)} clips or scrolls its content (${el.scrollWidth} px in ${el.clientWidth})`);
  }

  // drawings: smallest text on screen, theme
  const minFont = (svg) => {
    let m = Infinity;
    for (const t of svg.querySelectorAll('text, tspan')) {
      let n = t;
      while (n && n.nodeType === 1 && !n.getAttribute('font-size')) n = n.parentNode;
      const v = n && n.nodeType === 1 ? parseFloat(n.getAttribute('font-size')) : NaN;
      if (!Number.isNaN(v)) m = Math.min(m, v);
    }
    return m;
  };
  const ownWidth = (svg) => {
    const vb = svg.getAttribute('viewBox');
    if (vb) return parseFloat(vb.split(/[\s,]+/)[2]);
    return parseFloat(svg.getAttribute('width'));
  };
  const luminance = async (src, w, h) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = Math.max(1, Math.round(w));
    c.height = Math.max(1, Math.round(h));
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0, c.width, c.height);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const lin = (v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    let sum = 0;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] < 128) continue; // transparent: the page shows through
      sum += 0.2126 * lin(d[i] / 255) + 0.7152 * lin(d[i + 1] / 255) + 0.0722 * lin(d[i + 2] / 255);
      n++;
    }
    // a drawing that paints under less than half its box (no background of
    // its own: the page's colours, set by the stylesheet, show through)
    // takes the page's theme as it is; only a drawing with its own
    // background can be the wrong one
    if (n < (d.length / 4) / 2) return null;
    return sum / n;
  };
  const judge = (what, font, scale, lum, file) => {
    if (font * scale < minText - 0.05)
      problems.push(`${what}: smallest text ${font} px drawn at ${scale.toFixed(2)} = ${(font * scale).toFixed(1)} CSS px`);
    if (dark && file !== null && !/-dark\.svg$/.test(file)) problems.push(`${what}: the dark theme shows ${file}`);
    if (lum === null) return;
    if (dark && !(lum < darkMax)) problems.push(`${what}: a dark-theme drawing is light (mean luminance ${lum.toFixed(2)})`);
    if (!dark && !(lum > lightMin)) problems.push(`${what}: a light-theme drawing is dark (mean luminance ${lum.toFixed(2)})`);
  };
  const drawings = [];
  for (const img of document.querySelectorAll('main img')) {
    if (!shown(img) || !/\.svg$/.test(img.currentSrc)) continue;
    const text = await (await fetch(img.currentSrc)).text();
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    const r = img.getBoundingClientRect();
    const file = img.currentSrc.split('/').pop();
    judge(`drawing ${file}`, minFont(svg), r.width / ownWidth(svg), await luminance(img.currentSrc, r.width, r.height), file);
    drawings.push(img);
  }
  for (const svg of document.querySelectorAll('main svg')) {
    if (!shown(svg) || svg.closest('button, a, summary') || !svg.querySelector('text')) continue;
    const r = svg.getBoundingClientRect();
    const src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(new XMLSerializer().serializeToString(svg));
    judge(`inline drawing ${name(svg)}`, minFont(svg), r.width / ownWidth(svg), await luminance(src, r.width, r.height), null);
    drawings.push(svg);
  }

  // no text cut by its drawing's edge: every <text>'s box inside the
  // drawing's (a drawing shown as an <img> is put in the page at the size
  // it is shown, out of sight, so its texts can be measured)
  // A folded timeline (figure.c) is cut into pieces, each a viewBox onto
  // the first one's drawing: a text may lie outside the first piece, but
  // not across two pieces' edge.
  const pieces = (svg) => {
    const look = svg.parentNode;
    if (!look || !look.querySelector(':scope > details.bp-fold')) return null;
    return [...look.querySelectorAll('svg[viewBox]')].map((p) => p.getAttribute('viewBox').split(' ').map(Number));
  };
  const clipped = (svg, what) => {
    const box = svg.getBoundingClientRect();
    const cut = pieces(svg);
    for (const t of svg.querySelectorAll('text')) {
      if (cut) {
        const b = t.getBBox();
        const vb = svg.viewBox.baseVal, scale = box.width / vb.width;
        const inPiece = cut.some(([, y, , h]) => b.y >= y - 1 && b.y + b.height <= y + h + 1);
        const across = box.left + (b.x - vb.x) * scale < box.left - 1 || box.left + (b.x + b.width - vb.x) * scale > box.right + 1;
        if (!inPiece || across)
          problems.push(`${what}: the text “${t.textContent.trim().slice(0, 60)}” reaches past ${across ? "the drawing's edge" : "the edge of a folded piece"}`);
        continue;
      }
      const r = t.getBoundingClientRect();
      if (!r.width) continue;
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
        problems.push(`${what}: the text “${t.textContent.trim().slice(0, 60)}” reaches past the drawing's edge`);
    }
  };
  const stage = document.createElement('div');
  stage.style.cssText = 'position:absolute;left:-20000px;top:0;visibility:hidden';
  document.body.append(stage);
  for (const img of drawings.filter((d) => d.tagName === 'IMG')) {
    const text = await (await fetch(img.currentSrc)).text();
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    const r = img.getBoundingClientRect();
    svg.setAttribute('width', String(r.width));
    svg.setAttribute('height', String(r.height));
    stage.replaceChildren(document.importNode(svg, true));
    clipped(stage.firstChild, `drawing ${img.currentSrc.split('/').pop()}`);
  }
  stage.remove();
  for (const svg of drawings.filter((d) => d.tagName !== 'IMG')) clipped(svg, `inline drawing ${name(svg)}`);

  // a switcher's boards share a layout: a part both boards have (named by
  // its label, as the alt text lists the parts) sits in the same place in
  // the drawing each shows at this width, so switching does not move it
  const partsOf = (alt) => {
    const m = /Parts in order: (.*?)\. Links:/.exec(alt || '');
    return m ? m[1].split('; ').map((p) => p.replace(/ \(.*$/, '')) : [];
  };
  for (const section of document.querySelectorAll('section.bp-compare')) {
    const places = [];
    for (const img of section.querySelectorAll('.bp-compare-boards > figure img')) {
      // the rendering this width and theme picks (a hidden board's
      // picture may not have chosen yet)
      const source = [...img.parentNode.querySelectorAll('source')].find((x) => matchMedia(x.media).matches);
      const src = new URL(source ? source.getAttribute('srcset') : img.getAttribute('src'), document.baseURI).href;
      if (!/\.svg$/.test(src)) continue;
      const svg = new DOMParser().parseFromString(await (await fetch(src)).text(), 'image/svg+xml').documentElement;
      const at = new Map();
      for (const label of partsOf(img.getAttribute('alt'))) {
        const t = [...svg.querySelectorAll('text')].find((e) => e.textContent.trim() === label);
        if (t && !at.has(label)) at.set(label, [parseFloat(t.getAttribute('x')), parseFloat(t.getAttribute('y'))]);
      }
      places.push([src.split('/').pop(), at]);
    }
    // the same row (a taller box above may push it down a line), and the
    // same side of every other part both have (a wider box beside it may
    // push it along, never past another)
    const side = (a, b) => (Math.abs(a - b) < PLACE_SLACK_X ? 0 : Math.sign(a - b));
    const [first, at0] = places[0] || [];
    for (const [file, at] of places.slice(1)) {
      const both = [...at.keys()].filter((label) => at0.has(label));
      for (const label of both) {
        const [x0, y0] = at0.get(label), [x, y] = at.get(label);
        if (Math.abs(y0 - y) > PLACE_SLACK_Y)
          problems.push(`switcher #${section.id}: the part “${label}” is on another row in ${file} (y ${Math.round(y)}) than in ${first} (y ${Math.round(y0)})`);
        for (const other of both)
          if (other !== label && side(x0, at0.get(other)[0]) !== side(x, at.get(other)[0]) && label < other)
            problems.push(`switcher #${section.id}: “${label}” and “${other}” swap sides between ${first} and ${file}`);
      }
    }
  }

  // a drawing narrower than its column sits in its middle
  for (const d of drawings) {
    const fig = d.closest('figure');
    if (!fig) continue;
    const f = fig.getBoundingClientRect();
    const r = d.getBoundingClientRect();
    if (r.width < f.width - 2 && Math.abs(r.left - f.left - (f.right - r.right)) > 2)
      problems.push(`${name(d)} is not centred in its figure (${Math.round(r.left - f.left)} px left, ${Math.round(f.right - r.right)} px right)`);
  }

  // the nav: no item alone on its line (unless each line holds one)
  // (in a grid the items stand in columns, and a short last row is a table's)
  const items = [...document.querySelectorAll('header nav.bp-nav li, header nav > a')].filter(shown);
  const navList = document.querySelector('header nav.bp-nav ul');
  if (items.length > 1 && !(navList && getComputedStyle(navList).display === 'grid')) {
    const lines = new Map();
    for (const it of items) {
      const top = Math.round(it.getBoundingClientRect().top);
      lines.set(top, (lines.get(top) || 0) + 1);
    }
    const counts = [...lines.values()];
    if (counts.length > 1 && counts.some((c) => c === 1) && counts.some((c) => c > 1))
      problems.push(`the nav leaves an item alone on a line (items per line: ${counts.join(', ')})`);
  }

  // a switcher's buttons stay beside or below its label as one group, never
  // some beside it and some wrapped under it
  for (const sw of document.querySelectorAll('.bp-switcher')) {
    if (!shown(sw)) continue;
    const label = sw.querySelector('.bp-switcher-label');
    const buttons = [...sw.querySelectorAll('button')].filter(shown).map((b) => b.getBoundingClientRect());
    if (!label || buttons.length < 2) continue;
    const l = label.getBoundingClientRect();
    const beside = buttons.some((r) => r.top < l.bottom - 1);
    const under = buttons.some((r) => r.top >= l.bottom - 1 && r.left < l.right - 1);
    if (beside && under) problems.push(`a switcher's buttons wrap under its label in ${name(sw)}`);
    // a label beside wrapped rows of buttons reads with the first row
    const first = buttons.reduce((a, r) => (r.top < a.top ? r : a));
    const mid = (l.top + l.bottom) / 2;
    if (beside && buttons.some((r) => r.top >= first.bottom - 1) && (mid < first.top || mid > first.bottom))
      problems.push(`a switcher's label is not on its first row of buttons in ${name(sw)} (its middle at ${Math.round(mid - first.top)} px from the row's top)`);
  }
  // a compare on a phone is compact: each measure a block no taller than
  // rowMax with the boards' values side by side (one line of cells), and a
  // row that reads the same on every board is left out of the table and
  // said in the "same on every board" line under it
  if (vw <= 640)
    for (const table of document.querySelectorAll('table.bp-compare-table')) {
      if (!shown(table)) continue;
      const wrap = table.closest('.bp-table-wrap');
      const same = wrap.querySelector('.bp-compare-same');
      for (const tr of table.querySelectorAll('tbody tr')) {
        const what = `compare ${name(table)}, row ${tr.dataset.measure}`;
        const label = tr.querySelector('th').textContent.trim();
        if (tr.classList.contains('bp-same')) {
          if (shown(tr)) problems.push(`${what}: the same on every board, yet shown as a row`);
          if (!same || !shown(same) || !same.textContent.includes(label))
            problems.push(`${what}: the same on every board, and the line under the table does not say it`);
          continue;
        }
        const h = tr.getBoundingClientRect().height;
        if (h > rowMax) problems.push(`${what}: ${Math.round(h)} px tall (at most ${rowMax} on a phone)`);
        const tops = [...tr.querySelectorAll('td[data-board]')].map((td) => Math.round(td.getBoundingClientRect().top));
        if (new Set(tops).size > 1) problems.push(`${what}: the boards' values are not side by side (tops ${tops.join(', ')})`);
      }
    }
  return problems;
}

// The gap under the last row of each timeline (a box that reserves room for
// a taller state shows it as blank space): at most this many px.
const TIMELINE_SLACK = 40;
async function timelineGaps(page) {
  return page.evaluate((slack) => {
    const out = [];
    for (const fig of document.querySelectorAll('figure')) {
      const img = fig.querySelector('img, svg');
      if (!img || !/timeline/i.test(img.getAttribute('alt') || img.querySelector?.('title')?.textContent || '')) continue;
      const f = fig.getBoundingClientRect();
      const cap = fig.querySelector('figcaption');
      // an inline timeline (in pieces where it folds) ends with its
      // variants' box; what follows it (its step buttons, else the
      // caption) is not blank
      const box = fig.querySelector('.bp-variants') || img;
      const r = box.getBoundingClientRect();
      if (!r.height) continue;
      const after = box.nextElementSibling && box.nextElementSibling.getBoundingClientRect().height
        ? box.nextElementSibling : cap;
      const below = (after ? after.getBoundingClientRect().top : f.bottom) - r.bottom;
      if (below > slack) out.push(`blank space of ${Math.round(below)} px under a timeline in #${fig.id || fig.closest('[id]')?.id}`);
    }
    return out;
  }, TIMELINE_SLACK);
}

// A compare's switcher, pressed button by button as a reader does (with
// the switcher 100 px below the viewport's top): the button pressed stays
// where it was (what follows the boards may move; the reader's pointer
// does not lose its place), and the boards' box ends with the board it
// shows (no blank band under a shorter board, BOARD_HOLE_MAX).
async function compareSwitch(page) {
  const problems = [];
  const ids = await page.$$eval('section.bp-compare', (ss) => ss.filter((s) => s.querySelector('.bp-switch')).map((s) => s.id));
  for (const id of ids) {
    const buttons = page.locator(`#${id} .bp-switch[data-board]`);
    const n = await buttons.count();
    await page.evaluate((id) => {
      const sw = document.querySelector(`#${id} .bp-switcher`);
      window.scrollTo(0, sw.getBoundingClientRect().top + scrollY - 100);
    }, id);
    for (let k of [...Array(n).keys()].slice(1).concat([0])) {
      const b = buttons.nth(k);
      const top = await b.evaluate((el) => el.getBoundingClientRect().top);
      await b.click();
      const s = await page.evaluate(([id, board]) => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
        const sec = document.getElementById(id), box = sec.querySelector('.bp-compare-boards');
        const fig = box.querySelector(`figure[data-board="${board}"]`);
        const end = Math.max(...[...fig.children].map((c) => c.getBoundingClientRect().bottom));
        done({ top: sec.querySelector(`.bp-switch[data-board="${board}"]`).getBoundingClientRect().top,
          hole: box.getBoundingClientRect().bottom - end });
      }))), [id, await b.getAttribute('data-board')]);
      if (Math.abs(s.top - top) >= 1)
        problems.push(`switcher #${id}: pressing button ${k + 1} moved it from ${Math.round(top)} to ${Math.round(s.top)} px`);
      if (s.hole > BOARD_HOLE_MAX)
        problems.push(`switcher #${id}: ${Math.round(s.hole)} px blank under board ${k + 1} (at most ${BOARD_HOLE_MAX})`);
    }
  }
  return problems;
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
  const failures = [];
  let visits = 0;
  const started = Date.now();
  // one context per theme and width, LAYOUT_JOBS of them at a time (default
  // 2) in the one browser: each waits for its own page's events
  const combos = THEMES.flatMap((theme) => WIDTHS.map((width) => ({ theme, width })));
  const list = pages(SITE);
  const one = async ({ theme, width }) => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1, colorScheme: theme });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    for (const rel of list) {
      const where = `/${rel} at ${width} px, ${theme}`;
      await page.goto(`${origin}/${rel}`, { waitUntil: 'load' });
      await page.evaluate(() => document.fonts.ready);
      const found = await page.evaluate(inspect, { minText: minTextAt(width), darkMax: DARK_MAX, lightMin: LIGHT_MIN, dark: theme === 'dark', rowMax: COMPARE_ROW_MAX, slackX: PLACE_SLACK_X, slackY: PLACE_SLACK_Y });
      found.push(...(await timelineGaps(page)));
      await page.addScriptTag({ content: AXE });
      const axe = await page.evaluate(async () => {
        const r = await window.axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => `axe ${v.id} (${v.impact}): ${v.nodes.length}× ${v.nodes[0]?.target.join(' ')}`);
      });
      found.push(...(await compareSwitch(page)));
      found.push(...axe, ...errors.splice(0).map((e) => `console: ${e}`));
      for (const f of found) failures.push(`${where}: ${f}`);
      const stem = (rel.replace(/\/$/, '').replace(/\//g, '-') || 'home') + `-${width}` + (theme === 'dark' ? '-dark' : '');
      await page.screenshot({ path: path.join(SHOTS, `${stem}.png`), fullPage: true });
      visits++;
    }
    await context.close();
  };
  try {
    const jobs = Math.max(1, Number(process.env.LAYOUT_JOBS || 2));
    const lane = async () => { for (let c; (c = combos.shift()); ) await one(c); };
    await Promise.all(Array.from({ length: jobs }, lane));
  } finally {
    await browser.close();
    server.close();
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (failures.length) {
    console.error(`layout test FAILED: ${failures.length} problems in ${visits} page visits:\n  ${failures.join('\n  ')}`);
    return 1;
  }
  console.log(`layout test: ${visits} page visits (${WIDTHS.join(', ')} px, light and dark) clean in ${secs} s; ` +
    `screenshots in ${path.relative(process.cwd(), SHOTS)}`);
  return 0;
}

process.exit(await run());
