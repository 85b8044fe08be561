#define _GNU_SOURCE
#include "asmrun_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void set_limit(int resource, long long value) {
    if (value < 0) return;
    struct rlimit limit = {(rlim_t)value, (rlim_t)value};
    struct rlimit current;
    if (getrlimit(resource, &current) == 0 && current.rlim_max != RLIM_INFINITY &&
        limit.rlim_max > current.rlim_max) {
        limit.rlim_cur = limit.rlim_max = current.rlim_max;
    }
    setrlimit(resource, &limit);
}

static int move_fd(int fd, int target) {
    if (fd < 0) return 0;
    if (fd == target) {
        int flags = fcntl(fd, F_GETFD);
        return flags < 0 ? -1 : fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
    }
    return dup2(fd, target) < 0 ? -1 : 0;
}

static int write_all(int fd, const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(fd, text, length);
        if (written < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        text += written;
        length -= (size_t)written;
    }
    return 0;
}

/* Runs in the vfork child: only async-signal-safe calls, never returns. */
static void child(const asmrun_spawn_request *r, volatile int *error) {
    struct sigaction dfl;
    struct rlimit no_core = {0, 0};
    sigset_t empty;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < _NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        sigaction(sig, &dfl, NULL);
    }
    if (r->new_process_group && setpgid(0, 0) != 0) goto fail;
    if (r->cgroup_procs) {
        int fd = open(r->cgroup_procs, O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            write_all(fd, "0\n");
            close(fd);
        }
    }
    /* After joining the cgroup: the mount namespace has the cgroup file system read-only.
       The user namespace comes first: it owns the other two when asmrun is not root. */
    if (r->user_ns_fd >= 0 && setns(r->user_ns_fd, CLONE_NEWUSER) != 0) goto fail;
    if (r->net_ns_fd >= 0 && setns(r->net_ns_fd, CLONE_NEWNET) != 0) goto fail;
    if (r->mnt_ns_fd >= 0 && setns(r->mnt_ns_fd, CLONE_NEWNS) != 0) goto fail;
    setrlimit(RLIMIT_CORE, &no_core);
    set_limit(RLIMIT_AS, r->limits.address_space);
    set_limit(RLIMIT_FSIZE, r->limits.file_size);
    set_limit(RLIMIT_CPU, r->limits.cpu_seconds);
    set_limit(RLIMIT_NPROC, r->limits.processes);
    set_limit(RLIMIT_NOFILE, r->limits.open_files);
    if (move_fd(r->stdin_fd, 0) || move_fd(r->stdout_fd, 1) || move_fd(r->stderr_fd, 2)) goto fail;
    if (r->cwd && chdir(r->cwd) != 0) goto fail;
#ifdef SYS_close_range
    syscall(SYS_close_range, 3U, ~0U, 0);
#endif
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, NULL);
    if (r->envp)
        execve(r->path, r->argv, r->envp);
    else
        execv(r->path, r->argv);
fail:
    *error = errno ? errno : ECHILD;
    _exit(127);
}

int asmrun_spawn(const asmrun_spawn_request *request, pid_t *pid) {
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    volatile int error = 0;
    pid_t child_pid = vfork();
    if (child_pid == 0) child(request, &error);
    int saved = child_pid < 0 ? errno : error;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (child_pid < 0) return saved;
    if (saved != 0) {
        int status;
        while (waitpid(child_pid, &status, 0) < 0 && errno == EINTR) {}
        return saved;
    }
    *pid = child_pid;
    return 0;
}

int asmrun_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

void asmrun_ignore_sigpipe(void) {
    signal(SIGPIPE, SIG_IGN);
}

int asmrun_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
struct mount_attr {
    unsigned long long attr_set;
    unsigned long long attr_clr;
    unsigned long long propagation;
    unsigned long long userns_fd;
};
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int result = write_all(fd, text);
    close(fd);
    return result;
}

