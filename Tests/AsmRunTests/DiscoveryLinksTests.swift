import Foundation
import Glibc
import Support
import Testing

@testable import Suite

/// Symbolic links met while searching a folder: an alias of a program is a program of its own,
/// an alias of a folder is searched once under the folder's own name, and a real loop is one
/// line (an error only when its names are programs, which then cannot be read).
@Suite struct DiscoveryLinksTests {
    private static let passing = try! String(contentsOfFile: Fixture.corpus + "/hello.expect", encoding: .utf8)

    /// A folder with `hello.asm` and its passing `hello.expect` in `progs/`, plus the links
    /// `links` (name → target), made by `arrange`.
    private static func suite(_ links: [(String, String)], alias: Bool = false) throws -> String {
        let root = try Fixture.temporaryDirectory()
        try Fixture.write(Fixture.corpusHello, to: root + "/progs/hello.asm")
        try Fixture.write(passing, to: root + "/progs/hello.expect")
        if alias { try Fixture.write(passing, to: root + "/progs/alias.expect") }
        for (name, target) in links { #expect(symlink(target, root + "/" + name) == 0) }
        return root
    }

    /// What discovery finds in `suite(links, alias:)`, and that folder (removed by the caller).
    private static func find(_ links: [(String, String)], alias: Bool = false) throws -> (root: String, found: Discovery.Found) {
        let root = try suite(links, alias: alias)
        return (root, Discovery.find([root]))
    }

    @Test func anAliasOfAProgramIsAProgramUnderItsOwnName() throws {
        let (root, found) = try Self.find([("progs/alias.asm", "hello.asm")], alias: true)
        defer { Files.removeTree(root) }
        #expect(found.programs == [.file(root + "/progs/alias.asm"), .file(root + "/progs/hello.asm")])
        #expect(found.problems.isEmpty && found.notes.isEmpty)
    }

    @Test func anAliasOfAFolderIsSearchedOnceUnderTheFoldersName() throws {
        // `a-link` sorts before `progs`: the link is still not what the program is found under.
        let (root, found) = try Self.find([("a-link", "progs"), ("progs/again", "../progs")])
        defer { Files.removeTree(root) }
        #expect(found.programs == [.file(root + "/progs/hello.asm")])
        #expect(found.problems.isEmpty)
        #expect(found.notes.count == 1, "progs/again holds itself: \(found.notes)")
        #expect(found.skipped.map(\.path) == [root + "/a-link"])
    }

    @Test func aFolderLinkToAnAncestorIsOneNote() throws {
        let (root, found) = try Self.find([("progs/up", ".."), ("progs/self", ".")])
        defer { Files.removeTree(root) }
        #expect(found.programs == [.file(root + "/progs/hello.asm")])
        #expect(found.problems.isEmpty)
        let real = Files.realPath(root)!
        #expect(
            found.notes == [
                "note: \(root)/progs/self: a link to \(real)/progs, which holds it (symlink loop): not followed",
                "note: \(root)/progs/up: a link to \(real), which holds it (symlink loop): not followed",
            ])
    }

    @Test func aLoopOfProgramLinksIsOneError() throws {
        let (root, found) = try Self.find([("progs/a.asm", "b.asm"), ("progs/b.asm", "a.asm"), ("progs/x", "y"), ("progs/y", "x")])
        defer { Files.removeTree(root) }
        #expect(found.programs == [.file(root + "/progs/hello.asm")])
        #expect(found.problems.map(\.description) == ["\(root)/progs/a.asm: is a symlink loop (a.asm -> b.asm -> a.asm); remove the link"])
        #expect(found.notes == ["note: \(root)/progs/x: a symlink loop (x -> y -> x): not followed"])
    }

    /// Through the command line: links that are no loop, and a folder's loop, leave a passing
    /// run passing (exit 0); a loop of program names is an error (exit 1).
    @Test(
        .tags(.integration), .needsTools,
        arguments: [
            ([("progs/alias.asm", "hello.asm"), ("a-link", "progs")], Int32(0), 0),
            ([("progs/up", "..")], Int32(0), 1),
            ([("progs/a.asm", "b.asm"), ("progs/b.asm", "a.asm")], Int32(1), 1),
        ])
    func aPassingRunStaysPassing(links: [(String, String)], status: Int32, lines: Int) throws {
        let root = try Self.suite(links, alias: true)
        defer { Files.removeTree(root) }
        let result = Fixture.test([root, "--runner", "qemu"])
        #expect(result.status == status, "\(result.output)\(result.errors)")
        #expect(result.errors.split(separator: "\n").filter { $0.contains("symlink loop") }.count == lines, "\(result.errors)")
        #expect(!result.output.contains("FAIL") && !result.output.contains("ERROR"), "\(result.output)")
    }
}
