; conformance: build: the bytes after an unterminated string at the end of .data (elf32)
; asmrun: format elf32
; .data is the last section of its segment and there is no .bss, so p_memsz = p_filesz and the
; kernel maps the rest of the page from the file: what follows .data there is what the program
; sees. In `nasm -f elf32 && ld -m elf_i386` that is the symbol table's null entry: zeros. A
; program that scans for the terminator its string lacks (a classic mistake) stops there.
%include "probe32.inc"
global _start
_start:
        say     "the 8 bytes after the string:"
        xor     ebx, ebx
.byte:  say     " "
        movzx   eax, byte [message + 5 + ebx]
        call    put_hex
        inc     ebx
        cmp     ebx, 8
        jb      .byte
        call    put_newline
        exit_with 0

section .data
message: db "Hello"                     ; no terminating 0
