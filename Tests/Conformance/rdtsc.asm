; conformance: other: rdtsc counts up
; rdtsc returns a 64-bit counter in edx:eax (upper halves of rax and rdx cleared) that never
; goes back; two reads 100000 loop iterations apart give a larger second value (under qemu on
; an ARM host too, whose counter may tick at only 25 MHz).
%include "probe.inc"
global _start
_start:
        mov     rax, -1
        mov     rdx, -1
        rdtsc
        mov     r8, rax
        or      r8, rdx
        shr     r8, 32
        show_if "upper halves of rax and rdx cleared", z
        rdtsc
        shl     rdx, 32
        or      rax, rdx
        mov     rbx, rax
        mov     ecx, 100000
.spin:  loop    .spin
        rdtsc
        shl     rdx, 32
        or      rax, rdx
        cmp     rax, rbx
        show_if "second read larger", a
        exit_with 0
