#include "kc_index.h"

#include <stdlib.h>
#include <string.h>

static int atom_cmp(const kc_atom *a, const kc_atom *b)
{
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    if (a->axes != b->axes)
        return a->axes < b->axes ? -1 : 1;
    return 0;
}

static int factors_cmp(const kc_mono *a, const kc_mono *b)
{
    if (a->nfac != b->nfac)
        return a->nfac < b->nfac ? -1 : 1;
    for (unsigned i = 0; i < a->nfac; i++) {
        int c = atom_cmp(&a->fac[i], &b->fac[i]);
        if (c)
            return c;
    }
    return 0;
}

static int mono_qsort_cmp(const void *pa, const void *pb) { return factors_cmp(pa, pb); }

static void sort_factors(kc_mono *m)
{
    for (unsigned i = 1; i < m->nfac; i++) {
        kc_atom t = m->fac[i];
        unsigned j = i;
        while (j > 0 && atom_cmp(&m->fac[j - 1], &t) > 0) {
            m->fac[j] = m->fac[j - 1];
            j--;
        }
        m->fac[j] = t;
    }
}

/* Sorts, merges equal monomials and drops zero ones; copies into the arena. */
static const kc_index *finish(kc_arena *a, kc_mono *tmp, unsigned n, uint8_t bits, uint8_t space,
                              const kc_shape *shape)
{
    for (unsigned i = 0; i < n; i++)
        sort_factors(&tmp[i]);
    qsort(tmp, n, sizeof *tmp, mono_qsort_cmp);
    unsigned out = 0;
    for (unsigned i = 0; i < n; i++) {
        if (out > 0 && factors_cmp(&tmp[out - 1], &tmp[i]) == 0) {
            int64_t s;
            if (__builtin_add_overflow(tmp[out - 1].coef, tmp[i].coef, &s))
                return NULL;
            tmp[out - 1].coef = s;
            if (tmp[i].bits < tmp[out - 1].bits)
                tmp[out - 1].bits = tmp[i].bits;
        } else {
            tmp[out++] = tmp[i];
        }
    }
    unsigned k = 0;
    for (unsigned i = 0; i < out; i++)
        if (tmp[i].coef != 0)
            tmp[k++] = tmp[i];
    if (k > KC_INDEX_MAX_MONOS)
        return NULL;
    kc_index *x = kc_arena_alloc(a, sizeof *x);
    kc_mono *m = kc_arena_alloc(a, (k ? k : 1) * sizeof *m);
    memcpy(m, tmp, k * sizeof *m);
    x->mono = m;
    x->nmono = (uint16_t)k;
    x->bits = bits;
    x->space = space;
    if (shape)
        x->shape = *shape;
    return x;
}

const kc_index *kc_index_const(kc_arena *a, int64_t v, uint8_t bits, kc_lane_space space)
{
    kc_mono m = {.coef = v, .nfac = 0, .bits = bits};
    return finish(a, &m, 1, bits, (uint8_t)space, NULL);
}

kc_atom kc_atom_make(kc_atom_kind kind, uint32_t id, kc_deps deps)
{
    /* an atom is unseen as a whole: only when every axis of it is */
    uint8_t flags = (uint8_t)(deps.flags & ~KC_AF_UNSEEN);
    bool thread = (deps.flags & KC_AF_THREAD) != 0;
    if ((deps.axes || thread) && (deps.unseen & deps.axes) == deps.axes &&
        (!thread || (deps.unseen & KC_UNSEEN_THREAD)))
        flags |= KC_AF_UNSEEN;
    kc_atom at = {.kind = (uint8_t)kind, .axes = deps.axes, .flags = flags, .id = id,
                  .loops = deps.loops, .programs = deps.programs};
    return at;
}

const kc_index *kc_index_atom(kc_arena *a, kc_atom atom, uint8_t bits, kc_lane_space space,
                              const kc_shape *shape)
{
    kc_mono m = {.coef = 1, .nfac = 1, .bits = bits};
    m.fac[0] = atom;
    return finish(a, &m, 1, bits, (uint8_t)space, shape);
}

static const kc_shape *wider_shape(const kc_index *x, const kc_index *y)
{
    return x->shape.rank >= y->shape.rank ? &x->shape : &y->shape;
}

