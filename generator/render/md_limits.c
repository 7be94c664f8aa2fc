/* md_limits.c — a page body before cmark-gfm sees it: the limits of
 * markdown.h checked on the text (paragraph length, table columns and
 * cells, link reference amplification), and the file positions messages
 * about the body give. No cmark-gfm here: the costs these limits bound are
 * in its parse, so they must be known before it runs. */
#include "render/markdown_internal.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ positions */

int md_char_col(const md_body *b, int line, int byte_col)
{
    if (line < 1 || (size_t)line > b->n_lines || byte_col < 1)
        return byte_col;
    size_t start = b->line_start[line - 1];
    int col = 1;
    for (size_t i = start; i < start + (size_t)(byte_col - 1) && i < b->len; i++)
        if (((unsigned char)b->text[i] & 0xC0) != 0x80)
            col++;
    return col;
}

void md_report(md_body *b, int line, int byte_col, const char *msg)
{
    diag_error(b->d, b->o->path, line + b->o->line_offset, md_char_col(b, line, byte_col), "%s",
               msg);
    b->errors++;
}

/* ------------------------------------------------------------ limits
 * Checked on the text before cmark-gfm parses it, because the costs are in
 * the parse itself (see markdown.h). The scan only over-estimates: it knows
 * fenced code blocks at the left margin (the only ones no container can end
 * early), and counts everything else as text. */

typedef struct {
    size_t start, end; /* byte range of the line without its newline */
    size_t next;       /* start of the next line */
} line_span;

static line_span line_of(const char *text, size_t len, size_t i)
{
    line_span l = {i, i, len};
    const char *nl = memchr(text + i, '\n', len - i);
    l.end = nl ? (size_t)(nl - text) : len;
    l.next = nl ? l.end + 1 : len;
    if (l.end > l.start && text[l.end - 1] == '\r')
        l.end--;
    return l;
}

static bool blank_line(const char *text, line_span l)
{
    for (size_t i = l.start; i < l.end; i++)
        if (text[i] != ' ' && text[i] != '\t')
            return false;
    return true;
}

/* A fence at the left margin: ``` or ~~~ (3 or more; a backtick fence's info
 * string has no backtick). Returns its length, 0 when the line is none. */
static size_t fence_open(const char *text, line_span l, char *ch)
{
    char c = l.start < l.end ? text[l.start] : '\0';
    if (c != '`' && c != '~')
        return 0;
    size_t n = 0;
    while (l.start + n < l.end && text[l.start + n] == c)
        n++;
    if (n < 3)
        return 0;
    if (c == '`' && memchr(text + l.start + n, '`', l.end - l.start - n))
        return 0;
    *ch = c;
    return n;
}

/* Closes a fence of n ch: up to 3 spaces, at least n ch, then only blanks. */
static bool fence_close(const char *text, line_span l, char ch, size_t n)
{
    size_t i = l.start, k = 0;
    while (i < l.end && text[i] == ' ' && k < 3)
        i++, k++;
    size_t m = 0;
    while (i < l.end && text[i] == ch)
        i++, m++;
    if (m < n)
        return false;
    while (i < l.end && (text[i] == ' ' || text[i] == '\t'))
        i++;
    return i == l.end;
}

/* Columns of a GFM delimiter row ("| --- | :-: |"), after any blockquote
 * markers and indentation; 0 when the line is not one. */
static size_t delimiter_columns(const char *text, line_span l)
{
    size_t i = l.start;
    while (i < l.end && (text[i] == ' ' || text[i] == '\t' || text[i] == '>'))
        i++;
    size_t cols = 0, pipes = 0;
    bool dash = false;
    for (; i < l.end; i++) {
        char c = text[i];
        if (c == '|') {
            pipes++;
            cols += dash;
            dash = false;
        } else if (c == '-') {
            dash = true;
        } else if (c != ':' && c != ' ' && c != '\t') {
            return 0;
        }
    }
    cols += dash;
    return pipes > 0 ? cols : 0;
}

/* Cells of a line read as a table row: '|' separators, not counting a
 * leading or trailing one (after blockquote markers and blanks). */
static size_t row_cells(const char *text, line_span l)
{
    size_t a = l.start, b = l.end;
    while (a < b && (text[a] == ' ' || text[a] == '\t' || text[a] == '>'))
        a++;
    while (b > a && (text[b - 1] == ' ' || text[b - 1] == '\t'))
        b--;
    size_t pipes = 0;
    for (size_t i = a; i < b; i++)
        pipes += text[i] == '|';
    size_t cells = pipes + 1;
    if (b > a && text[a] == '|')
        cells--;
    if (b > a + 1 && text[b - 1] == '|')
        cells--;
    return cells ? cells : 1;
}

static size_t count_byte(const char *text, line_span l, char c)
{
    size_t n = 0;
    for (size_t i = l.start; i < l.end; i++)
        n += text[i] == c;
    return n;
}

static bool has_pair(const char *text, line_span l, char a, char b)
{
    for (size_t i = l.start; i + 1 < l.end; i++)
        if (text[i] == a && text[i + 1] == b)
            return true;
    return false;
}

