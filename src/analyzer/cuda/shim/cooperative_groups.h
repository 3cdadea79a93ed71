/* kcheck shim: cooperative groups (declarations only). */
#ifndef __KCHECK_COOPERATIVE_GROUPS_H
#define __KCHECK_COOPERATIVE_GROUPS_H
#include <__kcheck_cuda.h>
namespace cooperative_groups {
class thread_group {
public:
  __KC_D void sync() const;
  __KC_D unsigned long long size() const;
  __KC_D unsigned long long num_threads() const;
  __KC_D unsigned long long thread_rank() const;
  __KC_D bool is_valid() const;
};
class thread_block : public thread_group {
public:
  __KC_D void sync() const;
  __KC_D unsigned int size() const;
  __KC_D unsigned int num_threads() const;
  __KC_D unsigned int thread_rank() const;
  __KC_D dim3 group_index() const;
  __KC_D dim3 thread_index() const;
  __KC_D dim3 group_dim() const;
  __KC_D dim3 dim_threads() const;
};
class grid_group : public thread_group {
public:
  __KC_D void sync() const;
  __KC_D unsigned long long size() const;
  __KC_D unsigned long long num_threads() const;
  __KC_D unsigned long long thread_rank() const;
  __KC_D unsigned long long block_rank() const;
  __KC_D unsigned long long num_blocks() const;
  __KC_D dim3 group_dim() const;
  __KC_D dim3 dim_blocks() const;
  __KC_D dim3 block_index() const;
  __KC_D bool is_valid() const;
};
class coalesced_group : public thread_group {
public:
  __KC_D void sync() const;
  __KC_D unsigned int size() const;
  __KC_D unsigned int num_threads() const;
  __KC_D unsigned int thread_rank() const;
  __KC_D unsigned int meta_group_rank() const;
  __KC_D unsigned int meta_group_size() const;
  template <class T> __KC_D T shfl(T var, int srcRank) const;
  template <class T> __KC_D T shfl_down(T var, int delta) const;
  template <class T> __KC_D T shfl_up(T var, int delta) const;
  __KC_D int any(int predicate) const;
  __KC_D int all(int predicate) const;
  __KC_D unsigned int ballot(int predicate) const;
};
template <unsigned int Size, class ParentT = void>
class thread_block_tile : public thread_group {
public:
  __KC_D void sync() const;
  __KC_D unsigned int size() const;
  __KC_D unsigned int num_threads() const;
  __KC_D unsigned int thread_rank() const;
  __KC_D unsigned int meta_group_rank() const;
  __KC_D unsigned int meta_group_size() const;
  template <class T> __KC_D T shfl(T var, int srcRank) const;
  template <class T> __KC_D T shfl_down(T var, unsigned int delta) const;
  template <class T> __KC_D T shfl_up(T var, unsigned int delta) const;
  template <class T> __KC_D T shfl_xor(T var, unsigned int laneMask) const;
  __KC_D int any(int predicate) const;
  __KC_D int all(int predicate) const;
  __KC_D unsigned int ballot(int predicate) const;
  template <class T> __KC_D unsigned int match_any(T val) const;
  __KC_D operator thread_block_tile<Size, void>() const;
};
__KC_D thread_block this_thread_block();
__KC_D grid_group this_grid();
__KC_D coalesced_group coalesced_threads();
__KC_D thread_group tiled_partition(const thread_group &parent, unsigned int tilesz);
template <unsigned int Size, class ParentT>
__KC_D thread_block_tile<Size, ParentT> tiled_partition(const ParentT &g);
template <class Group> __KC_D void sync(const Group &g);
template <class Group> __KC_D unsigned long long thread_rank(const Group &g);
template <class Group> __KC_D unsigned long long group_size(const Group &g);
namespace details {}
template <class T> struct plus { __KC_HD T operator()(const T &a, const T &b) const; };
template <class T> struct less { __KC_HD T operator()(const T &a, const T &b) const; };
template <class T> struct greater { __KC_HD T operator()(const T &a, const T &b) const; };
template <class T> struct bit_and { __KC_HD T operator()(const T &a, const T &b) const; };
template <class T> struct bit_or { __KC_HD T operator()(const T &a, const T &b) const; };
template <class T> struct bit_xor { __KC_HD T operator()(const T &a, const T &b) const; };
template <class Group, class T, class Op> __KC_D T reduce(const Group &g, T val, Op op);
template <class Group, class T, class Op> __KC_D T inclusive_scan(const Group &g, T val, Op op);
template <class Group, class T> __KC_D T inclusive_scan(const Group &g, T val);
template <class Group, class T, class Op> __KC_D T exclusive_scan(const Group &g, T val, Op op);
template <class Group, class T> __KC_D T exclusive_scan(const Group &g, T val);
template <class Group> __KC_D void memcpy_async(const Group &g, void *dst, const void *src, size_t bytes);
template <class Group> __KC_D void wait(const Group &g);
template <unsigned int N, class Group> __KC_D void wait_prior(const Group &g);
} // namespace cooperative_groups
#endif
