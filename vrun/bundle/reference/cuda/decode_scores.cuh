// Decode attention scores reference kernels (CUDA).
//
// Ops (kernels/reference/ops/):
//   decode_scores       kcref_decode_scores        q, k fp16; scores fp32
//   decode_scores_fp32  kcref_decode_scores_fp32   q, k fp32; scores fp32 (seed 003)
//
//   scores[b, h, l] = sum_d q[b, h, d] * k[b, l, h, d]      (fp32 accumulation)
//
// q is [B, H, D] and k is [B, L, H, D], contiguous.  The op streams K once, so
// the layout of the work follows K's memory order: a thread owns one 16-byte
// slice (dv) of one head h, G = D * sizeof(T) / 16 consecutive lanes cover a
// head's D values, and HB heads x R positions of threads cover R consecutive
// (b, l) rows of K, i.e. one contiguous stretch of memory: every warp load is
// 512 contiguous bytes.  The thread keeps its slice of q in registers for the
// whole kernel, walks LCHUNK positions of l with four 16-byte loads in
// flight, and the G lanes of a head add their partial dot products with
// xor-shuffles; lane dv == 0 writes the score.
//
// The fast path needs D * sizeof(T) to be 16, 32, ..., 512 bytes and q, k
// 16-byte aligned (D = 128 fp16 and D = 16 fp32 qualify); anything else runs
// a simple warp-per-score kernel.
#ifndef KCREF_DECODE_SCORES_CUH
#define KCREF_DECODE_SCORES_CUH

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>

#define KCREF_DS_UNROLL 4
#define KCREF_DS_MAX_THREADS 512

template <typename T> struct kcref_ds_io;

template <> struct kcref_ds_io<float> {
    typedef float4 vec_t;
    enum { VN = 4 };
    static __device__ __forceinline__ float to_f(float x) { return x; }
    static __device__ __forceinline__ void unpack(const float4 &v, float *f)
    {
        f[0] = v.x;
        f[1] = v.y;
        f[2] = v.z;
        f[3] = v.w;
    }
};

template <> struct kcref_ds_io<__half> {
    typedef uint4 vec_t;
    enum { VN = 8 };
    static __device__ __forceinline__ float to_f(__half x) { return __half2float(x); }
    static __device__ __forceinline__ void unpack(const uint4 &v, float *f)
    {
        const __half2 *h = reinterpret_cast<const __half2 *>(&v);
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const float2 p = __half22float2(h[i]);
            f[2 * i] = p.x;
            f[2 * i + 1] = p.y;
        }
    }
};

// blockDim.x = round_up(HB * G * R, 32); thread t -> (r, h, dv) in K's order.
template <typename T, int G>
static __global__ void __launch_bounds__(KCREF_DS_MAX_THREADS)
    kcref_ds_kernel(const T *q, const T *k, float *scores, int64_t L, int H, int HB, int R, int64_t LCHUNK)
{
    typedef kcref_ds_io<T> IO;
    typedef typename IO::vec_t V;
    constexpr int VN = IO::VN;
    constexpr int U = KCREF_DS_UNROLL;
    const int tid = threadIdx.x;
    const int hg = HB * G;
    const int r = tid / hg;
    const int rem = tid - r * hg;
    const int h = blockIdx.y * HB + rem / G;
    const int dv = rem % G;
    const int64_t b = blockIdx.z;
    const bool active = r < R && h < H;
    const int hh = active ? h : 0;   // keeps every address in range

    float qf[VN];
    {
        V qv = reinterpret_cast<const V *>(q + (b * H + hh) * (int64_t)(G * VN))[dv];
        IO::unpack(qv, qf);
    }
    const int64_t row_vecs = (int64_t)H * G;   // 16-byte vectors per (b, l) row of K
    const V *kb = reinterpret_cast<const V *>(k) + b * L * row_vecs + (int64_t)hh * G + dv;
    float *sb = scores + (b * H + hh) * L;
    const int64_t l_begin = (int64_t)blockIdx.x * LCHUNK;
    const int64_t l_end = l_begin + LCHUNK < L ? l_begin + LCHUNK : L;
    // The trip count is the same for every thread of the block: all lanes
    // reach the shuffles.
    for (int64_t l0 = l_begin; l0 < l_end; l0 += (int64_t)R * U) {
        V kv[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int64_t l = l0 + r + (int64_t)u * R;
            if (active && l < l_end)
                kv[u] = __ldcs(kb + l * row_vecs);
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int64_t l = l0 + r + (int64_t)u * R;
            const bool ok = active && l < l_end;
            float d = 0.0f;
            if (ok) {
                float f[VN];
                IO::unpack(kv[u], f);
#pragma unroll
                for (int j = 0; j < VN; ++j)
                    d = fmaf(qf[j], f[j], d);
            }
#pragma unroll
            for (int o = G / 2; o > 0; o >>= 1)
                d += __shfl_xor_sync(0xffffffffu, d, o);
            if (ok && dv == 0)
                sb[l] = d;
        }
    }
}

