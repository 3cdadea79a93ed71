// KC101 premise (CUDA): a texture read in every pass of a loop is that
// loop's memory traffic, as a global load is, so a scattered store made once
// per thread after such a loop costs little next to it (a note), unless the
// loop makes few passes. The texture reads of the loop are the model's
// KC_CALL_TEXTURE_READ calls.
//
//   nvcc -O3 -arch=sm_90 -o /tmp/kc101_tex bench/premise/kc101_once_after_texture_loop.cu && /tmp/kc101_tex
//
// One thread per ray of a 1024 x 1024 image, each summing C samples of a
// 256^3 float volume texture (linear filtering) along its ray:
//   coalesced_store   out[r] after the loop (lanes adjacent)
//   strided_store     out[r * S] after the loop (lanes S floats apart, once per thread)
// Prints the best of 20 launches of each, in ms, and the ratio, for C = 16,
// 64 and 256 (KC101 takes 64 passes as many: ONCE_PER_THREAD_MIN_PASSES).
#include "../bench_cuda.h"

__global__ void coalesced_store(cudaTextureObject_t vol, float *out, int W, int H, int C, int S)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;
    float acc = 0.f, step = 256.f / C;
    for (int c = 0; c < C; ++c)
        acc += tex3D<float>(vol, x * 0.25f + 0.5f, y * 0.25f + 0.5f, c * step + 0.5f);
    out[(long)y * W + x] = acc;
}

__global__ void strided_store(cudaTextureObject_t vol, float *out, int W, int H, int C, int S)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;
    float acc = 0.f, step = 256.f / C;
    for (int c = 0; c < C; ++c)
        acc += tex3D<float>(vol, x * 0.25f + 0.5f, y * 0.25f + 0.5f, c * step + 0.5f);
    out[((long)y * W + x) * S] = acc;
}

int main()
{
    const int N = 256, W = 1024, H = 1024, S = 32;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s; volume %d^3 floats, image %d x %d, stride S = %d floats\n", p.name, N, W, H, S);
    cudaArray_t arr;
    cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
    cudaExtent ext = make_cudaExtent(N, N, N);
    CK(cudaMalloc3DArray(&arr, &ch, ext));
    float *host = (float *)calloc((size_t)N * N * N, sizeof(float));
    for (size_t i = 0; i < (size_t)N * N * N; ++i)
        host[i] = (float)(i % 97) * 0.01f;
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(host, N * sizeof(float), N, N);
    cp.dstArray = arr;
    cp.extent = ext;
    cp.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&cp));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t vol;
    CK(cudaCreateTextureObject(&vol, &res, &td, NULL));
    float *out;
    CK(cudaMalloc(&out, (size_t)W * H * S * sizeof(float)));
    dim3 block(32, 8), grid(W / 32, H / 8);
    for (int C = 16; C <= 256; C *= 4) {
        float a = kc_best_ms([&] { coalesced_store<<<grid, block>>>(vol, out, W, H, C, S); });
        float b = kc_best_ms([&] { strided_store<<<grid, block>>>(vol, out, W, H, C, S); });
        printf("C=%3d coalesced_store %8.3f ms  strided_store %8.3f ms  %5.2fx\n", C, a, b, b / a);
    }
    CK(cudaDestroyTextureObject(vol));
    CK(cudaFreeArray(arr));
    CK(cudaFree(out));
    free(host);
    return 0;
}