static uint8_t max_bits(const kc_index *x, const kc_index *y)
{
    return x->bits > y->bits ? x->bits : y->bits;
}

static const kc_index *add_scaled(kc_arena *a, const kc_index *x, const kc_index *y, int64_t ys)
{
    unsigned n = x->nmono + y->nmono;
    if (n > 2 * KC_INDEX_MAX_MONOS)
        return NULL;
    kc_mono tmp[2 * KC_INDEX_MAX_MONOS + 1];
    kc_shape shape;
    if (!kc_shape_broadcast(&x->shape, &y->shape, &shape))
        shape = *wider_shape(x, y);
    const kc_index *bx = x->shape.rank < shape.rank ? kc_index_broadcast(a, x, &shape) : x;
    const kc_index *by = y->shape.rank < shape.rank ? kc_index_broadcast(a, y, &shape) : y;
    memcpy(tmp, bx->mono, bx->nmono * sizeof *tmp);
    for (unsigned i = 0; i < by->nmono; i++) {
        tmp[bx->nmono + i] = by->mono[i];
        if (__builtin_mul_overflow(by->mono[i].coef, ys, &tmp[bx->nmono + i].coef))
            return NULL;
    }
    return finish(a, tmp, n, max_bits(x, y), x->space, &shape);
}

const kc_index *kc_index_add(kc_arena *a, const kc_index *x, const kc_index *y)
{
    if (!x || !y)
        return NULL;
    return add_scaled(a, x, y, 1);
}

const kc_index *kc_index_sub(kc_arena *a, const kc_index *x, const kc_index *y)
{
    if (!x || !y)
        return NULL;
    return add_scaled(a, x, y, -1);
}

const kc_index *kc_index_mul(kc_arena *a, const kc_index *x, const kc_index *y)
{
    if (!x || !y)
        return NULL;
    unsigned n = (unsigned)x->nmono * y->nmono;
    if (n > 2 * KC_INDEX_MAX_MONOS)
        return NULL;
    kc_shape shape;
    if (!kc_shape_broadcast(&x->shape, &y->shape, &shape))
        shape = *wider_shape(x, y);
    const kc_index *bx = x->shape.rank < shape.rank ? kc_index_broadcast(a, x, &shape) : x;
    const kc_index *by = y->shape.rank < shape.rank ? kc_index_broadcast(a, y, &shape) : y;
    uint8_t bits = max_bits(x, y);
    kc_mono tmp[2 * KC_INDEX_MAX_MONOS + 1];
    unsigned k = 0;
    for (unsigned i = 0; i < bx->nmono; i++)
        for (unsigned j = 0; j < by->nmono; j++) {
            const kc_mono *p = &bx->mono[i], *q = &by->mono[j];
            if (p->nfac + q->nfac > KC_MONO_MAX_FACTORS)
                return NULL;
            kc_mono m = {0};
            if (__builtin_mul_overflow(p->coef, q->coef, &m.coef))
                return NULL;
            m.nfac = (uint8_t)(p->nfac + q->nfac);
            memcpy(m.fac, p->fac, p->nfac * sizeof(kc_atom));
            memcpy(m.fac + p->nfac, q->fac, q->nfac * sizeof(kc_atom));
            /* A product of two non-constant parts is computed in the
             * operation's width; a constant times a monomial keeps the
             * narrower of the two. */
            if (p->nfac && q->nfac)
                m.bits = bits;
            else
                m.bits = p->nfac ? (p->bits < bits ? p->bits : bits)
                                 : (q->nfac ? (q->bits < bits ? q->bits : bits) : bits);
            tmp[k++] = m;
        }
    return finish(a, tmp, k, bits, x->space, &shape);
}

const kc_index *kc_index_scale(kc_arena *a, const kc_index *x, int64_t c)
{
    if (!x)
        return NULL;
    const kc_index *k = kc_index_const(a, c, x->bits, (kc_lane_space)x->space);
    return kc_index_mul(a, x, k);
}

const kc_index *kc_index_cast(kc_arena *a, const kc_index *x, uint8_t bits)
{
    if (!x)
        return NULL;
    kc_index *y = kc_arena_alloc(a, sizeof *y);
    *y = *x;
    y->bits = bits;
    return y;
}

