import Build
import Glibc
import Processes
import Sandbox
import Session
import Support

extension RunCommand {
    /// Runs the program on the terminal. asmrun ignores Ctrl-C meanwhile, as system(3) does;
    /// under `--watch` it listens (Ctrl-C ends the watch), and a save ends the program
    /// (`SavedDuringRun`).
    func launchProgram(_ command: Command, _ launch: LaunchOptions, input: CallerInput) throws -> ProcessResult {
        let run = {
            defer { input.programEnded() }
            return try context.launcher.run(command, options: launch)
        }
        guard let watching else { return try TerminalSignals.ignoringInterrupts(run) }
        let (result, saved) = try watching.during(run)
        if let saved { throw WatchedRunEnded.saved(saved) }
        if watching.interrupted { throw WatchedRunEnded.interrupted }
        return result
    }

    /// The watch ended the program: a save (it is built and run again), or Ctrl-C (the watch ends
    /// too); neither is the program's own end, to report.
    enum WatchedRunEnded: Error {
        case saved(RunWatch.Save)
        case interrupted
    }

    /// `asmrun --watch FILE.asm`: builds and runs the program, then again after each save of a
    /// file it reads, until Ctrl-C (exit 130, `ExitStatus.watch`). A save while it runs kills it.
    func watch() -> Int32 {
        let diagnostics = context.diagnostics
        if let refusal = Self.pipedInputRefusal(source: options.source) { return ExitStatus.failed(refusal, in: .run, diagnostics) }
        var command = self
        let watching: RunWatch
        do {
            watching = try RunWatch(children: context.launcher.children, sources: options.sources, abandon: context.abandon)
        } catch { return ExitStatus.failed(error, in: .run, diagnostics) }
        defer { watching.stop() }
        command.watching = watching
        // A program killed by a save or Ctrl-C may leave the terminal as it set it (no echo, raw).
        let terminal = TerminalMode(descriptor: 0)
        ExitStatus.terminal.withLock { $0 = terminal }
        defer {
            terminal?.restore()
            ExitStatus.terminal.withLock { $0 = nil }
        }
        var saved: RunWatch.Save?
        var first = true
        while !watching.interrupted {
            if let saved {
                Watching.clearScreen(context.console)
                let line =
                    saved.overflowed
                    ? Watching.overflowLine(then: "\(Watching.names(saved.paths)) changed: building and running again")
                    : "asmrun: \(Watching.names(saved.paths)) saved: building and running again\n"
                context.console.write(line, to: .error)
            }
            // Input from a file is read from its start by every run.
            if Self.standardInputKind() == S_IFREG { _ = lseek(0, 0, SEEK_SET) }
            var status: Int32?
            do { status = try command.executeThrowing() } catch WatchedRunEnded.saved(let save) {
                terminal?.restore()
                saved = save
                continue
            } catch WatchedRunEnded.interrupted {
                break
            } catch {
                // What no save mends (a missing file or tool, bad usage) ends the watch at once.
                let unmendable = error is UsageError || error is ToolError || !options.sources.allSatisfy(Files.exists)
                if first && unmendable { return ExitStatus.failed(error, in: .run, diagnostics) }
                _ = ExitStatus.failed(error, in: .run, diagnostics)
            }
            first = false
            if watching.interrupted { break }
            let ended = status.map { "asmrun: status \($0); " } ?? "asmrun: "
            let next = watching.awaitSave { folders in
                context.console.write(ended + Watching.waitingLine(folders: folders).dropFirst("asmrun: ".count), to: .error)
            }
            guard let next else { break }
            saved = next
        }
        return ExitStatus.watch
    }

    /// The file type of standard input (`S_IFIFO`, `S_IFREG`, …); 0 when it is closed.
    static func standardInputKind() -> mode_t {
        var status = stat()
        return fstat(0, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    /// Input piped in is read once: the second run would find it gone.
    static func pipedInputRefusal(source: String) -> UsageError? {
        guard [S_IFIFO, S_IFSOCK].contains(standardInputKind()) else { return nil }
        return UsageError(
            "--watch runs \(source.displayEscaped) again on every save, and piped input can be read only once",
            fix: "give it a file (`asmrun --watch \(source.displayEscaped) < FILE`, read again by every run), or type the input")
    }
}
