/* triton_tiling.c — what the launches of a kernel say about how its grid
 * tiles the data (triton_internal.h, "launch facts"): grid axes floored or
 * rounded up and the extent they divide, sizes the launching functions
 * assert divisible, and strides of tensors allocated padded past what a
 * rounded-up axis covers; and which kernel parameter a launch argument
 * binds. Read by frontend_triton.c's apply_launches, into the kernel's
 * symbols and kc_kernel.grid_cover (KC303). */
#include "triton_internal.h"

#include <stdlib.h>
#include <string.h>

/* The index of the parameter named `name`, or KC_NONE. */
static uint32_t param_index(const kc_kernel *k, const char *name)
{
    uint32_t s = kc_kernel_find_symbol(k, name);
    return s == KC_NONE ? KC_NONE : k->symbols.data[s].param;
}

/* The kernel parameter a launch binding binds, or KC_NONE. A positional
 * argument after `*t.stride()` lands where Python puts it: the positional
 * ones end where the first keyword-bound parameter begins, less the
 * parameters the decorators supply just before it, when no parameter
 * before it has a default (otherwise the splat's length decides). */
uint32_t tt_bound_param(const kc_kernel *k, const tt_launch *ln, const tt_binding *b)
{
    if (b->param)
        return param_index(k, b->param);
    if (!b->after_splat)
        return b->position < k->params.len ? b->position : KC_NONE;
    uint32_t e = KC_NONE;
    for (uint32_t i = 0; i < ln->args.len; i++)
        if (ln->args.data[i].param) {
            uint32_t pi = param_index(k, ln->args.data[i].param);
            if (pi != KC_NONE && (e == KC_NONE || pi < e))
                e = pi;
        }
    /* parameters the decorators supply are passed by no launch */
    while (e != KC_NONE && e > 0 && k->params.data[e - 1].supplied_by_decorator)
        e--;
    if (e == KC_NONE || e < ln->before_splat + ln->after_splat)
        return KC_NONE;
    for (uint32_t p = 0; p < e; p++)
        if (k->params.data[p].default_text)
            return KC_NONE;
    return e - ln->after_splat + b->position;
}


tt_tiling tt_tiling_new(uint32_t nparams)
{
    tt_tiling t = {.upsize = {KC_NONE, KC_NONE, KC_NONE}};
    t.nmult = kc_xcalloc(nparams + 1, sizeof *t.nmult);
    t.multsym = kc_xcalloc(nparams + 1, sizeof *t.multsym);
    t.multval = kc_xcalloc(nparams + 1, sizeof *t.multval);
    t.multwhy = kc_xcalloc(nparams + 1, sizeof *t.multwhy);
    t.npad = kc_xcalloc(nparams + 1, sizeof *t.npad);
    t.padaxes = kc_xcalloc(nparams + 1, sizeof *t.padaxes);
    t.padextra = kc_xcalloc(nparams + 1, sizeof *t.padextra);
    t.padwhy = kc_xcalloc(nparams + 1, sizeof *t.padwhy);
    for (uint32_t i = 0; i <= nparams; i++)
        t.multsym[i] = KC_NONE;
    return t;
}

void tt_tiling_free(tt_tiling *t)
{
    free(t->nmult);
    free(t->multsym);
    free(t->multval);
    free(t->multwhy);
    free(t->npad);
    free(t->padaxes);
    free(t->padextra);
    free(t->padwhy);
}

const char *tt_launch_where(tt_ctx *c, const tt_launch *ln)
{
    return kc_arena_printf(c->a, "the launch %s%s%son line %u", ln->file ? "in " : "", ln->file ? ln->file : "",
                           ln->file ? " " : "", ln->line);
}

/* Grid axis `ax` of one launch: floored or rounded up, and what it divides. */
void tt_tally_cover(tt_ctx *c, tt_tiling *t, const tt_launch *ln, unsigned ax)
{
    const kc_grid_axis *g = &ln->grid[ax];
    if (g->cover == KC_COVER_UNKNOWN)
        return;
    if (!t->why[ax] || (g->cover == KC_COVER_ROUNDS_UP && t->nup[ax] == 0))
        t->why[ax] = kc_arena_printf(c->a, "%s sizes grid axis %u by `%s`", tt_launch_where(c, ln), ax, g->cover_expr);
    if (g->cover == KC_COVER_FLOOR) {
        t->nfloor[ax]++;
        return;
    }
    uint32_t sp = KC_NONE;
    for (uint32_t o = 0; g->cover_size && o < ln->args.len && sp == KC_NONE; o++)
        if (ln->args.data[o].v.text && !strcmp(ln->args.data[o].v.text, g->cover_size))
            sp = tt_bound_param(c->k, ln, &ln->args.data[o]);
    /* launches that divide different parameters name none */
    t->upsize[ax] = t->nup[ax] == 0 || t->upsize[ax] == sp ? sp : KC_NONE;
    t->nup[ax]++;
    size_t n = g->cover_size ? strlen(g->cover_size) : 0;
    if (n > 8 && !strcmp(g->cover_size + n - 8, ".numel()"))
        t->nnumel[ax]++;
}

