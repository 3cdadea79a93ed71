#include "kc_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool kc_read_all(const char *path, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    kc_strbuf sb = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        kc_sb_appendn(&sb, buf, n);
    bool ok = !ferror(f);
    fclose(f);
    *len = sb.len;
    *data = kc_sb_take(&sb);
    return ok;
}

bool kc_mkdir_p(const char *dir, unsigned mode)
{
    char *p = kc_xstrdup(dir);
    for (char *c = p + 1; *c; c++) {
        if (*c != '/')
            continue;
        *c = '\0';
        mkdir(p, (mode_t)mode);
        *c = '/';
    }
    int made = mkdir(p, (mode_t)mode), saved = errno;
    struct stat st;
    bool ok = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
    free(p);
    if (!ok)
        errno = made == 0 || saved == EEXIST ? ENOTDIR : saved;
    return ok;
}

char *kc_file_temp_next_to(const char *target, int *fd, char **err)
{
    char *dcopy = kc_xstrdup(target), *bcopy = kc_xstrdup(target);
    const char *dir = dirname(dcopy), *base = basename(bcopy);
    char *tmp = kc_xasprintf("%s/.%s.kcheck-XXXXXX", dir, base);
    *fd = mkstemp(tmp);
    if (*fd >= 0)
        (void)fcntl(*fd, F_SETFD, FD_CLOEXEC);
    if (*fd < 0) {
        *err = kc_xasprintf("cannot create a temporary file in %s: %s", dir, strerror(errno));
        free(tmp);
        tmp = NULL;
    }
    free(dcopy);
    free(bcopy);
    return tmp;
}

static bool write_fd(int fd, const char *data, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return false;
        off += (size_t)w;
    }
    return true;
}

static void sync_dir_of(const char *target)
{
    char *dcopy = kc_xstrdup(target);
    int dfd = open(dirname(dcopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(dcopy);
}

bool kc_file_write_replace(const char *target, const void *data, size_t len, const kc_file_how *how, char **err)
{
    *err = NULL;
    int fd;
    char *tmp = kc_file_temp_next_to(target, &fd, err);
    if (!tmp)
        return false;
    if (!write_fd(fd, data, len))
        *err = kc_xasprintf("cannot write %s: %s", tmp, strerror(errno));
    if (!*err && how->owner && fchown(fd, how->owner->st_uid, how->owner->st_gid) != 0) {
        /* Not the owner: the file becomes ours, as with any editor. */
    }
    if (!*err && fchmod(fd, how->mode) != 0)
        *err = kc_xasprintf("cannot set the mode of %s: %s", tmp, strerror(errno));
    if (!*err && how->durable && fsync(fd) != 0)
        *err = kc_xasprintf("cannot sync %s: %s", tmp, strerror(errno));
    if (close(fd) != 0 && !*err)
        *err = kc_xasprintf("cannot write %s: %s", tmp, strerror(errno));
    if (!*err && how->still_ok && !how->still_ok(how->ud, err) && !*err)
        *err = kc_xstrdup("the file changed while it was written; not replaced");
    if (!*err && rename(tmp, target) != 0)
        *err = kc_xasprintf("cannot rename %s over %s: %s", tmp, target, strerror(errno));
    if (*err)
        unlink(tmp);
    else if (how->durable)
        sync_dir_of(target);
    free(tmp);
    return !*err;
}

bool kc_file_write_atomic(const char *path, const char *data, size_t len, char **err)
{
    *err = NULL;
    struct stat sb;
    char *target = realpath(path, NULL);
    bool exists = target && stat(target, &sb) == 0;
    if (!target)
        target = kc_xstrdup(path);
    kc_file_how how = {.durable = true};
    if (exists) {
        how.mode = sb.st_mode & 07777;
    } else {
        mode_t um = umask(0);
        umask(um);
        how.mode = 0666 & ~um;
    }
    bool ok = kc_file_write_replace(target, data, len, &how, err);
    free(target);
    return ok;
}
