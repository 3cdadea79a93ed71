/* cuda_host.c — facts of CUDA host code (KC601): which kernel launches an
 * error check follows, and which runtime API calls discard the
 * cudaError_t they return.
 *
 * Every host function definition of the main file is walked in source
 * order (macro expansions in expansion order) collecting events: launches,
 * error checks and runtime API calls, each with the if/else and switch
 * branches it sits in. A launch is checked when a check follows it in the
 * same function before another launch that can run on the same path; a
 * discarded API result is caught when a later last-error check (which
 * returns the error of any earlier runtime call) follows it.
 *
 * A check is: cudaGetLastError()/cudaPeekAtLastError() whose result is
 * used; a call or macro named like a checker (checkCudaErrors, CUDA_CHECK,
 * cudaCheck, gpuErrchk, getLastCudaError, C10_CUDA_KERNEL_LAUNCH_CHECK...);
 * a runtime API call whose result is used.
 *
 * A launch its own function leaves unchecked, or a discarded API result
 * no check there catches, is checked by the callers when the file calls
 * that function at least once and every call is followed, on its path, by
 * a last-error check (`launch_x(...); CUDA_CHECK(cudaGetLastError());`,
 * `launch_x(...); return cudaGetLastError();`): a launch error, or the
 * error of a failed API call, stays until a last-error call reads it, so
 * the caller's check reports this one.
 */
#include "cuda_host.h"

#include "cuda_launch.h"
#include "cuda_errcheck.h"
#include "cuda_use.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define HOST_MAX_DEPTH 256
#define HOST_MAX_BRANCH 16
#define HOST_BUDGET 2000000u

typedef enum ev_kind { EV_LAUNCH = 1, EV_CHECK, EV_API, EV_CALL } ev_kind;

typedef struct branch_at {
    unsigned stmt; /* hash of the if/switch statement */
    unsigned arm;  /* which branch */
} branch_at;

typedef struct host_ev {
    ev_kind kind;
    bool last_error; /* a check that reports the error of earlier calls */
    bool used;       /* EV_API: the result is used */
    bool of_api;     /* EV_CHECK: the test of a runtime call's own result */
    bool restores;   /* EV_API: cudaSetDevice of a device cudaGetDevice gave */
    bool api;        /* EV_CALL: of a runtime call (an EV_API follows) */
    bool cleanup;    /* EV_CALL: of a clean-up function (`cufftDestroy`) */
    bool host_only;  /* EV_CALL: of the C or C++ library, or of a checker */
    const char *macro_check; /* EV_LAUNCH: a check after it in its macro's body (kc_cuda_macro_check_after) */
    kc_span span;
    kc_call call;    /* EV_API */
    unsigned callee; /* EV_CALL: hash of the called function (fn_key) */
    branch_at path[HOST_MAX_BRANCH];
    unsigned npath;
} host_ev;

/* A launch or discarded API result its own function leaves unchecked (to
 * be judged by the calls of that function), or a call of a function of
 * the file and whether a last-error check follows it. */
typedef struct host_link {
    unsigned fn;      /* fn_key of the launching / the called function */
    unsigned in;      /* a call: fn_key of the function that makes it */
    kc_span span;     /* the launch; unset for a call or an API call */
    uint32_t call_ix; /* a discarded API call instead: its index in host_calls; else KC_NONE */
    bool checked;     /* a call: a last-error check follows it */
} host_link;

/* A function of the file passed as argument `i` of a call of function F
 * (`op_mul_mat(src, dst, op_sparse)`): it runs where F calls its
 * parameter `i`, which the calls with key param_key(F, i) stand for. */
typedef struct host_alias {
    unsigned fn, via;
} host_alias;

/* Host function definitions of the main file: free functions, methods,
 * templates, in namespaces, classes and extern "C" blocks. */
typedef struct host_fns {
    KC_VEC(CXCursor) v;
    unsigned depth;
} host_fns;

typedef struct host_ctx {
    kc_cuda_tu *t;
    KC_VEC(host_ev) evs;
    KC_VEC(host_link) pending, calls;
    KC_VEC(host_alias) aliases;
    CXCursor stack[HOST_MAX_DEPTH + 1];
    unsigned depth;
    branch_at path[HOST_MAX_BRANCH];
    unsigned npath;
    /* the if statement visited next is the `else` of an if whose arm is
     * the top of path: one more arm of the same chain */
    bool else_if;
    unsigned budget;
    const char *unread_var; /* value_use: the variable nothing reads that took the value, or NULL */
    const CXCursor *fns;    /* the host functions of the file */
    uint32_t nfns;
    host_fns *all;          /* where fns are gathered (local classes' methods join them) */
    unsigned got_device[8]; /* the function's variables cudaGetDevice wrote (clang_hashCursor) */
    unsigned ngot;
    /* checked stream creations and device switches of the function: the
     * argument's base name (kc_cuda_validation_key) and the call */
    struct { unsigned key; kc_span at; } valid[16];
    unsigned nvalid;
} host_ctx;

static enum CXChildVisitResult fns_visit(CXCursor c, CXCursor parent, CXClientData data);

/* The identifier written at the expansion start of `c` when it comes from
 * a macro (`CUDA_CHECK` for the call it expands to), else NULL. */
static const char *macro_name(host_ctx *x, CXCursor c)
{
    CXSourceLocation loc = clang_getRangeStart(clang_getCursorExtent(c));
    CXFile f1 = NULL, f2 = NULL;
    unsigned o1 = 0, o2 = 0;
    clang_getExpansionLocation(loc, &f1, NULL, NULL, &o1);
    clang_getSpellingLocation(loc, &f2, NULL, NULL, &o2);
    if (!f1 || (f2 && clang_File_isEqual(f1, f2) && o1 == o2))
        return NULL;
    uint32_t l, col, off;
    if (!kc_cuda_expansion_in_main(x->t, loc, &l, &col, &off))
        return NULL;
    const char *s = x->t->src->text;
    size_t n = x->t->src->len, e = off;
    while (e < n && (isalnum((unsigned char)s[e]) || s[e] == '_'))
        e++;
    if (e == off || e - off > 128)
        return NULL;
    return kc_arena_strndup(x->t->m->arena, s + off, e - off);
}

