; conformance: executable stack: a 64-bit program without a .note.GNU-stack section runs no code from its stack
; nasm writes no .note.GNU-stack section, and `ld` then writes no PT_GNU_STACK header; for a
; 64-bit program Linux (since 5.8) keeps the stack non-executable all the same. Calling code
; stored on the stack gives SIGSEGV (SEGV_ACCERR, 2), which the handler reports.
%include "probe.inc"
global _start
_start:
        on_signal 11, handler
        sub     rsp, 16
        mov     dword [rsp], 0x00002ab8 ; mov eax, 42
        mov     word [rsp + 4], 0xc300  ; (the immediate's last byte) ret
        mov     rax, rsp
        call    rax
        show_dec "code on the stack returned", rax
        exit_with 0

handler:
        mov     rbx, rsi                ; siginfo
        mov     eax, [rbx + 8]
        show_dec "SIGSEGV executing the stack, si_code", rax
        exit_with 0
