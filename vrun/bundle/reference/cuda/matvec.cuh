// Matrix-vector product reference kernel (CUDA).  Op matvec: kcref_matvec.
//
//   y[i] = sum_k A[i, k] * x[k]      (fp32, A [M, K] row-major)
//
// One warp per row (the fix for KC101's row-per-thread pattern): the 32
// lanes read consecutive 16-byte pieces of the row (512 contiguous bytes per
// warp load, four in flight per lane), multiply by x (read through the
// read-only cache; it is small and shared by all rows), and add their
// partial sums with xor-shuffles.  Rows whose start is not 16-byte aligned
// (K % 4 != 0) are read with coalesced scalar loads.  Row offsets are int64.
#ifndef KCREF_MATVEC_CUH
#define KCREF_MATVEC_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#define KCREF_MV_WARPS 8
#define KCREF_MV_UNROLL 4

static __global__ void __launch_bounds__(KCREF_MV_WARPS * 32)
    kcref_mv_kernel(const float *A, const float *x, float *y, int64_t M, int64_t K)
{
    constexpr int U = KCREF_MV_UNROLL;
    const int64_t row = (int64_t)blockIdx.x * KCREF_MV_WARPS + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= M)
        return;   // the whole warp leaves together; no block barrier follows
    const float *a = A + row * K;
    float acc0 = 0.0f, acc1 = 0.0f;
    const bool vec = ((reinterpret_cast<uintptr_t>(a) | reinterpret_cast<uintptr_t>(x)) & 15u) == 0;
    int64_t done = 0;
    if (vec) {
        const float4 *a4 = reinterpret_cast<const float4 *>(a);
        const float4 *x4 = reinterpret_cast<const float4 *>(x);
        const int64_t nv = K / 4;
        for (int64_t i = lane; i < nv; i += 32 * U) {
            float4 av[U], xv[U];
#pragma unroll
            for (int u = 0; u < U; ++u) {
                const int64_t idx = i + 32 * u;
                if (idx < nv) {
                    av[u] = __ldcs(a4 + idx);
                    xv[u] = __ldg(x4 + idx);
                } else {
                    av[u] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                    xv[u] = av[u];
                }
            }
#pragma unroll
            for (int u = 0; u < U; ++u) {
                acc0 = fmaf(av[u].x, xv[u].x, acc0);
                acc1 = fmaf(av[u].y, xv[u].y, acc1);
                acc0 = fmaf(av[u].z, xv[u].z, acc0);
                acc1 = fmaf(av[u].w, xv[u].w, acc1);
            }
        }
        done = nv * 4;
    }
    for (int64_t i = done + lane; i < K; i += 32 * U) {
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int64_t idx = i + 32 * u;
            if (idx < K)
                acc0 = fmaf(__ldcs(a + idx), __ldg(x + idx), acc0);
        }
    }
    float acc = acc0 + acc1;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if (lane == 0)
        y[row] = acc;
}

// op matvec: A fp32 [M, K], x fp32 [K] -> y fp32 [M]
static inline void kcref_matvec(const float *A, const float *x, float *y, int64_t M, int64_t K, cudaStream_t stream)
{
    if (M <= 0)
        return;
    const int64_t blocks = (M + KCREF_MV_WARPS - 1) / KCREF_MV_WARPS;
    kcref_mv_kernel<<<(unsigned)blocks, KCREF_MV_WARPS * 32, 0, stream>>>(A, x, y, M, K);
}

#endif  // KCREF_MATVEC_CUH
