// Cross-entropy reference kernels (CUDA).
//
// Ops (kernels/reference/ops/):
//   cross_entropy_fwd           kcref_cross_entropy_fwd            fp32 logits
//   cross_entropy_fwd_bf16      kcref_cross_entropy_fwd_bf16       bf16 logits
//   cross_entropy_fwd_bwd       kcref_cross_entropy_fwd_bwd        fp32, gradient in place
//   cross_entropy_fwd_bwd_bf16  kcref_cross_entropy_fwd_bwd_bf16   bf16, gradient in place
//
//   loss[i] = logsumexp(logits[i, :]) - logits[i, target[i]]     (fp32 math)
//   dlogits[i, j] = (softmax(logits[i, :])[j] - (j == target[i])) * grad_scale
//
// The *_ex variants (kcref_cross_entropy_fwd_ex, _fwd_bf16_ex, _fwd_bwd_ex,
// _fwd_bwd_bf16_ex) take ignore_index and label_smoothing eps in [0, 1]
// (PyTorch's semantics for class-index targets):
//
//   loss[i] = lse_i - (1 - eps) * x_i[t_i] - (eps / N) * sum_j x_i[j]
//   dlogits[i, j] = (softmax(x_i)[j] - (1 - eps) * (j == t_i) - eps / N) * grad_scale
//
// The row sum of the logits is accumulated in the same single pass.  The
// plain functions (the op specs' calling convention) call them with
// ignore_index -100 and eps 0; eps == 0 selects kernels compiled without
// the row sum (template bool SMOOTH), so the plain path does no extra work.
//
// One block per row.  Each thread streams its share of the row once with
// 16-byte loads (float4 / 8 x bf16; a scalar head up to the first 16-byte
// boundary and a scalar tail, so any row start and any N work), four loads
// in flight per thread, and keeps an online (max, sum) pair: the max of a
// group of 16-32 values is taken first, the sum is rescaled only when the
// max grows, so each logit costs one exp2.  The pairs are merged with warp
// shuffles and one shared-memory step (rule: M = max(m1, m2),
// S = s1 * 2^(m1 - M) + s2 * 2^(m2 - M), in log2 units).  The target logit is
// read once by thread 0.  Row offsets are int64.
//
// Rows whose target equals -100 (PyTorch's default ignore_index) get loss 0
// (and a zero gradient); other targets outside [0, N) give NaN, never an
// out-of-bounds read.  For the fused op the gradient pointer may alias the
// logits (in place, as the op spec says) or not.
#ifndef KCREF_CROSS_ENTROPY_CUH
#define KCREF_CROSS_ENTROPY_CUH

#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <stdint.h>

#define KCREF_CE_LOG2E 1.4426950408889634f
#define KCREF_CE_NEG_BIG (-1.0e30f)
#define KCREF_CE_IGNORE_INDEX (-100)
#define KCREF_CE_UNROLL 4

static __device__ __forceinline__ float kcref_ce_ex2(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

// Per-dtype loads, stores and conversions.
template <typename T> struct kcref_ce_io;

template <> struct kcref_ce_io<float> {
    typedef float4 vec_t;
    enum { VN = 4 };
    static __device__ __forceinline__ float to_f(float x) { return x; }
    static __device__ __forceinline__ float from_f(float x) { return x; }
    static __device__ __forceinline__ void unpack(const float4 &v, float *f)
    {
        f[0] = v.x;
        f[1] = v.y;
        f[2] = v.z;
        f[3] = v.w;
    }
    static __device__ __forceinline__ float4 pack(const float *f) { return make_float4(f[0], f[1], f[2], f[3]); }
};

template <> struct kcref_ce_io<__nv_bfloat16> {
    typedef uint4 vec_t;
    enum { VN = 8 };
    static __device__ __forceinline__ float to_f(__nv_bfloat16 x) { return __bfloat162float(x); }
    static __device__ __forceinline__ __nv_bfloat16 from_f(float x) { return __float2bfloat16_rn(x); }
    static __device__ __forceinline__ void unpack_word(unsigned w, float *f)
    {
        f[0] = __uint_as_float(w << 16);          // element at the lower address
        f[1] = __uint_as_float(w & 0xffff0000u);
    }
    static __device__ __forceinline__ void unpack(const uint4 &v, float *f)
    {
        unpack_word(v.x, f);
        unpack_word(v.y, f + 2);
        unpack_word(v.z, f + 4);
        unpack_word(v.w, f + 6);
    }
    static __device__ __forceinline__ unsigned pack_word(float lo, float hi)
    {
        __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);   // .x (lower address) = lo
        return *reinterpret_cast<unsigned *>(&h);
    }
    static __device__ __forceinline__ uint4 pack(const float *f)
    {
        uint4 v;
        v.x = pack_word(f[0], f[1]);
        v.y = pack_word(f[2], f[3]);
        v.z = pack_word(f[4], f[5]);
        v.w = pack_word(f[6], f[7]);
        return v;
    }
};

