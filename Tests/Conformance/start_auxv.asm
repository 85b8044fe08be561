; conformance: start: the auxiliary vector's entries
; divergence: inherent: qemu-user 7.2 maps no vDSO for x86_64 guests (it has one from 8.1), so AT_SYSINFO_EHDR is missing; the other entries are qemu's own but carry the same facts
; After envp's NULL the kernel puts (type, value) pairs: AT_PAGESZ (6) is 4096, AT_ENTRY (9) is
; _start, AT_PHDR (3) the program headers (right after the 64-byte ELF header of a static ld
; program, at 0x400040), AT_RANDOM (25) 16 random bytes, AT_SYSINFO_EHDR (33) the vDSO.
%include "probe.inc"
%include "auxv.inc"
global _start
_start:
        find_auxv
        xor     r12d, r12d              ; one bit per entry type seen (types < 64)
        mov     r13, rbx
.pair:  mov     rcx, [r13]
        test    rcx, rcx
        jz      .done
        cmp     rcx, 64
        jae     .skip
        bts     r12, rcx
.skip:  add     r13, 16
        jmp     .pair
.done:
        value_of 6
        show_dec "AT_PAGESZ", rax
        value_of 9
        lea     rcx, [rel _start]
        cmp     rax, rcx
        show_if "AT_ENTRY is _start", e
        value_of 3
        cmp     rax, 0x400040
        show_if "AT_PHDR is 0x400040", e
        bt      r12, 25
        show_if "AT_RANDOM present", c
        bt      r12, 33
        show_if "AT_SYSINFO_EHDR present", c
        value_of 23
        show_dec "AT_SECURE", rax
        exit_with 0
