sed -i 's/label: Broker/label: Br\xf6ker/' content/boards/mini.yaml
