// KC101 premise (CUDA): a thread that walks its whole record of S
// elements, one element a pass (`for (c = 0; c < C; c++) out[p * C + c] =
// in[p * C + c]`), against the same values stored transposed (element c of
// record p at c * M + p, lanes adjacent). KC101 reports a stride of a
// length the file shows only as that loop's bound as a note stating both
// costs; this measures them for S = 2 .. 64 floats.
//
//   nvcc -O3 -arch=sm_90 -o /tmp/kc101_record_walk bench/premise/kc101_record_walk.cu && /tmp/kc101_record_walk
//
// M records, one thread each, block 256. Per layout:
//   copy    each thread copies its record to another buffer (a beam's ids,
//           a pixel's channels flipped)
//   store   each thread writes its record (values it computed)
//   reduce  each thread sums its record and writes one float (a row-per-
//           thread layer norm's first pass)
// S is a run-time argument, as in the kernels KC101 judges; "unrolled"
// repeats store and reduce with S a template argument (`p[0] .. p[S-1]` at
// constant offsets, as a thread's record fields are written out). Prints
// the best of 20 launches of each, in ms, and rows / transposed.
#include "../bench_cuda.h"

template <bool ROWS>
__global__ void copy_records(const float *in, float *out, long M, int S)
{
    long p = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (p >= M)
        return;
    for (int c = 0; c < S; ++c) {
        if (ROWS)
            out[p * S + c] = in[p * S + c];
        else
            out[c * M + p] = in[c * M + p];
    }
}

template <bool ROWS>
__global__ void store_records(float *out, long M, int S)
{
    long p = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (p >= M)
        return;
    for (int c = 0; c < S; ++c) {
        if (ROWS)
            out[p * S + c] = (float)(p + c);
        else
            out[c * M + p] = (float)(p + c);
    }
}

template <int S, bool ROWS>
__global__ void store_fixed(float *out, long M)
{
    long p = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (p >= M)
        return;
#pragma unroll
    for (int c = 0; c < S; ++c) {
        if (ROWS)
            out[p * S + c] = (float)(p + c);
        else
            out[c * M + p] = (float)(p + c);
    }
}

template <int S, bool ROWS>
__global__ void reduce_fixed(const float *in, float *out, long M)
{
    long p = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (p >= M)
        return;
    float s = 0.f;
#pragma unroll
    for (int c = 0; c < S; ++c)
        s += ROWS ? in[p * S + c] : in[c * M + p];
    out[p] = s;
}

template <int S>
static void fixed(const float *in, float *out, long M, unsigned grid)
{
    float sr = kc_best_ms([&] { store_fixed<S, true><<<grid, 256>>>(out, M); });
    float st = kc_best_ms([&] { store_fixed<S, false><<<grid, 256>>>(out, M); });
    float rr = kc_best_ms([&] { reduce_fixed<S, true><<<grid, 256>>>(in, out, M); });
    float rt = kc_best_ms([&] { reduce_fixed<S, false><<<grid, 256>>>(in, out, M); });
    printf("unrolled S=%2d (%3d B)  store rows %7.3f ms transposed %7.3f ms %5.2fx   reduce rows %7.3f ms transposed "
           "%7.3f ms %5.2fx\n",
           S, S * 4, sr, st, sr / st, rr, rt, rr / rt);
}

template <bool ROWS>
__global__ void reduce_records(const float *in, float *out, long M, int S)
{
    long p = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (p >= M)
        return;
    float s = 0.f;
    for (int c = 0; c < S; ++c)
        s += ROWS ? in[p * S + c] : in[c * M + p];
    out[p] = s;
}

int main()
{
    const long M = 1 << 22;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s; M = %ld records of S floats, one thread each, block 256\n", prop.name, M);
    float *in, *out;
    CK(cudaMalloc(&in, (size_t)M * 64 * sizeof(float)));
    CK(cudaMalloc(&out, (size_t)M * 64 * sizeof(float)));
    CK(cudaMemset(in, 0, (size_t)M * 64 * sizeof(float)));
    const int sizes[] = {2, 3, 4, 8, 12, 14, 16, 24, 32, 64};
    unsigned grid = (unsigned)((M + 255) / 256);
    for (int i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); ++i) {
        int S = sizes[i];
        float cr = kc_best_ms([&] { copy_records<true><<<grid, 256>>>(in, out, M, S); });
        float ct = kc_best_ms([&] { copy_records<false><<<grid, 256>>>(in, out, M, S); });
        float sr = kc_best_ms([&] { store_records<true><<<grid, 256>>>(out, M, S); });
        float st = kc_best_ms([&] { store_records<false><<<grid, 256>>>(out, M, S); });
        float rr = kc_best_ms([&] { reduce_records<true><<<grid, 256>>>(in, out, M, S); });
        float rt = kc_best_ms([&] { reduce_records<false><<<grid, 256>>>(in, out, M, S); });
        printf("S=%2d (%3d B)  copy rows %7.3f ms transposed %7.3f ms %5.2fx   store rows %7.3f ms transposed %7.3f ms "
               "%5.2fx   reduce rows %7.3f ms transposed %7.3f ms %5.2fx\n",
               S, S * 4, cr, ct, cr / ct, sr, st, sr / st, rr, rt, rr / rt);
    }
    fixed<2>(in, out, M, grid);
    fixed<3>(in, out, M, grid);
    fixed<4>(in, out, M, grid);
    fixed<7>(in, out, M, grid);
    fixed<8>(in, out, M, grid);
    fixed<14>(in, out, M, grid);
    fixed<16>(in, out, M, grid);
    fixed<32>(in, out, M, grid);
    CK(cudaFree(in));
    CK(cudaFree(out));
    return 0;
}
