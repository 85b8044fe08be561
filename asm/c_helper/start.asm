; `_start` in asm calling a helper written in C: the directive adds helper.c, and asmrun links
; with the C driver (libc available) while keeping this `_start` as the entry point.
; asmrun: with helper.c
extern square, exit
section .text
global _start
_start:
        mov     edi, 7
        call    square                  ; eax = 49
        mov     edi, eax
        call    exit                    ; libc's exit: flushes stdio, then exits with 49
