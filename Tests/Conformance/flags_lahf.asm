; conformance: flags: lahf and sahf
; lahf copies SF ZF 0 AF 0 PF 1 CF into ah (bits 7..0; bit 1 always 1, bits 3 and 5 always 0);
; sahf copies ah back to the low byte of RFLAGS with the same fixed bits. 64-bit lahf needs
; the LAHF-SAHF CPUID bit, which every x86_64 CPU made since 2006 has.
%include "probe.inc"
global _start
_start:
        mov     al, 0x0f
        add     al, 0xf1                ; 0 with CF, PF, AF and ZF
        lahf
        movzx   eax, ah
        show_hex "lahf after 0x0f + 0xf1", rax
        xor     eax, eax
        not     eax                     ; (not sets no flag)
        mov     ah, 0xff
        sahf                            ; ah = 0xff: every flag sahf writes
        pushfq
        pop     rax
        and     eax, 0xff
        show_hex "low byte of rflags after sahf of 0xff", rax
        mov     ah, 0
        sahf
        lahf
        movzx   eax, ah
        show_hex "lahf after sahf of 0", rax
        exit_with 0
