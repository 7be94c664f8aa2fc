/* gen_testlib.c — helpers for the generator's unit tests (gen_testlib.h). */
#define _GNU_SOURCE /* nftw */
#include "gen_testlib.h"
#include "base/util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *gt_tempdir(void)
{
    const char *base = getenv("TMPDIR");
    char *tmpl = xasprintf("%s/bp-unit-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpl))
        fail_msg("mkdtemp %s: %s", tmpl, strerror(errno));
    return tmpl;
}

static void make_parents(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            fail_msg("mkdir %s: %s", p, strerror(errno));
        *s = '/';
    }
    free(p);
}

static void write_bytes(const char *path, const char *data, size_t len)
{
    make_parents(path);
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s: %s", path, strerror(errno));
    if (fwrite(data, 1, len, f) != len || fclose(f) != 0)
        fail_msg("cannot write %s", path);
}

void gt_write(const char *dir, const char *rel, const char *text)
{
    char *path = xasprintf("%s/%s", dir, rel);
    write_bytes(path, text, strlen(text));
    free(path);
}

char *gt_read(const char *path, size_t *len)
{
    char *data = NULL;
    size_t n = 0;
    if (file_read(path, (size_t)64 << 20, &data, &n) != 0)
        return NULL;
    if (len)
        *len = n;
    return data;
}

void gt_copy(const char *src, const char *dir, const char *rel)
{
    size_t len = 0;
    char *data = gt_read(src, &len);
    if (!data)
        fail_msg("cannot read %s", src);
    char *path = xasprintf("%s/%s", dir, rel);
    write_bytes(path, data, len);
    free(path);
    free(data);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

void gt_rm_rf(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

size_t gt_count_files(const char *dir)
{
    DIR *dh = opendir(dir);
    if (!dh)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *path = xasprintf("%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            n += gt_count_files(path);
        else
            n++;
        free(path);
    }
    closedir(dh);
    return n;
}

static int saved_stderr = -1;
static char *capture_path;

void gt_stderr_begin(void)
{
    assert_int_equal(saved_stderr, -1);
    fflush(stderr);
    const char *base = getenv("TMPDIR");
    capture_path = xasprintf("%s/bp-unit-stderr-XXXXXX", base && *base ? base : "/tmp");
    int fd = mkstemp(capture_path);
    assert_true(fd >= 0);
    saved_stderr = dup(2);
    assert_true(saved_stderr >= 0);
    assert_true(dup2(fd, 2) >= 0);
    close(fd);
}

char *gt_stderr_end(void)
{
    assert_true(saved_stderr >= 0);
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    saved_stderr = -1;
    char *text = gt_read(capture_path, NULL);
    unlink(capture_path);
    free(capture_path);
    capture_path = NULL;
    return text ? text : xstrdup("");
}

ynode *gt_yaml(const char *text, diag *d)
{
    bool empty = false;
    return yaml_parse("t.yaml", text, strlen(text), 0, d, &empty);
}

size_t gt_count(const char *hay, const char *needle)
{
    size_t n = 0, l = strlen(needle);
    for (const char *p = hay; l && (p = strstr(p, needle)); p += l)
        n++;
    return n;
}