// Elements before the first 16-byte boundary of p (all of them when p is not
// even element-aligned), at most n.
template <typename T> static __device__ __forceinline__ int64_t kcref_ce_head(const T *p, int64_t n)
{
    const unsigned mis = (unsigned)(reinterpret_cast<uintptr_t>(p) & 15u);
    int64_t h = 0;
    if (mis % sizeof(T) != 0)
        h = n;
    else if (mis != 0)
        h = (int64_t)((16u - mis) / sizeof(T));
    return h < n ? h : n;
}

// Online update with one value (head and tail elements).
static __device__ __forceinline__ void kcref_ce_acc1(float &m, float &s, float v)
{
    if (v > m) {
        s = s * kcref_ce_ex2((m - v) * KCREF_CE_LOG2E) + 1.0f;
        m = v;
    } else {
        s += kcref_ce_ex2(fmaf(v, KCREF_CE_LOG2E, -m * KCREF_CE_LOG2E));
    }
}

// Online update with K values: one max, at most one rescale, K exp2.
template <int K> static __device__ __forceinline__ void kcref_ce_acc(float &m, float &s, const float *f)
{
    float c = f[0];
#pragma unroll
    for (int k = 1; k < K; ++k)
        c = fmaxf(c, f[k]);
    if (c > m) {
        s *= kcref_ce_ex2((m - c) * KCREF_CE_LOG2E);
        m = c;
    }
    const float ms = m * KCREF_CE_LOG2E;
    float a0 = 0.0f, a1 = 0.0f;
#pragma unroll
    for (int k = 0; k < K; k += 2) {
        a0 += kcref_ce_ex2(fmaf(f[k], KCREF_CE_LOG2E, -ms));
        a1 += kcref_ce_ex2(fmaf(f[k + 1], KCREF_CE_LOG2E, -ms));
    }
    s += a0 + a1;
}

static __device__ __forceinline__ void kcref_ce_merge(float &m, float &s, float m2, float s2)
{
    const float mx = fmaxf(m, m2);
    s = s * kcref_ce_ex2((m - mx) * KCREF_CE_LOG2E) + s2 * kcref_ce_ex2((m2 - mx) * KCREF_CE_LOG2E);
    m = mx;
}

// Merges the (m, s) pairs of the whole block, and with SMOOTH the row sums
// sx; every thread gets the result.
template <int THREADS, bool SMOOTH>
static __device__ __forceinline__ void kcref_ce_block_merge(float &m, float &s, float &sx)
{
    __shared__ float sh_m[32], sh_s[32], sh_x[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
        const float s2 = __shfl_xor_sync(0xffffffffu, s, o);
        kcref_ce_merge(m, s, m2, s2);
        if (SMOOTH)
            sx += __shfl_xor_sync(0xffffffffu, sx, o);
    }
    if (lane == 0) {
        sh_m[warp] = m;
        sh_s[warp] = s;
        if (SMOOTH)
            sh_x[warp] = sx;
    }
    __syncthreads();
    constexpr int NW = THREADS / 32;
    m = lane < NW ? sh_m[lane] : KCREF_CE_NEG_BIG;
    s = lane < NW ? sh_s[lane] : 0.0f;
    if (SMOOTH)
        sx = lane < NW ? sh_x[lane] : 0.0f;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
        const float s2 = __shfl_xor_sync(0xffffffffu, s, o);
        kcref_ce_merge(m, s, m2, s2);
        if (SMOOTH)
            sx += __shfl_xor_sync(0xffffffffu, sx, o);
    }
}