static uint8_t remap_axes(uint8_t axes, unsigned old_rank, const uint8_t *map)
{
    uint8_t out = 0;
    for (unsigned i = 0; i < old_rank && i < 8; i++)
        if (axes & (1u << i))
            out |= (uint8_t)(1u << map[i]);
    return out;
}

const kc_index *kc_index_remap(kc_arena *a, const kc_index *x, const kc_shape *new_shape,
                               const uint8_t *axis_map)
{
    if (!x)
        return NULL;
    kc_index *y = kc_arena_alloc(a, sizeof *y);
    *y = *x;
    y->shape = *new_shape;
    kc_mono *m = kc_arena_alloc(a, (x->nmono ? x->nmono : 1) * sizeof *m);
    memcpy(m, x->mono, x->nmono * sizeof *m);
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < m[i].nfac; f++)
            m[i].fac[f].axes = remap_axes(m[i].fac[f].axes, x->shape.rank, axis_map);
    y->mono = m;
    return y;
}

const kc_index *kc_index_broadcast(kc_arena *a, const kc_index *x, const kc_shape *to)
{
    if (!x)
        return NULL;
    if (x->space != KC_SPACE_BLOCK || x->shape.rank == to->rank)
        return x;
    uint8_t map[KC_MAX_RANK];
    unsigned off = to->rank > x->shape.rank ? to->rank - x->shape.rank : 0;
    for (unsigned i = 0; i < x->shape.rank; i++)
        map[i] = (uint8_t)(i + off);
    return kc_index_remap(a, x, to, map);
}

static bool mono_equal(const kc_mono *x, const kc_mono *y)
{
    if (x->coef != y->coef || x->nfac != y->nfac || x->bits != y->bits)
        return false;
    for (unsigned f = 0; f < x->nfac; f++)
        if (x->fac[f].kind != y->fac[f].kind || x->fac[f].id != y->fac[f].id || x->fac[f].axes != y->fac[f].axes ||
            x->fac[f].flags != y->fac[f].flags || x->fac[f].loops != y->fac[f].loops)
            return false;
    return true;
}

bool kc_index_equal(const kc_index *a, const kc_index *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->nmono != b->nmono || a->bits != b->bits)
        return false;
    for (unsigned i = 0; i < a->nmono; i++)
        if (!mono_equal(&a->mono[i], &b->mono[i]))
            return false;
    return true;
}

uint64_t kc_index_nonconst_hash(const kc_index *x) { return kc_index_nonconst_hash_skipping(x, 0); }

uint64_t kc_index_nonconst_hash_skipping(const kc_index *x, uint64_t loops)
{
    uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
    if (!x)
        return h;
    MIX(x->bits);
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *m = &x->mono[i];
        if (!m->nfac)
            continue;
        if (m->nfac == 1 && m->fac[0].kind == KC_ATOM_LOOP && (m->coef == 1 || m->coef == -1) &&
            m->fac[0].id < 63 && (loops & (1ull << m->fac[0].id)))
            continue;
        MIX(m->coef);
        MIX(m->nfac);
        MIX(m->bits);
        for (unsigned f = 0; f < m->nfac; f++) {
            MIX(m->fac[f].kind);
            MIX(m->fac[f].id);
            MIX(m->fac[f].axes);
            MIX(m->fac[f].flags);
            MIX(m->fac[f].loops);
        }
    }
#undef MIX
    return h;
}

bool kc_index_const_diff(const kc_index *a, const kc_index *b, int64_t *d)
{
    if (!a || !b || a->bits != b->bits)
        return false;
    int64_t ca = 0, cb = 0;
    unsigned i = 0, j = 0;
    for (;;) {
        while (i < a->nmono && a->mono[i].nfac == 0)
            ca += a->mono[i++].coef;
        while (j < b->nmono && b->mono[j].nfac == 0)
            cb += b->mono[j++].coef;
        if (i == a->nmono || j == b->nmono)
            break;
        if (!mono_equal(&a->mono[i], &b->mono[j]))
            return false;
        i++;
        j++;
    }
    if (i != a->nmono || j != b->nmono)
        return false;
    return !__builtin_sub_overflow(cb, ca, d);
}

