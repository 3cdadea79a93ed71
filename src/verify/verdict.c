/* Verify mode: plan, build, run, judge. */
#include "verify_internal.h"

#include "kc_file.h"
#include "kc_fixit.h"
#include "kc_rule.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- verdict helpers ---- */

static void set_verdict(kc_diag *d, const char *status, const char *summary, json_t *evidence)
{
    if (d->verdict) {
        free(d->verdict->status);
        free(d->verdict->summary);
        free(d->verdict->evidence_json);
    } else {
        d->verdict = kc_xcalloc(1, sizeof *d->verdict);
    }
    d->verdict->status = kc_xstrdup(status);
    d->verdict->summary = kc_xstrdup(summary);
    d->verdict->evidence_json = evidence ? json_dumps(evidence, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
}

static const kc_rule *rule_of(const kc_diag *d) { return kc_rules_find(d->rule_id, NULL); }

static kc_verify_kind kind_of(const kc_diag *d)
{
    const kc_rule *r = rule_of(d);
    return r ? r->verify : KC_VERIFY_NONE;
}

static bool is_perf(kc_verify_kind k) { return k == KC_VERIFY_PERF_RUNTIME || k == KC_VERIFY_PERF_COMPILE; }

/* ---- results documents ---- */

static json_t *find_exp(json_t *doc, const char *kind, const char *variant, int diag)
{
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(doc, "experiments"), i, x) {
        const char *k = json_string_value(json_object_get(x, "kind"));
        const char *v = json_string_value(json_object_get(x, "variant"));
        if (!k || strcmp(k, kind) != 0)
            continue;
        if (strcmp(v ? v : "original", variant) != 0)
            continue;
        if (diag >= 0 && json_integer_value(json_object_get(x, "diag")) != diag)
            continue;
        return x;
    }
    return NULL;
}

static const char *env_text(json_t *doc, kc_strbuf *sb)
{
    json_t *env = json_object_get(doc, "env");
    const char *gpu = json_string_value(json_object_get(env, "gpu"));
    const char *tri = json_string_value(json_object_get(env, "triton"));
    const char *cuda = json_string_value(json_object_get(env, "cuda"));
    const char *drv = json_string_value(json_object_get(env, "driver"));
    kc_sb_appendf(sb, "%s", gpu ? gpu : "unknown GPU");
    if (drv)
        kc_sb_appendf(sb, ", driver %s", drv);
    if (tri && strncmp(tri, "unavailable", 11) != 0)
        kc_sb_appendf(sb, ", Triton %s", tri);
    if (cuda)
        kc_sb_appendf(sb, ", CUDA %s", cuda);
    return kc_sb_str(sb);
}

static void sizes_text(json_t *exp, kc_strbuf *sb)
{
    json_t *sizes = json_object_get(exp, "sizes");
    const char *k;
    json_t *v;
    bool first = true;
    json_object_foreach(sizes, k, v) {
        if (json_is_number(v)) {
            kc_sb_appendf(sb, "%s%s=%g", first ? "" : ", ", k, json_number_value(v));
            first = false;
        }
    }
}

/* Appends what differs between the call's outputs and the reference's;
 * returns whether anything does. */
static bool describe_mismatch(json_t *x, kc_strbuf *sb)
{
    json_t *outs = json_object_get(x, "outputs");
    size_t i;
    json_t *o;
    bool bad = false;
    json_array_foreach(outs, i, o) {
        if (json_is_true(json_object_get(o, "ok")))
            continue;
        bad = true;
        if (json_string_value(json_object_get(o, "error"))) {
            kc_sb_appendf(sb, "%soutput `%s`: %s", sb->len ? "; " : "", json_string_value(json_object_get(o, "name")),
                          json_string_value(json_object_get(o, "error")));
            continue;
        }
        kc_sb_appendf(sb, "%soutput `%s` differs from the reference: max abs error %.4g at [", sb->len ? "; " : "",
                      json_string_value(json_object_get(o, "name")),
                      json_number_value(json_object_get(o, "max_abs_err")));
        size_t k;
        json_t *w;
        json_array_foreach(json_object_get(o, "where"), k, w)
            kc_sb_appendf(sb, "%s%lld", k ? ", " : "", (long long)json_integer_value(w));
        kc_sb_appendf(sb, "] (got %.6g, expected %.6g); %lld of %lld values outside tolerance",
                      json_number_value(json_object_get(o, "got")), json_number_value(json_object_get(o, "expected")),
                      (long long)json_integer_value(json_object_get(o, "mismatches")),
                      (long long)json_integer_value(json_object_get(o, "total")));
    }
    return bad;
}

/* One diagnostic being judged from a results document. */
typedef struct judging {
    kc_diag *d;
    int diag_index;          /* its index in the file's diagnostics (fixed copies name it) */
    kc_verify_kind kind;     /* its rule's experiment */
    json_t *doc;             /* the results document */
    const char *why_missing; /* why an experiment has no results, or NULL */
    size_t unattributed;     /* rules whose performance findings no experiment tells apart */
    const char *env;         /* the GPU and its software, as text */
    json_t *ev;              /* the verdict's evidence */
} judging;

