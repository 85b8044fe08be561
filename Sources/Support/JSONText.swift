/// Encodable values as the JSON text asmrun's reports use: pretty-printed with two spaces,
/// `"key" : value`, keys sorted, property names in snake_case (dictionary keys as they are), nil
/// properties left out, `/` not escaped: what Foundation's JSONEncoder writes with
/// `.convertToSnakeCase` and `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, byte for
/// byte (a test holds them together). Written here so the binary needs no Foundation at all:
/// FoundationEssentials was a third of it, and its conformances made every first use of a
/// generic type look through half again as many.
package enum JSONText {
    /// A value JSON cannot hold (a non-finite number).
    struct Unrepresentable: Error, CustomStringConvertible {
        let description: String
    }

    package static func render<T: Encodable>(_ value: T) throws -> String {
        let root = Slot()
        try value.encode(to: TreeEncoder(slot: root, codingPath: []))
        var text = ""
        write(root, indent: 0, into: &text)
        return text
    }

    /// Foundation's `convertToSnakeCase`: words split where lower case turns upper, and a run of
    /// capitals (`URLValue`) is a word but for its last letter.
    static func snakeCase(_ key: String) -> String {
        let characters = Array(key)
        guard characters.count > 1 else { return key.lowercased() }
        var words: [String] = []
        var wordStart = 0
        var index = 1
        while index < characters.count {
            guard let upper = (index..<characters.count).first(where: { characters[$0].isUppercase }) else { break }
            words.append(String(characters[wordStart..<upper]))
            guard let lower = (upper..<characters.count).first(where: { characters[$0].isLowercase }) else {
                wordStart = upper
                index = characters.count
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                words.append(String(characters[upper..<(lower - 1)]))
                wordStart = lower - 1
            }
            index = lower + 1
        }
        words.append(String(characters[wordStart...]))
        return words.map { $0.lowercased() }.joined(separator: "_")
    }

    static func number(_ value: Double) throws -> String {
        guard value.isFinite else { throw Unrepresentable(description: "\(value) is not a JSON number") }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    static func quoted(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{8}": text += "\\b"
            case "\u{c}": text += "\\f"
            case _ where scalar.value < 0x20:
                let digits = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    private static func write(_ slot: Slot, indent: Int, into text: inout String) {
        let inner = String(repeating: " ", count: indent + 2)
        if let object = slot.object {
            guard !object.isEmpty else { return text += "{\n\n" + String(repeating: " ", count: indent) + "}" }
            text += "{\n"
            for (position, key) in object.keys.sorted().enumerated() {
                text += (position > 0 ? ",\n" : "") + inner + quoted(key) + " : "
                write(object[key]!, indent: indent + 2, into: &text)
            }
            text += "\n" + String(repeating: " ", count: indent) + "}"
        } else if let array = slot.array {
            guard !array.isEmpty else { return text += "[\n\n" + String(repeating: " ", count: indent) + "]" }
            text += "[\n"
            for (position, element) in array.enumerated() {
                text += (position > 0 ? ",\n" : "") + inner
                write(element, indent: indent + 2, into: &text)
            }
            text += "\n" + String(repeating: " ", count: indent) + "]"
        } else {
            text += slot.scalar ?? "null"
        }
    }
}

/// One value of the tree being built: an object, an array or a scalar's JSON text.
final class Slot {
    var object: [String: Slot]?
    var array: [Slot]?
    var scalar: String?

    func set<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        switch value {
        case let value as String: scalar = JSONText.quoted(value)
        case let value as Bool: scalar = value ? "true" : "false"
        case let value as Double: scalar = try JSONText.number(value)
        case let value as Int: scalar = String(value)
        case let value as any BinaryInteger: scalar = "\(value)"
        case let value as Float:
            guard value.isFinite else { throw JSONText.Unrepresentable(description: "\(value) is not a JSON number") }
            scalar = value.description.hasSuffix(".0") ? String(value.description.dropLast(2)) : value.description
        case let value as any StringKeyedEntries:
            // A dictionary's keys are data, not property names: as they are.
            object = [:]
            for (key, entry) in value.entries {
                let child = Slot()
                try entry.encode(to: TreeEncoder(slot: child, codingPath: codingPath))
                object![key] = child
            }
        default: try value.encode(to: TreeEncoder(slot: self, codingPath: codingPath))
        }
    }
}

/// Dictionaries keyed by strings, which Foundation writes with their keys unconverted.
protocol StringKeyedEntries {
    var entries: [(String, any Encodable)] { get }
}

extension Dictionary: StringKeyedEntries where Key == String, Value: Encodable {
    var entries: [(String, any Encodable)] { map { ($0.key, $0.value as any Encodable) } }
}
