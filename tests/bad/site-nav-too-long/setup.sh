{ echo "title: Base"; echo "nav:"; for i in $(seq 1 101); do echo "  - page-$i"; done; } >content/site.yaml
