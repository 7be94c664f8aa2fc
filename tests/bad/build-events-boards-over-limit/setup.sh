for i in 1 2 3 4 5 6 7; do
  sed -e "s/^id: mini/id: big$i/" -e "s/^seed: 3/seed: $i/" -e 's/^replications: 2/replications: 3/' \
    -e 's/jobs: 40, over: 4 s/jobs: 1000000, over: 1000 s/' content/boards/mini.yaml >content/boards/big$i.yaml
done
{ printf -- '---\ntitle: A page\nboards: [boards/big1.yaml, boards/big2.yaml, boards/big3.yaml, boards/big4.yaml, boards/big5.yaml, boards/big6.yaml, boards/big7.yaml]\n---\n'
  for i in 1 2 3 4 5 6 7; do echo "{{ big$i.duplicates }}"; done; } >content/page.md
