; conformance: exit: the 32-bit exit system call truncates its status too (elf32)
; asmrun: format elf32
; int 0x80 with eax = 1 (exit) and ebx = 0x1ff ends the program with status 0xff = 255.
%include "probe32.inc"
global _start
_start:
        say     {"exit(0x1ff)", 10}
        exit_with 0x1ff
