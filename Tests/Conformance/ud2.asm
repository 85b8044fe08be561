; conformance: traps: ud2 ends the program with SIGILL
; ud2 is the instruction defined to be invalid: #UD, SIGILL (status 132).
%include "probe.inc"
global _start
_start:
        say     {"before ud2", 10}
        ud2
        say     {"after ud2", 10}
        exit_with 0
