rm -f content/page.md
mkfifo content/page.md
