import AppGroupKit
import Foundation
import LockstepRuntime
import LockstepSystem
import Synchronization

/// Foundation's `UserDefaults`, with iOS's App Group semantics, for code that runs in a simulated process
/// (<doc:Rules> "Sharing data across processes"): `UserDefaults(suiteName: "group.x")` reaches the group's shared suite when the bundle is entitled
/// to the group, and silently a private one when it is not (rule `group.defaults-fallback`); the bundle's own id
/// and `NSGlobalDomain` give nil (`group.defaults-suite-name`); a value written by one process is read by every
/// other at once — or, under realistic device timing, after a flush point and a cached read, as on a device
/// (`defaults.device-flush`, `defaults.device-cache`) — and only property-list values are stored (`defaults.plist-types`).
///
/// Foundation's own class cannot be replaced from outside, so a module that uses it names this one instead, once:
///
/// ```swift
/// #if os(Linux)
/// @_exported import LockstepFoundation
/// typealias UserDefaults = LockstepFoundation.UserDefaults
/// #endif
/// ```
///
/// Code that runs in no simulated process (a plain `swift test` of the shared module) gets suites kept in memory.
/// Errors cannot be thrown through Foundation's API: a write that fails is said on stderr, and a process of a stale
/// build is stopped, as iOS stops it (rule `runtime.stale`).
public final class UserDefaults: @unchecked Sendable {  // @unchecked: `GroupDefaults` and `MemorySuite` lock themselves.
    private enum Backing {
        case suite(GroupDefaults)
        case memory(MemorySuite)
    }

    private let backing: Backing

    /// The bundle's own domain.
    public static var standard: UserDefaults {
        standardInstance.withLock { instance in
            if let instance { return instance }
            let made = UserDefaults(standard: ())
            instance = made
            return made
        }
    }
    private static let standardInstance = Mutex<UserDefaults?>(nil)

    /// `UserDefaults(suiteName:)`: nil for the bundle's own identifier and `NSGlobalDomain`, and for a name that
    /// cannot be a suite (said on stderr).
    public init?(suiteName: String?) {
        guard let suiteName else {
            backing = UserDefaults.standard.backing
            return
        }
        guard let sandbox = Self.sandbox else {
            backing = .memory(MemorySuite.named(suiteName))
            return
        }
        do {
            guard let suite = try GroupDefaults(suiteName: suiteName, sandbox: sandbox) else { return nil }
            backing = .suite(suite)
        } catch {
            Self.report(error)
            return nil
        }
    }

    private init(standard: Void) {
        if let sandbox = Self.sandbox, let suite = try? GroupDefaults.standard(sandbox: sandbox) {
            backing = .suite(suite)
        } else {
            backing = .memory(MemorySuite.named(Self.sandbox?.identity.bundleIdentifier ?? "standard"))
        }
    }

    /// The sandbox of the simulated process this code runs in, if any.
    private static var sandbox: Sandbox? { try? SimulatedProcess.current?.sandbox() }

    // MARK: reading

    public func object(forKey key: String) -> Any? {
        let stored: Any?
        switch backing {
        case .suite(let suite):
            do { stored = try suite.value(forKey: key) } catch { Self.report(error); stored = nil }
        case .memory(let memory):
            stored = memory.value(forKey: key)
        }
        return stored ?? Self.registered.value(forKey: key)
    }

    public func string(forKey key: String) -> String? {
        switch object(forKey: key) {
        case let text as String: return text
        case let number as Int: return String(number)
        case let number as Double: return String(number)
        default: return nil
        }
    }

    public func array(forKey key: String) -> [Any]? { object(forKey: key) as? [Any] }
    public func dictionary(forKey key: String) -> [String: Any]? { object(forKey: key) as? [String: Any] }
    public func data(forKey key: String) -> Data? { object(forKey: key) as? Data }
    public func stringArray(forKey key: String) -> [String]? {
        guard let array = array(forKey: key) else { return nil }
        let strings = array.compactMap { $0 as? String }
        return strings.count == array.count ? strings : nil
    }

    /// 0 when absent or not a number, as Foundation answers.
    public func integer(forKey key: String) -> Int {
        switch object(forKey: key) {
        case let number as Int: return number
        case let number as Double where number.isFinite: return Int(number)
        case let flag as Bool: return flag ? 1 : 0
        case let text as String: return Int(text) ?? Double(text).flatMap { $0.isFinite ? Int($0) : nil } ?? 0
        default: return 0
        }
    }

