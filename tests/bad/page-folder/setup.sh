rm content/page.md
mkdir content/page.md
