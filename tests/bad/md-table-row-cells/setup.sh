python3 -c "
open('content/page.md', 'w').write('---\ntitle: A page\n---\n| a | b |\n|---|---|\n| c | d |\n' + '|' * 20000 + '\n')
"
