/* Verdicts: what the results documents of a binding's experiments say
 * about each of its findings (confirmed, not reproduced, inconclusive, and
 * why), and about the binding's own check of the kernel's outputs. */
#include "verify_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- verdict helpers ---- */

void kc_verify_set_verdict(kc_diag *d, const char *status, const char *summary, json_t *evidence)
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

kc_verify_kind kc_verify_kind_of(const kc_diag *d)
{
    const kc_rule *r = rule_of(d);
    return r ? r->verify : KC_VERIFY_NONE;
}

kc_verify_metric kc_verify_metric_of(const kc_diag *d)
{
    const kc_rule *r = rule_of(d);
    return r ? r->metric : KC_METRIC_NONE;
}

bool kc_verify_is_perf(kc_verify_kind k) { return k == KC_VERIFY_PERF_RUNTIME || k == KC_VERIFY_PERF_COMPILE; }

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

/* ---- judging a finding ---- */

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
    const char *path;        /* the finding's file (compute-sanitizer's reports name it) */
} judging;

/* A compile error: does the kernel compile (and with its fix-it)? */
static void judge_compile_error(const judging *j)
{
    json_t *x = find_exp(j->doc, "compile_error", "original", -1);
    json_t *fx = find_exp(j->doc, "compile_error", "fixed", j->diag_index);
    if (!x) {
        kc_verify_set_verdict(j->d, "inconclusive",
                              j->why_missing ? j->why_missing : "the compile experiment did not run", j->ev);
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
        kc_verify_set_verdict(j->d, "confirmed", kc_sb_str(&sb), j->ev);
    } else {
        kc_sb_appendf(&sb, "the kernel compiled and ran (%s)", j->env);
        kc_verify_set_verdict(j->d, "not-reproduced", kc_sb_str(&sb), j->ev);
    }
    kc_sb_free(&sb);
}

/* A wrong result: do the outputs differ from the reference (and match it
 * with the fix-it applied)? */
