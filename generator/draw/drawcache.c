/* drawcache.c — see drawcache.h. Files "draw-HASH.bin" in the cache folder:
 * the key's length and bytes (the key starts "BPDC3\n"; the bytes rule out
 * hash collisions), the four renderings' SVGs (in look order) and the alt
 * text, each with its length, then a checksum of everything before it
 * (cache_seal). */
#define _GNU_SOURCE
#include "draw/drawcache.h"
#include "run/cache.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "BPDC3\n"

/* The fonts draw.c asks for ("DejaVu Sans", regular and bold), where Debian's
 * fonts-dejavu-core puts them: their size and time stamp join the key. */
static const char *const font_files[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
};

static unsigned char build_id[64];
static size_t build_id_len;
static pthread_once_t build_id_once = PTHREAD_ONCE_INIT;

static int find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
        const char *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(const void *)p;
            const char *name = p + sizeof *nh;
            const char *desc = name + ((nh->n_namesz + 3) & ~3u);
            if (desc + nh->n_descsz > end)
                break;
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && memcmp(name, "GNU", 4) == 0 &&
                nh->n_descsz <= sizeof build_id) {
                memcpy(build_id, desc, nh->n_descsz);
                build_id_len = nh->n_descsz;
                return 1;
            }
            p = desc + ((nh->n_descsz + 3) & ~3u);
        }
    }
    return 1; /* the first object is the program itself: stop there */
}

static void read_build_id(void)
{
    dl_iterate_phdr(find_build_id, NULL);
}

static void put_str(buf *key, const char *s)
{
    uint64_t n = s ? strlen(s) : UINT64_MAX;
    buf_put(key, (const char *)&n, sizeof n);
    if (s)
        buf_put(key, s, strlen(s));
}

static void put_u64(buf *key, uint64_t v)
{
    buf_put(key, (const char *)&v, sizeof v);
}

static void key_env(buf *key, const char *what)
{
    pthread_once(&build_id_once, read_build_id);
    buf_puts(key, MAGIC);
    buf_puts(key, what);
    put_u64(key, build_id_len);
    buf_put(key, (const char *)build_id, build_id_len);
    put_str(key, draw_engine_version());
    for (size_t i = 0; i < sizeof font_files / sizeof font_files[0]; i++) {
        struct stat st;
        if (stat(font_files[i], &st) == 0) {
            put_u64(key, (uint64_t)st.st_size);
            put_u64(key, (uint64_t)st.st_mtim.tv_sec);
            put_u64(key, (uint64_t)st.st_mtim.tv_nsec);
        } else {
            put_u64(key, UINT64_MAX);
        }
    }
}

static void key_common(buf *key, const char *what, const bp_board *b)
{
    key_env(key, what);
    /* the board: every field the simulator sees, then names and labels */
    sim_limits lim = sim_limits_default();
    cache_key(key, &b->sim, &lim, false);
    put_str(key, b->id);
    put_str(key, b->title);
    put_str(key, b->noun);
    put_str(key, b->sim.id);
    put_u64(key, b->sim.n_parts);
    for (size_t i = 0; i < b->sim.n_parts; i++) {
        const bp_part_info *p = &b->parts[i];
        put_str(key, p->id);
        put_str(key, p->label);
        put_str(key, b->sim.parts[i].id);
        put_u64(key, p->has_at);
        put_u64(key, (uint64_t)(int64_t)p->at_col);
        put_u64(key, (uint64_t)(int64_t)p->at_row);
        put_u64(key, b->part_set ? b->part_set[i].bits : 0);
    }
    put_u64(key, b->sim.n_links);
    for (size_t i = 0; i < b->sim.n_links; i++) {
        put_str(key, b->links[i].label);
        put_u64(key, b->link_set ? b->link_set[i].bits : 0);
    }
}

