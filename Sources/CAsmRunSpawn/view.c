#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAX_VISIBLE = 8, MAX_HIDDEN = 4 };

size_t asmrun_format_number(char *out, unsigned long long value) {
    char digits[24];
    size_t count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    for (size_t index = 0; index < count; index++) out[index] = digits[count - 1 - index];
    return count;
}

/* "ID ID 1\n" for uid_map and gid_map, without snprintf (not async-signal-safe). */
static size_t format_identity_map(char *out, unsigned id) {
    size_t length = asmrun_format_number(out, id);
    out[length++] = ' ';
    length += asmrun_format_number(out + length, id);
    memcpy(out + length, " 1\n", 3);
    return length + 3;
}

static int map_user_to_itself(void) {
    char map[48];
    size_t length = format_identity_map(map, (unsigned)getuid());
    if (asmrun_write_file("/proc/self/uid_map", map, length) != 0) return errno;
    if (asmrun_write_file("/proc/self/setgroups", "deny", 4) != 0) return errno;
    length = format_identity_map(map, (unsigned)getgid());
    if (asmrun_write_file("/proc/self/gid_map", map, length) != 0) return errno;
    return 0;
}

void asmrun_fd_path(char *out, int fd) {
    memcpy(out, "/proc/self/fd/", 14);
    out[14 + asmrun_format_number(out + 14, (unsigned)fd)] = 0;
}

int asmrun_each_parent(const char *path, int (*visit)(const char *parent, void *context), void *context) {
    char prefix[ASMRUN_PATH_SIZE];
    size_t length = strlen(path);
    if (length >= sizeof prefix) return ENAMETOOLONG;
    memcpy(prefix, path, length + 1);
    for (size_t index = 1; index < length; index++) {
        if (prefix[index] != '/') continue;
        prefix[index] = 0;
        int code = visit(prefix, context);
        if (code != 0) return code;
        prefix[index] = '/';
    }
    return 0;
}

static int make_folder(const char *path, void *context) {
    (void)context;
    return mkdir(path, 0755) != 0 && errno != EEXIST ? errno : 0;
}

int asmrun_bind_fd(int fd, const char *target) {
    struct stat info;
    if (fstat(fd, &info) != 0) return errno;
    int directory = S_ISDIR(info.st_mode);
    int code = asmrun_each_parent(target, make_folder, NULL);
    if (code != 0) return code;
    struct stat existing;
    if (lstat(target, &existing) != 0) {
        if (directory && mkdir(target, 0755) != 0) return errno;
        int file = directory ? -1 : open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (!directory && file < 0) return errno;
        if (file >= 0) close(file);
    }
    char source[40];
    asmrun_fd_path(source, fd);
    return mount(source, target, NULL, MS_BIND | (directory ? MS_REC : 0), NULL) == 0 ? 0 : errno;
}

int asmrun_cover(const char *path) {
    struct stat info;
    if (lstat(path, &info) != 0 || !S_ISDIR(info.st_mode)) return 0; /* /var/run is often a link to /run */
    return mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "mode=755,size=64k") == 0 ? 0 : errno;
}

/* No tty: a case has no controlling terminal (a session of its own), and the host's terminals
   are no business of a case's. */
static const char *const devices[ASMRUN_DEVICE_COUNT] = {"null", "zero", "full", "random", "urandom"};

void asmrun_open_devices(int *device_fds) {
    char source[32] = "/dev/";
    for (int index = 0; index < ASMRUN_DEVICE_COUNT; index++) {
        strcpy(source + 5, devices[index]);
        device_fds[index] = open(source, O_PATH | O_CLOEXEC);
    }
}

int asmrun_join_path(char *out, const char *prefix, const char *path) {
    size_t prefix_length = strlen(prefix), length = strlen(path);
    if (prefix_length + length + 1 > ASMRUN_PATH_SIZE) return ENAMETOOLONG;
    memcpy(out, prefix, prefix_length);
    memcpy(out + prefix_length, path, length + 1);
    return 0;
}

