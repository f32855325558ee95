import Foundation
import Testing
@testable import UserNotifications

/// rule `notification.service`: the time limit, the expiry warning, and the original content when the service
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

    /// Written as for iOS: `override init()`, an attachment and a sound.
    final class Decorating: UNNotificationServiceExtension, @unchecked Sendable {
        let image: URL
        var made = false
        init(image: URL) {
            self.image = image
            super.init()
        }
        override init() {
            image = URL(fileURLWithPath: "/nonexistent.png")
            super.init()
            made = true
        }
        override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
            let content = request.content.mutableCopy() as! UNMutableNotificationContent
            content.sound = .default
            if let attachment = try? UNNotificationAttachment(identifier: "image", url: image, options: nil) {
                content.attachments = [attachment]
            }
            contentHandler(content)
        }
    }

    @Test func attachmentsAreCheckedWhenMadeAndShown() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("un-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = folder.appendingPathComponent("walk.png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: image)
        let (request, _) = try NotificationServiceExtension.request(from: #"{"aps": {"alert": {"title": "T"}, "mutable-content": 1}}"#)
        #expect(NotificationServiceExtension.serve(request, with: Decorating(image: image), timeout: 5)
            .hasPrefix("shown: T [attachment walk.png] (from the service extension"))
        #expect(Decorating().made)
        // As on iOS: a missing file, a type notifications do not show, a URL that is not a file's: the init throws.
        #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "x", url: folder.appendingPathComponent("gone.png")) }
        let text = folder.appendingPathComponent("notes.txt")
        try Data("x".utf8).write(to: text)
        do {
            _ = try UNNotificationAttachment(identifier: "x", url: text)
            Issue.record("a text file was accepted")
        } catch let error as UNError {
            #expect(error.code == .attachmentUnrecognizedType && (error as NSError).domain == UNError.errorDomain)
        }
        #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "x", url: URL(string: "https://example.com/a.png")!) }
        #expect(UNNotificationSound(named: UNNotificationSoundName("chime.caf")).name == "chime.caf" && UNNotificationSound.default.name == nil)
    }

    @Test func outsideASimulatedProcessNothingIsAllowed() async throws {
        let center = UNUserNotificationCenter.current()
        await #expect(throws: UNError.self) { try await center.requestAuthorization(options: [.alert, .sound]) }
        let content = UNMutableNotificationContent()
        content.title = "T"
        await #expect(throws: UNError.self) {
            try await center.add(UNNotificationRequest(identifier: "a", content: content,
                                                       trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)))
        }
        #expect(await center.pendingNotificationRequests().isEmpty)
    }
}
