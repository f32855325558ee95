import Foundation

/// A uniform type identifier, as `UniformTypeIdentifiers` declares it: the system's common types with their
/// conformances, filename extensions and MIME types, and the types an app exports or imports.
public struct UTType: Hashable, Sendable, CustomStringConvertible {
    public let identifier: String
    /// The system types it conforms to directly, by identifier.
    let parents: [String]
    /// An app-declared type it conforms to directly (`conformingTo:` a type of the app's own).
    let declaredParent: [UTType]
    public let preferredFilenameExtension: String?
    public let preferredMIMEType: String?
    /// Made from a filename extension or MIME type no type declares (`dyn.…`).
    public let isDynamic: Bool

    init(_ identifier: String, _ parents: [String], _ filenameExtension: String? = nil, _ mimeType: String? = nil, dynamic: Bool = false,
         declaredParent: UTType? = nil) {
        self.identifier = identifier
        self.parents = parents
        self.declaredParent = declaredParent.map { [$0] } ?? []
        preferredFilenameExtension = filenameExtension
        preferredMIMEType = mimeType
        isDynamic = dynamic
    }

    /// A system type by identifier; nil for one the system does not declare.
    public init?(_ identifier: String) {
        guard let known = UTType.system[identifier] else { return nil }
        self = known
    }

    /// A type the app declares in its Info.plist's `UTExportedTypeDeclarations`.
    public init(exportedAs identifier: String, conformingTo parent: UTType? = nil) {
        let parent = parent ?? .data
        self = UTType.system[identifier]
            ?? (UTType.system[parent.identifier] != nil ? UTType(identifier, [parent.identifier]) : UTType(identifier, [], declaredParent: parent))
    }

    /// A type the app uses that another app declares (`UTImportedTypeDeclarations`).
    public init(importedAs identifier: String, conformingTo parent: UTType? = nil) {
        self.init(exportedAs: identifier, conformingTo: parent)
    }

    /// The system type for a filename extension, or a dynamic one conforming to `supertype`.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        let lower = filenameExtension.lowercased()
        if let known = UTType.system.values.sorted(by: { $0.identifier < $1.identifier }).first(where: { $0.preferredFilenameExtension == lower || UTType.extraExtensions[lower] == $0.identifier }) {
            guard known.conforms(to: supertype) else { return nil }
            self = known
        } else {
            self.init("dyn.ext.\(lower)", [supertype.identifier], lower, dynamic: true)
        }
    }

    /// The system type for a MIME type, or a dynamic one conforming to `supertype`.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        let lower = mimeType.lowercased()
        if let known = UTType.system.values.sorted(by: { $0.identifier < $1.identifier }).first(where: { $0.preferredMIMEType == lower }) {
            guard known.conforms(to: supertype) else { return nil }
            self = known
        } else {
            self.init("dyn.mime.\(lower)", [supertype.identifier], nil, lower, dynamic: true)
        }
    }

    /// Whether this type is `type` or conforms to it through its supertypes.
    public func conforms(to type: UTType) -> Bool { self == type || supertypes.contains(type) }
    public func isSubtype(of type: UTType) -> Bool { self != type && conforms(to: type) }
    public func isSupertype(of type: UTType) -> Bool { type.isSubtype(of: self) }

    /// Every type it conforms to, through every level.
    public var supertypes: Set<UTType> {
        var found = Set(declaredParent)
        for parent in declaredParent { found.formUnion(parent.supertypes) }
        var queue = parents
        while let next = queue.popLast() {
            guard let type = UTType.system[next], found.insert(type).inserted else { continue }
            queue += type.parents
        }
        return found
    }

    public var isDeclared: Bool { !isDynamic }
    public var isPublicType: Bool { identifier.hasPrefix("public.") }
    public var localizedDescription: String? { identifier }
    public var description: String { identifier }

    public static func == (a: UTType, b: UTType) -> Bool { a.identifier == b.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}

extension UTType {
    public static let item = UTType("public.item", [])
    public static let content = UTType("public.content", [])
    public static let data = UTType("public.data", ["public.item"])
    public static let text = UTType("public.text", ["public.data", "public.content"])
    public static let plainText = UTType("public.plain-text", ["public.text"], "txt", "text/plain")
    public static let utf8PlainText = UTType("public.utf8-plain-text", ["public.plain-text"])
    public static let html = UTType("public.html", ["public.text"], "html", "text/html")
    public static let xml = UTType("public.xml", ["public.text"], "xml", "application/xml")
    public static let json = UTType("public.json", ["public.text"], "json", "application/json")
    public static let commaSeparatedText = UTType("public.comma-separated-values-text", ["public.text"], "csv", "text/csv")
    public static let rtf = UTType("public.rtf", ["public.text"], "rtf", "text/rtf")
    public static let sourceCode = UTType("public.source-code", ["public.plain-text"])
    public static let swiftSource = UTType("public.swift-source", ["public.source-code"], "swift", "text/x-swift")
    public static let propertyList = UTType("com.apple.property-list", ["public.data"], "plist")
    public static let url = UTType("public.url", ["public.data"])
    public static let fileURL = UTType("public.file-url", ["public.url"])
    public static let image = UTType("public.image", ["public.data", "public.content"])
    public static let png = UTType("public.png", ["public.image"], "png", "image/png")
    public static let jpeg = UTType("public.jpeg", ["public.image"], "jpeg", "image/jpeg")
    public static let gif = UTType("com.compuserve.gif", ["public.image"], "gif", "image/gif")
    public static let heic = UTType("public.heic", ["public.image"], "heic", "image/heic")
    public static let svg = UTType("public.svg-image", ["public.image"], "svg", "image/svg+xml")
    public static let pdf = UTType("com.adobe.pdf", ["public.data", "public.content"], "pdf", "application/pdf")
    public static let audiovisualContent = UTType("public.audiovisual-content", ["public.data", "public.content"])
    public static let movie = UTType("public.movie", ["public.audiovisual-content"])
    public static let video = UTType("public.video", ["public.movie"])
    public static let mpeg4Movie = UTType("public.mpeg-4", ["public.movie"], "mp4", "video/mp4")
    public static let quickTimeMovie = UTType("com.apple.quicktime-movie", ["public.movie"], "mov", "video/quicktime")
    public static let audio = UTType("public.audio", ["public.audiovisual-content"])
    public static let mp3 = UTType("public.mp3", ["public.audio"], "mp3", "audio/mpeg")
    public static let archive = UTType("public.archive", ["public.data"])
    public static let zip = UTType("public.zip-archive", ["public.archive"], "zip", "application/zip")
    public static let folder = UTType("public.folder", ["public.directory"])
    public static let directory = UTType("public.directory", ["public.item"])
    public static let vCard = UTType("public.vcard", ["public.text"], "vcf", "text/vcard")
    public static let emailMessage = UTType("public.email-message", ["public.data"], "eml", "message/rfc822")

    /// The declared system types, by identifier.
    static let system: [String: UTType] = Dictionary(uniqueKeysWithValues: [
        item, content, data, text, plainText, utf8PlainText, html, xml, json, commaSeparatedText, rtf, sourceCode, swiftSource,
        propertyList, url, fileURL, image, png, jpeg, gif, heic, svg, pdf, audiovisualContent, movie, video, mpeg4Movie,
        quickTimeMovie, audio, mp3, archive, zip, folder, directory, vCard, emailMessage,
    ].map { ($0.identifier, $0) })

    /// Other extensions of the system types (`jpg` is a JPEG).
    static let extraExtensions = ["jpg": "public.jpeg", "htm": "public.html", "text": "public.plain-text", "m4v": "public.mpeg-4"]
}
