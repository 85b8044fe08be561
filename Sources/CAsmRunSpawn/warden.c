#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* The new mount API (Linux 5.2), the same numbers on every architecture. */
#ifndef SYS_fsopen
#define SYS_fsopen 430
#define SYS_fsconfig 431
#define SYS_fsmount 432
#endif
#define ASMRUN_FSOPEN_CLOEXEC 1
#define ASMRUN_FSCONFIG_CMD_CREATE 6
#define ASMRUN_FSMOUNT_CLOEXEC 1

/* The case's message: the address of its request, in asmrun's memory, which the warden shares. */
typedef const asmrun_spawn_request *message_t;
enum { SENT_FDS = 4 };

/* One message and room for its descriptors, for sendmsg and recvmsg alike. */
struct envelope {
    struct iovec part;
    struct msghdr message;
    union {
        char bytes[CMSG_SPACE(SENT_FDS * sizeof(int))];
        struct cmsghdr align;
    } control;
};

/* Points `envelope` at `request` (the bytes sent or received) and at its own control room;
   builtins only, as the warden may call it. */
static void address(struct envelope *envelope, message_t *request) {
    __builtin_memset(envelope, 0, sizeof *envelope);
    envelope->part.iov_base = (void *)request;
    envelope->part.iov_len = sizeof *request;
    envelope->message.msg_iov = &envelope->part;
    envelope->message.msg_iovlen = 1;
    envelope->message.msg_control = envelope->control.bytes;
    envelope->message.msg_controllen = sizeof envelope->control.bytes;
}

/* ---- In the warden, before its first report (the thread that started it waits). ---- */

/* The message queue file system of the warden's IPC namespace, mounted nowhere: its folder,
   open for every case, to list and remove the queues a case made (the folder holds the mount).
   -1 where the kernel cannot. */
