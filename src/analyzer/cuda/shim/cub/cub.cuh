/* kcheck shim: a small part of CUB (declarations only). */
#ifndef __KCHECK_CUB_CUH
#define __KCHECK_CUB_CUH
#include <__kcheck_cuda.h>
namespace cub {
struct Sum { template <class T> __KC_HD T operator()(const T &a, const T &b) const; };
struct Max { template <class T> __KC_HD T operator()(const T &a, const T &b) const; };
struct Min { template <class T> __KC_HD T operator()(const T &a, const T &b) const; };
template <class K, class V> struct KeyValuePair { K key; V value; };
enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE };
template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockReduce {
public:
  struct TempStorage { char storage[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * sizeof(T) / 32 + sizeof(T)]; };
  __KC_D BlockReduce();
  __KC_D BlockReduce(TempStorage &temp);
  __KC_D T Sum(T input);
  __KC_D T Sum(T input, int num_valid);
  template <int N> __KC_D T Sum(T (&inputs)[N]);
  template <class Op> __KC_D T Reduce(T input, Op op);
  template <class Op> __KC_D T Reduce(T input, Op op, int num_valid);
};
template <class T, int LOGICAL_WARP_THREADS = 32, int ARCH = 0>
class WarpReduce {
public:
  struct TempStorage { T storage[LOGICAL_WARP_THREADS]; };
  __KC_D WarpReduce(TempStorage &temp);
  __KC_D T Sum(T input);
  __KC_D T Sum(T input, int valid_items);
  template <class Op> __KC_D T Reduce(T input, Op op);
  template <class Op> __KC_D T Reduce(T input, Op op, int valid_items);
};
template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockScan {
public:
  struct TempStorage { T storage[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z]; };
  __KC_D BlockScan(TempStorage &temp);
  __KC_D void InclusiveSum(T input, T &output);
  __KC_D void InclusiveSum(T input, T &output, T &block_aggregate);
  __KC_D void ExclusiveSum(T input, T &output);
  __KC_D void ExclusiveSum(T input, T &output, T &block_aggregate);
  template <class Op> __KC_D void InclusiveScan(T input, T &output, Op op);
  template <class Op> __KC_D void InclusiveScan(T input, T &output, Op op, T &block_aggregate);
  template <class Op> __KC_D void ExclusiveScan(T input, T &output, T init, Op op);
  template <class Op> __KC_D void ExclusiveScan(T input, T &output, T init, Op op, T &block_aggregate);
};
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockLoad {
public:
  struct TempStorage { T storage[BLOCK_DIM_X * ITEMS_PER_THREAD]; };
  __KC_D BlockLoad();
  __KC_D BlockLoad(TempStorage &temp);
  template <class It> __KC_D void Load(It block_itr, T (&items)[ITEMS_PER_THREAD]);
  template <class It> __KC_D void Load(It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items);
  template <class It, class D> __KC_D void Load(It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, D oob_default);
};
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockStore {
public:
  struct TempStorage { T storage[BLOCK_DIM_X * ITEMS_PER_THREAD]; };
  __KC_D BlockStore();
  __KC_D BlockStore(TempStorage &temp);
  template <class It> __KC_D void Store(It block_itr, T (&items)[ITEMS_PER_THREAD]);
  template <class It> __KC_D void Store(It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items);
};
struct DeviceReduce {
  template <class In, class Out> __KC_H static cudaError_t Sum(void *d_temp, size_t &temp_bytes, In d_in, Out d_out, int num_items, cudaStream_t stream = 0);
  template <class In, class Out> __KC_H static cudaError_t Max(void *d_temp, size_t &temp_bytes, In d_in, Out d_out, int num_items, cudaStream_t stream = 0);
  template <class In, class Out> __KC_H static cudaError_t Min(void *d_temp, size_t &temp_bytes, In d_in, Out d_out, int num_items, cudaStream_t stream = 0);
  template <class In, class Out, class Op, class T> __KC_H static cudaError_t Reduce(void *d_temp, size_t &temp_bytes, In d_in, Out d_out, int num_items, Op op, T init, cudaStream_t stream = 0);
};
struct DeviceScan {
  template <class In, class Out> __KC_H static cudaError_t InclusiveSum(void *d_temp, size_t &temp_bytes, In d_in, Out d_out, int num_items, cudaStream_t stream = 0);
  template <class In, class Out> __KC_H static cudaError_t ExclusiveSum(void *d_temp, size_t &temp_bytes, In d_in, Out d_out, int num_items, cudaStream_t stream = 0);
};
struct DeviceRadixSort {
  template <class K> __KC_H static cudaError_t SortKeys(void *d_temp, size_t &temp_bytes, const K *d_keys_in, K *d_keys_out, int num_items, int begin_bit = 0, int end_bit = sizeof(K) * 8, cudaStream_t stream = 0);
  template <class K, class V> __KC_H static cudaError_t SortPairs(void *d_temp, size_t &temp_bytes, const K *d_keys_in, K *d_keys_out, const V *d_values_in, V *d_values_out, int num_items, int begin_bit = 0, int end_bit = sizeof(K) * 8, cudaStream_t stream = 0);
};
} // namespace cub
#endif
