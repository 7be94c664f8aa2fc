python3 -c "
rows = ''.join('| %d |\n' % i for i in range(1700))
open('content/page.md', 'w').write('---\ntitle: A page\n---\nText.\n\n|' + 'a|' * 64 + '\n|' + '-|' * 64 + '\n' + rows)
"
