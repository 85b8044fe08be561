; Calls with nothing between them, which the ABI checks must follow: `call printf` returns to
; the `call down` that recurses, so a return from C and a call share one address.
        global  main
        global  down
        extern  printf

        section .rodata
format: db      "%ld", 10, 0

        section .text
main:
        push    rbx
        mov     ebx, 3
        call    down
        pop     rbx
        xor     eax, eax
        ret

; Prints rbx - 1 down to 0, one line each, keeping rbx.
down:
        push    rbx
        test    rbx, rbx
        jz      .done
        dec     rbx
        lea     rdi, [rel format]
        mov     rsi, rbx
        xor     eax, eax
        call    printf wrt ..plt
        call    down
.done:
        pop     rbx
        ret
