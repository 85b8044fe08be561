import Foundation
import Glibc
import Support
import Testing

/// A student who wants full marks without solving the exercise, against
/// `asmrun test subs/* --reference ref --gradescope results.json`: each test is one way issue 35
/// measured of beating the grader from inside a submission, and asserts it no longer works.
@Suite(.tags(.integration), .needsTools)
struct GradingAttackTests {
    /// `xfail all` turned a wrong program's failures into full marks; `skip all` took it out of
    /// the maximum. The reference decides both: the directive is ignored, with one note.
    @Test(arguments: ["xfail all", "skip all", "xfail \(Fixture.runner) because", "skip \(Fixture.runner)"])
    func aSubmissionsDirectivesDoNotChangeItsVerdict(directive: String) throws {
        let room = try Classroom()
        defer { room.remove() }
        try room.write(Classroom.count, to: "subs/alice/count.asm")
        try room.write("; asmrun: \(directive)\n; asmrun: qemu-cpu qemu64\n" + Classroom.wrong, to: "subs/mallory/count.asm")
        let graded = try room.grade(["alice", "mallory"])
        #expect(graded.status == .exited(1), "\(graded)")
        #expect(graded.score("alice")! == (3, 3))
        #expect(graded.score("mallory")! == (0, 3), "\(graded)")
        #expect(graded.test("subs/mallory/count.asm:two")?["status"] as? String == "failed")
        let notes = graded.lines(containing: "subs/mallory", "ignored")
        #expect(notes.count == 1, "one note for the submission: \(graded)")
        let kind = String(directive.prefix { $0 != " " })
        #expect(notes.first?.contains(kind) == true && notes.first?.contains("qemu-cpu") == true, "\(notes)")
        #expect(graded.lines(containing: "subs/alice", "ignored").isEmpty)
    }

    /// The source's `timeout` beat the teacher's `--timeout`, and a timeout in the reference's
    /// own source was ignored: now the reference's source and the command line decide.
    @Test func timeLimitsComeFromTheReferenceAndTheCommandLine() throws {
        let room = try Classroom()
        defer { room.remove() }
        try room.write("; asmrun: timeout 60\n" + Classroom.sleepyCount, to: "subs/mallory/count.asm")
        let teacher = try room.grade(["mallory"], ["--timeout", "0.5"])
        #expect(teacher.score("mallory")! == (0, 3), "the source's 60 s do not beat --timeout 0.5: \(teacher)")
        #expect(teacher.stdout.contains("TIME  subs/mallory/count.asm:none"))
        try room.write("; asmrun: timeout 0.5\n" + Classroom.count, to: "ref/count.asm")
        try room.write(Classroom.sleepyCount, to: "subs/bob/count.asm")
        let reference = try room.grade(["bob"])
        #expect(reference.score("bob")! == (0, 3), "the reference's own source sets the limit: \(reference)")
        #expect(reference.stdout.contains("TIME  subs/bob/count.asm:none"))
    }

    /// `count.asm`, `COUNT.asm` and `Count.nasm` were each graded: three times the points. One
    /// program is graded per reference program; several candidates and no exact name are an
    /// error of that submission, named.
    @Test func eachExpectationIsEarnedOnce() throws {
        let room = try Classroom()
        defer { room.remove() }
        for name in ["count.asm", "COUNT.asm", "Count.nasm"] { try room.write(Classroom.count, to: "subs/mallory/" + name) }
        for name in ["COUNT.asm", "Count.nasm"] { try room.write(Classroom.count, to: "subs/trudy/" + name) }
        try room.write(Classroom.count, to: "subs/carol/Count.ASM")
        let graded = try room.grade(["mallory", "trudy", "carol"])
        #expect(graded.score("mallory")! == (3, 3), "\(graded)")
        #expect(graded.tests.filter { ($0["name"] as? String)?.hasPrefix("subs/mallory/") == true }.count == 2)
        #expect(graded.test("subs/mallory/count.asm:two")?["score"] as? Double == 2)
        #expect(graded.score("trudy")! == (0, 3))
        let named = graded.lines(containing: "subs/trudy", "COUNT.asm", "Count.nasm")
        #expect(!named.isEmpty, "the candidates are named: \(graded)")
        #expect(graded.score("carol")! == (3, 3), "one case-insensitive match is the program")
        #expect((graded.results["score"] as? Double) == 6)
    }

