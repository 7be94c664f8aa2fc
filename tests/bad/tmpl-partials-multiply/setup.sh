sed -i 's/{{> head }}/{{> head }}{{> p0 }}/' templates/page.html
