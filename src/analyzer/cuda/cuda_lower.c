/* cuda_lower.c — the top of the CUDA front end's lowering: from a libclang
 * translation unit to the kernel model. It finds the kernels, device
 * functions and launches of the main file, records what launches and calls
 * pass (template values, block sizes, local arrays), then hands each
 * function to the interpreter (cuda_walk.h) and the host code to
 * cuda_host.c. Cursors outside the main file are not lowered,
 * except device functions that main-file code calls (inlined by the
 * interpreter, with their accesses reported at the call).
 */
#include "cuda_lower.h"
#include "cuda_host.h"
#include "cuda_errcheck.h"
#include "cuda_launch.h"
#include "cuda_walk.h"
#include "kc_path.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- launches ------------------------------------------------------------ */

/* Finds the first reference to a function (the kernel) under `c`. */
static CXCursor find_function_ref(CXCursor c, unsigned depth)
{
    CXCursor none = clang_getNullCursor();
    if (depth > 16)
        return none;
    if (c.kind == CXCursor_DeclRefExpr || c.kind == CXCursor_OverloadedDeclRef) {
        /* `kernel<N>` in a template names its overloads before instantiation */
        CXCursor r = c.kind == CXCursor_OverloadedDeclRef && clang_getNumOverloadedDecls(c) >= 1
                         ? clang_getOverloadedDecl(c, 0)
                         : clang_getCursorReferenced(c);
        if (!clang_Cursor_isNull(r) &&
            (r.kind == CXCursor_FunctionDecl || r.kind == CXCursor_FunctionTemplate))
            return r;
    }
    return kc_cuda_first_in_kids(c, find_function_ref, depth + 1);
}

/* The integral template arguments of a specialization, in order, into
 * targs (at most KC_MAX_TARGS); how many (0 when one is not integral). */
static uint8_t integral_targs(CXCursor spec, int64_t targs[KC_MAX_TARGS])
{
    int n = clang_Cursor_getNumTemplateArguments(spec);
    if (n <= 0 || n > KC_MAX_TARGS)
        return 0;
    for (int i = 0; i < n; i++) {
        if (clang_Cursor_getTemplateArgumentKind(spec, (unsigned)i) != CXTemplateArgumentKind_Integral)
            return 0;
        targs[i] = clang_Cursor_getTemplateArgumentValue(spec, (unsigned)i);
    }
    return (uint8_t)n;
}

static void record_template_args(kc_cuda_tu *t, CXCursor spec, uint32_t line, kc_launch *L)
{
    L->ntargs = integral_targs(spec, L->targs);
    int n = clang_Cursor_getNumTemplateArguments(spec);
    if (n <= 0)
        return;
    CXCursor tmpl = clang_getSpecializedCursorTemplate(spec);
    if (clang_Cursor_isNull(tmpl))
        return;
    for (int i = 0; i < n && i < 64; i++) {
        if (clang_Cursor_getTemplateArgumentKind(spec, (unsigned)i) != CXTemplateArgumentKind_Integral)
            continue;
        kc_cuda_tval v = {.tmpl = tmpl, .param = (unsigned)i,
                     .value = clang_Cursor_getTemplateArgumentValue(spec, (unsigned)i), .line = line};
        kc_vec_push(&t->tvals, v);
    }
}

/* Text without blanks, into buf (false when it does not fit). */
static bool unblank(const char *t, size_t n, char *buf, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; t && i < n && t[i]; i++)
        if (!isspace((unsigned char)t[i])) {
            if (o + 1 >= cap)
                return false;
            buf[o++] = t[i];
        }
    buf[o] = 0;
    return o > 0;
}

/* A launch in a template that clang leaves unresolved (`k<T, SB><<<g,
 * b>>>(x)` with `x` of a dependent type): the values of its template
 * arguments that are constants where the launch is written (`SB` a
 * constexpr local, `128`), by their position in the written list,
 * recorded for every function template the name may denote. */
