import Foundation
#if canImport(WatchConnectivity)
import WatchConnectivity

/// Keeps the watch's list of habits in step with the phone's, through the application context: the same class on
/// both sides, as an iOS team writes it.
public final class WatchSync: NSObject, WCSessionDelegate, @unchecked Sendable {
    public static let shared = WatchSync()

    public func start() {
        guard WCSession.isSupported() else { return }
        WCSession.default.delegate = self
        WCSession.default.activate()
    }

    /// Phone: sends the current habits (the latest context replaces any the watch has not received yet).
    public func send(_ habits: [Habit]) throws {
        try WCSession.default.updateApplicationContext(["habits": habits.map(\.name), "done": habits.filter(\.isDone).map(\.name)])
    }

    /// Watch: the habits last received, kept in the watch app's own defaults.
    public var habitsOnWatch: [String] {
        UserDefaults.standard.stringArray(forKey: "watchHabits") ?? []
    }

    public func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: Error?) {
        if let error { print("WatchConnectivity activation failed: \(error)") }
    }

    #if os(iOS)
    public func sessionDidBecomeInactive(_ session: WCSession) {}
    public func sessionDidDeactivate(_ session: WCSession) { session.activate() }
    #endif

    public func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {
        UserDefaults.standard.set(applicationContext["habits"] as? [String] ?? [], forKey: "watchHabits")
    }
}
#endif
