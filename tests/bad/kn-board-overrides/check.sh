f=public/page/index.html
has -F '<td data-label="Value">5 s<br><span class="bp-override">On this page: 10 s (A small board, Checked)</span><br><span class="bp-override">On this page: 30 s (Third)</span></td>' "$f"
has -F '<tr data-key="message-broker.tries"><th scope="row">Message broker delivery tries</th><td data-label="Value">5 tries</td>' "$f"
has -F '<td data-label="Value">0%<br><span class="bp-override">On this page: 20% (A small board, Checked, Third)</span></td>' "$f"
has -F 'Where a board on this page sets its own value, the row gives it under the usual one' "$f"
