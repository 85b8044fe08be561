; conformance: traps: int3 ends the program with SIGTRAP
; int3 (the breakpoint) raises #BP; with no handler and no debugger the program dies by
; SIGTRAP (status 133).
%include "probe.inc"
global _start
_start:
        say     {"before int3", 10}
        int3
        say     {"after int3", 10}
        exit_with 0
