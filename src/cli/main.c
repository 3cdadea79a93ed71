/* kcheck — a static analyzer for CUDA and Triton kernels. */
#include "kc_cli.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* SIGBUS: on the platforms kcheck runs on, a read of a mapped file past
 * its end, after another process truncated it (libclang maps the
 * precompiled headers of the cache and large sources). Nothing can be
 * trusted after it: say what happened and end as an input error. */
static void bus_error(int sig)
{
    (void)sig;
    static const char msg[] = "kcheck: error: a file kcheck had mapped was truncated while in use (a precompiled "
                              "header of the header cache, or a source file being checked); run again: a damaged "
                              "header is rebuilt\n";
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(2);
}

int main(int argc, char **argv)
{
    /* A write past `ulimit -f` fails with EFBIG, which kcheck handles (a
     * cache entry or header not written), instead of killing the run. */
    signal(SIGXFSZ, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = bus_error;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
    int status = kc_cli_main(argc, argv, stdout, stderr);
    if (status & KC_CLI_STRANDED) {
        /* a thread is still inside a file given up over --file-timeout */
        fflush(stdout);
        fflush(stderr);
        _exit(status & 0xff);
    }
    return status;
}
