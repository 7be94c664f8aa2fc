has -q "data-measure=\"jobs\">40<" public/page/index.html
test -z "$(ls -d public?* 2>/dev/null)"
