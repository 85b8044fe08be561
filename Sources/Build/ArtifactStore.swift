import Glibc
import Processes
import Sandbox
import Source
import Support
import Synchronization

/// Builds programs through a content-addressed cache. Every compile step is cached on its own
/// inputs (the source, what it includes, the variables it reads, the tool, every flag; a C
/// file's headers through the manifest its `-MD` output gives), and the executable on all of its
/// objects' keys and the link inputs, so a warm run reads one entry. What the tools say they read
/// beyond the key (`nasm -MD`/`-M`, `ld --dependency-file`) is recorded with the entry and checked
/// on every hit (`BuildInput`). An entry is one file, `objects/KEY`, renamed into place whole and
/// checked against its digest before use; a corrupt entry is rebuilt.
package final class ArtifactStore: Sendable {
    /// The cache folder, or `nil` when caching is off.
    package let root: String?
    let options: CacheOptions
    let launcher: any ProcessLaunching
    /// The tools' environment, part of the keys: with `bounds`, `BuildView.environment`.
    let environment: [String: String]
    /// Where builds run contained (`BuildView`); `nil`: as asmrun's user, in asmrun's environment.
    let bounds: BuildBounds?
    /// The command line's `--c-flags` and `--link-flags`, after every program's own.
    let callerFlags: CallerFlags
    /// Told once, with a line to show, when a build has to run without a view (the host refused it).
    let uncontained: (@Sendable (String) -> Void)?
    let toldUncontained = Atomic<Bool>(false)
    /// The views by folder (`BuildBounds.folder(of:)`), or why the host refused one.
    let views = Mutex<[String: Result<BuildView, BuildViewError>]>([:])
    /// The template of later folders' views (`makeView`), made with the second; `nil` before.
    let template = Mutex<Result<BuildView, BuildViewError>?>(nil)
    /// Whether later views come from the template (`TemplateUse`).
    let templateUse: TemplateUse
    /// The folder of this process's private copies of executables (cases must see it).
    package var scratch: String { scratchFolder.path }
    private let scratchFolder: TemporaryDirectory
    private let counter = Atomic<Int>(0)
    let stored = Atomic<Int>(0)
    private let writer: EntryWriter
    /// The cache folder was made by this run: its size is what this run stored.
    private let createdCache: Bool
    /// Executables can be linked into the cache's staging folder (`attempt`).
    private let stagingWritable: Bool
    /// Tools' identities, read once (`identity(of:)`).
    let identities = Mutex<[String: String]>([:])

    /// Opens the store; a cache folder that cannot be created turns caching off, a folder that is
    /// not asmrun's cache is refused (see `CacheFolder`). `writesAtOnce`: entries are written
    /// by the thread that built them, not by a writer thread (one program, one entry: starting
    /// the thread cost more than the writing it would have overlapped).
    package init(
        options: CacheOptions, environment: [String: String], launcher: any ProcessLaunching, writesAtOnce: Bool = false,
        bounds: BuildBounds? = nil, callerFlags: CallerFlags = CallerFlags(), uncontained: (@Sendable (String) -> Void)? = nil
    ) throws {
        self.uncontained = uncontained
        self.options = options
        self.callerFlags = callerFlags
        self.launcher = launcher
        self.bounds = bounds
        templateUse = ["0": .off, "required": .required][environment["ASMRUN_VIEW_TEMPLATE"] ?? ""] ?? .preferred
        writer = EntryWriter(inline: writesAtOnce)
        let folder = try options.enabled ? options.root(environment: environment).flatMap(CacheFolder.open) : nil
        if let folder, !folder.created {
            CacheMaintenance(folder).removeAbandonedStaging()
            AtomicFile.removeAbandoned(in: folder.root)
        }
        root = folder?.root
        // Root's cases run as another user (`CaseIdentity`), who runs an entry by its name (a
        // key of inputs it cannot know but its own) and may not list them: the teacher's
        // compiled solution is there, a classmate's too.
        if geteuid() == 0, let root = folder?.root { chmod(root + "/objects", 0o711) }
        createdCache = folder?.created ?? false
        // Checked once: a cache made by another user (`sudo asmrun` once) may be read, not written.
        stagingWritable = folder.map { access($0.root + "/tmp", W_OK) == 0 } ?? false
        scratchFolder = try TemporaryDirectory(prefix: "build", environment: environment, claimed: true)
        // Root's cases run as another user (`CaseIdentity`), who runs the private copies here
        // by name; listing the folder stays root's.
        if geteuid() == 0 { chmod(scratchFolder.path, 0o711) }
        self.environment = bounds == nil ? environment : BuildView.environment(scratch: scratchFolder.path)
    }

    /// Where the executables cases run are besides `scratch`: the cache's entries.
    package var runnableFolders: [String] { root.map { [$0 + "/objects"] } ?? [] }

    /// Removes this process's private copies and, if anything was stored, counts it in the
    /// cache's size ledger (trimming the cache when it may be past its limit).
    package func close() {
        writer.finish()
        views.withLock { $0.removeAll() }
        template.withLock { $0 = nil }
        scratchFolder.remove()
        let bytes = stored.load(ordering: .relaxed) + writer.written.load(ordering: .relaxed)
        if bytes > 0, let root {
            CacheMaintenance(root: root).account(stored: bytes, limit: options.maxBytes, fromEmpty: createdCache)
        }
    }

    /// Returns a runnable executable for `program`, from the cache or freshly built: the classic
    /// build, or with `debugInfo` the one with DWARF line tables (`BuildPlan.debugInfo`). Code
    /// nasm rejects as 64-bit, in a program that never said which it is and names no 64-bit
    /// register, is built again as elf32.
    package func build(
        _ program: Program, toolchain: Toolchain, trace: (@Sendable (String) -> Void)? = nil, debugInfo: Bool = false
    ) throws -> Artifact {
        do {
            return try attempt(program, toolchain: toolchain, trace: trace, notes: [], debugInfo: debugInfo)
        } catch let failure as BuildFailure
            where failure.rejects64BitCode && !program.declaresFormat && !program.assembly.contains(where: \.uses64BitCode)
        {
            var retried = program
            retried.settings.format = .elf32
            let note =
                "asmrun: \(failure.source): nasm rejects it as 64-bit code, so it was built as elf32; say `bits 32` or `; asmrun: format elf32`"
            return try attempt(retried, toolchain: toolchain, trace: trace, notes: [note], debugInfo: debugInfo)
        }
    }

    static let cachedNote = "the executable linked earlier from the same sources, flags and tools (--no-cache builds it again)"

    /// One build of `program` (`flagsApplied`: the command line's flags are in it already).
    func attempt(
        _ program: Program, toolchain: Toolchain, trace: (@Sendable (String) -> Void)?, notes: [String], debugInfo: Bool,
        flagsApplied: Bool = false
    ) throws -> Artifact {
        let index = counter.add(1, ordering: .relaxed).newValue
        let program = flagsApplied ? program : callerFlags.applied(to: program)
        var plan = try BuildPlan(program: program, toolchain: toolchain, directory: scratch, prefix: "\(index)-", debugInfo: debugInfo)
        let builder = builder(for: program, toolchain: toolchain, trace: trace)
        let notes = notes + program.formatRemarks.map { "asmrun: " + $0 }
        // The objects exist only once a compile step was taken (a hit on the executable takes none).
        var objectsMade = false
        defer {
            for step in plan.compiles where objectsMade {
                unlink(step.object)
                if let file = step.dependencyFile { unlink(file) }
            }
            if objectsMade { unlink(plan.linkDependencies) }
        }
        var keys = plan.compiles.map { compileKey($0, program: program) }
        let executableKey = keys.allSatisfy({ $0 != nil }) ? linkKey(keys.compactMap { $0 }, plan, toolchain) : nil
        if let executableKey, let hit = cachedExecutable(executableKey, plan) {
            trace?("(cached \(executableKey.prefix(12))) \(program.path): \(Self.cachedNote)")
            var artifact = Artifact(
                executable: hit.path, format: plan.format, warnings: hit.warnings, notes: notes, dynamic: hit.dynamic,
                headers: headers(of: plan, program: program))
            artifact.length = hit.length
            artifact.debugInfo = plan.debugInfo
            return artifact
        }
        var warnings = ""
        // `nil` when an input the key does not name could not be recorded with the entry.
        let inputs: [BuildInput]?
        objectsMade = true
        let lookedUp = keys
        // With its key known, the executable is linked straight into the cache's staging folder
        // and sealed there as its entry (`CacheEntry.seal`): no copy, no private file to remove.
        let staging = stagingWritable ? root.flatMap { root in executableKey.map { stagingPath($0, root: root) } } : nil
        var linked = Linked(scratch: plan.executable, staging: staging)
        if let staging = linked.staging { plan.executable = staging }
        do {
            inputs = try compileAndLink(plan, keys: &keys, warnings: &warnings, program: program, toolchain: toolchain, builder: builder)
        } catch let failure as BuildFailure where staging.map({ refused(failure, staging: $0) }) == true {
            // The cache's folder would not take the file (full, or not writable after all): the
            // executable is linked privately, as without a cache, and not stored.
            if let staging { unlink(staging) }
            (plan.executable, linked) = (linked.scratch, Linked(scratch: linked.scratch, staging: nil))
            warnings += try link(plan, program: program, toolchain: toolchain, builder: builder).warnings
            return try finish(plan, program, linked: linked, key: nil, built: (warnings, ""), notes: notes)
        } catch {
            if let staging = linked.staging { unlink(staging) }
            throw error
        }
        // The key looked up stands unless a compile made its key only now (a C file's headers).
        let objectKeys = keys.compactMap { $0 }
        let key =
            inputs != nil && objectKeys.count == keys.count
            ? (keys == lookedUp ? executableKey : nil) ?? linkKey(objectKeys, plan, toolchain) : nil
        return try finish(plan, program, linked: linked, key: key, built: (warnings, BuildInput.record(inputs ?? [])), notes: notes)
    }

    /// Compiles (or takes from the cache) every object of `plan`, each one's key set in `keys`,
    /// then links; adds what the tools printed to `warnings` and returns the inputs the keys do
    /// not name (`nil`: one could not be recorded).
    private func compileAndLink(
        _ plan: BuildPlan, keys: inout [String?], warnings: inout String, program: Program, toolchain: Toolchain, builder: Builder
    ) throws -> [BuildInput]? {
        var inputs: [BuildInput] = []
        for (position, step) in plan.compiles.enumerated() {
            let object = try obtainObject(step, key: keys[position], program: program, builder: builder, storing: plan.compiles.count > 1)
            keys[position] = object.key
            warnings += object.warnings
            inputs += object.inputs
        }
        warnings += SyscallClobberCheck.buildOutput(for: program, format: plan.format)  // kept and replayed with the tools'
        let linked = try link(plan, program: program, toolchain: toolchain, builder: builder)
        warnings += linked.warnings
        return linked.inputs.map { inputs + $0 }
    }

    /// The artifact of what was linked, kept under `key` with what its build printed and the
    /// record of its inputs (`keep`).
    private func finish(
        _ plan: BuildPlan, _ program: Program, linked: Linked, key: String?, built: (warnings: String, inputs: String),
        notes: [String]
    ) throws -> Artifact {
        let warnings = built.warnings
        let kept = try keep(linked, key: key, built: built, program: program)
        var artifact = Artifact(
            executable: kept.path, format: plan.format, warnings: warnings, notes: notes,
            dynamic: ElfSymbols.hasInterpreter(kept.head), headers: headers(of: plan, program: program))
        artifact.length = kept.length
        artifact.debugInfo = plan.debugInfo
        return artifact
    }

    /// Where the linker wrote: the private path, or the staging file an entry is sealed from.
    private struct Linked {
        let scratch: String
        let staging: String?
    }

    /// What a case runs: the sealed entry (`length`: its bytes before the trailer) or the
    /// private copy; `head`, the executable's first bytes (all of a private copy's), for its ELF
    /// headers.
    private struct Kept {
        let path: String
        let head: [UInt8]
        let length: Int?
    }

    /// The bytes of an executable's start read when it is sealed: its ELF header and program
    /// headers (`ElfSymbols.hasInterpreter`), which linkers put right after it.
    private static let headerBytes = 64 << 10

    /// Stores what was linked under `key`: the staging file sealed as the entry, else the
    /// private copy (the staging file's bytes written there when it could not be sealed).
    private func keep(_ linked: Linked, key: String?, built: (warnings: String, inputs: String), program: Program) throws -> Kept {
        let (warnings, inputs) = built
        if let root, let key, let staging = linked.staging {
            let entry = CacheEntry(path: root + "/objects/" + key)
            if let sealed = entry.seal(staging, warnings: warnings, inputs: inputs, head: Self.headerBytes) {
                stored.add(CacheEntry.size(length: sealed.length, warnings: warnings, inputs: inputs), ordering: .relaxed)
                return Kept(path: entry.path, head: sealed.head, length: sealed.length)
            }
        }
        let bytes = (try? Files.read(linked.staging ?? linked.scratch)) ?? []
        if let staging = linked.staging { unlink(staging) }
        guard !bytes.isEmpty, linked.staging == nil || ExecutableFile.write(bytes, to: linked.scratch) else {
            throw FileError(
                path: program.path, problem: "was linked, but its executable could not be kept",
                fix: "check the space and permissions of \(root ?? scratch)")
        }
        if let root, let key, linked.staging == nil {
            store(bytes, warnings: warnings, inputs: inputs, key: key, root: root, executable: true)
        }
        return Kept(path: linked.scratch, head: bytes, length: nil)
    }

    /// The executable's entry, run where it is (`length`: its bytes before the trailer), or
    /// written to its private path when it was stored before entries were runnable; `nil` on a
    /// miss, which an entry whose recorded inputs changed is.
    private func cachedExecutable(_ key: String, _ plan: BuildPlan) -> (path: String, length: Int?, warnings: String, dynamic: Bool)? {
        guard let root else { return nil }
        let entry = CacheEntry(path: root + "/objects/" + key)
        guard let (payload, warnings, inputs, runnable, accessed) = entry.read(), BuildInput.hold(inputs, environment: environment)
        else { return nil }
        guard runnable || ExecutableFile.write(payload, to: plan.executable) else { return nil }
        entry.touch(accessed: accessed)
        return (runnable ? entry.path : plan.executable, runnable ? payload.count : nil, warnings, ElfSymbols.hasInterpreter(payload))
    }

    /// Stores an entry under `key` (one rename; a failure only loses the caching): objects and
    /// executables on the writer's thread (`later`), a manifest the next lookup may need at once.
    /// A child forked while an entry is open for writing holds it until its exec or its first
    /// close of inherited descriptors, microseconds; running that entry then meanwhile fails with
    /// ETXTBSY, which a case retries once (`CaseRunner`).
    func store(
        _ payload: [UInt8], warnings: String, inputs: String = "", key: String, root: String, executable: Bool = false,
        later: Bool = true
    ) {
        let entry = CacheEntry(path: root + "/objects/" + key)
        let staging = stagingPath(key, root: root)
        if later {
            writer.write(entry, payload, warnings: warnings, inputs: inputs, staging: staging, executable: executable)
        } else if entry.install(payload, warnings: warnings, inputs: inputs, staging: staging, executable: executable) {
            stored.add(CacheEntry.size(payload, warnings: warnings, inputs: inputs), ordering: .relaxed)
        }
    }

    /// Where an entry is written before it is renamed into place: the cache's `tmp` folder, named
    /// by its key, this process and a counter (`CacheFolder.isStagingName`).
    private func stagingPath(_ key: String, root: String) -> String {
        root + "/tmp/" + key + ".\(getpid()).\(counter.add(1, ordering: .relaxed).newValue)"
    }

}
