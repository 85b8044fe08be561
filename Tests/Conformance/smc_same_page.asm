; conformance: self-modifying code: a store to an instruction a few bytes ahead in the same page
; The CPU notices a store to code it may already have fetched or decoded and runs the new
; bytes (Intel SDM 11.6). The routine, copied into an RWX mapping, stores a new immediate into
; its own `mov eax, imm32` two instructions later and returns what that mov loaded.
%include "probe.inc"
global _start
_start:
        map_rwx_page
        mov     rbx, rax
        lea     rsi, [rel routine]
        mov     rdi, rbx
        mov     ecx, routine_end - routine
        rep     movsb
        call    rbx
        show_dec "routine returned", rax
        call    rbx                     ; the mov now holds 2 before the store too
        show_dec "second call returned", rax
        exit_with 0

section .rodata
routine:                                ; position-independent, copied into the mapping
        lea     rdx, [rel .mov + 1]
        mov     dword [rdx], 2          ; the immediate of .mov, 1 before
.mov:   mov     eax, 1
        ret
routine_end:
