import AppGroupKit
import Foundation
import HabitCore
import Intents
import LockstepFoundation
import LockstepRuntime
import LockstepSystem
import UserNotifications

/// The Habits notification service extension (rule `notification.service`): a reminder push with
/// `mutable-content` is rewritten with what is left today, read from the shared store in the App Group; a friend's
/// cheer (`"cheer": {"from", "handle", "avatar"}`) becomes a communication notification from that friend; and an
/// `"image-url"` is fetched (over HTTPS, as on a device) and attached.
public final class HabitsNotificationService: UNNotificationServiceExtension, @unchecked Sendable {
    public override init() { super.init() }

    public override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
            contentHandler(request.content)
            return
        }
        if let imageURL = (request.content.userInfo["image-url"] as? String).flatMap(URL.init(string:)) {
            attach(imageURL, to: content)
        }
        if let cheer = request.content.userInfo["cheer"] as? [String: Any], let friend = cheer["from"] as? String {
            do {
                contentHandler(try Self.fromFriend(friend, cheer, content))
            } catch {
                Standard.error("HabitsNotifications: \(error.localizedDescription)")
                contentHandler(content)
            }
            return
        }
        if let process = SimulatedProcess.current, let environment = try? HabitsEnvironment(process: process, role: .notification),
           let store = try? environment.openStoreIfCreated(), let summary = try? store.summary(on: environment.today()) {
            content.body = summary.incompleteHabits.isEmpty
                ? "All \(summary.totalHabits) habits done today 🎉"
                : "\(summary.incompleteHabits.count) left today: \(summary.incompleteHabits.map(\.name).joined(separator: ", "))"
        }
        contentHandler(content)
    }

    /// The cheer as a message from the friend: donated as an incoming message, then shown as from them.
    static func fromFriend(_ friend: String, _ cheer: [String: Any], _ content: UNMutableNotificationContent) throws -> UNNotificationContent {
        let handle = cheer["handle"] as? String
        let sender = INPerson(personHandle: INPersonHandle(value: handle, type: .emailAddress), nameComponents: nil, displayName: friend,
                              image: (cheer["avatar"] as? String).map { INImage(named: $0) }, contactIdentifier: nil,
                              customIdentifier: handle, isMe: false, suggestionType: .none)
        let intent = INSendMessageIntent(recipients: nil, outgoingMessageType: .outgoingMessageText, content: content.body,
                                         speakableGroupName: nil, conversationIdentifier: "cheers-\(handle ?? friend)", serviceName: nil,
                                         sender: sender, attachments: nil)
        let interaction = INInteraction(intent: intent, response: nil)
        interaction.direction = .incoming
        interaction.donate(completion: nil)
        return try content.updating(from: intent)
    }

    /// Fetches the image into the extension's temporary folder (inside its container, where an attachment must be)
    /// and attaches it; a fetch that fails leaves the notification without it, as on a device, and says why.
    private func attach(_ url: URL, to content: UNMutableNotificationContent) {
        do {
            let data = try Data(contentsOf: url)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + "-" + url.lastPathComponent)
            try AtomicFile.write(Array(data), to: file.path)
            content.attachments = [try UNNotificationAttachment(identifier: "image", url: file, options: nil)]
        } catch {
            Standard.error("HabitsNotifications: the image \(url.absoluteString) was not attached: \(Self.reason(error))")
        }
    }

    /// Why a fetch failed, as one sentence's end. On Linux `Data(contentsOf:)` wraps a failed load in a CocoaError
    /// whose description says nothing ("The operation could not be completed"); the reason — libcurl's words, such as
    /// "SSL certificate problem: self-signed certificate" — is the description of the innermost underlying error.
    static func reason(_ error: any Error) -> String {
        // Offline, libcurl's words would name the unreachable proxy that keeps the load on the machine (DeviceNetwork).
        if ProcessEnvironment.value("LOCKSTEP_OFFLINE") == "1" { return "The Internet connection appears to be offline." }
        var error = error as NSError
        // Foundation on Linux keeps the underlying error as an AnyHashable, which casts to an Error but not to NSError.
        while let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map({ $0 as NSError }),
              underlying.userInfo[NSLocalizedDescriptionKey] != nil {
            error = underlying
        }
        let reason = error.localizedDescription
        return reason.hasSuffix(".") ? reason : reason + "."
    }
}
