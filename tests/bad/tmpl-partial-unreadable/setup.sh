chmod 000 templates/partials/head.html
