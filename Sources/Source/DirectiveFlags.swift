/// The flags a source's `c-flags` and `link-flags` directives may not pass.
///
/// nasm, the compiler and the linker run outside the cases' sandbox, as the user running
/// asmrun, and a grader's submissions are sources nobody reviewed. A source may therefore not
/// choose what the build runs or loads (`-B`, `-wrapper`, plugins, spec and response files,
/// the linker's error script) nor where it writes (`-o`, dependency files, temporaries, dumps,
/// maps). Flags that only read files (`-I`, `-L`, `-include`, a linker script) stay allowed,
/// as a case may read what its user can. `--link-flags` on the command line is the user's own
/// and is not checked.
package enum DirectiveFlags {
    /// The linker's own `-B` options, which the compiler driver would take for `-B PREFIX`.
    package static let linkerKeywords: Set<String> = [
        "-Bstatic", "-Bdynamic", "-Bsymbolic", "-Bsymbolic-functions", "-Bno-symbolic", "-Bgroup", "-Bshareable",
    ]

    /// Why `flag` may not come from a directive (`link`: from `link-flags`, which either the
    /// compiler driver or the linker receives), or nil.
    package static func problem(_ flag: String, link: Bool) -> String? {
        if link, linkerKeywords.contains(flag) { return nil }
        if let reason = driverProblem(flag) { return reason }
        return link ? linkerProblem(flag) : nil
    }

    /// What the compiler driver (gcc, clang) would do with `flag` that a source may not ask for.
    private static func driverProblem(_ flag: String) -> String? {
        if flag.hasPrefix("-Wl,") {
            return flag.split(separator: ",").dropFirst().lazy.compactMap { linkerProblem(String($0)) }.first
        }
        if flag.hasPrefix("-Wa,") || flag.hasPrefix("-Wp,") || flag.hasPrefix("-X") {
            return "it passes options to the assembler or preprocessor unchecked (the linker's go with -Wl,)"
        }
        if flag.hasPrefix("-fuse-ld=") {
            return ["bfd", "gold", "lld", "mold"].contains(flag.dropFirst(9)) ? nil : "it names the linker the build runs"
        }
        let runs = [
            "-B", "-wrapper", "-fplugin", "-fpass-plugin", "-iplugindir", "-specs", "--specs", "--config", "--ld-path",
            "--gcc-toolchain", "-gcc-toolchain", "--sysroot", "-isysroot", "-ccc-", "--driver-mode",
        ]
        if flag.hasPrefix("@") || runs.contains(where: flag.hasPrefix) {
            return "it makes the build run or load programs the source names"
        }
        let writes = [
            "-o", "-M", "-save-temps", "-dumpdir", "-dumpbase", "-aux-info", "-fdump-", "-fprofile-note",
            "-fsave-optimization-record", "-foptimization-record-file", "-ftime-trace", "-fcrash-diagnostics",
            "-fmodules-cache-path",
        ]
        if writes.contains(where: flag.hasPrefix) { return "it makes the build write files where the source says" }
        return nil
    }

    /// What the linker (ld) would do with `flag` that a source may not ask for.
    private static func linkerProblem(_ flag: String) -> String? {
        if flag.hasPrefix("@") || flag.hasPrefix("-plugin") || flag.hasPrefix("--plugin")
            || flag.hasPrefix("--error-handling-script")
        {
            return "it makes the build run or load programs the source names"
        }
        let writes = ["-o", "--output", "-Map", "--Map", "--dependency-file", "--out-implib"]
        if writes.contains(where: flag.hasPrefix) { return "it makes the build write files where the source says" }
        return nil
    }
}
