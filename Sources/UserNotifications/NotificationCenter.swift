import AppGroupKit
import Foundation
import LockstepRuntime
import LockstepSystem

// Apple's local-notification API: UNUserNotificationCenter with authorization, requests, triggers, categories,
// actions, sounds and attachments. What an app schedules is kept by the system, outside every container
// (`<groups>/<device>/.lockstep/notifications/<app id>/`), so every process of the app — and the system side —
// sees the same pending requests and categories.

/// `UNErrorDomain`'s codes.
public struct UNError: Error, CustomNSError, LocalizedError, Sendable, Equatable {
    public enum Code: Int, Sendable {
        case notificationsNotAllowed = 1
        case attachmentInvalidURL = 100
        case attachmentUnrecognizedType = 101
        case attachmentInvalidFileSize = 102
        case attachmentNotInDataStore = 103
        case attachmentMoveIntoDataStoreFailed = 104
        case attachmentCorrupt = 105
        case notificationInvalidNoDate = 1400
        case notificationInvalidNoContent = 1401
        case contentProvidingObjectNotAllowed = 1500
        case contentProvidingInvalid = 1501
    }

    public static let errorDomain = "UNErrorDomain"
    public static let notificationsNotAllowed = Code.notificationsNotAllowed
    public static let attachmentInvalidURL = Code.attachmentInvalidURL
    public static let attachmentUnrecognizedType = Code.attachmentUnrecognizedType
    public static let attachmentInvalidFileSize = Code.attachmentInvalidFileSize

    public let code: Code
    let sentence: String

    init(_ code: Code, _ sentence: String) {
        self.code = code
        self.sentence = sentence
    }

    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: sentence] }
    public var errorDescription: String? { sentence }

    public static func == (lhs: UNError, rhs: UNError) -> Bool { lhs.code == rhs.code }
}

/// What an app asks to be allowed.
public struct UNAuthorizationOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
    public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
    public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
    public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
}

public enum UNAuthorizationStatus: Int, Sendable {
    case notDetermined = 0, denied, authorized, provisional, ephemeral
}

public enum UNNotificationSetting: Int, Sendable {
    case notSupported = 0, disabled, enabled
}

public enum UNAlertStyle: Int, Sendable {
    case none = 0, banner, alert
}

public enum UNShowPreviewsSetting: Int, Sendable {
    case always = 0, whenAuthenticated, never
}

public enum UNNotificationInterruptionLevel: UInt, Sendable {
    case passive = 0, active, timeSensitive, critical
}

/// The app's notification settings.
open class UNNotificationSettings: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    public let authorizationStatus: UNAuthorizationStatus
    public let soundSetting: UNNotificationSetting
    public let badgeSetting: UNNotificationSetting
    public let alertSetting: UNNotificationSetting
    public let notificationCenterSetting: UNNotificationSetting
    public let lockScreenSetting: UNNotificationSetting
    public let carPlaySetting: UNNotificationSetting
    public let criticalAlertSetting: UNNotificationSetting
    public let announcementSetting: UNNotificationSetting
    public let timeSensitiveSetting: UNNotificationSetting
    public let scheduledDeliverySetting: UNNotificationSetting
    public let directMessagesSetting: UNNotificationSetting
    public let alertStyle: UNAlertStyle
    public let showPreviewsSetting: UNShowPreviewsSetting
    public let providesAppNotificationSettings: Bool

    init(status: UNAuthorizationStatus, options: UNAuthorizationOptions) {
        authorizationStatus = status
        let allowed = status == .authorized || status == .provisional
        func setting(_ option: UNAuthorizationOptions) -> UNNotificationSetting { allowed && options.contains(option) ? .enabled : .disabled }
        soundSetting = setting(.sound)
        badgeSetting = setting(.badge)
        alertSetting = setting(.alert)
        notificationCenterSetting = allowed ? .enabled : .disabled
        lockScreenSetting = allowed ? .enabled : .disabled
        carPlaySetting = setting(.carPlay)
        criticalAlertSetting = setting(.criticalAlert)
        announcementSetting = .notSupported
        timeSensitiveSetting = allowed ? .enabled : .disabled
        scheduledDeliverySetting = .disabled
        directMessagesSetting = .notSupported
        alertStyle = allowed && options.contains(.alert) ? .banner : .none
        showPreviewsSetting = .always
        providesAppNotificationSettings = options.contains(.providesAppNotificationSettings)
    }
}

