python3 -c "
para = ['![[]()' * 5300, 'a <? ' * 6500]
open('content/page.md', 'w').write('---\ntitle: A page\n---\n' + '\n\n'.join(para * 4) + '\n')
"
