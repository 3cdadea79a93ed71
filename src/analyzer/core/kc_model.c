#include "kc_model.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

kc_model *kc_model_new(const kc_source *src, kc_lang lang)
{
    kc_model *m = kc_xcalloc(1, sizeof *m);
    m->src = src;
    m->lang = lang;
    m->arena = kc_arena_new();
    return m;
}

static void kernel_free(kc_kernel *k)
{
    kc_vec_free(&k->params);
    kc_vec_free(&k->symbols);
    kc_vec_free(&k->loops);
    kc_vec_free(&k->conds);
    kc_vec_free(&k->accesses);
    kc_vec_free(&k->barriers);
    kc_vec_free(&k->reorders);
    kc_vec_free(&k->opaques);
    kc_vec_free(&k->aranges);
    kc_vec_free(&k->accums);
    kc_vec_free(&k->calls);
    kc_vec_free(&k->literals);
    kc_vec_free(&k->shared_arrays);
    kc_vec_free(&k->block_logic);
    kc_vec_free(&k->products);
    kc_vec_free(&k->lane_flows);
    kc_vec_free(&k->data_tests);
    kc_vec_free(&k->fp64_uses);
    kc_vec_free(&k->compares);
    free(k);
}

void kc_model_delete(kc_model *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->kernels.len; i++)
        kernel_free(m->kernels.data[i]);
    kc_vec_free(&m->kernels);
    for (uint32_t i = 0; i < m->launches.len; i++)
        kc_vec_free(&m->launches.data[i].args);
    kc_vec_free(&m->launches);
    kc_vec_free(&m->host_calls);
    kc_vec_free(&m->host_calls_unparsed_at);
    kc_vec_free(&m->host_vars);
    kc_vec_free(&m->host_fns);
    kc_vec_free(&m->unsure_code);
    kc_vec_free(&m->gaps);
    kc_vec_free(&m->deps);
    kc_vec_free(&m->embedded);
    kc_model_delete(m->next);
    kc_arena_delete(m->arena);
    kc_source_delete(m->owned_src);
    free(m);
}

kc_kernel *kc_model_add_kernel(kc_model *m, const char *name)
{
    kc_kernel *k = kc_xcalloc(1, sizeof *k);
    k->name = kc_arena_strdup(m->arena, name);
    k->lang = m->lang;
    for (unsigned ax = 0; ax < 3; ax++)
        k->grid_cover[ax].size = KC_NONE;
    kc_vec_push(&m->kernels, k);
    return k;
}

void kc_model_drop_kernel(kc_model *m, uint32_t i)
{
    if (i >= m->kernels.len)
        return;
    kernel_free(m->kernels.data[i]);
    memmove(&m->kernels.data[i], &m->kernels.data[i + 1], (m->kernels.len - i - 1) * sizeof m->kernels.data[0]);
    m->kernels.len--;
}