/// A notification's sound.
public struct UNNotificationSoundName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
}

open class UNNotificationSound: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    /// The sound's file name, or nil for the default sound.
    let name: String?
    let critical: Bool

    init(name: String?, critical: Bool) {
        self.name = name
        self.critical = critical
    }

    public class var `default`: UNNotificationSound { UNNotificationSound(name: nil, critical: false) }
    public class var defaultCritical: UNNotificationSound { UNNotificationSound(name: nil, critical: true) }
    public class func defaultCriticalSound(withAudioVolume volume: Float) -> UNNotificationSound { defaultCritical }
    public convenience init(named name: UNNotificationSoundName) { self.init(name: name.rawValue, critical: false) }
    public class func criticalSoundNamed(_ name: UNNotificationSoundName) -> UNNotificationSound {
        UNNotificationSound(name: name.rawValue, critical: true)
    }
    public class func criticalSoundNamed(_ name: UNNotificationSoundName, withAudioVolume volume: Float) -> UNNotificationSound {
        criticalSoundNamed(name)
    }
}

/// A file shown with a notification. As on iOS, making one checks the file at once: a file URL to a readable file
/// inside the process's own containers (its container — its temporary folder is there, as on iOS — or an App Group it
/// is entitled to), of a type the system shows and within its size limit (images 10 MB, audio 5 MB, video 50 MB);
/// otherwise it throws.
open class UNNotificationAttachment: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    public let identifier: String
    public let url: URL
    public let type: String

    static let kinds: [(type: String, limit: Int, extensions: Set<String>)] = [
        ("public.image", 10_000_000, ["jpg", "jpeg", "png", "gif", "heic", "webp"]),
        ("public.audio", 5_000_000, ["aif", "aiff", "wav", "mp3", "m4a", "caf"]),
        ("public.movie", 50_000_000, ["mpg", "mpeg", "mp4", "m4v", "mov", "avi"]),
    ]

    public init(identifier: String, url URL: URL, options: [AnyHashable: Any]? = nil) throws {
        guard URL.isFileURL else {
            throw UNError(.attachmentInvalidURL, "The attachment URL \(URL.absoluteString) is not a file URL.")
        }
        let path = URL.standardizedFileURL.path
        if let sandbox = try? SimulatedProcess.current?.sandbox() {
            var roots = [sandbox.privateContainerPath]
            for group in sandbox.identity.appGroups { if let container = try? sandbox.groupContainer(group) { roots.append(container.path) } }
            let inside = roots.contains { root in
                let folder = root.hasSuffix("/") ? root : root + "/"
                return path.hasPrefix(folder)
            }
            guard inside else {
                throw UNError(.attachmentInvalidURL, "The attachment \(path) is outside \(sandbox.identity.bundleIdentifier)'s containers; a notification's attachment must be a file the extension can read in its own sandbox.")
            }
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular, FileManager.default.isReadableFile(atPath: path) else {
            throw UNError(.attachmentInvalidURL, "The attachment file \(path) does not exist or cannot be read.")
        }
        let typeHint = options?["UNNotificationAttachmentOptionsTypeHintKey"] as? String
        let fileExtension = URL.pathExtension.lowercased()
        guard let kind = Self.kinds.first(where: { $0.type == typeHint || $0.extensions.contains(fileExtension) }) else {
            throw UNError(.attachmentUnrecognizedType, "The attachment \(URL.lastPathComponent) is of a type notifications do not show (images, audio and video only).")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= kind.limit else {
            throw UNError(.attachmentInvalidFileSize, "The attachment \(URL.lastPathComponent) is \(size) bytes; a notification's \(kind.type) attachment may be \(kind.limit) bytes at most.")
        }
        self.identifier = identifier
        self.url = URL
        self.type = kind.type
    }
}

public let UNNotificationAttachmentOptionsTypeHintKey = "UNNotificationAttachmentOptionsTypeHintKey"

// MARK: triggers

open class UNNotificationTrigger: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    public let repeats: Bool
    init(repeats: Bool) { self.repeats = repeats }
    /// How the system's store writes it.
    var record: [String: Any] { ["repeats": repeats] }
}

