f=public/page/index.html
has -F 'Raw <b>bold</b> &lt;script>alert(1)&lt;/script> &lt;iframe src=x>&lt;/iframe>' "$f"
has -F 'href="javascript:alert(1)"' "$f"
has -F '<span class="bp-board-title">A &lt;b&gt;small&lt;/b&gt; board</span>' "$f"