static bool same_str(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

kc_gap *kc_model_add_gap(kc_model *m, kc_gap_kind kind, kc_span span, const char *what, const char *kernel)
{
    for (uint32_t i = 0; i < m->gaps.len; i++) {
        kc_gap *g = &m->gaps.data[i];
        if (g->kind == kind && same_str(g->what, what) && same_str(g->kernel, kernel)) {
            if (span.line != g->last_line) {
                g->lines++;
                g->last_line = span.line;
            }
            return g;
        }
    }
    kc_gap g = {.span = span, .kind = kind, .lines = 1, .last_line = span.line};
    g.what = what ? kc_arena_strdup(m->arena, what) : NULL;
    g.kernel = kernel ? kc_arena_strdup(m->arena, kernel) : NULL;
    kc_vec_push(&m->gaps, g);
    return kc_vec_last(&m->gaps);
}

uint32_t kc_kernel_add_symbol(kc_model *m, kc_kernel *k, const char *name, kc_symbol_kind kind)
{
    kc_symbol s = {0};
    s.name = kc_arena_strdup(m->arena, name);
    s.kind = kind;
    s.param = KC_NONE;
    s.multiple_of_symbol = KC_NONE;
    s.at_least_symbol = KC_NONE;
    kc_vec_push(&k->symbols, s);
    return k->symbols.len - 1;
}

uint32_t kc_kernel_find_symbol(const kc_kernel *k, const char *name)
{
    for (uint32_t i = 0; i < k->symbols.len; i++)
        if (strcmp(k->symbols.data[i].name, name) == 0)
            return i;
    return KC_NONE;
}

uint32_t kc_kernel_add_opaque(kc_model *m, kc_kernel *k, kc_span span, const char *text)
{
    kc_opaque o = {.span = span, .text = kc_arena_strdup(m->arena, text ? text : "?"), .tiles_of = KC_NONE};
    kc_vec_push(&k->opaques, o);
    return k->opaques.len - 1;
}

uint32_t kc_kernel_const_opaque(kc_model *m, kc_kernel *k, kc_span span, const char *text)
{
    for (uint32_t i = 0; i < k->opaques.len; i++)
        if (k->opaques.data[i].constant && kc_span_same(k->opaques.data[i].span, span))
            return i;
    uint32_t id = kc_kernel_add_opaque(m, k, span, text);
    k->opaques.data[id].constant = true;
    return id;
}

uint32_t kc_kernel_add_split(kc_model *m, kc_kernel *k, kc_span span, const char *text, kc_split_kind kind,
                             unsigned axis, int64_t div)
{
    for (uint32_t i = 0; i < k->opaques.len; i++) {
        const kc_opaque *o = &k->opaques.data[i];
        if (o->split == kind && o->split_axis == axis && o->split_div == div)
            return i;
    }
    uint32_t id = kc_kernel_add_opaque(m, k, span, text);
    k->opaques.data[id].split = (uint8_t)kind;
    k->opaques.data[id].split_axis = (uint8_t)axis;
    k->opaques.data[id].split_div = div;
    return id;
}

bool kc_loop_within(const kc_kernel *k, uint32_t inner, uint32_t outer)
{
    uint32_t guard = 0;
    while (inner != KC_NONE && inner < k->loops.len && guard++ < 100000) {
        if (inner == outer)
            return true;
        inner = k->loops.data[inner].parent;
    }
    return false;
}

bool kc_cond_chain_depends_on_loop(const kc_kernel *k, uint32_t cond, uint32_t loop)
{
    uint32_t guard = 0;
    while (cond != KC_NONE && cond < k->conds.len && guard++ < 100000) {
        if (k->conds.data[cond].deps.loops & kc_loop_bit(loop))
            return true;
        cond = k->conds.data[cond].parent;
    }
    return false;
}

static const char *const cuda_comp[] = {"x", "y", "z"};

const char *kc_atom_name(const kc_kernel *k, const kc_atom *a, char *buf, size_t n)
{
    switch ((kc_atom_kind)a->kind) {
    case KC_ATOM_LANE:
        if (k->lang == KC_LANG_CUDA) {
            snprintf(buf, n, "threadIdx.%s", a->id < 3 ? cuda_comp[a->id] : "?");
        } else if (a->id < k->aranges.len) {
            snprintf(buf, n, "%s", k->aranges.data[a->id].text);
        } else {
            snprintf(buf, n, "arange#%u", a->id);
        }
        break;
    case KC_ATOM_PROGRAM:
        if (k->lang == KC_LANG_CUDA)
            snprintf(buf, n, "blockIdx.%s", a->id < 3 ? cuda_comp[a->id] : "?");
        else
            snprintf(buf, n, "program_id(%u)", a->id);
        break;
    case KC_ATOM_BLOCK_DIM:
        snprintf(buf, n, "blockDim.%s", a->id < 3 ? cuda_comp[a->id] : "?");
        break;
    case KC_ATOM_GRID_DIM:
        if (k->lang == KC_LANG_CUDA)
            snprintf(buf, n, "gridDim.%s", a->id < 3 ? cuda_comp[a->id] : "?");
        else
            snprintf(buf, n, "num_programs(%u)", a->id);
        break;
    case KC_ATOM_LOOP:
        if (a->id < k->loops.len && k->loops.data[a->id].var)
            snprintf(buf, n, "%s", k->loops.data[a->id].var);
        else
            snprintf(buf, n, "loop#%u", a->id);
        break;
    case KC_ATOM_SYMBOL:
        snprintf(buf, n, "%s", a->id < k->symbols.len ? k->symbols.data[a->id].name : "?");
        break;
    case KC_ATOM_DATA:
        if (a->id < k->accesses.len && k->accesses.data[a->id].value_name)
            snprintf(buf, n, "%s", k->accesses.data[a->id].value_name);
        else if (a->id < k->accesses.len && k->accesses.data[a->id].base_name) /* a value loaded, not named */
            snprintf(buf, n, "%s[...]", k->accesses.data[a->id].base_name);
        else
            snprintf(buf, n, "load#%u", a->id);
        break;
    case KC_ATOM_OPAQUE:
        snprintf(buf, n, "(%s)", a->id < k->opaques.len ? k->opaques.data[a->id].text : "?");
        break;
    case KC_ATOM_HOST:
        snprintf(buf, n, "host#%u", a->id);
        break;
    default:
        snprintf(buf, n, "?");
    }
    return buf;
}

void kc_model_format_index(const kc_kernel *k, const kc_index *x, kc_strbuf *sb)
{
    if (!x) {
        kc_sb_append(sb, "<unknown>");
        return;
    }
    if (x->nmono == 0) {
        kc_sb_append(sb, "0");
        return;
    }
    /* Print non-constant monomials first, the constant last. */
    bool first = true;
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < x->nmono; i++) {
            const kc_mono *m = &x->mono[i];
            if ((pass == 0) != (m->nfac > 0))
                continue;
            int64_t c = m->coef;
            if (!first)
                kc_sb_append(sb, c < 0 ? " - " : " + ");
            else if (c < 0)
                kc_sb_append(sb, "-");
            uint64_t ac = c < 0 ? (uint64_t)0 - (uint64_t)c : (uint64_t)c;
            bool need_star = false;
            if (ac != 1 || m->nfac == 0) {
                kc_sb_appendf(sb, "%" PRIu64, ac);
                need_star = true;
            }
            for (unsigned f = 0; f < m->nfac; f++) {
                char buf[256];
                if (need_star)
                    kc_sb_append(sb, "*");
                kc_sb_append(sb, kc_atom_name(k, &m->fac[f], buf, sizeof buf));
                need_star = true;
            }
            first = false;
        }
}

