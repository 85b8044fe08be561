import Sandbox
import Source
import Support

extension ArtifactStore {
    /// What runs `program`'s build steps: in the view and the fixed environment when builds are
    /// contained.
    func builder(for program: Program, toolchain: Toolchain, trace: (@Sendable (String) -> Void)?) -> Builder {
        Builder(
            launcher: launcher, trace: trace, environment: bounds == nil ? nil : environment,
            view: contained(program, toolchain: toolchain))
    }

    /// The view `program`'s build runs in: `nil` when builds are not contained, the program is
    /// trusted (`BuildBounds.trusted`) or the host refuses the namespaces (`viewProblem`).
    func contained(_ program: Program, toolchain: Toolchain) -> BuildView? {
        guard let bounds, !bounds.trusts(program.path) else { return nil }
        return view.withLock { made in
            if made == nil {
                made = BuildView.make(
                    readable: bounds.readable + Self.toolFolders(toolchain), writable: root.map { [$0] } ?? [], scratch: scratch,
                    workingDirectory: Files.currentDirectory)
            }
            return try? made?.get()
        }
    }

    /// Why contained builds run without their view, once one was tried.
    package var viewProblem: BuildViewError? {
        view.withLock { made in
            guard case .failure(let problem) = made else { return nil }
            return problem
        }
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
