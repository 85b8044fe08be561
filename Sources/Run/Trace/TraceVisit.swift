/// One visit of a source line: the instructions run on it in a row, and what they changed.
package struct TraceVisit: Sendable, Equatable, Encodable {
    /// A register (or flag: 0 or 1) and its value after the visit.
    struct Change: Sendable, Equatable, Encodable {
        var name: String
        var value: UInt64
    }

    /// Bytes the visit wrote into the program's data, little-endian as in memory.
    struct Write: Sendable, Equatable, Encodable {
        var address: UInt64
        /// The data symbol it belongs to (`total`, `table+8`).
        var symbol: String?
        var old: [UInt8]
        var new: [UInt8]
    }

    var file: String
    var line: Int
    /// The source line's text, comment and leading blanks removed.
    var text: String
    var registers: [Change] = []
    var flags: [Change] = []
    var memory: [Write] = []
    /// System calls and library calls, as printed (`write(1, "hi\n", 3) = 3`).
    var events: [String] = []
    /// Instructions run.
    var steps = 0

    init(file: String, line: Int, text: String) {
        self.file = file
        self.line = line
        self.text = text
    }

    /// Where it is: the same file and line are the same place.
    var place: Place { Place(file: file, line: line) }

    struct Place: Hashable {
        var file: String
        var line: Int
    }

    /// The visits' changes one after another, as one: each register's and flag's last value, each
    /// address's first old and last new bytes, every event.
    static func merged(_ visits: [TraceVisit]) -> TraceVisit {
        var result = TraceVisit(file: visits.first?.file ?? "", line: visits.first?.line ?? 0, text: "")
        for visit in visits {
            result.registers = combine(result.registers, visit.registers)
            result.flags = combine(result.flags, visit.flags)
            for write in visit.memory {
                if let index = result.memory.firstIndex(where: { $0.address == write.address && $0.new.count == write.new.count }) {
                    result.memory[index].new = write.new
                } else {
                    result.memory.append(write)
                }
            }
            result.events += visit.events
            result.steps += visit.steps
        }
        result.memory.removeAll { $0.old == $0.new }
        return result
    }

    private static func combine(_ earlier: [Change], _ later: [Change]) -> [Change] {
        var result = earlier
        for change in later {
            if let index = result.firstIndex(where: { $0.name == change.name }) {
                result[index].value = change.value
            } else {
                result.append(change)
            }
        }
        return result
    }
}

/// What the trace shows: a visit, or a loop folded into its pass count and last pass.
package enum TraceEntry: Sendable, Equatable {
    case visit(TraceVisit)
    /// Lines `first`…`last` of `file` ran `passes` times in a row (with the lines of `calls`, other
    /// files, they reached); the last pass's changes.
    case loop(file: String, first: Int, last: Int, passes: Int, lastPass: TraceVisit, calls: [String] = [])
}