    public func double(forKey key: String) -> Double {
        switch object(forKey: key) {
        case let number as Double: return number
        case let number as Int: return Double(number)
        case let flag as Bool: return flag ? 1 : 0
        case let text as String: return Double(text) ?? 0
        default: return 0
        }
    }

    public func float(forKey key: String) -> Float { Float(double(forKey: key)) }

    /// false when absent; `YES`, `true` and non-zero numbers are true, as Foundation reads them.
    public func bool(forKey key: String) -> Bool {
        switch object(forKey: key) {
        case let flag as Bool: return flag
        case let number as Int: return number != 0
        case let number as Double: return number != 0
        case let text as String: return ["yes", "true"].contains(text.lowercased()) || (Int(text) ?? 0) != 0
        default: return false
        }
    }

    /// A URL set with `set(_:forKey:)` (stored as its absolute string), or a path string.
    public func url(forKey key: String) -> URL? {
        guard let text = object(forKey: key) as? String else { return nil }
        return text.hasPrefix("/") ? URL(fileURLWithPath: text) : URL(string: text)
    }

    public func dictionaryRepresentation() -> [String: Any] {
        var values = Self.registered.values()
        switch backing {
        case .suite(let suite):
            do { values.merge(try suite.dictionaryRepresentation()) { $1 } } catch { Self.report(error) }
        case .memory(let memory):
            values.merge(memory.values()) { $1 }
        }
        return values
    }

    // MARK: writing

    /// Sets `value` (a property list: string, number, boolean, date, data, array, dictionary), or removes the key
    /// when it is nil. Anything else is refused, said on stderr, and nothing is written (iOS raises).
    public func set(_ value: Any?, forKey key: String) {
        guard let value else { return removeObject(forKey: key) }
        switch backing {
        case .suite(let suite):
            do { try suite.set(value, forKey: key) } catch { Self.report(error) }
        case .memory(let memory):
            memory.set(value, forKey: key)
        }
    }

    public func set(_ value: Int, forKey key: String) { set(value as Any, forKey: key) }
    public func set(_ value: Double, forKey key: String) { set(value as Any, forKey: key) }
    public func set(_ value: Float, forKey key: String) { set(Double(value) as Any, forKey: key) }
    public func set(_ value: Bool, forKey key: String) { set(value as Any, forKey: key) }
    public func set(_ url: URL?, forKey key: String) { set(url.map { $0.isFileURL ? $0.path : $0.absoluteString } as Any?, forKey: key) }

    /// Key-value coding's names for `object(forKey:)` and `set(_:forKey:)` (NSObject's, which Foundation's
    /// `UserDefaults` answers with the same suite): code written against either reads and writes the same values.
    public func value(forKey key: String) -> Any? { object(forKey: key) }
    public func setValue(_ value: Any?, forKey key: String) { set(value, forKey: key) }

    public func removeObject(forKey key: String) {
        switch backing {
        case .suite(let suite):
            do { try suite.removeObject(forKey: key) } catch { Self.report(error) }
        case .memory(let memory):
            memory.set(nil, forKey: key)
        }
    }

    /// Values every suite answers for a key it does not hold (Foundation's registration domain: per process, not
    /// stored).
    public func register(defaults registrationDictionary: [String: Any]) {
        for (key, value) in registrationDictionary { Self.registered.set(value, forKey: key) }
    }

    /// Writes this process's pending changes to the shared store and reads it afresh: a flush point under realistic
    /// device timing (rule `defaults.device-flush`); under strict timing every write is there already when `set`
    /// returns, and this only folds the suite's journal. False when that failed (said on stderr).
    @discardableResult
    public func synchronize() -> Bool {
        guard case .suite(let suite) = backing else { return true }
        do { try suite.synchronize() } catch {
            Self.report(error)
            return false
        }
        return true
    }

    /// The registration domain: one per process, like Foundation's.
    private static let registered = MemorySuite()

    private static func report(_ error: any Error) { ProcessStop.tell(error) }
}

/// A suite kept in memory, for code that runs in no simulated process.
final class MemorySuite: @unchecked Sendable {  // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var stored: [String: Any] = [:]

    private static let suites = Mutex<[String: MemorySuite]>([:])

    static func named(_ name: String) -> MemorySuite {
        suites.withLock { suites in
            if let existing = suites[name] { return existing }
            let suite = MemorySuite()
            suites[name] = suite
            return suite
        }
    }

    func value(forKey key: String) -> Any? { lock.withLock { stored[key] } }
    func values() -> [String: Any] { lock.withLock { stored } }
    func set(_ value: Any?, forKey key: String) { lock.withLock { stored[key] = value } }
}
