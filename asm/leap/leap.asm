; The exercism layout: an asm function, a C test driver (leap_test.c) and its tiny assertion
; header (vendor/check.h). `asmrun leap` builds the folder as one program; so does
; `asmrun leap/leap.asm`, which finds the C driver beside it.
section .text
global leap_year
leap_year:                              ; int leap_year(int year): 1 when a leap year, else 0
        mov     eax, edi
        xor     edx, edx
        mov     ecx, 400
        div     ecx
        test    edx, edx
        jz      .yes                    ; divisible by 400
        mov     eax, edi
        xor     edx, edx
        mov     ecx, 100
        div     ecx
        test    edx, edx
        jz      .no                     ; divisible by 100 but not 400
        test    edi, 3
        jz      .yes                    ; divisible by 4
.no:    xor     eax, eax
        ret
.yes:   mov     eax, 1
        ret