/* `assert Tq % 64 == 0` before the launch, for the argument b binding
 * parameter pi: of what every launch asserts, the common part. */
void tt_tally_multiple(tt_ctx *c, tt_tiling *t, const tt_launch *ln, const tt_binding *b, uint32_t pi)
{
    if (!b->multiple_why)
        return;
    uint32_t by = KC_NONE;
    for (uint32_t o = 0; b->multiple_by && o < ln->args.len && by == KC_NONE; o++)
        if (ln->args.data[o].v.text && !strcmp(ln->args.data[o].v.text, b->multiple_by))
            by = tt_bound_param(c->k, ln, &ln->args.data[o]);
    /* `META["BLOCK_M"]` of a grid callable: the meta-parameter itself,
     * which the configs supply rather than an argument */
    if (by == KC_NONE && b->multiple_by)
        by = param_index(c->k, b->multiple_by);
    int64_t v = b->multiple_value;
    if (t->nmult[pi] == 0) {
        t->multval[pi] = v;
        t->multsym[pi] = by;
    } else {
        int64_t x = t->multval[pi], y = v;
        while (y) {
            int64_t r = x % y;
            x = y;
            y = r;
        }
        t->multval[pi] = v && t->multval[pi] ? x : 0;
        if (t->multsym[pi] != by)
            t->multsym[pi] = KC_NONE;
    }
    if (!t->multwhy[pi])
        t->multwhy[pi] = kc_arena_printf(c->a, "%s before %s", b->multiple_why, tt_launch_where(c, ln));
    t->nmult[pi]++;
}

/* A stride argument of a tensor allocated padded (`tmp.stride(2)` of
 * `torch.empty((B, H, L + 256))`) in a launch whose grid rounds an axis up
 * over the same extent (`triton.cdiv(L, BLOCK)`): the axes, and the least
 * padding over the launches. */
void tt_tally_padding(tt_ctx *c, tt_tiling *t, const tt_launch *ln, const tt_binding *b, uint32_t pi)
{
    uint8_t axes = 0;
    for (unsigned ax = 0; b->pad_base && ax < 3; ax++)
        if (ln->grid[ax].cover == KC_COVER_ROUNDS_UP && ln->grid[ax].cover_size &&
            !strcmp(ln->grid[ax].cover_size, b->pad_base))
            axes |= (uint8_t)(1u << ax);
    if (!axes)
        return;
    bool first = t->npad[pi] == 0;
    t->padaxes[pi] = first ? axes : (uint8_t)(t->padaxes[pi] & axes);
    t->padextra[pi] = first || b->pad_extra < t->padextra[pi] ? b->pad_extra : t->padextra[pi];
    if (!t->padwhy[pi])
        t->padwhy[pi] = kc_arena_printf(c->a, "%s passes `%s`, a stride of a tensor allocated `%s + %lld` along it",
                                        tt_launch_where(c, ln), b->v.text ? b->v.text : "?", b->pad_base,
                                        (long long)b->pad_extra);
    t->npad[pi]++;
}

/* What every one of the `nlaunch` launches agrees on, into the kernel. */
void tt_tiling_apply(tt_ctx *c, const tt_tiling *t, uint32_t nlaunch)
{
    if (!nlaunch)
        return;
    for (unsigned ax = 0; ax < 3; ax++) {
        if (t->nup[ax] != nlaunch && t->nfloor[ax] != nlaunch)
            continue; /* launches differ, or some says nothing */
        c->k->grid_cover[ax].cover = t->nup[ax] ? KC_COVER_ROUNDS_UP : KC_COVER_FLOOR;
        c->k->grid_cover[ax].why = t->why[ax];
        c->k->grid_cover[ax].numel = t->nup[ax] && t->nnumel[ax] == t->nup[ax];
        if (t->nup[ax] && t->upsize[ax] < c->k->params.len)
            c->k->grid_cover[ax].size = c->k->params.data[t->upsize[ax]].symbol;
    }
    for (uint32_t i = 0; i < c->k->params.len; i++) {
        kc_symbol *s = &c->k->symbols.data[c->k->params.data[i].symbol];
        if (t->nmult[i] != nlaunch || s->multiple_of || s->multiple_of_symbol != KC_NONE)
            continue;
        if (t->multval[i] > 1)
            s->multiple_of = t->multval[i];
        else if (t->multsym[i] < c->k->params.len)
            s->multiple_of_symbol = c->k->params.data[t->multsym[i]].symbol;
        else
            continue;
        s->multiple_evidence = t->multwhy[i];
    }
    for (uint32_t i = 0; i < c->k->params.len; i++) {
        if (t->npad[i] != nlaunch || !t->padaxes[i])
            continue;
        kc_symbol *s = &c->k->symbols.data[c->k->params.data[i].symbol];
        s->padded_axes = t->padaxes[i];
        s->padded_extra = t->padextra[i];
        s->padded_evidence = t->padwhy[i];
    }
}

