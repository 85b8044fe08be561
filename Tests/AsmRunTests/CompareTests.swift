import CAsmRunHash
import Foundation
import Support
import Testing

@testable import Compare
@testable import Processes

@Suite struct CompareTests {
    private func lines(_ text: String) -> TextLines { TextLines(Array(text.utf8)) }

    @Test func textLinesRoundTripBytes() {
        for text in ["", "a", "a\n", "a\n\nb", "\n", "x\r\ny\n"] {
            #expect(lines(text).bytes == Array(text.utf8))
        }
        #expect(lines("a\nb").endsWithNewline == false)
        #expect(lines("a\nb\n").lines.count == 2)
    }

    @Test func anInterruptedCaseSaysNothingWasRecordedOnlyWhenRecording() {
        let plain = Judge.interrupted(runner: "native", recording: false)
        #expect(plain.status == .interrupted)
        #expect(plain.message == "interrupted (Ctrl-C or SIGTERM) before it finished", "a plain run records nothing anyway")
        #expect(Judge.interrupted(runner: "native", recording: true).message.hasSuffix("before it finished; nothing recorded"))
    }

    @Test func escapingIsReversibleForEveryByte() {
        let all = (0...255).map { UInt8($0) }
        let escaped = TextLines.escape(all)
        #expect(!escaped.contains("\n"))
        #expect(TextLines.unescape(escaped) == all)
        #expect(TextLines.escape(Array("café\r".utf8)) == "café\\r")
        #expect(TextLines.escape([0x1b, 0x00, 0xff]) == "\\e\\x00\\xff")
        #expect(TextLines.unescape("bad \\q") == nil)
    }

    @Test func inlineHolesMatchWithinALine() {
        #expect(Pattern.lineMatches(Array("pid: [..]".utf8), Array("pid: 1234".utf8)))
        #expect(Pattern.lineMatches(Array("[..] at [..]!".utf8), Array("x at y!".utf8)))
        #expect(!Pattern.lineMatches(Array("pid: [..]".utf8), Array("tid: 1".utf8)))
        #expect(!Pattern.lineMatches(Array("a[..]b".utf8), Array("ab-".utf8)))
        #expect(Pattern.lineMatches(Array("a[..]b".utf8), Array("ab".utf8)))
    }

    @Test func lineHolesMatchAnyNumberOfLines() {
        let pattern = Pattern(lines("start\n[...]\nend\n"))
        #expect(pattern.matches(lines("start\nend\n")))
        #expect(pattern.matches(lines("start\n1\n2\n3\nend\n")))
        #expect(!pattern.matches(lines("start\n1\n")))
        #expect(!pattern.matches(lines("start\nend")))
        #expect(Pattern(lines("[...]\n")).matches(lines("")))
    }

