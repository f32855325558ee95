import BundleKit
import Foundation
import LockstepTestSupport
import Testing
import XcodeKit

@Suite struct ManifestTests {
    @Test func embeddedDefaultIsTheHabitsApp() throws {
        let manifest = Manifest.embeddedDefault
        #expect(manifest.path == nil)
        #expect(manifest.app.name == "Habits")
        #expect(manifest.app.role == .host)
        #expect(manifest.bundles.map(\.role) == [.host, .widget, .watch, .intent, .complication, .notification, .share, .clip])
        #expect(manifest.app.supportsLiveActivities)
        #expect(manifest.bundle(role: .complication)?.bundlePath == "Habits.app/Watch/HabitsWatch.app/PlugIns/HabitsComplication.appex")
        #expect(manifest.bundle(role: .clip)?.bundlePath == "Habits.app/AppClips/HabitsClip.app")
        #expect(manifest.bundle(role: .clip)?.packageType == "APPL")
        #expect(manifest.bundle(role: .share)?.activationSupports == ["NSExtensionActivationSupportsText": 1])
        #expect(manifest.bundle(role: .widget)?.memoryLimitMB == 30)
        #expect(manifest.bundle(identifier: "com.example.habits.watchkitapp")?.bundlePath == "Habits.app/Watch/HabitsWatch.app")
        #expect(manifest.bundle(role: .intent)?.bundlePath == "Habits.app/Extensions/HabitsIntents.appex")
        #expect(manifest.bundle(role: .widget)?.bundlePath == "Habits.app/PlugIns/HabitsWidget.appex")
        #expect(manifest.bundle(role: .widget)?.executable == "lockstep-widget")
        #expect(manifest.bundleSet.all.count == 8)
        #expect(manifest.bundle(identifier: "nope") == nil)
    }

    @Test func toleratesUnknownTopLevelKeysButNotUnknownVersions() throws {
        var text = Manifest.embeddedDefaultText.replacingOccurrences(of: "\"manifestVersion\": 1,", with: "\"manifestVersion\": 1, \"installGeneration\": 7,")
        #expect(try Manifest.parse(Array(text.utf8), path: "installed.json").app.bundleIdentifier == "com.example.habits")
        text = Manifest.embeddedDefaultText.replacingOccurrences(of: "\"manifestVersion\": 1", with: "\"manifestVersion\": 2")
        let error = #expect(throws: BundleError.self) { try Manifest.parse(Array(text.utf8), path: "m.json") }
        #expect(error?.code == .unknownManifestVersion)
        #expect(error?.description == "The manifest 'm.json' has manifestVersion 2, which this Lockstep does not know (it reads 1).")
    }

