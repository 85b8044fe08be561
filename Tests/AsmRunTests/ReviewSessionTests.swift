import Foundation
import Processes
import Run
import Support
import Synchronization
import Testing

@testable import Session

/// `asmrun test --review` on real programs: the session runs, the review is walked with scripted
/// keys, and the files the accepted cases changed are byte for byte what
/// `asmrun test PROGRAM --update --filter ID` writes in a copy of the folder (Markdown output
/// blocks and holes included); the files of cases not accepted are untouched.
@Suite(.tags(.integration), .needsTools)
struct ReviewSessionTests {
    /// A folder of failing cases: two in `hello.asm`, one in `two.asm`, two Markdown blocks,
    /// and `tsc.asm` (the time-stamp counter) with no expectations yet.
    static func makeSuite(in folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Fixture.write(Fixture.hello, to: folder + "/hello.asm")
        try Fixture.write("[case default]\nstdout:\n| bye\n\n[case other]\nargs: x\nstdout:\n| nope\n", to: folder + "/hello.expect")
        try Fixture.write(Fixture.hello.replacing("\"hello\"", with: "\"world\""), to: folder + "/two.asm")
        try Fixture.write("# kept as it is\n[case default]\nstdout:\n| nope\nstatus: exit 0\n", to: folder + "/two.expect")
        let blocks = [DocTestTests.hello("one"), DocTestTests.hello("two")].map { $0 + "\n\n```output\nold\n```\n" }
        try Fixture.write("# Doc\n\n" + blocks.joined(separator: "\nText.\n\n"), to: folder + "/doc.md")
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/lib", toPath: folder + "/lib")
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/tsc.asm", toPath: folder + "/tsc.asm")
    }

    /// The suite of `makeSuite` in `base`/suite, its twin in `base`/twin (where `--update`
    /// writes what a review should), and the suite's files before the review.
    static func makeSuiteAndTwin(in base: String) throws -> (suite: String, twin: String, before: [String: Data?]) {
        let (suite, twin) = (base + "/suite", base + "/twin")
        try makeSuite(in: suite)
        try makeSuite(in: twin)
        return (suite, twin, contents(suite))
    }

    static let files = ["hello.expect", "two.expect", "doc.md", "tsc.expect"]

    /// The files of `folder` (nil: absent).
    static func contents(_ folder: String) -> [String: Data?] {
        Dictionary(uniqueKeysWithValues: files.map { ($0, FileManager.default.contents(atPath: folder + "/" + $0)) })
    }

    /// Runs the suite in `folder`, then reviews it answering `key(id)` for each case shown.
    private func review(_ folder: String, cache: String, key: @escaping (String) -> UInt8) throws -> (Review.Outcome, [String]) {
        var plan = TestPlan()
        plan.paths = [folder]
        plan.runners = [RunnerChoice(Fixture.runner)]
        plan.cache.directory = cache
        plan.review = true
        let console = Console(bufferingWithColor: false)
        let context = Context(
            environment: Fixture.environment, launcher: PosixLauncher(path: Fixture.environment["PATH"]), console: console)
        let session = TestSession(plan: plan, context: context)
        let outcome = try #require(try session.run { _ in })
        let cases = Review.reviewable(outcome.suite.reports)
        let shown = Mutex(0)
        let review = Review(
            console: console, diagnostics: context.diagnostics,
            readKey: {
                shown.withLock { index in
                    defer { index += 1 }
                    return index < cases.count ? key(cases[index].id) : nil
                }
            },
            record: session.accept)
        return (review.walk(cases), cases.map { String($0.id.dropFirst(folder.count + 1)) })
    }

    @Test func theAcceptedCasesAreWrittenAsUpdateFilterWritesThem() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        let (suite, twin, before) = try Self.makeSuiteAndTwin(in: base)
        let keys: [String: UInt8] = ["hello.asm:default": 0x61, "hello.asm:other": 0x73, "two.asm:default": 0x72]
        let (outcome, ids) = try review(suite, cache: base + "/cache") { id in
            keys[String(id.split(separator: "/").last!)] ?? 0x61
        }
        let blocks = ids.filter { $0.hasPrefix("doc.md:") }
        #expect(ids.count == 6 && blocks.count == 2, "\(ids)")
        #expect(outcome.recorded.count == 4 && outcome.decisions.count == 6, "\(outcome.summaryLines)")
        let filters = [
            ("hello.asm", ":default$"), ("doc.md", ":(" + blocks.map { String($0.dropFirst(7)) }.joined(separator: "|") + ")$"),
            ("tsc.asm", ":default$"),
        ]
        for (program, filter) in filters {
            let update = try Fixture.asmrun(["test", program, "--update", "--filter", filter, "--runner", Fixture.runner], in: twin)
            #expect(update.status == .exited(0), "\(update.stdout)\(update.stderr)")
        }
        let (after, expected) = (Self.contents(suite), Self.contents(twin))
        for file in Self.files {
            #expect(after[file] == expected[file], "\(file) differs from --update --filter's")
        }
        #expect(after["two.expect"] == before["two.expect"], "a rejected case's file is untouched")
        #expect(before["tsc.expect"]! == nil && String(decoding: after["tsc.expect"]!!, as: UTF8.self).contains("| tsc: [..]\n"))
        let hello = String(decoding: after["hello.expect"]!!, as: UTF8.self)
        #expect(hello.contains("stdout:\n| hello\n") && hello.contains("stdout:\n| nope\n"), "skipped `other` kept: \(hello)")
        #expect(outcome.summaryLines.contains { $0.hasSuffix("tsc.asm:default — recorded, 1 line with a hole: it differs between runs") })
    }

    @Test func quittingMidwayWritesOnlyWhatWasAccepted() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        let suite = base + "/suite"
        try Self.makeSuite(in: suite)
        let before = Self.contents(suite)
        let (outcome, ids) = try review(suite, cache: base + "/cache") { id in id.hasSuffix("/doc.md:3") ? 0x61 : 0x71 }
        #expect(ids.first == "doc.md:3", "\(ids)")
        #expect(outcome.recorded.map(\.caseName) == ["3"] && outcome.unreviewed.count == 5)
        let after = Self.contents(suite)
        for file in Self.files where file != "doc.md" { #expect(after[file] == before[file], "\(file) changed") }
        let doc = String(decoding: after["doc.md"]!!, as: UTF8.self)
        #expect(doc.contains("```\n\n```output\none\n```\n") && doc.hasSuffix("```\n\n```output\nold\n```\n"), "\(doc)")
    }
}
