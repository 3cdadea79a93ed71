// Sum of a 1-D fp32 array (CUDA).  Op block_sum: kcref_block_sum.
//
//   out[0] = sum_i x[i]      (fp32)
//
// One kernel, deterministic (bitwise reproducible for a given n on any GPU):
// G = min(cdiv(n, 8192), 1024) blocks of 512 threads stride over the array
// in 8192-float steps with 16-byte streaming loads (four in flight per
// thread, four independent fp32 accumulators per thread), reduce in a fixed
// tree (warp shuffles, then shared memory) and write one partial each; the
// last block to finish (a ticket counter) adds the G partials in a fixed
// order and writes out[0].  The partials and the counter live in this
// header's static __device__ scratch, so calls on concurrently running
// streams must not overlap (calls on one stream are fine: the last block
// resets the counter).
#ifndef KCREF_BLOCK_SUM_CUH
#define KCREF_BLOCK_SUM_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#define KCREF_BS_THREADS 512
#define KCREF_BS_MAX_BLOCKS 1024

static __device__ float kcref_bs_partials[KCREF_BS_MAX_BLOCKS];
static __device__ unsigned int kcref_bs_ticket = 0;

static __device__ __forceinline__ float kcref_bs_block_sum(float v, float *sh)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    __syncthreads();   // sh may still be read by a previous call
    if (lane == 0)
        sh[warp] = v;
    __syncthreads();
    v = lane < KCREF_BS_THREADS / 32 ? sh[lane] : 0.0f;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;   // every thread has the block's sum
}

// x[0:head] scalar, x[head : head + 4 * nv] as float4, x[head + 4 * nv : n] scalar.
static __global__ void __launch_bounds__(KCREF_BS_THREADS)
    kcref_bs_kernel(const float *x, float *out, int64_t n, int64_t head, int64_t nv)
{
    constexpr int T = KCREF_BS_THREADS;
    __shared__ float sh[32];
    __shared__ bool am_last;
    const float4 *xv = reinterpret_cast<const float4 *>(x + head);
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    for (int64_t base = (int64_t)blockIdx.x * (4 * T); base < nv; base += (int64_t)gridDim.x * (4 * T)) {
        float4 v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int64_t i = base + threadIdx.x + (int64_t)u * T;
            v[u] = i < nv ? __ldcs(xv + i) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            a0 += v[u].x;
            a1 += v[u].y;
            a2 += v[u].z;
            a3 += v[u].w;
        }
    }
    float sum = (a0 + a1) + (a2 + a3);
    if (blockIdx.x == 0) {
        for (int64_t i = threadIdx.x; i < head; i += T)
            sum += x[i];
        for (int64_t i = head + nv * 4 + threadIdx.x; i < n; i += T)
            sum += x[i];
    }
    sum = kcref_bs_block_sum(sum, sh);
    if (threadIdx.x == 0) {
        kcref_bs_partials[blockIdx.x] = sum;
        __threadfence();   // the partial is visible before the ticket is taken
        const unsigned ticket = atomicAdd(&kcref_bs_ticket, 1u);
        am_last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (am_last) {   // uniform across the block
        __threadfence();
        float v = 0.0f;
        for (unsigned i = threadIdx.x; i < gridDim.x; i += T)
            v += __ldcg(&kcref_bs_partials[i]);   // fixed order: deterministic
        v = kcref_bs_block_sum(v, sh);
        if (threadIdx.x == 0) {
            out[0] = v;
            kcref_bs_ticket = 0;   // ready for the next call
        }
    }
}

// op block_sum: x fp32 [n] -> out fp32 [1]
static inline void kcref_block_sum(const float *x, float *out, int64_t n, cudaStream_t stream)
{
    if (n <= 0) {
        cudaMemsetAsync(out, 0, sizeof(float), stream);
        return;
    }
    const unsigned mis = (unsigned)(reinterpret_cast<uintptr_t>(x) & 15u);
    int64_t head = mis == 0 ? 0 : (mis % 4 == 0 ? (int64_t)(16 - mis) / 4 : n);
    if (head > n)
        head = n;
    const int64_t nv = (n - head) / 4;
    int64_t blocks = (nv + 4 * KCREF_BS_THREADS - 1) / (4 * KCREF_BS_THREADS);
    if (blocks < 1)
        blocks = 1;
    if (blocks > KCREF_BS_MAX_BLOCKS)
        blocks = KCREF_BS_MAX_BLOCKS;
    kcref_bs_kernel<<<(unsigned)blocks, KCREF_BS_THREADS, 0, stream>>>(x, out, n, head, nv);
}

#endif  // KCREF_BLOCK_SUM_CUH
