; conformance: other: lock cmpxchg, lock xadd and cmpxchg16b
; cmpxchg compares rax with memory: equal, it stores the new value and sets ZF; not equal, it
; loads the memory into rax and clears ZF. xadd returns the old value and stores the sum.
; cmpxchg16b (CX16, on every x86_64 CPU since 2006) does the same with rdx:rax and rcx:rbx.
%include "probe.inc"
global _start
_start:
        lea     rbx, [rel cell]
        mov     eax, 5
        mov     ecx, 9
        lock cmpxchg [rbx], rcx         ; cell is 5: becomes 9
        show_flags "cmpxchg 5 -> 9 on 5", ZF
        show_dec "cell", [rbx]
        mov     eax, 5
        mov     ecx, 7
        lock cmpxchg [rbx], rcx         ; cell is 9: rax = 9
        mov     r12, rax
        show_flags "cmpxchg 5 -> 7 on 9", ZF
        show_dec "rax", r12
        mov     eax, 100
        lock xadd [rbx], rax
        mov     r12, rax
        show_dec "xadd 100 returned", r12
        show_dec "cell", [rbx]
        lea     rsi, [rel pair]
        xor     eax, eax
        xor     edx, edx
        mov     ebx, 1
        mov     ecx, 2
        lock cmpxchg16b [rsi]           ; pair is 0:0, becomes 2:1
        show_flags "cmpxchg16b on 0:0", ZF
        lea     rsi, [rel pair]
        mov     rax, [rsi]
        add     rax, [rsi + 8]
        show_dec "pair sum", rax
        exit_with 0

section .data
cell:   dq 5
align 16
pair:   dq 0, 0
