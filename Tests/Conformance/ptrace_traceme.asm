; conformance: other: ptrace(PTRACE_TRACEME), the usual "am I being debugged" check
; divergence: inherent: qemu-user implements no ptrace at all (7.2, and still 10.0): every request returns -ENOSYS (-38), so a program that takes a failed PTRACE_TRACEME for a debugger says "debugger detected" under qemu only
; Natively, with no tracer, the first request succeeds (0) and a second one fails with -EPERM
; (-1): the process is already traced, by its parent.
%include "probe.inc"
global _start
_start:
        mov     eax, 101                ; ptrace
        xor     edi, edi                ; PTRACE_TRACEME
        xor     esi, esi
        xor     edx, edx
        xor     r10d, r10d
        syscall
        show_dec "ptrace(PTRACE_TRACEME)", rax
        mov     eax, 101
        xor     edi, edi
        syscall
        show_dec "ptrace(PTRACE_TRACEME) again", rax
        exit_with 0
