import Foundation
import Glibc
import Testing

@testable import Build
@testable import Sandbox
@testable import Source
@testable import Support

/// A source's `c-flags` and `link-flags` cannot make the build, which runs outside the sandbox,
/// run a program of the source's choosing or write where the source says.
@Suite struct DirectiveFlagsTests {
    static let refusedFlags: [(flag: String, link: Bool)] = [
        ("-B/tmp/tools/", false), ("-B", false), ("-Bstatic", false), ("-wrapper", false), ("-fplugin=./p.so", false),
        ("-fplugin-arg-p-x=1", false), ("-specs=evil.specs", false), ("--specs=evil.specs", false), ("@flags.txt", false),
        ("--config=evil.cfg", false), ("--sysroot=/tmp/root", false), ("--gcc-toolchain=/tmp", false), ("-ccc-install-dir", false),
        ("-Xlinker", true), ("-Xassembler", false), ("-Wa,-o,/tmp/x", false), ("-Wp,-MD,/tmp/x", false), ("-o", false),
        ("-o/tmp/x", true), ("-MF", false), ("-MD", false), ("-save-temps", false), ("-save-temps=cwd", false),
        ("-dumpdir", false), ("-aux-info", false), ("-fdump-tree-all=/tmp/x", false), ("-fprofile-note=/tmp/x", false),
        ("-fuse-ld=/tmp/ld", true), ("--ld-path=/tmp/ld", true), ("-Wl,-o,/tmp/x", true), ("-Wl,--plugin=/tmp/p.so", true),
        ("-Wl,-Map=/tmp/map", true), ("-plugin", true), ("--plugin=/tmp/p.so", true), ("--output=/tmp/x", true),
        ("-Map=/tmp/map", true), ("--Map=/tmp/map", true), ("--dependency-file=/tmp/d", true), ("--out-implib=/tmp/i", true),
        ("--error-handling-script=/tmp/s", true), ("-Wl,@/tmp/flags", true),
    ]

    static let allowedFlags: [(flag: String, link: Bool)] = [
        ("-O2", false), ("-Wall", false), ("-Wextra", false), ("-std=c11", false), ("-m32", false), ("-masm=intel", false),
        ("-fno-pie", false), ("-fno-stack-protector", false), ("-DLEVEL=2", false), ("-Iinclude", false), ("-g3", false),
        ("-include", false), ("-lm", true), ("-L/usr/lib", true), ("-static", true), ("-no-pie", true), ("-pie", true),
        ("-nostdlib", true), ("-Bstatic", true), ("-Bdynamic", true), ("-Bsymbolic", true), ("-Wl,-z,noexecstack", true),
        ("-Wl,-e,main", true), ("-Wl,-Bstatic", true), ("-fuse-ld=lld", true), ("-Tlink.ld", true), ("--oformat=elf64-x86-64", true),
        ("-e", true), ("main", true), ("-z", true), ("noexecstack", true), ("-O1", true),
        ("execstack", true), ("-zexecstack", true), ("-Wl,-z,execstack", true), ("-Wl,-zexecstack", true),
    ]

    @Test(arguments: refusedFlags) func refused(_ case: (flag: String, link: Bool)) {
        #expect(DirectiveFlags.problem(`case`.flag, link: `case`.link) != nil)
    }

    @Test(arguments: allowedFlags) func allowed(_ case: (flag: String, link: Bool)) {
        #expect(DirectiveFlags.problem(`case`.flag, link: `case`.link) == nil)
    }

