#ifndef ASMRUN_SPAWN_H
#define ASMRUN_SPAWN_H

#include <sys/resource.h>
#include <sys/types.h>

/// Where a case with namespaces of its own sees its folder (see Confinement.caseView): a
/// folder the run's view makes on its fresh /tmp.
#define ASMRUN_CASE_VIEW "/tmp/asmrun-case"

/// Resource limits applied in the child before exec; a negative value leaves a limit unchanged.
typedef struct {
    long long address_space;  // RLIMIT_AS, bytes
    long long file_size;      // RLIMIT_FSIZE, bytes
    long long cpu_seconds;    // RLIMIT_CPU
    long long processes;      // RLIMIT_NPROC
    long long open_files;     // RLIMIT_NOFILE
    long long stack;          // RLIMIT_STACK, bytes
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
    int detach_terminal;         // 1: without asmrun's controlling terminal (TIOCNOTTY), in asmrun's session
    const char *cgroup_procs;    // a cgroup file (cgroup.procs, or tasks on v1) the single-threaded child writes 0 to before exec, or NULL
    int user_ns_fd;              // a user namespace to enter first (setns), or -1
    int net_ns_fd;               // a network namespace to enter (setns), or -1
    int mnt_ns_fd;               // a mount namespace to enter (setns), or -1
    /* The program is PID 1 of a new PID namespace (made once the namespaces above are entered,
       so inside the user namespace): when it ends, the kernel kills every process it left
       (a daemon a build's tool started). Not with case_namespaces. */
    int new_pid_namespace;
    asmrun_limits limits;
    /* A case of its own: new PID, IPC, UTS and mount namespaces (copied from mnt_ns_fd's), with
       an init as PID 1 that starts the program, reports on status_write_fd and ends every
       process left when the program ends. The pid returned is the init's. */
    int case_namespaces;
    const char *case_folder;     // with case_namespaces: the one folder bind-mounted writable
    /* With case_namespaces: when above 0, case_folder is instead a fresh tmpfs of this many
       bytes and case_folder_inodes files and folders, owned by the case's user (a warden's:
       asmrun reaches it through /proc/PID/root). */
    long long case_folder_bytes;
    long long case_folder_inodes;
    /* With case_namespaces: where the case sees case_folder, ASMRUN_CASE_VIEW (the same path
       in every run and worker), or NULL for case_folder's own path. */
    const char *case_view;
    int status_read_fd;          // with case_namespaces: the reports (asmrun_case_report)
    int status_write_fd;         // its write end, which asmrun_spawn closes (whatever happens)
    int drop_capabilities;       // 1: no capabilities at all, and no_new_privs
    /* With drop_capabilities: become this unprivileged user and group (no supplementary groups)
       first, as asmrun is root; a warden does so once for all its cases. */
    int switch_identity;
    unsigned identity_uid;
    unsigned identity_gid;
    const void *seccomp_filter;  // a struct sock_filter program installed before exec, or NULL
    unsigned short seccomp_length;
    int *proc_mounted;           // out, may be NULL: the case got a /proc of its own
    /* With case_namespaces, for asmrun_warden_start only: the init stays as a warden, serving
       the cases sent on warden_socket instead of running `path`. */
    int serves;
    int warden_socket;
    /* Set by a warden in its own copy of a case's request (zero otherwise): what it did once
       for all its cases, which their programs inherit. */
    int securebits_inherited;           // the locked securebits are set
    int no_new_privs_inherited;         // no_new_privs is set
    const struct rlimit *known_limits;  // the limits (asmrun_limits' five, in order) in force, or NULL
} asmrun_spawn_request;

/// What a case's init writes once the program ended: its wait status, and how many processes
/// were still running in the namespace and had to be killed.
typedef struct {
    int wait_status;
    int leftovers;
} asmrun_case_report;

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
    ASMRUN_STEP_CASE_NAMESPACES,
    ASMRUN_STEP_CASE_MOUNTS,
    ASMRUN_STEP_CAPABILITIES,
    ASMRUN_STEP_SECCOMP,
    ASMRUN_STEP_INIT,
    ASMRUN_STEP_IDENTITY,
    ASMRUN_STEP_PID_NAMESPACE,
} asmrun_step;

