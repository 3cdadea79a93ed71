#include "rule_util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int64_t kc_loop_passes_at_most(const kc_loop *l)
{
    return l->trip_count >= 0 ? l->trip_count : l->trip_max > 0 ? l->trip_max : -1;
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
    else if (l->one_pass)
        snprintf(passes, sizeof passes, "at most one pass: its body ends in `break`");
    else if (l->trip_max > 0 && l->shrinks)
        snprintf(passes, sizeof passes, "at most %" PRId64 " passes: `%s` is divided each pass", l->trip_max,
                 l->var ? l->var : "its variable");
    else if (l->trip_max > 0)
        snprintf(passes, sizeof passes, "at most %" PRId64 " passes", l->trip_max);
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

const kc_index *kc_index_lane_part(kc_arena *a, const kc_index *x)
{
    if (!x)
        return NULL;
    const kc_index *sum = NULL;
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *m = &x->mono[i];
        if (!kc_mono_has_kind(m, KC_ATOM_LANE))
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
        if (kc_mono_has_kind(&x->mono[i], KC_ATOM_LANE) && x->mono[i].nfac != 1)
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
        if (kc_mono_has_kind(&w->mono[i], KC_ATOM_LANE)) {
            out->w_uniform = false;
            if (w->mono[i].nfac == 1)
                out->lane_gcd = gcd64(out->lane_gcd, w->mono[i].coef);
        }
    for (unsigned i = 0; i < r->nmono; i++)
        if (kc_mono_has_kind(&r->mono[i], KC_ATOM_LANE))
            out->r_uniform = false;
    out->delta = kc_index_sub(a, r, w);
    if (!out->delta)
        return;
    out->lanes_equal = true;
    bool any_rest = false;
    for (unsigned i = 0; i < out->delta->nmono; i++) {
        if (kc_mono_has_kind(&out->delta->mono[i], KC_ATOM_LANE))
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
        if (kc_mono_has_kind(m, KC_ATOM_LANE))
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

/* The condition on `guard`'s chain that picks some programs of the grid
 * by their ids (`blockIdx.x == 0`, `pid == 0`, `i == 0` for a global
 * thread index), not by loaded data (the last block of a ticket counter);
 * KC_NONE when none. */
uint32_t kc_guard_program_pick(const kc_kernel *k, uint32_t guard)
{
    uint32_t hops = 0;
    for (uint32_t c = guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        if (cd->negated || (cd->deps.flags & KC_AF_DATA) || !(cd->deps.flags & KC_AF_PROGRAM))
            continue;
        for (uint32_t p = 0; p < cd->npreds; p++) {
            const kc_pred *pr = &cd->preds[p];
            int64_t v;
            if (pr->op == KC_CMP_EQ && pr->lhs && pr->rhs && kc_index_is_const(pr->rhs, &v) &&
                (kc_index_deps(pr->lhs).flags & KC_AF_PROGRAM) && !(kc_index_deps(pr->lhs).flags & KC_AF_DATA))
                return c;
        }
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

/* The block width that every launch of the kernel in this file gives, or
 * -1 (of this instantiation, for one: `block(NT, NT)` launching `k<T, 8>`
 * says nothing of `k<T, 32>`). */
int64_t kc_launch_block_x(const kc_model *m, const kc_kernel *k) { return kc_launch_block_dim(m, k, 0); }

/* Does kernel K run code of device function d (an access or a barrier of
 * it, inlined)? */
static bool runs_device_function(const kc_kernel *K, const kc_kernel *d)
{
    for (uint32_t i = 0; i < K->accesses.len; i++)
        if (kc_span_valid(K->accesses.data[i].origin) && kc_span_inside(K->accesses.data[i].origin, d->span))
            return true;
    for (uint32_t i = 0; i < K->barriers.len; i++)
        if (kc_span_valid(K->barriers.data[i].origin) && kc_span_inside(K->barriers.data[i].origin, d->span))
            return true;
    return false;
}

static int64_t own_block_dim(const kc_model *m, const kc_kernel *k, unsigned axis)
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

int64_t kc_launch_block_dim(const kc_model *m, const kc_kernel *k, unsigned axis)
{
    if (!k->is_device_function)
        return own_block_dim(m, k, axis);
    /* a __device__ function runs in the blocks of the kernels that call it */
    int64_t b = -1;
    for (uint32_t i = 0; i < m->kernels.len; i++) {
        const kc_kernel *K = m->kernels.data[i];
        if (K == k || K->is_device_function || !runs_device_function(K, k))
            continue;
        int64_t kb = own_block_dim(m, K, axis);
        if (kb <= 0 || (b > 0 && kb != b))
            return -1;
        b = kb;
    }
    return b;
}

int64_t kc_block_dim_bound(const kc_model *m, const kc_kernel *k, unsigned axis)
{
    int64_t b = kc_launch_block_dim(m, k, axis);
    return b > 0 ? b : axis == 2 ? 64 : 1024;
}

uint8_t kc_launch_unit_axes(const kc_model *m, const kc_kernel *k)
{
    uint8_t unit = 0;
    for (unsigned ax = 0; ax < 3; ax++)
        if (kc_launch_block_dim(m, k, ax) == 1)
            unit |= (uint8_t)(1u << ax);
    return unit;
}

bool kc_text_has_word(const char *text, const char *w, size_t n)
{
    for (const char *p = text; n && p && (p = strstr(p, w)) != NULL; p++) {
        bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (left && right)
            return true;
    }
    return false;
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

const kc_launch_arg *kc_launch_arg_for(const kc_kernel *k, const kc_launch *L, const kc_param *p)
{
    uint32_t pi = (uint32_t)(p - k->params.data);
    for (uint32_t j = 0; j < L->args.len; j++)
        if (L->args.data[j].param && strcmp(L->args.data[j].param, p->name) == 0)
            return &L->args.data[j];
    return pi < L->args.len && !L->args.data[pi].param ? &L->args.data[pi] : NULL;
}

/* ---- grid-stride loops the launch makes one pass ---- */

/* Is x exactly one monomial of coefficient 1 whose factors are the
 * atoms of kinds k0 (and k1, unless 0) of axis ax? */
static bool mono_is(const kc_mono *mo, kc_atom_kind k0, kc_atom_kind k1, uint32_t ax)
{
    unsigned want = k1 ? 2u : 1u;
    if (mo->coef != 1 || mo->nfac != want)
        return false;
    for (unsigned f = 0; f < mo->nfac; f++) {
        const kc_atom *t = &mo->fac[f];
        if (t->id != ax || (t->kind != k0 && t->kind != k1))
            return false;
    }
    return mo->nfac == 1 || mo->fac[0].kind != mo->fac[1].kind;
}

/* The grid-stride form of loop l along axis *ax: 1 for `i = blockIdx.a;
 * i += gridDim.a`, 2 for `i = blockIdx.a * blockDim.a + threadIdx.a; i +=
 * blockDim.a * gridDim.a`, 0 for neither. */
static int grid_stride_form(const kc_loop *l, uint32_t *ax)
{
    const kc_index *s = l->start, *st = l->step;
    if (!s || !st || st->nmono != 1 || !st->mono[0].nfac)
        return 0;
    *ax = st->mono[0].fac[0].id;
    if (*ax > 2)
        return 0;
    if (s->nmono == 1 && mono_is(&s->mono[0], KC_ATOM_PROGRAM, 0, *ax) &&
        mono_is(&st->mono[0], KC_ATOM_GRID_DIM, 0, *ax))
        return 1;
    if (s->nmono != 2 || !mono_is(&st->mono[0], KC_ATOM_BLOCK_DIM, KC_ATOM_GRID_DIM, *ax))
        return 0;
    for (unsigned i = 0; i < 2; i++)
        if (mono_is(&s->mono[i], KC_ATOM_PROGRAM, KC_ATOM_BLOCK_DIM, *ax) &&
            mono_is(&s->mono[1 - i], KC_ATOM_LANE, 0, *ax))
            return 2;
    return 0;
}

/* Text without blanks and without parentheses around the whole of it,
 * into buf (false when it does not fit). */
static bool squeeze(const char *t, char *buf, size_t cap)
{
    size_t n = 0;
    for (; t && *t; t++)
        if (*t != ' ' && *t != '\t' && *t != '\n') {
            if (n + 1 >= cap)
                return false;
            buf[n++] = *t;
        }
    buf[n] = 0;
    while (n >= 2 && buf[0] == '(' && buf[n - 1] == ')') {
        int depth = 0;
        size_t i;
        for (i = 0; i < n - 1; i++) {
            depth += buf[i] == '(' ? 1 : buf[i] == ')' ? -1 : 0;
            if (depth == 0)
                break;
        }
        if (i != n - 1)
            break;
        memmove(buf, buf + 1, n - 2);
        n -= 2;
        buf[n] = 0;
    }
    return n > 0;
}

/* Is squeezed text `b` the block size: the launch's block as written, or
 * the constant its x (axis) size is? */
static bool is_block_text(const kc_launch *L, unsigned ax, const char *b)
{
    char blk[128];
    if (ax == 0 && L->block_text && squeeze(L->block_text, blk, sizeof blk) && strcmp(blk, b) == 0)
        return true;
    char *end;
    long long v = strtoll(b, &end, 10);
    return *end == 0 && L->block_dim[ax] > 0 && v == L->block_dim[ax];
}

/* Is squeezed grid text g the rounded-up division of n by the block:
 * `(n+B-1)/B`, `(n+(B-1))/B`, or `f(n,B)` with f named for it (`DIVUP`,
 * `ceil_div`, `cdiv`, `div_round_up`)? */
static bool rounds_up_over(const kc_launch *L, unsigned ax, const char *g, const char *n)
{
    size_t ln = strlen(n), lg = strlen(g);
    const char *open = strchr(g, '(');
    if (open && open > g && g[lg - 1] == ')') {
        char name[64];
        size_t nl = (size_t)(open - g);
        if (nl >= sizeof name)
            return false;
        for (size_t i = 0; i < nl; i++)
            name[i] = (char)(g[i] >= 'A' && g[i] <= 'Z' ? g[i] - 'A' + 'a' : g[i]);
        name[nl] = 0;
        const char *base = strrchr(name, ':') ? strrchr(name, ':') + 1 : name;
        bool named = strstr(base, "divup") || strstr(base, "div_up") || strstr(base, "ceil_div") ||
                     strstr(base, "ceildiv") || strcmp(base, "cdiv") == 0 || strstr(base, "div_round_up") ||
                     strstr(base, "divroundup");
        if (named && strncmp(open + 1, n, ln) == 0 && open[1 + ln] == ',') {
            char b[64];
            size_t bl = lg - (size_t)(open + 2 + ln - g) - 1;
            if (bl == 0 || bl >= sizeof b)
                return false;
            memcpy(b, open + 2 + ln, bl);
            b[bl] = 0;
            return is_block_text(L, ax, b);
        }
    }
    const char *slash = strrchr(g, '/');
    if (!slash || slash == g)
        return false;
    const char *b = slash + 1;
    char num[256];
    size_t nl = (size_t)(slash - g);
    if (nl >= sizeof num)
        return false;
    memcpy(num, g, nl);
    num[nl] = 0;
    char sq[256];
    if (!squeeze(num, sq, sizeof sq) || strncmp(sq, n, ln) != 0 || sq[ln] != '+' || !is_block_text(L, ax, b))
        return false;
    char want1[160], want2[160];
    snprintf(want1, sizeof want1, "%s-1", b);
    snprintf(want2, sizeof want2, "(%s-1)", b);
    if (strcmp(sq + ln + 1, want1) == 0 || strcmp(sq + ln + 1, want2) == 0)
        return true;
    /* a constant block: `(n + 255) / 256` */
    char *e1, *e2;
    long long bv = strtoll(b, &e1, 10), less = strtoll(sq + ln + 1, &e2, 10);
    return *e1 == 0 && *e2 == 0 && e2 != sq + ln + 1 && bv > 0 && less == bv - 1;
}

bool kc_launch_block_x_is_arg(const kc_model *m, const kc_kernel *k, const kc_param *p)
{
    bool any = false;
    for (uint32_t i = 0; i < m->launches.len; i++) {
        const kc_launch *L = &m->launches.data[i];
        if (!kc_launch_may_run(L, k))
            continue;
        const kc_launch_arg *arg = kc_launch_arg_for(k, L, p);
        char bt[160], at[160];
        bool same = arg && arg->text && L->block_text && squeeze(L->block_text, bt, sizeof bt) &&
                    squeeze(arg->text, at, sizeof at) && strcmp(bt, at) == 0;
        if (!same && !(arg && arg->has_value && L->block_dim[0] > 0 && L->block_dim[1] <= 1 &&
                       L->block_dim[2] <= 1 && arg->value == L->block_dim[0]))
            return false;
        any = true;
    }
    return any;
}

bool kc_loop_one_pass_per_thread(const kc_model *m, const kc_kernel *k, const kc_loop *l)
{
    /* `while (true) { ...; break; }`, `for (i = 0; i < 1; i++)` */
    if (l->one_pass || l->trip_count == 0 || l->trip_count == 1)
        return true;
    uint32_t ax = 0;
    int form = k->lang == KC_LANG_CUDA ? grid_stride_form(l, &ax) : 0;
    uint32_t sym = form ? kc_index_symbol(l->end) : KC_NONE;
    if (sym >= k->symbols.len || k->symbols.data[sym].param >= k->params.len)
        return false;
    const kc_param *p = &k->params.data[k->symbols.data[sym].param];
    bool any = false;
    for (uint32_t i = 0; i < m->launches.len; i++) {
        const kc_launch *L = &m->launches.data[i];
        if (!kc_launch_may_run(L, k))
            continue;
        const kc_launch_arg *arg = kc_launch_arg_for(k, L, p);
        const kc_grid_axis *g = &L->grid[ax];
        char gt[256], at[160];
        if (!arg || !arg->text || !g->text || !squeeze(g->text, gt, sizeof gt) || !squeeze(arg->text, at, sizeof at))
            return false;
        bool ok = form == 1 ? strcmp(gt, at) == 0 ||
                                  (g->hazard == KC_GRID_CONST && arg->has_value && g->value >= arg->value)
                            : rounds_up_over(L, ax, gt, at);
        if (!ok)
            return false;
        any = true;
    }
    return any;
}

/* ---- lengths that only bound loops ---- */

/* The loop an index is exactly the variable of, or KC_NONE. */
static uint32_t loop_var_of(const kc_index *x)
{
    if (!x || x->nmono != 1 || x->mono[0].coef != 1 || x->mono[0].nfac != 1 ||
        x->mono[0].fac[0].kind != KC_ATOM_LOOP)
        return KC_NONE;
    return x->mono[0].fac[0].id;
}

/* Does loop l read a global vector the threads share with its variable
 * (an offset with a term `j` and nothing that varies by thread)? */
static bool loop_reads_shared_vector(const kc_kernel *k, uint32_t l)
{
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *b = &k->accesses.data[i];
        if (b->kind != KC_ACC_LOAD || b->space != KC_MEM_GLOBAL || !b->offset || b->loop == KC_NONE ||
            !kc_loop_within(k, b->loop, l))
            continue;
        kc_deps d = kc_index_deps(b->offset);
        if ((d.flags & (KC_AF_THREAD | KC_AF_DATA)) || d.axes)
            continue;
        for (unsigned m = 0; m < b->offset->nmono; m++) {
            const kc_mono *mo = &b->offset->mono[m];
            if (mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LOOP && mo->fac[0].id == l &&
                (mo->coef == 1 || mo->coef == -1))
                return true;
        }
    }
    return false;
}

static bool index_mentions(const kc_index *x, uint32_t sym)
{
    return kc_index_has_atom(x, KC_ATOM_SYMBOL, sym);
}

/* Does sym appear in x only as a factor of a varying index (`index * S`,
 * a record's start compared with the total: S is the stride there, not
 * the bound)? */
static bool only_as_stride(const kc_index *x, uint32_t sym)
{
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        bool has = false, varying = false;
        for (unsigned f = 0; f < mo->nfac; f++) {
            const kc_atom *a = &mo->fac[f];
            has |= a->kind == KC_ATOM_SYMBOL && a->id == sym;
            varying |= a->kind == KC_ATOM_LANE || a->kind == KC_ATOM_PROGRAM || a->kind == KC_ATOM_LOOP;
        }
        if (has && !varying)
            return false;
    }
    return true;
}

/* Does x hold the thread or block index itself (a monomial with
 * threadIdx or blockIdx), not through an opaque value? */
static bool affine_thread(const kc_index *x)
{
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++)
            if (x->mono[i].fac[f].kind == KC_ATOM_LANE || x->mono[i].fac[f].kind == KC_ATOM_PROGRAM)
                return true;
    return false;
}

uint32_t kc_size_only_record_bound(const kc_kernel *k, uint32_t sym)
{
    if (k->lang != KC_LANG_CUDA || sym >= k->symbols.len ||
        (k->symbols.data[sym].facts & (KC_SF_OUTER_STRIDE | KC_SF_SHAPE_ARG | KC_SF_PROBLEM_SIZE)))
        return KC_NONE;
    uint32_t first = KC_NONE;
    for (uint32_t i = 0; i < k->compares.len; i++) {
        const kc_pred *p = &k->compares.data[i];
        bool in_l = index_mentions(p->lhs, sym), in_r = index_mentions(p->rhs, sym);
        if ((!in_l && !in_r) || (in_l != in_r && only_as_stride(in_l ? p->lhs : p->rhs, sym)))
            continue;
        const kc_index *side = in_l ? p->lhs : p->rhs, *other = in_l ? p->rhs : p->lhs;
        /* compared with the thread or block index: the threads span it */
        if (!other || affine_thread(other) || (in_l && in_r && affine_thread(side)))
            return KC_NONE;
        if (in_l && in_r)
            continue; /* `S - 1 - x < S`: a coordinate of the record */
        uint32_t l = kc_index_symbol(side) == sym ? loop_var_of(other) : KC_NONE;
        if (l >= k->loops.len)
            continue; /* a coordinate inside the record checked against its length */
        const kc_loop *L = &k->loops.data[l];
        int64_t s0, st;
        if (!L->start || !L->step || !kc_index_is_const(L->start, &s0) || !kc_index_is_const(L->step, &st) ||
            st != 1 || s0 < 0 || s0 > 1 || loop_reads_shared_vector(k, l))
            return KC_NONE;
        if (first == KC_NONE)
            first = l;
    }
    return first;
}

/* ---- warp footprints ---- */

/* CUDA: threadIdx.y's constant stride in the offset (0: it does not
 * move it), or INT64_MIN when not constant. */
int64_t kc_index_y_stride(kc_arena *ar, const kc_index *off)
{
    kc_stride ys;
    kc_index_stride_along(ar, off, 1, &ys);
    int64_t c = 0;
    if (!ys.stride && !ys.nonaffine && !ys.gather)
        return 0;
    if (ys.stride && !ys.nonaffine && !ys.gather && kc_index_is_const(ys.stride, &c))
        return c;
    return INT64_MIN;
}

/* The 32-byte sectors one warp request touches in a block bx < 32 threads
 * wide: lane l is (x, y) = (l % bx, l / bx), at x * sx + y * sy elements
 * of eb bytes from a sector-aligned base. (dim3(4, 8) with threadIdx.y
 * the stride-1 index: 4 rows of 8 floats, 4 sectors.) */
uint64_t kc_warp_sectors(int64_t bx, int64_t sx, int64_t sy, unsigned eb)
{
    int64_t sec[32];
    unsigned n = 0;
    for (int64_t l = 0; l < 32; l++) {
        int64_t addr = ((l % bx) * sx + (l / bx) * sy) * (int64_t)eb;
        int64_t q = addr >= 0 ? addr / 32 : -((-addr + 31) / 32);
        bool seen = false;
        for (unsigned i = 0; i < n && !seen; i++)
            seen = sec[i] == q;
        if (!seen)
            sec[n++] = q;
    }
    return n;
}

bool kc_launch_param_values(const kc_model *m, const kc_kernel *k, uint32_t sym, kc_arena *a, int64_t *lo,
                            int64_t *hi, const char **where)
{
    if (sym >= k->symbols.len || k->symbols.data[sym].param >= k->params.len)
        return false;
    const kc_param *p = &k->params.data[k->symbols.data[sym].param];
    bool any = false;
    for (uint32_t i = 0; i < m->launches.len; i++) {
        const kc_launch *L = &m->launches.data[i];
        if (!kc_launch_may_run(L, k))
            continue;
        const kc_launch_arg *arg = kc_launch_arg_for(k, L, p);
        if (!arg || !arg->has_value)
            return false;
        if (!any) {
            *lo = *hi = arg->value;
            *where = kc_arena_printf(a, "the launch on line %u passes `%s` = %lld", L->span.line,
                                     arg->text ? arg->text : "?", (long long)arg->value);
        }
        *lo = arg->value < *lo ? arg->value : *lo;
        *hi = arg->value > *hi ? arg->value : *hi;
        any = true;
    }
    return any;
}

/* ---- records a thread moves ---- */

bool kc_offset_diff_range(kc_arena *ar, const kc_kernel *k, const kc_index *b, const kc_index *a, int64_t *lo,
                          int64_t *hi)
{
    int64_t c;
    const kc_index *d = kc_index_sub(ar, b, a);
    if (d && kc_index_is_const(d, &c)) {
        *lo = *hi = c;
        return true;
    }
    /* d = c + v or c - v, with v the variable of a loop of constant start
     * and step 1 and a known number of passes (at most 32) */
    const kc_mono *lm = NULL;
    c = 0;
    for (unsigned i = 0; d && i < d->nmono; i++) {
        const kc_mono *mo = &d->mono[i];
        if (mo->nfac == 0)
            c += mo->coef;
        else if (!lm && mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LOOP && (mo->coef == 1 || mo->coef == -1))
            lm = mo;
        else
            return false;
    }
    int64_t s0, st;
    const kc_loop *lp = lm && lm->fac[0].id < k->loops.len ? &k->loops.data[lm->fac[0].id] : NULL;
    if (!lp || lp->trip_count <= 0 || lp->trip_count > 32 || !lp->start || !lp->step ||
        !kc_index_is_const(lp->start, &s0) || !kc_index_is_const(lp->step, &st) || st != 1)
        return false;
    int64_t first = c + lm->coef * s0, last = c + lm->coef * (s0 + lp->trip_count - 1);
    *lo = first < last ? first : last;
    *hi = first < last ? last : first;
    return true;
}

/* CUDA: does each thread move (nearly) all of its small record of `stride`
 * consecutive elements around this access itself, through sibling
 * accesses at constant distances (`p[0] .. p[7]`) or a loop over them
 * (`dst[idx + k]`, k < stride)? Then the warp's accesses together cover a
 * nearly contiguous span, which the L1 and L2 caches merge. Measured on an
 * H200 (nvcc 13.0 -O3, 2^24 threads of 256; docs/precision.md, "First
 * sight on four more code bases"): a thread reading its whole record runs
 * at the speed of the same fields stored apart (SoA) up to 56 bytes
 * (float4 pixels 1.00x, records of 9, 12 and 14 floats 0.99x, 1.00x and
 * 1.07x) but not from 64 bytes (16 floats: 2.0x; 32: 4.1x); reading F of
 * its S fields costs about S/F (8 of 9: 1.11x, 5 of 6: 1.17x, 9 of 12:
 * 1.30x, 6 of 9: 1.43x). Stores merge only up to 16 bytes (measured on
 * an H100, bench/premise/kc101_record_walk.cu: a thread writing its record
 * of 4 floats 1.06x, of 7 floats 4.4x, of 14 floats 9.0x the same values
 * stored transposed). So: a record of at most max_bytes (kc_record_max_bytes) of
 * which the thread moves enough fields that the unused ones cost under
 * 1.2x (F/S >= 5/6). Otherwise the request costs about S/F, which is reported like a
 * constant stride: from `min-constant-stride` times on (5 of the 7 fields
 * of a 28-byte box: 1.4x, not 7x).
 * Touching one float of each 16-byte record is 2.0x.
 * Returns F, the most fields of one record of `stride` elements that the
 * thread moves around this access (0: not a record kcheck can judge). */
int64_t kc_record_fields(kc_arena *ar, const kc_kernel *k, const kc_access *a, int64_t stride, unsigned eb,
                         unsigned max_bytes, bool same_kind)
{
    if (stride < 2 || !a->offset || (uint64_t)stride * eb > max_bytes)
        return 0;
    /* a loop that steps the offset by one element, `stride` passes or more
     * (or up to that many: `i < min(len - off, 32)`, the last record cut
     * short), over a record of any number of fields within max_bytes */
    for (unsigned i = 0; i < a->offset->nmono; i++) {
        const kc_mono *mo = &a->offset->mono[i];
        if (mo->nfac != 1 || mo->fac[0].kind != KC_ATOM_LOOP || (mo->coef != 1 && mo->coef != -1))
            continue;
        uint32_t l = mo->fac[0].id;
        const kc_loop *lp = l < k->loops.len ? &k->loops.data[l] : NULL;
        if (lp && kc_loop_passes_at_most(lp) >= stride)
            return stride;
    }
    if (stride > 16)
        return 0;
    /* siblings: constant distances from this access, in a window of
     * `stride`; a sibling in a loop over a few fields (`src[idx]`, then
     * `src[idx + j]` for j in 1..3) covers the distances its variable
     * takes */
    bool have[2 * 16 + 1] = {false};
    for (uint32_t j = 0; j < k->accesses.len; j++) {
        const kc_access *b = &k->accesses.data[j];
        if (b->space != a->space || !kc_access_same_base(a, b) || !b->offset ||
            (same_kind && (b->kind == KC_ACC_LOAD) != (a->kind == KC_ACC_LOAD)))
            continue;
        int64_t lo, hi;
        if (!kc_offset_diff_range(ar, k, b->offset, a->offset, &lo, &hi))
            continue;
        for (int64_t at = lo; at <= hi && hi - lo < 32; at++)
            if (at > -stride && at < stride)
                have[at + 16] = true;
    }
    int64_t best = 0;
    for (int64_t w = -(stride - 1); w <= 0; w++) {
        int64_t fields = 0;
        for (int64_t i = 0; i < stride; i++)
            fields += have[w + i + 16];
        if (fields > best)
            best = fields;
    }
    return best;
}

/* ---- KC101: a lane walking its row in Triton ---- */

/* Triton: `T.stride(i)` as passed by the launches: the tensor's name
 * (into buf) and i, or -1. */
static int stride_arg(const kc_symbol *sy, char *buf, size_t cap)
{
    const char *t = sy->arg_text, *p = t ? strstr(t, ".stride(") : NULL;
    if (!p || (size_t)(p - t) >= cap || p == t)
        return -1;
    char *end;
    long i = strtol(p + 8, &end, 10);
    if (end == p + 8 || *end != ')' || end[1] || i < 0 || i > 16)
        return -1;
    memcpy(buf, t, (size_t)(p - t));
    buf[p - t] = 0;
    return (int)i;
}


/* Triton: the access's own loop is `tl.static_range(S)` (unrolled) over
 * the lane stride S itself, and moves the address one element a pass:
 * each lane reads all S elements of its row (`w_ptr + c * WIDTH + j`, j in
 * tl.static_range(WIDTH)), so the block reads one contiguous span. So is
 * a runtime `range(S)` where S is a constexpr whose values (or, none
 * known, the constexpr itself) keep the record within what a walk of it
 * costs nothing for (flux's `range(0, topk)` over its top-k indices). */
/* Is loop end `e` the constant `x` (itself, or a constexpr of that value)? */
static bool same_extent(const kc_kernel *k, const kc_index *e, const kc_index *x)
{
    int64_t d, c;
    if (kc_index_const_diff(e, x, &d))
        return d == 0;
    if (kc_index_is_const(e, &d) && kc_index_is_const(x, &c))
        return d == c; /* (of other widths) */
    uint32_t s = kc_index_symbol(e);
    return kc_index_is_const(x, &c) && s < k->symbols.len && k->symbols.data[s].has_value && k->symbols.data[s].value == c;
}

static bool small_record_range(const kc_kernel *k, const kc_access *a, const kc_loop *L, const kc_index *lane_stride)
{
    if (L->kind != KC_LOOP_RANGE && L->kind != KC_LOOP_TL_RANGE)
        return false;
    int64_t eb = a->elem_bytes ? a->elem_bytes : 4, max = kc_record_max_bytes(a), c;
    if (kc_index_is_const(lane_stride, &c))
        return c > 0 && c * eb <= max;
    uint32_t S = kc_index_symbol(lane_stride);
    if (S >= k->symbols.len)
        return false;
    const kc_symbol *sy = &k->symbols.data[S];
    for (uint32_t i = 0; i < sy->nvalues; i++)
        if (sy->values[i] <= 0 || sy->values[i] * eb > max)
            return false;
    /* no value known: a constexpr that is no problem size (a record's
     * length, flux's topk, which bounds only this loop); one a launch takes
     * from a tensor's shape or the kernel compares with its lanes (heads, a
     * matrix's order) may be long */
    return sy->nvalues > 0 ||
           (sy->kind == KC_SYM_CONSTEXPR && !(sy->facts & (KC_SF_PROBLEM_SIZE | KC_SF_SHAPE_ARG)));
}

static bool static_row_walk(const kc_kernel *k, const kc_access *a, const kc_index *lane_stride)
{
    if (a->loop == KC_NONE || a->loop >= k->loops.len)
        return false;
    const kc_loop *L = &k->loops.data[a->loop];
    int64_t c;
    uint32_t S = kc_index_symbol(lane_stride);
    if ((L->kind != KC_LOOP_STATIC_RANGE && !small_record_range(k, a, L, lane_stride)) || !L->start || !L->end || !L->step ||
        !kc_index_is_const(L->start, &c) ||
        c != 0 || !kc_index_is_const(L->step, &c) || c != 1 ||
        !(S != KC_NONE ? kc_index_symbol(L->end) == S : same_extent(k, L->end, lane_stride)))
        return false;
    for (unsigned i = 0; i < a->offset->nmono; i++) {
        const kc_mono *mo = &a->offset->mono[i];
        if (mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LOOP && mo->fac[0].id == a->loop && mo->coef == 1)
            return true;
    }
    return false;
}

kc_row_run kc_triton_row_run(kc_arena *ar, const kc_kernel *k, const kc_access *a, const kc_index *lane_stride)
{
    kc_row_run r = {1, KC_NONE, a};
    if (static_row_walk(k, a, lane_stride)) {
        r.len = -1; /* the whole row, through the loop */
        return r;
    }
    uint32_t L = kc_index_symbol(lane_stride);
    char tl_[128], ti[128];
    if (L == KC_NONE || L >= k->symbols.len || !(k->symbols.data[L].facts & KC_SF_OUTER_STRIDE))
        return r;
    int li = stride_arg(&k->symbols.data[L], tl_, sizeof tl_);
    for (uint32_t s = 0; li >= 0 && s < k->symbols.len && r.inner == KC_NONE; s++)
        if ((k->symbols.data[s].facts & KC_SF_INNER_STRIDE) && stride_arg(&k->symbols.data[s], ti, sizeof ti) == li + 1 &&
            strcmp(ti, tl_) == 0)
            r.inner = s;
    if (r.inner == KC_NONE)
        return r;
    bool have[33] = {false};
    const kc_access *at[33] = {NULL};
    for (uint32_t j = 0; j < k->accesses.len; j++) {
        const kc_access *b = &k->accesses.data[j];
        if (b->space != KC_MEM_GLOBAL || !b->offset || !kc_access_same_base(a, b))
            continue;
        const kc_index *d = kc_index_sub(ar, b->offset, a->offset);
        int64_t c = 0;
        if (!d)
            continue;
        if (d->nmono == 1 && d->mono[0].nfac == 1 && d->mono[0].fac[0].kind == KC_ATOM_SYMBOL &&
            d->mono[0].fac[0].id == r.inner)
            c = d->mono[0].coef;
        else if (!kc_index_is_const(d, &c) || c != 0)
            continue;
        if (c < -16 || c > 16)
            continue;
        have[c + 16] = true;
        if (b->kind == a->kind && !at[c + 16])
            at[c + 16] = b;
    }
    int lo = 16, hi = 16;
    while (lo > 0 && have[lo - 1])
        lo--;
    while (hi < 32 && have[hi + 1])
        hi++;
    r.len = hi - lo + 1;
    for (int c = lo; c <= hi && r.first == a; c++)
        if (at[c] && at[c] < r.first)
            r.first = at[c];
    return r;
}

/* ---- comparisons every launched thread satisfies ---- */

/* The hardware's largest block along each axis. */
static const int64_t max_block[3] = {1024, 1024, 64};

/* An upper bound on the block's (grid's) size along axis ax in launch L;
 * with cap, the hardware's limit for a block whose size is not constant. */
static kc_bound launch_extent(kc_arena *ar, const kc_launch *L, bool grid, unsigned ax, bool cap)
{
    if (grid)
        return L->grid_hi[ax];
    if (L->block_dim[ax] > 0)
        return kc_bound_const(ar, L->block_dim[ax]);
    return cap ? kc_bound_const(ar, max_block[ax]) : L->block_hi[ax];
}

static kc_bound upper_in_launch(kc_arena *ar, const kc_kernel *k, const kc_launch *L, const kc_index *x, bool cap,
                                unsigned depth);

/* An upper bound on atom a over every thread of launch L. */
static kc_bound atom_upper(kc_arena *ar, const kc_kernel *k, const kc_launch *L, const kc_atom *a, bool cap,
                           unsigned depth)
{
    kc_bound none = {NULL, 1}, one = kc_bound_const(ar, 1);
    unsigned ax = a->id < 3 ? a->id : 0;
    switch ((kc_atom_kind)a->kind) {
    case KC_ATOM_LANE:
        return a->id < 3 ? kc_bound_sub(ar, launch_extent(ar, L, false, ax, cap), one) : none;
    case KC_ATOM_PROGRAM:
        return a->id < 3 ? kc_bound_sub(ar, launch_extent(ar, L, true, ax, cap), one) : none;
    case KC_ATOM_BLOCK_DIM:
        return a->id < 3 ? launch_extent(ar, L, false, ax, cap) : none;
    case KC_ATOM_GRID_DIM:
        return a->id < 3 ? launch_extent(ar, L, true, ax, cap) : none;
    case KC_ATOM_SYMBOL:
        if (a->id < k->symbols.len && k->symbols.data[a->id].param < k->params.len) {
            const kc_launch_arg *arg = kc_launch_arg_for(k, L, &k->params.data[k->symbols.data[a->id].param]);
            return arg ? arg->hi : none;
        }
        return none;
    case KC_ATOM_OPAQUE: {
        const kc_opaque *o = a->id < k->opaques.len ? &k->opaques.data[a->id] : NULL;
        if (!o)
            return none;
        if (o->quot && o->quot_div > 0) /* floor(n / d) <= n / d */
            return kc_bound_div(upper_in_launch(ar, k, L, o->quot, cap, depth + 1), o->quot_div);
        if (o->split == KC_SPLIT_MEMBER && o->split_div > 0)
            return kc_bound_const(ar, o->split_div - 1);
        if (o->split == KC_SPLIT_GROUP && o->split_div > 0 && o->split_axis < 3)
            return kc_bound_div(kc_bound_sub(ar, launch_extent(ar, L, false, o->split_axis, cap), one), o->split_div);
        return none;
    }
    default:
        return none;
    }
}

/* An upper bound on x over every thread of launch L (kc_bound.h), or an
 * unknown one: a monomial with a positive coefficient by the largest its
 * atoms reach (threadIdx below the block's size, blockIdx below the
 * grid's, a parameter by the launch's argument, a quotient by its
 * dividend's bound over the divisor), one with a negative coefficient by
 * 0 (its atoms are not negative). cap: blocks of unknown size as the
 * hardware's largest. */
static kc_bound upper_in_launch(kc_arena *ar, const kc_kernel *k, const kc_launch *L, const kc_index *x, bool cap,
                                unsigned depth)
{
    kc_bound sum = kc_bound_const(ar, 0), none = {NULL, 1};
    if (!x || depth > 3)
        return none;
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        kc_bound term = kc_bound_const(ar, mo->coef);
        for (unsigned f = 0; f < mo->nfac; f++) {
            const kc_atom *a = &mo->fac[f];
            if (a->kind == KC_ATOM_DATA || a->kind == KC_ATOM_LOOP)
                return none;
            /* a negative term is at most 0 only where its atoms are not
             * negative: thread and block indices and sizes, parameters
             * (sizes, taken so); an opaque value may be anything */
            if (mo->coef < 0 && a->kind == KC_ATOM_OPAQUE)
                return none;
            if (mo->coef < 0)
                continue;
            /* a <= fb with a >= 0: fb >= 0 as a value, so products of
             * such bounds bound products */
            kc_bound fb = atom_upper(ar, k, L, a, cap, depth);
            if (!kc_bound_known(fb))
                return none;
            term = kc_bound_mul(ar, term, fb);
        }
        if (mo->coef < 0 && mo->nfac)
            continue;
        sum = kc_bound_add(ar, sum, term);
    }
    return sum;
}

/* A bound on kernel value e (parameters, constants, blockDim.x where the
 * launch spells it) in launch L, from above or below. */
static kc_bound launch_value_bound(kc_arena *ar, const kc_kernel *k, const kc_launch *L, const kc_index *e,
                                   bool upper)
{
    kc_bound sum = kc_bound_const(ar, 0), none = {NULL, 1};
    for (unsigned i = 0; e && i < e->nmono; i++) {
        const kc_mono *mo = &e->mono[i];
        bool up = mo->coef >= 0 ? upper : !upper;
        kc_bound term = kc_bound_const(ar, mo->coef);
        for (unsigned f = 0; f < mo->nfac; f++) {
            const kc_atom *a = &mo->fac[f];
            kc_bound fb = none;
            if (a->kind == KC_ATOM_SYMBOL && a->id < k->symbols.len &&
                k->symbols.data[a->id].param < k->params.len) {
                const kc_launch_arg *arg =
                    kc_launch_arg_for(k, L, &k->params.data[k->symbols.data[a->id].param]);
                if (arg)
                    fb = up ? arg->hi : arg->lo;
            } else if (a->kind == KC_ATOM_BLOCK_DIM && a->id < 3 && L->block_dim[a->id] > 0) {
                fb = kc_bound_const(ar, L->block_dim[a->id]);
            }
            /* the product of lower bounds bounds a product only where they
             * are not negative */
            if (!kc_bound_known(fb) || (!up && mo->nfac > 1 && !kc_bound_nonneg(fb)))
                return none;
            term = f == 0 ? kc_bound_scale(ar, fb, mo->coef) : kc_bound_mul(ar, term, fb);
        }
        sum = kc_bound_add(ar, sum, term);
    }
    return e ? sum : none;
}

bool kc_pred_holds_in_launches(const kc_model *m, const kc_kernel *k, const kc_pred *p, bool negate)
{
    if (!p || !p->lhs || !p->rhs || k->lang != KC_LANG_CUDA)
        return false;
    kc_cmp op = negate ? kc_cmp_negate(p->op) : p->op;
    const kc_index *x = p->lhs, *e = p->rhs;
    kc_deps dl = kc_index_deps(p->lhs), dr = kc_index_deps(p->rhs);
    bool lt = (dl.flags & KC_AF_THREAD) || dl.axes, rt = (dr.flags & KC_AF_THREAD) || dr.axes;
    if (rt && !lt) {
        x = p->rhs;
        e = p->lhs;
        op = kc_cmp_mirror(op);
    } else if (!lt || rt) {
        return false;
    }
    /* x < e holds where e - x > 0 for x's upper and e's lower bound; x <= e
     * where e + 1 - x > 0 (integers) */
    int64_t slack = op == KC_CMP_LT ? 0 : op == KC_CMP_LE ? 1 : -1;
    kc_deps de = kc_index_deps(e);
    if (slack < 0 || (de.flags & (KC_AF_DATA | KC_AF_PROGRAM)) || de.loops)
        return false;
    kc_arena *ar = kc_arena_new();
    unsigned seen = 0;
    bool all = true;
    for (uint32_t i = 0; i < m->launches.len && all; i++) {
        const kc_launch *L = &m->launches.data[i];
        if (!kc_launch_may_run(L, k))
            continue;
        seen++;
        kc_bound lo = kc_bound_add(ar, launch_value_bound(ar, k, L, e, false), kc_bound_const(ar, slack));
        all = false;
        for (int cap = 0; cap < 2 && !all; cap++)
            all = kc_bound_positive(kc_bound_sub(ar, lo, upper_in_launch(ar, k, L, x, cap != 0, 0)));
    }
    kc_arena_delete(ar);
    return seen > 0 && all;
}

/* ---- what the front end could not see ---- */

const char *kc_gap_kind_phrase(kc_gap_kind k)
{
    switch (k) {
    case KC_GAP_SYNTAX: return "did not parse";
    case KC_GAP_TYPE: return "unknown type";
    case KC_GAP_NAME: return "unknown name";
    case KC_GAP_CALLEE: return "unknown function or macro";
    case KC_GAP_OTHER: return "compiler error";
    case KC_GAP_UNSEEN: return "lost by the parse";
    case KC_GAP_STRING: return "CUDA source in a string not analysed";
    case KC_GAP_UNUSED:
        return "a kernel template that nothing in this file launches or instantiates, so no code is compiled for it";
    case KC_GAP_SPECIALIZATIONS: return "specializations not analysed one by one";
    case KC_GAP_UNFOLLOWED: return "a call kcheck does not follow";
    }
    return "gap";
}

const kc_gap *kc_gap_spanning(const kc_model *m, const kc_kernel *k, uint32_t line)
{
    for (uint32_t i = 0; k->name && i < m->gaps.len; i++) {
        const kc_gap *g = &m->gaps.data[i];
        if (g->kernel && strcmp(g->kernel, k->name) == 0 && !g->dropped &&
            (g->kind == KC_GAP_SYNTAX || g->kind == KC_GAP_TYPE || g->kind == KC_GAP_NAME || g->kind == KC_GAP_OTHER) &&
            g->span.line <= line)
            return g;
    }
    return NULL;
}

/* CUDA: elements of unknown size (a template's `scalar_t`) cast to a
 * vector of known width W (`*reinterpret_cast<const int4 *>(&x[8 * tid])`,
 * 16 bytes) with the lanes `cst` elements apart: the vector is the lane's
 * `cst` elements when they are W / cst bytes each, a size an element can
 * have (1, 2, 4 or 8: here 2-byte halves). The lanes then move adjacent
 * W-byte vectors, which is coalesced; taken so. */
bool kc_lane_vector(const kc_access *a, int64_t cst)
{
    int64_t s = cst < 0 ? -cst : cst, w = a->recast_bytes;
    if (!a->recast || !w || a->elem_bytes || !s || w % s)
        return false;
    int64_t eb = w / s;
    return eb == 1 || eb == 2 || eb == 4 || eb == 8;
}

/* Lanes `step` bytes apart that a warp reads at little cost: closer than
 * half a sector (measured 1.0-1.1x, bytes 4 apart), or at most 16 bytes
 * apart through a cast to a type kcheck could not size
 * (`reinterpret_cast<const vec4_t *>(&w[4 * i])[0]` with vec4_t from a
 * template), which may be one vector of the lane's elements, read whole. */
bool kc_lanes_close(const kc_access *a, uint64_t step) { return step < 16 || (a->recast && step <= 16); }

/* The condition on the guard chain that lets one thread of the block in
 * (`tid == 0`, `threadIdx.x == 0`: a thread index equal to a constant),
 * or NULL. */
const char *kc_guard_one_thread(const kc_kernel *k, uint32_t guard)
{
    uint32_t hops = 0;
    for (uint32_t c = guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        for (uint32_t i = 0; !cd->negated && i < cd->npreds; i++) {
            const kc_pred *p = &cd->preds[i];
            int64_t v;
            kc_deps dl = kc_index_deps(p->lhs);
            if (p->op == KC_CMP_EQ && kc_index_is_const(p->rhs, &v) && (dl.flags & KC_AF_THREAD) &&
                !(dl.flags & KC_AF_DATA))
                return cd->text ? cd->text : "";
        }
    }
    return NULL;
}

/* Does the text of a grid round a quotient up: `cdiv(n, B)`, `(n + B - 1)
 * / B`, `ceil(n / B)`? Not `(size_t)(ceil((float)n) / B)`: the ceiling
 * there is of the numerator alone, and the cast truncates the quotient. */
bool kc_text_rounds_up(const char *t)
{
    if (strstr(t, "cdiv") || strstr(t, "+"))
        return true;
    for (const char *p = strstr(t, "ceil"); p; p = strstr(p + 4, "ceil")) {
        /* a helper named for it (`magma_ceildiv(m, 64)`, `CEIL_DIV`) rounds
         * up; the C function `ceil`/`ceilf` only of a quotient */
        const char *b = p, *e = p + 4;
        while (b > t && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
            b--;
        while (isalnum((unsigned char)*e) || *e == '_')
            e++;
        if (!((e - b == 4) || (e - b == 5 && b[4] == 'f')))
            return true;
        const char *q = strchr(p, '(');
        if (!q)
            break;
        int depth = 0;
        for (const char *r = q; *r; r++) {
            depth += *r == '(';
            depth -= *r == ')';
            if (depth == 0)
                break;
            if (*r == '/' && depth >= 1)
                return true;
        }
    }
    return false;
}
