import Processes

extension TestCase {
    /// What `execve` would refuse of its `args:` and `env:` lines (see `ArgumentSpace`), with the
    /// line that says it: the `args:` line for an argument, a variable's `env:` line, the last of
    /// them for the total; `nil` when they fit.
    package var argumentSpaceProblem: (line: Int?, problem: String)? {
        guard let problem = ArgumentSpace.problem(arguments: arguments, environment: environment) else { return nil }
        let envLabels = environment.indices.map { $0 == 0 ? "env" : "env \($0 + 1)" }
        let limit = ArgumentSpace.maxStringBytes
        let line: Int?
        if arguments.contains(where: { $0.utf8.count + 1 > limit }) {
            line = lines.fields["args"]
        } else if let index = environment.firstIndex(where: { $0.utf8.count + 1 > limit }) {
            line = lines.fields[envLabels[index]]
        } else {
            line = (["args"] + envLabels).compactMap { lines.fields[$0] }.max()
        }
        return (line ?? (lines.header > 0 ? lines.header : nil), problem)
    }
}
