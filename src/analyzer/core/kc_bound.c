/* kc_bound.c — one-sided bounds as polynomials over a positive constant. */
#include "kc_bound.h"

static const kc_bound none = {NULL, 1};

kc_bound kc_bound_const(kc_arena *a, int64_t v)
{
    return (kc_bound){kc_index_const(a, v, 64, KC_SPACE_THREADS), 1};
}

/* x and y over one denominator. */
static bool common(kc_arena *a, kc_bound *x, kc_bound *y)
{
    if (!kc_bound_known(*x) || !kc_bound_known(*y))
        return false;
    if (x->den == y->den)
        return true;
    int64_t d;
    if (__builtin_mul_overflow(x->den, y->den, &d))
        return false;
    const kc_index *xn = kc_index_scale(a, x->num, y->den), *yn = kc_index_scale(a, y->num, x->den);
    if (!xn || !yn)
        return false;
    *x = (kc_bound){xn, d};
    *y = (kc_bound){yn, d};
    return true;
}

kc_bound kc_bound_add(kc_arena *a, kc_bound x, kc_bound y)
{
    if (!common(a, &x, &y))
        return none;
    const kc_index *n = kc_index_add(a, x.num, y.num);
    return n ? (kc_bound){n, x.den} : none;
}

kc_bound kc_bound_sub(kc_arena *a, kc_bound x, kc_bound y)
{
    if (!common(a, &x, &y))
        return none;
    const kc_index *n = kc_index_sub(a, x.num, y.num);
    return n ? (kc_bound){n, x.den} : none;
}

kc_bound kc_bound_mul(kc_arena *a, kc_bound x, kc_bound y)
{
    int64_t d;
    if (!kc_bound_known(x) || !kc_bound_known(y) || __builtin_mul_overflow(x.den, y.den, &d))
        return none;
    const kc_index *n = kc_index_mul(a, x.num, y.num);
    return n ? (kc_bound){n, d} : none;
}

kc_bound kc_bound_scale(kc_arena *a, kc_bound x, int64_t c)
{
    if (!kc_bound_known(x))
        return none;
    const kc_index *n = kc_index_scale(a, x.num, c);
    return n ? (kc_bound){n, x.den} : none;
}

kc_bound kc_bound_div(kc_bound x, int64_t c)
{
    int64_t d;
    if (!kc_bound_known(x) || c <= 0 || __builtin_mul_overflow(x.den, c, &d))
        return none;
    return (kc_bound){x.num, d};
}

bool kc_bound_nonneg(kc_bound x)
{
    if (!kc_bound_known(x))
        return false;
    for (unsigned i = 0; i < x.num->nmono; i++)
        if (x.num->mono[i].coef < 0)
            return false;
    return true;
}

bool kc_bound_positive(kc_bound x)
{
    if (!kc_bound_nonneg(x))
        return false;
    for (unsigned i = 0; i < x.num->nmono; i++)
        if (x.num->mono[i].nfac == 0 && x.num->mono[i].coef > 0)
            return true;
    return false;
}
