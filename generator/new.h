/* new.h — `boardpress new page SLUG | board ID`: a starting page and board
 * that build, written only where no file is. */
#ifndef BP_NEW_H
#define BP_NEW_H

/* boardpress new page SLUG | new board ID [--content DIR]. Writes
 * DIR/SLUG.md and DIR/boards/SLUG.yaml (page), or DIR/boards/ID.yaml
 * (board), and says so on stdout; refuses (exit 1, nothing written) when
 * any of them exists. Returns the exit status. */
int new_main(int argc, char **argv);

#endif