open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    public let timeInterval: TimeInterval

    /// iOS raises an exception for an interval that is not positive, or under 60 s when repeating.
    public init(timeInterval: TimeInterval, repeats: Bool) {
        precondition(timeInterval > 0, "UNTimeIntervalNotificationTrigger: time interval must be greater than 0")
        precondition(!repeats || timeInterval >= 60, "UNTimeIntervalNotificationTrigger: time interval must be at least 60 if repeating")
        self.timeInterval = timeInterval
        super.init(repeats: repeats)
    }

    public func nextTriggerDate() -> Date? { Date().addingTimeInterval(timeInterval) }
    override var record: [String: Any] { ["repeats": repeats, "timeInterval": timeInterval] }
}

open class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    public let dateComponents: DateComponents

    public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
        self.dateComponents = dateComponents
        super.init(repeats: repeats)
    }

    public func nextTriggerDate() -> Date? {
        Calendar.current.nextDate(after: Date(), matching: dateComponents, matchingPolicy: .nextTime)
    }

    override var record: [String: Any] {
        var components: [String: Int] = [:]
        for (key, value) in [("year", dateComponents.year), ("month", dateComponents.month), ("day", dateComponents.day),
                             ("hour", dateComponents.hour), ("minute", dateComponents.minute), ("second", dateComponents.second),
                             ("weekday", dateComponents.weekday)] {
            if let value { components[key] = value }
        }
        return ["repeats": repeats, "dateMatching": components]
    }
}

/// A push notification's trigger (the app never makes one).
open class UNPushNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {}

// MARK: categories and actions

public struct UNNotificationActionOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
    public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
    public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)
}

public struct UNNotificationCategoryOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
    public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)
    public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)
    public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)
    public static let allowAnnouncement = UNNotificationCategoryOptions(rawValue: 1 << 4)
}

/// An action's icon (iOS 15).
open class UNNotificationActionIcon: NSObject, @unchecked Sendable {
    let name: String
    init(name: String) { self.name = name }
    public convenience init(systemImageName: String) { self.init(name: systemImageName) }
    public convenience init(templateImageName: String) { self.init(name: templateImageName) }
}

open class UNNotificationAction: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    public let identifier: String
    public let title: String
    public let options: UNNotificationActionOptions
    public let icon: UNNotificationActionIcon?

    public init(identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon? = nil) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.icon = icon
    }

    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.init(identifier: identifier, title: title, options: options, icon: nil)
    }
}

open class UNTextInputNotificationAction: UNNotificationAction, @unchecked Sendable {
    public let textInputButtonTitle: String
    public let textInputPlaceholder: String

    public init(identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon? = nil,
                textInputButtonTitle: String, textInputPlaceholder: String) {
        self.textInputButtonTitle = textInputButtonTitle
        self.textInputPlaceholder = textInputPlaceholder
        super.init(identifier: identifier, title: title, options: options, icon: icon)
    }

    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = [],
                            textInputButtonTitle: String, textInputPlaceholder: String) {
        self.init(identifier: identifier, title: title, options: options, icon: nil,
                  textInputButtonTitle: textInputButtonTitle, textInputPlaceholder: textInputPlaceholder)
    }
}

open class UNNotificationCategory: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    public let identifier: String
    public let actions: [UNNotificationAction]
    public let intentIdentifiers: [String]
    public let options: UNNotificationCategoryOptions
    public let hiddenPreviewsBodyPlaceholder: String?

    public init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
                hiddenPreviewsBodyPlaceholder: String? = nil, categorySummaryFormat: String? = nil,
                options: UNNotificationCategoryOptions = []) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.options = options
    }

    public convenience init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
                            options: UNNotificationCategoryOptions = []) {
        self.init(identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
                  hiddenPreviewsBodyPlaceholder: nil, categorySummaryFormat: nil, options: options)
    }

    open override var hash: Int { identifier.hashValue }
    open override func isEqual(_ object: Any?) -> Bool { (object as? UNNotificationCategory)?.identifier == identifier }
}

