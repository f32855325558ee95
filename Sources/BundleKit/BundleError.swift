import LockstepSystem

/// Why BundleKit could not read or change an input: one sentence naming the file (`path`), bundle or key.
///
/// Findings (rule violations) are not errors: they are collected and reported (`Finding`). A `BundleError`
/// means the input itself could not be read (exit 2) and nothing was written.
public typealias BundleError = CodedError<BundleErrorCode>

extension BundleError {
    /// - Parameters:
    ///   - path: the file concerned.
    ///   - detail: what exactly is wrong: the missing key, the bad value, the unknown version.
    public init(_ code: BundleErrorCode, path: String, detail: String) {
        self.init(code, subject: path, detail: detail)
    }

    /// The file concerned.
    public var path: String {
        get { subject }
        set { subject = newValue }
    }
}

/// What a `BundleError` is.
public enum BundleErrorCode: ErrorCode {
    /// The file or folder does not exist or cannot be read.
    case unreadable
    /// The file is not a property list (XML, binary or OpenStep), or is truncated.
    case notAPropertyList
    /// The manifest is not valid JSON or misses a field; `detail` names it.
    case invalidManifest
    /// The manifest's `manifestVersion` is not one this reader knows.
    case unknownManifestVersion
    /// A zip that is not an `.ipa` (no `Payload/X.app`), or a damaged zip.
    case notAnIPA
    /// The path is none of the inputs `check` reads.
    case unsupportedInput
    /// An Xcode project that could not be read (truncated pbxproj, unknown object reference, include cycle).
    case invalidProject
    /// An XcodeGen spec that is not valid YAML or JSON, or that XcodeGen itself would refuse; `detail` names
    /// the line and column or the key.
    case invalidSpec
    /// `bump` was given a value that is not a valid version, or could not edit the file.
    case invalidBump
    /// `--configuration` names a build configuration the Xcode project does not have; `detail` lists them.
    case unknownConfiguration
    /// A `.lockstep.json` config that is not valid; `detail` names the key.
    case invalidConfig
    /// A baseline that does not exist, cannot be read or is not a JSON report of `check`; `detail` continues
    /// the sentence after the baseline's name (" named by 'c.json' does not exist").
    case invalidBaseline
    /// A file `check` was asked to write (a baseline) that cannot be written; nothing was written.
    case unwritable

    public func sentence(subject path: String, detail: String) -> String {
        switch self {
        case .unreadable: return "Cannot read '\(path)': \(detail)."
        case .notAPropertyList: return "'\(path)' is not a readable property list: \(detail)."
        case .invalidManifest: return "The manifest '\(path)' is invalid: \(detail)."
        case .unknownManifestVersion: return "The manifest '\(path)' has manifestVersion \(detail), which this Lockstep does not know (it reads 1)."
        case .notAnIPA: return "'\(path)' is not an .ipa: \(detail)."
        case .unsupportedInput: return "'\(path)' is not something lockstep check reads: \(detail)."
        case .invalidProject: return "The Xcode project '\(path)' cannot be read: \(detail)."
        case .invalidSpec: return "The XcodeGen spec '\(path)' cannot be read: \(detail)."
        case .invalidBump: return "Cannot bump '\(path)': \(detail)."
        case .unknownConfiguration:
            let spec = [".yml", ".yaml", ".json"].contains { path.lowercased().hasSuffix($0) }
            return "The \(spec ? "XcodeGen spec" : "Xcode project") '\(path)' has no build configuration \(detail)."
        case .invalidConfig: return "The lockstep config '\(path)' is invalid: \(detail)."
        case .invalidBaseline: return "The baseline '\(path)'\(detail)."
        case .unwritable: return "Cannot write '\(path)': \(detail)."
        }
    }

    /// Every BundleError means the input could not be read or changed; nothing was written.
    public var exitStatus: ExitStatus { .invalidInput }
}
