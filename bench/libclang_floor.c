/* What libclang costs per CUDA file inside one long-lived process, the way
 * a server (clangd's model) would keep it: each file parsed once with a
 * precompiled preamble kept in memory (its headers), then re-parsed three
 * times, as a server would after an edit, the preamble reused.
 * docs/performance.md ("libclang's floor per file") records the figures.
 * Build it against the libclang kcheck uses (`kcheck --version` names it;
 * LLVM 22 here):
 *
 *   L=/usr/lib/llvm-22
 *   cc -O2 -I$L/include -o /tmp/libclang_floor bench/libclang_floor.c -L$L/lib -lclang -Wl,-rpath,$L/lib
 *   kcheck [--toolkit] --dump-shim /tmp/flags
 *   /tmp/libclang_floor /tmp/flags/compile_flags.txt FILE.cu...
 *
 * Prints a line per file: the first parse (the preamble built) and the
 * median of the three re-parses, in milliseconds, and at the end the
 * medians over all files. Only libclang's work is timed: no process start,
 * no analysis. */
#include <clang-c/Index.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s compile_flags.txt FILE.cu...\n", argv[0]);
        return 2;
    }
    const char *args[256];
    int na = 0;
    char line[4096];
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    while (na < 256 && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (*line)
            args[na++] = strdup(line);
    }
    fclose(f);
    CXIndex ix = clang_createIndex(0, 0);
    unsigned opts = CXTranslationUnit_PrecompiledPreamble | CXTranslationUnit_CreatePreambleOnFirstParse |
                    CXTranslationUnit_KeepGoing;
    int nf = argc - 2;
    double *first = calloc((size_t)nf, sizeof *first), *re = calloc((size_t)nf, sizeof *re);
    for (int i = 0; i < nf; i++) {
        const char *path = argv[i + 2];
        double t0 = now_ms();
        CXTranslationUnit tu = NULL;
        enum CXErrorCode rc = clang_parseTranslationUnit2(ix, path, args, na, NULL, 0, opts, &tu);
        first[i] = now_ms() - t0;
        if (rc != CXError_Success || !tu) {
            printf("%s: libclang error %d\n", path, (int)rc);
            re[i] = 0;
            continue;
        }
        double r[3];
        for (int k = 0; k < 3; k++) {
            double a = now_ms();
            clang_reparseTranslationUnit(tu, 0, NULL, clang_defaultReparseOptions(tu));
            r[k] = now_ms() - a;
        }
        re[i] = median(r, 3);
        printf("%s: first parse %.1f ms, re-parse %.1f ms\n", path, first[i], re[i]);
        clang_disposeTranslationUnit(tu);
    }
    printf("median over %d files: first parse %.1f ms, re-parse %.1f ms\n", nf, median(first, nf), median(re, nf));
    clang_disposeIndex(ix);
    return 0;
}
