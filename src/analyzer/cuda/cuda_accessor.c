/* cuda_accessor.c — PyTorch's tensor accessors as the memory they index.
 *
 * A kernel of a PyTorch extension takes a tensor as
 * `torch::PackedTensorAccessor32<float, 2, torch::RestrictPtrTraits> x`
 * (at::GenericPackedTensorAccessor<T, N, PtrTraits, index_t>: the data
 * pointer, N sizes and N strides) and reads it as `x[i][j]`, which is
 * `x.data()[i * x.stride(0) + j * x.stride(1)]`. Here the parameter is a
 * pointer to T in global memory, a chain of subscripts is one access whose
 * offset is the sum of index times stride, and `x.size(k)` / `x.stride(k)`
 * are what they are for a contiguous tensor: `x.size(k)` a symbol of the
 * parameter, `x.stride(k)` the product of the sizes after k (1 for the
 * last). The tensors such kernels take are contiguous (`CHECK_CONTIGUOUS(x)`,
 * `.contiguous()` before `packed_accessor32`), as Triton's `x.stride(-1)` is
 * presumed 1; and a stride is then as large as the sizes it is made of: the
 * row of an (N, 3) tensor of points is 3 elements, a record, where the row
 * of an (N, C) tensor that a loop walks to `x.size(1)` is a problem size.
 * The types are recognised by name, from PyTorch's own headers or from
 * the stand-in (shim/__kcheck_torch.h). */
#include "cuda_walk.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANK 8

/* The canonical spelling of t without qualifiers or reference. */
static char *canonical_spelling(CXType t)
{
    t = clang_getCanonicalType(clang_getNonReferenceType(t));
    CXString s = clang_getTypeSpelling(t);
    char *r = kc_xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return r;
}

bool kc_cuda_accessor_type(CXType t, kc_cuda_accessor *out)
{
    if (t.kind == CXType_Invalid)
        return false;
    char *sp = canonical_spelling(t);
    /* at::TensorAccessor<, at::GenericPackedTensorAccessor< (and PyTorch's
     * header-only HeaderOnlyGenericPackedTensorAccessor<) */
    const char *p = strstr(sp, "TensorAccessor<");
    size_t before = p ? (size_t)(p - sp) : 0;
    bool ok = p && (before == 0 || !isalnum((unsigned char)p[-1]) ||
                    (before >= 13 && strncmp(p - 13, "GenericPacked", 13) == 0));
    if (ok) {
        /* the arguments after the first: the rank, the pointer traits, the index type */
        const char *q = p + strlen("TensorAccessor<");
        int depth = 0;
        while (*q && !(depth == 0 && *q == ',')) {
            depth += *q == '<' || *q == '(';
            depth -= *q == '>' || *q == ')';
            q++;
        }
        ok = *q == ',';
        if (ok) {
            q++;
            while (*q == ' ')
                q++;
            char *end = NULL;
            unsigned long rank = strtoul(q, &end, 10);
            ok = end != q && rank >= 1 && rank <= MAX_RANK;
            out->rank = (unsigned)rank;
            out->restrict_ = strstr(q, "RestrictPtrTraits") != NULL;
            const char *last = strrchr(q, ',');
            out->index_bits = last && (strstr(last, "long") || strstr(last, "int64")) ? 64 : 32;
            if (!strchr(q, ',')) /* TensorAccessor<T, N> and its defaults: int64_t */
                out->index_bits = 64;
        }
    }
    if (ok) {
        out->elem = clang_Type_getTemplateArgumentAsType(clang_getCanonicalType(clang_getNonReferenceType(t)), 0);
        ok = out->elem.kind != CXType_Invalid;
    }
    free(sp);
    return ok;
}

/* The object an operator or member call is made on, or a null cursor. */
static CXCursor call_object(CXCursor call, bool member)
{
    if (!member)
        return clang_Cursor_getNumArguments(call) == 2 ? clang_Cursor_getArgument(call, 0) : clang_getNullCursor();
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    CXCursor obj = clang_getNullCursor();
    if (k.n >= 1 && kc_cuda_strip(k.v[0]).kind == CXCursor_MemberRefExpr) {
        kc_cuda_kids m;
        kc_cuda_kids_get(kc_cuda_strip(k.v[0]), &m);
        if (m.n >= 1)
            obj = m.v[0];
        kc_cuda_kids_free(&m);
    }
    kc_cuda_kids_free(&k);
    return obj;
}

