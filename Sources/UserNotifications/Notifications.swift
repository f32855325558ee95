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
    /// Files shown with the notification (each validated when made: `UNNotificationAttachment`).
    public internal(set) var attachments: [UNNotificationAttachment] = []
    public internal(set) var sound: UNNotificationSound?
    public internal(set) var launchImageName = ""
    public internal(set) var targetContentIdentifier: String?
    public internal(set) var relevanceScore: Double = 0
    public internal(set) var interruptionLevel: UNNotificationInterruptionLevel = .active
    public internal(set) var summaryArgument = ""
    public internal(set) var summaryArgumentCount = 0
    /// The sender and conversation, for content updated from a message intent (`updating(from:)`).
    var communication: CommunicationContext?

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
        content.attachments = attachments
        content.sound = sound
        content.launchImageName = launchImageName
        content.targetContentIdentifier = targetContentIdentifier
        content.relevanceScore = relevanceScore
        content.interruptionLevel = interruptionLevel
        content.summaryArgument = summaryArgument
        content.summaryArgumentCount = summaryArgumentCount
        content.communication = communication
        return content
    }

    /// One line, as Lockstep prints what the device shows: a communication notification's sender and avatar, and
    /// the attachments, in brackets.
    public var shownText: String {
        let text = [title, subtitle, body].filter { !$0.isEmpty }.joined(separator: " — ")
        let notes = (communication.map { [$0.shownText] } ?? []) + attachments.map { "attachment \($0.url.lastPathComponent)" }
        return notes.isEmpty ? text : text + " [" + notes.joined(separator: "; ") + "]"
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
    public override var attachments: [UNNotificationAttachment] { get { super.attachments } set { super.attachments = newValue } }
    public override var sound: UNNotificationSound? { get { super.sound } set { super.sound = newValue } }
    public override var launchImageName: String { get { super.launchImageName } set { super.launchImageName = newValue } }
    public override var targetContentIdentifier: String? { get { super.targetContentIdentifier } set { super.targetContentIdentifier = newValue } }
    public override var relevanceScore: Double { get { super.relevanceScore } set { super.relevanceScore = newValue } }
    public override var interruptionLevel: UNNotificationInterruptionLevel { get { super.interruptionLevel } set { super.interruptionLevel = newValue } }
    public override var summaryArgument: String { get { super.summaryArgument } set { super.summaryArgument = newValue } }
    public override var summaryArgumentCount: Int { get { super.summaryArgumentCount } set { super.summaryArgumentCount = newValue } }
}

/// A notification the system is about to show (Apple's `UNNotificationRequest`).
open class UNNotificationRequest: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    public let identifier: String
    public let content: UNNotificationContent
    /// When a local notification is delivered; nil for a push and for "now".
    public let trigger: UNNotificationTrigger?

    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        self.content = content.copy() as! UNNotificationContent
        self.trigger = trigger
    }

    public convenience init(identifier: String, content: UNNotificationContent) {
        self.init(identifier: identifier, content: content, trigger: nil)
    }
}

/// A notification service extension (Apple's `UNNotificationServiceExtension`): subclass it, override
/// `didReceive(_:withContentHandler:)`, and call the handler with the content to show — within the time limit, or
/// the original content is shown (rule `notification.service`).
open class UNNotificationServiceExtension: NSObject {
    /// Not `required`, as in Apple's declaration: a subclass may write `override init()`. The host is handed an
    /// instance (`NotificationServiceExtension.main(service: NotificationService())`).
    public override init() {}

    open func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        contentHandler(request.content)
    }

    /// Called shortly before the time limit: deliver the best content so far.
    open func serviceExtensionTimeWillExpire() {}
}
