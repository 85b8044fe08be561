import Foundation
import Glibc
import Processes
import Support
import Testing

@testable import Build
@testable import Source

/// A source's `c-flags` and `link-flags` pass an allow-list: the words issue 30 measured making
/// the build run a program the source names, or write where it says, are refused, abbreviated
/// (gcc and ld accept unambiguous prefixes of their long options) or not.
@Suite struct DirectiveFlagsTests {
    static let refusedFlags: [(words: [String], link: Bool)] = [
        // Issue 30's measurements: the abbreviations a deny-list of prefixes missed.
        (["--for-linker=-plugin=helper.so"], true), (["--for-linker", "-plugin=helper.so"], true), (["-Wl,-plugin,helper.so"], true),
        (["-Wl,--plugin=helper.so"], true), (["-Wl,--plu=helper.so"], true), (["--outp=/tmp/x"], true), (["--Ma=/tmp/map"], true),
        (["-Wl,--error-h=./script"], true), (["-Wl,--dependency-f=/tmp/d"], true), (["--prefix=/tmp/tools/"], false),
        (["--prefix", "/tmp/tools/"], true), (["-wrapper", "gdb,--args"], false), (["-B/tmp/tools/"], false), (["-B", "/tmp"], true),
        (["-fplugin=./p.so"], false), (["-fplugin-arg-p-x=1"], false), (["-specs=evil.specs"], false), (["--specs=evil.specs"], true),
        (["@flags.txt"], false), (["@flags.txt"], true), (["-Wl,@flags.txt"], true), (["--error-handling-script=./s"], true),
        (["-MF", "/tmp/d"], false), (["-MD"], false), (["-M"], true), (["-dumpdir", "/tmp/"], false), (["-dumpbase", "x"], false),
        (["-Wl,-Map=/tmp/map"], true), (["-Wl,-Map,/tmp/map"], true), (["-o", "/tmp/x"], true), (["-o/tmp/x"], false),
        (["--output=/tmp/x"], true), (["-save-temps"], false), (["-fdump-tree-all"], false), (["-fprofile-use=/tmp/p"], false),
        (["-ftest-coverage"], false), (["-fstack-usage"], false), (["-flto=auto"], true), (["-fuse-ld=/tmp/ld"], true),
        (["--ld-path=/tmp/ld"], true), (["--sysroot=/tmp/root"], true), (["-Xlinker", "-plugin"], true), (["-Xassembler", "-o"], false),
        (["-Wa,-o,/tmp/x"], false), (["-Wp,-MD,/tmp/x"], false), (["-Wl,-rpath,/tmp"], true), (["-mllvm", "-x"], false),
        (["-Bstatic"], false), (["-x", "c"], true), (["-I", "/tmp"], true), (["-Dx"], true), (["-l", "../x"], true),
        (["-e", "-plugin=x.so"], true), (["-z", "plugin"], true), (["-include"], false), (["-L"], true), (["x.c"], false),
        (["-Wl,-z"], true), (["-m", "elf_x86_64x"], true), (["-dynamic-linker", "/tmp/ld.so"], true),
    ]

    static let allowedFlags: [(words: [String], link: Bool)] = [
        (["-O2", "-Wall", "-Wextra", "-Werror=format", "-W", "-w", "-std=c11", "-std=gnu99", "-ansi", "-pedantic"], false),
        (["-m32", "-m64", "-masm=intel", "-march=native", "-mno-red-zone", "-g", "-g3", "-ggdb", "-gdwarf-4"], false),
        (["-fno-pie", "-fPIC", "-fno-stack-protector", "-fvisibility=hidden", "-fcf-protection=none", "-fno-omit-frame-pointer"], false),
        (["-DLEVEL=2", "-D", "X", "-UNDEBUG", "-Iinclude", "-I", "lib", "-isystem", "sys", "-include", "config.h"], false),
        (["-lm", "-l", "c", "-lc", "-l:libfoo.a", "-L/usr/lib", "-L", "lib", "-static", "-no-pie", "-pie", "-static-pie"], true),
        (["-nostdlib", "-nostartfiles", "-nodefaultlibs", "-Bstatic", "-Bdynamic", "-Bsymbolic", "-s", "-rdynamic"], true),
        (["-Wl,-z,noexecstack", "-Wl,-e,main", "-Wl,-Bstatic", "-Wl,--gc-sections,-s", "-Wl,-zexecstack", "-Wl,-N"], true),
        (
            ["-fuse-ld=lld", "-Tlink.ld", "-T", "link.ld", "--oformat=elf64-x86-64", "-e", "main", "--entry=_start", "-z", "noexecstack"],
            true
        ),
        (["-zexecstack", "-z", "max-page-size=0x1000", "--hash-style=gnu", "--build-id=none", "--no-pie", "-m", "elf_i386"], true),
        (["-melf_x86_64", "-Ttext", "0x401000", "-Ttext=0x8048000", "-dynamic-linker", "/lib64/ld-linux-x86-64.so.2"], true),
        (["-O1", "-g", "-m32", "-fno-pie", "helper.o", "libutil.a", "--gc-sections", "-u", "main", "--defsym=LIMIT=10"], true),
    ]

    @Test(arguments: refusedFlags) func refused(_ case: (words: [String], link: Bool)) {
        #expect(throws: DirectiveFlags.Refusal.self) { try DirectiveFlags.read(`case`.words, for: `case`.link ? .link : .compile) }
    }

    @Test(arguments: allowedFlags) func allowed(_ case: (words: [String], link: Bool)) throws {
        _ = try DirectiveFlags.read(`case`.words, for: `case`.link ? .link : .compile)
    }

    /// The paths the flags name, for the check that each lies in the program's folder.
    @Test func theFlagsPathsAreKeptWithTheirKind() throws {
        let named = try DirectiveFlags.read(["-L", "lib", "-lm", "-Tx.ld", "-Wl,-T,y.ld,z.o", "w.a"], for: .link)
        #expect(named.map(\.kind) == [.folder, .library, .script, .script, .input, .input])
        #expect(named.map(\.path) == ["lib", "m", "x.ld", "y.ld", "z.o", "w.a"])
        #expect(named.map(\.written) == ["-L lib", "-lm", "-Tx.ld", "-Wl,-T,y.ld,z.o", "-Wl,-T,y.ld,z.o", "w.a"])
        let compiled = try DirectiveFlags.read(["-Iinc", "-include", "c.h", "-O2"], for: .compile)
        #expect(compiled.map(\.kind) == [.folder, .file] && compiled.map(\.path) == ["inc", "c.h"])
    }

    @Test func theDirectiveNamesItsLineAndTheFlag() throws {
        do {
            _ = try SourceFile(path: "sub/main.asm", text: "global _start\n; asmrun: link-flags -lm -o /tmp/elsewhere\n_start: ret\n")
            Issue.record("a link-flags directive with -o was accepted")
        } catch let error as FileError {
            #expect(
                error.description
                    == "sub/main.asm:2: `link-flags` may not pass `-o`: it is not among the flags a source may pass (Documentation/running.md, \"Source directives\"); remove it from the source, or pass it with --link-flags on your own command line if you trust it"
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
@Suite(.tags(.integration), .needsTools)
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
                == "asmrun: main.asm:2: `c-flags` may not pass `-B\(directory)/tools/`: it is not among the flags a source may pass (Documentation/running.md, \"Source directives\"); remove it from the source, or pass it with --c-flags on your own command line if you trust it\n"
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
