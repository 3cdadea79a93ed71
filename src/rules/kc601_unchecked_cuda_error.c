/* KC601 unchecked-cuda-error: kernel launches with no error check after
 * them, and runtime API results thrown away in code that checks the
 * others. */
#include "rule_util.h"

#include <stdlib.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags, in CUDA host code:\n"
    "\n"
    "- a kernel launch (`kernel<<<grid, block>>>(...)`, `cudaLaunchKernel`) that no\n"
    "  error check follows in the same function before the next launch: a call of\n"
    "  `cudaGetLastError()` or `cudaPeekAtLastError()` whose result is used, a\n"
    "  checking macro or wrapper (`CUDA_CHECK(...)`, `checkCudaErrors(...)`,\n"
    "  `cudaCheck(...)`, `getLastCudaError(...)`, `C10_CUDA_KERNEL_LAUNCH_CHECK()`,\n"
    "  any call whose name contains \"check\"), or a runtime API call whose result\n"
    "  is tested; a statement that is only an unknown name named like a checker\n"
    "  (`CUDA_CHECK_ERRORS;` from a header kcheck does not have) is taken for a\n"
    "  last-error check; so is a call, whatever its name, of a `void` function\n"
    "  whose body tests what `cudaGetLastError()` returns, and, where its body\n"
    "  is in another file, of a function given nothing but the place it is\n"
    "  called from (`errorHandler(__LINE__, __FILE__)`: told where, not what, it\n"
    "  can only report the last error), a checker's name included\n"
    "  (`CHECK_CUDA_ERROR()` expanding to `cuCheckForError(__FILE__, __LINE__)`).\n"
    "  A launch followed by a bare name named like a checker that this build\n"
    "  compiles to nothing (`ORcudaKernelCheck;`, a sync and a last-error check\n"
    "  in the project's debug builds) is a note that says so: the project\n"
    "  checks its launches where it chose to. So is a launch written in a\n"
    "  macro's body followed there by such a name (`#define LAUNCH(F, b, t, ...)\n"
    "  F<<<b, t>>>(__VA_ARGS__); KERNEL_CHECK_ERROR;`). So is one followed, later in its\n"
    "  function, by a bare statement named like a last-error check that this\n"
    "  build compiles to nothing (`CUDA_GET_LAST_ERROR` on a line of its own,\n"
    "  after the branch whose arms launch, a sync and `cudaGetLastError()`\n"
    "  under `DEBUG`): in the launch's block or one around it, not in another\n"
    "  arm nor inside an `#if` whose build is not known. A program that stops on an error\n"
    "  (`abort()` in a checking macro) checks nothing by that;\n"
    "- a `cuda*` runtime API call whose `cudaError_t` result is discarded, in a file\n"
    "  that checks the results of its other API calls (the file's own convention),\n"
    "  unless a later `cudaGetLastError()` check in the same function reports it\n"
    "  (the last error is that of any runtime call, a failed allocation's too).\n"
    "  A discarded `cudaDeviceSynchronize()` followed by a runtime call whose\n"
    "  result is tested and that runs whenever it does is a note: it takes\n"
    "  nothing that can be wrong, its only errors are faults of earlier kernels,\n"
    "  and those are sticky (every later call returns them), so the next check\n"
    "  stops the program, under the wrong call's name. So is one right after a\n"
    "  checked call that waited for the device (`CHECK(cudaMemcpy(...));` then\n"
    "  `cudaDeviceSynchronize();`, with at most clean-up such as\n"
    "  `CHECK(cudaFree(p));`, host output and statements that call nothing\n"
    "  between): nothing is pending, and the faults of earlier\n"
    "  kernels were that call's error. `cudaStreamSynchronize`\n"
    "  and `cudaEventSynchronize` can fail for their own argument, which is not\n"
    "  sticky, and stay warnings. The same holds for the device queries\n"
    "  `cudaGetDevice` and `cudaGetDeviceCount` and for `cudaSetDevice(old)`\n"
    "  restoring the device `cudaGetDevice(&old)` gave in the same function: their\n"
    "  only error is the runtime's failure to start, which the next checked call\n"
    "  returns too (a note; after a kernel's fault they return cudaSuccess and\n"
    "  the next checked call reports it, measured on an H100); a switch to any\n"
    "  other device can fail for its ordinal (cudaErrorInvalidDevice, the\n"
    "  current device unchanged) and stays a warning.\n"
    "  Clean-up calls (`cudaFree`, `*Destroy`, `cudaDeviceReset`, and every call\n"
    "  in a destructor, a local class's included, which must not throw or abort:\n"
    "  `cudaSetDevice(id); cudaFree(p);`), a `cudaSetDevice` that only clean-up\n"
    "  follows up to the next switch or the function's end (frees, destroys,\n"
    "  device resets, peer-access undos, checks and the C or C++ library: the\n"
    "  release path of a multi-GPU program, `cudaSetDevice(g); cudaFree(p[g]);`), the status\n"
    "  queries `cudaEventQuery` and `cudaStreamQuery` (whose normal result while\n"
    "  work is pending is `cudaErrorNotReady`) and\n"
    "  `(void)`-casts are not reported. Calls written inside a macro's body\n"
    "  are the macro's, not the file's, and do not count toward the convention;\n"
    "- a `cuda*` call wrapped in a macro named like a checker that discards its\n"
    "  result (`#define CHECK_CUDA(A, debug) A; if (debug) {...}`), whatever the\n"
    "  rest of the file does: the call was meant to be checked and is not. Not\n"
    "  where the macro is also defined inside an `#if` on `__CUDA_ARCH__`\n"
    "  (`#ifndef __CUDA_ARCH__` a test and `abort()`, `#else` the bare call):\n"
    "  kcheck parses in device mode, and the host pass that compiles host code\n"
    "  reads the other definition.\n"
    "\n"
    "Where the parse lost statements of a host function (types or names from a\n"
    "header the run does not have; KC002 says which), a finding that one of the\n"
    "runtime calls in them could check is a note that says so: a launch or a\n"
    "discarded call followed there by `cudaGetLastError()`, or a discarded\n"
    "synchronization (also of a stream one of them made) followed by any\n"
    "checked call.\n"
    "\n"
    "A launch in a test that an assertion follows in the same function (gtest's\n"
    "`ASSERT_*`/`EXPECT_*`, Catch2's `REQUIRE`, Boost.Test's `BOOST_CHECK*`)\n"
    "is a note: assuming the assertion tests what the kernel writes, a kernel\n"
    "that did not run fails the test. Launches and runtime calls in a disabled\n"
    "gtest test (`TEST(Suite, DISABLED_Name)`), which the test binary skips,\n"
    "are notes too.\n"
    "\n"
    "A launch that ends a launcher function (only other launches follow it) is\n"
    "left to the caller's check, unless most of the file's launchers check their\n"
    "own launches (then the ones that do not are the odd ones out). A check after\n"
    "several launches covers all of them when it asks `cudaGetLastError()`, which\n"
    "returns the error of any earlier launch; so does a call whose result is\n"
    "used of a function that returns the last error (`status = decode(...);\n"
    "assert(status == cudaSuccess);` with `decode` ending in `return\n"
    "cudaGetLastError();`), where its definition is in the parse.\n"
    "\n"
    "A call clang leaves unresolved in a class template (`this->wait()` where\n"
    "the base depends on a template parameter and nothing instantiates it) is\n"
    "a call of the file's one host function by that name, if there is one. A\n"
    "checker written around a runtime call (`CHECK(cudaMemcpy(...))`, also from\n"
    "a header the run does not have) tests that call's result.\n"
    "\n"
    "A launch, or a discarded API result, that its own function leaves unchecked\n"
    "is checked by the callers when the file calls that function and every call\n"
    "is followed, on its path, by a last-error check (`dispatch(...);\n"
    "CUDA_CHECK(cudaGetLastError());`, or `return cudaGetLastError();` after it):\n"
    "the error stays until a last-error call reads it. A function passed as an\n"
    "argument (`run_op(dst, n, op_clear)`) is called where the receiving function\n"
    "calls that parameter (`op(dst, n); CUDA_CHECK(cudaGetLastError());`), and\n"
    "those calls count as its calls; so do the calls through a variable that\n"
    "holds it (a table of launchers, `table[row][col](src, dst, n)`). A function the file never calls, or calls\n"
    "once without such a check, is judged on its own.\n"
    "\n"
    "A launch written once in a macro of the file and expanded at several places\n"
    "(a dispatch chain of `CALL_IF(...)` arms) is reported once, at its first\n"
    "unchecked expansion, with the others listed: the fix is one check in the\n"
    "macro. Arms of an `else if` chain are alternatives, however many there are,\n"
    "and launches in different arms of one branch that no check follows are one\n"
    "finding too, at the first, the others listed: one check after the branch\n"
    "covers them.\n"
    "\n"
    "## Why is this bad?\n"
    "A launch that fails (too many registers or threads for the block, an invalid\n"
    "configuration, a missing kernel image for this GPU) does not run the kernel and\n"
    "returns nothing: its error is only reported by the next `cudaGetLastError()`.\n"
    "Without a check the program goes on with whatever was in the output buffer.\n"
    "These launch errors are not sticky, so a later check of another call does not\n"
    "see them (pytorch issue #91758: a launch check that dropped the error silently\n"
    "skipped kernels launched with too many resources).\n"
    "\n"
    "## Example\n"
    "```cuda\n"
    "scale<<<blocks, 1024>>>(x, n);\n"
    "cudaMemcpy(h, x, bytes, cudaMemcpyDeviceToHost);\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```cuda\n"
    "scale<<<blocks, 1024>>>(x, n);\n"
    "CUDA_CHECK(cudaGetLastError());\n"
    "CUDA_CHECK(cudaMemcpy(h, x, bytes, cudaMemcpyDeviceToHost));\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Check right after every launch (`CUDA_CHECK(cudaGetLastError())`, in PyTorch\n"
    "`C10_CUDA_KERNEL_LAUNCH_CHECK()`), and wrap API calls in the file's checking\n"
    "macro.\n"
    "\n"
    "## References\n"
    "- pytorch/pytorch issue #91758 (`C10_CUDA_KERNEL_LAUNCH_CHECK()` became a no-op;\n"
    "  kernels launched with too many resources were silently not run).\n"
    "- CUDA C++ Programming Guide, \"Error Checking\".\n"
    "- The premise for the device calls, measured on an H100 (`bench/premise/kc601_sticky_sync.sh`,\n"
    "  docs/measurements/kc601-device-calls-h100-2026-12-06.txt).\n"
    "- The premise for `cudaDeviceSynchronize`, measured on an H200 (`bench/premise/kc601_sticky_sync.sh`,\n"
    "  docs/measurements/kc601-sticky-sync-h200-2026-12-06.txt): after a kernel's illegal address the\n"
    "  synchronization and every later call return `cudaErrorIllegalAddress`; a launch of 2048 threads a\n"
    "  block leaves the synchronization `cudaSuccess` and only `cudaGetLastError` reports it; a copy\n"
    "  past an allocation fails alone and the next copy succeeds.\n";

