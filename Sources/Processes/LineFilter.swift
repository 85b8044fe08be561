/// Drops whole lines that start with a prefix while copying a stream (qemu's own crash line).
package struct LineFilter: Sendable, Equatable {
    /// Lines beginning with this are dropped.
    var droppedPrefix: [UInt8]

    package init(droppingLinesStartingWith prefix: String) {
        droppedPrefix = Array(prefix.utf8)
    }

    /// Removes the matching lines from a complete capture.
    package func apply(to bytes: [UInt8]) -> [UInt8] {
        var state = LineFilterState()
        return state.feed(bytes, filter: self) + state.finish()
    }
}

/// The streaming side of a `LineFilter`: holds back a partial line only while it may still match.
struct LineFilterState {
    private var pending: [UInt8] = []
    private var dropping = false

    mutating func feed(_ chunk: [UInt8], filter: LineFilter) -> [UInt8] {
        var output: [UInt8] = []
        for byte in chunk {
            if dropping {
                if byte == 0x0a { dropping = false }
                continue
            }
            pending.append(byte)
            if byte == 0x0a {
                output += pending
                pending.removeAll(keepingCapacity: true)
            } else if pending.count == filter.droppedPrefix.count && pending == filter.droppedPrefix {
                pending.removeAll(keepingCapacity: true)
                dropping = true
            } else if !filter.droppedPrefix.starts(with: pending) {
                output += pending
                pending.removeAll(keepingCapacity: true)
            }
        }
        return output
    }

    mutating func finish() -> [UInt8] {
        defer { pending.removeAll() }
        return pending
    }
}
