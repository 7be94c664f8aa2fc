f=public/page/index.html
has -F 'tries <span class="bp-num">5</span> times
(<span class="bp-num">5 tries</span>), after <span class="bp-num">5</span> seconds.' "$f"
