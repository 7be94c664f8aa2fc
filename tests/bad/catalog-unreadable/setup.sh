chmod 000 content/catalog.yaml
