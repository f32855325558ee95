/// The code of a module's error: what went wrong, written as the whole sentence and the exit status.
///
/// A module declares one `ErrorCode` enum and names its error type after it
/// (`public typealias LaunchError = CodedError<LaunchErrorCode>`); the stored fields, the initializer, the
/// description and the exit status are `CodedError`'s, written once for every module.
public protocol ErrorCode: Equatable, Sendable {
    /// The whole sentence for an error of this code about `subject` (the file, bundle, key …), completed by `detail`.
    func sentence(subject: String, detail: String) -> String
    /// The exit status an error of this code ends a process with (<doc:Design> "The command line").
    var exitStatus: ExitStatus { get }
}

/// One public error shape for every Lockstep module: a code, what the error is about, and the rest of its sentence.
///
/// `description` is the code's sentence and `exitStatus` its status, so `exit(withError:)` prints and exits
/// the same way for every module. Apple-shaped errors (`WCError`, `ActivityAuthorizationError`) keep Apple's API
/// instead.
public struct CodedError<C: ErrorCode>: ReportableError, Equatable, Sendable {
    /// The module's code enum, so `BundleError.Code` names `BundleErrorCode`.
    public typealias Code = C

    public var code: Code
    /// What the error is about: the file, bundle, group, key, habit or intent it names.
    public var subject: String
    /// The specific reason, completing the sentence.
    public var detail: String

    public init(_ code: Code, subject: String, detail: String = "") {
        self.code = code
        self.subject = subject
        self.detail = detail
    }

    public var description: String { code.sentence(subject: subject, detail: detail) }

    public var exitStatus: ExitStatus { code.exitStatus }
}
