; asmrun: qemu-cpu qemu64
; Uses an AVX2 instruction. Natively (on any AVX2 machine) it prints "avx2 ok"; under qemu
; with the plain qemu64 CPU model, which has no AVX, it dies by SIGILL. The .expect file
; records that difference as a qemu-specific expectation instead of a second copy of the case.
%include "lib/io.asm"

section .data
ok:     db "avx2 ok", 10

section .text
global _start
_start:
        vpxor   ymm0, ymm0, ymm0
        vzeroupper
        lea     rsi, [rel ok]
        mov     edx, 8
        call    print_str
        xor     edi, edi
        jmp     exit
