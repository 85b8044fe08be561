; conformance: start: the auxiliary vector of a 32-bit program (elf32)
; asmrun: format elf32
; divergence: inherent: qemu-i386 7.2 maps no vDSO, so AT_SYSINFO (the `__kernel_vsyscall` entry) and AT_SYSINFO_EHDR are missing; 32-bit programs that call through AT_SYSINFO must fall back to `int 0x80`
; A 32-bit program on an x86_64 kernel gets AT_PAGESZ (6) = 4096, AT_ENTRY (9) = _start and
; the vDSO: AT_SYSINFO (32), the address of its fast system call entry, and AT_SYSINFO_EHDR (33).
%include "probe32.inc"
%include "auxv.inc"
global _start
_start:
        find_auxv
        value_of 6
        show_dec "AT_PAGESZ", eax
        value_of 9
        cmp     eax, _start
        show_if "AT_ENTRY is _start", e
        value_of 32
        test    edx, edx
        show_if "AT_SYSINFO present", nz
        value_of 33
        test    edx, edx
        show_if "AT_SYSINFO_EHDR present", nz
        exit_with 0
