; Output helpers shared by several samples. This file is only %include'd, never run on its own;
; asmrun notices that (and the directive below says it too).
; asmrun: include-only
;
; Convention: arguments in rax/rsi/rdx/dil as noted; rax, rcx, rdx, rsi, rdi, r8, r11 are
; clobbered; rbx, rbp and r12-r15 are preserved.

section .text

; print_str: write rdx bytes at rsi to stdout.
print_str:
        mov     eax, 1
        mov     edi, 1
        syscall
        ret

; print_cstr: write the NUL-terminated string at rsi.
print_cstr:
        mov     rdx, rsi
.scan:  cmp     byte [rdx], 0
        je      .found
        inc     rdx
        jmp     .scan
.found: sub     rdx, rsi
        jmp     print_str

; print_uint: write rax as an unsigned decimal number.
print_uint:
        sub     rsp, 32
        lea     rsi, [rsp + 31]
        mov     ecx, 10
.digit: xor     edx, edx
        div     rcx
        add     dl, '0'
        mov     [rsi], dl
        dec     rsi
        test    rax, rax
        jnz     .digit
        inc     rsi
        lea     rdx, [rsp + 32]
        sub     rdx, rsi
        call    print_str
        add     rsp, 32
        ret

; print_char: write the byte in dil.
print_char:
        push    rdi
        mov     rsi, rsp
        mov     edx, 1
        call    print_str
        pop     rdi
        ret

; print_newline: write "\n".
print_newline:
        mov     dil, 10
        jmp     print_char

; exit: end the process with status edi.
exit:
        mov     eax, 60
        syscall
