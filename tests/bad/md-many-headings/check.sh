has 'id="same-20000"' public/page/index.html
has 'id="same"' public/page/index.html
