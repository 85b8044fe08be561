; conformance: traps: hlt in user mode ends the program with SIGSEGV
; hlt is privileged: from ring 3 it raises #GP, which Linux delivers as SIGSEGV (status 139),
; not SIGILL.
%include "probe.inc"
global _start
_start:
        say     {"before hlt", 10}
        hlt
        say     {"after hlt", 10}
        exit_with 0
