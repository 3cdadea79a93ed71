#include "kc_rule_util.h"

#include <inttypes.h>
#include <string.h>

kc_span kc_access_point(const kc_access *a)
{
    return kc_span_valid(a->addr_span) ? a->addr_span : a->span;
}

uint32_t kc_index_large_symbol(const kc_kernel *k, const kc_index *x)
{
    if (!x)
        return KC_NONE;
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *m = &x->mono[i];
        if (m->coef <= 0)
            continue;
        for (unsigned f = 0; f < m->nfac; f++) {
            const kc_atom *a = &m->fac[f];
            if (a->kind != KC_ATOM_SYMBOL || a->id >= k->symbols.len)
                continue;
            uint32_t facts = k->symbols.data[a->id].facts;
            if ((facts & (KC_SF_SIZE | KC_SF_OUTER_STRIDE)) && !(facts & KC_SF_INNER_STRIDE))
                return a->id;
        }
    }
    return KC_NONE;
}

const char *kc_loop_describe(kc_rule_ctx *ctx, const kc_kernel *k, const kc_loop *l)
{
    kc_arena *a = kc_rule_arena(ctx);
    static const char *const kinds[] = {"?", "for", "while", "range", "tl.range", "tl.static_range"};
    const char *kind = (unsigned)l->kind < 6 ? kinds[l->kind] : "?";
    char passes[160];
    if (l->trip_count >= 0)
        snprintf(passes, sizeof passes, "%" PRId64 " passes", l->trip_count);
    else if (l->trip_text)
        snprintf(passes, sizeof passes, "%s passes", l->trip_text);
    else
        snprintf(passes, sizeof passes, "an unknown number of passes");
    (void)k;
    if (l->var)
        return kc_arena_printf(a, "the loop over `%s` (%s, line %u; %s)", l->var, kind, l->span.line, passes);
    return kc_arena_printf(a, "the loop on line %u (%s; %s)", l->span.line, kind, passes);
}

const char *kc_symbol_evidence(kc_rule_ctx *ctx, const kc_kernel *k, uint32_t sym)
{
    if (sym >= k->symbols.len)
        return NULL;
    const kc_symbol *s = &k->symbols.data[sym];
    kc_arena *a = kc_rule_arena(ctx);
    if (s->size_evidence)
        return kc_arena_printf(a, "%s is a problem size: %s", s->name, s->size_evidence);
    if (s->facts & KC_SF_OUTER_STRIDE)
        return kc_arena_printf(a, "%s is an outer stride: the launch passes `%s`", s->name,
                               s->arg_text ? s->arg_text : "?");
    return NULL;
}
