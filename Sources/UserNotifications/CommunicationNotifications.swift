import Foundation
import Intents

// Communication notifications (iOS 15): a notification service extension hands the content an `INSendMessageIntent`
// (`content.updating(from: intent)`), and the device shows the message as from its sender — the sender's name as the
// title (a group's name, with the sender under it), and the sender's avatar — instead of the app's own title and icon.

/// What a notification's content can be updated from (Apple's `UNNotificationContentProviding`): SiriKit's
/// `INSendMessageIntent`.
public protocol UNNotificationContentProviding: NSObjectProtocol {}

extension INSendMessageIntent: UNNotificationContentProviding {}

/// The sender and conversation a communication notification shows.
struct CommunicationContext: Sendable, Equatable {
    var sender: String
    var handle: String?
    var avatar: String?
    var groupName: String?
    var conversationIdentifier: String?

    /// How the device presents it, in the line Lockstep prints: `message from Ana <ana@example.com>, avatar ana.png`.
    var shownText: String {
        var text = "message from \(sender)"
        if let handle, !handle.isEmpty, handle != sender { text += " <\(handle)>" }
        if let groupName { text += " in \(groupName)" }
        text += avatar.map { ", avatar \($0)" } ?? ", no avatar"
        return text
    }
}

extension UNNotificationContent {
    /// A copy of this content presented as a message from the intent's sender (Apple's
    /// `updating(from:)`): its title becomes the sender's name — for a group conversation the group's name, with the
    /// sender as the subtitle — and the sender's (or the group's) image is its avatar.
    /// - Throws: `UNError` `.contentProvidingObjectNotAllowed` for a provider other than an `INSendMessageIntent`,
    ///   `.contentProvidingInvalid` for a message intent without a sender.
    public func updating(from provider: any UNNotificationContentProviding) throws -> UNNotificationContent {
        guard let message = provider as? INSendMessageIntent else {
            throw UNError(.contentProvidingObjectNotAllowed, "A notification's content can be updated from an INSendMessageIntent only, not from \(type(of: provider)).")
        }
        guard let sender = message.sender else {
            throw UNError(.contentProvidingInvalid, "The INSendMessageIntent has no sender, which a communication notification shows; give INSendMessageIntent(…, sender:) an INPerson.")
        }
        let updated = copied(into: UNNotificationContent())
        let group = message.speakableGroupName?.spokenPhrase
        if let group {
            updated.title = group
            updated.subtitle = sender.displayName
        } else {
            updated.title = sender.displayName
        }
        updated.communication = CommunicationContext(sender: sender.displayName, handle: sender.personHandle?.value,
                                                     avatar: message.keyImage().map(Self.describe), groupName: group,
                                                     conversationIdentifier: message.conversationIdentifier)
        return updated
    }

    /// An avatar as the printed line names it: its file or image name, or its size.
    private static func describe(_ image: INImage) -> String {
        image.url?.lastPathComponent ?? image.name ?? image.imageData.map { "image data (\($0.count) bytes)" } ?? "an image"
    }
}
