import Glibc
import Source

/// A linked executable ready to run: a private copy owned by this asmrun process, or the
/// cache's own entry, run where it is.
package struct Artifact: Sendable {
    package let executable: String
    /// The executable is the first `length` bytes of the file (a cache entry: its trailer comes
    /// after them); `nil`: the whole file. A file with a length is the cache's: never written,
    /// linked or removed.
    package var length: Int?
    /// The format it was built as (a retry can make 64-bit-looking code elf32).
    package let format: ObjectFormat
    /// What nasm, the C compiler and the linker printed on success, verbatim (replayed on a
    /// cache hit): `file:line: warning:` lines.
    package let warnings: String
    /// asmrun's own remarks on the build, one line each (`asmrun: x.asm: built as 32-bit …`).
    package let notes: [String]
    /// Linked against a shared C library: it needs the x86 dynamic loader to run.
    package var dynamic = false
    /// The headers the C compiler read (its `-MD` list, or the cache's record of it): inputs
    /// of the build as much as the sources are.
    package var headers: [String] = []
    /// Built with DWARF line tables (`-g`): it names its own lines; the classic build needs the
    /// debug build's (`ArtifactStore.debugBuild`).
    package var debugInfo = false

    package init(
        executable: String, format: ObjectFormat, warnings: String, notes: [String], dynamic: Bool = false, headers: [String] = []
    ) {
        self.executable = executable
        self.format = format
        self.warnings = warnings
        self.notes = notes
        self.dynamic = dynamic
        self.headers = headers
    }

    /// Everything worth showing before the program runs, or with a failing case.
    package var remarks: String {
        // Appended, not `joined`: its generic use looked through every conformance in the binary
        // at its first call, 5 % of a single run's instructions.
        var text = ""
        for note in notes {
            if !text.isEmpty { text += "\n" }
            text += note
        }
        guard !warnings.isEmpty else { return text }
        if !text.isEmpty { text += "\n" }
        return text + (warnings.hasSuffix("\n") ? String(warnings.dropLast()) : warnings)
    }

    /// The cache's entry, run in place.
    var inCache: Bool { length != nil }

    /// Removes the private copy (the cache's entry stays).
    package func release() {
        if !inCache { unlink(executable) }
    }
}
