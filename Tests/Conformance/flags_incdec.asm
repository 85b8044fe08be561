; conformance: flags: inc and dec keep CF and set OF, AF, PF, SF and ZF
; inc and dec define every status flag but CF, which they leave as it was (add 1 would set it).
%include "probe.inc"
global _start
_start:
        stc
        mov     eax, 0x7fffffff
        inc     eax                     ; signed overflow, a carry out of bit 3
        show_flags "inc 0x7fffffff with CF", CF|PF|AF|ZF|SF|OF
        clc
        xor     eax, eax                ; clears CF too
        dec     eax
        show_flags "dec 0", CF|PF|AF|ZF|SF|OF
        stc
        mov     al, 0xff
        inc     al
        show_flags "inc byte 0xff with CF", CF|PF|AF|ZF|SF|OF
        mov     eax, 0x80000000
        clc
        dec     eax
        show_flags "dec 0x80000000", CF|PF|AF|ZF|SF|OF
        exit_with 0