/// Spawns a child the way glibc's posix_spawn does (vfork with all signals blocked, default
/// dispositions and an empty mask in the child), plus core size 0, rlimits and a process group.
/// Returns 0 and stores the pid, or returns the errno of the failed step and stores the step.
/// A case's init runs in asmrun's memory (no copy of it is made) on a stack of its own, stored
/// in `*init_stack` (NULL when there is none) and given back with asmrun_release_init_stack
/// once the init was reaped.
int asmrun_spawn(const asmrun_spawn_request *request, pid_t *pid, void **init_stack, asmrun_step *failed_step);

/// A warden: a case's init that stays, PID 1 of namespaces of its own (PID, IPC, UTS, mount), in
/// its cgroup, under the system call filter, and runs one case after another there for the
/// thread that started it. Each case is a child of the warden; when it ends, the warden ends
/// every other process of the namespace (kill(-1)), removes the System V IPC objects and POSIX
/// message queues the case made, and reports. What a case could leave behind is gone before the
/// next one starts; only the folder the warden may write to (`case_folder`) is asmrun's to empty.
typedef struct {
    pid_t pid;
    int socket;   /* asmrun's end of the socket the cases are sent on */
    void *stack;  /* the warden's stack in asmrun's memory, given back once it was reaped */
    int proc_mounted;
} asmrun_warden;

/// Starts a warden for `request` (case_namespaces set; the namespaces, cgroup, folder, filter
/// and capabilities as for a case; path and argv unused). Only where the init can share
/// asmrun's memory: ENOTSUP otherwise. Returns 0 or the errno of the failed step.
int asmrun_warden_start(const asmrun_spawn_request *request, asmrun_warden *warden, asmrun_step *failed_step);

/// Runs `request`'s program in `warden` (which only the thread that started it may use): sends
/// it the request with its stdin, stdout, stderr and status_write_fd (closed here, whatever
/// happens), and waits for the start report on status_read_fd, as asmrun_spawn does; the
/// program's end comes as an asmrun_case_report there. The filter is the warden's own, so the
/// request's is not installed again. Returns 0 or the errno of the failed step; EPIPE: the
/// warden is gone.
int asmrun_warden_spawn(const asmrun_warden *warden, const asmrun_spawn_request *request, asmrun_step *failed_step);

/// Gives back the stack of a case's init that was reaped; NULL is ignored.
void asmrun_release_init_stack(void *stack);

/// memfd_create(name, MFD_CLOEXEC); -1 with errno set.
int asmrun_memfd(const char *name);

/// A child's stdin: a memory file holding `count` bytes, sealed against any change, read from its
/// start (as a file given with `<` is); -1 with errno set.
int asmrun_input_file(const void *bytes, size_t count);

/// The limits of asmrun_limits' five resources in force in this process, read once (asmrun never
/// changes its own), for `known_limits`; NULL when one could not be read.
const struct rlimit *asmrun_process_limits(void);

/// pidfd_open(2); -1 with errno set where the kernel lacks it (before Linux 5.3).
int asmrun_pidfd_open(pid_t pid);

/// The processors of this thread's affinity mask (at most 1,024), or 0 when it cannot be read.
int asmrun_affinity_count(void);

/// Narrows the calling thread's affinity to the `nth` (from 0) processor of its mask; what it
/// starts afterwards inherits that. 0 or an errno (EINVAL: the mask has fewer processors).
int asmrun_pin_thread(int nth);

/// Where cases see the file system: `scratch` (their folders' parent) and `visible` (folders or
/// files, at most 8) stay where
/// they are, read-only, under the fresh, empty, read-only tmpfs mounted over /tmp, /run,
/// /var/run and /dev/shm; /dev holds only null, zero, full, random and urandom; everything
/// else is the host's, read-only, but the `hidden` folders, each covered by an empty tmpfs
/// first (a kept path below one is bound back onto it). With `scratch_writable` the scratch folder stays writable
/// (for cases without mount namespaces of their own, which cannot bind their folder). With
/// `cover_private`, for cases of another user: the highest folder above each kept path that
/// others may not search (/root, a home of mode 0700) is covered by an empty tmpfs holding only
/// the way to the kept paths, so that a case reaches them and sees nothing else there.
///
/// With `new_root` (an empty folder, for builds) the view is made the other way round: a fresh
/// tmpfs mounted there becomes the root, holding only the system's programs and libraries
/// (`/usr`, the links into it, /etc/alternatives and /etc/ld.so.cache), a minimal /dev, the
/// `visible` paths read-only, `scratch` and the `writable` paths (at most 4) writable, and the
/// folders leading to `working_directory` (empty unless visible); nothing else of the host.
typedef struct {
    const char *scratch;
    const char *const *visible;
    int visible_count;
    int scratch_writable;
    int cover_private;
    const char *new_root;
    const char *const *writable;
    int writable_count;
    const char *working_directory;
    /* No network namespace is made (its descriptor stays -1): the caller shares one it has. */
    int no_network;
    /* With a user namespace: enter this one (another view's) instead of making one; its
       descriptor is not stored again (-1). -1 otherwise. */
    int shared_user_fd;
    /* Folders (at most 4) covered by an empty read-only tmpfs before anything is kept, as /tmp
       is: a grading run's reference, out of its cases' sight. Not with `new_root` (a build view
       holds nothing it is not given). */
    const char *const *hidden;
    int hidden_count;
} asmrun_view;

