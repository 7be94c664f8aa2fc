/* search_text.c — what search reads of a page: its rendered body cut into
 * sections at its headings (the text as a reader sees it, with the
 * measured numbers merged in and the diagrams' alt text), and the words and
 * numbers of a text as the index and static/bp-search.js both cut them. */
#include "render/render_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ tokens */

/* The next code point of s[*i..n) (a bad byte reads as itself, a
 * separator); *i moves past it. */
static unsigned next_cp(const char *s, size_t n, size_t *i)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned c = u[*i];
    size_t need = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    if (c < 0x80 || need == 0 || *i + need >= n) {
        (*i)++;
        return c < 0x80 ? c : 0xfffd;
    }
    unsigned cp = c & (0x3fu >> need);
    for (size_t k = 1; k <= need; k++) {
        if ((u[*i + k] & 0xc0) != 0x80) {
            (*i)++;
            return 0xfffd;
        }
        cp = (cp << 6) | (u[*i + k] & 0x3fu);
    }
    *i += need + 1;
    return cp;
}

/* A code point that is part of a word: ASCII letters and digits, the micro
 * sign (µs), and any letter past Latin-1's symbols, less punctuation,
 * arrows, mathematical and other symbols (U+2000-U+2BFF), CJK punctuation
 * and the byte-order mark. static/bp-search.js says the same (isWord). */
bool search_is_word_cp(unsigned cp)
{
    if (cp < 0x80)
        return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
    if (cp == 0xb5)
        return true;
    if (cp < 0xc0 || cp == 0xd7 || cp == 0xf7 || cp == 0xfffd || cp == 0xfeff)
        return false;
    if (cp >= 0x2000 && cp <= 0x2bff)
        return false;
    if (cp >= 0x3000 && cp <= 0x303f)
        return false;
    return true;
}

/* Lower case as the script does it: ASCII and Latin-1's capitals only, so
 * both sides agree whatever the browser's Unicode tables. */
static unsigned lower_cp(unsigned cp)
{
    if ((cp >= 'A' && cp <= 'Z') || (cp >= 0xc0 && cp <= 0xde && cp != 0xd7))
        return cp + 0x20;
    return cp;
}

/* buf_putc without the call while there is room: every byte of every
 * page's text comes through here twice (its text, then its tokens). */
static inline void put1(buf *b, char c)
{
    if (b->len + 1 < b->cap) {
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
    } else {
        buf_putc(b, c);
    }
}

