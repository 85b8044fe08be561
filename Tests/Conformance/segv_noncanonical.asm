; conformance: faults: reading a non-canonical address
; divergence: inherent: qemu-user 7.2 treats a non-canonical address as an unmapped one (SEGV_MAPERR, 1) where the CPU raises #GP (si_code SI_KERNEL, 0x80); both give SIGSEGV with si_addr 0, so only a handler that reads si_code sees it
; x86_64 addresses must have bits 63..47 all equal. Touching 0x8000000000000000 is no page
; fault but a general protection fault: SIGSEGV with si_code SI_KERNEL (0x80) and si_addr 0.
%include "probe.inc"
global _start
_start:
        on_signal 11, handler
        mov     rbx, 0x8000000000000000
        mov     al, [rbx]
        exit_with 1

handler:
        show_code_addr "si_code"
        exit_with 0