int asmrun_make_dev(const int *device_fds, const char *prefix) {
    char target[ASMRUN_PATH_SIZE];
    int code = asmrun_join_path(target, prefix, "/dev");
    if (code != 0) return code;
    if (mkdir(target, 0755) != 0 && errno != EEXIST) return errno;
    if ((code = asmrun_cover(target)) != 0) return code;
    size_t length = strlen(target);
    if (length + 16 > ASMRUN_PATH_SIZE) return ENAMETOOLONG;
    for (int index = 0; index < ASMRUN_DEVICE_COUNT; index++) {
        if (device_fds[index] < 0) continue;
        target[length] = '/';
        strcpy(target + length + 1, devices[index]);
        if ((code = asmrun_bind_fd(device_fds[index], target)) != 0) return code;
    }
    static const char *const links[4][2] = {
        {"/proc/self/fd", "/fd"}, {"/proc/self/fd/0", "/stdin"}, {"/proc/self/fd/1", "/stdout"}, {"/proc/self/fd/2", "/stderr"}};
    for (int index = 0; index < 4; index++) {
        strcpy(target + length, links[index][1]);
        if (symlink(links[index][0], target) != 0) return errno;
    }
    strcpy(target + length, "/shm");
    return mkdir(target, 01777) == 0 ? 0 : errno;
}

enum { COVERED_OR_STOPPED = -1 };

static int cover_if_private(const char *prefix, void *context) {
    (void)context;
    struct stat info;
    if (lstat(prefix, &info) != 0 || !S_ISDIR(info.st_mode)) return COVERED_OR_STOPPED;
    if (info.st_mode & S_IXOTH) return 0;
    int code = asmrun_cover(prefix);
    return code != 0 ? code : COVERED_OR_STOPPED;
}

/* Covers the highest folder above `path` that others may not search (see asmrun_view's
   `cover_private`); the walk stops at a symbolic link, a missing folder or a cover made before. */
static int cover_private_ancestor(const char *path) {
    int code = asmrun_each_parent(path, cover_if_private, NULL);
    return code == COVERED_OR_STOPPED ? 0 : code;
}

/* The view cases get (see asmrun_view). Runs in the namespace helper after unshare(CLONE_NEWNS). */
static int make_view(const asmrun_view *view) {
    if (view->new_root) return asmrun_make_build_root(view);
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return errno;
    int visible_count = view->visible_count < MAX_VISIBLE ? view->visible_count : MAX_VISIBLE;
    int kept[MAX_VISIBLE + 1];
    const char *kept_paths[MAX_VISIBLE + 1];
    int count = 0;
    kept_paths[count++] = view->scratch;
    for (int index = 0; index < visible_count; index++) kept_paths[count++] = view->visible[index];
    for (int index = 0; index < count; index++) kept[index] = open(kept_paths[index], O_PATH | O_CLOEXEC);
    if (kept[0] < 0) return errno;
    int device_fds[ASMRUN_DEVICE_COUNT];
    asmrun_open_devices(device_fds);
    int code = 0;
    /* First: a hidden folder may hold a kept one, bound back below. */
    int hidden_count = view->hidden_count < MAX_HIDDEN ? view->hidden_count : MAX_HIDDEN;
    for (int index = 0; index < hidden_count && code == 0; index++) code = asmrun_cover(view->hidden[index]);
    const char *const covered[] = {"/tmp", "/run", "/var/run"};
    for (int index = 0; index < 3 && code == 0; index++) code = asmrun_cover(covered[index]);
    /* The cases' folders are mounted there, each in its case's namespace; only on the fresh /tmp,
       never through a link to the host's. */
    struct stat tmp;
    if (code == 0 && lstat("/tmp", &tmp) == 0 && S_ISDIR(tmp.st_mode) && mkdir(ASMRUN_CASE_VIEW, 0755) != 0) code = errno;
    if (code == 0) code = asmrun_make_dev(device_fds, "");
    for (int index = 0; index < count && code == 0 && view->cover_private; index++) {
        if (kept[index] >= 0) code = cover_private_ancestor(kept_paths[index]);
    }
    for (int index = 0; index < count && code == 0; index++) {
        if (kept[index] >= 0) code = asmrun_bind_fd(kept[index], kept_paths[index]);
    }
    if (code == 0) code = asmrun_set_read_only("/", 1, 1);
    if (code == 0 && view->scratch_writable) code = asmrun_set_read_only(view->scratch, 0, 1);
    return code;
}

/* Runs in a forked child of a multithreaded process: only async-signal-safe calls. Reports, then
   waits to be killed; dies with its parent if that comes first.
   result[0]: user namespace (only when asked), result[1]: network, result[2]: mounts. */
