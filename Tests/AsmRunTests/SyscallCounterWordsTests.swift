import Testing

@testable import Source

/// The check's first step: a program none of whose files names a word that reads rcx or r11 is
/// not read further.
struct SyscallCounterWordsTests {
    /// A program none of whose files names a word that reads rcx or r11 is not followed at all;
    /// every such word, and the preprocessor's ways of making one, keep it followed.
    @Test func programsWithoutACounterWordAreNotFollowed() {
        func mentions(_ text: String) -> Bool { SyscallClobberCheck.mentionsCounter(Array(text.utf8)) }
        let hello = "_start:\n  mov eax, 1\n  mov edi, 1\n  lea rsi, [rel msg]\n  mov edx, 6\n  syscall\n  mov eax, 60\n  syscall\n"
        #expect(!mentions(hello))
        for word in [
            "RCX", "ecx", "[rcx+8]", "cl", "ch", "cx", "R11", "r11d", "r11b", "loop", "LOOPNE", "jrcxz", "rep movsb", "repne", "cpuid",
            "cmpxchg16b", "xgetbv",
        ] {
            #expect(mentions(hello + "  " + word + "\n"), "\(word)")
        }
        #expect(mentions("%define R r %+ cx\n") && mentions("%strcat REG 'r', 'cx'\n") && mentions("%deftok T 'rcx'\n"))
        #expect(!mentions("mov rcxs, 1\nclc\nexcl: nop\n; the loops\n"), "longer words that merely contain one")
    }
}
