; A function that pushes without popping: its `ret` returns to the pushed value, not to the
; caller (rbx, 0 here), and the processor jumps there. The report names the call of the function
; whose `ret` went astray (which `ret` it was, nothing on the stack says).
section .text
global _start
_start:
        call    work                    ; crash: work returns to rbx, not here
        mov     eax, 60
        xor     edi, edi
        syscall

work:
        push    rbx                     ; saved, never restored
        ret
