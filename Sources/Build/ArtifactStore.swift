import Glibc
import Sandbox
import Source
import Support
import Synchronization

/// A linked executable ready to run: a private copy owned by this asmrun process.
package struct Artifact: Sendable {
    package let executable: String

    package func release() { unlink(executable) }
}

/// Builds programs into a content-addressed cache: the key covers the source, every file it
/// includes, the tools (path, size, mtime) and every flag. An entry is one file, `objects/KEY`:
/// the executable followed by its SHA-256, renamed into place whole and checked before every
/// use; a missing or corrupt entry is rebuilt. Objects and private copies live in scratch.
package final class ArtifactStore: Sendable {
    /// The cache folder, or `nil` when caching is off.
    package let root: String?
    private let options: CacheOptions
    private let launcher: any ProcessLaunching
    private let scratch: String
    private let counter = Atomic<Int>(0)
    private let stored = Atomic<Bool>(false)

    /// Opens the store; a cache folder that cannot be created turns caching off.
    package init(options: CacheOptions, environment: [String: String], launcher: any ProcessLaunching) throws {
        self.options = options
        self.launcher = launcher
        var root = options.enabled ? options.root(environment: environment) : nil
        if let candidate = root, !["/objects", "/tmp"].allSatisfy({ Files.makeDirectories(candidate + $0) }) {
            root = nil
        }
        self.root = root
        scratch = try TemporaryDirectory(prefix: "build", environment: environment).path
    }

    /// Removes this process's private copies and trims the cache if anything was stored.
    package func close() {
        Files.removeTree(scratch)
        if stored.load(ordering: .relaxed), let root {
            CacheMaintenance(root: root).trim(toBytes: options.maxBytes)
        }
    }

    /// Returns a runnable executable for `source` (whose includes are `dependencies`), from the
    /// cache or freshly built.
    package func build(
        _ source: SourceFile, dependencies: [Dependency], toolchain: Toolchain,
        trace: (@Sendable (Command) -> Void)? = nil
    ) throws -> Artifact {
        let index = counter.add(1, ordering: .relaxed).newValue
        let executable = scratch + "/\(index)-\(source.stem)"
        let object = executable + ".o"
        let plan = try BuildPlan(source: source, toolchain: toolchain, objectPath: object, executablePath: executable)
        let builder = Builder(launcher: launcher, trace: trace)
        defer { unlink(object) }
        guard let root else {
            try builder.build(plan, source: source.path)
            return Artifact(executable: executable)
        }
        let entry = CacheEntry(path: root + "/objects/" + Self.cacheKey(source, dependencies, plan))
        if let bytes = entry.read(), ExecutableFile.write(bytes, to: executable) {
            utimes(entry.path, nil)
            return Artifact(executable: executable)
        }
        try builder.build(plan, source: source.path)
        let staging = root + "/tmp/" + PathName.lastComponent(of: entry.path) + ".\(getpid()).\(index)"
        if entry.install(executable: executable, staging: staging) { stored.store(true, ordering: .relaxed) }
        return Artifact(executable: executable)
    }

    private static func cacheKey(_ source: SourceFile, _ dependencies: [Dependency], _ plan: BuildPlan) -> String {
        let neutral = plan.relocated(objectPath: "@object", executablePath: "@executable")
        var digest = SHA256()
        digest.update(field: "asmrun-cache-3")
        for command in [neutral.assemble, neutral.link] {
            digest.update(field: command.executable)
            digest.update(field: identity(of: command.executable))
            for argument in command.arguments { digest.update(field: argument) }
        }
        digest.update(field: SHA256.hex(source.bytes))
        for dependency in dependencies {
            digest.update(field: dependency.name)
            digest.update(field: dependency.path ?? "<missing>")
            digest.update(field: dependency.digest ?? "<unreadable>")
        }
        return digest.hexDigest()
    }

    /// A tool's path, size and modification time: a changed or upgraded tool changes the key.
    static func identity(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "absent" }
        return "\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