static int mount_queues(void) {
    int fs = (int)syscall(SYS_fsopen, "mqueue", ASMRUN_FSOPEN_CLOEXEC);
    if (fs < 0) return -1;
    int mount = -1, folder = -1;
    if (syscall(SYS_fsconfig, fs, ASMRUN_FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0)
        mount = (int)syscall(SYS_fsmount, fs, ASMRUN_FSMOUNT_CLOEXEC, 0);
    if (mount >= 0) folder = openat(mount, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int saved = errno;
    close(fs);
    if (mount >= 0) close(mount);
    errno = saved;
    return folder;
}

/* ---- From here on, raw system calls only (see asmrun_raw_syscall). ---- */

static void raw_close(long fd) {
    if (fd >= 0) asmrun_raw_syscall(SYS_close, fd, 0, 0, 0);
}

/* The next case: its request and descriptors (stdin, stdout, stderr, status). -1 when asmrun
   closed its end (the warden is retired) or sent something else. */
static int receive(int socket, message_t *request, int fds[SENT_FDS]) {
    struct envelope envelope;
    address(&envelope, request);
    long got;
    do {
        got = asmrun_raw_syscall(SYS_recvmsg, socket, (long)&envelope.message, MSG_CMSG_CLOEXEC, 0);
    } while (got == -EINTR);
    struct cmsghdr *header = got > 0 ? CMSG_FIRSTHDR(&envelope.message) : NULL;
    int complete = got == (long)sizeof *request && header && header->cmsg_level == SOL_SOCKET &&
                   header->cmsg_type == SCM_RIGHTS && header->cmsg_len == CMSG_LEN(SENT_FDS * sizeof(int)) &&
                   !(envelope.message.msg_flags & MSG_CTRUNC);
    if (!header) return -1;
    __builtin_memcpy(fds, CMSG_DATA(header), SENT_FDS * sizeof(int));
    if (complete) return 0;
    for (int index = 0; index < SENT_FDS; index++) raw_close(fds[index]);
    return -1;
}

struct dirent64_header {
    unsigned long long ino;
    long long off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* Removes every message queue of the namespace (a pass that removes one starts another). */
static void remove_queues(int dir) {
    if (dir < 0) return;
    char buffer[2048] __attribute__((aligned(8)));
    for (int pass = 0, removed = 1; removed && pass < 64; pass++) {
        removed = 0;
        asmrun_raw_syscall(SYS_lseek, dir, 0, SEEK_SET, 0);
        long got;
        while ((got = asmrun_raw_syscall(SYS_getdents64, dir, (long)buffer, sizeof buffer, 0)) > 0) {
            for (long offset = 0; offset < got;) {
                struct dirent64_header *entry = (struct dirent64_header *)(buffer + offset);
                offset += entry->reclen;
                const char *name = entry->name;
                if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
                if (asmrun_raw_syscall(SYS_unlinkat, dir, (long)name, 0, 0) == 0) removed = 1;
            }
        }
    }
}

/* Removes every System V message queue, semaphore set and shared memory segment of the
   namespace: *_INFO gives the highest index in use and how many exist (none, in most cases:
   nothing more to ask), *_STAT an index's identifier. */
static void remove_system_v(void) {
    union {
        char bytes[512];
        struct msginfo messages;
        struct seminfo semaphores;
        struct shm_info memory;
    } info __attribute__((aligned(16)));
    char *buffer = info.bytes;
    long last = asmrun_raw_syscall(SYS_msgctl, 0, MSG_INFO, (long)buffer, 0);
    if (info.messages.msgpool == 0) last = -1;
    for (long index = 0; index <= last && index < 65536; index++) {
        long id = asmrun_raw_syscall(SYS_msgctl, index, MSG_STAT, (long)buffer, 0);
        if (id >= 0) asmrun_raw_syscall(SYS_msgctl, id, IPC_RMID, 0, 0);
    }
    last = asmrun_raw_syscall(SYS_semctl, 0, 0, SEM_INFO, (long)buffer);
    if (info.semaphores.semusz == 0) last = -1;
    for (long index = 0; index <= last && index < 65536; index++) {
        long id = asmrun_raw_syscall(SYS_semctl, index, 0, SEM_STAT, (long)buffer);
        if (id >= 0) asmrun_raw_syscall(SYS_semctl, id, 0, IPC_RMID, 0);
    }
    last = asmrun_raw_syscall(SYS_shmctl, 0, SHM_INFO, (long)buffer, 0);
    if (info.memory.used_ids == 0) last = -1;
    for (long index = 0; index <= last && index < 65536; index++) {
        long id = asmrun_raw_syscall(SYS_shmctl, index, SHM_STAT, (long)buffer, 0);
        if (id >= 0) asmrun_raw_syscall(SYS_shmctl, id, IPC_RMID, 0, 0);
    }
}

/* One case: the program started (its own child, with the request's limits, stdio, folder and
   capabilities dropped, under the warden's filter), reported, awaited; everything it left
   ended and removed; its end reported. */
/* What a warden did once for all its cases (see asmrun_spawn_request). */
struct inherited {
    int securebits;
    struct rlimit limits[ASMRUN_LIMITED_RESOURCES];
};

static void serve_case(int socket, int proc, int queues, const struct inherited *inherited) {
    message_t sent = NULL;
    int fds[SENT_FDS];
    if (receive(socket, &sent, fds) != 0) asmrun_end(0);
    /* The request is read only until the start report: the thread that sent it waits for that. */
    asmrun_spawn_request request = *sent;
    request.stdin_fd = fds[0];
    request.stdout_fd = fds[1];
    request.stderr_fd = fds[2];
    request.seccomp_filter = NULL;
    request.seccomp_length = 0;
    request.securebits_inherited = inherited->securebits;
    request.no_new_privs_inherited = 1;
    request.known_limits = inherited->limits;
    int status_fd = fds[3];
    volatile int error = 0;
    volatile asmrun_step step = ASMRUN_STEP_FORK;
    pid_t program = vfork();
    if (program == 0) asmrun_exec_program(&request, &error, &step);
    if (program < 0) error = EAGAIN;
    /* The output pipes' copies stay open until the end report is written: the program's exit
       then closes no last write end, so its supervisor is woken once, by the report, not first
       by the pipes' end (taking the core from the exiting program and then from this warden).
       The report comes once every process of the case was reaped: all they wrote is in the
       pipes, which the supervisor reads without waiting for their end. */
    raw_close(fds[0]);
    int started[3] = {ASMRUN_STEP_NONE, 0, proc};
    if (error != 0) {
        started[0] = step;
        started[1] = error;
    }
    asmrun_report(status_fd, started, sizeof started);
    asmrun_case_report done = {0, 0};
    if (error == 0) done.wait_status = asmrun_await_program(program);
    done.leftovers = asmrun_end_leftovers();
    remove_system_v();
    remove_queues(queues);
    if (error == 0) asmrun_report(status_fd, &done, sizeof done);
    raw_close(fds[1]);
    raw_close(fds[2]);
    raw_close(status_fd);
}

/* Before the first report: standard descriptors held by /dev/null (so that received ones are
   never 0, 1 or 2, which the program's are moved onto), the queue file system, the filter. */
__attribute__((noreturn)) void asmrun_warden_serve(const asmrun_spawn_request *r, int started[3]) {
    int status_fd = r->status_write_fd;
    started[0] = ASMRUN_STEP_STDIO;
    int null = open("/dev/null", O_RDWR);
    while (null >= 0 && null < 3) null = dup(null);
    if (null < 0) goto fail;
    close(null);
    started[0] = ASMRUN_STEP_CASE_NAMESPACES;
    int queues = mount_queues();
    if (queues < 0) goto fail;
    /* The limits in force and the locked securebits, once: each case's program then only sets
       its own limits and drops its capabilities. The warden itself never execs, so the bits
       take nothing from it. */
    struct inherited inherited = {0};
    for (int index = 0; index < ASMRUN_LIMITED_RESOURCES; index++) {
        if (getrlimit(asmrun_limited_resources[index], &inherited.limits[index]) != 0) goto fail;
    }
    inherited.securebits = r->drop_capabilities && prctl(PR_SET_SECUREBITS, ASMRUN_SECUREBITS, 0, 0, 0) == 0;
    /* The cases' user, once: with the securebits (no setuid fixup) the warden keeps its
       capabilities, so its cases, without any, can neither trace nor read it. The change of
       user cleared the parent-death signal. */
    started[0] = ASMRUN_STEP_IDENTITY;
    if (r->drop_capabilities && (errno = asmrun_take_identity(r)) != 0) goto fail;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    started[0] = ASMRUN_STEP_SECCOMP;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) goto fail;
    if (r->seccomp_filter) {
        struct sock_fprog program = {r->seccomp_length, (struct sock_filter *)r->seccomp_filter};
        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) goto fail;
    }
    /* `r` is the starting thread's: read nothing of it after the report. */
    int proc = started[2], socket = r->warden_socket;
    started[0] = ASMRUN_STEP_NONE;
    asmrun_report(status_fd, started, 3 * sizeof(int));
    raw_close(status_fd);
    for (;;) serve_case(socket, proc, queues, &inherited);
fail:
    started[1] = errno ? errno : ECHILD;
    asmrun_report(status_fd, started, 3 * sizeof(int));
    asmrun_end(127);
}

/* ---- In asmrun. ---- */

/* The first report of an init or a case in a warden: 0, or the failed step's errno. */
static int await_start(int status_read_fd, int *proc_mounted, asmrun_step *failed_step) {
    int started[3] = {ASMRUN_STEP_INIT, ECHILD, 0};
    ssize_t got;
    do { got = read(status_read_fd, started, sizeof started); } while (got < 0 && errno == EINTR);
    if (got != (ssize_t)sizeof started) {
        started[0] = ASMRUN_STEP_INIT;
        started[1] = ECHILD;
    }
    if (proc_mounted) *proc_mounted = started[2];
    if (started[1] != 0) *failed_step = (asmrun_step)started[0];
    return started[1];
}

int asmrun_warden_start(const asmrun_spawn_request *request, asmrun_warden *warden, asmrun_step *failed_step) {
    warden->pid = -1;
    warden->socket = -1;
    warden->stack = NULL;
    warden->proc_mounted = 0;
    *failed_step = ASMRUN_STEP_CASE_NAMESPACES;
    if (!request->case_namespaces) return EINVAL;
    int sockets[2], status[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets) != 0) return errno;
    if (pipe2(status, O_CLOEXEC) != 0) {
        int saved = errno;
        close(sockets[0]);
        close(sockets[1]);
        return saved;
    }
    asmrun_spawn_request r = *request;
    r.serves = 1;
    r.warden_socket = sockets[1];
    r.status_read_fd = status[0];
    r.status_write_fd = status[1];
    r.proc_mounted = &warden->proc_mounted;
    r.stdin_fd = r.stdout_fd = r.stderr_fd = -1;
    pid_t pid = -1;
    void *stack = NULL;
    int code = asmrun_spawn(&r, &pid, &stack, failed_step);
    close(sockets[1]);
    close(status[0]);
    if (code == 0 && !stack) {
        /* A copy of asmrun's memory cannot read the requests it is sent. */
        kill(pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        code = ENOTSUP;
    }
    if (code != 0) {
        close(sockets[0]);
        return code;
    }
    warden->pid = pid;
    warden->socket = sockets[0];
    warden->stack = stack;
    return 0;
}

int asmrun_warden_spawn(const asmrun_warden *warden, const asmrun_spawn_request *request, asmrun_step *failed_step) {
    *failed_step = ASMRUN_STEP_INIT;
    int fds[SENT_FDS] = {request->stdin_fd, request->stdout_fd, request->stderr_fd, request->status_write_fd};
    for (int index = 0; index < SENT_FDS; index++) {
        if (fds[index] < 0) {
            if (request->status_write_fd >= 0) close(request->status_write_fd);
            return EINVAL;
        }
    }
    message_t sent = request;
    struct envelope envelope;
    address(&envelope, &sent);
    struct cmsghdr *header = CMSG_FIRSTHDR(&envelope.message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(SENT_FDS * sizeof(int));
    memcpy(CMSG_DATA(header), fds, sizeof fds);
    /* Blocked until the start report: the warden and the program's child may use this
       thread's thread-local storage meanwhile, and no handler may run on it. */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    ssize_t sent_bytes;
    do { sent_bytes = sendmsg(warden->socket, &envelope.message, MSG_NOSIGNAL); } while (sent_bytes < 0 && errno == EINTR);
    int code = sent_bytes == (ssize_t)sizeof sent ? 0 : sent_bytes < 0 ? errno : EIO;
    close(request->status_write_fd);
    if (code == 0) code = await_start(request->status_read_fd, request->proc_mounted, failed_step);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (code == ECONNREFUSED || code == ECONNRESET) code = EPIPE;
    if (code == 0) *failed_step = ASMRUN_STEP_NONE;
    return code;
}
