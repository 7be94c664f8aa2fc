{ printf -- '---\ntitle: A page\n---\n'; head -c 400000 /dev/zero | tr '\0' 'a'; } > content/page.md
