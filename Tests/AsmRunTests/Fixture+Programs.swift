extension Fixture {
    /// The text of a 64-bit program's code: from `_start`, it writes the `count` bytes at
    /// `address` (assembler expressions) to stdout and exits 0.
    static func writer(_ address: String, count: String) -> String {
        """
        global _start
        section .text
        _start:
            mov eax, 1
            mov edi, 1
            mov rsi, \(address)
            mov edx, \(count)
            syscall
            mov eax, 60
            xor edi, edi
            syscall

        """
    }

    /// `writer` for a 32-bit program (`int 0x80`).
    static func writer32(_ address: String, count: String) -> String {
        """
        bits 32
        global _start
        section .text
        _start:
            mov eax, 4
            mov ebx, 1
            mov ecx, \(address)
            mov edx, \(count)
            int 0x80
            mov eax, 1
            xor ebx, ebx
            int 0x80

        """
    }
}
