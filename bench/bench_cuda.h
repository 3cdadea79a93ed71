// What the CUDA benchmark programs of bench/ share: CK() checks a CUDA
// runtime call and exits with status 2 and the error's name on failure.
#ifndef KC_BENCH_CUDA_H
#define KC_BENCH_CUDA_H

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__);           \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

// The best of 20 timed runs of launch() (CUDA events around each), after
// one run that warms up, in ms; exits through CK() on a launch error.
template <class Launch>
static float kc_best_ms(Launch launch)
{
    cudaEvent_t t0, t1;
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    float best = 1e30f;
    for (int i = 0; i < 21; ++i) {
        CK(cudaEventRecord(t0));
        launch();
        CK(cudaEventRecord(t1));
        CK(cudaEventSynchronize(t1));
        float ms;
        CK(cudaEventElapsedTime(&ms, t0, t1));
        if (i > 0 && ms < best) /* the first launch warms up */
            best = ms;
    }
    CK(cudaGetLastError());
    CK(cudaEventDestroy(t0));
    CK(cudaEventDestroy(t1));
    return best;
}

#endif
