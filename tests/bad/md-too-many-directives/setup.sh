python3 -c "
open('content/page.md', 'w').write('---\ntitle: A page\nboards: [boards/mini.yaml]\n---\n' + '{{ board mini }}\n\n' * 1001)
"
