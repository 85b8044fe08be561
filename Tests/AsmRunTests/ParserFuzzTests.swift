import Foundation
import Support
import Testing

@testable import Compare
@testable import Source

/// SplitMix64: a small, fast generator with a fixed seed, so every run fuzzes the same inputs
/// and a failure names the input that caused it.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d4_9bb4_133e_b111
        return z ^ (z >> 31)
    }
}

/// The `.expect` parser and the directive parser on random and mutated input: they never trap,
/// every error is one `FileError` naming the file and a line that exists, and what parses
/// serializes to a normal form that parses back to itself.
@Suite struct ParserFuzzTests {
    /// Bytes the grammars give meaning to, so mutations hit the interesting paths.
    private static let alphabet = Array("|~\\[]:@#=\"' \t\r\nxX09aAeE.-+GKM".utf8) + [0x00, 0x1b, 0x7f, 0xc3, 0xa9, 0xff, 0xe2, 0x80]

    private static let expectSeeds: [[UInt8]] = {
        let corpus = (try? Files.list(Fixture.corpus)) ?? []
        let files = corpus.filter { $0.hasSuffix(".expect") }.sorted().compactMap { try? Files.read(Fixture.corpus + "/" + $0) }
        return files + [
            Array("[case a]\nargs: 'x y' \"z\\\" w\" \\q\nenv: A=1\nstdin:\n| in\n~ \\x00\\e\\r\\t\\\\\n\\ no newline at end\n".utf8),
            Array("[case b]\nstdout @qemu-x86_64 -cpu max:\n| [..]\n[...]\nstatus @box64: signal 11\nstatus: timeout\n".utf8),
        ]
    }()

    private static let directiveSeeds = [
        "format elf32", "link cc", "define DEBUG=1", "include macros", "timeout 5", "timeout 0.001", "qemu-cpu qemu64",
        "skip qemu TCG cannot emulate AVX-512", "xfail all known bug", "include-only", "limit memory 512M",
        "limit file-size 256M", "limit cpu 60", "limit processes 64", "limit open-files 1024", "limit output 8M",
        "limit memory 99999999999999G", "timeout 1e308", "with util.asm driver.c", "link-flags -lm", "c-flags -O2 -Wall",
        "argv0 ./prog",
    ]

    private func mutate(_ input: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty: bytes.remove(at: at)
            case 1: bytes.insert(Self.alphabet.randomElement(using: &random)!, at: at)
            case 2 where !bytes.isEmpty: bytes[at] = UInt8.random(in: 0...255, using: &random)
            case 3: bytes.removeLast(Int.random(in: 0...bytes.count, using: &random))
            case 4:
                // Duplicate a run of bytes: repeated lines, cases and fields.
                let length = Int.random(in: 0...min(40, bytes.count - at), using: &random)
                bytes.insert(contentsOf: bytes[at..<at + length], at: at)
            default: bytes.insert(contentsOf: Array("\n[case \(at)]\n".utf8), at: at)
            }
        }
        return bytes
    }

    private func randomBytes(_ random: inout SeededGenerator) -> [UInt8] {
        (0..<Int.random(in: 0...300, using: &random)).map { _ in Self.alphabet.randomElement(using: &random)! }
    }

    /// The error is a FileError naming `path` and one of the input's lines.
    private func expectLocated(_ error: any Error, path: String, lines: Int, input: [UInt8]) {
        let located = error as? FileError
        let line = located?.location?.line ?? 0
        #expect(
            located?.location?.path == path && (1...max(1, lines)).contains(line),
            "\(error) for input \(String(decoding: input, as: UTF8.self).debugDescription)")
    }

    @Test func expectationParserNeverTrapsAndNamesTheLine() throws {
        var random = SeededGenerator(seed: 0x11_ae57_2026)
        var parsed = 0
        for round in 0..<20000 {
            let input =
                round % 4 == 0 ? randomBytes(&random) : mutate(Self.expectSeeds.randomElement(using: &random)!, &random)
            let lines = input.split(separator: 0x0a, omittingEmptySubsequences: false).count
            do {
                let file = try ExpectationFile.parse(input, path: "fuzz.expect")
                parsed += 1
                let normal = file.serialized()
                let again = try ExpectationFile(parsing: normal, path: "normal.expect")
                #expect(again.serialized() == normal, "normal form is stable for \(input)")
            } catch {
                expectLocated(error, path: "fuzz.expect", lines: lines, input: input)
            }
        }
        #expect(parsed > 2000, "the mutations keep some inputs valid (\(parsed) parsed)")
    }

    @Test func directiveParserNeverTrapsAndNamesTheLine() throws {
        var random = SeededGenerator(seed: 0xd1_2ec7_1e55)
        var parsed = 0
        for _ in 0..<10000 {
            var lines: [[UInt8]] = []
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                let directive = Array(Self.directiveSeeds.randomElement(using: &random)!.utf8)
                let text =
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: randomBytes(&random)
                    case 1: mutate(directive, &random)
                    default: directive
                    }
                // nasm ends a line at LF, and also at a lone CR, NUL or ^Z (`SourceScan+Lines`).
                lines.append(Array("; asmrun: ".utf8) + text.filter { ![0x0a, 0x0d, 0x00, 0x1a].contains($0) })
                if Bool.random(using: &random) { lines.append(Array("    mov eax, 1 ; asmrun: not a directive".utf8)) }
            }
            let input = Array(lines.joined(separator: [0x0a])) + [0x0a]
            do {
                _ = try SourceFile(path: "fuzz.asm", digest: "fuzz", scan: SourceScan(input))
                parsed += 1
            } catch {
                expectLocated(error, path: "fuzz.asm", lines: lines.count, input: input)
            }
        }
        #expect(parsed > 500, "some directive sets stay valid (\(parsed) parsed)")
    }
}
