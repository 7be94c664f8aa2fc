cp -a public copy
echo mine > copy/notes.txt
