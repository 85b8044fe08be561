import Processes
import Run
import Source
import Support

/// `asmrun trace FILE.asm [MORE...] [options] [--steps N] [--json FILE] [-- ARGS]`: build as
/// `asmrun FILE.asm` would, then run the program one instruction at a time, printing each source
/// line it runs with what it changed (on stderr; the program's stdio is its own).
struct TraceCommand {
    let options: RunOptions
    var steps = TraceSession.defaultSteps
    var json: String?
    let context: Context

    static func main(_ arguments: [String], context: Context) -> Int32 {
        AsmRun.subcommand(arguments, help: Usage.main, failing: .run, context: context) {
            var rest: [String] = []
            var steps = TraceSession.defaultSteps
            var json: String?
            var scanner = ArgumentScanner(arguments)
            while let argument = scanner.next() {
                switch argument {
                case "--steps":
                    let text = try scanner.value(for: argument)
                    guard let value = Int(text), TraceSession.stepRange.contains(value) else {
                        let range = TraceSession.stepRange
                        throw UsageError(
                            "--steps takes a number of instructions from \(range.lowerBound) to \(range.upperBound), not `\(text)`")
                    }
                    steps = value
                case "--json": json = try scanner.value(for: argument)
                case "--batch": throw UsageError("--batch is an option of asmrun debug", fix: "leave it out")
                case "--stdin":
                    throw UsageError("--stdin is an option of asmrun debug", fix: "redirect the input: asmrun trace FILE.asm < INPUT")
                default: rest.append(argument)
                }
            }
            let options = try RunOptions(parsing: rest + (scanner.passthrough.isEmpty ? [] : ["--"] + scanner.passthrough), debugging: true)
            return try TraceCommand(options: options, steps: steps, json: json, context: context).execute()
        }
    }

    func execute() throws -> Int32 {
        let session = try TraceSession(launcher: context.launcher, toolchain: context.toolchain)
        return try RunCommand(options: options, context: context).withDebugRun(prefix: "trace") { run, prepared, folder in
            try trace(run, prepared, session: session, folder: folder)
        }
    }

    private func trace(_ run: CrashProbe.Run, _ prepared: RunCommand.Prepared, session: TraceSession, folder: String) throws -> Int32 {
        if let json {
            try RunCommand.refuseInput(json, option: "--json", replacing: "the trace", prepared.program, headers: prepared.artifact.headers)
        }
        let main = prepared.program.filesAndIncludes.first ?? options.source
        let thirtyTwoBit = prepared.artifact.format == .elf32
        var entries: [TraceEntry] = []
        let console = context.console
        let outcome = try session.trace(run, limit: steps, folder: folder) { entry in
            if json == nil {
                console.write(TraceText.render(entry, main: main, thirtyTwoBit: thirtyTwoBit), to: .error)
            } else {
                entries.append(entry)
            }
        }
        if let json {
            let document = TraceDocument(program: main, runner: prepared.runner.name, outcome: outcome, entries: entries)
            try AtomicFile.write(Array(try JSONText.render(document).utf8) + [10], to: json)
        }
        let name = options.source.displayEscaped
        switch outcome.end {
        case .exited(let code):
            console.write("asmrun: \(name) exited with status \(code) after \(outcome.steps) steps\n", to: .error)
            return ExitStatus.program(.exited(code))
        case .signaled(let signal):
            console.write(
                "asmrun: \(name): killed by \(Signal.name(of: signal)) after \(outcome.steps) steps (asmrun \(name) gives the crash report)\n",
                to: .error)
            return ExitStatus.program(.signaled(signal))
        case .stepLimit:
            console.write(
                "asmrun: \(name): stopped after \(steps) steps, the --steps limit: a loop that never ends? "
                    + "Read the loop above, or raise the limit with --steps N (at most \(TraceSession.stepRange.upperBound))\n",
                to: .error)
            return ExitStatus.program(.timedOut)
        }
    }
}