kc_deps kc_deps_divmod(kc_deps n, kc_deps d, bool quotient)
{
    kc_deps r = {.axes = (uint8_t)(n.axes | d.axes), .flags = (uint8_t)(n.flags | d.flags),
                 .loops = n.loops | d.loops, .programs = (uint8_t)(n.programs | d.programs)};
    if (d.programs || (d.flags & KC_AF_PROGRAM))
        return r;
    for (unsigned ax = 0; ax < 3; ax++)
        if ((n.programs & KC_PROG_AXIS(ax)) == KC_PROG_AXIS(ax))
            r.programs = (uint8_t)((r.programs & ~KC_PROG_AXIS(ax)) | (quotient ? KC_PROG_HI(ax) : KC_PROG_LO(ax)));
    return r;
}

kc_deps kc_index_deps(const kc_index *x)
{
    kc_deps d = {0};
    if (!x)
        return d;
    uint8_t sure = 0;
    bool sure_thread = false;
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++) {
            const kc_atom *at = &x->mono[i].fac[f];
            d.axes |= at->axes;
            d.flags |= at->flags;
            d.loops |= at->loops;
            d.programs |= at->programs;
            if (!(at->flags & KC_AF_UNSEEN)) {
                sure |= at->axes;
                sure_thread |= (at->flags & KC_AF_THREAD) != 0;
            }
        }
    d.flags = (uint8_t)(d.flags & ~KC_AF_UNSEEN);
    d.unseen = (uint8_t)((d.axes & ~sure) | ((d.flags & KC_AF_THREAD) && !sure_thread ? KC_UNSEEN_THREAD : 0));
    return d;
}

bool kc_index_is_const(const kc_index *x, int64_t *v)
{
    if (!x)
        return false;
    if (x->nmono == 0) {
        *v = 0;
        return true;
    }
    if (x->nmono == 1 && x->mono[0].nfac == 0) {
        *v = x->mono[0].coef;
        return true;
    }
    return false;
}

bool kc_index_depends_on_loop(const kc_index *x, uint32_t loop)
{
    return (kc_index_deps(x).loops & kc_loop_bit(loop)) != 0;
}

int kc_index_fast_axis(const kc_index *x)
{
    if (x->space == KC_SPACE_THREADS)
        return 0;
    return x->shape.rank ? x->shape.rank - 1 : -1;
}

void kc_index_stride_along(kc_arena *a, const kc_index *x, unsigned axis, kc_stride *out)
{
    memset(out, 0, sizeof *out);
    if (!x)
        return;
    uint8_t bit = (uint8_t)(1u << axis);
    kc_mono tmp[KC_INDEX_MAX_MONOS + 1];
    unsigned k = 0;
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *m = &x->mono[i];
        int lane_at = -1, lanes = 0;
        for (unsigned f = 0; f < m->nfac; f++) {
            const kc_atom *at = &m->fac[f];
            if (!(at->axes & bit))
                continue;
            if (at->kind == KC_ATOM_LANE) {
                lanes++;
                lane_at = (int)f;
            } else if (at->flags & KC_AF_DATA) {
                if (!out->gather)
                    out->gather = at;
            } else {
                out->nonaffine = true;
            }
        }
        if (lanes > 1)
            out->nonaffine = true;
        if (lanes == 1 && k < KC_INDEX_MAX_MONOS) {
            kc_mono c = *m;
            memmove(&c.fac[lane_at], &c.fac[lane_at + 1],
                    (size_t)(c.nfac - lane_at - 1) * sizeof(kc_atom));
            c.nfac--;
            tmp[k++] = c;
        }
    }
    if (k)
        out->stride = finish(a, tmp, k, x->bits, x->space, NULL);
}

const kc_index *kc_index_coef_of(kc_arena *a, const kc_index *x, kc_atom_kind kind, uint32_t id)
{
    if (!x)
        return NULL;
    kc_mono tmp[KC_INDEX_MAX_MONOS + 1];
    unsigned k = 0;
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *m = &x->mono[i];
        for (unsigned f = 0; f < m->nfac; f++)
            if (m->fac[f].kind == kind && m->fac[f].id == id) {
                kc_mono c = *m;
                memmove(&c.fac[f], &c.fac[f + 1], (size_t)(c.nfac - f - 1) * sizeof(kc_atom));
                c.nfac--;
                if (k < KC_INDEX_MAX_MONOS)
                    tmp[k++] = c;
                break;
            }
    }
    return k ? finish(a, tmp, k, x->bits, x->space, NULL) : NULL;
}

