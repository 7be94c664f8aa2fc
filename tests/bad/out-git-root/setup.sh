mkdir -p ../repo/.git
