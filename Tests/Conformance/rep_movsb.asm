; conformance: other: rep movsb with DF clear and set, overlapping
; With DF = 0 rep movsb copies upward one byte at a time, so copying "ab" onto itself shifted
; by one byte repeats 'a' (the fast-string microcode must keep that). With DF = 1 (std) it
; copies downward from the last byte. DF is 0 at _start (start_flags.asm).
%include "probe.inc"
global _start
_start:
        lea     rsi, [rel buffer]
        lea     rdi, [rel buffer + 1]
        mov     ecx, 7
        rep     movsb                   ; "a" copied forward over itself: "aaaaaaaa"
        say     "forward overlapping: "
        lea     rsi, [rel buffer]
        mov     edx, 8
        call    put_str
        call    put_newline
        lea     rsi, [rel source + 7]
        lea     rdi, [rel target + 7]
        mov     ecx, 8
        std
        rep     movsb                   ; backward: from the last byte
        cld
        say     "backward: "
        lea     rsi, [rel target]
        mov     edx, 8
        call    put_str
        call    put_newline
        exit_with 0

section .data
buffer: db "abcdefgh"
source: db "01234567"
target: db "........"