// Streaming (evict-first) load for the single-pass forward; L2-cached load
// for the first pass of the fused kernel (its second pass re-reads the row).
template <bool STREAM, typename V> static __device__ __forceinline__ V kcref_ce_ld(const V *p)
{
    return STREAM ? __ldcs(p) : __ldcg(p);
}

// (max, sum of 2^((x - max) * log2 e)) of the part of row x[0:N] that this
// thread owns, and with SMOOTH the sum sx of those logits (0 otherwise); the
// caller merges across the block.
template <typename T, int THREADS, bool STREAM, bool SMOOTH>
static __device__ __forceinline__ void kcref_ce_row_stats(const T *x, int64_t N, float &m, float &s, float &sx)
{
    typedef kcref_ce_io<T> IO;
    typedef typename IO::vec_t V;
    constexpr int VN = IO::VN;
    constexpr int U = KCREF_CE_UNROLL;
    m = KCREF_CE_NEG_BIG;
    s = 0.0f;
    sx = 0.0f;
    const int64_t head = kcref_ce_head(x, N);
    for (int64_t i = threadIdx.x; i < head; i += THREADS) {
        const float v = IO::to_f(x[i]);
        kcref_ce_acc1(m, s, v);
        if (SMOOTH)
            sx += v;
    }
    const V *xv = reinterpret_cast<const V *>(x + head);
    const int64_t nv = (N - head) / VN;
    for (int64_t i = threadIdx.x; i < nv; i += (int64_t)U * THREADS) {
        V v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (i + (int64_t)u * THREADS < nv)
                v[u] = kcref_ce_ld<STREAM>(xv + i + (int64_t)u * THREADS);
        float f[U * VN];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            if (i + (int64_t)u * THREADS < nv) {
                IO::unpack(v[u], f + u * VN);
                if (SMOOTH) {   // loaded values only: the -inf padding below stays out of the sum
                    float a = 0.0f;
#pragma unroll
                    for (int k = 0; k < VN; ++k)
                        a += f[u * VN + k];
                    sx += a;
                }
            } else {
#pragma unroll
                for (int k = 0; k < VN; ++k)
                    f[u * VN + k] = __int_as_float(0xff800000);   // -inf: contributes 2^-inf = 0
            }
        }
        kcref_ce_acc<U * VN>(m, s, f);
    }
    for (int64_t j = head + nv * VN + threadIdx.x; j < N; j += THREADS) {
        const float v = IO::to_f(x[j]);
        kcref_ce_acc1(m, s, v);
        if (SMOOTH)
            sx += v;
    }
}

// The loss of one row from the merged statistics (thread 0).
template <bool SMOOTH>
static __device__ __forceinline__ float kcref_ce_loss(float m, float s, float sx, float xt, bool valid, bool ignored,
                                                      int64_t N, float eps)
{
    const float lse = m + logf(s);
    float l;
    if (SMOOTH)
        l = (lse - (1.0f - eps) * xt) - (eps / (float)N) * sx;
    else
        l = lse - xt;
    if (!valid)
        l = __int_as_float(0x7fc00000);   // NaN: target out of range
    if (ignored)
        l = 0.0f;
    return l;
}

// One gradient element: (p - (1 - eps) * onehot - eps / N) * scale; without
// SMOOTH (eps == 0) the plain (p - onehot) * scale.
template <bool SMOOTH>
static __device__ __forceinline__ float kcref_ce_grad(float p, bool is_t, float scale, float one_m_eps, float eps_n)
{
    if (SMOOTH)
        return (p - (is_t ? one_m_eps : 0.0f) - eps_n) * scale;
    return (p - (is_t ? 1.0f : 0.0f)) * scale;
}

