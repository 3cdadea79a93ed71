#include "kc_rule.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const kc_rule *const all_rules[] = {
#define KC_RULE(sym) &sym,
#include "rules.def"
#undef KC_RULE
};

size_t kc_rules_count(void) { return sizeof all_rules / sizeof all_rules[0]; }

const kc_rule *kc_rules_get(size_t i) { return i < kc_rules_count() ? all_rules[i] : NULL; }

const kc_rule *kc_rules_find(const char *id_or_slug, size_t *index)
{
    for (size_t i = 0; i < kc_rules_count(); i++) {
        const kc_rule *r = all_rules[i];
        if (strcasecmp(r->id, id_or_slug) == 0 || strcmp(r->slug, id_or_slug) == 0) {
            if (index)
                *index = i;
            return r;
        }
    }
    return NULL;
}

size_t kc_rules_index(const kc_rule *r)
{
    for (size_t i = 0; i < kc_rules_count(); i++)
        if (all_rules[i] == r)
            return i;
    return (size_t)-1;
}

bool kc_rules_enabled(const kc_options *o, size_t index)
{
    if (!o->rule_enabled || index >= o->rule_enabled_len)
        return true;
    return o->rule_enabled[index] != 0;
}

/* A diagnostic about an access: where the access is written, and whether
 * it was reached through an inlined device function (its span then the
 * call). */
typedef struct access_report {
    uint32_t index; /* in kc_rule_ctx.out */
    kc_span written, at; /* where the access is written; where it is reported */
    const kc_span *sites; /* the calls an inlined access is reached through */
    uint32_t nsites;
    bool inlined;
} access_report;

struct kc_rule_ctx {
    const kc_rule *rule;
    const kc_options *opts;
    const kc_model *model;
    kc_diag_list *out;
    KC_VEC(access_report) accesses;
    KC_VEC(uint32_t) dropped; /* kc_report_drop: removed when the rule is done */
};

uint32_t kc_report_next(kc_rule_ctx *ctx) { return ctx->out->items.len; }

kc_diag *kc_report_get(kc_rule_ctx *ctx, uint32_t i)
{
    return i < ctx->out->items.len ? &ctx->out->items.data[i] : NULL;
}

void kc_report_drop(kc_rule_ctx *ctx, uint32_t i) { kc_vec_push(&ctx->dropped, i); }

static kc_diag *vreport(kc_rule_ctx *ctx, const kc_kernel *k, kc_span span, const char *fmt, va_list ap)
{
    kc_diag *d = kc_diag_list_add(ctx->out);
    d->rule_id = ctx->rule->id;
    d->rule_slug = ctx->rule->slug;
    d->severity = ctx->rule->severity;
    d->span = span;
    d->kernel = k ? kc_xstrdup(k->name) : NULL;
    d->message = kc_xvasprintf(fmt, ap);
    kc_diag_one_line(d->message);
    return d;
}

kc_diag *kc_report(kc_rule_ctx *ctx, const kc_kernel *k, kc_span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kc_diag *d = vreport(ctx, k, span, fmt, ap);
    va_end(ap);
    return d;
}

kc_diag *kc_report_access(kc_rule_ctx *ctx, const kc_kernel *k, const kc_access *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kc_diag *d = vreport(ctx, k, kc_access_point(a), fmt, ap);
    va_end(ap);
    bool inl = kc_span_valid(a->origin) && !kc_span_same(a->origin, a->span);
    access_report r = {.index = ctx->out->items.len - 1,
                       .written = inl ? a->origin : a->span,
                       .at = kc_access_point(a),
                       .sites = a->sites,
                       .nsites = a->nsites,
                       .inlined = inl};
    kc_vec_push(&ctx->accesses, r);
    return d;
}

/* Is report `y` the one inlined report `x` repeats: of the same access as
 * written, made by the function that writes it (not inlined there), or by
 * a device function whose call `x` is reached through (`y` is reported at
 * its own call of the helper, one of the calls on `x`'s way)? Two device
 * functions that both inline one helper report it each, at their calls. */
static bool repeats(const access_report *x, const access_report *y)
{
    if (x == y || !x->inlined || !kc_span_same(y->written, x->written))
        return false;
    if (!y->inlined)
        return true;
    for (uint32_t s = 1; s < x->nsites; s++)
        if (kc_span_valid(x->sites[s]) && kc_span_same(x->sites[s], y->at))
            return true;
    return false;
}

/* An access inlined from a device function whose own model reports the
 * same rule is reported once, by that function: the call sites would
 * repeat it in every kernel that calls the function. And the reports the
 * rule dropped itself (kc_report_drop) go. */
