/* kcheck shim prelude: -include'd before the user's file, as nvcc does
 * with cuda_runtime.h. Stand-ins only: declarations, no definitions that
 * matter for code generation. */
#ifndef __KCHECK_PRELUDE_H
#define __KCHECK_PRELUDE_H
#define __KCHECK_SHIM__ 1
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 8
#define __CUDACC_VER_BUILD__ 0
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
#define __inline_hint__
#define __grid_constant__
#define __maxnreg__(n)
#define __cluster_dims__(...)
#define CUDARTAPI
#define CUDART_CB
#define CUDAAPI
#include <cuda_runtime.h>
#endif
