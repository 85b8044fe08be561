; A file of functions: no entry point of its own, linked into main.asm's program.
section .text
global triple
triple:                                 ; eax = 3 * edi
        lea     eax, [rdi + rdi*2]
        ret
