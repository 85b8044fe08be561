#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

int asmrun_set_read_only(const char *path, int read_only, int recursive) {
    struct mount_attr attr;
    memset(&attr, 0, sizeof attr);
    if (read_only) attr.attr_set = MOUNT_ATTR_RDONLY; else attr.attr_clr = MOUNT_ATTR_RDONLY;
    long done = syscall(SYS_mount_setattr, -1, path, recursive ? AT_RECURSIVE : 0, &attr, sizeof attr);
    return done == 0 ? 0 : errno;
}

static int has_capabilities(void) {
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    if (syscall(SYS_capget, &header, data) != 0) return 1;
    return (data[0].permitted | data[1].permitted | data[0].effective | data[1].effective) != 0;
}

/* Drops the bounding set one capability at a time (that needs CAP_SETPCAP); EINVAL: past the
   kernel's last one. Where securebits cannot be set. */
static int drop_bounding_set(void) {
    for (int cap = 0; cap < 64; cap++) {
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0) continue;
        if (errno == EINVAL) return 0; /* capabilities are numbered without gaps */
        return errno;
    }
    return 0;
}

int asmrun_take_identity(const asmrun_spawn_request *r) {
    if (!r->switch_identity) return 0;
    if (getuid() == r->identity_uid && getgid() == r->identity_gid) return 0;
    if (syscall(SYS_setgroups, 0, NULL) != 0) return errno;
    if (syscall(SYS_setresgid, r->identity_gid, r->identity_gid, r->identity_gid) != 0) return errno;
    if (syscall(SYS_setresuid, r->identity_uid, r->identity_uid, r->identity_uid) != 0) return errno;
    return 0;
}

int asmrun_confine(const asmrun_spawn_request *r, asmrun_step *step) {
    *step = ASMRUN_STEP_CAPABILITIES;
    if (r->drop_capabilities && has_capabilities()) {
        /* An exec as uid 0 gives the bounding set's capabilities back, unless no_new_privs (set
           below) or `noroot` stops it: both, for depth. The securebits (locked, like setuid
           fixups, keep-caps and ambient raising) are one call, where dropping the bounding set
           takes one per capability, each a new set of credentials: that is done only where
           securebits cannot be set. */
        if (!r->securebits_inherited && prctl(PR_SET_SECUREBITS, ASMRUN_SECUREBITS, 0, 0, 0) != 0) {
            int code = drop_bounding_set();
            if (code != 0) return code;
            prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
        }
        /* While CAP_SETUID and CAP_SETGID are still there. */
        *step = ASMRUN_STEP_IDENTITY;
        int code = asmrun_take_identity(r);
        if (code != 0) return code;
        *step = ASMRUN_STEP_CAPABILITIES;
        /* No permitted or inheritable capability: no ambient one either. */
        struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
        struct __user_cap_data_struct none[2];
        memset(none, 0, sizeof none);
        if (syscall(SYS_capset, &header, none) != 0) return errno;
    }
    if ((r->drop_capabilities || r->seccomp_filter) && !r->no_new_privs_inherited &&
        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return errno;
    *step = ASMRUN_STEP_SECCOMP;
    if (r->seccomp_filter) {
        struct sock_fprog program = {r->seccomp_length, (struct sock_filter *)r->seccomp_filter};
        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) return errno;
    }
    return 0;
}

/* Closes every descriptor but the `count` in `keep` (sorted here; -1 entries ignored). */
static void close_all_but(int *keep, int count) {
    for (int i = 1; i < count; i++) {
        for (int j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
            int swap = keep[j];
            keep[j] = keep[j - 1];
            keep[j - 1] = swap;
        }
    }
    int next = 0;
    for (int i = 0; i < count; i++) {
        if (keep[i] < next) continue;
        if (keep[i] > next) syscall(SYS_close_range, (unsigned)next, (unsigned)keep[i] - 1, 0);
        next = keep[i] + 1;
    }
    asmrun_close_from(next);
}

/* Appends `value` in decimal to `out` at `*length` (async-signal-safe). */
static void append_number(char *out, size_t *length, unsigned long long value) {
    *length += asmrun_format_number(out + *length, value);
}

static void append_text(char *out, size_t *length, const char *text) {
    size_t count = strlen(text);
    memcpy(out + *length, text, count);
    *length += count;
}

