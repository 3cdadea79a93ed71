/* The CUDA harness: a host program that includes the user's file and the
 * reference, generates the op's inputs, runs both, and prints JSON. */
#include "verify_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *ctype_of(const char *dtype)
{
    if (!strcmp(dtype, "float32"))
        return "float";
    if (!strcmp(dtype, "float16"))
        return "__half";
    if (!strcmp(dtype, "bfloat16"))
        return "__nv_bfloat16";
    if (!strcmp(dtype, "int32"))
        return "int32_t";
    return "int64_t";
}

/* A C expression for a JSON size term: a number or a scalar's name. */
static bool c_term(json_t *t, kc_strbuf *sb)
{
    if (json_is_integer(t)) {
        kc_sb_appendf(sb, "(int64_t)%lld", (long long)json_integer_value(t));
        return true;
    }
    if (json_is_real(t)) {
        kc_sb_appendf(sb, "%.17g", json_real_value(t));
        return true;
    }
    const char *s = json_string_value(t);
    if (!s)
        return false;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_*+-/() ", *p))
            return false;
    kc_sb_appendf(sb, "(%s)", s);
    return true;
}

static bool c_count(json_t *shape, kc_strbuf *sb)
{
    kc_sb_append(sb, "(size_t)1");
    size_t i;
    json_t *d;
    json_array_foreach(shape, i, d) {
        kc_sb_append(sb, " * (size_t)");
        if (!c_term(d, sb))
            return false;
    }
    return true;
}

static const char prelude[] =
    "#include <cuda_runtime.h>\n"
    "#include <cuda_fp16.h>\n"
    "#include <cuda_bf16.h>\n"
    "#include <algorithm>\n"
    "#include <cmath>\n"
    "#include <cstdint>\n"
    "#include <cstdio>\n"
    "#include <cstdlib>\n"
    "#include <cstring>\n"
    "#include <vector>\n";

