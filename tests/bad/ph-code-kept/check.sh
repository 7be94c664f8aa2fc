has -F '<code>{{ nope.jobs }}</code>' public/page/index.html
has -F '{{ board nope }}' public/page/index.html
has -F '{{ also.kept }}' public/page/index.html
