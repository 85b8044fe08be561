; Jumps to a label in .data: data pages are not executable.
section .data
table:  dq 1, 2, 3

section .text
global _start
_start:
        jmp     table                   ; crash: the jump lands in data
