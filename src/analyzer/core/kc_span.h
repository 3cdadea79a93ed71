/* kc_span.h — where in a source file, and in which language: what
 * diagnostics and the kernel model both point with (diagnostics need
 * nothing else of the model). */
#ifndef KC_SPAN_H
#define KC_SPAN_H

#include "kc_base.h"

typedef enum kc_lang { KC_LANG_CUDA = 0, KC_LANG_TRITON = 1 } kc_lang;
enum { KC_LANG_BIT_CUDA = 1u << KC_LANG_CUDA, KC_LANG_BIT_TRITON = 1u << KC_LANG_TRITON };

/* A range of source text: 1-based lines, 1-based byte columns; the end is
 * exclusive (end_col is the column just past the last character). */
typedef struct kc_span {
    uint32_t line, col, end_line, end_col;
} kc_span;

static inline bool kc_span_valid(kc_span s) { return s.line != 0; }

/* The same range (a launch met twice, a barrier and its origin). */
static inline bool kc_span_same(kc_span a, kc_span b)
{
    return a.line == b.line && a.col == b.col && a.end_line == b.end_line && a.end_col == b.end_col;
}

/* Does `in` lie within `out` (both valid)? An access in a condition, a
 * condition in a loop's header. */
static inline bool kc_span_inside(kc_span in, kc_span out)
{
    bool after = in.line > out.line || (in.line == out.line && in.col >= out.col);
    bool before = in.end_line < out.end_line || (in.end_line == out.end_line && in.end_col <= out.end_col);
    return kc_span_valid(in) && kc_span_valid(out) && after && before;
}

#endif
