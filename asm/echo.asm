; cat: copies standard input to standard output until end-of-file.
section .bss
buf:    resb 4096

section .text
global _start
_start:
.read:  xor     eax, eax                ; read(0, buf, 4096)
        xor     edi, edi
        lea     rsi, [rel buf]
        mov     edx, 4096
        syscall
        test    rax, rax
        jle     .done                   ; 0: end of input; negative: error
        mov     rdx, rax                ; write(1, buf, n)
        mov     eax, 1
        mov     edi, 1
        lea     rsi, [rel buf]
        syscall
        jmp     .read
.done:  mov     eax, 60
        xor     edi, edi
        syscall
