#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* `value` for both limits of `resource`, no higher than the hard limit in force: `known`'s, or
   read here when NULL. */
static void set_limit(int resource, long long value, const struct rlimit *known) {
    if (value < 0) return;
    struct rlimit limit = {(rlim_t)value, (rlim_t)value};
    struct rlimit current;
    if (known) current = *known;
    int read = known != NULL || getrlimit(resource, &current) == 0;
    if (read && current.rlim_max != RLIM_INFINITY && limit.rlim_max > current.rlim_max) {
        limit.rlim_cur = limit.rlim_max = current.rlim_max;
    }
    setrlimit(resource, &limit);
}

const int asmrun_limited_resources[ASMRUN_LIMITED_RESOURCES] = {RLIMIT_AS, RLIMIT_FSIZE, RLIMIT_CPU, RLIMIT_NPROC,
                                                                RLIMIT_NOFILE, RLIMIT_STACK};

static struct rlimit process_limits[ASMRUN_LIMITED_RESOURCES];
static int process_limits_read;
static pthread_once_t process_limits_once = PTHREAD_ONCE_INIT;

static void read_process_limits(void) {
    for (int index = 0; index < ASMRUN_LIMITED_RESOURCES; index++)
        if (getrlimit(asmrun_limited_resources[index], &process_limits[index]) != 0) return;
    process_limits_read = 1;
}

const struct rlimit *asmrun_process_limits(void) {
    pthread_once(&process_limits_once, read_process_limits);
    return process_limits_read ? process_limits : NULL;
}

void asmrun_apply_limits(const asmrun_limits *limits, const struct rlimit *known) {
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    long long values[ASMRUN_LIMITED_RESOURCES] = {limits->address_space, limits->file_size, limits->cpu_seconds,
                                                  limits->processes, limits->open_files, limits->stack};
    for (int index = 0; index < ASMRUN_LIMITED_RESOURCES; index++)
        set_limit(asmrun_limited_resources[index], values[index], known ? &known[index] : NULL);
}

/* asmrun's controlling terminal (/dev/tty), opened once by the parent for its children to give
   up; -1 when it has none. Not setsid: a session of its own per warden or per case is also a
   scheduling group of its own where the kernel groups sessions (autogroup, on by default), and
   cases then waited for the CPU behind asmrun: 62 warm cases took 13 ms longer. TIOCNOTTY from a
   process that leads no session drops the terminal for that process alone. */
static int terminal = -1;
static pthread_once_t terminal_once = PTHREAD_ONCE_INIT;

static void open_terminal(void) {
    terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
}

int asmrun_drop_terminal(const asmrun_spawn_request *r) {
    if (!r->detach_terminal || terminal < 0) return 0;
    if (ioctl(terminal, TIOCNOTTY) == 0) return 0;
    /* ENOTTY: no longer asmrun's terminal; EIO: hung up, which took it from the session. */
    return errno == ENOTTY || errno == EIO ? 0 : -1;
}

int asmrun_move_fd(int fd, int target) {
    if (fd < 0) return 0;
    if (fd == target) {
        int flags = fcntl(fd, F_GETFD);
        return flags < 0 ? -1 : fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
    }
    return dup2(fd, target) < 0 ? -1 : 0;
}

int asmrun_write_all(int fd, const void *bytes, size_t length) {
    const char *text = bytes;
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

int asmrun_write_file(const char *path, const char *text, size_t length) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int result = asmrun_write_all(fd, text, length);
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

/* Closes every descriptor from `first` up: close_range where the kernel has it (5.9), else a
   sweep of /proc/self/fd with raw getdents64 (no malloc: this runs in a vfork child), else up to
   the descriptor limit. */
void asmrun_close_from(int first) {
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0) return;
    int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) {
        struct rlimit limit;
        long last = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 1048576 ? (long)limit.rlim_cur : 1048576;
        for (long fd = first; fd < last; fd++) close((int)fd);
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
            if (fd >= first && fd != dir) {
                close(fd);
                closed = 1;
            }
        }
        /* The listing changed under the reader: start over until a pass closes nothing. */
        if (closed) lseek(dir, 0, SEEK_SET);
    }
    close(dir);
}

/* The kernel's struct sigaction (handler, flags, restorer, mask, on x86_64 and arm64). Through
   it, not glibc's sigaction, which refuses the two signals glibc keeps for itself (32 and 33):
   a program must not start with those ignored either. */
struct kernel_sigaction {
    unsigned long handler, flags, restorer, mask;
};

static long kernel_sigaction(int sig, const struct kernel_sigaction *action, struct kernel_sigaction *old) {
    return asmrun_raw_syscall(SYS_rt_sigaction, sig, (long)action, (long)old, sizeof(unsigned long));
}