/* A compile error: does the kernel compile (and with its fix-it)? */
static void judge_compile_error(const judging *j)
{
    json_t *x = find_exp(j->doc, "compile_error", "original", -1);
    json_t *fx = find_exp(j->doc, "compile_error", "fixed", j->diag_index);
    if (!x) {
        set_verdict(j->d, "inconclusive", j->why_missing ? j->why_missing : "the compile experiment did not run",
                    j->ev);
        return;
    }
    json_object_set(j->ev, "original", x);
    if (fx)
        json_object_set(j->ev, "fixed", fx);
    kc_strbuf sb = {0};
    if (json_is_true(json_object_get(x, "raised"))) {
        kc_sb_appendf(&sb, "the kernel does not compile: %s: %s (%s)",
                      json_string_value(json_object_get(x, "error_type")),
                      json_string_value(json_object_get(x, "error")), j->env);
        if (fx && json_is_false(json_object_get(fx, "raised")))
            kc_sb_append(&sb, "; with the fix-it applied it compiles and runs");
        set_verdict(j->d, "confirmed", kc_sb_str(&sb), j->ev);
    } else {
        kc_sb_appendf(&sb, "the kernel compiled and ran (%s)", j->env);
        set_verdict(j->d, "not-reproduced", kc_sb_str(&sb), j->ev);
    }
    kc_sb_free(&sb);
}

/* A wrong result: do the outputs differ from the reference (and match it
 * with the fix-it applied)? */
static void judge_wrong_result(const judging *j)
{
    json_t *x = find_exp(j->doc, "correctness", "original", -1);
    if (!x) {
        set_verdict(j->d, "inconclusive",
                    j->why_missing ? j->why_missing : "the correctness experiment did not run", j->ev);
        return;
    }
    json_object_set(j->ev, "original", x);
    kc_strbuf sb = {0};
    const char *e = json_string_value(json_object_get(x, "error"));
    if (e) {
        kc_sb_appendf(&sb, "the call failed: %s", e);
        set_verdict(j->d, "inconclusive", kc_sb_str(&sb), j->ev);
        kc_sb_free(&sb);
        return;
    }
    bool bad = describe_mismatch(x, &sb);
    kc_strbuf sz = {0};
    sizes_text(x, &sz);
    json_t *fx = find_exp(j->doc, "correctness", "fixed", j->diag_index);
    if (fx) {
        json_object_set(j->ev, "fixed", fx);
        if (json_is_true(json_object_get(fx, "ok")))
            kc_sb_append(&sb, bad ? "; with its fix-it applied the outputs match" : "");
        else if (bad && !json_object_get(fx, "error"))
            kc_sb_append(&sb, "; with its fix-it applied they still differ (another cause?)");
    }
    if (bad) {
        kc_sb_appendf(&sb, " (%s; %s)", kc_sb_str(&sz), j->env);
        set_verdict(j->d, "confirmed", kc_sb_str(&sb), j->ev);
    } else {
        kc_sb_appendf(&sb, "outputs match the reference at %s (%s); the hazard is real but did not show here",
                      kc_sb_str(&sz), j->env);
        set_verdict(j->d, "not-reproduced", kc_sb_str(&sb), j->ev);
    }
    kc_sb_free(&sz);
    kc_sb_free(&sb);
}

/* A performance finding with a fix-it: its cost is the difference the
 * fixed copy `ft` makes (ms, cs: the kernel's run and compile times,
 * ratio: its run time over the reference's). Returns the status. */
static const char *perf_with_fix(kc_strbuf *sb, json_t *ft, kc_verify_kind kind, double ms, double cs, double ratio)
{
    if (!json_is_number(json_object_get(ft, "ms"))) {
        const char *e = json_string_value(json_object_get(ft, "error"));
        kc_sb_appendf(sb, "; the fixed copy failed: %.200s", e ? e : "no timing");
        return "not-reproduced";
    }
    bool confirmed = false;
    double fms = json_number_value(json_object_get(ft, "ms"));
    kc_sb_appendf(sb, "; with its fix-it applied: %.3g ms", fms);
    if (kind == KC_VERIFY_PERF_COMPILE && json_is_number(json_object_get(ft, "compile_s"))) {
        double fcs = json_number_value(json_object_get(ft, "compile_s"));
        kc_sb_appendf(sb, ", %.1f s to compile", fcs);
        if (cs >= 1.0 && cs >= 2 * fcs) {
            kc_sb_appendf(sb, " (compiles %.1fx faster)", cs / (fcs > 0 ? fcs : 1e-3));
            confirmed = true;
        }
    }
    if (fms > 0 && ms / fms >= 1.2) {
        kc_sb_appendf(sb, " (runs %.1fx faster)", ms / fms);
        confirmed = true;
    } else if (fms > 0) {
        kc_sb_append(sb, confirmed && ratio >= 1.5 ? " (runs no faster: the gap to the reference lies elsewhere)"
                                                   : " (runs no faster)");
    }
    return confirmed ? "confirmed" : "not-reproduced";
}

/* A performance finding without a fix-it of its own: what is left once the
 * others are fixed (`ot`, when both it and the kernel as written ran), else
 * the gap to the reference (ref: its time, ratio: the kernel's over it).
 * Returns the status. */
