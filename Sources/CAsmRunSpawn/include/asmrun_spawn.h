#ifndef ASMRUN_SPAWN_H
#define ASMRUN_SPAWN_H

#include <sys/types.h>

/// Resource limits applied in the child before exec; a negative value leaves a limit unchanged.
typedef struct {
    long long address_space;  // RLIMIT_AS, bytes
    long long file_size;      // RLIMIT_FSIZE, bytes
    long long cpu_seconds;    // RLIMIT_CPU
    long long processes;      // RLIMIT_NPROC
    long long open_files;     // RLIMIT_NOFILE
} asmrun_limits;

/// Everything the child needs; file descriptors of -1 are inherited from the parent.
typedef struct {
    const char *path;            // executable path (already resolved, no PATH search)
    char *const *argv;           // NULL-terminated
    char *const *envp;           // NULL-terminated, or NULL to inherit
    const char *cwd;             // NULL to inherit
    int stdin_fd;
    int stdout_fd;
    int stderr_fd;
    int new_process_group;       // 1: setpgid(0, 0) in the child
    const char *cgroup_procs;    // a cgroup.procs file to join before exec, or NULL
    int user_ns_fd;              // a user namespace to enter first (setns), or -1
    int net_ns_fd;               // a network namespace to enter (setns), or -1
    int mnt_ns_fd;               // a mount namespace to enter (setns), or -1
    asmrun_limits limits;
} asmrun_spawn_request;

/// The step of a spawn that failed, for the error message.
typedef enum {
    ASMRUN_STEP_NONE = 0,
    ASMRUN_STEP_FORK,
    ASMRUN_STEP_PROCESS_GROUP,
    ASMRUN_STEP_CGROUP,
    ASMRUN_STEP_USER_NAMESPACE,
    ASMRUN_STEP_NETWORK_NAMESPACE,
    ASMRUN_STEP_MOUNT_NAMESPACE,
    ASMRUN_STEP_STDIO,
    ASMRUN_STEP_WORKING_DIRECTORY,
    ASMRUN_STEP_EXEC,
} asmrun_step;

/// Spawns a child the way glibc's posix_spawn does (vfork with all signals blocked, default
/// dispositions and an empty mask in the child), plus core size 0, rlimits and a process group.
/// Returns 0 and stores the pid, or returns the errno of the failed step and stores the step.
int asmrun_spawn(const asmrun_spawn_request *request, pid_t *pid, asmrun_step *failed_step);

/// pidfd_open(2); -1 with errno set where the kernel lacks it (before Linux 5.3).
int asmrun_pidfd_open(pid_t pid);

/// Creates the namespaces children run in: a network namespace with no interfaces up, and a
/// mount namespace where everything is read-only except `writable` (a folder). As root they are
/// created directly; otherwise (`with_user_ns`) inside an unprivileged user namespace that maps
/// the user to itself, where the kernel allows one. Stores close-on-exec descriptors; returns 0,
/// or the errno of the first failing step (`*step` names it); a namespace that failed is -1.
int asmrun_make_namespaces(const char *writable, int with_user_ns, int *user_fd, int *net_fd, int *mnt_fd,
                           const char **step);

/// Catches SIGINT and SIGTERM with a handler that writes the signal number as one byte to
/// `notify_fd` (async-signal-safe), and unblocks both in the calling thread; the previous
/// actions are saved. Returns 0 or -1.
int asmrun_catch_interrupts(int notify_fd);

/// Restores the actions SIGINT and SIGTERM had before `asmrun_catch_interrupts`.
void asmrun_release_interrupts(void);

/// Sets or clears this process as the reaper of orphaned descendants (PR_SET_CHILD_SUBREAPER).
int asmrun_set_subreaper(int enabled);

/// pipe2(fds, O_CLOEXEC); returns 0 or -1 with errno set.
int asmrun_pipe_cloexec(int fds[2]);

/// Makes writes to a closed pipe return EPIPE in asmrun instead of killing it.
void asmrun_ignore_sigpipe(void);

/* The symbolic name of an errno value (ENOENT), or NULL when it has none. */
const char *asmrun_errno_name(int number);

#endif