static void drop_inlined_repeats(kc_rule_ctx *ctx)
{
    kc_diag_list *l = ctx->out;
    uint32_t n = ctx->accesses.len, dropped = 0;
    bool *drop = n || ctx->dropped.len ? kc_xcalloc(l->items.len ? l->items.len : 1, sizeof *drop) : NULL;
    for (uint32_t i = 0; i < ctx->dropped.len; i++)
        if (ctx->dropped.data[i] < l->items.len && !drop[ctx->dropped.data[i]]) {
            drop[ctx->dropped.data[i]] = true;
            dropped++;
        }
    for (uint32_t i = 0; i < n; i++) {
        const access_report *x = &ctx->accesses.data[i];
        for (uint32_t j = 0; x->inlined && j < n && !drop[x->index]; j++) {
            const access_report *y = &ctx->accesses.data[j];
            if (repeats(x, y)) {
                drop[x->index] = true;
                dropped++;
            }
        }
    }
    if (dropped) {
        uint32_t w = 0;
        for (uint32_t i = 0; i < l->items.len; i++) {
            if (drop[i])
                kc_diag_dispose(&l->items.data[i]);
            else
                l->items.data[w++] = l->items.data[i];
        }
        l->items.len = w;
    }
    free(drop);
    kc_vec_free(&ctx->accesses);
    kc_vec_free(&ctx->dropped);
}

int64_t kc_rule_option_int(kc_rule_ctx *ctx, const char *name, int64_t def)
{
    const char *v = kc_options_rule_option(ctx->opts, ctx->rule->id, name);
    if (!v)
        return def;
    char *end;
    long long x = strtoll(v, &end, 10);
    return (*v && !*end) ? (int64_t)x : def;
}

kc_arena *kc_rule_arena(kc_rule_ctx *ctx) { return ctx->model->arena; }

const char *kc_rule_span_text(kc_rule_ctx *ctx, kc_span span)
{
    const kc_source *src = ctx->model->src;
    if (!kc_span_valid(span) || !src)
        return "";
    size_t a = kc_source_offset(src, span.line, span.col);
    size_t b = kc_source_offset(src, span.end_line, span.end_col);
    if (b < a)
        b = a;
    return kc_arena_strndup(ctx->model->arena, src->text + a, b - a);
}

/* Findings out->items[from..) of a rule that judges code: those in a
 * function nothing in its repository names (kc_kernel.unreferenced, or
 * kc_host_fn.unreferenced for one in host code inside it), or in a file
 * no build file compiles (kc_model.unbuilt), are notes that say so (k NULL: the diagnostic's kernel, by name). The rules about
 * kcheck's own input (KC0xx) are left as they are. */
static void demote_unreferenced(const kc_rule *r, const kc_model *m, const kc_kernel *k, kc_diag_list *out,
                                uint32_t from)
{
    if (strncmp(r->id, "KC0", 3) == 0)
        return;
    for (uint32_t i = from; i < out->items.len; i++) {
        kc_diag *d = &out->items.data[i];
        const kc_kernel *dk = k;
        for (uint32_t j = 0; !dk && d->kernel && j < m->kernels.len; j++)
            if (m->kernels.data[j]->unreferenced && m->kernels.data[j]->name &&
                strcmp(m->kernels.data[j]->name, d->kernel) == 0)
                dk = m->kernels.data[j];
        const char *why = dk ? dk->unreferenced : NULL;
        /* a finding in host code (a launch, a runtime call) inside a
         * function of the host that nothing calls */
        for (uint32_t j = 0; !why && j < m->host_fns.len; j++) {
            const kc_host_fn *h = &m->host_fns.data[j];
            if (h->unreferenced && kc_span_inside(d->span, h->span))
                why = h->unreferenced;
        }
        /* a file no build file of its repository compiles */
        if (!why)
            why = m->unbuilt;
        /* code in a preprocessor branch the run could not decide */
        for (uint32_t j = 0; !why && j < m->unsure_code.len; j++)
            if (d->span.line >= m->unsure_code.data[j].span.line &&
                d->span.line <= m->unsure_code.data[j].span.end_line)
                why = m->unsure_code.data[j].why;
        if (!why || d->severity == KC_SEV_NOTE)
            continue;
        d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "reported as a note: %s", why);
    }
}

typedef struct spec_key {
    uint32_t line, col, index;
    const char *kernel;
} spec_key;

