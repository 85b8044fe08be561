; conformance: build: the bytes after an unterminated string at the end of .data (elf32)
; asmrun: format elf32
; .data is the last section of its segment and there is no .bss, so p_memsz = p_filesz and the
; kernel maps the rest of the page from the file: what follows .data there is what the program
; sees. In `nasm -f elf32 && ld -m elf_i386` that is the symbol table's null entry: zeros. A
; program that scans for the terminator its string lacks (a classic mistake) stops there.
%include "probe32.inc"
%include "unterminated.inc"
global _start
_start:
        unterminated_probe
