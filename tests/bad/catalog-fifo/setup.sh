rm -f content/catalog.yaml
mkfifo content/catalog.yaml
