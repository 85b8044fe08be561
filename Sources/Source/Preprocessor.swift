import Glibc
import Support

/// Reads one assembly source as nasm's preprocessor would, far enough to list its instructions
/// for the syscall check: `%include`d files spliced in at their line, `%macro`s expanded at each
/// use (with their parameters, `%%` labels, `%rep` and `%rotate`), `%define`s and `equ`s kept,
/// and `%if`s decided where the source says enough (`%ifdef`, numbers, `%ifidn`); a condition
/// it cannot decide hides both branches, so nothing is read through code nasm may leave out.
/// The work is bounded: past `workLimit` lines or `Listing.capacity` instructions the listing is
/// marked incomplete and the rest is not read.
struct Preprocessor {
    /// A `%macro`: the number of parameters it takes and its lines.
    struct Macro {
        var minimum = 0
        var maximum = 0
        /// `N+`: the last parameter takes the rest of the line, commas and all.
        var greedy = false
        var body: [[UInt8]] = []
    }

    /// Where a line comes from: its file and line, and the macro it was expanded from (the
    /// outermost one: the line the user wrote invokes it).
    struct Origin {
        var file: Int32
        var line: Int32
        var macro: Int32 = -1
    }

    /// One macro expansion's parameters (as `%rotate` leaves them) and its `%%` label prefix.
    struct Expansion {
        var arguments: [[UInt8]]
        let id: Int
        let name: String
        var exitedRepetition = false
        var exitedMacro = false
    }

    /// The state of one run of lines (a file, a macro expansion, a `%rep` pass): its open
    /// conditions and what it is collecting.
    struct Block {
        enum Condition { case taking, waiting, done, skipping }
        var conditions: [Condition] = []
        var definition: (name: String, caseless: Bool, macro: Macro, depth: Int)?
        var repetition: (count: Int, depth: Int, body: [[UInt8]])?

        var active: Bool { conditions.last.map { $0 == .taking } ?? true }
    }

    var listing: Listing
    let unit: Int
    var symbols: Symbols
    /// Include names as written, with the files they resolved to.
    let includes: [String: String]
    /// Files already read, by path.
    let contents: [String: [UInt8]]
    var macros: [String: [Macro]] = [:]
    /// `%imacro`s, by their lower-case name.
    var caselessMacros: [String: [Macro]] = [:]
    /// The first bytes (in lower case) of the macros' names: other words are no macro.
    var macroInitials = [Bool](repeating: false, count: 256)
    /// The last non-local label: `.x` is `scope.x`.
    var scope = ""
    var lastLabel = ""
    var inCode = true
    var codeSection = ".text"
    var inStructure = false
    /// A label was defined since the last instruction: the next one is a jump target.
    var pendingLabel = false
    var invocations = 0
    var depth = 0
    var work = 0
    /// The work limit was reached: nothing more is read.
    var exhausted = false

    static let workLimit = 8_000_000
    static let depthLimit = 16

    init(listing: Listing, unit: Int, defines: [String], includes: [String: String], contents: [String: [UInt8]] = [:]) {
        self.listing = listing
        self.unit = unit
        self.includes = includes
        self.contents = contents
        symbols = Symbols(commandLine: defines)
        self.listing.labels.append([:])
    }

    /// Reads a source file (or an included one, at its `%include`) line by line.
    mutating func process(path: String, bytes: [UInt8]) {
        let file = Int32(listing.files.count)
        listing.files.append(path)
        var block = Block()
        var expansion: Expansion?
        var start = bytes.starts(with: [0xef, 0xbb, 0xbf]) ? 3 : 0
        var number: Int32 = 0
        bytes.withUnsafeBufferPointer { buffer in
            while start <= buffer.count && !exhausted {
                let end = Self.lineEnd(buffer, from: start)
                number += 1
                line(buffer[start..<end], Origin(file: file, line: number), &block, &expansion)
                start = end + 1
            }
        }
    }

    /// The index of the newline ending the line at `start`, or the end of `buffer`.
    private static func lineEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < buffer.count, let base = buffer.baseAddress,
            let found = memchr(base + start, Int32(AsmLex.newline), buffer.count - start)
        else { return buffer.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// One line of a file, a macro body or a `%rep` body.
    mutating func line(_ raw: AsmLex.Bytes, _ origin: Origin, _ block: inout Block, _ expansion: inout Expansion?) {
        work += 1
        guard work < Self.workLimit, listing.instructions.count < Listing.capacity else {
            (listing.incomplete, exhausted) = (true, true)
            return
        }
        if block.definition != nil { return collectDefinition(raw, &block) }
        if block.repetition != nil { return collectRepetition(raw, origin, &block, &expansion) }
        guard let current = expansion else { return handle(AsmLex.code(raw), origin, &block, &expansion) }
        AsmLex.reading(substitute(raw, current)) { handle(AsmLex.code($0), origin, &block, &expansion) }
    }

    /// A line's code: a directive, or a statement where the code is not skipped.
    private mutating func handle(_ code: AsmLex.Bytes, _ origin: Origin, _ block: inout Block, _ expansion: inout Expansion?) {
        guard let first = code.first else { return }
        if first == AsmLex.percent { return directive(code, origin, &block, &expansion) }
        if block.active { statement(code, origin) }
    }

    /// A macro body line with the expansion's parameters in place: `%1`, `%{1}`, `%0`, `%%name`,
    /// `%?` and `%+` (which joins its neighbours).
    func substitute(_ line: AsmLex.Bytes, _ expansion: Expansion) -> [UInt8] {
        guard line.contains(AsmLex.percent) else { return Array(line) }
        var output: [UInt8] = []
        output.reserveCapacity(line.count + 16)
        var index = line.startIndex
        while index < line.endIndex {
            let byte = line[index]
            let next = index + 1 < line.endIndex ? line[index + 1] : 0
            guard byte == AsmLex.percent, next != 0 else {
                output.append(byte)
                index += 1
                continue
            }
            if next == AsmLex.percent {
                output += Array("..@\(expansion.id).".utf8)
                index += 2
            } else if next == UInt8(ascii: "?") {
                output += Array(expansion.name.utf8)
                index += line[(index + 2)...].first == UInt8(ascii: "?") ? 3 : 2
            } else if next == AsmLex.plus {
                while let last = output.last, AsmLex.isBlank(last) { output.removeLast() }
                index += 2
                while index < line.endIndex && AsmLex.isBlank(line[index]) { index += 1 }
            } else if let (number, after) = Self.parameterNumber(line, from: index + 1) {
                if number == 0 {
                    output += Array(String(expansion.arguments.count).utf8)
                } else if number <= expansion.arguments.count {
                    output += expansion.arguments[number - 1]
                }
                index = after
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// `N` or `{N}` at `start`: the parameter number and the index after it.
    private static func parameterNumber(_ line: AsmLex.Bytes, from start: Int) -> (Int, Int)? {
        let braced = line[start] == AsmLex.openBrace
        var index = braced ? start + 1 : start
        var number = 0
        while index < line.endIndex, line[index] >= 0x30 && line[index] <= 0x39, number < 1000 {
            number = number * 10 + Int(line[index] - 0x30)
            index += 1
        }
        guard index > (braced ? start + 1 : start) else { return nil }
        if braced {
            guard index < line.endIndex, line[index] == AsmLex.closeBrace else { return nil }
            index += 1
        }
        return (number, index)
    }
}