    @Test func theDirectiveNamesItsLineAndTheFlag() throws {
        do {
            _ = try SourceFile(path: "sub/main.asm", text: "global _start\n; asmrun: link-flags -lm -o /tmp/elsewhere\n_start: ret\n")
            Issue.record("a link-flags directive with -o was accepted")
        } catch let error as FileError {
            #expect(
                error.description
                    == "sub/main.asm:2: `link-flags` may not pass `-o`: it makes the build write files where the source says, outside the sandbox; remove it from the source (`--link-flags` on your command line passes it)"
            )
        }
    }

    @Test func theLinkersBOptionsReachTheDriverAsTheLinkers() throws {
        var program = Program(
            path: "p.asm", name: "p", isFolder: false, assembly: [try SourceFile(path: "p.asm", text: "global main\nmain: ret\n")])
        program.settings.linkFlags = ["-Bstatic", "-lm", "-Bdynamic"]
        let tools = try Fixture.fakeToolchain(host: "x86_64", tools: ["nasm", "ld", "cc"])
        let plan = try BuildPlan(program: program, toolchain: tools, directory: "/out", prefix: "1-")
        #expect(
            try LinkDecision.command(.cDriver, plan, objects: ["/o/a.o"], toolchain: tools).arguments.suffix(3)
                == ["-Wl,-Bstatic", "-lm", "-Wl,-Bdynamic"])
        #expect(
            try LinkDecision.command(.linker, plan, objects: ["/o/a.o"], toolchain: tools).arguments.suffix(3) == [
                "-Bstatic", "-lm", "-Bdynamic",
            ])
    }

    @Test func aSourceNamedLikeAResponseFileIsASource() {
        #expect(BuildPlan.operand("@helper.c") == "./@helper.c")
        #expect(BuildPlan.operand("sub/@helper.c") == "sub/@helper.c")
    }
}

/// The same, with nasm, gcc and ld: a fake assembler on the compiler's path would leave a mark.
@Suite(.tags(.integration), .enabled(if: Fixture.toolsAvailable, "nasm, binutils, gcc or qemu-user is not installed (make deps)"))
struct DirectiveFlagsBuildTests {
    private static let start =
        "global _start\nextern helper\nsection .text\n_start:\n    call helper\n    mov rdi, rax\n    mov rax, 60\n    syscall\n"

    /// A folder with a fake `as` in `tools/` that writes `ran` in the folder, then assembles.
    private func folder() throws -> String {
        let directory = try Fixture.temporaryDirectory()
        try Fixture.write("#!/bin/sh\necho ran > \(directory)/ran\nexec as \"$@\"\n", to: directory + "/tools/as")
        chmod(directory + "/tools/as", 0o755)
        try Fixture.write("long helper(void) { return 7; }\n", to: directory + "/helper.c")
        return directory
    }

    @Test func aSourceCannotMakeTheCompilerRunItsProgram() throws {
        let directory = try folder()
        defer { Files.removeTree(directory) }
        try Fixture.write("; asmrun: with helper.c\n; asmrun: c-flags -B\(directory)/tools/\n" + Self.start, to: directory + "/main.asm")
        let result = try Fixture.asmrun(["main.asm"], in: directory)
        #expect(result.status == .exited(125), "\(result.stderr)")
        #expect(
            result.stderr
                == "asmrun: main.asm:2: `c-flags` may not pass `-B\(directory)/tools/`: it makes the build run or load programs the source names, outside the sandbox; remove it from the source\n"
        )
        #expect(!Files.exists(directory + "/ran"), "the source's assembler ran")
    }

    @Test func aSourceCannotChooseWhereTheLinkerWrites() throws {
        let directory = try folder()
        defer { Files.removeTree(directory) }
        try Fixture.write(
            "; asmrun: with helper.c\n; asmrun: link-flags -o \(directory)/elsewhere\n" + Self.start, to: directory + "/main.asm")
        let result = try Fixture.asmrun(["main.asm"], in: directory)
        #expect(result.status == .exited(125), "\(result.stderr)")
        #expect(result.stderr.hasPrefix("asmrun: main.asm:2: `link-flags` may not pass `-o`"))
        #expect(!Files.exists(directory + "/elsewhere"), "the linker wrote where the source said")
    }

    /// `with @helper.c` names a source: given to gcc as `@helper.c`, gcc would read `helper.c` as
    /// its flags, here `-B` to the fake assembler.
    @Test func aSourceNamedLikeAResponseFileIsCompiledAsOne() throws {
        let directory = try folder()
        defer { Files.removeTree(directory) }
        try Fixture.write("long helper(void) { return 9; }\n", to: directory + "/@helper.c")
        try Fixture.write("-B\(directory)/tools/ \(directory)/@helper.c\n", to: directory + "/helper.c")
        try Fixture.write("; asmrun: with @helper.c\n" + Self.start, to: directory + "/main.asm")
        let result = try Fixture.asmrun(["main.asm", "--no-cache"], in: directory)
        #expect(result.status == .exited(9), "\(result.stderr)")
        #expect(!Files.exists(directory + "/ran"), "gcc read helper.c as its flags")
    }
}