// MARK: the center

/// What the app shows while in the foreground, and how it learns of the person's response.
public protocol UNUserNotificationCenterDelegate: AnyObject {
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void)
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                withCompletionHandler completionHandler: @escaping () -> Void)
    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?)
}

extension UNUserNotificationCenterDelegate {
    public func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                       withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) {
        completionHandler([])
    }
    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                       withCompletionHandler completionHandler: @escaping () -> Void) {
        completionHandler()
    }
    public func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?) {}
}

public struct UNNotificationPresentationOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
    public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)
}

open class UNNotification: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    public let date: Date
    public let request: UNNotificationRequest
    public init(date: Date, request: UNNotificationRequest) {
        self.date = date
        self.request = request
    }
}

open class UNNotificationResponse: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    public let notification: UNNotification
    public let actionIdentifier: String
    public init(notification: UNNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
    }
}

public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
public let UNNotificationDismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

/// The app's notification center: `UNUserNotificationCenter.current()`. Authorization is granted when asked
/// (the person taps Allow), unless `LOCKSTEP_NOTIFICATIONS=off` plays the Settings switch; requests and categories go
/// to the system's store of the app, which every process of the app shares. Outside a simulated process, nothing
/// is allowed (`UNError.notificationsNotAllowed`).
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {  // @unchecked: state is in the store, under its lock.
    /// Not retained, as Apple's.
    open weak var delegate: (any UNUserNotificationCenterDelegate)?

    private static let shared = UNUserNotificationCenter()
    public class func current() -> UNUserNotificationCenter { shared }

    /// Apple's "notifications are supported" check: true on the phone and watch.
    open var supportsContentExtensions: Bool { true }

    // MARK: authorization

    open func requestAuthorization(options: UNAuthorizationOptions = [], completionHandler: @escaping (Bool, (any Error)?) -> Void) {
        do { completionHandler(try authorize(options), nil) } catch { completionHandler(false, error) }
    }

    open func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
        try authorize(options)
    }

    open func getNotificationSettings(completionHandler: @escaping (UNNotificationSettings) -> Void) {
        completionHandler(settings())
    }

    open func notificationSettings() async -> UNNotificationSettings { settings() }

    // MARK: requests

    open func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (((any Error)?) -> Void)? = nil) {
        do { try schedule(request); completionHandler?(nil) } catch { completionHandler?(error) }
    }

    open func add(_ request: UNNotificationRequest) async throws { try schedule(request) }

    open func getPendingNotificationRequests(completionHandler: @escaping ([UNNotificationRequest]) -> Void) {
        completionHandler(pending())
    }

    open func pendingNotificationRequests() async -> [UNNotificationRequest] { pending() }

    open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        update { $0.pending.removeAll { identifiers.contains($0["identifier"] as? String ?? "") } }
    }

    open func removeAllPendingNotificationRequests() { update { $0.pending.removeAll() } }

    /// Delivered notifications are not kept: the list is empty.
    open func getDeliveredNotifications(completionHandler: @escaping ([UNNotification]) -> Void) { completionHandler([]) }
    open func deliveredNotifications() async -> [UNNotification] { [] }
    open func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {}
    open func removeAllDeliveredNotifications() {}

    // MARK: categories

    open func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        update { state in
            state.categories = categories.sorted { $0.identifier < $1.identifier }.map { category in
                ["identifier": category.identifier,
                 "actions": category.actions.map { ["identifier": $0.identifier, "title": $0.title, "options": Int($0.options.rawValue)] },
                 "intentIdentifiers": category.intentIdentifiers, "options": Int(category.options.rawValue)] as [String: Any]
            }
        }
    }

    open func getNotificationCategories(completionHandler: @escaping (Set<UNNotificationCategory>) -> Void) {
        completionHandler(categories())
    }

    open func notificationCategories() async -> Set<UNNotificationCategory> { categories() }

    open func setBadgeCount(_ newBadgeCount: Int, withCompletionHandler completionHandler: (((any Error)?) -> Void)? = nil) {
        update { $0.badge = newBadgeCount }
        completionHandler?(nil)
    }

    open func setBadgeCount(_ newBadgeCount: Int) async throws { update { $0.badge = newBadgeCount } }

    // MARK: the system's store

    private func authorize(_ options: UNAuthorizationOptions) throws -> Bool {
        guard let store = NotificationStore.current() else {
            throw UNError(.notificationsNotAllowed, "Notifications are not allowed: this code runs in no simulated process.")
        }
        let allowed = ProcessEnvironment.value("LOCKSTEP_NOTIFICATIONS") != "off"
        try store.update { state in
            state.status = allowed ? .authorized : .denied
            state.options = state.options.union(options)
        }
        return allowed
    }

    private func settings() -> UNNotificationSettings {
        guard let state = try? NotificationStore.current()?.read() else { return UNNotificationSettings(status: .notDetermined, options: []) }
        let status = ProcessEnvironment.value("LOCKSTEP_NOTIFICATIONS") == "off" && state.status == .authorized ? .denied : state.status
        return UNNotificationSettings(status: status, options: state.options)
    }

    private func schedule(_ request: UNNotificationRequest) throws {
        guard let store = NotificationStore.current() else {
            throw UNError(.notificationsNotAllowed, "Notifications are not allowed: this code runs in no simulated process.")
        }
        // A request is kept even before authorization, as iOS keeps it; it is shown only once the app is allowed.
        try store.update { state in
            state.pending.removeAll { $0["identifier"] as? String == request.identifier }
            state.pending.append(NotificationStore.record(request))
        }
    }

    private func pending() -> [UNNotificationRequest] {
        ((try? NotificationStore.current()?.read())?.pending ?? []).map(NotificationStore.request)
    }

    private func categories() -> Set<UNNotificationCategory> {
        let records = (try? NotificationStore.current()?.read())?.categories ?? []
        return Set(records.map { record in
            let actions = (record["actions"] as? [[String: Any]] ?? []).map {
                UNNotificationAction(identifier: $0["identifier"] as? String ?? "", title: $0["title"] as? String ?? "",
                                     options: UNNotificationActionOptions(rawValue: UInt($0["options"] as? Int ?? 0)))
            }
            return UNNotificationCategory(identifier: record["identifier"] as? String ?? "", actions: actions,
                                          intentIdentifiers: record["intentIdentifiers"] as? [String] ?? [],
                                          options: UNNotificationCategoryOptions(rawValue: UInt(record["options"] as? Int ?? 0)))
        })
    }

    private func update(_ change: (inout NotificationStore.State) -> Void) {
        do { try NotificationStore.current()?.update(change) } catch { ProcessStop.tell(error) }
    }
}

