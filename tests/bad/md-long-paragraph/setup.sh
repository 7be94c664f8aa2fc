python3 -c "
open('content/page.md', 'w').write('---\ntitle: A page\n---\nIntro.\n\n' + '![[]()' * 40000 + '\n')
"
