// KC601's premise for cudaDeviceSynchronize: its only errors are faults of
// earlier kernels, and those are sticky (every later runtime call returns
// them), while launch-configuration errors and errors of a call's own
// argument are not. Each case runs in its own process (a sticky fault
// ends the context): `kc601_sticky_sync CASE`.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void fault(float *p) { p[threadIdx.x] = 1.0f; }   // launched with p = NULL
__global__ void trap_assert(int n) { if (threadIdx.x < n) __trap(); }
__global__ void fine(float *p) { p[threadIdx.x] = 2.0f; }

static void show(const char *what, cudaError_t e) { printf("  %-44s %s\n", what, cudaGetErrorName(e)); }

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    float *d = nullptr, h[32];
    cudaMalloc(&d, sizeof h);
    printf("%s:\n", c);
    if (!strcmp(c, "fault_then_copy")) {
        fault<<<1, 32>>>(nullptr);
        show("launch (cudaGetLastError)", cudaGetLastError());
        show("cudaDeviceSynchronize (discarded by the code)", cudaDeviceSynchronize());
        show("next cudaMemcpy (checked)", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        show("cudaMemcpy after that", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        show("cudaGetLastError", cudaGetLastError());
    } else if (!strcmp(c, "trap_then_copy")) {
        trap_assert<<<1, 32>>>(32);
        show("cudaDeviceSynchronize (discarded by the code)", cudaDeviceSynchronize());
        show("next cudaMemcpy (checked)", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    } else if (!strcmp(c, "bad_config_then_sync")) {
        fine<<<1, 2048>>>(d);
        show("cudaDeviceSynchronize", cudaDeviceSynchronize());
        show("cudaGetLastError (the launch's error)", cudaGetLastError());
        show("cudaGetLastError again", cudaGetLastError());
    } else if (!strcmp(c, "bad_arg_then_copy")) {
        /* an error of a call's own argument: returned by that call only */
        show("cudaMemcpy past the allocation's end", cudaMemcpy(h, d, (size_t)1 << 40, cudaMemcpyDeviceToHost));
        show("next cudaMemcpy (checked)", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    } else {
        fprintf(stderr, "usage: kc601_sticky_sync fault_then_copy|trap_then_copy|bad_config_then_sync|bad_arg_then_copy\n");
        return 2;
    }
    return 0;
}