const char *kc_model_index_str(const kc_model *m, const kc_kernel *k, const kc_index *x)
{
    kc_strbuf sb = {0};
    kc_model_format_index(k, x, &sb);
    const char *s = kc_arena_strdup(m->arena, kc_sb_str(&sb));
    kc_sb_free(&sb);
    return s;
}

void kc_model_format_dim(const kc_kernel *k, const kc_dim *d, kc_strbuf *sb)
{
    if (d->symbol != KC_NONE && d->symbol < k->symbols.len) {
        kc_sb_append(sb, k->symbols.data[d->symbol].name);
        if (d->value >= 0)
            kc_sb_appendf(sb, "=%" PRId64, d->value);
    } else if (d->value >= 0) {
        kc_sb_appendf(sb, "%" PRId64, d->value);
    } else {
        kc_sb_append(sb, "?");
    }
}

void kc_model_format_shape(const kc_kernel *k, const kc_shape *s, kc_strbuf *sb)
{
    kc_sb_append(sb, "[");
    for (unsigned i = 0; i < s->rank; i++) {
        if (i)
            kc_sb_append(sb, ", ");
        kc_model_format_dim(k, &s->dims[i], sb);
    }
    kc_sb_append(sb, "]");
}

kc_cmp kc_cmp_negate(kc_cmp c)
{
    switch (c) {
    case KC_CMP_LT: return KC_CMP_GE;
    case KC_CMP_GE: return KC_CMP_LT;
    case KC_CMP_LE: return KC_CMP_GT;
    case KC_CMP_GT: return KC_CMP_LE;
    case KC_CMP_EQ: return KC_CMP_NE;
    case KC_CMP_NE: return KC_CMP_EQ;
    }
    return c;
}

kc_cmp kc_cmp_mirror(kc_cmp c)
{
    switch (c) {
    case KC_CMP_LT: return KC_CMP_GT;
    case KC_CMP_GT: return KC_CMP_LT;
    case KC_CMP_LE: return KC_CMP_GE;
    case KC_CMP_GE: return KC_CMP_LE;
    default: return c;
    }
}

bool kc_cond_block_sign(const kc_cond *c)
{
    if (c->npreds != 1 || !c->preds[0].lhs || (c->preds[0].op != KC_CMP_LT && c->preds[0].op != KC_CMP_GE) ||
        (c->preds[0].rhs && c->preds[0].rhs->nmono))
        return false;
    const kc_index *x = c->preds[0].lhs;
    int64_t lane = 0;
    for (unsigned i = 0; i < x->nmono; i++)
        if (x->mono[i].nfac == 1 && x->mono[i].fac[0].kind == KC_ATOM_LANE && x->mono[i].fac[0].id == 0)
            lane = lane ? -1 : x->mono[i].coef;
    if (lane <= 0)
        return false;
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        if (mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LANE)
            continue;
        bool bdim = false;
        for (unsigned f = 0; f < mo->nfac; f++) {
            if (mo->fac[f].kind == KC_ATOM_LANE)
                return false;
            bdim |= mo->fac[f].kind == KC_ATOM_BLOCK_DIM && mo->fac[f].id == 0;
        }
        if (!bdim || mo->coef % lane != 0)
            return false;
    }
    return !(kc_index_deps(x).flags & KC_AF_DATA);
}

const kc_access *kc_kernel_unchecked_block_ptr(const kc_kernel *k, uint32_t axis)
{
    for (uint32_t i = 0; axis <= 2 && i < k->accesses.len; i++) {
        const kc_access *b = &k->accesses.data[i];
        if (b->block_ptr && !b->bounds_checked && (b->block_ptr_deps.programs & KC_PROG_AXIS(axis)))
            return b;
    }
    return NULL;
}
