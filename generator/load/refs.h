/* refs.h — what the pages list: their boards, levels and charts (refs.c). */
#ifndef BP_REFS_H
#define BP_REFS_H

#include "model/site.h"

/* The boards, levels and charts every page of s lists, into s->boards,
 * s->levels and s->charts: each file read once however many pages name
 * it, each level combination and chart point a board variant of its own.
 * Needs s->cat; every problem is reported. */
void refs_load(site *s);

#endif
