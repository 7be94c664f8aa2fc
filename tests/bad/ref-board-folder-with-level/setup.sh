rm content/boards/mini.yaml
mkdir content/boards/mini.yaml
