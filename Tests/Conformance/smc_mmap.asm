; conformance: self-modifying code: code written to an RWX mapping, run, rewritten, run again
; x86 keeps instruction fetch coherent with stores: code copied into a mapping from mmap
; (PROT_READ | PROT_WRITE | PROT_EXEC) runs as written, and after the program rewrites it the
; next call runs the new bytes, with no flush instruction. The code is `mov eax, imm32; ret`.
%include "probe.inc"
global _start
_start:
        map_rwx_page
        mov     rbx, rax
        mov     byte [rbx], 0xb8        ; mov eax, imm32
        mov     dword [rbx + 1], 111
        mov     byte [rbx + 5], 0xc3    ; ret
        call    rbx
        show_dec "first call", rax
        mov     dword [rbx + 1], 222    ; rewrite the immediate
        call    rbx
        show_dec "after rewriting the immediate", rax
        mov     word [rbx], 0xc031      ; xor eax, eax
        mov     byte [rbx + 2], 0xc3    ; ret
        call    rbx
        show_dec "after rewriting the instruction", rax
        exit_with 0