static const char support[] =
    "namespace kcv {\n"
    "static uint64_t state = 88172645463325252ull;\n"
    "static inline uint64_t next() { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state; }\n"
    "static inline double uniform() { return (double)(next() >> 11) * (1.0 / 9007199254740992.0); }\n"
    "static inline double normal() {\n"
    "    double u1 = uniform(), u2 = uniform();\n"
    "    if (u1 < 1e-300) u1 = 1e-300;\n"
    "    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);\n"
    "}\n"
    "template <class T> static inline T cvt(double v) { return (T)v; }\n"
    "template <> inline __half cvt<__half>(double v) { return __float2half((float)v); }\n"
    "template <> inline __nv_bfloat16 cvt<__nv_bfloat16>(double v) { return __float2bfloat16((float)v); }\n"
    "static inline double val(float v) { return v; }\n"
    "static inline double val(double v) { return v; }\n"
    "static inline double val(int32_t v) { return (double)v; }\n"
    "static inline double val(int64_t v) { return (double)v; }\n"
    "static inline double val(__half v) { return (double)__half2float(v); }\n"
    "static inline double val(__nv_bfloat16 v) { return (double)__bfloat162float(v); }\n"
    "static void fail(const char *what, cudaError_t e) {\n"
    "    printf(\"{\\\"error\\\": \\\"%s\\\", \\\"where\\\": \\\"%s\\\"}\\n\", cudaGetErrorString(e), what);\n"
    "    fflush(stdout);\n"
    "    exit(3);\n"
    "}\n"
    "/* Compares n values of user vs reference output; prints one JSON object. */\n"
    "template <class T> static void compare(const char *name, const T *d_user, const T *d_ref, size_t n,\n"
    "                                       const int64_t *dims, int rank, double atol, double rtol, bool first) {\n"
    "    std::vector<T> u(n), r(n);\n"
    "    if (cudaMemcpy(u.data(), d_user, n * sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess ||\n"
    "        cudaMemcpy(r.data(), d_ref, n * sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess)\n"
    "        fail(\"copy back\", cudaGetLastError());\n"
    "    double worst = -1; size_t wi = 0, bad = 0;\n"
    "    for (size_t i = 0; i < n; i++) {\n"
    "        double a = val(u[i]), b = val(r[i]);\n"
    "        double d = std::fabs(a - b);\n"
    "        if (std::isnan(a) != std::isnan(b) || std::isnan(d)) d = INFINITY;\n"
    "        if (std::isnan(a) && std::isnan(b)) d = 0;\n"
    "        if (d > atol + rtol * std::fabs(b)) bad++;\n"
    "        if (d > worst) { worst = d; wi = i; }\n"
    "    }\n"
    "    printf(\"%s{\\\"name\\\": \\\"%s\\\", \\\"ok\\\": %s, \\\"mismatches\\\": %zu, \\\"total\\\": %zu, \"\n"
    "           \"\\\"max_abs_err\\\": %.9g, \\\"got\\\": %.9g, \\\"expected\\\": %.9g, \\\"where\\\": [\",\n"
    "           first ? \"\" : \", \", name, bad ? \"false\" : \"true\", bad, n, std::isinf(worst) ? 1e308 : worst,\n"
    "           n ? val(u[wi]) : 0.0, n ? val(r[wi]) : 0.0);\n"
    "    size_t rem = wi;\n"
    "    int64_t idx[8] = {0};\n"
    "    for (int k = rank - 1; k >= 0; k--) { idx[k] = (int64_t)(rem % (size_t)dims[k]); rem /= (size_t)dims[k]; }\n"
    "    for (int k = 0; k < rank; k++) printf(\"%s%lld\", k ? \", \" : \"\", (long long)idx[k]);\n"
    "    printf(\"]}\");\n"
    "}\n"
    "template <class F> static double median_ms(F f, void *flush, size_t flush_bytes, int reps) {\n"
    "    cudaEvent_t a, b;\n"
    "    cudaEventCreate(&a);\n"
    "    cudaEventCreate(&b);\n"
    "    std::vector<float> t;\n"
    "    for (int i = 0; i < 3; i++) f();\n"
    "    cudaDeviceSynchronize();\n"
    "    for (int i = 0; i < reps; i++) {\n"
    "        if (flush) cudaMemsetAsync(flush, i & 0xff, flush_bytes);\n"
    "        cudaEventRecord(a);\n"
    "        f();\n"
    "        cudaEventRecord(b);\n"
    "        cudaEventSynchronize(b);\n"
    "        float ms = 0;\n"
    "        cudaEventElapsedTime(&ms, a, b);\n"
    "        t.push_back(ms);\n"
    "    }\n"
    "    cudaError_t e = cudaGetLastError();\n"
    "    if (e != cudaSuccess) fail(\"timed call\", e);\n"
    "    std::sort(t.begin(), t.end());\n"
    "    return t[t.size() / 2];\n"
    "}\n"
    "}  // namespace kcv\n"
    "#define KCV_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) kcv::fail(#x, e_); } while (0)\n";

