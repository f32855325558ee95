import BundleKit
import CheckKit
import Foundation
import Testing
import XcodeKit

/// Every rule of <doc:Rules> "Bundles and versions", good and bad, on records built directly.
@Suite struct RulesTests {
    static func app(build: String? = "289", short: String? = "1.0", groups: [String] = ["group.com.x.habits"]) -> BundleRecord {
        BundleRecord(name: "X", role: .host, bundleIdentifier: "com.x.habits", shortVersion: short, buildVersion: build,
                     appGroups: groups, bundlePath: "X.app", source: SourceLocation(file: "X.app/Info.plist"))
    }

    static func widget(id: String = "com.x.habits.widget", build: String? = "289", short: String? = "1.0",
                       point: String? = "com.apple.widgetkit-extension", dictionary: Bool = true,
                       groups: [String] = ["group.com.x.habits"]) -> BundleRecord {
        BundleRecord(name: "Y", role: .widget, bundleIdentifier: id, shortVersion: short, buildVersion: build,
                     extensionPoint: point, hasExtensionDictionary: dictionary, appGroups: groups, embedLocation: .plugIns,
                     bundlePath: "X.app/PlugIns/Y.appex", source: SourceLocation(file: "X.app/PlugIns/Y.appex/Info.plist"))
    }

    static func watch(id: String = "com.x.habits.watchkitapp", build: String? = "289", short: String? = "1.0",
                      companion: String? = "com.x.habits") -> BundleRecord {
        BundleRecord(name: "W", role: .watch, bundleIdentifier: id, shortVersion: short, buildVersion: build,
                     companionAppBundleIdentifier: companion, appGroups: ["group.com.x.watch"], embedLocation: .watch,
                     bundlePath: "X.app/Watch/W.app", source: SourceLocation(file: "X.app/Watch/W.app/Info.plist"))
    }

    func check(_ app: BundleRecord = RulesTests.app(), _ embedded: BundleRecord...) -> [Finding] {
        Rules.check(AppBundleSet(app: app, embedded: embedded, origin: "test"))
    }

    @Test func goodSetHasNoFindings() {
        #expect(check(Self.app(), Self.widget(), Self.watch()) == [])
    }

    @Test func buildMismatchUsesXcodeAndITMSWording() {
        let findings = check(Self.app(), Self.widget(build: "1"), Self.watch(build: "1"))
        #expect(findings.map(\.rule) == ["version.build-mismatch", "version.build-mismatch"])
        #expect(findings.allSatisfy { $0.severity == .error })
        #expect(findings[0].message == "The CFBundleVersion of an app extension ('1') must match that of its containing parent app ('289'). ITMS-90473: CFBundleVersion Mismatch - The CFBundleVersion value '1' of extension 'X.app/PlugIns/Y.appex' does not match the CFBundleVersion value '289' of its containing iOS application 'X.app'.")
        #expect(findings[0].path == "X.app/PlugIns/Y.appex/Info.plist")
        #expect(findings[0].bundle == "X.app/PlugIns/Y.appex")
        #expect(findings[1].message == "Asset validation failed (90379) CFBundleVersion Mismatch. The CFBundleVersion value '1' of watch application 'X.app/Watch/W.app' does not match the CFBundleVersion value '289' of its containing iOS application 'X.app'.")
    }

    @Test func versionParityIsAStringComparison() {
        // "1.0" and "1.0.0" are the same number but not the same string (rule `version.short-mismatch`).
        let findings = check(Self.app(short: "1.0"), Self.widget(short: "1.0.0"), Self.watch(short: "0.3.0"))
        #expect(findings.map(\.rule) == ["version.short-mismatch", "version.short-mismatch"])
        #expect(findings[0].message.hasPrefix("The CFBundleShortVersionString of an app extension ('1.0.0') must match that of its containing parent app ('1.0'). ITMS-90473: CFBundleShortVersionString Mismatch - The CFBundleShortVersionString value '1.0.0' of extension 'X.app/PlugIns/Y.appex'"))
        #expect(findings[1].message == "The value of CFBundleShortVersionString in your WatchKit app's Info.plist (0.3.0) does not match the value in your companion app's Info.plist (1.0). These values are required to match.")
    }

