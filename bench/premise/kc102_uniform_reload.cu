// KC102 premise: what a loop-invariant load that nvcc keeps in the loop
// (a store through a pointer that may alias it) costs, by what else the
// loop does. The load is warp-uniform (`scale[0]`) or per-thread
// (`scale[threadIdx.x]`); the loop either copies a coalesced row segment
// per pass (memory-bound) or runs a dependent FMA chain (no other memory
// traffic). Each kernel has a hoisted twin. Prints the time of each and
// the ratio reload / hoisted.
//   nvcc -O3 -arch=sm_90 -o kc102 kc102_uniform_reload.cu && ./kc102
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); return 1; } } while (0)

// memory-bound: each pass copies one coalesced segment of a row
__global__ void copy_reload_uniform(float *out, const float *in, const float *scale, int rows, int cols)
{
    for (int r = blockIdx.x; r < rows; r += gridDim.x)
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            out[(size_t)r * cols + c] = in[(size_t)r * cols + c] * scale[0];
}
__global__ void copy_hoisted_uniform(float *out, const float *in, const float *scale, int rows, int cols)
{
    float s = scale[0];
    for (int r = blockIdx.x; r < rows; r += gridDim.x)
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            out[(size_t)r * cols + c] = in[(size_t)r * cols + c] * s;
}
__global__ void copy_reload_thread(float *out, const float *in, const float *scale, int rows, int cols)
{
    for (int r = blockIdx.x; r < rows; r += gridDim.x)
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            out[(size_t)r * cols + c] = in[(size_t)r * cols + c] * scale[threadIdx.x];
}
__global__ void copy_hoisted_thread(float *out, const float *in, const float *scale, int rows, int cols)
{
    float s = scale[threadIdx.x];
    for (int r = blockIdx.x; r < rows; r += gridDim.x)
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            out[(size_t)r * cols + c] = in[(size_t)r * cols + c] * s;
}
// compute-bound: a dependent chain, one store per pass to a per-thread slot
__global__ void chain_reload_uniform(float *out, const float *scale, int passes)
{
    float acc = 1.0f;
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (int p = 0; p < passes; p++) {
        acc = acc * scale[0] + 0.5f;
        out[i] = acc;
    }
}
__global__ void chain_hoisted_uniform(float *out, const float *scale, int passes)
{
    float acc = 1.0f, s = scale[0];
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (int p = 0; p < passes; p++) {
        acc = acc * s + 0.5f;
        out[i] = acc;
    }
}

template <class F> static float timed(F launch)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    launch();
    cudaDeviceSynchronize();
    float best = 1e30f;
    for (int rep = 0; rep < 7; rep++) {
        cudaEventRecord(a);
        for (int k = 0; k < 10; k++)
            launch();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        best = ms / 10 < best ? ms / 10 : best;
    }
    return best * 1000.0f;
}

int main()
{
    const int rows = 16384, cols = 4096, passes = 4096, nthreads = 132 * 4 * 256;
    float *in, *out, *scale;
    CHECK(cudaMalloc(&in, (size_t)rows * cols * sizeof(float)));
    CHECK(cudaMalloc(&out, (size_t)rows * cols * sizeof(float)));
    CHECK(cudaMalloc(&scale, 1024 * sizeof(float)));
    CHECK(cudaMemset(in, 0, (size_t)rows * cols * sizeof(float)));
    CHECK(cudaMemset(scale, 0, 1024 * sizeof(float)));
    struct { const char *name; float reload, hoisted; } r[3];
    r[0] = {"row copy, uniform scale[0] (16384 x 4096 fp32, 264 blocks x 256)",
            timed([&] { copy_reload_uniform<<<264, 256>>>(out, in, scale, rows, cols); }),
            timed([&] { copy_hoisted_uniform<<<264, 256>>>(out, in, scale, rows, cols); })};
    r[1] = {"row copy, per-thread scale[threadIdx.x]",
            timed([&] { copy_reload_thread<<<264, 256>>>(out, in, scale, rows, cols); }),
            timed([&] { copy_hoisted_thread<<<264, 256>>>(out, in, scale, rows, cols); })};
    r[2] = {"dependent FMA chain, uniform scale[0], one store per pass (4096 passes)",
            timed([&] { chain_reload_uniform<<<nthreads / 256, 256>>>(out, scale, passes); }),
            timed([&] { chain_hoisted_uniform<<<nthreads / 256, 256>>>(out, scale, passes); })};
    CHECK(cudaGetLastError());
    for (int i = 0; i < 3; i++)
        printf("%-75s reload %9.1f us  hoisted %9.1f us  ratio %.2f\n", r[i].name, r[i].reload, r[i].hoisted,
               r[i].reload / r[i].hoisted);
    return 0;
}