/* A fresh tmpfs of r's size and inode count at `folder`, owned by the case's user: all a case
   may write, many small files included, and gone with the warden's mount namespace. */
static int mount_bounded_folder(const char *folder, const asmrun_spawn_request *r) {
    char options[160];
    size_t length = 0;
    append_text(options, &length, "mode=700,size=");
    append_number(options, &length, (unsigned long long)r->case_folder_bytes);
    append_text(options, &length, ",nr_inodes=");
    append_number(options, &length, (unsigned long long)r->case_folder_inodes);
    append_text(options, &length, ",uid=");
    append_number(options, &length, r->switch_identity ? r->identity_uid : (unsigned)getuid());
    append_text(options, &length, ",gid=");
    append_number(options, &length, r->switch_identity ? r->identity_gid : (unsigned)getgid());
    options[length] = 0;
    return mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, options) == 0 ? 0 : errno;
}

/* The case's folder alone, writable, in an empty read-only tmpfs over the folder that holds it
   with the other cases' (a neighbour worker's, with -j): no folder but its own is in sight, by
   listing or by name. With r->case_view, the folder is mounted there instead (ASMRUN_CASE_VIEW,
   made in the run's view), the host's folder still covered. Its /proc/self/fd path is the host's
   /proc until the case's is mounted. */
