#define _GNU_SOURCE 1 /* accept4, SO_PEERCRED, MSG_CMSG_CLOEXEC */
#include "kc_server.h"

#include "kc_base.h"
#include "kc_hash.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAGIC "kcheck-server-1"
/* Passed with a check: standard input, output, error, working directory. */
#define NFDS 4
/* What the client holds of the server's output before it answers. */
#define OUTPUT_HOLD_MAX ((size_t)64 << 20)
#define IDLE_DEFAULT_S 900
#define RECV_TIMEOUT_S 10
/* How long a client waits for the server to take its check (it runs one
 * at a time) before it checks in its own process. */
#define QUEUE_WAIT_MS 2000
#define LOCK_WAIT_MS 10000 /* for a server on its way out to release the lock */

static const char *const kind_names[] = {"check", "status", "stop"};

/* ---- the request as bytes ----------------------------------------------- */

static void put(kc_strbuf *sb, const char *s) { kc_sb_appendn(sb, s, strlen(s) + 1); }

char *kc_server_encode(kc_server_kind kind, unsigned umask_bits, int argc, char *const *argv, char *const *envp,
                       size_t *len)
{
    kc_strbuf sb = {0};
    put(&sb, MAGIC);
    put(&sb, kind_names[kind]);
    char num[32];
    snprintf(num, sizeof num, "%o", umask_bits & 0777u);
    put(&sb, num);
    snprintf(num, sizeof num, "%d", argc);
    put(&sb, num);
    for (int i = 0; i < argc; i++)
        put(&sb, argv[i]);
    for (size_t i = 0; envp && envp[i]; i++)
        put(&sb, envp[i]);
    *len = sb.len;
    return kc_sb_take(&sb);
}

static bool parse_uint(const char *s, int base, unsigned long max, unsigned long *v)
{
    if (!*s || *s == '-' || *s == '+')
        return false;
    char *end;
    errno = 0;
    unsigned long x = strtoul(s, &end, base);
    if (errno || *end || x > max)
        return false;
    *v = x;
    return true;
}