__attribute__((noreturn)) static void namespace_helper(const asmrun_view *view, int with_user_ns, int report,
                                                       pid_t parent) {
    int result[3] = {0, 0, 0};
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    if (with_user_ns) {
        result[0] = unshare(CLONE_NEWUSER) != 0 ? errno : map_user_to_itself();
        if (result[0] != 0) {
            result[1] = result[2] = result[0];
            goto done;
        }
    }
    if (!view->no_network && unshare(CLONE_NEWNET) != 0) result[1] = errno;
    result[2] = unshare(CLONE_NEWNS) != 0 ? errno : make_view(view);
done:
    if (write(report, result, sizeof result) != (ssize_t)sizeof result) _exit(1);
    close(report);
    for (;;) pause();
}

static int open_namespace(pid_t helper, const char *kind) {
    char path[64] = "/proc/";
    size_t length = 6 + asmrun_format_number(path + 6, (unsigned)helper);
    memcpy(path + length, "/ns/", 4);
    length += 4;
    size_t kind_length = strlen(kind);
    if (length + kind_length >= sizeof path) return -1;
    memcpy(path + length, kind, kind_length + 1);
    return open(path, O_RDONLY | O_CLOEXEC);
}

/* Where no user namespace is needed (root), a thread of asmrun's makes the namespaces: a thread
   may unshare its network and mount namespaces (the kernel gives it a file system context of
   its own for the latter), where a user namespace needs a process of one thread. It opens them
   and ends, and they outlive it through the descriptors. A forked helper copied asmrun's page
   tables and tore them down again: a millisecond before the first case. */
struct namespace_job {
    const asmrun_view *view;
    int result[2]; /* network, mounts */
    int net_fd, mnt_fd;
};

