import Foundation

/// Bad command-line usage: one line, with the fix.
public struct UsageError: Error, Equatable, LocalizedError, CustomStringConvertible {
    /// The message.
    public let message: String

    /// Creates the error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }

    /// Same as `description`.
    public var errorDescription: String? { message }
}

/// Walks an argument vector: `-x VALUE`, `-xVALUE`, `--long VALUE`, `--long=VALUE`, and `--`.
struct ArgumentScanner {
    private var arguments: [String]
    private var index = 0
    private var pendingValue: String?
    /// Everything after `--`.
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
            "IDfjo".contains(argument[argument.index(after: argument.startIndex)])
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
        guard index < arguments.count else { throw UsageError("\(option) needs a value") }
        index += 1
        return arguments[index - 1]
    }

    /// A value parsed as a positive number of seconds.
    mutating func seconds(for option: String) throws -> Double {
        let text = try value(for: option)
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw UsageError("\(option) takes a positive number of seconds, not `\(text)`")
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
