import Foundation
import Source
import Support
import Testing

@testable import Build

/// A C file of a program's folder is compiled so that `__FILE__` is its path inside that folder,
/// whichever folder asmrun runs from (issue 33, item 8).
@Suite struct StablePathsTests {
    @Test func theFolderIsMappedAwayFromFileMacros() throws {
        let source = try SourceFile(path: "leap/leap.asm", text: "global leap_year\nleap_year: ret\n")
        var program = Program(path: "leap", name: "leap", isFolder: true, assembly: [source])
        program.cSources = [CSourceFile(path: "leap/leap_test.c", bytes: Array("int main(void) { return 0; }\n".utf8))]
        #expect(BuildPlan.stableFileMacro("leap/leap_test.c", in: program) == ["-fmacro-prefix-map=leap/="])
        #expect(BuildPlan.stableFileMacro("leap/vendor/unity.c", in: program) == ["-fmacro-prefix-map=leap/="])
        #expect(BuildPlan.stableFileMacro("elsewhere/x.c", in: program) == [], "a file outside the folder keeps its path")
        let inside = Program(path: ".", name: "leap", isFolder: true, assembly: [try SourceFile(path: "./leap.asm", text: "x: ret\n")])
        #expect(BuildPlan.stableFileMacro("./leap_test.c", in: inside) == ["-fmacro-prefix-map=./="])
    }

    @Test(.tags(.integration), .needsTools)
    func fileMacroIsTheSameFromInsideAndFromAbove() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write("global seven\nseven:\n    mov eax, 7\n    ret\n", to: directory + "/where/seven.asm")
        try Fixture.write(
            "#include <stdio.h>\n#include \"vendor/say.h\"\nint seven(void);\nint main(void) { SAY(seven()); return 0; }\n",
            to: directory + "/where/where_test.c")
        try Fixture.write("#define SAY(x) printf(\"%s:%d: %d\\n\", __FILE__, __LINE__, (x))\n", to: directory + "/where/vendor/say.h")
        let runner = Fixture.nativeHost ? "native" : "qemu"
        let above = try Fixture.asmrun(["where", "--runner", runner, "--no-cache"], in: directory)
        let inside = try Fixture.asmrun([".", "--runner", runner, "--no-cache"], in: directory + "/where")
        let absolute = try Fixture.asmrun([directory + "/where", "--runner", runner, "--no-cache"], in: "/")
        #expect(above.stdout == "where_test.c:4: 7\n", "\(above.stderr)")
        #expect(inside.stdout == above.stdout, "\(inside.stderr)")
        #expect(absolute.stdout == above.stdout, "\(absolute.stderr)")
        // A suite: the expectation recorded from above holds from inside.
        _ = try Fixture.asmrun(["test", "where", "--update", "--runner", runner], in: directory)
        let suite = try Fixture.asmrun(["test", ".", "--runner", runner], in: directory + "/where")
        #expect(suite.status == .exited(0), "\(suite.stdout)\(suite.stderr)")
    }
}
