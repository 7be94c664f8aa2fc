python3 -c "
import sys
out = ['id: mini', 'x:']
for i in range(70):
    out.append('  ' * (i + 1) + 'k%d:' % i)
out.append('  ' * 71 + 'v')
open('content/boards/mini.yaml', 'w').write('\n'.join(out) + '\n')
"
