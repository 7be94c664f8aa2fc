chmod 000 content/page.md