/* Declares one size scalar, choosing the correctness or the timing value. */
static bool emit_scalar(kc_strbuf *sb, json_t *sc, json_t *corr, json_t *tim, const char *overrides, char **err)
{
    const char *name = json_string_value(json_object_get(sc, "name"));
    const char *type = json_string_value(json_object_get(sc, "type"));
    if (!name) {
        *err = kc_xstrdup("a scalar has no name");
        return false;
    }
    bool is_float = type && !strncmp(type, "float", 5);
    const char *ct = is_float ? "float" : "int64_t";
    /* sizes="M=..." from the binding wins */
    if (overrides) {
        size_t nl = strlen(name);
        for (const char *p = overrides; p && *p;) {
            if (!strncmp(p, name, nl) && p[nl] == '=') {
                char *end;
                long long v = strtoll(p + nl + 1, &end, 10);
                kc_sb_appendf(sb, "    const %s %s = (%s)%lld;\n", ct, name, ct, v);
                return true;
            }
            p = strchr(p, ',');
            if (p)
                p++;
        }
    }
    json_t *c = json_object_get(corr, name), *t = json_object_get(tim, name);
    json_t *v = json_object_get(sc, "value");
    if (c && t) {
        kc_sb_appendf(sb, "    const %s %s = timing ? (%s)", ct, name, ct);
        c_term(t, sb);
        kc_sb_appendf(sb, " : (%s)", ct);
        c_term(c, sb);
        kc_sb_append(sb, ";\n");
    } else if (v) {
        kc_sb_appendf(sb, "    const %s %s = (%s)", ct, name, ct);
        c_term(v, sb);
        kc_sb_append(sb, ";\n");
    } else {
        *err = kc_xasprintf("scalar `%s` has neither sizes nor a value", name);
        return false;
    }
    return true;
}

static bool emit_init(kc_strbuf *sb, json_t *t, const char *name, const char *ct, char **err)
{
    json_t *init = json_object_get(t, "init");
    const char *kind = json_string_value(json_object_get(init, "kind"));
    if (!kind)
        kind = "normal";
    kc_sb_appendf(sb, "    for (size_t i = 0; i < kcv_n_%s; i++) kcv_h_%s[i] = kcv::cvt<%s>(", name, name, ct);
    if (!strcmp(kind, "normal")) {
        kc_sb_append(sb, "(double)");
        json_t *mean = json_object_get(init, "mean");
        if (mean) {
            if (!c_term(mean, sb))
                goto bad;
        } else {
            kc_sb_append(sb, "0.0");
        }
        kc_sb_append(sb, " + (double)");
        json_t *sd = json_object_get(init, "std");
        if (sd) {
            if (!c_term(sd, sb))
                goto bad;
        } else {
            kc_sb_append(sb, "1.0");
        }
        kc_sb_append(sb, " * kcv::normal()");
    } else if (!strcmp(kind, "uniform")) {
        json_t *lo = json_object_get(init, "low"), *hi = json_object_get(init, "high");
        kc_sb_append(sb, "(double)");
        if (lo) {
            if (!c_term(lo, sb))
                goto bad;
        } else
            kc_sb_append(sb, "0.0");
        kc_sb_append(sb, " + ((double)");
        if (hi) {
            if (!c_term(hi, sb))
                goto bad;
        } else
            kc_sb_append(sb, "1.0");
        kc_sb_append(sb, " - (double)");
        if (lo) {
            if (!c_term(lo, sb))
                goto bad;
        } else
            kc_sb_append(sb, "0.0");
        kc_sb_append(sb, ") * kcv::uniform()");
    } else if (!strcmp(kind, "randint")) {
        json_t *lo = json_object_get(init, "low"), *hi = json_object_get(init, "high");
        kc_sb_append(sb, "(double)((int64_t)");
        if (lo) {
            if (!c_term(lo, sb))
                goto bad;
        } else
            kc_sb_append(sb, "0");
        kc_sb_append(sb, " + (int64_t)(kcv::next() % (uint64_t)((int64_t)");
        if (!hi || !c_term(hi, sb))
            goto bad;
        kc_sb_append(sb, " - (int64_t)");
        if (lo) {
            if (!c_term(lo, sb))
                goto bad;
        } else
            kc_sb_append(sb, "0");
        kc_sb_append(sb, ")))");
    } else if (!strcmp(kind, "zeros")) {
        kc_sb_append(sb, "0.0");
    } else {
        *err = kc_xasprintf("input `%s`: unknown init kind `%s`", name, kind);
        return false;
    }
    kc_sb_append(sb, ");\n");
    return true;
bad:
    *err = kc_xasprintf("input `%s`: malformed init", name);
    return false;
}