    @Test func missingFieldsNameTheFieldAndTheBundle() throws {
        let cases: [(String, String)] = [
            (#"{"manifestVersion":1,"app":{"name":"A","bundleIdentifier":"a.b","shortVersion":"1"}}"#,
             "The manifest 'm.json' is invalid: the field 'buildVersion' of the app 'A' is missing (give it inline or point 'infoPlist' at an Info.plist)."),
            (#"{"manifestVersion":1,"app":{"name":"A","bundleIdentifier":"a.b","shortVersion":"1","buildVersion":"1"},"embedded":[{"name":"W","bundleIdentifier":"a.b.w","shortVersion":"1","buildVersion":"1"}]}"#,
             "The manifest 'm.json' is invalid: the field 'role' of the embedded bundle 'W' is missing."),
            (#"{"manifestVersion":1,"app":{"bundleIdentifier":"a.b"}}"#,
             "The manifest 'm.json' is invalid: the field 'name' of the app is missing."),
            (#"{"manifestVersion":1,"app":{"name":"A","bundleIdentifier":"a.b","shortVersion":"1","buildVersion":1}}"#,
             "The manifest 'm.json' is invalid: the field 'buildVersion' of the app 'A' must be a string."),
            (#"{"app":{}}"#, "The manifest 'm.json' is invalid: the top-level field 'manifestVersion' is missing."),
            ("{", "The manifest 'm.json' is invalid: it is not valid JSON (line 1, column 2: the text ends where a key in quotes should be)."),
            ("[1]", "The manifest 'm.json' is invalid: its top level is not a JSON object."),
            (#"{"manifestVersion":true}"#, "The manifest 'm.json' has manifestVersion true, which this Lockstep does not know (it reads 1)."),
            (#"{"manifestVersion":"1"}"#, "The manifest 'm.json' has manifestVersion '1', which this Lockstep does not know (it reads 1)."),
        ]
        for (json, sentence) in cases {
            let error = #expect(throws: BundleError.self) { try Manifest.parse(Array(json.utf8), path: "m.json") }
            #expect(error?.description == sentence)
        }
    }

    @Test func valuesFromInfoPlistAndEntitlementsWithInlineWinning() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let plist: [String: Any] = ["CFBundleIdentifier": "com.x.app.widget", "CFBundleShortVersionString": "2.0",
                                    "CFBundleVersion": "7", "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"]]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
            .write(to: dir.appendingPathComponent("Widget-Info.plist"))
        try PropertyListSerialization.data(fromPropertyList: ["com.apple.security.application-groups": ["group.x"]], format: .xml, options: 0)
            .write(to: dir.appendingPathComponent("Widget.entitlements"))
        let json = #"""
        {"manifestVersion":1,"app":{"name":"X","bundleIdentifier":"com.x.app","shortVersion":"2.0","buildVersion":"8"},
         "embedded":[{"name":"Widget","role":"widget","infoPlist":"Widget-Info.plist","entitlements":"Widget.entitlements","buildVersion":"8"}]}
        """#
        let path = dir.appendingPathComponent("lockstep.json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let widget = try Manifest.load(path).embedded[0]
        #expect(widget.bundleIdentifier == "com.x.app.widget")
        #expect(widget.shortVersion == "2.0")
        #expect(widget.buildVersion == "8")  // inline wins over the plist's "7"
        #expect(widget.extensionPoint == "com.apple.widgetkit-extension")
        #expect(widget.hasExtensionDictionary)
        #expect(widget.appGroups == ["group.x"])
        #expect(widget.valueSources["CFBundleVersion"]?.file == path)
        #expect(widget.valueSources["CFBundleShortVersionString"]?.file == dir.appendingPathComponent("Widget-Info.plist").path)
    }

    @Test func aMissingInfoPlistNamesTheFileTheBundleAndTheManifest() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let path = dir.appendingPathComponent("lockstep.json").path
        try #"{"manifestVersion":1,"app":{"name":"A","infoPlist":"A/Info.plist"}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: BundleError.self) { try Manifest.load(path) }
        #expect(error?.description == "Cannot read '\(dir.path)/A/Info.plist': no such file (it is the 'infoPlist' of the app 'A' in the manifest '\(path)').")
    }

    /// A bundle's `resources` are paths relative to the manifest, made absolute; one that is not there is invalid.
    @Test func resourcesAreFoundRelativeToTheManifest() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("W/Assets.xcassets"), withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("lockstep.json").path
        let app = #""app":{"name":"A","bundleIdentifier":"com.x.a","shortVersion":"1","buildVersion":"1"}"#
        try #"{"manifestVersion":1,\#(app),"embedded":[{"name":"W","role":"widget","bundleIdentifier":"com.x.a.w","shortVersion":"1","buildVersion":"1","resources":["W/Assets.xcassets"]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try Manifest.load(path).embedded[0].resources == [dir.appendingPathComponent("W/Assets.xcassets").path])

        try #"{"manifestVersion":1,\#(app),"embedded":[{"name":"W","role":"widget","bundleIdentifier":"com.x.a.w","shortVersion":"1","buildVersion":"1","resources":["W/Missing.xcassets"]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: BundleError.self) { try Manifest.load(path) }
        #expect(error?.description.contains("the field 'resources' of the embedded bundle 'W' names 'W/Missing.xcassets', which does not exist") == true, "\(String(describing: error))")
        #expect(error?.exitStatus == .invalidInput)
    }

    @Test func resolveOrder() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        // Nothing installed (and LOCKSTEP_MANIFEST unset in the test environment): the embedded default.
        if ProcessInfo.processInfo.environment["LOCKSTEP_MANIFEST"] == nil {
            #expect(try Manifest.resolve(explicit: nil, groupsRoot: dir.path).path == nil)
            let installed = Manifest.installedPath(groupsRoot: dir.path)
            try FileManager.default.createDirectory(atPath: dir.path + "/.lockstep", withIntermediateDirectories: true)
            try Manifest.embeddedDefaultText.write(toFile: installed, atomically: true, encoding: .utf8)
            #expect(try Manifest.resolve(explicit: nil, groupsRoot: dir.path).path == installed)
        }
        let missing = dir.appendingPathComponent("missing.json").path
        let error = #expect(throws: BundleError.self) { try Manifest.resolve(explicit: missing, groupsRoot: dir.path) }
        #expect(error?.description == "Cannot read '\(missing)': no such file.")
    }
}
