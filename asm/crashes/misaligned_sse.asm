; Adds four floats from a table that follows a 4-byte count: the table is 4 bytes past a
; multiple of 16, and `addps` (like every legacy SSE instruction with a 16-byte memory operand
; but movups) needs it 16-byte aligned. x86 raises a general-protection fault, qemu too for
; addps (not for xorps, andps, shufps…: Tests/Conformance/sse_misaligned_xorps.asm).
section .data
align 16
count:  dd 4
table:  dd 1.0, 2.0, 3.0, 4.0           ; `align 16` before it would fix it

section .text
global _start
_start:
        xorps   xmm0, xmm0
        addps   xmm0, [rel table]       ; crash: table is not 16-byte aligned
        mov     eax, 60
        xor     edi, edi
        syscall