    @Test func unifiedDiffShowsChangesWithContext() {
        let diff = UnifiedDiff.make(expected: lines("1\n2\n3\n4\n5\n6\n7\n8\n9\n"), actual: lines("1\n2\n3\n4\nfive\n6\n7\n8\n9\n"))
        #expect(
            diff == """
                --- expected
                +++ actual
                @@ -2,7 +2,7 @@
                 2
                 3
                 4
                -5
                +five
                 6
                 7
                 8

                """)
        #expect(UnifiedDiff.make(expected: lines("a\n[..]\n"), actual: lines("a\nanything\n")).isEmpty)
    }

    @Test func unifiedDiffShowsEscapesAndMissingNewline() {
        let diff = UnifiedDiff.make(expected: lines("ok\n"), actual: TextLines([0x6f, 0x6b, 0x0d]))
        #expect(diff.contains("-ok\n+ok\\r\n\\ No newline at end of file\n"))
    }

    @Test func lineFilterDropsQemuLineEvenWhenSplitAcrossChunks() {
        let filter = LineFilter(droppingLinesStartingWith: "qemu: uncaught target signal")
        let text = "before\nqemu: uncaught target signal 11 (Segmentation fault) - core dumped\nafter\nqemu: other\n"
        #expect(String(decoding: filter.apply(to: Array(text.utf8)), as: UTF8.self) == "before\nafter\nqemu: other\n")
        var state = LineFilterState()
        var output: [UInt8] = []
        for byte in text.utf8 { output += state.feed([byte], filter: filter) }
        output += state.finish()
        #expect(String(decoding: output, as: UTF8.self) == "before\nafter\nqemu: other\n")
    }

    @Test func sha256KnownVectors() {
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hex(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        #expect(
            SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Fed in pieces of every size around the block boundary: the same digest.
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for piece in [1, 7, 63, 64, 65, 128, 299] {
            var digest = SHA256()
            for start in stride(from: 0, to: bytes.count, by: piece) { digest.update(bytes[start..<min(start + piece, bytes.count)]) }
            #expect(digest.hexDigest() == SHA256.hex(bytes), "pieces of \(piece)")
        }
        var fields = SHA256()
        fields.update(field: "ab")
        fields.update(field: "c")
        #expect(fields.hexDigest() == SHA256.hex(Array("ab\u{0}c\u{0}".utf8)))
    }

    /// The processor's SHA-256 instructions and the Swift rounds give the same digests, at every
    /// length around the block boundaries and for many blocks at once; the Swift rounds alone
    /// still give the known vectors.
    @Test func sha256ProcessorInstructionsAgreeWithTheSwiftRounds() {
        func digest(_ bytes: [UInt8], processor: Bool) -> String {
            var digest = SHA256(processorInstructions: processor)
            digest.update(bytes)
            return digest.hexDigest()
        }
        #expect(digest(Array("abc".utf8), processor: false) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            digest([UInt8](repeating: 0x61, count: 1_000), processor: false)
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        var generator = SystemRandomNumberGenerator()
        for length in Array(0...200) + [1_000, 4_096, 65_537] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(digest(bytes, processor: true) == digest(bytes, processor: false), "\(length) bytes")
        }
    }

    /// Where the processor lists SHA-256 instructions (`sha_ni`, `sha2`), they are the ones used:
    /// a detection that quietly failed would only show as a slower cache.
    @Test func sha256UsesTheProcessorInstructionsItHas() throws {
        let cpuinfo = String(decoding: try Files.read("/proc/cpuinfo"), as: UTF8.self)
        let flags = cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") || $0.hasPrefix("Features") } ?? ""
        let listed = flags.split(separator: " ").contains { $0 == "sha_ni" || $0 == "sha2" }
        var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        let block = [UInt8](repeating: 0, count: 64)
        let used = block.withUnsafeBytes { asmrun_sha256_blocks(&state, $0.baseAddress, 1) } != 0
        #expect(used == listed, "cpuinfo lists the instructions: \(listed)")
    }

    @Test func terminationDecodesWaitStatus() {
        #expect(Termination(waitStatus: 3 << 8) == .exited(3))
        #expect(Termination(waitStatus: 11) == .signaled(11))
        #expect(Termination.signaled(11).summary == "signal SIGSEGV")
        #expect(Signal.number(named: "segv") == 11)
    }
}

@Suite struct DiffLimitTests {
    @Test func hugeLinesAndHugeDiffsAreCut() {
        let long = TextLines(lines: [[UInt8](repeating: 0x61, count: 100_000)])
        let diff = UnifiedDiff.make(expected: TextLines(lines: [Array("short".utf8)]), actual: long)
        #expect(diff.contains("… (99488 more bytes on this line)"))
        #expect(diff.utf8.count < 2000)
        let many = TextLines(lines: (0..<5000).map { Array("line \($0)".utf8) })
        let cut = UnifiedDiff.make(expected: TextLines(lines: []), actual: many)
        #expect(cut.split(separator: "\n").count < 410)
        #expect(cut.contains("… diff cut here"))
    }
}