static void record_dependent_targs(kc_cuda_tu *t, CXCursor callee_expr, uint32_t line)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(callee_expr, &k);
    CXCursor ovl = clang_getNullCursor();
    for (unsigned i = 0; i < k.n && clang_Cursor_isNull(ovl); i++)
        if (k.v[i].kind == CXCursor_OverloadedDeclRef)
            ovl = k.v[i];
    const char *text = clang_Cursor_isNull(ovl) ? NULL : kc_cuda_text(t, callee_expr);
    const char *lt = text ? strchr(text, '<') : NULL;
    for (unsigned pos = 0; lt && pos < 64; pos++) {
        const char *a = lt + 1, *e = a;
        int depth = 0;
        for (; *e && !(depth == 0 && (*e == ',' || *e == '>')); e++)
            depth += (*e == '<' || *e == '(' || *e == '[' || *e == '{') ? 1
                     : (*e == '>' || *e == ')' || *e == ']' || *e == '}') ? -1
                                                                         : 0;
        char want[128], have[128];
        int64_t v = 0;
        bool known = false;
        if (unblank(a, (size_t)(e - a), want, sizeof want)) {
            for (unsigned i = 0; i < k.n && !known; i++) {
                const char *kt = clang_isExpression(k.v[i].kind) ? kc_cuda_text(t, k.v[i]) : NULL;
                if (kt && unblank(kt, strlen(kt), have, sizeof have) && strcmp(have, want) == 0)
                    known = kc_cuda_eval_int(k.v[i], &v);
            }
            char *end;
            long long lit = strtoll(want, &end, 0);
            if (!known && end != want && (*end == 0 || strspn(end, "uUlL") == strlen(end)))
                known = true, v = lit;
        }
        for (unsigned d = 0; known && d < clang_getNumOverloadedDecls(ovl); d++) {
            CXCursor tmpl = clang_getOverloadedDecl(ovl, d);
            if (tmpl.kind != CXCursor_FunctionTemplate)
                continue;
            kc_cuda_tval tv = {.tmpl = tmpl, .param = pos, .value = v, .line = line};
            kc_vec_push(&t->tvals, tv);
        }
        if (*e != ',')
            break;
        lt = e;
    }
    kc_cuda_kids_free(&k);
}

static const char *callee_name(kc_cuda_tu *t, CXCursor first);

/* The kernel a launch names when clang did not resolve it (a launch in a
 * template, `k<T, 4><<<g, b>>>(x)`): the callee's name, else the text
 * before `<<<` without its template arguments. */
static const char *launch_name(kc_cuda_tu *t, CXCursor call, const kc_cuda_kids *k)
{
    for (unsigned i = 0; i < k->n; i++) {
        if (kc_cuda_is_config_call(k->v[i]))
            continue;
        const char *n = callee_name(t, k->v[i]);
        if (n[0])
            return n;
        break;
    }
    const char *text = kc_cuda_text(t, call);
    const char *lt = text ? strstr(text, "<<<") : NULL;
    if (!lt)
        return "";
    size_t n = (size_t)(lt - text);
    /* strip `<...>` template arguments and white space at the end */
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\n'))
        n--;
    if (n > 0 && text[n - 1] == '>') {
        int depth = 0;
        size_t i = n;
        while (i > 0) {
            char ch = text[--i];
            depth += ch == '>' ? 1 : ch == '<' ? -1 : 0;
            if (depth == 0)
                break;
        }
        n = i;
    }
    size_t b = n;
    while (b > 0 && (isalnum((unsigned char)text[b - 1]) || text[b - 1] == '_' || text[b - 1] == ':'))
        b--;
    return n > b ? kc_arena_strndup(t->m->arena, text + b, n - b) : "";
}

/* Records a launch `kernel<<<...>>>(...)` (a CallExpr with an execution
 * configuration) or a cudaLaunchKernel call; false when `call` is
 * neither. */
