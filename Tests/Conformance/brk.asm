; conformance: memory: where brk starts and how it moves
; brk(0) returns the current break: page-aligned, at or above the page-aligned end of .bss
; (Linux randomizes it up to 1 GiB further when ASLR is fully on; qemu puts it right there: the
; probe prints facts true of both, not the address).
; brk(end + 1) returns exactly end + 1 (not rounded), and the new byte reads as zero.
%include "probe.inc"
global _start
_start:
        xor     edi, edi
        mov     eax, 12                 ; brk(0)
        syscall
        mov     rbx, rax
        test    ebx, 4095
        show_if "brk(0) page-aligned", z
        lea     r12, [rel bss_end + 4095]
        and     r12, -4096              ; the end of .bss, page-aligned
        cmp     rbx, r12
        show_if "brk(0) at or above the end of .bss", ae
        mov     rax, rbx
        sub     rax, r12
        cmp     rax, 1 << 30
        show_if "less than 1 GiB above it", b
        lea     rdi, [rbx + 1]
        mov     eax, 12                 ; brk(end + 1)
        syscall
        mov     r12, rax
        sub     rax, rbx
        show_dec "brk(end + 1) - end", rax
        movzx   eax, byte [rbx]
        show_dec "the new byte", rax
        mov     rdi, rbx
        mov     eax, 12                 ; back to where it was
        syscall
        sub     rax, rbx
        show_dec "brk(end) - end", rax
        exit_with 0

section .bss
        resb    100
bss_end:
