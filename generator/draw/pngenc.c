/* pngenc.c — PNG bytes from a drawing's pixels (share cards, PNG figures).
 *
 * cairo's own PNG writer asks libpng for zlib's default level and lets it
 * try every row filter on every row; on a share card (1200×630, flat
 * colours and text) that was about 90 % of the card's time, and with a
 * card per page it was most of a large site's build. Here every row gets
 * the Sub filter (what the adaptive choice picks on nearly every row of
 * such a picture) and zlib's level 3. An opaque picture (every card) is
 * written as RGB, as cairo did. The pixels are cairo's (checked against
 * its writer's files), and the same pixels give the same file. */
#include "draw/pngenc.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#define PNG_LEVEL 3

typedef struct {
    buf *out;
    char *err;
    size_t errn;
} png_sink;

static void S_write(png_structp png, png_bytep data, size_t n)
{
    png_sink *k = png_get_io_ptr(png);
    buf_put(k->out, (const char *)data, n);
}

static void S_flush(png_structp png)
{
    (void)png;
}

static void S_error(png_structp png, png_const_charp msg)
{
    png_sink *k = png_get_error_ptr(png);
    snprintf(k->err, k->errn, "could not make the PNG: %s", msg);
    png_longjmp(png, 1);
}

static void S_warn(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

static bool S_opaque(const unsigned char *pixels, int w, int h, int stride)
{
    for (int y = 0; y < h; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(pixels + (size_t)y * (size_t)stride);
        for (int x = 0; x < w; x++)
            if ((row[x] >> 24) != 0xff)
                return false;
    }
    return true;
}

/* One row as PNG samples: RGB, or RGBA with the alpha divided out the way
 * cairo's writer does it (rounded). */
static void S_row(const uint32_t *src, int w, bool opaque, unsigned char *dst)
{
    for (int x = 0; x < w; x++) {
        uint32_t p = src[x];
        unsigned a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
        if (opaque) {
            *dst++ = (unsigned char)r;
            *dst++ = (unsigned char)g;
            *dst++ = (unsigned char)b;
            continue;
        }
        if (a == 0) {
            r = g = b = 0;
        } else if (a != 0xff) {
            r = (r * 255 + a / 2) / a;
            g = (g * 255 + a / 2) / a;
            b = (b * 255 + a / 2) / a;
        }
        *dst++ = (unsigned char)r;
        *dst++ = (unsigned char)g;
        *dst++ = (unsigned char)b;
        *dst++ = (unsigned char)a;
    }
}

int png_encode_argb(const unsigned char *pixels, int w, int h, int stride, buf *out, char *err,
                    size_t errn)
{
    png_sink k = {out, err, errn};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &k, S_error, S_warn);
    if (!png) {
        snprintf(err, errn, "could not make the PNG: out of memory");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    bool opaque = S_opaque(pixels, w, h, stride);
    size_t row_bytes = (size_t)w * (opaque ? 3u : 4u);
    unsigned char *volatile row = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        if (!info)
            snprintf(err, errn, "could not make the PNG: out of memory");
        free(row);
        png_destroy_write_struct(&png, info ? &info : NULL);
        return -1;
    }
    row = xmalloc(row_bytes);
    png_set_write_fn(png, &k, S_write, S_flush);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8,
                 opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_set_compression_level(png, PNG_LEVEL);
    png_write_info(png, info);
    for (int y = 0; y < h; y++) {
        S_row((const uint32_t *)(const void *)(pixels + (size_t)y * (size_t)stride), w, opaque, row);
        png_write_row(png, row);
    }
    png_write_end(png, info);
    free(row);
    png_destroy_write_struct(&png, &info);
    return 0;
}
