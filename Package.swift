// swift-tools-version:6.0
import PackageDescription

// One target per stage of the pipeline, each depending only on the stages before it, so the
// compiler refuses a dependency against the pipeline:
//
//   Support ← Processes ← Sandbox ← Source ← Build ← Run ← Compare ← Suite ← Report ← Session ← CLI ← asmrun
//
// Support is a leaf (errors, files, hashing, the console) but for CAsmRunHash, the processor's
// SHA-256 instructions; Processes starts and supervises processes in whatever it is handed;
// Sandbox decides and makes the containment (namespaces, wardens, cgroups, the filter, build
// views); the rest are the stages a program goes through; Session is one `asmrun test` run as
// an object any front end starts and observes, and CLI only parses and prints (and composes the
// live `Context`). CAsmRunStatic fits the Swift runtime's start-up to the static release binary
// (`make build`). Declarations shared between targets are `package`, and only those; each
// target's dependencies are exactly what it imports (`Tests/Lint/access.py`).
let package = Package(
    name: "asmrun",
    products: [
        .executable(name: "asmrun", targets: ["asmrun"])
    ],
    targets: [
        .executableTarget(name: "asmrun", dependencies: ["CLI", "CAsmRunStatic"]),
        .target(name: "CLI", dependencies: ["Session", "Report", "Suite", "Run", "Build", "Source", "Sandbox", "Processes", "Support"]),
        .target(name: "Session", dependencies: ["Report", "Suite", "Run", "Build", "Source", "Sandbox", "Processes", "Support"]),
        .target(name: "Report", dependencies: ["Suite", "Compare", "Run", "Source", "Processes", "Support"]),
        .target(name: "Suite", dependencies: ["Compare", "Run", "Build", "Source", "Sandbox", "Processes", "Support"]),
        .target(name: "Compare", dependencies: ["Run", "Processes", "Support"]),
        .target(name: "Run", dependencies: ["CAsmRunTrace", "Build", "Source", "Sandbox", "Processes", "Support"]),
        .target(name: "Build", dependencies: ["Source", "Sandbox", "Processes", "Support"]),
        .target(name: "Source", dependencies: ["Support"]),
        .target(name: "Processes", dependencies: ["CAsmRunSpawn", "Support"]),
        .target(name: "Sandbox", dependencies: ["Processes", "CAsmRunSpawn", "CSeccomp", "Support"]),
        .target(name: "Support", dependencies: ["CAsmRunHash"]),
        .target(name: "CAsmRunHash"),
        .target(name: "CAsmRunSpawn"),
        .target(name: "CAsmRunStatic"),
        .target(name: "CAsmRunTrace"),
        .systemLibrary(name: "CSeccomp", providers: [.apt(["libseccomp-dev"])]),
        // Fixtures and fakes the test targets share (a scripted launcher, fake suite stages).
        .target(
            name: "AsmRunTestSupport", dependencies: ["Suite", "Compare", "Run", "Build", "Source", "Processes", "Support"],
            path: "Tests/AsmRunTestSupport"),
        // Unit tests: one type at a time with fakes, no process started.
        .testTarget(
            name: "AsmRunUnitTests",
            dependencies: ["AsmRunTestSupport", "Session", "Report", "Suite", "Compare", "Run", "Source", "Processes", "Support"]),
        // Tests that run the tools (nasm, ld, cc, qemu, gdb) and the built binary.
        .testTarget(
            name: "AsmRunTests",
            dependencies: [
                "AsmRunTestSupport", "CLI", "Session", "Report", "Suite", "Compare", "Run", "Build", "Source", "Sandbox", "Processes",
                "Support",
                "CAsmRunHash", "asmrun",
            ]),
    ]
)

// Generic types' metadata through their accessor functions rather than by mangled name: the
// runtime then does not demangle each name at the type's first use, which was a tenth of a single
// cold run's own CPU time (`perf record -g`, 300 runs of `asmrun asm/hello.asm`). The flag picks
// the older of the compiler's two ways to reach the same metadata; the tests build with it too.
let cTargets: Set = ["CAsmRunHash", "CAsmRunSpawn", "CAsmRunStatic", "CAsmRunTrace", "CSeccomp"]
for target in package.targets where !cTargets.contains(target.name) {
    target.swiftSettings = [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]
}
