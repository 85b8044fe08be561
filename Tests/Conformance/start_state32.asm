; conformance: start: registers, flags, segments and the stack at _start of a 32-bit program (elf32)
; asmrun: format elf32
; divergence: inherent: qemu-i386 7.2 starts a program with gs = 0x2b (its user data segment) where the kernel leaves 0; a program that reads gs before setting up TLS sees the difference, nothing else does
; The kernel starts a 32-bit program with esp 16-byte aligned at argc (argv, NULL, envp, NULL,
; auxv above), every general register but esp zero, EFLAGS 0x202, cs = 0x23 and ds, es and
; ss = 0x2b (its 32-bit user segments), fs = gs = 0.
%include "probe32.inc"
%include "segments.inc"
global _start
_start:
        pushfd
        pushad                          ; eax ecx edx ebx (esp) ebp esi edi
        mov     ebx, esp
        xor     esi, esi                ; the registers that are not zero, or'd
        mov     ecx, 8
.or:    cmp     ecx, 4                  ; 4 is the esp that pushad stored
        je      .skip
        or      esi, [ebx + ecx * 4 - 4]
.skip:  loop    .or
        test    esi, esi
        show_if "eax-edi and ebp zero", z
        show_hex "eflags", [ebx + 32]
        lea     ebx, [ebx + 36]         ; esp at _start
        mov     eax, ebx
        and     eax, 15
        show_dec "esp % 16", eax
        show_dec "argc", [ebx]
        mov     eax, [ebx]
        cmp     dword [ebx + 4 + eax * 4], 0
        show_if "argv[argc] is NULL", e
        show_selectors
        exit_with 0
