import Support

/// An input of a build that its cache key does not name, recorded with the cache entry and
/// checked on every hit, as ccache's direct mode does: a file nasm or the C compiler said it read
/// (`nasm -MD`/`-M`, `cc -MD`) that asmrun's own scan of the sources did not find, or an
/// environment variable such a file reads with `%!NAME`. An entry whose inputs changed is a miss.
enum BuildInput: Sendable, Equatable {
    /// A file's digest, and its status when it was read (one `stat` then tells it is unchanged).
    case file(path: String, digest: String, snapshot: FileSnapshot?)
    /// An environment variable's value, hashed (`unset` when it was not set).
    case environment(name: String, digest: String)

    /// The file as it is now; `nil` when it cannot be read or recorded (a newline in its name).
    static func file(_ path: String) -> BuildInput? {
        guard !path.contains("\n"), !path.isEmpty else { return nil }
        let started = FileSnapshot.now()
        guard let (bytes, status) = try? Files.readWithStatus(path) else { return nil }
        let snapshot = FileSnapshot(status, readStarted: started)
        return .file(path: path, digest: SHA256.hex(bytes), snapshot: snapshot.settled ? snapshot : nil)
    }

    /// The variable `name` as it is in `environment`.
    static func environment(_ name: String, in environment: [String: String]) -> BuildInput {
        .environment(name: name, digest: valueDigest(environment[name]))
    }

    /// What a key or a record says of a variable's value: its digest, or `unset`.
    static func valueDigest(_ value: String?) -> String {
        value.map { SHA256.hex(Array("set:\($0)".utf8)) } ?? "unset"
    }

    /// Whether the input is still what was recorded: a settled file whose status is unchanged
    /// without reading it, any other by its digest.
    func holds(environment: [String: String]) -> Bool {
        switch self {
        case .file(let path, let digest, let snapshot):
            if snapshot?.stillDescribes(path) == true { return true }
            return (try? Files.digest(path)) == digest
        case .environment(let name, let digest):
            return Self.valueDigest(environment[name]) == digest
        }
    }

    /// One line of an entry's record: `f DIGEST STATUS PATH` or `e DIGEST NAME`.
    var line: String {
        switch self {
        case .file(let path, let digest, let snapshot): "f \(digest) \(snapshot?.text ?? "-") \(path)"
        case .environment(let name, let digest): "e \(digest) \(name)"
        }
    }

    /// A record's text: one line per input.
    static func record(_ inputs: [BuildInput]) -> String {
        // Appended, not `joined`: its generic use costs a cold run's first call a type lookup.
        var text = ""
        for input in inputs { text += input.line + "\n" }
        return text
    }

    /// The inputs of a record; `nil` when it is not one (an entry from elsewhere: a miss).
    static func inputs(of record: String) -> [BuildInput]? {
        var inputs: [BuildInput] = []
        for line in record.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            switch (fields.first, fields.count) {
            case ("f", 4): inputs.append(.file(path: String(fields[3]), digest: String(fields[1]), snapshot: FileSnapshot(text: fields[2])))
            case ("e", 3): inputs.append(.environment(name: String(fields[2]), digest: String(fields[1])))
            default: return nil
            }
        }
        return inputs
    }

    /// Whether every input of `record` still holds (an empty record always does).
    static func hold(_ record: String, environment: [String: String]) -> Bool {
        guard !record.isEmpty else { return true }
        return inputs(of: record)?.allSatisfy { $0.holds(environment: environment) } ?? false
    }
}
