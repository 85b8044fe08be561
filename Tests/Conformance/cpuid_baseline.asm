; conformance: cpuid: the feature bits every x86_64 CPU has
; Every x86_64 processor reports, in leaf 1 edx: TSC (4), CX8 (8), CMOV (15), MMX (23), FXSR
; (24), SSE (25), SSE2 (26); in leaf 0x80000001 edx: SYSCALL (11), NX (20), long mode (29).
; Vendor, model and the newer features vary by host and are not printed.
%include "probe.inc"
global _start
_start:
        xor     eax, eax
        cpuid
        cmp     eax, 1
        show_if "max basic leaf >= 1", ae
        mov     eax, 1
        cpuid
        mov     r12d, edx
        bt      r12d, 26
        show_if "SSE2", c
        and     r12d, (1 << 4) | (1 << 8) | (1 << 15) | (1 << 23) | (1 << 24) | (1 << 25)
        cmp     r12d, (1 << 4) | (1 << 8) | (1 << 15) | (1 << 23) | (1 << 24) | (1 << 25)
        show_if "TSC CX8 CMOV MMX FXSR SSE", e
        mov     eax, 0x80000000
        cpuid
        cmp     eax, 0x80000001
        show_if "max extended leaf >= 0x80000001", ae
        mov     eax, 0x80000001
        cpuid
        mov     r12d, edx
        and     r12d, (1 << 11) | (1 << 20) | (1 << 29)
        cmp     r12d, (1 << 11) | (1 << 20) | (1 << 29)
        show_if "SYSCALL NX LM", e
        exit_with 0
