/* kc_model_dump.c — --dump-model: what the front ends inferred, one line
 * per kernel, symbol, loop, condition, access, barrier and fact. */
#include "kc_model.h"

#include <stdio.h>
#include <stdlib.h>

static void dump_span(FILE *out, kc_span s)
{
    if (kc_span_valid(s))
        fprintf(out, "%u:%u-%u:%u", s.line, s.col, s.end_line, s.end_col);
    else
        fprintf(out, "-");
}

static const char *loop_kind_name(kc_loop_kind k)
{
    switch (k) {
    case KC_LOOP_FOR: return "for";
    case KC_LOOP_WHILE: return "while";
    case KC_LOOP_RANGE: return "range";
    case KC_LOOP_TL_RANGE: return "tl.range";
    case KC_LOOP_STATIC_RANGE: return "tl.static_range";
    }
    return "?";
}

static void dump_deps(FILE *out, kc_deps d)
{
    fprintf(out, "{axes=%#x%s%s%s loops=%#llx", d.axes, (d.flags & KC_AF_THREAD) ? " thread" : "",
            (d.flags & KC_AF_PROGRAM) ? " program" : "", (d.flags & KC_AF_DATA) ? " data" : "",
            (unsigned long long)d.loops);
    if (d.unseen)
        fprintf(out, " unseen=%#x", d.unseen);
    fputc('}', out);
}

static void dump_symbols(FILE *out, const kc_kernel *k)
{
    for (uint32_t i = 0; i < k->symbols.len; i++) {
        const kc_symbol *s = &k->symbols.data[i];
        fprintf(out, "  symbol %u %s kind=%d bits=%u facts=%s%s%s%s%s%s", i, s->name, s->kind, s->bits,
                (s->facts & KC_SF_SIZE) ? "size " : "", (s->facts & KC_SF_OUTER_STRIDE) ? "outer-stride " : "",
                (s->facts & KC_SF_INNER_STRIDE) ? "inner-stride " : "", (s->facts & KC_SF_POINTER) ? "pointer " : "",
                (s->facts & KC_SF_SHAPE_ARG) ? "shape-arg " : "", (s->facts & KC_SF_READ_ONLY) ? "read-only " : "");
        if (s->nvalues) {
            fprintf(out, " values=");
            for (uint32_t v = 0; v < s->nvalues; v++)
                fprintf(out, "%s%lld", v ? "," : "", (long long)s->values[v]);
        }
        if (s->size_evidence)
            fprintf(out, " (size: %s)", s->size_evidence);
        if (s->float_evidence)
            fprintf(out, " (float: %s)", s->float_evidence);
        if (s->arg_text)
            fprintf(out, " arg=`%s`", s->arg_text);
        if (s->state_axes)
            fprintf(out, " state-axes=%#x (%s)", s->state_axes, s->state_evidence ? s->state_evidence : "?");
        if (s->padded_axes)
            fprintf(out, " padded-axes=%#x by %lld (%s)", s->padded_axes, (long long)s->padded_extra,
                    s->padded_evidence ? s->padded_evidence : "?");
        if (s->at_least_symbol < k->symbols.len)
            fprintf(out, " at-least=%s (%s)", k->symbols.data[s->at_least_symbol].name,
                    s->at_least_evidence ? s->at_least_evidence : "?");
        fputc('\n', out);
    }
}

static void dump_loops(FILE *out, const kc_kernel *k)
{
    for (uint32_t i = 0; i < k->loops.len; i++) {
        const kc_loop *l = &k->loops.data[i];
        fprintf(out, "  loop %u %s var=%s parent=%d at ", i, loop_kind_name(l->kind), l->var ? l->var : "-",
                l->parent == KC_NONE ? -1 : (int)l->parent);
        dump_span(out, l->range_span);
        fprintf(out, " trip=%lld trip_text=%s unroll=%d", (long long)l->trip_count, l->trip_text ? l->trip_text : "-",
                l->unroll);
        if (l->unroll == KC_UNROLL_COUNT)
            fprintf(out, "(%lld)", (long long)l->unroll_count);
        if (l->shrinks)
            fprintf(out, " shrinks");
        if (l->trip_max > 0)
            fprintf(out, " trip<=%lld", (long long)l->trip_max);
        if (kc_span_valid(l->runtime_bound_span)) {
            fprintf(out, " runtime-bound=");
            dump_span(out, l->runtime_bound_span);
            if (l->runtime_bound_symbol != KC_NONE)
                fprintf(out, "(%s)", k->symbols.data[l->runtime_bound_symbol].name);
        }
        fputc('\n', out);
    }
}

