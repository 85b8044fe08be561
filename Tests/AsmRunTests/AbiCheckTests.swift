import Foundation
import Support
import Testing

/// The ABI checks (Documentation/crash-reports.md#abi-checks), run for real: each correct sample
/// of asm/checks passes `--checks always`, and its broken twin (its lines marked `; abi:`
/// removed) fails with the finding at its line; a failed case and a crash are checked by
/// default, `--no-checks` turns that off; the whole sample corpus has no finding but in the two
/// crash samples made to break the convention. Natively, under qemu and as on an ARM host.
@Suite(.tags(.integration), .needsTools, .needsDebugTools)
struct AbiCheckTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        /// The program under asm/checks (a file, or a folder).
        var path: String
        /// The broken twin's file with the `; abi:` lines, and the line its finding names there.
        var file: String
        var line: Int
        var finding: String
        var testDescription: String { path }
    }

    static let samples = [
        Sample(path: "keeps_rbx", file: "keeps_rbx/count.asm", line: 19, finding: "`count_odd` (called from C) returns with rbx changed"),
        Sample(path: "aligned_call.asm", file: "aligned_call.asm", line: 16, finding: "rsp is not a multiple of 16 at `call printf`"),
        Sample(
            path: "balanced_ret.asm", file: "balanced_ret.asm", line: 17,
            finding: "rsp at `ret` is 8 bytes below its value when `half` was entered"),
    ]

    typealias Way = CrashReportTests.Way
    static let runs = samples.flatMap { sample in CrashReportTests.ways.map { (sample, $0) } }

    /// The sample's folder copied with its `; abi:` lines removed: the broken twin.
    static func broken(_ sample: Sample, in directory: String) throws -> String {
        let source = Fixture.corpus + "/checks/" + sample.path
        let target = directory + "/" + sample.path
        try FileManager.default.copyItem(atPath: source, toPath: target)
        if sample.path.hasSuffix(".asm") {
            try FileManager.default.copyItem(
                atPath: Fixture.corpus + "/checks/" + sample.path.replacing(".asm", with: ".expect"),
                toPath: target.replacing(".asm", with: ".expect"))
        }
        let file = directory + "/" + sample.file
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try Fixture.write(
            text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("; abi:") }.joined(separator: "\n"),
            to: file)
        return target
    }

    @Test(arguments: zip(runs.map(\.0), runs.map(\.1)))
    func theCorrectSamplePassesAndItsBrokenTwinIsFound(sample: Sample, way: Way) throws {
        let correct = Fixture.test(
            [Fixture.corpus + "/checks/" + sample.path, "--checks", "always"] + way.arguments, environment: way.environment)
        #expect(correct.status == 0, "\(correct.output)")
        #expect(!correct.output.contains("ABI check"), "\(correct.output)")
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let target = try Self.broken(sample, in: directory)
        let run = Fixture.test([target, "--checks", "always"] + way.arguments, environment: way.environment)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("    \(directory)/\(sample.file):\(sample.line): ABI check: \(sample.finding)"), "\(run.output)")
    }
}
