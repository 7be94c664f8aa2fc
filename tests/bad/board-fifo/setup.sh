rm -f content/boards/mini.yaml
mkfifo content/boards/mini.yaml
