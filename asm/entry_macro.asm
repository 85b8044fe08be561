; The entry symbol is chosen by a macro: with `-D USE_LIBC` the program is `main` calling puts
; (linked with the C driver), without it `_start` with raw system calls (linked with ld).
; asmrun decides after assembling, from the symbols nasm wrote.
%ifdef USE_LIBC
  %define ENTRY main
%else
  %define ENTRY _start
%endif

section .data
msg:    db "entry chosen by a macro", 10, 0
len:    equ $ - msg - 1

section .text
global ENTRY
ENTRY:
%ifdef USE_LIBC
        extern  puts
        push    rbp                     ; align the stack for the call
        lea     rdi, [rel msg]
        mov     byte [rdi + len - 1], 0 ; puts adds its own newline
        call    puts
        pop     rbp
        xor     eax, eax
        ret
%else
        mov     eax, 1
        mov     edi, 1
        lea     rsi, [rel msg]
        mov     edx, len
        syscall
        mov     eax, 60
        xor     edi, edi
        syscall
%endif
