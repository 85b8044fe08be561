// ptrace for `asmrun trace`: one instruction at a time on an x86_64 kernel (elf32 programs too,
// whose registers the kernel shows through the same 64-bit structure).
#define _GNU_SOURCE
#include "asmrun_trace.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__)

pid_t asmrun_trace_start(const char *path, char *const argv[], char *const envp[]) {
    pid_t pid = fork();
    if (pid < 0) return -errno;
    if (pid == 0) {
        // Only async-signal-safe calls between fork and exec: the program gets default signal
        // dispositions, no blocked signals, no core file, as a normal run gives it.
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        struct sigaction fallback;
        memset(&fallback, 0, sizeof fallback);
        fallback.sa_handler = SIG_DFL;
        for (int number = 1; number < NSIG; number++) {
            if (number != SIGKILL && number != SIGSTOP) sigaction(number, &fallback, 0);
        }
        sigset_t none_blocked;
        sigemptyset(&none_blocked);
        sigprocmask(SIG_SETMASK, &none_blocked, 0);
        if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0) _exit(127);
        execve(path, argv, envp);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return -errno;
    }
    if (!WIFSTOPPED(status)) return -ENOEXEC;
    // The program dies with asmrun, whatever ends asmrun.
    ptrace(PTRACE_SETOPTIONS, pid, 0, (void *)(long)PTRACE_O_EXITKILL);
    return pid;
}

static asmrun_trace_stop wait_stop(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return (asmrun_trace_stop){-1, errno};
    }
    if (WIFEXITED(status)) return (asmrun_trace_stop){1, WEXITSTATUS(status)};
    if (WIFSIGNALED(status)) return (asmrun_trace_stop){2, WTERMSIG(status)};
    return (asmrun_trace_stop){0, WSTOPSIG(status)};
}

asmrun_trace_stop asmrun_trace_step(pid_t pid, int signal) {
    if (ptrace(PTRACE_SINGLESTEP, pid, 0, (void *)(long)signal) != 0) return (asmrun_trace_stop){-1, errno};
    return wait_stop(pid);
}

asmrun_trace_stop asmrun_trace_continue(pid_t pid, int signal) {
    if (ptrace(PTRACE_CONT, pid, 0, (void *)(long)signal) != 0) return (asmrun_trace_stop){-1, errno};
    return wait_stop(pid);
}

int asmrun_trace_registers(pid_t pid, uint64_t *values) {
    struct user_regs_struct regs;
    if (ptrace(PTRACE_GETREGS, pid, 0, &regs) != 0) return -errno;
    uint64_t ordered[ASMRUN_TRACE_REGISTERS] = {
        regs.rax, regs.rbx, regs.rcx, regs.rdx, regs.rsi, regs.rdi, regs.rbp, regs.rsp, regs.r8,
        regs.r9, regs.r10, regs.r11, regs.r12, regs.r13, regs.r14, regs.r15, regs.rip, regs.eflags,
    };
    memcpy(values, ordered, sizeof ordered);
    return 0;
}

int asmrun_trace_set_pc(pid_t pid, uint64_t pc) {
    struct user_regs_struct regs;
    if (ptrace(PTRACE_GETREGS, pid, 0, &regs) != 0) return -errno;
    regs.rip = pc;
    if (ptrace(PTRACE_SETREGS, pid, 0, &regs) != 0) return -errno;
    return 0;
}

void asmrun_trace_kill(pid_t pid) {
    kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

#else

// Other hosts run x86 programs under qemu, traced through its gdbstub instead.
pid_t asmrun_trace_start(const char *path, char *const argv[], char *const envp[]) {
    (void)path, (void)argv, (void)envp;
    return -ENOSYS;
}
asmrun_trace_stop asmrun_trace_step(pid_t pid, int signal) {
    (void)pid, (void)signal;
    return (asmrun_trace_stop){-1, ENOSYS};
}
asmrun_trace_stop asmrun_trace_continue(pid_t pid, int signal) {
    (void)pid, (void)signal;
    return (asmrun_trace_stop){-1, ENOSYS};
}
int asmrun_trace_registers(pid_t pid, uint64_t *values) {
    (void)pid, (void)values;
    return -ENOSYS;
}
int asmrun_trace_set_pc(pid_t pid, uint64_t pc) {
    (void)pid, (void)pc;
    return -ENOSYS;
}
void asmrun_trace_kill(pid_t pid) { kill(pid, SIGKILL); }

#endif