static void dump_conds(FILE *out, const kc_kernel *k)
{
    for (uint32_t i = 0; i < k->conds.len; i++) {
        const kc_cond *c = &k->conds.data[i];
        fprintf(out, "  cond %u%s `%s` parent=%d loop=%d deps=", i, c->negated ? " (else)" : "", c->text,
                c->parent == KC_NONE ? -1 : (int)c->parent, c->loop == KC_NONE ? -1 : (int)c->loop);
        dump_deps(out, c->deps);
        static const char *const ops[] = {"?", "<", "<=", ">", ">=", "==", "!="};
        for (uint32_t p = 0; p < c->npreds; p++) {
            const kc_pred *pr = &c->preds[p];
            kc_strbuf l = {0}, r = {0};
            if (pr->lhs)
                kc_model_format_index(k, pr->lhs, &l);
            if (pr->rhs)
                kc_model_format_index(k, pr->rhs, &r);
            fprintf(out, " pred=[%s %s %s]", pr->lhs ? kc_sb_str(&l) : "?",
                    pr->op < sizeof ops / sizeof ops[0] ? ops[pr->op] : "?", pr->rhs ? kc_sb_str(&r) : "?");
            kc_sb_free(&l);
            kc_sb_free(&r);
        }
        fputc('\n', out);
    }
}

static void dump_accesses(FILE *out, const kc_kernel *k, kc_strbuf *sb)
{
    static const char *const acc_kind[] = {"?", "load", "store", "atomic"};
    static const char *const mem[] = {"?", "global", "shared", "local", "constant", "unknown"};
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        fprintf(out, "  %s %u %s base=%s at ", acc_kind[a->kind], i, mem[a->space], a->base_name ? a->base_name : "?");
        dump_span(out, a->span);
        sb->len = 0;
        if (sb->data)
            sb->data[0] = '\0';
        kc_model_format_index(k, a->offset, sb);
        fprintf(out, " offset=[%s]", kc_sb_str(sb));
        if (a->offset) {
            fprintf(out, " bits=%u rank=%u", a->offset->bits, a->offset->shape.rank);
            int fa = kc_index_fast_axis(a->offset);
            if (fa >= 0) {
                kc_arena *tmp = kc_arena_new();
                kc_stride st;
                kc_index_stride_along(tmp, a->offset, (unsigned)fa, &st);
                sb->len = 0;
                if (sb->data)
                    sb->data[0] = '\0';
                if (st.stride)
                    kc_model_format_index(k, st.stride, sb);
                else
                    kc_sb_append(sb, "none");
                fprintf(out, " fast-axis=%d stride=[%s]%s%s", fa, kc_sb_str(sb), st.gather ? " gather" : "",
                        st.nonaffine ? " nonaffine" : "");
                kc_arena_delete(tmp);
            }
        }
        for (unsigned d = 0; d < a->nsubs && d < 4; d++) {
            sb->len = 0;
            if (sb->data)
                sb->data[0] = '\0';
            kc_model_format_index(k, a->subs[d], sb);
            fprintf(out, "%s[%s]", d ? "" : " subs=", kc_sb_str(sb));
        }
        fprintf(out, " loop=%d guard=%d elem=%u", a->loop == KC_NONE ? -1 : (int)a->loop,
                a->guard == KC_NONE ? -1 : (int)a->guard, a->elem_bytes);
        if (a->field_bytes)
            fprintf(out, " field=%u+%u", a->field_off, a->field_bytes);
        if (a->masked)
            fprintf(out, " mask=`%s`", a->mask_text);
        if (a->value_name)
            fprintf(out, " value=%s", a->value_name);
        fprintf(out, " seq=%u%s%s", a->seq, a->is_volatile ? " volatile" : "", a->bounds_checked ? " bounds-checked" : "");
        fputc('\n', out);
    }
}

static void dump_barriers(FILE *out, const kc_kernel *k)
{
    for (uint32_t i = 0; i < k->barriers.len; i++) {
        const kc_barrier *b = &k->barriers.data[i];
        fprintf(out, "  barrier %s at ", b->name);
        dump_span(out, b->span);
        fprintf(out, " guard=%d loop=%d", b->guard == KC_NONE ? -1 : (int)b->guard,
                b->loop == KC_NONE ? -1 : (int)b->loop);
        if (kc_span_valid(b->divergent_exit)) {
            fprintf(out, " divergent-exit=");
            dump_span(out, b->divergent_exit);
        }
        if (b->exit_cond != KC_NONE && kc_span_valid(b->divergent_exit))
            fprintf(out, " exit-cond=%u", b->exit_cond);
        fprintf(out, " seq=%u", b->seq);
        if (kc_span_valid(b->origin) && (b->origin.line != b->span.line || b->origin.col != b->span.col)) {
            fprintf(out, " origin=");
            dump_span(out, b->origin);
        }
        fputc('\n', out);
    }
}

