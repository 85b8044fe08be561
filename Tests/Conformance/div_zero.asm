; conformance: div: division by zero ends the program with SIGFPE
; `div` by 0 raises #DE; with no handler the kernel kills the program with SIGFPE (shell
; status 136). The probe prints a line first, so a run that went on would show it.
%include "probe.inc"
global _start
_start:
        say     {"dividing by zero", 10}
        mov     eax, 7
        xor     edx, edx
        xor     ecx, ecx
        div     ecx
        say     {"still running", 10}
        exit_with 0