/// The system's notification state of one app: `<groups>/<device>/.lockstep/notifications/<app id>/state.json`,
/// replaced atomically under `state.lock`.
public struct NotificationStore: Sendable {
    public let directory: String

    struct State {
        var status = UNAuthorizationStatus.notDetermined
        var options: UNAuthorizationOptions = []
        var pending: [[String: Any]] = []
        var categories: [[String: Any]] = []
        var badge = 0
    }

    public init(groupsRoot: String, device: Device, appBundleIdentifier: String) {
        directory = "\(GroupsLayout(root: groupsRoot).device(device))/.lockstep/notifications/\(appBundleIdentifier)"
    }

    /// The store of the app this process belongs to (its device's: the watch app's own on the watch).
    static func current() -> NotificationStore? {
        guard let process = SimulatedProcess.current else { return nil }
        let device = process.bundle.device
        let app = device == .watch ? process.bundle : process.manifest.app
        return NotificationStore(groupsRoot: process.groupsRoot, device: device, appBundleIdentifier: app.bundleIdentifier ?? app.name)
    }

    var statePath: String { "\(directory)/state.json" }

    /// The identifiers and shown text of the pending requests, for the system side and tests.
    public func pendingSummary() throws -> [String] {
        try read().pending.map { record in
            let request = Self.request(record)
            return "\(request.identifier): \(request.content.shownText)"
        }
    }

