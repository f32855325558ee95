// swift-tools-version:6.0
// Lockstep has no package dependencies: Foundation, Dispatch, Glibc, Synchronization, the
// test frameworks, and the system's libsqlite3 and zlib through system-library targets.
import PackageDescription

let package = Package(
    name: "lockstep",
    products: [
        .executable(name: "lockstep", targets: ["lockstep"]),
        .executable(name: "lockstep-host", targets: ["lockstep-host"]),
        .executable(name: "lockstep-widget", targets: ["lockstep-widget"]),
        .executable(name: "lockstep-watch", targets: ["lockstep-watch"]),
        .executable(name: "lockstep-intent", targets: ["lockstep-intent"]),
        .library(name: "AppGroupKit", targets: ["AppGroupKit"]),
        .library(name: "BundleKit", targets: ["BundleKit"]),
        .library(name: "LaunchKit", targets: ["LaunchKit"]),
        .library(name: "SimWidgetKit", targets: ["SimWidgetKit"]),
        .library(name: "SimWatchConnectivity", targets: ["SimWatchConnectivity"]),
        .library(name: "SimAppIntents", targets: ["SimAppIntents"]),
        .library(name: "HabitCore", targets: ["HabitCore"]),
    ],
    targets: [
        // System libraries, linked from the machine (libsqlite3-dev, zlib1g-dev).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // Linux calls Glibc's Swift module leaves out (statx, pipe2), as inline C: nothing extra to link.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),

        // The one door to the operating system: descriptors, errno, locks, atomic files, exit statuses.
        .target(name: "LockstepSystem", dependencies: ["CLinux"]),

        // The simulated frameworks.
        .target(name: "AppGroupKit", dependencies: ["LockstepSystem"]),
        .target(name: "BundleKit", dependencies: ["LockstepSystem", "CZlib"]),
        .target(name: "SimWidgetKit", dependencies: ["LockstepSystem", "AppGroupKit"]),
        .target(name: "SimWatchConnectivity", dependencies: ["LockstepSystem", "AppGroupKit"]),
        .target(name: "SimAppIntents", dependencies: ["LockstepSystem", "AppGroupKit"]),
        .target(name: "LaunchKit", dependencies: ["AppGroupKit", "BundleKit"]),
        // The reference app's shared module: what app, widget, watch and intents all import (models, store,
        // the widget's provider and views, the intents, the watch sync).
        .target(name: "HabitCore", dependencies: [
            "LockstepSystem", "AppGroupKit", "LaunchKit", "CSQLite", "SimWidgetKit", "SimWatchConnectivity", "SimAppIntents"]),

        // Thin executables over the libraries.
        .executableTarget(name: "lockstep", dependencies: [
            "LockstepSystem", "AppGroupKit", "BundleKit", "LaunchKit", "HabitCore", "CSQLite", "CLinux",
        ], linkerSettings: staticSwiftRuntime),
        .executableTarget(name: "lockstep-host", dependencies: [
            "LockstepSystem", 
            "LaunchKit", "HabitCore", "SimWidgetKit", "SimWatchConnectivity", "SimAppIntents",
        ]),
        .executableTarget(name: "lockstep-widget", dependencies: [
            "LockstepSystem", "LaunchKit", "HabitCore", "SimWidgetKit"]),
        .executableTarget(name: "lockstep-watch", dependencies: [
            "LockstepSystem", "LaunchKit", "HabitCore", "SimWatchConnectivity"]),
        .executableTarget(name: "lockstep-intent", dependencies: [
            "LockstepSystem", "LaunchKit", "HabitCore", "SimAppIntents", "SimWidgetKit"]),
        // The bare Foundation process `lockstep bench` compares the idle widget's memory with.
        .executableTarget(name: "lockstep-idle", dependencies: ["LockstepSystem"]),
        // A bundle that can play any role, for LaunchKit's process tests (allocate, hold a lock, exit …).
        .executableTarget(name: "lockstep-probe", dependencies: [
            "LockstepSystem", "LaunchKit", "AppGroupKit"]),

        // Tests: shared helpers in one support target; process-level tests spawn the built executables.
        .target(name: "LockstepTestSupport", dependencies: ["LockstepSystem"], path: "Tests/LockstepTestSupport"),
        .testTarget(name: "LockstepSystemTests", dependencies: ["LockstepSystem", "LockstepTestSupport"]),
        .testTarget(name: "AppGroupKitTests", dependencies: ["AppGroupKit", "LockstepSystem", "LockstepTestSupport"]),
        .testTarget(name: "BundleKitTests", dependencies: ["BundleKit", "LockstepTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "XcodeProjectTests", dependencies: ["BundleKit", "LockstepTestSupport"]),
        .testTarget(name: "LaunchKitTests", dependencies: ["LaunchKit", "LockstepTestSupport"]),
        .testTarget(name: "HabitsTests", dependencies: [
            "HabitCore", "SimWidgetKit", "SimWatchConnectivity", "SimAppIntents", "LockstepTestSupport",
            "LockstepSystem", "CSQLite", "BundleKit",
        ]),
        .testTarget(name: "ProofTests", dependencies: ["AppGroupKit", "BundleKit", "HabitCore", "LockstepTestSupport"]),
    ]
)

/// `lockstep` links the Swift runtime and Foundation statically, into a position-dependent executable; the
/// simulated executables link them dynamically, as before. `lockstep up` cannot spawn a single bundle before it has
/// loaded: with Foundation's shared libraries that took about 8 ms and 672 page faults (symbol relocations), linked
/// statically about 3 ms and 473, and position-dependent about 2.5 ms and 294, as the 75,000 relocations of its own
/// pointers (and the page copies they cause) are done at link time. The bundles stay dynamic: they are what a team's
/// own extensions look like, and `lockstep bench` starts the same executables bare as the baseline of `up`.
///
/// SwiftPM's `--static-swift-stdlib` does this for every executable; for one, `-static-stdlib` is passed to the
/// link, and the static archives Foundation needs beyond its own are named: modules compiled for the dynamic
/// Foundation do not autolink them. The list is what `swift build --static-swift-stdlib` autolinks
/// (`cat $(find -L .build/static -name '*.autolink')` after `make test-static`); a toolchain that changes it fails
/// the link naming the missing symbols. lld, from the toolchain, links it without the warning about `mktemp` that
/// GNU ld prints for the static Foundation on every build.
///
/// Checked with Swift 6.3. Swift 6.4 cannot link a static Foundation at all (swiftlang/swift-foundation#2254,
/// swiftlang/swift-package-manager#10564), and the archives differ between releases, so any other toolchain links
/// `lockstep` dynamically: everything works, `up` is about 5 ms slower to ready.
/// The costs: `lockstep` is about 75 MB, its own code is not placed at a random address, and unsafe flags mean a
/// package that depends on this one by version can use its libraries but not its `lockstep` executable product.
var staticSwiftRuntime: [LinkerSetting] {
    #if compiler(>=6.3) && compiler(<6.4)
    [.unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xclang-linker", "-no-pie"])]
        + ["CoreFoundation", "_FoundationICU", "_FoundationCShims", "_FoundationCollections"].map { .linkedLibrary($0) }
    #else
    []
    #endif
}
