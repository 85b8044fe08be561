; asmrun: skip qemu TCG cannot emulate AVX-512
; Sums 1..16 with one AVX-512 add when the CPU and kernel support it, with a scalar loop
; otherwise: the output is the same either way. Skipped under qemu, which has no AVX-512.
%include "lib/io.asm"

section .data
align 64
ones:   times 16 dd 1
seq:    dd 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
label:  db "sum of 1..16: "
labellen equ $ - label

section .bss
alignb 64
vec:    resd 16

section .text
global _start
_start:
        call    has_avx512
        test    eax, eax
        jz      .scalar
        vmovdqa32 zmm0, [rel seq]
        vpaddd  zmm0, zmm0, [rel ones]  ; 1..16
        vmovdqa32 [rel vec], zmm0
        vzeroupper
        jmp     .sum
.scalar:
        lea     rbx, [rel vec]
        xor     ecx, ecx
.fill:  lea     eax, [rcx + 1]
        mov     [rbx + rcx * 4], eax
        inc     ecx
        cmp     ecx, 16
        jb      .fill
.sum:   lea     rbx, [rel vec]
        xor     eax, eax
        xor     ecx, ecx
.add:   add     eax, [rbx + rcx * 4]
        inc     ecx
        cmp     ecx, 16
        jb      .add
        mov     r12, rax
        lea     rsi, [rel label]
        mov     edx, labellen
        call    print_str
        mov     rax, r12
        call    print_uint
        call    print_newline
        xor     edi, edi
        jmp     exit

; has_avx512: eax = 1 when CPUID reports AVX-512F and the OS saves the ZMM state.
has_avx512:
        push    rbx
        mov     eax, 1
        cpuid
        bt      ecx, 27                 ; OSXSAVE
        jnc     .no
        mov     eax, 7
        xor     ecx, ecx
        cpuid
        bt      ebx, 16                 ; AVX512F
        jnc     .no
        xor     ecx, ecx
        xgetbv                          ; XCR0: need SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM
        and     eax, 0xe6
        cmp     eax, 0xe6
        jne     .no
        mov     eax, 1
        pop     rbx
        ret
.no:    xor     eax, eax
        pop     rbx
        ret
