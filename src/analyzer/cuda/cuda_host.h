/* cuda_host.h — facts of the host code of a CUDA file (internal to the
 * CUDA front end; cuda_host.c, called by cuda_lower.c). */
#ifndef KC_CUDA_HOST_H
#define KC_CUDA_HOST_H

#include "cuda_tu.h"

/* Host code of the main file: marks the launches that an error check
 * follows (kc_launch.error_checked, in_host_code) and records the runtime
 * API calls returning cudaError_t (kc_model.host_calls). */
void kc_cuda_host_facts(kc_cuda_tu *t);

#endif