static int spec_key_cmp(const void *x, const void *y)
{
    const spec_key *a = x, *b = y;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    int c = strcmp(a->kernel, b->kernel);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* Findings out->items[from..) of one rule at one place of a kernel that the
 * model holds several specializations of (a template lowered once per set
 * of template arguments) whose messages differ only by those arguments'
 * values (`fully unrolls 34 iterations`, `36`, ...): one finding, the most
 * severe, with a note counting the others. Identical ones are left to
 * kc_diag_list_sort_unique. */
static void merge_specializations(const kc_model *m, kc_diag_list *out, uint32_t from)
{
    bool twice = false;
    for (uint32_t i = 1; i < m->kernels.len && !twice; i++)
        twice = m->kernels.data[i]->name && m->kernels.data[i - 1]->name &&
                strcmp(m->kernels.data[i]->name, m->kernels.data[i - 1]->name) == 0;
    uint32_t n = out->items.len - from;
    if (!twice || n < 2)
        return;
    spec_key *keys = kc_xcalloc(n, sizeof *keys);
    uint32_t nk = 0;
    for (uint32_t i = from; i < out->items.len; i++)
        if (out->items.data[i].kernel)
            keys[nk++] = (spec_key){out->items.data[i].span.line, out->items.data[i].span.col, i,
                                    out->items.data[i].kernel};
    qsort(keys, nk, sizeof *keys, spec_key_cmp);
    bool *drop = kc_xcalloc(out->items.len, sizeof *drop);
    for (uint32_t a = 0; a < nk;) {
        uint32_t b = a + 1;
        while (b < nk && keys[b].line == keys[a].line && keys[b].col == keys[a].col &&
               strcmp(keys[b].kernel, keys[a].kernel) == 0)
            b++;
        uint32_t keep = keys[a].index, others = 0;
        for (uint32_t j = a + 1; j < b; j++)
            if (out->items.data[keys[j].index].severity > out->items.data[keep].severity)
                keep = keys[j].index;
        for (uint32_t j = a; j < b; j++) {
            kc_diag *d = &out->items.data[keys[j].index];
            if (keys[j].index == keep || strcmp(d->message, out->items.data[keep].message) == 0)
                continue;
            drop[keys[j].index] = true;
            others++;
        }
        if (others)
            kc_diag_note(&out->items.data[keep],
                         "other specializations of `%s` give this finding here with other values (%u more): one "
                         "finding for them all",
                         keys[a].kernel, others);
        a = b;
    }
    uint32_t w = from;
    for (uint32_t i = from; i < out->items.len; i++) {
        if (drop[i])
            kc_diag_dispose(&out->items.data[i]);
        else
            out->items.data[w++] = out->items.data[i];
    }
    out->items.len = w;
    free(drop);
    free(keys);
}

/* A template kernel that every launch of the file instantiates with
 * integral arguments the model lowered (`k<8, 16>`, `k<16, 16>`) is judged
 * by those instantiations: the template itself, analysed with its
 * parameters unknown, stands only for instantiations the model does not
 * hold (launched elsewhere, past the cap on specializations, with
 * arguments kcheck cannot read), and here there are none. */
static bool judged_by_instantiations(const kc_model *m, const kc_kernel *k)
{
    if (k->ntargs || !k->name || k->is_device_function)
        return false;
    bool any = false;
    for (uint32_t i = 0; i < m->kernels.len && !any; i++) {
        const kc_kernel *d = m->kernels.data[i];
        any = d != k && d->ntargs && d->name && strcmp(d->name, k->name) == 0 && d->span.end_line == k->span.end_line;
    }
    if (!any)
        return false;
    bool launched = false;
    for (uint32_t l = 0; l < m->launches.len; l++) {
        const kc_launch *L = &m->launches.data[l];
        if (!L->kernel || strcmp(L->kernel, k->name) != 0)
            continue;
        launched = true;
        if (!L->ntargs)
            return false;
        bool lowered = false;
        for (uint32_t i = 0; i < m->kernels.len && !lowered; i++) {
            const kc_kernel *d = m->kernels.data[i];
            lowered = d != k && d->ntargs && kc_launch_may_run(L, d) && d->span.end_line == k->span.end_line;
        }
        if (!lowered)
            return false;
    }
    return launched;
}

void kc_rules_run(const kc_model *m, const kc_options *opts, kc_diag_list *out)
{
    unsigned lang_bit = 1u << m->lang;
    bool *judged = kc_xcalloc(m->kernels.len ? m->kernels.len : 1, sizeof *judged);
    for (uint32_t k = 0; k < m->kernels.len; k++)
        judged[k] = judged_by_instantiations(m, m->kernels.data[k]);
    for (size_t i = 0; i < kc_rules_count(); i++) {
        const kc_rule *r = all_rules[i];
        if (!(r->langs & lang_bit))
            continue;
        if (opts->rule_enabled && !opts->rule_enabled[i])
            continue;
        kc_rule_ctx ctx = {.rule = r, .opts = opts, .model = m, .out = out};
        uint32_t rule_from = out->items.len;
        for (uint32_t k = 0; r->check && k < m->kernels.len; k++) {
            /* the rules about kcheck's own input (KC0xx) still see it */
            if (judged[k] && strncmp(r->id, "KC0", 3) != 0)
                continue;
            uint32_t from = out->items.len;
            r->check(m, m->kernels.data[k], &ctx);
            demote_unreferenced(r, m, m->kernels.data[k], out, from);
        }
        if (r->check_model) {
            uint32_t from = out->items.len;
            r->check_model(m, &ctx);
            demote_unreferenced(r, m, NULL, out, from);
        }
        drop_inlined_repeats(&ctx);
        merge_specializations(m, out, rule_from);
    }
    free(judged);
}
