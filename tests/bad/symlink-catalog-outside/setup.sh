mkdir -p ../elsewhere && mv content/catalog.yaml content/site.yaml ../elsewhere/ && ln -s ../../elsewhere/catalog.yaml content/catalog.yaml && ln -s ../../elsewhere/site.yaml content/site.yaml
