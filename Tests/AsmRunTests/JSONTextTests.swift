import Compare
import Foundation
import Processes
import Testing

@testable import Report
@testable import Run
@testable import Support

/// asmrun's own JSON writer and reader, held to Foundation's (which the tests may link).
@Suite struct JSONTextTests {
    private static func foundation<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private struct Sample: Encodable {
        struct Inner: Encodable {
            var aB: Int
            var cD: String?
        }

        var doubles: [Double] = [
            1, 0.5, 1e-7, 123456789.123, 1e21, 0.1 + 0.2, -0.0, 12.25, 1e16, 1.5e-5, 100, 0.001, 2.5e15, 1e15, 1.2345678901234568e17,
            0.000123, 5e-324, 1.7976931348623157e308,
        ]
        var empty: [Int] = []
        var emptyObject: [String: String] = [:]
        var dict = ["b": "2", "a": "1", "B": "3", "a_b": "x", "ab": "y", "maxScore": "kept", "é": "é"]
        var inner = [Inner(aB: 1, cD: nil), Inner(aB: -2, cD: "")]
        var nilled: String?
        var text = "q\"b\\s/ \n\t\r\u{8}\u{c}\u{1}\u{1f}\u{7f} é ✓ 😀 \u{2028}"
        var flag = true
        var pastEndOfCode = false
        var xURLValue = 1
        var skippedFiles: Int8 = 0
        var status = CaseStatus.fail
        var nested: [[String: [Int]]] = [["k": [1, 2]], [:]]
    }

    @Test func writesWhatFoundationWrites() throws {
        #expect(try JSONText.render(Sample()) == Self.foundation(Sample()))
    }

    /// The report's own documents, with every optional field present and absent.
    @Test func reportsAreFoundationsByteForByte() throws {
        var report = CrashReport(signal: 11)
        report.address = 0
        report.access = "writing"
        report.location = FileLocation("p.asm", line: 3)
        report.sourceLine = "mov [0], eax"
        report.instruction = "mov DWORD PTR ds:0x0,eax"
        report.registers = [.init(name: "rip", value: 0x401000), .init(name: "rax", value: 0)]
        report.frames = [.init(function: "_start", location: FileLocation("p.asm", line: 3)), .init(function: "??", location: nil)]
        report.hints = ["the address 0 is never mapped"]
        let crash = JSONReport.Crash(report)
        func entry(_ id: String, crash: JSONReport.Crash?) -> JSONReport.Entry {
            JSONReport.Entry(
                id: id, program: "asm/p.asm", case: "default", runner: "native", status: crash == nil ? .pass : .error,
                message: "", durationSeconds: 0.0042, buildSeconds: 0.031, exit: crash == nil ? "exit 0" : nil,
                diffs: crash == nil ? [:] : ["stdout": "-a\n+b\n"], detail: nil, buildOutput: crash == nil ? nil : "w: x",
                divergence: nil, stdout: "a\n", stderr: crash == nil ? nil : "", crash: crash, crashNote: nil)
        }
        let document = JSONReport.Document(
            complete: true, durationSeconds: 1.25,
            summary: .init(
                passed: 1, failed: 0, skipped: 0, errors: 1, timeouts: 0, expectedFailures: 0, divergences: 0, interrupted: 0, flaky: 0,
                notRun: 0, skippedFiles: 2),
            scores: .init(
                score: 1, maxScore: 2,
                paths: [.init(path: "asm", score: 1, maxScore: 2, programs: [.init(program: "p", score: 1, maxScore: 2)])]),
            results: [entry("a", crash: nil), entry("b", crash: crash)])
        #expect(try JSONText.render(document) == Self.foundation(document))
        let grades = GradescopeReport.Document(
            score: 1.5, executionTime: 2, output: "asmrun: 1.5/2 points",
            tests: [
                .init(name: "p: default", score: 1.5, maxScore: 2, status: "passed", output: "passed"),
                .init(name: "p: secret", score: 0, maxScore: 1, status: "failed", output: "hidden test: not passed", visibility: "hidden"),
            ])
        #expect(try JSONText.render(grades) == Self.foundation(grades))
    }

    @Test(arguments: [
        "durationSeconds", "maxScore", "pastEndOfCode", "xURLValue", "URL", "a", "aB", "already_snake", "ABC", "aBC", "ab1Cd",
    ])
    func propertyNamesBecomeSnakeCaseAsFoundationMakesThem(name: String) throws {
        struct Keyed: Encodable {
            let name: String
            struct Key: CodingKey {
                var stringValue: String
                var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(1, forKey: Key(stringValue: name))
            }
        }
        #expect(try JSONText.render(Keyed(name: name)) == Self.foundation(Keyed(name: name)))
    }

    @Test func nonFiniteNumbersAreRefused() {
        #expect(throws: JSONText.Unrepresentable.self) { try JSONText.render([Double.infinity]) }
        #expect(throws: JSONText.Unrepresentable.self) { try JSONText.render(["x": Double.nan]) }
    }

    /// What the reader accepts it reads as JSONSerialization does.
    @Test(arguments: [
        #"{"results": [{"program": "a", "duration_seconds": 0.5}, {"program": "\u00e9\ud83d\ude00\n\"", "x": [1, -2.5e3, true, false, null, {}]}]}"#,
        "[]", " {} ", #""\/\\\b\f\r\t""#, "0", "-0.0e+1", "123456789012", #"{"a":{"b":{"c":[[[]]]}}}"#,
    ])
    func readsWhatJSONSerializationReads(text: String) throws {
        let mine = try JSONValue(parsing: Array(text.utf8))
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect(Self.same(mine, theirs), "\(mine)")
    }

    private static func same(_ value: JSONValue, _ other: Any) -> Bool {
        switch value {
        case .null: return other is NSNull
        case .bool(let flag): return (other as? Bool) == flag
        case .number(let number): return (other as? NSNumber).map { $0.doubleValue == number } ?? false
        case .string(let text): return (other as? String) == text
        case .array(let elements):
            guard let others = other as? [Any], others.count == elements.count else { return false }
            return zip(elements, others).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let others = other as? [String: Any], others.count == members.count else { return false }
            return members.allSatisfy { key, member in others[key].map { same(member, $0) } ?? false }
        }
    }

    /// Malformed or hostile documents are errors with a place, never a crash.
    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "0x10", "1e", "--1", "\"\u{1}\"", "\"\\x\"", "\"\\u12\"", "nul", "tru",
        "{\"a\" 1}", "[1 2]", "{} {}", "\"abc", "1e999", String(repeating: "[", count: 100_000),
    ])
    func rejectsMalformedDocuments(text: String) {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: Array(text.utf8)) }
    }
}
