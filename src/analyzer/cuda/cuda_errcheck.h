/* cuda_errcheck.h — calls that check CUDA errors without being named like
 * it: private to the CUDA front end (cuda_host.c). */
#ifndef KC_CUDA_ERRCHECK_H
#define KC_CUDA_ERRCHECK_H

#include "cuda_tu.h"

#include <stdbool.h>

/* Does `c` (a call, or the name in one) name cudaGetLastError() or
 * cudaPeekAtLastError()? */
bool kc_cuda_names_last_error(CXCursor c);
/* Is call `c` (of function `ref`) an error report after a launch: a
 * `void` function whose body tests the last error on every call and
 * launches nothing, or, where its body is not in the parse, one given
 * nothing but `__FILE__` and integer constants? */
bool kc_cuda_reports_last_error(CXCursor c, CXCursor ref);
/* Is checker call `c` written around a runtime call (`CHECK(cudaMemcpy(...))`,
 * read from its text)? */
bool kc_cuda_wraps_runtime_call(const kc_cuda_tu *t, CXCursor c);
/* The runtime API calls of the main file's host code that the parse
 * dropped with their statement (the tokens `cudaX (` where no expression
 * is, outside preprocessor directives and `#if` blocks, an include guard
 * aside: which branch the preprocessor took is not kept): counted
 * into the model (host_calls_unparsed_*) and said in a KC002 gap. */
void kc_cuda_unparsed_api_calls(kc_cuda_tu *t);

/* The check of a launch no check follows, in the builds that define what
 * this one leaves out, or NULL. Either a checking macro after it that this
 * build compiles to nothing (*empty set): a bare name that says it checks
 * right after it (`ORcudaKernelCheck;`), or a bare statement named like a
 * last-error check later in `within` (its function's body), alone on its
 * line, with or without `;` or `()` (`CUDA_GET_LAST_ERROR`, a sync and a
 * cudaGetLastError() under DEBUG), in the launch's block or one around
 * it, not in an arm opened after it nor in an `#if` whose build is not
 * known; its name. Or a last-error check after it in `within` (later
 * launches may come between: it reports their errors too) inside a
 * preprocessor block this build leaves out (`#ifdef CUDA_DBG` ...
 * `cudaGetLastError()` ... `#endif`): the block's macro. Arena strings. */
const char *kc_cuda_debug_check_after(const kc_cuda_tu *t, kc_span launch, kc_span within, bool *empty);
/* A launch written in a macro's body (`#define LAUNCH(F, ...) F<<<g,
 * b>>>(__VA_ARGS__); KERNEL_CHECK_ERROR;`) followed there by a bare name
 * that says it checks: the name (an arena string), or NULL. Where the
 * launch is reported unchecked, this build compiles that check to
 * nothing (a debug build's check). */
const char *kc_cuda_macro_check_after(const kc_cuda_tu *t, CXCursor launch);

/* Does any argument of call `c` call a function that can return a status
 * for the checker to test (`CUDA_CHECK(cudaMalloc(...))`), not one that
 * makes the message or the place (`std::string(__FILE__)`)? */
bool kc_cuda_args_call_status(CXCursor c, unsigned depth);

/* Is macro `name` defined inside an `#if` on __CUDA_ARCH__ in a file of the
 * parse (`#ifndef __CUDA_ARCH__` / `#define CUDA_CHECK(c) do { cudaError_t
 * e = c; if (e) abort(); } while (0)` / `#else` / `#define CUDA_CHECK(c) c`)?
 * kcheck parses in device mode, where __CUDA_ARCH__ is defined: host code
 * compiled by the host pass sees another definition than the one read. */
bool kc_cuda_macro_by_arch(kc_cuda_tu *t, const char *name);

/* The first test assertion written after `after` and inside `within` (a
 * host function's body): a gtest `ASSERT_*` / `EXPECT_*`, a Catch2 or
 * doctest `REQUIRE*` / `CHECK_THAT`, a Boost.Test `BOOST_CHECK*` /
 * `BOOST_REQUIRE*`, each a word followed by `(`, outside comments and
 * strings. Its name (arena) and line, or NULL. */
const char *kc_cuda_test_assert_after(const kc_cuda_tu *t, kc_span after, kc_span within, uint32_t *line);

/* Is the text at `offset` a gtest test head (`TEST(Suite, Name)`,
 * `TEST_F`, `TEST_P`, `TYPED_TEST`, `TYPED_TEST_P`) whose suite or name
 * starts with `DISABLED_`, which the test binary skips by default? The
 * head as written (arena), or NULL. */
const char *kc_cuda_disabled_test_at(const kc_cuda_tu *t, size_t offset);

/* Is the unknown name at `line`:`col` written with no arguments (`NAME;`,
 * `NAME();`)? */
bool kc_cuda_bare_statement(const kc_source *src, uint32_t line, uint32_t col);

/* Does a successful return of runtime call `callee` mean the device
 * finished the work before it (a blocking copy, a synchronization)? */
bool kc_cuda_waits_for_device(const char *callee);
/* Does the text of `sp` call one of those (`CHECK(cudaMemcpy(...))`), a
 * copy between device buffers (`cudaMemcpyDeviceToDevice`,
 * `cudaMemcpyDefault`) aside: that one returns before the device is done? */
bool kc_cuda_text_waits(const kc_cuda_tu *t, kc_span sp);
/* Does nothing written between span `a` and span `b` (a before b) give the
 * device work or call what kcheck cannot see into: only statements that
 * call nothing (`info[0] = (float)n;`), clean-up calls and their checkers
 * (`CHECK(cudaFree(p));`), host C library output (`printf`), blanks and
 * comments? */
bool kc_cuda_nothing_enqueued_between(const kc_cuda_tu *t, kc_span a, kc_span b);
/* The leading name of call's first argument as written, past a `&`
 * (`s` of `&s[g]`, `g`; arena), or NULL (a literal, an expression). */
const char *kc_cuda_arg_base_name(const kc_cuda_tu *t, CXCursor call);
/* For a stream creation or synchronization (`cudaStreamCreate(&s[g])`,
 * `cudaStreamSynchronize(s[g])`) or a device switch (`cudaSetDevice(g)`)
 * of first-argument base name `base`, a key for the two; 0 for any other
 * call, or no base. */
unsigned kc_cuda_validation_key(const char *callee, const char *base);
/* Is ref (a called function) host-only: declared in a system header (or
 * a built-in stand-in) and either a member of namespace std (`v.clear()`) or a C library function
 * that gives the device no work (`printf`, `free`, `exit`)? */
bool kc_cuda_host_only_callee(CXCursor ref);
/* Is fn (a definition) part of its class's destructor: a member function
 * declared `noexcept` that returns nothing, called by the class's
 * destructor (`~Pool() { free(); }`)? It can no more report a failure
 * than the destructor can. */
bool kc_cuda_teardown_method(CXCursor fn);

/* The function a call calls: where the call has a dependent argument in
 * a template (`cudaMemcpy(v.data(), ...)`), the one its callee names (the
 * first of an overload set). */
CXCursor kc_cuda_callee_decl(CXCursor call);

/* A function or macro name that says it checks CUDA errors (`CUDA_CHECK`,
 * `cudaSafeCall`, `HANDLE_ERROR`), and one that says it reads the last
 * error (`cudaCheckLastError`, `LAUNCH_CHECK`). */
bool kc_cuda_checker_name(const char *n);
bool kc_cuda_last_error_name(const char *n);

#endif
