/* model/site.c — the site model's lookups and its freeing: whatever load/
 * made, run/ and draw/ added, is freed here, in one place. */
#include "model/site.h"
#include "base/fmt.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ boards and the catalog */

void board_free(bp_board *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->sim.n_parts; i++) {
        free(b->parts[i].id);
        free(b->parts[i].label);
    }
    for (size_t i = 0; i < b->sim.n_links; i++)
        free(b->links[i].label);
    free(b->sim.parts);
    free(b->sim.links);
    free(b->parts);
    free(b->part_set);
    free(b->links);
    free(b->link_set);
    free(b->lose_reply_of);
    free(b->path);
    free(b->id);
    free(b->title);
    free(b->short_name);
    free(b->noun);
    free(b->nouns);
    free(b->verb);
    free(b);
}

const char *board_noun(const bp_board *b, bool plural)
{
    if (b && b->noun)
        return plural ? b->nouns : b->noun;
    if (b && b->sim.traffic.op == SIM_OP_SET)
        return plural ? "updates" : "update";
    return plural ? "payments" : "payment";
}

const char *board_verb(const bp_board *b)
{
    if (b && b->verb)
        return b->verb;
    return b && b->sim.traffic.op == SIM_OP_SET ? "written" : "charged";
}

int board_part_index(const bp_board *b, const char *id)
{
    for (size_t i = 0; i < b->sim.n_parts; i++)
        if (b->parts[i].id && strcmp(b->parts[i].id, id) == 0)
            return (int)i;
    return -1;
}

void catalog_free(bp_catalog *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_values; i++) {
        free(c->values[i].section);
        free(c->values[i].field);
        free(c->values[i].text);
        free(c->values[i].label);
        for (size_t k = 0; k < c->values[i].n_sources; k++) {
            free(c->values[i].sources[k].text);
            free(c->values[i].sources[k].url);
        }
        free(c->values[i].sources);
    }
    free(c->values);
    for (int k = 0; k < SIM_KIND_COUNT; k++)
        free(c->kind_label[k]);
    for (int p = 0; p < SIM_PROTO_COUNT; p++)
        free(c->protocol_label[p]);
    free(c->path);
    free(c);
}

const bp_catalog_value *catalog_find(const bp_catalog *c, const char *section, const char *field)
{
    for (size_t i = 0; i < c->n_values; i++)
        if (strcmp(c->values[i].section, section) == 0 && strcmp(c->values[i].field, field) == 0)
            return &c->values[i];
    return NULL;
}

/* ------------------------------------------------------------ levels and charts */

static void free_options(bp_option *o, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(o[i].label);
        free(o[i].value);
    }
    free(o);
}

void level_free(bp_level *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n_choices; i++) {
        free(l->choices[i].label);
        free(l->choices[i].set);
        free_options(l->choices[i].options, l->choices[i].n_options);
    }
    free(l->choices);
    free(l->path);
    free(l->id);
    free(l->title);
    free(l->board);
    free(l);
}

void slive_free(slive *lv, const bp_level *l)
{
    if (!lv)
        return;
    for (size_t i = 0; lv->choices && i < l->n_choices; i++) {
        slive_choice *c = &lv->choices[i];
        for (size_t k = 0; c->bytes && k < l->choices[i].n_options; k++)
            free(c->bytes[k]);
        free(c->bytes);
        free(c->len);
        free(c->jobs);
        free(c->reps);
        free(c->sweep);
    }
    free(lv->choices);
    free(lv->one);
    free(lv->start);
    free(lv->drawn);
    free(lv);
}

void level_combo(const bp_level *l, size_t c, int *options)
{
    for (size_t i = l->n_choices; i-- > 0;) {
        size_t n = l->choices[i].n_options;
        options[i] = (int)(c % n);
        c /= n;
    }
}

size_t level_start(const bp_level *l)
{
    size_t c = 0;
    for (size_t i = 0; i < l->n_choices; i++)
        c = c * l->choices[i].n_options + (size_t)l->choices[i].start;
    return c;
}

void chart_free(bp_chart *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_x; i++)
        free(c->x_values[i]);
    free(c->x_values);
    free(c->x);
    free(c->x_value_pos);
    free(c->y_label);
    free(c->x_label);
    free(c->x_set);
    free(c->series_set);
    free_options(c->series, c->n_series);
    free(c->path);
    free(c->id);
    free(c->title);
    free(c->board);
    free(c);
}

/* ------------------------------------------------------------ pages */

static void free_refs(bp_ref *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(r[i].path);
    free(r);
}

const char *page_measure_label(const bp_page *p, sim_measure m)
{
    for (size_t i = 0; p && i < p->n_labels; i++)
        if (p->labels[i].measure == m)
            return p->labels[i].text;
    return fmt_measure_label(m);
}

void page_free(bp_page *p)
{
    if (!p)
        return;
    free(p->path);
    free(p->slug);
    free(p->title);
    free(p->summary);
    free(p->template_name);
    free(p->body);
    free_refs(p->boards, p->n_boards);
    free_refs(p->levels, p->n_levels);
    free_refs(p->charts, p->n_charts);
    for (size_t i = 0; i < p->n_labels; i++)
        free(p->labels[i].text);
    free(p->labels);
    free(p);
}