    @Test func versionFormats() {
        let bad = check(Self.app(build: "8.22.3-beta.0", short: "5.0.0-beta1"))
        #expect(bad.map(\.rule) == ["version.build-format", "version.short-format"])
        #expect(bad[0].message == "ITMS-90058: This bundle is invalid - The value for key CFBundleVersion [8.22.3-beta.0] in the Info.plist file must be a period-separated list of at most three non-negative integers.")
        #expect(bad[1].message == "ITMS-90060: This bundle is invalid. The value for key CFBundleShortVersionString '5.0.0-beta1' in the Info.plist file must be a period-separated list of at most three non-negative integers.")
        // Four numeric parts: accepted in practice, a warning.
        let four = check(Self.app(build: "9.1.18.2"))
        #expect(four.map(\.rule) == ["version.build-format"])
        #expect(four.map(\.severity) == [.warning])
        #expect(check(Self.app(build: "1..2")).map(\.severity) == [.error])
        #expect(check(Self.app(build: "0.0.1", short: "10")) == [])
    }

    @Test func missingVersions() {
        let findings = check(Self.app(), Self.widget(build: nil, short: ""))
        #expect(findings.map(\.rule) == ["version.missing", "version.missing"])
        #expect(findings[0].message == "The bundle's Info.plist does not contain a CFBundleVersion key or its value is not a string.")
    }

    @Test func bundleIdentifierRules() {
        let prefix = check(Self.app(), Self.widget(id: "com.other.widget"))
        #expect(prefix.map(\.rule) == ["bundle-id.prefix"])
        #expect(prefix[0].message == "Embedded binary's bundle identifier is not prefixed with the parent app's bundle identifier. Embedded Binary Bundle Identifier: com.other.widget Parent App Bundle Identifier: com.x.habits App extension bundle identifiers must have a prefix consisting of their containing application's bundle identifier followed by a '.'.")
        // "com.x.habitswidget" starts with the app id but not with "<app id>.".
        #expect(check(Self.app(), Self.widget(id: "com.x.habitswidget")).map(\.rule) == ["bundle-id.prefix"])
        #expect(check(Self.app(), Self.widget(id: "com.x.habits.widget.today")).map(\.rule) == ["bundle-id.single-component"])
        #expect(check(Self.app(), Self.widget(id: "com.x.habits.wid_get")).map(\.rule) == ["bundle-id.charset"])
        let duplicate = check(Self.app(), Self.widget(id: "com.x.habits"))
        #expect(duplicate.map(\.rule) == ["bundle-id.duplicate", "bundle-id.prefix"])
        #expect(duplicate[0].message.hasPrefix("This application or a bundle it contains has the same bundle identifier as this application or another bundle that it contains. Bundle identifiers must be unique."))
    }

    @Test func watchRules() {
        #expect(check(Self.app(), Self.watch(companion: nil)).map(\.rule) == ["watch.companion"])
        #expect(check(Self.app(), Self.watch(companion: "com.x.other")).map(\.rule) == ["watch.companion"])
        let prefix = check(Self.app(), Self.watch(id: "com.x.watch"))
        #expect(prefix.map(\.rule) == ["watch.prefix"])
        #expect(prefix[0].message.hasPrefix("The bundle identifier of a WatchKit app must have a prefix consisting of the companion app's bundle identifier, followed by a '.'."))
    }

    @Test func extensionPointRules() {
        let noDictionary = check(Self.app(), Self.widget(point: nil, dictionary: false))
        #expect(noDictionary.map(\.message) == ["App extensions must define the NSExtension key with a dictionary value in their Info.plist."])
        let noPoint = check(Self.app(), Self.widget(point: nil))
        #expect(noPoint.map(\.message) == ["Appex bundle at X.app/PlugIns/Y.appex does not define the NSExtensionPointIdentifier key in its Info.plist. This key must have a reverse-DNS format string value."])
        let unknown = check(Self.app(), Self.widget(point: "com.example.custom"))
        #expect(unknown.map(\.rule) == ["extension.point"])
        #expect(unknown.map(\.severity) == [.warning])
    }

