import Foundation
import Support
import Testing

@testable import Source
@testable import Suite

/// The rules grading applies to a submission, without running anything: which of its programs
/// is graded as which reference program, which files it may be built from, and which of its
/// directives give way to the reference's.
@Suite struct SubmissionRulesTests {
    private func reference(_ keys: [String]) throws -> (Reference, String) {
        let root = try Fixture.temporaryDirectory()
        for key in keys { try Fixture.write("[case default]\nstatus: exit 0\n", to: root + "/ref/" + key + ".expect") }
        return (try Reference(path: root + "/ref"), root)
    }

    @Test func anExactNameWinsThenOneLooseMatchThenOneInASubfolder() throws {
        let (reference, root) = try reference(["count", "sum", "lab/mul", "div"])
        defer { Files.removeTree(root) }
        let files = [
            "s/COUNT.asm", "s/count.asm", "s/count.nasm", "s/x/Sum.nasm", "s/lab/MUL.asm", "s/a/div.asm", "s/b/div.asm", "s/other.asm",
        ]
        let match = reference.match(files.map { Discovery.Location.file($0) }, under: "s", rootIsFolder: true)
        #expect(match.keys == [1: "count", 3: "sum", 4: "lab/mul"])
        #expect(match.conflicts.map(\.key) == ["div"] && match.conflicts.first?.candidates == [5, 6])
        #expect(match.passedOver[0] == "not graded: s/count.asm is the submission's count")
        #expect(match.passedOver[2] == "not graded: s/count.asm is the submission's count")
        #expect(match.passedOver[7]?.hasPrefix("not in the reference") == true)
        let single = reference.match([.file("solo/Count.ASM")], under: "solo/Count.ASM", rootIsFolder: false)
        #expect(single.keys == [0: "count"], "a file given on its own matches by its name")
    }

    /// A folder program's sources are searched without following a link out of it: a link to
    /// `/` made every source of the machine part of the program.
    @Test func aFolderProgramsSourcesStayInsideIt() throws {
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        try Fixture.write("global main\n", to: root + "/leap/leap.asm")
        try Fixture.write("int main(void) { return 0; }\n", to: root + "/leap/lib/driver.c")
        try FileManager.default.createSymbolicLink(atPath: root + "/leap/everything", withDestinationPath: "/")
        try FileManager.default.createSymbolicLink(atPath: root + "/leap/again", withDestinationPath: "lib")
        try FileManager.default.createSymbolicLink(atPath: root + "/leap/lib/loop", withDestinationPath: "..")
        let found = ProgramFolder.scan(root + "/leap")
        #expect(found.assembly == [root + "/leap/leap.asm"])
        #expect(found.c == [root + "/leap/again/driver.c"], "a link inside is followed, each folder once: \(found.c)")
    }

    @Test func policyDirectivesAreListedAndReplaced() throws {
        var settings = ProgramSettings()
        for directive in ["xfail all", "timeout 3", "limit output 1K", "format elf32", "define X=1", "argv0 ./x"] {
            try settings.apply(directive, at: FileLocation("p.asm", line: 1))
        }
        #expect(settings.policyDirectives == ["argv0", "limit", "timeout", "xfail"])
        var policy = ProgramSettings()
        policy.timeout = 1
        settings.adoptPolicy(of: policy)
        #expect(settings.policyDirectives == ["timeout"] && settings.timeout == 1)
        #expect(settings.format == .elf32 && settings.defines == ["X=1"], "what shapes the build stays the submission's")
    }

