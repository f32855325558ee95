/// A bundle's versions against its containing app's: the rule every simulated process runs on before starting
/// (rule `runtime.version-parity`, exit 78) and `check` reports for every embedded bundle (rules
/// `version.build-mismatch`, `version.short-mismatch`), in Apple's own sentences, which both share.
package enum VersionParity {
    /// The two version keys of an Info.plist.
    package enum Key: Sendable {
        case build, short

        /// `CFBundleVersion` or `CFBundleShortVersionString`.
        package var key: String { self == .build ? "CFBundleVersion" : "CFBundleShortVersionString" }

        package func value(_ bundle: BundleRecord) -> String? { self == .build ? bundle.buildVersion : bundle.shortVersion }
    }

    /// Whether two values are the same as stored. Apple compares Info.plist strings by their bytes: `é` written as one
    /// scalar and as `e` + U+0301 are different values to App Store Connect, though Swift's `==` calls them equal.
    /// (Compared in place: the generic comparison of two UTF-8 views walks them a byte at a time through iterators,
    /// 350 instructions for two build numbers, asked of every version of every bundle.)
    package static func stored(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var (a, b) = (a, b)
        return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }

    /// Apple's sentence for `bundle`'s `kind` value (`value`) differing from its containing app's (`parent`).
    /// - Parameter container: the bundle that directly contains `bundle` (a watch app for its own widget), which
    ///   Xcode's sentence names; App Store Connect compares every bundle with the iOS app, `app`.
    package static func mismatchMessage(_ kind: Key, value: String, parent: String, bundle: BundleRecord, app: BundleRecord, container: BundleRecord) -> String {
        // A bundle nested in a watch app: Xcode names the watch app as its containing parent app, App Store Connect
        // the iOS application.
        if container != app, let direct = kind.value(container) {
            let itms = kind == .build ? "ITMS-90473: CFBundleVersion Mismatch" : "ITMS-90473: CFBundleShortVersionString Mismatch"
            return "The \(kind.key) of an app extension ('\(value)') must match that of its containing parent app ('\(direct)', \(container.bundlePath)). \(itms) - The \(kind.key) value '\(value)' of extension '\(bundle.bundlePath)' does not match the \(kind.key) value '\(parent)' of its containing \(app.platform.rawValue) application '\(app.bundlePath)'."
        }
        switch (kind, bundle.role == .watch) {
        case (.build, false):
            return "The CFBundleVersion of an app extension ('\(value)') must match that of its containing parent app ('\(parent)'). ITMS-90473: CFBundleVersion Mismatch - The CFBundleVersion value '\(value)' of extension '\(bundle.bundlePath)' does not match the CFBundleVersion value '\(parent)' of its containing \(app.platform.rawValue) application '\(app.bundlePath)'."
        case (.build, true):
            return "Asset validation failed (90379) CFBundleVersion Mismatch. The CFBundleVersion value '\(value)' of watch application '\(bundle.bundlePath)' does not match the CFBundleVersion value '\(parent)' of its containing \(app.platform.rawValue) application '\(app.bundlePath)'."
        case (.short, false):
            return "The CFBundleShortVersionString of an app extension ('\(value)') must match that of its containing parent app ('\(parent)'). ITMS-90473: CFBundleShortVersionString Mismatch - The CFBundleShortVersionString value '\(value)' of extension '\(bundle.bundlePath)' does not match the CFBundleShortVersionString value '\(parent)' of its containing \(app.platform.rawValue) application '\(app.bundlePath)'."
        case (.short, true):
            return "The value of CFBundleShortVersionString in your WatchKit app's Info.plist (\(value)) does not match the value in your companion app's Info.plist (\(parent)). These values are required to match."
        }
    }

    /// Apple's sentences for each version of `bundle` that differs from `app`'s (empty for the app itself, and for a
    /// version either leaves empty, which is another rule's).
    package static func mismatches(_ bundle: BundleRecord, app: BundleRecord) -> [String] {
        guard bundle != app else { return [] }
        return [Key.build, .short].compactMap { kind in
            guard let value = kind.value(bundle), !value.isEmpty, let parent = kind.value(app), !parent.isEmpty,
                  !stored(parent, value) else { return nil }
            return mismatchMessage(kind, value: value, parent: parent, bundle: bundle, app: app, container: app)
        }
    }
}

extension Manifest {
    /// Apple's sentences that stop `bundleIdentifier`'s process from starting (rule `runtime.version-parity`, exit
    /// 78): its CFBundleVersion or CFBundleShortVersionString differs from the containing app's. Empty for the app
    /// itself, for a matching bundle, and for an identifier the manifest does not list.
    package func versionMismatches(for bundleIdentifier: String) -> [String] {
        guard let bundle = bundle(identifier: bundleIdentifier) else { return [] }
        return VersionParity.mismatches(bundle, app: app)
    }
}