void drawcache_key_board(buf *key, const bp_board *b, const draw_note *notes, size_t n_notes,
                         const draw_live *live, size_t n_live)
{
    key_common(key, "board\n", b);
    put_u64(key, n_notes);
    bool marked = n_live > 0;
    for (size_t i = 0; i < n_notes; i++) {
        put_u64(key, (uint64_t)(int64_t)notes[i].part);
        put_str(key, notes[i].text);
        put_u64(key, (uint64_t)notes[i].tone);
        marked |= notes[i].measure != NULL;
    }
    if (!marked) /* a plain diagram: the key it always had */
        return;
    buf_puts(key, "live\n");
    for (size_t i = 0; i < n_notes; i++) {
        put_str(key, notes[i].measure ? notes[i].measure : "");
        put_u64(key, notes[i].value_len);
    }
    put_u64(key, n_live);
    for (size_t i = 0; i < n_live; i++) {
        put_str(key, live[i].set);
        put_str(key, live[i].text);
    }
}

void drawcache_key_timeline(buf *key, const bp_board *b, const sim_trace_entry *tr, size_t n)
{
    key_common(key, "timeline\n", b);
    put_u64(key, n);
    for (size_t i = 0; i < n; i++) {
        put_u64(key, (uint64_t)tr[i].t_us);
        put_u64(key, (uint64_t)tr[i].kind);
        put_u64(key, (uint64_t)tr[i].job);
        put_u64(key, (uint64_t)(int64_t)tr[i].part);
        put_u64(key, (uint64_t)(int64_t)tr[i].peer);
        put_u64(key, (uint64_t)tr[i].detail);
    }
}

static void put_f64(buf *key, double v)
{
    buf_put(key, (const char *)&v, sizeof v);
}

void drawcache_key_chart(buf *key, const bp_chart *c, const sim_result *const *points, size_t n)
{
    key_env(key, "chart\n");
    put_str(key, c->id);
    put_str(key, c->title);
    put_str(key, c->board);
    put_u64(key, (uint64_t)c->measure);
    put_str(key, c->y_label ? c->y_label : "");
    put_str(key, c->x_label);
    put_str(key, c->x_set);
    put_u64(key, c->x_percent);
    put_u64(key, c->n_x);
    for (size_t i = 0; i < c->n_x; i++) {
        put_str(key, c->x_values[i]);
        put_f64(key, c->x[i]);
    }
    put_str(key, c->series_set);
    put_u64(key, c->n_series);
    for (size_t i = 0; i < c->n_series; i++) {
        put_str(key, c->series[i].label);
        put_str(key, c->series[i].value);
    }
    /* every point's measured numbers, not just the one drawn */
    put_u64(key, n);
    for (size_t i = 0; i < n; i++) {
        put_u64(key, (uint64_t)points[i]->replications);
        for (int m = 0; m < SIM_M_COUNT; m++) {
            put_f64(key, points[i]->m[m].mean);
            put_f64(key, points[i]->m[m].min);
            put_f64(key, points[i]->m[m].max);
            put_f64(key, points[i]->m[m].ci95);
        }
    }
}

static char *draw_path(const char *dir, const buf *key, const char *suffix)
{
    return xasprintf("%s/draw-%016llx%s", dir, (unsigned long long)hash64(key->data, key->len, 0),
                     suffix);
}

static bool take(const char **p, size_t *left, size_t n, const char **out)
{
    if (*left < n)
        return false;
    *out = *p;
    *p += n;
    *left -= n;
    return true;
}

static bool take_u64(const char **p, size_t *left, uint64_t *v)
{
    const char *at;
    if (!take(p, left, sizeof *v, &at))
        return false;
    memcpy(v, at, sizeof *v);
    return true;
}

/* An entry of dir with this key (suffix: its kind's): its bytes past the
 * key in *body (*left of them), sealed and its key checked; the data to
 * free, or NULL (no build ID, no such entry, or a damaged one). */
