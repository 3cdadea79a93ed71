// KC103 premise (CUDA): a thread that stores (or loads) the four
// consecutive floats of its own 16-byte record in shared memory,
// `data[ty][4 * tx + 0..3]`, looks like a 4-way bank conflict field by
// field (lanes 4 words apart), but ptxas merges the four scalar accesses
// into one 128-bit STS.128 / LDS.128 when the record is 16-byte aligned,
// and a warp's 128-bit request takes 4 wavefronts however it is laid out:
// no conflict. The padding KC103 would advise (a row of 65 floats) breaks
// the alignment, so the accesses stay scalar and conflicted.
//
//   nvcc -O3 -arch=sm_90 -cubin -o /tmp/kc103_vec.cubin bench/premise/kc103_vector_record.cu &&
//     cuobjdump -sass /tmp/kc103_vec.cubin | grep -E "Function|STS|LDS" | sort | uniq -c
//   nvcc -O3 -arch=sm_90 -o /tmp/kc103_vec bench/premise/kc103_vector_record.cu && /tmp/kc103_vec
//
// Kernels (blocks of 16 x 16, a float4 of a row tile per thread, 64 passes
// through shared memory each):
//   record_aligned   data[16][64]: the four fields at 4 * tx (16-byte aligned)
//   record_padded    data[16][65]: the same fields, rows padded by one float
// Prints the best of 20 launches of each, in ms.
#include "../bench_cuda.h"

template <int ROW>
__global__ void record_kernel(const float4 *__restrict__ in, float *__restrict__ out, int passes)
{
    __shared__ float data[16][ROW];
    int tx = threadIdx.x, ty = threadIdx.y;
    float4 v = in[(blockIdx.x * 16 + ty) * 16 + tx];
    float acc = 0.f;
    for (int p = 0; p < passes; ++p) {
        int i = tx << 2;
        data[ty][i] = v.x + p;
        data[ty][i + 1] = v.y;
        data[ty][i + 2] = v.z;
        data[ty][i + 3] = v.w;
        __syncthreads();
        int j = ((tx + p) & 15) << 2;
        acc += data[ty][j] + data[ty][j + 1] + data[ty][j + 2] + data[ty][j + 3];
        __syncthreads();
    }
    out[(blockIdx.x * 16 + ty) * 16 + tx] = acc;
}

int main()
{
    const int blocks = 1 << 14, passes = 64;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    float4 *in;
    float *out;
    CK(cudaMalloc(&in, (size_t)blocks * 256 * sizeof(float4)));
    CK(cudaMalloc(&out, (size_t)blocks * 256 * sizeof(float)));
    CK(cudaMemset(in, 0, (size_t)blocks * 256 * sizeof(float4)));
    dim3 b(16, 16);
    float a = kc_best_ms([&] { record_kernel<64><<<blocks, b>>>(in, out, passes); });
    float q = kc_best_ms([&] { record_kernel<65><<<blocks, b>>>(in, out, passes); });
    printf("device: %s; %d blocks of 16x16, %d passes\n", p.name, blocks, passes);
    printf("record_aligned (row 64) %8.3f ms\nrecord_padded  (row 65) %8.3f ms  %5.2fx\n", a, q, q / a);
    return 0;
}
