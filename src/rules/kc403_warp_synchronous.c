/* KC403 warp-synchronous: code that assumes the lanes of a warp run in
 * lockstep (legacy mask-less warp intrinsics, volatile shared-memory warp
 * reductions without __syncwarp). */
#include "rule_util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags code written for warps that execute in lockstep:\n"
    "\n"
    "- the legacy warp intrinsics without a mask: `__shfl`, `__shfl_up`,\n"
    "  `__shfl_down`, `__shfl_xor`, `__any`, `__all`, `__ballot`;\n"
    "- warp-synchronous reductions through `volatile` shared memory with no\n"
    "  `__syncwarp()` between the steps:\n"
    "  `if (tid < 32) { vs[tid] += vs[tid + 16]; vs[tid] += vs[tid + 8]; ... }`.\n"
    "\n"
    "HIP code for AMD GPUs is not reported: a file whose parse includes a HIP\n"
    "header (`hip/...`, or one named `hip_*.h` or `*_hip_*.h`; only the includes its\n"
    "`#if`s take, so the CUDA build of a file written for both stays CUDA), or one\n"
    "under a `hip/` or `amd_detail/` directory, or named so itself, or one that\n"
    "renames CUDA's API to HIP's (`#define cudaMalloc hipMalloc`, a HIP port's\n"
    "compatibility header, which only the HIP build includes). AMD's\n"
    "wavefronts execute in lockstep, and the mask-less `__shfl*`, `__any`, `__all`\n"
    "and `__ballot` are HIP's documented API.\n"
    "\n"
    "A legacy intrinsic in a file whose build files (those of its directory\n"
    "and the ones above it in its repository) target only GPUs before Volta\n"
    "(`-gencode arch=compute_60,code=sm_60`, `CUDA_ARCHITECTURES 52 60`,\n"
    "`TORCH_CUDA_ARCH_LIST`) is a note that names those targets: the warps\n"
    "run in lockstep there, and a build for sm_70 or later stops at compile\n"
    "time rather than going wrong when it runs. Where the targets are named\n"
    "by a word (`native`, `all`) or a variable, or not at all, it stays a\n"
    "warning. A `volatile` reduction stays a warning on any target: it\n"
    "compiles for newer GPUs and goes wrong there silently.\n"
    "\n"
    "## Why is this bad?\n"
    "Since Volta (sm_70) the threads of a warp are scheduled independently and are\n"
    "not guaranteed to run in lockstep. The mask-less intrinsics were deprecated in\n"
    "CUDA 9 and removed for sm_70 and later (the code no longer compiles for\n"
    "current GPUs); a `volatile` reduction relies on every lane having finished the\n"
    "previous step, which nothing guarantees any more: lanes read partial sums that\n"
    "were not written yet and the result is wrong from time to time.\n"
    "\n"
    "## Example\n"
    "```cuda\n"
    "v += __shfl_down(v, 16);\n"
    "if (tid < 32) {\n"
    "    volatile float *vs = sdata;\n"
    "    vs[tid] += vs[tid + 16];\n"
    "    vs[tid] += vs[tid + 8];\n"
    "}\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```cuda\n"
    "v += __shfl_down_sync(0xffffffff, v, 16);\n"
    "if (tid < 32) {\n"
    "    float v = sdata[tid] + sdata[tid + 32];\n"
    "    for (int o = 16; o > 0; o /= 2)\n"
    "        v += __shfl_down_sync(0xffffffff, v, o);\n"
    "}\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Use the `_sync` intrinsics with the mask of the lanes that take part (the\n"
    "fix-it adds the full mask `0xffffffff` where no thread-dependent condition\n"
    "surrounds the call; under such a condition pass the mask of the lanes that\n"
    "reach it, e.g. from `__ballot_sync`). Reduce within a warp with\n"
    "`__shfl_down_sync`, or put `__syncwarp()` between every read and write of the\n"
    "shared-memory steps.\n"
    "\n"
    "## References\n"
    "- NVIDIA Developer Blog, \"Using CUDA Warp-Level Primitives\" (2018).\n"
    "- CUDA C++ Programming Guide, \"Independent Thread Scheduling\" and \"Warp\n"
    "  Shuffle Functions\".\n"
    "- FastNN issue #8; HawkAaron/warp-transducer issue #48 (`__shfl_down` without\n"
    "  `_sync` breaks on newer GPUs).\n";

static void legacy_calls(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    for (uint32_t i = 0; i < k->calls.len; i++) {
        const kc_call *c = &k->calls.data[i];
        if (!(c->flags & KC_CALL_LEGACY_SHFL))
            continue;
        kc_span at = kc_span_valid(c->callee_span) ? c->callee_span : c->span;
        bool vote = strncmp(c->callee, "__shfl", 6) != 0;
        kc_diag *d = kc_report(ctx, k, at,
                               "`%s` without a mask assumes the warp runs in lockstep: it was removed for sm_70 "
                               "and later; use `%s` with a mask",
                               c->callee, c->fix_text ? c->fix_text : "the _sync variant");
        uint32_t g = kc_guard_thread_cond(k, c->guard);
        bool fixable = c->fix_text && kc_span_valid(c->callee_span) && kc_span_valid(c->arg0_span) && g == KC_NONE;
        if (g != KC_NONE) {
            kc_diag_note(d, "it runs under `%s` (line %u), which depends on the thread: the mask must name only the "
                         "lanes that get here, e.g. `__ballot_sync(0xffffffff, %s)` computed before the condition",
                         k->conds.data[g].text, k->conds.data[g].span.line, k->conds.data[g].text);
        } else {
            kc_diag_note(d, "every lane of the warp reaches it here: the full mask `0xffffffff` is correct");
        }
        kc_diag_note(d, "since Volta the lanes of a warp are scheduled independently; the `_sync` %s waits for "
                     "the lanes in the mask before it exchanges values",
                     vote ? "vote" : "shuffle");
        /* built only for GPUs before Volta: correct there, and a build
         * for sm_70 or later fails at compile time, not silently */
        if (m->build_arch_max && m->build_arch_max < 70) {
            d->severity = KC_SEV_NOTE;
            kc_diag_note(d, "the build files target only %s, GPUs before Volta whose warps run in lockstep: the call "
                         "is correct there, and a build for sm_70 or later stops at compile time (the intrinsic is "
                         "not available there); reported as a note, a change to make with the move to newer GPUs",
                         m->build_archs);
        }
        if (fixable) {
            kc_diag_fix(d, kc_arena_printf(kc_rule_arena(ctx), "use %s(0xffffffff, ...)", c->fix_text),
                        c->callee_span, c->fix_text);
            kc_span ins = {c->arg0_span.line, c->arg0_span.col, c->arg0_span.line, c->arg0_span.col};
            kc_diag_fix_edit(d, ins, "0xffffffff, ");
        }
    }
}