/* The member a dependent member expression names (`this->wait` in a
 * class template whose base depends on its parameter, which clang leaves
 * unnamed): the identifier its text ends with. */
static const char *member_name(host_ctx *x, CXCursor c)
{
    kc_span sp = kc_cuda_span(x->t, c);
    if (!kc_span_valid(sp))
        return "";
    size_t a, b;
    kc_cuda_span_offsets(x->t, sp, &a, &b);
    const char *s = x->t->src->text;
    size_t e = b;
    while (e > a && (isalnum((unsigned char)s[e - 1]) || s[e - 1] == '_'))
        e--;
    /* `base->name`, `base.name` or `name` as written (inside a macro's
     * body the text is the macro's name) */
    if (e == b || b - e > 128 || isdigit((unsigned char)s[e]) || (e > a && s[e - 1] != '>' && s[e - 1] != '.'))
        return "";
    return kc_arena_strndup(x->t->m->arena, s + e, b - e);
}

static const char *callee_name(host_ctx *x, CXCursor call)
{
    CXCursor ref = clang_getCursorReferenced(call);
    if (!clang_Cursor_isNull(ref) && !clang_isInvalid(ref.kind))
        return kc_cuda_spelling(x->t, ref);
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    const char *n = "";
    if (k.n >= 1) {
        CXCursor c = k.v[0];
        for (int i = 0; i < 8 && (c.kind == CXCursor_UnexposedExpr || c.kind == CXCursor_ParenExpr); i++) {
            kc_cuda_kids kk;
            kc_cuda_kids_get(c, &kk);
            CXCursor next = kk.n >= 1 ? kk.v[0] : c;
            kc_cuda_kids_free(&kk);
            if (clang_equalCursors(next, c))
                break;
            c = next;
        }
        n = kc_cuda_spelling(x->t, c);
        if (!n[0]) {
            CXCursor r = clang_getCursorReferenced(c);
            if (!clang_Cursor_isNull(r))
                n = kc_cuda_spelling(x->t, r);
        }
        if (!n[0] && c.kind == CXCursor_MemberRefExpr)
            n = member_name(x, c);
    }
    kc_cuda_kids_free(&k);
    return n;
}

static int value_use(host_ctx *x) { return kc_cuda_value_use(x->t, x->stack, x->depth - 1, &x->unread_var); }

static void push_ev(host_ctx *x, host_ev *e)
{
    e->npath = x->npath;
    memcpy(e->path, x->path, x->npath * sizeof *x->path);
    kc_vec_push(&x->evs, *e);
}

