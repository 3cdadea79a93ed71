// KC601's premise for cudaDeviceSynchronize: its only errors are faults of
// earlier kernels, and those are sticky (every later runtime call returns
// them), while launch-configuration errors and errors of a call's own
// argument are not. Each case runs in its own process (a sticky fault
// ends the context): `kc601_sticky_sync CASE`. The device cases check the
// same premise for cudaGetDevice and for cudaSetDevice restoring the device
// cudaGetDevice gave: after a fault they return the fault (as every later
// call does), and without one they succeed; a switch to an ordinal that
// does not exist fails on its own and leaves the current device as it was.
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
    } else if (!strcmp(c, "fault_then_device_calls")) {
        int old = -1;
        fault<<<1, 32>>>(nullptr);
        show("cudaDeviceSynchronize (checked)", cudaDeviceSynchronize());
        show("cudaGetDevice (discarded by the code)", cudaGetDevice(&old));
        show("cudaSetDevice(old) (discarded by the code)", cudaSetDevice(old));
        show("next cudaMemcpy (checked)", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    } else if (!strcmp(c, "device_calls_clean")) {
        int old = -1, n = 0, now = -1;
        show("cudaGetDeviceCount", cudaGetDeviceCount(&n));
        show("cudaGetDevice", cudaGetDevice(&old));
        show("cudaSetDevice(old)", cudaSetDevice(old));
        show("cudaSetDevice(count): no such ordinal", cudaSetDevice(n));
        show("cudaGetDevice after the failed switch", cudaGetDevice(&now));
        printf("  device before %d, after the failed switch %d\n", old, now);
        show("next cudaMemcpy (checked)", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    } else {
        fprintf(stderr, "usage: kc601_sticky_sync fault_then_copy|trap_then_copy|bad_config_then_sync|bad_arg_then_copy|"
                        "fault_then_device_calls|device_calls_clean\n");
        return 2;
    }
    return 0;
}
