; conformance: start: general registers at _start
; A static program starts with every general register but rsp zero (the kernel's ELF_PLAT_INIT;
; rdx would be the dynamic loader's exit function, and there is none). The probe stores them
; first thing and prints the names of those that are not zero.
%include "probe.inc"
global _start
_start:
        mov     [rel saved + 0], rax
        mov     [rel saved + 8], rbx
        mov     [rel saved + 16], rcx
        mov     [rel saved + 24], rdx
        mov     [rel saved + 32], rsi
        mov     [rel saved + 40], rdi
        mov     [rel saved + 48], rbp
        mov     [rel saved + 56], r8
        mov     [rel saved + 64], r9
        mov     [rel saved + 72], r10
        mov     [rel saved + 80], r11
        mov     [rel saved + 88], r12
        mov     [rel saved + 96], r13
        mov     [rel saved + 104], r14
        mov     [rel saved + 112], r15
        say     "not zero:"
        xor     ebx, ebx
.next:  lea     rax, [rel saved]
        cmp     qword [rax + rbx * 8], 0
        je      .zero
        say     " "
        lea     rsi, [rel names]
        lea     rsi, [rsi + rbx * 4]
        mov     edx, 3
        call    put_str
.zero:  inc     ebx
        cmp     ebx, 15
        jb      .next
        say     {" (end)", 10}
        exit_with 0

section .data
names:  db "rax rbx rcx rdx rsi rdi rbp r8  r9  r10 r11 r12 r13 r14 r15 "
section .bss
saved:  resq 15
