/* fmt.h — numbers as pages show them: integers as integers, means with one
 * decimal, durations in the unit people use ("150 ms", "10.1 s"), money
 * "12 USD/mo", rates "0%" / "0.3%". Never depends on the locale. */
#ifndef BP_FMT_H
#define BP_FMT_H

#include "simcore.h"
#include "base/util.h"

#include <stdbool.h>
#include <stdint.h>

/* A count or plain number: "200", "1200.4", "0.04". */
void fmt_number(buf *b, double x);
/* A duration from seconds: "250 µs", "150 ms", "10.1 s", "5 min", "24 h", "7 d". */
void fmt_seconds(buf *b, double s);
/* Is w (n bytes, closing punctuation such as "," or ")" aside) a unit these
 * functions or a setting write after a number ("s", "min", "%", "USD/mo",
 * "tries", "GB")? Word-wrap keeps such a word on its number's line. */
bool fmt_unit_word(const char *w, size_t n);
/* A duration s in the unit fmt_seconds would write `like` in, so that a
 * spread reads in its mean's unit ("1.7 s ± 0.7 s", not "± 676 ms"); in
 * its own unit when that one would round it to 0 ("1.7 s ± 4 ms"). */
void fmt_seconds_like(buf *b, double s, double like);
/* A duration from microseconds; INT64_MAX is "forever". */
void fmt_duration_us(buf *b, int64_t us);
/* The words before a duration, as a reader reads them with it: `words` as
 * they are ("keeps keys for" 24 h), but before an unbounded duration
 * (INT64_MAX, "forever") without their closing "for" or "within" ("keeps
 * keys" forever), so that no page says "for forever". A space closing
 * `words` is kept. */
void fmt_words_before(buf *b, const char *words, int64_t us);
/* The "for" or "within" that closes `words` (spaces after it aside), else
 * NULL. */
const char *fmt_closing_tie(const char *words);
/* A fraction as a percentage: "0%", "0.032%", "20%", "12.5%". */
void fmt_ratio(buf *b, double r);
/* Money per month: "12 USD/mo", "12.50 USD/mo". */
void fmt_usd_month(buf *b, double usd);
/* Money: "3 USD", "0.25 USD". */
void fmt_usd(buf *b, double usd);
/* A measure's value with its unit, by sim_measure_unit. */
void fmt_measure(buf *b, sim_measure m, double v);
/* The same, a duration in the unit of `like` (fmt_seconds_like). */
void fmt_measure_like(buf *b, sim_measure m, double v, double like);
/* Human words for a measure: "Duplicates", "Completion time" (static). */
const char *fmt_measure_label(sim_measure m);
/* A number for JSON: integers exactly, others rounded to 6 significant
 * decimals, never exponent notation or "-0". */
void fmt_json_number(buf *b, double x);
/* The same, but a number below 1 keeps 6 significant digits (a rate per
 * job of 0.000149787). */
void fmt_json_significant(buf *b, double x);

/* Labels in drawings, written into dst (n bytes, always terminated):
 * a plain number with at most 3 decimals, no trailing zeros ("0.5", "2"); */
void fmt_label_number(char *dst, size_t n, double v);
/* a fraction as a percentage, one decimal from 1 %, three below so 0.05 %
 * does not read as 0 % ("20%", "0.05%", "12.5%"); */
void fmt_label_percent(char *dst, size_t n, double p);
/* a duration as fmt_duration_us writes it ("250 ms", "5 min", "24 h"). */
void fmt_label_duration(char *dst, size_t n, int64_t us);

#endif