/* Calls whose result nobody needs: clean-up, the error getters
 * themselves (discarding cudaGetLastError() clears the error on purpose),
 * and the status queries, whose normal result while work is pending is
 * cudaErrorNotReady (`cudaEventRecord(start); cudaEventQuery(start);`
 * starts the queue before timing: checking it would abort there). */
static bool exempt(const char *n)
{
    static const char *const names[] = {"cudaGetLastError", "cudaPeekAtLastError", "cudaEventQuery",
                                        "cudaStreamQuery", "cudaProfilerStart", "cudaProfilerStop"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(n, names[i]) == 0)
            return true;
    return kc_cleanup_callee(n);
}

/* Is launch l reported as unchecked (a launch at the end of its function
 * only where the file's launchers check their own launches)? */
static bool unchecked(const kc_launch *l, bool file_checks_launches)
{
    if (!l->in_host_code || l->error_checked || !kc_span_valid(l->span))
        return false;
    return !l->at_function_end || file_checks_launches;
}

/* A discarded synchronization right after a checked call that waited for
 * the device: nothing is pending. A note. */
static void report_nothing_pending(kc_rule_ctx *ctx, const kc_call *c, kc_span at)
{
    kc_diag *d = kc_report(ctx, NULL, at,
                           "the `cudaError_t` returned by `%s` is discarded, but nothing is pending: the checked "
                           "call on line %u waited for the device, and nothing since has given it work",
                           c->callee, c->later_check.line);
    kc_diag_note(d, "a synchronization's only errors are faults of earlier kernels, and those were the error of "
                 "that call, which returns only when the work before it is done; reported as a note (the "
                 "synchronization can go)");
    d->severity = KC_SEV_NOTE;
}

