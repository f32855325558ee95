import BundleKit
import CheckKit
import Foundation
import LockstepTestSupport
import Testing
import XcodeKit

/// Mutated inputs of every format `lockstep check` reads: each is read or refused with a `BundleError` (exit 2,
/// one sentence naming the file), never a trap and never a foreign error.
///
/// Deterministic: a fixed seed and `FuzzSettings.cases(standard:)` cases per format. Run longer with
/// `LOCKSTEP_FUZZ_CASES=100000 LOCKSTEP_FUZZ_SEED=N swift test --filter ProofTests` (or `LOCKSTEP_STRESS=1`).
@Suite struct BundleFuzzTests {
    static let plistTokens = [
        "<dict>", "</dict>", "<key>", "</key>", "<string>", "</string>", "<array>", "</array>", "<integer>",
        "</integer>", "<real>", "<true/>", "<data>", "<date>", "<!DOCTYPE plist>", "&amp;", "&#x0;", "<![CDATA[",
        "<?xml version=\"1.0\"?>", "<plist version=\"1.0\">", "{", "(", "\"", ";",
    ]

    static let infoPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
        <key>CFBundleIdentifier</key><string>com.example.habits.widget</string>
        <key>CFBundleShortVersionString</key><string>1.0.0</string>
        <key>CFBundleVersion</key><string>42</string>
        <key>CFBundlePackageType</key><string>XPC!</string>
        <key>NSExtension</key>
        <dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>
        <key>com.apple.security.application-groups</key><array><string>group.com.example.habits</string></array>
        <key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>
        <key>MinimumOSVersion</key><real>17.0</real>
        <key>Flag</key><true/>
        <key>Blob</key><data>AAECAwQ=</data>
        <key>Built</key><date>2026-01-01T00:00:00Z</date>
    </dict>
    </plist>
    """

    static let openStepPlist = """
    { CFBundleIdentifier = "com.example.habits"; CFBundleVersion = 7; Groups = ("group.com.example.habits"); Data = <0001>; }
    """

    static func isClean(_ error: any Error) -> Bool { error is BundleError }

    @Test func infoPlistsXMLBinaryAndOpenStep() throws {
        let xml = Array(Self.infoPlist.utf8)
        let object = try PropertyListSerialization.propertyList(from: Data(xml), format: nil)
        let binary = [UInt8](try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0))
        let outcome = fuzz("Info.plist", seeds: [xml, binary, Array(Self.openStepPlist.utf8)], tokens: Self.plistTokens,
                           cases: FuzzSettings.cases(standard: 4_000), isClean: Self.isClean) { bytes in
            _ = try PropertyListFile.dictionary(bytes, path: "Fuzz.appex/Info.plist")
        }
        #expect(outcome.foreignErrors.isEmpty, "\(outcome.foreignErrors)")
        #expect(outcome.rejected > 0 && outcome.accepted > 0, "\(outcome)")
    }

    @Test func manifestsThroughEveryRule() throws {
        let seed = Array(Manifest.embeddedDefaultText.utf8)
        let tokens = ["{", "}", "[", "]", "\"", ":", ",", "null", "true", "1e999", "-0", "\"manifestVersion\": 2",
                      "\\u0000", "\\ud800", "\"role\": \"watch\"", "\"buildVersion\": 1", "\"embedded\": {}",
                      "\"infoPlist\": \"../../etc\"", "\"appGroups\": [1]", "..", "\u{202E}"]
        let outcome = fuzz("manifest", seeds: [seed], tokens: tokens, cases: FuzzSettings.cases(standard: 4_000),
                           isClean: Self.isClean) { bytes in
            let manifest = try Manifest.parse(bytes, path: "/nonexistent/fuzz/lockstep.json")
            // A manifest that parses goes through the whole rule engine, as `lockstep check` would run it.
            _ = Rules.check(manifest.bundleSet)
        }
        #expect(outcome.foreignErrors.isEmpty, "\(outcome.foreignErrors)")
        #expect(outcome.rejected > 0 && outcome.accepted > 0, "\(outcome)")
    }
}