bool kc_server_decode(char *buf, size_t len, kc_server_request *req)
{
    memset(req, 0, sizeof *req);
    if (!buf || len == 0 || buf[len - 1] != '\0') {
        free(buf);
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += buf[i] == '\0';
    /* Each string's start, then NULLs where argv and envp end. */
    char **ptrs = kc_xcalloc(n + 2, sizeof *ptrs);
    const char *s = buf;
    for (size_t i = 0; i < n; i++) {
        ptrs[i] = (char *)s;
        s += strlen(s) + 1;
    }
    unsigned long mask = 0, argc = 0;
    int kind = -1;
    if (n >= 4 && strcmp(ptrs[0], MAGIC) == 0)
        for (int k = 0; k < (int)(sizeof kind_names / sizeof kind_names[0]); k++)
            if (strcmp(ptrs[1], kind_names[k]) == 0)
                kind = k;
    if (kind < 0 || !parse_uint(ptrs[2], 8, 0777, &mask) || !parse_uint(ptrs[3], 10, n - 4, &argc) ||
        (kind == KC_SERVER_CHECK && argc < 1)) {
        free(ptrs);
        free(buf);
        return false;
    }
    /* ptrs: the arguments at [4, 4+argc), the environment after. Shift the
     * environment up one slot to make room for argv's NULL. */
    size_t nenv = n - 4 - argc;
    char **args = ptrs + 4;
    memmove(args + argc + 1, args + argc, nenv * sizeof *args);
    args[argc] = NULL;
    args[argc + 1 + nenv] = NULL;
    req->kind = (kc_server_kind)kind;
    req->umask = (unsigned)mask;
    req->argc = (int)argc;
    req->argv = args;
    req->envp = args + argc + 1;
    req->buf = buf;
    return true;
}

void kc_server_request_free(kc_server_request *req)
{
    if (req->argv)
        free(req->argv - 4);
    free(req->buf);
    memset(req, 0, sizeof *req);
}

/* ---- where the server lives ----------------------------------------------- */

/* The user's private directory for sockets, created if needed; NULL with
 * *why (malloc'd) when it cannot be had or others can enter it. */
static char *server_dir(char **why)
{
    const char *env = getenv("KCHECK_SERVER_DIR"), *xdg = getenv("XDG_RUNTIME_DIR");
    char *dir = env && *env    ? kc_xstrdup(env)
                : xdg && *xdg == '/' ? kc_xasprintf("%s/kcheck", xdg)
                                     : kc_xasprintf("/tmp/kcheck-%u", (unsigned)geteuid());
    struct stat sb;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        *why = kc_xasprintf("cannot create %s: %s", dir, strerror(errno));
    else if (lstat(dir, &sb) != 0)
        *why = kc_xasprintf("cannot read %s: %s", dir, strerror(errno));
    else if (!S_ISDIR(sb.st_mode))
        *why = kc_xasprintf("%s is not a directory", dir);
    else if (sb.st_uid != geteuid() || (sb.st_mode & 077))
        *why = kc_xasprintf("%s is not private to this user (owner %u, mode %03o)", dir, (unsigned)sb.st_uid,
                            (unsigned)(sb.st_mode & 0777));
    else
        return dir;
    free(dir);
    return NULL;
}

/* The socket's path for this kcheck build: the binary and its CUDA module
 * (path, size, modification time, inode) name it. */
static char *socket_path(const char *dir, const char *suffix, const kc_server_host *host)
{
    XXH3_state_t *st = XXH3_createState();
    XXH3_128bits_reset(st);
    kc_hash_str(st, KCHECK_VERSION);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    kc_hash_stat(st, exe);
    char *mod = host->module_file ? host->module_file() : NULL;
    if (mod)
        kc_hash_stat(st, mod);
    free(mod);
    XXH128_hash_t h = XXH3_128bits_digest(st);
    XXH3_freeState(st);
    return kc_xasprintf("%s/%016llx%s", dir, (unsigned long long)h.high64, suffix);
}

static bool fill_addr(struct sockaddr_un *a, const char *path)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof a->sun_path)
        return false;
    memcpy(a->sun_path, path, strlen(path) + 1);
    return true;
}

