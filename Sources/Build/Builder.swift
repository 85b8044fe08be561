import Processes
import Sandbox
import Support

/// Runs one build step (nasm, the C compiler, the linker) and turns a failure into a
/// `BuildFailure`; what a successful step printed is returned: its warnings are the user's.
struct Builder: Sendable {
    /// What nasm and the linker may use (Documentation/running.md): far more than a real program
    /// needs, but a `times 200*1024*1024 db 1` cannot fill the scratch folder, nor a runaway
    /// `%rep` take the machine's memory or the afternoon.
    static let limits = ResourceLimits(addressSpace: 4 << 30, fileSize: 64 << 20, cpuSeconds: 60)
    /// Wall-clock seconds per tool.
    static let timeout = 120.0

    let launcher: any ProcessLaunching
    /// Called with each command line before it runs, and with cache hits (`--verbose`).
    let trace: (@Sendable (String) -> Void)?

    /// The whole environment of every tool, when it is not asmrun's (contained builds).
    let environment: [String: String]?
    /// The namespaces the tools run in (`BuildView`), when the build is contained.
    let view: BuildView?

    init(
        launcher: any ProcessLaunching, trace: (@Sendable (String) -> Void)? = nil, environment: [String: String]? = nil,
        view: BuildView? = nil
    ) {
        self.launcher = launcher
        self.trace = trace
        self.environment = environment
        self.view = view
    }

    /// Runs `command` as `stage` of `source`; `hint` names a fix for a failure's output.
    func run(
        _ command: Command, stage: BuildFailure.Stage, source: String, hint: (String) -> String?
    ) throws -> String {
        trace?("\(command)")
        var command = command
        if let environment { command.environment = environment }
        var options = LaunchOptions()
        if let view {
            // Its operands are relative to asmrun's folder, which entering the view leaves.
            command.workingDirectory = command.workingDirectory ?? view.workingDirectory
            options.isolation = view.namespaces
            // A daemon the build starts (an ld plugin's constructor, a `-wrapper`) ends with its tool.
            options.ownPIDNamespace = true
            options.confinement.dropCapabilities = true
        }
        options.timeout = Self.timeout
        options.limits = Self.limits
        options.outputToFile = true
        // No controlling terminal: what the sources make a tool do never reaches the user's.
        options.withoutTerminal = true
        let result = try launcher.run(command, options: options)
        if result.interrupted { throw InterruptedError(command.executable) }
        // With `outputToFile` both streams are in `stdout`, in the order the tool wrote them.
        var output = String(decoding: result.stderr + result.stdout, as: UTF8.self)
        guard result.termination != .exited(0) else { return output }
        if result.termination != .exited(1) && output.isEmpty {
            output = "\(command.executable) ended with \(result.termination.summary)"
        }
        // A newline in the file name would split nasm's `file:line:` lines into forged ones.
        let shown = source.displayEscaped
        if shown != source { output = output.replacing(source, with: shown) }
        throw BuildFailure(
            source: source, stage: stage, output: output,
            hint: BuildFailure.limitHint(result.termination, output: output, duration: result.duration) ?? hint(output))
    }
}
