/* kcheck — a static analyzer for CUDA and Triton kernels. */
#include "kc_cli.h"

#include <signal.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    /* A write past `ulimit -f` fails with EFBIG, which kcheck handles (a
     * cache entry or header not written), instead of killing the run. */
    signal(SIGXFSZ, SIG_IGN);
    int status = kc_cli_main(argc, argv, stdout, stderr);
    if (status & KC_CLI_STRANDED) {
        /* a thread is still inside a file given up over --file-timeout */
        fflush(stdout);
        fflush(stderr);
        _exit(status & 0xff);
    }
    return status;
}
