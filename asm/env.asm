; Prints the value of the GREETING environment variable, found by scanning envp; exits 1
; when it is not set. Cases set it with `env:` lines; asmrun test gives every case the same
; small, fixed environment otherwise.
%include "lib/io.asm"

section .data
key:    db "GREETING="
keylen  equ $ - key
unset:  db "GREETING is not set", 10
unsetlen equ $ - unset

section .text
global _start
_start:
        mov     rax, [rsp]                      ; argc
        lea     rbx, [rsp + 16 + rax * 8]       ; envp follows argv and its NULL
.next:  mov     rsi, [rbx]
        test    rsi, rsi
        jz      .missing
        lea     rdi, [rel key]
        mov     ecx, keylen
        repe    cmpsb
        je      .found                          ; all of "GREETING=" matched
        add     rbx, 8
        jmp     .next
.found: call    print_cstr                      ; rsi is just past the '='
        call    print_newline
        xor     edi, edi
        jmp     exit
.missing:
        lea     rsi, [rel unset]
        mov     edx, unsetlen
        call    print_str
        mov     edi, 1
        jmp     exit
