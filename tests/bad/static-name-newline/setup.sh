printf "x\n" > "static/two
lines.css"
