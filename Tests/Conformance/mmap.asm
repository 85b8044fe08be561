; conformance: memory: what mmap returns for anonymous mappings and bad arguments
; mmap(NULL, 4096) returns a page-aligned, zero-filled address below 2^47; a hint that is free
; is taken as given; length 0 is -EINVAL (-22), and so is munmap of an address that is not
; page-aligned. The probe prints facts, not addresses.
%include "probe.inc"
%macro anon 2                           ; rax = mmap(%1, %2, RW, MAP_PRIVATE | MAP_ANONYMOUS)
        mov     rdi, %1
        mov     rsi, %2
        mov     edx, 3
        mov     r10d, 0x22
        mov     r8, -1
        xor     r9d, r9d
        mov     eax, 9
        syscall
%endmacro
global _start
_start:
        anon    0, 4096
        mov     rbx, rax
        test    ebx, 4095
        show_if "mmap(NULL) page-aligned", z
        mov     rax, rbx
        shr     rax, 47
        show_if "below 2^47", z
        mov     rax, [rbx + 4088]
        or      rax, [rbx]
        show_if "zero-filled", z
        mov     r12, 0x200000000        ; 8 GiB: free in a static program
        anon    r12, 4096
        cmp     rax, r12
        show_if "a free hint taken", e
        anon    0, 0
        show_dec "length 0", rax
        lea     rdi, [rbx + 1]
        mov     esi, 4096
        mov     eax, 11                 ; munmap
        syscall
        show_dec "munmap(address + 1)", rax
        exit_with 0