/* A launch checked only by a macro this build compiles to nothing: the
 * project's own check, in the builds that define it. A note. */
static void report_debug_check(kc_rule_ctx *ctx, const kc_launch *l, unsigned alts, const char *alt_lines)
{
    kc_diag *d = l->debug_check_empty
                     ? kc_report(ctx, NULL, l->span,
                                 "launch of `%s` is checked only by `%s`, which this build compiles to nothing: a "
                                 "launch that fails here goes unnoticed (the kernel does not run)",
                                 l->kernel ? l->kernel : "?", l->debug_check)
                     : kc_report(ctx, NULL, l->span,
                                 "launch of `%s` is checked only in builds that define `%s`: this one compiles it "
                                 "to nothing, and a launch that fails here goes unnoticed (the kernel does not run)",
                                 l->kernel ? l->kernel : "?", l->debug_check);
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "reported as a note: the project checks its launches where it chose to (a debug build); a "
                 "failed launch stays the last error and a later, unrelated check reports it");
    if (alts)
        kc_diag_note(d, "the other arm%s of the branch around it (line%s %s%s) %s checked only by `%s` too",
                     alts == 1 ? "" : "s", alts == 1 ? "" : "s", alt_lines, alts > 8 ? ", ..." : "",
                     alts == 1 ? "is" : "are", l->debug_check);
}

