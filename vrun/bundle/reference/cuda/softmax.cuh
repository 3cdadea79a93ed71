// Row softmax reference kernels (CUDA).  Op softmax_rows: kcref_softmax_rows.
//
//   out[i, j] = exp(x[i, j] - max_j x[i, :]) / sum_j exp(x[i, j] - max_j x[i, :])   (fp32)
//
// One block per row.  Rows of up to 16384 floats are held in registers
// (each thread keeps up to eight float4 loaded with 16-byte streaming loads),
// so the row is read once and written once, the minimum traffic: block max
// (warp shuffles + one shared-memory step), exp2 of (x - max) * log2(e), block
// sum, then scaled 16-byte streaming stores.  Longer rows take two passes: an
// online (max, sum) pass (one exp2 per element, the sum rescaled only when
// the running max grows) and a pass that re-reads the row (mostly from L2)
// and writes.  Rows that are not 16-byte aligned use scalar accesses.
#ifndef KCREF_SOFTMAX_CUH
#define KCREF_SOFTMAX_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#define KCREF_SM_LOG2E 1.4426950408889634f
#define KCREF_SM_NEG_BIG (-1.0e30f)

static __device__ __forceinline__ float kcref_sm_ex2(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

static __device__ __forceinline__ float kcref_sm_neg_inf() { return __int_as_float(0xff800000); }

template <int THREADS> static __device__ __forceinline__ float kcref_sm_block_max(float v)
{
    __shared__ float sh[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    if (lane == 0)
        sh[warp] = v;
    __syncthreads();
    v = lane < THREADS / 32 ? sh[lane] : kcref_sm_neg_inf();
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

template <int THREADS> static __device__ __forceinline__ float kcref_sm_block_sum(float v)
{
    __shared__ float sh[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    if (lane == 0)
        sh[warp] = v;
    __syncthreads();
    v = lane < THREADS / 32 ? sh[lane] : 0.0f;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// Whole row in registers: N <= THREADS * VPT * 4.
template <int THREADS, int VPT>
static __global__ void __launch_bounds__(THREADS) kcref_sm_cached_kernel(const float *in, float *out, int64_t N)
{
    constexpr int E = 4 * VPT;
    const int64_t row = blockIdx.x;
    const float *x = in + row * N;
    float *y = out + row * N;
    const int tid = threadIdx.x;
    const bool vec = ((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(y)) & 15u) == 0;
    const int64_t nv = vec ? N / 4 : 0;   // float4 vectors (vector path)
    const int64_t rest = N - nv * 4;      // vector path: at most 3 tail elements
    float v[E];
    float tv = kcref_sm_neg_inf();        // the vector path's tail element, if any
    if (vec) {
        const float4 *xv = reinterpret_cast<const float4 *>(x);
#pragma unroll
        for (int k = 0; k < VPT; ++k) {
            const int64_t i = tid + (int64_t)k * THREADS;
            float4 a = make_float4(kcref_sm_neg_inf(), kcref_sm_neg_inf(), kcref_sm_neg_inf(), kcref_sm_neg_inf());
            if (i < nv)
                a = __ldcs(xv + i);
            v[4 * k] = a.x;
            v[4 * k + 1] = a.y;
            v[4 * k + 2] = a.z;
            v[4 * k + 3] = a.w;
        }
        if (tid < rest)
            tv = x[nv * 4 + tid];
    } else {
#pragma unroll
        for (int k = 0; k < E; ++k) {
            const int64_t i = tid + (int64_t)k * THREADS;
            v[k] = i < N ? __ldcs(x + i) : kcref_sm_neg_inf();
        }
    }
    float m = tv;
#pragma unroll
    for (int k = 0; k < E; ++k)
        m = fmaxf(m, v[k]);
    m = kcref_sm_block_max<THREADS>(m);
    const float ms = m * KCREF_SM_LOG2E;
    float s0 = 0.0f, s1 = 0.0f;
#pragma unroll
    for (int k = 0; k < E; k += 2) {
        v[k] = kcref_sm_ex2(fmaf(v[k], KCREF_SM_LOG2E, -ms));
        v[k + 1] = kcref_sm_ex2(fmaf(v[k + 1], KCREF_SM_LOG2E, -ms));
        s0 += v[k];
        s1 += v[k + 1];
    }
    tv = kcref_sm_ex2(fmaf(tv, KCREF_SM_LOG2E, -ms));
    const float s = kcref_sm_block_sum<THREADS>(s0 + s1 + tv);
    const float inv = 1.0f / s;
    if (vec) {
        float4 *yv = reinterpret_cast<float4 *>(y);
#pragma unroll
        for (int k = 0; k < VPT; ++k) {
            const int64_t i = tid + (int64_t)k * THREADS;
            if (i < nv)
                __stcs(yv + i, make_float4(v[4 * k] * inv, v[4 * k + 1] * inv, v[4 * k + 2] * inv, v[4 * k + 3] * inv));
        }
        if (tid < rest)
            y[nv * 4 + tid] = tv * inv;
    } else {
#pragma unroll
        for (int k = 0; k < E; ++k) {
            const int64_t i = tid + (int64_t)k * THREADS;
            if (i < N)
                __stcs(y + i, v[k] * inv);
        }
    }
}

// ---- long rows: online (max, sum) pass, then a writing pass ----

static __device__ __forceinline__ void kcref_sm_acc1(float &m, float &s, float v)
{
    if (v > m) {
        s = s * kcref_sm_ex2((m - v) * KCREF_SM_LOG2E) + 1.0f;
        m = v;
    } else {
        s += kcref_sm_ex2(fmaf(v, KCREF_SM_LOG2E, -m * KCREF_SM_LOG2E));
    }
}

static __device__ __forceinline__ void kcref_sm_acc16(float &m, float &s, const float *f)
{
    float c = f[0];
#pragma unroll
    for (int k = 1; k < 16; ++k)
        c = fmaxf(c, f[k]);
    if (c > m) {
        s *= kcref_sm_ex2((m - c) * KCREF_SM_LOG2E);
        m = c;
    }
    const float ms = m * KCREF_SM_LOG2E;
    float a0 = 0.0f, a1 = 0.0f;
#pragma unroll
    for (int k = 0; k < 16; k += 2) {
        a0 += kcref_sm_ex2(fmaf(f[k], KCREF_SM_LOG2E, -ms));
        a1 += kcref_sm_ex2(fmaf(f[k + 1], KCREF_SM_LOG2E, -ms));
    }
    s += a0 + a1;
}

static __device__ __forceinline__ void kcref_sm_merge(float &m, float &s, float m2, float s2)
{
    const float mx = fmaxf(m, m2);
    s = s * kcref_sm_ex2((m - mx) * KCREF_SM_LOG2E) + s2 * kcref_sm_ex2((m2 - mx) * KCREF_SM_LOG2E);
    m = mx;
}

template <int THREADS> static __device__ __forceinline__ void kcref_sm_block_merge(float &m, float &s)
{
    __shared__ float sh_m[32], sh_s[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
        const float s2 = __shfl_xor_sync(0xffffffffu, s, o);
        kcref_sm_merge(m, s, m2, s2);
    }
    if (lane == 0) {
        sh_m[warp] = m;
        sh_s[warp] = s;
    }
    __syncthreads();
    m = lane < THREADS / 32 ? sh_m[lane] : KCREF_SM_NEG_BIG;
    s = lane < THREADS / 32 ? sh_s[lane] : 0.0f;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
        const float s2 = __shfl_xor_sync(0xffffffffu, s, o);
        kcref_sm_merge(m, s, m2, s2);
    }
}

template <int THREADS>
static __global__ void __launch_bounds__(THREADS) kcref_sm_online_kernel(const float *in, float *out, int64_t N)
{
    const int64_t row = blockIdx.x;
    const float *x = in + row * N;
    float *y = out + row * N;
    const int tid = threadIdx.x;
    // 16-byte vectors between a scalar head and a scalar tail; x and y must
    // share their offset from a 16-byte boundary (else everything is scalar).
    const unsigned mx = (unsigned)(reinterpret_cast<uintptr_t>(x) & 15u);
    const unsigned my = (unsigned)(reinterpret_cast<uintptr_t>(y) & 15u);
    int64_t head = N;
    if (mx == my && mx % 4 == 0)
        head = mx == 0 ? 0 : (16 - mx) / 4;
    if (head > N)
        head = N;
    const int64_t nv = (N - head) / 4;
    const float4 *xv = reinterpret_cast<const float4 *>(x + head);
    float4 *yv = reinterpret_cast<float4 *>(y + head);

    float m = KCREF_SM_NEG_BIG, s = 0.0f;
    for (int64_t i = tid; i < head; i += THREADS)
        kcref_sm_acc1(m, s, x[i]);
    for (int64_t i = tid; i < nv; i += 4 * (int64_t)THREADS) {
        float f[16];
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            float4 a = make_float4(kcref_sm_neg_inf(), kcref_sm_neg_inf(), kcref_sm_neg_inf(), kcref_sm_neg_inf());
            if (i + (int64_t)u * THREADS < nv)
                a = __ldcg(xv + i + (int64_t)u * THREADS);
            f[4 * u] = a.x;
            f[4 * u + 1] = a.y;
            f[4 * u + 2] = a.z;
            f[4 * u + 3] = a.w;
        }
        kcref_sm_acc16(m, s, f);
    }
    for (int64_t j = head + nv * 4 + tid; j < N; j += THREADS)
        kcref_sm_acc1(m, s, x[j]);
    kcref_sm_block_merge<THREADS>(m, s);

    const float ms = m * KCREF_SM_LOG2E;
    const float inv = 1.0f / s;
    for (int64_t i = tid; i < head; i += THREADS)
        y[i] = kcref_sm_ex2(fmaf(x[i], KCREF_SM_LOG2E, -ms)) * inv;
    for (int64_t i = tid; i < nv; i += 4 * (int64_t)THREADS) {
        float4 a[4];
#pragma unroll
        for (int u = 0; u < 4; ++u)
            if (i + (int64_t)u * THREADS < nv)
                a[u] = __ldcs(xv + i + (int64_t)u * THREADS);
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            if (i + (int64_t)u * THREADS < nv) {
                float4 r;
                r.x = kcref_sm_ex2(fmaf(a[u].x, KCREF_SM_LOG2E, -ms)) * inv;
                r.y = kcref_sm_ex2(fmaf(a[u].y, KCREF_SM_LOG2E, -ms)) * inv;
                r.z = kcref_sm_ex2(fmaf(a[u].z, KCREF_SM_LOG2E, -ms)) * inv;
                r.w = kcref_sm_ex2(fmaf(a[u].w, KCREF_SM_LOG2E, -ms)) * inv;
                __stcs(yv + i + (int64_t)u * THREADS, r);
            }
        }
    }
    for (int64_t j = head + nv * 4 + tid; j < N; j += THREADS)
        y[j] = kcref_sm_ex2(fmaf(x[j], KCREF_SM_LOG2E, -ms)) * inv;
}

// op softmax_rows: x fp32 [M, N] -> out fp32 [M, N]
static inline void kcref_softmax_rows(const float *x, float *out, int64_t M, int64_t N, cudaStream_t stream)
{
    if (M <= 0 || N <= 0)
        return;
    const unsigned grid = (unsigned)M;
    if (N <= 1024)
        kcref_sm_cached_kernel<128, 2><<<grid, 128, 0, stream>>>(x, out, N);
    else if (N <= 4096)
        kcref_sm_cached_kernel<256, 4><<<grid, 256, 0, stream>>>(x, out, N);
    else if (N <= 8192)
        kcref_sm_cached_kernel<512, 4><<<grid, 512, 0, stream>>>(x, out, N);
    else if (N <= 16384)
        kcref_sm_cached_kernel<512, 8><<<grid, 512, 0, stream>>>(x, out, N);
    else
        kcref_sm_online_kernel<512><<<grid, 512, 0, stream>>>(x, out, N);
}

#endif  // KCREF_SOFTMAX_CUH
