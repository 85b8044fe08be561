import Foundation
import Source
import Support
import Testing

@testable import Build
@testable import Processes

/// Compile and link command lines and the link decision, without spawning anything.
@Suite struct BuildPlanTests {
    private func program(_ text: String, path: String = "samples/prog.asm") throws -> Program {
        Program(path: path, name: "prog", isFolder: false, assembly: [try SourceFile(path: path, text: text)])
    }

    private func plan(_ program: Program, host: String = "x86_64", tools: [String] = ["nasm", "ld", "cc"]) throws -> (BuildPlan, Toolchain)
    {
        let toolchain = try Fixture.fakeToolchain(host: host, tools: tools)
        return (try BuildPlan(program: program, toolchain: toolchain, directory: "/out", prefix: "1-"), toolchain)
    }

    private func symbols(_ defined: Set<String>, needs: Set<String> = []) -> (path: String, symbols: ElfSymbols) {
        ("o", ElfSymbols(format: .elf64, defined: defined, undefined: needs))
    }

    @Test func oneCompileStepPerSourceWithItsIncludesAndDefines() throws {
        var prog = try program("; asmrun: define LEVEL=2\n; asmrun: include macros\nglobal _start\n_start: ret\n")
        prog.settings.includeDirectories.append("/extra")
        prog.settings.defines.append("DEBUG")
        prog.cSources = [CSourceFile(path: "samples/driver.c", bytes: Array("int main(void) { return 0; }\n".utf8))]
        let (plan, tools) = try plan(prog)
        let bin = tools.locator.searchPath[0]
        #expect(
            plan.compiles[0].command
                == Command(
                    bin + "/nasm",
                    [
                        "-f", "elf64", "-I", "samples/", "-I", "samples/macros/", "-I", "/extra/", "-DLEVEL=2",
                        "-DDEBUG", "-MD", "/out/1-0-prog.o.d", "-o",
                        "/out/1-0-prog.o", "samples/prog.asm",
                    ]))
        #expect(
            plan.compiles[1].command
                == Command(
                    bin + "/cc",
                    [
                        "-c", "-fmacro-prefix-map=samples/=", "-MD", "-MF", "/out/1-c0-driver.o.d", "-o", "/out/1-c0-driver.o",
                        "samples/driver.c",
                    ]))
        #expect(plan.executable == "/out/1-prog")
    }

    /// The run build is the classic one; the debug build adds only the line tables' flags.
    @Test func aDebugBuildAddsOnlyTheLineTablesFlags() throws {
        var prog = try program("global _start\n_start: ret\n")
        prog.cSources = [CSourceFile(path: "samples/driver.c", bytes: Array("int main(void) { return 0; }\n".utf8))]
        let tools = try Fixture.fakeToolchain(host: "x86_64", tools: ["nasm", "ld", "cc"])
        let classic = try BuildPlan(program: prog, toolchain: tools, directory: "/out", prefix: "1-")
        let debug = try BuildPlan(program: prog, toolchain: tools, directory: "/out", prefix: "1-", debugInfo: true)
        let object = ["-MD", "/out/1-0-prog.o.d", "-o", "/out/1-0-prog.o", "samples/prog.asm"]
        #expect(classic.compiles[0].command.arguments == ["-f", "elf64", "-I", "samples/"] + object)
        #expect(debug.compiles[0].command.arguments == ["-f", "elf64", "-g", "-F", "dwarf", "-I", "samples/"] + object)
        #expect(debug.compiles[1].command.arguments.starts(with: ["-c", "-g", "-fmacro-prefix-map=samples/=", "-MD"]))
        #expect(
            classic.compiles[0].listing?.arguments == [
                "-f", "elf64", "-I", "samples/", "-M", "-MF", "/out/1-0-prog.o.d", "samples/prog.asm",
            ])
        #expect(!classic.compiles[1].command.arguments.contains("-g"))
    }

    @Test func aSourceNamedLikeAnOptionIsNeverOne() throws {
        let (plan, _) = try plan(try program("_start:\n", path: "-E.asm"))
        #expect(plan.compiles[0].command.arguments.last == "./-E.asm")
    }

    @Test func theLinkFollowsTheSymbols() throws {
        let prog = try program("global _start\n_start: ret\n")
        let (plan, tools) = try plan(prog)
        let bin = tools.locator.searchPath[0]
        let objects = ["/out/1-0-prog.o"]
        #expect(try LinkDecision.decide(plan, objects: [symbols(["_start"])], program: prog) == .linker)
        #expect(
            try LinkDecision.command(.linker, plan, objects: objects, toolchain: tools)
                == Command(bin + "/ld", ["-m", "elf_x86_64", "--dependency-file=/out/1-link.d", "-o", "/out/1-prog", "/out/1-0-prog.o"]))
        #expect(try LinkDecision.decide(plan, objects: [symbols(["main"], needs: ["printf"])], program: prog) == .cDriver)
        #expect(
            try LinkDecision.command(.cDriver, plan, objects: objects, toolchain: tools).arguments
                == ["-no-pie", "-Wl,-z,noexecstack", "-Wl,--dependency-file=/out/1-link.d", "-o", "/out/1-prog", "/out/1-0-prog.o"])
        // `_start` calling libc: the C driver links libc but keeps the program's own entry.
        #expect(try LinkDecision.decide(plan, objects: [symbols(["_start"], needs: ["puts"])], program: prog) == .cDriverOwnStart)
        #expect(
            try LinkDecision.command(.cDriverOwnStart, plan, objects: objects, toolchain: tools).arguments.starts(with: [
                "-no-pie", "-nostartfiles",
            ]))
    }

    @Test func aFileOfFunctionsIsOneLineNamingTheFix() throws {
        let prog = try program("global leap_year\nleap_year: ret\n", path: "leap.asm")
        let (plan, _) = try plan(prog)
        let error = try #require(throws: EntryPointMissing.self) {
            try LinkDecision.decide(plan, objects: [symbols(["leap_year"])], program: prog)
        }
        #expect(
            error.rendered
                == "asmrun: leap.asm: no entry point: it defines neither `_start` nor `main`; a file of functions needs a C driver: add a C file with `main` (asmrun leap.asm driver.c, or `; asmrun: with driver.c`), or define `_start`"
        )
    }

    @Test func elf32LinksAsI386AndCompilesCWithM32() throws {
        var prog = try program("BITS 32\nglobal _start\n_start:\n")
        prog.cSources = [CSourceFile(path: "h.c", bytes: [])]
        let (plan, tools) = try plan(prog)
        #expect(plan.format == .elf32)
        #expect(plan.compiles[0].command.arguments.starts(with: ["-f", "elf32"]))
        #expect(plan.compiles[1].command.arguments.starts(with: ["-m32", "-c"]))
        #expect(try LinkDecision.command(.linker, plan, objects: [], toolchain: tools).arguments.starts(with: ["-m", "elf_i386"]))
    }

    @Test func linkFlagsAndPie() throws {
        var prog = try program("global main\nmain: ret\n")
        prog.settings.linkFlags = ["-lm", "-pie"]
        let (plan, tools) = try plan(prog)
        let command = try LinkDecision.command(.cDriver, plan, objects: ["/o/a.o"], toolchain: tools)
        #expect(
            command.arguments == [
                "-Wl,-z,noexecstack", "-Wl,--dependency-file=/out/1-link.d", "-o", "/out/1-prog", "/o/a.o", "-lm", "-pie",
            ], "-pie drops -no-pie")
        #expect(
            try LinkDecision.decide(plan, objects: [symbols(["_start"])], program: prog) == .cDriverOwnStart, "a library needs the C driver"
        )
    }

    @Test func armHostLinksWithLldWhenNoCrossBinutils() throws {
        let (plan, tools) = try plan(try program("_start:\n"), host: "aarch64", tools: ["nasm", "ld.lld"])
        let command = try LinkDecision.command(.linker, plan, objects: [], toolchain: tools)
        #expect(command.executable.hasSuffix("/ld.lld"))
        #expect(command.arguments.starts(with: ["-m", "elf_x86_64"]))
    }

    @Test func makeDependenciesAreParsed() {
        func parsed(_ text: String) -> [String] { ArtifactStore.makeDependencies(Array(text.utf8)) }
        #expect(parsed("o.o: a.c vendor/unity.h \\\n  my\\ dir/x.h\n") == ["a.c", "vendor/unity.h", "my dir/x.h"])
        // nasm's rule (a blank before the colon), and ld's, whose phony rules follow a blank line.
        #expect(parsed("/tmp/1-0-m.o : m.asm part.inc\n\n") == ["m.asm", "part.inc"])
        #expect(parsed("exe: \\\n  /usr/lib/crt1.o \\\n  a$$b.o\n\n/usr/lib/crt1.o:\n\na$$b.o:\n") == ["/usr/lib/crt1.o", "a$b.o"])
        #expect(parsed("no rule here") == [] && parsed("") == [])
    }
}

/// A tool's identity (path, size, modification time) is part of every key: read once per store,
/// so a tool replaced while a run goes on changes the keys of the next run, not this one's.
@Suite struct ToolIdentityTests {
    @Test func aToolReplacedBetweenRunsChangesItsIdentity() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let tool = directory + "/nasm"
        try Fixture.write("#!/bin/sh\n", to: tool)
        let options = CacheOptions(directory: directory + "/cache")
        let first = try ArtifactStore(options: options, environment: [:], launcher: PosixLauncher(path: nil))
        defer { first.close() }
        let before = first.identity(of: tool)
        try Fixture.write("#!/bin/sh\necho upgraded\n", to: tool)
        #expect(first.identity(of: tool) == before, "the same within one run")
        let second = try ArtifactStore(options: options, environment: [:], launcher: PosixLauncher(path: nil))
        defer { second.close() }
        #expect(second.identity(of: tool) != before, "the next run sees the new tool")
        #expect(second.identity(of: directory + "/missing") == "absent")
    }
}
