mkdir -p static/a static/b
ln -s ../b static/a/to-b
ln -s ../a static/b/to-a