    /// A link in one submission to another's file scored with it; links out of a submission
    /// (to a classmate, to the reference) are refused with one line.
    @Test func linksOutOfASubmissionAreRefused() throws {
        let room = try Classroom()
        defer { room.remove() }
        try room.write(Classroom.count, to: "subs/alice/count.asm")
        try room.link("subs/mallory/count.asm", to: "../alice/count.asm")
        try room.link("subs/oscar/count.asm", to: room.root + "/ref/count.asm")
        try room.link("subs/eve/lab", to: "../alice")
        let graded = try room.grade(["alice", "mallory", "oscar", "eve"])
        #expect(graded.score("alice")! == (3, 3), "\(graded)")
        for attacker in ["mallory", "oscar", "eve"] {
            #expect(graded.score(attacker)! == (0, 3), "\(attacker): \(graded)")
        }
        #expect(graded.lines(containing: "subs/mallory/count.asm", "outside subs/mallory").count == 1, "\(graded)")
        #expect(graded.lines(containing: "subs/oscar/count.asm", "outside subs/oscar").count == 1)
    }

    /// `with` or `%include` of a classmate's file made the classmate lose their marks (their
    /// program became a part of the attacker's) and the attacker score; the same with the
    /// reference's solution, by a relative or an absolute path; flags may not name them either.
    @Test func aSubmissionCannotBuildAnotherOnesFiles() throws {
        let room = try Classroom()
        defer { room.remove() }
        try room.write(Classroom.count, to: "subs/alice/count.asm")
        try room.write("; asmrun: with ../alice/count.asm\n; nothing of mine\n", to: "subs/mallory/count.asm")
        try room.write("%include \"../alice/count.asm\"\n", to: "subs/oscar/count.asm")
        try room.write("; asmrun: with ../../ref/count.asm\n; the solution\n", to: "subs/trudy/count.asm")
        try room.write("%include \"\(room.root)/ref/count.asm\"\n", to: "subs/eve/count.asm")
        try room.write("; asmrun: link-flags -L \(room.root)/subs/alice\n" + Classroom.count, to: "subs/frank/count.asm")
        let graded = try room.grade(["alice", "mallory", "oscar", "trudy", "eve", "frank"])
        #expect(graded.score("alice")! == (3, 3), "the classmate keeps their marks: \(graded)")
        for attacker in ["mallory", "oscar", "trudy", "eve", "frank"] {
            #expect(graded.score(attacker)! == (0, 3), "\(attacker): \(graded)")
            #expect(graded.lines(containing: "subs/\(attacker)/count.asm", "outside subs/\(attacker)").count == 1, "\(graded)")
        }
        #expect(graded.stdout.contains("PASS  subs/alice/count.asm:two") || graded.lines(containing: "alice", "ERROR").isEmpty)
    }

