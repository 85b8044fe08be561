; conformance: cpuid: lzcnt and tzcnt behave as CPUID says
; lzcnt and tzcnt are encoded as `rep bsr` and `rep bsf`: a CPU without LZCNT (CPUID
; 0x80000001 ecx bit 5) or BMI1 (leaf 7 ebx bit 3) runs them as bsr/bsf, silently. Which one a
; host has varies, so the probe prints whether each instruction gave the result its CPUID bit
; promises (lzcnt 1 = 31 or bsr 1 = 0; tzcnt 0 = 32 or bsf 0 leaving the destination).
%include "probe.inc"
global _start
_start:
        mov     eax, 0x80000001
        cpuid
        bt      ecx, 5
        setc    r12b                    ; LZCNT
        mov     eax, 7
        xor     ecx, ecx
        cpuid
        bt      ebx, 3
        setc    r13b                    ; BMI1 (tzcnt)
        mov     eax, 1
        mov     ebx, 99
        lzcnt   ebx, eax
        mov     ecx, 31                 ; with LZCNT
        test    r12b, r12b
        jnz     .lz
        xor     ecx, ecx                ; bsr 1 = 0
.lz:    cmp     ebx, ecx
        show_if "lzcnt as cpuid says", e
        xor     eax, eax
        mov     ebx, 99
        tzcnt   ebx, eax
        mov     ecx, 32                 ; with BMI1
        test    r13b, r13b
        jnz     .tz
        mov     ecx, 99                 ; bsf 0 leaves it
.tz:    cmp     ebx, ecx
        show_if "tzcnt as cpuid says", e
        exit_with 0
