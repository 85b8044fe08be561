/// `asmrun trace --json FILE`: the trace for tools, each entry a visit or a folded loop.
package struct TraceDocument: Encodable, Sendable {
    package var program: String
    package var runner: String
    /// Instructions stepped.
    package var steps: Int
    /// `exited`, `signaled` or `step_limit`, with the status or signal.
    package var end: String
    package var status: Int32?
    package var entries: [Entry]

    /// A visit (`kind: visit`) or a loop (`kind: loop`, `first`…`last` ran `passes` times,
    /// `visit` holding the last pass's changes).
    package struct Entry: Encodable, Sendable {
        package var kind: String
        package var visit: TraceVisit
        package var first: Int?
        package var last: Int?
        package var passes: Int?
    }

    package init(program: String, runner: String, outcome: TraceSession.Outcome, entries: [TraceEntry]) {
        self.program = program
        self.runner = runner
        steps = outcome.steps
        switch outcome.end {
        case .exited(let code): (end, status) = ("exited", code)
        case .signaled(let signal): (end, status) = ("signaled", signal)
        case .stepLimit: (end, status) = ("step_limit", nil)
        }
        self.entries = entries.map { entry in
            switch entry {
            case .visit(let visit): Entry(kind: "visit", visit: visit)
            case .loop(let file, let first, let last, let passes, var lastPass, _):
                Entry(
                    kind: "loop",
                    visit: {
                        lastPass.file = file; return lastPass
                    }(), first: first, last: last, passes: passes)
            }
        }
    }
}
