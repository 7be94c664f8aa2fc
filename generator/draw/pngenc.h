/* pngenc.h — a drawing's pixels as PNG bytes, written for speed. */
#ifndef BP_DRAW_PNGENC_H
#define BP_DRAW_PNGENC_H

#include "base/util.h"

#include <stdint.h>

/* Appends to out the PNG of a w×h image of premultiplied ARGB pixels, one
 * native-endian uint32_t each, rows stride bytes apart (cairo's ARGB32).
 * An image with no transparent pixel is written as RGB, else as RGBA with
 * the alpha divided out. Returns 0, or -1 with the reason in err. */
int png_encode_argb(const unsigned char *pixels, int w, int h, int stride, buf *out, char *err,
                    size_t errn);

#endif
