; conformance: other: rcpss and rsqrtss (as rcpps, rsqrtps) are approximations on hardware
; divergence: inherent: qemu 7.2 computes rcpps and rsqrtps exactly (1/x and 1/sqrt(x) in the host's floating point), where x86 CPUs give an approximation with a relative error up to 1.5 * 2^-12 that differs between vendors; a program comparing such a result with an exact value passes under qemu only
; The probe prints only whether each result is the correctly rounded exact value (1/3, and
; 1/sqrt(5)) and whether the first is within 2^-10 of it: vendors' approximations differ.
%include "probe.inc"
global _start
_start:
        movss   xmm0, [rel three]
        rcpss   xmm1, xmm0
        movd    eax, xmm1
        cmp     eax, 0x3eaaaaab         ; 1/3 rounded to nearest
        show_if "rcpss(3) is the exact 1/3", e
        movd    eax, xmm1
        sub     eax, 0x3eaaaaab
        add     eax, 8192               ; within 2^13 units of the last place: 2^-10 relative
        cmp     eax, 16384
        show_if "rcpss(3) within 2^-10 of 1/3", b
        movss   xmm2, [rel five]
        rsqrtss xmm1, xmm2
        movd    eax, xmm1
        cmp     eax, 0x3ee4f92e         ; 1/sqrt(5) rounded to nearest
        show_if "rsqrtss(5) is the exact 1/sqrt(5)", e
        exit_with 0

section .rodata
three:  dd 3.0
five:   dd 5.0