/* The signals a child sets back to their default before it unblocks signals (so that no handler
   of asmrun's runs in a child that shares its memory, and the program ignores nothing): those
   caught or ignored when asmrun first spawns (the Swift runtime's crash handlers, what the
   invoking shell ignored) and the four asmrun changes later (SIGINT, SIGQUIT, SIGTERM, SIGPIPE;
   a disposition asmrun changes after its first spawn belongs in this list). Setting all 62 took
   17.5 us per spawn; the few caught or ignored take 1. Found by the parent, never in a child. */
static unsigned long long signals_to_reset;
static volatile int signals_to_reset_found;
static pthread_once_t finding_signals_to_reset = PTHREAD_ONCE_INIT;

static void find_signals_to_reset(void) {
    unsigned long long found = 0;
    for (int sig = 1; sig <= 64; sig++) {
        struct kernel_sigaction current = {0, 0, 0, 0};
        if (sig == SIGKILL || sig == SIGSTOP || kernel_sigaction(sig, NULL, &current) != 0) continue;
        if (current.handler != (unsigned long)SIG_DFL) found |= 1ULL << (sig - 1);
    }
    const int changed_later[] = {SIGINT, SIGQUIT, SIGTERM, SIGPIPE};
    for (size_t index = 0; index < sizeof changed_later / sizeof changed_later[0]; index++)
        found |= 1ULL << (changed_later[index] - 1);
    signals_to_reset = found;
    signals_to_reset_found = 1;
}

void asmrun_reset_signals(void) {
    const struct kernel_sigaction dfl = {(unsigned long)SIG_DFL, 0, 0, 0};
    for (int sig = 1; sig <= 64; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        if (signals_to_reset_found && !(signals_to_reset & (1ULL << (sig - 1)))) continue;
        kernel_sigaction(sig, &dfl, NULL);
    }
}

/* Enters the namespaces the request names. The user namespace comes first: it owns the other
   two when asmrun is not root. */
int asmrun_enter_namespaces(const asmrun_spawn_request *r, volatile asmrun_step *step) {
    *step = ASMRUN_STEP_USER_NAMESPACE;
    if (r->user_ns_fd >= 0 && setns(r->user_ns_fd, CLONE_NEWUSER) != 0) return -1;
    *step = ASMRUN_STEP_NETWORK_NAMESPACE;
    if (r->net_ns_fd >= 0 && setns(r->net_ns_fd, CLONE_NEWNET) != 0) return -1;
    *step = ASMRUN_STEP_MOUNT_NAMESPACE;
    if (r->mnt_ns_fd >= 0 && setns(r->mnt_ns_fd, CLONE_NEWNS) != 0) return -1;
    return 0;
}

/* The program's own child, after the namespaces: limits, stdio, folder, confinement, exec.
   Runs in a vfork child; only async-signal-safe calls; never returns. */
