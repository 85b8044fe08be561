; conformance: faults: a misaligned load with EFLAGS.AC set raises SIGBUS
; divergence: inherent: qemu's TCG does not implement alignment checking (EFLAGS.AC with CR0.AM), so the load succeeds under qemu; only programs that set AC on purpose are affected
; Linux runs user code with CR0.AM set, so setting the AC flag (bit 18) makes every misaligned
; data access fault: #AC, SIGBUS with si_code BUS_ADRALN (1).
%include "probe.inc"
global _start
_start:
        on_signal 7, handler            ; SIGBUS
        pushfq
        or      dword [rsp], 1 << 18
        popfq
        lea     rbx, [rel words + 1]
        mov     eax, [rbx]              ; misaligned 4-byte load
        pushfq
        and     dword [rsp], ~(1 << 18)
        popfq
        say     {"no fault", 10}
        exit_with 0

handler:
        mov     rbx, rsi                ; siginfo
        mov     eax, [rbx + 8]
        show_dec "SIGBUS si_code", rax
        exit_with 0

section .data
align 8
words:  dq 0x1122334455667788
