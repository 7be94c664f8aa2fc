printf -- '---\ntitle: A page\n---\nCaf\351 au lait.\n' > content/page.md
