#define _GNU_SOURCE
#include "asmrun_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <pthread.h>
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
