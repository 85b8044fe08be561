; conformance: executable stack: a 64-bit program linked with `-z execstack` runs code from its stack
; asmrun: link-flags -z execstack
; `ld -z execstack` writes PT_GNU_STACK with PF_X and the kernel maps the stack executable:
; code stored on the stack runs (it returns 42). Without the flag see execstack_default.asm.
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
