mkdir -p ../elsewhere && cp content/boards/mini.yaml ../elsewhere/linked.yaml && ln -s ../../../elsewhere/linked.yaml content/boards/linked.yaml
