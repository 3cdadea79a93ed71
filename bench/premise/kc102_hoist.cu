// KC102 premise, CUDA: which loop-invariant global loads does nvcc -O3 hoist
// out of a loop by itself? Each kernel has one loop (kept rolled with
// `#pragma unroll 1`, so a pass is one copy of the body) holding one load
// whose address does not change with the loop (`w[0]`, `*lr`) and one that
// does (`x[i]`). kc102_hoist.py compiles this file to PTX and SASS and
// counts the global loads inside each loop: 1 means the invariant load was
// hoisted, 2 means it is issued in every pass.
//
//   nvcc -O3 -arch=sm_90 -ptx bench/premise/kc102_hoist.cu
//
// Names say what the loop holds besides the two loads.

extern "C" __global__ void no_store_plain(const float *x, const float *w, float *out, int n)
{
    float acc = 0.f;
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += x[i] * w[0];
    out[threadIdx.x] = acc;
}

extern "C" __global__ void no_store_restrict(const float *__restrict__ x, const float *__restrict__ w,
                                             float *__restrict__ out, int n)
{
    float acc = 0.f;
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += x[i] * w[0];
    out[threadIdx.x] = acc;
}

// A store in the loop through a pointer that may alias `w`.
extern "C" __global__ void store_plain(const float *x, const float *w, float *out, int n)
{
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = x[i] * w[0];
}

extern "C" __global__ void store_all_restrict(const float *__restrict__ x, const float *__restrict__ w,
                                              float *__restrict__ out, int n)
{
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = x[i] * w[0];
}

// Only the loaded pointer is __restrict__.
extern "C" __global__ void store_load_restrict(const float *x, const float *__restrict__ w, float *out, int n)
{
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = x[i] * w[0];
}

// Only the stored pointer is __restrict__.
extern "C" __global__ void store_out_restrict(const float *x, const float *w, float *__restrict__ out, int n)
{
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = x[i] * w[0];
}

extern "C" __global__ void store_ldg(const float *x, const float *w, float *out, int n)
{
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = x[i] * __ldg(&w[0]);
}

// The store has another element type: int cannot alias float under C++'s
// type rules, which nvcc applies.
extern "C" __global__ void store_other_type(const float *x, const float *w, int *out, int n)
{
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = (int)(x[i] * w[0]);
}

extern "C" __global__ void barrier_no_store(const float *x, const float *w, float *out, int n)
{
    float acc = 0.f;
#pragma unroll 1
    for (int i = 0; i < n; i += blockDim.x) {
        acc += x[i + threadIdx.x] * w[0];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

extern "C" __global__ void barrier_restrict(const float *__restrict__ x, const float *__restrict__ w,
                                            float *__restrict__ out, int n)
{
    float acc = 0.f;
#pragma unroll 1
    for (int i = 0; i < n; i += blockDim.x) {
        acc += x[i + threadIdx.x] * w[0];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

// A shared-memory tile loop: stores to __shared__ only, and barriers.
extern "C" __global__ void shared_store_barrier(const float *x, const float *w, float *out, int n)
{
    __shared__ float tile[256];
    float acc = 0.f;
#pragma unroll 1
    for (int i = 0; i < n; i += blockDim.x) {
        tile[threadIdx.x] = x[i + threadIdx.x] * w[0];
        __syncthreads();
        acc += tile[(threadIdx.x + 1) % 256];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

extern "C" __global__ void shared_store_no_barrier(const float *x, const float *w, float *out, int n)
{
    __shared__ float tile[256];
    float acc = 0.f;
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        tile[threadIdx.x] = x[i] * w[0];
        acc += tile[threadIdx.x];
    }
    out[threadIdx.x] = acc;
}

extern "C" __global__ void atomic_in_loop(const float *x, const float *w, float *out, int n)
{
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        atomicAdd(&out[i % 32], x[i] * w[0]);
}

__device__ __noinline__ float opaque(float v) { return v * 0.5f; }

extern "C" __global__ void call_in_loop(const float *x, const float *w, float *out, int n)
{
    float acc = 0.f;
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += opaque(x[i]) * w[0];
    out[threadIdx.x] = acc;
}

// The load is on the path that leaves the loop: it runs once.
extern "C" __global__ void exit_path(const float *x, const float *w, float *out, int n)
{
    float acc = 0.f;
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        acc += x[i];
        if (acc > 1e30f) {
            out[threadIdx.x] = w[0];
            return;
        }
    }
    out[threadIdx.x] = acc;
}

// The shape of a multi-tensor optimiser step (TransformerEngine's adam):
// a scalar read through a pointer argument in every pass of a loop that
// stores to the tensors.
extern "C" __global__ void optimiser_step(float *p, float *m, const float *g, const float *lr, float beta, int n)
{
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        float mi = beta * m[i] + (1.f - beta) * g[i];
        m[i] = mi;
        p[i] -= *lr * mi;
    }
}

// A row loop whose trip count may be zero: the load must not fault when
// the loop does not run, so it can only be hoisted behind the loop's guard.
extern "C" __global__ void maybe_empty(const float *x, const float *w, float *out, int n, int m)
{
    float acc = 0.f;
#pragma unroll 1
    for (int i = m; i < n; i++)
        acc += x[i] * w[threadIdx.x];
    out[threadIdx.x] = acc;
}

// Only the loaded pointer is __restrict__, with a barrier in the loop.
extern "C" __global__ void barrier_load_restrict(const float *x, const float *__restrict__ w, float *out, int n)
{
    float acc = 0.f;
#pragma unroll 1
    for (int i = 0; i < n; i += blockDim.x) {
        acc += x[i + threadIdx.x] * w[0];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

extern "C" __global__ void atomic_load_restrict(const float *x, const float *__restrict__ w, float *out, int n)
{
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        atomicAdd(&out[i % 32], x[i] * w[0]);
}

extern "C" __global__ void atomic_out_restrict(const float *x, const float *w, float *__restrict__ out, int n)
{
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        atomicAdd(&out[i % 32], x[i] * w[0]);
}

extern "C" __global__ void syncwarp_in_loop(const float *x, const float *w, float *out, int n)
{
    float acc = 0.f;
#pragma unroll 1
    for (int i = 0; i < n; i += blockDim.x) {
        acc += x[i + threadIdx.x] * w[0];
        __syncwarp();
    }
    out[threadIdx.x] = acc;
}

extern "C" __global__ void threadfence_in_loop(const float *x, const float *w, float *out, int n)
{
    float acc = 0.f;
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        acc += x[i] * w[0];
        __threadfence();
    }
    out[threadIdx.x] = acc;
}

// A store to a register array (local memory) in the loop.
extern "C" __global__ void local_store(const float *x, const float *w, float *out, int n, int k)
{
    float r[8] = {0.f};
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        r[i & k & 7] += x[i] * w[0];
    out[threadIdx.x] = r[k & 7];
}

// The store goes through a pointer computed from a restrict parameter.
extern "C" __global__ void store_derived_restrict(const float *x, const float *w, float *__restrict__ out, int n)
{
    float *row = out + blockIdx.x * n;
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        row[i] = x[i] * w[0];
}

// A loop storing to the same buffer it reads the invariant element of.
extern "C" __global__ void store_same_buffer(float *x, int n)
{
#pragma unroll 1
    for (int i = threadIdx.x + 1; i < n; i += blockDim.x)
        x[i] = x[i] * x[0];
}