static char *S_entry_read(const char *dir, const buf *key, const char *suffix, const char **body,
                          size_t *left)
{
    pthread_once(&build_id_once, read_build_id);
    if (!build_id_len)
        return NULL;
    char *path = draw_path(dir, key, suffix);
    char *data = NULL;
    size_t len = 0;
    int rc = cache_read(path, (size_t)64 << 20, &data, &len);
    free(path);
    if (rc != 0)
        return NULL;
    const char *k;
    uint64_t klen;
    *body = data;
    *left = len;
    if (cache_unseal(data, left) && take_u64(body, left, &klen) && klen == key->len &&
        take(body, left, klen, &k) && memcmp(k, key->data, klen) == 0)
        return data;
    free(data);
    return NULL;
}

/* Start an entry of dir in b (the key first); false when nothing can be
 * stored (no build ID, no folder). */
static bool S_entry_begin(const char *dir, const buf *key, buf *b)
{
    pthread_once(&build_id_once, read_build_id);
    if (!build_id_len || (mkdir(dir, 0755) != 0 && errno != EEXIST))
        return false;
    buf_init(b);
    put_u64(b, key->len);
    buf_put(b, key->data, key->len);
    return true;
}

/* Seal entry b and write it into place (temporary file, then rename). */
static void S_entry_write(const char *dir, const buf *key, const char *suffix, buf *b)
{
    cache_seal(b);
    char *final = draw_path(dir, key, suffix);
    file_write_atomic(final, b->data, b->len);
    free(final);
    buf_free(b);
}

bool drawcache_get(const char *dir, const buf *key, sfigure *fig)
{
    const char *p, *part[FIGURE_LOOKS + 1];
    size_t left;
    char *data = S_entry_read(dir, key, ".bin", &p, &left);
    if (!data)
        return false;
    uint64_t plen[FIGURE_LOOKS + 1];
    bool ok = true;
    for (int i = 0; ok && i <= FIGURE_LOOKS; i++)
        ok = take_u64(&p, &left, &plen[i]) && take(&p, &left, plen[i], &part[i]);
    ok = ok && left == 0;
    if (ok) {
        for (int i = 0; i < FIGURE_LOOKS; i++)
            fig->svg[i] = xstrndup(part[i], plen[i]);
        fig->alt = xstrndup(part[FIGURE_LOOKS], plen[FIGURE_LOOKS]);
    }
    free(data);
    return ok;
}

void drawcache_put(const char *dir, const buf *key, const sfigure *fig)
{
    for (int i = 0; i < FIGURE_LOOKS; i++)
        if (!fig->svg[i])
            return;
    buf b;
    if (!S_entry_begin(dir, key, &b))
        return;
    for (int i = 0; i < FIGURE_LOOKS; i++)
        put_str(&b, fig->svg[i]);
    put_str(&b, fig->alt);
    S_entry_write(dir, key, ".bin", &b);
}

void drawcache_key_card(buf *key, const char *site_title, const char *title, const char *desc,
                        const bp_board *b, const draw_note *notes, size_t n_notes)
{
    key_env(key, "card\n");
    put_str(key, site_title);
    put_str(key, title);
    put_str(key, desc);
    put_u64(key, b != NULL);
    if (b)
        drawcache_key_board(key, b, notes, n_notes, NULL, 0);
}

bool drawcache_get_card(const char *dir, const buf *key, buf *png)
{
    const char *p, *bytes;
    size_t left;
    char *data = S_entry_read(dir, key, ".card", &p, &left);
    if (!data)
        return false;
    uint64_t n;
    bool ok = take_u64(&p, &left, &n) && take(&p, &left, n, &bytes) && left == 0;
    if (ok)
        buf_put(png, bytes, n);
    free(data);
    return ok;
}

void drawcache_put_card(const char *dir, const buf *key, const void *png, size_t len)
{
    buf b;
    if (!S_entry_begin(dir, key, &b))
        return;
    put_u64(&b, len);
    buf_put(&b, png, len);
    S_entry_write(dir, key, ".card", &b);
}
