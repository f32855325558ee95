import BundleKit

// The extension point rule of <doc:Rules> "Bundles and versions": an app extension says which extension point it is.

extension RuleCatalog {
    static let extensionPointRules = RuleDescription.parse("""
        extension.point | error | Bundles and versions
        An app extension declares a documented extension point (an unknown one is a warning).
        Apple: App extensions must define the NSExtension key with a dictionary value in their Info.plist.
        Apple: Appex bundle does not define the NSExtensionPointIdentifier key in its Info.plist. This key must have a reverse-DNS format string value.
        Source: App Store Connect's upload validation
        Source: developer.apple.com/documentation/bundleresources/information-property-list/nsextension
        Lockstep: Reads the NSExtension (PlugIns/) or EXAppExtensionAttributes (Extensions/) dictionary of every embedded extension and its extension point, against the points Apple documents.
        Fix: Add NSExtension (or EXAppExtensionAttributes for ExtensionKit) with the extension point identifier to the extension's Info.plist.
        """)
}

extension Rules {
    /// Extension points Apple documents (rule `extension.point`), NSExtension's and ExtensionKit's, for iOS,
    /// watchOS, tvOS, visionOS and macOS app extensions; any other is a warning.
    public static let knownExtensionPoints: Set<String> = [
        // Widgets, notifications, sharing and actions (`com.apple.services` is an Action extension without UI).
        "com.apple.widgetkit-extension", "com.apple.widget-extension", "com.apple.usernotifications.service",
        "com.apple.usernotifications.content-extension", "com.apple.share-services", "com.apple.ui-services",
        "com.apple.services",
        // Siri, App Intents and keyboards.
        "com.apple.intents-service", "com.apple.intents-ui-service", "com.apple.appintents-extension",
        "com.apple.keyboard-service",
        // Files, photos, messages, Quick Look, Spotlight.
        "com.apple.fileprovider-nonui", "com.apple.fileprovider-ui", "com.apple.fileprovider-actionsui",
        "com.apple.photo-editing", "com.apple.message-payload-provider", "com.apple.quicklook.preview",
        "com.apple.quicklook.thumbnail", "com.apple.spotlight.index", "com.apple.spotlight.import",
        "com.apple.FinderSync",
        // Calls, messages filters, network extensions, credentials.
        "com.apple.callkit.call-directory", "com.apple.identitylookup.message-filter",
        "com.apple.identitylookup.classification-ui", "com.apple.calendar.virtualconference",
        "com.apple.networkextension.packet-tunnel", "com.apple.networkextension.app-proxy",
        "com.apple.networkextension.filter-data", "com.apple.networkextension.filter-control",
        "com.apple.networkextension.dns-proxy", "com.apple.networkextension.app-push",
        "com.apple.authentication-services-credential-provider-ui",
        "com.apple.authentication-services-account-authentication-modification-ui",
        // Safari, broadcast, printing, education, location, Screen Time, background assets, Matter.
        "com.apple.Safari.content-blocker", "com.apple.Safari.web-extension", "com.apple.Safari.extension",
        "com.apple.broadcast-services-upload", "com.apple.broadcast-services-setupui", "com.apple.printing.discovery",
        "com.apple.classkit.context-provider", "com.apple.location.push.service",
        "com.apple.deviceactivity.monitor-extension", "com.apple.deviceactivityui.report-extension",
        "com.apple.ManagedSettings.shield-action-service", "com.apple.ManagedSettingsUI.shield-configuration-service",
        "com.apple.background-asset-downloader-extension", "com.apple.matter.support.extension.device-setup",
        // tvOS, audio units, and the WatchKit extension of a watchOS 2–6 app.
        "com.apple.tv-top-shelf", "com.apple.AudioUnit", "com.apple.AudioUnit-UI", "com.apple.watchkit",
    ]

    static func extensionFindings(_ bundle: BundleRecord, into findings: inout [Finding]) {
        guard bundle.embedLocation == .plugIns || bundle.embedLocation == .extensions else { return }
        let path = file(bundle, "NSExtensionPointIdentifier")
        // rule `extension.point` (and intent.extension-point for ExtensionKit bundles in Extensions/).
        let dictionaryKey = bundle.embedLocation == .extensions ? "EXAppExtensionAttributes" : "NSExtension"
        let pointKey = bundle.embedLocation == .extensions ? "EXExtensionPointIdentifier" : "NSExtensionPointIdentifier"
        guard bundle.hasExtensionDictionary else {
            findings.append(Finding(rule: "extension.point", bundle: bundle.bundlePath, path: path,
                                    message: "App extensions must define the \(dictionaryKey) key with a dictionary value in their Info.plist.", values: [dictionaryKey]))
            return
        }
        guard let point = bundle.extensionPoint, !point.isEmpty else {
            findings.append(Finding(rule: "extension.point", bundle: bundle.bundlePath, path: path,
                                    message: "Appex bundle at \(bundle.bundlePath) does not define the \(pointKey) key in its Info.plist. This key must have a reverse-DNS format string value.", values: [pointKey]))
            return
        }
        guard knownExtensionPoints.contains(point) else {
            findings.append(Finding(rule: "extension.point", severity: .warning, bundle: bundle.bundlePath, path: path,
                                    message: "The extension point '\(point)' of \(bundle.bundlePath) is not one Apple documents for iOS app extensions; check its \(pointKey).", values: [point]))
            return
        }
    }
}
