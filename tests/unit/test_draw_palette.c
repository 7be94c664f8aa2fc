/* test_draw_palette.c — the drawings' colours in both themes, measured:
 * every text role against every fill it is drawn on has at least 4.5:1 of
 * WCAG 2 contrast, lines and marks 3:1 against the card, the dark card is
 * dark and the light one light, and the SVGs of both themes say the colours
 * the palette gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "draw/draw_internal.h"
#include "test_draw_fixtures.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* WCAG 2.x relative luminance of an sRGB colour 0xRRGGBB. */
static double luminance(uint32_t rgb)
{
    double ch[3];
    for (int i = 0; i < 3; i++) {
        double v = (double)((rgb >> (16 - 8 * i)) & 0xFF) / 255.0;
        ch[i] = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
    }
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
}

static double contrast(uint32_t a, uint32_t b)
{
    double la = luminance(a), lb = luminance(b);
    return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* The formula itself, on the values WCAG's own examples give. */
static void contrast_formula(void **state)
{
    (void)state;
    assert_true(fabs(contrast(0x000000, 0xFFFFFF) - 21.0) < 1e-9);
    assert_true(fabs(contrast(0x777777, 0xFFFFFF) - 4.48) < 0.01); /* just under AA */
    assert_true(fabs(contrast(0x767676, 0xFFFFFF) - 4.54) < 0.01); /* just over */
    assert_true(fabs(contrast(0x123456, 0x123456) - 1.0) < 1e-12);
}

static void pairs_meet_their_ratio(void **state)
{
    (void)state;
    static const char *const theme[] = {"light", "dark"};
    assert_true(dpalette_n_pairs >= 20);
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < dpalette_n_pairs; i++) {
            const dcolor_pair *p = &dpalette_pairs[i];
            uint32_t fg = dpalette_rgb((draw_theme)t, p->fg),
                     bg = dpalette_rgb((draw_theme)t, p->bg);
            double r = contrast(fg, bg);
            if (r < p->min_ratio)
                fail_msg("%s theme: #%06x on #%06x (roles %d on %d) is %.2f:1, under %.1f:1",
                         theme[t], (unsigned)fg, (unsigned)bg, p->fg, p->bg, r, p->min_ratio);
        }
}

/* Every text role the drawings use is in the list, on the card at least. */
static void every_text_role_is_checked(void **state)
{
    (void)state;
    static const dcolor texts[] = {DC_INK,  DC_MUTED, DC_PROTO,    DC_FAIL,
                                   DC_PASS, DC_SKIP,  DC_BADGE_INK};
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        bool found = false;
        for (size_t i = 0; i < dpalette_n_pairs; i++)
            found |= dpalette_pairs[i].fg == texts[k] && dpalette_pairs[i].min_ratio >= 4.5;
        if (!found)
            fail_msg("text role %d has no 4.5:1 pair", texts[k]);
    }
    for (int k = 0; k < DC_N_SERIES; k++) {
        bool found = false;
        for (size_t i = 0; i < dpalette_n_pairs; i++)
            found |= dpalette_pairs[i].fg == (dcolor)(DC_SERIES0 + k);
        assert_true(found);
    }
}

static void dark_is_dark(void **state)
{
    (void)state;
    assert_true(luminance(dpalette_rgb(DRAW_DARK, DC_CARD)) < 0.03);
    assert_true(luminance(dpalette_rgb(DRAW_DARK, DC_BOX)) < 0.05);
    assert_true(luminance(dpalette_rgb(DRAW_DARK, DC_INK)) > 0.6);
    assert_true(luminance(dpalette_rgb(DRAW_LIGHT, DC_CARD)) > 0.9);
    assert_true(luminance(dpalette_rgb(DRAW_LIGHT, DC_INK)) < 0.05);
    for (int c = DC_CARD; c < DC_COUNT; c++)
        assert_true(dpalette_rgb(DRAW_LIGHT, (dcolor)c) != dpalette_rgb(DRAW_DARK, (dcolor)c) ||
                    c == DC_NONE);
}

/* The SVG of each theme paints its card and writes its texts in that
 * theme's colours (cairo writes rgb() in percent; the texts are hex). */
static void svg_uses_the_theme(void **state)
{
    (void)state;
    bp_board *b = fx_every_delivery();
    draw_note notes[] = {{2, "183 charged twice", DRAW_FAIL, NULL, 0}};
    for (int t = 0; t < 2; t++) {
        buf svg, alt;
        buf_init(&svg);
        buf_init(&alt);
        char err[256];
        draw_look look = {DRAW_WIDE, (draw_theme)t};
        assert_int_equal(draw_board(b, notes, 1, look, &svg, &alt, err, sizeof err), 0);
        char want[64];
        snprintf(want, sizeof want, "fill=\"#%06x\">",
                 (unsigned)dpalette_rgb((draw_theme)t, DC_INK));
        assert_non_null(strstr(svg.data, want)); /* the texts' default colour */
        snprintf(want, sizeof want, "fill=\"#%06x\"",
                 (unsigned)dpalette_rgb((draw_theme)t, DC_FAIL));
        assert_non_null(strstr(svg.data, want)); /* the failing note */
        uint32_t card = dpalette_rgb((draw_theme)t, DC_CARD);
        /* the card is the first filled shape */
        const char *fill = strstr(svg.data, "fill:rgb(");
        assert_non_null(fill);
        double r, g, bl;
        assert_int_equal(sscanf(fill, "fill:rgb(%lf%%,%lf%%,%lf%%)", &r, &g, &bl), 3);
        assert_true(fabs(r * 2.55 - (double)((card >> 16) & 0xFF)) < 1.0);
        assert_true(fabs(g * 2.55 - (double)((card >> 8) & 0xFF)) < 1.0);
        assert_true(fabs(bl * 2.55 - (double)(card & 0xFF)) < 1.0);
        buf_free(&svg);
        buf_free(&alt);
    }
    fx_board_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(contrast_formula),           cmocka_unit_test(pairs_meet_their_ratio),
        cmocka_unit_test(every_text_role_is_checked), cmocka_unit_test(dark_is_dark),
        cmocka_unit_test(svg_uses_the_theme),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    draw_shutdown();
    return rc;
}