/* Name of the buffer holding output i of the user's call. */
static char *user_output_buffer(const kc_binding *b, size_t i, const char *spec_name)
{
    if (!b->outputs)
        return kc_xstrdup(spec_name);
    const char *p = b->outputs;
    for (size_t k = 0; k < i && p; k++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    if (!p || !*p)
        return kc_xstrdup(spec_name);
    size_t n = strcspn(p, ",");
    while (n && p[n - 1] == ' ')
        n--;
    while (*p == ' ') {
        p++;
        n--;
    }
    return kc_xstrndup(p, n);
}

/* The op's inputs: host data, then a device copy for the user and one for
 * the reference. */
static bool emit_inputs(kc_strbuf *sb, json_t *inputs, char **err)
{
    size_t i;
    json_t *t;
    json_array_foreach(inputs, i, t) {
        const char *name = json_string_value(json_object_get(t, "name"));
        const char *ct = ctype_of(json_string_value(json_object_get(t, "dtype")));
        kc_sb_appendf(sb, "    const size_t kcv_n_%s = ", name);
        if (!c_count(json_object_get(t, "shape"), sb)) {
            *err = kc_xasprintf("input `%s`: malformed shape", name);
            return false;
        }
        kc_sb_appendf(sb, ";\n    std::vector<%s> kcv_h_%s(kcv_n_%s);\n", ct, name, name);
        if (!emit_init(sb, t, name, ct, err))
            return false;
        kc_sb_appendf(sb,
                      "    %s *%s = nullptr, *kcv_ref_%s = nullptr;\n"
                      "    KCV_CHECK(cudaMalloc(&%s, kcv_n_%s * sizeof(%s) + 16));\n"
                      "    KCV_CHECK(cudaMalloc(&kcv_ref_%s, kcv_n_%s * sizeof(%s) + 16));\n"
                      "    KCV_CHECK(cudaMemcpy(%s, kcv_h_%s.data(), kcv_n_%s * sizeof(%s), cudaMemcpyHostToDevice));\n"
                      "    KCV_CHECK(cudaMemcpy(kcv_ref_%s, kcv_h_%s.data(), kcv_n_%s * sizeof(%s), cudaMemcpyHostToDevice));\n",
                      ct, name, name, name, name, ct, name, name, ct, name, name, name, ct, name, name, name, ct);
    }
    return true;
}

/* The op's outputs: the user's buffers (or the inputs that outputs= names
 * for them) and the reference's. */
static bool emit_outputs(kc_strbuf *sb, const kc_binding *b, json_t *inputs, json_t *outputs, char **err)
{
    size_t i;
    json_t *t;
    json_array_foreach(outputs, i, t) {
        const char *name = json_string_value(json_object_get(t, "name"));
        const char *ct = ctype_of(json_string_value(json_object_get(t, "dtype")));
        /* An output updated in place (same name as an input) reuses the
         * input's buffers and count. */
        bool is_input = false;
        size_t k;
        json_t *in;
        json_array_foreach(inputs, k, in) {
            if (!strcmp(json_string_value(json_object_get(in, "name")), name))
                is_input = true;
        }
        if (!is_input) {
            kc_sb_appendf(sb, "    const size_t kcv_n_%s = ", name);
            if (!c_count(json_object_get(t, "shape"), sb)) {
                *err = kc_xasprintf("output `%s`: malformed shape", name);
                return false;
            }
            kc_sb_append(sb, ";\n");
        }
        /* The user's buffer, unless outputs= maps it onto an input. */
        char *ub = user_output_buffer(b, i, name);
        bool own = strcmp(ub, name) == 0;
        if (own && !is_input)
            kc_sb_appendf(sb,
                          "    %s *%s = nullptr;\n"
                          "    KCV_CHECK(cudaMalloc(&%s, kcv_n_%s * sizeof(%s) + 16));\n"
                          "    KCV_CHECK(cudaMemset(%s, 0, kcv_n_%s * sizeof(%s)));\n",
                          ct, name, name, name, ct, name, name, ct);
        kc_sb_appendf(sb, "    %s *kcv_out_%s = (%s *)%s;\n", ct, name, ct, ub);
        if (!is_input)
            kc_sb_appendf(sb,
                          "    %s *kcv_ref_%s = nullptr;\n"
                          "    KCV_CHECK(cudaMalloc(&kcv_ref_%s, kcv_n_%s * sizeof(%s) + 16));\n"
                          "    KCV_CHECK(cudaMemset(kcv_ref_%s, 0, kcv_n_%s * sizeof(%s)));\n",
                          ct, name, name, name, ct, name, name, ct);
        free(ub);
    }
    return true;
}

/* The two calls: the binding's and the reference function's. */
static void emit_calls(kc_strbuf *sb, const kc_binding *b, const char *ref_func, json_t *inputs, json_t *outputs,
                       json_t *scalars, const char *harness_name)
{
    size_t i;
    json_t *t;
    /* nvcc reports an error in the binding's call at the binding's line of
     * KC_VERIFY_CALL_FILE (the driver and verdict.c tell a call that does
     * not compile, a mistake of the binding, from a kernel that does not). */
    size_t line = 1;
    for (size_t k = 0; k < sb->len; k++)
        line += sb->data[k] == '\n';
    kc_sb_appendf(sb, "    auto kcv_user = [&]() {\n#line %u \"" KC_VERIFY_CALL_FILE "\"\n        %s;\n#line %zu \"%s\"\n    };\n",
                  b->line, b->call, line + 4, harness_name);
    kc_sb_appendf(sb, "    auto kcv_ref = [&]() {\n        %s(", ref_func);
    bool first = true;
    json_array_foreach(inputs, i, t) {
        kc_sb_appendf(sb, "%skcv_ref_%s", first ? "" : ", ", json_string_value(json_object_get(t, "name")));
        first = false;
    }
    json_array_foreach(outputs, i, t) {
        kc_sb_appendf(sb, "%skcv_ref_%s", first ? "" : ", ", json_string_value(json_object_get(t, "name")));
        first = false;
    }
    json_array_foreach(scalars, i, t) {
        kc_sb_appendf(sb, "%s%s", first ? "" : ", ", json_string_value(json_object_get(t, "name")));
        first = false;
    }
    kc_sb_appendf(sb, "%s(cudaStream_t)0);\n    };\n", first ? "" : ", ");
}

/* The comparison of each output with the reference's, printed as JSON. */
static void emit_compare(kc_strbuf *sb, json_t *outputs)
{
    size_t i;
    json_t *t;
    json_array_foreach(outputs, i, t) {
        const char *name = json_string_value(json_object_get(t, "name"));
        const char *ct = ctype_of(json_string_value(json_object_get(t, "dtype")));
        json_t *shape = json_object_get(t, "shape");
        kc_sb_appendf(sb, "        { const int64_t dims[] = {");
        size_t k;
        json_t *d;
        json_array_foreach(shape, k, d) {
            if (k)
                kc_sb_append(sb, ", ");
            kc_sb_append(sb, "(int64_t)");
            c_term(d, sb);
        }
        if (json_array_size(shape) == 0)
            kc_sb_append(sb, "1");
        double atol = json_number_value(json_object_get(t, "atol")), rtol = json_number_value(json_object_get(t, "rtol"));
        kc_sb_appendf(sb, "};\n          kcv::compare<%s>(\"%s\", kcv_out_%s, kcv_ref_%s, kcv_n_%s, dims, %zu, %.9g, %.9g, %s); }\n",
                      ct, name, name, name, name, json_array_size(shape) ? json_array_size(shape) : 1,
                      atol > 0 ? atol : 1e-5, rtol > 0 ? rtol : 1e-5, i == 0 ? "true" : "false");
    }
}

bool kc_cuda_harness_write(const char *path, const kc_opspec *spec, const kc_binding *b, const char *user_file,
                           const char *reference_dir, char **err)
{
    *err = NULL;
    json_t *root = spec->root;
    char *ref_file = NULL, *ref_func = NULL;
    if (!kc_opspec_reference(spec, "cuda", &ref_file, &ref_func)) {
        *err = kc_xasprintf("op `%s` has no CUDA reference", kc_opspec_name(spec));
        return false;
    }
    json_t *corr = json_object_get(json_object_get(root, "sizes"), "correctness");
    json_t *tim = json_object_get(json_object_get(root, "sizes"), "timing");
    json_t *inputs = json_object_get(root, "inputs"), *outputs = json_object_get(root, "outputs");
    json_t *scalars = json_object_get(root, "scalars");
    kc_strbuf sb = {0};
    kc_sb_appendf(&sb, "// Generated by kcheck verify for %s (op %s). Do not edit.\n", user_file, kc_opspec_name(spec));
    kc_sb_append(&sb, prelude);
    kc_sb_append(&sb, "// The user's file; its own main(), if any, is renamed.\n#define main kcheck_user_main\n");
    kc_sb_appendf(&sb, "#include \"%s\"\n#undef main\n", user_file);
    kc_sb_appendf(&sb, "#include \"%s/cuda/%s\"\n", reference_dir, ref_file);
    kc_sb_append(&sb, support);
    kc_sb_append(&sb, "int main(int argc, char **argv) {\n"
                      "    const bool timing = argc > 1 && strcmp(argv[1], \"timing\") == 0;\n"
                      "    (void)timing;\n");
    size_t i;
    json_t *t;
    json_array_foreach(scalars, i, t) {
        if (!emit_scalar(&sb, t, corr, tim, b->sizes, err))
            goto fail;
    }
    if (!emit_inputs(&sb, inputs, err) || !emit_outputs(&sb, b, inputs, outputs, err))
        goto fail;
    const char *slash = strrchr(path, '/');
    emit_calls(&sb, b, ref_func, inputs, outputs, scalars, slash ? slash + 1 : path);
    kc_sb_append(&sb, "    if (!timing) {\n"
                      "        kcv_user();\n"
                      "        KCV_CHECK(cudaGetLastError());\n"
                      "        KCV_CHECK(cudaDeviceSynchronize());\n"
                      "        kcv_ref();\n"
                      "        KCV_CHECK(cudaGetLastError());\n"
                      "        KCV_CHECK(cudaDeviceSynchronize());\n"
                      "        printf(\"{\\\"mode\\\": \\\"correctness\\\", \\\"outputs\\\": [\");\n");
    emit_compare(&sb, outputs);
    kc_sb_append(&sb, "        printf(\"]}\\n\");\n"
                      "    } else {\n"
                      "        const size_t flush_bytes = (size_t)256 << 20;\n"
                      "        void *flush = nullptr;\n"
                      "        if (cudaMalloc(&flush, flush_bytes) != cudaSuccess) flush = nullptr;\n"
                      "        double ms = kcv::median_ms(kcv_user, flush, flush_bytes, 20);\n"
                      "        double ref_ms = kcv::median_ms(kcv_ref, flush, flush_bytes, 20);\n"
                      "        printf(\"{\\\"mode\\\": \\\"timing\\\", \\\"ms\\\": %.6f, \\\"ref_ms\\\": %.6f}\\n\", ms, ref_ms);\n"
                      "    }\n"
                      "    fflush(stdout);\n"
                      "    return 0;\n"
                      "}\n");
    bool ok = kc_write_file(path, sb.data, sb.len);
    if (!ok)
        *err = kc_xasprintf("cannot write %s", path);
    kc_sb_free(&sb);
    free(ref_file);
    free(ref_func);
    return ok;
fail:
    kc_sb_free(&sb);
    free(ref_file);
    free(ref_func);
    return false;
}
