; conformance: flags: CF and OF after mul and imul
; mul and imul set CF = OF = 1 exactly when the high half of the product is needed (mul: not 0;
; imul: not the sign extension of the low half). SF, ZF, AF and PF are undefined after them
; and differ between CPUs, so only CF and OF are printed.
%include "probe.inc"
global _start
_start:
        mov     eax, 0x10000
        mov     ecx, 0x10000
        mul     ecx                     ; edx:eax = 1:0
        show_flags "mul 0x10000 * 0x10000", CF|OF
        mov     eax, 3
        mov     ecx, 5
        mul     ecx
        show_flags "mul 3 * 5", CF|OF
        mov     eax, 0x40000000
        imul    eax, eax, 2             ; 0x80000000 does not fit a signed dword
        show_flags "imul 0x40000000 * 2", CF|OF
        mov     eax, -1
        mov     ecx, 1
        imul    ecx                     ; edx:eax = -1, edx is eax's sign
        show_flags "imul -1 * 1", CF|OF
        mov     rax, 0x100000000
        imul    rax, rax                ; 2^64 in 64 bits
        show_flags "imul 2^32 * 2^32", CF|OF
        mov     al, 16
        mov     cl, 16
        mul     cl                      ; ax = 256: ah is not 0
        show_flags "mul byte 16 * 16", CF|OF
        exit_with 0
