; Two sources, one program: `triple` lives in triple.asm. The directive names the other file, so
; `asmrun two_files/main.asm` (or `asmrun two_files`) assembles both and links them together.
; asmrun: with triple.asm
extern triple
section .text
global _start
_start:
        mov     edi, 14
        call    triple                  ; eax = 42
        mov     edi, eax
        mov     eax, 60                 ; exit(42)
        syscall
