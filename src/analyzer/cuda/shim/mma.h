/* kcheck shim: warp matrix functions, nvcuda::wmma (mma.h; declarations only). */
#ifndef __KCHECK_MMA_H
#define __KCHECK_MMA_H
#include <__kcheck_cuda.h>
#include <__kcheck_fp16.h>
namespace nvcuda {
namespace wmma {
struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32 {};
struct u4 {};
struct s4 {};
struct b1 {};
}
namespace experimental {
namespace precision {
struct u4 {};
struct s4 {};
struct b1 {};
}
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
}
/* The element type a fragment stores: float for tf32, packed words for sub-byte types. */
template <typename T> struct __kc_storage { typedef T type; };
template <> struct __kc_storage<precision::tf32> { typedef float type; };
template <> struct __kc_storage<precision::u4> { typedef unsigned type; };
template <> struct __kc_storage<precision::s4> { typedef int type; };
template <> struct __kc_storage<precision::b1> { typedef unsigned type; };
template <> struct __kc_storage<experimental::precision::u4> { typedef unsigned type; };
template <> struct __kc_storage<experimental::precision::s4> { typedef int type; };
template <> struct __kc_storage<experimental::precision::b1> { typedef unsigned type; };
template <typename Use, int m, int n, int k, typename T, typename Layout = void>
struct fragment {
  typedef typename __kc_storage<T>::type storage_element_type;
  typedef storage_element_type element_type;
  enum { num_elements = 8, num_storage_elements = 8 };
  element_type x[8];
};
template <typename F, typename T> __KC_D void load_matrix_sync(F &a, const T *p, unsigned ldm);
template <typename F, typename T> __KC_D void load_matrix_sync(F &a, const T *p, unsigned ldm, layout_t layout);
template <typename T, typename F> __KC_D void store_matrix_sync(T *p, const F &a, unsigned ldm, layout_t layout);
template <typename F, typename T> __KC_D void fill_fragment(F &a, const T &v);
template <typename D, typename A, typename B, typename C>
__KC_D void mma_sync(D &d, const A &a, const B &b, const C &c, bool satf = false);
template <typename D, typename A, typename B, typename C>
__KC_D void bmma_sync(D &d, const A &a, const B &b, const C &c, int op = 1, int acc = 1);
__KC_D float __float_to_tf32(float in);
}
}
#endif
