import Build
import Foundation
import Support
import Synchronization
import Testing

@testable import Processes

/// The small replacements for what asmrun used from full Foundation, checked against Foundation
/// itself (the tests may link it; the asmrun binary does not).
@Suite struct EssentialsTests {
    static let paths = [
        "asm/hello.asm", "/a/b/c.asm", "hello.asm", "/hello.asm", "/", "", "a/b/", "a//b", "/a/", ".hidden", "a/.hidden",
        "dir.d/file", "x.tar.gz", "./x.asm", "../up/x.asm", "a.", "trailing//",
    ]

    @Test(arguments: paths) func pathNameMatchesNSString(path: String) {
        let ns = path as NSString
        #expect(PathName.directory(of: path) == ns.deletingLastPathComponent, "directory of \(path)")
        #expect(PathName.lastComponent(of: path) == ns.lastPathComponent, "last component of \(path)")
        // NSString also folds `//` into `/` here; asmrun joins its own paths with single slashes.
        if !path.contains("//") { #expect(PathName.removingExtension(path) == ns.deletingPathExtension, "extension of \(path)") }
        #expect(PathName.pathExtension(of: path) == ns.pathExtension, "the extension of \(path)")
    }

    /// The search path is cut at every colon, empty entries left out, as `split` does, and a
    /// folder named again is left out too (the first place keeps it).
    @Test(arguments: ["/usr/bin:/bin", "", ":", "::/a::b:", "/only", "a:b:c", "/x/y:", "/a:/b:/a:/c:/b"])
    func searchPathSplitsLikeTheStandardLibrary(path: String) {
        var expected: [String] = []
        for name in path.split(separator: ":").map(String.init) where !expected.contains(name) { expected.append(name) }
        #expect(ExecutableLocator(path: path).searchPath == expected)
    }

    @Test func searchPathNamesEachFolderOnce() {
        #expect(ExecutableLocator(path: "/a:/b:/a:/c::/b").searchPath == ["/a", "/b", "/c"])
    }

    /// The registry's sorted groups answer like a set, whatever order the pids come in; a child is
    /// known until removed, and its group after.
    @Test func childRegistryKnowsItsChildrenAndGroups() {
        let registry = ChildRegistry()
        let spawned: [(pid_t, Bool)] = [(500, true), (20, true), (700, false), (30, true), (900, true), (25, true), (20, true)]
        for (pid, group) in spawned { registry.insert(pid, group: group) }
        for pid: pid_t in [20, 25, 30, 500, 900] { #expect(registry.createdGroup(pid), "group \(pid)") }
        for pid: pid_t in [0, 19, 21, 700, 901, 1000] { #expect(!registry.createdGroup(pid), "no group \(pid)") }
        #expect(registry.contains(700) && registry.contains(25))
        registry.remove(700)
        registry.remove(25)
        #expect(!registry.contains(700) && !registry.contains(25) && registry.contains(900))
        #expect(registry.createdGroup(25))
    }

    /// What a build says before the run: its notes, then its warnings without their last newline,
    /// one per line, as `joined` gave it.
    @Test func remarksAreTheNotesThenTheWarnings() {
        for notes in [[], ["a note"], ["one", "two"]] {
            for warnings in ["", "\n", "w: x\n", "w: x\nw: y", "w\n\n"] {
                let artifact = Artifact(executable: "/x", format: .elf64, warnings: warnings, notes: notes)
                let expected = (notes + (warnings.isEmpty ? [] : [warnings.hasSuffix("\n") ? String(warnings.dropLast()) : warnings]))
                    .joined(separator: "\n")
                #expect(artifact.remarks == expected, "\(notes) \(warnings.debugDescription)")
            }
        }
    }

    /// A cache entry's checksum changes with every single bit of its bytes and with its length.
    @Test func checksumsSeeEveryBitAndTheLength() {
        var bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let original = bytes.withUnsafeBytes { Checksum.hex($0) }
        #expect(original.count == 16 && original.allSatisfy { $0.isHexDigit })
        var seen: Set<String> = [original]
        for index in bytes.indices {
            for bit in 0..<8 {
                bytes[index] ^= 1 << bit
                seen.insert(bytes.withUnsafeBytes { Checksum.hex($0) })
                bytes[index] ^= 1 << bit
            }
        }
        #expect(seen.count == 8_001, "every flipped bit gives a checksum of its own")
        let zeros = (0...17).map { [UInt8](repeating: 0, count: $0).withUnsafeBytes { Checksum.hex($0) } }
        #expect(Set(zeros).count == zeros.count, "runs of zeros differ by their length")
    }

    /// The trailer's numbers: 16 lowercase hex digits, zero-padded, as `String(_:radix:)` gives.
    @Test func sixteenHexDigitsPadded() {
        for value: UInt64 in [0, 1, 0xf, 0x10, 0x24c8, 0x18ed_3cba_367b_9b8b, UInt64.max] {
            let digits = String(value, radix: 16)
            #expect(Checksum.hex(value) == String(repeating: "0", count: 16 - digits.count) + digits)
        }
    }

    @Test func processorsMatchFoundation() {
        #expect(Processors.available == ProcessInfo.processInfo.activeProcessorCount)
        #expect(Processors.processors(quota: 150_000, period: 100_000) == 2, "a quota of 1.5 processors allows 2 jobs")
        #expect(Processors.processors(quota: 100_000, period: 100_000) == 1)
        #expect(Processors.processors(quota: -1, period: 100_000) == nil, "cgroup v1 writes -1 for no quota")
    }

    @Test(arguments: [0, 0.5, 1, 2.5, 10, 1e-4, 123_456.789, 1e21, -3.25, 0.0049, 1_048_576])
    func formatMatchesFoundation(value: Double) {
        for format in ["%g", "%.0f ms", "%.1f", "%.2f", "%.3f", "%.4f"] {
            #expect(String(format: format, value) == String(format: format, arguments: [value]), "\(format) of \(value)")
        }
        #expect(String(format: "%.1f", 1e300).count > 300, "longer than the first buffer")
    }

    @Test func trimmingMatchesFoundation() {
        for text in ["  a b\t", "\t\n x \n", "", "   ", "a", " \u{00A0}nbsp\u{00A0} ", "\r\nline\r\n"] {
            #expect(text.trimmingBlanks() == text.trimmingCharacters(in: .whitespaces), "blanks of \(text.debugDescription)")
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
        }
    }

    @Test func detachedThreadRunsItsBody() {
        let ran = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<4 {
            #expect(
                DetachedThread.start {
                    ran.add(1, ordering: .relaxed)
                    finished.signal()
                })
        }
        for _ in 0..<4 { #expect(finished.wait(timeout: .now() + 10) == .success) }
        #expect(ran.load(ordering: .relaxed) == 4)
    }

    /// A map on several threads keeps the order, misses nothing and runs each element once;
    /// with one thread (or one element) it is the plain map.
    @Test func concurrentMapKeepsOrderAndRunsEachOnce() {
        let calls = Atomic<Int>(0)
        let items = Array(0..<2000)
        for threads in [1, 2, 4, 16] {
            calls.store(0, ordering: .relaxed)
            let squares = items.concurrentMap(threads: threads) { value -> Int in
                calls.add(1, ordering: .relaxed)
                return value * value
            }
            #expect(squares == items.map { $0 * $0 }, "\(threads) threads")
            #expect(calls.load(ordering: .relaxed) == items.count)
        }
        #expect([Int]().concurrentMap(threads: 4) { $0 }.isEmpty)
        #expect([7].concurrentMap(threads: 4) { $0 + 1 } == [8])
    }
}