/* ------------------------------------------------------------ the site */

void sfigure_free(sfigure *f)
{
    for (int i = 0; i < FIGURE_LOOKS; i++)
        free(f->svg[i]);
    free(f->alt);
    memset(f, 0, sizeof *f);
}

void site_init(site *s, const site_options *o)
{
    memset(s, 0, sizeof *s);
    s->opt = *o;
    diag_init(&s->d, stderr);
    s->lim = sim_limits_default();
}

void build_report_free(build_report *r)
{
    if (!r)
        return;
    diag_records_free(r->diags, r->n_diags);
    for (size_t i = 0; i < r->n_changed; i++)
        free(r->changed[i]);
    free(r->changed);
    memset(r, 0, sizeof *r);
}

static void free_variant(bp_variant *b)
{
    free(b->file);
    board_free(b->board);
    if (b->ran)
        sim_result_free(&b->result);
    sfigure_free(&b->fig);
    free(b->fig_st.msg);
    sfigure_free(&b->tl);
    free(b->tl_st.msg);
    sim_proof_free(&b->proof);
    sfigure_free(&b->cx);
    free(b->cx_st.msg);
}

static void free_config(site_config *c)
{
    free(c->title);
    free(c->description);
    free(c->base_url);
    free(c->language);
    free(c->about);
    for (size_t i = 0; i < c->n_nav; i++)
        free(c->nav[i]);
    free(c->nav);
    free(c->nav_pos);
}

void site_free(site *s)
{
    buf_free(&s->warnings);
    for (size_t i = 0; i < s->n_pages; i++)
        page_free(s->pages[i]);
    free(s->pages);
    free(s->order);
    for (size_t i = 0; i < s->n_boards; i++) {
        free_variant(s->boards[i]);
        free(s->boards[i]);
    }
    free(s->boards);
    for (size_t i = 0; i < s->n_levels; i++) {
        slevel *sl = s->levels[i];
        for (size_t c = 0; sl->combos && c < sl->n_variants; c++)
            free_variant(&sl->combos[c]);
        free(sl->combos);
        free(sl->opts);
        slive_free(sl->live, sl->level);
        level_free(sl->level);
        free(sl->file);
        free(sl);
    }
    free(s->levels);
    for (size_t i = 0; i < s->n_charts; i++) {
        schart *sc = s->charts[i];
        for (size_t k = 0; k < sc->n_points; k++)
            free_variant(&sc->points[k]);
        free(sc->points);
        chart_free(sc->chart);
        sfigure_free(&sc->fig);
        free(sc->fig_st.msg);
        free(sc->file);
        free(sc);
    }
    free(s->charts);
    catalog_free(s->cat);
    free_config(&s->cfg);
    diag_free(&s->d);
}

/* ------------------------------------------------------------ lookups */

/* Linear scans: a site has tens of boards, levels and charts, and each file
 * is in its table once (the loader looks it up before adding it). */

bool site_live(const site *s)
{
    for (size_t i = 0; i < s->n_levels; i++)
        if (s->levels[i]->loaded && s->levels[i]->level->live)
            return true;
    /* a sometimes-claim's counterexample is replayed in the module
     * (generator/web/bp-replay.js) */
    for (size_t i = 0; i < s->n_boards; i++)
        if (s->boards[i]->board && s->boards[i]->board->claim.present &&
            s->boards[i]->board->claim.sometimes)
            return true;
    return false;
}

bp_variant *site_board_file(const site *s, const char *file)
{
    for (size_t i = 0; i < s->n_boards; i++)
        if (strcmp(s->boards[i]->file, file) == 0)
            return s->boards[i];
    return NULL;
}

slevel *site_level_file(const site *s, const char *file)
{
    for (size_t i = 0; i < s->n_levels; i++)
        if (strcmp(s->levels[i]->file, file) == 0)
            return s->levels[i];
    return NULL;
}

schart *site_chart_file(const site *s, const char *file)
{
    for (size_t i = 0; i < s->n_charts; i++)
        if (strcmp(s->charts[i]->file, file) == 0)
            return s->charts[i];
    return NULL;
}

bp_variant *site_page_board(const site *s, const bp_page *p, const char *id, size_t *listed)
{
    for (size_t i = 0; i < p->n_boards; i++) {
        bp_variant *b = site_board_file(s, p->boards[i].path);
        if (b && b->board && strcmp(b->board->id, id) == 0) {
            *listed = i;
            return b;
        }
    }
    return NULL;
}

slevel *site_page_level(const site *s, const bp_page *p, const char *id, size_t *listed)
{
    for (size_t i = 0; i < p->n_levels; i++) {
        slevel *sl = site_level_file(s, p->levels[i].path);
        if (sl && sl->loaded && strcmp(sl->level->id, id) == 0) {
            *listed = i;
            return sl;
        }
    }
    return NULL;
}

schart *site_page_chart(const site *s, const bp_page *p, const char *id, size_t *listed)
{
    for (size_t i = 0; i < p->n_charts; i++) {
        schart *sc = site_chart_file(s, p->charts[i].path);
        if (sc && sc->chart && sc->points && strcmp(sc->chart->id, id) == 0) {
            *listed = i;
            return sc;
        }
    }
    return NULL;
}