static bool record_launch(kc_cuda_tu *t, CXCursor call)
{
    if (call.kind != CXCursor_CallExpr)
        return false;
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    CXCursor config = clang_getNullCursor();
    for (unsigned i = 0; i < k.n; i++)
        if (kc_cuda_is_config_call(k.v[i])) {
            config = k.v[i];
            break;
        }
    CXCursor callee = clang_getCursorReferenced(call);
    kc_arena *ar = t->m->arena;
    kc_launch L = {0};
    L.span = kc_cuda_span(t, call);
    if (!kc_cuda_macro_spelling(t, call, &L.spelled, &L.spelled_in))
        L.spelled = (kc_span){0, 0, 0, 0};
    if (!clang_Cursor_isNull(config)) {
        /* kernel<<<grid, block, smem, stream>>>(args) */
        L.kernel = clang_Cursor_isNull(callee) ? kc_cuda_spelling(t, call) : kc_cuda_spelling(t, callee);
        if (!L.kernel || !L.kernel[0])
            L.kernel = launch_name(t, call, &k);
        int nc = clang_Cursor_getNumArguments(config);
        if (nc >= 1)
            L.grid_text = kc_cuda_arg_text(t, clang_Cursor_getArgument(config, 0));
        if (nc >= 2)
            L.block_text = kc_cuda_arg_text(t, clang_Cursor_getArgument(config, 1));
        CXCursor grid = nc >= 1 ? clang_Cursor_getArgument(config, 0) : clang_getNullCursor();
        CXCursor block = nc >= 2 ? clang_Cursor_getArgument(config, 1) : clang_getNullCursor();
        if (nc < 2 || !kc_cuda_block_dims(t, block, L.block_dim))
            L.block_dim[0] = L.block_dim[1] = L.block_dim[2] = -1;
        if (nc >= 1)
            kc_cuda_grid_axes(t, grid, L.grid);
        if (nc >= 2)
            L.block_span = kc_cuda_span(t, block);
        kc_cuda_launch_bounds(t, grid, block, &L);
        int na = clang_Cursor_getNumArguments(call);
        int np = clang_Cursor_isNull(callee) ? -1 : clang_Cursor_getNumArguments(callee);
        kc_cuda_block_arg blk;
        kc_cuda_block_arg_read(t, block, &blk);
        for (int i = 0; i < na; i++) {
            CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
            kc_launch_arg a = {0};
            a.text = kc_cuda_arg_text(t, arg);
            if (i < np)
                a.param = kc_cuda_spelling(t, clang_Cursor_getArgument(callee, (unsigned)i));
            if (a.param && !a.param[0])
                a.param = NULL;
            kc_cuda_launch_arg_facts(t, &blk, arg, &a);
            kc_vec_push(&L.args, a);
        }
        if (!clang_Cursor_isNull(callee))
            record_template_args(t, callee, L.span.line, &L);
        else
            for (unsigned i = 0; i < k.n; i++)
                if (!kc_cuda_is_config_call(k.v[i])) {
                    record_dependent_targs(t, k.v[i], L.span.line);
                    break;
                }
    } else {
        /* cudaLaunchKernel((void *)kernel, grid, block, args, smem, stream) */
        const char *name = clang_Cursor_isNull(callee) ? "" : kc_cuda_spelling(t, callee);
        if (strcmp(name, "cudaLaunchKernel") != 0 && strcmp(name, "cudaLaunchCooperativeKernel") != 0 &&
            strcmp(name, "cudaLaunchKernelEx") != 0) {
            kc_cuda_kids_free(&k);
            return false;
        }
        int na = clang_Cursor_getNumArguments(call);
        bool ex = strcmp(name, "cudaLaunchKernelEx") == 0;
        CXCursor fnref = clang_getNullCursor();
        if (na >= (ex ? 2 : 1))
            fnref = find_function_ref(clang_Cursor_getArgument(call, ex ? 1 : 0), 0);
        L.kernel = clang_Cursor_isNull(fnref) ? kc_arena_strdup(ar, "?") : kc_cuda_spelling(t, fnref);
        L.block_dim[0] = L.block_dim[1] = L.block_dim[2] = -1;
        if (!ex && na >= 3) {
            L.grid_text = kc_cuda_arg_text(t, clang_Cursor_getArgument(call, 1));
            L.block_text = kc_cuda_arg_text(t, clang_Cursor_getArgument(call, 2));
            if (!kc_cuda_block_dims(t, clang_Cursor_getArgument(call, 2), L.block_dim))
                L.block_dim[0] = L.block_dim[1] = L.block_dim[2] = -1;
            kc_cuda_grid_axes(t, clang_Cursor_getArgument(call, 1), L.grid);
            kc_cuda_launch_bounds(t, clang_Cursor_getArgument(call, 1), clang_Cursor_getArgument(call, 2), &L);
            L.block_span = kc_cuda_span(t, clang_Cursor_getArgument(call, 2));
        }
        if (!clang_Cursor_isNull(fnref) && fnref.kind == CXCursor_FunctionDecl)
            record_template_args(t, fnref, L.span.line, &L);
    }
    kc_cuda_kids_free(&k);
    /* one launch, one record (a launch in a template can be met twice) */
    for (uint32_t i = 0; i < t->m->launches.len; i++) {
        kc_launch *o = &t->m->launches.data[i];
        if (kc_span_same(o->span, L.span)) {
            if ((!o->kernel || !o->kernel[0]) && L.kernel && L.kernel[0])
                o->kernel = L.kernel;
            kc_vec_free(&L.args);
            return true;
        }
    }
    kc_vec_push(&t->m->launches, L);
    return true;
}

