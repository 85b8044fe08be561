import Build
import Synchronization

/// A built executable shared by the runs of a program's cases: removed after the last one.
final class ArtifactLease: Sendable {
    private let artifact: Artifact
    private let remaining: Mutex<Int>

    init(_ artifact: Artifact, uses: Int) {
        self.artifact = artifact
        remaining = Mutex(uses)
        if uses <= 0 { artifact.release() }
    }

    var executable: String { artifact.executable }

    /// One use is over.
    func done() {
        let last = remaining.withLock { count in
            count -= 1
            return count == 0
        }
        if last { artifact.release() }
    }
}
