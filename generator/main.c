/* main.c — the boardpress command line (SPEC §2). */
#include "simcore.h"

#include <stdio.h>
#include <string.h>

#define BOARDPRESS_VERSION "0.1.0"

static const char usage_text[] =
    "usage: boardpress build [--content DIR] [--templates DIR] [--static DIR] [--out DIR] [--jobs N]\n"
    "       boardpress check [--content DIR]\n"
    "       boardpress sim BOARD.yaml [--catalog FILE] [--seed N] [--replications R]\n"
    "                      [--set PATH=VALUE ...] [--trace]\n"
    "       boardpress watch [build options]\n"
    "       boardpress --version | --help\n";

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("boardpress %s (simulator %s)\n", BOARDPRESS_VERSION, SIMCORE_VERSION);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    fputs(usage_text, stderr);
    return 2;
}
