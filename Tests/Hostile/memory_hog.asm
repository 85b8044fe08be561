; Maps and touches memory 64 MiB at a time, up to 4 GiB, then prints how many MiB it got and
; exits 0. The address-space limit (1 GiB natively) stops it long before the machine suffers.
; Populating 4 GiB under qemu takes seconds on an idle machine and more on a loaded one: it is
; given a minute, not raced against the default 10 s (the tests raise the ceiling to match).
; asmrun: timeout 60
%include "sys.inc"
section .data
label:  db " MiB", 10
section .bss
digits: resb 32
section .text
global _start
_start:
        xor     r12d, r12d              ; MiB obtained
.more:  cmp     r12d, 4096
        jae     .report
        mov     eax, SYS_mmap
        xor     edi, edi
        mov     esi, 64 << 20
        mov     edx, 3
        mov     r10d, 0x8022            ; MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE
        mov     r8, -1
        xor     r9d, r9d
        syscall
        cmp     rax, -4096
        ja      .report
        add     r12d, 64
        jmp     .more
.report:
        mov     eax, r12d
        lea     rsi, [rel digits + 31]
        mov     ecx, 10
.digit: xor     edx, edx
        div     ecx
        add     dl, '0'
        mov     [rsi], dl
        dec     rsi
        test    eax, eax
        jnz     .digit
        inc     rsi
        lea     rdx, [rel digits + 32]
        sub     rdx, rsi
        mov     eax, SYS_write
        mov     edi, 1
        syscall
        write_str 1, label, 5
        exit_with 0