    func read() throws -> State {
        var state = State()
        guard let bytes = try AtomicFile.read(statePath),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return state }
        state.status = UNAuthorizationStatus(rawValue: object["status"] as? Int ?? 0) ?? .notDetermined
        state.options = UNAuthorizationOptions(rawValue: UInt(object["options"] as? Int ?? 0))
        state.pending = object["pending"] as? [[String: Any]] ?? []
        state.categories = object["categories"] as? [[String: Any]] ?? []
        state.badge = object["badge"] as? Int ?? 0
        return state
    }

    func update(_ change: (inout State) -> Void) throws {
        try AtomicFile.createDirectories(directory)
        try SharedWriteGate.check()
        try FileLock(path: "\(directory)/state.lock").withLock {
            var state = try read()
            change(&state)
            let object: [String: Any] = ["status": state.status.rawValue, "options": Int(state.options.rawValue),
                                         "pending": state.pending, "categories": state.categories, "badge": state.badge]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            try AtomicFile.write(Array(data) + [0x0A], to: statePath)
        }
    }

    static func record(_ request: UNNotificationRequest) -> [String: Any] {
        let content = request.content
        var record: [String: Any] = ["identifier": request.identifier, "title": content.title, "subtitle": content.subtitle,
                                     "body": content.body, "threadIdentifier": content.threadIdentifier,
                                     "categoryIdentifier": content.categoryIdentifier]
        if let badge = content.badge { record["badge"] = badge.intValue }
        if let sound = content.sound { record["sound"] = sound.name ?? "default" }
        if JSONSerialization.isValidJSONObject(content.userInfo.reduce(into: [String: Any]()) { $0["\($1.key)"] = $1.value }) {
            record["userInfo"] = content.userInfo.reduce(into: [String: Any]()) { $0["\($1.key)"] = $1.value }
        }
        if let trigger = request.trigger {
            var triggerRecord = trigger.record
            triggerRecord["kind"] = String(describing: type(of: trigger))
            record["trigger"] = triggerRecord
        }
        return record
    }

    static func request(_ record: [String: Any]) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = record["title"] as? String ?? ""
        content.subtitle = record["subtitle"] as? String ?? ""
        content.body = record["body"] as? String ?? ""
        content.threadIdentifier = record["threadIdentifier"] as? String ?? ""
        content.categoryIdentifier = record["categoryIdentifier"] as? String ?? ""
        content.badge = (record["badge"] as? Int).map { NSNumber(value: $0) }
        if let sound = record["sound"] as? String { content.sound = sound == "default" ? .default : UNNotificationSound(named: UNNotificationSoundName(sound)) }
        content.userInfo = (record["userInfo"] as? [String: Any]) ?? [:]
        var trigger: UNNotificationTrigger?
        if let triggerRecord = record["trigger"] as? [String: Any] {
            let repeats = triggerRecord["repeats"] as? Bool ?? false
            if let interval = triggerRecord["timeInterval"] as? Double {
                // A record another process wrote: one the initializer would refuse (it traps, as iOS's throws an
                // exception) is left without its trigger rather than ending every process that lists it.
                if interval > 0, !repeats || interval >= 60 {
                    trigger = UNTimeIntervalNotificationTrigger(timeInterval: interval, repeats: repeats)
                }
            } else if let components = triggerRecord["dateMatching"] as? [String: Int] {
                var date = DateComponents()
                date.year = components["year"]; date.month = components["month"]; date.day = components["day"]
                date.hour = components["hour"]; date.minute = components["minute"]; date.second = components["second"]
                date.weekday = components["weekday"]
                trigger = UNCalendarNotificationTrigger(dateMatching: date, repeats: repeats)
            }
        }
        return UNNotificationRequest(identifier: record["identifier"] as? String ?? "", content: content, trigger: trigger)
    }
}