static const char *perf_without_fix(const judging *j, kc_strbuf *sb, json_t *ot, double ref, double ratio)
{
    if (ot) {
        double oms = json_number_value(json_object_get(ot, "ms"));
        double oratio = ref > 0 ? oms / ref : 0;
        kc_sb_appendf(sb, "; with the other findings' fix-its applied: %.3g ms (%.1fx the reference)", oms, oratio);
        if (oratio >= 1.5)
            return "confirmed";
        kc_sb_append(sb, ", so this finding costs little here");
        return "not-reproduced";
    }
    if (j->unattributed > 1 && ratio >= 1.5) {
        /* Several findings share the slowdown and none has a fix-it to
         * measure it apart: the run cannot say whose it is. */
        kc_sb_appendf(sb, "; findings of %zu rules in this kernel share the slowdown and none can be measured apart",
                      j->unattributed);
        return "inconclusive";
    }
    return ratio >= 1.5 ? "confirmed" : "not-reproduced";
}

/* Performance (run time, compile time): the kernel's timing against the
 * reference's, its fixed copy's, or the one with the others fixed. */
static void judge_perf(const judging *j)
{
    json_t *t = find_exp(j->doc, "timing", "original", -1);
    json_t *ft = find_exp(j->doc, "timing", "fixed", j->diag_index);
    json_t *ot = find_exp(j->doc, "timing", "others_fixed", -1);
    json_t *c = find_exp(j->doc, "correctness", "original", -1);
    bool t_ok = t && !json_object_get(t, "error") && json_is_number(json_object_get(t, "ms"));
    bool ot_ok = ot && !json_object_get(ot, "error") && json_is_number(json_object_get(ot, "ms"));
    if (t)
        json_object_set(j->ev, "original", t);
    if (ft)
        json_object_set(j->ev, "fixed", ft);
    if (ot)
        json_object_set(j->ev, "others_fixed", ot);
    if (c)
        json_object_set(j->ev, "correctness", c);
    kc_strbuf sb = {0};
    if (!t_ok && !ot_ok) {
        const char *e = t ? json_string_value(json_object_get(t, "error")) : NULL;
        if (e)
            kc_sb_appendf(&sb, "the timing run failed: %s", e);
        else
            kc_sb_append(&sb, j->why_missing ? j->why_missing : "the timing experiment did not run");
        set_verdict(j->d, "inconclusive", kc_sb_str(&sb), j->ev);
        kc_sb_free(&sb);
        return;
    }
    json_t *base = t_ok ? t : ot; /* what the kernel as written (or as it compiles) costs */
    double ms = json_number_value(json_object_get(base, "ms"));
    double ref = json_number_value(json_object_get(base, "ref_ms"));
    if (ref <= 0 && t)
        ref = json_number_value(json_object_get(t, "ref_ms"));
    double ratio = ref > 0 ? ms / ref : 0;
    kc_strbuf sz = {0};
    sizes_text(base, &sz);
    if (!t_ok)
        kc_sb_append(&sb, "as written the kernel does not run; with the other findings' fix-its applied it is ");
    if (ref > 0)
        kc_sb_appendf(&sb, "%.1fx %s than the reference (%.3g ms vs %.3g ms", ratio >= 1 ? ratio : 1 / ratio,
                      ratio >= 1 ? "slower" : "faster", ms, ref);
    else
        kc_sb_appendf(&sb, "%.3g ms (", ms);
    if (json_is_number(json_object_get(base, "gbps")))
        kc_sb_appendf(&sb, ", %.0f GB/s", json_number_value(json_object_get(base, "gbps")));
    kc_sb_appendf(&sb, " at %s)", kc_sb_str(&sz));
    double cs = json_number_value(json_object_get(base, "compile_s"));
    if (j->kind == KC_VERIFY_PERF_COMPILE && json_is_number(json_object_get(base, "compile_s")))
        kc_sb_appendf(&sb, ", %.1f s to compile", cs);
    const char *status = ft ? perf_with_fix(&sb, ft, j->kind, ms, cs, ratio)
                            : perf_without_fix(j, &sb, ot_ok && t_ok ? ot : NULL, ref, ratio);
    if (c && json_is_false(json_object_get(c, "ok")))
        kc_sb_append(&sb, "; note: its outputs differ from the reference");
    kc_sb_appendf(&sb, " (%s)", j->env);
    set_verdict(j->d, status, kc_sb_str(&sb), j->ev);
    kc_sb_free(&sz);
    kc_sb_free(&sb);
}

/* Memory, overflow and races: what compute-sanitizer's memcheck (racecheck
 * and synccheck) reported. */
