/* kcheck — a static analyzer for CUDA and Triton kernels. */
#include "kc_cli.h"

#include <signal.h>

int main(int argc, char **argv)
{
    /* A write past `ulimit -f` fails with EFBIG, which kcheck handles (a
     * cache entry or header not written), instead of killing the run. */
    signal(SIGXFSZ, SIG_IGN);
    return kc_cli_main(argc, argv, stdout, stderr);
}
