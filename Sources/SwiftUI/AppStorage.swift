import Foundation
import LockstepFoundation

/// A value kept in `UserDefaults` (`@AppStorage("key") var showsStreak = true`), as Apple's: the same
/// `UserDefaults` team code gets (LockstepFoundation's, the generated shim's `UserDefaults`), so
/// `@AppStorage("key", store: UserDefaults(suiteName: "group.x"))` in a widget reads what the app process wrote to the
/// App Group's suite, and a bundle not entitled to the group reads its own private fallback (rule `group.entitlement`,
/// `group.defaults-fallback`, `defaults.visibility`).
///
/// Every read goes to the store: a view is drawn from its body, and there is no live UI to invalidate, so the value a
/// body reads is the store's at that moment. A key that is absent, or holds a value of another type, reads as the
/// default, as Apple's does. Without `store:`, the store is `.defaultAppStorage(_:)`'s, else the process's
/// `UserDefaults.standard`.
@propertyWrapper
public struct AppStorage<Value>: DynamicProperty {
    /// How one value type is read from and written to a store: Apple's wrapper keeps each type in the property-list
    /// form `UserDefaults` itself uses for it.
    struct Coding {
        let read: (LockstepFoundation.UserDefaults, String) -> Value?
        let write: (LockstepFoundation.UserDefaults, String, Value) -> Void
    }

    let key: String
    let defaultValue: Value
    let chosenStore: LockstepFoundation.UserDefaults?
    let coding: Coding

    init(key: String, defaultValue: Value, store: LockstepFoundation.UserDefaults?, coding: Coding) {
        self.key = key
        self.defaultValue = defaultValue
        chosenStore = store
        self.coding = coding
    }

    /// The store read and written: the one given, else the environment's default, else the process's standard one.
    var store: LockstepFoundation.UserDefaults {
        chosenStore ?? CurrentEnvironment.values[DefaultAppStorageKey.self] ?? .standard
    }

    public var wrappedValue: Value {
        get { coding.read(store, key) ?? defaultValue }
        nonmutating set { coding.write(store, key, newValue) }
    }

    /// A binding that reads and writes the store (`Toggle("Streak", isOn: $showsStreak)`).
    public var projectedValue: Binding<Value> {
        let store = self.store, key = key, coding = coding, defaultValue = defaultValue
        return Binding(get: { coding.read(store, key) ?? defaultValue }, set: { coding.write(store, key, $0) })
    }
}

// MARK: - codings

extension AppStorage.Coding {
    /// A property-list value stored as itself: a stored value of another type reads as absent.
    static func plain<Stored>(_ type: Stored.Type, wrap: @escaping (Stored) -> Value, unwrap: @escaping (Value) -> Stored?) -> Self {
        Self(read: { store, key in (store.object(forKey: key) as? Stored).map(wrap) },
             write: { store, key, value in store.set(unwrap(value) as Any?, forKey: key) })
    }

    /// A URL, as `UserDefaults.set(_:forKey:)` and `url(forKey:)` keep it.
    static func url(wrap: @escaping (URL) -> Value, unwrap: @escaping (Value) -> URL?) -> Self {
        Self(read: { store, key in store.url(forKey: key).map(wrap) },
             write: { store, key, value in
                 guard let url = unwrap(value) else { return store.removeObject(forKey: key) }
                 store.set(url, forKey: key)
             })
    }

    /// A `RawRepresentable` stored as its raw value; a raw value no case has reads as absent.
    static func raw<R: RawRepresentable>(_ type: R.Type, wrap: @escaping (R) -> Value, unwrap: @escaping (Value) -> R?) -> Self {
        Self(read: { store, key in (store.object(forKey: key) as? R.RawValue).flatMap(R.init(rawValue:)).map(wrap) },
             write: { store, key, value in store.set(unwrap(value)?.rawValue as Any?, forKey: key) })
    }
}

/// A number a store holds as another kind of number (a `Double` written as 3.0 read as `Int`), as Foundation's
/// property lists do not tell them apart.
private func storedInteger(_ object: Any?) -> Int? {
    switch object {
    case let number as Int: number
    case let number as Double where number.rounded() == number && number.isFinite: Int(number)
    default: nil
    }
}

private func storedDouble(_ object: Any?) -> Double? {
    switch object {
    case let number as Double: number
    case let number as Int: Double(number)
    default: nil
    }
}

extension AppStorage.Coding {
    static func int(wrap: @escaping (Int) -> Value, unwrap: @escaping (Value) -> Int?) -> Self {
        Self(read: { store, key in storedInteger(store.object(forKey: key)).map(wrap) },
             write: { store, key, value in store.set(unwrap(value) as Any?, forKey: key) })
    }

    static func double(wrap: @escaping (Double) -> Value, unwrap: @escaping (Value) -> Double?) -> Self {
        Self(read: { store, key in storedDouble(store.object(forKey: key)).map(wrap) },
             write: { store, key, value in store.set(unwrap(value) as Any?, forKey: key) })
    }
}

// MARK: - Apple's initialisers

