import CryptoKit
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

/// The shared code's public face, as a framework of a team's writes it: public API that names `UserDefaults` and
/// `NSSortDescriptor` (the generated shim's, public for that), a fetch through `dataTaskPublisher`, and the count's
/// fingerprint from CryptoKit.
public enum TallyShared {
    public static func defaults() -> UserDefaults? { UserDefaults(suiteName: TallyStore.group) }
    public static let newestFirst = NSSortDescriptor(key: "taken", ascending: false)

    public static func fetch() -> AnyPublisher<Data, URLError> {
        URLSession.shared.dataTaskPublisher(for: TallyStore.sync.request).map(\.data).eraseToAnyPublisher()
    }

    public static func fingerprint(_ count: Int) -> String {
        SHA256.hash(data: Data("\(count)".utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
