import Foundation

// SiriKit's people and messages, as a notification service extension builds a communication notification
// (`INPerson`, `INSendMessageIntent`, then `content.updating(from: intent)` in UserNotifications, which shows the
// sender's name and avatar).

/// How a person is reached (Apple's `INPersonHandle`): an address and its kind.
open class INPersonHandle: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    public let value: String?
    public let type: INPersonHandleType
    public let label: INPersonHandleLabel?

    public init(value: String?, type: INPersonHandleType, label: INPersonHandleLabel?) {
        self.value = value
        self.type = type
        self.label = label
        super.init()
    }

    public convenience init(value: String?, type: INPersonHandleType) { self.init(value: value, type: type, label: nil) }

    open override var description: String { value ?? "" }
}

public enum INPersonHandleType: Int, Sendable {
    case unknown = 0, emailAddress, phoneNumber
}

/// A handle's label (Apple's `INPersonHandleLabel`: `.home`, `.work`, `.mobile` …).
public struct INPersonHandleLabel: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let home = INPersonHandleLabel("_$!<Home>!$_")
    public static let work = INPersonHandleLabel("_$!<Work>!$_")
    public static let mobile = INPersonHandleLabel("_$!<Mobile>!$_")
    public static let other = INPersonHandleLabel("_$!<Other>!$_")
}

/// What kind of handle a person was suggested from (Apple's `INPersonSuggestionType`).
public enum INPersonSuggestionType: Int, Sendable {
    case none = 0, socialProfile, instantMessageAddress
}

/// A person in a conversation (Apple's `INPerson`): the sender or a recipient of a message.
open class INPerson: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    public let personHandle: INPersonHandle?
    public let nameComponents: PersonNameComponents?
    public let displayName: String
    public let image: INImage?
    public let contactIdentifier: String?
    public let customIdentifier: String?
    public let isMe: Bool
    public let suggestionType: INPersonSuggestionType

    public init(personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
                contactIdentifier: String?, customIdentifier: String?, isMe: Bool, suggestionType: INPersonSuggestionType) {
        self.personHandle = personHandle
        self.nameComponents = nameComponents
        // iOS shows the display name, else the name from the components, else the handle.
        self.displayName = displayName
            ?? nameComponents.flatMap(Self.shownName)
            ?? personHandle.value ?? ""
        self.image = image
        self.contactIdentifier = contactIdentifier
        self.customIdentifier = customIdentifier
        self.isMe = isMe
        self.suggestionType = suggestionType
        super.init()
    }

    public convenience init(personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
                            contactIdentifier: String?, customIdentifier: String?, isMe: Bool) {
        self.init(personHandle: personHandle, nameComponents: nameComponents, displayName: displayName, image: image,
                  contactIdentifier: contactIdentifier, customIdentifier: customIdentifier, isMe: isMe, suggestionType: .none)
    }

    public convenience init(personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
                            contactIdentifier: String?, customIdentifier: String?) {
        self.init(personHandle: personHandle, nameComponents: nameComponents, displayName: displayName, image: image,
                  contactIdentifier: contactIdentifier, customIdentifier: customIdentifier, isMe: false, suggestionType: .none)
    }

    open override var description: String { displayName }

    /// A name as a notification shows it: the nickname, else the given and family names.
    private static func shownName(_ components: PersonNameComponents) -> String? {
        if let nickname = components.nickname, !nickname.isEmpty { return nickname }
        let name = [components.givenName, components.familyName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? nil : name
    }
}

/// What a sent message is (Apple's `INOutgoingMessageType`).
public enum INOutgoingMessageType: Int, Sendable {
    case unknown = 0, outgoingMessageText, outgoingMessageAudio
}

/// A file sent with a message (Apple's `INSendMessageAttachment`).
open class INSendMessageAttachment: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    public let audioMessageFile: URL?
    public init(audioMessageFile: URL?) {
        self.audioMessageFile = audioMessageFile
        super.init()
    }
    open class func attachment(withAudioMessageFile audioMessageFile: URL) -> INSendMessageAttachment {
        INSendMessageAttachment(audioMessageFile: audioMessageFile)
    }
}

/// A message someone sent (Apple's `INSendMessageIntent`): for a communication notification, the sender, the
/// conversation and, for a group, its name.
open class INSendMessageIntent: INIntent, @unchecked Sendable {
    public private(set) var recipients: [INPerson]?
    public private(set) var outgoingMessageType: INOutgoingMessageType = .unknown
    public private(set) var content: String?
    public private(set) var speakableGroupName: INSpeakableString?
    public private(set) var conversationIdentifier: String?
    public private(set) var serviceName: String?
    public private(set) var sender: INPerson?
    public private(set) var attachments: [INSendMessageAttachment]?

    public required init() { super.init() }

    public convenience init(recipients: [INPerson]?, outgoingMessageType: INOutgoingMessageType, content: String?,
                            speakableGroupName: INSpeakableString?, conversationIdentifier: String?, serviceName: String?,
                            sender: INPerson?, attachments: [INSendMessageAttachment]?) {
        self.init()
        self.recipients = recipients
        self.outgoingMessageType = outgoingMessageType
        self.content = content
        self.speakableGroupName = speakableGroupName
        self.conversationIdentifier = conversationIdentifier
        self.serviceName = serviceName
        self.sender = sender
        self.attachments = attachments
    }

    public convenience init(recipients: [INPerson]?, outgoingMessageType: INOutgoingMessageType, content: String?,
                            speakableGroupName: INSpeakableString?, conversationIdentifier: String?, serviceName: String?, sender: INPerson?) {
        self.init(recipients: recipients, outgoingMessageType: outgoingMessageType, content: content, speakableGroupName: speakableGroupName,
                  conversationIdentifier: conversationIdentifier, serviceName: serviceName, sender: sender, attachments: nil)
    }

    /// A group conversation's image (set with `setImage(_:forParameterNamed: "speakableGroupName")`), else the sender's.
    open override func keyImage() -> INImage? { image(forParameterNamed: "speakableGroupName") ?? sender?.image }
}

/// The response to a sent message (Apple's `INSendMessageIntentResponse`).
open class INSendMessageIntentResponse: INIntentResponse, @unchecked Sendable {
    public enum Code: Int, Sendable {
        case unspecified = 0, ready, inProgress, success, failure, failureRequiringAppLaunch, failureMessageServiceNotAvailable
        case failureRequiringInAppAuthentication
    }

    public let code: Code

    public init(code: Code, userActivity: NSUserActivity?) {
        self.code = code
        super.init()
        self.userActivity = userActivity
    }
}

/// Which way an interaction went (Apple's `INInteractionDirection`): a received message is `.incoming`.
public enum INInteractionDirection: Int, Sendable {
    case unspecified = 0, outgoing, incoming
}
