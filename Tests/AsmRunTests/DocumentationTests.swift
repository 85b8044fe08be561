import Processes
import Support
import Testing

@testable import CLI

/// The man page and the shell completions are written by hand; these checks tie them to the one
/// source of truth, the `--help` text, so an option added there and forgotten here fails.
@Suite struct DocumentationTests {
    private static let folder = Fixture.packageRoot + "/Documentation"

    private func text(_ name: String) throws -> String {
        String(decoding: try Files.read(Self.folder + "/" + name), as: UTF8.self)
    }

    /// Every `--long` and `-x` option of `asmrun --help` and `asmrun test --help`.
    static let options: [String] = {
        let help = Usage.main + Usage.test
        var found: [String] = []
        for match in help.matches(of: /(?:^|[\s,(\[|`])(--[a-z][a-z-]*[a-z]|-[a-zA-Z])(?![\w-])/) {
            let option = String(match.output.1)
            if !found.contains(option) { found.append(option) }
        }
        return found
    }()

    static let subcommands = ["run", "test", "debug", "trace", "report", "doctor", "cache"]

    static let variables: [String] = Usage.main.matches(of: /\n  (?<name>[A-Z][A-Z_]+)[= ]/).map { String($0.output.name) }

    @Test func helpListsWhatTheseChecksExpect() {
        #expect(Self.options.contains("--runner") && Self.options.contains("-j") && Self.options.contains("--no-isolation"))
        #expect(Self.options.count > 25, "the option pattern stopped matching the help text: \(Self.options)")
        #expect(Self.variables == ["ASMRUN_HOST_ARCH", "ASMRUN_RUNNER", "QEMU_LD_PREFIX", "XDG_CACHE_HOME", "NO_COLOR"])
    }

    @Test func manPageHasEveryOptionSubcommandAndVariable() throws {
        let page = try text("asmrun.1").replacingOccurrences(of: "\\-", with: "-")
        for option in Self.options {
            #expect(page.contains("Fl " + option.dropFirst()), "asmrun.1 does not document \(option)")
        }
        for command in Self.subcommands { #expect(page.contains("Cm " + command), "asmrun.1 lacks \(command)") }
        for variable in Self.variables { #expect(page.contains("Ev " + variable), "asmrun.1 lacks \(variable)") }
        #expect(page.contains("Cm binfmt"))
    }

    @Test(arguments: ["asmrun.bash", "_asmrun", "asmrun.fish"])
    func completionHasEveryOptionAndSubcommand(file: String) throws {
        let script = try text("completions/" + file)
        for option in Self.options {
            let present =
                file == "asmrun.fish"
                ? script.contains(option.hasPrefix("--") ? "-l \(option.dropFirst(2))" : "-s \(option.dropFirst())")
                : script.contains(option)
            #expect(present, "\(file) does not complete \(option)")
        }
        for command in Self.subcommands { #expect(script.contains(command), "\(file) lacks \(command)") }
        #expect(script.contains("binfmt") && script.contains("elf32") && script.contains(".asm"))
    }

    /// bash is everywhere: source the completion and ask it, as bash would on Tab.
    @Test func bashCompletesSubcommandsOptionsAndAsmFiles() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write("", to: directory + "/hello.asm")
        try Fixture.write("", to: directory + "/notes.txt")
        let script = """
            source '\(Self.folder)/completions/asmrun.bash'
            ask() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _asmrun; echo "${COMPREPLY[*]}"; }
            ask asmrun ''; ask asmrun test --ru; ask asmrun test --runner ''; ask asmrun --format ''; ask asmrun test ''
            """
        let result = try PosixLauncher(path: Fixture.environment["PATH"]).run(
            Command("/bin/bash", ["-c", script], workingDirectory: directory), options: LaunchOptions())
        #expect(
            String(decoding: result.stdout, as: UTF8.self)
                == "run test debug trace report doctor cache hello.asm\n--runner\nauto native qemu binfmt all native,qemu\nelf64 elf32\nhello.asm\n"
        )
        #expect(result.termination == .exited(0))
    }
}
