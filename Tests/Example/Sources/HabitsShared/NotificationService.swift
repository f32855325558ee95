import Foundation
#if canImport(UserNotifications)
import UserNotifications

/// The notification service extension: it adds how many habits are left today (read from the App Group) to a
/// reminder, as an iOS team writes one.
public class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    public override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        guard let bestAttemptContent else { return contentHandler(request.content) }
        let left = HabitsStore.shared.habits.filter { !$0.isDone }.count
        bestAttemptContent.body += " (\(left) left today)"
        // A payload asking for slow work (an attachment to download, say) leaves the rest to the time limit.
        if request.content.userInfo["slow"] as? Bool == true { return }
        contentHandler(bestAttemptContent)
    }

    public override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent {
            bestAttemptContent.title += " (partial)"
            contentHandler(bestAttemptContent)
        }
    }
}
#endif
