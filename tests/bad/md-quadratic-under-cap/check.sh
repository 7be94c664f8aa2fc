test -s public/page/index.html
