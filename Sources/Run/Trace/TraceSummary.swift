/// Folds repeated passes of a loop as visits arrive: the first pass is shown visit by visit,
/// the passes after it as one entry (how many, and what the last one changed). A pass is the
/// sequence of places from a place's previous visit up to the visit that returns to it.
struct TraceSummary: Sendable {
    /// The places shown one by one since the last fold, the newest last.
    private var recent: [TraceVisit.Place] = []
    /// A second pass being checked against the first.
    private var candidate: (body: [TraceVisit.Place], visits: [TraceVisit])?
    /// A loop being folded: its body, passes so far, and the pass in progress.
    private var loop: (body: [TraceVisit.Place], passes: Int, current: [TraceVisit], last: [TraceVisit])?
    /// The program's main source: a loop through several files is named by its lines there.
    private let main: String?

    /// How many places back a loop's start is looked for: a longer body is shown in full.
    static let window = 64

    init(main: String? = nil) {
        self.main = main
    }

    /// The entries `visit` completes (none while a loop may still be going on).
    mutating func add(_ visit: TraceVisit) -> [TraceEntry] {
        if var folding = loop {
            if visit.place == folding.body[folding.current.count] {
                folding.current.append(visit)
                if folding.current.count == folding.body.count {
                    folding.passes += 1
                    folding.last = folding.current
                    folding.current = []
                }
                loop = folding
                return []
            }
            return finishLoop() + add(visit)
        }
        if var checking = candidate {
            if visit.place == checking.body[checking.visits.count] {
                checking.visits.append(visit)
                if checking.visits.count == checking.body.count {
                    candidate = nil
                    loop = (checking.body, 2, [], checking.visits)
                } else {
                    candidate = checking
                }
                return []
            }
            candidate = nil
            return checking.visits.flatMap { show($0) } + add(visit)
        }
        if let start = recent.lastIndex(of: visit.place) {
            let body = Array(recent[start...])
            if body.count == 1 {
                loop = (body, 2, [], [visit])
            } else {
                candidate = (body, [visit])
            }
            return []
        }
        return show(visit)
    }

    /// What is still held back, once the program ended.
    mutating func finish() -> [TraceEntry] {
        if loop != nil { return finishLoop() }
        guard let checking = candidate else { return [] }
        candidate = nil
        return checking.visits.flatMap { show($0) }
    }

    private mutating func show(_ visit: TraceVisit) -> [TraceEntry] {
        recent.append(visit.place)
        if recent.count > Self.window { recent.removeFirst(recent.count - Self.window) }
        return [.visit(visit)]
    }

    /// The folded loop, then the visits of its unfinished last pass one by one.
    private mutating func finishLoop() -> [TraceEntry] {
        guard let folding = loop else { return [] }
        loop = nil
        recent = []
        let files = folding.body.map(\.file)
        let file = files.contains { $0 == main } ? main ?? files[0] : files[0]
        let lines = folding.body.filter { $0.file == file }.map(\.line)
        var calls: [String] = []
        for other in files where other != file && !calls.contains(other) { calls.append(other) }
        let entry = TraceEntry.loop(
            file: file, first: lines.min() ?? 0, last: lines.max() ?? 0, passes: folding.passes,
            lastPass: TraceVisit.merged(folding.last), calls: calls)
        return [entry] + folding.current.flatMap { show($0) }
    }
}
