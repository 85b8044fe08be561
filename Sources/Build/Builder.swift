import Sandbox

/// Runs a `BuildPlan`: nasm, then the linker, turning their failures into `BuildFailure`s.
package struct Builder: Sendable {
    package let launcher: any ProcessLaunching
    /// Called with each command line before it runs (`--verbose`).
    package let trace: (@Sendable (Command) -> Void)?

    package init(launcher: any ProcessLaunching, trace: (@Sendable (Command) -> Void)? = nil) {
        self.launcher = launcher
        self.trace = trace
    }

    /// Assembles and links; the executable is at `plan.executablePath` afterwards.
    package func build(_ plan: BuildPlan, source: String) throws {
        try step(plan.assemble, .assemble, plan, source)
        try step(plan.link, .link, plan, source)
    }

    private func step(_ command: Command, _ stage: BuildFailure.Stage, _ plan: BuildPlan, _ source: String) throws {
        trace?(command)
        var options = LaunchOptions()
        options.timeout = 120
        let result = try launcher.run(command, options: options)
        guard result.termination != .exited(0) else { return }
        var output = String(decoding: result.stderr + result.stdout, as: UTF8.self)
        if result.termination != .exited(1) && output.isEmpty {
            output = "\(command.executable) ended with \(result.termination.summary)"
        }
        throw BuildFailure(
            source: source, stage: stage, output: output,
            hint: BuildFailure.hint(for: stage, output: output, linkMode: plan.linkMode))
    }
}