static void judge_wrong_result(const judging *j)
{
    json_t *x = find_exp(j->doc, "correctness", "original", -1);
    if (!x) {
        kc_verify_set_verdict(j->d, "inconclusive",
                              j->why_missing ? j->why_missing : "the correctness experiment did not run", j->ev);
        return;
    }
    json_object_set(j->ev, "original", x);
    kc_strbuf sb = {0};
    const char *e = json_string_value(json_object_get(x, "error"));
    if (e) {
        kc_sb_appendf(&sb, "the call failed: %s", e);
        kc_verify_set_verdict(j->d, "inconclusive", kc_sb_str(&sb), j->ev);
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
        kc_verify_set_verdict(j->d, "confirmed", kc_sb_str(&sb), j->ev);
    } else {
        kc_sb_appendf(&sb, "outputs match the reference at %s (%s); the hazard is real but did not show here",
                      kc_sb_str(&sz), j->env);
        kc_verify_set_verdict(j->d, "not-reproduced", kc_sb_str(&sb), j->ev);
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
        kc_verify_set_verdict(j->d, "inconclusive", kc_sb_str(&sb), j->ev);
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
    kc_verify_set_verdict(j->d, status, kc_sb_str(&sb), j->ev);
    kc_sb_free(&sz);
    kc_sb_free(&sb);
}

/* One tool's run: its error count, and where its log places them. */
typedef struct san_run {
    json_t *x;         /* the experiment, or NULL */
    long errors;       /* -1 when it gave no count */
    bool have_log;     /* the results keep its log, with source lines: reports can be placed */
    size_t here;       /* reports at the finding's lines */
    const kc_sanitizer_report *r;
    const kc_sanitizer_where *w;
    kc_sanitizer_report_vec reports;
} san_run;

static void san_read(const judging *j, json_t *x, san_run *s)
{
    *s = (san_run){.x = x, .errors = -1};
    if (!x)
        return;
    json_t *n = json_object_get(x, "sanitizer_error_count");
    /* a call that failed without a report ran nothing to judge */
    if (!json_is_integer(n) || (json_integer_value(n) == 0 && json_object_get(x, "error")))
        return;
    s->errors = (long)json_integer_value(n);
    const char *log = json_string_value(json_object_get(x, "sanitizer_log"));
    if (log && j->path) {
        kc_sanitizer_parse(log, strlen(log), &s->reports);
        /* reports can be placed only where they carry source lines (a
         * build without -lineinfo gives none: judged by the count) */
        for (uint32_t i = 0; i < s->reports.len && !s->have_log; i++)
            s->have_log = s->reports.data[i].where.len > 0;
        s->here = kc_sanitizer_at(&s->reports, j->path, j->d, &s->r, &s->w);
    }
}

/* Memory, overflow and races: what compute-sanitizer's memcheck (racecheck
 * and synccheck) reported, placed at the finding's line where the results
 * keep the log. */
static void judge_sanitizer(const judging *j)
{
    bool mem = j->kind != KC_VERIFY_RACE;
    /* An int32 offset overflows only past 2^31 elements, far beyond the
     * op's verify sizes: a clean run there says nothing about it, and a
     * report there is another fault. */
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
                          ok ? "the outputs match the reference there" : "no compute-sanitizer run in these results");
        else
            kc_sb_appendf(&sb, "no compute-sanitizer run in these results; %s",
                          ok ? "the outputs match the reference, which an access out of bounds need not change"
                             : "the outputs say nothing either");
        kc_verify_set_verdict(j->d, "inconclusive", kc_sb_str(&sb), j->ev);
        kc_sb_free(&sb);
        return;
    }
    san_run sr[2];
    long errors = 0;
    size_t here = 0;
    bool ran = false, placed = true;
    int at = -1; /* the first tool with a report at this line, else with any */
    for (int t = 0; t < 2; t++) {
        san_read(j, runs[t], &sr[t]);
        if (runs[t])
            json_object_set(j->ev, tools[t], runs[t]);
        if (sr[t].errors < 0)
            continue;
        ran = true;
        errors += sr[t].errors;
        here += sr[t].here;
        placed &= sr[t].have_log;
        if (sr[t].errors > 0 && (at < 0 || (!sr[at].here && sr[t].here)))
            at = t;
    }
    kc_strbuf sz = {0};
    sizes_text(runs[0] ? runs[0] : runs[1], &sz);
    const char *status = "inconclusive";
    if (!ran) {
        const char *e = json_string_value(json_object_get(runs[0] ? runs[0] : runs[1], "error"));
        kc_sb_appendf(&sb, "compute-sanitizer did not judge it: %s", e ? e : "no summary in its output");
    } else if (errors == 0) {
        kc_sb_appendf(&sb, "%scompute-sanitizer %s%s%s reported nothing at %s (%s)", below, tools[0],
                      tools[1] ? " and " : "", tools[1] ? tools[1] : "", kc_sb_str(&sz), j->env);
        status = *below ? "inconclusive" : "not-reproduced";
    } else {
        const san_run *s = &sr[at];
        kc_sb_appendf(&sb, "%scompute-sanitizer %s: %ld error(s)", below, tools[at], s->errors);
        if (s->here)
            kc_sb_appendf(&sb, "; %zu of the %u reports its log keeps at this line, the first: %s at %s:%u%s%s%s%s",
                          s->here, s->reports.len, s->r->what,
                          kc_base_name(s->w->file), s->w->line, s->w->function ? " in " : "",
                          s->w->function ? s->w->function : "", s->r->who ? ", " : "", s->r->who ? s->r->who : "");
        else if (placed && s->reports.len && s->reports.data[0].where.len)
            kc_sb_appendf(&sb, "; none of the %u reports its log keeps at this line, the first: %s at %s:%u",
                          s->reports.len, s->reports.data[0].what,
                          kc_base_name(s->reports.data[0].where.data[0].file), s->reports.data[0].where.data[0].line);
        else {
            json_t *first = json_array_get(json_object_get(s->x, "sanitizer_errors"), 0);
            kc_sb_appendf(&sb, "%s%s", first ? ", first: " : "", first ? json_string_value(first) : "");
        }
        kc_sb_appendf(&sb, " (at %s; %s)", kc_sb_str(&sz), j->env);
        if (*below)
            /* no offset wraps at these sizes: another fault of this kernel */
            kc_sb_append(&sb, "; no int32 offset can wrap at these sizes, so these are another fault (an index "
                              "out of bounds), not this one");
        else if (placed && !here)
            kc_sb_append(&sb, "; the reports are at other lines: another finding's, not this one");
        else
            status = "confirmed";
    }
    kc_verify_set_verdict(j->d, status, kc_sb_str(&sb), j->ev);
    for (int t = 0; t < 2; t++)
        kc_sanitizer_reports_free(&sr[t].reports);
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
static void judge(kc_diag *d, int diag_index, json_t *doc, const char *why_missing, size_t unattributed,
                  const char *path)
{
    kc_strbuf env = {0};
    judging j = {.d = d,
                 .diag_index = diag_index,
                 .kind = kc_verify_kind_of(d),
                 .doc = doc,
                 .unattributed = unattributed,
                 .path = path};
    j.env = env_text(doc, &env);
    j.ev = json_object();
    /* where the inputs came from (--run's verdicts say "recorded launch") */
    json_object_set_new(j.ev, "inputs", json_string("op spec"));
    json_object_set(j.ev, "env", json_object_get(doc, "env"));
    const char *fatal = json_string_value(json_object_get(doc, "fatal"));
    char *died = fatal ? NULL : killed_during(doc);
    j.why_missing = why_missing ? why_missing : died;
    if (fatal)
        kc_verify_set_verdict(d, "inconclusive", fatal, j.ev);
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
            kc_verify_set_verdict(d, "inconclusive", "this rule has no verify experiment yet", j.ev);
            break;
        }
    free(died);
    json_decref(j.ev);
    kc_sb_free(&env);
}

/* ---- judging a job ---- */

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
        if (!kc_verify_is_perf(kc_verify_kind_of(d)) || d->fixes.len)
            continue;
        bool seen = false;
        for (size_t m = 0; m < k; m++) {
            const kc_diag *o = &r->diags.items.data[j->idx[m]];
            seen |= kc_verify_is_perf(kc_verify_kind_of(o)) && !o->fixes.len && !strcmp(o->rule_id, d->rule_id);
        }
        unattributed += !seen;
    }
    if (any_fix && r->kernels.len && r->kernels.data[0].lang == KC_LANG_TRITON)
        unattributed = 0; /* the others_fixed run separates them */
    record_check(r, j->b, j->doc, j->why);
    /* A call that does not compile or fails in itself (a misspelled name,
     * wrong arguments) is the binding's mistake: an input error at its
     * line (exit status 2), besides the inconclusive verdicts. */
    const char *bad_call = j->doc ? json_string_value(json_object_get(j->doc, "binding_error")) : NULL;
    if (bad_call)
        kc_file_errors_add(&r->errors, j->b->line, 1, "verify binding (op=%s): %s", j->b->op, bad_call);
    for (size_t k = 0; k < j->n; k++) {
        kc_diag *d = &r->diags.items.data[j->idx[k]];
        if (j->doc)
            judge(d, j->idx[k], j->doc, j->why, unattributed, r->path);
        else
            kc_verify_set_verdict(d, "inconclusive", j->why ? j->why : "no results", NULL);
    }
}
