/* Running tools and harnesses: own process group, time limits, no shell. */
#define _GNU_SOURCE 1 /* execvpe */
#include "verify_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <dirent.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int open_out(const char *path)
{
    return open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

/* The largest file a run may write: KCHECK_VERIFY_MAX_OUTPUT_MB MiB (1024
 * by default; a driver whose child floods its log wrote 6 GB in 16 s). */
static rlim_t output_limit(void)
{
    const char *s = getenv("KCHECK_VERIFY_MAX_OUTPUT_MB");
    char *end = NULL;
    long long mb = s && *s ? strtoll(s, &end, 10) : 0;
    if (!s || !*s || !end || *end || mb <= 0 || mb > (1LL << 30))
        mb = 1024;
    return (rlim_t)mb << 20;
}

/* The processes whose parent is this one, other than `skip`: what a run
 * orphaned (kcheck is their reaper). Kills them and reaps them; true when
 * there was any. */
static bool kill_orphans(pid_t skip)
{
    DIR *d = opendir("/proc");
    if (!d)
        return false;
    bool any = false;
    pid_t self = getpid();
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end = NULL;
        long p = strtol(e->d_name, &end, 10);
        if (!end || *end || p <= 0 || (pid_t)p == skip || (pid_t)p == self)
            continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", p);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0)
            continue;
        buf[n] = '\0';
        const char *rp = strrchr(buf, ')'); /* the name may hold anything */
        char state = 0;
        long ppid = 0;
        if (!rp || sscanf(rp + 1, " %c %ld", &state, &ppid) != 2 || (pid_t)ppid != self)
            continue;
        kill((pid_t)p, SIGKILL);
        waitpid((pid_t)p, NULL, 0);
        any = true;
    }
    closedir(d);
    return any;
}

void kc_run_process(char *const argv[], const char *cwd, const char *out_path, const char *err_path,
                    char *const env_extra[], double timeout_s, kc_proc_result *res)
{
    memset(res, 0, sizeof *res);
    res->exit_code = -1;
    int out_fd = open_out(out_path), err_fd = open_out(err_path);
    if (out_fd < 0 || err_fd < 0) {
        if (out_fd >= 0)
            close(out_fd);
        if (err_fd >= 0)
            close(err_fd);
        return;
    }
    /* A pipe closed on exec tells the parent whether exec worked. */
    int exec_pipe[2];
    if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
        close(out_fd);
        close(err_fd);
        return;
    }
    /* Orphans of the run come to kcheck, not to init: the end of the run
     * finds them (kill_orphans). */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    /* Held while waiting, taken with sigtimedwait: an interrupt of kcheck
     * ends the run's processes before kcheck ends. */
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, &old);
    rlim_t cap = output_limit();
    double t0 = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        close(out_fd);
        close(err_fd);
        close(exec_pipe[0]);
        close(exec_pipe[1]);
        return;
    }
    if (pid == 0) {
        setpgid(0, 0);
        sigprocmask(SIG_SETMASK, &old, NULL);
        struct rlimit rl = {cap, cap};
        setrlimit(RLIMIT_FSIZE, &rl);
        signal(SIGXFSZ, SIG_DFL);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        if (cwd && chdir(cwd) != 0)
            _exit(126);
        for (char *const *e = env_extra; e && *e; e++)
            putenv(*e);
        execvp(argv[0], argv);
        int e = errno;
        ssize_t w = write(exec_pipe[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    setpgid(pid, pid);
    close(out_fd);
    close(err_fd);
    close(exec_pipe[1]);
    int exec_errno = 0;
    ssize_t r = read(exec_pipe[0], &exec_errno, sizeof exec_errno);
    close(exec_pipe[0]);
    res->started = r != (ssize_t)sizeof exec_errno;
    int status = 0;
    bool killed = false;
    double kill_at = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            break;
        double t = now_s();
        if (!killed && timeout_s > 0 && t - t0 > timeout_s) {
            kill(-pid, SIGTERM);
            killed = true;
            kill_at = t;
            res->timed_out = true;
        } else if (killed && t - kill_at > 3.0) {
            kill(-pid, SIGKILL);
        }
        struct timespec ts = {0, 5 * 1000 * 1000};
        int sig = sigtimedwait(&stop, NULL, &ts);
        if (sig > 0 && !res->interrupted) {
            res->interrupted = sig;
            kill(-pid, SIGKILL);
        }
    }
    /* Anything the harness left behind in its group goes too, and what
     * left the group (setsid) and was orphaned: once the group is gone its
     * orphans come here; a few tries give them the time. */
    kill(-pid, SIGKILL);
    for (int i = 0; i < 20; i++) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        if (!kill_orphans(pid) && i >= 2)
            break;
        nanosleep(&ts, NULL);
    }
    /* One that came after the run ended, or a second one, held meanwhile,
     * would end kcheck before it cleans up: taken here, the caller ends it
     * the same way once it has. */
    struct timespec zero = {0, 0};
    int late;
    while ((late = sigtimedwait(&stop, NULL, &zero)) > 0)
        if (!res->interrupted)
            res->interrupted = late;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    res->wall_s = now_s() - t0;
    if (WIFEXITED(status)) {
        res->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        res->signal = WTERMSIG(status);
        res->output_limit = res->signal == SIGXFSZ;
    }
    /* a shell in between reports its child's SIGXFSZ as exit status 153:
     * the log at the limit says it too */
    struct stat st;
    for (int i = 0; i < 2; i++) {
        const char *p = i ? err_path : out_path;
        if (p && stat(p, &st) == 0 && (rlim_t)st.st_size >= cap)
            res->output_limit = true;
    }
}

char *kc_run_capture_line(char *const argv[], double timeout_s)
{
    char tmpl[] = "/tmp/kcheck-capture-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0)
        return NULL;
    close(fd);
    kc_proc_result res;
    kc_run_process(argv, NULL, tmpl, NULL, NULL, timeout_s, &res);
    char *line = NULL;
    if (res.started && res.exit_code == 0) {
        FILE *f = fopen(tmpl, "r");
        if (f) {
            char buf[1024];
            if (fgets(buf, sizeof buf, f)) {
                buf[strcspn(buf, "\r\n")] = '\0';
                line = kc_xstrdup(buf);
            }
            fclose(f);
        }
    }
    unlink(tmpl);
    return line;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

void kc_rmtree(const char *path) { nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

bool kc_write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    return ok;
}
