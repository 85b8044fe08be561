/* Helpers shared by the C files of this target; not visible to Swift. Everything here is
   async-signal-safe: it runs in vfork and fork children of a multithreaded process. */
#ifndef ASMRUN_INTERNAL_H
#define ASMRUN_INTERNAL_H

#include "asmrun_spawn.h"

#include <stddef.h>
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

int asmrun_write_all(int fd, const void *bytes, size_t length);
int asmrun_write_file(const char *path, const char *text, size_t length);
int asmrun_move_fd(int fd, int target);
void asmrun_close_from(int first);
void asmrun_apply_limits(const asmrun_limits *limits);
/* Sets (read_only 1) or clears (0) the read-only flag of the mount at `path`, with `recursive`
   for every mount below it too. Returns 0 or an errno. */
int asmrun_set_read_only(const char *path, int read_only, int recursive);
/* Drops every capability (bounding set included, so an exec as root gains none), sets
   no_new_privs and installs the seccomp filter, as asked. Returns 0 or an errno; `*step` says
   which part failed. */
int asmrun_confine(const asmrun_spawn_request *request, asmrun_step *step);
/* Limits, stdio, folder, confinement and exec, in a vfork child; never returns. A failure
   stores its errno in `*error` and its step in `*step`, and exits 127. */
__attribute__((noreturn)) void asmrun_exec_program(const asmrun_spawn_request *request, volatile int *error,
                                                   volatile asmrun_step *step);
/* The case's init (PID 1 of its namespace); never returns. */
__attribute__((noreturn)) void asmrun_case_init(const asmrun_spawn_request *request, int cgroup_fd);

#endif
