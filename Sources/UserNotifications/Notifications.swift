import Foundation

/// What a notification shows (Apple's `UNNotificationContent`), made from a push payload's `aps.alert`.
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {  // @unchecked: immutable.
    public internal(set) var title = ""
    public internal(set) var subtitle = ""
    public internal(set) var body = ""
    public internal(set) var badge: NSNumber?
    public internal(set) var threadIdentifier = ""
    public internal(set) var categoryIdentifier = ""
    /// The payload's keys outside `aps`.
    public internal(set) var userInfo: [AnyHashable: Any] = [:]

    public override init() {}

    public func copy(with zone: NSZone? = nil) -> Any { copied(into: UNNotificationContent()) }
    public func mutableCopy(with zone: NSZone? = nil) -> Any { copied(into: UNMutableNotificationContent()) }

    func copied<Content: UNNotificationContent>(into content: Content) -> Content {
        content.title = title
        content.subtitle = subtitle
        content.body = body
        content.badge = badge
        content.threadIdentifier = threadIdentifier
        content.categoryIdentifier = categoryIdentifier
        content.userInfo = userInfo
        return content
    }

    /// One line, as Lockstep prints what the device shows.
    public var shownText: String {
        [title, subtitle, body].filter { !$0.isEmpty }.joined(separator: " — ")
    }
}

/// Content a notification service extension changes (Apple's `UNMutableNotificationContent`).
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {  // @unchecked: used by one extension at a time.
    public override var title: String { get { super.title } set { super.title = newValue } }
    public override var subtitle: String { get { super.subtitle } set { super.subtitle = newValue } }
    public override var body: String { get { super.body } set { super.body = newValue } }
    public override var badge: NSNumber? { get { super.badge } set { super.badge = newValue } }
    public override var threadIdentifier: String { get { super.threadIdentifier } set { super.threadIdentifier = newValue } }
    public override var categoryIdentifier: String { get { super.categoryIdentifier } set { super.categoryIdentifier = newValue } }
    public override var userInfo: [AnyHashable: Any] { get { super.userInfo } set { super.userInfo = newValue } }
}

/// A notification the system is about to show (Apple's `UNNotificationRequest`).
open class UNNotificationRequest: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    public let identifier: String
    public let content: UNNotificationContent

    public init(identifier: String, content: UNNotificationContent) {
        self.identifier = identifier
        self.content = content
    }
}

/// A notification service extension (Apple's `UNNotificationServiceExtension`): subclass it, override
/// `didReceive(_:withContentHandler:)`, and call the handler with the content to show — within the time limit, or
/// the original content is shown (RULES.md `notification.service`).
open class UNNotificationServiceExtension: NSObject {
    /// Required, as the system makes the extension's principal class itself.
    public required override init() {}

    open func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        contentHandler(request.content)
    }

    /// Called shortly before the time limit: deliver the best content so far.
    open func serviceExtensionTimeWillExpire() {}
}
