test ! -e public.tmp-2147483646
test -f public.tmp-12345/notes.txt
rm -rf public.tmp-12345
