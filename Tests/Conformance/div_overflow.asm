; conformance: div: a quotient too large for its register ends the program with SIGFPE
; Dividing edx:eax = 0x1_0000_0000 by 1 gives a quotient that does not fit eax: #DE, as for a
; division by zero, and SIGFPE (status 136).
%include "probe.inc"
global _start
_start:
        say     {"dividing 2^32 by 1 in 32 bits", 10}
        xor     eax, eax
        mov     edx, 1
        mov     ecx, 1
        div     ecx
        say     {"still running", 10}
        exit_with 0
