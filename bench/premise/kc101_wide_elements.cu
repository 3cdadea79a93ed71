// KC101 premise (CUDA): how much a scattered access costs against a
// contiguous one as the element grows. By sector count, with lanes a sector
// or more apart a warp touches 32 sectors where a contiguous warp touches
// 32 * size / 32: 8x for floats, 4x for doubles, 2x for 16-byte elements,
// 1x for 32-byte ones. Whether the time follows the sector count decides
// whether a symbolic stride over 16-byte elements (a double complex, a
// float4) is worth a warning: measured on an H100 it does not (16-byte
// elements 3.4x loaded, 4.9x stored, 9.3x in a row walk), so KC101 keeps
// reporting them (docs/measurements/kc101-wide-elements-h100-2026-12-07.md).
//
//   nvcc -O3 -arch=sm_90 -o /tmp/kc101_wide bench/premise/kc101_wide_elements.cu && /tmp/kc101_wide
//
// One thread per row r of R, one element each, loaded (summed into a
// contiguous output) or stored:
//   contiguous   M[r]          (lanes adjacent)
//   strided      M[r * S]      (lanes S elements apart, S = 64 bytes / the
//                               element size: each lane in a sector of its own)
// R = 2^25 threads: the contiguous buffer (128 MiB of floats and more) does
// not fit in the 50 MiB L2, so both read and write DRAM.
// Prints the best of 20 launches of each, in ms, and strided / contiguous.
#include "../bench_cuda.h"

struct f32x8 {
    float v[8];
};

template <class T> __device__ __forceinline__ float first(const T &x) { return (float)x; }
template <> __device__ __forceinline__ float first(const double2 &x) { return (float)x.x; }
template <> __device__ __forceinline__ float first(const float4 &x) { return x.x; }
template <> __device__ __forceinline__ float first(const f32x8 &x) { return x.v[0]; }

template <class T> __device__ __forceinline__ T make(float f) { return (T)f; }
template <> __device__ __forceinline__ double2 make(float f) { return make_double2(f, f); }
template <> __device__ __forceinline__ float4 make(float f) { return make_float4(f, f, f, f); }
template <> __device__ __forceinline__ f32x8 make(float f)
{
    f32x8 x;
    for (int i = 0; i < 8; ++i)
        x.v[i] = f;
    return x;
}

template <class T>
__global__ void load_k(const T *__restrict__ m, float *__restrict__ out, int R, long S)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < R)
        out[r] = first(m[(long)r * S]);
}

template <class T>
__global__ void store_k(T *__restrict__ m, int R, long S)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < R)
        m[(long)r * S] = make<T>((float)r);
}

// The same in a loop of C passes, as a thread zeroes its row of a matrix
// (`M[i * N + j]` over j): lanes C elements apart, each lane's next pass
// the next element of its row, against lanes adjacent (`M[j * R + r]`).
template <class T>
__global__ void rows_k(T *__restrict__ m, int R, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < R)
        for (int j = 0; j < C; ++j)
            m[(long)r * C + j] = make<T>(0.f);
}

template <class T>
__global__ void cols_k(T *__restrict__ m, int R, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < R)
        for (int j = 0; j < C; ++j)
            m[(long)j * R + r] = make<T>(0.f);
}

template <class T>
static void run_rows(const char *name, int R, int C)
{
    T *m;
    CK(cudaMalloc(&m, (size_t)R * C * sizeof(T)));
    unsigned g = (unsigned)((R + 255) / 256);
    float c = kc_best_ms([&] { cols_k<T><<<g, 256>>>(m, R, C); });
    float w = kc_best_ms([&] { rows_k<T><<<g, 256>>>(m, R, C); });
    printf("%-7s %2zu B  loop of %d stores: lanes adjacent %7.3f ms  lanes a row apart %7.3f ms  %5.2fx\n", name,
           sizeof(T), C, c, w, w / c);
    CK(cudaFree(m));
}

template <class T>
static void run(const char *name, int R)
{
    const long S = 64 / (long)sizeof(T);
    T *m;
    float *out;
    CK(cudaMalloc(&m, (size_t)R * S * sizeof(T)));
    CK(cudaMalloc(&out, (size_t)R * sizeof(float)));
    CK(cudaMemset(m, 0, (size_t)R * S * sizeof(T)));
    unsigned g = (unsigned)((R + 255) / 256);
    float lc = kc_best_ms([&] { load_k<T><<<g, 256>>>(m, out, R, 1); });
    float ls = kc_best_ms([&] { load_k<T><<<g, 256>>>(m, out, R, S); });
    float sc = kc_best_ms([&] { store_k<T><<<g, 256>>>(m, R, 1); });
    float ss = kc_best_ms([&] { store_k<T><<<g, 256>>>(m, R, S); });
    printf("%-7s %2zu B S=%2ld  load: contiguous %7.3f ms  strided %7.3f ms  %5.2fx   store: contiguous %7.3f ms  "
           "strided %7.3f ms  %5.2fx\n",
           name, sizeof(T), S, lc, ls, ls / lc, sc, ss, ss / sc);
    CK(cudaFree(m));
    CK(cudaFree(out));
}

int main()
{
    const int R = 1 << 25;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s; R = %d threads, one element each; strided: lanes 64 bytes apart\n", p.name, R);
    run<float>("float", R);
    run<double>("double", R);
    run<double2>("double2", R);
    run<float4>("float4", R);
    run<f32x8>("f32x8", R);
    const int RR = 1 << 20, C = 32;
    run_rows<float>("float", RR, C);
    run_rows<double>("double", RR, C);
    run_rows<double2>("double2", RR, C);
    run_rows<f32x8>("f32x8", RR, C);
    return 0;
}
