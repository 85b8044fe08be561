#define _GNU_SOURCE
#include "asmrun_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Numbers of newer system calls, for C libraries whose headers predate them; the same on every
   architecture (the generic syscall table). A kernel without them answers ENOSYS. */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
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

static int write_all(int fd, const char *text, size_t length) {
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

static int write_file(const char *path, const char *text, size_t length) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int result = write_all(fd, text, length);
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

struct linux_dirent64 {
    unsigned long long d_ino;
    long long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* Closes every descriptor from 3 up: close_range where the kernel has it (5.9), else a sweep of
   /proc/self/fd with raw getdents64 (no malloc: this runs in a vfork child), else up to the
   descriptor limit. */
static void close_from_3(void) {
    if (syscall(SYS_close_range, 3U, ~0U, 0) == 0) return;
    int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) {
        struct rlimit limit;
        long last = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 1048576 ? (long)limit.rlim_cur : 1048576;
        for (long fd = 3; fd < last; fd++) close((int)fd);
        return;
    }
    char buffer[2048] __attribute__((aligned(8)));
    for (;;) {
        long got = syscall(SYS_getdents64, dir, buffer, sizeof buffer);
        if (got <= 0) break;
        int closed = 0;
        for (long offset = 0; offset < got;) {
            struct linux_dirent64 *entry = (struct linux_dirent64 *)(buffer + offset);
            offset += entry->d_reclen;
            int fd = 0;
            const char *digit = entry->d_name;
            if (*digit < '0' || *digit > '9') continue;
            for (; *digit >= '0' && *digit <= '9'; digit++) fd = fd * 10 + (*digit - '0');
            if (fd >= 3 && fd != dir) {
                close(fd);
                closed = 1;
            }
        }
        /* The listing changed under the reader: start over until a pass closes nothing. */
        if (closed) lseek(dir, 0, SEEK_SET);
    }
    close(dir);
}

/* Runs in the vfork child: only async-signal-safe calls, never returns. */
__attribute__((noreturn)) static void child(const asmrun_spawn_request *r, volatile int *error,
                                            volatile asmrun_step *step) {
    struct sigaction dfl;
    struct rlimit no_core = {0, 0};
    sigset_t empty;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < _NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        sigaction(sig, &dfl, NULL);
    }
    *step = ASMRUN_STEP_PROCESS_GROUP;
    if (r->new_process_group && setpgid(0, 0) != 0) goto fail;
    *step = ASMRUN_STEP_CGROUP;
    /* A case outside its cgroup would run without its process limit: refuse to start it. */
    if (r->cgroup_procs && write_file(r->cgroup_procs, "0\n", 2) != 0) goto fail;
    /* After joining the cgroup: the mount namespace has the cgroup file system read-only.
       The user namespace comes first: it owns the other two when asmrun is not root. */
    *step = ASMRUN_STEP_USER_NAMESPACE;
    if (r->user_ns_fd >= 0 && setns(r->user_ns_fd, CLONE_NEWUSER) != 0) goto fail;
    *step = ASMRUN_STEP_NETWORK_NAMESPACE;
    if (r->net_ns_fd >= 0 && setns(r->net_ns_fd, CLONE_NEWNET) != 0) goto fail;
    *step = ASMRUN_STEP_MOUNT_NAMESPACE;
    if (r->mnt_ns_fd >= 0 && setns(r->mnt_ns_fd, CLONE_NEWNS) != 0) goto fail;
    setrlimit(RLIMIT_CORE, &no_core);
    set_limit(RLIMIT_AS, r->limits.address_space);
    set_limit(RLIMIT_FSIZE, r->limits.file_size);
    set_limit(RLIMIT_CPU, r->limits.cpu_seconds);
    set_limit(RLIMIT_NPROC, r->limits.processes);
    set_limit(RLIMIT_NOFILE, r->limits.open_files);
    *step = ASMRUN_STEP_STDIO;
    if (move_fd(r->stdin_fd, 0) || move_fd(r->stdout_fd, 1) || move_fd(r->stderr_fd, 2)) goto fail;
    *step = ASMRUN_STEP_WORKING_DIRECTORY;
    if (r->cwd && chdir(r->cwd) != 0) goto fail;
    close_from_3();
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, NULL);
    *step = ASMRUN_STEP_EXEC;
    if (r->envp)
        execve(r->path, r->argv, r->envp);
    else
        execv(r->path, r->argv);
fail:
    *error = errno ? errno : ECHILD;
    _exit(127);
}

