f=public/page/index.html
has -F '<title>Fish &amp; &lt;Chips&gt; &quot;quoted&quot; &#39;single&#39;</title>' "$f"
has -F 'content="A summary with &quot;quotes&quot; and &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; in it"' "$f"
has -F 'href="https://example.com/?a=1&amp;b=%222%22"' "$f"
lacks -iE '(href|src)="(javascript|vbscript|data):' "$f"
lacks -F '<script>alert' "$f"
lacks -F 'onerror' "$f"
has -F '<!-- raw HTML omitted -->' "$f"
