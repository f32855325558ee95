import Foundation

// The SiriKit types the classes Xcode generates from an `.intentdefinition` name for parameters of the other kinds
// (a decimal, a date, a URL, a person, a file, a speakable string), with their resolution results.

/// A file a parameter of type File holds (kept, not opened).
open class INFile: NSObject, @unchecked Sendable {  // @unchecked: set up once, then handed over.
    open var data: Data
    open var filename: String
    open var typeIdentifier: String?
    open var fileURL: URL?

    public init(data: Data, filename: String, typeIdentifier: String?) {
        self.data = data
        self.filename = filename
        self.typeIdentifier = typeIdentifier
        super.init()
    }

    public convenience init(fileURL: URL, filename: String?, typeIdentifier: String?) {
        self.init(data: (try? Data(contentsOf: fileURL)) ?? Data(), filename: filename ?? fileURL.lastPathComponent, typeIdentifier: typeIdentifier)
        self.fileURL = fileURL
    }
}

open class INDoubleResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    open class func success(with resolvedValue: Double) -> Self { Self(outcome: .success, resolvedValue: resolvedValue) }
    open class func confirmationRequired(with valueToConfirm: NSNumber?) -> Self { Self(outcome: .confirmationRequired, resolvedValue: valueToConfirm) }
}

open class INDateComponentsResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    open class func success(with resolvedDateComponents: DateComponents) -> Self { Self(outcome: .success, resolvedValue: resolvedDateComponents) }
    open class func disambiguation(with dateComponentsToDisambiguate: [DateComponents]) -> Self { Self(outcome: .disambiguation, resolvedValue: dateComponentsToDisambiguate) }
    open class func confirmationRequired(with dateComponentsToConfirm: DateComponents?) -> Self { Self(outcome: .confirmationRequired, resolvedValue: dateComponentsToConfirm) }
}

open class INURLResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    open class func success(with resolvedURL: URL) -> Self { Self(outcome: .success, resolvedValue: resolvedURL) }
    open class func disambiguation(with urlsToDisambiguate: [URL]) -> Self { Self(outcome: .disambiguation, resolvedValue: urlsToDisambiguate) }
    open class func confirmationRequired(with urlToConfirm: URL?) -> Self { Self(outcome: .confirmationRequired, resolvedValue: urlToConfirm) }
}

open class INPersonResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    open class func success(with resolvedPerson: INPerson) -> Self { Self(outcome: .success, resolvedValue: resolvedPerson) }
    open class func disambiguation(with peopleToDisambiguate: [INPerson]) -> Self { Self(outcome: .disambiguation, resolvedValue: peopleToDisambiguate) }
    open class func confirmationRequired(with personToConfirm: INPerson?) -> Self { Self(outcome: .confirmationRequired, resolvedValue: personToConfirm) }
}

open class INFileResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    open class func success(with resolvedFile: INFile) -> Self { Self(outcome: .success, resolvedValue: resolvedFile) }
    open class func disambiguation(with filesToDisambiguate: [INFile]) -> Self { Self(outcome: .disambiguation, resolvedValue: filesToDisambiguate) }
    open class func confirmationRequired(with fileToConfirm: INFile?) -> Self { Self(outcome: .confirmationRequired, resolvedValue: fileToConfirm) }
}

open class INSpeakableStringResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    open class func success(with resolvedString: INSpeakableString) -> Self { Self(outcome: .success, resolvedValue: resolvedString) }
    open class func disambiguation(with stringsToDisambiguate: [INSpeakableString]) -> Self { Self(outcome: .disambiguation, resolvedValue: stringsToDisambiguate) }
    open class func confirmationRequired(with stringToConfirm: INSpeakableString?) -> Self { Self(outcome: .confirmationRequired, resolvedValue: stringToConfirm) }
}
