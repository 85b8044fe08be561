import Foundation
import Glibc
import Processes
import Support

/// A grading room in /var/tmp (cases see it read-only, where they see /tmp empty) whose
/// submission `mallory` looks for the answers instead of computing them: `peek.c` walks the
/// room for `echo.expect` and prints its expected output, `steal.c` walks the cache for the
/// reference's compiled `shout` and runs it. Graded as root (cases run as nobody) or as
/// nobody (cases run as the grader's own user), natively or as on an ARM host.
struct PeekingClass {
    enum Identity: String, CaseIterable, Sendable { case root, nobody }

    /// A reference program whose output is its secret: it prints it, whatever its input.
    static let shout = """
        global _start
        _start:
            mov eax, 1
            mov edi, 1
            lea rsi, [rel secret]
            mov edx, 17
            syscall
            mov eax, 60
            xor edi, edi
            syscall
        section .data
        secret: db "SECRET-OUTPUT-42", 10

        """
    static let hidden = "[case secret]\nvisibility: hidden\nstdin:\n| SECRET-INPUT-42\nstdout:\n| %@\nstatus: exit 0\n"

    /// `main` calling the C helper `peek`, exit 0.
    static func caller(_ helper: String) -> String {
        "; asmrun: with \(helper)\nglobal main\nextern peek\nmain:\n    sub rsp, 8\n    call peek\n    add rsp, 8\n    xor eax, eax\n    ret\n"
    }

    /// Prints the `| ` lines after `stdout:` of the first `echo.expect` below `ROOT`, and the
    /// names of the autograder's files it finds.
    static let peek = """
        #define _GNU_SOURCE
        #include <ftw.h>
        #include <stdio.h>
        #include <string.h>
        static int found;
        static int ends(const char *path, const char *name) {
            size_t a = strlen(path), b = strlen(name);
            return a > b && path[a - b - 1] == '/' && strcmp(path + a - b, name) == 0;
        }
        static int visit(const char *path, const struct stat *info, int kind, struct FTW *ftw) {
            (void)info; (void)ftw;
            if (kind == FTW_F && (ends(path, "run_autograder") || ends(path, "notes.txt"))) printf("saw %s\\n", path);
            if (kind != FTW_F || !ends(path, "echo.expect") || found) return FTW_CONTINUE;
            FILE *file = fopen(path, "r");
            if (!file) return FTW_CONTINUE;
            char line[256];
            int output = 0;
            while (fgets(line, sizeof line, file)) {
                if (strncmp(line, "stdout:", 7) == 0) output = 1;
                else if (output && strncmp(line, "| ", 2) == 0) fputs(line + 2, stdout);
                else output = 0;
            }
            fclose(file);
            found = 1;
            return FTW_CONTINUE;
        }
        void peek(void) {
            nftw(ROOT, visit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
            if (!found) puts("nothing found");
        }

        """

    /// Runs the first executable file below `ROOT` that holds the reference's secret (spelt
    /// shifted here, so that this program does not hold it).
    static let steal = """
        #define _GNU_SOURCE
        #include <ftw.h>
        #include <stdio.h>
        #include <string.h>
        #include <unistd.h>
        static char marker[17], found[4096];
        static char bytes[1 << 20];
        static int visit(const char *path, const struct stat *info, int kind, struct FTW *ftw) {
            (void)ftw;
            if (kind != FTW_F || !(info->st_mode & 0111) || found[0]) return FTW_CONTINUE;
            FILE *file = fopen(path, "rb");
            if (!file) return FTW_CONTINUE;
            size_t count = fread(bytes, 1, sizeof bytes, file);
            fclose(file);
            if (memmem(bytes, count, marker, 16)) snprintf(found, sizeof found, "%s", path);
            return FTW_CONTINUE;
        }
        void peek(void) {
            const char *shifted = "TFDSFU.PVUQVU.53";
            for (int i = 0; i < 16; i++) marker[i] = (char)(shifted[i] - 1);
            nftw(ROOT, visit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
            if (!found[0]) { puts("nothing found"); return; }
            fflush(stdout);
            char *argv[] = {found, NULL};
            execv(found, argv);
            puts("exec refused");
        }

        """

    let root: String
    let identity: Identity
    let arm: Bool

    init(_ identity: Identity, arm: Bool) throws {
        root = try Fixture.visibleDirectory()
        self.identity = identity
        self.arm = arm
        for folder in ["home", "tmp"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
    }

    func remove() { Files.removeTree(root) }

    func write(_ text: String, to relative: String) throws { try Fixture.write(text, to: root + "/" + relative) }

    /// `peek.c` or `steal.c` walking `walked` (absolute).
    static func helper(_ text: String, walking walked: String) -> String {
        text.replacingOccurrences(of: "ROOT", with: "\"\(walked)\"")
    }

    /// `asmrun ARGUMENTS` in the room as `identity`, with the cache in the room's `home`.
    func asmrun(_ arguments: [String], in folder: String = "") throws -> (output: String, status: Termination, json: [String: Any]) {
        if identity == .nobody {
            for path in [root] + (FileManager.default.subpaths(atPath: root) ?? []).map({ root + "/" + $0 }) { lchown(path, 65534, 65534) }
        }
        let binary = root + "/asmrun"
        if !Files.exists(binary) { try ExecutableFile.copy(Fixture.binary, to: binary) }
        let report = root + "/report.json"
        try? FileManager.default.removeItem(atPath: report)
        var environment = [
            "PATH": Fixture.environment["PATH"] ?? "/usr/bin:/bin", "HOME": root + "/home", "TMPDIR": root + "/tmp", "NO_COLOR": "1",
        ]
        if arm { environment["ASMRUN_HOST_ARCH"] = "aarch64" }
        let command = [binary] + arguments + ["--json", report]
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]
        let result = try PosixLauncher(path: "/usr/bin:/bin").run(
            Command(
                identity == .nobody ? "setpriv" : binary, identity == .nobody ? asNobody + command : Array(command.dropFirst()),
                environment: environment, workingDirectory: root + "/" + folder),
            options: {
                var options = LaunchOptions(); options.timeout = 120; return options
            }())
        let json = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))) as? [String: Any] ?? [:]
        return (String(decoding: result.stdout + result.stderr, as: UTF8.self), result.termination, json)
    }

    /// What the case `id`'s program wrote to stdout, from the JSON report.
    static func stdout(_ json: [String: Any], program suffix: String) -> String? {
        let results = json["results"] as? [[String: Any]] ?? []
        return results.first { ($0["program"] as? String)?.hasSuffix(suffix) == true }?["stdout"] as? String
    }
}
