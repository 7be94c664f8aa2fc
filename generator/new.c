/* new.c — `boardpress new`: the starting files an author edits. Each file
 * builds as written and its comments point into the reference
 * (docs/boards.md, docs/pages.md, boardpress help). */
#include "new.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char board_text[] =
    "# A board: the parts of a system, their links and the traffic that runs\n"
    "# through it. Every key is in docs/boards.md (or: boardpress help board;\n"
    "# boardpress help part consumer); what a part leaves out comes from\n"
    "# content/catalog.yaml.\n"
    "id: %s\n"
    "title: Every delivery runs the charge\n"
    "replications: 5            # runs averaged; a goal must hold in the worst one\n"
    "parts:                     # left to right in the diagram\n"
    "  - {id: users,     kind: users,            label: Checkout}\n"
    "  - {id: broker,    kind: message-broker,   label: Payment queue}\n"
    "  - {id: processor, kind: consumer,         label: Payment processor,\n"
    "     idempotency: none}    # try key-in-transaction or provider-key\n"
    "  - {id: provider,  kind: payment-provider, label: Payment provider}\n"
    "links:                     # protocols and faults: docs/boards.md, Links\n"
    "  - {from: users,     to: broker,    protocol: http2}\n"
    "  - {from: broker,    to: processor, protocol: amqp, lose_reply: 10%%}\n"
    "  - {from: processor, to: provider,  protocol: http2}\n"
    "traffic: {from: users, jobs: 200, over: 10 s}\n"
    "goals:                     # measures: docs/boards.md, Measures\n"
    "  duplicates: {max: 0}\n"
    "expect: fail               # the page says this board misses its goal; the\n"
    "                           # build fails if the simulator disagrees\n";

static const char page_text[] =
    "---\n"
    "# Front matter: docs/pages.md. Each board the page shows is listed here.\n"
    "title: %s\n"
    "summary: One sentence that says what the reader will learn.\n"
    "boards: [boards/%s.yaml]   # written beside this page; edit it freely\n"
    "---\n"
    "A paragraph in your own words. Numbers come from the simulator, never typed:\n"
    "of {{ %s.jobs }} payments, {{ %s.duplicates }} were charged again because an\n"
    "acknowledgment was lost, and the broker redelivers after\n"
    "{{ catalog.message-broker.redelivery_after }}.\n"
    "\n"
    "{{ board %s }}\n"
    "\n"
    "## What to write next\n"
    "\n"
    "Placeholders, directives (`boardpress help directive` lists them) and\n"
    "filters are in docs/pages.md; `boardpress help directive compare` prints one.\n"
    "`make serve` shows this page at http://127.0.0.1:8000/%s/ and reloads it as\n"
    "you save.\n";

static bool valid_name(const char *s)
{
    if (!*s || strlen(s) > 64)
        return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
            return false;
    return s[0] != '-';
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 || errno != ENOENT;
}

/* Write text to path, which must not exist (O_EXCL). Returns 0, or 3 after
 * saying why on stderr. */
static int write_new(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 || file_write_all(fd, text, strlen(text)) != 0) {
        fprintf(stderr, "%s: error: cannot write: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return 3;
    }
    if (close(fd) != 0) {
        fprintf(stderr, "%s: error: cannot write: %s\n", path, strerror(errno));
        return 3;
    }
    printf("wrote %s\n", path);
    return 0;
}

/* "idempotent-retries" -> "Idempotent retries" */
static char *title_of(const char *slug)
{
    char *t = xstrdup(slug);
    for (char *p = t; *p; p++)
        if (*p == '-')
            *p = ' ';
    if (t[0] >= 'a' && t[0] <= 'z')
        t[0] = (char)(t[0] - 'a' + 'A');
    return t;
}

int new_main(int argc, char **argv)
{
    const char *what = NULL, *name = NULL, *content = "content";
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--content") == 0 && i + 1 < argc)
            content = argv[++i];
        else if (argv[i][0] == '-')
            return fprintf(stderr,
                           "boardpress: error: unknown option %s\nusage: boardpress new "
                           "page SLUG | new board ID [--content DIR]\n",
                           argv[i]),
                   2;
        else if (!what)
            what = argv[i];
        else if (!name)
            name = argv[i];
        else
            return fprintf(stderr,
                           "boardpress: error: new takes what and a name, found "
                           "another: %s\n",
                           argv[i]),
                   2;
    }
    bool page = what && strcmp(what, "page") == 0;
    if (!what || (!page && strcmp(what, "board") != 0) || !name) {
        fputs("boardpress: error: new needs page SLUG or board ID\n"
              "usage: boardpress new page SLUG | new board ID [--content DIR]\n",
              stderr);
        return 2;
    }
    if (!valid_name(name)) {
        fprintf(stderr,
                "boardpress: error: '%s' cannot be a %s: use lower-case letters, digits "
                "and '-' (e.g. lost-acks)\n",
                name, page ? "page slug" : "board id");
        return 2;
    }
    char *boards = xasprintf("%s/boards", content);
    char *board_path = xasprintf("%s/%s.yaml", boards, name);
    char *page_path = xasprintf("%s/%s.md", content, name);
    int rc = 0;
    /* Check every file first: a refusal writes nothing. */
    const char *taken = page && exists(page_path) ? page_path
                        : exists(board_path)      ? board_path
                                                  : NULL;
    struct stat st;
    if (taken) {
        fprintf(stderr,
                "%s: error: already exists; boardpress new never overwrites a file "
                "(choose another name)\n",
                taken);
        rc = 1;
    } else if (stat(content, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr,
                "%s: error: no content folder here (run from the site's folder, or give "
                "--content DIR)\n",
                content);
        rc = 1;
    } else if (mkdir(boards, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: error: cannot create: %s\n", boards, strerror(errno));
        rc = 3;
    } else {
        char *text = xasprintf(board_text, name);
        rc = write_new(board_path, text);
        free(text);
        if (rc == 0 && page) {
            char *title = title_of(name);
            text = xasprintf(page_text, title, name, name, name, name, name);
            rc = write_new(page_path, text);
            free(text);
            free(title);
        }
    }
    free(boards);
    free(board_path);
    free(page_path);
    return rc;
}
