mkdir -p ../elsewhere && printf -- '---\ntitle: Outside\n---\nText.\n' > ../elsewhere/out.md && ln -s ../../elsewhere/out.md content/outside.md