template <typename T, int THREADS, bool SMOOTH>
static __global__ void __launch_bounds__(THREADS)
    kcref_ce_fwd_kernel(const T *logits, const int64_t *target, float *loss, int64_t N, int64_t ignore_index,
                        float eps)
{
    const int64_t row = blockIdx.x;
    const T *x = logits + row * N;
    const int64_t t = target[row];
    const bool valid = t >= 0 && t < N;
    float xt = 0.0f;
    if (threadIdx.x == 0 && valid)
        xt = kcref_ce_io<T>::to_f(x[t]);   // the target logit, read once
    float m, s, sx;
    kcref_ce_row_stats<T, THREADS, true, SMOOTH>(x, N, m, s, sx);
    kcref_ce_block_merge<THREADS, SMOOTH>(m, s, sx);
    if (threadIdx.x == 0)
        loss[row] = kcref_ce_loss<SMOOTH>(m, s, sx, xt, valid, t == ignore_index, N, eps);
}

template <typename T, int THREADS, bool SMOOTH>
static __global__ void __launch_bounds__(THREADS)
    kcref_ce_fwd_bwd_kernel(const T *logits, const int64_t *target, float *loss, T *dlogits, int64_t N,
                            float grad_scale, int64_t ignore_index, float eps)
{
    typedef kcref_ce_io<T> IO;
    typedef typename IO::vec_t V;
    constexpr int VN = IO::VN;
    constexpr int U = KCREF_CE_UNROLL;
    const int64_t row = blockIdx.x;
    const T *x = logits + row * N;
    T *g = dlogits + row * N;
    const int64_t t = target[row];
    const bool valid = t >= 0 && t < N;
    float xt = 0.0f;
    if (threadIdx.x == 0 && valid)
        xt = IO::to_f(x[t]);   // before the barrier in the merge, so before any write of the row
    float m, s, sx;
    kcref_ce_row_stats<T, THREADS, false, SMOOTH>(x, N, m, s, sx);
    kcref_ce_block_merge<THREADS, SMOOTH>(m, s, sx);   // contains __syncthreads()
    if (threadIdx.x == 0)
        loss[row] = kcref_ce_loss<SMOOTH>(m, s, sx, xt, valid, t == ignore_index, N, eps);
    const float lse2 = fmaf(m, KCREF_CE_LOG2E, log2f(s));   // logsumexp in log2 units
    const float scale = t == ignore_index ? 0.0f : grad_scale;
    const float one_m_eps = 1.0f - eps, eps_n = eps / (float)N;   // used with SMOOTH only
    // Pass 2: the same partition of the row as pass 1, so every element is
    // read and then written by one thread (safe in place).
    const int64_t head = kcref_ce_head(x, N);
    const bool vec = kcref_ce_head(g, N) == head;   // same alignment: vector stores too
    if (!vec) {
        for (int64_t j = threadIdx.x; j < N; j += THREADS) {
            const float p = kcref_ce_ex2(fmaf(IO::to_f(x[j]), KCREF_CE_LOG2E, -lse2));
            g[j] = IO::from_f(kcref_ce_grad<SMOOTH>(p, j == t, scale, one_m_eps, eps_n));
        }
        return;
    }
    for (int64_t j = threadIdx.x; j < head; j += THREADS) {
        const float p = kcref_ce_ex2(fmaf(IO::to_f(x[j]), KCREF_CE_LOG2E, -lse2));
        g[j] = IO::from_f(kcref_ce_grad<SMOOTH>(p, j == t, scale, one_m_eps, eps_n));
    }
    const V *xv = reinterpret_cast<const V *>(x + head);
    V *gv = reinterpret_cast<V *>(g + head);
    const int64_t nv = (N - head) / VN;
    for (int64_t i = threadIdx.x; i < nv; i += (int64_t)U * THREADS) {
        V v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (i + (int64_t)u * THREADS < nv)
                v[u] = __ldcs(xv + i + (int64_t)u * THREADS);
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int64_t iv = i + (int64_t)u * THREADS;
            if (iv < nv) {
                float f[VN];
                IO::unpack(v[u], f);
                const int64_t rel = t - (head + iv * VN);   // target position inside this vector
#pragma unroll
                for (int k = 0; k < VN; ++k) {
                    const float p = kcref_ce_ex2(fmaf(f[k], KCREF_CE_LOG2E, -lse2));
                    f[k] = kcref_ce_grad<SMOOTH>(p, rel == k, scale, one_m_eps, eps_n);
                }
                __stcs(gv + iv, IO::pack(f));
            }
        }
    }
    for (int64_t j = head + nv * VN + threadIdx.x; j < N; j += THREADS) {
        const float p = kcref_ce_ex2(fmaf(IO::to_f(x[j]), KCREF_CE_LOG2E, -lse2));
        g[j] = IO::from_f(kcref_ce_grad<SMOOTH>(p, j == t, scale, one_m_eps, eps_n));
    }
}

