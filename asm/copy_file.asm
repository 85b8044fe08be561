; Reads input.txt from its working directory and writes it upper-cased to output.txt. The case
; gets input.txt from copy_file.files/; the expectation checks output.txt like stdout.
section .data
input:  db "input.txt", 0
output: db "output.txt", 0

section .bss
buffer: resb 4096

section .text
global _start
_start:
        mov     eax, 2                  ; open("input.txt", O_RDONLY)
        lea     rdi, [rel input]
        xor     esi, esi
        syscall
        test    eax, eax
        js      .fail
        mov     edi, eax                ; read(fd, buffer, 4096)
        xor     eax, eax
        lea     rsi, [rel buffer]
        mov     edx, 4096
        syscall
        test    eax, eax
        js      .fail
        mov     r12, rax                ; bytes read
        xor     ecx, ecx
.upper: cmp     rcx, r12
        jae     .write
        mov     al, [rsi + rcx]
        cmp     al, 'a'
        jb      .next
        cmp     al, 'z'
        ja      .next
        sub     al, 32
        mov     [rsi + rcx], al
.next:  inc     rcx
        jmp     .upper
.write: mov     eax, 2                  ; open("output.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644)
        lea     rdi, [rel output]
        mov     esi, 0x241
        mov     edx, 0o644
        syscall
        test    eax, eax
        js      .fail
        mov     edi, eax                ; write(fd, buffer, n)
        mov     eax, 1
        lea     rsi, [rel buffer]
        mov     rdx, r12
        syscall
        mov     eax, 60                 ; exit(0)
        xor     edi, edi
        syscall
.fail:  mov     eax, 60                 ; exit(1)
        mov     edi, 1
        syscall