static int mount_folder(const char *folder, const asmrun_spawn_request *r) {
    const char *view = r->case_view ? r->case_view : folder;
    char parent[4096];
    size_t length = strlen(folder);
    const char *slash = strrchr(folder, '/');
    if (length >= sizeof parent || !slash || slash == folder) return ENAMETOOLONG;
    memcpy(parent, folder, (size_t)(slash - folder));
    parent[slash - folder] = 0;
    int kept = open(folder, O_PATH | O_CLOEXEC);
    if (kept < 0) return errno;
    char source[32];
    asmrun_fd_path(source, kept);
    int code = 0;
    if (mount("tmpfs", parent, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=755,size=16k") != 0) code = errno;
    if (code == 0 && view == folder && mkdir(folder, 0700) != 0) code = errno;
    if (code == 0 && r->case_folder_bytes > 0) {
        code = mount_bounded_folder(view, r);
    } else if (code == 0 && mount(source, view, NULL, MS_BIND, NULL) != 0) {
        code = errno;
    }
    close(kept);
    if (code == 0 && r->case_folder_bytes <= 0) code = asmrun_set_read_only(view, 0, 0);
    if (code == 0) code = asmrun_set_read_only(parent, 1, 0);
    return code;
}

/* The case's own mounts: its folder alone, writable, and a /proc of its PID namespace,
   read-only, that shows only the processes the case may trace (hidepid=2): PID 1, its warden
   or init, shares asmrun's memory, and its command line is asmrun's. Returns 0 or an errno;
   `*proc` says whether /proc is the case's own. */
static int mount_case_view(const asmrun_spawn_request *r, int *proc) {
    const char *folder = r->case_folder;
    if (folder) {
        int code = mount_folder(folder, r);
        if (code != 0) return code;
    }
    /* Refused where the host's /proc is not fully visible (masked paths in some containers):
       the case then sees the host's processes, still unable to signal or enter them. */
    *proc = mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, "hidepid=2") == 0;
    return 0;
}

/* From here on, only raw system calls: the first report lets the thread that spawned the
   init run on, and the init may share its memory (see asmrun_raw_syscall). */

void asmrun_report(int fd, const void *message, size_t length) {
    const char *bytes = message;
    while (length > 0) {
        long written = asmrun_raw_syscall(SYS_write, fd, (long)bytes, (long)length, 0);
        if (written == -EINTR) continue;
        if (written <= 0) return;
        bytes += written;
        length -= (size_t)written;
    }
}

static long reap(int options, int *status) {
    return asmrun_raw_syscall(SYS_wait4, -1, (long)status, options | __WALL, 0);
}

/* Reaps children until `program` ends (orphans of the case are this process's children);
   returns its wait status. */
int asmrun_await_program(pid_t program) {
    for (;;) {
        int status = 0;
        long ended = reap(0, &status);
        if (ended == program) return status;
        if (ended < 0 && ended != -EINTR) return 0;
    }
}

/* Ends whatever the program left in the namespace; returns how many were still running. */
int asmrun_end_leftovers(void) {
    int status;
    long reaped;
    while ((reaped = reap(WNOHANG, &status)) > 0) {}
    /* No child at all, running or not: nothing else is left in the namespace, whose every
       process descends from its PID 1. kill(-1) is then spared: it walks every process of the
       host, which made each case's cost grow with the host's process count. */
    if (reaped == -ECHILD) return 0;
    /* kill(-1) reaches every process of the namespace only as its PID 1; anywhere else it
       would reach every process the user may signal. */
    if (asmrun_raw_syscall(SYS_getpid, 0, 0, 0, 0) != 1 || asmrun_raw_syscall(SYS_kill, -1, SIGKILL, 0, 0) != 0) return 0;
    int count = 0;
    for (;;) {
        long ended = reap(0, &status);
        if (ended > 0) count++;
        else if (ended != -EINTR) return count;
    }
}

__attribute__((noreturn)) void asmrun_end(int code) {
    for (;;) asmrun_raw_syscall(SYS_exit_group, code, 0, 0, 0);
}

/* What the starter does otherwise: default signal handlers, the cgroup opened, the run's
   namespaces entered, and a mount namespace of the case's own. 0, or an errno with `*step`. */
static int enter_run(const asmrun_spawn_request *r, int *cgroup_fd, int *step) {
    asmrun_reset_signals();
    *step = ASMRUN_STEP_CGROUP;
    if (r->cgroup_procs && (*cgroup_fd = open(r->cgroup_procs, O_WRONLY | O_CLOEXEC)) < 0) return errno;
    volatile asmrun_step entering = ASMRUN_STEP_NONE;
    if (asmrun_enter_namespaces(r, &entering) != 0) {
        *step = entering;
        return errno;
    }
    *step = ASMRUN_STEP_CASE_NAMESPACES;
    return unshare(CLONE_NEWNS) == 0 ? 0 : errno;
}

__attribute__((noreturn)) void asmrun_case_init(const asmrun_spawn_request *r, int cgroup_fd, int enters_namespaces) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int started[3] = {ASMRUN_STEP_NONE, 0, 0};
    int status_fd = r->status_write_fd;
    if (enters_namespaces && (errno = enter_run(r, &cgroup_fd, &started[0])) != 0) goto fail;
    started[0] = ASMRUN_STEP_PROCESS_GROUP;
    if (asmrun_drop_terminal(r) != 0) goto fail;
    int keep[6] = {r->stdin_fd, r->stdout_fd, r->stderr_fd, r->status_write_fd, cgroup_fd, r->serves ? r->warden_socket : -1};
    close_all_but(keep, 6);
    started[0] = ASMRUN_STEP_PROCESS_GROUP;
    if (r->new_process_group && setpgid(0, 0) != 0) goto fail;
    started[0] = ASMRUN_STEP_CGROUP;
    if (cgroup_fd >= 0 && (asmrun_write_all(cgroup_fd, "0\n", 2) != 0 || close(cgroup_fd) != 0)) goto fail;
    started[0] = ASMRUN_STEP_CASE_MOUNTS;
    if ((errno = mount_case_view(r, &started[2])) != 0) goto fail;
    (void)sethostname("asmrun", 6);
    if (r->serves) asmrun_warden_serve(r, started);
    volatile int error = 0;
    volatile asmrun_step step = ASMRUN_STEP_FORK;
    pid_t program = vfork();
    if (program == 0) asmrun_exec_program(r, &error, &step);
    if (program < 0) error = errno;
    if (error != 0) {
        started[0] = step;
        started[1] = error;
        asmrun_end_leftovers();
        asmrun_report(status_fd, started, sizeof started);
        asmrun_end(127);
    }
    asmrun_report(status_fd, started, sizeof started);
    asmrun_case_report done = {asmrun_await_program(program), 0};
    done.leftovers = asmrun_end_leftovers();
    asmrun_report(status_fd, &done, sizeof done);
    asmrun_end(0);
fail:
    started[1] = errno ? errno : ECHILD;
    asmrun_report(status_fd, started, sizeof started);
    asmrun_end(127);
}
