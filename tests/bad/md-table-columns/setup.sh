python3 -c "
open('content/page.md', 'w').write('---\ntitle: A page\n---\nText.\n\n|' + 'a|' * 2000 + '\n|' + '-|' * 2000 + '\n|' + 'b|' * 2000 + '\n')
"