/* The kernel parameter (or parameter struct field) symbol behind an
 * accessor value, or KC_NONE. */
static uint32_t accessor_symbol(kc_cuda_walk *w, const kc_cuda_val *v)
{
    return v->ptr && v->base != KC_NONE && v->base < w->k->symbols.len ? v->base : KC_NONE;
}

/* A symbol of the accessor's parameter: `x.size(k)`. */
static const kc_index *accessor_dim(kc_cuda_walk *w, uint32_t base, const char *what, unsigned k, uint8_t bits,
                                    uint32_t facts)
{
    /* (the symbols may move when one is added: what is needed is copied first) */
    const kc_symbol *b = &w->k->symbols.data[base];
    const char *name = kc_arena_printf(w->a, "%s.%s(%u)", b->name, what, k);
    uint32_t sym = kc_cuda_param_symbol(w, name, b->param, b->span, bits);
    w->k->symbols.data[sym].facts |= facts;
    return kc_cuda_ix_atom(w, KC_ATOM_SYMBOL, sym, (kc_deps){0}, bits);
}

/* The stride of dimension d of a contiguous tensor of `rank` dimensions:
 * the product of the sizes after d, in 64 bits. */
static const kc_index *accessor_stride(kc_cuda_walk *w, uint32_t base, unsigned d, unsigned rank, uint8_t bits)
{
    const kc_index *st = kc_cuda_ix_const(w, 1, 64);
    for (unsigned j = d + 1; j < rank; j++)
        st = kc_index_mul(w->a, st, kc_index_cast(w->a, accessor_dim(w, base, "size", j, bits, KC_SF_SHAPE_ARG), 64));
    return st;
}

/* `x.size(k)`, `x.stride(k)` with a constant k. */
static bool member_call(kc_cuda_walk *w, CXCursor e, const char *name, kc_cuda_ev_fn ev, kc_cuda_val *out)
{
    bool size = strcmp(name, "size") == 0, stride = strcmp(name, "stride") == 0;
    if ((!size && !stride) || clang_Cursor_getNumArguments(e) != 1)
        return false;
    CXCursor obj = call_object(e, true);
    kc_cuda_accessor acc;
    int64_t k;
    if (clang_Cursor_isNull(obj) || !kc_cuda_accessor_type(clang_getCursorType(obj), &acc) ||
        !kc_cuda_eval_int(clang_Cursor_getArgument(e, 0), &k) || k < 0 || k >= (int64_t)acc.rank)
        return false;
    kc_cuda_val o = ev(w, obj, KC_CUDA_EV_LOAD);
    uint32_t base = accessor_symbol(w, &o);
    int64_t at;
    if (base == KC_NONE || !kc_index_is_const(o.off, &at) || at != 0)
        return false; /* a sub-accessor (x[i].size(0)): its dimensions are not counted here */
    *out = kc_cuda_v_index(size ? accessor_dim(w, base, "size", (unsigned)k, acc.index_bits, KC_SF_SHAPE_ARG)
                                : accessor_stride(w, base, (unsigned)k, acc.rank, acc.index_bits));
    return true;
}

/* One subscript of a chain: `obj[idx]`, an overloaded operator (an
 * instantiation) or a subscript of a type-dependent object (a template). */
static bool chain_link(kc_cuda_walk *w, CXCursor c, CXCursor *obj, CXCursor *idx)
{
    if (c.kind == CXCursor_ArraySubscriptExpr) {
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        bool two = k.n == 2;
        if (two) {
            *obj = k.v[0];
            *idx = k.v[1];
        }
        kc_cuda_kids_free(&k);
        return two;
    }
    if (c.kind != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) != 2)
        return false;
    const char *name = kc_cuda_callee_name(w, c, clang_getCursorReferenced(c));
    if (!name || strcmp(name, "operator[]") != 0)
        return false;
    *obj = clang_Cursor_getArgument(c, 0);
    *idx = clang_Cursor_getArgument(c, 1);
    return true;
}

