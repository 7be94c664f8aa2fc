for i in 1 2 3 4 5 6; do
  sed -e "s/^id: mini/id: big$i/" -e "s/^seed: 3/seed: $i/" -e 's/^replications: 2/replications: 3/' \
    -e 's/jobs: 40, over: 4 s/jobs: 1000000, over: 1000 s/' -e '/^expect:/d' content/boards/mini.yaml >content/boards/big$i.yaml
done
{ printf -- '---\ntitle: A page\nboards: [boards/mini.yaml, boards/big1.yaml, boards/big2.yaml, boards/big3.yaml, boards/big4.yaml, boards/big5.yaml, boards/big6.yaml]\n---\n'
  echo "{{ mini.duplicates }}"; for i in 1 2 3 4 5 6; do echo "{{ big$i.duplicates }}"; done; } >content/page.md
