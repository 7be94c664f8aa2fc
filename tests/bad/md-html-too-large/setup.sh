python3 -c "
body = '[a]: /' + 'x' * 2000 + '\n\n' + '\n\n'.join(['[a] ' * 4000] * 3)
open('content/page.md', 'w').write('---\ntitle: A page\n---\n' + body + '\n')
"
