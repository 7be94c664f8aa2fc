rm -f content/site.yaml
mkfifo content/site.yaml