/// Creates the namespaces children run in: a network namespace with no interfaces up, and a
/// mount namespace with `view`. As root they are created directly; otherwise (`with_user_ns`)
/// inside an unprivileged user namespace that maps the user to itself, where the kernel allows
/// one. Stores close-on-exec descriptors; returns 0, or the errno of the first failing step
/// (`*step` names it); a namespace that failed is -1.
int asmrun_make_namespaces(const asmrun_view *view, int with_user_ns, int *user_fd, int *net_fd, int *mnt_fd,
                           const char **step);

/// A build view made from a template: `template_fd` is the mount namespace of a view made with
/// asmrun_make_namespaces for no folder of its own, copied (a dozen mounts, not the host's
/// table), with `folder` (absolute) cloned from the host's mounts (open_tree) and moved into
/// place (move_mount), read-only, on a tmpfs of the view's own over the deepest folder of its
/// way that the template holds (the template is not written to). As root (`user_fd` -1) on a
/// thread; otherwise `user_fd` is the template's user namespace and `host_fd` a mount namespace
/// of it with the host's mounts (asmrun_copy_host_mounts), entered by a helper sharing asmrun's
/// memory. Stores the view's mount namespace (close-on-exec) and returns 0, or an errno with
/// `*step` naming the step: ENOTSUP where the folder cannot be added this way (the template
/// holds the folder, the way to it leaves the template's root tmpfs or is the root itself, no
/// helper), ENOSYS or EPERM where the kernel refuses; the caller then makes the view in full.
int asmrun_make_view_from_template(int template_fd, int user_fd, int host_fd, const char *folder, int *mnt_fd,
                                   const char **step);

/// A mount namespace of the user namespace `user_fd`, copied from asmrun's: where folders are
/// cloned from for asmrun_make_view_from_template without root. 0 or an errno.
int asmrun_copy_host_mounts(int user_fd, int *mnt_fd, const char **step);

/// Catches SIGINT, SIGTERM and SIGQUIT with a handler that writes the signal number as one byte to
/// `notify_fd` (async-signal-safe), and unblocks them in the calling thread; the previous
/// actions are saved. Returns 0 or -1.
int asmrun_catch_interrupts(int notify_fd);

/// Restores the actions SIGINT, SIGTERM and SIGQUIT had before `asmrun_catch_interrupts`.
void asmrun_release_interrupts(void);

/// Sets or clears this process as the reaper of orphaned descendants (PR_SET_CHILD_SUBREAPER).
int asmrun_set_subreaper(int enabled);

/* Sets whether the process is dumpable (PR_SET_DUMPABLE): a process that is not has its
   /proc/PID files owned by root and closed to other processes of its user (environ, mem, and
   under hidepid its whole folder). Returns the setting before, or -1. */
int asmrun_set_dumpable(int dumpable);

/// pipe2(fds, O_CLOEXEC); returns 0 or -1 with errno set.
int asmrun_pipe_cloexec(int fds[2]);
/// The same with both ends non-blocking.
int asmrun_pipe_nonblocking(int fds[2]);
/// How many bytes a read of `fd` (a pipe) would get now (FIONREAD); -1 with errno set.
int asmrun_readable_bytes(int fd);

/// Makes writes to a closed pipe return EPIPE in asmrun instead of killing it.
void asmrun_ignore_sigpipe(void);

/* The symbolic name of an errno value (ENOENT), or NULL when it has none. */
const char *asmrun_errno_name(int number);

#endif
