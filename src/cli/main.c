/* kcheck — a static analyzer for CUDA and Triton kernels. */
#include "kc_cli.h"

int main(int argc, char **argv) { return kc_cli_main(argc, argv, stdout, stderr); }
