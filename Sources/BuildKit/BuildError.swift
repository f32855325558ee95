import LockstepSystem

/// Why a project could not be turned into a build: one sentence naming the project, target, file or folder
/// (`subject`), completed by `detail`. A target whose code does not compile is no error: the build report says so.
public typealias BuildError = CodedError<BuildErrorCode>

/// What a `BuildError` is.
public enum BuildErrorCode: ErrorCode {
    /// The project has no target Lockstep can run (no application or extension target).
    case noRunnableTarget
    /// `--target` names a target the project does not have, or one that is not among the app's bundles.
    case unknownTarget
    /// A target compiles a file that is not there.
    case missingSource
    /// A stand-in folder of `.lockstep.json` is not there, or holds no Swift file.
    case missingStandIn
    /// A local Swift package's manifest could not be read by `swift package dump-package`.
    case invalidPackage
    /// The project's Package.resolved is not JSON of a format Xcode writes.
    case invalidPackageResolved
    /// Lockstep's own package (the one the generated packages depend on), or the `swift` tool, is not there.
    case toolchain
    /// The build folder could not be written.
    case unwritable
    /// A target's `.intentdefinition` is not one Xcode could generate intent classes from.
    case invalidIntentDefinition
    /// SwiftPM could not fetch a package the project fetches from a URL (not reachable, or not at the pinned
    /// version or revision).
    case unreachablePackage

    public func sentence(subject: String, detail: String) -> String {
        switch self {
        case .noRunnableTarget: "The project '\(subject)' has no target Lockstep can run: \(detail)."
        case .unknownTarget: "The project has no target '\(subject)' \(detail)."
        case .missingSource: "The target '\(subject)' \(detail)."
        case .missingStandIn: "The stand-in for module '\(subject)' \(detail)."
        case .invalidPackage: "The local package '\(subject)' could not be read: \(detail)."
        case .invalidPackageResolved: "The project's Package.resolved '\(subject)' could not be read: \(detail)."
        case .toolchain: "Cannot build with '\(subject)': \(detail)."
        case .unwritable: "Could not write the build folder '\(subject)': \(detail)."
        case .invalidIntentDefinition: "The intent definition '\(subject)' cannot be read: \(detail)."
        case .unreachablePackage: "The package '\(subject)' \(detail)."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unreachablePackage: .unavailable
        default: .invalidInput
        }
    }
}
