#ifndef ASMRUN_TRACE_H
#define ASMRUN_TRACE_H

#include <stdint.h>
#include <sys/types.h>

/// The registers a trace shows, in this order: rax rbx rcx rdx rsi rdi rbp rsp r8-r15 rip eflags.
enum { ASMRUN_TRACE_REGISTERS = 18 };

/// How a step or a continue ended.
typedef struct {
    /// 0: stopped (signal 5 after a step or a breakpoint, else the signal that stopped it);
    /// 1: exited with `value`; 2: killed by signal `value`; -1: ptrace failed (`value` is errno).
    int kind;
    int value;
} asmrun_trace_stop;

/// Forks, makes the child a tracee (its death tied to the caller's) and executes `path` with
/// `argv` and `envp`, stopped before its first instruction. Returns the pid, or -errno.
pid_t asmrun_trace_start(const char *path, char *const argv[], char *const envp[]);

/// One instruction (`signal`: the signal to deliver, 0 for none).
asmrun_trace_stop asmrun_trace_step(pid_t pid, int signal);

/// Runs until a breakpoint, a signal or the end.
asmrun_trace_stop asmrun_trace_continue(pid_t pid, int signal);

/// Reads the registers into `values` (ASMRUN_TRACE_REGISTERS of them); 0 or -errno.
int asmrun_trace_registers(pid_t pid, uint64_t *values);

/// Sets the instruction pointer; 0 or -errno.
int asmrun_trace_set_pc(pid_t pid, uint64_t pc);

/// Ends the tracee and reaps it.
void asmrun_trace_kill(pid_t pid);

#endif
