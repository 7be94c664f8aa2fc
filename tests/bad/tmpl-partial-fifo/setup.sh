rm -f templates/partials/head.html
mkfifo templates/partials/head.html
