/* cuda_use.h — how host code uses a call's value (internal to the CUDA
 * front end; cuda_use.c, called by cuda_host.c). */
#ifndef KC_CUDA_USE_H
#define KC_CUDA_USE_H

#include "cuda_tu.h"

/* Is `c` written in the body of a macro rather than by the code that uses
 * the macro (an argument of the macro is spelled in the main file after
 * the macro's name; the body at the #define)? */
bool kc_cuda_in_macro_body(CXCursor c);
/* A call clang could not resolve (a macro or function from a header that
 * is missing): an unexposed expression spelled `NAME(...)` around its
 * arguments. Returns NAME (in t's arena), or NULL. */
const char *kc_cuda_recovered_call(kc_cuda_tu *t, CXCursor c);
/* Does the call return cudaError_t (also a dependent call in a template,
 * by its function's declared result)? */
bool kc_cuda_returns_cuda_error(CXCursor call);
/* How the value of stack[i] (a call; stack[0..i] the cursors from the
 * function body down) is used: 0 discarded, 1 used, 2 explicitly
 * discarded with a (void) cast, 3 compared with cudaErrorNotReady (a
 * poll). Where it is discarded into a local variable nothing reads,
 * *unread_var is set to that variable's name. */
int kc_cuda_value_use(kc_cuda_tu *t, const CXCursor *stack, unsigned i, const char **unread_var);

#endif
