; Functions C calls. count_odd uses rbx, which belongs to its caller: it saves and restores it.
; asmrun: with main.c
extern puts
section .text
global count_odd, add3, shout

; long count_odd(const long *values, long n)
count_odd:
        push    rbx                     ; abi: rbx is the caller's
        xor     eax, eax
        xor     ebx, ebx                ; index
.next:  cmp     rbx, rsi
        jge     .done
        test    qword [rdi + rbx*8], 1
        jz      .even
        inc     rax
.even:  inc     rbx
        jmp     .next
.done:
        pop     rbx                     ; abi: give it back
        ret

; long add3(long a, long b, long c): a leaf without a prologue
add3:
        lea     rax, [rdi + rsi]
        add     rax, rdx
        ret

; void shout(const char *text): C calling assembly that calls libc
shout:
        push    r12                     ; saves r12 and aligns the stack for puts
        mov     r12, rdi
        mov     rdi, r12
        call    puts
        pop     r12
        ret
