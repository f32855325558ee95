@testable import BundleKit
@testable import CheckKit
import Foundation
import Testing
@testable import XcodeKit

/// Issue 42: what a project's files can make unknown or unreadable — a damaged binary plist, a build number a Run
/// Script phase writes, a macro of a missing prefix header — and which setting a generated Info.plist takes.
@Suite struct ReaderRoundFourTests {
    static let appType = "com.apple.product-type.application"
    static let appexType = "com.apple.product-type.app-extension"
    static let versioned = EmbeddingRoundFourTests.versioned
    static let damaged = "bplist00;" + String(repeating: "\u{0}", count: 60)

    static func appAndShare(_ app: [String: String] = [:], share: [String: String] = [:]) -> ProjectFixture {
        ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "5", "MARKETING_VERSION": "1.0"], targets: [
            .init(name: "App", productType: appType, settings: ["INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app"]
                    .merging(app) { $1 }, embeds: [.init(target: "Share", spec: 13)]),
            .init(name: "Share", productType: appexType, settings: ["INFOPLIST_FILE": "Share/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.share"]
                    .merging(share) { $1 }),
        ])
    }

    static let files = [
        "App/Info.plist": FixtureTree.plist(versioned),
        "Share/Info.plist": EmbeddingRoundFourTests.extensionPlist("com.apple.share-services"),
    ]

    /// A damaged binary Info.plist or entitlements file is unreadable input (exit 2 naming the file), not a bundle
    /// whose keys are missing.
    @Test(arguments: ["Share/Info.plist", "Share/Share.entitlements"]) func aDamagedBinaryPlistIsUnreadable(file: String) throws {
        let fixture = Self.appAndShare(share: ["CODE_SIGN_ENTITLEMENTS": "Share/Share.entitlements"])
        var files = Self.files.merging(["Share/Share.entitlements": FixtureTree.plist([:])]) { $1 }
        files[file] = Self.damaged
        let error = #expect(throws: BundleError.self) { try fixture.load(with: files) }
        #expect(error?.code == .notAPropertyList)
        #expect(error?.path.hasSuffix(file) == true, "\(String(describing: error))")
        #expect(error?.description.contains("binary property list") == true, "\(String(describing: error))")
        #expect(error?.exitStatus == .invalidInput)
    }
}