__attribute__((noreturn)) void asmrun_exec_program(const asmrun_spawn_request *r, volatile int *error,
                                                   volatile asmrun_step *step) {
    sigset_t empty;
    asmrun_apply_limits(&r->limits, r->known_limits);
    *step = ASMRUN_STEP_STDIO;
    if (asmrun_move_fd(r->stdin_fd, 0) || asmrun_move_fd(r->stdout_fd, 1) || asmrun_move_fd(r->stderr_fd, 2)) goto fail;
    *step = ASMRUN_STEP_WORKING_DIRECTORY;
    if (r->cwd && chdir(r->cwd) != 0) goto fail;
    asmrun_close_from(3);
    asmrun_step confined;
    int code = asmrun_confine(r, &confined);
    if (code != 0) {
        *step = confined;
        errno = code;
        goto fail;
    }
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

/* What the program of a new PID namespace starts with (below). */
struct pid_namespace_start {
    const asmrun_spawn_request *request;
    volatile int *error;
    volatile asmrun_step *step;
};

/* The program as PID 1 of its namespace, leading its own process group (asmrun signals the
   group by the program's pid). */
static int pid_namespace_entry(void *argument) {
    const struct pid_namespace_start *start = argument;
    if (start->request->new_process_group && setpgid(0, 0) != 0) {
        *start->step = ASMRUN_STEP_PROCESS_GROUP;
        *start->error = errno ? errno : ECHILD;
        _exit(127);
    }
    asmrun_exec_program(start->request, start->error, start->step);
}

/* The vfork child of a program with a PID namespace of its own: it makes the namespace (inside
   the user namespace it entered, where it may) and clones the program into it as asmrun's child
   (CLONE_PARENT), in its memory, on a stack in this frame, and waits until it exec'd or failed
   (CLONE_VFORK); stores its pid and exits. When the program ends, the kernel kills whatever it
   left in the namespace before asmrun learns that it ended. */
__attribute__((noreturn)) static void start_in_pid_namespace(const asmrun_spawn_request *r, volatile int *error,
                                                             volatile asmrun_step *step, volatile pid_t *program) {
    char stack[64 * 1024] __attribute__((aligned(16)));
    struct pid_namespace_start start = {r, error, step};
    *step = ASMRUN_STEP_PID_NAMESPACE;
    if (unshare(CLONE_NEWPID) != 0) goto fail;
    long pid = clone(pid_namespace_entry, stack + sizeof stack - 64, CLONE_VM | CLONE_VFORK | CLONE_PARENT | SIGCHLD,
                     &start);
    if (pid < 0) goto fail;
    *program = (pid_t)pid;
    _exit(*error ? 127 : 0);
fail:
    *error = errno ? errno : ECHILD;
    _exit(127);
}

/* Runs in the vfork child (or, `in_pid_namespace`, as PID 1 of the namespace asmrun cloned it
   into): only async-signal-safe calls, never returns. */
__attribute__((noreturn)) static void child(const asmrun_spawn_request *r, volatile int *error,
                                            volatile asmrun_step *step, volatile pid_t *program, int in_pid_namespace) {
    asmrun_reset_signals();
    *step = ASMRUN_STEP_PROCESS_GROUP;
    if (asmrun_drop_terminal(r) != 0) goto fail;
    int starts_program = r->new_pid_namespace && !in_pid_namespace;
    if (r->new_process_group && !starts_program && setpgid(0, 0) != 0) goto fail;
    *step = ASMRUN_STEP_CGROUP;
    /* A case outside its cgroup would run without its process limit: refuse to start it.
       Joined before the mount namespace, which has the cgroup file system read-only. */
    if (r->cgroup_procs && asmrun_write_file(r->cgroup_procs, "0\n", 2) != 0) goto fail;
    if (asmrun_enter_namespaces(r, step) != 0) goto fail;
    if (starts_program) start_in_pid_namespace(r, error, step, program);
    asmrun_exec_program(r, error, step);
fail:
    *error = errno ? errno : ECHILD;
    _exit(127);
}

static int child_in_pid_namespace(void *argument) {
    const struct pid_namespace_start *start = argument;
    child(start->request, start->error, start->step, NULL, 1);
}

/* Where no user namespace has to be entered first (asmrun is root), the program is cloned
   straight into its PID namespace, in asmrun's memory on a stack of this frame, while the
   calling thread waits (CLONE_VFORK): no starter process. Returns the pid, or -1. */
static pid_t clone_into_pid_namespace(const asmrun_spawn_request *r, volatile int *error, volatile asmrun_step *step) {
    char stack[64 * 1024] __attribute__((aligned(16)));
    struct pid_namespace_start start = {r, error, step};
    *step = ASMRUN_STEP_PID_NAMESPACE;
    return clone(child_in_pid_namespace, stack + sizeof stack - 64, CLONE_VM | CLONE_VFORK | CLONE_NEWPID | SIGCHLD,
                 &start);
}

/* Where an init that shares asmrun's memory finds its request: at the top of its own stack,
   which nothing else writes. */
struct init_start {
    const asmrun_spawn_request *request;
    int cgroup_fd;
    int enters_namespaces;
};

static int init_entry(void *start) {
    const struct init_start *s = start;
    asmrun_case_init(s->request, s->cgroup_fd, s->enters_namespaces);
}

/* Puts the init's start at the top of `stack`; returns the stack pointer to give clone: 64
   bytes below it, 16-byte aligned, as both x86_64 and aarch64 want. */
static char *place_start(void *stack, const asmrun_spawn_request *r, int cgroup_fd, int enters_namespaces,
                         struct init_start **placed) {
    struct init_start *start = (struct init_start *)((char *)stack + ASMRUN_INIT_STACK_SIZE) - 1;
    start->request = r;
    start->cgroup_fd = cgroup_fd;
    start->enters_namespaces = enters_namespaces;
    *placed = start;
    return (char *)((unsigned long)((char *)start - 64) & ~15UL);
}

/* Clones the init into new namespaces, as a child of asmrun (CLONE_PARENT): in asmrun's memory
   on `stack` when there is one (copying asmrun's memory and then faulting in every page asmrun
   writes while the case runs was half of a case's cost), else, or where the kernel or an
   emulator refuses that, with a copy. Returns the pid, or -1; `*shared` says which it was. */
static long clone_init(const asmrun_spawn_request *r, int cgroup_fd, void *stack, volatile int *shared) {
    long flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_PARENT | SIGCHLD;
    if (stack) {
        struct init_start *start;
        char *top = place_start(stack, r, cgroup_fd, 0, &start);
        long pid = clone(init_entry, top, (int)(flags | CLONE_VM), start);
        if (pid >= 0) {
            *shared = 1;
            return pid;
        }
        if (errno != EINVAL) return -1;
    }
    long pid = syscall(SYS_clone, flags, 0L, 0L, 0L, 0L);
    if (pid == 0) asmrun_case_init(r, cgroup_fd, 0);
    return pid;
}

/* Where no user namespace has to be entered first (asmrun is root), the calling thread clones
   the init itself, in asmrun's memory, and the init joins its cgroup and enters the run's
   network and mount namespaces on its own: no starter process to make, wait for and reap.
   Returns the pid, or -1 (the caller then takes the starter's way). */
static long clone_init_directly(const asmrun_spawn_request *r, void *stack) {
    struct init_start *start;
    char *top = place_start(stack, r, -1, 1, &start);
    return clone(init_entry, top, CLONE_VM | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | SIGCHLD, start);
}

/* The vfork child of a case with namespaces of its own: opens its cgroup (the init joins it,
   so this short-lived process never counts against the case's pids.max), enters the run's
   namespaces and clones the init. Stores the init's pid; never returns. */
__attribute__((noreturn)) static void case_starter(const asmrun_spawn_request *r, volatile int *error,
                                                   volatile asmrun_step *step, volatile pid_t *init, void *stack,
                                                   volatile int *shared) {
    int cgroup_fd = -1;
    asmrun_reset_signals();
    *step = ASMRUN_STEP_CGROUP;
    if (r->cgroup_procs && (cgroup_fd = open(r->cgroup_procs, O_WRONLY | O_CLOEXEC)) < 0) goto fail;
    if (asmrun_enter_namespaces(r, step) != 0) goto fail;
    *step = ASMRUN_STEP_CASE_NAMESPACES;
    long pid = clone_init(r, cgroup_fd, stack, shared);
    if (pid < 0) goto fail;
    *init = (pid_t)pid;
    _exit(0);
fail:
    *error = errno ? errno : ECHILD;
    _exit(127);
}

/* After the starter exited: the init's first report, [step, errno, /proc mounted], once the
   program was exec'd or failed to be. Returns 0, or the errno of the step that failed. */
static int await_case_start(const asmrun_spawn_request *request, pid_t init, asmrun_step *failed_step) {
    int started[3] = {ASMRUN_STEP_INIT, ECHILD, 0};
    ssize_t got;
    do { got = read(request->status_read_fd, started, sizeof started); } while (got < 0 && errno == EINTR);
    if (got != (ssize_t)sizeof started) {
        started[0] = ASMRUN_STEP_INIT;
        started[1] = ECHILD;
    }
    if (request->proc_mounted) *request->proc_mounted = started[2];
    if (started[1] == 0) return 0;
    *failed_step = (asmrun_step)started[0];
    int status;
    while (waitpid(init, &status, 0) < 0 && errno == EINTR) {}
    return started[1];
}

int asmrun_spawn(const asmrun_spawn_request *request, pid_t *pid, void **init_stack, asmrun_step *failed_step) {
    *init_stack = NULL;
    /* A case's mount namespace is a copy of the run's private view: a copy of asmrun's own
       could share mount events with the host, and the case's mounts would show there. */
    if ((request->case_namespaces && request->mnt_ns_fd < 0) || (request->case_namespaces && request->new_pid_namespace)) {
        close(request->status_write_fd);
        *failed_step = ASMRUN_STEP_CASE_NAMESPACES;
        return EINVAL;
    }
    sigset_t all, previous;
    sigfillset(&all);
    pthread_once(&finding_signals_to_reset, find_signals_to_reset);
    if (request->detach_terminal) pthread_once(&terminal_once, open_terminal);
    void *stack = request->case_namespaces ? asmrun_take_init_stack() : NULL;
    volatile int shared = 0;
    volatile int error = 0;
    volatile asmrun_step step = ASMRUN_STEP_FORK;
    volatile pid_t init = 0;
    volatile pid_t program = 0;
    int saved = 0;
    /* Blocked until the init reported: no handler runs on this thread while it may share it. */
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    long direct = stack && request->user_ns_fd < 0 ? clone_init_directly(request, stack) : -1;
    pid_t child_pid = (pid_t)direct;
    if (direct > 0) {
        init = (pid_t)direct;
        shared = 1;
    } else if (request->new_pid_namespace && request->user_ns_fd < 0) {
        child_pid = clone_into_pid_namespace(request, &error, &step);
        saved = child_pid < 0 ? errno : error;
        *failed_step = step;
        if (child_pid >= 0 && saved != 0) {
            int status;
            while (waitpid(child_pid, &status, 0) < 0 && errno == EINTR) {}
        }
    } else {
        child_pid = vfork();
        if (child_pid == 0) {
            if (request->case_namespaces) case_starter(request, &error, &step, &init, stack, &shared);
            child(request, &error, &step, &program, 0);
        }
        saved = child_pid < 0 ? errno : error;
        *failed_step = step;
        if (child_pid >= 0 && (saved != 0 || request->case_namespaces || request->new_pid_namespace)) {
            int status;
            while (waitpid(child_pid, &status, 0) < 0 && errno == EINTR) {}
        }
        /* The program of a PID namespace of its own is the starter's child, not the starter. */
        if (child_pid >= 0 && request->new_pid_namespace) {
            int status;
            if (saved != 0 && program > 0) while (waitpid(program, &status, 0) < 0 && errno == EINTR) {}
            if (saved == 0) child_pid = program;
        }
    }
    /* Only the init writes reports: without this end, a read sees the init's end as EOF. */
    if (request->case_namespaces) close(request->status_write_fd);
    if (child_pid >= 0 && saved == 0 && request->case_namespaces) {
        saved = await_case_start(request, init, failed_step);
        child_pid = init;
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    /* A failed start reaped the init (or there was none): its stack is free again. */
    if (saved != 0 || !shared) {
        asmrun_release_init_stack(stack);
        stack = NULL;
    }
    *init_stack = stack;
    if (child_pid < 0) return saved;
    if (saved != 0) return saved;
    *failed_step = ASMRUN_STEP_NONE;
    *pid = child_pid;
    return 0;
}

int asmrun_memfd(const char *name) {
    return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC);
}

int asmrun_input_file(const void *bytes, size_t count) {
    int fd = (int)syscall(SYS_memfd_create, "asmrun-stdin", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    for (size_t done = 0; done < count;) {
        ssize_t written = write(fd, (const char *)bytes + done, count - done);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) goto fail;
        done += (size_t)written;
    }
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK) != 0) goto fail;
    if (lseek(fd, 0, SEEK_SET) != 0) goto fail;
    return fd;
