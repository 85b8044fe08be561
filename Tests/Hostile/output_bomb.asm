; asmrun: xfail all exceeds the output limit by design
; Writes zeros to stdout in 64 KiB chunks, up to 4 GiB (bounded, so a containment bug fails
; a test instead of filling the disk). asmrun keeps a bounded prefix and ends it.
%include "sys.inc"
global _start
_start:
        flood   1