static void judge_sanitizer(const judging *j)
{
    bool mem = j->kind != KC_VERIFY_RACE;
    /* An int32 offset overflows only past 2^31 elements, far beyond the
     * op's verify sizes: a clean run there says nothing about it. */
    const char *below = j->kind == KC_VERIFY_OVERFLOW
                            ? "an int32 offset overflows only past 2^31 elements, and the verify sizes stay far "
                              "below that; "
                            : "";
    const char *tools[2] = {mem ? "memcheck" : "racecheck", mem ? NULL : "synccheck"};
    json_t *runs[2] = {find_exp(j->doc, tools[0], "original", -1),
                       tools[1] ? find_exp(j->doc, tools[1], "original", -1) : NULL};
    kc_strbuf sb = {0};
    if (!runs[0] && !runs[1]) {
        json_t *c = find_exp(j->doc, "correctness", "original", -1);
        bool ok = c && json_is_true(json_object_get(c, "ok"));
        if (*below)
            kc_sb_appendf(&sb, "%s%s", below,
                          ok ? "the outputs match the reference there" : "no sanitizer run for Triton kernels");
        else
            kc_sb_appendf(&sb, "compute-sanitizer runs are planned for CUDA harnesses only; %s",
                          ok ? "the outputs match the reference" : "no sanitizer run here");
        set_verdict(j->d, "inconclusive", kc_sb_str(&sb), j->ev);
        kc_sb_free(&sb);
        return;
    }
    long errors = 0;
    bool ran = false;
    kc_strbuf what = {0};
    for (int t = 0; t < 2; t++) {
        if (!runs[t])
            continue;
        json_object_set(j->ev, tools[t], runs[t]);
        json_t *n = json_object_get(runs[t], "sanitizer_error_count");
        if (!json_is_integer(n))
            continue;
        ran = true;
        errors += (long)json_integer_value(n);
        if (json_integer_value(n) > 0) {
            json_t *first = json_array_get(json_object_get(runs[t], "sanitizer_errors"), 0);
            kc_sb_appendf(&what, "%scompute-sanitizer %s: %lld error(s)%s%s", what.len ? "; " : "", tools[t],
                          (long long)json_integer_value(n), first ? ", first: " : "",
                          first ? json_string_value(first) : "");
        }
    }
    kc_strbuf sz = {0};
    sizes_text(runs[0] ? runs[0] : runs[1], &sz);
    if (!ran) {
        const char *e = json_string_value(json_object_get(runs[0] ? runs[0] : runs[1], "error"));
        kc_sb_appendf(&sb, "compute-sanitizer did not report: %s", e ? e : "no summary in its output");
        set_verdict(j->d, "inconclusive", kc_sb_str(&sb), j->ev);
    } else if (errors > 0) {
        kc_sb_appendf(&sb, "%s (at %s; %s)", kc_sb_str(&what), kc_sb_str(&sz), j->env);
        set_verdict(j->d, "confirmed", kc_sb_str(&sb), j->ev);
    } else {
        kc_sb_appendf(&sb, "%scompute-sanitizer %s%s%s reported nothing at %s (%s)", below, tools[0],
                      tools[1] ? " and " : "", tools[1] ? tools[1] : "", kc_sb_str(&sz), j->env);
        set_verdict(j->d, *below ? "inconclusive" : "not-reproduced", kc_sb_str(&sb), j->ev);
    }
    kc_sb_free(&what);
    kc_sb_free(&sz);
    kc_sb_free(&sb);
}

/* The driver died during an experiment (time limit, GPU fault): what the
 * experiments it did not finish say; NULL when it did not. Caller frees. */
static char *killed_during(json_t *doc)
{
    json_t *running = json_object_get(doc, "running");
    if (!json_is_object(running))
        return NULL;
    const char *killed = json_string_value(json_object_get(doc, "killed"));
    const char *rk = json_string_value(json_object_get(running, "kind"));
    char *during = rk && strcmp(rk, "setup") != 0
                       ? kc_xasprintf("during the %s experiment (%s copy)", rk,
                                      json_string_value(json_object_get(running, "variant")))
                       : kc_xstrdup("before its first experiment");
    char *died = kc_xasprintf("the run was killed %s: %s", during, killed ? killed : "time limit or GPU fault");
    free(during);
    return died;
}

/* Judges one diagnostic from a results document, by its rule's kind of
 * experiment. */
static void judge(kc_diag *d, int diag_index, json_t *doc, const char *why_missing, size_t unattributed)
{
    kc_strbuf env = {0};
    judging j = {.d = d, .diag_index = diag_index, .kind = kind_of(d), .doc = doc, .unattributed = unattributed};
    j.env = env_text(doc, &env);
    j.ev = json_object();
    json_object_set(j.ev, "env", json_object_get(doc, "env"));
    const char *fatal = json_string_value(json_object_get(doc, "fatal"));
    char *died = fatal ? NULL : killed_during(doc);
    j.why_missing = why_missing ? why_missing : died;
    if (fatal)
        set_verdict(d, "inconclusive", fatal, j.ev);
    else
        switch (j.kind) {
        case KC_VERIFY_COMPILE_ERROR:
            judge_compile_error(&j);
            break;
        case KC_VERIFY_WRONG_RESULT:
            judge_wrong_result(&j);
            break;
        case KC_VERIFY_PERF_RUNTIME:
        case KC_VERIFY_PERF_COMPILE:
            judge_perf(&j);
            break;
        case KC_VERIFY_MEMORY:
        case KC_VERIFY_RACE:
        case KC_VERIFY_OVERFLOW:
            judge_sanitizer(&j);
            break;
        case KC_VERIFY_NONE:
        default:
            set_verdict(d, "inconclusive", "this rule has no verify experiment yet", j.ev);
            break;
        }
    free(died);
    json_decref(j.ev);
    kc_sb_free(&env);
}

