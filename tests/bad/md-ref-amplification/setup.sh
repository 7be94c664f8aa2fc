python3 -c "
body = '[a]: /' + 'x' * 30000 + '\n\n' + '\n\n'.join(['[a] ' * 8000] * 7)
open('content/page.md', 'w').write('---\ntitle: A page\n---\n' + body + '\n')
"
