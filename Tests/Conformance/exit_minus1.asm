; conformance: exit: a negative status
; exit(-1) ends the program with status 255 (-1 & 0xff), through exit_group this time.
%include "probe.inc"
global _start
_start:
        say     {"exit_group(-1)", 10}
        mov     edi, -1
        mov     eax, 231                ; exit_group
        syscall