/* ---- plans ---- */

static int fixit_cmp(const void *a, const void *b)
{
    const kc_span *x = &((const kc_fixit *)a)->span, *y = &((const kc_fixit *)b)->span;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col;
}

/* Writes a copy of the user's file with the fix-its of the listed
 * diagnostics applied (edits that would overlap an earlier one are left
 * out); returns its path relative to the work directory. */
static char *write_fixed_copy(kc_verify_env *e, const kc_file_result *r, const kc_diag *diags, const int *idx, size_t n,
                              const char *ext)
{
    KC_VEC(kc_fixit) edits = {0};
    for (size_t i = 0; i < n; i++) {
        const kc_diag *d = &diags[idx[i]];
        for (uint32_t k = 0; k < d->fixes.len; k++)
            kc_vec_push(&edits, d->fixes.data[k]);
    }
    if (!edits.len) {
        kc_vec_free(&edits);
        return NULL;
    }
    /* In source order; an edit overlapping the one before is dropped. */
    qsort(edits.data, edits.len, sizeof(kc_fixit), fixit_cmp);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < edits.len; i++) {
        if (kept) {
            kc_span prev = edits.data[kept - 1].span, cur = edits.data[i].span;
            if (cur.line < prev.end_line || (cur.line == prev.end_line && cur.col < prev.end_col))
                continue;
        }
        edits.data[kept++] = edits.data[i];
    }
    edits.len = kept;
    char *err = NULL;
    size_t len;
    char *text = kc_fixit_apply(r->src, edits.data, edits.len, &len, &err);
    kc_vec_free(&edits);
    if (!text) {
        fprintf(e->err, "kcheck verify: %s: cannot apply the fix-its: %s\n", r->path, err);
        free(err);
        return NULL;
    }
    char *copy = kc_xstrdup(r->path);
    char *base = basename(copy);
    char *dot = strrchr(base, '.');
    if (dot)
        *dot = '\0';
    char *rel = kc_xasprintf("%s_fixed_%u%s", base, ++e->counter, ext);
    char *path = kc_xasprintf("%s/%s", e->workdir, rel);
    free(copy);
    bool ok = kc_write_file(path, text, len);
    free(text);
    free(path);
    if (!ok) {
        free(rel);
        return NULL;
    }
    return rel;
}

static void add_exp(json_t *exps, const char *kind, const char *variant, const char *module, int diag)
{
    json_t *x = json_object();
    json_object_set_new(x, "id", json_integer((json_int_t)json_array_size(exps)));
    json_object_set_new(x, "kind", json_string(kind));
    json_object_set_new(x, "variant", json_string(variant));
    if (module)
        json_object_set_new(x, "module", json_string(module));
    if (diag >= 0) {
        json_object_set_new(x, "diag", json_integer(diag));
        json_object_set_new(x, "with_reference", json_false());
    }
    json_array_append_new(exps, x);
}

static json_t *sizes_override(const kc_binding *b)
{
    json_t *o = json_object();
    if (!b->sizes)
        return o;
    char *copy = kc_xstrdup(b->sizes), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = '\0';
        while (*tok == ' ')
            tok++;
        json_object_set_new(o, tok, json_integer(strtoll(eq + 1, NULL, 10)));
    }
    free(copy);
    return o;
}

static bool copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return false;
    FILE *out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return false;
    }
    char buf[65536];
    size_t n;
    bool ok = true;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = ok && fwrite(buf, 1, n, out) == n;
    fclose(in);
    ok = fclose(out) == 0 && ok;
    return ok;
}

/* Copies regular files of a directory tree (the reference kernels). */
static void copy_tree(const char *from, const char *to, int depth)
{
    if (depth > 4)
        return;
    mkdir(to, 0755);
    DIR *d = opendir(from);
    if (!d)
        return;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.' || !strcmp(ent->d_name, "__pycache__"))
            continue;
        char *a = kc_xasprintf("%s/%s", from, ent->d_name), *b = kc_xasprintf("%s/%s", to, ent->d_name);
        struct stat st;
        if (stat(a, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                copy_tree(a, b, depth + 1);
            else if (S_ISREG(st.st_mode))
                copy_file(a, b);
        }
        free(a);
        free(b);
    }
    closedir(d);
}

/* The user's file as the plan names it: its absolute path, or a copy in
 * the exported bundle. */
static char *plan_user_file(kc_verify_env *e, const kc_file_result *r)
{
    if (!e->o->verify_export_dir) {
        char *abs = realpath(r->path, NULL);
        return abs ? abs : kc_xstrdup(r->path);
    }
    char *copy = kc_xstrdup(r->path);
    /* The copy's name goes into run.sh, plans and `#include "..."` lines:
     * only letters, digits, '.', '_' and '-'. */
    for (char *c = basename(copy); *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '.' && *c != '_' && *c != '-')
            *c = '_';
    char *rel = kc_xasprintf("src/%u_%s", ++e->counter, basename(copy));
    free(copy);
    char *dir = kc_xasprintf("%s/src", e->workdir), *dst = kc_xasprintf("%s/%s", e->workdir, rel);
    mkdir(dir, 0755);
    copy_file(r->path, dst);
    free(dir);
    free(dst);
    return rel;
}