    /// `judy/lab1/count.asm` scored 0 as "has no such program"; an empty submission was an
    /// error per case.
    @Test func submissionsAreTakenAsHandedIn() throws {
        let room = try Classroom()
        defer { room.remove() }
        try room.write(Classroom.count, to: "subs/judy/lab1/count.asm")
        try room.write(Classroom.count, to: "subs/kim/a/count.asm")
        try room.write(Classroom.count, to: "subs/kim/b/Count.asm")
        try room.write(Classroom.count.split(separator: "\n").joined(separator: "\r\n") + "\r\n", to: "subs/lee/COUNT.ASM")
        try room.folder("subs/erin")
        let graded = try room.grade(["judy", "kim", "lee", "erin"])
        #expect(graded.status == .exited(1), "\(graded)")
        #expect(graded.score("judy")! == (3, 3), "a program in a subfolder is matched when unique: \(graded)")
        #expect(graded.score("kim")! == (0, 3))
        #expect(!graded.lines(containing: "subs/kim", "a/count.asm", "b/Count.asm").isEmpty, "both candidates named: \(graded)")
        #expect(graded.score("lee")! == (3, 3), "CRLF and the name's case do not matter")
        #expect(graded.score("erin")! == (0, 3), "an empty submission still has its maximum")
        let erin = graded.lines(containing: "subs/erin").filter { !$0.hasPrefix("  subs/erin ") }
        #expect(erin.count == 1 && erin.first?.contains("holds no programs") == true, "one line: \(graded)")
        #expect(graded.test("subs/erin/count.asm:two")?["score"] as? Double == 0)
        let alone = try room.grade(["erin"])
        #expect(alone.status == .exited(1), "an empty submission is not a usage error: \(alone)")
        #expect(alone.results["score"] as? Double == 0 && alone.tests.count == 2, "\(alone.results)")
    }

    /// A source that failed to load (a bogus directive, a binary file, a `with` of a missing
    /// file, a refused flag, a timeout out of range) had one `default` case worth 1 point
    /// instead of the reference's cases: a smaller maximum than an honest wrong answer's. Each
    /// of the reference's cases is now an error worth its points, as for a missing program.
    @Test func aSourceThatFailsToLoadKeepsTheReferencesMaximum() throws {
        let room = try Classroom()
        defer { room.remove() }
        let sources = [
            "bogus": "; asmrun: bogus\n", "binary": "\u{7f}ELF\u{0}\u{0}\u{1}\u{2}", "with": "; asmrun: with gone.asm\n",
            "flags": "; asmrun: link-flags --wrap=exit\n", "timeout": "; asmrun: timeout 999999999\n",
        ]
        for (name, text) in sources { try room.write(text + Classroom.count, to: "subs/\(name)/count.asm") }
        try room.write(Classroom.wrong, to: "subs/honest/count.asm")
        let graded = try room.grade(["honest"] + sources.keys.sorted(), ["--csv", "grades.csv"])
        let csv = try String(contentsOfFile: room.root + "/grades.csv", encoding: .utf8).split(separator: "\n")
        #expect(csv.first == "submission,score,max_score,count.asm:none,count.asm:two", "\(csv)")
        #expect(graded.score("honest")! == (0, 3), "\(graded)")
        for name in sources.keys {
            #expect(graded.score(name)! == (0, 3), "\(name): \(graded)")
            #expect(graded.test("subs/\(name)/count.asm:two")?["max_score"] as? Double == 2, "\(name): \(graded.results)")
            #expect(graded.stdout.contains("ERROR subs/\(name)/count.asm:none"), "\(name): \(graded)")
            #expect(csv.contains { $0 == "subs/\(name),0,3,0,0" }, "\(name): \(csv)")
        }
        #expect(!graded.stdout.contains(":default"), "\(graded)")
    }

    /// `--no-isolation` (for a host that cannot isolate cases) lets a case write wherever the
    /// grader can, the reference included: accepted, since it is the grader's choice, with a
    /// warning that says so.
    @Test func gradingWithoutIsolationWarnsOnce() throws {
        let room = try Classroom()
        defer { room.remove() }
        try room.write(Classroom.count, to: "subs/alice/count.asm")
        let graded = try room.grade(["alice"], ["--no-isolation"])
        #expect(graded.score("alice")! == (3, 3), "\(graded)")
        let warnings = graded.stderr.split(separator: "\n").filter { $0.contains("--no-isolation with --reference") }
        #expect(warnings.count == 1 && warnings.first?.contains("may write wherever you can") == true, "\(graded)")
        #expect(try room.grade(["alice"]).stderr.isEmpty)
    }