static bool sep_between(const kc_kernel *k, uint32_t a, uint32_t b)
{
    for (uint32_t i = 0; i < k->barriers.len; i++)
        if (k->barriers.data[i].seq > a && k->barriers.data[i].seq < b)
            return true;
    for (uint32_t i = 0; i < k->calls.len; i++)
        if ((k->calls.data[i].flags & KC_CALL_MAY_SYNC) && k->calls.data[i].seq > a && k->calls.data[i].seq < b)
            return true;
    return false;
}

/* vs[tid] += vs[tid + 16] after vs[tid] was written by the previous step. */
static void volatile_reductions(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    kc_arena *ar = kc_rule_arena(ctx);
    KC_VEC(uint32_t) done = {0};
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *r = &k->accesses.data[i];
        if (r->kind != KC_ACC_LOAD || r->space != KC_MEM_SHARED || !r->is_volatile || !r->offset ||
            r->base == KC_NONE)
            continue;
        bool seen = false;
        for (uint32_t q = 0; q < done.len; q++)
            seen |= done.data[q] == r->base;
        if (seen)
            continue;
        const kc_access *hit = NULL;
        int64_t step = 0;
        unsigned nsteps = 0;
        for (uint32_t j = 0; j < k->accesses.len; j++) {
            const kc_access *w = &k->accesses.data[j];
            if (w->kind != KC_ACC_STORE || w->space != KC_MEM_SHARED || w->base != r->base || !w->offset ||
                w->seq >= r->seq || sep_between(k, w->seq, r->seq))
                continue;
            kc_offset_delta od;
            kc_offset_delta_of(ar, k, w->offset, r->offset, &od);
            if (!od.known || !od.lanes_pure || !od.lanes_equal || od.w_uniform || !od.rest_const || od.rest_zero ||
                od.rest_value >= 32 || od.rest_value <= -32 || od.lane_gcd != 1)
                continue;
            if (!hit) {
                hit = w;
                step = od.rest_value;
            }
        }
        if (!hit)
            continue;
        /* how many unsynchronized steps the reduction has */
        uint32_t last_line = 0;
        for (uint32_t j = 0; j < k->accesses.len; j++) {
            const kc_access *o = &k->accesses.data[j];
            uint32_t ol = kc_span_valid(o->origin) ? o->origin.line : o->span.line;
            if (o->kind == KC_ACC_LOAD && o->base == r->base && o->is_volatile && o->seq >= r->seq && ol != last_line) {
                nsteps++;
                last_line = ol;
            }
        }
        kc_vec_push(&done, r->base);
        const char *arr = r->base_name ? r->base_name : "shared memory";
        /* inside an inlined device function: point at the code itself */
        bool in_callee = kc_span_valid(r->origin) && (r->origin.line != r->span.line || r->origin.col != r->span.col);
        kc_span at = in_callee ? r->origin : kc_access_point(r);
        uint32_t wline = kc_span_valid(hit->origin) ? hit->origin.line : hit->span.line;
        kc_diag *d = kc_report(ctx, k, at,
                               "warp-synchronous reduction through `volatile` `%s` without `__syncwarp()`: lane t "
                               "reads the element lane t%+" PRId64 " wrote on line %u, assuming the warp runs in "
                               "lockstep",
                               arr, step, wline);
        if (in_callee)
            kc_diag_note(d, "reached through the call on line %u, under the conditions there", r->span.line);
        kc_diag_note(d, "write index: %s; read index: %s", kc_model_index_str(m, k, hit->offset),
                     kc_model_index_str(m, k, r->offset));
        if (nsteps > 1)
            kc_diag_note(d, "%u unsynchronized steps read `%s` from here on", nsteps, arr);
        kc_diag_note(d, "`volatile` only keeps the values out of registers; since Volta (sm_70) nothing makes the "
                     "other lanes finish the previous step first, so a lane can read a partial sum that is not "
                     "written yet");
        kc_diag_note(d, "fix: reduce in registers with `__shfl_down_sync(0xffffffff, v, offset)`, or put "
                     "`__syncwarp()` between every read and write of the steps");
    }
    kc_vec_free(&done);
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    if (m->hip)
        return; /* AMD's wavefronts run in lockstep; HIP's shuffles take no mask */
    legacy_calls(m, k, ctx);
    volatile_reductions(m, k, ctx);
}

const kc_rule kc403_warp_synchronous = {
    .id = "KC403",
    .slug = "warp-synchronous",
    .summary = "Legacy mask-less warp intrinsics (__shfl_down, __ballot) and volatile shared-memory warp "
               "reductions without __syncwarp(): undefined since Volta.",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_RACE,
};
