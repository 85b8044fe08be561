; conformance: flags: the BCD instructions daa, das, aaa, aam and aad (elf32)
; asmrun: format elf32
; Decimal adjusts exist only outside 64-bit mode. daa/das define SF ZF AF PF CF; aaa defines
; AF and CF; aam/aad define SF ZF PF. The others are undefined and not printed.
%include "probe32.inc"
global _start
_start:
        mov     al, 0x79
        add     al, 0x35                ; 0xae
        daa                             ; 79 + 35 = 114: al 0x14, CF
        movzx   ebx, al
        show_result "daa of 0x79 + 0x35", ebx, CF|PF|AF|ZF|SF
        mov     al, 0x35
        sub     al, 0x47
        das                             ; 35 - 47 = -12: al 0x88, CF (a borrow)
        movzx   ebx, al
        show_result "das of 0x35 - 0x47", ebx, CF|PF|AF|ZF|SF
        mov     ax, 0x0009
        add     al, 8
        aaa                             ; 9 + 8 = 17: ax 0x0107
        movzx   ebx, ax
        show_result "aaa of 9 + 8", ebx, CF|AF
        mov     al, 63
        aam                             ; ah 6, al 3
        movzx   ebx, ax
        show_result "aam of 63", ebx, PF|ZF|SF
        mov     ax, 0x0207
        aad                             ; al 27
        movzx   ebx, ax
        show_result "aad of 0x0207", ebx, PF|ZF|SF
        exit_with 0
