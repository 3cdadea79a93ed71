// KC402 premise: which shared-memory access pairs are races on the GPU?
// Each kernel is launched under compute-sanitizer's racecheck, which
// reports a hazard when two threads of a block touch one shared word, one
// of them writing, with no barrier between them.
//
//   nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/kc402 bench/premise/kc402_race.cu
//   compute-sanitizer --tool racecheck --racecheck-report hazard /tmp/kc402 KERNEL
//
// The names are the shapes KC402 reports (bad_) and the ones it must not
// (ok_): the writer and the reader the same thread, disjoint parts of one
// buffer, and branches on blockIdx that never run in the same block (each
// block has its own shared memory).
#include <cstdio>
#include <cstring>

#define N 256

__global__ void bad_neighbour(const float *x, float *out)
{
    __shared__ float s[N];
    s[threadIdx.x] = x[threadIdx.x];
    out[threadIdx.x] = s[(threadIdx.x + 1) % N]; // another thread's word, no barrier
}

__global__ void ok_neighbour_barrier(const float *x, float *out)
{
    __shared__ float s[N];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) % N];
}

__global__ void ok_same_thread(const float *x, float *out)
{
    __shared__ float s[N];
    s[threadIdx.x] = x[threadIdx.x];
    out[threadIdx.x] = s[threadIdx.x] * 2.f; // written and read by the same thread
}

// Two halves of one buffer: the first half written by the loop's threads,
// the second half read, and the second half was filled before a barrier.
__global__ void ok_disjoint_halves(const float *x, float *out)
{
    __shared__ float s[2 * N];
    s[N + threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    s[threadIdx.x] = x[threadIdx.x] + 1.f;
    out[threadIdx.x] = s[N + (threadIdx.x + 1) % N];
}

__global__ void bad_halves_overlap(const float *x, float *out)
{
    __shared__ float s[2 * N];
    s[N + threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    s[N / 2 + threadIdx.x] = x[threadIdx.x] + 1.f; // overlaps the read half
    out[threadIdx.x] = s[N + (threadIdx.x + 1) % N];
}

// Branches on blockIdx: one block writes, another reads, never the same block.
__global__ void ok_block_branches(const float *x, float *out)
{
    __shared__ float s[N];
    if (blockIdx.x == 0) {
        s[threadIdx.x] = x[threadIdx.x];
        out[threadIdx.x] = s[threadIdx.x];
    } else {
        s[(threadIdx.x + 1) % N] = 1.f;
        out[N + threadIdx.x] = s[(threadIdx.x + 1) % N];
    }
}

// A warp-level reduction tail written without __syncwarp on Volta and later.
__global__ void bad_warp_tail(const float *x, float *out)
{
    __shared__ float s[N];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 32) {
        volatile float *v = s;
        v[threadIdx.x] += v[threadIdx.x + 16];
        v[threadIdx.x] += v[threadIdx.x + 8];
    }
    if (threadIdx.x == 0)
        out[0] = s[0];
}

struct Case {
    const char *name;
    void (*fn)(const float *, float *);
    int blocks;
};

int main(int argc, char **argv)
{
    const Case cases[] = {
        {"bad_neighbour", bad_neighbour, 1},         {"ok_neighbour_barrier", ok_neighbour_barrier, 1},
        {"ok_same_thread", ok_same_thread, 1},       {"ok_disjoint_halves", ok_disjoint_halves, 1},
        {"bad_halves_overlap", bad_halves_overlap, 1}, {"ok_block_branches", ok_block_branches, 2},
        {"bad_warp_tail", bad_warp_tail, 1},
    };
    float *x, *out;
    cudaMalloc(&x, 2 * N * sizeof(float));
    cudaMalloc(&out, 2 * N * sizeof(float));
    cudaMemset(x, 0, 2 * N * sizeof(float));
    for (const Case &c : cases) {
        if (argc > 1 && strcmp(argv[1], c.name) != 0)
            continue;
        c.fn<<<c.blocks, N>>>(x, out);
        cudaError_t e = cudaDeviceSynchronize();
        printf("%s: %s\n", c.name, cudaGetErrorString(e));
    }
    cudaFree(x);
    cudaFree(out);
    return 0;
}
