import Foundation
import Processes
import Support
import Testing

/// A reference and students' submissions in a temporary folder, graded as a teacher does:
/// `asmrun test subs/* --reference ref --gradescope results.json` (with `--json report.json`
/// for the scores per submission). The reference's `count` exits with its number of
/// arguments: case `none` (1 point) expects exit 0, case `two` (2 points) gets `a b`, exit 2.
struct Classroom {
    /// Exits with its number of arguments.
    static let count = "global _start\n_start:\n    mov rdi, [rsp]\n    dec rdi\n    mov eax, 60\n    syscall\n"
    /// Always exits 5: wrong for every case.
    static let wrong = "global _start\n_start:\n    mov eax, 60\n    mov edi, 5\n    syscall\n"
    /// `count`, after sleeping two seconds.
    static let sleepyCount = """
        global _start
        _start:
            mov eax, 35
            lea rdi, [rel pause]
            xor esi, esi
            syscall
            mov rdi, [rsp]
            dec rdi
            mov eax, 60
            syscall
        section .data
        pause: dq 2, 0

        """
    static let expectations = "[case none]\nstatus: exit 0\n\n[case two]\npoints: 2\nargs: a b\nstatus: exit 2\n"

    let root: String

    init() throws {
        root = try Fixture.temporaryDirectory()
        try write(Self.count, to: "ref/count.asm")
        try write(Self.expectations, to: "ref/count.expect")
    }

    func remove() { Files.removeTree(root) }

    func write(_ text: String, to relative: String) throws { try Fixture.write(text, to: root + "/" + relative) }

    /// A symbolic link at `relative` to `target` (as written, relative to the link's folder).
    func link(_ relative: String, to target: String) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    func folder(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: root + "/" + relative, withIntermediateDirectories: true)
    }

    /// Grades `submissions` (folders under `subs/`) against `ref/`.
    func grade(_ submissions: [String], _ extra: [String] = []) throws -> Graded {
        try? FileManager.default.removeItem(atPath: root + "/results.json")
        try? FileManager.default.removeItem(atPath: root + "/report.json")
        let paths = submissions.map { "subs/" + $0 }
        let arguments =
            ["test"] + paths + ["--reference", "ref", "--runner", Fixture.runner, "--gradescope", "results.json", "--json", "report.json"]
            + extra
        let result = try Fixture.asmrun(arguments, in: root)
        let results = (try? Fixture.json(root + "/results.json")) ?? [:]
        let report = (try? Fixture.json(root + "/report.json")) ?? [:]
        return Graded(stdout: result.stdout, stderr: result.stderr, status: result.status, results: results, report: report)
    }
}

/// What one grading run printed and wrote.
struct Graded: CustomStringConvertible {
    var stdout: String
    var stderr: String
    var status: Termination
    /// Gradescope's results.json.
    var results: [String: Any]
    /// The JSON report.
    var report: [String: Any]

    /// `results.json`'s tests.
    var tests: [[String: Any]] { results["tests"] as? [[String: Any]] ?? [] }

    /// The test named `name` in results.json.
    func test(_ name: String) -> [String: Any]? { tests.first { $0["name"] as? String == name } }

    /// Score and maximum of the submission `subs/NAME` in the JSON report.
    func score(_ name: String) -> (score: Double, max: Double)? {
        let paths = (report["scores"] as? [String: Any])?["paths"] as? [[String: Any]] ?? []
        guard let path = paths.first(where: { $0["path"] as? String == "subs/" + name }),
            let score = path["score"] as? Double, let max = path["max_score"] as? Double
        else { return nil }
        return (score, max)
    }

    /// Lines of stdout and stderr that contain every one of `words`.
    func lines(containing words: String...) -> [Substring] {
        (stdout + stderr).split(separator: "\n").filter { line in words.allSatisfy { line.contains($0) } }
    }

    var description: String { "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}