/* A discarded result whose errors the checked call at c->later_check
 * returns too: a synchronization's (sticky faults of earlier kernels), a
 * device query's or a device restore's (also the runtime's failure to
 * start). A note. */
static void report_later(kc_rule_ctx *ctx, const kc_call *c, kc_span at)
{
    kc_diag *d;
    if (strncmp(c->callee, "cudaGetDevice", 13) != 0 && strcmp(c->callee, "cudaSetDevice") != 0) {
        d = kc_report(ctx, NULL, at,
                      "the `cudaError_t` returned by `%s` is discarded: a fault of an earlier kernel is reported "
                      "only by the checked call on line %u, as that call's error",
                      c->callee, c->later_check.line);
        if (kc_span_valid(c->validated_by))
            kc_diag_note(d, "its stream was made by the checked call on line %u, so it cannot fail for its argument",
                         c->validated_by.line);
        kc_diag_note(d, "its only errors are faults of kernels that ran before it, which are sticky: every later "
                     "runtime call returns them, so the program does not go on unaware, but the message names the "
                     "wrong call; reported as a note");
        kc_diag_note(d, "fix: wrap it in the file's checking macro (e.g. `CUDA_CHECK(%s())`)", c->callee);
    } else {
        d = kc_report(ctx, NULL, at,
                      "the `cudaError_t` returned by `%s` is discarded: it fails only where the checked call on "
                      "line %u fails too",
                      c->callee, c->later_check.line);
        kc_diag_note(d, "%s takes nothing that can be wrong: its only error is the runtime's failure to start, "
                     "which every later runtime call returns too (after a kernel's fault it still returns "
                     "cudaSuccess and the next checked call reports the fault: measured on an H100); reported as a "
                     "note",
                     kc_span_valid(c->validated_by)
                         ? kc_arena_printf(kc_rule_arena(ctx), "switching to the device the checked `cudaSetDevice` "
                                           "on line %u already switched to", c->validated_by.line)
                     : strcmp(c->callee, "cudaSetDevice") == 0 ? "restoring the device `cudaGetDevice` gave"
                                                             : "a device query");
        kc_diag_note(d, "fix: wrap it in the file's checking macro (e.g. `CUDA_CHECK(%s(...))`)", c->callee);
    }
    d->severity = KC_SEV_NOTE;
}

