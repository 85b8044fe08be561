// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "asmrun",
    products: [
        .executable(name: "asmrun", targets: ["asmrun"]),
        .library(name: "AsmRunKit", targets: ["AsmRunKit"]),
    ],
    targets: [
        .executableTarget(name: "asmrun", dependencies: ["AsmRunKit"]),
        .target(name: "AsmRunKit", dependencies: ["CAsmRunSpawn"]),
        .target(name: "CAsmRunSpawn"),
        .testTarget(name: "AsmRunKitTests", dependencies: ["AsmRunKit", "asmrun"]),
    ]
)
