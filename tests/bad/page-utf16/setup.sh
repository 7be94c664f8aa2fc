printf -- '---\ntitle: A page\n---\nText.\n' | iconv -f UTF-8 -t UTF-16 > content/page.md
