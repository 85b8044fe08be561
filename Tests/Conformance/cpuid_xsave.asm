; conformance: cpuid: OSXSAVE, xgetbv and the AVX state agree
; CPUID leaf 1 ecx bit 27 (OSXSAVE) says the OS enabled XSAVE, and then xgetbv(0) reads XCR0,
; which has x87 and SSE state (bits 0, 1) always; Linux enables the AVX state (bit 2) exactly
; when CPUID reports AVX (ecx bit 28). Whether a host has AVX (or XSAVE) varies, so the probe
; prints only whether these facts agree, taking XCR0 as 0 without OSXSAVE (xgetbv would be #UD).
%include "probe.inc"
global _start
_start:
        mov     eax, 1
        cpuid
        mov     r12d, ecx
        xor     r13d, r13d              ; XCR0, 0 unless OSXSAVE
        bt      r12d, 27
        jnc     .check
        xor     ecx, ecx
        xgetbv                          ; edx:eax = XCR0
        mov     r13d, eax
        and     eax, 3
        cmp     eax, 3
        jne     .check
        or      r13d, 1 << 31           ; a mark: x87 and SSE state present
.check: bt      r12d, 27
        setc    al
        bt      r13d, 31
        setc    bl
        cmp     al, bl
        show_if "XCR0 has x87 and SSE state when OSXSAVE is set", e
        bt      r12d, 28                ; AVX reported
        setc    al
        bt      r13d, 2                 ; AVX state enabled
        setc    bl
        cmp     al, bl
        show_if "AVX bit matches XCR0 bit 2", e
        exit_with 0
