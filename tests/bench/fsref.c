/* fsref.c — file-system references for the bench's file-writing rows: N
 * pages of ~5 KB, each page's index.html in its own folder like a site.
 *
 *   fsref new DIR N        make DIR and write every page into new folders
 *   fsref overwrite DIR N  rewrite every page of an existing DIR in place
 *   fsref compare DIR N    read every page, compare, write nothing (all equal)
 *
 * One JSON line on stdout with the seconds taken. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PAGE 5000

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int put(const char *path, const char *data, int flags)
{
    int fd = open(path, O_WRONLY | O_CREAT | flags, 0644);
    if (fd < 0)
        return -1;
    ssize_t w = write(fd, data, PAGE);
    return close(fd) == 0 && w == PAGE ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    const char *mode = argv[1], *dir = argv[2];
    int n = atoi(argv[3]);
    char data[PAGE], back[PAGE + 1], path[4096];
    for (int i = 0; i < PAGE; i++)
        data[i] = (char)('a' + i % 26);
    double t0 = now_s();
    int bad = 0;
    if (strcmp(mode, "new") == 0 && mkdir(dir, 0755) != 0)
        return 1;
    for (int k = 0; k < n; k++) {
        snprintf(path, sizeof path, "%s/page-%05d", dir, k);
        if (strcmp(mode, "new") == 0 && mkdir(path, 0755) != 0)
            bad++;
        snprintf(path, sizeof path, "%s/page-%05d/index.html", dir, k);
        if (strcmp(mode, "compare") == 0) {
            int fd = open(path, O_RDONLY);
            ssize_t r = fd >= 0 ? read(fd, back, sizeof back) : -1;
            if (fd >= 0)
                close(fd);
            if (r != PAGE || memcmp(back, data, PAGE) != 0)
                bad++;
        } else if (put(path, data, strcmp(mode, "new") == 0 ? O_EXCL : O_TRUNC) != 0) {
            bad++;
        }
    }
    double s = now_s() - t0;
    printf("{\"mode\":\"%s\",\"files\":%d,\"seconds\":%.6f,\"failed\":%d}\n", mode, n, s, bad);
    return bad ? 1 : 0;
}