fail:;
    int saved = errno ? errno : EIO;
    close(fd);
    errno = saved;
    return -1;
}

int asmrun_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int asmrun_affinity_count(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    return CPU_COUNT(&set);
}

int asmrun_pin_thread(int nth) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return errno;
    for (int cpu = 0, seen = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set) || seen++ != nth) continue;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        return sched_setaffinity(0, sizeof one, &one) == 0 ? 0 : errno;
    }
    return EINVAL;
}

void asmrun_ignore_sigpipe(void) {
    signal(SIGPIPE, SIG_IGN);
}

int asmrun_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int asmrun_pipe_nonblocking(int fds[2]) {
    return pipe2(fds, O_CLOEXEC | O_NONBLOCK);
}

int asmrun_readable_bytes(int fd) {
    int count = 0;
    return ioctl(fd, FIONREAD, &count) == 0 ? count : -1;
}

int asmrun_set_subreaper(int enabled) {
    return prctl(PR_SET_CHILD_SUBREAPER, enabled ? 1 : 0, 0, 0, 0);
}

int asmrun_set_dumpable(int dumpable) {
    int before = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
    if (prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0, 0, 0) != 0) return -1;
    return before;
}

static volatile int interrupt_fd = -1;
static struct sigaction saved_interrupt, saved_terminate, saved_quit;

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
    /* Ctrl-\ (SIGQUIT) too: left to its default, or to the Swift runtime's backtrace, it
       would dump a core or a stack trace mid-run rather than end the run as an interrupt. */
    if (sigaction(SIGINT, &action, &saved_interrupt) != 0 || sigaction(SIGTERM, &action, &saved_terminate) != 0
        || sigaction(SIGQUIT, &action, &saved_quit) != 0)
        return -1;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGQUIT);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0 ? 0 : -1;
}

void asmrun_release_interrupts(void) {
    sigaction(SIGINT, &saved_interrupt, NULL);
    sigaction(SIGTERM, &saved_terminate, NULL);
    sigaction(SIGQUIT, &saved_quit, NULL);
    interrupt_fd = -1;
}

const char *asmrun_errno_name(int number) { return strerrorname_np(number); }
