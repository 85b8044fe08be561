; conformance: exit: the status is the low 8 bits of exit's argument
; exit(263) ends the program with status 263 & 0xff = 7: wait() reports 8 bits only.
%include "probe.inc"
global _start
_start:
        say     {"exit(256 + 7)", 10}
        exit_with 256 + 7
