#include "rule_util.h"

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
    else if (l->trip_max > 0)
        snprintf(passes, sizeof passes, "at most %" PRId64 " passes: `%s` is divided each pass", l->trip_max,
                 l->var ? l->var : "its variable");
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

/* ---- shared memory --------------------------------------------------------- */

static bool atom_thread(const kc_atom *a) { return a->axes != 0 || (a->flags & KC_AF_THREAD) != 0; }

static int64_t gcd64(int64_t a, int64_t b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static bool mono_has_lane(const kc_mono *m)
{
    for (unsigned f = 0; f < m->nfac; f++)
        if (m->fac[f].kind == KC_ATOM_LANE)
            return true;
    return false;
}

const kc_index *kc_index_lane_part(kc_arena *a, const kc_index *x)
{
    if (!x)
        return NULL;
    const kc_index *sum = NULL;
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *m = &x->mono[i];
        if (!mono_has_lane(m))
            continue;
        const kc_index *t = kc_index_const(a, m->coef, m->bits, (kc_lane_space)x->space);
        for (unsigned f = 0; f < m->nfac && t; f++)
            t = kc_index_mul(a, t, kc_index_atom(a, m->fac[f], m->bits, (kc_lane_space)x->space, NULL));
        sum = sum ? kc_index_add(a, sum, t) : t;
        if (!sum)
            return NULL;
    }
    return sum;
}

/* Thread-dependent unknowns: loaded data or opaque terms that vary by thread. */
static bool thread_unknown(const kc_index *x)
{
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++) {
            const kc_atom *a = &x->mono[i].fac[f];
            if (a->kind == KC_ATOM_LANE)
                continue;
            if (atom_thread(a))
                return true;
        }
    return false;
}

static bool lanes_pure(const kc_index *x)
{
    for (unsigned i = 0; i < x->nmono; i++)
        if (mono_has_lane(&x->mono[i]) && x->mono[i].nfac != 1)
            return false;
    return true;
}

void kc_offset_delta_of(kc_arena *a, const kc_kernel *k, const kc_index *w, const kc_index *r, kc_offset_delta *out)
{
    memset(out, 0, sizeof *out);
    if (!w || !r)
        return;
    out->known = !thread_unknown(w) && !thread_unknown(r);
    out->lanes_pure = lanes_pure(w) && lanes_pure(r);
    out->w_uniform = out->r_uniform = true;
    for (unsigned i = 0; i < w->nmono; i++)
        if (mono_has_lane(&w->mono[i])) {
            out->w_uniform = false;
            if (w->mono[i].nfac == 1)
                out->lane_gcd = gcd64(out->lane_gcd, w->mono[i].coef);
        }
    for (unsigned i = 0; i < r->nmono; i++)
        if (mono_has_lane(&r->mono[i]))
            out->r_uniform = false;
    out->delta = kc_index_sub(a, r, w);
    if (!out->delta)
        return;
    out->lanes_equal = true;
    bool any_rest = false;
    for (unsigned i = 0; i < out->delta->nmono; i++) {
        if (mono_has_lane(&out->delta->mono[i]))
            out->lanes_equal = false;
        else
            any_rest = true;
    }
    out->rest_clean = true;
    if (!any_rest) {
        out->rest_zero = out->rest_const = true;
        return;
    }
    kc_mono tmp[KC_INDEX_MAX_MONOS];
    unsigned n = 0;
    for (unsigned i = 0; i < out->delta->nmono && n < KC_INDEX_MAX_MONOS; i++) {
        const kc_mono *m = &out->delta->mono[i];
        if (mono_has_lane(m))
            continue;
        tmp[n++] = *m;
        for (unsigned f = 0; f < m->nfac; f++) {
            const kc_atom *at = &m->fac[f];
            bool ok = at->kind == KC_ATOM_LOOP ||
                      (at->kind == KC_ATOM_SYMBOL && at->id < k->symbols.len &&
                       k->symbols.data[at->id].kind == KC_SYM_CONSTEXPR);
            if (!ok)
                out->rest_clean = false;
        }
    }
    kc_index *rest = kc_arena_alloc(a, sizeof *rest);
    *rest = *out->delta;
    kc_mono *ms = kc_arena_alloc(a, (n ? n : 1) * sizeof *ms);
    memcpy(ms, tmp, n * sizeof *ms);
    rest->mono = ms;
    rest->nmono = (uint16_t)n;
    out->rest = rest;
    out->rest_const = kc_index_is_const(rest, &out->rest_value);
    out->rest_zero = out->rest_const && out->rest_value == 0;
}

uint32_t kc_guard_thread_cond(const kc_kernel *k, uint32_t guard)
{
    unsigned hops = 0;
    for (uint32_t c = guard; c != KC_NONE && c < k->conds.len && hops++ < 100000; c = k->conds.data[c].parent) {
        kc_deps d = k->conds.data[c].deps;
        if (d.axes || (d.flags & KC_AF_THREAD))
            return c;
    }
    return KC_NONE;
}

bool kc_guard_has(const kc_kernel *k, uint32_t guard, uint32_t c)
{
    unsigned hops = 0;
    for (uint32_t g = guard; g != KC_NONE && g < k->conds.len && hops++ < 100000; g = k->conds.data[g].parent)
        if (g == c)
            return true;
    return false;
}

/* The block width that every launch of the kernel in this file gives, or -1. */
int64_t kc_launch_block_x(const kc_model *m, const kc_kernel *k)
{
    int64_t bx = -1;
    for (uint32_t i = 0; i < m->launches.len; i++) {
        const kc_launch *l = &m->launches.data[i];
        if (!l->kernel || strcmp(l->kernel, k->name) != 0)
            continue;
        if (l->block_dim[0] <= 0 || (bx > 0 && bx != l->block_dim[0]))
            return -1;
        bx = l->block_dim[0];
    }
    return bx;
}

int64_t kc_launch_block_dim(const kc_model *m, const kc_kernel *k, unsigned axis)
{
    int64_t b = -1;
    for (uint32_t i = 0; axis < 3 && i < m->launches.len; i++) {
        const kc_launch *l = &m->launches.data[i];
        if (!kc_launch_may_run(l, k))
            continue;
        if (l->block_dim[axis] <= 0 || (b > 0 && l->block_dim[axis] != b))
            return -1;
        b = l->block_dim[axis];
    }
    return b;
}

uint8_t kc_launch_unit_axes(const kc_model *m, const kc_kernel *k)
{
    uint8_t unit = 0;
    for (unsigned ax = 0; ax < 3; ax++)
        if (kc_launch_block_dim(m, k, ax) == 1)
            unit |= (uint8_t)(1u << ax);
    return unit;
}

uint32_t kc_index_symbol(const kc_index *x)
{
    if (!x || x->nmono != 1 || x->mono[0].coef != 1 || x->mono[0].nfac != 1 ||
        x->mono[0].fac[0].kind != KC_ATOM_SYMBOL)
        return KC_NONE;
    return x->mono[0].fac[0].id;
}

bool kc_index_has_atom(const kc_index *x, kc_atom_kind kind, uint32_t id)
{
    if (!x)
        return false;
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++)
            if (x->mono[i].fac[f].kind == kind && x->mono[i].fac[f].id == id)
                return true;
    return false;
}
