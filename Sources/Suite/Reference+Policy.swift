import Source
import Support

extension Reference {
    /// The settings a submission's program at `key` is judged with: the policy directives of the
    /// reference's own source for it (`timeout`, `xfail`, `skip`, `limit`, `qemu-cpu`, `argv0`),
    /// and `argv0` the reference program's name unless it says otherwise, so every submission's
    /// program sees what the reference's did.
    package func policy(for key: String) -> ProgramSettings {
        policies[key] ?? ProgramSettings()
    }

    /// Reads the policy of the reference's source for `key`: `DIR/KEY.asm` (or `.nasm`, the
    /// name in any case), `DIR/X/X.asm` for a folder program `X/X`. A reference without a source
    /// for it judges by the defaults and the command line; a bad directive in it is an error of
    /// the run, naming its line.
    static func loadPolicy(for key: String, in path: String) throws -> ProgramSettings {
        let folder = PathName.directory(of: key)
        let directory = folder.isEmpty ? path : (path.hasSuffix("/") ? path + folder : path + "/" + folder)
        let stem = PathName.lastComponent(of: key)
        var policy = ProgramSettings()
        if let source = source(named: stem, in: directory) {
            policy.adoptPolicy(of: try SourceFile.load(source).settings)
        }
        policy.argv0 = policy.argv0 ?? "./" + stem
        return policy
    }

    /// `STEM.asm` in `directory`, else the one `.asm` or `.nasm` file named `STEM` in any case.
    private static func source(named stem: String, in directory: String) -> String? {
        guard let names = try? Files.list(directory) else { return nil }
        let join = { (name: String) in directory.hasSuffix("/") ? directory + name : directory + "/" + name }
        if names.contains(stem + ".asm") && Files.isRegularFile(join(stem + ".asm")) { return join(stem + ".asm") }
        let loose = names.sorted().filter { name in
            Discovery.isProgramFile(name) && PathName.removingExtension(name).lowercased() == stem.lowercased()
        }
        return loose.first.map(join).flatMap { Files.isRegularFile($0) ? $0 : nil }
    }
}
