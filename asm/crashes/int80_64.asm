; 64-bit code written the 32-bit way, `int 0x80` with the 32-bit call numbers, and a message on
; the stack, above 4 GiB. Natively the 32-bit interface sees only the low half of rcx: the write
; fails (EFAULT), nothing is printed, and exit(0) works. qemu-x86_64 makes 64-bit system calls
; of them instead, where 4 is stat and 1 is write: the "exit" returns, and the program runs off
; the end of its code.
bits 64
section .text
global _start
_start:
        mov     rax, 0x0a6968           ; "hi\n" on the stack
        push    rax
        mov     eax, 4                  ; write (the 32-bit number)
        mov     ebx, 1
        mov     rcx, rsp
        mov     edx, 3
        int     0x80
        mov     eax, 1                  ; exit (the 32-bit number)
        xor     ebx, ebx
        int     0x80                    ; crash (under qemu): the last instruction
