iconv -f UTF-8 -t UTF-16 content/boards/mini.yaml > x && mv x content/boards/mini.yaml