/* Runs in a forked helper: only async-signal-safe calls, then reports and waits to be killed.
   result[0]: user namespace (only when asked), result[1]: network, result[2]: mounts. */
static void namespace_helper(const char *writable, int with_user_ns, int report) {
    int result[3] = {0, 0, 0};
    if (with_user_ns) {
        char map[64];
        uid_t uid = getuid();
        gid_t gid = getgid();
        if (unshare(CLONE_NEWUSER) != 0) {
            result[0] = errno;
        } else {
            /* Map the user to itself, so files keep their owners inside. */
            snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
            if (write_file("/proc/self/uid_map", map) != 0) result[0] = errno;
            if (result[0] == 0 && write_file("/proc/self/setgroups", "deny") != 0) result[0] = errno;
            snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
            if (result[0] == 0 && write_file("/proc/self/gid_map", map) != 0) result[0] = errno;
        }
        if (result[0] != 0) {
            result[1] = result[2] = result[0];
            goto done;
        }
    }
    if (unshare(CLONE_NEWNET) != 0) result[1] = errno;
    if (unshare(CLONE_NEWNS) != 0) {
        result[2] = errno;
    } else if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
               mount(writable, writable, NULL, MS_BIND | MS_REC, NULL) != 0) {
        result[2] = errno;
    } else {
        struct mount_attr readonly;
        memset(&readonly, 0, sizeof readonly);
        readonly.attr_set = MOUNT_ATTR_RDONLY;
        struct mount_attr writable_attr;
        memset(&writable_attr, 0, sizeof writable_attr);
        writable_attr.attr_clr = MOUNT_ATTR_RDONLY;
        if (syscall(SYS_mount_setattr, -1, "/", AT_RECURSIVE, &readonly, sizeof readonly) != 0 ||
            syscall(SYS_mount_setattr, -1, writable, AT_RECURSIVE, &writable_attr, sizeof writable_attr) != 0) {
            result[2] = errno;
        }
    }
done:
    if (write(report, result, sizeof result) != (ssize_t)sizeof result) _exit(1);
    close(report);
    for (;;) pause();
}

static int open_namespace(pid_t helper, const char *kind) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/ns/%s", (int)helper, kind);
    return open(path, O_RDONLY | O_CLOEXEC);
}

int asmrun_make_namespaces(const char *writable, int with_user_ns, int *user_fd, int *net_fd, int *mnt_fd,
                           const char **step) {
    *user_fd = *net_fd = *mnt_fd = -1;
    *step = "pipe";
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return errno;
    *step = "fork";
    pid_t helper = fork();
    if (helper < 0) {
        int saved = errno;
        close(fds[0]);
        close(fds[1]);
        return saved;
    }
    if (helper == 0) {
        close(fds[0]);
        namespace_helper(writable, with_user_ns, fds[1]);
    }
    close(fds[1]);
    int result[3] = {ECHILD, ECHILD, ECHILD};
    ssize_t got;
    do { got = read(fds[0], result, sizeof result); } while (got < 0 && errno == EINTR);
    close(fds[0]);
    int complete = got == (ssize_t)sizeof result;
    if (complete && with_user_ns && result[0] == 0) *user_fd = open_namespace(helper, "user");
    if (complete && result[1] == 0) *net_fd = open_namespace(helper, "net");
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

int asmrun_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

static volatile int interrupt_fd = -1;

static void on_interrupt(int sig) {
    int saved = errno;
    unsigned char byte = (unsigned char)sig;
    if (interrupt_fd >= 0) (void)write(interrupt_fd, &byte, 1);
    errno = saved;
}

int asmrun_catch_interrupts(int notify_fd) {
    interrupt_fd = notify_fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &action, NULL) != 0 || sigaction(SIGTERM, &action, NULL) != 0) return -1;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0 ? 0 : -1;
}

void asmrun_release_interrupts(void) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    interrupt_fd = -1;
}
