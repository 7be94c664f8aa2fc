python3 -c "
open('content/boards/mini.yaml', 'w').write('id: mini\nx: [' + '1,' * 250000 + '1]\n')
"
