import AppGroupKit
import Foundation
import LockstepSystem


/// The installed bundles of a simulated device: the containing app and the bundles embedded in it
/// (<doc:Design> "The manifest").
///
/// Manifest v1 is JSON with `"manifestVersion": 1`, an `app` and an `embedded` array. Each bundle states its
/// values inline, or points at real files with `"infoPlist"` and `"entitlements"` (paths relative to the
/// manifest). When both are given, **the inline value wins**, as a literal Info.plist string beats the build
/// setting it would otherwise come from: a manifest can pin one value while reading the rest from the plist.
/// Unknown top-level keys (such as LaunchKit's `installGeneration` in `installed.json`) are ignored; an
/// unknown `manifestVersion` is refused.
public struct Manifest: Sendable {
    /// The containing app (role `host`).
    public var app: BundleRecord
    /// The embedded bundles: extensions and the watch app, in manifest order.
    public var embedded: [BundleRecord]
    /// The file this manifest was read from; `nil` for the embedded default.
    public var path: String?

    public init(app: BundleRecord, embedded: [BundleRecord], path: String?) {
        self.app = app
        self.embedded = embedded
        self.path = path
    }

    /// The app followed by every embedded bundle.
    public var bundles: [BundleRecord] { [app] + embedded }

    /// The bundle with this `CFBundleIdentifier`, if the manifest lists one.
    public func bundle(identifier: String) -> BundleRecord? {
        bundles.first { $0.bundleIdentifier == identifier }
    }

    /// The first bundle playing `role` (`.host` is the app).
    public func bundle(role: BundleRole) -> BundleRecord? {
        bundles.first { $0.role == role }
    }

    /// How findings and errors name the embedded default, which has no file.
    public static let embeddedDefaultName = "<embedded default manifest>"

    /// The manifest versions this reader knows.
    public static let supportedVersions = [1]

    /// The embedded default (the Habits app), exactly as <doc:Design> shows it and `lockstep init` prints it.
    public static let embeddedDefaultText = """
        {
          "manifestVersion": 1,
          "app": {
            "name": "Habits", "bundleIdentifier": "com.example.habits",
            "shortVersion": "1.0.0", "buildVersion": "1",
            "executable": "lockstep-host", "appGroups": ["group.com.example.habits"], "supportsLiveActivities": true
          },
          "embedded": [
            { "name": "HabitsWidget", "role": "widget", "bundleIdentifier": "com.example.habits.widget",
              "extensionPoint": "com.apple.widgetkit-extension", "shortVersion": "1.0.0", "buildVersion": "1",
              "executable": "lockstep-widget", "appGroups": ["group.com.example.habits"], "memoryLimitMB": 30 },
            { "name": "HabitsWatch", "role": "watch", "bundleIdentifier": "com.example.habits.watchkitapp",
              "companionAppBundleIdentifier": "com.example.habits", "shortVersion": "1.0.0", "buildVersion": "1",
              "executable": "lockstep-watch", "appGroups": ["group.com.example.habits"] },
            { "name": "HabitsIntents", "role": "intent", "bundleIdentifier": "com.example.habits.intents",
              "extensionPoint": "com.apple.appintents-extension", "shortVersion": "1.0.0", "buildVersion": "1",
              "executable": "lockstep-intent", "appGroups": ["group.com.example.habits"] },
            { "name": "HabitsComplication", "role": "complication", "bundleIdentifier": "com.example.habits.watchkitapp.complication",
              "extensionPoint": "com.apple.widgetkit-extension", "shortVersion": "1.0.0", "buildVersion": "1",
              "executable": "lockstep-widget", "appGroups": ["group.com.example.habits"] },
            { "name": "HabitsNotifications", "role": "notification", "bundleIdentifier": "com.example.habits.notifications",
              "extensionPoint": "com.apple.usernotifications.service", "shortVersion": "1.0.0", "buildVersion": "1",
              "executable": "lockstep-notification", "appGroups": ["group.com.example.habits"] },
            { "name": "HabitsShare", "role": "share", "bundleIdentifier": "com.example.habits.share",
              "extensionPoint": "com.apple.share-services", "shortVersion": "1.0.0", "buildVersion": "1",
              "executable": "lockstep-share", "appGroups": ["group.com.example.habits"],
              "activationRule": { "NSExtensionActivationSupportsText": true } },
            { "name": "HabitsClip", "role": "clip", "bundleIdentifier": "com.example.habits.Clip",
              "shortVersion": "1.0.0", "buildVersion": "1",
              "executable": "lockstep-clip", "appGroups": ["group.com.example.habits"] }
          ]
        }

        """