static void dump_reorders(FILE *out, const kc_kernel *k, kc_strbuf *sb)
{
    for (uint32_t i = 0; i < k->reorders.len; i++) {
        const kc_reorder *r = &k->reorders.data[i];
        fprintf(out, "  reorder %u `%s` at ", i, r->callee_text ? r->callee_text : "?");
        dump_span(out, r->span);
        sb->len = 0;
        if (sb->data)
            sb->data[0] = '\0';
        kc_model_format_shape(k, &r->from, sb);
        kc_sb_append(sb, " -> ");
        kc_model_format_shape(k, &r->to, sb);
        fprintf(out, " %s use=%s", kc_sb_str(sb), r->use_kind ? r->use_kind : "-");
        if (r->use_kind) {
            fputc('@', out);
            dump_span(out, r->use_span);
        }
        fprintf(out, " fix=%s%s\n", r->fix_text ? r->fix_text : "-", r->from_dot ? " from-dot" : "");
    }
}

/* Shared arrays, calls, double literals, accumulators, products. */
static void dump_facts(FILE *out, const kc_kernel *k)
{
    for (uint32_t i = 0; i < k->shared_arrays.len; i++) {
        const kc_shared_array *sa = &k->shared_arrays.data[i];
        fprintf(out, "  shared array %s", sa->name);
        for (unsigned d = 0; d < sa->rank; d++)
            fprintf(out, "[%lld]", (long long)sa->dims[d]);
        fprintf(out, " elem=%u last-dim=", sa->elem_bytes);
        dump_span(out, sa->last_dim_span);
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < k->calls.len; i++) {
        const kc_call *c = &k->calls.data[i];
        fprintf(out, "  call %s at ", c->callee ? c->callee : "?");
        dump_span(out, c->span);
        fprintf(out, " flags=%#x seq=%d fix=%s\n", c->flags, c->seq == KC_NONE ? -1 : (int)c->seq,
                c->fix_text ? c->fix_text : "-");
    }
    for (uint32_t i = 0; i < k->literals.len; i++) {
        const kc_literal *l = &k->literals.data[i];
        fprintf(out, "  double literal %s at ", l->text);
        dump_span(out, l->span);
        fprintf(out, " in `%s` fix=%s\n", l->context ? l->context : "", l->fix_text ? l->fix_text : "-");
    }
    for (uint32_t i = 0; i < k->accums.len; i++) {
        const kc_accum *ac = &k->accums.data[i];
        fprintf(out, "  accum %s (%s) at ", ac->var ? ac->var : "?", ac->dtype ? ac->dtype : "?");
        dump_span(out, ac->span);
        fprintf(out, " decl=");
        dump_span(out, ac->decl_span);
        fprintf(out, " loop=%d fix=%s\n", ac->loop == KC_NONE ? -1 : (int)ac->loop, ac->fix_text ? ac->fix_text : "-");
    }
    for (uint32_t i = 0; i < k->products.len; i++) {
        const kc_product *pr = &k->products.data[i];
        fprintf(out, "  product `%s` bits=%u widened=%s\n", pr->text ? pr->text : "", pr->bits,
                pr->lhs_widened ? pr->lhs_widened : "-");
    }
    for (uint32_t i = 0; i < k->lane_flows.len; i++) {
        const kc_lane_flow *f = &k->lane_flows.data[i];
        fprintf(out, "  masked lanes of access %u reach %s (kind %d, axis %d) at ", f->load, f->sink ? f->sink : "?",
                (int)f->kind, f->axis);
        dump_span(out, f->span);
        fprintf(out, " fill=%u/%u/%u/%u via=%s\n", f->fill[0], f->fill[1], f->fill[2], f->fill[3],
                f->via ? f->via : "-");
    }
    for (uint32_t i = 0; i < k->fp64_uses.len; i++) {
        const kc_fp64_use *u = &k->fp64_uses.data[i];
        const char *p = u->symbol < k->symbols.len ? k->symbols.data[u->symbol].name : "?";
        fprintf(out, "  fp64 from %s at ", p);
        dump_span(out, u->span);
        fprintf(out, " %s (with %s%s%s%s)\n", u->text ? u->text : "?", u->with ? u->with : "-",
                u->callee ? ", runs " : "", u->callee ? u->callee : "", u->block ? ", block" : "");
    }
}

