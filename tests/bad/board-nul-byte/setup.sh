printf 'id: mini\ntitle: A\000B\n' > content/boards/mini.yaml
