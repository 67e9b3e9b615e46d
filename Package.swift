// swift-tools-version:6.0
// pushbox: a terminal inbox that shows push notifications the way an iPhone would.
// Dependency rule: PushboxCore <- PushboxCLI <- pushbox; no outside Swift packages.
import PackageDescription

let package = Package(
    name: "pushbox",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "pushbox", targets: ["pushbox"]),
        .executable(name: "pushbox-bench", targets: ["pushbox-bench"]),
    ],
    targets: [
        // Payload model, strict JSON, APNs/FCM validation, targeting, the rendered model.
        .target(name: "PushboxCore"),
        // The command table, argument parsing, subcommands and their output.
        .target(name: "PushboxCLI", dependencies: ["PushboxCore"]),
        // Thin executable: hands argv to PushboxCLI.
        .executableTarget(name: "pushbox", dependencies: ["PushboxCLI"]),
        // Benchmarks, printed as figures and ratios against a baseline in the same run.
        .executableTarget(name: "pushbox-bench", dependencies: ["PushboxCore"]),
        .testTarget(name: "PushboxCoreTests", dependencies: ["PushboxCore"]),
        .testTarget(name: "PushboxCLITests", dependencies: ["PushboxCLI", "PushboxCore"]),
    ],
    swiftLanguageModes: [.v6]
)