    /// The embedded default, parsed.
    public static var embeddedDefault: Manifest {
        // The text is a constant checked by the tests, so parsing it cannot fail.
        var manifest = try! parse(Array(embeddedDefaultText.utf8), path: embeddedDefaultName)
        manifest.path = nil
        return manifest
    }

    /// Reads the manifest file at `path`.
    /// - Throws: `BundleError` (`.unreadable`, `.invalidManifest`, `.unknownManifestVersion`, and the errors of
    ///   the Info.plist and entitlements files it points at).
    public static func load(_ path: String) throws -> Manifest {
        try parse(InputFile.read(path), path: path)
    }

    /// The variable naming a manifest to use instead of the installed one.
    public static let environmentVariable = "LOCKSTEP_MANIFEST"

    /// The manifest a command acts on: `--manifest F`, then `$LOCKSTEP_MANIFEST`, then the manifest installed at
    /// `<groupsRoot>/.lockstep/installed.json`, then the embedded default.
    /// - Throws: `BundleError` when the chosen file cannot be read; never falls back past a file that was named.
    public static func resolve(explicit: String?, groupsRoot: String) throws -> Manifest {
        if let explicit { return try load(explicit) }
        if let variable = ProcessEnvironment.value(environmentVariable), !variable.isEmpty {
            return try load(variable)
        }
        let installed = installedPath(groupsRoot: groupsRoot)
        if FileSystem.exists(installed) { return try load(installed) }
        return embeddedDefault
    }

    /// Where the installed manifest lives in a groups root (<doc:Design> "On-disk layout").
    public static func installedPath(groupsRoot: String) -> String {
        GroupsLayout(root: groupsRoot).installedManifest
    }

    /// Parses manifest JSON; `path` names the file in errors and locates `infoPlist`/`entitlements` files.
    /// - Throws: `BundleError`: one sentence naming the file, and the bundle and field when one is at fault.
    public static func parse(_ bytes: [UInt8], path: String) throws -> Manifest {
        guard case .object(let object) = try JSONValue.parse(bytes, path: path) else {
            throw BundleError(.invalidManifest, path: path, detail: "its top level is not a JSON object")
        }
        guard let versionValue = object["manifestVersion"] else {
            throw BundleError(.invalidManifest, path: path, detail: "the top-level field 'manifestVersion' is missing")
        }
        guard let version = versionValue.integer, supportedVersions.contains(version) else {
            let text: String
            if case .string(let string) = versionValue { text = "'\(string)'" } else { text = versionValue.compactText }
            throw BundleError(.unknownManifestVersion, path: path, detail: text)
        }
        guard case .object(let appObject) = object["app"] else {
            throw BundleError(.invalidManifest, path: path, detail: "the top-level field 'app' is missing or not an object")
        }
        var embeddedObjects: [[String: JSONValue]] = []
        switch object["embedded"] {
        case nil: break
        case .array(let items):
            for item in items {
                guard case .object(let members) = item else {
                    throw BundleError(.invalidManifest, path: path, detail: "the top-level field 'embedded' is not an array of objects")
                }
                embeddedObjects.append(members)
            }
        default: throw BundleError(.invalidManifest, path: path, detail: "the top-level field 'embedded' is not an array of objects")
        }
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? ""
        let reader = BundleReader(manifestPath: path, directory: directory)
        let app = try reader.record(appObject, index: nil, appName: nil)
        var embedded: [BundleRecord] = []
        // A complication lives inside the watch app, wherever the manifest lists it.
        let watchName: String? = embeddedObjects.first { $0["role"] == .string("watch") }.flatMap {
            if case .string(let name) = $0["name"] { return name } else { return nil }
        }
        for (index, item) in embeddedObjects.enumerated() {
            embedded.append(try reader.record(item, index: index, appName: app.name, watchName: watchName))
        }
        return Manifest(app: app, embedded: embedded, path: path)
    }
}

