/// Required-reason APIs and privacy manifests (rule `privacy.manifest`, `privacy.manifest-invalid`): which API
/// categories an executable uses, judged by the symbols it imports, and what a bundle's `PrivacyInfo.xcprivacy`
/// declares. App Store Connect checks this per executable, extensions included (ITMS-91053).
public enum PrivacyManifest {
    /// The approved reasons of each category (<doc:Rules> "The App Store's other embedded-bundle rules", from Apple's "Describing use of required reason API").
    public static let reasons: [String: Set<String>] = [
        "NSPrivacyAccessedAPICategoryUserDefaults": ["CA92.1", "1C8F.1", "C56D.1", "AC6B.1"],
        "NSPrivacyAccessedAPICategoryFileTimestamp": ["DDA9.1", "C617.1", "3B52.1", "0A2A.1"],
        "NSPrivacyAccessedAPICategorySystemBootTime": ["35F9.1", "8FFB.1", "3D61.1"],
        "NSPrivacyAccessedAPICategoryDiskSpace": ["85F4.1", "E174.1", "7D9E.1", "B728.1"],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": ["3EC4.1", "54BD.1"],
    ]

    /// Imported symbols that show a category is used: the Objective-C class or C function a call needs at link
    /// time. (Swift's `UserDefaults` and `FileManager` attribute keys reach these too.)
    static let evidence: [String: String] = [
        "_OBJC_CLASS_$_NSUserDefaults": "NSPrivacyAccessedAPICategoryUserDefaults",
        "_CFPreferencesCopyAppValue": "NSPrivacyAccessedAPICategoryUserDefaults",
        "_CFPreferencesSetAppValue": "NSPrivacyAccessedAPICategoryUserDefaults",
        "_stat": "NSPrivacyAccessedAPICategoryFileTimestamp", "_fstat": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "_lstat": "NSPrivacyAccessedAPICategoryFileTimestamp", "_fstatat": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "_getattrlist": "NSPrivacyAccessedAPICategoryFileTimestamp", "_fgetattrlist": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "_getattrlistat": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "_NSFileCreationDate": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "_NSFileModificationDate": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "_NSURLContentModificationDateKey": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "_NSURLCreationDateKey": "NSPrivacyAccessedAPICategoryFileTimestamp",
        "_mach_absolute_time": "NSPrivacyAccessedAPICategorySystemBootTime",
        "_statfs": "NSPrivacyAccessedAPICategoryDiskSpace", "_statvfs": "NSPrivacyAccessedAPICategoryDiskSpace",
        "_fstatfs": "NSPrivacyAccessedAPICategoryDiskSpace", "_fstatvfs": "NSPrivacyAccessedAPICategoryDiskSpace",
        "_NSFileSystemFreeSize": "NSPrivacyAccessedAPICategoryDiskSpace", "_NSFileSystemSize": "NSPrivacyAccessedAPICategoryDiskSpace",
        "_NSURLVolumeAvailableCapacityKey": "NSPrivacyAccessedAPICategoryDiskSpace",
        "_NSURLVolumeAvailableCapacityForImportantUsageKey": "NSPrivacyAccessedAPICategoryDiskSpace",
        "_NSURLVolumeTotalCapacityKey": "NSPrivacyAccessedAPICategoryDiskSpace",
        "_OBJC_CLASS_$_UITextInputMode": "NSPrivacyAccessedAPICategoryActiveKeyboards",
    ]

    /// The categories `symbols` use, each with the symbols that show it.
    static func categories(usedBy symbols: Set<String>) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for symbol in symbols.sorted() {
            // `_stat$INODE64` and other variants of a C function carry a suffix.
            let base = symbol.split(separator: "$", maxSplits: 1).first.map { symbol.hasPrefix("_OBJC_") ? symbol : String($0) } ?? symbol
            if let category = evidence[base] { result[category, default: []].append(symbol) }
        }
        return result
    }

    /// A privacy manifest's declared categories, and why it is invalid (empty when it is valid).
    package static func read(_ plist: [String: Any]) -> (declared: Set<String>, problems: [String]) {
        var declared: Set<String> = []
        var problems: [String] = []
        let known: Set<String> = ["NSPrivacyTracking", "NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes", "NSPrivacyAccessedAPITypes"]
        for key in plist.keys.sorted() where !known.contains(key) { problems.append("the key '\(key)' is not one a privacy manifest has") }
        if let tracking = plist["NSPrivacyTracking"], !(tracking is Bool) { problems.append("NSPrivacyTracking is not a boolean") }
        if let domains = plist["NSPrivacyTrackingDomains"], !((domains as? [Any])?.allSatisfy { $0 is String } ?? false) {
            problems.append("NSPrivacyTrackingDomains is not an array of strings")
        }
        if let collected = plist["NSPrivacyCollectedDataTypes"], !((collected as? [Any])?.allSatisfy { $0 is [String: Any] } ?? false) {
            problems.append("NSPrivacyCollectedDataTypes is not an array of dictionaries")
        }
        if let types = plist["NSPrivacyAccessedAPITypes"] {
            guard let entries = types as? [Any] else {
                problems.append("NSPrivacyAccessedAPITypes is not an array")
                return (declared, problems)
            }
            for (index, entry) in entries.enumerated() {
                guard let entry = entry as? [String: Any], let category = entry["NSPrivacyAccessedAPIType"] as? String else {
                    problems.append("entry \(index) of NSPrivacyAccessedAPITypes has no NSPrivacyAccessedAPIType string")
                    continue
                }
                guard let approved = reasons[category] else {
                    problems.append("'\(category)' is not a required-reason API category")
                    continue
                }
                let given = (entry["NSPrivacyAccessedAPITypeReasons"] as? [Any])?.compactMap { $0 as? String } ?? []
                if given.isEmpty { problems.append("\(category) gives no NSPrivacyAccessedAPITypeReasons") }
                for reason in given where !approved.contains(reason) {
                    problems.append("'\(reason)' is not an approved reason for \(category)")
                }
                if !given.isEmpty { declared.insert(category) }
            }
        }
        return (declared, problems)
    }
}
