import LockstepSystem

/// Why a WidgetKit operation failed: one sentence naming the widget kind, family or file (`subject`).
public typealias WidgetKitError = CodedError<WidgetKitErrorCode>

/// What a `WidgetKitError` is.
public enum WidgetKitErrorCode: ErrorCode {
    /// A family name that is not one of `WidgetFamily`'s, or one the widget does not support.
    case unknownFamily
    /// The provider did not call its completion handler in time.
    case providerTimedOut
    /// A reload request or budget file could not be written.
    case storage
    /// A command-line or stdin command the widget extension does not know.
    case usage
    /// `tap` names no control the widget's views show.
    case noSuchControl
    /// `--kind` names no widget of the bundle.
    case unknownKind
    /// A picture could not be written where `--svg` asked.
    case unwritable
    /// `configure` names a parameter an `IntentConfiguration`'s intent lacks, or a value not of its type.
    case invalidConfiguration
    /// `--device` names no device Lockstep has Apple's sizes for.
    case unknownDevice
    /// The family exists, but not on the device `--device` chose (`systemExtraLarge` on an iPhone).
    case familyNotOnDevice
    /// `--appearance` or `--dynamic-type` has a value that is not one of the option's.
    case invalidOption
    /// `render` names no size Control Center draws a control at.
    case unknownControlSize
    /// `push` names a widget that declares no `pushHandler`.
    case noPushHandler
    /// `tap` on a control that prompts for its configuration before `configure` set it.
    case controlNotConfigured

    public func sentence(subject: String, detail: String) -> String {
        // A detail quoted from another error may end with its own full stop.
        let detail = detail.hasSuffix(".") ? String(detail.dropLast()) : detail
        switch self {
        case .unknownFamily: return "'\(subject)' is not a widget family this widget supports (\(detail))."
        case .providerTimedOut: return "The timeline provider of '\(subject)' did not call its completion handler within \(detail)."
        case .storage: return "Could not record the widget request in '\(subject)': \(detail)."
        case .usage: return "'\(subject)' is not a command of the widget extension; use \(detail)."
        case .noSuchControl: return "The widget shows no button or toggle '\(subject)': \(detail)."
        case .unknownKind: return "'\(subject)' is not a widget of this bundle (\(detail))."
        case .unwritable: return "Could not write the picture to '\(subject)': \(detail); nothing was written."
        case .invalidConfiguration: return "The parameter '\(subject)' is invalid: \(detail)."
        case .unknownDevice: return "'\(subject)' is not a device Lockstep draws widgets for (one of \(detail))."
        case .familyNotOnDevice: return "\(subject) has no \(detail)."
        case .invalidOption: return "'\(subject)' is not \(detail)."
        case .controlNotConfigured: return "The control '\(subject)' asks the person to configure it when it is added (promptsForUserConfiguration()): configure it first (--kind \(subject) configure --PARAMETER VALUE)."
        case .noPushHandler: return "'\(subject)' declares no pushHandler(_:): iOS delivers no widget push to it."
        case .unknownControlSize: return "'\(subject)' is not a size Control Center draws the control '\(detail)' at (small, medium, large)."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownFamily, .usage, .noSuchControl, .unknownKind, .unknownDevice, .familyNotOnDevice, .invalidOption, .unknownControlSize,
             .noPushHandler, .controlNotConfigured: return .usage
        case .unwritable, .invalidConfiguration: return .invalidInput
        case .providerTimedOut, .storage: return .failure
        }
    }
}