// Host side.  Blocks of 512 threads for rows of 16 KiB and more (four 16-byte
// loads in flight per thread: 32 KiB per block), 128 threads for short rows.
template <typename T, bool SMOOTH>
static inline void kcref_ce_fwd_launch2(const T *logits, const int64_t *target, float *loss, int64_t M, int64_t N,
                                        int64_t ignore_index, float eps, cudaStream_t stream)
{
    if (N * (int64_t)sizeof(T) >= 16384)
        kcref_ce_fwd_kernel<T, 512, SMOOTH>
            <<<(unsigned)M, 512, 0, stream>>>(logits, target, loss, N, ignore_index, eps);
    else
        kcref_ce_fwd_kernel<T, 128, SMOOTH>
            <<<(unsigned)M, 128, 0, stream>>>(logits, target, loss, N, ignore_index, eps);
}

// label_smoothing == 0 runs the kernels compiled without the row sum.
template <typename T>
static inline void kcref_ce_fwd_launch(const T *logits, const int64_t *target, float *loss, int64_t M, int64_t N,
                                       int64_t ignore_index, float label_smoothing, cudaStream_t stream)
{
    if (M <= 0)
        return;
    if (label_smoothing != 0.0f)
        kcref_ce_fwd_launch2<T, true>(logits, target, loss, M, N, ignore_index, label_smoothing, stream);
    else
        kcref_ce_fwd_launch2<T, false>(logits, target, loss, M, N, ignore_index, 0.0f, stream);
}

template <typename T, bool SMOOTH>
static inline void kcref_ce_fwd_bwd_launch2(const T *logits, const int64_t *target, float *loss, T *dlogits,
                                            int64_t M, int64_t N, float grad_scale, int64_t ignore_index, float eps,
                                            cudaStream_t stream)
{
    if (N * (int64_t)sizeof(T) >= 16384)
        kcref_ce_fwd_bwd_kernel<T, 512, SMOOTH>
            <<<(unsigned)M, 512, 0, stream>>>(logits, target, loss, dlogits, N, grad_scale, ignore_index, eps);
    else
        kcref_ce_fwd_bwd_kernel<T, 128, SMOOTH>
            <<<(unsigned)M, 128, 0, stream>>>(logits, target, loss, dlogits, N, grad_scale, ignore_index, eps);
}

template <typename T>
static inline void kcref_ce_fwd_bwd_launch(const T *logits, const int64_t *target, float *loss, T *dlogits,
                                           int64_t M, int64_t N, float grad_scale, int64_t ignore_index,
                                           float label_smoothing, cudaStream_t stream)
{
    if (M <= 0)
        return;
    if (label_smoothing != 0.0f)
        kcref_ce_fwd_bwd_launch2<T, true>(logits, target, loss, dlogits, M, N, grad_scale, ignore_index,
                                          label_smoothing, stream);
    else
        kcref_ce_fwd_bwd_launch2<T, false>(logits, target, loss, dlogits, M, N, grad_scale, ignore_index, 0.0f,
                                           stream);
}

// Per-row losses with ignore_index (rows whose target equals it get loss 0)
// and label_smoothing eps in [0, 1] (PyTorch's semantics; eps == 0 is the
// plain loss, computed by kernels without the row sum).  No reduction: the
// caller sums the M losses (PyTorch's 'mean' divides that sum by the number
// of rows whose target is not ignore_index).
static inline void kcref_cross_entropy_fwd_ex(const float *logits, const int64_t *target, float *loss, int64_t M,
                                              int64_t N, int64_t ignore_index, float label_smoothing,
                                              cudaStream_t stream)
{
    kcref_ce_fwd_launch<float>(logits, target, loss, M, N, ignore_index, label_smoothing, stream);
}

