rm -f templates/page.html
mkfifo templates/page.html
