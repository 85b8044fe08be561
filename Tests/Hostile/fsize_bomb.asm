; Writes a file in its working directory, 1 MiB at a time, up to 1 GiB. The file-size limit
; (64 MiB) ends it with SIGXFSZ; the file goes with the case folder.
%include "sys.inc"
section .data
name:   db "big.bin", 0
section .bss
chunk:  resb 1 << 20
section .text
global _start
_start:
        mov     eax, SYS_open
        lea     rdi, [rel name]
        mov     esi, 0x241              ; O_WRONLY | O_CREAT | O_TRUNC
        mov     edx, 0o644
        syscall
        mov     ebx, eax
        mov     r12d, 1024
.loop:  mov     eax, SYS_write
        mov     edi, ebx
        lea     rsi, [rel chunk]
        mov     edx, 1 << 20
        syscall
        test    rax, rax
        js      .done
        dec     r12d
        jnz     .loop
.done:  exit_with 0
