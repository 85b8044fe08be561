import Foundation
import Glibc
import Synchronization

/// Where build products go and whether they are reused.
public struct CacheOptions: Sendable, Equatable {
    /// Reuse and store linked executables.
    public var enabled = true
    /// `--cache-dir`; otherwise `$XDG_CACHE_HOME/asmrun` or `~/.cache/asmrun`.
    public var directory: String?
    /// The size past which least-recently-used entries are evicted.
    public var maxBytes = 256 << 20

    /// Creates default options.
    public init(enabled: Bool = true, directory: String? = nil) {
        self.enabled = enabled
        self.directory = directory
    }

    /// The cache folder for an environment.
    public func root(environment: [String: String]) -> String? {
        if let directory { return directory }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/asmrun" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/asmrun" }
        return nil
    }
}

extension RunOptions {
    /// The cache options from `--no-cache` and `--cache-dir`.
    public var cacheOptions: CacheOptions { CacheOptions(enabled: useCache, directory: cacheDirectory) }
}

/// A linked executable ready to run: a private copy owned by this asmrun process.
public struct Artifact: Sendable {
    /// Its path.
    public let executable: String

    /// Removes the private copy.
    public func release() { unlink(executable) }
}

/// Builds programs into a content-addressed cache: the key covers the source, every file it
/// includes, the tools (path, size, mtime) and every flag. An entry is one file, `objects/KEY`:
/// the executable followed by its SHA-256, renamed into place whole and checked before every
/// use; a missing or corrupt entry is rebuilt. Objects and private copies live in scratch.
public final class ArtifactStore: Sendable {
    /// The cache folder, or `nil` when caching is off.
    public let root: String?
    private let options: CacheOptions
    private let context: Context
    private let scratch: String
    private let counter = Atomic<Int>(0)
    private let stored = Atomic<Bool>(false)

    /// Opens the store; a cache folder that cannot be created turns caching off.
    public init(options: CacheOptions, context: Context) throws {
        self.options = options
        self.context = context
        var root = options.enabled ? options.root(environment: context.environment) : nil
        if let candidate = root {
            for folder in ["/objects", "/tmp"]
            where
                (try? FileManager.default.createDirectory(
                    atPath: candidate + folder, withIntermediateDirectories: true)) == nil
            {
                root = nil
            }
        }
        self.root = root
        scratch = try TemporaryDirectory(prefix: "build", environment: context.environment).path
    }

    /// Removes this process's private copies and trims the cache if anything was stored.
    public func close() {
        TemporaryDirectory.removeTree(scratch)
        if stored.load(ordering: .relaxed), let root {
            CacheMaintenance(root: root).trim(toBytes: options.maxBytes)
        }
    }

    /// Returns a runnable executable for `source`, from the cache or freshly built.
    public func build(
        _ source: SourceFile, toolchain: Toolchain, trace: (@Sendable (Command) -> Void)? = nil
    ) throws -> Artifact {
        let index = counter.add(1, ordering: .relaxed).newValue
        let executable = scratch + "/\(index)-\(source.stem)"
        let object = executable + ".o"
        let plan = try BuildPlan(source: source, toolchain: toolchain, objectPath: object, executablePath: executable)
        let builder = Builder(launcher: context.launcher, trace: trace)
        defer { unlink(object) }
        guard let root else {
            try builder.build(plan, source: source.path)
            return Artifact(executable: executable)
        }
        let entry = CacheEntry(path: root + "/objects/" + (try cacheKey(source, plan)))
        if let bytes = entry.read(), FileCopy.write(bytes, to: executable, mode: 0o755) {
            utimes(entry.path, nil)
            return Artifact(executable: executable)
        }
        try builder.build(plan, source: source.path)
        let staging = root + "/tmp/" + (entry.path as NSString).lastPathComponent + ".\(getpid()).\(index)"
        if entry.install(executable: executable, staging: staging) { stored.store(true, ordering: .relaxed) }
        return Artifact(executable: executable)
    }

    private func cacheKey(_ source: SourceFile, _ plan: BuildPlan) throws -> String {
        let neutral = plan.relocated(objectPath: "@object", executablePath: "@executable")
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw SourceError(path: source.path, problem: "cannot be read", fix: "check its permissions")
        }
        var digest = SHA256()
        digest.update(field: "asmrun-cache-2")
        for command in [neutral.assemble, neutral.link] {
            digest.update(field: command.executable)
            digest.update(field: Self.identity(of: command.executable))
            for argument in command.arguments { digest.update(field: argument) }
        }
        digest.update(data)
        let scanner = IncludeScanner(
            searchDirectories: [source.directory] + source.settings.includeDirectories)
        let text = String(decoding: data, as: UTF8.self)
        for dependency in scanner.dependencies(of: source, text: text) {
            digest.update(field: dependency.name)
            digest.update(field: dependency.path ?? "<missing>")
            if let path = dependency.path, let content = FileManager.default.contents(atPath: path) {
                digest.update(field: SHA256.hex(content))
            }
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
