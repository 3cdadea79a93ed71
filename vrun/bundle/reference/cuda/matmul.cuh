// Reference matmul: C = A @ B with fp16 inputs and fp32 accumulation/output.
// 64x64 output tiles per block of 256 threads, each thread computing a 4x4
// micro-tile from 16-wide K slices staged in shared memory (padded rows to
// avoid bank conflicts). Correct for any M, N, K; tuned for clarity and
// reasonable speed, not for peak tensor-core throughput.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cstdint>

namespace kcref_matmul_detail {
constexpr int TM = 64, TN = 64, TK = 16;

static __global__ void __launch_bounds__(256)
    kernel(const __half *__restrict__ a, const __half *__restrict__ b, float *__restrict__ c, int64_t M,
           int64_t N, int64_t K)
{
    __shared__ float as[TK][TM + 1];
    __shared__ float bs[TK][TN + 1];
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const int64_t row0 = (int64_t)blockIdx.y * TM, col0 = (int64_t)blockIdx.x * TN;
    float acc[4][4] = {};
    for (int64_t k0 = 0; k0 < K; k0 += TK) {
        // 64x16 of A and 16x64 of B: 1024 values each, 4 per thread.
        for (int i = threadIdx.x; i < TM * TK; i += 256) {
            int r = i / TK, kk = i % TK;
            int64_t gr = row0 + r, gk = k0 + kk;
            as[kk][r] = (gr < M && gk < K) ? __half2float(a[gr * K + gk]) : 0.0f;
        }
        for (int i = threadIdx.x; i < TK * TN; i += 256) {
            int kk = i / TN, cc = i % TN;
            int64_t gk = k0 + kk, gc = col0 + cc;
            bs[kk][cc] = (gk < K && gc < N) ? __half2float(b[gk * N + gc]) : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TK; kk++) {
            float ra[4], rb[4];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                ra[i] = as[kk][ty * 4 + i];
                rb[i] = bs[kk][tx * 4 + i];
            }
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) {
            int64_t r = row0 + ty * 4 + i, cc = col0 + tx * 4 + j;
            if (r < M && cc < N)
                c[r * N + cc] = acc[i][j];
        }
}
} // namespace kcref_matmul_detail

static inline void kcref_matmul(const __half *a, const __half *b, float *c, int64_t M, int64_t N, int64_t K,
                                cudaStream_t stream)
{
    using namespace kcref_matmul_detail;
    dim3 grid((unsigned)((N + TN - 1) / TN), (unsigned)((M + TM - 1) / TM));
    kernel<<<grid, 256, 0, stream>>>(a, b, c, M, N, K);
}
