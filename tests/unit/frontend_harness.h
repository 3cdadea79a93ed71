/* frontend_harness.h — what the front-end tests share: lowering a source
 * held in memory through the door (kc_frontend.h), the run options it is
 * lowered with, and finding kernels, symbols and accesses in the model.
 * Lookups that find nothing fail the test with what they looked for. */
#ifndef KC_FRONTEND_HARNESS_H
#define KC_FRONTEND_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kc_frontend.h"

/* One lowered source: the model (NULL when it did not lower), the file
 * errors, and how long the lowering took. */
typedef struct fh_lowered {
    kc_options opts;
    kc_frontend *fe;
    kc_source *src;
    kc_model *m;
    kc_file_errors errs;
    double ms;
} fh_lowered;

static inline double fh_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* CPU seconds this process has used (the doubling-series tests). */
static inline double fh_cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Lowers `code` as the file `path` (its extension picks the front end).
 * `configure`, when not NULL, adjusts the options first (CUDA mode,
 * compiler arguments). */
static inline void fh_lower(fh_lowered *L, const char *path, const char *code, void (*configure)(kc_options *o))
{
    memset(L, 0, sizeof *L);
    kc_options_init(&L->opts);
    if (configure)
        configure(&L->opts);
    char *err = NULL;
    L->src = kc_source_from_memory(path, code, strlen(code), (size_t)1 << 30, &err);
    if (!L->src)
        fail_msg("%s: %s", path, err ? err : "cannot be read");
    kc_lang lang;
    assert_true(kc_lang_for_path(path, &lang));
    L->fe = kc_frontend_new(&L->opts);
    assert_non_null(L->fe);
    double t0 = fh_now_ms();
    L->m = kc_frontend_lower(L->fe, L->src, lang, NULL, &L->errs);
    L->ms = fh_now_ms() - t0;
}

/* The model must exist; file errors are printed (they explain why not). */
static inline void fh_expect_model(const fh_lowered *L)
{
    for (uint32_t i = 0; i < L->errs.items.len; i++)
        fprintf(stderr, "unexpected error %u:%u %s\n", L->errs.items.data[i].line, L->errs.items.data[i].col,
                L->errs.items.data[i].message);
    assert_non_null(L->m);
}

static inline void fh_free(fh_lowered *L)
{
    kc_model_delete(L->m);
    kc_file_errors_free(&L->errs);
    kc_frontend_delete(L->fe);
    kc_source_delete(L->src);
    kc_options_free(&L->opts);
}

static inline const kc_kernel *fh_kernel(const kc_model *m, const char *name)
{
    for (uint32_t i = 0; i < m->kernels.len; i++)
        if (strcmp(m->kernels.data[i]->name, name) == 0)
            return m->kernels.data[i];
    fail_msg("no kernel %s", name);
    return NULL;
}

static inline const kc_symbol *fh_symbol(const kc_kernel *k, const char *name)
{
    uint32_t id = kc_kernel_find_symbol(k, name);
    if (id == KC_NONE)
        fail_msg("no symbol %s in kernel %s", name, k->name);
    return &k->symbols.data[id];
}

/* The n-th access of `kind` to `base` (0-based). */
static inline const kc_access *fh_access_nth(const kc_kernel *k, const char *base, kc_access_kind kind, unsigned n)
{
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->kind == kind && a->base_name && strcmp(a->base_name, base) == 0 && n-- == 0)
            return a;
    }
    fail_msg("no access %d to %s", (int)kind, base);
    return NULL;
}

/* The access of `kind` to `base` on `line`. */
static inline const kc_access *fh_access_on_line(const kc_kernel *k, const char *base, kc_access_kind kind,
                                                 uint32_t line)
{
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->kind == kind && a->base_name && strcmp(a->base_name, base) == 0 && a->span.line == line)
            return a;
    }
    fail_msg("no access to %s on line %u", base, line);
    return NULL;
}

/* ---- CUDA: lowering in a mode, strides along threadIdx.x, conditions ---- */

static inline void fh_shim_mode(kc_options *o) { o->cuda_mode = KC_CUDA_SHIM; }
static inline void fh_toolkit_mode(kc_options *o) { o->cuda_mode = KC_CUDA_TOOLKIT; }

/* Lowers CUDA code as test_input.cu; the model may be NULL. */
static inline void fh_lower_cuda_mode(fh_lowered *L, const char *code, kc_cuda_mode mode)
{
    fh_lower(L, "test_input.cu", code, mode == KC_CUDA_TOOLKIT ? fh_toolkit_mode : fh_shim_mode);
}

/* Lowers CUDA code in shim mode; the model must exist. */
static inline void fh_lower_cuda(fh_lowered *L, const char *code)
{
    fh_lower_cuda_mode(L, code, KC_CUDA_SHIM);
    fh_expect_model(L);
}

static inline const kc_access *fh_access_of(const kc_kernel *k, const char *base, kc_access_kind kind)
{
    return fh_access_nth(k, base, kind, 0);
}

static inline unsigned fh_count_accesses(const kc_kernel *k, const char *base, kc_access_kind kind)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < k->accesses.len; i++)
        if (k->accesses.data[i].kind == kind && k->accesses.data[i].base_name &&
            strcmp(k->accesses.data[i].base_name, base) == 0)
            n++;
    return n;
}

static inline const char *fh_index_str(const fh_lowered *L, const kc_kernel *k, const kc_index *x)
{
    return kc_model_index_str(L->m, k, x);
}

/* Stride along threadIdx.x as text ("none" when the lane does not occur). */
static inline const char *fh_stride_x(const fh_lowered *L, const kc_kernel *k, const kc_access *a, kc_stride *st)
{
    kc_index_stride_along(L->m->arena, a->offset, 0, st);
    return st->stride ? fh_index_str(L, k, st->stride) : "none";
}

static inline int64_t fh_const_stride_x(const fh_lowered *L, const kc_access *a)
{
    kc_stride st;
    kc_index_stride_along(L->m->arena, a->offset, 0, &st);
    assert_non_null(st.stride);
    assert_false(st.nonaffine);
    int64_t c = 0;
    assert_true(kc_index_is_const(st.stride, &c));
    return c;
}

static inline bool fh_thread_dep(kc_deps d) { return d.axes != 0 || (d.flags & KC_AF_THREAD); }

static inline bool fh_chain_has_thread_dep(const kc_kernel *k, uint32_t c)
{
    for (int guard = 0; c != KC_NONE && guard < 1000; guard++, c = k->conds.data[c].parent)
        if (fh_thread_dep(k->conds.data[c].deps))
            return true;
    return false;
}

/* Source text of a span of the test input; caller frees. */
static inline char *fh_span_text(const fh_lowered *L, kc_span s)
{
    size_t a = kc_source_offset(L->src, s.line, s.col), b = kc_source_offset(L->src, s.end_line, s.end_col);
    char *out = malloc(b - a + 1);
    memcpy(out, L->src->text + a, b - a);
    out[b - a] = '\0';
    return out;
}

static inline void fh_assert_span_text(const fh_lowered *L, kc_span s, const char *want)
{
    char *got = fh_span_text(L, s);
    if (strcmp(got, want) != 0)
        fail_msg("span %u:%u-%u:%u is '%s', want '%s'", s.line, s.col, s.end_line, s.end_col, got, want);
    free(got);
}

#endif
