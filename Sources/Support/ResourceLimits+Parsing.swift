/// The limits `limit NAME VALUE` sets, in a source's directive or a case of a `.expect` file,
/// with their ranges.
enum LimitName: String, CaseIterable, Sendable {
    case memory, fileSize = "file-size", cpu, processes, openFiles = "open-files", output

    /// The names, for messages: `memory, file-size, cpu, processes, open-files or output`.
    static let list = "memory, file-size, cpu, processes, open-files or output"

    var range: String {
        switch self {
        case .memory, .fileSize: "a size from 1 to 1024G"
        case .output: "a size from 1 to \(ResourceLimits.maximumOutput >> 20)M"
        case .cpu: "seconds from 1 to \(Int(ResourceLimits.maximumSeconds))"
        case .processes, .openFiles: "a count from 1 to 1048576"
        }
    }

    var example: String { self == .cpu || self == .processes || self == .openFiles ? "64" : "256M" }

    func parse(_ text: String) -> Int? {
        switch self {
        case .memory, .fileSize: ResourceLimits.parseSize(text)
        case .output: ResourceLimits.parseSize(text, in: 1...ResourceLimits.maximumOutput)
        case .cpu: ResourceLimits.parseSize(text, in: 1...Int(ResourceLimits.maximumSeconds))
        case .processes, .openFiles: ResourceLimits.parseSize(text, in: 1...(1 << 20))
        }
    }
}

extension ResourceLimits {
    /// The longest time limit asmrun accepts anywhere: a week.
    package static let maximumSeconds = 604_800.0
    /// The most output asmrun keeps per stream, anywhere: 256 MiB (it is held in memory).
    package static let maximumOutput = 256 << 20

    /// Sets the limit `words` name (`memory 256M`), or `outputLimit` for `output`; the problem,
    /// one line, when the words are not a limit and a value in its range.
    package mutating func apply(limit words: [String], outputLimit: inout Int?) -> String? {
        guard let name = words.first else { return "`limit` needs a limit name" }
        guard let limit = LimitName(rawValue: name) else { return "unknown limit `\(name)` (use \(LimitName.list))" }
        guard words.count >= 2 else { return "`limit \(name)` needs a value such as \(limit.example)" }
        guard let value = limit.parse(words[1]) else { return "`limit \(name) \(words[1])` is out of range: \(limit.range)" }
        switch limit {
        case .memory: addressSpace = value
        case .fileSize: fileSize = value
        case .cpu: cpuSeconds = value
        case .processes: processes = value
        case .openFiles: openFiles = value
        case .output: outputLimit = value
        }
        return nil
    }

    /// A positive, finite number of seconds up to a week.
    package static func parseSeconds(_ text: String) -> Double? {
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0.001, seconds <= maximumSeconds else { return nil }
        return seconds
    }

    /// Parses `100`, `64K`, `256M`, `2G` within `range`; `nil` for anything else, overflow included.
    package static func parseSize(_ text: String, in range: ClosedRange<Int> = 1...(1 << 40)) -> Int? {
        let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text)
        var multiplier = 1
        if let last = text.uppercased().last, let scale = multipliers[last] {
            digits = digits.dropLast()
            multiplier = scale
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits) else { return nil }
        let (value, overflow) = number.multipliedReportingOverflow(by: multiplier)
        return !overflow && range.contains(value) ? value : nil
    }
}
