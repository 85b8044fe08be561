; Opens the memory map and the memory of its namespace's init (PID 1), which is asmrun's
; memory, expectations of every case included. Contained: both refused (the init is not
; dumpable, so only CAP_SYS_PTRACE could open them).
%include "attack.inc"
section .data
maps:   db "/proc/1/maps", 0
mem:    db "/proc/1/mem", 0
text maps_open, "maps: opened"
text maps_refused, "maps: refused"
text mem_open, "mem: opened"
text mem_refused, "mem: refused"
section .text
global _start
_start:
        mov     eax, SYS_open
        lea     rdi, [rel maps]
        xor     esi, esi
        syscall
        test    rax, rax
        js      .maps_refused
        say     maps_open
        jmp     .mem
.maps_refused:
        say     maps_refused
.mem:   mov     eax, SYS_open
        lea     rdi, [rel mem]
        xor     esi, esi
        syscall
        test    rax, rax
        js      .mem_refused
        say     mem_open
        exit_with 0
.mem_refused:
        say     mem_refused
        exit_with 0
