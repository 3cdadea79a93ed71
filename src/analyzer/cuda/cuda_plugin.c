/* The CUDA front end's table of entry points: the module kcheck-cuda.so
 * exports it (the kcheck binary loads it on the first CUDA file), and
 * kc_frontends links it in for the tests and fuzzers (kc_frontend.c). */
#include "kc_cuda_frontend.h"

const kc_cuda_ops *kc_cuda_plugin(void)
{
    static const kc_cuda_ops ops = {KC_CUDA_OPS_CHECK, kc_cuda_frontend_new, kc_cuda_frontend_delete,
                                    kc_cuda_lower,     kc_cuda_dump_shim,     kc_cuda_version};
    return &ops;
}
