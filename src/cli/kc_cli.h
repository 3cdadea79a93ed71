/* kc_cli.h — the command line. main() is a thin client of kc_cli_main. */
#ifndef KC_CLI_H
#define KC_CLI_H

#include <stdio.h>

/* kcheck [OPTIONS] [PATH...] [-- COMPILER-ARGS...] [--end-of-options PATH...]
 * After this argument every argument is a path, whatever it looks like
 * (a file named --fix.py or -o.cu); "--" before it starts the compiler's
 * arguments, which run to it. Hooks that pass file names put it before
 * them (.pre-commit-hooks.yaml). */
#define KC_CLI_END_OF_OPTIONS "--end-of-options"

/* Set, above the exit status's 8 bits, in what kc_cli_main and kc_cli_run
 * return when a worker thread is still busy with a file given up over
 * --file-timeout: everything has been reported, and the process must end
 * now with the status's low 8 bits, without running exit handlers or
 * library destructors under that thread (_exit). The same bit as the check
 * server's KC_SERVER_RUN_STRANDED (kc_cli.c checks). */
#define KC_CLI_STRANDED 0x100

/* Runs kcheck with the given arguments, writing results to `out` and
 * messages to `err`. Returns the exit status: 0 no findings at or above the
 * failing severity, 1 findings, 2 usage error / unreadable input / internal
 * failure; possibly with KC_CLI_STRANDED. */
int kc_cli_main(int argc, char **argv, FILE *out, FILE *err);

/* kc_cli_main without `kcheck server ...` and `--server`: the run itself,
 * in this process (what the server calls for a client). */
int kc_cli_run(int argc, char **argv, FILE *out, FILE *err);

#endif
