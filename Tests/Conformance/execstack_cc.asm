; conformance: executable stack: a `main` program linked by the C compiler without a .note.GNU-stack section runs code from its stack
; asmrun: xfail native asmrun links libc programs with -z noexecstack unless an object's .note.GNU-stack or -z execstack asks for an executable stack; the classic `cc -no-pie` build of a nasm object without the note makes it executable, with a warning that binutils deprecates it (README: what asmrun's build adds)
; asmrun: xfail qemu asmrun links libc programs with -z noexecstack unless an object's .note.GNU-stack or -z execstack asks for an executable stack; the classic `cc -no-pie` build of a nasm object without the note makes it executable, with a warning that binutils deprecates it (README: what asmrun's build adds)
; nasm writes no .note.GNU-stack section; linked with libc's start files (`cc -no-pie x.o`),
; GNU ld then writes PT_GNU_STACK with PF_X ("missing .note.GNU-stack section implies
; executable stack") and code stored on the stack runs (it returns 42).
%include "probe.inc"
global main
main:
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
