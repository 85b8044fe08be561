import Foundation
import Glibc
import Processes
import Support
import Testing

/// A submission's case that reads the answers instead of computing them, graded as root (cases
/// run as nobody) and as nobody (cases run as the grader's own user: permissions cannot help),
/// natively and as on an ARM host (the qemu runner).
@Suite(
    .tags(.integration),
    .needsTools,
    .enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to grade as nobody too"))
struct ReferenceSightAttackTests {
    /// Every identity, natively and as on ARM.
    static let ways = PeekingClass.Identity.allCases.flatMap { identity in [false, true].map { (identity, $0) } }

    /// The expectation of a hidden case with `output` as its expected stdout.
    static func hidden(_ output: String) -> String {
        "[case secret]\nvisibility: hidden\nstdin:\n| SECRET-INPUT-42\nstdout:\n| \(output)\nstatus: exit 0\n"
    }

    /// A C helper walked the host's file system, found the reference's `echo.expect` (a world-
    /// readable file as root's cases' nobody, the grader's own file as a user's) and printed the
    /// hidden case's expected output: full marks without the work. The reference folder is an
    /// empty tmpfs in every case's view. `--no-isolation` shows that the walk finds it otherwise.
    @Test(arguments: ways)
    func aCaseCannotReadTheReference(identity: PeekingClass.Identity, arm: Bool) throws {
        let room = try PeekingClass(identity, arm: arm)
        defer { room.remove() }
        try room.write("global _start\n_start: ret\n", to: "ref/echo.asm")
        try room.write(Self.hidden("SECRET-INPUT-42"), to: "ref/echo.expect")
        try room.write(PeekingClass.caller("peek.c"), to: "subs/mallory/echo.asm")
        try room.write(PeekingClass.helper(PeekingClass.peek, walking: room.root), to: "subs/mallory/peek.c")
        let arguments = ["test", "subs/mallory", "--reference", "ref", "--gradescope", "results.json"]
        let graded = try room.asmrun(arguments)
        #expect(graded.status == .exited(1), "\(graded.output)")
        #expect(PeekingClass.stdout(graded.json, program: "echo.asm") == "nothing found\n", "\(graded.output)")
        #expect(graded.output.contains(arm ? "[qemu]" : "[native]"), "\(graded.output)")
        let open = try room.asmrun(arguments + ["--no-isolation"])
        #expect(PeekingClass.stdout(open.json, program: "echo.asm") == "SECRET-INPUT-42\n", "the walk works: \(open.output)")
    }

    /// The same in Gradescope's layout (Packaging/gradescope/run_autograder): the reference is
    /// `/autograder/source/reference`, and all of `/autograder/source` (the harness, the scripts,
    /// the teacher's notes) is out of the cases' sight.
    @Test(arguments: ways)
    func aCaseCannotReadTheAutogradersSource(identity: PeekingClass.Identity, arm: Bool) throws {
        let room = try PeekingClass(identity, arm: arm)
        defer { room.remove() }
        let script = try String(contentsOfFile: Fixture.packageRoot + "/Packaging/gradescope/run_autograder", encoding: .utf8)
        try room.write(script, to: "autograder/source/run_autograder")
        try room.write("the answers\n", to: "autograder/source/notes.txt")
        try room.write("global _start\n_start: ret\n", to: "autograder/source/reference/echo.asm")
        try room.write(Self.hidden("SECRET-INPUT-42"), to: "autograder/source/reference/echo.expect")
        try room.write(PeekingClass.caller("peek.c"), to: "autograder/submission/echo.asm")
        try room.write(PeekingClass.helper(PeekingClass.peek, walking: room.root + "/autograder"), to: "autograder/submission/peek.c")
        try FileManager.default.createDirectory(atPath: room.root + "/autograder/results", withIntermediateDirectories: true)
        let graded = try room.asmrun(
            [
                "test", "autograder/submission", "--reference", "autograder/source/reference", "--gradescope",
                "autograder/results/results.json",
            ])
        #expect(graded.status == .exited(1), "\(graded.output)")
        #expect(PeekingClass.stdout(graded.json, program: "echo.asm") == "nothing found\n", "\(graded.output)")
    }

    /// After `asmrun test ref` (grading.md's `--update` run) the reference's executable is in
    /// the cache, whose entries cases run where they are: a C helper listed the cache's
    /// `objects`, found the executable holding the reference's secret and ran it. As root the
    /// folder is closed to cases (mode 0711: nobody may run an entry by its name, a key of
    /// inputs it cannot know, not list them). As a user, cases run as that user and still
    /// list it: a known issue until cases see only their own executable.
    @Test(arguments: ways)
    func aCaseCannotRunTheReferencesExecutable(identity: PeekingClass.Identity, arm: Bool) throws {
        let room = try PeekingClass(identity, arm: arm)
        defer { room.remove() }
        try room.write(PeekingClass.shout, to: "ref/shout.asm")
        try room.write(Self.hidden("SECRET-OUTPUT-42"), to: "ref/shout.expect")
        let teacher = try room.asmrun(["test", "ref"])
        #expect(teacher.status == .exited(0), "\(teacher.output)")
        try room.write(PeekingClass.caller("steal.c"), to: "subs/mallory/shout.asm")
        try room.write(PeekingClass.helper(PeekingClass.steal, walking: room.root + "/home/.cache/asmrun"), to: "subs/mallory/steal.c")
        let graded = try room.asmrun(["test", "subs/mallory", "--reference", "ref", "--gradescope", "results.json"])
        withKnownIssue("a user's cases still list the cache's entries") {
            #expect(graded.status == .exited(1), "\(graded.output)")
            #expect(PeekingClass.stdout(graded.json, program: "shout.asm") == "nothing found\n", "\(graded.output)")
        } when: {
            identity == .nobody
        }
    }
}
