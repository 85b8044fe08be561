; conformance: build: the bytes after an unterminated string at the end of .data
; .data is the last section of its segment and there is no .bss, so p_memsz = p_filesz and the
; kernel maps the rest of the page from the file: what follows .data there is what the program
; sees. In `nasm -f elf64 && ld` that is the symbol table's null entry: zeros. A program that
; scans for the terminator its string lacks (a classic mistake) stops there.
%include "probe.inc"
%include "unterminated.inc"
global _start
_start:
        unterminated_probe
