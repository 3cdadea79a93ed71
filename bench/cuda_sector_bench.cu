// What KC101's sector model predicts, measured: stores and loads whose
// neighbouring threads are a few elements apart, with 1-D blocks of 256
// threads and with 16x16 blocks, against the contiguous and vector forms of
// the same work (docs/precision.md, "KC101's sector model on a GPU").
//
//   nvcc -std=c++17 -O3 -arch=native -o /tmp/csb bench/cuda_sector_bench.cu
//   /tmp/csb [--reps N]
//
// Every kernel writes (or reads and writes) the same bytes of a buffer of
// 256 MiB; each is timed with CUDA events around the launch only, L2
// flushed (a 256 MiB memset) before every run, median of --reps (default
// 30) runs after a warm-up. Each result is checked against the contiguous
// version's output. KC101's model (32-byte sectors per warp request, the
// launch's blockDim.x): bytes 4 apart, 1-D blocks: 4 sectors where 1 would
// do (reported, 4x); bytes 4 apart, 16-wide blocks: 4 where 2 (2x, not
// reported); floats 4 apart, 16-wide blocks: 16 where 4 (4x, reported).
// When each thread moves its whole record (all four bytes, all four floats)
// the warp's requests together cover a contiguous span and the caches merge
// them; when it moves one element of each record, the rest of each sector
// is traffic for nothing. Both are measured.
//
// Output: one JSON object per line: {"case", "block", "ms", "gbps",
// "vs_fix" (time over the vector form's: one uchar4 or float4 a thread),
// "sectors" and "ideal" (KC101's count for one scalar request of a warp,
// and for a contiguous one), "ok" (the output equals the vector form's)}.
#include "bench_cuda.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>


static const size_t kBytes = (size_t)256 << 20; // the output buffer
static const int kWidth = 4096;                 // pixels per image row (RGBA8: 16 KiB)

// ---- RGBA8 bytes, one thread per pixel ----------------------------------

// a byte per channel: threads 4 bytes apart (KC101 reports this with 1-D blocks)
__global__ void bytes_strided_1d(unsigned char *out, unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned char *p = out + 4 * (size_t)t;
    p[0] = (unsigned char)t;
    p[1] = (unsigned char)(t >> 8);
    p[2] = (unsigned char)(t >> 16);
    p[3] = 255;
}

__global__ void bytes_strided_2d(unsigned char *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    unsigned t = (unsigned)y * (unsigned)width + (unsigned)x;
    unsigned char *p = out + 4 * (size_t)t;
    p[0] = (unsigned char)t;
    p[1] = (unsigned char)(t >> 8);
    p[2] = (unsigned char)(t >> 16);
    p[3] = 255;
}

// the fix KC101 suggests: one 4-byte vector per thread
__global__ void bytes_vector_1d(uchar4 *out, unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        out[t] = make_uchar4((unsigned char)t, (unsigned char)(t >> 8), (unsigned char)(t >> 16), 255);
}

// contiguous bytes: thread t writes byte t of each quarter of the buffer
__global__ void bytes_contiguous_1d(unsigned char *out, unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    // the same values, laid out channel-major (planar): each store coalesced
    out[t] = (unsigned char)t;
    out[(size_t)n + t] = (unsigned char)(t >> 8);
    out[2 * (size_t)n + t] = (unsigned char)(t >> 16);
    out[3 * (size_t)n + t] = 255;
}

// ---- RGBA floats, one thread per pixel, scaled in place ------------------

__global__ void floats_strided_2d(float *img, int width, int height, float s)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    float *p = img + ((size_t)y * width + x) * 4;
    p[0] *= s;
    p[1] *= s;
    p[2] *= s;
    p[3] *= s;
}

__global__ void floats_vector_2d(float4 *img, int width, int height, float s)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    float4 v = img[(size_t)y * width + x];
    v.x *= s;
    v.y *= s;
    v.z *= s;
    v.w *= s;
    img[(size_t)y * width + x] = v;
}

// ---- one element of each record: the part of the footprint that is used --

// the alpha byte of each RGBA8 pixel, threads 4 bytes apart, 1 byte of 4 used
__global__ void alpha_strided_1d(unsigned char *out, unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        out[4 * (size_t)t + 3] = (unsigned char)t;
}

// the same bytes in a plane of their own (the layout change that fixes it)
__global__ void alpha_planar_1d(unsigned char *out, unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        out[t] = (unsigned char)t;
}

// the alpha byte of each RGBA8 pixel read (4 apart) into a plane, and the
// same from a plane
__global__ void alpha_gather_strided_1d(unsigned char *plane, const unsigned char *rgba, unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        plane[t] = rgba[4 * (size_t)t + 3];
}

__global__ void alpha_copy_planar_1d(unsigned char *plane, const unsigned char *src, unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        plane[t] = src[t];
}

// the first float of each float4 pixel, scaled in place, 16x16 blocks
__global__ void first_float_strided_2d(float *img, int width, int height, float s)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        img[((size_t)y * width + x) * 4] *= s;
}

__global__ void first_float_planar_2d(float *plane, int width, int height, float s)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        plane[(size_t)y * width + x] *= s;
}

// ---- timing -------------------------------------------------------------

static int g_reps = 30;
static void *g_flush;

template <class F> static float time_ms(F launch)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    launch(); // warm-up
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> ms;
    for (int r = 0; r < g_reps; r++) {
        CK(cudaMemset(g_flush, r & 0xff, kBytes));
        CK(cudaEventRecord(a));
        launch();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaGetLastError());
        float t;
        CK(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t);
    }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

