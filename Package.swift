// swift-tools-version:6.0
// Lockstep has no package dependencies: Foundation, Dispatch, Glibc, Synchronization, the
// test frameworks, and the system's libsqlite3 and zlib through system-library targets.
import PackageDescription
import CompilerPluginSupport

let package = Package(
    name: "lockstep",
    products: [
        .executable(name: "lockstep", targets: ["lockstep"]),
        .executable(name: "lockstep-host", targets: ["lockstep-host"]),
        .executable(name: "lockstep-widget", targets: ["lockstep-widget"]),
        .executable(name: "lockstep-watch", targets: ["lockstep-watch"]),
        .executable(name: "lockstep-intent", targets: ["lockstep-intent"]),
        .executable(name: "lockstep-notification", targets: ["lockstep-notification"]),
        .executable(name: "lockstep-share", targets: ["lockstep-share"]),
        .executable(name: "lockstep-clip", targets: ["lockstep-clip"]),
        .library(name: "AppGroupKit", targets: ["AppGroupKit"]),
        .library(name: "BundleKit", targets: ["BundleKit"]),
        .library(name: "XcodeKit", targets: ["XcodeKit"]),
        .library(name: "XcodeGenKit", targets: ["XcodeGenKit"]),
        .library(name: "CheckKit", targets: ["CheckKit"]),
        .library(name: "LockstepRuntime", targets: ["LockstepRuntime"]),
        .library(name: "LaunchKit", targets: ["LaunchKit"]),
        .library(name: "BuildKit", targets: ["BuildKit"]),
        .library(name: "WidgetKit", targets: ["WidgetKit"]),
        .library(name: "LockstepFoundation", targets: ["LockstepFoundation"]),
        .library(name: "LockstepTesting", targets: ["LockstepTesting"]),
        .library(name: "UserNotifications", targets: ["UserNotifications"]),
        .library(name: "ActivityKit", targets: ["ActivityKit"]),
        .library(name: "WatchConnectivity", targets: ["WatchConnectivity"]),
        .library(name: "AppIntents", targets: ["AppIntents"]),
        .library(name: "SwiftUI", targets: ["SwiftUI"]),
        .library(name: "UIKit", targets: ["UIKit"]),
        .library(name: "HabitCore", targets: ["HabitCore"]),
        // Apple's logging: `import os`, `import os.log` and `import OSLog` all resolve.
        .library(name: "OSLog", targets: ["os", "OSLog"]),
        .library(name: "Intents", targets: ["Intents"]),
        .library(name: "Combine", targets: ["Combine"]),
        .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
        .library(name: "CoreLocation", targets: ["CoreLocation"]),
        .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
        .library(name: "CryptoKit", targets: ["CryptoKit"]),
        .library(name: "LockstepNetworking", targets: ["LockstepNetworking"]),
        .library(name: "SwiftData", targets: ["SwiftData"]),
    ],
    targets: [
        // System libraries, linked from the machine (libsqlite3-dev, zlib1g-dev).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // Linux calls Glibc's Swift module leaves out (statx, pipe2), as inline C: nothing extra to link.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),

        // The one door to the operating system: descriptors, errno, locks, atomic files, exit statuses.
        .target(name: "LockstepSystem", dependencies: ["CLinux"]),
        // One SQLite connection (statements, bindings, transactions) for the stores that share a database across
        // processes: the Habits store and SwiftData's.
        .target(name: "LockstepSQLite", dependencies: ["CSQLite"]),

        // The simulated frameworks.
        // Logging as Apple's `os`: the clang module `os` (with its submodule `log`) and its Swift overlay `os`, which
        // writes each line to the process's stderr; `OSLog` re-exports it.
        .systemLibrary(name: "COSLog", path: "Sources/COSLog"),
        .target(name: "os", dependencies: ["COSLog", "LockstepSystem"]),
        .target(name: "OSLog", dependencies: ["os"]),
        .target(name: "CoreGraphics", dependencies: ["_Testing_CoreGraphics"]),
        .target(name: "_Testing_CoreGraphics"),
        .target(name: "CoreLocation"),
        .target(name: "UniformTypeIdentifiers"),
        // Apple's CryptoKit: the hash functions, HMAC and SymmetricKey, computed in Swift (no system library).
        .target(name: "CryptoKit"),
        // Foundation's networking (FoundationNetworking on Linux) with the publisher Apple's Foundation declares over
        // Combine, `URLSession.dataTaskPublisher`: a module apart, so only code that fetches links libcurl.
        .target(name: "LockstepNetworking", dependencies: ["Combine"]),
        // The compiler plug-in behind `#Preview` and SwiftData's `@Model`: it speaks the compiler's plug-in protocol itself, so no swift-syntax
        // dependency (see Design.md, "Macros").
        .macro(name: "LockstepMacros"),
        // Apple's Combine: publishers, subscribers, subjects, the operators app models use, ObservableObject and
        // @Published (see YourOwnCode.md for what is there and what is not).
        .target(name: "Combine"),
        // Apple's SwiftData: @Model (expanded by LockstepMacros), containers and contexts over a SQLite store in the
        // App Group container, shared across processes; @Query for SwiftUI views (see YourOwnCode.md).
        .target(name: "SwiftData", dependencies: ["LockstepSystem", "AppGroupKit", "LockstepRuntime", "LockstepSQLite", "SwiftUI", "LockstepMacros"]),
        // SiriKit's base classes, for the class Xcode generates from an .intentdefinition (kept as a source file).
        .target(name: "Intents"),
        .target(name: "AppGroupKit", dependencies: ["LockstepSystem", "CZlib"]),
        // The manifest and bundle model: what the runtime, `verify` and every simulated executable read.
        .target(name: "BundleKit", dependencies: ["LockstepSystem", "AppGroupKit"]),
        // `check`'s readers of what Xcode makes: built apps (folders, .xcarchive, .ipa, Mach-O, signatures,
        // profiles) and Xcode projects (project.pbxproj, xcconfig, build settings, Info.plist preprocessing).
        .target(name: "XcodeKit", dependencies: ["LockstepSystem", "BundleKit", "CZlib"]),
        // The YAML reader and XcodeGen specs, read into the project `xcodegen generate` writes.
        .target(name: "XcodeGenKit", dependencies: ["LockstepSystem", "BundleKit", "XcodeKit"]),
        // The checks: rules, their catalogue, policy and baselines, findings, reports (text, JSON, SARIF, JUnit …)
        // and `bump`, over what the readers give.
        .target(name: "CheckKit", dependencies: ["LockstepSystem", "AppGroupKit", "BundleKit", "XcodeKit", "XcodeGenKit"]),
        .target(name: "WidgetKit", dependencies: ["LockstepSystem", "AppGroupKit", "LockstepRuntime", "AppIntents", "ActivityKit", "SwiftUI", "Intents"]),
        // Live Activities: the app requests, updates and ends them; the widget extension renders them.
        .target(name: "ActivityKit", dependencies: ["LockstepSystem", "AppGroupKit", "BundleKit", "LockstepRuntime"]),
        // Foundation's App Group names on Linux: FileManager.containerURL(forSecurityApplicationGroupIdentifier:) and
        // a UserDefaults with iOS's semantics, for code written against Apple's API.
        .target(name: "LockstepFoundation", dependencies: ["LockstepSystem", "AppGroupKit", "LockstepRuntime"]),
        .target(name: "WatchConnectivity", dependencies: ["LockstepSystem", "AppGroupKit", "LockstepRuntime"]),
        // LockstepFoundation: LocalizedStringResource is looked up in the bundle's string catalogs.
        .target(name: "AppIntents", dependencies: ["LockstepSystem", "AppGroupKit", "LockstepRuntime", "LockstepFoundation"]),
        // The part of SwiftUI widgets, complications and Live Activities may use, and the renderer that lays a view
        // out at a size and draws it (texts, controls, SVG). A view library; only `App.main` (a headless app as a
        // simulated process) reaches LockstepRuntime.
        .target(name: "SwiftUI", dependencies: ["AppIntents", "LockstepFoundation", "LockstepRuntime", "LockstepSystem", "UIKit", "Combine", "LockstepMacros"], exclude: ["FontMetrics/generate.py", "FontMetrics/Inter-OFL.txt"]),
        // UIKit's non-view types real extension and shared code reaches for: UIColor, UIImage, UIFont, UIDevice,
        // UIScreen, UIApplication, and the asset catalogs they and SwiftUI draw from. No views or view controllers.
        .target(name: "UIKit", dependencies: ["CoreGraphics", "LockstepSystem", "AppGroupKit", "LockstepRuntime", "_Testing_UIKit"]),
        // Swift Testing's cross-import overlay for a module named UIKit, which must exist (empty here): see its file.
        .target(name: "_Testing_UIKit"),
        // What a simulated process is: its identity from the environment, the installed manifest, the version gate,
        // its sandbox and containers (`SimulatedProcess.current`). Bundles depend on it, not on the launcher.
        .target(name: "LockstepRuntime", dependencies: ["LockstepSystem", "AppGroupKit", "BundleKit"]),
        // The launcher: install, `up`/`run`/`verify`, scenarios, supervision.
        .target(name: "LaunchKit", dependencies: ["LockstepSystem", "AppGroupKit", "BundleKit", "LockstepRuntime"]),
        // `lockstep build PROJECT`: a team's Xcode project or XcodeGen spec as a Swift package per platform, its files
        // compiled with their target's platform conditions against the Apple-named modules, and a manifest.
        .target(name: "BuildKit", dependencies: ["LockstepSystem", "AppGroupKit", "BundleKit", "XcodeKit", "XcodeGenKit", "CheckKit"]),
        // The reference app's shared module: what app, widget, watch and intents all import (models, store,
        // the widget's provider and views, the intents, the watch sync).
        .target(name: "HabitCore", dependencies: [
            "LockstepSystem", "AppGroupKit", "BundleKit", "LockstepRuntime", "CSQLite", "LockstepSQLite", "WidgetKit", "WatchConnectivity",
            "AppIntents", "ActivityKit", "LockstepFoundation", "SwiftUI"]),

        // Thin executables over the libraries.
        .executableTarget(name: "lockstep", dependencies: [
            "LockstepSystem", "AppGroupKit", "BundleKit", "CheckKit", "LockstepRuntime", "LaunchKit", "BuildKit"]),
        // The Habits app's executables: each is its entry-point call (`HostApp.main()` …, Sources/HabitCore/EntryPoints.swift).
        .executableTarget(name: "lockstep-host", dependencies: ["HabitCore"]),
        // The Habits widget extension: a `@main WidgetBundle`, as on iOS.
        .executableTarget(name: "lockstep-widget", dependencies: ["HabitCore", "WidgetKit", "SwiftUI"]),
        .executableTarget(name: "lockstep-watch", dependencies: ["HabitCore"]),
        // The notification service alone links UserNotifications (which loads FoundationNetworking, libcurl and TLS
        // before its first delivery, for its attachments): the Habits widget, which shares HabitCore, stays small.
        .executableTarget(name: "lockstep-notification", dependencies: ["HabitCore", "UserNotifications", "Intents", "LockstepSystem", "LockstepRuntime",
                                                                         "AppGroupKit", "LockstepFoundation"]),
        .executableTarget(name: "lockstep-share", dependencies: ["HabitCore", "LockstepFoundation"]),
        .executableTarget(name: "lockstep-clip", dependencies: ["HabitCore"]),
        .executableTarget(name: "lockstep-intent", dependencies: ["HabitCore"]),
        // The benchmark `lockstep bench` runs, and its worker processes (built, not installed).
        .executableTarget(name: "lockstep-bench", dependencies: [
            "LockstepSystem", "AppGroupKit", "BundleKit", "CheckKit", "CSQLite", "CLinux"]),
        // The bare Foundation process the bench compares the idle widget's memory and `up`'s start with.
        .executableTarget(name: "lockstep-idle", dependencies: ["LockstepSystem"]),
        // A widget extension configured through SiriKit (`IntentConfiguration`, a generated `INIntent` subclass), for
        // the WidgetKit tests (built, not installed).
        .executableTarget(name: "lockstep-siri-widget", dependencies: ["WidgetKit", "SwiftUI", "Intents"]),
        // A widget extension in the shape of home-assistant/iOS PR #4998, for the suspension tests (rule
        // `lock.dead10cc`; built, not installed): it migrates the shared database after its timeline returned.
        .executableTarget(name: "lockstep-probe-widget", dependencies: ["WidgetKit", "SwiftUI", "LockstepFoundation", "LockstepSQLite"]),
        // An App Intents extension with one intent, served on stdin, for the same tests (built, not installed).
        .executableTarget(name: "lockstep-probe-intents", dependencies: ["AppIntents"]),
        // A plain executable, with no Lockstep entry point, as a bundle `lockstep run` launches: its identity, shared
        // defaults, group container, Info.plist and log lines come from the launch (the identity and logging tests).
        .executableTarget(name: "lockstep-plain", dependencies: ["LockstepFoundation", "OSLog", "UserNotifications"]),
        // A bundle that can play any role, for LaunchKit's process tests (allocate, hold a lock, exit …), and the
        // proof tests' workers (`__worker`).
        .executableTarget(name: "lockstep-probe", dependencies: [
            "LockstepSystem", "LockstepRuntime", "AppGroupKit", "LockstepFoundation", "HabitCore", "CSQLite", "SwiftData", "WidgetKit", "SwiftUI"]),

        // Apple's UserNotifications names for a notification service extension, and its host.
        // Communication notifications take SiriKit's INSendMessageIntent; attachments may be fetched over HTTPS.
        .target(name: "UserNotifications", dependencies: ["LockstepSystem", "LockstepRuntime", "Intents"]),
        // For your own `swift test`: a simulated device of your bundles, processes with bounded waits.
        .target(name: "LockstepTesting", dependencies: ["LockstepSystem", "AppGroupKit", "BundleKit"]),

        // Tests: shared helpers in one support target; process-level tests spawn the built executables.
        .target(name: "LockstepTestSupport", dependencies: ["LockstepSystem", "LockstepTesting"], path: "Tests/LockstepTestSupport"),
        .testTarget(name: "LockstepSystemTests", dependencies: ["LockstepSystem", "LockstepTestSupport"]),
        .testTarget(name: "AppGroupKitTests", dependencies: ["AppGroupKit", "LockstepSystem", "LockstepTestSupport"]),
        .testTarget(name: "BundleKitTests", dependencies: ["BundleKit", "XcodeKit", "CheckKit", "LockstepTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "XcodeProjectTests", dependencies: ["BundleKit", "XcodeKit", "XcodeGenKit", "CheckKit", "LockstepTestSupport"]),
        .testTarget(name: "BuildKitTests", dependencies: ["BuildKit", "BundleKit", "XcodeKit", "XcodeGenKit", "CheckKit", "LockstepTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "LaunchKitTests", dependencies: ["LaunchKit", "LockstepRuntime", "LockstepTestSupport"]),
        .testTarget(name: "HabitsTests", dependencies: [
            "HabitCore", "WidgetKit", "WatchConnectivity", "AppIntents", "UserNotifications", "LockstepTestSupport", "Intents", "OSLog",
            "LockstepSystem", "AppGroupKit", "CSQLite", "BundleKit", "LockstepRuntime", "SwiftUI", "LockstepFoundation",
            "LockstepNetworking",
        ]),
        .testTarget(name: "SwiftUITests", dependencies: ["SwiftUI", "AppIntents", "LockstepFoundation"]),
        .testTarget(name: "CombineTests", dependencies: ["Combine"]),
        .testTarget(name: "CoreLocationTests", dependencies: ["CoreLocation"]),
        .testTarget(name: "CoreGraphicsTests", dependencies: ["CoreGraphics"]),
        .testTarget(name: "UniformTypeIdentifiersTests", dependencies: ["UniformTypeIdentifiers"]),
        .testTarget(name: "CryptoKitTests", dependencies: ["CryptoKit"]),
        .testTarget(name: "SwiftDataTests", dependencies: ["SwiftData", "SwiftUI", "LockstepSystem", "LockstepTestSupport", "CSQLite"]),
        .testTarget(name: "ProofTests", dependencies: ["AppGroupKit", "BundleKit", "XcodeKit", "XcodeGenKit", "CheckKit", "HabitCore", "LockstepTestSupport"]),
    ]
)
