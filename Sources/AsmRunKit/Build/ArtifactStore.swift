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

/// A linked executable ready to run, in a private folder of this asmrun process.
public struct Artifact: Sendable {
    /// Its path.
    public let executable: String
    /// The plan that produced it (or would have, for a cache hit).
    public let plan: BuildPlan
    /// It came from the cache: nasm and the linker did not run.
    public let cached: Bool
    private let folder: String

    init(executable: String, plan: BuildPlan, cached: Bool, folder: String) {
        self.executable = executable
        self.plan = plan
        self.cached = cached
        self.folder = folder
    }

    /// Removes the private copy.
    public func release() { TemporaryDirectory.removeTree(folder) }
}

/// Builds programs into a content-addressed cache: the key covers the source, every file it
/// includes, the tools (path, size, mtime) and every flag. Entries are renamed into place
/// whole and checked against a stored digest before use; a bad one is rebuilt.
public final class ArtifactStore: Sendable {
    private let root: String?
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
            let made =
                (try? FileManager.default.createDirectory(
                    atPath: candidate + "/objects", withIntermediateDirectories: true)) != nil
            let staging =
                (try? FileManager.default.createDirectory(
                    atPath: candidate + "/tmp", withIntermediateDirectories: true)) != nil
            if !(made && staging) { root = nil }
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
        let folder = scratch + "/\(index)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let destination = folder + "/" + source.stem
        let builder = Builder(launcher: context.launcher, trace: trace)
        guard let root else {
            let plan = try BuildPlan(source: source, toolchain: toolchain, outputDirectory: folder)
            try builder.build(plan, source: source.path)
            return Artifact(executable: plan.executablePath, plan: plan, cached: false, folder: folder)
        }
        let key = try cacheKey(source, toolchain)
        let entry = root + "/objects/" + key
        if CacheEntry(path: entry).isValid(), link(entry + "/exe", destination) {
            utimes(entry, nil)
            let plan = try BuildPlan(source: source, toolchain: toolchain, outputDirectory: folder)
            return Artifact(executable: destination, plan: plan, cached: true, folder: folder)
        }
        let staging = try TemporaryDirectory(prefix: "entry", environment: ["TMPDIR": root + "/tmp"]).path
        defer { TemporaryDirectory.removeTree(staging) }
        let plan = try BuildPlan(source: source, toolchain: toolchain, outputDirectory: staging)
        try builder.build(plan, source: source.path)
        guard rename(plan.executablePath, staging + "/exe") == 0 else {
            throw SourceError(path: staging, problem: "cannot store the build", fix: "check the cache folder")
        }
        unlink(plan.objectPath)
        try CacheEntry(path: staging).seal()
        guard link(staging + "/exe", destination) else {
            throw SourceError(path: destination, problem: "cannot be created", fix: "check TMPDIR")
        }
        CacheEntry.install(staging, at: entry)
        stored.store(true, ordering: .relaxed)
        let finalPlan = try BuildPlan(source: source, toolchain: toolchain, outputDirectory: folder)
        return Artifact(executable: destination, plan: finalPlan, cached: false, folder: folder)
    }

    private func link(_ from: String, _ to: String) -> Bool {
        if Glibc.link(from, to) == 0 { return true }
        return (try? AtomicFile.copy(from, to: to)) != nil
    }

    private func cacheKey(_ source: SourceFile, _ toolchain: Toolchain) throws -> String {
        let plan = try BuildPlan(source: source, toolchain: toolchain, outputDirectory: "@")
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw SourceError(path: source.path, problem: "cannot be read", fix: "check its permissions")
        }
        var digest = SHA256()
        digest.update(field: "asmrun-cache-1")
        for command in [plan.assemble, plan.link] {
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
