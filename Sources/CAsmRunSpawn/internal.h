/* Helpers shared by the C files of this target; not visible to Swift. Everything here is
   async-signal-safe: it runs in vfork and fork children of a multithreaded process. */
#ifndef ASMRUN_INTERNAL_H
#define ASMRUN_INTERNAL_H

#include "asmrun_spawn.h"

#include <stddef.h>
#include <sys/resource.h>
#include <sys/syscall.h>

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

/* SECBIT_NOROOT, SECBIT_NO_SETUID_FIXUP, SECBIT_KEEP_CAPS (off) and SECBIT_NO_CAP_AMBIENT_RAISE,
   each with its lock (linux/securebits.h). */
#define ASMRUN_SECUREBITS (0x01 | 0x02 | 0x04 | 0x08 | 0x20 | 0x40 | 0x80)

int asmrun_write_all(int fd, const void *bytes, size_t length);
int asmrun_write_file(const char *path, const char *text, size_t length);
int asmrun_move_fd(int fd, int target);
/* Gives up asmrun's controlling terminal, when it has one and the request says so
   (detach_terminal): /dev/tty then opens nothing and TIOCSTI reaches no terminal, in this
   process and every one it starts. 0, or -1 with errno set. */
int asmrun_drop_terminal(const asmrun_spawn_request *request);
void asmrun_close_from(int first);
/* The resources of asmrun_limits, in its order. */
#define ASMRUN_LIMITED_RESOURCES 6
extern const int asmrun_limited_resources[ASMRUN_LIMITED_RESOURCES];
/* Sets the limits; `known`, when not NULL, holds the limits in force (asmrun_limited_resources'
   order), which spares reading them. */
void asmrun_apply_limits(const asmrun_limits *limits, const struct rlimit *known);
/* "/proc/self/fd/N" (at most 32 bytes with its terminator): a path to what an O_PATH
   descriptor holds, even once it is covered. */
void asmrun_fd_path(char *out, int fd);
/* `value` in decimal at `out`, without a terminator; returns its length (at most 20). */
size_t asmrun_format_number(char *out, unsigned long long value);
/* The size of the path buffers of the view's code (no malloc in a forked child). */
#define ASMRUN_PATH_SIZE 4096
/* null, zero, full, random and urandom: the devices a view's /dev holds. */
#define ASMRUN_DEVICE_COUNT 5
/* Opens the devices of a view's /dev (O_PATH), -1 for one that is missing. */
void asmrun_open_devices(int *device_fds);
/* `prefix` then `path` into `out` (ASMRUN_PATH_SIZE bytes); 0 or ENAMETOOLONG. */
int asmrun_join_path(char *out, const char *prefix, const char *path);
/* Calls `visit` with each folder above `path` ("/a", then "/a/b" for "/a/b/c") until it returns
   non-zero, and returns that (0 after the last; ENAMETOOLONG for a path of ASMRUN_PATH_SIZE). */
int asmrun_each_parent(const char *path, int (*visit)(const char *parent, void *context), void *context);
/* Binds what `fd` holds onto `target`, creating the target first (a folder or a file, with its
   parents, in a tmpfs mounted just before; where it exists already, it is bound onto itself). */
int asmrun_bind_fd(int fd, const char *target);
/* Mounts an empty tmpfs (64 KiB) over the folder `path`; a path that is no folder is left alone. */
int asmrun_cover(const char *path);
/* A minimal /dev under `prefix` ("" for /dev itself): the harmless devices bound from the
   host's, the usual links, an empty shm. */
int asmrun_make_dev(const int *device_fds, const char *prefix);
/* The build view of `view` (its new_root, see asmrun_view), made and entered with pivot_root.
   0 or an errno. */
int asmrun_make_build_root(const asmrun_view *view);
/* Sets (read_only 1) or clears (0) the read-only flag of the mount at `path`, with `recursive`
   for every mount below it too. Returns 0 or an errno. */