static const char *plan_reference_dir(kc_verify_env *e)
{
    if (e->o->verify_export_dir) {
        if (!e->reference_copied) {
            char *to = kc_xasprintf("%s/reference", e->workdir);
            copy_tree(e->reference_dir, to, 0);
            free(to);
            e->reference_copied = true;
        }
        return "reference";
    }
    return e->reference_abs ? e->reference_abs : e->reference_dir;
}

/* How long one plan may run: the driver limits each experiment itself
 * (--timeout); this bounds the whole plan. */
double kc_verify_plan_limit(const kc_verify_env *e)
{
    return e->o->verify_timeout_s * (e->o->verify_no_run ? 2 : 4);
}

/* The experiments a binding's findings need. */
typedef struct plan_needs {
    bool compile, correct, timing, memcheck, race;
} plan_needs;

/* The CUDA part of a plan: the harness (harness_<id>.cu, including the
 * user's file) and its experiments. False with *why when the harness
 * cannot be generated. */
static bool plan_cuda(kc_verify_env *e, json_t *plan, json_t *exps, const kc_binding *b, const kc_opspec *spec,
                      const char *user, const char *ref, unsigned id, plan_needs need, char **why)
{
    char *harness = kc_xasprintf("harness_%u.cu", id);
    char *hpath = kc_xasprintf("%s/%s", e->workdir, harness);
    char *err = NULL;
    /* A header name cannot hold '"', '\\' or a newline: such a path is
     * included through a symbolic link in the work directory. */
    const char *inc = user;
    char *link = NULL;
    if (strpbrk(user, "\"\\\n")) {
        link = kc_xasprintf("%s/user_%u.cu", e->workdir, id);
        if (symlink(user, link) == 0)
            inc = link;
    }
    bool ok = kc_cuda_harness_write(hpath, spec, b, inc, ref, &err);
    free(link);
    free(hpath);
    if (!ok) {
        *why = kc_xasprintf("cannot generate the harness: %s", err);
        free(err);
        free(harness);
        return false;
    }
    json_object_set_new(plan, "lang", json_string("cuda"));
    json_object_set_new(plan, "harness", json_string(harness));
    json_object_set_new(plan, "arch", json_string(e->o->cuda_arch ? e->o->cuda_arch : "native"));
    json_t *dirs = json_array();
    if (!e->o->verify_export_dir) {
        char *d = kc_xstrdup(user);
        json_array_append_new(dirs, json_string(dirname(d)));
        free(d);
    }
    json_object_set_new(plan, "include_dirs", dirs);
    json_object_set(plan, "sizes", json_object_get(spec->root, "sizes"));
    free(harness);
    if (need.correct)
        add_exp(exps, "correctness", "original", NULL, -1);
    if (need.timing)
        add_exp(exps, "timing", "original", NULL, -1);
    if (need.memcheck)
        add_exp(exps, "memcheck", "original", NULL, -1);
    if (need.race) {
        add_exp(exps, "racecheck", "original", NULL, -1);
        add_exp(exps, "synccheck", "original", NULL, -1);
    }
    return true;
}

/* The experiments on fixed copies of a Triton file: each finding's own
 * fix-it applied alone, and the kernel with every other fix-it applied. */
static void plan_fixed_copies(kc_verify_env *e, json_t *exps, kc_file_result *r, const int *idx, size_t n)
{
    kc_diag *diags = r->diags.items.data;
    /* Each finding's own fix-it, applied alone: what this finding costs. */
    size_t nfixable = 0;
    bool perf_without_fix = false;
    for (size_t i = 0; i < n; i++) {
        kc_diag *d = &diags[idx[i]];
        kc_verify_kind k = kind_of(d);
        if (d->fixes.len)
            nfixable++;
        else if (is_perf(k))
            perf_without_fix = true;
        /* Memory and race findings are judged by compute-sanitizer, in
         * CUDA harnesses only: a fixed copy would measure nothing. */
        if (!d->fixes.len || (k != KC_VERIFY_COMPILE_ERROR && k != KC_VERIFY_WRONG_RESULT && !is_perf(k)))
            continue;
        char *fixed = write_fixed_copy(e, r, diags, &idx[i], 1, ".py");
        if (!fixed)
            continue;
        add_exp(exps,
                k == KC_VERIFY_COMPILE_ERROR ? "compile_error"
                : k == KC_VERIFY_WRONG_RESULT ? "correctness"
                                              : "timing",
                "fixed", fixed, idx[i]);
        free(fixed);
    }
    /* A finding without a fix-it is judged on the kernel with every
     * other fix-it applied: the cost that is left is what could be its
     * own (and a kernel that does not compile as written gets a chance
     * to run). */
    if (perf_without_fix && nfixable) {
        char *all = write_fixed_copy(e, r, diags, idx, n, ".py");
        if (all) {
            add_exp(exps, "timing", "others_fixed", all, -1);
            free(all);
        }
    }
}

/* The Triton part of a plan: the module, the call, the sizes and the
 * experiments, fixed copies included. */
