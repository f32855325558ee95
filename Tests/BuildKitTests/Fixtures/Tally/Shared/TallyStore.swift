import Foundation

/// The count every bundle shares through the App Group's defaults suite.
struct TallyStore {
    static let group = "group.com.example.tally"

    static var count: Int {
        get { UserDefaults(suiteName: group)?.integer(forKey: "count") ?? 0 }
        set { UserDefaults(suiteName: group)?.set(newValue, forKey: "count") }
    }

    /// Which device the code was compiled for: each target's own platform conditions.
    static var device: String {
        #if os(iOS) && targetEnvironment(simulator)
        return "iPhone simulator"
        #elseif os(watchOS)
        return "Apple Watch"
        #elseif os(Linux)
        return "Linux"
        #else
        return "somewhere else"
        #endif
    }

    /// Where a device syncs the count: Foundation's networking types, found through `import Foundation` alone.
    static var sync: (session: URLSession, request: URLRequest) {
        (.shared, URLRequest(url: URL(string: "https://tally.example.com/count")!))
    }

    static var build: String {
        #if DEBUG && TALLY_EXTRA
        return "debug"
        #else
        return "release"
        #endif
    }
}
