import CAsmRunSpawn
import Glibc
import Processes

extension BuildView {
    /// The view of `folder` (absolute) made from `template`, a view of everything a build sees
    /// but a submission's folder (made with `make(…, template: true)`): a copy of its mount
    /// namespace, a dozen mounts rather than the host's table, with the folder cloned from the
    /// host's mounts and moved in read-only, on a tmpfs of the view's own, so that neither the
    /// template nor another view sees it; the template's network (and user) namespace shared.
    /// A failure (a kernel without `open_tree`/`move_mount`, a folder the template holds, such
    /// as the working directory) says why; the caller then makes the view in full.
    package static func make(folder: String, from template: BuildView) -> Result<BuildView, BuildViewError> {
        let root = geteuid() == 0
        let user = root ? -1 : template.namespaces.userNamespace
        var namespaces = Namespaces()
        var step: UnsafePointer<CChar>?
        let code = asmrun_make_view_from_template(
            template.namespaces.mountNamespace, user, template.hostMounts, folder, &namespaces.mountNamespace, &step)
        guard code == 0 else {
            return .failure(BuildViewError(step: step.map { String(cString: $0) } ?? "view", code: code))
        }
        namespaces.networkNamespace = fcntl(template.namespaces.networkNamespace, F_DUPFD_CLOEXEC, 0)
        if !root { namespaces.userNamespace = fcntl(user, F_DUPFD_CLOEXEC, 0) }
        guard namespaces.networkNamespace >= 0, root || namespaces.userNamespace >= 0 else {
            let problem = errno
            namespaces.close()
            return .failure(BuildViewError(step: "view", code: problem))
        }
        return .success(
            BuildView(namespaces: namespaces, environment: template.environment, workingDirectory: template.workingDirectory))
    }
}
