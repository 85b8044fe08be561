import Build
import Sandbox
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
    /// and quits (for scripts). qemu's socket goes in `folder`.
    package func start(_ run: CrashProbe.Run, batch: Bool, folder: String) throws -> Termination {
        let bytes = try Files.read(run.executable)
        let stop =
            ElfSymbols(bytes)?.defined.contains("main") == true
            ? "main" : ElfSymbols.entryPoint(bytes).map { "*0x" + String($0, radix: 16) } ?? "_start"
        let settings = ["set confirm off", "set disassembly-flavor intel"] + (batch ? ["set pagination off"] : [])
        let finish =
            batch
            ? ["info registers \(run.format == .elf32 ? "eip" : "rip")", "kill"]
            : [
                "echo asmrun: stopped where the program starts. stepi (si) runs one instruction, info registers shows them, layout src the source, continue runs on.\\n"
            ]
        var launch = LaunchOptions()
        launch.stdin = .inherit
        launch.stdout = .inherit
        launch.stderr = .inherit
        launch.newProcessGroup = false
        switch run.runner.kind {
        case .native:
            let commands = settings + run.symbolCommands + ["set startup-with-shell off", "break \(stop)", "run"] + finish
            let command = Command(debugger, gdbArguments(commands, batch: batch) + ["--args", run.executable] + run.arguments)
            return try status(of: command, launch)
        case .qemu:
            let socket = folder + "/gdb"
            // qemu stops before the first instruction: the entry point of a static program.
            let startsThere = !ElfSymbols.hasInterpreter(bytes) && stop != "main"
            let reach = startsThere ? [] : ["break \(stop)", "continue"]
            let commands = settings + ["target remote \(socket)"] + reach + finish
            let command = Command(debugger, gdbArguments(commands, batch: batch) + [run.program.symbolFile])
            let qemu = run.runner.command(executable: run.executable, argv0: run.argv0, arguments: run.arguments)
            let children = launcher.children
            var qemuLaunch = launch
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
        case .binfmt, .custom:
            throw RunnerUnavailable(
                runner: run.runner.name, reason: "asmrun debug works under the native and qemu runners",
                fix: "use --runner native, or --runner qemu (through qemu's gdbstub)")
        }
    }

    private func gdbArguments(_ commands: [String], batch: Bool) -> [String] {
        ["-nx", "-q"] + (batch ? ["-batch"] : []) + commands.flatMap { ["-ex", $0] }
    }

    private func status(of command: Command, _ launch: LaunchOptions) throws -> Termination {
        try TerminalSignals.ignoringInterrupts { try launcher.run(command, options: launch) }.termination
    }
}
