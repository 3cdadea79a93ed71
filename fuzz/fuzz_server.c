/* libFuzzer: the check server's request loop (kc_server_serve_connection:
 * what the server does with each connection it accepts), driven over a
 * socket pair. The first byte says how the rest is sent: bit 0, with four
 * descriptors (/dev/null three times and a directory: a check's streams and
 * working directory); bit 1, with a length prefix longer than the bytes that
 * follow (by the byte's upper bits plus one), the write side then closed. The
 * rest is the request's body, framed with its length. A check runs through
 * a stand-in host that reads its arguments; the server's answer is drained.
 * A request the decoder refuses was freed twice here before 1c59e0a's fix
 * (issue 20, item 1); the decoder alone is also fuzzed by fuzz_config. */
#include "kc_base.h"
#include "kc_server.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int stand_in_run(int argc, char **argv, FILE *out, FILE *err)
{
    size_t n = 0;
    for (int i = 0; i < argc; i++)
        n += strlen(argv[i]);
    fprintf(out, "%d arguments, %zu bytes\n", argc, n);
    (void)err;
    return (int)(n % 3);
}

static const kc_server_host host = {.run = stand_in_run};

static void send_all(int fd, const uint8_t *p, size_t n, bool with_fds)
{
    int fds[4] = {open("/dev/null", O_RDWR | O_CLOEXEC), open("/dev/null", O_RDWR | O_CLOEXEC),
                  open("/dev/null", O_RDWR | O_CLOEXEC), open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
    union {
        struct cmsghdr h;
        char b[CMSG_SPACE(sizeof fds)];
    } ctl;
    struct iovec iov = {(void *)p, n};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
    if (with_fds && fds[0] >= 0 && fds[1] >= 0 && fds[2] >= 0 && fds[3] >= 0) {
        memset(&ctl, 0, sizeof ctl);
        m.msg_control = ctl.b;
        m.msg_controllen = sizeof ctl.b;
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof fds);
        memcpy(CMSG_DATA(c), fds, sizeof fds);
    }
    ssize_t w = sendmsg(fd, &m, MSG_NOSIGNAL);
    for (size_t off = w > 0 ? (size_t)w : 0; w >= 0 && off < n; off += (size_t)w)
        w = send(fd, p + off, n - off, MSG_NOSIGNAL);
    for (int i = 0; i < 4; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("KCHECK_SERVER_RECV_S", "1", 1); /* a request that stops short waits at most 1 s */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 60000)
        return 0;
    uint8_t how = data[0];
    size_t body = size - 1;
    uint64_t prefix = body + ((how & 2) ? (uint64_t)(how >> 2) + 1 : 0);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return 0;
    uint8_t *msg = kc_xmalloc(sizeof prefix + body + 1);
    memcpy(msg, &prefix, sizeof prefix);
    if (body)
        memcpy(msg + sizeof prefix, data + 1, body);
    send_all(sv[1], msg, sizeof prefix + body, how & 1);
    free(msg);
    if (how & 2)
        shutdown(sv[1], SHUT_WR); /* nothing more comes: no wait for the deadline */
    (void)kc_server_serve_connection(&host, sv[0]);
    close(sv[0]);
    char buf[4096];
    while (read(sv[1], buf, sizeof buf) > 0) {
    }
    close(sv[1]);
    return 0;
}
