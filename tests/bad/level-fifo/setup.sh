mkdir -p content/levels
mkfifo content/levels/fix.yaml
