/* kcheck shim: std::initializer_list, which the toolkit's headers bring in
 * with cuda_runtime.h (a range-for over a braced list needs it). */
#ifndef __KCHECK_ILIST_H
#define __KCHECK_ILIST_H
#include <stddef.h>
namespace std {
template <class E> class initializer_list {
  const E *__b; size_t __n;
public:
  constexpr initializer_list() noexcept : __b(0), __n(0) {}
  constexpr size_t size() const noexcept { return __n; }
  constexpr const E *begin() const noexcept { return __b; }
  constexpr const E *end() const noexcept { return __b + __n; }
};
}
#endif
