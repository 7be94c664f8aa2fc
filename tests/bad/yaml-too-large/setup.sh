python3 -c "
open('content/boards/mini.yaml', 'a').write('# ' + 'x' * (1 << 20) + '\n')
"
