f=public/page/index.html
# a table's row heading starts with a capital; running text keeps the page's word
has -F '<tr data-measure="duplicates"><th scope="row">Charged again</th>' "$f"
has -F '<th scope="row">Charged again</th><td data-label="Goal">' "$f"
has -F '48 handler runs · 8 charged again' "$f"
has -F '<tr><th scope="row">Handler runs</th>' "$f"
has -F '"duplicates":"charged again"' "$f"
lacks -F '>Duplicates<' "$f"
has -F 'Charged again, 0 to' public/page/chart-loss.svg
lacks -F 'Duplicates, 0 to' public/page/chart-loss.svg
