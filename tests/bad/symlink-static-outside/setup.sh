mkdir -p ../elsewhere && echo secret > ../elsewhere/key.txt && ln -s ../../elsewhere/key.txt static/key.txt
