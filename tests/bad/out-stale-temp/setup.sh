mkdir -p public.tmp-2147483646/page public.tmp-12345
touch public.tmp-2147483646/.boardpress-in-progress public.tmp-2147483646/page/index.html
echo mine > public.tmp-12345/notes.txt