static void put_cp(buf *b, unsigned cp)
{
    if (cp < 0x80) {
        put1(b, (char)cp);
    } else if (cp < 0x800) {
        put1(b, (char)(0xc0 | (cp >> 6)));
        put1(b, (char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        put1(b, (char)(0xe0 | (cp >> 12)));
        put1(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
        put1(b, (char)(0x80 | (cp & 0x3f)));
    } else {
        put1(b, (char)(0xf0 | (cp >> 18)));
        put1(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
        put1(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
        put1(b, (char)(0x80 | (cp & 0x3f)));
    }
}

/* Words too common to find anything by; a query drops them too. */
static const char *const stopwords[] = {
    "a",     "an",    "and",  "are",   "as",   "at",   "be",   "but",   "by",
    "for",   "from",  "has",  "have",  "in",   "into", "is",   "it",    "its",
    "of",    "on",    "or",   "so",    "than", "that", "the",  "their", "then",
    "there", "these", "this", "those", "to",   "was",  "were", "will",  "with",
};

/* The longest of them. */
#define STOPWORD_MAX 5

bool search_is_stopword(const char *w, size_t len)
{
    /* asked of every token of every page: the length and the first letter
     * rule out most */
    if (len > STOPWORD_MAX)
        return false;
    for (size_t i = 0; len && i < sizeof stopwords / sizeof stopwords[0]; i++)
        if (stopwords[i][0] == w[0] && strlen(stopwords[i]) == len &&
            memcmp(stopwords[i], w, len) == 0)
            return true;
    return false;
}

/* One raw token of the text: a number ("1,000.5" is "1000.5"), a word, or
 * "%". */
typedef enum { TOK_NONE, TOK_NUMBER, TOK_WORD, TOK_PERCENT } tok_kind;

static bool is_digit_at(const char *s, size_t n, size_t i)
{
    return i < n && s[i] >= '0' && s[i] <= '9';
}

/* The token at or after *i into t (cleared first); *i moves past it. */
static tok_kind next_token(const char *s, size_t n, size_t *i, buf *t)
{
    buf_clear(t);
    while (*i < n) {
        unsigned char a = (unsigned char)s[*i];
        if (a < 0x80 && a != '%' && !search_is_word_cp(a)) { /* between words */
            (*i)++;
            continue;
        }
        size_t at = *i;
        unsigned cp = next_cp(s, n, i);
        if (cp == '%')
            return TOK_PERCENT;
        if (!search_is_word_cp(cp))
            continue;
        if (cp >= '0' && cp <= '9') {
            /* digits, one '.' between digits, ',' before each group of three
             * digits dropped ("1,000.5" is "1000.5"; "1,2" is two numbers) */
            *i = at;
            while (*i < n) {
                if (is_digit_at(s, n, *i)) {
                    put1(t, s[*i]);
                    (*i)++;
                } else if (s[*i] == '.' && is_digit_at(s, n, *i + 1) &&
                           !memchr(t->data, '.', t->len)) {
                    put1(t, '.');
                    (*i)++;
                } else if (s[*i] == ',' && !memchr(t->data, '.', t->len) &&
                           is_digit_at(s, n, *i + 1) && is_digit_at(s, n, *i + 2) &&
                           is_digit_at(s, n, *i + 3) && !is_digit_at(s, n, *i + 4)) {
                    (*i)++; /* a thousands separator: "1,000" */
                } else {
                    break;
                }
            }
            return TOK_NUMBER;
        }
        put_cp(t, lower_cp(cp));
        while (*i < n) {
            unsigned char b = (unsigned char)s[*i];
            if (b < 0x80) { /* most of a word: ASCII, as next_cp and lower_cp read it */
                if (!search_is_word_cp(b))
                    break;
                put1(t, (char)(b >= 'A' && b <= 'Z' ? b + 0x20 : b));
                (*i)++;
                continue;
            }
            size_t before = *i;
            unsigned c = next_cp(s, n, i);
            if (!search_is_word_cp(c)) {
                *i = before;
                break;
            }
            put_cp(t, lower_cp(c));
        }
        return TOK_WORD;
    }
    return TOK_NONE;
}

void search_tokens(const char *text, size_t len, search_token_fn fn, void *ctx)
{
    buf t, prev;
    buf_init(&t);
    buf_init(&prev);
    bool prev_number = false;
    size_t i = 0;
    for (;;) {
        tok_kind k = next_token(text, len, &i, &t);
        if (k == TOK_NONE)
            break;
        const char *w = k == TOK_PERCENT ? "%" : t.data;
        size_t wl = k == TOK_PERCENT ? 1 : t.len;
        bool stop = k == TOK_WORD && search_is_stopword(w, wl);
        if (wl > SEARCH_MAX_TOKEN) {
            prev_number = false;
            continue;
        }
        if (k == TOK_NUMBER || (k == TOK_WORD && wl >= 2 && !stop))
            fn(ctx, w, wl);
        /* a number and the word after it, as one: "5 min", "99.9 %" */
        if (prev_number && k != TOK_NUMBER && !stop) {
            /* both at most SEARCH_MAX_TOKEN bytes: longer ones are skipped */
            char pair[2 * SEARCH_MAX_TOKEN + 2];
            memcpy(pair, prev.data, prev.len);
            pair[prev.len] = ' ';
            memcpy(pair + prev.len + 1, w, wl);
            fn(ctx, pair, prev.len + 1 + wl);
        }
        prev_number = k == TOK_NUMBER;
        if (prev_number) {
            buf_clear(&prev);
            buf_put(&prev, t.data, t.len);
        }
    }
    buf_free(&t);
    buf_free(&prev);
}

/* ------------------------------------------------------------ sections */

/* Elements whose content a reader does not read as text. */
static bool skipped_element(const char *name)
{
    return !strcmp(name, "script") || !strcmp(name, "style") || !strcmp(name, "svg") ||
           !strcmp(name, "noscript") || !strcmp(name, "template") || !strcmp(name, "textarea");
}

/* Elements inside a line of text: they part no words ("<b>5</b> min"). */
static bool inline_element(const char *name)
{
    static const char *const names[] = {"a",    "abbr", "b",    "bdi",  "bdo",   "cite",  "code",
                                        "data", "del",  "dfn",  "em",   "i",     "ins",   "kbd",
                                        "mark", "q",    "s",    "samp", "small", "span",  "strong",
                                        "sub",  "sup",  "time", "u",    "var",   "output"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i][0] == name[0] && !strcmp(name, names[i]))
            return true;
    return false;
}

/* Append text with its character references decoded and its white space
 * folded to single spaces. */
static void put_text(buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t run = i;
        while (run < n && s[run] != '&' && s[run] != ' ' && s[run] != '\n' && s[run] != '\t' &&
               s[run] != '\r' && s[run] != '\f')
            run++;
        if (run > i) { /* bytes as they are, UTF-8 included */
            buf_put(b, s + i, run - i);
            i = run - 1;
            continue;
        }
        char c = s[i];
        unsigned cp = (unsigned char)c;
        if (c == '&') {
            size_t e = i + 1;
            while (e < n && e < i + 12 && s[e] != ';')
                e++;
            if (e < n && s[e] == ';') {
                const char *r = s + i + 1;
                size_t rl = e - i - 1;
                unsigned v = 0;
                if (rl >= 2 && r[0] == '#') {
                    v = (unsigned)(r[1] == 'x' || r[1] == 'X' ? strtoul(r + 2, NULL, 16)
                                                              : strtoul(r + 1, NULL, 10));
                } else {
                    static const struct {
                        const char *name;
                        unsigned cp;
                    } named[] = {{"amp", '&'},      {"lt", '<'},     {"gt", '>'},
                                 {"quot", '"'},     {"apos", '\''},  {"nbsp", 0xa0},
                                 {"minus", 0x2212}, {"times", 0xd7}, {"plusmn", 0xb1}};
                    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
                        if (strlen(named[k].name) == rl && !memcmp(named[k].name, r, rl))
                            v = named[k].cp;
                }
                if (v && v < 0x110000) {
                    cp = v;
                    i = e;
                }
            }
        }
        if (cp == ' ' || cp == '\n' || cp == '\t' || cp == '\r' || cp == '\f') {
            if (b->len && b->data[b->len - 1] != ' ')
                put1(b, ' ');
        } else if (c == '&' && cp != '&') {
            put_cp(b, cp);
        } else {
            put1(b, c); /* a byte of UTF-8 as it is */
        }
    }
}

static void put_space(buf *b)
{
    if (b->len && b->data[b->len - 1] != ' ')
        put1(b, ' ');
}

/* The value of attribute name in the tag's text (between '<' and '>'),
 * decoded into out; false when the tag has none. */
static bool attr_value(const char *tag, size_t n, const char *name, buf *out)
{
    size_t nl = strlen(name);
    size_t i = 0;
    while (i < n && tag[i] != ' ' && tag[i] != '\t' && tag[i] != '\n') /* the name */
        i++;
    while (i < n) {
        while (i < n && (tag[i] == ' ' || tag[i] == '\t' || tag[i] == '\n' || tag[i] == '/'))
            i++;
        size_t a = i;
        while (i < n && tag[i] != '=' && tag[i] != ' ' && tag[i] != '\t' && tag[i] != '\n' &&
               tag[i] != '/')
            i++;
        size_t al = i - a;
        if (al == 0) {
            i++;
            continue;
        }
        const char *v = "";
        size_t vl = 0;
        if (i < n && tag[i] == '=') {
            i++;
            char q = i < n && (tag[i] == '"' || tag[i] == '\'') ? tag[i] : 0;
            if (q)
                i++;
            v = tag + i;
            while (i < n && (q ? tag[i] != q : tag[i] != ' ' && tag[i] != '\t' && tag[i] != '\n'))
                i++;
            vl = (size_t)(tag + i - v);
            if (q && i < n)
                i++;
        }
        if (al == nl && !strncasecmp(tag + a, name, nl)) {
            buf_clear(out);
            put_text(out, v, vl);
            return true;
        }
    }
    return false;
}

/* The sections being made from one page. */
typedef struct {
    page_info *pi;
    size_t cap;
    buf text, heading;
} cutter;

static void section_end(cutter *c)
{
    page_section *sec = &c->pi->sections[c->pi->n_sections - 1];
    while (c->text.len && c->text.data[c->text.len - 1] == ' ')
        c->text.len--;
    buf_putc(&c->text, '\0');
    sec->text = xstrdup(c->text.data + (c->text.data[0] == ' '));
    buf_clear(&c->text);
}

static void section_begin(cutter *c, const char *id)
{
    if (c->pi->n_sections)
        section_end(c);
    c->pi->sections =
        xgrow(c->pi->sections, sizeof *c->pi->sections, &c->cap, c->pi->n_sections + 1);
    c->pi->sections[c->pi->n_sections++] = (page_section){xstrdup(id), xstrdup(""), NULL};
}

void search_sections(page_info *pi, const char *html, size_t len)
{
    cutter c = {pi, pi->n_sections, {0}, {0}};
    buf_init(&c.text);
    buf_init(&c.heading);
    section_begin(&c, "");
    buf name, val, last_label; /* last_label: the last drawing's, read once */
    buf_init(&name);
    buf_init(&val);
    buf_init(&last_label);
    char skip[16] = ""; /* the element whose content is skipped, until its end */
    int heading = 0;    /* the level of the heading being read */
    for (size_t i = 0; i < len;) {
        if (html[i] != '<') {
            size_t e = i;
            while (e < len && html[e] != '<')
                e++;
            if (!skip[0])
                put_text(heading ? &c.heading : &c.text, html + i, e - i);
            i = e;
            continue;
        }
        if (!strncmp(html + i, "<!--", 4)) {
            const char *end = strstr(html + i + 4, "-->");
            i = end ? (size_t)(end - html) + 3 : len;
            continue;
        }
        size_t t = i + 1;
        char q = 0;
        size_t e = t;
        for (; e < len && (q || html[e] != '>'); e++)
            if (q ? html[e] == q : html[e] == '"' || html[e] == '\'')
                q = q ? 0 : html[e];
        const char *tag = html + t;
        size_t tl = e - t;
        i = e < len ? e + 1 : len;
        bool closing = tl && tag[0] == '/';
        buf_clear(&name);
        for (size_t k = closing; k < tl && tag[k] != ' ' && tag[k] != '>' && tag[k] != '/' &&
                                 tag[k] != '\t' && tag[k] != '\n';
             k++)
            put1(&name, (char)(tag[k] >= 'A' && tag[k] <= 'Z' ? tag[k] + 32 : tag[k]));
        if (!name.data)
            continue;
        if (skip[0]) {
            if (closing && !strcmp(name.data, skip))
                skip[0] = '\0';
            continue;
        }
        bool self_closing = tl && tag[tl - 1] == '/';
        bool h = name.len == 2 && name.data[0] == 'h' && name.data[1] >= '2' && name.data[1] <= '6';
        if (!closing && !strcmp(name.data, "svg") && attr_value(tag, tl, "aria-label", &val) &&
            !(val.len == last_label.len &&
              (!val.len || memcmp(val.data, last_label.data, val.len) == 0))) {
            /* a drawing in the page (figure.c's inline form) is read by
             * its label, as an <img> by its alt: once for its four
             * renderings, which share it */
            buf *b = heading ? &c.heading : &c.text;
            put_space(b);
            buf_put(b, val.data ? val.data : "", val.len);
            put_space(b);
            buf_clear(&last_label);
            buf_put(&last_label, val.data ? val.data : "", val.len);
        }
        if (!closing && !self_closing && name.len < sizeof skip && skipped_element(name.data)) {
            memcpy(skip, name.data, name.len + 1);
        } else if (!closing && !strcmp(name.data, "a") && attr_value(tag, tl, "class", &val) &&
                   strstr(val.data ? val.data : "", "bp-anchor")) {
            strcpy(skip, "a"); /* a heading's "#" self-link */
        } else if (!closing && !strcmp(name.data, "details") &&
                   attr_value(tag, tl, "class", &val) &&
                   strstr(val.data ? val.data : "", "bp-share")) {
            strcpy(skip, "details"); /* a figure's Share note: its snippet */
        } else if (!closing && h && attr_value(tag, tl, "id", &val) && val.len) {
            section_begin(&c, val.data);
            heading = name.data[1] - '0';
            buf_clear(&c.heading);
        } else if (closing && h && heading == name.data[1] - '0') {
            heading = 0;
            page_section *sec = &pi->sections[pi->n_sections - 1];
            while (c.heading.len && c.heading.data[c.heading.len - 1] == ' ')
                c.heading.len--;
            free(sec->heading);
            sec->heading =
                xstrndup(c.heading.data ? c.heading.data + (c.heading.data[0] == ' ') : "",
                         c.heading.len ? c.heading.len - (c.heading.data[0] == ' ') : 0);
        } else if (!closing && !strcmp(name.data, "img") && attr_value(tag, tl, "alt", &val)) {
            buf *b = heading ? &c.heading : &c.text;
            put_space(b);
            buf_put(b, val.data ? val.data : "", val.len);
            put_space(b);
        } else if (!inline_element(name.data)) {
            put_space(heading ? &c.heading : &c.text);
        }
    }
    section_end(&c);
    buf_free(&last_label);
    buf_free(&name);
    buf_free(&val);
    buf_free(&c.text);
    buf_free(&c.heading);
}
