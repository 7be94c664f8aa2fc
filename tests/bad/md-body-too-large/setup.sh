python3 -c "
open('content/page.md', 'w').write('---\ntitle: A page\n---\n' + ('word ' * 1000 + '\n\n') * 60)
"
