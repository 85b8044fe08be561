; conformance: cpuid: an AVX instruction runs exactly when CPUID says AVX is usable
; AVX is usable when CPUID leaf 1 ecx has AVX (28) and OSXSAVE (27) and XCR0 has bits 1 and 2.
; Then vaddps ymm runs; otherwise it raises #UD (SIGILL). Hosts differ in whether they have
; AVX, so the probe prints whether the outcome matched the promise, not the outcome itself.
%include "probe.inc"
global _start
_start:
        on_signal 4, handler            ; SIGILL
        xor     r12d, r12d              ; r12 = 1 when AVX is usable
        mov     eax, 1
        cpuid
        and     ecx, (1 << 27) | (1 << 28)
        cmp     ecx, (1 << 27) | (1 << 28)
        jne     .try
        xor     ecx, ecx
        xgetbv
        and     eax, 6
        cmp     eax, 6
        sete    r12b
.try:   vxorps  ymm0, ymm0, ymm0
        vaddps  ymm0, ymm0, ymm0
        vzeroupper
        cmp     r12d, 1
        show_if "vaddps did what CPUID promised", e
        exit_with 0

handler:                                ; #UD: right when AVX is not usable
        test    r12d, r12d
        show_if "vaddps did what CPUID promised", z
        exit_with 0
