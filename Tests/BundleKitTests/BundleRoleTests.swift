import BundleKit
import Foundation
import Testing

/// The table of extension kinds (`BundleRole.kind`): what everything else asks about a kind.
@Suite struct BundleRoleTests {
    @Test func anExtensionPointNamesItsKind() {
        #expect(BundleRole(extensionPoint: "com.apple.widgetkit-extension") == .widget)
        #expect(BundleRole(extensionPoint: "com.apple.appintents-extension") == .intent)
        #expect(BundleRole(extensionPoint: "com.apple.intents-service") == .intent)
        #expect(BundleRole(extensionPoint: "com.apple.usernotifications.service") == .notification)
        #expect(BundleRole(extensionPoint: "com.apple.share-services") == .share)
        #expect(BundleRole(extensionPoint: "com.apple.ui-services") == .share)
        // Any other point, or none, is a plain extension.
        #expect(BundleRole(extensionPoint: "com.apple.keyboard-service") == .extension)
        #expect(BundleRole(extensionPoint: "com.apple.widgetkit-extension.x") == .extension)
        #expect(BundleRole(extensionPoint: nil) == .extension)
    }

    @Test func eachExtensionPointBelongsToOneKind() {
        let points = BundleRole.allCases.flatMap(\.kind.extensionPoints)
        #expect(points.count == Set(points).count, "\(points)")
        for role in BundleRole.allCases {
            for point in role.kind.extensionPoints { #expect(BundleRole(extensionPoint: point) == role, "\(point)") }
        }
    }

    @Test func launchLimitsDeviceAndVerify() {
        #expect(BundleRole.allCases.filter { $0.kind.launch == .atUp } == [.host, .widget, .watch, .complication])
        #expect(BundleRole.allCases.filter(\.kind.runsOnWatch) == [.watch, .complication])
        #expect(BundleRole.allCases.filter(\.kind.sharesAppData) == [.widget, .intent, .notification, .share, .clip])
        // rule `activity.lifecycle`: the app and its App Clip start Live Activities, no extension does.
        #expect(BundleRole.allCases.filter(\.kind.startsLiveActivities) == [.host, .clip])
        // rule `widget.memory`, `extension.memory`.
        #expect(BundleRole.allCases.map(\.kind.memoryLimitMB) == [nil, 30, nil, nil, 30, 24, 120, nil, nil])
        #expect(BundleRole.notification.kind.memoryReport.text(limitMB: 24) == "exceeded mem limit: ActiveHard 24 MB (fatal)")
    }

    /// The embedded default manifest has one bundle of each kind that has an executable, and names that kind's
    /// executable: `make install` installs what it names.
    @Test func theEmbeddedManifestNamesEachKindsExecutable() {
        let manifest = Manifest.embeddedDefault
        for record in manifest.bundles { #expect(record.executable == record.role.kind.executable, "\(record.role)") }
        let roles = Set(manifest.bundles.map(\.role))
        #expect(roles == Set(BundleRole.allCases.filter { $0.kind.executable != nil }))
        #expect(Set(manifest.bundles.compactMap(\.executable)) == Set(BundleRole.shippedExecutables))
        #expect(BundleRole.shippedExecutables == ["lockstep-host", "lockstep-widget", "lockstep-watch", "lockstep-intent",
                                                  "lockstep-notification", "lockstep-share", "lockstep-clip"])
    }

    /// Each kind's executable is a product of the package, so `swift build` makes what `make install` installs.
    @Test func eachExecutableIsAProduct() throws {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Package.swift").standardized
        let text = try String(contentsOf: package, encoding: .utf8)
        for executable in BundleRole.shippedExecutables {
            #expect(text.contains(".executable(name: \"\(executable)\""), "\(executable) is no product in Package.swift")
        }
    }
}