int asmrun_spawn(const asmrun_spawn_request *request, pid_t *pid, asmrun_step *failed_step) {
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    volatile int error = 0;
    volatile asmrun_step step = ASMRUN_STEP_FORK;
    pid_t child_pid = vfork();
    if (child_pid == 0) child(request, &error, &step);
    int saved = child_pid < 0 ? errno : error;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    *failed_step = step;
    if (child_pid < 0) return saved;
    if (saved != 0) {
        int status;
        while (waitpid(child_pid, &status, 0) < 0 && errno == EINTR) {}
        return saved;
    }
    *failed_step = ASMRUN_STEP_NONE;
    *pid = child_pid;
    return 0;
}

int asmrun_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

void asmrun_ignore_sigpipe(void) {
    signal(SIGPIPE, SIG_IGN);
}

int asmrun_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

/* "ID ID 1\n" for uid_map and gid_map, without snprintf (not async-signal-safe). */
static size_t format_identity_map(char *out, unsigned id) {
    char digits[16];
    size_t count = 0;
    do {
        digits[count++] = (char)('0' + id % 10);
        id /= 10;
    } while (id > 0);
    size_t length = 0;
    for (int copy = 0; copy < 2; copy++) {
        for (size_t index = count; index > 0; index--) out[length++] = digits[index - 1];
        out[length++] = ' ';
    }
    out[length++] = '1';
    out[length++] = '\n';
    return length;
}

static int map_user_to_itself(void) {
    char map[48];
    size_t length = format_identity_map(map, (unsigned)getuid());
    if (write_file("/proc/self/uid_map", map, length) != 0) return errno;
    if (write_file("/proc/self/setgroups", "deny", 4) != 0) return errno;
    length = format_identity_map(map, (unsigned)getgid());
    if (write_file("/proc/self/gid_map", map, length) != 0) return errno;
    return 0;
}

static int make_read_only_view(const char *writable) {
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount(writable, writable, NULL, MS_BIND | MS_REC, NULL) != 0) {
        return errno;
    }
    struct mount_attr readonly;
    memset(&readonly, 0, sizeof readonly);
    readonly.attr_set = MOUNT_ATTR_RDONLY;
    struct mount_attr writable_attr;
    memset(&writable_attr, 0, sizeof writable_attr);
    writable_attr.attr_clr = MOUNT_ATTR_RDONLY;
    if (syscall(SYS_mount_setattr, -1, "/", AT_RECURSIVE, &readonly, sizeof readonly) != 0 ||
        syscall(SYS_mount_setattr, -1, writable, AT_RECURSIVE, &writable_attr, sizeof writable_attr) != 0) {
        return errno;
    }
    return 0;
}

/* Runs in a forked child of a multithreaded process: only async-signal-safe calls. Reports, then
   waits to be killed; dies with its parent if that comes first.
   result[0]: user namespace (only when asked), result[1]: network, result[2]: mounts. */
__attribute__((noreturn)) static void namespace_helper(const char *writable, int with_user_ns, int report,
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
    if (unshare(CLONE_NEWNET) != 0) result[1] = errno;
    result[2] = unshare(CLONE_NEWNS) != 0 ? errno : make_read_only_view(writable);
done:
    if (write(report, result, sizeof result) != (ssize_t)sizeof result) _exit(1);
    close(report);
    for (;;) pause();
}

static int open_namespace(pid_t helper, const char *kind) {
    char path[64] = "/proc/";
    size_t length = 6;
    char digits[16];
    size_t count = 0;
    unsigned value = (unsigned)helper;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    while (count > 0) path[length++] = digits[--count];
    memcpy(path + length, "/ns/", 4);
    length += 4;
    size_t kind_length = strlen(kind);
    if (length + kind_length >= sizeof path) return -1;
    memcpy(path + length, kind, kind_length + 1);
    return open(path, O_RDONLY | O_CLOEXEC);
}

int asmrun_make_namespaces(const char *writable, int with_user_ns, int *user_fd, int *net_fd, int *mnt_fd,
                           const char **step) {
    *user_fd = *net_fd = *mnt_fd = -1;
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
        namespace_helper(writable, with_user_ns, fds[1], parent);
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

int asmrun_set_subreaper(int enabled) {
    return prctl(PR_SET_CHILD_SUBREAPER, enabled ? 1 : 0, 0, 0, 0);
}

static volatile int interrupt_fd = -1;
static struct sigaction saved_interrupt, saved_terminate;

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
    if (sigaction(SIGINT, &action, &saved_interrupt) != 0 || sigaction(SIGTERM, &action, &saved_terminate) != 0)
        return -1;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0 ? 0 : -1;
}

void asmrun_release_interrupts(void) {
    sigaction(SIGINT, &saved_interrupt, NULL);
    sigaction(SIGTERM, &saved_terminate, NULL);
    interrupt_fd = -1;
}

const char *asmrun_errno_name(int number) { return strerrorname_np(number); }
