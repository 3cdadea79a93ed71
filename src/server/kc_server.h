/* kc_server.h — the check server: one long-lived kcheck process per user
 * and build that runs the checks of `kcheck --server ...` for short-lived
 * clients, so that a CUDA run does not pay for loading libclang and LLVM
 * (about 70 ms a process) and a file's cost is its parse and analysis.
 *
 * The client sends its arguments, environment and umask and passes its
 * standard input, output and error and its working directory as file
 * descriptors over a Unix socket; the server runs the check exactly as a
 * local run would (the same code, the run function its host hands it:
 * the command line's, writing straight to the client's terminal or pipe)
 * and answers with the exit status. Requests are
 * served one at a time. A client that cannot reach a server starts one in
 * the background and checks in its own process; one whose server stops
 * before answering checks again in its own process.
 *
 * The socket lives in a directory only the user can enter
 * ($KCHECK_SERVER_DIR, else $XDG_RUNTIME_DIR/kcheck, else
 * /tmp/kcheck-UID), named after the kcheck binary and its CUDA module
 * (path, inode, size, modification time), so that a rebuilt or upgraded
 * kcheck never talks to an older server. A server exits after
 * $KCHECK_SERVER_IDLE seconds without a request (default 900) or after
 * KC_SERVER_MAX_REQUESTS requests. */
#ifndef KC_SERVER_H
#define KC_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define KC_SERVER_MAX_REQUESTS 1000
#define KC_SERVER_MAX_MESSAGE ((size_t)64 << 20)
/* Set (to 1) in a check's environment when the client's standard output is
 * a terminal: the server writes into a pipe, and colour follows the
 * client's terminal. */
#define KC_SERVER_TTY_ENV "KCHECK_STDOUT_IS_TTY"

/* What a client asks. */
typedef enum kc_server_kind {
    KC_SERVER_CHECK,
    KC_SERVER_STATUS,
    KC_SERVER_STOP,
} kc_server_kind;

/* A decoded request: argv and envp are NULL-terminated and point into
 * `buf` (which the request owns). */
typedef struct kc_server_request {
    kc_server_kind kind;
    unsigned umask;
    int argc;
    char **argv;
    char **envp;
    char *buf;
} kc_server_request;

/* The request as bytes: a sequence of NUL-terminated strings, "kcheck-1",
 * the kind, the umask in octal, argc, the arguments, then the environment.
 * Malloc'd; *len its length. */
char *kc_server_encode(kc_server_kind kind, unsigned umask, int argc, char *const *argv, char *const *envp,
                       size_t *len);

/* Parses what kc_server_encode wrote. Takes ownership of `buf` (freed on
 * failure). False for anything else: a wrong header or kind, a count that
 * does not match, a string without its NUL. */
bool kc_server_decode(char *buf, size_t len, kc_server_request *req);
void kc_server_request_free(kc_server_request *req);

#define KC_SERVER_RUN_STRANDED 0x100

struct kc_server_host;
/* Serves one connection on `cfd` as the server's request loop does after
 * accepting it (the peer's credentials, the request within its deadline,
 * the answer; a check through host->run, with the descriptors that came
 * with the request as its streams and directory). False when the request
 * asks the server to stop. The loop is this after accept(); the fuzzer
 * (fuzz/fuzz_server.c) drives it over a socket pair. */
bool kc_server_serve_connection(const struct kc_server_host *host, int cfd);

/* What the server is handed by the program it serves (the command line):
 * it knows nothing of checks itself. */
typedef struct kc_server_host {
    /* Runs one check in this process, as `kcheck ARGS...` would, on `out`
     * and `err`; returns its exit status, with KC_SERVER_RUN_STRANDED set
     * when the check left a thread busy that cannot be stopped (a file
     * given up over its time limit): the server answers with the low 8
     * bits and then ends at once, without cleaning up. */
    int (*run)(int argc, char **argv, FILE *out, FILE *err);
    /* Loads what a first check would otherwise load (libclang and LLVM),
     * before the server answers anyone; may be NULL. */
    void (*warm_up)(void);
    /* A file beside the binary whose identity (path, size, modification
     * time, inode) also names the build (the CUDA module): a malloc'd path,
     * or NULL. May be NULL. */
    char *(*module_file)(void);
} kc_server_host;

/* Is `word` one of `kcheck server`'s commands (start, stop, status, run,
 * help)? */
bool kc_server_is_command(const char *word);

/* `kcheck server run|start|stop|status`: argv[0] is "server". */
int kc_server_command(int argc, char **argv, FILE *out, FILE *err, const kc_server_host *host);

/* `kcheck --server ARGS`, with --server already removed: runs the check
 * in the server and returns true with its exit status in *status; false
 * when no server could take it (one is then started for the next run,
 * and the caller checks in its own process). */
bool kc_server_try(int argc, char **argv, FILE *err, const kc_server_host *host, int *status);

#endif
