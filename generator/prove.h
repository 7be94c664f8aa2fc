/* prove.h — `boardpress prove`: a board's claim proved over every way a
 * few of its jobs can meet a few faults, as JSON (prove.c). */
#ifndef BP_PROVE_H
#define BP_PROVE_H

/* Run the prove command (argv[1] is "prove"). Returns the exit status: 0
 * whether or not the claim holds, 1 bad input, 2 bad usage, 3 I/O. */
int prove_main(int argc, char **argv);

#endif
