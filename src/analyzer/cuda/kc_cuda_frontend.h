/* kc_cuda_frontend.h — the CUDA front end's entry points, for the door
 * (src/analyzer/kc_frontend.c) and nothing else: everything else reaches a
 * front end through kc_frontend.h. */
#ifndef KC_CUDA_FRONTEND_H
#define KC_CUDA_FRONTEND_H

#include <stdio.h>

#include "kc_diag.h"
#include "kc_model.h"
#include "kc_options.h"

typedef struct kc_cuda_frontend kc_cuda_frontend;
kc_cuda_frontend *kc_cuda_frontend_new(const kc_options *opts);
void kc_cuda_frontend_delete(kc_cuda_frontend *fe);
kc_model *kc_cuda_lower(kc_cuda_frontend *fe, const kc_source *src, kc_file_errors *errs);
int kc_cuda_dump_shim(const kc_options *opts, const char *dir, FILE *out, FILE *err);
char *kc_cuda_version(void); /* libclang's version; caller frees */
/* Names once on `err` each flag of the compile database (-p) that applies
 * to one of `paths` and that kcheck neither translates nor knows to be
 * irrelevant to parsing; returns how many. */
int kc_cuda_db_report(const kc_options *opts, const char *const *paths, size_t n, FILE *err);

/* The CUDA front end as a table: linked in (tests, fuzzers), or loaded by
 * the kcheck binary from the module kcheck-cuda.so on the first CUDA file,
 * so that a run over Python files never maps libclang and LLVM (about 0.1 s
 * of every process). `check` guards against a module from another build. */
typedef struct kc_cuda_ops {
    size_t check;
    kc_cuda_frontend *(*create)(const kc_options *opts);
    void (*destroy)(kc_cuda_frontend *fe);
    kc_model *(*lower)(kc_cuda_frontend *fe, const kc_source *src, kc_file_errors *errs);
    int (*dump_shim)(const kc_options *opts, const char *dir, FILE *out, FILE *err);
    char *(*version)(void);
    int (*db_report)(const kc_options *opts, const char *const *paths, size_t n, FILE *err);
} kc_cuda_ops;
#define KC_CUDA_OPS_CHECK                                                                                      \
    (sizeof(kc_cuda_ops) * 1000003u + sizeof(kc_options) * 10007u + sizeof(kc_model) * 101u + sizeof(kc_kernel) + \
     sizeof(kc_source) * 7u + sizeof(kc_file_errors) * 3u)
/* The front end's table (frontend_cuda.c), which the module exports. */
const kc_cuda_ops *kc_cuda_plugin(void);

#endif
