import Processes
import Support

/// Which source line each instruction address belongs to, and the symbols that name data: read
/// from `objdump -t --dwarf=decodedline` of the program's debug build, keeping only the lines of
/// the program's own sources (libc's and the C runtime's are not traced).
struct LineTable: Sendable {
    /// One source line's code: `[start, end)` in `sources[source]`.
    struct Range: Sendable, Equatable {
        var start: UInt64
        var end: UInt64
        var source: Int
        var line: Int
    }

    /// A symbol with its address and section.
    struct Symbol: Sendable, Equatable {
        var name: String
        var address: UInt64
        var section: String
    }

    let sources: [String]
    private(set) var ranges: [Range] = []
    private(set) var symbols: [Symbol] = []

    /// Reads objdump's output for a program of `sources` (the paths as the program names them).
    init(objdump text: String, sources: [String]) {
        self.sources = sources
        let names = sources.map { PathName.lastComponent(of: $0) }
        var rows: [(address: UInt64, source: Int?, line: Int?)] = []
        for line in text.split(separator: "\n") {
            if let tab = line.firstIndex(of: "\t") {
                symbol(line, tab: tab).map { symbols.append($0) }
                continue
            }
            let words = line.split(whereSeparator: { $0 == " " })
            guard let at = words.lastIndex(where: { $0.hasPrefix("0x") }), at >= 2, let address = UInt64(words[at].dropFirst(2), radix: 16)
            else { continue }
            let name = words[..<(at - 1)].joined(separator: " ")
            rows.append((address, names.firstIndex(of: PathName.lastComponent(of: name)), Int(words[at - 1])))
        }
        rows.sort { $0.address < $1.address }
        for (index, row) in rows.enumerated() {
            guard let source = row.source, let line = row.line, index + 1 < rows.count, rows[index + 1].address > row.address else {
                continue
            }
            if let last = ranges.last, last.end == row.address, last.source == source, last.line == line {
                ranges[ranges.count - 1].end = rows[index + 1].address
            } else {
                ranges.append(Range(start: row.address, end: rows[index + 1].address, source: source, line: line))
            }
        }
        symbols.sort { $0.address < $1.address }
    }

    /// `0000000000402000 l     O .data\t0000000000000008 total`.
    private func symbol(_ line: Substring, tab: Substring.Index) -> Symbol? {
        let left = line[..<tab].split(separator: " ")
        let right = line[line.index(after: tab)...].split(separator: " ", maxSplits: 1)
        guard left.count >= 2, right.count == 2, let address = UInt64(left[0], radix: 16), let section = left.last,
            !section.hasPrefix("*"), left.dropFirst().dropLast().allSatisfy({ !$0.contains("f") })
        else { return nil }
        // Dynamic programs' table has a version column before the name.
        guard let name = right[1].split(separator: " ").last else { return nil }
        return Symbol(name: String(name), address: address, section: String(section))
    }

    /// The linker's markers and tables, which name no datum of the program's.
    static let markers: Set<String> = [
        "_edata", "_end", "__bss_start", "_DYNAMIC", "_GLOBAL_OFFSET_TABLE_", "__dso_handle", "data_start", "__data_start",
        "_IO_stdin_used", "__TMC_END__",
    ]

    /// Sections the C runtime and the dynamic loader write, not the program.
    static let runtimeSections: Set<String> = [".got", ".got.plt", ".dynamic", ".init_array", ".fini_array"]

    /// The line `address` belongs to, if it is the program's own.
    func line(at address: UInt64) -> Range? {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].start <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0, address < ranges[low - 1].end else { return nil }
        return ranges[low - 1]
    }

    /// The address of the symbol `name`.
    func address(of name: String) -> UInt64? { symbols.first { $0.name == name }?.address }

    /// `total`, `table+8`: the symbol below `address` in a data section.
    func name(of address: UInt64) -> String? {
        guard let symbol = symbol(below: address), !Self.markers.contains(symbol.name), address - symbol.address < 4096 else {
            return nil
        }
        return address == symbol.address ? symbol.name : "\(symbol.name)+\(address - symbol.address)"
    }

    /// Whether `address` lies in the GOT or another table the runtime writes.
    func isRuntime(_ address: UInt64) -> Bool {
        symbol(below: address).map { Self.runtimeSections.contains($0.section) } ?? false
    }

    /// The symbol below `address` outside the code; of several at one address, one the program named.
    private func symbol(below address: UInt64) -> Symbol? {
        guard let nearest = symbols.last(where: { $0.address <= address && !$0.section.hasPrefix(".text") }) else { return nil }
        return symbols.last { $0.address == nearest.address && !Self.markers.contains($0.name) } ?? nearest
    }

    /// Reads the debug build `executable` with objdump; `nil` with why when it cannot.
    static func load(
        executable: String, sources: [String], objdump: String, launcher: any ProcessLaunching
    ) throws -> LineTable {
        var options = LaunchOptions()
        options.stdout = .capture(limit: 64 << 20)
        options.stderr = .capture(limit: 1 << 16)
        let result = try launcher.run(Command(objdump, ["-w", "-t", "--dwarf=decodedline", executable]), options: options)
        guard result.termination == .exited(0) else {
            throw TraceFailure(
                description: "objdump could not read the program's line tables: \(String(decoding: result.stderr, as: UTF8.self))")
        }
        return LineTable(objdump: String(decoding: result.stdout, as: UTF8.self), sources: sources)
    }
}
