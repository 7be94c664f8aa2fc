test -f public.tmp-2147483646/page/index.html
test -f public.tmp-2147483646/.boardpress-tree
test -f public.tmp-12345/notes.txt
diff -r public public.old-1
rm -rf public.tmp-2147483646 public.tmp-12345 public.old-1