static inline void kcref_cross_entropy_fwd_bf16_ex(const __nv_bfloat16 *logits, const int64_t *target, float *loss,
                                                   int64_t M, int64_t N, int64_t ignore_index, float label_smoothing,
                                                   cudaStream_t stream)
{
    kcref_ce_fwd_launch<__nv_bfloat16>(logits, target, loss, M, N, ignore_index, label_smoothing, stream);
}

// op cross_entropy_fwd: logits fp32 [M, N], target int64 [M] -> loss fp32 [M]
static inline void kcref_cross_entropy_fwd(const float *logits, const int64_t *target, float *loss, int64_t M,
                                           int64_t N, cudaStream_t stream)
{
    kcref_cross_entropy_fwd_ex(logits, target, loss, M, N, KCREF_CE_IGNORE_INDEX, 0.0f, stream);
}

// op cross_entropy_fwd_bf16: logits bf16 [M, N], target int64 [M] -> loss fp32 [M]
static inline void kcref_cross_entropy_fwd_bf16(const __nv_bfloat16 *logits, const int64_t *target, float *loss,
                                                int64_t M, int64_t N, cudaStream_t stream)
{
    kcref_cross_entropy_fwd_bf16_ex(logits, target, loss, M, N, KCREF_CE_IGNORE_INDEX, 0.0f, stream);
}

// Fused forward + backward with ignore_index and label_smoothing:
// dlogits = (softmax - (1 - eps) * onehot - eps / N) * grad_scale, 0 on
// ignored rows.  grad_scale is the upstream gradient of each loss element
// (1 / (number of non-ignored rows) for PyTorch's 'mean').
static inline void kcref_cross_entropy_fwd_bwd_ex(const float *logits, const int64_t *target, float *loss,
                                                  float *dlogits, int64_t M, int64_t N, float grad_scale,
                                                  int64_t ignore_index, float label_smoothing, cudaStream_t stream)
{
    kcref_ce_fwd_bwd_launch<float>(logits, target, loss, dlogits, M, N, grad_scale, ignore_index, label_smoothing,
                                   stream);
}

static inline void kcref_cross_entropy_fwd_bwd_bf16_ex(const __nv_bfloat16 *logits, const int64_t *target,
                                                       float *loss, __nv_bfloat16 *dlogits, int64_t M, int64_t N,
                                                       float grad_scale, int64_t ignore_index,
                                                       float label_smoothing, cudaStream_t stream)
{
    kcref_ce_fwd_bwd_launch<__nv_bfloat16>(logits, target, loss, dlogits, M, N, grad_scale, ignore_index,
                                           label_smoothing, stream);
}

// op cross_entropy_fwd_bwd: inputs logits, target; outputs loss and logits
// (in place: dlogits may be the logits buffer itself); scalars M, N, grad_scale.
static inline void kcref_cross_entropy_fwd_bwd(const float *logits, const int64_t *target, float *loss,
                                               float *dlogits, int64_t M, int64_t N, float grad_scale,
                                               cudaStream_t stream)
{
    kcref_cross_entropy_fwd_bwd_ex(logits, target, loss, dlogits, M, N, grad_scale, KCREF_CE_IGNORE_INDEX, 0.0f,
                                   stream);
}

static inline void kcref_cross_entropy_fwd_bwd_bf16(const __nv_bfloat16 *logits, const int64_t *target,
                                                    float *loss, __nv_bfloat16 *dlogits, int64_t M, int64_t N,
                                                    float grad_scale, cudaStream_t stream)
{
    kcref_cross_entropy_fwd_bwd_bf16_ex(logits, target, loss, dlogits, M, N, grad_scale, KCREF_CE_IGNORE_INDEX,
                                        0.0f, stream);
}

#endif  // KCREF_CROSS_ENTROPY_CUH
