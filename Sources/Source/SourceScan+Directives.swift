extension SourceScan {
    /// `%include "name"` (recorded), and the directives that make nasm read a file this scan
    /// cannot name: `%include` of anything but one quoted name, `%pathsearch`, `%depend`.
    mutating func scanDirective(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        if Self.equalsLowercased(line, start, min(end, start + 8), "%include") {
            if let name = Self.quotedName(line, from: start + 8, to: end), Self.endsAfterName(line, from: start + 8, to: end) {
                includes.append(name)
                includeLines.append(lineNumber)
            } else {
                inputs.opaque = true
            }
        } else if Self.equalsLowercased(line, start, min(end, start + 11), "%pathsearch")
            || Self.equalsLowercased(line, start, min(end, start + 7), "%depend")
        {
            inputs.opaque = true
        }
    }

    /// Whether nothing but blanks and a comment follows the quoted name after `start`.
    private static func endsAfterName(_ line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var position = start
        while position < end && (line[position] == space || line[position] == tab) { position += 1 }
        let open = line[position]
        let close = open == lessThan ? greaterThan : open
        guard let stop = line[(position + 1)..<end].firstIndex(of: close) else { return false }
        position = stop + 1
        while position < end && (line[position] == space || line[position] == tab) { position += 1 }
        return position == end || line[position] == semicolon
    }
}

private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
private let semicolon = UInt8(ascii: ";")
private let lessThan = UInt8(ascii: "<")
private let greaterThan = UInt8(ascii: ">")