bool kc_cuda_accessor_call(kc_cuda_walk *w, CXCursor e, int mode, kc_cuda_ev_fn ev, kc_cuda_val *out)
{
    CXCursor obj, ix;
    if (!chain_link(w, e, &obj, &ix)) {
        if (e.kind != CXCursor_CallExpr)
            return false;
        const char *name = kc_cuda_callee_name(w, e, clang_getCursorReferenced(e));
        return name && member_call(w, e, name, ev, out);
    }
    /* The whole chain x[i][j]...: walked down to the accessor it starts
     * from; only a chain that reaches an element is an access (a
     * sub-accessor `x[i]` alone is left to the caller). */
    CXCursor idx[MAX_RANK];
    unsigned n = 0;
    for (;;) {
        if (n == MAX_RANK)
            return false;
        idx[n++] = ix;
        CXCursor inner = kc_cuda_strip(obj);
        if (!chain_link(w, inner, &obj, &ix))
            break;
    }
    kc_cuda_accessor acc;
    if (!kc_cuda_accessor_type(clang_getCursorType(obj), &acc) || n != acc.rank)
        return false;
    kc_cuda_val p = ev(w, obj, KC_CUDA_EV_LOAD);
    uint32_t base = accessor_symbol(w, &p);
    if (base == KC_NONE)
        return false;
    for (unsigned d = 0; d < n; d++) {
        CXCursor ic = idx[n - 1 - d];
        kc_cuda_val iv = ev(w, ic, KC_CUDA_EV_LOAD);
        if (d + 1 < acc.rank) {
            const kc_index *i = kc_index_cast(w->a, kc_cuda_as_index(w, &iv, ic), 64);
            iv = kc_cuda_v_index(kc_index_mul(w->a, i, accessor_stride(w, base, d, acc.rank, acc.index_bits)));
        }
        p = kc_cuda_ptr_add(w, p, &iv, ic, 1, 1);
    }
    CXType et = clang_getNonReferenceType(clang_getCursorType(e));
    *out = kc_cuda_deref(w, p, e, et.kind == CXType_Dependent ? acc.elem : et, mode);
    return true;
}

kc_cuda_val kc_cuda_accessor_param(kc_cuda_walk *w, uint32_t sym, const char *name, const kc_cuda_accessor *acc)
{
    w->k->symbols.data[sym].facts |= KC_SF_POINTER;
    return kc_cuda_mem_pointer(w, sym, name, KC_MEM_GLOBAL, acc->elem);
}

kc_cuda_val kc_cuda_struct_field(kc_cuda_walk *w, const kc_cuda_val *base, CXCursor member)
{
    uint32_t pidx = base->sparam - 1;
    const char *pname = base->spath ? base->spath : pidx < w->k->params.len ? w->k->params.data[pidx].name : "?";
    const char *field = kc_cuda_spelling(w->t, member);
    const char *name = kc_arena_printf(w->a, "%s.%s", pname, field);
    CXType t = clang_getCursorType(member);
    kc_span at = pidx < w->k->params.len ? w->k->params.data[pidx].span : (kc_span){0};
    uint32_t sym = kc_cuda_param_symbol(w, name, pidx, at, kc_cuda_ty_bits(t));
    kc_symbol *s = &w->k->symbols.data[sym];
    if (kc_cuda_ty_is_ptr(t))
        s->facts |= KC_SF_POINTER;
    kc_cuda_accessor acc;
    if (kc_cuda_ty_is_ptr(t))
        return kc_cuda_mem_pointer(w, sym, s->name, KC_MEM_GLOBAL, kc_cuda_ty_pointee(t));
    if (kc_cuda_accessor_type(t, &acc))
        return kc_cuda_accessor_param(w, sym, s->name, &acc);
    if (kc_cuda_ty_is_int(t))
        return kc_cuda_v_index(kc_cuda_ix_atom(w, KC_ATOM_SYMBOL, sym, (kc_deps){0}, kc_cuda_ty_bits(t)));
    kc_cuda_val v = kc_cuda_v_none();
    if (kc_cuda_ty_is_record(t)) { /* nested struct: fields keep the parameter and the path */
        v.sparam = base->sparam;
        v.spath = name;
    }
    return v;
}
