; conformance: start: the order of the environment a program starts with
; divergence: compensated: qemu-user builds the guest's environment by putting each variable at the head of a list (util/envlist.c), so under qemu 7.2 a program sees its environment reversed (later versions load qemu's own environment from its end); asmrun hands qemu the case's environment as `-E` options in reverse, which every version puts in the order given
; The entries' count and the names of the first and last (their values hold the case's folder).
%include "probe.inc"
global _start
_start:
        mov     rax, [rsp]              ; argc
        lea     rbx, [rsp + 8*rax + 16] ; envp
        xor     ebp, ebp                ; entries
.count: cmp     qword [rbx + 8*rbp], 0
        je      .counted
        inc     rbp
        jmp     .count
.counted:
        show_dec "entries", rbp
        test    rbp, rbp
        jz      .done
        say     "first: "
        mov     rsi, [rbx]
        call    put_name
        say     "last: "
        mov     rsi, [rbx + 8*rbp - 8]
        call    put_name
.done:  exit_with 0

; put_name: the name of the entry at rsi (up to its `=`), then a newline.
put_name:
        xor     edx, edx
.scan:  mov     al, [rsi + rdx]
        test    al, al
        jz      .found
        cmp     al, '='
        je      .found
        inc     rdx
        jmp     .scan
.found: call    put_str
        jmp     put_newline