/* Does the subtree call cudaGetLastError() or cudaPeekAtLastError()? */
static enum CXChildVisitResult find_last_error(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if ((c.kind == CXCursor_CallExpr || c.kind == CXCursor_DeclRefExpr) && kc_cuda_names_last_error(c)) {
        *(bool *)data = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Does a return statement in the subtree return the last error
 * (`return cudaGetLastError();`)? */
static enum CXChildVisitResult find_returned_last_error(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (c.kind == CXCursor_ReturnStmt) {
        clang_visitChildren(c, find_last_error, data);
        return *(bool *)data ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

/* A call, whose result is used, of a function whose definition returns
 * the last error (`status = decode_boxes(...); ASSERT(status == cudaSuccess)`
 * with `decode_boxes` ending in `return cudaGetLastError();`): a last-error
 * check, of every launch before it too. */
static bool returns_last_error(CXCursor call)
{
    CXCursor ref = clang_getCursorReferenced(call);
    CXCursor def = clang_Cursor_isNull(ref) ? ref : clang_getCursorDefinition(ref);
    if (clang_Cursor_isNull(def) || clang_isInvalid(def.kind))
        return false;
    bool found = false;
    clang_visitChildren(def, find_returned_last_error, &found);
    return found;
}

/* Does a checker call with no call in its arguments check the last error
 * (`CUDA_CHECK_LAST()`, `cudaCheckError()`)? Where the checker's body is
 * visible it says (llm.c's `cudaFreeCheck(&p)` frees and checks its own
 * result); where it is not, a checker given nothing but the call is taken
 * for one, and one given a value (`CUDA_CHECK(err)`, `FREE_CHECK(&p)`)
 * checks that value. The name decides first (`...LastError`). */
static bool checks_last_error(CXCursor c, CXCursor ref, const char *name, const char *macro, bool has_args)
{
    if (kc_cuda_last_error_name(name) || (macro && kc_cuda_last_error_name(macro)))
        return true;
    /* how a checking macro stops the program (`if (e != cudaSuccess) {
     * ...; abort(); }`): it checks nothing itself */
    static const char *const stops[] = {"abort", "terminate", "__trap", "__builtin_trap", "__builtin_unreachable"};
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
        if (strcmp(name, stops[i]) == 0)
            return false;
    if (kc_cuda_args_call_status(c, 0))
        return false;
    if (c.kind == CXCursor_CallExpr) {
        /* (a call left dependent in a template: the function it names) */
        CXCursor def = clang_getCursorDefinition(ref);
        if (!clang_Cursor_isNull(def) && !clang_isInvalid(def.kind)) {
            bool found = false;
            clang_visitChildren(def, find_last_error, &found);
            return found;
        }
        /* defined elsewhere, given nothing but its place (`cuCheckForError(
         * __FILE__, __LINE__)`): no error to test but the last one */
        if (has_args)
            return kc_cuda_reports_last_error(c, ref);
    }
    return !has_args;
}

/* The key of a function for matching its calls with its definition: the
 * template of a specialisation, its canonical declaration. */
static unsigned fn_key(CXCursor f)
{
    CXCursor t = clang_getSpecializedCursorTemplate(f);
    if (!clang_Cursor_isNull(t) && !clang_isInvalid(t.kind))
        f = t;
    return clang_hashCursor(clang_getCanonicalCursor(f));
}

static unsigned fn_key(CXCursor f);

/* The one host function of the file named `name` (overloads, or
 * definitions for several specializations, make it ambiguous: null). */
static CXCursor function_by_name(const host_ctx *x, const char *name)
{
    CXCursor found = clang_getNullCursor();
    unsigned key = 0;
    for (uint32_t i = 0; i < x->nfns && name[0]; i++) {
        if (strcmp(kc_cuda_spelling(x->t, x->fns[i]), name) != 0)
            continue;
        unsigned k = fn_key(x->fns[i]);
        if (key && k != key)
            return clang_getNullCursor();
        key = k;
        found = x->fns[i];
    }
    return found;
}

/* The function a call calls: also through a dependent call in a template
 * (`Dispatched<T>(params)`: one declaration by that name), and through a
 * member call clang leaves dependent (`this->wait(n)` in a class template
 * whose base depends on its parameter: the file's one function by that
 * name). */
static CXCursor called_function(const host_ctx *x, CXCursor call, const char *name)
{
    CXCursor ref = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(ref) || clang_isInvalid(ref.kind))
        ref = kc_cuda_callee_ref(call);
    if (ref.kind == CXCursor_OverloadedDeclRef && clang_getNumOverloadedDecls(ref) == 1)
        ref = clang_getOverloadedDecl(ref, 0);
    if (clang_Cursor_isNull(ref) || clang_isInvalid(ref.kind)) {
        CXCursor f = function_by_name(x, name);
        if (!clang_Cursor_isNull(f))
            ref = f;
    }
    return ref;
}

/* The calls a function makes through its parameter `i`. */
static unsigned param_key(unsigned fn, unsigned i) { return fn * 31u + i + 1u; }

/* The calls made through a variable that holds functions (a dispatch
 * table `fn_t table[2][4] = {{launch_a<32>, ...}, ...}` called as
 * `table[0][i](...)`). */
static unsigned table_key(CXCursor var) { return fn_key(var) * 31u; }

/* The variable a call's callee reads a function from: `table[0][i](...)`,
 * `f(...)` with `f` a local function pointer; a null cursor if none. */
static CXCursor callee_variable(CXCursor call)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    CXCursor e = k.n ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
    kc_cuda_kids_free(&k);
    for (int hops = 0; hops < 4 && !clang_Cursor_isNull(e) && e.kind == CXCursor_ArraySubscriptExpr; hops++) {
        kc_cuda_kids_get(e, &k);
        e = k.n ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
        kc_cuda_kids_free(&k);
    }
    CXCursor v = !clang_Cursor_isNull(e) && e.kind == CXCursor_DeclRefExpr ? clang_getCursorReferenced(e)
                                                                             : clang_getNullCursor();
    return !clang_Cursor_isNull(v) && v.kind == CXCursor_VarDecl ? v : clang_getNullCursor();
}

static enum CXChildVisitResult table_entry(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    host_ctx *x = ((void **)data)[0];
    const CXCursor *var = ((void **)data)[1];
    if (c.kind == CXCursor_CallExpr || c.kind == CXCursor_LambdaExpr)
        return CXChildVisit_Continue; /* called, not stored */
    CXCursor f = c.kind == CXCursor_DeclRefExpr || c.kind == CXCursor_OverloadedDeclRef ? clang_getCursorReferenced(c)
                                                                                        : clang_getNullCursor();
    if (!clang_Cursor_isNull(f) && f.kind == CXCursor_OverloadedDeclRef && clang_getNumOverloadedDecls(f) >= 1)
        f = clang_getOverloadedDecl(f, 0);
    if (!clang_Cursor_isNull(f) && (f.kind == CXCursor_FunctionDecl || f.kind == CXCursor_FunctionTemplate)) {
        host_alias al = {fn_key(f), table_key(*var)};
        kc_vec_push(&x->aliases, al);
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

/* The functions a variable's initializer names (a table of launchers):
 * each runs where the variable is called. */
static void table_functions(host_ctx *x, CXCursor var)
{
    void *data[2] = {x, &var};
    clang_visitChildren(var, table_entry, data);
}

/* Functions of the file passed as arguments of call `c` (of the function
 * with key `callee`), by name or address: each runs where the callee
 * calls that parameter. */
static void passed_functions(host_ctx *x, CXCursor c, unsigned callee)
{
    int na = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < na; i++) {
        CXCursor a = kc_cuda_strip(clang_Cursor_getArgument(c, (unsigned)i));
        if (kc_cuda_unop_of(a) == CXUnaryOperator_AddrOf) {
            kc_cuda_kids ak;
            kc_cuda_kids_get(a, &ak);
            a = ak.n == 1 ? kc_cuda_strip(ak.v[0]) : clang_getNullCursor();
            kc_cuda_kids_free(&ak);
        }
        if (clang_Cursor_isNull(a) || a.kind != CXCursor_DeclRefExpr)
            continue;
        CXCursor fr = clang_getCursorReferenced(a);
        if (fr.kind != CXCursor_FunctionDecl && fr.kind != CXCursor_FunctionTemplate)
            continue;
        host_alias al = {fn_key(fr), param_key(callee, (unsigned)i)};
        kc_vec_push(&x->aliases, al);
    }
}

static void on_call(host_ctx *x, CXCursor c)
{
    if (kc_cuda_is_launch(c)) {
        host_ev e;
        memset(&e, 0, sizeof e);
        e.kind = EV_LAUNCH;
        e.span = kc_cuda_span(x->t, c);
        e.macro_check = kc_cuda_macro_check_after(x->t, c);
        push_ev(x, &e);
        return;
    }
    const char *name = callee_name(x, c);
    if (strcmp(name, "cudaConfigureCall") == 0 || strcmp(name, "__cudaPushCallConfiguration") == 0)
        return; /* the <<<...>>> of a launch */
    CXCursor ref = called_function(x, c, name);
    unsigned callee = 0;
    if (ref.kind == CXCursor_FunctionDecl || ref.kind == CXCursor_FunctionTemplate ||
        ref.kind == CXCursor_CXXMethod) {
        callee = fn_key(ref);
        passed_functions(x, c, callee);
    } else if (!clang_Cursor_isNull(callee_variable(c))) {
        callee = table_key(callee_variable(c));
    } else if (ref.kind == CXCursor_ParmDecl) {
        /* a call through a function-pointer parameter (`op(...)`) */
        CXCursor fn = clang_getCursorSemanticParent(ref);
        int np = clang_Cursor_getNumArguments(fn);
        for (int i = 0; i < np && !callee; i++)
            if (clang_equalCursors(clang_Cursor_getArgument(fn, (unsigned)i), ref))
                callee = param_key(fn_key(fn), (unsigned)i);
    }
    if (callee) {
        host_ev f;
        memset(&f, 0, sizeof f);
        f.kind = EV_CALL;
        f.span = kc_cuda_span(x->t, c);
        f.callee = callee;
        f.api = strncmp(name, "cuda", 4) == 0 && kc_cuda_returns_cuda_error(c);
        f.cleanup = kc_cleanup_callee(name);
        f.host_only = kc_cuda_checker_name(name) || kc_cuda_host_only_callee(ref);
        push_ev(x, &f);
    }
    const char *macro = macro_name(x, c);
    x->unread_var = NULL;
    int use = value_use(x);
    if (use == 0 && macro && !kc_cuda_in_macro_body(c) && kc_cuda_checker_name(macro) && kc_cuda_macro_by_arch(x->t, macro))
        use = 1; /* the host pass's checking macro is another (`#ifndef __CUDA_ARCH__`) */
    host_ev e;
    memset(&e, 0, sizeof e);
    e.span = kc_cuda_span(x->t, c);
    bool getlast = strcmp(name, "cudaGetLastError") == 0 || strcmp(name, "cudaPeekAtLastError") == 0;
    if (strcmp(name, "cudaLaunchKernel") == 0 || strcmp(name, "cudaLaunchKernelEx") == 0 ||
        strcmp(name, "cudaLaunchCooperativeKernel") == 0) {
        /* A launch through the API: checked by using its own result. */
        e.kind = EV_LAUNCH;
        push_ev(x, &e);
        if (use != 1)
            return;
    }
    if (use == 1 && (getlast || (callee && returns_last_error(c)))) {
        e.kind = EV_CHECK;
        e.last_error = true;
        push_ev(x, &e);
    } else if (kc_cuda_checker_name(name) ||
               (macro && kc_cuda_checker_name(macro) && !(strncmp(name, "cuda", 4) == 0 && kc_cuda_returns_cuda_error(c)))) {
        /* the checker itself; not the API call it is given, which starts
         * at the macro's expansion too (`cudaCheck(cudaDeviceSynchronize())`
         * checks that call's result, not the last error) */
        e.kind = EV_CHECK;
        e.last_error = checks_last_error(c, ref, name, macro, clang_Cursor_getNumArguments(c) > 0);
        e.of_api = !e.last_error && kc_cuda_wraps_runtime_call(x->t, c);
        push_ev(x, &e);
    } else if (callee && ref.kind != CXCursor_ParmDecl && kc_cuda_reports_last_error(c, ref)) {
        e.kind = EV_CHECK;
        e.last_error = true;
        push_ev(x, &e);
    }
    if (strncmp(name, "cuda", 4) == 0 && kc_cuda_returns_cuda_error(c)) {
        host_ev a;
        memset(&a, 0, sizeof a);
        a.kind = EV_API;
        a.span = e.span;
        a.used = use != 0;
        kc_call *k = &a.call;
        k->span = e.span;
        k->callee = name;
        k->flags = KC_CALL_RUNTIME_API | (use == 0 ? KC_CALL_RESULT_IGNORED : 0) | (use == 3 ? KC_CALL_POLLED : 0);
        k->macro = macro;
        k->stored_in = use == 0 ? x->unread_var : NULL;
        if (macro && kc_cuda_in_macro_body(c))
            k->flags |= KC_CALL_IN_MACRO_BODY;
        else if (macro && use == 0 && kc_cuda_checker_name(macro))
            k->flags |= KC_CALL_CHECKER_DROPS;
        k->guard = k->loop = KC_NONE;
        k->seq = x->evs.len;
        unsigned v = kc_cuda_arg_var(c, 0);
        if (v && strcmp(name, "cudaGetDevice") == 0 && x->ngot < sizeof x->got_device / sizeof x->got_device[0])
            x->got_device[x->ngot++] = v;
        for (unsigned g = 0; v && strcmp(name, "cudaSetDevice") == 0 && g < x->ngot; g++)
            a.restores |= x->got_device[g] == v;
        k->arg0_base = kc_cuda_arg_base_name(x->t, c);
        unsigned key = kc_cuda_validation_key(name, k->arg0_base);
        for (unsigned g = 0; key && g < x->nvalid && !kc_span_valid(k->validated_by); g++)
            k->validated_by = x->valid[g].key == key ? x->valid[g].at : k->validated_by;
        if (key && use == 1 && x->nvalid < sizeof x->valid / sizeof x->valid[0])
            x->valid[x->nvalid].key = key, x->valid[x->nvalid++].at = e.span;
        kc_cuda_kids kids;
        kc_cuda_kids_get(c, &kids);
        if (kids.n >= 1)
            k->callee_span = kc_cuda_span(x->t, kc_cuda_strip(kids.v[0]));
        kc_cuda_kids_free(&kids);
        if (clang_Cursor_getNumArguments(c) >= 1)
            k->arg0_span = kc_cuda_span(x->t, clang_Cursor_getArgument(c, 0));
        push_ev(x, &a);
        if (use == 1 && !getlast) {
            /* A used API result is a check too (it returns the errors of
             * earlier asynchronous work). */
            host_ev ch = e;
            ch.kind = EV_CHECK;
            ch.last_error = false;
            ch.of_api = true;
            push_ev(x, &ch);
        }
    }
}

static void visit(host_ctx *x, CXCursor c)
{
    if (x->depth >= HOST_MAX_DEPTH || x->budget == 0)
        return;
    x->budget--;
    if (c.kind == CXCursor_StructDecl || c.kind == CXCursor_ClassDecl) {
        /* a class local to the function: its methods are functions of
         * their own (a destructor's clean-up is judged as a destructor's) */
        clang_visitChildren(c, fns_visit, x->all);
        x->fns = x->all->v.data;
        x->nfns = x->all->v.len;
        return;
    }
    x->stack[x->depth++] = c;
    if (c.kind == CXCursor_VarDecl)
        table_functions(x, c);
    if (c.kind == CXCursor_CallExpr) {
        on_call(x, c);
    } else if (c.kind == CXCursor_UnexposedExpr &&
               !(x->depth >= 2 && x->stack[x->depth - 2].kind == CXCursor_CallExpr)) {
        /* (the callee of a parsed call, an implicit cast of its name, is
         * no recovered call: inside a macro its span is the whole
         * `cudaCheck(cudaMalloc(...))`) */
        const char *name = kc_cuda_recovered_call(x->t, c);
        if (name && kc_cuda_checker_name(name)) {
            host_ev e;
            memset(&e, 0, sizeof e);
            e.kind = EV_CHECK;
            e.span = kc_cuda_span(x->t, c);
            kc_cuda_kids ak;
            kc_cuda_kids_get(c, &ak); /* the callee, then the arguments */
            e.last_error = checks_last_error(c, clang_getCursorReferenced(c), name, NULL, ak.n > 1);
            kc_cuda_kids_free(&ak);
            push_ev(x, &e);
        }
    }
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    unsigned ci = k.n;
    if (c.kind == CXCursor_IfStmt || c.kind == CXCursor_SwitchStmt)
        for (unsigned i = 0; i < k.n && ci == k.n; i++)
            if (clang_isExpression(k.v[i].kind))
                ci = i;
    /* `if (a) ... else if (b) ... else ...` is one branch of many arms,
     * not ever deeper ones: a chain of a hundred dispatch arms
     * (`CALL_IF(...)` macros) would pass the path's depth, and launches in
     * arms past it would look like a sequence */
    bool chained = c.kind == CXCursor_IfStmt && x->else_if && x->npath > 0;
    unsigned base = chained ? x->path[x->npath - 1].arm : 0;
    x->else_if = false;
    for (unsigned i = 0; i < k.n; i++) {
        bool arm = i > ci && (chained || x->npath < HOST_MAX_BRANCH);
        if (arm && chained) {
            x->path[x->npath - 1].arm = base + (i - ci) - 1;
        } else if (arm) {
            x->path[x->npath].stmt = clang_hashCursor(c);
            x->path[x->npath].arm = i - ci;
            x->npath++;
        }
        x->else_if = arm && c.kind == CXCursor_IfStmt && i - ci == 2 && k.v[i].kind == CXCursor_IfStmt;
        if (arm && c.kind == CXCursor_SwitchStmt && k.v[i].kind == CXCursor_CompoundStmt) {
            /* each case label starts an arm of its own */
            kc_cuda_kids cs;
            kc_cuda_kids_get(k.v[i], &cs);
            x->stack[x->depth++] = k.v[i];
            unsigned a = 100;
            for (unsigned j = 0; j < cs.n; j++) {
                if (cs.v[j].kind == CXCursor_CaseStmt || cs.v[j].kind == CXCursor_DefaultStmt)
                    x->path[x->npath - 1].arm = ++a;
                visit(x, cs.v[j]);
            }
            x->depth--;
            kc_cuda_kids_free(&cs);
        } else {
            visit(x, k.v[i]);
        }
        x->else_if = false;
        if (arm && chained)
            x->path[x->npath - 1].arm = base;
        else if (arm)
            x->npath--;
    }
    kc_cuda_kids_free(&k);
    x->depth--;
}

/* Paths are stacks (entry k: the k-th if/switch around the event, and
 * its arm), so a statement two events share sits at the same depth in
 * both, and once their entries differ no deeper one is shared. */

/* Can the two events run on the same path (not in different arms of one
 * if/switch)? */
static bool same_path(const host_ev *a, const host_ev *b)
{
    for (unsigned i = 0; i < a->npath && i < b->npath && a->path[i].stmt == b->path[i].stmt; i++)
        if (a->path[i].arm != b->path[i].arm)
            return false;
    return true;
}

/* Does `b`, later than `a`, run whenever `a` does: every branch `b` is
 * in holds `a` too? */
static bool runs_after(const host_ev *a, const host_ev *b)
{
    if (b->npath > a->npath)
        return false;
    for (unsigned j = 0; j < b->npath; j++)
        if (a->path[j].stmt != b->path[j].stmt || a->path[j].arm != b->path[j].arm)
            return false;
    return true;
}

/* A statement that is only an unknown name named like a checker, with no
 * arguments (`CUDA_CHECK_ERRORS;`, `CHECK_LAUNCH();` from a header kcheck
 * does not have), left no expression behind: it is taken for a last-error
 * check, on every path, in its place among the events. One with arguments
 * (`cublasCheck(cublasSgemm(...))`) checks what it is given. */
static void unknown_checkers(host_ctx *x, CXCursor body)
{
    kc_span b = kc_cuda_span(x->t, body);
    if (!kc_span_valid(b))
        return;
    for (uint32_t i = 0; i < x->t->nholes; i++) {
        const kc_cuda_hole *h = &x->t->holes[i];
        bool inside = (h->line > b.line || (h->line == b.line && h->col > b.col)) &&
                      (h->line < b.end_line || (h->line == b.end_line && h->col < b.end_col));
        if (!inside || !h->name || !kc_cuda_checker_name(h->name) || !kc_cuda_bare_statement(x->t->src, h->line, h->col))
            continue;
        host_ev e;
        memset(&e, 0, sizeof e);
        e.kind = EV_CHECK;
        e.last_error = true;
        e.span = (kc_span){h->line, h->col, h->line, h->col};
        uint32_t at = 0;
        while (at < x->evs.len && (x->evs.data[at].span.line < h->line ||
                                   (x->evs.data[at].span.line == h->line && x->evs.data[at].span.col < h->col)))
            at++;
        kc_vec_push(&x->evs, e);
        memmove(&x->evs.data[at + 1], &x->evs.data[at], (x->evs.len - 1 - at) * sizeof e);
        x->evs.data[at] = e;
    }
}

/* Does the device switch of event i serve clean-up only: up to the next
 * switch (or the function's end), every call after it frees, destroys,
 * resets or undoes peer access (one at least), checks, or is the C or C++
 * library's, and nothing is launched (`cudaSetDevice(g); cudaFree(p[g]);`
 * in a loop over the devices)? Its failure changes nothing the program
 * computes, as a clean-up call's does not. Calls that clang cannot resolve
 * (in a template) make no event and are not seen. */
static bool switch_for_cleanup(const host_ctx *x, uint32_t i)
{
    bool freed = false;
    for (uint32_t j = i + 1; j < x->evs.len; j++) {
        const host_ev *f = &x->evs.data[j];
        if (f->kind == EV_LAUNCH)
            return false;
        if (f->kind == EV_API && strcmp(f->call.callee, "cudaSetDevice") == 0)
            break;
        if (f->kind == EV_API && !kc_cleanup_callee(f->call.callee))
            return false;
        if (f->kind == EV_CALL && !f->api && !f->cleanup && !f->host_only)
            return false;
        freed |= f->kind == EV_API || (f->kind == EV_CALL && f->cleanup);
    }
    return freed;
}

/* A launch event no check follows, and whether a check compiled out of
 * this build does. */
typedef struct {
    uint32_t ev;
    bool debug;
} unchecked_launch;

static void host_function(host_ctx *x, CXCursor fn)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(fn, &k);
    CXCursor body = clang_getNullCursor();
    for (unsigned i = 0; i < k.n; i++)
        if (k.v[i].kind == CXCursor_CompoundStmt)
            body = k.v[i];
    kc_cuda_kids_free(&k);
    if (clang_Cursor_isNull(body))
        return;
    x->evs.len = 0;
    x->depth = 0;
    x->npath = 0;
    x->ngot = 0;
    x->nvalid = 0;
    visit(x, body);
    unknown_checkers(x, body);
    kc_model *m = x->t->m;
    KC_VEC(uint32_t) last_checks = {0};
    KC_VEC(unchecked_launch) unchecked = {0};
    int teardown = -1; /* a destructor's clean-up (below), once asked */
    for (uint32_t i = 0; i < x->evs.len; i++)
        if (x->evs.data[i].kind == EV_CHECK && x->evs.data[i].last_error)
            kc_vec_push(&last_checks, i);
    for (uint32_t i = 0; i < x->evs.len; i++) {
        host_ev *e = &x->evs.data[i];
        if (e->kind == EV_LAUNCH) {
            /* Any check before the next launch; a last-error check (which
             * reports the error of any earlier call) anywhere after it. */
            bool checked = false, tail = true, other_launch = false;
            for (uint32_t j = i + 1; j < x->evs.len && !checked; j++) {
                host_ev *f = &x->evs.data[j];
                if (f->kind == EV_CALL || !same_path(e, f))
                    continue;
                /* only more launches and checks after it: the caller's check covers what remains */
                if (f->kind != EV_LAUNCH && f->kind != EV_CHECK)
                    tail = false;
                if (f->kind == EV_LAUNCH)
                    other_launch = true;
                else if (f->kind == EV_CHECK)
                    checked = !other_launch || f->last_error;
            }
            /* `ORcudaKernelCheck;` compiled to nothing: checked in the debug builds */
            bool debug_check_empty = false;
            const char *debug_check =
                checked ? NULL : kc_cuda_debug_check_after(x->t, e->span, kc_cuda_span(x->t, body), &debug_check_empty);
            if (!checked && !debug_check && e->macro_check)
                debug_check = e->macro_check, debug_check_empty = true;
            /* an earlier unchecked launch in another arm of a branch
             * around both: one check after the branch covers the two
             * (where a compiled-out check follows both or neither) */
            kc_span alt = {0, 0, 0, 0};
            for (uint32_t u = 0; !checked && u < unchecked.len && !kc_span_valid(alt); u++) {
                const host_ev *o = &x->evs.data[unchecked.data[u].ev];
                if (!same_path(e, o) && !kc_span_same(o->span, e->span) && unchecked.data[u].debug == !!debug_check)
                    alt = o->span; /* (not the same code, expanded in every case of a dispatch) */
            }
            for (uint32_t l = 0; l < m->launches.len; l++) {
                kc_launch *L = &m->launches.data[l];
                if (kc_span_same(L->span, e->span)) {
                    L->in_host_code = true;
                    L->error_checked |= checked;
                    L->at_function_end = tail;
                    L->alt_of = alt, L->debug_check = debug_check, L->debug_check_empty = debug_check_empty;
                    if (!checked)
                        L->test_assert = kc_cuda_test_assert_after(x->t, e->span, kc_cuda_span(x->t, body),
                                                                   &L->test_assert_line);
                    kc_cuda_asserted_args(x->t, fn, L);
                }
            }
            if (!checked) {
                unchecked_launch u = {i, debug_check != NULL};
                kc_vec_push(&unchecked, u);
                host_link p = {.fn = fn_key(fn), .span = e->span, .call_ix = KC_NONE};
                kc_vec_push(&x->pending, p);
            }
        } else if (e->kind == EV_CALL) {
            host_link call = {.fn = e->callee, .in = fn_key(fn), .call_ix = KC_NONE, .checked = false};
            /* a last-error check after it on its path (the checks in order) */
            for (uint32_t c = 0; c < last_checks.len && !call.checked; c++)
                call.checked = last_checks.data[c] > i && same_path(e, &x->evs.data[last_checks.data[c]]);
            kc_vec_push(&x->calls, call);
        } else if (e->kind == EV_API && kc_span_valid(e->span)) {
            /* A destructor has no way to report a failure (it must not
             * throw, and aborting ends a program that was finishing):
             * what it calls (`cudaSetDevice(id); cudaFree(p);`) is
             * clean-up, judged as cudaFree is; so is a noexcept member it calls. */
            if (teardown < 0)
                teardown = fn.kind == CXCursor_Destructor || kc_cuda_teardown_method(fn);
            if (teardown || (!e->used && strcmp(e->call.callee, "cudaSetDevice") == 0 && switch_for_cleanup(x, i)))
                continue;
            kc_call c = e->call;
            /* cudaDeviceSynchronize takes nothing that can be wrong: its
             * only errors are faults of earlier kernels, which are sticky,
             * so every later runtime call whose result is tested returns
             * them again (not a mere function named like a checker), if
             * it runs whenever the synchronization does. */
            bool sticky_only = strcmp(c.callee, "cudaDeviceSynchronize") == 0 ||
                               strcmp(c.callee, "cudaThreadSynchronize") == 0;
            /* The device queries take nothing that can be wrong either,
             * and neither does restoring a device the runtime gave: their
             * only errors are the runtime's failure to start and earlier
             * faults, which every later call returns too. */
            sticky_only |= strcmp(c.callee, "cudaGetDevice") == 0 ||
                           strcmp(c.callee, "cudaGetDeviceCount") == 0 || e->restores || kc_span_valid(c.validated_by);
            for (uint32_t j = i + 1; j < x->evs.len; j++) {
                const host_ev *f = &x->evs.data[j];
                if (f->kind != EV_CHECK || !same_path(e, f))
                    continue;
                if (f->last_error) {
                    c.flags |= KC_CALL_ERROR_CAUGHT;
                    break;
                }
                if (sticky_only && f->of_api && runs_after(e, f) && !(c.flags & KC_CALL_FAULT_REPORTED_LATER)) {
                    c.flags |= KC_CALL_FAULT_REPORTED_LATER;
                    c.later_check = f->span;
                }
            }
            /* after a checked call that waited for the device, with only
             * clean-up and code that calls nothing since, a synchronization
             * has nothing pending: the faults of earlier kernels were that
             * call's error */
            uint32_t j = i;
            while (j > 0 && (x->evs.data[j - 1].kind == EV_CALL || !runs_after(e, &x->evs.data[j - 1]) ||
                             (x->evs.data[j - 1].kind == EV_CHECK && !kc_cuda_text_waits(x->t, x->evs.data[j - 1].span)) ||
                             (x->evs.data[j - 1].kind == EV_API && kc_cleanup_callee(x->evs.data[j - 1].call.callee))))
                j--; /* (an error branch of a checker: not on the way here) */
            /* (the calls skipped are judged by their text below: a
             * checker, clean-up, host output) */
            const host_ev *w = j > 0 ? &x->evs.data[j - 1] : NULL;
            if (sticky_only && !e->restores && strncmp(c.callee, "cudaGetDevice", 13) != 0 && w &&
                ((w->kind == EV_API && w->used && kc_cuda_waits_for_device(w->call.callee) &&
                  kc_cuda_text_waits(x->t, w->span)) ||
                 (w->kind == EV_CHECK && w->of_api)) &&
                runs_after(e, w) && kc_cuda_nothing_enqueued_between(x->t, w->span, e->span)) {
                c.flags |= KC_CALL_NOTHING_PENDING;
                c.later_check = w->span;
            }
            kc_vec_push(&m->host_calls, c);
            if (!e->used && !(c.flags & KC_CALL_ERROR_CAUGHT)) {
                host_link p = {.fn = fn_key(fn), .call_ix = m->host_calls.len - 1};
                kc_vec_push(&x->pending, p);
            }
        }
    }
    kc_vec_free(&unchecked);
    kc_vec_free(&last_checks);
}

/* Is every call of function `fn` in the file (at least one) followed by
 * a last-error check in its caller, or made by a function every call of
 * which is so (up to CHECK_DEPTH callers up)? A launch error stays pending
 * until a cudaGetLastError reads it. Computed for every function at once,
 * level by level (level d: callers up to d levels up), in time linear in
 * the calls per level: a file that dispatches thousands of template
 * instantiations (ggml's mmvf.cu) makes as many calls. */
#define CHECK_DEPTH 3

typedef struct checked_table {
    unsigned *keys;                  /* distinct function keys, sorted */
    uint32_t nkeys;
    uint8_t *ok[CHECK_DEPTH + 1];    /* ok[d][i]: keys[i]'s calls are all checked, d levels up */
} checked_table;

static int key_cmp(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

static int64_t key_index(const checked_table *t, unsigned key)
{
    const unsigned *f = bsearch(&key, t->keys, t->nkeys, sizeof *t->keys, key_cmp);
    return f ? f - t->keys : -1;
}

static void checked_build(const host_ctx *x, checked_table *t)
{
    uint32_t n = x->calls.len;
    t->keys = kc_xcalloc(2 * (size_t)n + 1, sizeof *t->keys);
    t->nkeys = 0;
    for (uint32_t j = 0; j < n; j++) {
        t->keys[t->nkeys++] = x->calls.data[j].fn;
        t->keys[t->nkeys++] = x->calls.data[j].in;
    }
    qsort(t->keys, t->nkeys, sizeof *t->keys, key_cmp);
    uint32_t u = 0;
    for (uint32_t i = 0; i < t->nkeys; i++)
        if (!u || t->keys[i] != t->keys[u - 1])
            t->keys[u++] = t->keys[i];
    t->nkeys = u;
    /* each call's function and caller as indices, once for every level */
    uint32_t *fi = kc_xcalloc(2 * (size_t)n + 1, sizeof *fi), *ii = fi + n;
    uint32_t *ncalls = kc_xcalloc(u + 1, sizeof *ncalls), *nok = kc_xcalloc(u + 1, sizeof *nok);
    for (uint32_t j = 0; j < n; j++) {
        fi[j] = (uint32_t)key_index(t, x->calls.data[j].fn);
        ii[j] = (uint32_t)key_index(t, x->calls.data[j].in);
        ncalls[fi[j]]++;
    }
    for (unsigned d = 0; d <= CHECK_DEPTH; d++) {
        t->ok[d] = kc_xcalloc(u + 1, 1);
        memset(nok, 0, (u + 1) * sizeof *nok);
        for (uint32_t j = 0; j < n; j++) {
            const host_link *c = &x->calls.data[j];
            nok[fi[j]] += c->checked || (d > 0 && c->in != c->fn && t->ok[d - 1][ii[j]]);
        }
        for (uint32_t i = 0; i < u; i++)
            t->ok[d][i] = ncalls[i] && nok[i] == ncalls[i];
    }
    free(fi);
    free(ncalls);
    free(nok);
}

static bool calls_checked(const checked_table *t, unsigned fn, unsigned depth)
{
    int64_t i = key_index(t, fn);
    return i >= 0 && t->ok[depth][i];
}

static void checked_free(checked_table *t)
{
    free(t->keys);
    for (unsigned d = 0; d <= CHECK_DEPTH; d++)
        free(t->ok[d]);
}

/* Launches and discarded API results their own functions leave unchecked,
 * in functions that the file calls only where a last-error check follows
 * the call (or follows every call of the function that calls it). */
static void callers_check(host_ctx *x)
{
    kc_model *m = x->t->m;
    checked_table tab;
    checked_build(x, &tab);
    for (uint32_t i = 0; i < x->pending.len; i++) {
        const host_link *p = &x->pending.data[i];
        uint32_t ncalls = 0, nchecked = 0;
        for (uint32_t j = 0; j < x->calls.len; j++)
            if (x->calls.data[j].fn == p->fn) {
                ncalls++;
                nchecked += x->calls.data[j].checked ||
                            (x->calls.data[j].in != p->fn && calls_checked(&tab, x->calls.data[j].in, CHECK_DEPTH));
            }
        /* passed to a function that calls it through a parameter: those
         * calls count (an alias with no such call is one unchecked use) */
        for (uint32_t a = 0; a < x->aliases.len; a++) {
            if (x->aliases.data[a].fn != p->fn)
                continue;
            uint32_t via = 0;
            for (uint32_t j = 0; j < x->calls.len; j++)
                if (x->calls.data[j].fn == x->aliases.data[a].via) {
                    via++;
                    nchecked += x->calls.data[j].checked;
                }
            ncalls += via ? via : 1;
        }
        if (!ncalls || nchecked != ncalls)
            continue;
        if (p->call_ix != KC_NONE) {
            m->host_calls.data[p->call_ix].flags |= KC_CALL_ERROR_CAUGHT;
            continue;
        }
        for (uint32_t l = 0; l < m->launches.len; l++) {
            kc_launch *L = &m->launches.data[l];
            if (kc_span_same(L->span, p->span))
                L->error_checked = L->checked_by_caller = true;
        }
    }
    checked_free(&tab);
}

static enum CXChildVisitResult fns_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    host_fns *l = data;
    switch (c.kind) {
    case CXCursor_Namespace:
    case CXCursor_LinkageSpec:
    case CXCursor_UnexposedDecl:
    case CXCursor_ClassDecl:
    case CXCursor_StructDecl:
    case CXCursor_ClassTemplate:
        if (l->depth < 32 && clang_Location_isFromMainFile(clang_getCursorLocation(c))) {
            l->depth++;
            clang_visitChildren(c, fns_visit, l);
            l->depth--;
        }
        break;
    case CXCursor_FunctionDecl:
    case CXCursor_FunctionTemplate:
    case CXCursor_CXXMethod:
    case CXCursor_Constructor:
    case CXCursor_Destructor:
        if (clang_Location_isFromMainFile(clang_getCursorLocation(c)) && clang_isCursorDefinition(c) &&
            !kc_cuda_has_attr(c, CXCursor_CUDAGlobalAttr) &&
            !(kc_cuda_has_attr(c, CXCursor_CUDADeviceAttr) && !kc_cuda_has_attr(c, CXCursor_CUDAHostAttr)))
            kc_vec_push(&l->v, c);
        break;
    default:
        break;
    }
    return CXChildVisit_Continue;
}

void kc_cuda_host_facts(kc_cuda_tu *t)
{
    host_fns fns = {0};
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), fns_visit, &fns);
    host_ctx *x = kc_xcalloc(1, sizeof *x);
    x->t = t;
    x->budget = HOST_BUDGET;
    x->all = &fns;
    for (uint32_t i = 0; i < fns.v.len; i++) {
        x->fns = fns.v.data;
        x->nfns = fns.v.len;
        host_function(x, fns.v.data[i]);
    }
    x->fns = fns.v.data;
    x->nfns = fns.v.len;
    callers_check(x);
    kc_vec_free(&x->evs);
    kc_vec_free(&x->pending);
    kc_vec_free(&x->calls);
    kc_vec_free(&x->aliases);
    free(x);
    kc_vec_free(&fns.v);
}
