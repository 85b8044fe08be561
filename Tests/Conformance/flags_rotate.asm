; conformance: flags: CF and OF after rotates by 1, and rotates whose masked count is a full turn
; A rotate by 1 defines CF and OF; by more, OF is undefined (not printed). rol al, 8 rotates a
; full turn: al keeps its value but CF gets its low bit (the masked count, 8, is not 0).
; rcl al, 9 turns through CF by 9 mod 9 = 0 places: al and CF stay as they were.
%include "probe.inc"
global _start
_start:
        mov     eax, 0x80000000
        rol     eax, 1
        show_flags "rol 0x80000000, 1", CF|OF
        mov     eax, 1
        ror     eax, 1
        show_flags "ror 1, 1", CF|OF
        stc
        mov     eax, 0x40000000
        rcl     eax, 1                  ; CF into bit 0, bit 31 into CF
        show_result "rcl 0x40000000, 1 with CF", rax, CF|OF
        clc
        mov     al, 0x81
        rol     al, 8
        movzx   ebx, al
        show_result "rol 0x81, 8", rbx, CF
        stc
        mov     al, 0x42
        rcl     al, 9
        movzx   ebx, al
        show_result "rcl 0x42, 9 with CF", rbx, CF
        exit_with 0
