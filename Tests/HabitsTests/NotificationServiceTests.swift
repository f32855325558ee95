import Foundation
import Testing
@testable import UserNotifications

/// RULES.md notification.service: the time limit, the expiry warning, and the original content when the service
/// delivers nothing.
@Suite("UserNotifications: the notification service extension's time limit")
struct NotificationServiceTests {
    final class Silent: UNNotificationServiceExtension, @unchecked Sendable {
        var warned = false
        override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {}
        override func serviceExtensionTimeWillExpire() { warned = true }
    }

    final class Twice: UNNotificationServiceExtension, @unchecked Sendable {
        override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
            let first = request.content.mutableCopy() as! UNMutableNotificationContent
            first.title = "first"
            contentHandler(first)
            first.title = "changed after delivery"
            contentHandler(first)
        }
    }

    @Test func aServiceThatDeliversNothingShowsTheOriginal() throws {
        let (request, mutable) = try NotificationServiceExtension.request(from: #"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "k": 1}"#)
        #expect(mutable && request.content.userInfo["k"] as? Int == 1)
        let silent = Silent()
        let shown = NotificationServiceExtension.serve(request, with: silent, timeout: 0.3)
        #expect(shown == "shown: T — B (the original content: the service extension did not deliver within 0.3 s)")
        #expect(silent.warned)
    }

    @Test func theFirstDeliveryWinsAndIsACopy() throws {
        let (request, _) = try NotificationServiceExtension.request(from: #"{"aps": {"alert": {"title": "T"}, "mutable-content": 1}}"#)
        #expect(NotificationServiceExtension.serve(request, with: Twice(), timeout: 5).hasPrefix("shown: first (from the service extension"))
        #expect(throws: NotificationError.self) { try NotificationServiceExtension.request(from: #"{"alert": "no aps"}"#) }
    }
}
