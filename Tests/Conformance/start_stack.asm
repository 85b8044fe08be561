; conformance: start: the stack at _start (argc, argv, envp, alignment)
; The kernel starts a static program with rsp 16-byte aligned, pointing at argc, then argv[0..argc)
; and a NULL, then the environment strings' pointers and a NULL, then the auxiliary vector.
; Run as ./NAME with no arguments; the probe prints facts, not addresses.
%include "probe.inc"
global _start
_start:
        mov     rbx, rsp
        mov     rax, rbx
        and     eax, 15
        show_dec "rsp % 16", rax
        show_dec "argc", [rbx]
        mov     rax, [rbx]
        cmp     qword [rbx + 8 + rax * 8], 0
        show_if "argv[argc] is NULL", e
        mov     rsi, [rbx + 8]          ; argv[0]
        cmp     word [rsi], './'
        show_if "argv[0] starts with ./", e
        ; envp: the pointers after argv's NULL, up to the next NULL; all above rsp
        mov     rax, [rbx]
        lea     r12, [rbx + 16 + rax * 8]
        xor     r13d, r13d              ; pointers not above rsp
.env:   mov     rax, [r12]
        test    rax, rax
        jz      .aux
        cmp     rax, rbx
        ja      .next
        inc     r13
.next:  add     r12, 8
        jmp     .env
.aux:   test    r13, r13
        show_if "every envp string is above rsp", z
        ; the auxiliary vector follows envp's NULL and ends with AT_NULL (0, 0)
        lea     r12, [r12 + 8]
.pair:  cmp     qword [r12], 0
        je      .end
        add     r12, 16
        jmp     .pair
.end:   cmp     qword [r12 + 8], 0
        show_if "auxv ends with AT_NULL", e
        exit_with 0
