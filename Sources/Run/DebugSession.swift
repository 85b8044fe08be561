import Build
import Glibc
import Processes
import Support

/// `asmrun debug`: gdb on the program stopped where its own code starts (`main` when it has
/// one, else the entry point), its source line shown. Natively gdb runs the program; under qemu
/// (any non-x86 host) qemu waits on its gdbstub and gdb (gdb-multiarch) connects to it.
package struct DebugSession: Sendable {
    let launcher: any ProcessLaunching
    let debugger: String

    package init(launcher: any ProcessLaunching, toolchain: Toolchain) throws(ToolError) {
        self.launcher = launcher
        debugger = try toolchain.debugger()
    }

    /// Runs gdb on `run` on the terminal and returns how it ended; `batch` stops, shows where,
    /// and quits (for scripts). The program reads `stdin` (a file) when given, else the terminal;
    /// its copies and qemu's socket go in `folder`; `environment` is asmrun's.
    package func start(
        _ run: CrashProbe.Run, batch: Bool, folder: String, stdin: String? = nil, environment: [String: String] = [:]
    ) throws -> Termination {
        let run = try named(run, in: folder)
        let bytes = try Files.read(run.executable)
        let stop =
            ElfSymbols(bytes)?.defined.contains("main") == true
            ? "main" : ElfSymbols.entryPoint(bytes).map { "*0x" + String($0, radix: 16) } ?? "_start"
        let settings = ["set confirm off", "set disassembly-flavor intel"] + (batch ? ["set pagination off"] : [])
        let emulated: Bool
        switch run.runner.kind {
        case .qemu: emulated = true
        default: emulated = false
        }
        let finish =
            batch
            ? ["info registers \(run.format == .elf32 ? "eip" : "rip")", "kill"]
            : DebugGreeting.lines(program: run.sources.first ?? run.executable, emulated: emulated).map {
                "echo " + DebugGreeting.echoed($0) + "\\n"
            }
        var launch = LaunchOptions()
        launch.stdin = .inherit
        launch.stdout = .inherit
        launch.stderr = .inherit
        launch.newProcessGroup = false
        switch run.runner.kind {
        case .native:
            // The shell gdb starts the program with keeps each argument whole (without it gdb
            // splits them at blanks) and gives it `stdin`; gdb picks the shell by $SHELL.
            let redirect = stdin.map { " < " + DebugGreeting.shellQuoted($0) } ?? ""
            let arguments = run.arguments.map(DebugGreeting.shellQuoted).joined(separator: " ")
            let inferior = [
                "set args " + arguments + redirect, environment["SHELL"].map { "set environment SHELL=" + $0 } ?? "unset environment SHELL",
                "unset environment LINES", "unset environment COLUMNS",
            ]
            // gdb reads the line tables as the program's own file and runs the executable.
            let file = run.program.symbols == nil ? [] : ["exec-file " + GdbTranscript.quoted(run.executable)]
            let commands = settings + file + inferior + ["tbreak \(stop)", "run"] + finish
            var command = Command(debugger, gdbArguments(commands, batch: batch) + [run.program.symbolFile])
            if !environment.isEmpty {
                command.environment = environment.merging(["SHELL": "/bin/sh"]) { $1 }
            }
            return try status(of: command, launch)
        case .qemu:
            return try emulate(run, stop: stop, settings: settings, finish: finish, stdin: stdin, batch: batch, folder: folder, launch)
        case .binfmt, .custom:
            throw RunnerUnavailable(
                runner: run.runner.name, reason: "asmrun debug works under the native and qemu runners",
                fix: "use --runner native, or --runner qemu (through qemu's gdbstub)")
        }
    }

    private func emulate(
        _ run: CrashProbe.Run, stop: String, settings: [String], finish: [String], stdin: String?, batch: Bool, folder: String,
        _ launch: LaunchOptions
    ) throws -> Termination {
        let socket = folder + "/gdb"
        let bytes = try Files.read(run.executable)
        // qemu stops before the first instruction: the entry point of a static program.
        let startsThere = !ElfSymbols.hasInterpreter(bytes) && stop != "main"
        let reach = startsThere ? [] : ["tbreak \(stop)", "continue"]
        let commands = settings + ["target remote \(socket)"] + reach + finish
        let command = Command(debugger, gdbArguments(commands, batch: batch) + [run.program.symbolFile])
        let qemu = run.runner.command(executable: run.executable, argv0: run.argv0, arguments: run.arguments)
        let children = launcher.children
        var qemuLaunch = launch
        var input: Int32 = -1
        if let stdin {
            input = open(stdin, O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { throw FileError(path: stdin, problem: "cannot be read", fix: "name a file the program can read") }
            qemuLaunch.stdin = .descriptor(input)
        }
        defer { if input >= 0 { close(input) } }
        let farewell = PathName.lastComponent(of: qemu.executable) + ": QEMU: Terminated via GDBstub"
        qemuLaunch.stderr = .forward(to: 2, filter: LineFilter(droppingLinesStartingWith: farewell))
        let ended = Gdbstub.serve(
            qemu, options: qemuLaunch, socket: socket, launcher: launcher,
            end: {
                children.endAll(); children.resume()
            }
        ) {
            Result { try status(of: command, launch) }
        }
        guard let ended else {
            throw RunnerUnavailable(
                runner: run.runner.name, reason: "qemu did not open its gdbstub", fix: "check that `\(qemu)` runs the program")
        }
        return try ended.get()
    }

    /// `run` with its executable and line tables copied into `folder` under the program's own
    /// name: gdb shows that name, not the cache's hash, and the copies are newer than the sources.
    private func named(_ run: CrashProbe.Run, in folder: String) throws -> CrashProbe.Run {
        var name = PathName.lastComponent(of: run.argv0)
        if name.isEmpty || name == "." || name == ".." { name = "program" }
        var renamed = run
        renamed.program.executable = folder + "/" + name
        try ExecutableFile.copy(run.executable, to: renamed.program.executable)
        if let symbols = run.program.symbols {
            _ = Files.makeDirectory(folder + "/lines")
            renamed.program.symbols = folder + "/lines/" + name
            try ExecutableFile.copy(symbols, to: folder + "/lines/" + name)
        }
        return renamed
    }

    private func gdbArguments(_ commands: [String], batch: Bool) -> [String] {
        ["-nx", "-q", "-iex", "set auto-load off"] + (batch ? ["-batch"] : []) + commands.flatMap { ["-ex", $0] }
    }

    private func status(of command: Command, _ launch: LaunchOptions) throws -> Termination {
        try TerminalSignals.ignoringInterrupts { try launcher.run(command, options: launch) }.termination
    }
}