typedef struct launch_scan {
    kc_cuda_tu *t;
} launch_scan;

/* The variable an argument passes the address of (`buf`, `&buf[i]`,
 * `buf + i`, through casts and parentheses), or a null cursor. */
static CXCursor address_of_var(CXCursor e, unsigned depth)
{
    if (depth > 16)
        return clang_getNullCursor();
    switch (e.kind) {
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(e);
        /* a variable, or a pointer parameter of the calling function */
        bool ok = d.kind == CXCursor_VarDecl || (d.kind == CXCursor_ParmDecl && kc_cuda_ty_is_ptr(clang_getCursorType(d)));
        return ok ? d : clang_getNullCursor();
    }
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_CXXConstCastExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_UnaryOperator:
    case CXCursor_BinaryOperator: {
        if (e.kind == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_AddrOf)
            return clang_getNullCursor();
        if (e.kind == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(e) != CXBinaryOperator_Add &&
            clang_getCursorBinaryOperatorKind(e) != CXBinaryOperator_Sub)
            return clang_getNullCursor();
        kc_cuda_kids k;
        kc_cuda_kids_get(e, &k);
        CXCursor r = clang_getNullCursor();
        /* the pointer operand: the last child of a cast (after its type),
         * the first of a subscript or a sum whose first operand is the
         * pointer */
        if (k.n) {
            CXCursor x = e.kind == CXCursor_CStyleCastExpr || e.kind == CXCursor_CXXStaticCastExpr ||
                                 e.kind == CXCursor_CXXReinterpretCastExpr || e.kind == CXCursor_CXXConstCastExpr
                             ? k.v[k.n - 1]
                             : k.v[0];
            if (e.kind == CXCursor_BinaryOperator && k.n == 2 &&
                !kc_cuda_ty_is_ptr(clang_getCursorType(x)) && !kc_cuda_ty_is_array(clang_getCursorType(x)))
                x = k.v[1];
            r = address_of_var(x, depth + 1);
        }
        kc_cuda_kids_free(&k);
        return r;
    }
    default:
        return clang_getNullCursor();
    }
}

/* The `__shared__` array a pointer argument points into: the array itself
 * (`tile`, `&tile[i]`), or a local pointer set once from one
 * (`indexT *idx = reinterpret_cast<indexT *>(smem);`); else null. */
static CXCursor shared_target(kc_cuda_tu *t, CXCursor v, unsigned depth)
{
    if (clang_Cursor_isNull(v) || depth > 4)
        return clang_getNullCursor();
    if (kc_cuda_decl_space(v, KC_MEM_LOCAL) == KC_MEM_SHARED)
        return v;
    if (!kc_cuda_ty_is_ptr(clang_getCursorType(v)) && clang_getCursorType(v).kind != CXType_Dependent)
        return clang_getNullCursor();
    CXCursor init = kc_cuda_fixed_value(t, v);
    return clang_Cursor_isNull(init) ? init : shared_target(t, address_of_var(init, 0), depth + 1);
}

/* Argument `parm`, a parameter of the calling function: which one. */
static void passed_on(kc_cuda_tu *t, CXCursor parm, kc_cuda_argspace *as)
{
    CXCursor fn = clang_getCursorSemanticParent(parm);
    kc_cuda_kids k;
    kc_cuda_kids_get(fn, &k);
    for (unsigned i = 0, n = 0; i < k.n; i++) {
        if (k.v[i].kind != CXCursor_ParmDecl)
            continue;
        if (clang_equalCursors(k.v[i], parm)) {
            as->via = kc_cuda_spelling(t, fn);
            as->via_param = n;
            as->via_kernel = kc_cuda_has_attr(fn, CXCursor_CUDAGlobalAttr);
            break;
        }
        n++;
    }
    kc_cuda_kids_free(&k);
    if (as->via && !as->via[0])
        as->via = NULL;
}