    /// `--untrusted`: a stranger's pull request gets the same rules without a reference.
    @Test func untrustedProgramsFollowTheSameRulesWithoutAReference() throws {
        let room = try Classroom()
        defer { room.remove() }
        try room.write("; asmrun: xfail all\n; asmrun: timeout 60\n" + Classroom.wrong, to: "pr/count.asm")
        try room.write(Classroom.expectations, to: "pr/count.expect")
        try room.write("; asmrun: with ../ref/count.asm\n; borrowed\n", to: "pr/borrow.asm")
        try room.write(Classroom.expectations, to: "pr/borrow.expect")
        let result = try Fixture.asmrun(["test", "pr", "--untrusted", "--runner", Fixture.runner], in: room.root)
        #expect(result.status == .exited(1), "\(result)")
        #expect(result.stdout.contains("FAIL  pr/count.asm:two [\(Fixture.runner)]: status differs"), "\(result)")
        #expect(
            result.stderr.contains(
                "note: pr: ignored its programs' `timeout`, `xfail` directives: --untrusted leaves how programs are judged"))
        #expect(result.stderr.contains("asmrun: pr/borrow.asm:1: is built with ../ref/count.asm (`with`), outside pr;"), "\(result)")
        #expect(result.stdout.contains("ERROR pr/borrow.asm:two [\(Fixture.runner)]: refused"))
        let update = try Fixture.asmrun(["test", "pr", "--untrusted", "--update"], in: room.root)
        #expect(update.status == .exited(2) && update.stderr.hasPrefix("asmrun: --update with --untrusted"), "\(update)")
        let trusted = try Fixture.asmrun(["test", "pr/count.asm", "--runner", Fixture.runner], in: room.root)
        #expect(trusted.status == .exited(0), "without --untrusted a program's directives hold: \(trusted)")
    }

    /// A link to `/` in a submission walked the host's whole file system.
    @Test func discoveryDoesNotFollowALinkOutOfThePathGiven() throws {
        let room = try Classroom()
        defer { room.remove() }
        try room.write(Classroom.count, to: "subs/mallory/count.asm")
        try room.link("subs/mallory/everything", to: "/")
        let started = monotonicSeconds()
        let graded = try room.grade(["mallory"])
        #expect(graded.score("mallory")! == (3, 3), "\(graded)")
        let skipped = (graded.report["summary"] as? [String: Any])?["skipped_files"] as? Int
        #expect(skipped == 0, "nothing found through the link: \(String(describing: skipped))")
        #expect(monotonicSeconds() - started < 30)
    }

    /// Discovery of a large tree (here `/` itself) was deaf to SIGTERM: it now ends at once.
    @Test func sigtermEndsDiscoveryAtOnce() throws {
        let room = try Classroom()
        defer { room.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fixture.binary)
        process.arguments = ["test", "/", "--reference", room.root + "/ref", "--no-cache"]
        process.currentDirectoryURL = URL(fileURLWithPath: room.root)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Signal once asmrun catches SIGTERM: its handler is installed before discovery starts.
        let caught = Self.waitUntilCatching(SIGTERM, pid: process.processIdentifier, within: 60)
        #expect(caught, "asmrun never caught SIGTERM")
        let signalled = monotonicSeconds()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let seconds = monotonicSeconds() - signalled
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "status \(process.terminationStatus)")
        #expect(seconds < 3, "discovery went on for \(seconds) s after SIGTERM")
    }

    /// Reads `/proc/PID/status` until its `SigCgt` mask has `signal` (false when the process
    /// ended or `seconds` passed first).
    static func waitUntilCatching(_ signal: Int32, pid: pid_t, within seconds: Double) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while monotonicSeconds() < deadline {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
            let line = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
            if let line, let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16),
                mask & (1 << UInt64(signal - 1)) != 0
            {
                return true
            }
            sched_yield()
        }
        return false
    }
}
