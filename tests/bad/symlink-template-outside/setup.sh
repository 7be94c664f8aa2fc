mkdir -p ../elsewhere && echo '<title>secret</title>' > ../elsewhere/head.html && rm templates/partials/head.html && ln -s ../../../elsewhere/head.html templates/partials/head.html