static void record_args(kc_cuda_tu *t, const char *name, const CXCursor *args, unsigned na)
{
    for (unsigned i = 0; i < na && i < 64; i++) {
        CXCursor v = address_of_var(args[i], 0);
        bool local = !clang_Cursor_isNull(v) && kc_cuda_ty_is_array(clang_getCursorType(v)) &&
                     kc_cuda_decl_space(v, KC_MEM_LOCAL) == KC_MEM_LOCAL &&
                     clang_getCursorSemanticParent(v).kind != CXCursor_TranslationUnit &&
                     clang_getCursorSemanticParent(v).kind != CXCursor_Namespace &&
                     clang_Cursor_getStorageClass(v) != CX_SC_Static && clang_Cursor_getStorageClass(v) != CX_SC_Extern;
        bool shared = !local && !clang_Cursor_isNull(shared_target(t, v, 0));
        kc_cuda_argspace as = {name, i, local, shared, NULL, 0, false};
        if (!local && !shared && !clang_Cursor_isNull(v) && v.kind == CXCursor_ParmDecl)
            passed_on(t, v, &as);
        kc_vec_push(&t->argspaces, as);
    }
}

/* The name of the function a call expression's first child refers to
 * (`f`, or an unresolved overload set), or "". */
static const char *callee_name(kc_cuda_tu *t, CXCursor first)
{
    CXCursor c = kc_cuda_strip(first);
    if (c.kind == CXCursor_DeclRefExpr) {
        CXCursor target = clang_getCursorReferenced(c);
        if (!clang_Cursor_isNull(target) && target.kind != CXCursor_FunctionDecl &&
            target.kind != CXCursor_FunctionTemplate && target.kind != CXCursor_OverloadedDeclRef)
            return "";
        const char *name = kc_cuda_spelling(t, c);
        if (name[0])
            return name;
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        /* `f<A, B>(...)` in a template: the overload set, then the
         * template arguments */
        if (k.n >= 1 && k.v[0].kind == CXCursor_OverloadedDeclRef)
            name = kc_cuda_spelling(t, k.v[0]);
        kc_cuda_kids_free(&k);
        return name;
    }
    return c.kind == CXCursor_OverloadedDeclRef ? kc_cuda_spelling(t, c) : "";
}

/* Records what a call passes to each argument (kc_cuda_param_space): a
 * call clang resolved, or one it could not (an unresolved overload set, or
 * a recovery expression whose first child names the callee, when an
 * argument's type is unknown). */
static void record_call_args(kc_cuda_tu *t, CXCursor call)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    CXCursor callee = call.kind == CXCursor_CallExpr ? clang_getCursorReferenced(call) : clang_getNullCursor();
    const char *name = !clang_Cursor_isNull(callee) ? kc_cuda_spelling(t, callee)
                       : k.n > 1                    ? callee_name(t, k.v[0])
                                                    : "";
    if (name[0] && call.kind == CXCursor_CallExpr && !clang_Cursor_isNull(callee)) {
        int na = clang_Cursor_getNumArguments(call);
        CXCursor args[64];
        unsigned n = na < 0 ? 0 : na < 64 ? (unsigned)na : 64;
        for (unsigned i = 0; i < n; i++)
            args[i] = clang_Cursor_getArgument(call, i);
        record_args(t, name, args, n);
    } else if (name[0]) {
        record_args(t, name, k.v + 1, k.n - 1);
    }
    kc_cuda_kids_free(&k);
}

static enum CXChildVisitResult launch_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    launch_scan *ls = data;
    if (clang_isDeclaration(c.kind) && !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (c.kind == CXCursor_CallExpr && record_launch(ls->t, c))
        return CXChildVisit_Continue; /* arguments hold no further launches */
    if (c.kind == CXCursor_CallExpr || c.kind == CXCursor_UnexposedExpr)
        record_call_args(ls->t, c);
    return CXChildVisit_Recurse;
}

/* ---- kernels and device functions --------------------------------------- */

typedef struct fn_list {
    KC_VEC(CXCursor) fns;
    unsigned depth;
} fn_list;