    /// `c-flags`, `link-flags` and `include` may not name another submission's files either, nor
    /// give ld a script where an object goes.
    @Test func flagsMayNameOnlyTheSubmissionsFiles() throws {
        let root = try Fixture.folder([
            "alice/x.o": "int x;\n",
            "bob/include/y.h": "int y;\n",
            "bob/fake.o": "INPUT(/etc/hostname)\n",
            "bob/libfake.so": "INPUT(/etc/hostname)\n",
            "bob/plain.ld": "SECTIONS { .text : { *(.text) } }\n",
            "bob/evil.ld": "INCLUDE /etc/hostname\n",
        ])
        defer { Files.removeTree(root) }
        let bounds = ProgramBounds(root: root + "/bob", graded: true)
        let cases: [(String, ProgramBounds.Refusal.Kind?)] = [
            ("c-flags -O2 -Wall -I\(root)/bob/include -std=c11", nil),
            ("link-flags -lm -L/usr/lib -L/nonexistent/folder -T \(root)/bob/plain.ld", nil),
            ("c-flags -I \(root)/alice", .flag), ("c-flags -I\(root)/alice", .flag), ("include \(root)/alice", .flag),
            ("c-flags -include \(root)/alice/x.o", .flag), ("link-flags \(root)/alice/x.o", .flag),
            ("link-flags -Wl,-T,\(root)/alice/x.o", .flag), ("link-flags --script=\(root)/alice/x.o", .flag),
            ("link-flags \(root)/bob/fake.o", .notObject), ("link-flags -L \(root)/bob -lfake", .notObject),
            ("link-flags -T \(root)/bob/evil.ld", .script), ("with ../alice/x.o", .with),
        ]
        for (directive, refused) in cases {
            try Fixture.write("; asmrun: \(directive)\nglobal _start\n_start: ret\n", to: root + "/bob/main.asm")
            let program = try Program.load(file: root + "/bob/main.asm")
            let refusal = bounds.refusal(of: program)
            #expect(refusal?.kind == refused, "\(directive): \(String(describing: refusal))")
            if refused != nil { #expect(refusal?.source == FileLocation(root + "/bob/main.asm", line: 1)) }
        }
    }

    /// Two submissions with a header each, and bob's graded bounds.
    private static func aliceAndBob() throws -> (root: String, bounds: ProgramBounds) {
        let root = try Fixture.folder(["alice/x.h": "int x;\n", "bob/y.h": "int y;\n"])
        return (root, ProgramBounds(root: root + "/bob", graded: true))
    }

    @Test func cFilesMayIncludeOnlyTheirSubmissionsFilesAndTheSystemsHeaders() throws {
        let (root, bounds) = try Self.aliceAndBob()
        defer { Files.removeTree(root) }
        let cases: [(String, ProgramBounds.Refusal.Kind?)] = [
            ("#include <stdio.h>\n#include \"y.h\"\nint main(void) { return 0; }\n", nil),
            ("#include \"../alice/x.h\"\n", .include),
            ("  #  include \"\(root)/alice/x.h\"\n", .include),
            ("#include </etc/passwd>\n", .include),
            ("#include <../../etc/passwd>\n", .include),
            ("#define F \"x.h\"\n#include F\n", .computedInclude),
            ("__asm__(\".incbin \\\"/etc/passwd\\\"\");\n", .incbin),
        ]
        for (text, refused) in cases {
            try Fixture.write(text, to: root + "/bob/main.c")
            #expect(CIncludes.firstOutside(root + "/bob/main.c", bounds: bounds)?.kind == refused, "\(text)")
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/bob/z.h", withDestinationPath: root + "/alice/x.h")
        #expect(!bounds.holds(root + "/bob/z.h") && bounds.holds(root + "/bob/y.h"), "a link is judged by where it leads")
        let trusted = ProgramBounds(root: root + "/bob")
        try Fixture.write(
            "#define F \"x.h\"\n#include F\n__asm__(\".incbin \\\"y.h\\\"\");\n#include \"../alice/x.h\"\n", to: root + "/bob/main.c")
        #expect(
            CIncludes.firstOutside(root + "/bob/main.c", bounds: trusted)
                == ProgramBounds.Refusal(kind: .include, source: FileLocation(root + "/bob/main.c", line: 4), named: "../alice/x.h"),
            "ungraded, what cannot be checked is left to the contained build; a named file outside is refused at its line")
    }

    /// The C checks read the lines gcc's preprocessor reads: a `\` before a line end (blanks
    /// between allowed, CRLF or a lone CR) joins lines, a comment is a space, `%:` is `#`, and
    /// adjacent string literals are one; each refusal names the line the directive starts on.
    @Test func cContinuedLinesCommentsAndDigraphsAreReadAsGccReadsThem() throws {
        let (root, bounds) = try Self.aliceAndBob()
        defer { Files.removeTree(root) }
        let cases: [(String, ProgramBounds.Refusal.Kind?, Int)] = [
            ("int a;\n#\\\ninclude \"../alice/x.h\"\n", .include, 2),
            ("#\\  \r\ninclude \"../alice/x.h\"\n", .include, 1),
            ("int a;\r#include \"../alice/x.h\"\n", .include, 2),
            ("/* a\n b */ #include \"../alice/x.h\"\n", .include, 1),
            ("%:include \"../alice/x.h\"\n", .include, 1),
            ("#include \"../al\\\nice/x.h\"\n", .include, 1),
            ("int a;\nasm(\".inc\\\nbin \\\"/etc/os-release\\\"\");\n", .incbin, 2),
            ("asm(\".inc\"\n  \"bin \\\"/etc/os-release\\\"\");\n", .incbin, 1),
            ("// a note \\\n#include \"../alice/x.h\"\nint a;\n", nil, 0),
            ("char *s = \"/*\";\n#include \"../alice/x.h\"\n", .include, 2),
        ]
        for (text, refused, line) in cases {
            try Fixture.write(text, to: root + "/bob/main.c")
            let refusal = CIncludes.firstOutside(root + "/bob/main.c", bounds: bounds)
            #expect(refusal?.kind == refused && (refused == nil || refusal?.source.line == line), "\(text): \(String(describing: refusal))")
        }
    }
}