// Any D, any alignment: one warp per score, lanes over d.
template <typename T>
static __global__ void kcref_ds_generic_kernel(const T *q, const T *k, float *scores, int64_t B, int64_t H,
                                               int64_t L, int64_t D)
{
    const int lane = threadIdx.x & 31;
    const int64_t warps_per_block = blockDim.x >> 5;
    const int64_t total = B * H * L;
    for (int64_t o = (int64_t)blockIdx.x * warps_per_block + (threadIdx.x >> 5); o < total;
         o += (int64_t)gridDim.x * warps_per_block) {
        const int64_t l = o % L;
        const int64_t bh = o / L;
        const int64_t h = bh % H;
        const int64_t b = bh / H;
        const T *qr = q + bh * D;
        const T *kr = k + ((b * L + l) * H + h) * D;
        float d = 0.0f;
        for (int64_t j = lane; j < D; j += 32)
            d = fmaf(kcref_ds_io<T>::to_f(qr[j]), kcref_ds_io<T>::to_f(kr[j]), d);
#pragma unroll
        for (int s = 16; s > 0; s >>= 1)
            d += __shfl_xor_sync(0xffffffffu, d, s);
        if (lane == 0)
            scores[o] = d;
    }
}

template <typename T>
static inline void kcref_ds_launch(const T *q, const T *k, float *scores, int64_t B, int64_t H, int64_t L, int64_t D,
                                   cudaStream_t stream)
{
    if (B <= 0 || H <= 0 || L <= 0)
        return;
    if (D <= 0) {
        cudaMemsetAsync(scores, 0, (size_t)(B * H * L) * sizeof(float), stream);
        return;
    }
    const int64_t bytes = D * (int64_t)sizeof(T);
    const int64_t G = bytes / 16;
    const bool aligned = ((reinterpret_cast<uintptr_t>(q) | reinterpret_cast<uintptr_t>(k)) & 15u) == 0;
    const bool fast = bytes % 16 == 0 && G >= 1 && G <= 32 && (G & (G - 1)) == 0 && aligned && B <= 65535 &&
                      H <= 65535;
    if (!fast) {
        const int64_t total = B * H * L;
        int64_t blocks = (total + 7) / 8;   // 8 warps per block
        if (blocks > 65536)
            blocks = 65536;
        kcref_ds_generic_kernel<T><<<(unsigned)blocks, 256, 0, stream>>>(q, k, scores, B, H, L, D);
        return;
    }
    const int64_t HB = H * G <= KCREF_DS_MAX_THREADS ? H : KCREF_DS_MAX_THREADS / G;
    int64_t R = KCREF_DS_MAX_THREADS / (HB * G);
    if (R < 1)
        R = 1;
    const int threads = (int)((HB * G * R + 31) / 32 * 32);
    const int64_t rows_per_step = R * KCREF_DS_UNROLL;
    const int64_t gy = (H + HB - 1) / HB;
    // About 4096 blocks in all, each walking LCHUNK positions of l.
    int64_t chunks = 4096 / (B * gy);
    if (chunks < 1)
        chunks = 1;
    int64_t lchunk = (L + chunks - 1) / chunks;
    lchunk = (lchunk + rows_per_step - 1) / rows_per_step * rows_per_step;
    const int64_t gx = (L + lchunk - 1) / lchunk;
    const dim3 grid((unsigned)gx, (unsigned)gy, (unsigned)B);
    const int h = (int)H, hb = (int)HB, r = (int)R;
    switch (G) {
    case 1: kcref_ds_kernel<T, 1><<<grid, threads, 0, stream>>>(q, k, scores, L, h, hb, r, lchunk); break;
    case 2: kcref_ds_kernel<T, 2><<<grid, threads, 0, stream>>>(q, k, scores, L, h, hb, r, lchunk); break;
    case 4: kcref_ds_kernel<T, 4><<<grid, threads, 0, stream>>>(q, k, scores, L, h, hb, r, lchunk); break;
    case 8: kcref_ds_kernel<T, 8><<<grid, threads, 0, stream>>>(q, k, scores, L, h, hb, r, lchunk); break;
    case 16: kcref_ds_kernel<T, 16><<<grid, threads, 0, stream>>>(q, k, scores, L, h, hb, r, lchunk); break;
    default: kcref_ds_kernel<T, 32><<<grid, threads, 0, stream>>>(q, k, scores, L, h, hb, r, lchunk); break;
    }
}

// op decode_scores: q fp16 [B, H, D], k fp16 [B, L, H, D] -> scores fp32 [B, H, L]
static inline void kcref_decode_scores(const __half *q, const __half *k, float *scores, int64_t B, int64_t H,
                                       int64_t L, int64_t D, cudaStream_t stream)
{
    kcref_ds_launch<__half>(q, k, scores, B, H, L, D, stream);
}

// op decode_scores_fp32: q fp32 [B, H, D], k fp32 [B, L, H, D] -> scores fp32 [B, H, L]
static inline void kcref_decode_scores_fp32(const float *q, const float *k, float *scores, int64_t B, int64_t H,
                                            int64_t L, int64_t D, cudaStream_t stream)
{
    kcref_ds_launch<float>(q, k, scores, B, H, L, D, stream);
}

#endif  // KCREF_DECODE_SCORES_CUH
