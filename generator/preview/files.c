/* files.c — requests to files under --out for `boardpress serve`: a
 * request's path checked and decoded, the file opened beneath --out one
 * folder at a time without following a link, its Content-Type and ETag,
 * and pages with the page script put in. */
#include "preview/serve_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define PATH_MAX_BYTES 1024
#define PART_MAX_BYTES 255

/* ------------------------------------------------------------ paths */

static int hex(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* A control character, or one that has no place in a path we wrote. */
static bool bad_byte(unsigned char c)
{
    return c < 0x20 || c == 0x7f || c == '\\';
}

void serve_path_free(serve_path *p)
{
    free(p->path);
    free(p->query);
    free(p->raw);
    memset(p, 0, sizeof *p);
}

int serve_path_parse(const char *target, serve_path *p)
{
    memset(p, 0, sizeof *p);
    const char *q = strchr(target, '?');
    size_t n = q ? (size_t)(q - target) : strlen(target);
    if (n == 0 || target[0] != '/' || n > PATH_MAX_BYTES)
        return -1;
    buf out;
    buf_init(&out);
    size_t part = 0; /* bytes of the part being decoded */
    bool dot_only = true;
    for (size_t i = 1; i <= n; i++) {
        if (i == n || target[i] == '/') {
            /* a part ends: "." and ".." and "" (but at the very end) are refused */
            const char *start = out.data ? out.data + out.len - part : "";
            bool dots = part > 0 && part <= 2 && dot_only;
            if (dots || (part == 0 && i < n) || part > PART_MAX_BYTES) {
                buf_free(&out);
                return -1;
            }
            if (part > 0 && start[0] == '.')
                p->hidden = true;
            if (i < n)
                buf_putc(&out, '/');
            part = 0;
            dot_only = true;
            continue;
        }
        unsigned char c = (unsigned char)target[i];
        if (c == '%') {
            int hi = i + 2 < n ? hex(target[i + 1]) : -1;
            int lo = i + 2 < n ? hex(target[i + 2]) : -1;
            if (hi < 0 || lo < 0) {
                buf_free(&out);
                return -1;
            }
            c = (unsigned char)(hi * 16 + lo);
            i += 2;
            if (c == '/' || c == 0) { /* an encoded '/' would join two parts unseen */
                buf_free(&out);
                return -1;
            }
        }
        if (bad_byte(c) || c == '#') {
            buf_free(&out);
            return -1;
        }
        dot_only &= c == '.';
        buf_putc(&out, (char)c);
        part++;
    }
    p->dir = n == 1 || target[n - 1] == '/';
    p->path = out.data ? buf_detach(&out) : xstrdup("");
    p->query = q ? xstrdup(q + 1) : NULL;
    p->raw = xstrndup(target, n);
    buf_free(&out);
    return 0;
}

/* ------------------------------------------------------------ files */

static const struct {
    const char *ext, *type;
} types[] = {
    {".html", "text/html; charset=utf-8"},
    {".htm", "text/html; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".json", "application/json"},
    {".map", "application/json"},
    {".webmanifest", "application/manifest+json"},
    {".xml", "application/xml"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".jpg", "image/jpeg"},
    {".jpeg", "image/jpeg"},
    {".gif", "image/gif"},
    {".webp", "image/webp"},
    {".avif", "image/avif"},
    {".ico", "image/vnd.microsoft.icon"},
    {".wasm", "application/wasm"},
    {".woff2", "font/woff2"},
    {".woff", "font/woff"},
    {".ttf", "font/ttf"},
    {".otf", "font/otf"},
    {".txt", "text/plain; charset=utf-8"},
    {".md", "text/plain; charset=utf-8"},
    {".yaml", "text/plain; charset=utf-8"},
    {".csv", "text/csv; charset=utf-8"},
    {".pdf", "application/pdf"},
    {".mp4", "video/mp4"},
    {".webm", "video/webm"},
};

const char *serve_type(const char *name)
{
    const char *dot = strrchr(name, '.');
    const char *slash = strrchr(name, '/');
    if (dot && (!slash || dot > slash))
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (strcasecmp(dot, types[i].ext) == 0)
                return types[i].type;
    return "application/octet-stream";
}

/* The file name in dir, when it is a regular file (not a link, a pipe or a
 * device: those are refused unopened), read-only into f. */
static bool open_file(int dir, const char *name, serve_file *f)
{
    struct stat st;
    if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
        return false;
    /* O_NONBLOCK: a pipe put there since the check must not block */
    int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    if (fstat(fd, &f->st) != 0 || !S_ISREG(f->st.st_mode) || f->st.st_ino != st.st_ino ||
        f->st.st_dev != st.st_dev) {
        close(fd);
        return false;
    }
    f->fd = fd;
    f->type = serve_type(name);
    f->html = strncmp(f->type, "text/html", 9) == 0;
    /* A file in --out is never written into (a build replaces it, or links
     * the same inode into the next tree): its identity is its content. */
    uint64_t id[4] = {(uint64_t)f->st.st_dev, (uint64_t)f->st.st_ino, (uint64_t)f->st.st_size,
                      (uint64_t)f->st.st_mtim.tv_sec * 1000000000u +
                          (uint64_t)f->st.st_mtim.tv_nsec};
    snprintf(f->etag, sizeof f->etag, "\"%016llx\"", (unsigned long long)hash64(id, sizeof id, 0));
    return true;
}

serve_found serve_open(const char *out, const serve_path *p, serve_file *f)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    if (p->hidden)
        return SERVE_MISSING;
    /* --out itself may be a link to a folder: a build follows it too */
    int dir = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return errno == ENOENT ? SERVE_NO_SITE : SERVE_MISSING;
    serve_found found = SERVE_MISSING;
    char *path = xstrdup(p->path);
    char *part = path;
    for (;;) {
        char *slash = strchr(part, '/');
        if (slash)
            *slash = '\0';
        if (!*part) { /* "" or the end of "a/": the folder's page */
            if (open_file(dir, "index.html", f))
                found = SERVE_FOUND;
            break;
        }
        struct stat st;
        if (fstatat(dir, part, &st, AT_SYMLINK_NOFOLLOW) != 0)
            break;
        if (S_ISDIR(st.st_mode)) {
            if (!slash) { /* "/slug": the page is at "/slug/" */
                found = SERVE_REDIRECT;
                break;
            }
            int sub = openat(dir, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0)
                break;
            close(dir);
            dir = sub;
            part = slash + 1;
            continue;
        }
        if (!slash && open_file(dir, part, f))
            found = SERVE_FOUND;
        break;
    }
    free(path);
    close(dir);
    return found;
}

/* ------------------------------------------------------------ validators */

bool serve_etag_match(const char *header, const char *etag)
{
    size_t n = strlen(etag);
    for (const char *p = header; p && *p;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (*p == '*')
            return true;
        if (strncmp(p, "W/", 2) == 0) /* If-None-Match compares weakly */
            p += 2;
        if (strncmp(p, etag, n) == 0 && (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
            return true;
        const char *comma = strchr(p, ',');
        p = comma ? comma + 1 : NULL;
    }
    return false;
}

/* ------------------------------------------------------------ pages */

/* The tag that loads the page script; etag lets it tell, when it connects
 * again, whether the page changed meanwhile. */
static void script_tag(buf *b, const char *etag)
{
    buf_puts(b, "<script src=\"" SERVE_SCRIPT "\" data-etag=\"");
    size_t n = strlen(etag);
    if (n >= 2 && etag[0] == '"' && etag[n - 1] == '"') /* the tag's token */
        buf_html(b, etag + 1, n - 2);
    else
        buf_html_s(b, etag);
    buf_puts(b, "\"></script>\n");
}

/* The offset of the last "</body" (any case) in html, or n. */
static size_t body_end(const char *html, size_t n)
{
    for (size_t i = n >= 6 ? n - 6 + 1 : 0; i-- > 0;)
        if (html[i] == '<' && strncasecmp(html + i, "</body", 6) == 0)
            return i;
    return n;
}

char *serve_inject(const char *html, size_t n, const char *etag, size_t *len)
{
    size_t at = body_end(html, n);
    buf b;
    buf_init(&b);
    buf_put(&b, html, at);
    script_tag(&b, etag);
    buf_put(&b, html + at, n - at);
    *len = b.len;
    return buf_detach(&b);
}

char *serve_not_found(const char *path, bool no_site, size_t *len)
{
    buf b;
    buf_init(&b);
    buf_puts(&b, "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                 "<meta name=\"color-scheme\" content=\"light dark\">\n"
                 "<title>Not found · boardpress preview</title>\n"
                 "<style>body{font:1.05rem/1.5 system-ui,sans-serif;max-width:40rem;"
                 "margin:3rem auto;padding:0 1rem}code{overflow-wrap:anywhere}</style>\n"
                 "</head>\n<body>\n<main>\n<h1>Not found</h1>\n");
    if (no_site) {
        buf_puts(&b, "<p>The site has not been built yet: the first build failed. Fix what "
                     "it says, save, and this page shows the site.</p>\n");
    } else {
        buf_puts(&b, "<p>The site has nothing at <code>/");
        buf_html_s(&b, path);
        buf_puts(&b, "</code>. This page reloads when a rebuild makes it.</p>\n"
                     "<p><a href=\"/\">The home page</a></p>\n");
    }
    buf_puts(&b, "</main>\n");
    script_tag(&b, "");
    buf_puts(&b, "</body>\n</html>\n");
    *len = b.len;
    return buf_detach(&b);
}
