f=public/page/index.html
has -F '<span class="bp-board-title">A &lt;b&gt;small&lt;/b&gt; &amp; &quot;quoted&quot; &lt;/script&gt; board</span>' "$f"
has -F 'alt="Board diagram of “A &lt;b&gt;small&lt;/b&gt; &amp; &quot;quoted&quot; &lt;/script&gt; board”' "$f"
has -F 'Consumer &lt;i&gt;&amp;&lt;/i&gt; size' "$f"
has -F 'ID &lt;check&gt; &amp; &quot;x&quot;' "$f"
has -F '"options":["Off \u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e","On \u0026 '"'"'on'"'"'"]' "$f"
# the only script elements are the page's own data blocks
test "$(grep -o '<script[^>]*>' "$f" | sort -u)" = '<script type="application/json" class="bp-data">'
has -F '<title>A &lt;b&gt;small&lt;/b&gt; &amp; &quot;quoted&quot; &lt;/script&gt; board</title>' public/page/mini.svg
lacks '<script\|<b>\|<i>' public/page/*.svg public/page/results.json
has -F '"title":"A \u003cb\u003esmall\u003c/b\u003e \u0026 \"quoted\" \u003c/script\u003e board"' public/page/results.json
