import Foundation
import Glibc
import Processes
import Sandbox
import Support
import Testing

/// Attacks on the views made from the template (`BuildView.make(folder:from:)`): in a grading
/// run of `first second third` the first folder's view is made in full, the others from a
/// template of what every build sees. The third folder's build reads the second's file and
/// probes whether the first and second folders exist at all, by computed names which no scan
/// resolves (`%include "BASE/second/../third/marker.inc"` opens only where `second` is a
/// folder): a view made from the previous view rather than the template would read the file,
/// one whose folder's way was made in the template itself would show the folders' names.
@Suite(.tags(.integration), .needsTools)
struct BuildViewTemplateTests {
    /// The three folders under a fresh folder readable by nobody; the third holds the attacks.
    private static func layout() throws -> String {
        let base = try Fixture.visibleDirectory()
        try Fixture.write("seconds-own-work\n", to: base + "/second/answer.txt")
        try Fixture.write("firsts-own-work\n", to: base + "/first/answer.txt")
        let expect = "[case default]\nstdout:\n| [..]\nstatus: exit 0\n"
        for name in ["first", "second"] {
            try Fixture.write(Fixture.hello, to: base + "/\(name)/hello.asm")
            try Fixture.write(expect, to: base + "/\(name)/hello.expect")
        }
        try Fixture.write(BuildContainmentTests.fileLeak(base + "/second/answer.txt"), to: base + "/third/leak.asm")
        try Fixture.write("%error saw-the-folder\n", to: base + "/third/marker.inc")
        for name in ["first", "second"] {
            let path = base + "/\(name)/../third/marker.inc"
            let middle = path.index(path.startIndex, offsetBy: path.count / 2)
            try Fixture.write(
                "%defstr HEAD \(path[..<middle])\n%defstr TAIL \(path[middle...])\n%strcat FILE HEAD, TAIL\n%include FILE\n",
                to: base + "/third/probe_\(name).asm")
        }
        for name in ["leak", "probe_first", "probe_second"] { try Fixture.write(expect, to: base + "/third/\(name).expect") }
        mkdir(base + "/tmp", 0o777)
        chmod(base + "/tmp", 0o777)
        let paths = try FileManager.default.subpathsOfDirectory(atPath: base)
        for path in paths.map({ base + "/" + $0 }) where path != base + "/tmp" {
            chmod(path, Files.isDirectory(path) ? 0o755 : 0o644)
        }
        return base
    }

    /// Runs `asmrun test` on the three folders (as nobody with `asNobody`), in `directory`.
    private static func grade(_ base: String, asNobody: Bool, in directory: String? = nil, environment: [String: String] = [:])
        throws -> String
    {
        let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups", Fixture.binary]
        var extra = environment
        if asNobody { extra.merge(["HOME": base, "TMPDIR": base + "/tmp"]) { $1 } }
        let folders = ["first", "second", "third"].map { base + "/" + $0 }
        let (stdout, stderr, _) = try Fixture.asmrun(
            (asNobody ? nobody : []) + ["test"] + folders + ["--no-cache", "-v", "-j", "1"], in: directory, environment: extra,
            executable: asNobody ? Fixture.locator.find("setpriv")! : Fixture.binary)
        return stdout + stderr
    }

    /// Views from the template or none: a failure to make one is not hidden by the fallback.
    static let required = ["ASMRUN_VIEW_TEMPLATE": "required"]

    /// What the third folder's attacks must meet, whichever way its view was made.
    private static func expectContained(_ output: String, base: String) {
        #expect(!output.contains("seconds-own-work"), "the third folder's build read the second's: \(output)")
        #expect(output.contains("unable to") && output.contains("answer.txt"), "\(output)")
        #expect(!output.contains("saw-the-folder"), "the third folder's build saw another folder: \(output)")
        for name in ["first", "second"] {
            #expect(output.contains("unable to open include file `\(base)/\(name)/../third/marker.inc'"), "\(output)")
        }
        // The first and second folders' own programs build and pass in their views.
        #expect(output.contains("2 passed, 3 failed"), "\(output)")
    }

    @Test func aViewFromTheTemplateHoldsItsOwnFolderAlone() throws {
        let base = try Self.layout()
        defer { Files.removeTree(base) }
        Self.expectContained(try Self.grade(base, asNobody: false, environment: Self.required), base: base)
    }

    /// Without root the template's views clone the folder in a copy of the host's mounts that
    /// the views' user namespace owns.
    @Test(.enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to run asmrun as nobody"))
    func nobodysViewFromTheTemplateHoldsItsOwnFolderAlone() throws {
        let base = try Self.layout()
        defer { Files.removeTree(base) }
        Self.expectContained(try Self.grade(base, asNobody: true, environment: Self.required), base: base)
    }

    /// Every view made in full, as on a kernel without `open_tree` (`ASMRUN_VIEW_TEMPLATE=0`), and
    /// the third folder built from inside itself, which the template holds (the working
    /// directory's way): the view falls back to one made in full, and holds as much.
    @Test(arguments: [false, true])
    func viewsMadeInFullHoldTheSame(templatesOff: Bool) throws {
        let base = try Self.layout()
        defer { Files.removeTree(base) }
        let output = try Self.grade(
            base, asNobody: false, in: base + "/third", environment: templatesOff ? ["ASMRUN_VIEW_TEMPLATE": "0"] : [:])
        Self.expectContained(output, base: base)
    }

    /// The cases that fall back: the working directory (which the template holds), a folder at
    /// the top of the tree, and one under a top-level name of its own (`/alice-hw/lab1`: the
    /// template would gain that name, every later view's to see; only system names such as
    /// `/home` or `/tmp` may be added); a folder elsewhere is added.
    @Test(.enabled(if: geteuid() == 0, "root makes views on a thread; nobody's are attacked above"))
    func theFoldersThatFallBackAreRefusedWithENOTSUP() throws {
        let base = try Fixture.visibleDirectory()
        defer { Files.removeTree(base) }
        let top = "/asmrun-view-test-\(getpid())"
        mkdir(top, 0o755)
        defer { Files.removeTree(top) }
        mkdir(top + "/lab1", 0o755)
        mkdir(base + "/folder", 0o755)
        mkdir(base + "/scratch", 0o755)
        let template = try BuildView.make(
            readable: [], writable: [], scratch: base + "/scratch", workingDirectory: base, template: true
        ).get()
        #expect(throws: Never.self) { try BuildView.make(folder: base + "/folder", from: template).get() }
        for folder in [base, "/srv", top + "/lab1"] {
            #expect(throws: BuildViewError.self, "\(folder)") { try BuildView.make(folder: folder, from: template).get() }
            if case .failure(let problem) = BuildView.make(folder: folder, from: template) { #expect(problem.code == ENOTSUP) }
        }
    }
}
