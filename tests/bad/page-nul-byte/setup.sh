printf -- '---\ntitle: A page\n---\nText \000 more.\n' > content/page.md
