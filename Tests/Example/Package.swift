// swift-tools-version:6.0
// An iOS team's app, its shared module and its widget, as Lockstep runs them on Linux: the shared module and the
// widget extension are the files the iOS targets compile (the widget extension's `@main WidgetBundle` included);
// the app and the other extensions have a Linux main.swift of Lockstep's.
import PackageDescription

let package = Package(
    name: "HabitsExample",
    dependencies: [.package(name: "lockstep", path: "../..")],
    targets: [
        // What the app, the widget and (on iOS) the other extensions import.
        .target(name: "HabitsShared", dependencies: [
            .product(name: "WidgetKit", package: "lockstep", condition: .when(platforms: [.linux])),
            .product(name: "WatchConnectivity", package: "lockstep", condition: .when(platforms: [.linux])),
            .product(name: "AppIntents", package: "lockstep", condition: .when(platforms: [.linux])),
            .product(name: "UserNotifications", package: "lockstep", condition: .when(platforms: [.linux])),
            .product(name: "LockstepFoundation", package: "lockstep", condition: .when(platforms: [.linux])),
            .product(name: "ActivityKit", package: "lockstep", condition: .when(platforms: [.linux])),
        ]),
        // The Linux-only executables a manifest's `executable` points at: one per simulated bundle.
        .executableTarget(name: "HabitsApp", dependencies: [
            "HabitsShared", .product(name: "LockstepRuntime", package: "lockstep"), .product(name: "WidgetKit", package: "lockstep"),
            .product(name: "AppIntents", package: "lockstep"),
        ]),
        // The widget extension: its iOS files unchanged, `@main struct HabitsWidgetBundle: WidgetBundle` included.
        .executableTarget(name: "HabitsWidgetExtension", dependencies: [
            "HabitsShared", .product(name: "WidgetKit", package: "lockstep"), .product(name: "SwiftUI", package: "lockstep"),
            .product(name: "AppIntents", package: "lockstep"), .product(name: "ActivityKit", package: "lockstep"),
        ]),
        .executableTarget(name: "HabitsIntentsExtension", dependencies: [
            "HabitsShared", .product(name: "AppIntents", package: "lockstep"),
        ]),
        .executableTarget(name: "HabitsNotificationService", dependencies: [
            "HabitsShared", .product(name: "UserNotifications", package: "lockstep"),
        ]),
        .executableTarget(name: "HabitsWatchApp", dependencies: [
            "HabitsShared", .product(name: "LockstepRuntime", package: "lockstep"),
        ]),
        .testTarget(name: "HabitsExampleTests", dependencies: ["HabitsShared", .product(name: "LockstepTesting", package: "lockstep")]),
    ]
)
