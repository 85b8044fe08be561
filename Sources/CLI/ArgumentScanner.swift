import Source
import Support

/// Walks an argument vector: `-x VALUE`, `-xVALUE`, `--long VALUE`, `--long=VALUE`, and `--`.
struct ArgumentScanner {
    private var arguments: [String]
    private var index = 0
    private var pendingValue: String?
    private(set) var passthrough: [String] = []

    init(_ arguments: [String]) { self.arguments = arguments }

    /// The next option or operand; `nil` at the end or at `--`.
    mutating func next() -> String? {
        pendingValue = nil
        guard index < arguments.count else { return nil }
        let argument = arguments[index]
        index += 1
        if argument == "--" {
            passthrough = Array(arguments[index...])
            index = arguments.count
            return nil
        }
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            pendingValue = String(argument[argument.index(after: equals)...])
            return String(argument[..<equals])
        }
        if argument.count > 2, argument.hasPrefix("-"), !argument.hasPrefix("--"),
            "IDfjol".contains(argument[argument.index(after: argument.startIndex)])
        {
            pendingValue = String(argument.dropFirst(2))
            return String(argument.prefix(2))
        }
        return argument
    }

    /// The value of the option just returned by `next()`.
    mutating func value(for option: String) throws -> String {
        if let pendingValue {
            self.pendingValue = nil
            return pendingValue
        }
        guard index < arguments.count else { throw UsageError("\(option) needs a value", fix: "see `asmrun --help`") }
        index += 1
        return arguments[index - 1]
    }

    /// A value parsed as a number of seconds, from a millisecond to a week.
    mutating func seconds(for option: String) throws -> Double {
        let text = try value(for: option)
        guard let seconds = ProgramSettings.parseSeconds(text) else {
            throw UsageError(
                "\(option) takes a number of seconds from 0.001 to \(Int(ProgramSettings.maximumSeconds)), not `\(text)`")
        }
        return seconds
    }

    /// A value parsed as one of an enum's raw values.
    mutating func choice<T: RawRepresentable & CaseIterable>(for option: String, as type: T.Type) throws -> T
    where T.RawValue == String {
        let text = try value(for: option)
        guard let parsed = T(rawValue: text) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("\(option) takes one of \(allowed), not `\(text)`")
        }
        return parsed
    }
}

extension UsageError {
    /// An option asmrun does not know; a file name that only looks like one gets the `./` fix.
    static func unknownOption(_ option: String, help: String) -> UsageError {
        if option.hasSuffix(".asm") || option.hasSuffix("/") {
            return UsageError("unknown option \(option)", fix: "to name a file that starts with `-`, write ./\(option)")
        }
        return UsageError("unknown option \(option); see `\(help)`")
    }
}
