; conformance: start: segment registers and the fs/gs bases of a static program
; A 64-bit program runs with cs = 0x33 and ss = 0x2b (the kernel's user segments), ds, es, fs
; and gs = 0. Nothing set up thread-local storage, so arch_prctl(ARCH_GET_FS / ARCH_GET_GS)
; returns base 0 for both.
%include "probe.inc"
%include "segments.inc"
global _start
_start:
        show_selectors
        sub     rsp, 16
        mov     edi, 0x1003             ; ARCH_GET_FS
        mov     rsi, rsp
        mov     eax, 158                ; arch_prctl
        syscall
        show_hex "fs base", [rsp]
        mov     edi, 0x1004             ; ARCH_GET_GS
        mov     rsi, rsp
        mov     eax, 158
        syscall
        show_hex "gs base", [rsp]
        exit_with 0
