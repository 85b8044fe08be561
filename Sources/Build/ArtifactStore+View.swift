import Processes
import Sandbox
import Source
import Support
import Synchronization

extension ArtifactStore {
    /// What runs `program`'s build steps: in the view and the fixed environment when builds are
    /// contained.
    func builder(for program: Program, toolchain: Toolchain, trace: (@Sendable (String) -> Void)?) -> Builder {
        Builder(
            launcher: launcher, trace: trace, environment: bounds == nil ? nil : environment,
            view: contained(program, toolchain: toolchain))
    }

    /// The view `program`'s build runs in, its own folder's (and what the command line's flags
    /// name): `nil` when builds are not contained, the program is trusted (`BuildBounds.trusted`)
    /// or the host refuses the namespaces.
    func contained(_ program: Program, toolchain: Toolchain) -> BuildView? {
        guard let bounds, !bounds.trusts(program.path) else { return nil }
        let folder = bounds.folder(of: program.path)
        let made = views.withLock { views in
            if let made = views[folder] { return made }
            // A run of hundreds of submissions keeps at most 64 views (three descriptors each) at
            // a time: a view let go is closed once the builds using it end.
            if views.count >= 64, let other = views.keys.first { views[other] = nil }
            let made = makeView(of: folder, toolchain: toolchain, sharing: views.values.lazy.compactMap { try? $0.get() }.first)
            views[folder] = made
            return made
        }
        if case .failure(let problem) = made, toldUncontained.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        {
            uncontained?(Self.uncontainedNote(problem))
        }
        return try? made.get()
    }

    /// `ASMRUN_VIEW_TEMPLATE=0` makes every view in full, as a kernel without `open_tree` does;
    /// `=required` (tests) makes a failure to make one from the template the view's.
    enum TemplateUse { case off, preferred, required }

    /// A new view for `folder`: the first folder's made in full, later ones from the template
    /// (made with the second: a run of one folder pays for one view), or in full where that
    /// fails (a folder the template holds, a kernel without `open_tree`) unless the template is
    /// required (`ASMRUN_VIEW_TEMPLATE=required`, for tests: a failure is the view's).
    private func makeView(of folder: String, toolchain: Toolchain, sharing other: BuildView?) -> Result<BuildView, BuildViewError> {
        let readable = Self.toolFolders(toolchain) + callerFlags.namedPaths
        let writable = root.map { [$0] } ?? []
        let workingDirectory = Files.currentDirectory
        if templateUse != .off, let other {
            let template = template.withLock { template in
                let made =
                    template
                    ?? BuildView.make(
                        readable: readable, writable: writable, scratch: scratch, workingDirectory: workingDirectory, sharing: other,
                        template: true)
                template = made
                return made
            }
            let made = template.flatMap { BuildView.make(folder: folder, from: $0) }
            if case .success = made { return made }
            if templateUse == .required { return made }
        }
        return BuildView.make(
            readable: [folder] + readable, writable: writable, scratch: scratch, workingDirectory: workingDirectory, sharing: other)
    }

    /// The run's one line about builds the host would not contain.
    static func uncontainedNote(_ problem: BuildViewError) -> String {
        "note: builds are not contained on this host (\(problem.description)): nasm, cc and ld run in a fixed environment "
            + "but see what you see, and a daemon a build starts may outlive it; `asmrun doctor` says which layers are there"
    }

    /// The folders of the tools outside /usr (a nasm in /opt, a test's stand-in), which the
    /// view must show for them to run.
    private static func toolFolders(_ toolchain: Toolchain) -> [String] {
        var tools = [try? toolchain.nasm()]
        for format in [ObjectFormat.elf64, .elf32] {
            tools += [try? toolchain.linker(for: format), try? toolchain.compilerDriver(for: format)]
        }
        var folders: [String] = []
        for tool in tools.compactMap({ $0 }) {
            let folder = PathName.directory(of: Files.realPath(tool) ?? tool)
            guard folder.hasPrefix("/"), !Files.isWithin(folder, folder: "/usr"), !folders.contains(folder) else { continue }
            folders.append(folder)
        }
        return folders
    }
}
