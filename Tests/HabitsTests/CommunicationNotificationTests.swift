import Foundation
import Intents
import LockstepTestSupport
import Testing
@testable import UserNotifications

/// Communication notifications and attachments from the network (issue 45, item 4): a service extension's content
/// updated from an `INSendMessageIntent` shows the sender as iOS does; an `http(s)://` attachment is fetched, and
/// refused while the simulated device is offline.
@Suite("UserNotifications: communication notifications and fetched attachments")
struct CommunicationNotificationTests {
    static func person(_ name: String, handle: String, image: INImage? = nil) -> INPerson {
        INPerson(personHandle: INPersonHandle(value: handle, type: .emailAddress), nameComponents: nil, displayName: name, image: image,
                 contactIdentifier: nil, customIdentifier: handle, isMe: false, suggestionType: .none)
    }

    static func content(title: String, body: String) -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = body
        return content
    }

    @Test func aMessageShowsItsSenderAndAvatar() throws {
        let message = INSendMessageIntent(recipients: nil, outgoingMessageType: .outgoingMessageText, content: "See you at 6",
                                          speakableGroupName: nil, conversationIdentifier: "c1", serviceName: nil,
                                          sender: Self.person("Ana", handle: "ana@example.com", image: INImage(named: "ana.png")), attachments: nil)
        let updated = try Self.content(title: "Chat", body: "See you at 6").updating(from: message)
        #expect(updated.title == "Ana" && updated.body == "See you at 6")
        #expect(updated.shownText == "Ana — See you at 6 [message from Ana <ana@example.com>, avatar ana.png]")
        // The result is content, not mutable content; a copy keeps the sender.
        #expect(!(updated is UNMutableNotificationContent))
        #expect((updated.mutableCopy() as! UNNotificationContent).shownText == updated.shownText)
    }

    @Test func aGroupMessageShowsTheGroupAndTheSender() throws {
        let message = INSendMessageIntent(recipients: [Self.person("Me", handle: "me@example.com")], outgoingMessageType: .outgoingMessageText,
                                          content: "Summit!", speakableGroupName: INSpeakableString(spokenPhrase: "Climbers"),
                                          conversationIdentifier: "g1", serviceName: nil, sender: Self.person("Bo", handle: "bo@example.com"),
                                          attachments: nil)
        message.setImage(INImage(imageData: Data([1, 2, 3])), forParameterNamed: "speakableGroupName")
        let updated = try Self.content(title: "Chat", body: "Summit!").updating(from: message)
        #expect(updated.title == "Climbers" && updated.subtitle == "Bo")
        #expect(updated.shownText.hasSuffix("[message from Bo <bo@example.com> in Climbers, avatar image data (3 bytes)]"), "\(updated.shownText)")
    }

    /// iOS's errors: a message without a sender, and a provider that is no message intent.
    @Test func aMessageWithoutASenderIsRefused() {
        let anonymous = INSendMessageIntent(recipients: nil, outgoingMessageType: .outgoingMessageText, content: "Hi", speakableGroupName: nil,
                                            conversationIdentifier: nil, serviceName: nil, sender: nil, attachments: nil)
        #expect { try Self.content(title: "T", body: "B").updating(from: anonymous) } throws: { error in
            (error as? UNError)?.code == .contentProvidingInvalid && error.localizedDescription.contains("has no sender")
        }
        final class Other: NSObject, UNNotificationContentProviding {}
        #expect { try Self.content(title: "T", body: "B").updating(from: Other()) } throws: { error in
            (error as? UNError)?.code == .contentProvidingObjectNotAllowed
        }
    }

    /// Across processes: a loopback HTTP server (a process) serves the image; the Habits notification service (another
    /// process) turns a friend's cheer into a message from that friend and attaches the image it fetched, as a device
    /// does; offline (`LOCKSTEP_OFFLINE=1`) it fetches nothing and shows the notification without the image.
    @Test func theServiceFetchesTheAttachmentAndShowsTheSender() throws {
        let root = TestSupport.temporaryDirectory("communication")
        defer { TestSupport.cleanUp(root) }
        let image = root.appendingPathComponent("streak.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: image)
        let server = try Child(TestSupport.executable("lockstep-probe"), ["__worker", "http-serve", image.path, "image/png"], keepStdinOpen: true)
        defer { server.closeStdin(); _ = server.finish() }
        let listening = try #require(server.waitForLine("listening http://127.0.0.1:"))
        let base = String(listening.dropFirst("listening ".count))
        let environment = ["LOCKSTEP_GROUPS": root.appendingPathComponent("groups").path]
        let payload = """
            {"aps": {"alert": {"title": "Habits", "body": "Nice streak!"}, "mutable-content": 1},
             "cheer": {"from": "Ana", "handle": "ana@example.com", "avatar": "ana.png"}, "image-url": "\(base)streak.png"}
            """
        let shown = try run(TestSupport.executable("lockstep-notification"), ["deliver", payload], environment: environment)
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.stdout.hasPrefix("shown: Ana — Nice streak! [message from Ana <ana@example.com>, avatar ana.png; attachment "), "\(shown)")
        #expect(shown.stdout.contains("-streak.png] (from the service extension"), "\(shown)")
        #expect(server.waitForLine("request GET /streak.png HTTP/1.1") != nil, "\(server.output)")

        let requests = server.output.filter { $0.hasPrefix("request ") }.count
        let offline = try run(TestSupport.executable("lockstep-notification"), ["deliver", payload],
                              environment: environment.merging(["LOCKSTEP_OFFLINE": "1"]) { $1 })
        #expect(offline.status == 0, "\(offline)")
        #expect(offline.stdout.hasPrefix("shown: Ana — Nice streak! [message from Ana <ana@example.com>, avatar ana.png] (from the service extension"), "\(offline)")
        #expect(offline.stdout.contains("the device is offline: LOCKSTEP_OFFLINE=1)"), "\(offline)")
        #expect(offline.stderr.contains("the image \(base)streak.png was not attached: The Internet connection appears to be offline."), "\(offline)")
        // Nothing reached the server while offline (it would have printed the request before the service's answer).
        #expect(server.output.filter { $0.hasPrefix("request ") }.count == requests)
    }

    /// FoundationNetworking (libcurl, TLS and some thirty libraries) is loaded before the first delivery, not at
    /// start: `up`'s launch check runs without it, and the delivery that fetches an attachment loads it. The dynamic
    /// loader names every library it loads, and who asked for it, under `LD_DEBUG=files`.
    @Test func networkingIsLoadedForTheFirstDeliveryNotAtStart() throws {
        let root = TestSupport.temporaryDirectory("networking-load")
        defer { TestSupport.cleanUp(root) }
        let image = root.appendingPathComponent("streak.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 9]).write(to: image)
        let server = try Child(TestSupport.executable("lockstep-probe"), ["__worker", "http-serve", image.path, "image/png"], keepStdinOpen: true)
        defer { server.closeStdin(); _ = server.finish() }
        let listening = try #require(server.waitForLine("listening http://127.0.0.1:"))
        let base = String(listening.dropFirst("listening ".count))
        let environment = ["LOCKSTEP_GROUPS": root.appendingPathComponent("groups").path, "LD_DEBUG": "files"]

        let check = try run(TestSupport.executable("lockstep-notification"), environment: environment.merging(["LOCKSTEP_LAUNCH_CHECK": "1"]) { $1 })
        #expect(check.status == 0 && check.stdout.hasPrefix("ready com.example.habits.notifications"), "\(check)")
        #expect(check.stderr.contains("file=libFoundation.so"), "the loader's lines are there: \(check.stderr)")
        #expect(!check.stderr.contains("file=libFoundationNetworking.so") && !check.stderr.contains("file=libcurl"), "\(check.stderr)")

        let payload = #"{"aps": {"alert": "Hi", "mutable-content": 1}, "image-url": "\#(base)streak.png"}"#
        let shown = try run(TestSupport.executable("lockstep-notification"), ["deliver", payload], environment: environment)
        #expect(shown.status == 0 && shown.stdout.contains("-streak.png] (from the service extension"), "\(shown)")
        #expect(shown.stderr.contains(try Regex(#"file=libFoundationNetworking\.so \[0\]; +dynamically loaded by"#)), "\(shown.stderr)")
    }
}
