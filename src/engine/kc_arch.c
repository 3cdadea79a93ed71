/* kc_arch.c — the GPU architectures the build files above a CUDA source
 * compile it for (kc_arch.h). */
#include "kc_arch.h"

#include "kc_build.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The architectures seen (as NN, at most 32 distinct), the files they
 * came from, and whether one was named so that it cannot be known. */
typedef struct arch_scan {
    unsigned seen[32], n;
    bool unknown;
    char files[256];
} arch_scan;

static void add(arch_scan *s, unsigned nn)
{
    if (nn < 10 || nn > 300)
        return;
    for (unsigned i = 0; i < s->n; i++)
        if (s->seen[i] == nn)
            return;
    if (s->n < sizeof s->seen / sizeof s->seen[0])
        s->seen[s->n++] = nn;
}

static bool word_at(const char *t, size_t len, size_t i, const char *w)
{
    size_t n = strlen(w);
    return i + n <= len && memcmp(t + i, w, n) == 0;
}

/* The rest of the line from i, up to a `)` (a CMake argument list):
 * numbers as architectures (`60`, `70-real`; `6.1+PTX` when dotted),
 * anything else a word or a variable: not known. */
static void number_list(arch_scan *s, const char *t, size_t len, size_t i, bool dotted)
{
    bool any = false;
    while (i < len && t[i] != '\n' && t[i] != ')') {
        char c = t[i];
        if (isdigit((unsigned char)c)) {
            unsigned v = 0;
            while (i < len && isdigit((unsigned char)t[i]))
                v = v * 10 + (unsigned)(t[i++] - '0');
            if (dotted && i + 1 < len && t[i] == '.' && isdigit((unsigned char)t[i + 1]))
                v = v * 10 + (unsigned)(t[i + 1] - '0'), i += 2;
            add(s, v);
            any = true;
            while (i < len && (isalnum((unsigned char)t[i]) || t[i] == '-' || t[i] == '+'))
                i++; /* -real, -virtual, +PTX */
        } else if (isalpha((unsigned char)c) || c == '$' || c == '_') {
            s->unknown = true; /* native, all, OFF, ${ARCHS}, os.environ... */
            return;
        } else {
            i++;
        }
    }
    if (!any)
        s->unknown = true;
}

static void scan(arch_scan *s, const char *t, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (t[i] == '#') { /* a comment, to the end of the line */
            while (i < len && t[i] != '\n')
                i++;
            continue;
        }
        if (i > 0 && (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_'))
            continue; /* not the start of a word */
        size_t at = word_at(t, len, i, "sm_") ? i + 3 : word_at(t, len, i, "compute_") ? i + 8 : 0;
        if (at) {
            if (at < len && t[at] == '$')
                s->unknown = true; /* sm_$(SM) */
            unsigned v = 0, nd = 0;
            while (at < len && isdigit((unsigned char)t[at]) && nd < 4)
                v = v * 10 + (unsigned)(t[at++] - '0'), nd++;
            if (nd >= 2)
                add(s, v);
            continue;
        }
        if (word_at(t, len, i, "CMAKE_CUDA_ARCHITECTURES") || word_at(t, len, i, "CUDA_ARCHITECTURES")) {
            size_t j = i + (t[i] == 'C' && t[i + 1] == 'M' ? 24 : 18);
            /* a condition or a message names the variable without a list */
            bool cond = false;
            for (size_t b = i; b > 0 && t[b - 1] != '\n'; b--)
                cond |= word_at(t, len, b - 1, "if(") || word_at(t, len, b - 1, "if (") ||
                        word_at(t, len, b - 1, "message(");
            if (!cond)
                number_list(s, t, len, j, false);
            i = j;
            continue;
        }
        if (word_at(t, len, i, "TORCH_CUDA_ARCH_LIST")) {
            size_t j = i + 20;
            while (j < len && (t[j] == '"' || t[j] == '\'' || t[j] == ']' || t[j] == ' ' || t[j] == '='))
                j++;
            number_list(s, t, len, j, true);
            i = j;
            continue;
        }
        if (word_at(t, len, i, "cuda_select_nvcc_arch_flags") || word_at(t, len, i, "CUDA_SELECT_NVCC_ARCH_FLAGS"))
            s->unknown = true;
        /* -arch=native, --gpu-architecture=all, -arch $(ARCH) */
        if (word_at(t, len, i, "arch") || word_at(t, len, i, "gpu-architecture")) {
            size_t j = i + (t[i] == 'a' ? 4 : 16);
            if (j < len && (t[j] == '=' || t[j] == ' ')) {
                j++;
                if (j < len && (t[j] == '$' || word_at(t, len, j, "native") || word_at(t, len, j, "all")))
                    s->unknown = true;
            }
        }
    }
}

static bool reads(const char *name)
{
    size_t n = strlen(name);
    if (n > 3 && strcmp(name + n - 3, ".py") == 0)
        return strcmp(name, "setup.py") == 0;
    return kc_build_is_build_file(name);
}

/* One build file: its architectures, and its name among the files when
 * it names one; stops once one cannot be known. */
static bool scan_file(void *ud, const char *rel, const char *text, size_t len)
{
    arch_scan *s = ud;
    unsigned before = s->n;
    scan(s, text, len);
    if ((s->n > before || s->unknown) && strlen(s->files) + strlen(rel) + 3 < sizeof s->files)
        strcat(strcat(s->files, s->files[0] ? ", " : ""), rel);
    return !s->unknown;
}

void kc_arch_read(const char *root, const char *abspath, size_t max_file_size, kc_arch_targets *out)
{
    out->max = 0;
    out->text = NULL;
    arch_scan s = {{0}, 0, false, ""};
    kc_build_each_above(root, abspath, max_file_size, reads, scan_file, &s);
    if (s.unknown || s.n == 0)
        return;
    /* ascending, as `sm_NN` */
    for (unsigned i = 1; i < s.n; i++)
        for (unsigned j = i; j > 0 && s.seen[j - 1] > s.seen[j]; j--) {
            unsigned x = s.seen[j];
            s.seen[j] = s.seen[j - 1];
            s.seen[j - 1] = x;
        }
    char text[512] = "";
    for (unsigned i = 0; i < s.n && strlen(text) < 400; i++) {
        char one[16];
        snprintf(one, sizeof one, "%ssm_%u", i ? ", " : "", s.seen[i]);
        strcat(text, one);
    }
    out->max = s.seen[s.n - 1];
    out->text = kc_xasprintf("%s (%s)", text, s.files);
}

void kc_arch_free(kc_arch_targets *t)
{
    free(t->text);
    t->text = NULL;
    t->max = 0;
}
