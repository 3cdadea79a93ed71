/* Performance findings judged by Nsight Compute's per-source-line counters
 * on the user's own command (verify --run): the L2 sectors a global access
 * moved against those a coalesced access of the same bytes needs (KC101),
 * the shared-memory wavefronts against a conflict-free access's (KC103).
 * The counters come from kcheck_ncu.py's document (ncu-lines.json), which
 * reads the report of `ncu --section SourceCounters` run on the command. */
#include "verify_internal.h"

#include <string.h>

/* What a measured excess must reach to confirm a finding: half again the
 * ideal (a stride of 2 elements of 4 bytes already doubles the sectors). */
#define KC_NCU_CONFIRM_RATIO 1.5

/* The profiled kernel of the finding: same function name, and the same
 * file name where the report names one. */
static json_t *kernel_of(json_t *doc, const kc_file_result *r, const kc_diag *d)
{
    json_t *found = NULL;
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        if (strcmp(kc_json_str(k, "function"), d->kernel) != 0)
            continue;
        const char *f = kc_json_str(k, "file");
        if (*f && strcmp(kc_base_name(f), kc_base_name(r->path)) != 0)
            continue;
        found = k;
        if (json_is_true(json_object_get(k, "lineinfo")))
            break;
    }
    return found;
}

/* Each counter: its keys in kcheck_ncu.py's document and how a verdict
 * names it. */
static const struct metric_text {
    const char *key, *ideal_key; /* counted, and what the ideal access needs */
    const char *space, *unit, *ideal_access, *compared;
} metric_texts[] = {
    [KC_METRIC_GLOBAL_SECTORS] = {"global_sectors", "global_sectors_ideal", "global", "L2 sectors",
                                  "a coalesced access of the same bytes",
                                  "L2 sectors of the access against a coalesced access's"},
    [KC_METRIC_SHARED_WAVEFRONTS] = {"shared_wavefronts", "shared_wavefronts_ideal", "shared-memory", "wavefronts",
                                     "a conflict-free access",
                                     "shared-memory wavefronts against a conflict-free access's"},
};

static json_int_t num(json_t *o, const char *key) { return json_integer_value(json_object_get(o, key)); }

const char *kc_ncu_judge(json_t *doc, const char *why_none, const kc_file_result *r, const kc_diag *d, bool triton,
                         kc_strbuf *sb, json_t *ev)
{
    kc_verify_metric m = kc_verify_metric_of(d);
    if (m == KC_METRIC_NONE || (size_t)m >= sizeof metric_texts / sizeof *metric_texts || !d->kernel)
        return NULL;
    const struct metric_text *mt = &metric_texts[m];
    if (!doc) {
        if (!why_none)
            return NULL;
        kc_sb_appendf(sb, "Nsight Compute did not profile the command (%s)", why_none);
        return "inconclusive";
    }
    const char *err = kc_json_str(doc, "error");
    if (*err) {
        kc_sb_appendf(sb, "Nsight Compute's report of the command could not be read: %s", err);
        return "inconclusive";
    }
    json_t *k = kernel_of(doc, r, d);
    if (!k) {
        /* the first launch of every flagged kernel is profiled */
        size_t nk = json_array_size(json_object_get(doc, "kernels"));
        kc_sb_appendf(sb, "not executed by the command: Nsight Compute, profiling the first launch of each flagged "
                          "kernel, saw none of `%s` (%zu other kernel%s profiled)",
                      d->kernel, nk, nk == 1 ? "" : "s");
        return "inconclusive";
    }
    if (!json_is_true(json_object_get(k, "lineinfo"))) {
        kc_sb_appendf(sb, "Nsight Compute profiled `%s`, but its code has no line information: build it with "
                          "`-lineinfo` (nvcc) to see the counters at line %u",
                      d->kernel, d->span.line);
        return "inconclusive";
    }
    const char *key = mt->key;
    /* CUDA's line table names the access's own line; Triton's names the
     * line of the `tl.load(` / `tl.store(` call, at or above the argument */
    uint32_t hi = d->span.end_line >= d->span.line ? d->span.end_line : d->span.line;
    uint32_t lo = triton && d->span.line > 2 ? d->span.line - 2 : d->span.line;
    json_t *best = NULL;
    size_t i;
    json_t *ln;
    json_array_foreach(json_object_get(k, "lines"), i, ln) {
        json_int_t l = num(ln, "line");
        if (l < (json_int_t)lo || l > (json_int_t)hi || num(ln, key) <= 0)
            continue;
        if (!best || (triton ? l > num(best, "line") : num(ln, key) > num(best, key)))
            best = ln;
    }
    json_int_t launches = num(k, "launches");
    if (!best) {
        kc_sb_appendf(sb, "Nsight Compute profiled %lld launch%s of `%s`, and counted no %s access at line %u",
                      (long long)launches, launches == 1 ? "" : "es", d->kernel, mt->space, lo);
        if (hi != lo)
            kc_sb_appendf(sb, "-%u", hi);
        kc_sb_appendf(sb, " (the compiler may have moved or removed it)");
        return "inconclusive";
    }
    json_int_t v = num(best, key), ideal = num(best, mt->ideal_key);
    double ratio = ideal > 0 ? (double)v / (double)ideal : 0;
    json_object_set_new(ev, "inputs", json_string("the command's own launches, profiled"));
    json_object_set_new(ev, "compared", json_string(mt->compared));
    json_object_set_new(ev, "ncu", json_pack("{s:s,s:I,s:s,s:I,s:I,s:f,s:I}", "kernel", d->kernel, "line",
                                             num(best, "line"), "metric", key, "value", v, "ideal", ideal, "ratio",
                                             ratio, "launches", launches));
    kc_sb_appendf(sb, "Nsight Compute on the command (%lld launch%s of `%s`): the %s accesses at line %lld took %lld %s "
                      "where %s needs %lld (%.1fx)",
                  (long long)launches, launches == 1 ? "" : "es", d->kernel, mt->space, (long long)num(best, "line"),
                  (long long)v, mt->unit, mt->ideal_access, (long long)ideal, ratio);
    if (m == KC_METRIC_SHARED_WAVEFRONTS && num(best, "shared_conflict_ways") > 1)
        kc_sb_appendf(sb, ", %lld-way bank conflicts", (long long)num(best, "shared_conflict_ways"));
    return ideal > 0 && ratio >= KC_NCU_CONFIRM_RATIO ? "confirmed" : "not-reproduced";
}