/* A bound (kc_bound.h) with its host variables by name: `(n + 255)/256`. */
static void dump_bound(FILE *out, const kc_model *m, kc_bound b)
{
    if (!kc_bound_known(b)) {
        fputs("?", out);
        return;
    }
    fputc('(', out);
    for (unsigned i = 0; i < b.num->nmono; i++) {
        const kc_mono *mo = &b.num->mono[i];
        fprintf(out, "%s%lld", i ? " + " : "", (long long)mo->coef);
        for (unsigned f = 0; f < mo->nfac; f++) {
            const kc_atom *a = &mo->fac[f];
            fprintf(out, "*%s", a->kind == KC_ATOM_HOST && a->id < m->host_vars.len ? m->host_vars.data[a->id] : "?");
        }
    }
    if (!b.num->nmono)
        fputc('0', out);
    fprintf(out, ")/%lld", (long long)b.den);
}

void kc_model_dump(FILE *out, const kc_model *m)
{
    kc_strbuf sb = {0};
    for (uint32_t ki = 0; ki < m->kernels.len; ki++) {
        const kc_kernel *k = m->kernels.data[ki];
        fprintf(out, "kernel %s%s at ", k->name, k->is_device_function ? " (device function)" : "");
        dump_span(out, k->span);
        fputc('\n', out);
        for (unsigned ax = 0; ax < 3; ax++)
            if (k->grid_rows[ax])
                fprintf(out, "  grid axis %u: rows: %s\n", ax, k->grid_rows[ax]);
        dump_symbols(out, k);
        dump_loops(out, k);
        dump_conds(out, k);
        dump_accesses(out, k, &sb);
        dump_barriers(out, k);
        dump_reorders(out, k, &sb);
        dump_facts(out, k);
    }
    for (uint32_t i = 0; i < m->launches.len; i++) {
        const kc_launch *l = &m->launches.data[i];
        fprintf(out, "launch %s at ", l->kernel);
        dump_span(out, l->span);
        fprintf(out, " args=%u block=%lld,%lld,%lld%s%s%s\n", l->args.len, (long long)l->block_dim[0],
                (long long)l->block_dim[1], (long long)l->block_dim[2], l->in_host_code ? " host" : "",
                l->error_checked ? (l->checked_by_caller ? " checked-by-caller" : " checked") : "",
                l->at_function_end ? " at-end" : "");
        if (l->recovered)
            fprintf(out, "  recovered from the text\n");
        if (l->test_assert)
            fprintf(out, "  test assertion %s at line %u\n", l->test_assert, l->test_assert_line);
        for (unsigned ax = 0; ax < 3; ax++)
            if (l->grid[ax].text)
                fprintf(out, "  grid %u `%s`\n", ax, l->grid[ax].text);
        for (unsigned ax = 0; ax < 3; ax++)
            if (kc_bound_known(l->grid_hi[ax]) || kc_bound_known(l->block_hi[ax])) {
                fprintf(out, "  grid %c <= ", "xyz"[ax]);
                dump_bound(out, m, l->grid_hi[ax]);
                fprintf(out, ", block %c <= ", "xyz"[ax]);
                dump_bound(out, m, l->block_hi[ax]);
                fputc('\n', out);
            }
        for (uint32_t a = 0; a < l->args.len; a++) {
            const kc_launch_arg *g = &l->args.data[a];
            fprintf(out, "  arg %s = `%s`%s", g->param ? g->param : "?", g->text ? g->text : "",
                    g->block_multiple ? " (a multiple of the block's x size)" : "");
            if (g->multiple_of)
                fprintf(out, " (asserted a multiple of `%s` on line %u)", g->multiple_of, g->multiple_line);
            if (kc_bound_known(g->lo) || kc_bound_known(g->hi)) {
                fputs(" in [", out);
                dump_bound(out, m, g->lo);
                fputs(", ", out);
                dump_bound(out, m, g->hi);
                fputc(']', out);
            }
            fputc('\n', out);
        }
    }
    for (uint32_t i = 0; i < m->host_calls.len; i++) {
        const kc_call *c = &m->host_calls.data[i];
        fprintf(out, "host call %s at ", c->callee ? c->callee : "?");
        dump_span(out, c->span);
        fprintf(out, "%s%s%s%s%s%s\n", (c->flags & KC_CALL_RESULT_IGNORED) ? " result-ignored" : "",
                (c->flags & KC_CALL_ERROR_CAUGHT) ? " error-caught" : "",
                (c->flags & KC_CALL_IN_MACRO_BODY) ? " in-macro-body" : "",
                (c->flags & KC_CALL_CHECKER_DROPS) ? " checker-drops" : "", c->macro ? " macro=" : "",
                c->macro ? c->macro : "");
    }
    kc_sb_free(&sb);
}