static bool same(const void *dev_a, const void *dev_b, size_t bytes)
{
    std::vector<unsigned char> a(bytes), b(bytes);
    CK(cudaMemcpy(a.data(), dev_a, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), dev_b, bytes, cudaMemcpyDeviceToHost));
    return memcmp(a.data(), b.data(), bytes) == 0;
}

static void line(const char *name, const char *block, float ms, double bytes_moved, float base_ms, int sectors,
                 int ideal, bool ok)
{
    printf("{\"case\": \"%s\", \"block\": \"%s\", \"ms\": %.4f, \"gbps\": %.1f, \"vs_fix\": %.2f, "
           "\"sectors\": %d, \"ideal\": %d, \"ok\": %s}\n",
           name, block, ms, bytes_moved / (ms * 1e6), ms / base_ms, sectors, ideal, ok ? "true" : "false");
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            g_reps = atoi(argv[++i]);
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("{\"device\": \"%s\", \"sm\": \"%d.%d\", \"buffer_mib\": %zu, \"reps\": %d}\n", prop.name, prop.major,
           prop.minor, kBytes >> 20, g_reps);
    CK(cudaMalloc(&g_flush, kBytes));
    unsigned char *a, *b;
    CK(cudaMalloc(&a, kBytes));
    CK(cudaMalloc(&b, kBytes));
    const unsigned n = (unsigned)(kBytes / 4); // pixels
    const int height = (int)(n / kWidth);

    // bytes: the fix is one uchar4 store a thread
    float t_vec = time_ms([&] { bytes_vector_1d<<<(n + 255) / 256, 256>>>((uchar4 *)a, n); });
    line("bytes as one uchar4 a thread", "256", t_vec, (double)kBytes, t_vec, 4, 4, true);
    float t_planar = time_ms([&] { bytes_contiguous_1d<<<(n + 255) / 256, 256>>>(b, n); });
    line("bytes planar: 4 coalesced byte stores a thread", "256", t_planar, (double)kBytes, t_vec, 1, 1, true);
    CK(cudaMemset(b, 0, kBytes));
    float t_s1 = time_ms([&] { bytes_strided_1d<<<(n + 255) / 256, 256>>>(b, n); });
    line("bytes 4 apart (RGBA8 a byte per channel)", "256", t_s1, (double)kBytes, t_vec, 4, 1, same(a, b, kBytes));
    CK(cudaMemset(b, 0, kBytes));
    dim3 blk(16, 16), grd((kWidth + 15) / 16, (height + 15) / 16);
    float t_s2 = time_ms([&] { bytes_strided_2d<<<grd, blk>>>(b, kWidth, height); });
    line("bytes 4 apart (RGBA8 a byte per channel)", "16x16", t_s2, (double)kBytes, t_vec, 4, 2, same(a, b, kBytes));

    // floats, read and written in place: the vector form is the reference
    const int fwidth = kWidth / 4; // float4 pixels per row: the same 16 KiB rows
    const int fheight = (int)(kBytes / 16 / fwidth);
    dim3 fgrd((fwidth + 15) / 16, (fheight + 15) / 16);
    CK(cudaMemset(a, 0x3f, kBytes));
    CK(cudaMemset(b, 0x3f, kBytes));
    float t_fv = time_ms([&] { floats_vector_2d<<<fgrd, blk>>>((float4 *)a, fwidth, fheight, 1.0f); });
    float t_fs = time_ms([&] { floats_strided_2d<<<fgrd, blk>>>((float *)b, fwidth, fheight, 1.0f); });
    line("floats as one float4 a thread, in place", "16x16", t_fv, 2.0 * (double)kBytes, t_fv, 16, 16, true);
    line("floats 4 apart, in place", "16x16", t_fs, 2.0 * (double)kBytes, t_fv, 16, 4, same(a, b, kBytes));

    // one element of each record: against the same elements in a plane
    float t_ap = time_ms([&] { alpha_planar_1d<<<(n + 255) / 256, 256>>>(a, n); });
    float t_as = time_ms([&] { alpha_strided_1d<<<(n + 255) / 256, 256>>>(b, n); });
    line("alpha bytes in a plane of their own", "256", t_ap, (double)n, t_ap, 1, 1, true);
    line("alpha byte of each RGBA8 pixel, 4 apart", "256", t_as, (double)n, t_ap, 4, 1, true);
    float t_gp = time_ms([&] { alpha_copy_planar_1d<<<(n + 255) / 256, 256>>>(a, b + 3 * (size_t)n, n); });
    float t_gs = time_ms([&] { alpha_gather_strided_1d<<<(n + 255) / 256, 256>>>(a, b, n); });
    line("alpha bytes read from a plane of their own", "256", t_gp, 2.0 * n, t_gp, 1, 1, true);
    line("alpha byte of each RGBA8 pixel read, 4 apart", "256", t_gs, 2.0 * n, t_gp, 4, 1, true);
    float t_pp = time_ms([&] { first_float_planar_2d<<<fgrd, blk>>>((float *)a, fwidth, fheight, 1.0f); });
    float t_ps = time_ms([&] { first_float_strided_2d<<<fgrd, blk>>>((float *)b, fwidth, fheight, 1.0f); });
    line("first floats in a plane of their own, in place", "16x16", t_pp, 2.0 * 4.0 * fwidth * (double)fheight, t_pp,
         4, 4, true);
    line("first float of each float4 pixel, 4 apart, in place", "16x16", t_ps, 2.0 * 4.0 * fwidth * (double)fheight,
         t_pp, 16, 4, true);
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(g_flush));
    return 0;
}
