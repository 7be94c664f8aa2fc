python3 -c "
open('content/page.md', 'w').write('---\ntitle: A page\n---\n' + '## Same\n\n' * 20000)
"
