mkdir -p public.tmp-2147483646/page public.tmp-12345 public.old-1
touch public.tmp-2147483646/.boardpress-in-progress public.tmp-2147483646/page/index.html
echo "boardpress tree 0123456789abcdef0123456789abcdef" > public.tmp-2147483646/.boardpress-tree
echo mine > public.tmp-12345/notes.txt
cp -a public/. public.old-1/
