; Adds two vectors of eight 32-bit integers with one AVX2 instruction and prints the sums.
; qemu 7.2's default CPU model emulates AVX2, so native and qemu agree.
%include "lib/io.asm"

section .data
align 32
a:      dd 1, 2, 3, 4, 5, 6, 7, 8
b:      dd 10, 20, 30, 40, 50, 60, 70, 80

section .bss
alignb 32
sums:   resd 8

section .text
global _start
_start:
        vmovdqa ymm0, [rel a]
        vpaddd  ymm0, ymm0, [rel b]
        vmovdqa [rel sums], ymm0
        vzeroupper
        lea     rbx, [rel sums]
        xor     r12, r12
.next:  mov     eax, [rbx + r12 * 4]
        call    print_uint
        inc     r12
        cmp     r12, 8
        je      .done
        mov     dil, ' '
        call    print_char
        jmp     .next
.done:  call    print_newline
        xor     edi, edi
        jmp     exit
