import Foundation

/// Foundation's extension request types, absent on Linux: what a share or action extension receives and how it
/// answers (rule `share.extension`). Code written against Apple's Foundation compiles unchanged.

/// Uniform type identifiers of the items a share sheet hands over.
public enum UTTypeIdentifier {
    public static let plainText = "public.plain-text"
    public static let url = "public.url"
    public static let fileURL = "public.file-url"
    public static let image = "public.image"
}

/// One item of a request, with its attachments.
open class NSExtensionItem: NSObject, @unchecked Sendable {
    open var attributedTitle: NSAttributedString?
    open var attributedContentText: NSAttributedString?
    open var attachments: [NSItemProvider]?
    open var userInfo: [AnyHashable: Any]?

    public override init() { super.init() }
}

/// A promise of an item of a type: `loadItem(forTypeIdentifier:)` delivers it.
open class NSItemProvider: NSObject, @unchecked Sendable {
    public typealias CompletionHandler = (NSSecureCoding?, (any Error)?) -> Void
    private var items: [(type: String, item: NSSecureCoding?)] = []

    public override init() { super.init() }

    public init(item: NSSecureCoding?, typeIdentifier: String?) {
        super.init()
        if let typeIdentifier { items.append((typeIdentifier, item)) }
    }

    /// Registers an item for another type.
    open func registerItem(forTypeIdentifier typeIdentifier: String, item: NSSecureCoding?) {
        items.append((typeIdentifier, item))
    }

    open var registeredTypeIdentifiers: [String] { items.map(\.type) }

    /// Whether it holds `typeIdentifier`, or a type that conforms to it (a file URL is a URL).
    open func hasItemConformingToTypeIdentifier(_ typeIdentifier: String) -> Bool {
        items.contains { Self.conforms($0.type, to: typeIdentifier) }
    }

    /// Delivers the item, or an error naming the type when it has none that conforms.
    open func loadItem(forTypeIdentifier typeIdentifier: String, options: [AnyHashable: Any]? = nil,
                       completionHandler: CompletionHandler? = nil) {
        guard let found = items.first(where: { Self.conforms($0.type, to: typeIdentifier) }) else {
            completionHandler?(nil, CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "The item provider has no item of type \(typeIdentifier)."]))
            return
        }
        completionHandler?(found.item, nil)
    }

    static func conforms(_ type: String, to parent: String) -> Bool {
        type == parent || (parent == UTTypeIdentifier.url && type == UTTypeIdentifier.fileURL)
            || parent == "public.data" || parent == "public.item"
    }
}

/// What a principal class handling a request without a view adopts (action and share extensions' non-UI form).
public protocol NSExtensionRequestHandling: NSObjectProtocol {
    func beginRequest(with context: NSExtensionContext)
}

/// The request an extension serves: its input items, and the one answer it must give — `completeRequest` or
/// `cancelRequest` (rule `share.extension`).
open class NSExtensionContext: NSObject, @unchecked Sendable {
    public let inputItems: [Any]
    let answered: (Answer) -> Void

    enum Answer {
        case completed(returning: [Any]?)
        case cancelled(any Error)
    }

    init(inputItems: [Any], answered: @escaping (Answer) -> Void) {
        self.inputItems = inputItems
        self.answered = answered
    }

    open func completeRequest(returningItems items: [Any]?, completionHandler: ((Bool) -> Void)? = nil) {
        answered(.completed(returning: items))
        completionHandler?(false)
    }

    open func cancelRequest(withError error: any Error) {
        answered(.cancelled(error))
    }
}