static void plan_triton(kc_verify_env *e, json_t *plan, json_t *exps, kc_file_result *r, const kc_binding *b,
                        const kc_opspec *spec, const char *user, const char *ref, const int *idx, size_t n,
                        plan_needs need)
{
    json_object_set_new(plan, "lang", json_string("triton"));
    json_object_set_new(plan, "module", json_string(user));
    char *spec_rel = kc_xasprintf("%s/ops/%s.json", ref, kc_opspec_name(spec));
    json_object_set_new(plan, "spec", json_string(spec_rel));
    free(spec_rel);
    json_object_set_new(plan, "reference_dir", json_string(ref));
    json_object_set_new(plan, "call", json_string(b->call));
    json_object_set_new(plan, "seed", json_integer(1234));
    json_object_set_new(plan, "sizes_override", sizes_override(b));
    if (b->outputs) {
        /* outputs=a,b: the names the call knows the output buffers by */
        json_t *names = json_array();
        char *copy = kc_xstrdup(b->outputs), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            while (*tok == ' ')
                tok++;
            json_array_append_new(names, json_string(tok));
        }
        free(copy);
        json_object_set_new(plan, "output_names", names);
    }
    if (need.compile)
        add_exp(exps, "compile_error", "original", NULL, -1);
    if (need.timing)
        add_exp(exps, "timing", "original", NULL, -1); /* first: it measures the cold compile */
    if (need.correct)
        add_exp(exps, "correctness", "original", NULL, -1);
    plan_fixed_copies(e, exps, r, idx, n);
}

/* Builds the plan for one binding; writes it (and a CUDA harness) into the
 * work directory and returns the plan's file name, or NULL with *why. */
