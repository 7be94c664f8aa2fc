echo notes > public/notes.txt
