/// Steps a stopped program through its own source lines, one instruction at a time, and hands
/// each finished visit of a line (with what it changed) to `summary`'s folding and then `emit`.
package final class Tracer {
    /// How the traced program ended.
    package enum End: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// The step bound was reached; the program was ended.
        case stepLimit
    }

    private let target: any TraceTarget
    private let table: LineTable
    private let thirtyTwoBit: Bool
    /// The program's writable memory (`.data`, `.bss`), at most 64 KiB of it, compared visit by visit.
    private let writable: [Range<UInt64>]
    private let emit: (TraceEntry) -> Void
    private var summary: TraceSummary
    private(set) var steps = 0

    private var visit: TraceVisit?
    private var visitRegisters: [UInt64] = []
    private var snapshot: [[UInt8]?] = []
    /// The stack around the stack pointer when the visit began, and where that is.
    private var stack: (base: UInt64, bytes: [UInt8]?) = (0, nil)
    private var code: [UInt64: [UInt8]] = [:]
    private var texts: [TraceVisit.Place: String] = [:]

    init(
        target: any TraceTarget, table: LineTable, thirtyTwoBit: Bool, writable: [Range<UInt64>], emit: @escaping (TraceEntry) -> Void
    ) {
        self.target = target
        self.table = table
        self.thirtyTwoBit = thirtyTwoBit
        self.writable = writable
        self.emit = emit
        summary = TraceSummary(main: table.sources.first)
    }

    /// Runs the program to its end, or `limit` instructions of its own code.
    func run(limit: Int) throws -> End {
        var registers = try target.registers()
        // A C program starts in the C runtime: run it to `main`.
        if table.line(at: registers[TraceRegisters.rip]) == nil {
            let start = table.address(of: "main") ?? table.ranges.first?.start
            if let end = end(of: try target.run(to: start, signal: 0)) { return end }
            registers = try target.registers()
        }
        snapshot = writable.map { target.read($0.lowerBound, count: $0.count) }
        var pending: Int32 = 0
        var last: UInt64?
        while true {
            let pc = registers[TraceRegisters.rip]
            guard let place = table.line(at: pc) else {
                let ended = try leftOwnCode(registers, previous: last, pending: pending)
                pending = 0
                if let ended { return ended }
                registers = try target.registers()
                continue
            }
            if visit == nil || visit?.line != place.line || visit?.file != table.sources[place.source] || pc <= last ?? 0 {
                close(registers)
                open(place, registers)
            }
            guard steps < limit else {
                close(registers)
                target.kill()
                flush()
                return .stepLimit
            }
            let bytes = instruction(at: pc)
            let systemCall = bytes.starts(with: [0x0f, 0x05]) || bytes.starts(with: [0xcd, 0x80])
            let stop =
                systemCall && !target.stepsOverSystemCalls ? try target.run(to: pc + 2, signal: pending) : try target.step(signal: pending)
            pending = 0
            steps += 1
            visit?.steps += 1
            if let ended = end(of: stop) {
                if systemCall { record(systemCall: registers, after: nil) }
                close(nil)
                flush()
                return ended
            }
            let before = registers
            if case .stopped(let signal) = stop, signal != 5 {
                // The instruction did not run: the signal is delivered at the next step.
                pending = signal
                steps -= 1
                visit?.steps -= 1
                registers = try target.registers()
                continue
            }
            registers = try target.registers()
            if systemCall { record(systemCall: before, after: registers) }
            last = pc
        }
    }

    /// Outside the program's own lines: a call into libc runs to its return as one event; any
    /// other way out (main returning into libc) runs to the end.
    private func leftOwnCode(_ registers: [UInt64], previous: UInt64?, pending: Int32) throws -> End? {
        let word = thirtyTwoBit ? 4 : 8
        let returnAddress = target.read(registers[TraceRegisters.rsp], count: word).map {
            $0.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        if let previous, let returnAddress, returnAddress > previous, returnAddress - previous <= 15, table.line(at: returnAddress) != nil {
            let stop = try target.run(to: returnAddress, signal: pending)
            if let ended = end(of: stop) {
                close(nil)
                flush()
                return ended
            }
            let after = try target.registers()
            let name = Self.callee(visit?.text ?? "") ?? "the function"
            let result = TraceFormat.value(after[TraceRegisters.rax], thirtyTwoBit: thirtyTwoBit)
            visit?.events.append("\(name) returned \(thirtyTwoBit ? "eax" : "rax")=\(result) (library code, not traced)")
            return nil
        }
        close(registers)
        let stop = try target.run(to: nil, signal: pending)
        flush()
        return end(of: stop) ?? .stepLimit
    }

    /// `call printf` → `printf`.
    static func callee(_ text: String) -> String? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
        guard let index = words.firstIndex(where: { $0.lowercased() == "call" }), index + 1 < words.count else { return nil }
        let name = words[(index + 1)...].first { !["qword", "dword", "near", "far", "[rel"].contains($0.lowercased()) }
        return name.map { String($0.split(separator: " ").first ?? $0) }
    }

    private func end(of stop: TraceStop) -> End? {
        switch stop {
        case .stopped: nil
        case .exited(let code): .exited(code)
        case .signaled(let signal): .signaled(signal)
        }
    }

    private func instruction(at pc: UInt64) -> [UInt8] {
        if let bytes = code[pc] { return bytes }
        let bytes = target.read(pc, count: 2) ?? []
        code[pc] = bytes
        return bytes
    }

    private func record(systemCall before: [UInt64], after: [UInt64]?) {
        visit?.events.append(
            SystemCallText.describe(before: before, after: after, thirtyTwoBit: thirtyTwoBit) { [target] in target.read($0, count: $1) })
    }

    private func open(_ place: LineTable.Range, _ registers: [UInt64]) {
        let path = table.sources[place.source]
        let key = TraceVisit.Place(file: path, line: place.line)
        let text = texts[key] ?? SourceText.line(place.line, of: path)
        texts[key] = text
        visit = TraceVisit(file: path, line: place.line, text: text)
        visitRegisters = registers
        let base = registers[TraceRegisters.rsp] &- UInt64(Self.stackWindow / 2)
        stack = (base, target.read(base, count: Self.stackWindow))
    }

    /// Bytes of stack compared around a visit: pushes, calls, locals just below or above rsp.
    static let stackWindow = 256

    /// Finishes the current visit with what changed since it began (`registers`: now; `nil`: the program ended).
    private func close(_ registers: [UInt64]?) {
        guard var finished = visit else { return }
        visit = nil
        if let registers { changes(from: visitRegisters, to: registers, into: &finished) }
        let now = writable.map { target.read($0.lowerBound, count: $0.count) }
        for (index, range) in writable.enumerated() {
            guard let old = snapshot[index], let new = now[index] else { continue }
            finished.memory += Self.writes(old, new, at: range.lowerBound).filter { !table.isRuntime($0.address) }.map { write in
                var write = write
                write.symbol = table.name(of: write.address)
                return write
            }
        }
        snapshot = now
        if let registers, let old = stack.bytes, let new = target.read(stack.base, count: Self.stackWindow) {
            let pointer = registers[TraceRegisters.rsp]
            let name = thirtyTwoBit ? "esp" : "rsp"
            // Below the stack pointer is what functions left behind, not live data.
            finished.memory += Self.writes(old, new, at: stack.base).filter { $0.address >= pointer }.map { write in
                var write = write
                let offset = Int64(bitPattern: write.address &- pointer)
                write.symbol = offset == 0 ? "[\(name)]" : offset > 0 ? "[\(name)+\(offset)]" : "[\(name)-\(-offset)]"
                return write
            }
        }
        for entry in summary.add(finished) { emit(entry) }
    }

    private func flush() {
        for entry in summary.finish() { emit(entry) }
    }

    private func changes(from old: [UInt64], to new: [UInt64], into visit: inout TraceVisit) {
        let names = thirtyTwoBit ? TraceRegisters.names32 : TraceRegisters.names64
        let mask: UInt64 = thirtyTwoBit ? 0xffff_ffff : .max
        for (index, name) in names.enumerated() where old[index] & mask != new[index] & mask {
            visit.registers.append(.init(name: name, value: new[index] & mask))
        }
        let (before, after) = (old[TraceRegisters.eflags], new[TraceRegisters.eflags])
        for flag in TraceRegisters.flagBits where (before >> flag.bit) & 1 != (after >> flag.bit) & 1 {
            visit.flags.append(.init(name: flag.name, value: (after >> flag.bit) & 1))
        }
    }

    /// The runs of bytes that differ, each widened to the aligned 1, 2, 4 or 8 bytes holding it.
    static func writes(_ old: [UInt8], _ new: [UInt8], at base: UInt64) -> [TraceVisit.Write] {
        var result: [TraceVisit.Write] = []
        var index = 0
        while index < old.count {
            guard old[index] != new[index] else {
                index += 1
                continue
            }
            var end = index + 1
            while end < old.count, old[end] != new[end] || (end + 1 < old.count && old[end + 1] != new[end + 1]) { end += 1 }
            var start = index
            if end - index <= 8, let width = [1, 2, 4, 8].first(where: { (index / $0) == ((end - 1) / $0) }) {
                start = index / width * width
                end = min(start + width, old.count)
            }
            result.append(.init(address: base + UInt64(start), symbol: nil, old: Array(old[start..<end]), new: Array(new[start..<end])))
            index = end
        }
        return result
    }
}