static char *write_plan(kc_verify_env *e, kc_file_result *r, const kc_binding *b, const kc_opspec *spec,
                        const int *idx, size_t n, char **why)
{
    kc_diag *diags = r->diags.items.data;
    bool cuda = r->kernels.len && r->kernels.data[0].lang == KC_LANG_CUDA;
    /* Every binding's outputs are compared with the reference: that is the
     * binding's own check, findings or not. */
    plan_needs need = {.correct = true};
    for (size_t i = 0; i < n; i++) {
        kc_verify_kind k = kind_of(&diags[idx[i]]);
        need.compile |= k == KC_VERIFY_COMPILE_ERROR;
        need.correct |= k == KC_VERIFY_WRONG_RESULT || is_perf(k);
        need.timing |= is_perf(k);
        need.memcheck |= k == KC_VERIFY_MEMORY || k == KC_VERIFY_OVERFLOW;
        need.race |= k == KC_VERIFY_RACE;
    }
    unsigned id = ++e->counter;
    json_t *plan = json_object();
    json_t *exps = json_array();
    char *user = plan_user_file(e, r);
    const char *ref = plan_reference_dir(e);
    json_object_set_new(plan, "file", json_string(r->path));
    json_object_set_new(plan, "binding_line", json_integer(b->line));
    json_object_set_new(plan, "op", json_string(kc_opspec_name(spec)));
    json_object_set_new(plan, "timeout_s", json_real(e->o->verify_timeout_s));
    json_object_set_new(plan, "plan_limit_s", json_real(kc_verify_plan_limit(e)));
    if (cuda) {
        if (!plan_cuda(e, plan, exps, b, spec, user, ref, id, need, why)) {
            free(user);
            json_decref(plan);
            json_decref(exps);
            return NULL;
        }
    } else {
        plan_triton(e, plan, exps, r, b, spec, user, ref, idx, n, need);
    }
    free(user);
    json_object_set_new(plan, "experiments", exps);
    char *name = kc_xasprintf("plan_%u.json", id);
    char *path = kc_xasprintf("%s/%s", e->workdir, name);
    if (json_dump_file(plan, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0) {
        *why = kc_xasprintf("cannot write %s", path);
        free(name);
        name = NULL;
    }
    free(path);
    json_decref(plan);
    return name;
}

/* ---- the driver of it all ---- */

/* The binding's own check, from its results: do the outputs match the
 * reference? */
static void record_check(kc_file_result *r, const kc_binding *b, json_t *doc, const char *why)
{
    kc_verify_check ck = {.line = b->line, .op = kc_xstrdup(b->op)};
    json_t *x = doc ? find_exp(doc, "correctness", "original", -1) : NULL;
    const char *fatal = doc ? json_string_value(json_object_get(doc, "fatal")) : NULL;
    kc_strbuf sb = {0}, env = {0};
    if (doc)
        env_text(doc, &env);
    if (!doc || fatal || !x) {
        ck.status = kc_xstrdup("inconclusive");
        kc_sb_append(&sb, fatal ? fatal : why ? why : "the correctness run did not happen");
    } else if (json_string_value(json_object_get(x, "error"))) {
        ck.status = kc_xstrdup("inconclusive");
        kc_sb_appendf(&sb, "the call failed: %s", json_string_value(json_object_get(x, "error")));
    } else {
        kc_strbuf sz = {0};
        sizes_text(x, &sz);
        if (describe_mismatch(x, &sb)) {
            ck.status = kc_xstrdup("mismatch");
            kc_sb_appendf(&sb, " (%s; %s)", kc_sb_str(&sz), kc_sb_str(&env));
        } else {
            ck.status = kc_xstrdup("clean");
            kc_sb_appendf(&sb, "outputs match the reference at %s (%s)", kc_sb_str(&sz), kc_sb_str(&env));
        }
        kc_sb_free(&sz);
    }
    ck.summary = kc_sb_take(&sb);
    kc_vec_push(&r->checks, ck);
    kc_sb_free(&env);
}

/* Plans one binding's experiments: the findings idx[0..n) (none: the
 * binding's own check). */
static void plan_job(kc_verify_env *e, kc_verify_job_vec *jobs, kc_file_result *r, const kc_binding *b, const int *idx,
                     size_t n)
{
    kc_verify_job j = {.r = r, .b = b, .n = n};
    if (n) {
        j.idx = kc_xcalloc(n, sizeof *j.idx);
        memcpy(j.idx, idx, n * sizeof *idx);
    }
    char *spec_path = kc_xasprintf("%s/ops/%s.json", e->reference_dir, b->op);
    char *err = NULL;
    kc_opspec *spec = kc_opspec_load(spec_path, &err);
    if (!spec)
        j.why = kc_xasprintf("unknown op `%s`: %s", b->op, err);
    else if (!e->workdir)
        j.why = kc_xstrdup(e->workdir_why ? e->workdir_why : "no work directory");
    else
        j.plan = write_plan(e, r, b, spec, idx, n, &j.why);
    free(err);
    free(spec_path);
    kc_opspec_delete(spec);
    kc_vec_push(jobs, j);
}

void kc_verify_plan_file(kc_verify_env *e, kc_file_result *r, kc_binding_list *bl, kc_verify_job_vec *jobs)
{
    size_t nd = r->diags.items.len;
    kc_bindings_parse(r->src, bl);
    for (uint32_t i = 0; i < bl->errors.len; i++)
        fprintf(e->err, "kcheck verify: %s: malformed binding, %s\n", r->path, bl->errors.data[i]);
    int *idx = kc_xcalloc(nd ? nd : 1, sizeof *idx);
    uint8_t *done = kc_xcalloc(nd ? nd : 1, 1);
    for (size_t i = 0; i < nd; i++) {
        kc_diag *d = &r->diags.items.data[i];
        if (kind_of(d) == KC_VERIFY_NONE) {
            set_verdict(d, "inconclusive", "this rule has no verify experiment yet", NULL);
            done[i] = 1;
        } else if (!kc_binding_for(bl, r, d->kernel)) {
            char *msg = kc_xasprintf("no `kcheck: verify op=... call=...` binding for kernel `%s` (docs/verify.md)",
                                     d->kernel ? d->kernel : "?");
            set_verdict(d, "inconclusive", msg, NULL);
            free(msg);
            done[i] = 1;
        }
    }
    for (size_t i = 0; i < nd; i++) {
        if (done[i])
            continue;
        const kc_binding *b = kc_binding_for(bl, r, r->diags.items.data[i].kernel);
        size_t n = 0;
        for (size_t j = i; j < nd; j++)
            if (!done[j] && kc_binding_for(bl, r, r->diags.items.data[j].kernel) == b) {
                idx[n++] = (int)j;
                done[j] = 1;
            }
        plan_job(e, jobs, r, b, idx, n);
    }
    /* Bindings no finding used: check the kernel's outputs. */
    for (uint32_t bi = 0; bi < bl->items.len; bi++) {
        const kc_binding *b = &bl->items.data[bi];
        bool used = false;
        for (size_t i = 0; i < nd && !used; i++)
            used = kc_binding_for(bl, r, r->diags.items.data[i].kernel) == b;
        if (!used)
            plan_job(e, jobs, r, b, NULL, 0);
    }
    free(idx);
    free(done);
}

void kc_verify_judge_job(kc_verify_job *j)
{
    kc_file_result *r = j->r;
    /* Rules whose performance findings no experiment can tell apart
     * (findings of one rule share their claim). */
    size_t unattributed = 0;
    bool any_fix = false;
    for (size_t k = 0; k < j->n; k++) {
        const kc_diag *d = &r->diags.items.data[j->idx[k]];
        any_fix |= d->fixes.len > 0;
        if (!is_perf(kind_of(d)) || d->fixes.len)
            continue;
        bool seen = false;
        for (size_t m = 0; m < k; m++) {
            const kc_diag *o = &r->diags.items.data[j->idx[m]];
            seen |= is_perf(kind_of(o)) && !o->fixes.len && !strcmp(o->rule_id, d->rule_id);
        }
        unattributed += !seen;
    }
    if (any_fix && r->kernels.len && r->kernels.data[0].lang == KC_LANG_TRITON)
        unattributed = 0; /* the others_fixed run separates them */
    record_check(r, j->b, j->doc, j->why);
    for (size_t k = 0; k < j->n; k++) {
        kc_diag *d = &r->diags.items.data[j->idx[k]];
        if (j->doc)
            judge(d, j->idx[k], j->doc, j->why, unattributed);
        else
            set_verdict(d, "inconclusive", j->why ? j->why : "no results", NULL);
    }
}
