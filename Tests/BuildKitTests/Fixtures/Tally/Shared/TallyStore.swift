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

    /// The request a sync would send: `URLRequest` with no import beyond Foundation, as on a device.
    static func syncRequest() -> URLRequest {
        var request = URLRequest(url: URL(string: "https://tally.example/sync")!)
        request.httpMethod = "POST"
        return request
    }

    static var build: String {
        #if DEBUG && TALLY_EXTRA
        return "debug"
        #else
        return "release"
        #endif
    }
}
