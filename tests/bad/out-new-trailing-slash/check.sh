has -q "data-measure=\"jobs\">40<" newsite/page/index.html
test -z "$(ls -d newsite?* 2>/dev/null)"
rm -rf newsite
