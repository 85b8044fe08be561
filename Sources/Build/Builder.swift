import Sandbox

/// Runs one build step (nasm, the C compiler, the linker) and turns a failure into a
/// `BuildFailure`; what a successful step printed is returned: its warnings are the user's.
package struct Builder: Sendable {
    package let launcher: any ProcessLaunching
    /// Called with each command line before it runs, and with cache hits (`--verbose`).
    package let trace: (@Sendable (String) -> Void)?

    package init(launcher: any ProcessLaunching, trace: (@Sendable (String) -> Void)? = nil) {
        self.launcher = launcher
        self.trace = trace
    }

    /// Runs `command` as `stage` of `source`; `hint` names a fix for a failure's output.
    package func run(
        _ command: Command, stage: BuildFailure.Stage, source: String, hint: (String) -> String?
    ) throws -> String {
        trace?("\(command)")
        var options = LaunchOptions()
        options.timeout = 120
        let result = try launcher.run(command, options: options)
        var output = String(decoding: result.stderr + result.stdout, as: UTF8.self)
        guard result.termination != .exited(0) else { return output }
        if result.termination != .exited(1) && output.isEmpty {
            output = "\(command.executable) ended with \(result.termination.summary)"
        }
        throw BuildFailure(source: source, stage: stage, output: output, hint: hint(output))
    }
}
