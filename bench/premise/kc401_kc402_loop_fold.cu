// KC401 and KC402 premises for a tree reduction whose guard is the loop's
// own condition (Burtscher's Barnes-Hut bounding box, as cugraph carries
// it): `for (j = T / 2; j > i; j /= 2) { __syncthreads(); s[i] = f(s[i],
// s[i + j]); }`. Threads leave the loop at different passes, so the
// barrier in it is reached by fewer threads each pass (KC401), while in
// each pass the writers [0, j) and the readers [j, 2j) are apart (no
// KC402). Three kernels:
//   fold_exit:   the leavers go on to the end of the kernel (the cugraph shape)
//   fold_meet:   `j >= i`: thread j writes element j while thread 0 reads it
//   fold_rejoin: the leavers wait at a second barrier after the loop
//
//   nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/kc4f bench/premise/kc401_kc402_loop_fold.cu
//   /tmp/kc4f KERNEL                                   (result over 200 launches)
//   compute-sanitizer --tool racecheck /tmp/kc4f KERNEL
//   compute-sanitizer --tool synccheck /tmp/kc4f KERNEL
#include <cstdio>
#include <cstring>

#define T 512

__global__ void fold_exit(const float *x, float *out)
{
    __shared__ float s[T];
    const int i = threadIdx.x;
    float m = x[blockIdx.x * T + i];
    s[i] = m;
    for (int j = T / 2; j > i; j /= 2) {
        __syncthreads();
        s[i] = m = fminf(m, s[i + j]);
    }
    if (i == 0)
        out[blockIdx.x] = m;
}

__global__ void fold_meet(const float *x, float *out)
{
    __shared__ float s[T];
    const int i = threadIdx.x;
    float m = x[blockIdx.x * T + i];
    s[i] = m;
    for (int j = T / 2; j >= i && j > 0; j /= 2) {
        __syncthreads();
        s[i] = m = fminf(m, s[i + j]);
    }
    if (i == 0)
        out[blockIdx.x] = m;
}

__global__ void fold_rejoin(const float *x, float *out)
{
    __shared__ float s[T];
    const int i = threadIdx.x;
    float m = x[blockIdx.x * T + i];
    s[i] = m;
    for (int j = T / 2; j > i; j /= 2) {
        __syncthreads();
        s[i] = m = fminf(m, s[i + j]);
    }
    __syncthreads();
    if (i == 0)
        out[blockIdx.x] = s[0];
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "fold_exit";
    const int blocks = 1024, reps = argc > 2 ? 1 : 200;
    float *x, *out;
    cudaMallocManaged(&x, sizeof(float) * blocks * T);
    cudaMallocManaged(&out, sizeof(float) * blocks);
    for (int b = 0; b < blocks; b++)
        for (int i = 0; i < T; i++)
            x[b * T + i] = (float)((i * 7919 + b * 104729) % 100003) + 1.0f;
    int wrong = 0;
    for (int r = 0; r < reps; r++) {
        if (!strcmp(which, "fold_exit"))
            fold_exit<<<blocks, T>>>(x, out);
        else if (!strcmp(which, "fold_meet"))
            fold_meet<<<blocks, T>>>(x, out);
        else
            fold_rejoin<<<blocks, T>>>(x, out);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("%s: %s\n", which, cudaGetErrorString(e));
            return 1;
        }
        for (int b = 0; b < blocks; b++) {
            float m = x[b * T];
            for (int i = 1; i < T; i++)
                m = x[b * T + i] < m ? x[b * T + i] : m;
            wrong += out[b] != m;
        }
    }
    printf("%s: %d wrong block minima of %d (%d launches of %d blocks x %d threads)\n", which, wrong, reps * blocks,
           reps, blocks, T);
    return 0;
}