    @Test func appGroupRules() {
        let oneSided = check(Self.app(groups: []), Self.widget())
        #expect(oneSided.map(\.rule) == ["group.shared"])
        #expect(oneSided[0].severity == .error)
        #expect(oneSided[0].message.hasPrefix("X.app/PlugIns/Y.appex claims the App Group 'group.com.x.habits', which its containing app X.app does not claim"))
        let none = check(Self.app(), Self.widget(groups: []))
        #expect(none.map(\.severity) == [.note])
        let unprefixed = check(Self.app(groups: ["com.x.habits"]), Self.widget(groups: ["com.x.habits"]))
        #expect(unprefixed.map(\.rule) == ["group.shared", "group.shared"])
        #expect(unprefixed.allSatisfy { $0.severity == .error && $0.message.contains("does not start with 'group.'") })
        // The watch's groups are watch-local (rule `group.watch-separate`): not compared with the host's.
        #expect(check(Self.app(), Self.watch()) == [])
    }

    @Test func findingsAreAllCollected() {
        let findings = check(Self.app(build: "x"), Self.widget(id: "bad id", build: "1", short: nil, point: nil, groups: ["g"]))
        #expect(Set(findings.map(\.rule)) == ["version.build-format", "version.build-mismatch", "version.missing", "bundle-id.charset", "bundle-id.prefix", "extension.point", "group.shared"])
    }

    @Test func runtimeVersionFindings() throws {
        var manifest = Manifest.embeddedDefault
        #expect(manifest.versionFindings(for: "com.example.habits.widget") == [])
        manifest.app.buildVersion = "2"
        let findings = manifest.versionFindings(for: "com.example.habits.widget")
        #expect(findings.map(\.rule) == ["runtime.version-parity"])
        #expect(findings[0].message == "The CFBundleVersion of an app extension ('1') must match that of its containing parent app ('2'). ITMS-90473: CFBundleVersion Mismatch - The CFBundleVersion value '1' of extension 'Habits.app/PlugIns/HabitsWidget.appex' does not match the CFBundleVersion value '2' of its containing iOS application 'Habits.app'.")
        #expect(manifest.versionFindings(for: "com.example.habits") == [])
        #expect(manifest.versionFindings(for: "com.unknown") == [])
    }
}

/// `BundleRecord.equalsButForWhereWritten`, which lets `check` run the rules once for two configurations.
@Suite struct WhereWrittenTests {
    static func record(line: Int, detail: String) -> BundleRecord {
        var record = BundleRecord(name: "W", role: .widget, bundleIdentifier: "com.x.app.w", shortVersion: "1.0", buildVersion: "5",
                                  bundlePath: "X.app/PlugIns/W.appex", source: SourceLocation(file: "W/Info.plist", detail: detail))
        record.valueSources["CFBundleVersion"] = SourceLocation(file: "X.xcodeproj/project.pbxproj", detail: "CURRENT_PROJECT_VERSION in \(detail)", line: line)
        return record
    }

    /// Every field of the record is compared: one added to `BundleRecord` must be added to the comparison.
    @Test func everyFieldIsCompared() {
        let labels = Mirror(reflecting: Self.record(line: 1, detail: "").fields).children.compactMap(\.label)
        #expect(labels == BundleRecord.comparedButForWhereWritten)
    }

    @Test func onlyWhereValuesAreWrittenMayDiffer() {
        let debug = Self.record(line: 12, detail: "target 'W' [Debug]"), release = Self.record(line: 30, detail: "target 'W' [Release]")
        #expect(debug != release)
        #expect(debug.equalsButForWhereWritten(release))
        var other = release
        other.buildVersion = "6"
        #expect(!debug.equalsButForWhereWritten(other))
        other = release
        other.valueSources["CFBundleVersion"]?.file = "Config/Release.xcconfig"
        #expect(!debug.equalsButForWhereWritten(other))
        other = release
        other.valueSources["CFBundleShortVersionString"] = SourceLocation(file: "X.xcodeproj/project.pbxproj")
        #expect(!debug.equalsButForWhereWritten(other))
        other = release
        other.store = StoreFacts()
        #expect(!debug.equalsButForWhereWritten(other))
    }
}
