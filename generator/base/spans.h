/* spans.h — a build's timeline, for finding what keeps a core idle: with
 * BOARDPRESS_SPANS=FILE in the environment, every stage and every job of
 * the threaded stages (a run, a proof, a drawing, a page, a card) is kept
 * as a span (its thread, its start and end, what it was), and written to
 * FILE as one line each once the build ends. Unset, each call is one
 * load and a branch. */
#ifndef BP_SPANS_H
#define BP_SPANS_H

#include <stdbool.h>

/* Start recording when BOARDPRESS_SPANS names a file (the clock's zero is
 * now); a second call while recording does nothing. */
void spans_begin(void);
/* True while recording: a caller may skip making a span's name. */
bool spans_on(void);
/* The seconds since spans_begin (0 when not recording), for span_add. */
double spans_now(void);
/* Keep one span of this thread from t0 (spans_now) to now: its kind
 * ("run", "draw", "page", "stage" ...) and its name (copied). */
void span_add(const char *kind, const char *name, double t0);
/* This thread's number in the spans: threads_for_each gives its threads
 * 1, 2, ... (the caller's thread is 0). */
void spans_thread_set(int thread);
/* Write the spans to the file (thread, start and end in ms, kind, name,
 * tab-separated, by start) and stop recording. Returns 0, or -1 when the
 * file cannot be written (said on stderr: the build itself succeeded). */
int spans_end(void);

#endif
