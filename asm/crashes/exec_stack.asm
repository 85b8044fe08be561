; Copies `mov eax, 7 / ret` onto the stack and calls it: the stack is not executable unless the
; link says `-z execstack` (or an object's .note.GNU-stack section asks for it).
section .text
global _start
_start:
        sub     rsp, 24
        mov     byte [rsp], 0xb8        ; mov eax, imm32
        mov     dword [rsp+1], 7
        mov     byte [rsp+5], 0xc3      ; ret
        mov     rax, rsp
        call    rax                     ; crash: the code is on the stack
        mov     edi, eax
        mov     eax, 60
        syscall