static void *namespace_thread(void *argument) {
    struct namespace_job *job = argument;
    if (job->view->no_network) {
        /* The caller has one already (builds share theirs). */
    } else if (unshare(CLONE_NEWNET) != 0) {
        job->result[0] = errno;
    } else if ((job->net_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)) < 0) {
        job->result[0] = errno;
    }
    /* Opened before the view is made: a build view's root has no /proc. */
    if (unshare(CLONE_NEWNS) != 0 || (job->mnt_fd = open("/proc/thread-self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0) {
        job->result[1] = errno;
    } else if ((job->result[1] = make_view(job->view)) != 0) {
        close(job->mnt_fd);
        job->mnt_fd = -1;
    }
    return NULL;
}

static int make_namespaces_in_thread(const asmrun_view *view, int *net_fd, int *mnt_fd, const char **step) {
    struct namespace_job job = {view, {0, 0}, -1, -1};
    pthread_t thread;
    *step = "namespace thread";
    /* No handler runs on it: it ends in namespaces of its own. */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    int code = pthread_create(&thread, NULL, namespace_thread, &job);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (code != 0) return code;
    pthread_join(thread, NULL);
    *net_fd = job.net_fd;
    *mnt_fd = job.mnt_fd;
    if (job.result[0] != 0) { *step = "network namespace"; return job.result[0]; }
    if (job.result[1] != 0) { *step = "read-only mount namespace"; return job.result[1]; }
    *step = "";
    return 0;
}

/* Where a user namespace is needed (not root): a helper process that shares asmrun's memory and
   descriptor table (CLONE_VM | CLONE_FILES) on a stack of its own, while the calling thread waits
   (CLONE_VFORK). It makes (or, with `shared_user_fd`, enters) the user namespace, makes the
   network (unless `no_network`) and mount namespaces, opens each into the shared table and
   exits: no copy of asmrun's page tables (a forked helper's was most of a view's cost), no
   pipe, no signal. It shares the caller's thread-local storage, which is safe while the caller
   is suspended. */
struct helper_job {
    const asmrun_view *view;
    int shared_user_fd;
    int proc_fd;
    int result[3];
    int fds[3]; /* user, network, mounts */
};

static int open_own_namespace(int proc_fd, const char *kind) {
    char path[32] = "thread-self/ns/";
    strcpy(path + 15, kind);
    return openat(proc_fd, path, O_RDONLY | O_CLOEXEC);
}

static int helper_entry(void *argument) {
    struct helper_job *job = argument;
    if (job->shared_user_fd >= 0) {
        if (setns(job->shared_user_fd, CLONE_NEWUSER) != 0) job->result[0] = errno;
    } else if (unshare(CLONE_NEWUSER) != 0 || (job->result[0] = map_user_to_itself()) != 0) {
        if (job->result[0] == 0) job->result[0] = errno;
    } else if ((job->fds[0] = open_own_namespace(job->proc_fd, "user")) < 0) {
        job->result[0] = errno;
    }
    if (job->result[0] != 0) {
        job->result[1] = job->result[2] = job->result[0];
        _exit(0);
    }
    if (!job->view->no_network) {
        if (unshare(CLONE_NEWNET) != 0 || (job->fds[1] = open_own_namespace(job->proc_fd, "net")) < 0) job->result[1] = errno;
    }
    /* Opened before the view is made: a build view's root has no /proc. */
    if (unshare(CLONE_NEWNS) != 0 || (job->fds[2] = open_own_namespace(job->proc_fd, "mnt")) < 0) {
        job->result[2] = errno;
    } else if ((job->result[2] = make_view(job->view)) != 0) {
        close(job->fds[2]);
        job->fds[2] = -1;
    }
    _exit(0);
}

/* Returns -1 when no helper could share asmrun's memory (the caller forks one instead). */
static int make_namespaces_in_helper(const asmrun_view *view, int shared_user_fd, int *user_fd, int *net_fd, int *mnt_fd,
                                     const char **step) {
    void *stack = asmrun_take_init_stack();
    if (!stack) return -1;
    struct helper_job job = {view, shared_user_fd, -1, {0, 0, 0}, {-1, -1, -1}};
    job.proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (job.proc_fd < 0) {
        asmrun_release_init_stack(stack);
        return -1;
    }
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    char *top = (char *)(((unsigned long)((char *)stack + ASMRUN_INIT_STACK_SIZE - 64)) & ~15UL);
    pid_t helper = clone(helper_entry, top, CLONE_VM | CLONE_FILES | CLONE_VFORK | SIGCHLD, &job);
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(job.proc_fd);
    if (helper < 0) {
        asmrun_release_init_stack(stack);
        return saved == EINVAL ? -1 : (*step = "namespace helper", saved);
    }
    int status;
    while (waitpid(helper, &status, 0) < 0 && errno == EINTR) {}
    asmrun_release_init_stack(stack);
    *user_fd = job.fds[0];
    *net_fd = job.fds[1];
    *mnt_fd = job.fds[2];
    if (job.result[0] != 0) { *step = shared_user_fd >= 0 ? "entering the build's user namespace" : "unprivileged user namespace"; return job.result[0]; }
    if (job.result[1] != 0) { *step = "network namespace"; return job.result[1]; }
    if (job.result[2] != 0) { *step = "read-only mount namespace"; return job.result[2]; }
    *step = "";
    return 0;
}

int asmrun_make_namespaces(const asmrun_view *view, int with_user_ns, int *user_fd, int *net_fd, int *mnt_fd,
                           const char **step) {
    *user_fd = *net_fd = *mnt_fd = -1;
    if (!with_user_ns) return make_namespaces_in_thread(view, net_fd, mnt_fd, step);
    if (view->new_root || view->shared_user_fd >= 0) {
        int code = make_namespaces_in_helper(view, view->shared_user_fd, user_fd, net_fd, mnt_fd, step);
        if (code >= 0) return code;
        if (view->shared_user_fd >= 0) { *step = "namespace helper"; return ENOTSUP; }
    }
    *step = "pipe";
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return errno;
    *step = "fork";
    pid_t parent = getpid();
    pid_t helper = fork();
    if (helper < 0) {
        int saved = errno;
        close(fds[0]);
        close(fds[1]);
        return saved;
    }
    if (helper == 0) {
        close(fds[0]);
        namespace_helper(view, with_user_ns, fds[1], parent);
    }
    close(fds[1]);
    int result[3] = {ECHILD, ECHILD, ECHILD};
    ssize_t got;
    do { got = read(fds[0], result, sizeof result); } while (got < 0 && errno == EINTR);
    close(fds[0]);
    int complete = got == (ssize_t)sizeof result;
    if (complete && with_user_ns && result[0] == 0) *user_fd = open_namespace(helper, "user");
    if (complete && result[1] == 0 && !view->no_network) *net_fd = open_namespace(helper, "net");
    if (complete && result[2] == 0) *mnt_fd = open_namespace(helper, "mnt");
    kill(helper, SIGKILL);
    int status;
    while (waitpid(helper, &status, 0) < 0 && errno == EINTR) {}
    if (!complete) { *step = "namespace helper"; return ECHILD; }
    if (with_user_ns && result[0] != 0) { *step = "unprivileged user namespace"; return result[0]; }
    if (result[1] != 0) { *step = "network namespace"; return result[1]; }
    if (result[2] != 0) { *step = "read-only mount namespace"; return result[2]; }
    *step = "";
    return 0;
}