/* A connected socket, or -1 (errno says why). */
static int connect_to(const char *path)
{
    struct sockaddr_un a;
    if (!fill_addr(&a, path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    while (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        if (errno == EINTR)
            continue;
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* ---- moving bytes ------------------------------------------------------------- */

static bool write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t w = send(fd, p, len, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        len -= (size_t)w;
    }
    return true;
}

/* Writes to a stream that is not a socket (this process's output). */
static void write_out(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        len -= (size_t)w;
    }
}

/* Reads len bytes, with a deadline for the whole of it (CLOCK_MONOTONIC): a
 * client that sends a byte now and then cannot hold the server longer
 * than the deadline. */
static bool read_all_by(int fd, void *buf, size_t len, const struct timespec *deadline)
{
    char *p = buf;
    while (len) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long ms = (long)(deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
        if (ms <= 0)
            return false;
        struct pollfd pf = {fd, POLLIN, 0};
        int pr = poll(&pf, 1, (int)(ms > 60000 ? 60000 : ms));
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0)
            continue; /* the deadline is checked above */
        ssize_t r = read(fd, p, len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r;
        len -= (size_t)r;
    }
    return true;
}

/* The message's length (8 bytes) with the descriptors, then the message. */
static bool send_message(int fd, const char *buf, size_t len, const int *fds, int nfds)
{
    uint64_t n = len;
    struct iovec iov = {&n, sizeof n};
    union {
        struct cmsghdr h;
        char b[CMSG_SPACE(sizeof(int) * NFDS)];
    } ctl;
    memset(&ctl, 0, sizeof ctl);
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
    if (nfds > 0) {
        m.msg_control = ctl.b;
        m.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfds);
    }
    ssize_t w;
    while ((w = sendmsg(fd, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
    }
    if (w < 0)
        return false;
    if ((size_t)w < sizeof n && !write_all(fd, (char *)&n + w, sizeof n - (size_t)w))
        return false;
    return write_all(fd, buf, len);
}

/* Reads a message and the descriptors that came with it (at most NFDS
 * kept, the rest closed); *nfds says how many. */
static bool recv_message(int fd, char **buf, size_t *len, int *fds, int *nfds, const struct timespec *deadline)
{
    *nfds = 0;
    *buf = NULL;
    uint64_t n = 0;
    struct iovec iov = {&n, sizeof n};
    union {
        struct cmsghdr h;
        char b[CMSG_SPACE(sizeof(int) * NFDS * 2)];
    } ctl;
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b, .msg_controllen = sizeof ctl.b};
    ssize_t r;
    while ((r = recvmsg(fd, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
    }
    if (r > 0)
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
            if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
                continue;
            size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < k; i++) {
                int got;
                memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof got);
                if (*nfds < NFDS)
                    fds[(*nfds)++] = got;
                else
                    close(got);
            }
        }
    if (r <= 0 || (m.msg_flags & MSG_CTRUNC))
        return false;
    if ((size_t)r < sizeof n && !read_all_by(fd, (char *)&n + r, sizeof n - (size_t)r, deadline))
        return false;
    if (n == 0 || n > KC_SERVER_MAX_MESSAGE)
        return false;
    *buf = kc_xmalloc((size_t)n);
    *len = (size_t)n;
    return read_all_by(fd, *buf, (size_t)n, deadline);
}

/* Seconds a client has to send its whole request (KCHECK_SERVER_RECV_S,
 * else RECV_TIMEOUT_S). */
static long recv_limit(void)
{
    const char *s = getenv("KCHECK_SERVER_RECV_S");
    unsigned long v;
    return s && parse_uint(s, 10, 3600, &v) && v > 0 ? (long)v : RECV_TIMEOUT_S;
}

/* ---- the server ------------------------------------------------------------------ */

typedef struct server {
    const kc_server_host *host;
    const char *socket;
    int home;     /* the server's own working directory */
    int keep[3];  /* its own standard streams */
    time_t start;
    unsigned served;
    long idle_s;
} server;

/* The client's environment, with LIBCLANG_NOTHREADS set as the driver sets
 * it (kc_driver.c), so that the check never grows the array it runs with. */
static char **request_env(char **envp)
{
    size_t n = 0;
    bool has = false;
    for (; envp[n]; n++)
        has |= strncmp(envp[n], "LIBCLANG_NOTHREADS=", 19) == 0;
    char **env = kc_xcalloc(n + 2, sizeof *env);
    memcpy(env, envp, n * sizeof *env);
    if (!has)
        env[n] = (char *)"LIBCLANG_NOTHREADS=1";
    return env;
}

/* While a check runs: a client that goes away (interrupted, killed) ends
 * the server at once, as the signal would have ended a check in the
 * client's own process; the next run starts a new server. */
typedef struct watch {
    int client;
    int done[2];
} watch;

static void *watch_client(void *arg)
{
    watch *w = arg;
    struct pollfd p[2] = {{.fd = w->client, .events = POLLRDHUP}, {.fd = w->done[0], .events = POLLIN}};
    for (;;) {
        int r = poll(p, 2, -1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 || p[1].revents)
            return NULL;
        if (p[0].revents & (POLLRDHUP | POLLHUP | POLLERR))
            _exit(3);
    }
}

/* Runs the check with the client's streams, directory, umask and
 * environment, as `kcheck` would in the client's process. */
static int run_check(server *sv, kc_server_request *req, const int *fds, int client)
{
    fflush(stdout);
    fflush(stderr);
    for (int i = 0; i < 3; i++)
        dup2(fds[i], i);
    int status = 2;
    if (fchdir(fds[3]) != 0) {
        dprintf(2, "kcheck: the server cannot enter the working directory: %s\n", strerror(errno));
    } else {
        mode_t old_mask = umask((mode_t)req->umask);
        char **old_env = environ;
        char **env = request_env(req->envp);
        environ = env;
        FILE *out = fdopen(dup(1), "w");
        watch w = {.client = client, .done = {-1, -1}};
        pthread_t watcher;
        bool watching = pipe2(w.done, O_CLOEXEC) == 0 && pthread_create(&watcher, NULL, watch_client, &w) == 0;
        if (out) {
            status = sv->host->run(req->argc, req->argv, out, stderr);
            fclose(out);
        } else {
            dprintf(2, "kcheck: the server cannot write to standard output: %s\n", strerror(errno));
        }
        fflush(stderr);
        if (watching) {
            (void)!write(w.done[1], "", 1);
            pthread_join(watcher, NULL);
        }
        for (int i = 0; i < 2; i++)
            if (w.done[i] >= 0)
                close(w.done[i]);
        environ = old_env;
        free(env);
        umask(old_mask);
        if (fchdir(sv->home) != 0)
            (void)!chdir("/");
    }
    for (int i = 0; i < 3; i++)
        dup2(sv->keep[i], i);
    return status;
}

static void answer_status(server *sv, int fd)
{
    char *s = kc_xasprintf("kcheck server: pid %ld, up %lld s, %u check%s served, stops after %ld idle seconds\n"
                           "socket: %s\n",
                           (long)getpid(), (long long)(time(NULL) - sv->start), sv->served, sv->served == 1 ? "" : "s",
                           sv->idle_s, sv->socket);
    (void)write_all(fd, s, strlen(s));
    free(s);
}

/* Serves one connection; false when the server should stop. */
static bool serve_one(server *sv, int cfd)
{
    struct ucred cred;
    socklen_t cl = sizeof cred;
    if (getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) != 0 || cred.uid != geteuid())
        return true;
    long limit = recv_limit();
    struct timeval tv = {limit, 0};
    setsockopt(cfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += limit;
    char *buf = NULL;
    size_t len = 0;
    int fds[NFDS], nfds = 0;
    kc_server_request req;
    bool keep_going = true;
    /* kc_server_decode owns the message from the call on (it frees what it
     * refuses); only a message that was not received whole is freed here. */
    bool received = recv_message(cfd, &buf, &len, fds, &nfds, &deadline);
    if (!received)
        free(buf);
    if (received && kc_server_decode(buf, len, &req)) {
        switch (req.kind) {
        case KC_SERVER_STATUS:
            answer_status(sv, cfd);
            break;
        case KC_SERVER_STOP:
            (void)write_all(cfd, "stopping\n", 9);
            keep_going = false;
            break;
        case KC_SERVER_CHECK:
            /* taken: the client, which waits a bounded time for this
             * byte while another check runs, now waits for the answer */
            if (nfds == NFDS && write_all(cfd, "A", 1)) {
                int32_t status = run_check(sv, &req, fds, cfd);
                sv->served++;
                int32_t answer = status & 0xff;
                (void)write_all(cfd, &answer, sizeof answer);
                if (status & KC_SERVER_RUN_STRANDED)
                    _exit(0); /* a thread is still busy with a given-up file; the next client starts a new server */
            }
            break;
        }
        kc_server_request_free(&req);
    }
    for (int i = 0; i < nfds; i++)
        close(fds[i]);
    return keep_going;
}

bool kc_server_serve_connection(const kc_server_host *host, int cfd)
{
    server sv = {.host = host, .socket = "", .start = time(NULL), .idle_s = 0};
    sv.home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    for (int i = 0; i < 3; i++)
        sv.keep[i] = fcntl(i, F_DUPFD_CLOEXEC, 3);
    bool more = serve_one(&sv, cfd);
    for (int i = 0; i < 3; i++)
        if (sv.keep[i] >= 0)
            close(sv.keep[i]);
    if (sv.home >= 0)
        close(sv.home);
    return more;
}

static long idle_limit(void)
{
    const char *s = getenv("KCHECK_SERVER_IDLE");
    unsigned long v;
    return s && parse_uint(s, 10, 86400L * 365, &v) && v > 0 ? (long)v : IDLE_DEFAULT_S;
}

/* The server lock. A holder that takes no connection is a server on its
 * way out (it stops listening, or unlinks its socket, before it exits; one
 * ended by its client leaves a stale socket): wait for it, up to
 * LOCK_WAIT_MS, rather than answer "already running" for a server that no
 * longer accepts anyone. */
static bool take_lock(int lock, const char *sock)
{
    for (int waited = 0;; waited += 20) {
        if (flock(lock, LOCK_EX | LOCK_NB) == 0)
            return true;
        if (waited >= LOCK_WAIT_MS)
            return false;
        int fd = connect_to(sock);
        if (fd >= 0) {
            close(fd);
            return false;
        }
        struct timespec ts = {0, 20 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* `kcheck server run`: serves until idle, stopped or worn out. Returns 0,
 * or 2 with a message when it cannot listen; 0 also when another server
 * for this build already runs (it holds the lock). */
static int serve(FILE *out, FILE *err, const kc_server_host *host)
{
    char *why = NULL, *dir = server_dir(&why);
    if (!dir) {
        fprintf(err, "kcheck server: %s\n", why);
        free(why);
        return 2;
    }
    char *sock = socket_path(dir, ".sock", host);
    free(dir);
    /* The lock beside the socket: the same name, another suffix. */
    char *lockp = kc_xasprintf("%.*s.lock", (int)(strlen(sock) - strlen(".sock")), sock);
    int status = 2, lfd = -1;
    int lock = open(lockp, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    struct sockaddr_un a;
    if (lock < 0) {
        fprintf(err, "kcheck server: cannot open %s: %s\n", lockp, strerror(errno));
        goto done;
    }
    if (!take_lock(lock, sock)) {
        fprintf(out, "kcheck server: already running (socket %s)\n", sock);
        status = 0;
        goto done;
    }
    if (!fill_addr(&a, sock)) {
        fprintf(err, "kcheck server: the socket path is too long: %s\n", sock);
        goto done;
    }
    unlink(sock);
    lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof a) != 0 || listen(lfd, 64) != 0) {
        fprintf(err, "kcheck server: cannot listen on %s: %s\n", sock, strerror(errno));
        goto done;
    }
    struct stat bound;
    if (stat(sock, &bound) != 0)
        memset(&bound, 0, sizeof bound);
    signal(SIGPIPE, SIG_IGN);
    server sv = {.host = host, .socket = sock, .start = time(NULL), .idle_s = idle_limit()};
    sv.home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    for (int i = 0; i < 3; i++)
        sv.keep[i] = fcntl(i, F_DUPFD_CLOEXEC, 3);
    /* What every CUDA check would load first: libclang and LLVM. */
    if (host->warm_up)
        host->warm_up();
    fprintf(out, "kcheck server: pid %ld listening on %s\n", (long)getpid(), sock);
    fflush(out);
    for (;;) {
        struct pollfd p = {.fd = lfd, .events = POLLIN};
        int r = poll(&p, 1, (int)(sv.idle_s > INT_MAX / 1000 ? INT_MAX : sv.idle_s * 1000));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (cfd < 0)
            continue;
        bool more = serve_one(&sv, cfd);
        close(cfd);
        if (!more || sv.served >= KC_SERVER_MAX_REQUESTS)
            break;
    }
    /* Remove the socket unless a newer server already replaced it, so that
     * no new client connects; then serve the clients already waiting to be
     * accepted, which would otherwise be told the server stopped before
     * answering (and check again in their own process). */
    struct stat now;
    if (stat(sock, &now) == 0 && now.st_ino == bound.st_ino && now.st_dev == bound.st_dev)
        unlink(sock);
    for (;;) {
        struct pollfd p = {.fd = lfd, .events = POLLIN};
        if (poll(&p, 1, 0) <= 0)
            break;
        int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (cfd < 0)
            break;
        serve_one(&sv, cfd);
        close(cfd);
    }
    for (int i = 0; i < 3; i++)
        if (sv.keep[i] >= 0)
            close(sv.keep[i]);
    if (sv.home >= 0)
        close(sv.home);
    status = 0;
done:
    if (lfd >= 0)
        close(lfd);
    if (lock >= 0)
        close(lock);
    free(sock);
    free(lockp);
    return status;
}

/* Starts `kcheck server run` in the background, detached from the
 * client's session and streams (a hook runner waiting for the client's
 * output must not wait for the server). */
static void spawn(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return;
    exe[n] = '\0';
    pid_t p = fork();
    if (p == 0) {
        if (setsid() < 0 || fork() != 0)
            _exit(0);
        int nul = open("/dev/null", O_RDWR);
        if (nul < 0)
            _exit(127);
        for (int i = 0; i < 3; i++)
            dup2(nul, i);
        if (close_range(3, ~0U, 0) != 0) {
            long maxfd = sysconf(_SC_OPEN_MAX);
            for (long fd = 3; fd < (maxfd > 0 && maxfd < 65536 ? maxfd : 65536); fd++)
                close((int)fd);
        }
        if (chdir("/") != 0)
            _exit(127);
        execl(exe, "kcheck", "server", "run", (char *)NULL);
        _exit(127);
    }
    if (p > 0)
        while (waitpid(p, NULL, 0) < 0 && errno == EINTR) {
        }
}

/* Sends a status or stop request; the answer goes to `out`. False when no
 * server answered. */
static bool ask(kc_server_kind kind, FILE *out, const kc_server_host *host)
{
    char *why = NULL, *dir = server_dir(&why);
    free(why);
    if (!dir)
        return false;
    char *sock = socket_path(dir, ".sock", host);
    free(dir);
    int fd = connect_to(sock);
    free(sock);
    if (fd < 0)
        return false;
    char *argv[] = {(char *)"kcheck", NULL};
    char *env[] = {NULL};
    size_t len;
    char *msg = kc_server_encode(kind, 0, 1, argv, env, &len);
    bool ok = send_message(fd, msg, len, NULL, 0);
    free(msg);
    char buf[4096];
    ssize_t r;
    bool any = false;
    while (ok && (r = read(fd, buf, sizeof buf)) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        fwrite(buf, 1, (size_t)r, out);
        any = true;
    }
    close(fd);
    return ok && any;
}

static const char server_usage[] = "usage: kcheck server start|stop|status|run\n"
                                   "  start   start the server in the background (kcheck --server does on first use)\n"
                                   "  stop    stop it\n"
                                   "  status  say whether it runs (exit status 0) or not (1)\n"
                                   "  run     serve in the foreground\n";

static const char *const commands[] = {"start", "stop", "status", "run", "help", "--help"};

bool kc_server_is_command(const char *word)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(word, commands[i]) == 0)
            return true;
    return false;
}

int kc_server_command(int argc, char **argv, FILE *out, FILE *err, const kc_server_host *host)
{
    const char *cmd = argc == 2 ? argv[1] : "";
    if (strcmp(cmd, "run") == 0)
        return serve(out, err, host);
    if (strcmp(cmd, "status") == 0) {
        if (ask(KC_SERVER_STATUS, out, host))
            return 0;
        fprintf(out, "kcheck server: not running\n");
        return 1;
    }
    if (strcmp(cmd, "stop") == 0) {
        if (!ask(KC_SERVER_STOP, out, host))
            fprintf(out, "kcheck server: not running\n");
        return 0;
    }
    if (strcmp(cmd, "start") == 0) {
        char *why = NULL, *dir = server_dir(&why);
        if (!dir) {
            fprintf(err, "kcheck server: %s\n", why);
            free(why);
            return 2;
        }
        free(dir);
        FILE *nul = fopen("/dev/null", "w");
        bool up = nul && ask(KC_SERVER_STATUS, nul, host);
        if (!up)
            spawn();
        /* Up to 10 s for it to answer (it loads libclang first). */
        for (int i = 0; i < 200 && !up; i++) {
            struct timespec ts = {0, 50 * 1000 * 1000};
            nanosleep(&ts, NULL);
            up = nul && ask(KC_SERVER_STATUS, nul, host);
        }
        if (nul)
            fclose(nul);
        if (up && ask(KC_SERVER_STATUS, out, host))
            return 0;
        fprintf(err, "kcheck server: did not start\n");
        return 2;
    }
    fputs(server_usage, strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 ? out : err);
    return strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 ? 0 : 2;
}

/* ---- the client ------------------------------------------------------------------ */

/* Reads the server's output (the pipes out_fd and err_fd) and its answer
 * (on `fd`) until both pipes end; holds the output and writes it to this
 * process's streams once answered (or as it comes past OUTPUT_HOLD_MAX,
 * *passed_on set). Closes the pipes and `fd`. */
static void relay(int fd, int out_fd, int err_fd, bool ok, int32_t *answer, bool *answered, bool *passed_on)
{
    size_t got = 0;
    kc_strbuf held[2] = {{0}, {0}};
    struct pollfd pf[3] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}, {fd, POLLIN, 0}};
    int open_pipes = 2;
    char buf[65536];
    while (ok && (open_pipes > 0 || (!*answered && pf[2].fd >= 0))) {
        if (poll(pf, 3, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(pf[i].fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                close(pf[i].fd);
                pf[i].fd = -1;
                open_pipes--;
                continue;
            }
            kc_sb_appendn(&held[i], buf, (size_t)n);
            if (held[0].len + held[1].len > OUTPUT_HOLD_MAX) {
                *passed_on = true; /* too much to hold: pass it on as it comes */
                for (int k = 0; k < 2; k++) {
                    write_out(k + 1, held[k].data ? held[k].data : "", held[k].len);
                    kc_sb_len_reset(&held[k]);
                }
            }
        }
        if (pf[2].fd >= 0 && (pf[2].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t n = read(fd, (char *)answer + got, sizeof *answer - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                pf[2].fd = -1; /* closed: answered or not */
            } else if ((got += (size_t)n) == sizeof *answer) {
                *answered = true;
                pf[2].fd = -1;
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (pf[i].fd >= 0)
            close(pf[i].fd);
    close(fd);
    if (*answered || *passed_on) {
        for (int k = 0; k < 2; k++)
            write_out(k + 1, held[k].data ? held[k].data : "", held[k].len);
    }
    kc_sb_free(&held[0]);
    kc_sb_free(&held[1]);
}

/* How long a client waits for a busy server to take its check
 * (KCHECK_SERVER_WAIT_MS, else QUEUE_WAIT_MS). */
static long queue_wait_ms(void)
{
    const char *s = getenv("KCHECK_SERVER_WAIT_MS");
    unsigned long v;
    return s && parse_uint(s, 10, 3600L * 1000, &v) ? (long)v : QUEUE_WAIT_MS;
}

bool kc_server_try(int argc, char **argv, FILE *err, const kc_server_host *host, int *status)
{
    char *why = NULL, *dir = server_dir(&why);
    if (!dir) {
        fprintf(err, "kcheck: --server: %s; checking in this process\n", why);
        free(why);
        return false;
    }
    /* A closed standard stream cannot be passed: check here. */
    for (int i = 0; i < 3; i++)
        if (fcntl(i, F_GETFD) < 0) {
            free(dir);
            return false;
        }
    char *sock = socket_path(dir, ".sock", host);
    free(dir);
    int fd = connect_to(sock);
    if (fd < 0) {
        if (errno == ENAMETOOLONG)
            fprintf(err, "kcheck: --server: the socket path is too long (%s); checking in this process\n", sock);
        else
            spawn(); /* for the next run; this one checks here */
        free(sock);
        return false;
    }
    free(sock);
    /* The server writes into pipes, not into this process's streams: what
     * it wrote is passed on once it answered, so a server that dies
     * mid-check leaves nothing behind and the check runs here instead
     * (no finding printed twice). Past OUTPUT_HOLD_MAX bytes the output
     * is passed on as it comes, and a server that dies after that is an
     * error, not a second run. */
    int po[2] = {-1, -1}, pe[2] = {-1, -1};
    int cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (cwd < 0 || pipe2(po, O_CLOEXEC) != 0 || pipe2(pe, O_CLOEXEC) != 0) {
        fprintf(err, "kcheck: --server: cannot pass the working directory or the output: %s; checking in this "
                     "process\n",
                strerror(errno));
        for (int i = 0; i < 2; i++) {
            if (po[i] >= 0)
                close(po[i]);
            if (pe[i] >= 0)
                close(pe[i]);
        }
        if (cwd >= 0)
            close(cwd);
        close(fd);
        return false;
    }
    int fds[NFDS] = {0, po[1], pe[1], cwd};
    bool ok = true;
    mode_t mask = umask(0);
    umask(mask);
    size_t len = 0;
    /* Colour is decided on the server from its standard output, which is a
     * pipe now: it is told whether this one is a terminal. */
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **env = kc_xcalloc(nenv + 2, sizeof *env);
    memcpy(env, environ, nenv * sizeof *env);
    if (isatty(1))
        env[nenv] = KC_SERVER_TTY_ENV "=1";
    char *msg = kc_server_encode(KC_SERVER_CHECK, (unsigned)mask, argc, argv, env, &len);
    free(env);
    ok = len <= KC_SERVER_MAX_MESSAGE && send_message(fd, msg, len, fds, NFDS);
    free(msg);
    close(cwd);
    close(po[1]);
    close(pe[1]);
    /* The server takes one check at a time: wait a bounded time for it to
     * take this one (its acknowledgement byte), else check here. */
    long wait_ms = queue_wait_ms();
    struct pollfd ack = {fd, POLLIN, 0};
    char a = 0;
    int pr = 0;
    while (ok && (pr = poll(&ack, 1, (int)wait_ms)) < 0 && errno == EINTR) {
    }
    if (ok && (pr <= 0 || read(fd, &a, 1) != 1 || a != 'A')) {
        close(po[0]);
        close(pe[0]);
        close(fd);
        if (pr == 0)
            fprintf(err, "kcheck: the kcheck server is busy with another check (waited %ld ms); checking in this "
                         "process\n",
                    wait_ms);
        else
            fprintf(err, "kcheck: the kcheck server stopped before answering; checking in this process\n");
        return false;
    }
    int32_t answer = 0;
    bool answered = false, passed_on = false;
    relay(fd, po[0], pe[0], ok, &answer, &answered, &passed_on);
    if (answered) {
        *status = answer;
        return true;
    }
    if (passed_on) {
        fprintf(err, "kcheck: the kcheck server stopped in the middle of its output; the output above is "
                     "incomplete\n");
        *status = 2;
        return true;
    }
    fprintf(err, "kcheck: the kcheck server stopped before answering; checking in this process\n");
    return false;
}
