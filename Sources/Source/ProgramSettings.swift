import Support

/// The object format nasm writes.
package enum ObjectFormat: String, Sendable, CaseIterable {
    /// 64-bit ELF (`nasm -f elf64`), the default.
    case elf64
    /// 32-bit ELF (`nasm -f elf32`) for `bits 32` / `int 0x80` programs.
    case elf32
}

extension ObjectFormat {
    /// A format as nasm's `-f` names it: `elf64`, `elf32`, or `elf`, nasm's own alias of elf32.
    package init?(named name: String) {
        let lowered = name.lowercased()
        self.init(rawValue: lowered == "elf" ? "elf32" : lowered)
    }
}

/// How the object file becomes an executable.
package enum LinkMode: String, Sendable, CaseIterable {
    /// `ld` when the program defines `_start`, the C driver when it defines only `main`.
    case auto
    /// A plain linker: no libc, the program starts at `_start`.
    case ld
    /// The C compiler driver with `-no-pie`: libc is initialised and `main` is called.
    case cc
}

/// What a program's `; asmrun:` directives (and the command line) say about building and testing it.
package struct ProgramSettings: Sendable, Equatable {
    /// The object format; `nil` lets the source decide (`bits 32` means elf32).
    package var format: ObjectFormat?
    package var link: LinkMode = .auto
    /// `-D` definitions for nasm, as `NAME` or `NAME=VALUE`.
    package var defines: [String] = []
    /// Extra include directories for nasm, besides the source's own folder.
    package var includeDirectories: [String] = []
    /// Seconds each case may run.
    package var timeout: Double?
    /// Runners (or `all`) on which the program is skipped, with the reason.
    var skips: [String: String] = [:]
    /// Runners (or `all`) on which the program is expected to fail, with the reason.
    package var expectedFailures: [String: String] = [:]
    /// The qemu `-cpu` model.
    package var qemuCPU: String?
    /// The file is only `%include`d by other programs and is not a program itself.
    package var includeOnly = false
    /// Resource limits that replace the defaults for this program's cases.
    package var limits = ResourceLimits()
    /// Bytes kept per output stream, replacing `--output-limit`.
    package var outputLimit: Int?
    /// Other files of the program (`.asm`, `.c`, `.o`, `.a`), from `; asmrun: with`, relative to
    /// the source's folder once the source is read.
    package var sources: [String] = []
    /// Flags and libraries for the link step (`-lm`, `-static`, `-pie`).
    package var linkFlags: [String] = []
    /// Flags for compiling the program's C files (`-O2`, `-Wall`).
    package var cFlags: [String] = []
    /// The files and folders the directives name (`with`, `include`, flags' paths), with their
    /// lines: the command line's own are not among them.
    package var namedPaths: [NamedPath] = []
    /// What the program sees as `argv[0]` (default `./NAME`), for a Makefile's `leap.out`.
    package var argv0: String?

    package init() {}

    /// The reason `runner` must be skipped, if any.
    package func skipReason(for runner: String) -> String? {
        skips[runner] ?? skips["all"]
    }

    /// The reason `runner` is expected to fail, if any.
    package func expectedFailure(for runner: String) -> String? {
        expectedFailures[runner] ?? expectedFailures["all"]
    }
}