/* Function definitions of the main file, in file order (namespaces and
 * extern "C" blocks included); member functions of classes and class
 * templates too (device helpers: a kernel is never a member). */
static enum CXChildVisitResult fn_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    fn_list *l = data;
    switch (c.kind) {
    case CXCursor_Namespace:
    case CXCursor_LinkageSpec:
    case CXCursor_UnexposedDecl:
    case CXCursor_StructDecl:
    case CXCursor_ClassDecl:
    case CXCursor_ClassTemplate:
    case CXCursor_ClassTemplatePartialSpecialization:
        if (l->depth < 32) {
            l->depth++;
            clang_visitChildren(c, fn_visit, l);
            l->depth--;
        }
        break;
    case CXCursor_CXXMethod:
        if (!kc_cuda_has_attr(c, CXCursor_CUDADeviceAttr))
            break;
        /* fall through */
    case CXCursor_FunctionDecl:
    case CXCursor_FunctionTemplate:
        if (clang_Location_isFromMainFile(clang_getCursorLocation(c)) && clang_isCursorDefinition(c))
            kc_vec_push(&l->fns, c);
        break;
    default:
        break;
    }
    return CXChildVisit_Continue;
}

/* A `__global__` template defined in a source file (not a header) whose
 * name occurs nowhere else in the file's tokens: no launch, no explicit
 * instantiation, no pointer taken, not even in a macro's definition. No
 * other file can instantiate it, so nvcc compiles no code for it (a
 * kernel whose only launch was commented out, one left behind by a
 * refactoring): its findings would be about code that never runs. */
static bool unused_template(kc_cuda_tu *t, CXCursor fn, const char *name)
{
    if (fn.kind != CXCursor_FunctionTemplate || !name[0] || !t->src || !t->src->path)
        return false;
    if (!kc_path_is_cuda_source(t->src->path))
        return false; /* a header: its includers instantiate it */
    kc_cuda_toks tk;
    kc_cuda_main_toks(t, 0, t->src->len, &tk);
    unsigned uses = 0;
    for (unsigned i = 0; i < tk.n && uses < 2; i++)
        uses += kc_cuda_tok_is(&tk, i, name);
    return uses == 1;
}

/* Is fn a specialization of a template that already has
 * KC_MAX_SPECIALIZATIONS lowered? Counts it otherwise. A dispatch over ten
 * template flags instantiates thousands (DualSPHysics' force kernel and
 * its device function, 2,160 each: 26 s of lowering). */
typedef KC_VEC(uint32_t) count_vec;

static bool over_specializations(kc_cuda_tu *t, CXCursor fn, kc_cuda_cmap *seen, count_vec *counts)
{
    CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
    if (clang_Cursor_isNull(tmpl))
        return false;
    uint32_t at = kc_cuda_cmap_get(seen, tmpl);
    if (at == UINT32_MAX) {
        kc_vec_push(counts, 0);
        at = counts->len - 1;
        kc_cuda_cmap_put(seen, tmpl, at);
    }
    if (counts->data[at] >= KC_MAX_SPECIALIZATIONS) {
        kc_gap *g = kc_model_add_gap(t->m, KC_GAP_SPECIALIZATIONS, kc_cuda_span(t, tmpl), "", kc_cuda_spelling(t, tmpl));
        g->lines = ++counts->data[at] - KC_MAX_SPECIALIZATIONS; /* how many were left */
        return true;
    }
    counts->data[at]++;
    return false;
}

