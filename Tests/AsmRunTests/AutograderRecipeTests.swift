import Foundation
import Processes
import Support
import Testing

/// The Gradescope recipe of Documentation/grading.md: its `setup.sh` and `run_autograder` are the files in
/// Packaging/gradescope, and Tests/Grading/autograder.sh runs that `run_autograder` in
/// `/autograder`-like folders with the built binary.
@Suite struct AutograderRecipeTests {
    private static let folder = Fixture.packageRoot + "/Packaging/gradescope/"

    @Test func theReadmeShowsTheRecipesFilesAsTheyAre() throws {
        let readme = String(decoding: try Files.read(Fixture.packageRoot + "/Documentation/grading.md"), as: UTF8.self)
        for name in ["setup.sh", "run_autograder"] {
            let script = String(decoding: try Files.read(Self.folder + name), as: UTF8.self)
            #expect(
                readme.contains("```sh\n" + script + "```\n"),
                "Documentation/grading.md does not show Packaging/gradescope/\(name) as it is")
            let syntax = try PosixLauncher(path: Fixture.environment["PATH"]).run(
                Command("/bin/sh", ["-n", Self.folder + name]), options: LaunchOptions())
            #expect(syntax.termination == .exited(0), "\(name): \(String(decoding: syntax.stderr, as: UTF8.self))")
        }
    }

    @Test(.tags(.integration), .needsTools)
    func runAutograderGradesSubmissionsInAutograderFolders() throws {
        var options = LaunchOptions()
        options.timeout = 120
        let binaries = (Fixture.binary as NSString).deletingLastPathComponent
        let result = try PosixLauncher(path: Fixture.environment["PATH"]).run(
            Command("/bin/sh", [Fixture.packageRoot + "/Tests/Grading/autograder.sh", binaries], environment: Fixture.environment),
            options: options)
        let output = String(decoding: result.stdout + result.stderr, as: UTF8.self)
        #expect(result.termination == .exited(0), "\(output)")
        #expect(output.hasSuffix("autograder.sh: 3 submissions graded as expected\n"), "\(output)")
    }
}
