; asmrun: xfail all exceeds the output limit by design
; Writes zeros to stdout in 64 KiB chunks, up to 4 GiB (bounded, so a containment bug fails
; a test instead of filling the disk). asmrun keeps a bounded prefix and ends it.
%include "sys.inc"
section .bss
chunk:  resb 65536
section .text
global _start
_start:
        mov     r12, 65536              ; 65536 chunks of 64 KiB = 4 GiB
.loop:  write_str 1, chunk, 65536
        test    rax, rax
        js      .done
        dec     r12
        jnz     .loop
.done:  exit_with 0
