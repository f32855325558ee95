import SwiftUI

/// The unit the app lets a person choose and every bundle shows, kept in the App Group's defaults through
/// `@AppStorage`, as real widgets read their settings: `UserDefaults` here is the generated shim's.
struct TallyUnitLabel: View {
    @AppStorage("unit", store: UserDefaults(suiteName: TallyStore.group)) private var unit = "cups"
    @AppStorage("lastExport") private var lastExport: Date?
    @SceneStorage("tab") private var tab = 0

    var body: some View {
        Text(unit)
            .onChange(of: unit, initial: true) { _, newValue in
                if newValue.isEmpty { unit = "cups" }
            }
    }
}

/// Where the app keeps its exports, in the order the Files app lists them.
enum TallyExports {
    static var folder: URL { URL.documentsDirectory.appendingPathComponent("Exports") }

    static func names(_ names: [String]) -> [String] { names.sorted(using: .localizedStandard) }
}