extension AppStorage {
    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Bool {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .plain(Bool.self, wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Int {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .int(wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Double {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .double(wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == String {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .plain(String.self, wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == URL {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .url(wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Data {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .plain(Data.self, wrap: { $0 }, unwrap: { $0 }))
    }

    /// iOS 18's.
    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Date {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .plain(Date.self, wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value: RawRepresentable, Value.RawValue == Int {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .raw(Value.self, wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value: RawRepresentable, Value.RawValue == String {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .raw(Value.self, wrap: { $0 }, unwrap: { $0 }))
    }
}

/// The optional forms: absent reads as nil (or the default given), and setting nil removes the key.
extension AppStorage where Value: ExpressibleByNilLiteral {
    public init(_ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Bool? {
        self.init(wrappedValue: nil, key, store: store)
    }

    public init(_ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Int? {
        self.init(wrappedValue: nil, key, store: store)
    }

    public init(_ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Double? {
        self.init(wrappedValue: nil, key, store: store)
    }

    public init(_ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == String? {
        self.init(wrappedValue: nil, key, store: store)
    }

    public init(_ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == URL? {
        self.init(wrappedValue: nil, key, store: store)
    }

    public init(_ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Data? {
        self.init(wrappedValue: nil, key, store: store)
    }

    public init(_ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Date? {
        self.init(wrappedValue: nil, key, store: store)
    }

    public init<R: RawRepresentable>(_ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == R?, R.RawValue == Int {
        self.init(wrappedValue: nil, key, store: store)
    }

    public init<R: RawRepresentable>(_ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == R?, R.RawValue == String {
        self.init(wrappedValue: nil, key, store: store)
    }

    // iOS 18's optional forms with a default.
    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Bool? {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .plain(Bool.self, wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Int? {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .int(wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Double? {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .double(wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == String? {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .plain(String.self, wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == URL? {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .url(wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Data? {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .plain(Data.self, wrap: { $0 }, unwrap: { $0 }))
    }

    public init(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == Date? {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .plain(Date.self, wrap: { $0 }, unwrap: { $0 }))
    }

    public init<R: RawRepresentable>(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == R?, R.RawValue == Int {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .raw(R.self, wrap: { $0 }, unwrap: { $0 }))
    }

    public init<R: RawRepresentable>(wrappedValue: Value, _ key: String, store: LockstepFoundation.UserDefaults? = nil) where Value == R?, R.RawValue == String {
        self.init(key: key, defaultValue: wrappedValue, store: store, coding: .raw(R.self, wrap: { $0 }, unwrap: { $0 }))
    }
}

// MARK: - the default store

/// The store `@AppStorage` without `store:` uses below a `.defaultAppStorage(_:)`.
private struct DefaultAppStorageKey: EnvironmentKey {
    static let defaultValue: LockstepFoundation.UserDefaults? = nil
}

nonisolated extension View {
    /// The store every `@AppStorage` without a `store:` in this view and its descendants reads and writes.
    public func defaultAppStorage(_ store: LockstepFoundation.UserDefaults) -> some View {
        environmentModifier { $0[DefaultAppStorageKey.self] = store }
    }
}

/// Per-scene UI state (`@SceneStorage("selectedTab") var tab = 0`): iOS keeps it to restore a scene's UI after the
/// system discards the scene. A headless app has one scene that is never restored, so the value lives in memory for
/// the view's life, as `@State`'s does — what a scene shows on first launch, which is all a headless run has. It takes
/// the types Apple's takes, so code that builds here builds for a device.
@propertyWrapper
public struct SceneStorage<Value>: DynamicProperty {
    let state: State<Value>

    init(value: Value) { state = State(wrappedValue: value) }

    public var wrappedValue: Value {
        get { state.wrappedValue }
        nonmutating set { state.wrappedValue = newValue }
    }

    public var projectedValue: Binding<Value> { state.projectedValue }

    public init(wrappedValue: Value, _ key: String) where Value == Bool { self.init(value: wrappedValue) }
    public init(wrappedValue: Value, _ key: String) where Value == Int { self.init(value: wrappedValue) }
    public init(wrappedValue: Value, _ key: String) where Value == Double { self.init(value: wrappedValue) }
    public init(wrappedValue: Value, _ key: String) where Value == String { self.init(value: wrappedValue) }
    public init(wrappedValue: Value, _ key: String) where Value == URL { self.init(value: wrappedValue) }
    public init(wrappedValue: Value, _ key: String) where Value == Data { self.init(value: wrappedValue) }
    public init(wrappedValue: Value, _ key: String) where Value: RawRepresentable, Value.RawValue == Int { self.init(value: wrappedValue) }
    public init(wrappedValue: Value, _ key: String) where Value: RawRepresentable, Value.RawValue == String { self.init(value: wrappedValue) }
}

extension SceneStorage where Value: ExpressibleByNilLiteral {
    public init(_ key: String) where Value == Bool? { self.init(value: nil) }
    public init(_ key: String) where Value == Int? { self.init(value: nil) }
    public init(_ key: String) where Value == Double? { self.init(value: nil) }
    public init(_ key: String) where Value == String? { self.init(value: nil) }
    public init(_ key: String) where Value == URL? { self.init(value: nil) }
    public init(_ key: String) where Value == Data? { self.init(value: nil) }
    public init<R: RawRepresentable>(_ key: String) where Value == R?, R.RawValue == Int { self.init(value: nil) }
    public init<R: RawRepresentable>(_ key: String) where Value == R?, R.RawValue == String { self.init(value: nil) }
}