bool kc_index_divmod_block_dim(kc_arena *a, const kc_index *x, uint32_t c, const kc_index **quot,
                               const kc_index **rem)
{
    if (!x || c > 2)
        return false;
    kc_mono tmp[KC_INDEX_MAX_MONOS], lane;
    unsigned k = 0, lanes = 0;
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *m = &x->mono[i];
        if (m->coef == 1 && m->nfac == 1 && m->fac[0].kind == KC_ATOM_LANE && m->fac[0].id == c) {
            lane = *m;
            lanes++;
            continue;
        }
        int at = -1;
        for (unsigned f = 0; f < m->nfac; f++) {
            kc_atom_kind kd = m->fac[f].kind;
            if (kd == KC_ATOM_BLOCK_DIM && m->fac[f].id == c && at < 0)
                at = (int)f;
            else if (kd != KC_ATOM_PROGRAM && kd != KC_ATOM_BLOCK_DIM && kd != KC_ATOM_GRID_DIM)
                return false; /* (a term that may be negative, or not a multiple) */
        }
        if (at < 0 || m->coef <= 0)
            return false;
        kc_mono q = *m;
        memmove(&q.fac[at], &q.fac[at + 1], (size_t)(q.nfac - at - 1) * sizeof(kc_atom));
        q.nfac--;
        tmp[k++] = q;
    }
    if (lanes != 1 || k == 0)
        return false;
    *quot = finish(a, tmp, k, x->bits, x->space, NULL);
    *rem = finish(a, &lane, 1, x->bits, x->space, NULL);
    return *quot != NULL;
}

static bool dim_equal(const kc_dim *a, const kc_dim *b)
{
    if (a->value >= 0 && b->value >= 0)
        return a->value == b->value;
    return a->symbol != KC_NONE && a->symbol == b->symbol;
}

bool kc_shape_equal(const kc_shape *a, const kc_shape *b)
{
    if (a->rank != b->rank)
        return false;
    for (unsigned i = 0; i < a->rank; i++)
        if (!dim_equal(&a->dims[i], &b->dims[i]))
            return false;
    return true;
}

bool kc_shape_broadcast(const kc_shape *a, const kc_shape *b, kc_shape *out)
{
    unsigned r = a->rank > b->rank ? a->rank : b->rank;
    kc_shape s = {.rank = (uint8_t)r};
    for (unsigned i = 0; i < r; i++) {
        int ia = (int)i - (int)(r - a->rank), ib = (int)i - (int)(r - b->rank);
        const kc_dim *da = ia >= 0 ? &a->dims[ia] : NULL;
        const kc_dim *db = ib >= 0 ? &b->dims[ib] : NULL;
        if (!da) {
            s.dims[i] = *db;
        } else if (!db) {
            s.dims[i] = *da;
        } else if (da->value == 1) {
            s.dims[i] = *db;
        } else if (db->value == 1) {
            s.dims[i] = *da;
        } else if (dim_equal(da, db)) {
            s.dims[i] = da->value >= 0 ? *da : *db;
        } else if (da->value >= 0 && db->value >= 0) {
            return false;
        } else {
            /* One or both unknown: assume they match (the compiler checks). */
            s.dims[i] = da->value >= 0 ? *da : *db;
        }
    }
    *out = s;
    return true;
}

/* Does monomial m hold every factor of monomial d (as many times) and a
 * multiple of its coefficient? */
bool kc_mono_divides(const kc_mono *d, const kc_mono *m)
{
    if (d->coef == 0 || (d->coef != 1 && d->coef != -1 && m->coef % d->coef != 0) || d->nfac > m->nfac)
        return false;
    bool used[KC_MONO_MAX_FACTORS] = {false};
    for (unsigned f = 0; f < d->nfac; f++) {
        bool found = false;
        for (unsigned g = 0; g < m->nfac && !found; g++)
            if (!used[g] && kc_atom_same(&d->fac[f], &m->fac[g]))
                found = used[g] = true;
        if (!found)
            return false;
    }
    return true;
}
