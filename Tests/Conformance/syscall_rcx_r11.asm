; conformance: syscall: rcx and r11 after `syscall`
; divergence: warned: qemu-user's syscall loop writes only rax and leaves rcx and r11 as they were (7.2, and still 10.0); asmrun warns where a program reads rcx or r11 after a syscall (issue 29 item 2)
; On hardware `syscall` puts the address of the next instruction in rcx and RFLAGS in r11
; (the kernel's sysret needs them); the probe zeroes both, calls getpid and prints whether each
; register now holds what hardware puts there, or still 0.
%include "probe.inc"
global _start
_start:
        xor     ecx, ecx                ; markers no address and no RFLAGS can be
        xor     r11d, r11d
        pushfq
        pop     rbx                     ; RFLAGS just before the syscall
        mov     eax, 39                 ; getpid
        syscall
after:  mov     r12, rcx
        mov     r13, r11
        lea     rax, [rel after]
        cmp     r12, rax
        show_if "rcx is the address after syscall", e
        mov     rax, r13                ; r11 is RFLAGS with RF (bit 16) cleared
        xor     rax, rbx
        test    rax, ~0x10000
        show_if "r11 is RFLAGS", z
        test    r12, r12
        show_if "rcx unchanged", z
        test    r13, r13
        show_if "r11 unchanged", z
        exit_with 0