static int row_too_long(md_body *b, int line, size_t cells)
{
    char msg[128];
    snprintf(msg, sizeof msg, "table row with %zu cells; the limit is %d", cells, MD_MAX_ROW_CELLS);
    md_report(b, line, 1, msg);
    return 1;
}

int md_check_limits(md_body *b)
{
    const char *t = b->text;
    size_t len = b->len;
    int errors = 0;
    bool in_fence = false;
    char fence_ch = 0;
    size_t fence_len = 0;
    /* the current run of non-blank lines outside code */
    size_t run_bytes = 0, run_first = 0;
    int run_line = 0;
    bool run_refdef = false;
    size_t table_cols = 0; /* columns of the table the run is in, 0: none */
    bool table_reported = false;
    size_t prev_cells = 0; /* of the line before, as a table row */
    int prev_first = 1;    /* byte column of its first character */
    /* the page */
    size_t cells = 0, closers = 0, ref_run = 0;
    int ref_line = 0;
    bool cells_reported = false;
    char msg[256];

    int line = 1;
    for (size_t i = 0; i <= len; line++) {
        bool at_end = i == len;
        line_span l = at_end ? (line_span){len, len, len + 1} : line_of(t, len, i);
        bool blank = at_end || blank_line(t, l);
        char ch;
        size_t fl = 0;
        if (!at_end && in_fence) {
            if (fence_close(t, l, fence_ch, fence_len))
                in_fence = false;
            i = l.next;
            continue;
        }
        if (!at_end)
            fl = fence_open(t, l, &ch);
        if ((blank || fl) && run_bytes > 0) {
            if (run_bytes > MD_MAX_PARAGRAPH_BYTES) {
                snprintf(msg, sizeof msg,
                         "paragraph of %zu KiB (to line %d) without a blank line; the limit is "
                         "%zu KiB, as the Markdown parser slows down on long paragraphs: add "
                         "blank lines between paragraphs",
                         (run_bytes + 1023) >> 10, line - 1 + b->o->line_offset,
                         MD_MAX_PARAGRAPH_BYTES >> 10);
                md_report(b, run_line, (int)run_first + 1, msg);
                errors++;
            }
            if (run_refdef && run_bytes > ref_run) {
                ref_run = run_bytes;
                ref_line = run_line;
            }
            run_bytes = 0;
            run_refdef = false;
            table_cols = 0;
        }
        if (at_end)
            break;
        if (fl) {
            in_fence = true;
            fence_ch = ch;
            fence_len = fl;
            i = l.next;
            continue;
        }
        if (blank) {
            i = l.next;
            continue;
        }
        if (run_bytes == 0) {
            run_line = line;
            run_first = 0;
            while (l.start + run_first < l.end &&
                   (t[l.start + run_first] == ' ' || t[l.start + run_first] == '\t'))
                run_first++;
        }
        size_t cells_here = row_cells(t, l);
        size_t cols = run_bytes > 0 ? delimiter_columns(t, l) : 0;
        if (cols > 0) {
            table_cols = cols;
            table_reported = cols > MD_MAX_TABLE_COLUMNS;
            if (table_reported) {
                snprintf(msg, sizeof msg, "table has %zu columns; the limit is %d", cols,
                         MD_MAX_TABLE_COLUMNS);
                md_report(b, line - 1, prev_first, msg); /* where the table starts */
                errors++;
            } else if (prev_cells > MD_MAX_ROW_CELLS) {
                errors += row_too_long(b, line - 1, prev_cells); /* the header row */
            }
            cells += prev_cells > cols ? prev_cells : cols;
        } else if (table_cols > 0) {
            if (!table_reported && cells_here > MD_MAX_ROW_CELLS)
                errors += row_too_long(b, line, cells_here);
            cells += cells_here > table_cols ? cells_here : table_cols;
        }
        if (cells > MD_MAX_TABLE_CELLS && !cells_reported) {
            snprintf(msg, sizeof msg,
                     "the tables on this page have more than %d cells; the limit "
                     "is %d",
                     MD_MAX_TABLE_CELLS, MD_MAX_TABLE_CELLS);
            md_report(b, line, 1, msg);
            errors++;
            cells_reported = true;
        }
        run_refdef |= has_pair(t, l, ']', ':');
        closers += count_byte(t, l, ']');
        prev_cells = cells_here;
        prev_first = 1;
        while (l.start + (size_t)prev_first - 1 < l.end &&
               (t[l.start + (size_t)prev_first - 1] == ' ' ||
                t[l.start + (size_t)prev_first - 1] == '\t'))
            prev_first++;
        run_bytes += l.next - l.start;
        i = l.next;
    }
    if (ref_run > 0 && closers > 0 && ref_run > MD_MAX_REF_EXPANSION / closers) {
        snprintf(msg, sizeof msg,
                 "a link reference definition in these %zu KiB could be used by each of the "
                 "page's %zu ']' and expand to more than %zu MiB of HTML; shorten it or put it "
                 "in a paragraph of its own",
                 (ref_run + 1023) >> 10, closers, MD_MAX_REF_EXPANSION >> 20);
        md_report(b, ref_line, 1, msg);
        errors++;
    }
    return errors;
}
