; Forgets the exit system call: after the last `syscall` the processor runs whatever bytes
; follow the code, and dies. asmrun's report names the last line that ran and says why.
section .data
msg:    db "bye", 10

section .text
global _start
_start:
        mov     eax, 1                  ; write(1, msg, 4)
        mov     edi, 1
        lea     rsi, [rel msg]
        mov     edx, 4
        syscall                         ; crash: the last instruction