/* A finding at `at` in a host function with runtime calls after it that
 * the parse lost (statements that did not compile: types from a missing
 * header) that could be its check: a last-error call, or, for a call
 * whose only errors are sticky (`sticky`), any. A note that says so. */
static void lost_checks_after(const kc_model *m, kc_diag *d, kc_span at, bool sticky)
{
    const kc_host_fn *fn = NULL;
    for (uint32_t i = 0; i < m->host_fns.len && !fn; i++)
        if (kc_span_inside(at, m->host_fns.data[i].span))
            fn = &m->host_fns.data[i];
    unsigned n = 0, first = 0;
    for (uint32_t i = 0; fn && i < m->host_calls_unparsed_at.len; i++) {
        const kc_lost_call *lc = &m->host_calls_unparsed_at.data[i];
        bool last_error = !strcmp(lc->callee, "cudaGetLastError") || !strcmp(lc->callee, "cudaPeekAtLastError");
        if (lc->line > at.line && lc->line <= fn->span.end_line && lc->used && (sticky || last_error) && !n++)
            first = lc->line;
    }
    if (!n || d->severity == KC_SEV_NOTE)
        return;
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "reported as a note: %u runtime API call%s after it in `%s` (the first on line %u) %s in "
                 "statements that did not compile, which kcheck could not read, and %s (KC002 says what is "
                 "missing)",
                 n, n == 1 ? "" : "s", fn->name, first, n == 1 ? "is" : "are",
                 sticky ? "any checked one reports this call's faults" : "a last-error check reports its error");
}

/* The notes every unchecked launch ends with; in a test with an
 * assertion after the launch, the finding is a note. */
static void launch_notes(kc_diag *d, const kc_launch *l)
{
    kc_diag_note(d, "launch errors are not sticky: only cudaGetLastError()/cudaPeekAtLastError() report them, "
                 "and a later check of another call does not");
    if (l->test_assert) {
        /* a kernel that did not run leaves its output as it was */
        d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "in a test: `%s` on line %u comes after it; assuming it tests what this kernel writes, a "
                     "kernel that did not run fails the test (its output holds what it held before), unless "
                     "that already was the expected result; reported as a note",
                     l->test_assert, l->test_assert_line);
    }
    kc_diag_note(d, "fix: check right after the launch, e.g. `CUDA_CHECK(cudaGetLastError());` (PyTorch: "
                 "`C10_CUDA_KERNEL_LAUNCH_CHECK();`)");
}

/* Are the only errors of discarded call c sticky faults of earlier work:
 * a synchronization; one of a stream a checked call made, also one of the
 * calls the parse lost earlier in the file (`check(cudaStreamCreate(&s[g]))`
 * then `cudaStreamSynchronize(s[g])`)? */
static bool sticky_only(const kc_model *m, const kc_call *c)
{
    if (!strcmp(c->callee, "cudaDeviceSynchronize") || !strcmp(c->callee, "cudaThreadSynchronize") ||
        (!strcmp(c->callee, "cudaStreamSynchronize") && kc_span_valid(c->validated_by)))
        return true;
    if (!c->arg0_base || strcmp(c->callee, "cudaStreamSynchronize"))
        return false;
    for (uint32_t i = 0; i < m->host_calls_unparsed_at.len; i++) {
        const kc_lost_call *lc = &m->host_calls_unparsed_at.data[i];
        if (lc->used && lc->line < c->span.line && lc->arg0 && !strcmp(lc->arg0, c->arg0_base) &&
            !strncmp(lc->callee, "cudaStreamCreate", 16))
            return true;
    }
    return false;
}

