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

struct kc_rule_ctx {
    const kc_rule *rule;
    const kc_options *opts;
    const kc_model *model;
    kc_diag_list *out;
};

kc_diag *kc_report(kc_rule_ctx *ctx, const kc_kernel *k, kc_span span, const char *fmt, ...)
{
    kc_diag *d = kc_diag_list_add(ctx->out);
    d->rule_id = ctx->rule->id;
    d->rule_slug = ctx->rule->slug;
    d->severity = ctx->rule->severity;
    d->span = span;
    d->kernel = k ? kc_xstrdup(k->name) : NULL;
    va_list ap;
    va_start(ap, fmt);
    d->message = kc_xvasprintf(fmt, ap);
    va_end(ap);
    return d;
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

void kc_rules_run(const kc_model *m, const kc_options *opts, kc_diag_list *out)
{
    unsigned lang_bit = 1u << m->lang;
    for (size_t i = 0; i < kc_rules_count(); i++) {
        const kc_rule *r = all_rules[i];
        if (!(r->langs & lang_bit))
            continue;
        if (opts->rule_enabled && !opts->rule_enabled[i])
            continue;
        kc_rule_ctx ctx = {.rule = r, .opts = opts, .model = m, .out = out};
        for (uint32_t k = 0; r->check && k < m->kernels.len; k++)
            r->check(m, m->kernels.data[k], &ctx);
        if (r->check_model)
            r->check_model(m, &ctx);
    }
}