/// Builds one `BundleRecord` from a manifest bundle object.
private struct BundleReader {
    let manifestPath: String
    let directory: String

    func record(_ object: [String: JSONValue], index: Int?, appName: String?, watchName: String? = nil) throws -> BundleRecord {
        // How errors name the bundle before its name is known.
        var label = index.map { "embedded bundle #\($0 + 1)" } ?? "the app"

        func invalid(_ field: String, _ problem: String) -> BundleError {
            BundleError(.invalidManifest, path: manifestPath, detail: "the field '\(field)' of \(label) \(problem)")
        }
        func string(_ field: String) throws -> String? {
            guard let value = object[field] else { return nil }
            guard case .string(let text) = value else { throw invalid(field, "must be a string") }
            return text
        }

        let name = try string("name")
        if let name { label = index == nil ? "the app '\(name)'" : "the embedded bundle '\(name)'" }

        let role: BundleRole
        if let roleText = try string("role") {
            guard let parsed = BundleRole(rawValue: roleText) else {
                throw invalid("role", "is '\(roleText)'; it must be one of \(BundleRole.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            role = parsed
        } else if index == nil {
            role = .host
        } else {
            throw invalid("role", "is missing")
        }
        if index == nil, role != .host { throw invalid("role", "must be 'host'") }
        if index != nil, role == .host { throw invalid("role", "is 'host', which only the app may be") }

        var record = BundleRecord(name: name ?? "", role: role, bundlePath: "", source: SourceLocation(file: manifestPath))
        record.packageType = [.host, .watch, .clip].contains(role) ? "APPL" : "XPC!"

        // A file the manifest points at: errors name the file, then the field and manifest that named it.
        func plist(_ field: String) throws -> (path: String, contents: [String: Any])? {
            guard let relative = try string(field) else { return nil }
            let resolved = resolve(relative)
            do {
                return (resolved, try PropertyListFile.dictionary(at: resolved))
            } catch var error as BundleError {
                error.detail += " (it is the '\(field)' of \(label) in the manifest '\(manifestPath)')"
                throw error
            }
        }
        // Files first, so that inline values override them (see `Manifest`).
        if let (path, contents) = try plist("infoPlist") {
            PropertyListFile.apply(infoPlist: contents, path: path, to: &record)
            record.source = SourceLocation(file: path)
        }
        if let (path, contents) = try plist("entitlements") {
            record.appGroups = PropertyListFile.appGroups(entitlements: contents)
            record.valueSources["com.apple.security.application-groups"] = SourceLocation(file: path)
        }

        let inline: [(field: String, key: String, set: (inout BundleRecord, String) -> Void)] = [
            ("bundleIdentifier", "CFBundleIdentifier", { $0.bundleIdentifier = $1 }),
            ("shortVersion", "CFBundleShortVersionString", { $0.shortVersion = $1 }),
            ("buildVersion", "CFBundleVersion", { $0.buildVersion = $1 }),
            ("extensionPoint", "NSExtensionPointIdentifier", { $0.extensionPoint = $1; $0.hasExtensionDictionary = true }),
            ("companionAppBundleIdentifier", "WKCompanionAppBundleIdentifier", { $0.companionAppBundleIdentifier = $1 }),
            ("executable", "executable", { $0.executable = $1 }),
        ]
        for (field, key, set) in inline {
            if let value = try string(field) {
                set(&record, value)
                record.valueSources[key] = SourceLocation(file: manifestPath, detail: field)
            }
        }
        if let groups = object["appGroups"] {
            guard case .array(let items) = groups else { throw invalid("appGroups", "must be an array of strings") }
            record.appGroups = []
            for item in items {
                guard case .string(let group) = item else { throw invalid("appGroups", "must be an array of strings") }
                record.appGroups.append(group)
            }
            record.valueSources["com.apple.security.application-groups"] = SourceLocation(file: manifestPath, detail: "appGroups")
        }
        if let resources = object["resources"] {
            // Where the bundle's code finds its asset catalogs and strings (<doc:YourOwnCode> "The manifest").
            guard case .array(let items) = resources else { throw invalid("resources", "must be an array of paths") }
            for item in items {
                guard case .string(let relative) = item, !relative.isEmpty else { throw invalid("resources", "must be an array of paths") }
                let path = resolve(relative)
                guard FileManager.default.fileExists(atPath: path) else {
                    throw invalid("resources", "names '\(relative)', which does not exist")
                }
                record.resources.append(path)
            }
        }
        if let limit = object["memoryLimitMB"] {
            guard let megabytes = limit.integer, megabytes > 0 else {
                throw invalid("memoryLimitMB", "must be a positive whole number")
            }
            record.memoryLimitMB = megabytes
        }

        if let value = object["supportsLiveActivities"] {
            guard case .bool(let supports) = value else { throw invalid("supportsLiveActivities", "must be true or false") }
            record.supportsLiveActivities = supports
            record.valueSources["NSSupportsLiveActivities"] = SourceLocation(file: manifestPath, detail: "supportsLiveActivities")
        }
        if let value = object["activationRule"] {
            // The dictionary form of NSExtensionActivationRule: booleans, and counts for the …WithMaxCount keys.
            let problem = "must be an object of NSExtensionActivationSupports… keys with true/false or counts"
            guard case .object(let keys) = value else { throw invalid("activationRule", problem) }
            var supports: [String: Int] = [:]
            for (key, item) in keys {
                guard key.hasPrefix("NSExtensionActivationSupports") else { throw invalid("activationRule", "has the key '\(key)'; it \(problem)") }
                switch item {
                case .bool(let flag): supports[key] = flag ? 1 : 0
                case .integer(let count) where count >= 0: supports[key] = count
                default: throw invalid("activationRule", "has a value for '\(key)' that is neither true/false nor a count")
                }
            }
            record.activationSupports = supports
        }

        // Required: what identifies the bundle and what the version rules compare. A value may come from the
        // Info.plist only when that plist has it; a plist without it is a finding (rule `version.missing`),
        // a manifest without either is invalid input.
        if record.name.isEmpty { throw invalid("name", "is missing") }
        if object["infoPlist"] == nil {
            for (field, value) in [("bundleIdentifier", record.bundleIdentifier), ("shortVersion", record.shortVersion),
                                   ("buildVersion", record.buildVersion)] where value == nil {
                throw invalid(field, "is missing (give it inline or point 'infoPlist' at an Info.plist)")
            }
        }

        let appFolder = "\(appName ?? record.name).app"
        switch role.kind.placement {
        case .app:
            record.bundlePath = appFolder
        case .watchApp:
            record.embedLocation = .watch
            record.bundlePath = "\(appFolder)/Watch/\(record.name).app"
        case .appClip:
            record.embedLocation = .appClips
            record.bundlePath = "\(appFolder)/AppClips/\(record.name).app"
        case .watchAppExtension:
            // A watch-side extension (a complication): inside the watch app, whose folder the manifest's watch bundle names.
            record.embedLocation = .plugIns
            record.bundlePath = "\(appFolder)/Watch/\(watchName ?? "Watch").app/PlugIns/\(record.name).appex"
        case .appExtension:
            // ExtensionKit extensions (App Intents) live in Extensions/, NSExtension ones in PlugIns/
            // (rule `intent.extension-point`).
            let location: EmbedLocation = record.extensionPoint == "com.apple.appintents-extension" ? .extensions : .plugIns
            record.embedLocation = location
            record.bundlePath = "\(appFolder)/\(location.rawValue)/\(record.name).appex"
        }
        return record
    }

    private func resolve(_ relative: String) -> String {
        if relative.hasPrefix("/") || directory.isEmpty { return relative }
        return "\(directory)/\(relative)"
    }
}
