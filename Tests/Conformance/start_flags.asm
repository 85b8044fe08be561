; conformance: start: RFLAGS at _start
; A program starts with RFLAGS = 0x202: IF set, the always-one bit 1, and every status flag,
; DF (string direction), TF and AC clear.
%include "probe.inc"
global _start
_start:
        pushfq
        pop     rbx
        show_hex "rflags", rbx
        bt      rbx, 10
        show_if "DF set", c
        exit_with 0
