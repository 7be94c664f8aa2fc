f=public/page/index.html
has -F 'at most <span class="bp-num">5</span> times' "$f"
has -F '(<span class="bp-num">5 tries</span>), waiting <span class="bp-num">5 s</span> for an ack' "$f"
has -F '<span class="bp-num">40 payments</span> arrive over <span class="bp-num">4 s</span>' "$f"
has -F 'one ack in
<span class="bp-num">20%</span> lost;' "$f"
has -E 'lost; <span class="bp-num" data-board="mini" data-measure="duplicates" data-filter="number">[0-9.]+</span> duplicates' "$f"
