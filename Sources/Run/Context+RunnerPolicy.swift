import Processes

extension Context {
    /// The runner policy of this context's environment (`ASMRUN_RUNNER`).
    package func runnerPolicy() throws(RunnerUnavailable) -> RunnerPolicy {
        try RunnerPolicy(environment: environment)
    }
}