static void check_model(const kc_model *m, kc_rule_ctx *ctx)
{
    kc_arena *ar = kc_rule_arena(ctx);
    /* A launch at the end of a launcher function may be checked by its
     * caller: judged so unless the file's launchers check their own
     * launches (a check as the last thing after a launch). One the file's
     * callers are seen to check counts for the callers' convention. */
    unsigned tail_checked = 0, tail_unchecked = 0;
    for (uint32_t i = 0; i < m->launches.len; i++) {
        const kc_launch *l = &m->launches.data[i];
        if (l->in_host_code && l->at_function_end)
            *((l->error_checked && !l->checked_by_caller) || l->debug_check ? &tail_checked : &tail_unchecked) += 1;
    }
    bool file_checks_launches = tail_checked > tail_unchecked;
    for (uint32_t i = 0; i < m->launches.len; i++) {
        const kc_launch *l = &m->launches.data[i];
        if (!unchecked(l, file_checks_launches))
            continue;
        /* A launch written once in a macro and expanded at several places
         * (a dispatch chain of `CALL_IF(...)` arms) is one fix, in the
         * macro: reported at its first expansion, the others counted. */
        unsigned same = 0;
        const char *lines = "";
        bool earlier = false;
        for (uint32_t j = 0; j < m->launches.len && !earlier; j++) {
            const kc_launch *o = &m->launches.data[j];
            if (j == i || !kc_span_valid(l->spelled) || !kc_span_valid(o->spelled) ||
                o->spelled.line != l->spelled.line || o->spelled.col != l->spelled.col ||
                !unchecked(o, file_checks_launches))
                continue;
            earlier = j < i;
            if (++same <= 8)
                lines = kc_arena_printf(ar, "%s%s%u", lines, same > 1 ? ", " : "", o->span.line);
        }
        /* a launch in another arm of a branch around an earlier one, which
         * no check follows either: one check after the branch covers both,
         * reported at the first */
        const kc_launch *alt = NULL;
        for (uint32_t j = 0; j < m->launches.len && !alt && kc_span_valid(l->alt_of); j++)
            if (j != i && kc_span_same(m->launches.data[j].span, l->alt_of) &&
                unchecked(&m->launches.data[j], file_checks_launches))
                alt = &m->launches.data[j];
        if (earlier || alt)
            continue;
        unsigned alts = 0;
        const char *alt_lines = "";
        for (uint32_t j = 0; j < m->launches.len && !same; j++) {
            const kc_launch *o = &m->launches.data[j];
            if (j != i && kc_span_same(o->alt_of, l->span) && unchecked(o, file_checks_launches) && ++alts <= 8)
                alt_lines = kc_arena_printf(ar, "%s%s%u", alt_lines, alts > 1 ? ", " : "", o->span.line);
        }
        if (l->debug_check) {
            report_debug_check(ctx, l, alts, alt_lines);
            continue;
        }
        kc_diag *d = kc_report(ctx, NULL, l->span,
                      "launch of `%s` is not followed by an error check: if it fails to launch (too many "
                      "resources, bad configuration) the kernel silently does not run",
                      l->kernel ? l->kernel : "?");
        if (l->grid_text && l->block_text)
            kc_diag_note(d, "grid `%s`, block `%s`: nothing in this function calls cudaGetLastError() (or a "
                         "checking macro) after it before the next launch",
                         l->grid_text, l->block_text);
        if (same)
            kc_diag_note(d, "the launch is written once, in the macro `%s` on line %u, and expanded unchecked at %u "
                         "more place%s (line%s %s%s): one check in the macro, after the launch, covers them all",
                         l->spelled_in, l->spelled.line, same, same == 1 ? "" : "s", same == 1 ? "" : "s", lines,
                         same > 8 ? ", ..." : "");
        else if (alts)
            kc_diag_note(d, "the other arm%s of the branch around it launch%s unchecked too (line%s %s%s): one check "
                         "after the branch covers them all",
                         alts == 1 ? "" : "s", alts == 1 ? "es" : "", alts == 1 ? "" : "s", alt_lines,
                         alts > 8 ? ", ..." : "");
        launch_notes(d, l);
        lost_checks_after(m, d, l->span, false);
    }
    /* Discarded API results, against the file's own convention: the calls
     * the file writes (not those inside a macro's body, which are the
     * macro's). */
    unsigned checked = 0, ignored = 0;
    for (uint32_t i = 0; i < m->host_calls.len; i++) {
        const kc_call *c = &m->host_calls.data[i];
        if (!(c->flags & KC_CALL_RUNTIME_API) || (c->flags & (KC_CALL_IN_MACRO_BODY | KC_CALL_POLLED)) ||
            exempt(c->callee))
            continue;
        if (c->flags & KC_CALL_RESULT_IGNORED)
            ignored++;
        else
            checked++;
    }
    /* the calls the parse dropped with their statement (KC002 says where
     * they are) count as the file's text writes them: wrapped in a call or
     * assigned, or bare (superlu_dist's 40 calls in gpuErrchk(...) that a
     * missing header's types dropped make its convention; openvdb's bare
     * cudaSetDevice calls in loops over an unknown type unmake one) */
    checked += m->host_calls_unparsed_checked;
    ignored += m->host_calls_unparsed_bare;
    bool convention = checked >= 2 && checked >= ignored;
    for (uint32_t i = 0; i < m->host_calls.len; i++) {
        const kc_call *c = &m->host_calls.data[i];
        if (!(c->flags & KC_CALL_RUNTIME_API) || !(c->flags & KC_CALL_RESULT_IGNORED) ||
            (c->flags & KC_CALL_ERROR_CAUGHT) || (c->flags & KC_CALL_IN_MACRO_BODY) || exempt(c->callee))
            continue;
        /* A call wrapped in a macro named like a checker that drops its
         * result: the file means to check it, and the macro does not. */
        bool dropped = (c->flags & KC_CALL_CHECKER_DROPS) && c->macro;
        if (!convention && !dropped)
            continue;
        kc_span at = kc_span_valid(c->callee_span) ? c->callee_span : c->span;
        kc_diag *d;
        if (dropped) {
            d = kc_report(ctx, NULL, at, "the `cudaError_t` returned by `%s` is discarded: `%s` does not test it",
                          c->callee, c->macro);
            kc_diag_note(d, "`%s` expands to the call as a statement and throws its result away (anything it "
                         "checks besides is its own work); this file checks %u of its %u runtime API calls",
                         c->macro, checked, checked + ignored);
            kc_diag_note(d, "a failure here goes unnoticed and surfaces later as a wrong result or an unrelated "
                         "error");
            kc_diag_note(d, "fix: make `%s` test the value of its argument (`cudaError_t e = (A); if (e != "
                         "cudaSuccess) ...`), or check the call's result where it is made",
                         c->macro);
        } else if (c->stored_in) {
            d = kc_report(ctx, NULL, at, "the `cudaError_t` returned by `%s` is stored in `%s` and never read",
                          c->callee, c->stored_in);
            kc_diag_note(d, "this file checks %u of its %u runtime API calls; a failure here goes unnoticed and "
                         "surfaces later as a wrong result or an unrelated error",
                         checked, checked + ignored);
            kc_diag_note(d, "fix: test `%s` after the call (`if (%s != cudaSuccess) ...`), or wrap the call in the "
                         "file's checking macro",
                         c->stored_in, c->stored_in);
        } else if (c->flags & KC_CALL_FAULT_REPORTED_LATER) {
            report_later(ctx, c, at);
        } else if (c->flags & KC_CALL_NOTHING_PENDING) {
            report_nothing_pending(ctx, c, at);
        } else {
            d = kc_report(ctx, NULL, at, "the `cudaError_t` returned by `%s` is discarded", c->callee);
            kc_diag_note(d, "this file checks %u of its %u runtime API calls; a failure here goes unnoticed and "
                         "surfaces later as a wrong result or an unrelated error",
                         checked, checked + ignored);
            kc_diag_note(d, "fix: wrap it in the file's checking macro (e.g. `CUDA_CHECK(%s(...))`)", c->callee);
            lost_checks_after(m, d, at, sticky_only(m, c));
        }
    }
    (void)ar;
}

const kc_rule kc601_unchecked_cuda_error = {
    .id = "KC601",
    .slug = "unchecked-cuda-error",
    .summary = "Kernel launch with no error check after it, or a cuda* API result discarded in code that checks "
               "the others.",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA,
    .doc = doc,
    .options = NULL,
    .check = NULL,
    .verify = KC_VERIFY_NONE,
    .check_model = check_model,
};
