import Foundation
import Glibc
import Support
import Testing

/// Issue 30's build attacks from a source, with real nasm, gcc and ld: each made the build load
/// or run the source's code, write where it said, or read a file outside the program's folder
/// (into the program, which then printed it), on main before the allow-list and the boundary.
@Suite(.tags(.integration), .needsTools)
struct BuildAttackTests {
    /// `room/prog` (the program), `room/outside` (a secret), and what an attack uses in `prog`:
    /// an ld plugin and a fake assembler and error script, each writing `room/mark`.
    private func room() throws -> String {
        let room = try Fixture.temporaryDirectory()
        let mark = room + "/mark"
        try Fixture.write(
            "#include <stdio.h>\n__attribute__((constructor)) static void m(void) { fclose(fopen(\"\(mark)\", \"w\")); }\n"
                + "int onload(void *t) { return 0; }\n", to: room + "/prog/plugin.c")
        let made = try Fixture.asmrun(["-c", "gcc -shared -fPIC -o prog/helper.so prog/plugin.c"], in: room, executable: "/bin/sh")
        #expect(made.status == .exited(0), "\(made)")
        for tool in ["tools/as", "err.sh"] {
            try Fixture.write("#!/bin/sh\necho ran > \(mark)\nexec as \"$@\"\n", to: room + "/prog/" + tool)
            chmod(room + "/prog/" + tool, 0o755)
        }
        try Fixture.write("long helper(void) { return 7; }\n", to: room + "/prog/helper.c")
        try Fixture.write("db \"SECRET\", 10\n", to: room + "/outside/secret.inc")
        try Fixture.write("SECRET\n", to: room + "/outside/secret.txt")
        try Fixture.write("#define SECRET 42\n", to: room + "/outside/secret.h")
        try Fixture.write("global other\nother: ret\n", to: room + "/outside/util.asm")
        return room
    }

    private static let main = "global main\nextern helper\nsection .text\nmain:\n    sub rsp, 8\n    call helper\n    add rsp, 8\n    ret\n"

    /// Flags gcc and ld take by abbreviation, which the deny-list let through.
    static let flags: [(directive: String, source: String)] = [
        ("link-flags --for-linker=-plugin={prog}/helper.so", main),
        ("c-flags --prefix={prog}/tools/", main),
        ("link-flags -Wl,--error-h={prog}/err.sh", "global main\nextern nowhere\nmain: call nowhere\n    ret\n"),
        ("link-flags -Wl,--outp={room}/mark", main),
        ("link-flags -Wl,--dependency-f={room}/mark", main),
        ("link-flags -Wl,--Ma={room}/mark", main),
    ]

    @Test(arguments: flags) func aSourceCannotMakeTheBuildRunItsCodeOrWriteWhereItSays(_ attack: (directive: String, source: String)) throws
    {
        let room = try room()
        defer { Files.removeTree(room) }
        let directive = attack.directive.replacingOccurrences(of: "{prog}", with: room + "/prog")
            .replacingOccurrences(of: "{room}", with: room)
        try Fixture.write("; asmrun: with helper.c\n; asmrun: \(directive)\n" + attack.source, to: room + "/prog/main.asm")
        let result = try Fixture.asmrun(["main.asm", "--no-cache"], in: room + "/prog")
        #expect(result.status == .exited(125), "\(result)")
        #expect(result.stderr.hasPrefix("asmrun: main.asm:2: `"), "\(result.stderr)")
        #expect(result.stderr.contains("may not pass") && result.stderr.contains("on your own command line if you trust it"))
        #expect(!Files.exists(room + "/mark"), "the attack ran: \(result)")
    }

    /// Files outside the program's folder, each read into the program on main.
    static let outside: [(lines: String, line: Int)] = [
        ("%include \"../outside/secret.inc\"\n", 6),
        ("incbin \"../outside/secret.txt\"\n", 6),
        // nasm joins a line ending in `\` to the next, and ends one at a lone CR (line 7, as nasm counts).
        ("inc\\\nbin \"../outside/secret.txt\"\n", 6),
        ("%\\\ninclude \"../outside/secret.inc\"\n", 6),
        ("db 0\r%include \"../outside/secret.inc\"\n", 7),
        ("; asmrun: include ../outside\n%include \"secret.inc\"\n", 1),
        ("; asmrun: with ../outside/util.asm\n", 1),
        ("; asmrun: with helper.c\n; asmrun: c-flags -I {room}/outside\n", 2),
    ]

    private static func program(_ lines: String) -> String {
        let directives = lines.split(separator: "\n").filter { $0.hasPrefix(";") }.map { $0 + "\n" }.joined()
        let body = lines.split(separator: "\n").filter { !$0.hasPrefix(";") }.map { $0 + "\n" }.joined()
        return directives + String(repeating: "; padding\n", count: 3 - directives.split(separator: "\n").count)
            + "section .data\nmsg:\n" + body + "len equ $ - msg\nsection .text\nglobal _start\n_start:\n"
            + "    mov eax, 1\n    mov edi, 1\n    lea rsi, [rel msg]\n    mov edx, len\n    syscall\n    mov eax, 60\n    xor edi, edi\n    syscall\n"
    }

    @Test(arguments: outside) func aSourceCannotReadAFileOutsideItsFolder(_ attack: (lines: String, line: Int)) throws {
        let room = try room()
        defer { Files.removeTree(room) }
        try Fixture.write(Self.program(attack.lines.replacingOccurrences(of: "{room}", with: room)), to: room + "/prog/main.asm")
        let run = try Fixture.asmrun(["main.asm", "--no-cache"], in: room + "/prog")
        #expect(run.status == .exited(125) && !run.stdout.contains("SECRET"), "\(run)")
        #expect(run.stderr.hasPrefix("asmrun: main.asm:\(attack.line): "), "\(run.stderr)")
        #expect(run.stderr.contains("outside the current folder;") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        try Fixture.write("[case default]\nstdout:\n| SECRET\nstatus: exit 0\n", to: room + "/prog/main.expect")
        let test = try Fixture.asmrun(["test", "prog", "--no-cache", "--runner", Fixture.runner], in: room)
        #expect(test.status == .exited(1), "\(test)")
        #expect(test.stdout.contains("ERROR prog/main.asm:default [\(Fixture.runner)]: refused"), "\(test)")
        #expect(test.stderr.contains("asmrun: prog/main.asm:\(attack.line): ") && test.stderr.contains(", outside prog;"), "\(test)")
        let trusted = try Fixture.asmrun(["test", ".", "--no-cache", "-v", "--runner", Fixture.runner], in: room)
        let shown = trusted.stdout + trusted.stderr
        #expect(
            !shown.contains("refused") && !shown.contains("outside ."),
            "the folder given holds both, so the program may use both: \(trusted)")
    }
}
