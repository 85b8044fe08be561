; conformance: faults: misaligned loads and stores need no alignment (no fault, the right bytes)
; Ordinary x86 loads and stores take any address, across a cache line and a page boundary too
; (AC is clear, see alignment_check.asm). The probe stores and loads 8 bytes at odd offsets.
%include "probe.inc"
global _start
_start:
        lea     rbx, [rel pages]
        mov     r12, 0x0807060504030201
        mov     [rbx + 1], r12
        show_hex "load at +1", [rbx + 1]
        mov     [rbx + 61], r12         ; bytes 61..68: across a 64-byte line
        show_hex "load at +61", [rbx + 61]
        mov     [rbx + 4093], r12       ; bytes 4093..4100: across the page
        show_hex "load at +4093", [rbx + 4093]
        movzx   eax, word [rbx + 4095]
        show_hex "word at +4095", rax
        exit_with 0

section .bss
alignb 4096
pages:  resb 8192
