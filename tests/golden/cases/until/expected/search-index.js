/* boardpress search index, written by boardpress build (docs/site.md, Search) */
window.bpSearchIndex={"v":1,"pages":["until/","Until"],"sections":[0,"",""],"terms":"4.8|5.5|5.5 never|65.8|66.7|after|allowed|never|runs|settled|some|until","postings":"1|1|1|1|1|1|1|1|1:2|1:2|1|1:8"};