static void lower_functions(kc_cuda_tu *t)
{
    fn_list l = {0};
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), fn_visit, &l);
    kc_cuda_cmap seen = {0};
    count_vec counts = {0};
    for (uint32_t i = 0; i < l.fns.len; i++) {
        CXCursor fn = l.fns.data[i];
        const char *name = kc_cuda_spelling(t, fn);
        if ((kc_cuda_has_attr(fn, CXCursor_CUDAGlobalAttr) || kc_cuda_has_attr(fn, CXCursor_CUDADeviceAttr)) &&
            over_specializations(t, fn, &seen, &counts))
            continue;
        if (kc_cuda_has_attr(fn, CXCursor_CUDAGlobalAttr) && unused_template(t, fn, name)) {
            kc_model_add_gap(t->m, KC_GAP_UNUSED, kc_cuda_span(t, fn), name, name);
        } else if (kc_cuda_has_attr(fn, CXCursor_CUDAGlobalAttr)) {
            kc_kernel *k = kc_model_add_kernel(t->m, name);
            k->ntargs = integral_targs(fn, k->targs);
            kc_cuda_lower_function(t, fn, k, false);
        } else if (kc_cuda_has_attr(fn, CXCursor_CUDADeviceAttr)) {
            /* Emitted only when it touches memory: lower into a scratch
             * model first (device functions are small). */
            kc_model *scratch = kc_model_new(t->src, KC_LANG_CUDA);
            kc_model *real = t->m;
            t->m = scratch;
            kc_kernel *k = kc_model_add_kernel(scratch, name);
            kc_cuda_lower_function(t, fn, k, true);
            bool keep = k->accesses.len > 0 || k->literals.len > 0 || k->accums.len > 0;
            for (uint32_t c = 0; c < k->calls.len && !keep; c++)
                keep = (k->calls.data[c].flags & (KC_CALL_DOUBLE_MATH | KC_CALL_LEGACY_SHFL)) != 0;
            t->m = real;
            kc_model_delete(scratch);
            if (keep) {
                k = kc_model_add_kernel(t->m, name);
                kc_cuda_lower_function(t, fn, k, true);
            }
        }
    }
    kc_cuda_cmap_free(&seen);
    kc_vec_free(&counts);
    kc_vec_free(&l.fns);
}

/* The file's functions of the host at namespace scope (kc_model.host_fns:
 * launchers, stages of a host pipeline; not class members), what the
 * reach of the repository judges (kc_reach.h). */
static enum CXChildVisitResult host_fn_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    kc_cuda_tu *t = data;
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (c.kind == CXCursor_Namespace || c.kind == CXCursor_LinkageSpec)
        return CXChildVisit_Recurse;
    /* gtest's `TEST(Suite, Name) {...}`: a function `TEST` where the
     * header is missing, the out-of-line `TestBody` of a class where it is
     * found; one named `DISABLED_...` is skipped by the test binary. */
    bool test_body = c.kind == CXCursor_CXXMethod && strcmp(kc_cuda_spelling(t, c), "TestBody") == 0;
    if ((c.kind != CXCursor_FunctionDecl && c.kind != CXCursor_FunctionTemplate && !test_body) ||
        !clang_isCursorDefinition(c) || kc_cuda_has_attr(c, CXCursor_CUDAGlobalAttr) ||
        (kc_cuda_has_attr(c, CXCursor_CUDADeviceAttr) && !kc_cuda_has_attr(c, CXCursor_CUDAHostAttr)))
        return CXChildVisit_Continue;
    kc_host_fn h = {.name = kc_cuda_spelling(t, c), .span = kc_cuda_span(t, c)};
    if (!*h.name || !kc_span_valid(h.span))
        return CXChildVisit_Continue;
    size_t a, b;
    kc_cuda_span_offsets(t, h.span, &a, &b);
    const char *head = kc_cuda_disabled_test_at(t, a);
    if (head)
        h.unreferenced = kc_arena_printf(t->m->arena,
                                         "it is in `%s`, a disabled gtest test: the test binary skips it unless "
                                         "run with --gtest_also_run_disabled_tests",
                                         head);
    if (!test_body || head)
        kc_vec_push(&t->m->host_fns, h);
    return CXChildVisit_Continue;
}

void kc_cuda_lower_tu(CXTranslationUnit tu, const kc_source *src, kc_model *m, const kc_cuda_hole *holes,
                      uint32_t nholes)
{
    kc_cuda_tu t = {0};
    t.holes = holes;
    t.nholes = nholes;
    t.tu = tu;
    t.src = src;
    t.m = m;
    t.main = clang_getFile(tu, src->path);
    /* Launches first: template arguments seen at launch sites give values
     * to the kernels' template parameters. */
    launch_scan ls = {&t};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), launch_visit, &ls);
    kc_cuda_host_facts(&t);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), host_fn_visit, &t);
    kc_cuda_unparsed_api_calls(&t);
    lower_functions(&t);
    kc_cuda_tu_free_toks(&t);
    kc_vec_free(&t.tvals);
    kc_vec_free(&t.argspaces);
    kc_cuda_launch_cache_free(&t);
    kc_cuda_param_index_free(&t);
    kc_vec_free(&t.host_decls);
}
