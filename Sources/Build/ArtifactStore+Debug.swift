import Source
import Support

extension ArtifactStore {
    /// The line information of `artifact`, a classic build of `program`: the same sources built
    /// with `-g` (cached like any build), for gdb to read beside the classic executable it runs.
    /// `nil` when `artifact` has its own, when the build fails, or when its loaded segments are
    /// not the classic build's (its addresses would then name other lines). The caller releases it.
    package func debugBuild(of program: Program, matching artifact: Artifact, toolchain: Toolchain) -> Artifact? {
        guard !artifact.debugInfo else { return nil }
        var program = program
        program.settings.format = artifact.format
        guard let debug = try? build(program, toolchain: toolchain, debugInfo: true) else { return nil }
        let segments = { (artifact: Artifact) in (try? Files.read(artifact.executable)).flatMap(ElfSegments.init)?.loads }
        guard let classic = segments(artifact), classic == segments(debug) else {
            debug.release()
            return nil
        }
        return debug
    }
}
