// KC401 and KC402 premises for the shapes the twenty-fifth and twenty-sixth
// rounds of first-sight review taught the model: do the GPU's own checkers
// agree that they are (ok_) or are not (bad_) safe?
//
//   nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/kc4 bench/premise/kc401_kc402_shapes.cu
//   compute-sanitizer --tool racecheck --racecheck-report hazard /tmp/kc4 KERNEL   (KC402 shapes)
//   compute-sanitizer --tool synccheck /tmp/kc4 KERNEL                            (KC401 shapes)
//
// KC402: a stencil tile's halo filled under `if (i < 4)` (columns 0..3 and
// 68..71 written, 63..66 and 5..8 read), the same fill one column off (0..3
// written, 3..6 read), a mirrored fold (tid written, 2i - 1 - tid read
// under tid < i) and a fold mirrored inside the lower half.
// KC401: an exit on the grid index that a grid rounded down never takes
// (`batch / 32` blocks of 128 against `4 * batch`), the same grid rounded
// up, and an exit on threadIdx.x against a size no block reaches.
#include <cstdio>
#include <cstring>

#define MX 64
#define PENCILS 4

__global__ void ok_halo_fill(const float *f, float *df)
{
    __shared__ float s[PENCILS][MX + 8];
    int i = threadIdx.x, sj = threadIdx.y, si = i + 4;
    int g = (blockIdx.x * PENCILS + sj) * MX + i;
    s[sj][si] = f[g];
    __syncthreads();
    if (i < 4) {
        s[sj][si - 4] = s[sj][si + MX - 5];
        s[sj][si + MX] = s[sj][si + 1];
    }
    __syncthreads();
    df[g] = s[sj][si + 1] - s[sj][si - 1] + s[sj][si + 4] - s[sj][si - 4];
}

__global__ void bad_halo_overlap(const float *f, float *df)
{
    __shared__ float s[PENCILS][MX + 8];
    int i = threadIdx.x, sj = threadIdx.y;
    int g = (blockIdx.x * PENCILS + sj) * MX + i;
    s[sj][i + 4] = f[g];
    __syncthreads();
    if (i < 4)
        s[sj][i] = s[sj][i + 3];
    __syncthreads();
    df[g] = s[sj][i + 4] - s[sj][i];
}

__global__ void ok_mirrored_fold(const float *x, float *out)
{
    __shared__ float val[1024];
    int tid = threadIdx.x;
    float v = x[blockIdx.x * blockDim.x + tid];
    val[tid] = v;
    for (int i = 512; i >= 1; i >>= 1) {
        if (blockDim.x > i) {
            __syncthreads();
            if (threadIdx.x < i) {
                int nx = (i << 1) - threadIdx.x - 1;
                float w = nx < blockDim.x ? val[nx] : -1e30f;
                v = fmaxf(v, w);
                val[threadIdx.x] = v;
            }
        }
    }
    if (tid == 0)
        out[blockIdx.x] = v;
}

__global__ void bad_fold_meet(const float *x, float *out)
{
    __shared__ float val[1024];
    int tid = threadIdx.x;
    float v = x[blockIdx.x * blockDim.x + tid];
    val[tid] = v;
    for (int i = 512; i >= 1; i >>= 1) {
        if (blockDim.x > i) {
            __syncthreads();
            if (threadIdx.x < i) {
                v = fmaxf(v, val[i - threadIdx.x - 1]);
                val[threadIdx.x] = v;
            }
        }
    }
    if (tid == 0)
        out[blockIdx.x] = v;
}

__device__ void fill_table_then_use(float *out, unsigned gid)
{
    __shared__ float t[2048];
    for (int k = threadIdx.x; k < 2048; k += blockDim.x)
        t[k] = k * 0.5f;
    __syncthreads();
    out[gid] = t[gid % 2048];
}

__global__ void ok_grid_rounded_down(float *out, unsigned batch)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= batch * 4)
        return;
    fill_table_then_use(out, gid);
}

__global__ void bad_grid_rounded_up(float *out, unsigned batch)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= batch * 4)
        return;
    fill_table_then_use(out, gid);
}

__global__ void ok_tid_below_size(float *out, unsigned n)
{
    if (threadIdx.x >= n)
        return;
    fill_table_then_use(out, blockIdx.x * blockDim.x + threadIdx.x);
}

/* a barrier inside a branch that part of a warp takes: the other lanes do
 * not exit, they go on to the barrier after the branch */
__global__ void bad_barrier_in_branch(float *out, unsigned n)
{
    __shared__ float t[1024];
    t[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < n) {
        __syncthreads();
        out[threadIdx.x] = t[(threadIdx.x + 1) % blockDim.x];
    }
    __syncthreads();
}

int main(int argc, char **argv)
{
    const char *k = argc > 1 ? argv[1] : "";
    float *a, *b;
    const unsigned batch = 1000; /* 4000 threads' worth: not a multiple of 128 */
    cudaMalloc(&a, 1 << 24);
    cudaMalloc(&b, 1 << 24);
    cudaMemset(a, 0, 1 << 24);
    if (!strcmp(k, "ok_halo_fill"))
        ok_halo_fill<<<16, dim3(MX, PENCILS)>>>(a, b);
    else if (!strcmp(k, "bad_halo_overlap"))
        bad_halo_overlap<<<16, dim3(MX, PENCILS)>>>(a, b);
    else if (!strcmp(k, "ok_mirrored_fold"))
        ok_mirrored_fold<<<4, 256>>>(a, b);
    else if (!strcmp(k, "bad_fold_meet"))
        bad_fold_meet<<<4, 256>>>(a, b);
    else if (!strcmp(k, "ok_grid_rounded_down"))
        ok_grid_rounded_down<<<batch / 32, 128>>>(a, batch);
    else if (!strcmp(k, "bad_grid_rounded_up"))
        bad_grid_rounded_up<<<(batch * 4 + 127) / 128, 128>>>(a, batch);
    else if (!strcmp(k, "bad_barrier_in_branch"))
        bad_barrier_in_branch<<<4, 128>>>(a, 100);
    else if (!strcmp(k, "ok_tid_below_size"))
        ok_tid_below_size<<<4, 1024>>>(a, 1u << 24);
    else {
        fprintf(stderr, "unknown kernel %s\n", k);
        return 2;
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s: %s\n", k, cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