int asmrun_set_read_only(const char *path, int read_only, int recursive);
/* Becomes the request's unprivileged user and group, without supplementary groups, unless it is
   them already (its warden took them); raw system calls, not glibc's, which would signal every
   thread of the process whose memory this one shares. A process with SECBIT_NO_SETUID_FIXUP
   keeps its capabilities. 0 or an errno. */
int asmrun_take_identity(const asmrun_spawn_request *request);
/* Drops every capability (bounding set included, so an exec as root gains none), sets
   no_new_privs and installs the seccomp filter, as asked (what the request says is inherited
   is not set again). Returns 0 or an errno; `*step` says which part failed. */
int asmrun_confine(const asmrun_spawn_request *request, asmrun_step *step);
/* Limits, stdio, folder, confinement and exec, in a vfork child; never returns. A failure
   stores its errno in `*error` and its step in `*step`, and exits 127. */
__attribute__((noreturn)) void asmrun_exec_program(const asmrun_spawn_request *request, volatile int *error,
                                                   volatile asmrun_step *step);
/* The case's init (PID 1 of its namespace); never returns. It may run in asmrun's memory
   (see asmrun_raw_syscall). With `enters_namespaces` it was cloned by asmrun itself: it resets
   its signal handlers, opens its cgroup and enters the run's namespaces (and a mount namespace
   of its own) first, as the starter does otherwise. */
__attribute__((noreturn)) void asmrun_case_init(const asmrun_spawn_request *request, int cgroup_fd,
                                                int enters_namespaces);
/* A warden's part of its init, once its namespaces, cgroup and mounts are made: the filter on
   itself, the first report, then one case after another; never returns. `started` is the
   init's report so far. */
__attribute__((noreturn)) void asmrun_warden_serve(const asmrun_spawn_request *request, int started[3]);
/* Reaps every child until none is left running or `program` ended: its wait status (see
   case_init.c); and ends what the program left, returning how many. Raw system calls only. */
int asmrun_await_program(pid_t program);
int asmrun_end_leftovers(void);
void asmrun_report(int fd, const void *message, size_t length);
__attribute__((noreturn)) void asmrun_end(int code);
/* Default dispositions for every signal that can have another. */
void asmrun_reset_signals(void);
/* setns into the request's user, network and mount namespaces (those given); 0, or -1 with
   errno set and `*step` naming the one that failed. */
int asmrun_enter_namespaces(const asmrun_spawn_request *request, volatile asmrun_step *step);

/* Stacks for inits that share asmrun's memory: ASMRUN_INIT_STACK_SIZE bytes above a guard page;
   NULL when none can be had (or raw system calls are not written for this architecture). */
#define ASMRUN_INIT_STACK_SIZE (128 * 1024)
void *asmrun_take_init_stack(void);

/* A system call that touches nothing of the calling thread: no errno, no cancellation state.
   Returns the result, or -errno. A case's init shares asmrun's memory, thread-local storage
   included: once it told asmrun that the program started, the thread that spawned it runs on,
   and the init may use only these (before that, that thread waits for it, blocked in `read`). */
#if defined(__x86_64__)
#define ASMRUN_HAS_RAW_SYSCALL 1
static inline long asmrun_raw_syscall(long number, long a, long b, long c, long d) {
    long result;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10)
                     : "rcx", "r11", "memory");
    return result;
}
#elif defined(__aarch64__)
#define ASMRUN_HAS_RAW_SYSCALL 1
static inline long asmrun_raw_syscall(long number, long a, long b, long c, long d) {
    register long x8 __asm__("x8") = number;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory", "cc");
    return x0;
}
#else
/* Elsewhere inits get a copy of asmrun's memory (no stack is handed out), and this is plain. */
#define ASMRUN_HAS_RAW_SYSCALL 0
#include <errno.h>
#include <unistd.h>
static inline long asmrun_raw_syscall(long number, long a, long b, long c, long d) {
    long result = syscall(number, a, b, c, d);
    return result < 0 ? -errno : result;
}
#endif

#endif
