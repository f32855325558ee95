import Foundation
import LockstepFoundation
import SwiftUI

/// A widget's view that shows the place the app keeps in the App Group's defaults, read as real widgets read it:
/// `@AppStorage("currentPlace", store: UserDefaults(suiteName: group))`.
private struct PlaceLabel: View {
    @AppStorage var place: String

    init(group: String) {
        _place = AppStorage(wrappedValue: "none", "currentPlace", store: LockstepFoundation.UserDefaults(suiteName: group))
    }

    var body: some View { Text("place \(place)") }
}

/// The probe's `@AppStorage` commands, and the sandbox folders Foundation's `URL` names (main.swift lists them).
enum AppStorageCommands {
    /// Runs one command; false when `command` is none of these.
    static func perform(_ command: String, _ argument: String) throws -> Bool {
        let words = argument.split(separator: " ", maxSplits: 1).map(String.init)
        switch command {
        case "stored-place" where words.count == 1:
            print("stored place \(PlaceLabel(group: words[0]).place)")
        case "store-place" where words.count == 2:
            // Through the binding a control would get (`$place`).
            PlaceLabel(group: words[0]).$place.wrappedValue = words[1]
            print("stored \(words[1])")
        case "folders":
            // Each is a folder of the bundle's own container, as on iOS; `URL.temporaryDirectory` is Foundation's.
            for (name, url) in [("documents", URL.documentsDirectory), ("support", URL.applicationSupportDirectory),
                                ("caches", URL.cachesDirectory), ("temporary", URL.temporaryDirectory)] {
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
                print("\(name) \(url.standardizedFileURL.path)\(exists ? "" : " (missing)")")
            }
        default:
            return false
        }
        return true
    }
}
