/* levels.js — the live levels of a built site, as the tests and the bench
 * find them (tests/live/wire.js, tests/browser/live.mjs,
 * tests/bench/live_bench.mjs): every <section class="bp-level
 * bp-live-level"> of every index.html under site, with its data block
 * (generator/render/live.c).
 *
 *   liveLevels(site, content) -> [{page, url, id, data, content}]
 *
 * page is the file, url its folder relative to site ("idempotent-consumer/"),
 * id the section's id, content is passed through (the content folder the
 * level's file is relative to). */
'use strict';
const fs = require('fs');
const path = require('path');

function liveLevels(site, content) {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'index.html') {
        const html = fs.readFileSync(p, 'utf8');
        const re = /<section class="bp-level bp-live-level[^"]*" id="([^"]+)"[\s\S]*?<script type="application\/json" class="bp-data">(\{[^<]*)<\/script>/g;
        let m;
        while ((m = re.exec(html))) {
          out.push({ page: p, url: path.relative(site, path.dirname(p)) + '/', id: m[1],
            data: JSON.parse(m[2]), content });
        }
      }
    }
  };
  walk(site);
  return out;
}

module.exports = { liveLevels };
